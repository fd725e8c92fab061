#ifndef RAW_POSTGRES_BASELINE_H
#define RAW_POSTGRES_BASELINE_H

// The raw libpq baseline of `cart-bench`: the connection and statement plumbing a careful C
// programmer would write over libpq, with no layer in between. Statements are prepared once
// into numbered slots and then only executed, with text-format parameters, alone or several
// in one pipeline (one round trip). The cart SQL that runs on it lives with the benchmark.

#include <stdint.h>

typedef struct raw_pg raw_pg;

/// How many statement slots a connection has.
#define RAW_PG_SLOTS 64

/// Opens a connection with a libpq URI or connection string; NULL on failure, with libpq's
/// message in `error` (which may echo the connection string).
raw_pg *raw_pg_open(const char *conninfo, char *error, int error_size);
void raw_pg_close(raw_pg *pg);

/// libpq's message for the last failure on the connection.
const char *raw_pg_error(raw_pg *pg);

/// Prepares `sql` into `slot` (0 ..< RAW_PG_SLOTS); 0 on success, -1 on failure.
int raw_pg_prepare(raw_pg *pg, int slot, const char *sql);

/// Runs the statement in `slot` with `count` text values (NULL for SQL NULL). On success
/// returns the number of rows and, when `first` is not NULL and there is a row, stores the
/// first column of the first row as an integer there; -1 on failure.
int raw_pg_exec(raw_pg *pg, int slot, int count, const char *const *values, int64_t *first);

/// Runs `statements` prepared statements in one pipeline: statement i is slot `slots[i]` with
/// `counts[i]` values from `values[i]`. Returns 0 when all succeed, storing the first column of
/// each statement's first row in `firsts[i]` (0 for no row) when `firsts` is not NULL; i + 1
/// for the first statement i that failed.
int raw_pg_pipeline(raw_pg *pg, int statements, const int *slots, const int *counts,
                    const char *const *const *values, int64_t *firsts);

/// The SQL of the cart units, exactly as `PostgresCartRepository` sends it: cart-bench hands
/// over CartPostgres's own texts, so both sides run the same statements in the same round
/// trips, and only what the statements are wrapped in differs.
typedef struct raw_pg_cart_sql {
    const char *begin_write;      // BEGIN of a write unit
    const char *begin_read;       // BEGIN of a read unit
    const char *commit;
    const char *rollback;
    const char *settings;         // currency, exponent, symbol, max_line_quantity, max_lines_per_cart
    const char *line_context;     // $1 cart, $2 sku
    const char *insert_line;      // $1 cart, $2 sku, $3 quantity, $4 position
    const char *update_line;      // $1 cart, $2 sku, $3 quantity
    const char *insert_cart;      // $1 id, $2 version, $3 updated_at, $4 line_count, $5 next_position
    const char *update_cart;      // the same and $6 the version read
    const char *lock_cart;        // $1 id: version, updated_at, line_count, next_position
    const char *lock_lines;       // $1 cart: position, quantity, sku, name, price, active, stock
    const char *lock_last_number; // last_number
    const char *insert_order;     // $1 … $12 as PostgresCartStorage.insertOrder binds them
    const char *update_stock;     // $1 sku, $2 stock
    const char *delete_lines;     // $1 cart
} raw_pg_cart_sql;

/// What the cart units return.
enum {
    RAW_PG_OK = 0,
    /// libpq or the server failed.
    RAW_PG_FAILED = 1,
    /// A cart rule refused the change (unknown or inactive product, a cap, the stock, an
    /// empty cart, an overflow).
    RAW_PG_REFUSED = 2,
    /// A write changed another number of rows than 1.
    RAW_PG_CONFLICT = 3,
};

/// The first slot the cart statements take; they use the slots from there on.
#define RAW_PG_CART_FIRST_SLOT 32

/// Prepares the cart statements; 0 on success, -1 on failure.
int raw_pg_cart_prepare(raw_pg *pg, const raw_pg_cart_sql *sql);

/// Adds `quantity` units of `sku` to `cart` as `CartService.add` does, in one transaction.
int raw_pg_add_to_cart(raw_pg *pg, const char *cart, const char *sku, int64_t quantity, int64_t now_ms);

/// Checks `cart` out as `CartService.checkout` does without an idempotency key; the order's
/// number goes to `number`.
int raw_pg_checkout(raw_pg *pg, const char *cart, int64_t now_ms, int64_t *number);

/// Runs one read unit of the statement in `slot` (BEGIN of a read unit with it, then COMMIT)
/// and reads every value of every row; returns how many distinct values its first column
/// holds, or -1 on failure.
int raw_pg_read_unit(raw_pg *pg, int slot, int count, const char *const *values);

#endif
