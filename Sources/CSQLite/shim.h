#ifndef CART_CSQLITE_SHIM_H
#define CART_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these wrap the few sqlite3_db_config /
// sqlite3_config calls the project needs.

static inline int cart_sqlite3_enable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type cart_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
