// The baseline for benchmarking HTTPServer: libmicrohttpd with the same daemon flags and
// options, answering every request with a fixed JSON body straight from C.
//
// Usage: raw-http-baseline [PORT [THREADS [MEMORY_KIB]]] (defaults 8081, 4, 32: those of
// HTTPServerConfiguration); prints "Listening on http://127.0.0.1:PORT" and serves until
// SIGINT or SIGTERM.

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char body[] = "{\"status\":\"ok\",\"store\":\"baseline\"}";

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request)
{
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    // The first call only announces the request; answering on the second, as HTTPServer
    // does, keeps the two doing the same work.
    if (*request == NULL) {
        *request = connection;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

int main(int argc, char **argv)
{
    unsigned int port = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 8081;
    unsigned int threads = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 4;
    size_t memory = (argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 32) * 1024;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG,
        0, NULL, NULL, answer, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_LIMIT, 1000u,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
        MHD_OPTION_STRICT_FOR_CLIENT, 1,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "raw-http-baseline: cannot listen on port %u\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("Listening on http://127.0.0.1:%u\n", info == NULL ? port : info->port);
    fflush(stdout);

    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
