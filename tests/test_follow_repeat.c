/* test_follow_repeat.c — `check --follow` on histories whose written values
 * repeat (issue 35; frontend/online/follow_repeat.h, doc/checker.md
 * "Repeated values while following").
 *
 * Every line prefix of a few histories (text, Elle EDN, JSON lines: ones
 * that pass, fail, and fail on a prefix that a later write of the same
 * value undoes) is followed through a pipe cut at line ends three ways
 * (whole, one line a piece, two halves; tests/fuzz/fuzz_follow_body.h's
 * writer) and checked in batch, in this process (cli_check).  Asserted for
 * each: the same exit code; the final report after END is the batch
 * check's byte for byte (a line withdrawing a violation may follow it:
 * the anomalies printed while following are not merged in when values
 * repeat); a violation printed (DETECTED) with a final PASS is withdrawn
 * (WITHDRAWN, while following or after the final report), and a withdrawal
 * names a read and the writers of its value; a FAIL printed while
 * following says how far it holds ("holds unless" or "provisional").  And
 * for the withdrawn history cut where its violation is complete: the
 * violation is printed, then withdrawn.  Each whole history also goes
 * through follow_one (the fuzz target's rule, cut anywhere).  The random
 * histories run again with --threads 2 (follow_threads: a reader thread
 * parses while the checks run, frontend/online/follow_pipe.h): there the
 * reader asks the idle checker whether a value was written before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_follow_body.h"

/* txn 3 reads y = 2 from txn 2 and x = 1 from txn 1, which txn 2 overwrote:
 * a cycle (fails si and ser) — until txn 4 writes x = 1 again (lines 8-9),
 * which txn 3 may have read instead. */
static const char WD_TEXT[] =
    "w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,1,2,3)\nr(2,2,2,5)\nr(1,2,1,6)\nw(1,1,3,4)\nr(1,1,3,7)\n"
    "r(2,2,1,8)\n";
static const char WD_EDN[] =
    "{:type :ok, :f :txn, :process 1, :index 1, :value [[:w 1 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:w 1 2] [:w 2 2]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 2 2] [:r 1 1]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 5, :value [[:r 2 2]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 6, :value [[:r 1 2]]}\n"
    "{:type :ok, :f :txn, :process 3, :index 7, :value [[:w 1 1]]}\n"
    "{:type :ok, :f :txn, :process 3, :index 8, :value [[:r 1 1]]}\n";
static const char WD_JSON[] =
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"index\":1,\"value\":[[\"w\",1,1]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"index\":2,\"value\":[[\"w\",1,2],[\"w\",2,2]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":2,\"index\":3,\"value\":[[\"r\",2,2],[\"r\",1,1]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":2,\"index\":5,\"value\":[[\"r\",2,2]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"index\":6,\"value\":[[\"r\",1,2]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":3,\"index\":7,\"value\":[[\"w\",1,1]]}\n"
    "{\"type\":\"ok\",\"f\":\"txn\",\"process\":3,\"index\":8,\"value\":[[\"r\",1,1]]}\n";
/* the same, txn 4 waiting for z = 9 (line 6) when txn 3's violation is found: provisional */
static const char PV_TEXT[] =
    "w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,1,2,3)\nr(3,9,3,4)\nw(1,1,3,4)\nr(2,2,2,5)\nr(1,2,1,6)\n"
    "r(1,1,3,7)\nw(3,9,4,8)\nr(3,9,4,10)\nr(2,2,1,11)\n";
/* a flag flipped 1, 2, 1, ... by 10 transactions on 3 sessions: passes (each read has several writers) */
static const char FLAG_TEXT[] =
    "r(1,0,1,1)\nw(1,1,1,1)\nr(1,1,2,2)\nw(1,2,2,2)\nr(1,2,0,3)\nw(1,1,0,3)\nr(1,1,1,4)\nw(1,2,1,4)\n"
    "r(1,2,2,5)\nw(1,1,2,5)\nr(1,1,0,6)\nw(1,2,0,6)\nr(1,2,1,7)\nw(1,1,1,7)\nr(1,1,2,8)\nw(1,2,2,8)\n"
    "r(1,2,0,9)\nw(1,1,0,9)\nr(1,1,1,10)\nw(1,2,1,10)\n";
/* a lost update on a value written twice (txn 1's 5 is overwritten in it: txn 3's is the one read) */
static const char LOST_TEXT[] =
    "w(1,5,1,1)\nw(1,9,1,1)\nw(1,5,2,3)\nr(1,5,3,4)\nw(1,8,3,4)\nr(1,5,4,5)\nw(1,7,4,5)\nw(2,1,3,6)\nw(2,2,4,7)\n"
    "w(3,1,1,8)\nw(3,2,2,9)\n";
/* fails whichever write of 5 txn 4 read (repeated_values.case.sh) */
static const char EVERY_TEXT[] = "w(1,5,1,1)\nw(1,6,1,2)\nr(1,5,1,4)\nw(2,7,1,4)\nr(1,6,2,3)\nr(2,7,2,3)\nw(1,5,2,3)\n";

static size_t line_ends(const char *h, size_t n, size_t *ends) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (h[i] == '\n') ends[k++] = i + 1;
    return k;
}

typedef struct seen { int detected, withdrawn, qualified, provisional; } seen;

/* Follow h[0..n) cut as `how` says (0 whole, 1 a line a piece, 2 two
 * halves, 3 + L after line L + 1) and check it in batch: the assertions
 * above. */
static seen follow_prefix(const char *h, size_t n, int how) {
    FILE *file = tmpfile();
    assert_non_null(file);
    assert_int_equal(fwrite(h, 1, n, file), n);
    fflush(file);
    rewind(file);
    char a0[] = "check", a1[] = "--level", a2[] = "all", a3[] = "--threads", a4[] = "1", a5[] = "-", a6[] = "--follow";
    char *batch_argv[] = { a0, a1, a2, a3, a4, a5, NULL };
    char *batch_out;
    int batch = follow_run_cli(batch_argv, 6, fileno(file), &batch_out);
    fclose(file);

    size_t ends[64];
    size_t lines = line_ends(h, n, ends);
    int p[2];
    assert_int_equal(pipe(p), 0);
    follow_feed feed;
    memset(&feed, 0, sizeof feed);
    feed.fd = p[1];
    feed.rfd = p[0];
    feed.data = (const uint8_t *)h;
    feed.cut[0] = 0;
    if (how == 1 && lines <= FOLLOW_PIECES) {
        for (size_t i = 0; i < lines; i++) feed.cut[i + 1] = ends[i];
        feed.pieces = lines;
    } else if ((how == 2 && lines >= 2) || (how > 2 && (size_t)how - 2 < lines)) {
        feed.cut[1] = ends[how == 2 ? lines / 2 - 1 : (size_t)how - 3];
        feed.cut[2] = n;
        feed.pieces = 2;
    } else {
        feed.cut[1] = n;
        feed.pieces = 1;
    }
    pthread_t writer;
    assert_int_equal(pthread_create(&writer, NULL, follow_writer, &feed), 0);
    char *follow_argv[] = { a0, a6, a1, a2, a3, follow_threads, a5, NULL };
    char *out;
    int follow = follow_run_cli(follow_argv, 7, p[0], &out);
    feed.stop = 1;
    pthread_join(writer, NULL);
    close(p[0]);

    seen s = { strstr(out, "DETECTED") != NULL, strstr(out, "WITHDRAWN") != NULL, 0,
               strstr(out, "  (provisional: txn 4 (-:6) (not in the part checked yet) writes key 1 = 1 too, which "
                           "txn 3 (-:4) read; checked again as the input grows)\n") != NULL };
    s.qualified = strstr(out, "  (holds unless a transaction") || strstr(out, "  (provisional: ");
    int ok = follow == batch;
    const char *end = strstr(out, "END after ");
    const char *final = end ? strchr(end, '\n') : NULL;
    if (batch <= 1) ok = ok && final && follow_same_final(final + 1, batch_out);
    if (s.detected && follow == 0) ok = ok && s.withdrawn;
    if (s.detected) ok = ok && s.qualified;
    if (s.withdrawn) ok = ok && strstr(out, " read key ") && strstr(out, " transactions write (");
    if (!ok) {
        print_message("cut %d of %zu bytes:\n%.*s== batch, exit %d:\n%s== follow, exit %d:\n%s", how, n, (int)n, h, batch,
                      batch_out, follow, out);
        fail();
    }
    free(batch_out);
    free(out);
    return s;
}

/* Every line prefix of h, each cut three ways, and h whole cut anywhere
 * (follow_one: the fuzz target's cuts, eight seeds); returns what the whole
 * one showed (cut 2). */
static seen every_prefix(const char *h) {
    size_t n = strlen(h), ends[64];
    size_t lines = line_ends(h, n, ends);
    uint8_t *buf = malloc(n + 2);
    assert_non_null(buf);
    memcpy(buf + 2, h, n);
    for (unsigned s = 0; s < 8; s++) {
        buf[0] = (uint8_t)(s * 37 + 1);
        buf[1] = (uint8_t)s;
        follow_one(buf, n + 2);
    }
    free(buf);
    seen last = { 0, 0, 0, 0 };
    for (size_t k = 0; k < lines; k++)
        for (int how = 0; how < 3; how++) last = follow_prefix(h, ends[k], how);
    return last;
}

static void test_withdrawn_text(void **state) {
    (void)state;
    every_prefix(WD_TEXT);
    /* cut after txn 3's violation completed (line 7), then the repeated write: printed, then withdrawn */
    size_t ends[64];
    line_ends(WD_TEXT, strlen(WD_TEXT), ends);
    int shown = 0;
    for (int attempt = 0; attempt < 3 && !shown; attempt++) {   /* (two pieces read as one print nothing) */
        seen s = follow_prefix(WD_TEXT, ends[9], 1);
        shown = s.detected;
        if (shown) assert_true(s.withdrawn);
    }
    assert_true(shown);
}

static void test_provisional(void **state) {
    (void)state;
    every_prefix(PV_TEXT);
    size_t ends[64];
    line_ends(PV_TEXT, strlen(PV_TEXT), ends);
    int shown = 0;
    for (int attempt = 0; attempt < 3 && !shown; attempt++) {   /* the violation's 10 lines, then the rest */
        seen s = follow_prefix(PV_TEXT, ends[12], 3 + 9);
        shown = s.detected;
        if (shown) assert_true(s.withdrawn && s.provisional);
    }
    assert_true(shown);
}

static void test_withdrawn_elle(void **state) {
    (void)state;
    every_prefix(WD_EDN);
    every_prefix(WD_JSON);
}

static void test_passes(void **state) {
    (void)state;
    seen s = every_prefix(FLAG_TEXT);
    assert_false(s.detected);
}

static void test_fails(void **state) {
    (void)state;
    every_prefix(LOST_TEXT);
    every_prefix(EVERY_TEXT);
}

/* Random small histories over 2 keys and the values 1..3 (so most values
 * repeat), 3 sessions, reads of the latest value written to the key in
 * file order, or now and then of an older one (or the initial one): they
 * pass, fail, and fail on prefixes that later writes undo, by
 * chance.  Each whole, cut at line ends (a line a piece, two halves) and
 * anywhere (follow_one, two seeds); every fourth also as Elle EDN, a line
 * a piece. */
static void test_random(void **state) {
    (void)state;
    uint32_t x = 41;
    int detected = 0, withdrawn = 0;
    for (int it = 0; it < 100; it++) {
        char h[2048], e[4096];                   /* the text, and the same as Elle EDN (a line a transaction) */
        size_t n = 0, en = 0;
        int written[2][4] = { { 1, 0, 0, 0 }, { 1, 0, 0, 0 } };   /* value v of key k written (0: initial) */
        int last[2] = { 0, 0 };                                      /* the latest written */
        for (int t = 1; t <= 10; t++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            int sess = (int)(x % 3) + 1, ops = 1 + (int)(x >> 8) % 3;
            en += (size_t)snprintf(e + en, sizeof e - en, "{:type :ok, :f :txn, :process %d, :index %d, :value [", sess, t);
            for (int o = 0; o < ops; o++) {
                x ^= x << 13; x ^= x >> 17; x ^= x << 5;
                int k = (int)(x % 2), v;
                if ((x >> 4) % 2) {                  /* a read: mostly the latest value, else one written before */
                    v = last[k];
                    if ((x >> 5) % 4 == 0)
                        do { v = (int)((x >> 8) % 4); x = x * 1103515245u + 12345u; } while (!written[k][v]);
                    n += (size_t)snprintf(h + n, sizeof h - n, "r(%d,%d,%d,%d)\n", k, v, sess, t);
                    if (v) en += (size_t)snprintf(e + en, sizeof e - en, "%s[:r %d %d]", o ? " " : "", k, v);
                    else en += (size_t)snprintf(e + en, sizeof e - en, "%s[:r %d nil]", o ? " " : "", k);
                } else {
                    v = 1 + (int)((x >> 8) % 3);
                    written[k][v] = 1;
                    last[k] = v;
                    n += (size_t)snprintf(h + n, sizeof h - n, "w(%d,%d,%d,%d)\n", k, v, sess, t);
                    en += (size_t)snprintf(e + en, sizeof e - en, "%s[:w %d %d]", o ? " " : "", k, v);
                }
            }
            en += (size_t)snprintf(e + en, sizeof e - en, "]}\n");
        }
        if (it % 4 == 0) {                       /* every fourth as EDN too */
            seen se = follow_prefix(e, en, 1);
            detected += se.detected;
            withdrawn += se.withdrawn;
        }
        for (int how = 1; how <= 2; how++) {
            seen sn = follow_prefix(h, n, how);
            detected += sn.detected;
            withdrawn += sn.withdrawn;
        }
        uint8_t buf[2048 + 2];
        memcpy(buf + 2, h, n);
        for (unsigned sd = 0; sd < 2; sd++) {
            buf[0] = (uint8_t)(it * 7 + sd);
            buf[1] = (uint8_t)sd;
            follow_one(buf, n + 2);
        }
    }
    print_message("follow repeat: 100 random histories, 225 line-cut runs (25 EDN): %d printed a violation, %d withdrew one\n",
                  detected, withdrawn);
}

static void test_random_reader_thread(void **state) {
    follow_threads[0] = '2';
    test_random(state);
    every_prefix(WD_TEXT);
    every_prefix(LOST_TEXT);
    follow_threads[0] = '1';
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_withdrawn_text),
        cmocka_unit_test(test_provisional),
        cmocka_unit_test(test_withdrawn_elle),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_fails),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_random_reader_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
