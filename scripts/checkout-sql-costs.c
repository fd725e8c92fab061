// Issue 6, workload 4: what each SQL statement of a checkout costs on the project's schema,
// without Swift. Run by scripts/checkout-sql-costs.sh under callgrind, which reports the
// inclusive instructions of each part_* function per checkout.
//
// Usage: checkout-sql-costs SCHEMA_0001 SCHEMA_0002 LINES STOCK DELETE SELECT
//   LINES  single | multi        one INSERT per order line, or one for all five
//   STOCK  each | values | case  five UPDATEs, UPDATE … FROM (VALUES …), or CASE with IN
//   DELETE cart | keys           DELETE … WHERE cart_id = ?, or one DELETE per line by key
//   SELECT ordered | unordered   the cart's lines ORDER BY position, or in key order
// 500 carts of 5 lines over 500 products, as `cart-bench --quick --only checkout`.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { carts = 500, products = 500, lines_per_cart = 5 };

static sqlite3 *db;
static int multi_insert, stock_form, delete_by_key, unordered;
static sqlite3_stmt *begin, *commit, *select_lines, *last_number, *insert_order, *insert_line, *insert_lines,
    *update_stock, *update_stock_values, *update_stock_case, *delete_cart, *delete_line, *update_cart;
static struct {
    char sku[65], name[201];
    long long price, quantity, stock;
} line[lines_per_cart];
static int count;
static long long number;

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void exec(const char *sql) {
    if (sqlite3_exec(db, sql, 0, 0, 0)) fail(sql);
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, 0)) fail(sql);
    return statement;
}

static void run(sqlite3_stmt *statement) {
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {}
    if (rc != SQLITE_DONE) fail(sqlite3_sql(statement));
    sqlite3_reset(statement);
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) {
        perror(path);
        exit(1);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc((size_t)size + 1);
    text[fread(text, 1, (size_t)size, file)] = 0;
    fclose(file);
    return text;
}

__attribute__((noinline)) static void part_begin(void) { run(begin); }

__attribute__((noinline)) static void part_select(const char *cart) {
    sqlite3_bind_text(select_lines, 1, cart, -1, SQLITE_STATIC);
    for (count = 0; sqlite3_step(select_lines) == SQLITE_ROW; count++) {
        line[count].quantity = sqlite3_column_int64(select_lines, 0);
        strcpy(line[count].sku, (const char *)sqlite3_column_text(select_lines, 1));
        strcpy(line[count].name, (const char *)sqlite3_column_text(select_lines, 2));
        line[count].price = sqlite3_column_int64(select_lines, 3);
        line[count].stock = sqlite3_column_int64(select_lines, 5);
    }
    sqlite3_reset(select_lines);
}

__attribute__((noinline)) static void part_last_number(void) {
    sqlite3_step(last_number);
    number = sqlite3_column_int64(last_number, 0) + 1;
    sqlite3_reset(last_number);
}

__attribute__((noinline)) static void part_insert_order(const char *cart) {
    sqlite3_bind_int64(insert_order, 1, number);
    sqlite3_bind_text(insert_order, 2, cart, -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert_order, 3, 1700000000000LL + number);
    sqlite3_bind_text(insert_order, 4, "USD", -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert_order, 5, lines_per_cart);
    sqlite3_bind_int64(insert_order, 6, 1000);
    sqlite3_bind_null(insert_order, 7);
    run(insert_order);
}

static void bind_line(sqlite3_stmt *statement, int first, int i) {
    sqlite3_bind_int64(statement, first, number);
    sqlite3_bind_int64(statement, first + 1, i + 1);
    sqlite3_bind_text(statement, first + 2, line[i].sku, -1, SQLITE_STATIC);
    sqlite3_bind_text(statement, first + 3, line[i].name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(statement, first + 4, line[i].price);
    sqlite3_bind_int64(statement, first + 5, line[i].quantity);
    sqlite3_bind_int64(statement, first + 6, line[i].price * line[i].quantity);
    sqlite3_bind_int64(statement, first + 7, 1700000000000LL + number);
}

__attribute__((noinline)) static void part_insert_lines(void) {
    if (multi_insert) {
        for (int i = 0; i < count; i++) bind_line(insert_lines, 8 * i + 1, i);
        run(insert_lines);
        return;
    }
    for (int i = 0; i < count; i++) {
        bind_line(insert_line, 1, i);
        run(insert_line);
    }
}

__attribute__((noinline)) static void part_stock(void) {
    if (stock_form == 0) {
        for (int i = 0; i < count; i++) {
            sqlite3_bind_text(update_stock, 1, line[i].sku, -1, SQLITE_STATIC);
            sqlite3_bind_int64(update_stock, 2, line[i].stock - line[i].quantity);
            run(update_stock);
        }
        return;
    }
    sqlite3_stmt *statement = stock_form == 1 ? update_stock_values : update_stock_case;
    for (int i = 0; i < count; i++) {
        sqlite3_bind_text(statement, 2 * i + 1, line[i].sku, -1, SQLITE_STATIC);
        sqlite3_bind_int64(statement, 2 * i + 2, line[i].stock - line[i].quantity);
    }
    run(statement);
}

__attribute__((noinline)) static void part_delete(const char *cart) {
    if (!delete_by_key) {
        sqlite3_bind_text(delete_cart, 1, cart, -1, SQLITE_STATIC);
        run(delete_cart);
        return;
    }
    for (int i = 0; i < count; i++) {
        sqlite3_bind_text(delete_line, 1, cart, -1, SQLITE_STATIC);
        sqlite3_bind_text(delete_line, 2, line[i].sku, -1, SQLITE_STATIC);
        run(delete_line);
    }
}

__attribute__((noinline)) static void part_update_cart(const char *cart) {
    sqlite3_bind_text(update_cart, 1, cart, -1, SQLITE_STATIC);
    run(update_cart);
}

__attribute__((noinline)) static void part_commit(void) { run(commit); }

__attribute__((noinline)) static void checkout(const char *cart) {
    part_begin();
    part_select(cart);
    part_last_number();
    part_insert_order(cart);
    part_insert_lines();
    part_stock();
    part_delete(cart);
    part_update_cart(cart);
    part_commit();
}

static int choice(const char *value, const char *const *names, int count) {
    for (int i = 0; i < count; i++)
        if (!strcmp(value, names[i])) return i;
    fprintf(stderr, "unknown form '%s'\n", value);
    exit(64);
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s SCHEMA_0001 SCHEMA_0002 single|multi each|values|case cart|keys ordered|unordered\n",
                argv[0]);
        return 64;
    }
    multi_insert = choice(argv[3], (const char *[]){"single", "multi"}, 2);
    stock_form = choice(argv[4], (const char *[]){"each", "values", "case"}, 3);
    delete_by_key = choice(argv[5], (const char *[]){"cart", "keys"}, 2);
    unordered = choice(argv[6], (const char *[]){"ordered", "unordered"}, 2);

    const char *path = "checkout-sql-costs.sqlite3";
    unlink(path);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, 0)) fail(path);
    exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
    exec(read_file(argv[1]));
    exec(read_file(argv[2]));

    char sku[32], name[32], cart[32];
    exec("BEGIN");
    sqlite3_stmt *product = prepare("INSERT INTO products (sku, name, price, active, stock) VALUES (?1, ?2, ?3, 1, 1000000)");
    for (int i = 0; i < products; i++) {
        snprintf(sku, sizeof sku, "sku-%04d", i);
        snprintf(name, sizeof name, "Product %d", i);
        sqlite3_bind_text(product, 1, sku, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(product, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(product, 3, 100 + i);
        run(product);
    }
    sqlite3_stmt *new_cart = prepare(
        "INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES (?1, 5, 0, 5, 6)");
    sqlite3_stmt *new_line = prepare("INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES (?1, ?2, 1, ?3)");
    for (int c = 0; c < carts; c++) {
        snprintf(cart, sizeof cart, "checkout-%06d", c);
        sqlite3_bind_text(new_cart, 1, cart, -1, SQLITE_TRANSIENT);
        run(new_cart);
        for (int l = 0; l < lines_per_cart; l++) {
            snprintf(sku, sizeof sku, "sku-%04d", (c * lines_per_cart + l) % products);
            sqlite3_bind_text(new_line, 1, cart, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(new_line, 2, sku, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(new_line, 3, l + 1);
            run(new_line);
        }
    }
    exec("COMMIT");

    begin = prepare("BEGIN IMMEDIATE");
    commit = prepare("COMMIT");
    select_lines = prepare(
        unordered ? "SELECT l.quantity, p.sku, p.name, p.price, p.active, p.stock, l.position FROM cart_lines AS l"
                    " JOIN products AS p ON p.sku = l.sku WHERE l.cart_id = ?"
                  : "SELECT l.quantity, p.sku, p.name, p.price, p.active, p.stock FROM cart_lines AS l"
                    " JOIN products AS p ON p.sku = l.sku WHERE l.cart_id = ? ORDER BY l.position");
    last_number = prepare("SELECT coalesce(max(number), 0) FROM orders");
    insert_order = prepare("INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)");
#define INSERT_LINES "INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at) VALUES "
#define LINE_VALUES "(?, ?, ?, ?, ?, ?, ?, ?)"
    insert_line = prepare(INSERT_LINES LINE_VALUES);
    insert_lines = prepare(INSERT_LINES LINE_VALUES ", " LINE_VALUES ", " LINE_VALUES ", " LINE_VALUES ", " LINE_VALUES);
    update_stock = prepare("UPDATE products SET stock = ?2 WHERE sku = ?1");
    update_stock_values = prepare("UPDATE products SET stock = v.column2 FROM (VALUES (?, ?), (?, ?), (?, ?), (?, ?),"
                                  " (?, ?)) AS v WHERE products.sku = v.column1");
    update_stock_case = prepare("UPDATE products SET stock = CASE sku WHEN ?1 THEN ?2 WHEN ?3 THEN ?4 WHEN ?5 THEN ?6"
                                " WHEN ?7 THEN ?8 WHEN ?9 THEN ?10 END WHERE sku IN (?1, ?3, ?5, ?7, ?9)");
    delete_cart = prepare("DELETE FROM cart_lines WHERE cart_id = ?");
    delete_line = prepare("DELETE FROM cart_lines WHERE cart_id = ?1 AND sku = ?2");
    update_cart = prepare("UPDATE carts SET version = 6, updated_at = 1, line_count = 0, next_position = 6 WHERE id = ?1");

    for (int c = 0; c < carts; c++) {
        snprintf(cart, sizeof cart, "checkout-%06d", c);
        checkout(cart);
    }

    sqlite3_stmt *check = prepare("SELECT (SELECT count(*) FROM order_lines), (SELECT count(*) FROM cart_lines),"
                                  " (SELECT sum(stock) FROM products)");
    sqlite3_step(check);
    long long order_lines = sqlite3_column_int64(check, 0), cart_lines = sqlite3_column_int64(check, 1),
              stock = sqlite3_column_int64(check, 2);
    if (order_lines != carts * lines_per_cart || cart_lines != 0 ||
        stock != (long long)products * 1000000 - carts * lines_per_cart) {
        fprintf(stderr, "wrong result: %lld order lines, %lld cart lines, stock %lld\n", order_lines, cart_lines, stock);
        return 1;
    }
    sqlite3_finalize(check);
    return 0;
}
