// Opens libmicrohttpd with dlopen on first use and forwards each `cart_<name>` to it
// (cart_microhttpd.h). When it cannot be opened, the forwarders do nothing and return zero;
// a daemon then fails to start, with cart_microhttpd_error() saying why.

#include "cart_microhttpd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

#define CART_MHD(type, name, parameters, arguments) static type(*real_##name) parameters;
#define CART_MHD_VOID(name, parameters, arguments) static void(*real_##name) parameters;
#include "cart_microhttpd_functions.h"
#undef CART_MHD
#undef CART_MHD_VOID
static struct MHD_Daemon *(*real_MHD_start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                                  MHD_AccessHandlerCallback, void *, ...);
static const union MHD_DaemonInfo *(*real_MHD_get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
static const union MHD_ConnectionInfo *(*real_MHD_get_connection_info)(struct MHD_Connection *,
                                                                      enum MHD_ConnectionInfoType, ...);

#define CART_FIND(name)                                                                             \
    if ((*(void **)&real_##name = dlsym(library, #name)) == NULL) {                                 \
        snprintf(failure_text, sizeof failure_text, "libmicrohttpd.so.12 has no %s", #name);        \
        failure = failure_text;                                                                     \
        return;                                                                                     \
    }

static void load(void) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure_text, sizeof failure_text, "%s", dlerror());
        failure = failure_text;
        return;
    }
#define CART_MHD(type, name, parameters, arguments) CART_FIND(name)
#define CART_MHD_VOID(name, parameters, arguments) CART_FIND(name)
#include "cart_microhttpd_functions.h"
#undef CART_MHD
#undef CART_MHD_VOID
    CART_FIND(MHD_start_daemon)
    CART_FIND(MHD_get_daemon_info)
    CART_FIND(MHD_get_connection_info)
}

int cart_microhttpd_open(void) {
    pthread_once(&once, load);
    return failure == NULL ? 0 : -1;
}

const char *cart_microhttpd_error(void) {
    cart_microhttpd_open();
    return failure;
}

#define CART_MHD(type, name, parameters, arguments)                                                 \
    type cart_##name parameters {                                                                   \
        if (cart_microhttpd_open() != 0) return (type)0;                                            \
        return real_##name arguments;                                                               \
    }
#define CART_MHD_VOID(name, parameters, arguments)                                                  \
    void cart_##name parameters {                                                                   \
        if (cart_microhttpd_open() == 0) real_##name arguments;                                     \
    }
#include "cart_microhttpd_functions.h"

struct MHD_Daemon *cart_mhd_start_daemon(unsigned int flags, const struct sockaddr *address,
                                         MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler,
                                         MHD_LogCallback logger, cart_mhd_uri_log_callback uri_logger,
                                         MHD_RequestCompletedCallback completed, void *cls,
                                         const struct MHD_OptionItem *options) {
    if (cart_microhttpd_open() != 0) return NULL;
    return real_MHD_start_daemon(flags, 0, accept_policy, cls, handler, cls,
                                 MHD_OPTION_EXTERNAL_LOGGER, logger, cls,
                                 MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
                                 MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                                 MHD_OPTION_SOCK_ADDR, address,
                                 MHD_OPTION_ARRAY, options,
                                 MHD_OPTION_END);
}

uint16_t cart_mhd_bound_port(struct MHD_Daemon *daemon) {
    if (cart_microhttpd_open() != 0) return 0;
    const union MHD_DaemonInfo *info = real_MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

const struct sockaddr *cart_mhd_client_address(struct MHD_Connection *connection) {
    if (cart_microhttpd_open() != 0) return NULL;
    const union MHD_ConnectionInfo *info = real_MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}
