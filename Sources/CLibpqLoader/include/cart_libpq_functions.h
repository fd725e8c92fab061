// The libpq functions the PostgreSQL backend calls, as X-macro entries:
// CART_LIBPQ(return type, name, parameters, arguments) for functions that return a value and
// CART_LIBPQ_VOID(name, parameters, arguments) for those that do not. Each becomes a
// `cart_<name>` that calls libpq's own, loaded on first use (cart_libpq.h).
CART_LIBPQ(int, PQbackendPID, (const PGconn *conn), (conn))
CART_LIBPQ_VOID(PQclear, (PGresult *res), (res))
CART_LIBPQ(char *, PQcmdStatus, (PGresult *res), (res))
CART_LIBPQ(char *, PQcmdTuples, (PGresult *res), (res))
CART_LIBPQ(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn))
CART_LIBPQ(PGconn *, PQconnectStartParams,
           (const char *const *keywords, const char *const *values, int expand_dbname),
           (keywords, values, expand_dbname))
CART_LIBPQ(PQconninfoOption *, PQconninfo, (PGconn *conn), (conn))
CART_LIBPQ_VOID(PQconninfoFree, (PQconninfoOption *options), (options))
CART_LIBPQ(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))
CART_LIBPQ(int, PQconsumeInput, (PGconn *conn), (conn))
CART_LIBPQ(int, PQenterPipelineMode, (PGconn *conn), (conn))
CART_LIBPQ(char *, PQerrorMessage, (const PGconn *conn), (conn))
CART_LIBPQ(char *, PQescapeIdentifier, (PGconn *conn, const char *str, size_t len), (conn, str, len))
CART_LIBPQ(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))
CART_LIBPQ(int, PQexitPipelineMode, (PGconn *conn), (conn))
CART_LIBPQ_VOID(PQfinish, (PGconn *conn), (conn))
CART_LIBPQ(char *, PQfname, (const PGresult *res, int field), (res, field))
CART_LIBPQ_VOID(PQfreemem, (void *ptr), (ptr))
CART_LIBPQ(Oid, PQftype, (const PGresult *res, int field), (res, field))
CART_LIBPQ(PGresult *, PQgetResult, (PGconn *conn), (conn))
CART_LIBPQ(int, PQisBusy, (PGconn *conn), (conn))
CART_LIBPQ(int, PQgetisnull, (const PGresult *res, int row, int field), (res, row, field))
CART_LIBPQ(int, PQgetlength, (const PGresult *res, int row, int field), (res, row, field))
CART_LIBPQ(char *, PQgetvalue, (const PGresult *res, int row, int field), (res, row, field))
CART_LIBPQ(char *, PQhost, (const PGconn *conn), (conn))
CART_LIBPQ(char *, PQhostaddr, (const PGconn *conn), (conn))
CART_LIBPQ(int, PQnfields, (const PGresult *res), (res))
CART_LIBPQ(PGnotify *, PQnotifies, (PGconn *conn), (conn))
CART_LIBPQ(int, PQntuples, (const PGresult *res), (res))
CART_LIBPQ(int, PQpipelineSync, (PGconn *conn), (conn))
CART_LIBPQ(char *, PQport, (const PGconn *conn), (conn))
CART_LIBPQ(char *, PQresStatus, (ExecStatusType status), (status))
CART_LIBPQ_VOID(PQreset, (PGconn *conn), (conn))
CART_LIBPQ(char *, PQresultErrorField, (const PGresult *res, int code), (res, code))
CART_LIBPQ(char *, PQresultErrorMessage, (const PGresult *res), (res))
CART_LIBPQ(ExecStatusType, PQresultStatus, (const PGresult *res), (res))
CART_LIBPQ(int, PQsendPrepare,
           (PGconn *conn, const char *name, const char *query, int count, const Oid *types),
           (conn, name, query, count, types))
CART_LIBPQ(int, PQsendQueryPrepared,
           (PGconn *conn, const char *name, int count, const char *const *values, const int *lengths,
            const int *formats, int resultFormat),
           (conn, name, count, values, lengths, formats, resultFormat))
CART_LIBPQ(int, PQserverVersion, (const PGconn *conn), (conn))
CART_LIBPQ(PQnoticeReceiver, PQsetNoticeReceiver, (PGconn *conn, PQnoticeReceiver receiver, void *arg),
           (conn, receiver, arg))
CART_LIBPQ(int, PQsocket, (const PGconn *conn), (conn))
CART_LIBPQ(ConnStatusType, PQstatus, (const PGconn *conn), (conn))
CART_LIBPQ(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))
