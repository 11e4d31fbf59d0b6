/* api_report.c — prints the library's report of a lost update (txn 1 and
 * txn 2 both read key 1's initial value and both write key 1), for
 * tests/e2e/library_report.case.sh to compare with `isocheck check` on
 * the same history written as text. */
#include <stdio.h>

#include <isocheck.h>

int main(int argc, char **argv) {
    isocheck_level level = argc > 1 && argv[1][0] == 's' && argv[1][1] == 'e' ? ISOCHECK_SER : ISOCHECK_SI;
    isocheck_history *h = isocheck_history_new();
    int t1 = isocheck_txn_begin(h, 1, 1);
    isocheck_read_initial(h, t1, 1);
    isocheck_write(h, t1, 1, 1);
    int t2 = isocheck_txn_begin(h, 2, 2);
    isocheck_read_initial(h, t2, 1);
    isocheck_write(h, t2, 1, 2);
    isocheck_result *r = isocheck_check(h, level);
    fputs(isocheck_result_text(r), stdout);
    int verdict = isocheck_result_verdict(r);
    isocheck_result_free(r);
    isocheck_history_free(h);
    return verdict == ISOCHECK_FAIL ? 1 : verdict == ISOCHECK_PASS ? 0 : 2;
}
