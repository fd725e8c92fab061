// The raw libpq baseline's connection and statement plumbing. See RawPostgresBaseline.h.

#include "raw_pg_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void drop_notice(void *arg, const PGresult *result) {
    (void)arg;
    (void)result;
}

static void slot_name(int slot, char name[16]) { snprintf(name, 16, "raw_%d", slot); }

static int64_t first_integer(const PGresult *result) {
    if (PQntuples(result) < 1 || PQnfields(result) < 1 || PQgetisnull(result, 0, 0)) return 0;
    return strtoll(PQgetvalue(result, 0, 0), NULL, 10);
}

raw_pg *raw_pg_open(const char *conninfo, char *error, int error_size) {
    PGconn *conn = PQconnectdb(conninfo);
    if (conn == NULL || PQstatus(conn) != CONNECTION_OK) {
        snprintf(error, (size_t)error_size, "%s", conn ? PQerrorMessage(conn) : "out of memory");
        PQfinish(conn);
        return NULL;
    }
    PQsetNoticeReceiver(conn, drop_notice, NULL);
    raw_pg *pg = calloc(1, sizeof *pg);
    if (pg == NULL) {
        snprintf(error, (size_t)error_size, "out of memory");
        PQfinish(conn);
        return NULL;
    }
    pg->conn = conn;
    return pg;
}

void raw_pg_close(raw_pg *pg) {
    if (pg == NULL) return;
    PQfinish(pg->conn);
    free(pg);
}

const char *raw_pg_error(raw_pg *pg) { return PQerrorMessage(pg->conn); }

int raw_pg_prepare(raw_pg *pg, int slot, const char *sql) {
    if (slot < 0 || slot >= RAW_PG_SLOTS) return -1;
    char name[16];
    slot_name(slot, name);
    PGresult *result = PQprepare(pg->conn, name, sql, 0, NULL);
    int ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    PQclear(result);
    pg->prepared[slot] = ok;
    return ok ? 0 : -1;
}

int raw_pg_exec(raw_pg *pg, int slot, int count, const char *const *values, int64_t *first) {
    if (slot < 0 || slot >= RAW_PG_SLOTS || !pg->prepared[slot]) return -1;
    char name[16];
    slot_name(slot, name);
    PGresult *result = PQexecPrepared(pg->conn, name, count, values, NULL, NULL, 0);
    ExecStatusType status = PQresultStatus(result);
    int rows = -1;
    if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
        rows = PQntuples(result);
        if (first != NULL) *first = first_integer(result);
    }
    PQclear(result);
    return rows;
}

int raw_pg_pipeline(raw_pg *pg, int statements, const int *slots, const int *counts,
                    const char *const *const *values, int64_t *firsts) {
    if (!PQenterPipelineMode(pg->conn)) return 1;
    char name[16];
    int failed = 0;
    for (int i = 0; i < statements; i++) {
        if (slots[i] < 0 || slots[i] >= RAW_PG_SLOTS || !pg->prepared[slots[i]]) {
            failed = i + 1;
            break;
        }
        slot_name(slots[i], name);
        if (!PQsendQueryPrepared(pg->conn, name, counts[i], values[i], NULL, NULL, 0)) {
            failed = i + 1;
            break;
        }
    }
    int sent = failed ? failed - 1 : statements;
    if (!PQpipelineSync(pg->conn)) return failed ? failed : 1;
    for (int i = 0; i < sent; i++) {
        PGresult *result = PQgetResult(pg->conn);
        if (result == NULL) return i + 1;
        ExecStatusType status = PQresultStatus(result);
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
            if (firsts != NULL) firsts[i] = first_integer(result);
        } else if (!failed) {
            failed = i + 1;
        }
        PQclear(result);
        // Each statement's results end with a null result.
        while ((result = PQgetResult(pg->conn)) != NULL) PQclear(result);
    }
    PGresult *sync = PQgetResult(pg->conn);
    if (sync == NULL || PQresultStatus(sync) != PGRES_PIPELINE_SYNC) failed = failed ? failed : 1;
    PQclear(sync);
    PQexitPipelineMode(pg->conn);
    return failed;
}
