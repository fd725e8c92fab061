// The libmicrohttpd functions the HTTP server calls, as X-macro entries:
// CART_MHD(return type, name, parameters, arguments) and CART_MHD_VOID(name, parameters,
// arguments). Each becomes a `cart_<name>` that calls the library's own, loaded on first use
// (cart_microhttpd.h).
CART_MHD(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content),
         (response, header, content))
CART_MHD(struct MHD_Response *, MHD_create_response_from_buffer,
         (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
CART_MHD(struct MHD_Response *, MHD_create_response_from_callback,
         (uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *reader_cls,
          MHD_ContentReaderFreeCallback free_reader),
         (size, block_size, reader, reader_cls, free_reader))
CART_MHD_VOID(MHD_destroy_response, (struct MHD_Response *response), (response))
CART_MHD(int, MHD_get_connection_values_n,
         (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator, void *iterator_cls),
         (connection, kind, iterator, iterator_cls))
CART_MHD(enum MHD_Result, MHD_queue_response,
         (struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response),
         (connection, status_code, response))
CART_MHD_VOID(MHD_resume_connection, (struct MHD_Connection *connection), (connection))
CART_MHD_VOID(MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))
CART_MHD_VOID(MHD_suspend_connection, (struct MHD_Connection *connection), (connection))
