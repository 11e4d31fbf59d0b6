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
 * the same generator as `isocheck gen` (workload/keydist.c, rng.h).
 *
 *   pg_client --pred CONNINFO LEVEL SESSIONS TXNS OPS KEYS READS DIST SEED OUT [COMMITS]
 *
 * The predicate workload (issue 34; doc/workload.md, "Predicate workload"),
 * written with text's predicate lines (rp, up, init: doc/formats.md).  Row
 * k starts at v = PRED_BASE + k * PRED_STEP (an init line each).  An op is
 * a predicate read (fraction READS) `SELECT k, v FROM kv WHERE v < K`, K
 * between two initial values (rp(c < K,{...})); or a predicate update
 * `UPDATE kv SET prev = v, v = L + k WHERE v BETWEEN A AND B RETURNING k,
 * prev, v`, [A, B] spanning one to three initial values (DIST picks the
 * first), L a value below PRED_BASE unique to the attempt (up(A <= c <=
 * B,{k:old->new,...})); half of the predicate reads cover half of the
 * keys only, `... WHERE v < K AND k BETWEEN X AND Y` (rp(key in X..Y and
 * c < K,{...})); a quarter of the reads are item reads
 * `SELECT v FROM kv WHERE k = x`.  An updated row's value is below every
 * initial value, so no window matches it again: each row changes at most
 * once (what Elle's closed-predicate generator does too), so every read's
 * unreturned keys have one version that does not match and the reader
 * decides every read; and it then matches every later `v < K`: a read
 * that missed a concurrent update of a row is a phantom. */
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

/* The predicate workload (--pred). */
#define PRED_BASE ((int64_t)1000000000000)     /* initial values: PRED_BASE + k * PRED_STEP */
#define PRED_STEP ((int64_t)1000)
/* an update's new values: (session + 1) * 10^10 + attempt * 10^4 + k, below PRED_BASE */
#define PRED_NEW(sess, seq) ((int64_t)((sess) + 1) * 10000000000 + (seq) * 10000)
enum { POP_READ, POP_PRED_READ, POP_PRED_UPDATE };
typedef struct pop { int kind, keyed; int64_t key, value, a, b; } pop;   /* keyed: k BETWEEN key AND b */
typedef struct buf { char *p; size_t len, cap; } buf;
static int pred_mode;
static long num_keys;

typedef struct session {
    int id;
    pthread_t thread;
    PGconn *conn;
    rng prog;
    char *log;                   /* text lines of committed transactions */
    size_t len, cap;
    buf attempt;                 /* --pred: the lines of the transaction being run */
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

static void buf_add(buf *b, const char *text, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) { fprintf(stderr, "pg_client: out of memory\n"); exit(2); }
    }
    memcpy(b->p + b->len, text, n);
    b->len += n;
}

static void append(session *s, const char *line) {
    buf b = { s->log, s->len, s->cap };
    buf_add(&b, line, strlen(line));
    s->log = b.p; s->len = b.len; s->cap = b.cap;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One item op: 1 done; 0 a statement failed (*res: its result, for the
 * SQLSTATE); -1 another error (s->error set). */
static int item_op(session *s, op *o, PGresult **res) {
    char k[24], v[24];
    snprintf(k, sizeof k, "%" PRId64, o->key);
    PGresult *r;
    if (o->write) {
        snprintf(v, sizeof v, "%" PRId64, o->value);
        const char *params[2] = { v, k };
        r = PQexecParams(s->conn, "UPDATE kv SET v = $1 WHERE k = $2", 2, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) { *res = r; return 0; }
    } else {
        const char *params[1] = { k };
        r = PQexecParams(s->conn, "SELECT v FROM kv WHERE k = $1", 1, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) { *res = r; return 0; }
        if (PQntuples(r) != 1) { snprintf(s->error, sizeof s->error, "key %s: no row", k); PQclear(r); return -1; }
        o->value = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    }
    PQclear(r);
    return 1;
}

/* One op of the predicate workload, its text line added to s->attempt
 * (transaction id txn); returns as item_op.  L (the update's base value)
 * is unique to the attempt: *seq counts. */
static int pred_op(session *s, const pop *o, int64_t txn, int64_t *seq, PGresult **res) {
    char a[24], b[24], hi[24], line[160];
    PGresult *r;
    if (o->kind == POP_READ) {
        op it = { 0, o->key, 0 };
        int rc = item_op(s, &it, res);
        if (rc != 1) return rc;
        int n = snprintf(line, sizeof line, "r(%" PRId64 ",%" PRId64 ",%d,%" PRId64 ")\n", it.key, it.value, s->id + 1, txn);
        buf_add(&s->attempt, line, (size_t)n);
        return 1;
    }
    int upd = o->kind == POP_PRED_UPDATE;
    snprintf(a, sizeof a, "%" PRId64, o->a);
    if (upd) {
        snprintf(b, sizeof b, "%" PRId64, PRED_NEW(s->id, ++*seq));
        snprintf(hi, sizeof hi, "%" PRId64, o->b);
        const char *params[3] = { a, hi, b };
        r = PQexecParams(s->conn, "UPDATE kv SET prev = v, v = $3 + k WHERE v BETWEEN $1 AND $2 RETURNING k, prev, v",
                         3, NULL, params, NULL, NULL, 0);
    } else if (o->keyed) {                      /* a declared key range: text's `key in A..B and` */
        snprintf(b, sizeof b, "%" PRId64, o->key);
        snprintf(hi, sizeof hi, "%" PRId64, o->b);
        const char *params[3] = { a, b, hi };
        r = PQexecParams(s->conn, "SELECT k, v FROM kv WHERE v < $1 AND k BETWEEN $2 AND $3 ORDER BY k", 3, NULL, params,
                         NULL, NULL, 0);
    } else {
        const char *params[1] = { a };
        r = PQexecParams(s->conn, "SELECT k, v FROM kv WHERE v < $1 ORDER BY k", 1, NULL, params, NULL, NULL, 0);
    }
    if (PQresultStatus(r) != PGRES_TUPLES_OK) { *res = r; return 0; }
    int n = upd ? snprintf(line, sizeof line, "up(%" PRId64 " <= c <= %" PRId64 ",{", o->a, o->b)
          : o->keyed ? snprintf(line, sizeof line, "rp(key in %" PRId64 "..%" PRId64 " and c < %" PRId64 ",{", o->key, o->b, o->a)
                     : snprintf(line, sizeof line, "rp(c < %" PRId64 ",{", o->a);
    buf_add(&s->attempt, line, (size_t)n);
    for (int i = 0; i < PQntuples(r); i++) {
        n = upd ? snprintf(line, sizeof line, "%s%s:%s->%s", i ? "," : "", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1),
                           PQgetvalue(r, i, 2))
                : snprintf(line, sizeof line, "%s%s:%s", i ? "," : "", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
        buf_add(&s->attempt, line, (size_t)n);
    }
    n = snprintf(line, sizeof line, "},%d,%" PRId64 ")\n", s->id + 1, txn);
    buf_add(&s->attempt, line, (size_t)n);
    PQclear(r);
    return 1;
}

/* 1 committed, 0 retryable conflict, -1 other error (message in s->error).
 * At rr/ser, *t gets the xid and snapshot.  ops (item workload) or pops
 * (--pred: lines into s->attempt, as transaction txn). */
static int run_txn(session *s, op *ops, const pop *pops, long n, pg_txn *t, int64_t txn, int64_t *seq) {
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
    s->attempt.len = 0;
    for (long i = 0; i < n; i++) {
        r = NULL;
        rc = pops ? pred_op(s, &pops[i], txn, seq, &r) : item_op(s, &ops[i], &r);
        if (rc == 0) goto fail;
        if (rc < 0) goto rollback;
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

/* The next transaction's program: n item ops, or (--pred) n predicate-workload ops. */
static void program(session *s, op *ops, pop *pops, long n, long keys) {
    for (long i = 0; i < n; i++) {
        if (!pred_mode) {
            ops[i].write = !rng_chance(&s->prog, read_fraction);
            ops[i].key = (int64_t)keydist_sample(&dist, &s->prog);
            continue;
        }
        pop *o = &pops[i];
        int64_t x = (int64_t)keydist_sample(&dist, &s->prog);
        if (rng_chance(&s->prog, read_fraction)) {
            o->kind = rng_chance(&s->prog, 0.25) ? POP_READ : POP_PRED_READ;
            o->key = x;
            o->a = PRED_BASE + x * PRED_STEP + PRED_STEP / 2;       /* between x's and x+1's initial values */
            o->keyed = o->kind == POP_PRED_READ && rng_chance(&s->prog, 0.5);
            if (o->keyed) {                                          /* over half of the table's keys */
                o->key = (int64_t)rng_below(&s->prog, (uint64_t)keys);
                o->b = o->key + keys / 2 < keys ? o->key + keys / 2 : keys - 1;
            }
        } else {
            o->kind = POP_PRED_UPDATE;
            o->a = PRED_BASE + x * PRED_STEP;
            o->b = PRED_BASE + (x + (int64_t)rng_below(&s->prog, 3)) * PRED_STEP;
            if (o->b > PRED_BASE + (keys - 1) * PRED_STEP) o->b = PRED_BASE + (keys - 1) * PRED_STEP;
        }
    }
}

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
    pop *pops = pred_mode ? malloc((size_t)ops_per_txn * sizeof *pops) : NULL;
    s->txns = calloc((size_t)txns_per_session, sizeof *s->txns);
    s->invoke = calloc((size_t)txns_per_session, sizeof *s->invoke);
    s->complete = calloc((size_t)txns_per_session, sizeof *s->complete);
    if (!ops || (pred_mode && !pops) || !s->txns || !s->invoke || !s->complete) {
        fprintf(stderr, "pg_client: out of memory\n");
        exit(2);
    }
    int64_t seq = 0;
    char line[160];
    for (long t = 0; t < txns_per_session && !s->failed; t++) {
        program(s, ops, pops, ops_per_txn, num_keys);
        int64_t txn_id = (int64_t)(s->id + 1) * 100000000 + t;
        for (int attempt = 0;; attempt++) {
            for (long i = 0; i < ops_per_txn; i++)
                if (!pred_mode && ops[i].write) ops[i].value = ((int64_t)(s->id + 1) << 40) | ++seq;
            pg_txn *pt = &s->txns[s->committed];
            s->invoke[s->committed] = now_ns();
            int rc = run_txn(s, ops, pops, ops_per_txn, pt, txn_id, &seq);
            s->complete[s->committed] = now_ns();
            if (rc == 1) break;
            if (pred_mode && seq >= 999999) snprintf(s->error, sizeof s->error, "--pred: out of update values (10^6 attempts)");
            if (rc < 0 || attempt == 10000 || s->error[0]) { s->failed = 1; break; }
            s->retried++;
        }
        if (s->failed) break;
        s->txns[s->committed].id = txn_id;
        if (pred_mode) {
            buf b = { s->log, s->len, s->cap };
            buf_add(&b, s->attempt.p ? s->attempt.p : "", s->attempt.len);
            s->log = b.p; s->len = b.len; s->cap = b.cap;
        }
        for (long i = 0; i < ops_per_txn && !pred_mode; i++) {
            snprintf(line, sizeof line, "%c(%" PRId64 ",%" PRId64 ",%d,%" PRId64 ")\n", ops[i].write ? 'w' : 'r',
                     ops[i].key, ops[i].value, s->id + 1, txn_id);
            append(s, line);
        }
        s->committed++;
    }
    free(ops);
    free(pops);
    free(s->attempt.p);
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
    for (long k = 0; pred_mode && k < num_keys; k++)           /* the rows' initial values */
        ok &= fprintf(f, "init(%ld,%" PRId64 ")\n", k, PRED_BASE + k * PRED_STEP) > 0;
    for (int i = 0; i < n_sessions; i++) ok &= ss[i].len == 0 || fwrite(ss[i].log, 1, ss[i].len, f) == ss[i].len;
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
    if (argc > 1 && !strcmp(argv[1], "--pred")) { pred_mode = 1; argv++; argc--; }
    if (argc != 11 && argc != 12) {
        fprintf(stderr, "usage: pg_client [--pred] CONNINFO rc|rr|ser SESSIONS TXNS OPS KEYS READS uniform|zipf|hotspot SEED OUT "
                "[COMMITS]\n");
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
    if (pred_mode && (keys > 4096 || n_sessions > 98)) {
        fprintf(stderr, "pg_client: --pred takes at most 4096 keys and 98 sessions\n");
        return 2;
    }
    num_keys = keys;
    keydist_init(&dist, (keydist_kind)d, (uint64_t)keys, 0.5);

    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) { fprintf(stderr, "pg_client: connect: %s", PQerrorMessage(c)); return 2; }
    PQsetNoticeProcessor(c, ignore_notice, NULL);
    char sql[200];
    if (pred_mode)
        snprintf(sql, sizeof sql, "INSERT INTO kv SELECT g, %" PRId64 " + g * %" PRId64 " FROM generate_series(0, %ld) g",
                 PRED_BASE, PRED_STEP, keys - 1);
    else snprintf(sql, sizeof sql, "INSERT INTO kv SELECT g, 0 FROM generate_series(0, %ld) g", keys - 1);
    if (!exec_ok(c, "DROP TABLE IF EXISTS kv") ||
        !exec_ok(c, "CREATE TABLE kv (k bigint PRIMARY KEY, v bigint NOT NULL, prev bigint)") ||
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
