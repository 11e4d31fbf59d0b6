/* own_names.c — a program with functions of its own named like the
 * libraries' internals (analyze, backtrack, propagate, reduce_db, ...),
 * linked against libgsat and libisocheck (static or shared) by
 * tests/e2e/library_names.case.sh.
 *
 * If a library exported such a name, the static link would fail with a
 * duplicate definition, or the library would call the program's function
 * instead of its own (the shared case); each function here counts calls
 * that do not carry the program's own token.  The program then solves a
 * few problems through gsat.h, ipasir.h and isocheck.h and checks the
 * answers.  Prints "own names: ok" and exits 0 when all is well. */
#include <stdint.h>
#include <stdio.h>

#include "gsat.h"
#include "ipasir.h"
#include "isocheck.h"

#define TOKEN 424242L
static int foreign_calls, own_calls;

/* One function per internal name; only main may call them (with TOKEN). */
#define OWN(name) \
    long name(long token); \
    long name(long token) { if (token == TOKEN) own_calls++; else foreign_calls++; return token; }
OWN(analyze) OWN(backtrack) OWN(propagate) OWN(reduce_db) OWN(new_level) OWN(heap_pop)
OWN(heap_insert) OWN(var_bump) OWN(arena_alloc) OWN(watch_attach) OWN(search_solve)
OWN(simplify_level0) OWN(theory_round) OWN(restart_due) OWN(reason_of) OWN(propagate_bcp)
OWN(pk_insert) OWN(gp_init) OWN(dimacs_parse) OWN(reader_open) OWN(gunzip_read)
OWN(acyclic_add_edge) OWN(history_free) OWN(parse_text) OWN(check_level) OWN(report_init)
OWN(u64map_get) OWN(load_history) OWN(axioms_check) OWN(gsat_now) OWN(gsat_add_theory)
#define NUM_OWN 31

static int failures;
static void expect(int ok, const char *what) {
    if (!ok) { printf("FAILED: %s\n", what); failures++; }
}

/* Pigeonhole 5 into 4 (UNSAT: conflicts, learning, reductions run), then a
 * graph whose two either/or choices cannot both hold. */
static void through_gsat(void) {
    gsat *s = gsat_new();
    int p[5][4];
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 4; j++) p[i][j] = gsat_new_var(s);
        gsat_add_clause(s, p[i], 4);
    }
    for (int j = 0; j < 4; j++)
        for (int a = 0; a < 5; a++)
            for (int b = a + 1; b < 5; b++) { int c[2] = {-p[a][j], -p[b][j]}; gsat_add_clause(s, c, 2); }
    expect(gsat_solve(s, NULL, 0) == GSAT_UNSAT, "pigeonhole 5/4 is UNSAT");
    gsat_free(s);

    s = gsat_new();
    int g = gsat_graph_new(s, 4), x = gsat_new_var(s), y = gsat_new_var(s);
    gsat_graph_add_edge(s, g, 0, 1, 0);
    gsat_graph_add_edge(s, g, 2, 3, 0);
    gsat_graph_add_edge(s, g, 1, 2, x);
    gsat_graph_add_edge(s, g, 2, 1, -x);
    gsat_graph_add_edge(s, g, 3, 0, y);
    gsat_graph_add_edge(s, g, 0, 3, -y);
    expect(gsat_solve(s, NULL, 0) == GSAT_SAT, "graph SAT");
    expect(!(gsat_value(s, x) > 0 && gsat_value(s, y) > 0), "model keeps the graph acyclic");
    int both[2] = {x, y};
    expect(gsat_solve(s, both, 2) == GSAT_UNSAT && gsat_failed(s, x) && gsat_failed(s, y), "graph UNSAT under x, y");
    gsat_free(s);
}

static void through_ipasir(void) {
    void *S = ipasir_init();
    ipasir_add(S, 1); ipasir_add(S, 2); ipasir_add(S, 0);
    ipasir_add(S, -1); ipasir_add(S, 2); ipasir_add(S, 0);
    ipasir_assume(S, -2);
    expect(ipasir_solve(S) == 20 && ipasir_failed(S, -2), "ipasir UNSAT under -2");
    expect(ipasir_solve(S) == 10 && ipasir_val(S, 2) == 2, "ipasir SAT with 2");
    ipasir_release(S);
}

/* A lost update: both transactions read x's initial value and write x. */
static void through_isocheck(void) {
    isocheck_history *h = isocheck_history_new();
    int t1 = isocheck_txn_begin(h, 1, 1), t2 = isocheck_txn_begin(h, 2, 2);
    isocheck_read_initial(h, t1, 7);
    isocheck_write(h, t1, 7, 1);
    isocheck_read_initial(h, t2, 7);
    isocheck_write(h, t2, 7, 2);
    isocheck_result *r = isocheck_check(h, ISOCHECK_SI);
    expect(isocheck_result_verdict(r) == ISOCHECK_FAIL, "lost update fails SI");
    isocheck_result_free(r);
    isocheck_history_free(h);
}

int main(void) {
    /* the program's own functions work (and count as own calls) */
    long sum = analyze(TOKEN) + backtrack(TOKEN) + propagate(TOKEN) + reduce_db(TOKEN) + new_level(TOKEN) +
               heap_pop(TOKEN) + heap_insert(TOKEN) + var_bump(TOKEN) + arena_alloc(TOKEN) + watch_attach(TOKEN) +
               search_solve(TOKEN) + simplify_level0(TOKEN) + theory_round(TOKEN) + restart_due(TOKEN) +
               reason_of(TOKEN) + propagate_bcp(TOKEN) + pk_insert(TOKEN) + gp_init(TOKEN) + dimacs_parse(TOKEN) +
               reader_open(TOKEN) + gunzip_read(TOKEN) + acyclic_add_edge(TOKEN) + history_free(TOKEN) +
               parse_text(TOKEN) + check_level(TOKEN) + report_init(TOKEN) + u64map_get(TOKEN) +
               load_history(TOKEN) + axioms_check(TOKEN) + gsat_now(TOKEN) + gsat_add_theory(TOKEN);
    expect(sum == NUM_OWN * TOKEN && own_calls == NUM_OWN, "the program's own functions");
    through_gsat();
    through_ipasir();
    through_isocheck();
    expect(foreign_calls == 0, "no library call reached the program's functions");
    if (failures) return 1;
    printf("own names: ok\n");
    return 0;
}
