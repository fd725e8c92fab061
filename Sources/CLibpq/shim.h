#ifndef CART_CLIBPQ_SHIM_H
#define CART_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
