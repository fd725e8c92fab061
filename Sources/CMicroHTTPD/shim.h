#ifndef CART_CMICROHTTPD_SHIM_H
#define CART_CMICROHTTPD_SHIM_H

#include <microhttpd.h>

// Swift cannot call C variadic functions, nor import macros that cast. These fixed-arity
// wrappers and constants cover what the HTTPServer target needs from libmicrohttpd.

/// The URI log callback's type: it runs once per request, before the URI is parsed.
typedef void *(*cart_mhd_uri_log_callback)(void *cls, const char *uri,
                                           struct MHD_Connection *connection);

/// Starts a daemon with the callbacks the HTTPServer target installs, all sharing `cls`,
/// the listening address `address` (may be NULL) and the integer options in `options`,
/// an array ended by `MHD_OPTION_END`. The logger comes first so start-up errors reach it.
static inline struct MHD_Daemon *
cart_mhd_start_daemon(unsigned int flags,
                      const struct sockaddr *address,
                      MHD_AccessHandlerCallback handler,
                      MHD_LogCallback logger,
                      cart_mhd_uri_log_callback uri_logger,
                      MHD_RequestCompletedCallback completed,
                      void *cls,
                      const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (the real one when it was started on port 0), or 0.
static inline uint16_t cart_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The client's address of a connection, or NULL.
static inline const struct sockaddr *cart_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// `MHD_SIZE_UNKNOWN`: a response body whose length is not known in advance (sent chunked).
static inline uint64_t cart_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// `MHD_CONTENT_READER_END_OF_STREAM`: the body ended normally.
static inline ssize_t cart_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// `MHD_CONTENT_READER_END_WITH_ERROR`: the body cannot be completed; the connection is closed.
static inline ssize_t cart_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
