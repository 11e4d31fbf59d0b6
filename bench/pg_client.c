/* pg_client.c — run a generated workload on a real PostgreSQL through
 * libpq and record the committed transactions as a text history
 * (r(key,value,session,txn) / w(...), value 0 the initial value).
 *
 * Optional component: built only by bench/collect-postgres.sh (needs
 * libpq-dev), never by `make`.
 *
 *   pg_client CONNINFO LEVEL SESSIONS TXNS OPS KEYS READS DIST SEED OUT
 *
 * LEVEL is rr (REPEATABLE READ, PostgreSQL's snapshot isolation) or ser
 * (SERIALIZABLE).  One thread and one connection per session.  Key k is
 * the row (k, v) of table kv, initially v = 0; a read is SELECT, a write
 * an UPDATE to a value unique over the run (session << 40 | sequence).  A
 * transaction that fails with a serialization failure or a deadlock is
 * rolled back and run again with the same program (it is not recorded:
 * the text format holds committed transactions only).  Programs come from
 * the same generator as `isocheck gen` (workload/keydist.c, rng.h). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "workload/keydist.h"
#include "workload/rng.h"

typedef struct op { int write; int64_t key, value; } op;

typedef struct session {
    int id;
    pthread_t thread;
    PGconn *conn;
    rng prog;
    char *log;                   /* text lines of committed transactions */
    size_t len, cap;
    long committed, retried;
    int failed;
    char error[512];
} session;

static const char *conninfo, *level_sql;
static long txns_per_session, ops_per_txn;
static double read_fraction;
static keydist dist;

static void append(session *s, const char *line) {
    size_t n = strlen(line);
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->log = realloc(s->log, s->cap);
        if (!s->log) { fprintf(stderr, "pg_client: out of memory\n"); exit(2); }
    }
    memcpy(s->log + s->len, line, n);
    s->len += n;
}

/* 1 committed, 0 retryable conflict, -1 other error (message in s->error). */
static int run_txn(session *s, op *ops, long n) {
    PGresult *r = PQexec(s->conn, level_sql);
    int rc = 1;
    if (PQresultStatus(r) != PGRES_COMMAND_OK) { rc = -1; goto fail; }
    PQclear(r);
    for (long i = 0; i < n; i++) {
        char k[24], v[24];
        snprintf(k, sizeof k, "%" PRId64, ops[i].key);
        if (ops[i].write) {
            snprintf(v, sizeof v, "%" PRId64, ops[i].value);
            const char *params[2] = { v, k };
            r = PQexecParams(s->conn, "UPDATE kv SET v = $1 WHERE k = $2", 2, NULL, params, NULL, NULL, 0);
            if (PQresultStatus(r) != PGRES_COMMAND_OK) { rc = 0; goto fail; }
        } else {
            const char *params[1] = { k };
            r = PQexecParams(s->conn, "SELECT v FROM kv WHERE k = $1", 1, NULL, params, NULL, NULL, 0);
            if (PQresultStatus(r) != PGRES_TUPLES_OK) { rc = 0; goto fail; }
            if (PQntuples(r) != 1) { snprintf(s->error, sizeof s->error, "key %s: no row", k); rc = -1; PQclear(r); goto rollback; }
            ops[i].value = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        }
        PQclear(r);
    }
    r = PQexec(s->conn, "COMMIT");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) { rc = 0; goto fail; }
    PQclear(r);
    return 1;
fail:
    if (rc == 0) {               /* conflicts PostgreSQL resolves by aborting */
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        if (!state || (strcmp(state, "40001") && strcmp(state, "40P01"))) rc = -1;
    }
    if (rc < 0 && !s->error[0]) snprintf(s->error, sizeof s->error, "%s", PQresultErrorMessage(r));
    PQclear(r);
rollback:
    PQclear(PQexec(s->conn, "ROLLBACK"));
    return rc;
}

static void ignore_notice(void *arg, const char *msg) { (void)arg; (void)msg; }

static void *session_main(void *arg) {
    session *s = arg;
    s->conn = PQconnectdb(conninfo);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        snprintf(s->error, sizeof s->error, "connect: %s", PQerrorMessage(s->conn));
        s->failed = 1;
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, ignore_notice, NULL);   /* ROLLBACK after a failed COMMIT warns */
    op *ops = malloc((size_t)ops_per_txn * sizeof *ops);
    int64_t seq = 0;
    char line[160];
    for (long t = 0; t < txns_per_session && !s->failed; t++) {
        for (long i = 0; i < ops_per_txn; i++) {
            ops[i].write = !rng_chance(&s->prog, read_fraction);
            ops[i].key = (int64_t)keydist_sample(&dist, &s->prog);
        }
        for (int attempt = 0;; attempt++) {
            for (long i = 0; i < ops_per_txn; i++)
                if (ops[i].write) ops[i].value = ((int64_t)(s->id + 1) << 40) | ++seq;
            int rc = run_txn(s, ops, ops_per_txn);
            if (rc == 1) break;
            if (rc < 0 || attempt == 10000) { s->failed = 1; break; }
            s->retried++;
        }
        if (s->failed) break;
        int64_t txn_id = (int64_t)(s->id + 1) * 100000000 + t;
        for (long i = 0; i < ops_per_txn; i++) {
            snprintf(line, sizeof line, "%c(%" PRId64 ",%" PRId64 ",%d,%" PRId64 ")\n", ops[i].write ? 'w' : 'r',
                     ops[i].key, ops[i].value, s->id + 1, txn_id);
            append(s, line);
        }
        s->committed++;
    }
    free(ops);
    PQfinish(s->conn);
    return NULL;
}

static int exec_ok(PGconn *c, const char *sql) {
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) fprintf(stderr, "pg_client: %s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 11) {
        fprintf(stderr, "usage: pg_client CONNINFO rr|ser SESSIONS TXNS OPS KEYS READS uniform|zipf|hotspot SEED OUT\n");
        return 2;
    }
    conninfo = argv[1];
    if (!strcmp(argv[2], "rr")) level_sql = "BEGIN ISOLATION LEVEL REPEATABLE READ";
    else if (!strcmp(argv[2], "ser")) level_sql = "BEGIN ISOLATION LEVEL SERIALIZABLE";
    else { fprintf(stderr, "pg_client: level must be rr or ser\n"); return 2; }
    int n_sessions = atoi(argv[3]);
    txns_per_session = atol(argv[4]);
    ops_per_txn = atol(argv[5]);
    long keys = atol(argv[6]);
    read_fraction = atof(argv[7]);
    int d = keydist_parse(argv[8]);
    uint64_t seed = strtoull(argv[9], NULL, 10);
    const char *out = argv[10];
    if (n_sessions < 1 || txns_per_session < 1 || ops_per_txn < 1 || keys < 1 || d < 0 ||
        read_fraction < 0 || read_fraction > 1) {
        fprintf(stderr, "pg_client: bad parameters\n");
        return 2;
    }
    keydist_init(&dist, (keydist_kind)d, (uint64_t)keys, 0.5);

    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) { fprintf(stderr, "pg_client: connect: %s", PQerrorMessage(c)); return 2; }
    PQsetNoticeProcessor(c, ignore_notice, NULL);
    char sql[160];
    snprintf(sql, sizeof sql, "INSERT INTO kv SELECT g, 0 FROM generate_series(0, %ld) g", keys - 1);
    if (!exec_ok(c, "DROP TABLE IF EXISTS kv") || !exec_ok(c, "CREATE TABLE kv (k bigint PRIMARY KEY, v bigint NOT NULL)") ||
        !exec_ok(c, sql)) { PQfinish(c); return 2; }
    PQfinish(c);

    session *ss = calloc((size_t)n_sessions, sizeof *ss);
    for (int i = 0; i < n_sessions; i++) {
        ss[i].id = i;
        rng_seed(&ss[i].prog, seed, 0x1000000ULL + (uint64_t)i);
        pthread_create(&ss[i].thread, NULL, session_main, &ss[i]);
    }
    int failed = 0;
    long committed = 0, retried = 0;
    for (int i = 0; i < n_sessions; i++) {
        pthread_join(ss[i].thread, NULL);
        if (ss[i].failed) { fprintf(stderr, "pg_client: session %d: %s\n", i + 1, ss[i].error); failed = 1; }
        committed += ss[i].committed;
        retried += ss[i].retried;
    }
    FILE *f = failed ? NULL : fopen(out, "w");
    if (!failed && !f) { perror(out); failed = 1; }
    for (int i = 0; f && i < n_sessions; i++) fwrite(ss[i].log, 1, ss[i].len, f);
    if (f && fclose(f) != 0) { perror(out); failed = 1; }
    fprintf(stderr, "pg_client: %s: %ld transactions committed, %ld aborted by PostgreSQL and retried\n",
            argv[2], committed, retried);
    for (int i = 0; i < n_sessions; i++) free(ss[i].log);
    free(ss);
    keydist_free(&dist);
    return failed ? 1 : 0;
}
