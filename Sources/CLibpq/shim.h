#ifndef CART_CLIBPQ_SHIM_H
#define CART_CLIBPQ_SHIM_H

// libpq's header, for its types and constants. The functions are reached through
// CLibpqLoader (cart_<name>), which opens the library on first use; the raw C baseline links
// libpq itself.
#include <libpq-fe.h>

#endif
