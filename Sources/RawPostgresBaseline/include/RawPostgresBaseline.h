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

#endif
