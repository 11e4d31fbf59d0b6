/* same_stats.h — for tests that run one check two ways (threads, a level
 * alone or in a list) and expect the same facts: the verdict, the stage and
 * message, and every count the scan, the pruning and the encoding report.
 * Include after <cmocka.h>. */
#ifndef ISOCHECK_TESTS_SAME_STATS_H
#define ISOCHECK_TESTS_SAME_STATS_H

#include "frontend/checking/check.h"

static inline void assert_same_verdict_and_counts(const check_result *a, const check_result *b) {
    assert_int_equal(a->verdict, b->verdict);
    assert_string_equal(a->stage ? a->stage : "-", b->stage ? b->stage : "-");
    assert_string_equal(a->msg, b->msg);
    const check_stats *x = &a->st, *y = &b->st;
    assert_int_equal(x->known_edges_initial, y->known_edges_initial);
    assert_int_equal(x->known_edges_final, y->known_edges_final);
    assert_int_equal(x->pairs_total, y->pairs_total);
    assert_int_equal(x->pairs_decided_scan, y->pairs_decided_scan);
    assert_int_equal(x->cons_initial, y->cons_initial);
    assert_int_equal(x->cons_pruned, y->cons_pruned);
    assert_int_equal(x->cons_final, y->cons_final);
    assert_int_equal(x->edges_covering, y->edges_covering);
    assert_int_equal(x->prune_rounds, y->prune_rounds);
    assert_int_equal(x->vars, y->vars);
    assert_int_equal(x->guarded_edges, y->guarded_edges);
}

#endif
