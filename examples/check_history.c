/* check_history.c — check a small in-memory history with libisocheck.
 *
 * Two sessions both read x = 0 and both write x (a lost update): allowed
 * by neither snapshot isolation nor serializability.  A second history, a
 * write skew, passes SI but fails serializability.
 *
 *   cc check_history.c $(pkg-config --cflags --libs isocheck) -o check_history */
#include <stdio.h>
#include <string.h>

#include <isocheck.h>

static int expect(isocheck_history *h, isocheck_level level, isocheck_verdict want, const char *name) {
    isocheck_result *r = isocheck_check(h, level);
    isocheck_verdict v = isocheck_result_verdict(r);
    const char *lv = level == ISOCHECK_SI ? "si" : "ser";
    printf("%s, %s: %s", name, lv, isocheck_result_text(r));
    for (size_t i = 0; i < isocheck_result_cycle_length(r); i++) {
        int64_t from, to, key;
        const char *kind;
        isocheck_result_cycle_edge(r, i, &from, &to, &key, &kind);
        printf("  edge %zu: T%lld -%s-> T%lld (key %lld)\n", i, (long long)from, kind, (long long)to, (long long)key);
    }
    int ok = v == want && (v != ISOCHECK_FAIL || isocheck_result_cycle_length(r) >= 2);
    if (!ok) printf("  unexpected verdict %d (wanted %d)\n", (int)v, (int)want);
    isocheck_result_free(r);
    return ok;
}

int main(void) {
    int ok = 1;

    /* lost update: T1 and T2 both read x = initial and write x */
    isocheck_history *h = isocheck_history_new();
    int t1 = isocheck_txn_begin(h, 1, 1), t2 = isocheck_txn_begin(h, 2, 2);
    isocheck_read_initial(h, t1, 100);
    isocheck_read_initial(h, t2, 100);
    isocheck_write(h, t1, 100, 11);
    isocheck_write(h, t2, 100, 12);
    int t3 = isocheck_txn_begin(h, 1, 3);           /* later: reads T2's value */
    if (isocheck_read(h, t3, 100, 12) != ISOCHECK_OK) ok = 0;
    ok &= expect(h, ISOCHECK_SI, ISOCHECK_FAIL, "lost update");
    ok &= expect(h, ISOCHECK_SER, ISOCHECK_FAIL, "lost update");
    /* the history grows after a check; the violation stays */
    int t4 = isocheck_txn_begin(h, 2, 4);
    if (isocheck_read(h, t4, 100, 12) != ISOCHECK_OK) ok = 0;
    ok &= expect(h, ISOCHECK_SI, ISOCHECK_FAIL, "lost update, grown");
    isocheck_history_free(h);

    /* write skew: T1 reads x, y and writes x; T2 reads x, y and writes y */
    h = isocheck_history_new();
    t1 = isocheck_txn_begin(h, 1, 1);
    t2 = isocheck_txn_begin(h, 2, 2);
    isocheck_read_initial(h, t1, 1); isocheck_read_initial(h, t1, 2);
    isocheck_read_initial(h, t2, 1); isocheck_read_initial(h, t2, 2);
    isocheck_write(h, t1, 1, 10);
    isocheck_write(h, t2, 2, 20);
    ok &= expect(h, ISOCHECK_SI, ISOCHECK_PASS, "write skew");
    ok &= expect(h, ISOCHECK_SER, ISOCHECK_FAIL, "write skew");
    isocheck_history_free(h);

    /* one value written twice to a key: checked (issue 35: a read of it
     * would have its writer chosen by the checker), no longer refused */
    h = isocheck_history_new();
    t1 = isocheck_txn_begin(h, 1, 1);
    isocheck_write(h, t1, 5, 7);
    isocheck_write(h, t1, 5, 7);
    isocheck_result *r = isocheck_check(h, ISOCHECK_SI);
    printf("duplicate write: status %d (%s): %s\n", isocheck_result_status(r),
           isocheck_status_message(isocheck_result_status(r)), isocheck_result_text(r));
    if (isocheck_result_verdict(r) != ISOCHECK_PASS) ok = 0;
    isocheck_result_free(r);
    if (isocheck_txn_begin(NULL, 1, 1) != ISOCHECK_EINVAL) ok = 0;
    isocheck_history_free(h);

    printf(ok ? "check_history: all as expected\n" : "check_history: UNEXPECTED RESULTS\n");
    return ok ? 0 : 1;
}
