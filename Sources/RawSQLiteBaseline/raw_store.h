// Internals shared by the raw baseline's C files.
#ifndef RAW_STORE_INTERNAL_H
#define RAW_STORE_INTERNAL_H

#include <sqlite3.h>

#include "RawSQLiteBaseline.h"

enum raw_statement {
    RAW_BEGIN,
    RAW_COMMIT,
    RAW_ROLLBACK,
    RAW_IMPORT_PRODUCT,
    RAW_SELECT_PRODUCT,
    RAW_BUMP_CART,
    RAW_UPSERT_LINE,
    RAW_SELECT_CART_LINES,
    RAW_LAST_ORDER,
    RAW_INSERT_ORDER,
    RAW_INSERT_ORDER_LINE,
    RAW_DECREMENT_STOCK,
    RAW_DELETE_CART_LINES,
    RAW_ORDER_COUNT,
    RAW_HISTORY_CART,
    RAW_HISTORY_RANGE,
    RAW_ORDER_LINES,
    RAW_STATS_BY_DAY,
    RAW_EXPORT,
    RAW_BEGIN_READ,
    RAW_STATEMENT_COUNT
};

struct raw_store {
    sqlite3 *db;
    int64_t max_line_quantity;
    sqlite3_stmt *statements[RAW_STATEMENT_COUNT];
};

/// Steps a statement that needs no column values to its end and resets it; SQLITE_OK or rc.
int raw_exec(raw_store *store, enum raw_statement id);

/// Rolls back the open transaction, if any, and returns `rc`.
int raw_fail(raw_store *store, int rc);

/// Inserts one order row; SQLITE_OK or rc.
int raw_insert_order_row(raw_store *store, int64_t number, const char *cart, int64_t placed_at, int64_t items,
                         int64_t total);

/// Inserts one order line (line_total = unit_price × quantity); SQLITE_OK or rc.
int raw_insert_order_line(raw_store *store, int64_t number, int position, const char *sku, const char *name,
                          int64_t unit_price, int64_t quantity);

#endif
