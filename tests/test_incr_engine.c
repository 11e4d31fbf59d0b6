/* test_incr_engine.c — the engines' thread of --follow (frontend/online/
 * incr_engine.h) with page requests among its calls (ieng_populate,
 * follow50): a request faults in the pages of its range (mincore: every
 * page resident after the sync, none before) and changes no byte (a
 * filled buffer stays as it was, fresh memory stays zero), and the engine
 * calls around it give the answers of the same calls made directly (a
 * guarded cycle: SAT with its guard false, UNSAT once a unit fixes it
 * true). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gsat.h"
#include "frontend/online/incr_engine.h"

enum { REGION = 8 << 20 };

static size_t resident_pages(void *p, size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = bytes / page, in = 0;
    unsigned char *v = malloc(n);
    assert_non_null(v);
    assert_int_equal(mincore(p, bytes, v), 0);
    for (size_t i = 0; i < n; i++) in += v[i] & 1;
    free(v);
    return in;
}

/* One level's calls, through the thread (e) or direct (NULL): a chain
 * 0 -> 1 -> 2 and an edge 2 -> 0 guarded by a new variable; the answer of
 * a solve before and after the unit clause that sets the variable. */
static void calls(gsat *s, int g, incr_engine *e, unsigned char *buf, unsigned char *fresh, int answer[2]) {
    if (e) {
        ieng_nodes(e, 0, 3);
        ieng_edge(e, 0, 0, 1, 0);
        ieng_populate(e, fresh, REGION / 2);             /* between calls: they still come in order */
        ieng_edge(e, 0, 1, 2, 0);
        int v = ieng_var(e);
        ieng_edge(e, 0, 2, 0, v);
        ieng_populate(e, buf, REGION);
        ieng_populate(e, fresh + REGION / 2, REGION / 2);
        assert_int_equal(ieng_sync(e), 1);
        answer[0] = gsat_solve(s, NULL, 0);
        ieng_unit(e, 0, v);
        assert_int_equal(ieng_sync(e), 1);
        answer[1] = gsat_solve(s, NULL, 0);
        return;
    }
    gsat_graph_add_nodes(s, g, 3);
    gsat_graph_add_edge(s, g, 0, 1, 0);
    gsat_graph_add_edge(s, g, 1, 2, 0);
    int v = gsat_new_var(s);
    gsat_graph_add_edge(s, g, 2, 0, v);
    answer[0] = gsat_solve(s, NULL, 0);
    gsat_add_clause(s, &v, 1);
    answer[1] = gsat_solve(s, NULL, 0);
}

static void test_populate_among_calls(void **state) {
    (void)state;
    unsigned char *buf = malloc(REGION);
    assert_non_null(buf);
    for (size_t i = 0; i < REGION; i++) buf[i] = (unsigned char)(i * 131 + 7);
    unsigned char *fresh = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(fresh != MAP_FAILED);
    assert_int_equal(resident_pages(fresh, REGION), 0);
    int answer[2][2];
    for (int th = 0; th < 2; th++) {
        gsat *s = gsat_new();
        assert_non_null(s);
        int g = gsat_graph_new(s, 0);
        assert_true(g >= 0);
        gsat *ss[2] = { s, NULL };
        int gg[2] = { g, -1 };
        incr_engine *e = th ? ieng_start(ss, gg) : NULL;
        if (th) assert_non_null(e);
        calls(s, g, e, buf, fresh, answer[th]);
        ieng_stop(e);
        gsat_free(s);
    }
    assert_int_equal(answer[0][0], GSAT_SAT);
    assert_int_equal(answer[0][1], GSAT_UNSAT);
    assert_memory_equal(answer[0], answer[1], sizeof answer[0]);
#ifdef MADV_POPULATE_WRITE
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    /* a kernel without MADV_POPULATE_WRITE (before 5.14) refuses it: nothing to see then */
    if (madvise(fresh + REGION - page, page, MADV_POPULATE_WRITE) == 0)
        assert_int_equal(resident_pages(fresh, REGION), REGION / page);
#endif
    for (size_t i = 0; i < REGION; i++) {
        if (buf[i] != (unsigned char)(i * 131 + 7)) fail_msg("byte %zu of the filled buffer changed", i);
        if (fresh[i]) fail_msg("byte %zu of the fresh region is not zero", i);
    }
    munmap(fresh, REGION);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_populate_among_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
