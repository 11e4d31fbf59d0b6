/* test_retire_free_partial.c — keys freed together at one retirement
 * (frontend/online/retire.c free_stalled, retire_free.c
 * retire_free_admit) must not reject a candidate that S admits on its own
 * when the key is still freed: a later read of it would be reported as a
 * thin-air read although the history is admissible (a false FAIL).
 *
 * The gadget (review44): A (session 1) writes key 1 = 1 and key 2 = 1;
 * B (session 2) writes key 1 = 2, then C (session 2, after B by session
 * and real time) writes key 2 = 2; A is concurrent with both.  Nothing
 * orders A against B on key 1 or A against C on key 2, so both pairs
 * hold the cut and are freed together.  Each of the four values alone can
 * be its key's last version (B C A: key 2 = 1; A B C: key 1 = 2), but not
 * key 1 = 2 with key 2 = 1 together (A before B, C before A, B before C:
 * a cycle).  Then 240 short transactions on fresh keys and a tail of
 * reads by transactions invoked after all.  Asserted at sser and
 * strong-si, in chunks of 1, 2, 5 and 8 lines: the streamed verdict equals
 * batch's, and no violation is printed while streaming a history batch
 * passes. */
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

static void gadget(vec_char *b, const char *tail) {
    vec_init(*b);
    append(b, "w(1,1,1,1)\nw(2,1,1,1)\n#@time 1 invoke=0 complete=10\n");   /* A */
    append(b, "w(1,2,2,2)\n#@time 2 invoke=0 complete=4\n");                /* B */
    append(b, "w(2,2,2,3)\n#@time 3 invoke=5 complete=10\n");               /* C */
    filler_then(b, 60, tail);
}

#define RD(k, v, s, t) "r(" #k "," #v "," #s "," #t ")\n#@time " #t " invoke=5000 complete=5001\n"
static const struct { const char *tail; verdict expect; } cases[] = {
    { "", VERDICT_PASS },
    { RD(2, 1, 5, 90001), VERDICT_PASS },                            /* B C A */
    { RD(1, 2, 5, 90001), VERDICT_PASS },                            /* A B C */
    { RD(2, 2, 5, 90001), VERDICT_PASS },
    { RD(1, 1, 5, 90001), VERDICT_PASS },
    { RD(1, 1, 5, 90001) RD(2, 1, 6, 90002), VERDICT_PASS },         /* B C A */
    { RD(1, 1, 5, 90001) RD(2, 2, 6, 90002), VERDICT_PASS },         /* B A C */
    { RD(1, 2, 5, 90001) RD(2, 2, 6, 90002), VERDICT_PASS },         /* A B C */
    { RD(1, 2, 5, 90001) RD(2, 1, 6, 90002), VERDICT_FAIL },         /* the cycle */
    { RD(2, 0, 5, 90001), VERDICT_FAIL },                            /* stale */
};
#undef RD

static void test_partial_admission_against_batch(void **state) {
    (void)state;
    int compared = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int l = 0; l < 2; l++) {
            vec_char t;
            gadget(&t, cases[k].tail);
            verdict want = batch_text(t.data, t.len, rt_levels[l]);
            if (want != cases[k].expect) fail_msg("case %zu: batch %d, expected %d", k, want, cases[k].expect);
            for (size_t lines = 1; lines <= 8; lines += lines < 2 ? 1 : 3) {
                stream_result r;
                char what[32];
                snprintf(what, sizeof what, "case %zu", k);
                stream_as_batch(t.data, t.len, lines, rt_levels[l], want, what, &r);
                compared++;
            }
            vec_free(t);
        }
    print_message("%d streams agree with batch\n", compared);
}

/* retire_time_stream.h's helpers this suite does not call */
static void (*const unused_helpers[])(void) = { (void (*)(void))run_sim, (void (*)(void))tiny_history };

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_admission_against_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
