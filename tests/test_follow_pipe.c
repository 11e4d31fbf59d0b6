/* test_follow_pipe.c — the reader thread of `check --follow`
 * (frontend/online/follow_pipe.h), against its contract, with a stand-in
 * for the checker:
 *   - every transaction a single parse of the whole text completes is
 *     handed over exactly once, with its operations and the keys new in
 *     its batch (ids in order), whatever the cuts: a writer thread writes
 *     the text through a pipe in many pieces while the "checker" takes
 *     batches slowly;
 *   - the readers' question (a value inside the range written to its key:
 *     the values here are not rising, so most writes ask) reaches the
 *     checker only while it waits in follow_pipe_next with nothing
 *     pending: never while it is busy with a batch, and only once every
 *     transaction handed out was taken (then the answer, from what it
 *     took, is the single-threaded one);
 *   - a value written twice: the question answers "written", the reader
 *     hands over (delta 0) and what it had parsed before is all taken;
 *   - follow_pipe_stop ends a reader that waits on a pipe with no bytes at
 *     once (FOLLOW_STOPPED), and in->stop / the question are given back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "frontend/online/follow_pipe.h"

#define SESS 6
#define TXNS 1500                 /* per session */
#define KEYS 40

typedef struct feed { int fd; const char *b; size_t n; size_t pieces; } feed;

static void nap_us(long us) {
    struct timespec ts = { 0, us * 1000 };
    nanosleep(&ts, NULL);
}

static void *writer(void *arg) {
    feed *f = arg;
    size_t step = f->n / f->pieces + 1;
    for (size_t at = 0; at < f->n;) {
        size_t k = f->n - at < step ? f->n - at : step;
        ssize_t w = write(f->fd, f->b + at, k);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        at += (size_t)w;
        nap_us(300);
    }
    close(f->fd);
    return NULL;
}

/* The stand-in checker: the writes of the batches taken (key, value) in
 * a flat list, and what the contract forbids, counted. */
typedef struct checker {
    atomic_int busy;             /* between a take and the next follow_pipe_next */
    atomic_uint taken;           /* transactions taken */
    int64_t *wk, *wv;            /* the writes taken */
    size_t nw, capw;
    atomic_int asked, asked_busy, asked_behind, said_written;
    const follow_parse *fp;      /* (read by the reader thread only, in the question) */
} checker;

static int fake_written(void *ctx, uint32_t key, int64_t value) {
    checker *c = ctx;
    atomic_fetch_add(&c->asked, 1);
    if (atomic_load(&c->busy)) atomic_fetch_add(&c->asked_busy, 1);
    if (atomic_load(&c->taken) != c->fp->ts.completed) atomic_fetch_add(&c->asked_behind, 1);
    for (size_t i = 0; i < c->nw; i++)
        if (c->wk[i] == (int64_t)key && c->wv[i] == value) { atomic_fetch_add(&c->said_written, 1); return 1; }
    return 0;
}

/* Transaction t of session s (t counted from 0): 3 operations, its writes'
 * values not rising but unique per key (a permutation of the ids). */
static size_t text_of(char *b, size_t cap, int repeat) {
    size_t n = 0;
    for (int t = 0; t < TXNS; t++)
        for (int s = 0; s < SESS; s++) {
            long id = (long)t * SESS + s + 1;
            long v = (id * 7919) % 1000003 + 1;
            n += (size_t)snprintf(b + n, cap - n, "w(%ld,%ld,%d,%ld)\nr(%ld,0,%d,%ld)\nw(%ld,%ld,%d,%ld)\n", id % KEYS, v, s,
                                  id, (id + 3) % KEYS + 100, s, id, (id + 7) % KEYS, v + 1, s, id);
        }
    if (repeat)                                   /* key 1's value of transaction 1 (w(1,7920,...)), again */
        n += (size_t)snprintf(b + n, cap - n, "w(1,7920,0,999999)\nr(1,7920,1,1000000)\nw(2,1,0,1000001)\n");
    return n;
}

typedef struct got { int64_t ext; uint32_t ops; int64_t sum; } got;

/* Transaction x taken: its id, its operations' count and a sum over its
 * writes of (ext key, value); its writes into the checker's list. */
static got take(checker *c, const incr_txn *x, const vec_i64 *keys) {
    got g = { x->ext_id, x->num_ops, 0 };
    for (uint32_t o = 0; o < x->num_ops; o++) {
        const incr_op *op = &x->ops[o];
        assert_true(op->key < keys->len);         /* its key was handed over, in this batch or before */
        if (op->kind != OP_WRITE) continue;
        g.sum += keys->data[op->key] * 31 + op->value;
        if (c->nw == c->capw) {
            c->capw = c->capw ? 2 * c->capw : 1024;
            c->wk = realloc(c->wk, c->capw * sizeof *c->wk);
            c->wv = realloc(c->wv, c->capw * sizeof *c->wv);
            assert_true(c->wk && c->wv);
        }
        c->wk[c->nw] = op->key;
        c->wv[c->nw++] = op->value;
    }
    return g;
}

static int by_ext(const void *a, const void *b) {
    const got *x = a, *y = b;
    return x->ext < y->ext ? -1 : x->ext > y->ext;
}

/* Follow b[0..n) through a pipe in `pieces` pieces with the reader thread,
 * the stand-in checker taking the batches (slowly); the transactions taken
 * into *out (sorted by id), their count returned; *end how the reader ended. */
static size_t run(const char *b, size_t n, size_t pieces, checker *c, got **out, follow_pipe_end *end) {
    int p[2];
    assert_int_equal(pipe(p), 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
    follow_input in;
    ic_error err;
    ic_error_clear(&err);
    assert_true(follow_open(&in, path, -1, 0.01, NULL, &err));
    feed f = { p[1], b, n, pieces };
    pthread_t wt;
    assert_int_equal(pthread_create(&wt, NULL, writer, &f), 0);
    follow_parse fp;
    follow_parse_init(&fp, FORMAT_TEXT);
    c->fp = &fp;
    /* the first parse on this thread, as follow_run does, until one completes */
    while (!fp.num_done) {
        assert_int_equal(follow_read(&in, &err), 1);
        assert_true(follow_delta(&fp, in.data.data, in.base, in.data.len, "t", &err) >= 0);
    }
    text_stream_set_written(&fp.ts, fake_written, c);
    size_t cap = (size_t)TXNS * SESS + 16, k = 0;
    *out = calloc(cap, sizeof **out);
    vec_i64 keys;
    vec_init(keys);
    for (uint32_t i = 0; i < fp.num_keys; i++) vec_push(keys, fp.key_ext[i]);
    for (size_t i = 0; i < fp.num_done; i++) (*out)[k++] = take(c, &fp.done[i], &keys);
    atomic_store(&c->taken, (unsigned)fp.num_done);
    follow_pipe *fpipe = follow_pipe_start(&in, &fp);
    assert_non_null(fpipe);
    const follow_batch *bt;
    while (follow_pipe_next(fpipe, &bt, NULL, NULL) == 1) {
        atomic_store(&c->busy, 1);
        vec_foreach(const int64_t, e, bt->keys) vec_push(keys, *e);
        for (size_t i = 0; i < bt->txns.len; i++) {
            assert_true(k < cap);
            (*out)[k++] = take(c, &bt->txns.data[i], &keys);
        }
        nap_us(2000);                             /* a slow check: the reader runs ahead meanwhile */
        atomic_fetch_add(&c->taken, (unsigned)bt->txns.len);
        atomic_store(&c->busy, 0);
    }
    const follow_batch *left = follow_pipe_stop(fpipe, end);
    char sink[65536];                             /* (a reader that ended early: the writer must not block) */
    while (read(p[0], sink, sizeof sink) > 0) {}
    pthread_join(wt, NULL);
    assert_int_equal(left->txns.len, 0);          /* it ended by itself: everything was taken */
    assert_ptr_equal((void *)fp.ts.written, (void *)fake_written);   /* given back */
    assert_null(in.stop);
    assert_int_equal(in.wake_fd, -1);
    /* the key ids handed over are the reader's */
    assert_true(keys.len <= fp.ts.key_ext.len);
    for (size_t i = 0; i < keys.len; i++) assert_true(keys.data[i] == fp.ts.key_ext.data[i]);
    follow_pipe_free(fpipe);
    vec_free(keys);
    follow_parse_free(&fp);
    follow_close(&in);
    close(p[0]);
    qsort(*out, k, sizeof **out, by_ext);
    return k;
}

static void test_every_transaction_once(void **state) {
    (void)state;
    size_t cap = (size_t)TXNS * SESS * 120;
    char *b = malloc(cap);
    size_t n = text_of(b, cap, 0);
    for (size_t pieces = 7; pieces <= 700; pieces *= 10) {
        checker c;
        memset(&c, 0, sizeof c);
        got *g;
        follow_pipe_end end;
        size_t k = run(b, n, pieces, &c, &g, &end);
        assert_int_equal(end.got, 0);                     /* the end of input */
        assert_int_equal(end.delta, 1);
        /* every transaction but the last of each session, once, with its operations */
        assert_int_equal(k, (size_t)(TXNS - 1) * SESS);
        for (size_t i = 0; i < k; i++) {
            long id = (long)i + 1;
            long v = (id * 7919) % 1000003 + 1;
            assert_int_equal(g[i].ext, id);
            assert_int_equal(g[i].ops, 3);
            assert_int_equal(g[i].sum, (id % KEYS) * 31 + v + ((id + 7) % KEYS) * 31 + v + 1);
        }
        assert_true(atomic_load(&c.asked) > 0);
        assert_int_equal(atomic_load(&c.asked_busy), 0);
        assert_int_equal(atomic_load(&c.asked_behind), 0);
        assert_int_equal(atomic_load(&c.said_written), 0);
        print_message("%zu pieces: %u batches, %d questions\n", pieces, end.batches, atomic_load(&c.asked));
        free(g);
        free(c.wk);
        free(c.wv);
    }
    free(b);
}

static void test_written_twice_hands_over(void **state) {
    (void)state;
    size_t cap = (size_t)TXNS * SESS * 120;
    char *b = malloc(cap);
    size_t n = text_of(b, cap, 1);
    checker c;
    memset(&c, 0, sizeof c);
    got *g;
    follow_pipe_end end;
    size_t k = run(b, n, 70, &c, &g, &end);
    assert_int_equal(end.delta, 0);                       /* handed over to the batch parser */
    assert_true(atomic_load(&c.said_written) >= 1);
    assert_int_equal(atomic_load(&c.asked_busy), 0);
    assert_int_equal(atomic_load(&c.asked_behind), 0);
    for (size_t i = 0; i < k; i++) assert_int_equal(g[i].ext, (int64_t)i + 1);   /* a prefix, once each */
    free(g);
    free(c.wk);
    free(c.wv);
    free(b);
}

static void test_stop_while_waiting(void **state) {
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    const char *first = "w(1,1,1,1)\nw(1,2,2,2)\nr(1,2,1,3)\nr(1,1,2,4)\n";
    assert_int_equal(write(p[1], first, strlen(first)), (ssize_t)strlen(first));
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
    follow_input in;
    ic_error err;
    ic_error_clear(&err);
    assert_true(follow_open(&in, path, -1, 0.01, NULL, &err));
    follow_parse fp;
    follow_parse_init(&fp, FORMAT_TEXT);
    assert_int_equal(follow_read(&in, &err), 1);
    assert_int_equal(follow_delta(&fp, in.data.data, in.base, in.data.len, "t", &err), 1);
    follow_pipe *fpipe = follow_pipe_start(&in, &fp);
    assert_non_null(fpipe);
    nap_us(300000);                               /* the reader waits in poll(), 250 ms at a time */
    double t0 = monotonic_seconds();
    follow_pipe_end end;
    const follow_batch *left = follow_pipe_stop(fpipe, &end);
    double took = monotonic_seconds() - t0;
    print_message("stopped in %.3f s\n", took);
    assert_true(took < 1.0);
    assert_int_equal(end.got, FOLLOW_STOPPED);
    assert_int_equal(left->txns.len, 0);
    assert_null(in.stop);
    follow_pipe_free(fpipe);
    /* the input is the caller's again: the next bytes are read as before */
    const char *more = "r(1,2,1,5)\n";
    assert_int_equal(write(p[1], more, strlen(more)), (ssize_t)strlen(more));
    close(p[1]);
    assert_int_equal(follow_read(&in, &err), 1);
    assert_int_equal(follow_total(&in), strlen(first) + strlen(more));
    follow_parse_free(&fp);
    follow_close(&in);
    close(p[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_transaction_once),
        cmocka_unit_test(test_written_twice_hands_over),
        cmocka_unit_test(test_stop_while_waiting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
