// The baseline for benchmarking the cart API: libmicrohttpd with HTTPServer's daemon flags and
// options, serving two of its routes straight from C on a store the project created, with the
// SQL statements SQLiteCartStorage runs:
//
//   GET  /v1/carts/ID         one read transaction: settings, the cart's header, its lines
//                             joined with their products; the cart JSON with its problems
//   POST /v1/carts/ID/items   {"sku":"…","quantity":N}: one write transaction (the line's
//                             context, the rules, the line, the header), then the GET's read
//
// In the "bare" mode (the default) it leaves out, being the floor to compare with: minted-ID
// signatures, the admin token, strict JSON parsing (it finds the two fields in the body),
// If-Match, the access log. The "same-work" mode adds the two of those that cost a request
// most, as `cart serve` must do them: it checks the cart ID's HMAC-SHA256 signature under the
// key `cart serve` derives from the store's secret (answering 401 for an ID not minted), and
// writes `cart serve`'s access line (UTC time, client, method, target, status, duration) to
// stderr with one write per request.
//
// Usage: raw-cart-http-baseline DB [PORT [THREADS [shared|per-thread [bare|same-work]]]]
// (defaults 8081, 4, shared, bare). "shared" is one connection behind a mutex, as
// SQLiteCartRepository is; "per-thread" gives each libmicrohttpd thread its own connection, as
// a reader pool would. Prints "Listening on http://127.0.0.1:PORT" and serves until SIGINT or
// SIGTERM.

#include "hmac_sha256.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum statement {
    BEGIN_DEFERRED, BEGIN_IMMEDIATE, COMMIT, ROLLBACK, SELECT_SETTINGS, SELECT_HEADER, SELECT_LINES,
    SELECT_LINE_CONTEXT, INSERT_LINE, UPDATE_LINE, INSERT_CART, UPDATE_CART, STATEMENT_COUNT
};

static const char *const statement_sql[STATEMENT_COUNT] = {
    [BEGIN_DEFERRED] = "BEGIN DEFERRED",
    [BEGIN_IMMEDIATE] = "BEGIN IMMEDIATE",
    [COMMIT] = "COMMIT",
    [ROLLBACK] = "ROLLBACK",
    [SELECT_SETTINGS] = "SELECT currency, currency_exponent, currency_symbol, max_line_quantity, max_lines_per_cart"
                        " FROM settings WHERE id = 1",
    [SELECT_HEADER] = "SELECT version, updated_at, line_count, next_position FROM carts WHERE id = ?",
    [SELECT_LINES] = "SELECT l.position, l.quantity, p.sku, p.name, p.price, p.active, p.stock"
                     " FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku WHERE l.cart_id = ?",
    [SELECT_LINE_CONTEXT] = "SELECT c.version, c.line_count, c.next_position, p.price, p.active, p.stock, l.quantity"
                            " FROM (SELECT 1) LEFT JOIN carts AS c ON c.id = ?1"
                            " LEFT JOIN products AS p ON p.sku = ?2"
                            " LEFT JOIN cart_lines AS l ON l.cart_id = ?1 AND l.sku = ?2",
    [INSERT_LINE] = "INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, ?3, ?4)",
    [UPDATE_LINE] = "UPDATE cart_lines SET quantity = ?3 WHERE cart_id = ?1 AND sku = ?2",
    [INSERT_CART] = "INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES (?1, ?2, ?3, ?4, ?5)",
    [UPDATE_CART] = "UPDATE carts SET version = ?2, updated_at = ?3, line_count = ?4, next_position = ?5 WHERE id = ?1",
};

struct connection {
    sqlite3 *db;
    sqlite3_stmt *statements[STATEMENT_COUNT];
    pthread_mutex_t lock;
    // The settings as the last read transaction saw them; write transactions use them, as the
    // project's settings cache does while the file is unchanged.
    char currency[4];
    int exponent;
    int64_t max_line_quantity, max_lines_per_cart;
};

static const char *database_path;
static int per_thread;
static int same_work;
static struct hmac_key cart_id_key;
static struct connection shared_connection;
static pthread_key_t connection_key;

static int open_connection(struct connection *c) {
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    if (sqlite3_open_v2(database_path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) return 0;
    sqlite3_busy_timeout(c->db, 5000);
    sqlite3_extended_result_codes(c->db, 1);
    if (sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK)
        return 0;
    for (int i = 0; i < STATEMENT_COUNT; i++)
        if (sqlite3_prepare_v3(c->db, statement_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &c->statements[i], NULL))
            return 0;
    sqlite3_stmt *settings = c->statements[SELECT_SETTINGS];
    int found = sqlite3_step(settings) == SQLITE_ROW;
    if (found) {
        c->max_line_quantity = sqlite3_column_int64(settings, 3);
        c->max_lines_per_cart = sqlite3_column_int64(settings, 4);
    }
    sqlite3_reset(settings);
    return found;
}

/// The calling thread's connection (per-thread), opened on first use, or the shared one.
static struct connection *acquire(void) {
    if (!per_thread) {
        pthread_mutex_lock(&shared_connection.lock);
        return &shared_connection;
    }
    struct connection *c = pthread_getspecific(connection_key);
    if (c == NULL) {
        c = malloc(sizeof *c);
        if (c == NULL || !open_connection(c)) {
            fprintf(stderr, "raw-cart-http-baseline: cannot open %s\n", database_path);
            exit(1);
        }
        pthread_setspecific(connection_key, c);
    }
    return c;
}

static void release(struct connection *c) {
    if (!per_thread) pthread_mutex_unlock(&c->lock);
}

static int run(struct connection *c, enum statement id) {
    int rc = sqlite3_step(c->statements[id]);
    sqlite3_reset(c->statements[id]);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/// A growing text buffer for the JSON answer.
struct text {
    char *bytes;
    size_t count, capacity;
};

static void append(struct text *t, const char *bytes, size_t count) {
    if (t->count + count + 1 > t->capacity) {
        size_t capacity = (t->capacity + count + 1) * 2;
        char *grown = realloc(t->bytes, capacity);
        if (grown == NULL) return;
        t->bytes = grown;
        t->capacity = capacity;
    }
    memcpy(t->bytes + t->count, bytes, count);
    t->count += count;
    t->bytes[t->count] = 0;
}

static void append_string(struct text *t, const char *s) { append(t, s, strlen(s)); }

static void append_quoted(struct text *t, const unsigned char *s) {
    append(t, "\"", 1);
    for (; *s; s++) {
        char escape[8];
        if (*s == '"' || *s == '\\') {
            escape[0] = '\\';
            escape[1] = (char)*s;
            append(t, escape, 2);
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(escape, sizeof escape, "\\u%04x", *s);
            append(t, escape, 6);
        } else {
            append(t, (const char *)s, 1);
        }
    }
    append(t, "\"", 1);
}

static void append_money(struct text *t, int64_t minor, int exponent) {
    char digits[40];
    if (exponent == 0) {
        snprintf(digits, sizeof digits, "\"%" PRId64 "\"", minor);
    } else {
        int64_t scale = 1;
        for (int i = 0; i < exponent; i++) scale *= 10;
        snprintf(digits, sizeof digits, "\"%" PRId64 ".%0*" PRId64 "\"", minor / scale, exponent, minor % scale);
    }
    append_string(t, digits);
}

static void append_int(struct text *t, int64_t value) {
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRId64, value);
    append_string(t, digits);
}

struct line {
    int64_t position, quantity, price, stock;
    int active, tracked;
    char *sku, *name;
};

static int by_position(const void *a, const void *b) {
    int64_t x = ((const struct line *)a)->position, y = ((const struct line *)b)->position;
    return x < y ? -1 : x > y;
}

/// Reads the cart in one read transaction and writes its JSON (the API's shape, keys sorted)
/// into `out`; returns its version, or -1 on a storage error.
static int64_t read_cart(struct connection *c, const char *id, struct text *out) {
    if (run(c, BEGIN_DEFERRED)) return -1;
    sqlite3_stmt *settings = c->statements[SELECT_SETTINGS];
    if (sqlite3_step(settings) != SQLITE_ROW) {
        sqlite3_reset(settings);
        run(c, ROLLBACK);
        return -1;
    }
    snprintf(c->currency, sizeof c->currency, "%s", (const char *)sqlite3_column_text(settings, 0));
    c->exponent = sqlite3_column_int(settings, 1);
    c->max_line_quantity = sqlite3_column_int64(settings, 3);
    c->max_lines_per_cart = sqlite3_column_int64(settings, 4);
    sqlite3_reset(settings);

    int64_t version = 0;
    sqlite3_stmt *header = c->statements[SELECT_HEADER];
    sqlite3_bind_text(header, 1, id, -1, SQLITE_STATIC);
    int found = sqlite3_step(header) == SQLITE_ROW;
    if (found) version = sqlite3_column_int64(header, 0);
    sqlite3_reset(header);

    struct line lines[128];
    int count = 0;
    if (found) {
        sqlite3_stmt *select = c->statements[SELECT_LINES];
        sqlite3_bind_text(select, 1, id, -1, SQLITE_STATIC);
        while (count < 128 && sqlite3_step(select) == SQLITE_ROW) {
            struct line *l = &lines[count++];
            l->position = sqlite3_column_int64(select, 0);
            l->quantity = sqlite3_column_int64(select, 1);
            l->sku = strdup((const char *)sqlite3_column_text(select, 2));
            l->name = strdup((const char *)sqlite3_column_text(select, 3));
            l->price = sqlite3_column_int64(select, 4);
            l->active = sqlite3_column_int(select, 5);
            l->tracked = sqlite3_column_type(select, 6) != SQLITE_NULL;
            l->stock = sqlite3_column_int64(select, 6);
        }
        sqlite3_reset(select);
    }
    run(c, COMMIT);
    qsort(lines, (size_t)count, sizeof lines[0], by_position);

    int64_t items = 0, subtotal = 0;
    append_string(out, "{\"cart\":");
    append_quoted(out, (const unsigned char *)id);
    append_string(out, ",\"currency\":\"");
    append_string(out, c->currency);
    append_string(out, "\",\"items\":[");
    for (int i = 0; i < count; i++) {
        if (i) append(out, ",", 1);
        append_string(out, "{\"currency\":\"");
        append_string(out, c->currency);
        append_string(out, "\",\"lineTotal\":");
        append_money(out, lines[i].price * lines[i].quantity, c->exponent);
        append_string(out, ",\"name\":");
        append_quoted(out, (const unsigned char *)lines[i].name);
        append_string(out, ",\"quantity\":");
        append_int(out, lines[i].quantity);
        append_string(out, ",\"sku\":");
        append_quoted(out, (const unsigned char *)lines[i].sku);
        append_string(out, ",\"unitPrice\":");
        append_money(out, lines[i].price, c->exponent);
        append(out, "}", 1);
        items += lines[i].quantity;
        subtotal += lines[i].price * lines[i].quantity;
    }
    append_string(out, "],\"problems\":[");
    int problems = 0;
    for (int i = 0; i < count; i++) {
        char message[200];
        const char *code = NULL;
        if (!lines[i].active) {
            code = "inactive_product";
            snprintf(message, sizeof message, "'%s' is not for sale.", lines[i].sku);
        } else if (lines[i].tracked && lines[i].quantity > lines[i].stock) {
            code = "insufficient_stock";
            snprintf(message, sizeof message, "Insufficient stock for '%s': %" PRId64 " requested, %" PRId64 " available.",
                     lines[i].sku, lines[i].quantity, lines[i].stock);
        }
        if (code) {
            if (problems++) append(out, ",", 1);
            append_string(out, "{\"code\":\"");
            append_string(out, code);
            append_string(out, "\",\"message\":");
            append_quoted(out, (const unsigned char *)message);
            append_string(out, ",\"sku\":");
            append_quoted(out, (const unsigned char *)lines[i].sku);
            append(out, "}", 1);
        }
        free(lines[i].sku);
        free(lines[i].name);
    }
    append_string(out, "],\"subtotal\":");
    append_money(out, subtotal, c->exponent);
    append_string(out, ",\"totalItems\":");
    append_int(out, items);
    append_string(out, ",\"version\":");
    append_int(out, version);
    append(out, "}", 1);
    return version;
}

enum refusal { ADDED = 0, STORE_FAILED = 500, UNKNOWN_PRODUCT = 404, REFUSED = 422, BAD_QUANTITY = 400 };

/// Adds `quantity` of `sku` to cart `id` in one write transaction, with the rules `add` checks.
static enum refusal add_item(struct connection *c, const char *id, const char *sku, int64_t quantity) {
    if (quantity < 1 || quantity > c->max_line_quantity) return BAD_QUANTITY;
    if (run(c, BEGIN_IMMEDIATE)) return STORE_FAILED;
    sqlite3_stmt *context = c->statements[SELECT_LINE_CONTEXT];
    sqlite3_bind_text(context, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(context, 2, sku, -1, SQLITE_STATIC);
    if (sqlite3_step(context) != SQLITE_ROW) {
        sqlite3_reset(context);
        run(c, ROLLBACK);
        return STORE_FAILED;
    }
    int exists = sqlite3_column_type(context, 0) != SQLITE_NULL;
    int64_t version = sqlite3_column_int64(context, 0);
    int64_t line_count = exists ? sqlite3_column_int64(context, 1) : 0;
    int64_t next_position = exists ? sqlite3_column_int64(context, 2) : 1;
    int known = sqlite3_column_type(context, 3) != SQLITE_NULL;
    int64_t price = sqlite3_column_int64(context, 3);
    int active = sqlite3_column_int(context, 4);
    int tracked = sqlite3_column_type(context, 5) != SQLITE_NULL;
    int64_t stock = sqlite3_column_int64(context, 5);
    int has_line = sqlite3_column_type(context, 6) != SQLITE_NULL;
    int64_t current = sqlite3_column_int64(context, 6);
    sqlite3_reset(context);

    enum refusal refusal = ADDED;
    int64_t requested = current + quantity, total;
    if (!known) refusal = UNKNOWN_PRODUCT;
    else if (!active || requested > c->max_line_quantity || (tracked && requested > stock)) refusal = REFUSED;
    else if (!has_line && line_count >= c->max_lines_per_cart) refusal = REFUSED;
    else if (__builtin_mul_overflow(price, requested, &total)) refusal = REFUSED;
    if (refusal != ADDED) {
        run(c, ROLLBACK);
        return refusal;
    }
    sqlite3_stmt *line = c->statements[has_line ? UPDATE_LINE : INSERT_LINE];
    sqlite3_bind_text(line, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(line, 2, sku, -1, SQLITE_STATIC);
    sqlite3_bind_int64(line, 3, requested);
    if (!has_line) sqlite3_bind_int64(line, 4, next_position);
    int rc = sqlite3_step(line);
    sqlite3_reset(line);
    if (!has_line) {
        line_count++;
        next_position++;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    sqlite3_stmt *cart = c->statements[exists ? UPDATE_CART : INSERT_CART];
    sqlite3_bind_text(cart, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(cart, 2, version + 1);
    sqlite3_bind_int64(cart, 3, (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
    sqlite3_bind_int64(cart, 4, line_count);
    sqlite3_bind_int64(cart, 5, next_position);
    if (rc == SQLITE_DONE) rc = sqlite3_step(cart);
    sqlite3_reset(cart);
    if (rc != SQLITE_DONE || run(c, COMMIT)) {
        run(c, ROLLBACK);
        return STORE_FAILED;
    }
    return ADDED;
}

/// The text of string field `name` in a flat JSON object, copied into `out`; 0 if absent.
static int string_field(const char *body, const char *name, char *out, size_t size) {
    char key[32];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *start = strstr(body, key);
    if (start == NULL) return 0;
    start += strlen(key);
    const char *end = strchr(start, '"');
    if (end == NULL || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = 0;
    return 1;
}

struct request {
    char body[4096];
    size_t length;
    // For the access line (same-work mode).
    struct timespec started;
    char method[16], target[512];
    unsigned int status;
};

static enum MHD_Result reply(struct MHD_Connection *connection, struct request *request, unsigned int status,
                             struct text *json, int64_t version) {
    request->status = status;
    struct MHD_Response *response = MHD_create_response_from_buffer(json->count, json->bytes, MHD_RESPMEM_MUST_FREE);
    json->bytes = NULL;
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    MHD_add_response_header(response, "Cache-Control", "no-store");
    if (version >= 0) {
        char tag[32];
        snprintf(tag, sizeof tag, "\"%" PRId64 "\"", version);
        MHD_add_response_header(response, "ETag", tag);
    }
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

static enum MHD_Result error(struct MHD_Connection *connection, struct request *request, unsigned int status,
                             const char *code) {
    struct text json = {0};
    append_string(&json, "{\"error\":{\"code\":\"");
    append_string(&json, code);
    append_string(&json, "\",\"message\":\"Refused.\"}}");
    return reply(connection, request, status, &json, -1);
}

static int hex_value(char digit) {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
}

/// Whether `id` is one `cart serve` minted: `shop_`, 32 hex digits, then 32 hex digits of the
/// first 16 bytes of the HMAC of what comes before them, compared in constant time.
static int is_minted(const char *id) {
    enum { BODY = 5 + 32, LENGTH = BODY + 32 };
    if (strlen(id) != LENGTH || strncmp(id, "shop_", 5) != 0) return 0;
    for (int i = 5; i < LENGTH; i++)
        if (hex_value(id[i]) < 0) return 0;
    uint8_t mac[32], difference = 0;
    hmac_sign(&cart_id_key, (const uint8_t *)id, BODY, mac);
    for (int i = 0; i < 16; i++)
        difference |= (uint8_t)(mac[i] ^ (hex_value(id[BODY + 2 * i]) << 4 | hex_value(id[BODY + 2 * i + 1])));
    return difference == 0;
}

/// Writes `cart serve`'s access line for a finished request to stderr in one write:
/// `2026-12-01T21:09:15.123Z 127.0.0.1 GET /v1/carts/ID 200 0.412ms`.
static void log_access(struct MHD_Connection *connection, const struct request *request) {
    struct timespec now, ended;
    clock_gettime(CLOCK_REALTIME, &now);
    clock_gettime(CLOCK_MONOTONIC, &ended);
    int64_t micros = (int64_t)(ended.tv_sec - request->started.tv_sec) * 1000000 +
                     (ended.tv_nsec - request->started.tv_nsec) / 1000;
    struct tm utc;
    gmtime_r(&now.tv_sec, &utc);
    char client[INET6_ADDRSTRLEN] = "-";
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info != NULL && info->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)info->client_addr)->sin_addr, client, sizeof client);
    char line[1024];
    int length = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s %s %u %" PRId64 ".%03" PRId64 "ms\n",
                          utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                          now.tv_nsec / 1000000, client, request->method, request->target, request->status,
                          micros / 1000, micros % 1000);
    if (length > 0) (void)!write(2, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
}

/// Derives `cart serve`'s cart-ID key from the store's secret: the HMAC of `cart-id-key` under
/// the secret's 32 bytes (64 hex digits in `store_secret`).
static int load_cart_id_key(void) {
    sqlite3 *db;
    sqlite3_stmt *select = NULL;
    int loaded = 0;
    if (sqlite3_open_v2(database_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT secret FROM store_secret WHERE id = 1", -1, &select, NULL) == SQLITE_OK &&
        sqlite3_step(select) == SQLITE_ROW && sqlite3_column_bytes(select, 0) == 64) {
        const char *hex = (const char *)sqlite3_column_text(select, 0);
        uint8_t secret[32], key[32];
        loaded = 1;
        for (int i = 0; i < 32; i++) {
            int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
            if (high < 0 || low < 0) loaded = 0;
            secret[i] = (uint8_t)(high << 4 | low);
        }
        struct hmac_key secret_key;
        hmac_key_init(&secret_key, secret, sizeof secret);
        hmac_sign(&secret_key, (const uint8_t *)"cart-id-key", 11, key);
        hmac_key_init(&cart_id_key, key, sizeof key);
    }
    sqlite3_finalize(select);
    sqlite3_close(db);
    return loaded;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls;
    (void)version;
    struct request *request = *state;
    if (request == NULL) {
        request = calloc(1, sizeof *request);
        if (request == NULL) return MHD_NO;
        clock_gettime(CLOCK_MONOTONIC, &request->started);
        snprintf(request->method, sizeof request->method, "%s", method);
        snprintf(request->target, sizeof request->target, "%s", url);
        *state = request;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        size_t take = *upload_data_size;
        if (request->length + take < sizeof request->body) {
            memcpy(request->body + request->length, upload_data, take);
            request->length += take;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    const char *prefix = "/v1/carts/";
    if (strncmp(url, prefix, strlen(prefix)) != 0) return error(connection, request, 404, "route_not_found");
    char id[129];
    const char *rest = url + strlen(prefix);
    const char *slash = strchr(rest, '/');
    size_t id_length = slash ? (size_t)(slash - rest) : strlen(rest);
    if (id_length == 0 || id_length >= sizeof id) return error(connection, request, 400, "invalid_cart_id");
    memcpy(id, rest, id_length);
    id[id_length] = 0;

    if (same_work && !is_minted(id)) return error(connection, request, 401, "unauthorized");

    int is_get = strcmp(method, "GET") == 0 && slash == NULL;
    int is_add = strcmp(method, "POST") == 0 && slash != NULL && strcmp(slash, "/items") == 0;
    if (!is_get && !is_add) return error(connection, request, 404, "route_not_found");

    struct connection *c = acquire();
    if (is_add) {
        char sku[65], quantity_text[24] = "1";
        const char *q;
        if (!string_field(request->body, "sku", sku, sizeof sku)) {
            release(c);
            return error(connection, request, 400, "missing_field");
        }
        if ((q = strstr(request->body, "\"quantity\":")) != NULL) snprintf(quantity_text, sizeof quantity_text, "%s", q + 11);
        enum refusal refusal = add_item(c, id, sku, strtoll(quantity_text, NULL, 10));
        if (refusal != ADDED) {
            release(c);
            return error(connection, request, refusal, "refused");
        }
    }
    struct text json = {0};
    int64_t cart_version = read_cart(c, id, &json);
    release(c);
    if (cart_version < 0) {
        free(json.bytes);
        return error(connection, request, 500, "storage_failure");
    }
    return reply(connection, request, 200, &json, cart_version);
}

static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)code;
    if (same_work && *state != NULL) log_access(connection, *state);
    free(*state);
    *state = NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: raw-cart-http-baseline DB [PORT [THREADS [shared|per-thread [bare|same-work]]]]\n");
        return 64;
    }
    database_path = argv[1];
    unsigned int port = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 8081;
    unsigned int threads = argc > 3 ? (unsigned int)strtoul(argv[3], NULL, 10) : 4;
    per_thread = argc > 4 && strcmp(argv[4], "per-thread") == 0;
    same_work = argc > 5 && strcmp(argv[5], "same-work") == 0;
    if (same_work && !load_cart_id_key()) {
        fprintf(stderr, "raw-cart-http-baseline: %s has no store secret to check cart IDs with\n", database_path);
        return 1;
    }
    pthread_key_create(&connection_key, NULL);
    if (!per_thread && !open_connection(&shared_connection)) {
        fprintf(stderr, "raw-cart-http-baseline: cannot open %s\n", database_path);
        return 1;
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, 0, NULL, NULL,
        answer, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_CONNECTION_LIMIT, 1000u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32 * 1024, MHD_OPTION_STRICT_FOR_CLIENT, 1,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "raw-cart-http-baseline: cannot listen on port %u\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("Listening on http://127.0.0.1:%u\n", info == NULL ? port : info->port);
    fflush(stdout);

    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
