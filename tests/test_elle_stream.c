/* test_elle_stream.c — where an Elle EDN history wrapped in a vector ends
 * when it is followed in increments (follow_delta over elle_stream_feed,
 * frontend/online/elle_stream.h): the run ends where the vector closes,
 * whatever bytes each read brought.
 *
 * Each history below is fed as a writer appending to a file is read: the
 * bytes [0, a), then [0, b), then [0, n), for every 0 <= a <= b <= n (a read
 * may end anywhere: before the '[', mid-line, after the last map's line
 * with the "]\n" still to come, between ']' and its newline...).
 * Asserted at every split:
 *   - the reader never hands the input over to the batch parser (every
 *     call returns 1, or 0 only before the first line: nothing started);
 *   - p->closed is set exactly when the bytes fed hold the closing line
 *     ("]", blanks, a comment) and its newline (never before, and always
 *     then): a "]" line that arrives alone after the last transaction's
 *     line was consumed closes too (the batch reader refuses such a chunk
 *     as an empty history, which left the vector open: `check --follow`
 *     waited to its timeout, tests/e2e/online_end.case.sh part 4);
 *   - every transaction is handed out once: p->completed is the count of
 *     completed ones, and the sum of the calls' p->num_done the same.
 * The histories: plain; with comments before the vector, after its
 * closing bracket on its line and on a line after it, and a blank line and
 * blanks before the bracket (EDN allows comments anywhere: the batch reader
 * reads it whole, and following it waited to the timeout too); a map whose
 * :value vector closes on a line of its own (a "]" line that is not the
 * end: no close until the real one); an empty vector
 * (closes with no transaction). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <string.h>

#include "frontend/online/follow.h"

static const char plain[] =
    "[\n"
    "{:type :invoke, :f :txn, :process 0, :index 0, :value [[:w 1 1]]}\n"
    "{:type :ok, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n"
    "{:type :invoke, :f :txn, :process 1, :index 2, :value [[:r 1 nil] [:w 2 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 3, :value [[:r 1 1] [:w 2 1]]}\n"
    "{:type :ok, :f :txn, :process 0, :index 4, :value [[:r 2 1] [:w 1 2]]}\n"
    "]\n";

static const char blanks[] =
    "; a history\n"
    "[\n"
    "{:type :ok, :f :txn, :process 0, :index 0, :value [[:w 1 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 1, :value [[:r 1 1] [:w 2 1]]}\n"
    "\n"
    "  ] ; the end\n"
    "; a comment after it\n";

static const char split_map[] =
    "[\n"
    "{:type :ok, :f :txn, :process 0, :index 0, :value [[:w 1 1]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 1, :value [[:r 1 1] [:w 2 1]\n"
    "]}\n"
    "{:type :ok, :f :txn, :process 0, :index 2, :value [[:r 2 1]]}\n"
    "]\n";

static const char empty[] = "[\n]\n";

/* One feed of data[0..k): checks the return and counts what was handed out. */
static void feed(follow_parse *p, const char *data, size_t k, size_t *handed) {
    ic_error err;
    ic_error_clear(&err);
    int st = follow_delta(p, data, 0, k, "g.edn", &err);
    if (st == 0) assert_int_equal(p->delta, 0);       /* only before the first line: not started */
    else assert_int_equal(st, 1);
    assert_int_not_equal(p->delta, -1);              /* never handed over to the batch parser */
    if (st == 1) *handed += p->num_done;
}

/* Every split of data (n bytes, closing on the line that ends at close_end,
 * completed transactions) in three reads, asserted as the header says. */
static void every_split(const char *data, size_t close_end, uint32_t completed) {
    size_t n = strlen(data);
    for (size_t a = 0; a <= n; a++)
        for (size_t b = a; b <= n; b++) {
            follow_parse p;
            follow_parse_init(&p, FORMAT_ELLE);
            size_t handed = 0, cuts[3] = { a, b, n };
            for (int i = 0; i < 3; i++) {
                feed(&p, data, cuts[i], &handed);
                if (p.closed != (cuts[i] >= close_end))
                    fail_msg("split %zu/%zu, read %d (%zu of %zu bytes): closed %d", a, b, i, cuts[i], n, p.closed);
            }
            assert_int_equal(p.completed, completed);
            assert_int_equal(handed, completed);
            follow_parse_free(&p);
        }
}

static void test_plain(void **state) {
    (void)state;
    every_split(plain, sizeof plain - 1, 3);
}

static void test_blanks_and_comment(void **state) {
    (void)state;
    every_split(blanks, strstr(blanks, "end\n") + 4 - blanks, 2);
}

static void test_inner_vector_on_its_own_line(void **state) {
    (void)state;
    every_split(split_map, sizeof split_map - 1, 3);
}

static void test_empty_vector(void **state) {
    (void)state;
    every_split(empty, sizeof empty - 1, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_blanks_and_comment),
        cmocka_unit_test(test_inner_vector_on_its_own_line),
        cmocka_unit_test(test_empty_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
