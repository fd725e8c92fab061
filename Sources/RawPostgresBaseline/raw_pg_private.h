#ifndef RAW_PG_PRIVATE_H
#define RAW_PG_PRIVATE_H

// The connection handle's layout, shared by the plumbing (raw_pg.c) and the cart
// transactions (raw_pg_cart.c).

#include "RawPostgresBaseline.h"

#include <libpq-fe.h>

struct raw_pg {
    PGconn *conn;
    int prepared[RAW_PG_SLOTS];
};

#endif
