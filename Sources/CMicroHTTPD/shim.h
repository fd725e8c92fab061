#ifndef CART_CMICROHTTPD_SHIM_H
#define CART_CMICROHTTPD_SHIM_H

#include <microhttpd.h>

// libmicrohttpd's header, for its types and constants, and the constants Swift cannot import
// because they are macros that cast. The functions, and fixed-arity wrappers of the variadic
// ones, are reached through CMicroHTTPDLoader, which opens the library on first use; the raw C
// baselines link libmicrohttpd themselves.

/// `MHD_SIZE_UNKNOWN`: a response body whose length is not known in advance (sent chunked).
static inline uint64_t cart_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// `MHD_CONTENT_READER_END_OF_STREAM`: the body ended normally.
static inline ssize_t cart_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// `MHD_CONTENT_READER_END_WITH_ERROR`: the body cannot be completed; the connection is closed.
static inline ssize_t cart_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
