#ifndef RAW_SQLITE_BASELINE_H
#define RAW_SQLITE_BASELINE_H

// The raw SQLite baseline of `cart-bench`: the same jobs as the cart library, written once in
// plain SQLite C-API calls by a careful C programmer, with its own minimal schema. It shares no
// SQL with the project and does not change when the project's SQL does.
//
// Same pragmas as the project: WAL, synchronous=NORMAL, foreign_keys=ON, a busy timeout,
// BEGIN IMMEDIATE for writes, every statement prepared once (SQLITE_PREPARE_PERSISTENT).

#include <stddef.h>
#include <stdint.h>

typedef struct raw_store raw_store;

/// Results of the raw calls: 0 on success, a positive SQLite result code, or a rule refusal.
enum {
    RAW_OK = 0,
    RAW_UNKNOWN_PRODUCT = -1,
    RAW_INACTIVE_PRODUCT = -2,
    RAW_OVER_CAP = -3,
    RAW_EMPTY_CART = -4,
    RAW_OVERFLOW = -5,
};

/// Opens (creating the schema if needed) the database at `path`; NULL on failure.
raw_store *raw_open(const char *path, int64_t max_line_quantity);
void raw_close(raw_store *store);

/// Imports `count` products in one transaction: names and SKUs are NUL-terminated strings at
/// `offsets` inside `text`; `stocks[i] < 0` means untracked.
int raw_import_products(raw_store *store, int count, const char *text, const int32_t *sku_offsets,
                        const int32_t *name_offsets, const int64_t *prices, const int64_t *stocks);

/// Adds `quantity` units of `sku` to `cart` in one transaction: reads the product (active,
/// price, stock), upserts the line within the cap, bumps the cart version.
int raw_add_to_cart(raw_store *store, const char *cart, const char *sku, int64_t quantity, int64_t now_ms);

/// Turns a cart into an order in one transaction: reads the lines with their products,
/// checks them, numbers the order, inserts it with its lines, decrements tracked stock,
/// clears the cart and bumps its version.
int raw_checkout(raw_store *store, const char *cart, int64_t now_ms, int64_t *order_number);

/// Starts / commits one large write transaction (for bulk generation).
int raw_begin(raw_store *store);
int raw_commit(raw_store *store);

/// Inserts one order with `line_count` lines (inside raw_begin/raw_commit).
int raw_insert_order(raw_store *store, int64_t number, const char *cart, int64_t placed_at, int line_count,
                     const char *const *skus, const char *const *names, const int64_t *unit_prices,
                     const int64_t *quantities);

/// How many orders the store holds.
int64_t raw_order_count(raw_store *store);

/// One order of a history page, with its lines copied out as a C program would.
typedef struct {
    int64_t number, placed_at, total_items, total;
    char cart_id[129];
    int line_count;
    struct {
        char sku[65];
        char name[201];
        int64_t unit_price, quantity, line_total;
    } lines[8];
} raw_order;

/// Newest `limit` orders of one cart, newest first; returns how many were read, or -rc.
int raw_history_cart(raw_store *store, const char *cart, int limit, raw_order *out);

/// Newest `limit` orders placed in [since_ms, before_ms); returns how many, or -rc.
int raw_history_range(raw_store *store, int64_t since_ms, int64_t before_ms, int limit, raw_order *out);

/// Orders, units and revenue per UTC day over every order; returns the number of days, or -rc.
int raw_stats_by_day(raw_store *store, int64_t *checksum);

/// Writes every order line as one CSV-like row into `buffer` (emptied whenever it fills, as a
/// writer flushing to a pipe would); returns the number of lines, or -rc.
int64_t raw_export_lines(raw_store *store, char *buffer, size_t capacity, uint64_t *checksum);

#endif
