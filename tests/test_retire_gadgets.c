/* test_retire_gadgets.c — retiring by time against adversarial streams (--max-lag):
 * adversarial tiny streams (lines of concurrent transactions interleaved,
 * transactions out of completion order, ties in time, sessions that stop
 * and restart, reads of any value written anywhere in the stream, of INIT)
 * streamed with the least --max-lag they keep (and a little more), in
 * chunks of 1..3 lines, retiring after every chunk: the final verdict must
 * be the batch verdict of the whole text, and a violation reported while
 * streaming must be a batch FAIL.  A refusal of a stream that keeps every
 * promise is reported too. */
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


enum { NT = 9, MAXOPS = 3 };

/* A random adversarial stream into b. */
static void adv_history(vec_char *b, unsigned *seed) {
    int sessions = 2 + (int)(rand_r(seed) % 2), keys = 1 + (int)(rand_r(seed) % 3);
    int nt = 4 + (int)(rand_r(seed) % (NT - 3));
    long long inv[NT], cmp[NT], next_free[3] = { 0, 0, 0 };
    int sess[NT], nops[NT], okey[NT][MAXOPS], ow[NT][MAXOPS];
    long long oval[NT][MAXOPS];
    for (int t = 0; t < nt; t++) {
        sess[t] = (int)(rand_r(seed) % (unsigned)sessions);
        inv[t] = next_free[sess[t]] + (long long)(rand_r(seed) % 3) + (rand_r(seed) % 6 == 0 ? 10 : 0);
        cmp[t] = inv[t] + (long long)(rand_r(seed) % 4);
        next_free[sess[t]] = cmp[t];
        nops[t] = 1 + (int)(rand_r(seed) % MAXOPS);
    }
    long long value = 1;
    for (int t = 0; t < nt; t++)                   /* writes first: unique values */
        for (int o = 0; o < nops[t]; o++) {
            okey[t][o] = (int)(rand_r(seed) % (unsigned)keys);
            ow[t][o] = (int)(rand_r(seed) % 2);
            oval[t][o] = ow[t][o] ? value++ : 0;
        }
    int ser[NT];                                   /* a serial order by completion (legal at sser) */
    for (int t = 0; t < nt; t++) ser[t] = t;
    for (int i = 1; i < nt; i++)
        for (int j = i; j > 0 && cmp[ser[j]] < cmp[ser[j - 1]]; j--) { int x = ser[j]; ser[j] = ser[j - 1]; ser[j - 1] = x; }
    long long state[4] = { 0, 0, 0, 0 };
    int wild = (int)(rand_r(seed) % 4);            /* 0: every read arbitrary, else mostly the serial state */
    for (int i = 0; i < nt; i++) {
        int t = ser[i];
        for (int o = 0; o < nops[t]; o++) {
            if (ow[t][o]) { state[okey[t][o]] = oval[t][o]; continue; }
            if (wild && rand_r(seed) % 12) { oval[t][o] = state[okey[t][o]]; continue; }
            long long cand[NT * MAXOPS + 1];
            int nc = 0;
            cand[nc++] = 0;
            for (int u = 0; u < nt; u++)
                for (int p = 0; p < nops[u]; p++)
                    if (ow[u][p] && okey[u][p] == okey[t][o] && (u != t || p < o)) cand[nc++] = oval[u][p];
            oval[t][o] = cand[rand_r(seed) % (unsigned)nc];
        }
    }
    /* each session's lines in order; a random merge of the sessions */
    int cur[3] = { 0, 0, 0 }, step[3] = { 0, 0, 0 };
    int order[3][NT], len[3] = { 0, 0, 0 };
    for (int t = 0; t < nt; t++) order[sess[t]][len[sess[t]]++] = t;
    vec_init(*b);
    char line[160];
    for (;;) {
        int live[3], nl = 0;
        for (int s = 0; s < sessions; s++) if (cur[s] < len[s]) live[nl++] = s;
        if (!nl) break;
        int s = live[rand_r(seed) % (unsigned)nl];
        int t = order[s][cur[s]];
        if (step[s] < nops[t]) {
            int o = step[s]++;
            snprintf(line, sizeof line, "%c(%d,%lld,%d,%d)\n", ow[t][o] ? 'w' : 'r', okey[t][o], oval[t][o], s + 1, t + 1);
        } else {
            snprintf(line, sizeof line, "#@time %d invoke=%lld complete=%lld\n", t + 1, inv[t], cmp[t]);
            step[s] = 0;
            cur[s]++;
        }
        append(b, line);
    }
    vec_push(*b, 0);
    b->len--;
}


/* Unordered writes, then filler on fresh keys (time moves on, so the
 * early part retires, freeing its keys), then late reads of the early keys
 * of any value written to them (or INIT), sometimes with a write. */
static int gadget_open;                           /* late ones open during the filler */

static void gadget_history(vec_char *b, unsigned *seed) {
    enum { P = 6 };
    int sessions = 2 + (int)(rand_r(seed) % 2), keys = 1 + (int)(rand_r(seed) % 3);
    int np = 2 + (int)(rand_r(seed) % (P - 1));
    long long next_free[3] = { 0, 0, 0 }, value = 1, txn = 1;
    long long written[P * 3][2];
    int nw = 0;
    char line[160];
    vec_init(*b);
    typedef struct { int s; long long inv, cmp; char ops[400]; } ptx;
    ptx tx[P];
    long long maxc = 0;
    for (int t = 0; t < np; t++) {
        int s = (int)(rand_r(seed) % (unsigned)sessions);
        tx[t].s = s;
        tx[t].inv = next_free[s] + (long long)(rand_r(seed) % 3);
        tx[t].cmp = tx[t].inv + (long long)(rand_r(seed) % 5);
        next_free[s] = tx[t].cmp;
        if (tx[t].cmp > maxc) maxc = tx[t].cmp;
        tx[t].ops[0] = 0;
        int nops = 1 + (int)(rand_r(seed) % 3);
        for (int o = 0; o < nops; o++) {
            int key = 1 + (int)(rand_r(seed) % (unsigned)keys);
            if (rand_r(seed) % 3) {
                snprintf(line, sizeof line, "w(%d,%lld,%d,%lld)\n", key, value, s + 1, txn + t);
                written[nw][0] = key; written[nw][1] = value++; nw++;
            } else {
                long long v = 0, cand[P * 3];
                int nc = 0;
                for (int w = 0; w < nw; w++) if (written[w][0] == key) cand[nc++] = written[w][1];
                if (nc && rand_r(seed) % 3) v = cand[rand_r(seed) % (unsigned)nc];
                snprintf(line, sizeof line, "r(%d,%lld,%d,%lld)\n", key, v, s + 1, txn + t);
            }
            strcat(tx[t].ops, line);
        }
    }
    /* emit phase 1 in a random order keeping each session's order */
    int done[P] = { 0 };
    for (int left = np; left > 0; left--) {
        int pick;
        for (;;) {
            pick = (int)(rand_r(seed) % (unsigned)np);
            if (done[pick]) continue;
            int ok = 1;
            for (int u = 0; u < pick; u++) if (!done[u] && tx[u].s == tx[pick].s) ok = 0;
            if (ok) break;
        }
        done[pick] = 1;
        append(b, tx[pick].ops);
        snprintf(line, sizeof line, "#@time %lld invoke=%lld complete=%lld\n", txn + pick, tx[pick].inv, tx[pick].cmp);
        append(b, line);
    }
    txn += np;
    long long clock = maxc + 1 + (long long)(rand_r(seed) % 2);
    vec_char late_ops;
    vec_init(late_ops);
    size_t mark = b->len;                          /* the end of phase 1 */
    int filler = 4 + (int)(rand_r(seed) % 8);
    for (int j = 0; j < filler; j++)
        for (int s = 0; s < sessions; s++, txn++) {
            snprintf(line, sizeof line, "w(%lld,1,%d,%lld)\n#@time %lld invoke=%lld complete=%lld\n", 100 + txn, s + 1, txn,
                     txn, clock, clock + 1);
            append(b, line);
            clock += 2;
        }
    int late = 1 + (int)(rand_r(seed) % 3);
    for (int j = 0; j < late; j++, txn++) {
        int s = (int)(rand_r(seed) % (unsigned)sessions), nops = 1 + (int)(rand_r(seed) % 2);
        if (gadget_open) { s = 7 + j; }
        for (int o = 0; o < nops; o++) {
            int key = 1 + (int)(rand_r(seed) % (unsigned)keys);
            if (rand_r(seed) % 5 == 0) {
                snprintf(line, sizeof line, "w(%d,%lld,%d,%lld)\n", key, value++, s + 1, txn);
            } else {
                long long v = 0, cand[P * 3];
                int nc = 0;
                for (int w = 0; w < nw; w++) if (written[w][0] == key) cand[nc++] = written[w][1];
                if (nc && rand_r(seed) % 6) v = cand[rand_r(seed) % (unsigned)nc];
                snprintf(line, sizeof line, "r(%d,%lld,%d,%lld)\n", key, v, s + 1, txn);
            }
            append(gadget_open ? &late_ops : b, line);
        }
        snprintf(line, sizeof line, "#@time %lld invoke=%lld complete=%lld\n", txn, clock, clock + 1);
        append(b, line);
        clock += 2;
    }
    if (gadget_open) {                             /* the late operations right after phase 1 */
        vec_char all;
        vec_init(all);
        for (size_t i = 0; i < mark; i++) vec_push(all, b->data[i]);
        for (size_t i = 0; i < late_ops.len; i++) vec_push(all, late_ops.data[i]);
        for (size_t i = mark; i < b->len; i++) vec_push(all, b->data[i]);
        vec_free(*b);
        *b = all;
    }
    vec_free(late_ops);
    vec_push(*b, 0);
    b->len--;
}


static int freed_keys;                             /* streams in which a key was freed */

static void run_shape(int gadget) {
    freed_keys = 0;
    unsigned seed = 4242;
    int compared = 0, fails = 0, retired = 0, refused = 0;
    char *env = getenv("REVIEW_ROUNDS");
    int rounds = env ? atoi(env) : 150;
    for (int i = 0; i < rounds; i++) {
        vec_char text;
        if (gadget) gadget_history(&text, &seed); else adv_history(&text, &seed);
        ic_error err;
        ic_error_clear(&err);
        history *h = load_history_mem(text.data, text.len, FORMAT_TEXT, "tiny", &err);
        if (!h) { vec_free(text); continue; }
        history_free(h);
        int64_t base = least_lag(text.data, text.len);
        for (int extra = -1; extra <= 2; extra++) {
            if (extra == 1) continue;
            int64_t lag = extra < 0 ? -1 : base + extra;
            for (int l = 0; l < 2; l++) {
                verdict want = batch_text(text.data, text.len, rt_levels[l]);
                for (size_t lines = 1; lines <= 3; lines++) {
                    stream_result r;
                    ic_error_clear(&err);
                    if (!stream_lag(text.data, text.len, lines, rt_levels[l], lag, &r, &err)) {
                        if (lag >= 0) print_message("REFUSED %s chunks %zu lag %lld: line %ld %s\n%s", level_name((check_level_id)rt_levels[l]),
                                      lines, (long long)lag, err.line, err.msg, text.data);
                        refused += lag >= 0;
                        continue;
                    }
                    freed_keys += r.freed_key;
                    if (r.verdict != want || (r.violation && want != VERDICT_FAIL))
                        fail_msg("%s, chunks of %zu, --max-lag %lld: streamed %d (violation %d), batch %d (%llu retired):\n%s",
                                 level_name((check_level_id)rt_levels[l]), lines, (long long)lag, r.verdict, r.violation,
                                 want, (unsigned long long)r.retired, text.data);
                    compared++;
                    fails += want == VERDICT_FAIL;
                    retired += r.retired > 0;
                }
            }
        }
        vec_free(text);
    }
    print_message("%d adversarial streams agree with batch (%d FAIL), %d retired something, %d refused, %d freed a key\n", compared,
                  fails, retired, refused, freed_keys);
    assert_int_equal(refused, 0);
    assert_true(retired > 0 && fails > 0);
}

/* helpers of the shared header this suite does not use */
static void (*const unused_helpers[])(void) = { (void (*)(void))run_sim, (void (*)(void))tiny_history, (void (*)(void))stream, (void (*)(void))stream_lag };

static void test_adversarial(void **state) { (void)state; run_shape(0); }
static void test_gadget(void **state) { (void)state; run_shape(1); }
static void test_gadget_open(void **state) { (void)state; gadget_open = 1; run_shape(1); gadget_open = 0; }

int main(void) {
    (void)unused_helpers;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adversarial),
        cmocka_unit_test(test_gadget),
        cmocka_unit_test(test_gadget_open),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
