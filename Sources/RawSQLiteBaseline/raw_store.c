// The raw baseline's connection, schema and cart transactions. See RawSQLiteBaseline.h.

#include "raw_store.h"

#include <stdlib.h>
#include <string.h>

static const char *const schema =
    "CREATE TABLE IF NOT EXISTS products (sku TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL,"
    " price INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 1, stock INTEGER) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS carts (id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL,"
    " updated_at INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS cart_lines (cart_id TEXT NOT NULL, sku TEXT NOT NULL,"
    " quantity INTEGER NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (cart_id, sku)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS orders (number INTEGER PRIMARY KEY, cart_id TEXT NOT NULL,"
    " placed_at INTEGER NOT NULL, total_items INTEGER NOT NULL, total INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS orders_by_cart ON orders (cart_id, placed_at);"
    "CREATE INDEX IF NOT EXISTS orders_by_time ON orders (placed_at);"
    "CREATE TABLE IF NOT EXISTS order_lines (order_number INTEGER NOT NULL, position INTEGER NOT NULL,"
    " sku TEXT NOT NULL, name TEXT NOT NULL, unit_price INTEGER NOT NULL, quantity INTEGER NOT NULL,"
    " line_total INTEGER NOT NULL, PRIMARY KEY (order_number, position)) WITHOUT ROWID;";

static const char *const statement_sql[RAW_STATEMENT_COUNT] = {
    [RAW_BEGIN] = "BEGIN IMMEDIATE",
    [RAW_COMMIT] = "COMMIT",
    [RAW_ROLLBACK] = "ROLLBACK",
    [RAW_IMPORT_PRODUCT] =
        "INSERT INTO products (sku, name, price, active, stock) VALUES (?1, ?2, ?3, 1, ?4)"
        " ON CONFLICT (sku) DO UPDATE SET name = excluded.name, price = excluded.price, active = 1,"
        " stock = excluded.stock",
    [RAW_SELECT_PRODUCT] = "SELECT active, price, stock FROM products WHERE sku = ?1",
    [RAW_BUMP_CART] =
        "INSERT INTO carts (id, version, updated_at) VALUES (?1, 1, ?2)"
        " ON CONFLICT (id) DO UPDATE SET version = version + 1, updated_at = excluded.updated_at"
        " RETURNING version",
    [RAW_UPSERT_LINE] =
        "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)"
        " ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = quantity + excluded.quantity"
        " WHERE quantity + excluded.quantity <= ?5",
    [RAW_SELECT_CART_LINES] =
        "SELECT l.sku, p.name, p.price, p.active, p.stock, l.quantity FROM cart_lines AS l"
        " JOIN products AS p ON p.sku = l.sku WHERE l.cart_id = ?1 ORDER BY l.position",
    [RAW_LAST_ORDER] = "SELECT coalesce(max(number), 0) FROM orders",
    [RAW_INSERT_ORDER] =
        "INSERT INTO orders (number, cart_id, placed_at, total_items, total) VALUES (?1, ?2, ?3, ?4, ?5)",
    [RAW_INSERT_ORDER_LINE] =
        "INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [RAW_DECREMENT_STOCK] = "UPDATE products SET stock = stock - ?2 WHERE sku = ?1",
    [RAW_DELETE_CART_LINES] = "DELETE FROM cart_lines WHERE cart_id = ?1",
    [RAW_ORDER_COUNT] = "SELECT count(*) FROM orders",
    [RAW_HISTORY_CART] =
        "SELECT number, cart_id, placed_at, total_items, total FROM orders WHERE cart_id = ?1"
        " ORDER BY placed_at DESC, number DESC LIMIT ?2",
    [RAW_HISTORY_RANGE] =
        "SELECT number, cart_id, placed_at, total_items, total FROM orders"
        " WHERE placed_at >= ?1 AND placed_at < ?2 ORDER BY placed_at DESC, number DESC LIMIT ?3",
    [RAW_ORDER_LINES] =
        "SELECT sku, name, unit_price, quantity, line_total FROM order_lines WHERE order_number = ?1"
        " ORDER BY position",
    [RAW_STATS_BY_DAY] =
        "SELECT placed_at / 86400000 AS day, count(*), sum(total_items), sum(total) FROM orders"
        " GROUP BY day ORDER BY day",
    [RAW_EXPORT] =
        "SELECT o.number, o.placed_at, o.cart_id, l.sku, l.name, l.quantity, l.unit_price, l.line_total"
        " FROM orders AS o JOIN order_lines AS l ON l.order_number = o.number ORDER BY o.number, l.position",
    [RAW_BEGIN_READ] = "BEGIN DEFERRED",
};

raw_store *raw_open(const char *path, int64_t max_line_quantity) {
    raw_store *store = calloc(1, sizeof *store);
    if (!store) return NULL;
    store->max_line_quantity = max_line_quantity;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &store->db, flags, NULL) != SQLITE_OK) goto fail;
    sqlite3_busy_timeout(store->db, 5000);
    if (sqlite3_exec(store->db,
                     "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                     NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    if (sqlite3_exec(store->db, schema, NULL, NULL, NULL) != SQLITE_OK) goto fail;
    for (int i = 0; i < RAW_STATEMENT_COUNT; i++) {
        if (sqlite3_prepare_v3(store->db, statement_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &store->statements[i],
                               NULL) != SQLITE_OK)
            goto fail;
    }
    return store;
fail:
    raw_close(store);
    return NULL;
}

void raw_close(raw_store *store) {
    if (!store) return;
    for (int i = 0; i < RAW_STATEMENT_COUNT; i++) sqlite3_finalize(store->statements[i]);
    sqlite3_close_v2(store->db);
    free(store);
}

int raw_exec(raw_store *store, enum raw_statement id) {
    sqlite3_stmt *statement = store->statements[id];
    int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int raw_fail(raw_store *store, int rc) {
    if (!sqlite3_get_autocommit(store->db)) raw_exec(store, RAW_ROLLBACK);
    return rc;
}

int raw_begin(raw_store *store) { return raw_exec(store, RAW_BEGIN); }

int raw_commit(raw_store *store) { return raw_exec(store, RAW_COMMIT); }

int raw_import_products(raw_store *store, int count, const char *text, const int32_t *sku_offsets,
                        const int32_t *name_offsets, const int64_t *prices, const int64_t *stocks) {
    int rc = raw_exec(store, RAW_BEGIN);
    if (rc) return rc;
    sqlite3_stmt *insert = store->statements[RAW_IMPORT_PRODUCT];
    for (int i = 0; i < count; i++) {
        sqlite3_bind_text(insert, 1, text + sku_offsets[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, text + name_offsets[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 3, prices[i]);
        if (stocks[i] < 0) sqlite3_bind_null(insert, 4); else sqlite3_bind_int64(insert, 4, stocks[i]);
        rc = sqlite3_step(insert);
        sqlite3_reset(insert);
        if (rc != SQLITE_DONE) return raw_fail(store, rc);
    }
    return raw_exec(store, RAW_COMMIT);
}

int raw_add_to_cart(raw_store *store, const char *cart, const char *sku, int64_t quantity, int64_t now_ms) {
    int rc = raw_exec(store, RAW_BEGIN);
    if (rc) return rc;
    sqlite3_stmt *product = store->statements[RAW_SELECT_PRODUCT];
    sqlite3_bind_text(product, 1, sku, -1, SQLITE_STATIC);
    rc = sqlite3_step(product);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(product);
        return raw_fail(store, rc == SQLITE_DONE ? RAW_UNKNOWN_PRODUCT : rc);
    }
    int active = sqlite3_column_int(product, 0);
    int64_t price = sqlite3_column_int64(product, 1);
    int64_t cap = store->max_line_quantity;
    if (sqlite3_column_type(product, 2) != SQLITE_NULL && sqlite3_column_int64(product, 2) < cap)
        cap = sqlite3_column_int64(product, 2);
    sqlite3_reset(product);
    int64_t total;
    if (!active) return raw_fail(store, RAW_INACTIVE_PRODUCT);
    if (quantity < 1 || quantity > cap) return raw_fail(store, RAW_OVER_CAP);
    if (__builtin_mul_overflow(price, cap, &total)) return raw_fail(store, RAW_OVERFLOW);

    sqlite3_stmt *bump = store->statements[RAW_BUMP_CART];
    sqlite3_bind_text(bump, 1, cart, -1, SQLITE_STATIC);
    sqlite3_bind_int64(bump, 2, now_ms);
    rc = sqlite3_step(bump);
    int64_t version = sqlite3_column_int64(bump, 0);
    sqlite3_reset(bump);
    if (rc != SQLITE_ROW) return raw_fail(store, rc);

    // The line's position is the cart version that created it, so lines keep their order.
    sqlite3_stmt *line = store->statements[RAW_UPSERT_LINE];
    sqlite3_bind_text(line, 1, cart, -1, SQLITE_STATIC);
    sqlite3_bind_text(line, 2, sku, -1, SQLITE_STATIC);
    sqlite3_bind_int64(line, 3, quantity);
    sqlite3_bind_int64(line, 4, version);
    sqlite3_bind_int64(line, 5, cap);
    rc = sqlite3_step(line);
    sqlite3_reset(line);
    if (rc != SQLITE_DONE) return raw_fail(store, rc);
    if (sqlite3_changes(store->db) == 0) return raw_fail(store, RAW_OVER_CAP);
    return raw_exec(store, RAW_COMMIT);
}

int raw_checkout(raw_store *store, const char *cart, int64_t now_ms, int64_t *order_number) {
    enum { max_lines = 128 };
    struct {
        char sku[65], name[201];
        int64_t price, quantity, stock;
        int tracked;
    } lines[max_lines];
    int rc = raw_exec(store, RAW_BEGIN);
    if (rc) return rc;
    sqlite3_stmt *select = store->statements[RAW_SELECT_CART_LINES];
    sqlite3_bind_text(select, 1, cart, -1, SQLITE_STATIC);
    int count = 0;
    int64_t items = 0, total = 0;
    while ((rc = sqlite3_step(select)) == SQLITE_ROW && count < max_lines) {
        int64_t quantity = sqlite3_column_int64(select, 5);
        int64_t cap = store->max_line_quantity;
        lines[count].tracked = sqlite3_column_type(select, 4) != SQLITE_NULL;
        lines[count].stock = sqlite3_column_int64(select, 4);
        if (lines[count].tracked && lines[count].stock < cap) cap = lines[count].stock;
        if (!sqlite3_column_int(select, 3)) rc = RAW_INACTIVE_PRODUCT;
        else if (quantity > cap) rc = RAW_OVER_CAP;
        if (rc != SQLITE_ROW) break;
        memcpy(lines[count].sku, sqlite3_column_text(select, 0), (size_t)sqlite3_column_bytes(select, 0) + 1);
        memcpy(lines[count].name, sqlite3_column_text(select, 1), (size_t)sqlite3_column_bytes(select, 1) + 1);
        lines[count].price = sqlite3_column_int64(select, 2);
        lines[count].quantity = quantity;
        int64_t line_total;
        if (__builtin_mul_overflow(lines[count].price, quantity, &line_total) ||
            __builtin_add_overflow(total, line_total, &total)) {
            rc = RAW_OVERFLOW;
            break;
        }
        items += quantity;
        count++;
    }
    sqlite3_reset(select);
    if (rc != SQLITE_DONE) return raw_fail(store, rc);
    if (count == 0) return raw_fail(store, RAW_EMPTY_CART);

    sqlite3_stmt *last = store->statements[RAW_LAST_ORDER];
    sqlite3_step(last);
    int64_t number = sqlite3_column_int64(last, 0) + 1;
    sqlite3_reset(last);

    if ((rc = raw_insert_order_row(store, number, cart, now_ms, items, total))) return raw_fail(store, rc);
    sqlite3_stmt *stock = store->statements[RAW_DECREMENT_STOCK];
    for (int i = 0; i < count; i++) {
        rc = raw_insert_order_line(store, number, i + 1, lines[i].sku, lines[i].name, lines[i].price,
                                   lines[i].quantity);
        if (rc) return raw_fail(store, rc);
        if (!lines[i].tracked) continue;
        sqlite3_bind_text(stock, 1, lines[i].sku, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stock, 2, lines[i].quantity);
        if ((rc = raw_exec(store, RAW_DECREMENT_STOCK))) return raw_fail(store, rc);
    }
    sqlite3_bind_text(store->statements[RAW_DELETE_CART_LINES], 1, cart, -1, SQLITE_STATIC);
    if ((rc = raw_exec(store, RAW_DELETE_CART_LINES))) return raw_fail(store, rc);
    sqlite3_stmt *bump = store->statements[RAW_BUMP_CART];
    sqlite3_bind_text(bump, 1, cart, -1, SQLITE_STATIC);
    sqlite3_bind_int64(bump, 2, now_ms);
    if ((rc = raw_exec(store, RAW_BUMP_CART))) return raw_fail(store, rc);
    if ((rc = raw_exec(store, RAW_COMMIT))) return raw_fail(store, rc);
    *order_number = number;
    return RAW_OK;
}
