#ifndef CART_MICROHTTPD_H
#define CART_MICROHTTPD_H

#include <microhttpd.h>

// libmicrohttpd, opened when first used rather than when the program starts: loading it and
// the libraries it needs (GnuTLS, p11-kit, …) costs a short command that serves nothing more
// than its own work. Every function the server calls is reached through `cart_<name>` (or
// the fixed-arity wrappers below, for the variadic ones), which opens the library first.

/// Opens libmicrohttpd (`libmicrohttpd.so.12`) once; 0 when it is usable, -1 otherwise.
int cart_microhttpd_open(void);

/// Why libmicrohttpd could not be opened, or NULL.
const char *cart_microhttpd_error(void);

#define CART_MHD(type, name, parameters, arguments) type cart_##name parameters;
#define CART_MHD_VOID(name, parameters, arguments) void cart_##name parameters;
#include "cart_microhttpd_functions.h"
#undef CART_MHD
#undef CART_MHD_VOID

/// The URI log callback's type: it runs once per request, before the URI is parsed.
typedef void *(*cart_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with the callbacks the HTTPServer target installs, all sharing `cls`, the
/// listening address `address` (may be NULL) and the integer options in `options`, an array
/// ended by `MHD_OPTION_END`. The logger comes first so start-up errors reach it. NULL when the
/// daemon did not start, or the library cannot be opened.
struct MHD_Daemon *cart_mhd_start_daemon(unsigned int flags, const struct sockaddr *address,
                                         MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler,
                                         MHD_LogCallback logger, cart_mhd_uri_log_callback uri_logger,
                                         MHD_RequestCompletedCallback completed, void *cls,
                                         const struct MHD_OptionItem *options);

/// The port the daemon listens on (the real one when it was started on port 0), or 0.
uint16_t cart_mhd_bound_port(struct MHD_Daemon *daemon);

/// The client's address of a connection, or NULL.
const struct sockaddr *cart_mhd_client_address(struct MHD_Connection *connection);

#endif
