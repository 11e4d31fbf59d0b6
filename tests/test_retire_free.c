/* test_retire_free.c — retiring by time past a key that two unordered
 * writes left undecided (frontend/online/retire_free.h; doc/checker.md,
 * "Two writes no read orders").
 *
 * Streams: A and B write key 1 concurrently (values 1 and 2) and nothing
 * orders them by the plan's edges; with `forced`, D (concurrent with both)
 * reads A's write of key 2 and the initial value of key 3 that B writes,
 * so every serialization puts A before B (B's value last) through a path
 * the plan's edges do not see; then many short transactions on fresh keys,
 * and a tail: nothing, a read of key 1 = 1, = 2, = 0, or two reads of
 * different values.  Asserted, at sser and strong-si, in chunks of 1 to 8
 * lines: the final verdict equals batch's; with no tail nearly everything
 * retires (before, the pair held the cut for good); the forced case reads
 * 1 after retiring as a FAIL (a candidate S does not admit last: keeping
 * it would be a false PASS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "tests/retire_time_stream.h"

static const int rt_levels[2] = { LEVEL_SSER, LEVEL_STRONG_SI };

static void gadget(vec_char *b, int forced, const char *tail) {
    vec_init(*b);
    append(b, "w(1,1,1,1)\nw(2,1,1,1)\n#@time 1 invoke=0 complete=10\n");          /* A */
    append(b, "w(1,2,2,2)\nw(3,1,2,2)\n#@time 2 invoke=0 complete=10\n");          /* B */
    if (forced) append(b, "r(2,1,3,3)\nr(3,0,3,3)\n#@time 3 invoke=1 complete=9\n");   /* D: A before B */
    filler_then(b, 100, tail);
}

static const char *tails[6] = {
    "",
    "r(1,1,5,90001)\n#@time 90001 invoke=5000 complete=5001\n",
    "r(1,2,5,90001)\n#@time 90001 invoke=5000 complete=5001\n",
    "r(1,0,5,90001)\n#@time 90001 invoke=5000 complete=5001\n",
    "r(1,1,5,90001)\n#@time 90001 invoke=5000 complete=5001\nr(1,2,6,90002)\n#@time 90002 invoke=5000 complete=5001\n",
    "r(1,2,5,90001)\nr(1,1,5,90001)\n#@time 90001 invoke=5000 complete=5001\n",
};

static void test_free_against_batch(void **state) {
    (void)state;
    int compared = 0, fails = 0;
    for (int forced = 0; forced <= 1; forced++)
        for (int k = 0; k < 6; k++)
            for (int l = 0; l < 2; l++) {
                vec_char t;
                gadget(&t, forced, tails[k]);
                verdict want = batch_text(t.data, t.len, rt_levels[l]);
                /* what the histories are: only a read of 2, or none, passes when A is forced before B */
                verdict expect = k == 0 || k == 2 || (k == 1 && !forced) ? VERDICT_PASS : VERDICT_FAIL;
                assert_int_equal(want, expect);
                for (size_t lines = 1; lines <= 8; lines++) {
                    stream_result r;
                    char what[64];
                    snprintf(what, sizeof what, "forced %d, tail %d", forced, k);
                    stream_as_batch(t.data, t.len, lines, rt_levels[l], want, what, &r);
                    /* the pair no longer holds the cut: nearly all of the 400 retire (394 to 400 did at
                     * stop 52; a pair holding the cut keeps every later one) */
                    if (r.retired < 375) {
                        vec_free(t);
                        fail_msg("forced %d, tail %d, chunks of %zu: %llu retired", forced, k, lines,
                                 (unsigned long long)r.retired);
                    }
                    compared++;
                    fails += want == VERDICT_FAIL;
                }
                vec_free(t);
            }
    print_message("%d gadget streams agree with batch (%d FAIL)\n", compared, fails);
}

/* Two keys left undecided at the same time.  Independent: A and B write
 * key 1 (values 1, 2), C and E key 2 (values 1, 2), all concurrent; each
 * pair alone holds the cut, so freeing one key at a retirement (as before)
 * retires nothing and both must be freed together.  Coupled: A and B each
 * write both keys (A 1 and 1, B 2 and 2), so every serialization has the
 * same writer last on both: admitting each key's candidates on its own
 * would let a later read of key 1 = 1 and of key 2 = 2 pass (a false
 * PASS); only their combinations decide.  Then 400 short transactions on
 * fresh keys and a tail of reads by transactions invoked after all. */
static void two_keys(vec_char *b, int coupled, int rounds, const char *tail) {
    vec_init(*b);
    if (coupled) {
        append(b, "w(1,1,1,1)\nw(2,1,1,1)\n#@time 1 invoke=0 complete=10\n");   /* A */
        append(b, "w(1,2,2,2)\nw(2,2,2,2)\n#@time 2 invoke=0 complete=10\n");   /* B */
        append(b, "w(3,1,3,3)\n#@time 3 invoke=0 complete=10\n");
        append(b, "w(4,1,4,4)\n#@time 4 invoke=0 complete=10\n");
    } else {
        append(b, "w(1,1,1,1)\n#@time 1 invoke=0 complete=10\n");                /* A */
        append(b, "w(1,2,2,2)\n#@time 2 invoke=0 complete=10\n");                /* B */
        append(b, "w(2,1,3,3)\n#@time 3 invoke=0 complete=10\n");                /* C */
        append(b, "w(2,2,4,4)\n#@time 4 invoke=0 complete=10\n");                /* E */
    }
    filler_then(b, rounds, tail);
}

#define RD(k, v, s, t) "r(" #k "," #v "," #s "," #t ")\n#@time " #t " invoke=5000 complete=5001\n"
static const char *two_tails[8] = {
    "",
    RD(1, 1, 5, 90001) RD(2, 1, 6, 90002),
    RD(1, 1, 5, 90001) RD(2, 2, 6, 90002),                       /* coupled: FAIL */
    RD(1, 2, 5, 90001) RD(2, 2, 6, 90002),
    RD(2, 1, 5, 90001) RD(1, 2, 6, 90002),                       /* coupled: FAIL */
    "r(1,2,5,90001)\nr(2,1,5,90001)\n#@time 90001 invoke=5000 complete=5001\n",   /* coupled: FAIL */
    RD(2, 0, 5, 90001),                                         /* a stale read: FAIL */
    RD(1, 1, 5, 90001) RD(1, 2, 6, 90002),                       /* both of key 1: FAIL */
};
#undef RD

static void test_two_keys_against_batch(void **state) {
    (void)state;
    int compared = 0, fails = 0;
    for (int coupled = 0; coupled <= 1; coupled++)
        for (int k = 0; k < 8; k++)
            for (int l = 0; l < 2; l++) {
                vec_char t;
                two_keys(&t, coupled, coupled ? 50 : 100, two_tails[k]);   /* coupled: nothing retires, keep it short */
                verdict want = batch_text(t.data, t.len, rt_levels[l]);
                verdict expect = k == 0 || k == 1 || k == 3 || (!coupled && (k == 2 || k == 4 || k == 5))
                                     ? VERDICT_PASS : VERDICT_FAIL;
                assert_int_equal(want, expect);
                for (size_t lines = 1; lines <= 8; lines++) {
                    stream_result r;
                    char what[64];
                    snprintf(what, sizeof what, "coupled %d, tail %d", coupled, k);
                    stream_as_batch(t.data, t.len, lines, rt_levels[l], want, what, &r);
                    /* independent: both keys freed at one retirement, nearly all of the 404 retire (freeing
                     * one key at a time retires nothing: the other pair holds the cut); coupled: no
                     * combination of B on one key and A on the other passes, so they are never freed */
                    if (!coupled && (r.retired < 375 || r.freed_together < 2))
                        fail_msg("independent, tail %d, chunks of %zu: %llu retired, %llu keys freed together", k,
                                 lines, (unsigned long long)r.retired, (unsigned long long)r.freed_together);
                    if (coupled && r.freed_together)
                        fail_msg("coupled, tail %d, chunks of %zu: %llu keys freed together", k, lines,
                                 (unsigned long long)r.freed_together);
                    compared++;
                    fails += want == VERDICT_FAIL;
                }
                vec_free(t);
            }
    print_message("%d two-key streams agree with batch (%d FAIL)\n", compared, fails);
}

/* The undecided key's values stay reserved: writing one again is refused,
 * as writing a retired key's last value is. */
static void test_free_value_rewritten(void **state) {
    (void)state;
    vec_char t;
    gadget(&t, 0, "w(1,1,5,90001)\n#@time 90001 invoke=5000 complete=5001\n");
    stream_result r;
    ic_error err;
    ic_error_clear(&err);
    assert_int_equal(stream(t.data, t.len, 4, LEVEL_SSER, &r, &err), 0);
    assert_non_null(strstr(err.msg, "is written twice to key 1"));
    vec_free(t);
}

/* retire_time_stream.h serves other suites too */
static void (*const unused_helpers[])(void) = { (void (*)(void))run_sim, (void (*)(void))tiny_history };

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_value_rewritten),
        cmocka_unit_test(test_free_against_batch),
        cmocka_unit_test(test_two_keys_against_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
