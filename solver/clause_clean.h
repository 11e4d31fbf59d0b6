/* clause_clean.h — the one clean-up every clause added to the engine gets,
 * whoever adds it (gsat_add_clause, the DIMACS loader, a clause brought
 * back from preprocessing), as MiniSat's addClause_ serves both its API
 * and its DIMACS reader.
 *
 * clause_clean(d, n, value, ctx) rewrites d[0..n) in place: literals
 * false at level 0 dropped, the rest sorted and duplicates dropped.  It
 * returns the length left (0: the clause is empty, so the formula is
 * unsatisfiable), or CLAUSE_HOLDS when the clause needs no storing: a
 * literal true at level 0, or a literal together with its negation.
 * value(ctx, l) is l's level-0 value (1 true, -1 false, 0 open); each
 * caller passes its own view (the engine's values, the loader's bitmap)
 * as a constant, and the function is inlined with it. */
#ifndef GSAT_SOLVER_CLAUSE_CLEAN_H
#define GSAT_SOLVER_CLAUSE_CLEAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define CLAUSE_HOLDS SIZE_MAX

static int clause_lit_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline size_t clause_clean(uint32_t *d, size_t n, int (*value)(const void *ctx, uint32_t lit), const void *ctx) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int v = value(ctx, d[i]);
        if (v > 0) return CLAUSE_HOLDS;                /* satisfied at level 0 */
        if (v == 0) d[m++] = d[i];                     /* a false literal goes */
    }
    if (m > 16) qsort(d, m, sizeof *d, clause_lit_cmp);
    else                                               /* short clauses (nearly all): no call a comparison */
        for (size_t i = 1; i < m; i++) {
            uint32_t x = d[i];
            size_t k = i;
            for (; k > 0 && d[k - 1] > x; k--) d[k] = d[k - 1];
            d[k] = x;
        }
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
        if (j && d[i] == d[j - 1]) continue;           /* duplicate */
        if (j && d[i] == (d[j - 1] ^ 1u)) return CLAUSE_HOLDS;   /* tautology: x and -x are neighbours */
        d[j++] = d[i];
    }
    return j;
}

#endif
