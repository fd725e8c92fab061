#ifndef CART_LIBPQ_H
#define CART_LIBPQ_H

#include <libpq-fe.h>
#include <stddef.h>

// libpq, opened when first used rather than when the program starts: loading it and the
// libraries it needs (OpenSSL, Kerberos, LDAP, …) costs a short command that never talks to
// PostgreSQL more than the command's own work. Every function the backend calls is reached
// through `cart_<name>`, which opens libpq first.

/// Opens libpq (`libpq.so.5`) once; 0 when it is usable, -1 otherwise.
int cart_libpq_open(void);

/// Why libpq could not be opened, or NULL.
const char *cart_libpq_error(void);

#define CART_LIBPQ(type, name, parameters, arguments) type cart_##name parameters;
#define CART_LIBPQ_VOID(name, parameters, arguments) void cart_##name parameters;
#include "cart_libpq_functions.h"
#undef CART_LIBPQ
#undef CART_LIBPQ_VOID

#endif
