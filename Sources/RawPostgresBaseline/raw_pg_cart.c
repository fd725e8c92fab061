// The raw libpq baseline's cart units: add-to-cart, checkout and a history read, with the
// statements of raw_pg_cart_sql in the round trips PostgresCartRepository uses (BEGIN with the
// first statement, each write alone with its row count checked). The rules are CartService's,
// written out in C. See RawPostgresBaseline.h.

#include "raw_pg_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_BEGIN_WRITE = RAW_PG_CART_FIRST_SLOT,
    S_BEGIN_READ,
    S_COMMIT,
    S_ROLLBACK,
    S_SETTINGS,
    S_LINE_CONTEXT,
    S_INSERT_LINE,
    S_UPDATE_LINE,
    S_INSERT_CART,
    S_UPDATE_CART,
    S_LOCK_CART,
    S_LOCK_LINES,
    S_LOCK_LAST_NUMBER,
    S_INSERT_ORDER,
    S_UPDATE_STOCK,
    S_DELETE_LINES,
    S_END,
};

int raw_pg_cart_prepare(raw_pg *pg, const raw_pg_cart_sql *sql) {
    const char *texts[S_END - RAW_PG_CART_FIRST_SLOT] = {
        sql->begin_write, sql->begin_read, sql->commit, sql->rollback, sql->settings, sql->line_context,
        sql->insert_line, sql->update_line, sql->insert_cart, sql->update_cart, sql->lock_cart, sql->lock_lines,
        sql->lock_last_number, sql->insert_order, sql->update_stock, sql->delete_lines,
    };
    for (int i = 0; i < S_END - RAW_PG_CART_FIRST_SLOT; i++) {
        if (raw_pg_prepare(pg, RAW_PG_CART_FIRST_SLOT + i, texts[i]) != 0) return -1;
    }
    return 0;
}

static void slot_name(int slot, char name[16]) { snprintf(name, 16, "raw_%d", slot); }

static int ok(const PGresult *result) {
    ExecStatusType status = PQresultStatus(result);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

/// One statement in one round trip; NULL when libpq fails, else a result to clear.
static PGresult *run(raw_pg *pg, int slot, int count, const char *const *values) {
    char name[16];
    slot_name(slot, name);
    return PQexecPrepared(pg->conn, name, count, values, NULL, NULL, 0);
}

/// Two statements in one round trip (a pipeline); the second's result goes to `second`, to
/// clear. 0 when both succeed.
static int run_two(raw_pg *pg, int first_slot, int first_count, const char *const *first_values, int second_slot,
                   int second_count, const char *const *second_values, PGresult **second) {
    char name[16];
    *second = NULL;
    if (!PQenterPipelineMode(pg->conn)) return -1;
    slot_name(first_slot, name);
    int sent = PQsendQueryPrepared(pg->conn, name, first_count, first_values, NULL, NULL, 0);
    slot_name(second_slot, name);
    sent = sent && PQsendQueryPrepared(pg->conn, name, second_count, second_values, NULL, NULL, 0);
    sent = sent && PQpipelineSync(pg->conn);
    int failed = !sent;
    for (int i = 0; sent && i < 2; i++) {
        PGresult *result = PQgetResult(pg->conn);
        if (result == NULL || !ok(result)) failed = 1;
        if (i == 1 && result != NULL && ok(result)) *second = result;
        else PQclear(result);
        while ((result = PQgetResult(pg->conn)) != NULL) PQclear(result);
    }
    if (sent) PQclear(PQgetResult(pg->conn));  // the sync
    PQexitPipelineMode(pg->conn);
    if (failed && *second) {
        PQclear(*second);
        *second = NULL;
    }
    return failed ? -1 : 0;
}

/// Runs a write and returns 0 if it changed exactly one row, else the code to fail with.
static int change_one(raw_pg *pg, int slot, int count, const char *const *values) {
    PGresult *result = run(pg, slot, count, values);
    int code = ok(result) ? (strcmp(PQcmdTuples(result), "1") == 0 ? RAW_PG_OK : RAW_PG_CONFLICT) : RAW_PG_FAILED;
    PQclear(result);
    return code;
}

static int fail(raw_pg *pg, int code) {
    PQclear(run(pg, S_ROLLBACK, 0, NULL));
    return code;
}

/// COMMIT; 0 when the server committed.
static int commit(raw_pg *pg) {
    PGresult *result = run(pg, S_COMMIT, 0, NULL);
    int committed = ok(result) && strcmp(PQcmdStatus(result), "COMMIT") == 0;
    PQclear(result);
    if (!committed) return fail(pg, RAW_PG_FAILED);
    return RAW_PG_OK;
}

static int64_t integer(const PGresult *result, int column) { return strtoll(PQgetvalue(result, 0, column), NULL, 10); }

static int is_null(const PGresult *result, int column) { return PQgetisnull(result, 0, column); }

/// BEGIN and the settings in one round trip: the caps.
static int begin_with_settings(raw_pg *pg, int64_t *max_line_quantity, int64_t *max_lines, char currency[4]) {
    PGresult *settings;
    if (run_two(pg, S_BEGIN_WRITE, 0, NULL, S_SETTINGS, 0, NULL, &settings) != 0) return fail(pg, RAW_PG_FAILED);
    if (PQntuples(settings) != 1) {
        PQclear(settings);
        return fail(pg, RAW_PG_FAILED);
    }
    snprintf(currency, 4, "%s", PQgetvalue(settings, 0, 0));
    *max_line_quantity = integer(settings, 3);
    *max_lines = integer(settings, 4);
    PQclear(settings);
    return RAW_PG_OK;
}

int raw_pg_add_to_cart(raw_pg *pg, const char *cart, const char *sku, int64_t quantity, int64_t now_ms) {
    // BEGIN and the line's context, which holds the settings too, in one round trip.
    const char *context_values[] = {cart, sku};
    PGresult *context;
    if (run_two(pg, S_BEGIN_WRITE, 0, NULL, S_LINE_CONTEXT, 2, context_values, &context) != 0)
        return fail(pg, RAW_PG_FAILED);
    if (PQntuples(context) != 1 || is_null(context, 7)) {
        PQclear(context);
        return fail(pg, RAW_PG_FAILED);
    }
    int64_t max_line_quantity = integer(context, 10);
    int64_t max_lines = integer(context, 11);
    int code;
    if (quantity < 1 || quantity > max_line_quantity) {
        PQclear(context);
        return fail(pg, RAW_PG_REFUSED);
    }
    int cart_exists = !is_null(context, 0);
    int64_t version = cart_exists ? integer(context, 0) : 0;
    int64_t line_count = cart_exists ? integer(context, 1) : 0;
    int64_t next_position = cart_exists ? integer(context, 2) : 1;
    int product_exists = !is_null(context, 3);
    int64_t price = product_exists ? integer(context, 3) : 0;
    int active = product_exists && PQgetvalue(context, 0, 4)[0] == 't';
    int tracked = !is_null(context, 5);
    int64_t stock = tracked ? integer(context, 5) : 0;
    int line_exists = !is_null(context, 6);
    int64_t current = line_exists ? integer(context, 6) : 0;
    PQclear(context);

    int64_t requested, total;
    if (!product_exists || !active) return fail(pg, RAW_PG_REFUSED);
    if (__builtin_add_overflow(current, quantity, &requested)) requested = INT64_MAX;
    if (requested > max_line_quantity || (tracked && requested > stock)) return fail(pg, RAW_PG_REFUSED);
    if (__builtin_mul_overflow(price, requested, &total)) return fail(pg, RAW_PG_REFUSED);

    char text[5][24];
    snprintf(text[0], sizeof text[0], "%lld", (long long)requested);
    if (line_exists) {
        const char *values[] = {cart, sku, text[0]};
        if ((code = change_one(pg, S_UPDATE_LINE, 3, values))) return fail(pg, code);
    } else {
        if (line_count >= max_lines) return fail(pg, RAW_PG_REFUSED);
        snprintf(text[1], sizeof text[1], "%lld", (long long)next_position);
        const char *values[] = {cart, sku, text[0], text[1]};
        if ((code = change_one(pg, S_INSERT_LINE, 4, values))) return fail(pg, code);
        line_count += 1;
        next_position += 1;
    }

    snprintf(text[1], sizeof text[1], "%lld", (long long)(version + 1));
    snprintf(text[2], sizeof text[2], "%lld", (long long)now_ms);
    snprintf(text[3], sizeof text[3], "%lld", (long long)line_count);
    snprintf(text[4], sizeof text[4], "%lld", (long long)next_position);
    char previous[24];
    snprintf(previous, sizeof previous, "%lld", (long long)version);
    const char *header[] = {cart, text[1], text[2], text[3], text[4], previous};
    if ((code = change_one(pg, cart_exists ? S_UPDATE_CART : S_INSERT_CART, cart_exists ? 6 : 5, header)))
        return fail(pg, code);
    return commit(pg);
}

/// A growing text buffer for array literals.
typedef struct {
    char *text;
    size_t length, capacity;
} buffer;

static void append(buffer *b, const char *text, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        b->capacity = (b->length + length + 1) * 2;
        b->text = realloc(b->text, b->capacity);
    }
    memcpy(b->text + b->length, text, length);
    b->length += length;
    b->text[b->length] = 0;
}

/// Appends `text` quoted as an element of a text array literal.
static void append_element(buffer *b, const char *text) {
    append(b, b->length > 1 ? ",\"" : "\"", b->length > 1 ? 2 : 1);
    for (const char *c = text; *c; c++) {
        if (*c == '"' || *c == '\\') append(b, "\\", 1);
        append(b, c, 1);
    }
    append(b, "\"", 1);
}

static void append_integer(buffer *b, int64_t value) {
    char text[24];
    int length = snprintf(text, sizeof text, "%s%lld", b->length > 1 ? "," : "", (long long)value);
    append(b, text, (size_t)length);
}

typedef struct {
    char sku[65], name[801];
    int64_t position, price, quantity, stock;
    int tracked;
} checkout_line;

static int by_position(const void *a, const void *b) {
    const checkout_line *x = a, *y = b;
    if (x->position != y->position) return x->position < y->position ? -1 : 1;
    return strcmp(x->sku, y->sku);
}

int raw_pg_checkout(raw_pg *pg, const char *cart, int64_t now_ms, int64_t *number) {
    enum { max_lines = 128 };
    static checkout_line lines[max_lines];
    int64_t max_line_quantity, max_cart_lines;
    char currency[4];
    int code = begin_with_settings(pg, &max_line_quantity, &max_cart_lines, currency);
    if (code) return code;

    const char *cart_values[] = {cart};
    PGresult *header = run(pg, S_LOCK_CART, 1, cart_values);
    if (!ok(header)) {
        PQclear(header);
        return fail(pg, RAW_PG_FAILED);
    }
    int cart_exists = PQntuples(header) == 1;
    int64_t version = cart_exists ? integer(header, 0) : 0;
    int64_t next_position = cart_exists ? integer(header, 3) : 1;
    PQclear(header);

    PGresult *rows = run(pg, S_LOCK_LINES, 1, cart_values);
    if (!ok(rows)) {
        PQclear(rows);
        return fail(pg, RAW_PG_FAILED);
    }
    int count = PQntuples(rows);
    if (count == 0 || count > max_lines) {
        PQclear(rows);
        return fail(pg, count == 0 ? RAW_PG_REFUSED : RAW_PG_FAILED);
    }
    for (int i = 0; i < count; i++) {
        checkout_line *line = &lines[i];
        line->position = strtoll(PQgetvalue(rows, i, 0), NULL, 10);
        line->quantity = strtoll(PQgetvalue(rows, i, 1), NULL, 10);
        snprintf(line->sku, sizeof line->sku, "%s", PQgetvalue(rows, i, 2));
        snprintf(line->name, sizeof line->name, "%s", PQgetvalue(rows, i, 3));
        line->price = strtoll(PQgetvalue(rows, i, 4), NULL, 10);
        line->tracked = !PQgetisnull(rows, i, 6);
        line->stock = line->tracked ? strtoll(PQgetvalue(rows, i, 6), NULL, 10) : 0;
        if (PQgetvalue(rows, i, 5)[0] != 't') code = RAW_PG_REFUSED;
    }
    PQclear(rows);
    if (code) return fail(pg, code);
    qsort(lines, (size_t)count, sizeof lines[0], by_position);

    int64_t items = 0, total = 0;
    buffer skus = {0}, names = {0}, prices = {0}, quantities = {0}, totals = {0};
    append(&skus, "{", 1), append(&names, "{", 1), append(&prices, "{", 1), append(&quantities, "{", 1);
    append(&totals, "{", 1);
    for (int i = 0; i < count && !code; i++) {
        int64_t line_total;
        if (lines[i].quantity > max_line_quantity || (lines[i].tracked && lines[i].quantity > lines[i].stock) ||
            __builtin_mul_overflow(lines[i].price, lines[i].quantity, &line_total) ||
            __builtin_add_overflow(total, line_total, &total) ||
            __builtin_add_overflow(items, lines[i].quantity, &items)) {
            code = RAW_PG_REFUSED;
            break;
        }
        append_element(&skus, lines[i].sku);
        append_element(&names, lines[i].name);
        append_integer(&prices, lines[i].price);
        append_integer(&quantities, lines[i].quantity);
        append_integer(&totals, line_total);
    }
    append(&skus, "}", 1), append(&names, "}", 1), append(&prices, "}", 1), append(&quantities, "}", 1);
    append(&totals, "}", 1);

    if (!code) {
        PGresult *last = run(pg, S_LOCK_LAST_NUMBER, 0, NULL);
        if (ok(last) && PQntuples(last) == 1) *number = integer(last, 0) + 1;
        else code = RAW_PG_FAILED;
        PQclear(last);
    }
    if (!code) {
        char text[4][24];
        snprintf(text[0], sizeof text[0], "%lld", (long long)*number);
        snprintf(text[1], sizeof text[1], "%lld", (long long)now_ms);
        snprintf(text[2], sizeof text[2], "%lld", (long long)items);
        snprintf(text[3], sizeof text[3], "%lld", (long long)total);
        const char *values[] = {text[0], cart, text[1], currency, text[2], text[3], NULL,
                                skus.text, names.text, prices.text, quantities.text, totals.text};
        PGresult *placed = run(pg, S_INSERT_ORDER, 12, values);
        if (!ok(placed)) code = RAW_PG_FAILED;
        else if (PQntuples(placed) != 1 || integer(placed, 0) != 1) code = RAW_PG_CONFLICT;
        PQclear(placed);
    }
    free(skus.text), free(names.text), free(prices.text), free(quantities.text), free(totals.text);
    if (code) return fail(pg, code);

    for (int i = 0; i < count; i++) {
        if (!lines[i].tracked) continue;
        char stock[24];
        snprintf(stock, sizeof stock, "%lld", (long long)(lines[i].stock - lines[i].quantity));
        const char *values[] = {lines[i].sku, stock};
        if ((code = change_one(pg, S_UPDATE_STOCK, 2, values))) return fail(pg, code);
    }
    PGresult *deleted = run(pg, S_DELETE_LINES, 1, cart_values);
    int deleted_ok = ok(deleted);
    PQclear(deleted);
    if (!deleted_ok) return fail(pg, RAW_PG_FAILED);

    char text[4][24];
    snprintf(text[0], sizeof text[0], "%lld", (long long)(version + 1));
    snprintf(text[1], sizeof text[1], "%lld", (long long)now_ms);
    snprintf(text[2], sizeof text[2], "%lld", (long long)next_position);
    snprintf(text[3], sizeof text[3], "%lld", (long long)version);
    const char *values[] = {cart, text[0], text[1], "0", text[2], text[3]};
    if ((code = change_one(pg, cart_exists ? S_UPDATE_CART : S_INSERT_CART, cart_exists ? 6 : 5, values)))
        return fail(pg, code);
    return commit(pg);
}

int raw_pg_read_unit(raw_pg *pg, int slot, int count, const char *const *values) {
    PGresult *page;
    if (run_two(pg, S_BEGIN_READ, 0, NULL, slot, count, values, &page) != 0) {
        PQclear(run(pg, S_ROLLBACK, 0, NULL));
        return -1;
    }
    int distinct = 0;
    int64_t last = 0, checksum = 0;
    for (int row = 0; row < PQntuples(page); row++) {
        for (int column = 0; column < PQnfields(page); column++) {
            const char *value = PQgetvalue(page, row, column);
            checksum += value[0] + PQgetlength(page, row, column);
        }
        int64_t first = strtoll(PQgetvalue(page, row, 0), NULL, 10);
        if (row == 0 || first != last) distinct++;
        last = first;
    }
    PQclear(page);
    PGresult *done = run(pg, S_COMMIT, 0, NULL);
    int committed = ok(done);
    PQclear(done);
    return committed && checksum >= 0 ? distinct : -1;
}
