/* pg_client.c — run a generated workload on a real PostgreSQL through
 * libpq and record the committed transactions as a text history
 * (r(key,value,session,txn) / w(...), value 0 the initial value) with
 * their times (`#@time TXN invoke= complete= start= commit=`).
 *
 * Optional component: built only by bench/collect-postgres.sh (needs
 * libpq-dev), never by `make`.
 *
 *   pg_client CONNINFO LEVEL SESSIONS TXNS OPS KEYS READS DIST SEED OUT [COMMITS]
 *
 * LEVEL is rc (READ COMMITTED), rr (REPEATABLE READ, PostgreSQL's snapshot
 * isolation) or ser (SERIALIZABLE).  One thread and one connection per
 * session.  invoke/complete: the client's CLOCK_MONOTONIC in nanoseconds
 * before BEGIN and after COMMIT returned (of the attempt that committed).
 * At rr and ser the first statement of each transaction records its xid
 * and snapshot (pg_current_xact_id(), pg_current_snapshot()); once every
 * session is done, the commit timestamps (pg_xact_commit_timestamp, when
 * track_commit_timestamp is on) are read and the commit order recovered
 * (bench/pg_order.h): start= and commit= are its timestamps, and COMMITS,
 * if given, the ids in that order (a `check --commit-order` file).  At rc
 * a transaction has no snapshot: no start/commit.  Key k is
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
#include <time.h>

#include <libpq-fe.h>

#include "bench/pg_order.h"
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
    pg_txn *txns;                /* the committed ones, with their snapshots */
    int64_t *invoke, *complete;
    long committed, retried;
    int failed;
    char error[512];
} session;

static const char *conninfo, *level_sql;
static int snapshots;            /* rr, ser: record xid and snapshot */
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

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* 1 committed, 0 retryable conflict, -1 other error (message in s->error).
 * At rr/ser, *t gets the xid and snapshot. */
static int run_txn(session *s, op *ops, long n, pg_txn *t) {
    PGresult *r = PQexec(s->conn, level_sql);
    int rc = 1;
    if (PQresultStatus(r) != PGRES_COMMAND_OK) { rc = -1; goto fail; }
    PQclear(r);
    if (snapshots) {             /* the first statement: the snapshot, then an xid */
        r = PQexec(s->conn, "SELECT pg_current_snapshot()::text, pg_current_xact_id()::text");
        if (PQresultStatus(r) != PGRES_TUPLES_OK) { rc = 0; goto fail; }
        free(t->xip);
        t->xip = NULL;
        t->xid = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
        if (!pg_parse_snapshot(t, PQgetvalue(r, 0, 0))) {
            snprintf(s->error, sizeof s->error, "cannot read the snapshot '%s'", PQgetvalue(r, 0, 0));
            rc = -1;
            PQclear(r);
            goto rollback;
        }
        PQclear(r);
    }
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
    s->txns = calloc((size_t)txns_per_session, sizeof *s->txns);
    s->invoke = calloc((size_t)txns_per_session, sizeof *s->invoke);
    s->complete = calloc((size_t)txns_per_session, sizeof *s->complete);
    if (!ops || !s->txns || !s->invoke || !s->complete) { fprintf(stderr, "pg_client: out of memory\n"); exit(2); }
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
            pg_txn *pt = &s->txns[s->committed];
            s->invoke[s->committed] = now_ns();
            int rc = run_txn(s, ops, ops_per_txn, pt);
            s->complete[s->committed] = now_ns();
            if (rc == 1) break;
            if (rc < 0 || attempt == 10000) { s->failed = 1; break; }
            s->retried++;
        }
        if (s->failed) break;
        int64_t txn_id = (int64_t)(s->id + 1) * 100000000 + t;
        s->txns[s->committed].id = txn_id;
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

/* Reads each transaction's commit timestamp (microseconds since the epoch)
 * into commit_us; PG_NO_TIMESTAMP where there is none (the setting off). */
static void commit_timestamps(pg_txn *t, size_t n) {
    PGconn *c = PQconnectdb(conninfo);
    int warned = 0;
    for (size_t i = 0; i < n; i++) {
        char x[24];
        snprintf(x, sizeof x, "%" PRIu64, t[i].xid & 0xffffffffu);     /* xid8 -> its 32-bit xid */
        const char *params[1] = { x };
        PGresult *r = PQstatus(c) != CONNECTION_OK ? NULL :
            PQexecParams(c, "SELECT (extract(epoch FROM pg_xact_commit_timestamp($1::xid)) * 1000000)::bigint", 1, NULL,
                         params, NULL, NULL, 0);
        int ok = r && PQresultStatus(r) == PGRES_TUPLES_OK && !PQgetisnull(r, 0, 0);
        t[i].commit_us = ok ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : PG_NO_TIMESTAMP;
        if (!ok && !warned++)
            fprintf(stderr, "pg_client: no commit timestamps (track_commit_timestamp off?): %s",
                    r ? PQresultErrorMessage(r) : PQerrorMessage(c));
        PQclear(r);
    }
    PQfinish(c);
}

/* Writes PATH through PATH.tmp and a rename: the sessions' operations, then
 * a #@time line per transaction (start/commit when times is set). */
static int write_history(const char *path, session *ss, int n_sessions, int times) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) { perror(tmp); return 0; }
    int ok = 1;
    for (int i = 0; i < n_sessions; i++) ok &= fwrite(ss[i].log, 1, ss[i].len, f) == ss[i].len;
    for (int i = 0; i < n_sessions; i++)
        for (long j = 0; j < ss[i].committed; j++) {
            const pg_txn *t = &ss[i].txns[j];
            ok &= fprintf(f, "#@time %" PRId64 " invoke=%" PRId64 " complete=%" PRId64, t->id, ss[i].invoke[j],
                          ss[i].complete[j]) > 0;
            if (times) ok &= fprintf(f, " start=%" PRId64 " commit=%" PRId64, t->start, t->commit) > 0;
            ok &= fputc('\n', f) != EOF;
        }
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) { perror(path); remove(tmp); return 0; }
    return 1;
}

static int write_commits(const char *path, const pg_txn *all, const size_t *order, size_t n) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) { perror(tmp); return 0; }
    int ok = fprintf(f, "# PostgreSQL's commit order, recovered from the snapshots (bench/pg_order.h)\n") > 0;
    for (size_t i = 0; i < n; i++) ok &= fprintf(f, "%" PRId64 "\n", all[order[i]].id) > 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) { perror(path); remove(tmp); return 0; }
    return 1;
}

/* The commit order of every session's committed transactions into their
 * start/commit; COMMITS written when given.  1 or 0 (the reason printed). */
static int recover(session *ss, int n_sessions, const char *commits) {
    size_t n = 0, at = 0;
    for (int i = 0; i < n_sessions; i++) n += (size_t)ss[i].committed;
    pg_txn *all = malloc((n + 1) * sizeof *all);
    size_t *order = malloc((n + 1) * sizeof *order);
    if (!all || !order) { fprintf(stderr, "pg_client: out of memory\n"); exit(2); }
    for (int i = 0; i < n_sessions; i++)
        for (long j = 0; j < ss[i].committed; j++) all[at++] = ss[i].txns[j];
    commit_timestamps(all, n);
    pg_order_stats st;
    char err[512];
    int ok = pg_order_recover(all, n, order, &st, err, sizeof err);
    if (!ok) fprintf(stderr, "pg_client: no commit order: %s\n", err);
    else {
        at = 0;
        for (int i = 0; i < n_sessions; i++)
            for (long j = 0; j < ss[i].committed; j++) ss[i].txns[j] = all[at++];
        fprintf(stderr, "pg_client: commit order of %zu transactions recovered from their snapshots (%zu distinct views); "
                "commit timestamps: %zu pairs tied, %zu pairs against the snapshots\n", n, st.views, st.ts_ties, st.ts_against);
        if (commits) ok = write_commits(commits, all, order, n);
    }
    free(all);
    free(order);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 11 && argc != 12) {
        fprintf(stderr, "usage: pg_client CONNINFO rc|rr|ser SESSIONS TXNS OPS KEYS READS uniform|zipf|hotspot SEED OUT [COMMITS]\n");
        return 2;
    }
    conninfo = argv[1];
    snapshots = 1;
    if (!strcmp(argv[2], "rr")) level_sql = "BEGIN ISOLATION LEVEL REPEATABLE READ";
    else if (!strcmp(argv[2], "ser")) level_sql = "BEGIN ISOLATION LEVEL SERIALIZABLE";
    else if (!strcmp(argv[2], "rc")) { level_sql = "BEGIN ISOLATION LEVEL READ COMMITTED"; snapshots = 0; }
    else { fprintf(stderr, "pg_client: level must be rc, rr or ser\n"); return 2; }
    int n_sessions = atoi(argv[3]);
    txns_per_session = atol(argv[4]);
    ops_per_txn = atol(argv[5]);
    long keys = atol(argv[6]);
    read_fraction = atof(argv[7]);
    int d = keydist_parse(argv[8]);
    uint64_t seed = strtoull(argv[9], NULL, 10);
    const char *out = argv[10], *commits = argc == 12 ? argv[11] : NULL;
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
    fprintf(stderr, "pg_client: %s: %ld transactions committed, %ld aborted by PostgreSQL and retried\n",
            argv[2], committed, retried);
    /* Without a commit order (snapshots not nested: printed) the history is
     * written without start/commit, and the exit code is 1. */
    int times = !failed && snapshots && recover(ss, n_sessions, commits);
    if (!failed && !write_history(out, ss, n_sessions, times)) failed = 1;
    if (snapshots && !times) failed = 1;
    for (int i = 0; i < n_sessions; i++) {
        for (long j = 0; j < txns_per_session; j++) free(ss[i].txns ? ss[i].txns[j].xip : NULL);
        free(ss[i].txns);
        free(ss[i].invoke);
        free(ss[i].complete);
        free(ss[i].log);
    }
    free(ss);
    keydist_free(&dist);
    return failed ? 1 : 0;
}
