// Opens libpq with dlopen on first use and forwards each `cart_<name>` to it (cart_libpq.h).
// When libpq cannot be opened, the forwarders do nothing and return zero; callers check
// cart_libpq_open() before anything else (a connection or a parsed location).

#include "cart_libpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

#define CART_LIBPQ(type, name, parameters, arguments) static type(*real_##name) parameters;
#define CART_LIBPQ_VOID(name, parameters, arguments) static void(*real_##name) parameters;
#include "cart_libpq_functions.h"
#undef CART_LIBPQ
#undef CART_LIBPQ_VOID

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure_text, sizeof failure_text, "%s", dlerror());
        failure = failure_text;
        return;
    }
#define CART_LIBPQ(type, name, parameters, arguments)                                               \
    if ((*(void **)&real_##name = dlsym(library, #name)) == NULL) {                                 \
        snprintf(failure_text, sizeof failure_text, "libpq.so.5 has no %s", #name);                 \
        failure = failure_text;                                                                     \
        return;                                                                                     \
    }
#define CART_LIBPQ_VOID(name, parameters, arguments) CART_LIBPQ(void, name, parameters, arguments)
#include "cart_libpq_functions.h"
#undef CART_LIBPQ
#undef CART_LIBPQ_VOID
}

int cart_libpq_open(void) {
    pthread_once(&once, load);
    return failure == NULL ? 0 : -1;
}

const char *cart_libpq_error(void) {
    cart_libpq_open();
    return failure;
}

#define CART_LIBPQ(type, name, parameters, arguments)                                               \
    type cart_##name parameters {                                                                   \
        if (cart_libpq_open() != 0) return (type)0;                                                 \
        return real_##name arguments;                                                               \
    }
#define CART_LIBPQ_VOID(name, parameters, arguments)                                                \
    void cart_##name parameters {                                                                   \
        if (cart_libpq_open() == 0) real_##name arguments;                                          \
    }
#include "cart_libpq_functions.h"
