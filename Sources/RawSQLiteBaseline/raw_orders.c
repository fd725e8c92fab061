// The raw baseline's order history: bulk insert, pages, stats and export. See RawSQLiteBaseline.h.

#include "raw_store.h"

#include <string.h>

int raw_insert_order_row(raw_store *store, int64_t number, const char *cart, int64_t placed_at, int64_t items,
                         int64_t total) {
    sqlite3_stmt *order = store->statements[RAW_INSERT_ORDER];
    sqlite3_bind_int64(order, 1, number);
    sqlite3_bind_text(order, 2, cart, -1, SQLITE_STATIC);
    sqlite3_bind_int64(order, 3, placed_at);
    sqlite3_bind_int64(order, 4, items);
    sqlite3_bind_int64(order, 5, total);
    return raw_exec(store, RAW_INSERT_ORDER);
}

int raw_insert_order_line(raw_store *store, int64_t number, int position, const char *sku, const char *name,
                          int64_t unit_price, int64_t quantity) {
    sqlite3_stmt *line = store->statements[RAW_INSERT_ORDER_LINE];
    sqlite3_bind_int64(line, 1, number);
    sqlite3_bind_int64(line, 2, position);
    sqlite3_bind_text(line, 3, sku, -1, SQLITE_STATIC);
    sqlite3_bind_text(line, 4, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(line, 5, unit_price);
    sqlite3_bind_int64(line, 6, quantity);
    sqlite3_bind_int64(line, 7, unit_price * quantity);
    return raw_exec(store, RAW_INSERT_ORDER_LINE);
}

int raw_insert_order(raw_store *store, int64_t number, const char *cart, int64_t placed_at, int line_count,
                     const char *const *skus, const char *const *names, const int64_t *unit_prices,
                     const int64_t *quantities) {
    int64_t items = 0, total = 0;
    for (int i = 0; i < line_count; i++) {
        items += quantities[i];
        total += unit_prices[i] * quantities[i];
    }
    int rc = raw_insert_order_row(store, number, cart, placed_at, items, total);
    for (int i = 0; i < line_count && rc == SQLITE_OK; i++)
        rc = raw_insert_order_line(store, number, i + 1, skus[i], names[i], unit_prices[i], quantities[i]);
    return rc;
}

int64_t raw_order_count(raw_store *store) {
    sqlite3_stmt *count = store->statements[RAW_ORDER_COUNT];
    int64_t result = sqlite3_step(count) == SQLITE_ROW ? sqlite3_column_int64(count, 0) : -1;
    sqlite3_reset(count);
    return result;
}

static void copy_text(char *destination, size_t capacity, sqlite3_stmt *statement, int column) {
    size_t length = (size_t)sqlite3_column_bytes(statement, column);
    if (length >= capacity) length = capacity - 1;
    memcpy(destination, sqlite3_column_text(statement, column), length);
    destination[length] = 0;
}

/// Steps a page of order headers and reads each order's lines; returns the count or -rc.
static int read_page(raw_store *store, sqlite3_stmt *page, raw_order *out) {
    int count = 0, rc;
    int begun = raw_exec(store, RAW_BEGIN_READ);
    if (begun) return -begun;
    sqlite3_stmt *lines = store->statements[RAW_ORDER_LINES];
    while ((rc = sqlite3_step(page)) == SQLITE_ROW) {
        raw_order *order = &out[count++];
        order->number = sqlite3_column_int64(page, 0);
        copy_text(order->cart_id, sizeof order->cart_id, page, 1);
        order->placed_at = sqlite3_column_int64(page, 2);
        order->total_items = sqlite3_column_int64(page, 3);
        order->total = sqlite3_column_int64(page, 4);
        order->line_count = 0;
        sqlite3_bind_int64(lines, 1, order->number);
        while (sqlite3_step(lines) == SQLITE_ROW && order->line_count < 8) {
            int i = order->line_count++;
            copy_text(order->lines[i].sku, sizeof order->lines[i].sku, lines, 0);
            copy_text(order->lines[i].name, sizeof order->lines[i].name, lines, 1);
            order->lines[i].unit_price = sqlite3_column_int64(lines, 2);
            order->lines[i].quantity = sqlite3_column_int64(lines, 3);
            order->lines[i].line_total = sqlite3_column_int64(lines, 4);
        }
        sqlite3_reset(lines);
    }
    sqlite3_reset(page);
    raw_exec(store, RAW_COMMIT);
    return rc == SQLITE_DONE ? count : -rc;
}

int raw_history_cart(raw_store *store, const char *cart, int limit, raw_order *out) {
    sqlite3_stmt *page = store->statements[RAW_HISTORY_CART];
    sqlite3_bind_text(page, 1, cart, -1, SQLITE_STATIC);
    sqlite3_bind_int(page, 2, limit);
    return read_page(store, page, out);
}

int raw_history_range(raw_store *store, int64_t since_ms, int64_t before_ms, int limit, raw_order *out) {
    sqlite3_stmt *page = store->statements[RAW_HISTORY_RANGE];
    sqlite3_bind_int64(page, 1, since_ms);
    sqlite3_bind_int64(page, 2, before_ms);
    sqlite3_bind_int(page, 3, limit);
    return read_page(store, page, out);
}

int raw_stats_by_day(raw_store *store, int64_t *checksum) {
    sqlite3_stmt *stats = store->statements[RAW_STATS_BY_DAY];
    int days = 0, rc;
    int64_t sum = 0;
    while ((rc = sqlite3_step(stats)) == SQLITE_ROW) {
        days++;
        sum += sqlite3_column_int64(stats, 0) + sqlite3_column_int64(stats, 1) + sqlite3_column_int64(stats, 2) +
               sqlite3_column_int64(stats, 3);
    }
    sqlite3_reset(stats);
    *checksum = sum;
    return rc == SQLITE_DONE ? days : -rc;
}

/// Appends the decimal digits of `value` at `p`; returns the new end.
static char *put_int(char *p, int64_t value) {
    char digits[24];
    int n = 0;
    uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0) *p++ = '-';
    while (n) *p++ = digits[--n];
    return p;
}

/// Appends a CSV field, quoted when it holds a comma, quote or line break.
static char *put_text(char *p, const unsigned char *text, int length) {
    int quote = 0;
    for (int i = 0; i < length; i++)
        if (text[i] == ',' || text[i] == '"' || text[i] == '\n' || text[i] == '\r') quote = 1;
    if (!quote) {
        memcpy(p, text, (size_t)length);
        return p + length;
    }
    *p++ = '"';
    for (int i = 0; i < length; i++) {
        if (text[i] == '"') *p++ = '"';
        *p++ = (char)text[i];
    }
    *p++ = '"';
    return p;
}

int64_t raw_export_lines(raw_store *store, char *buffer, size_t capacity, uint64_t *checksum) {
    // Room for one row: three texts of at most 200 characters, each doubled by quoting, and numbers.
    const size_t max_row = 3 * 404 + 8 * 24;
    sqlite3_stmt *rows = store->statements[RAW_EXPORT];
    int64_t count = 0;
    uint64_t sum = 0;
    char *p = buffer;
    int rc;
    int begun = raw_exec(store, RAW_BEGIN_READ);
    if (begun) return -begun;
    while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
        if ((size_t)(p - buffer) + max_row > capacity) {
            sum += (uint64_t)(p - buffer);
            p = buffer;
        }
        p = put_int(p, sqlite3_column_int64(rows, 0));
        *p++ = ',';
        p = put_int(p, sqlite3_column_int64(rows, 1));
        *p++ = ',';
        for (int column = 2; column <= 4; column++) {
            p = put_text(p, sqlite3_column_text(rows, column), sqlite3_column_bytes(rows, column));
            *p++ = ',';
        }
        p = put_int(p, sqlite3_column_int64(rows, 5));
        *p++ = ',';
        p = put_int(p, sqlite3_column_int64(rows, 6));
        *p++ = ',';
        p = put_int(p, sqlite3_column_int64(rows, 7));
        *p++ = '\n';
        count++;
    }
    sqlite3_reset(rows);
    raw_exec(store, RAW_COMMIT);
    *checksum = sum + (uint64_t)(p - buffer);
    return rc == SQLITE_DONE ? count : -rc;
}
