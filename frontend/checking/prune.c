/* prune.c — PolySI's constraint pruning (Algorithm 2 with the appendix's
 * corrected RW rule) run to a fixpoint on the chain reachability summary.
 *
 * A round recomputes reachability of the known graph, then tests both sides
 * of every remaining constraint: a side one of whose edges closes a cycle
 * with the known graph cannot happen, so the other side becomes known; if
 * both are blocked the history fails the level.  Rounds repeat until one
 * decides nothing (or max_rounds).  Pruning is an optimization only: the
 * solver handles whatever is left. */
#include "frontend/checking/polygraph.h"

int pg_prune(polygraph *g, int max_rounds) {
    for (;;) {
        if (!pg_reach(g)) {
            if (g->prune_rounds == 0)
                snprintf(g->fail_reason, sizeof g->fail_reason,
                         "the known graph plus the writer orders decided by reachability has a cycle");
            else
                snprintf(g->fail_reason, sizeof g->fail_reason, "the known graph has a cycle after %u pruning rounds",
                         g->prune_rounds);
            g->fail_stage = "pruning";
            return 0;
        }
        if (!g->cons.len || (int)g->prune_rounds >= max_rounds) return 1;
        g->prune_rounds++;
        size_t keep = 0, decided = 0;
        for (size_t i = 0; i < g->cons.len; i++) {
            pg_cons c = g->cons.data[i];
            int buv = pg_side_blocked(g, c.u, c.v), bvu = pg_side_blocked(g, c.v, c.u);
            if (buv && bvu) {
                snprintf(g->fail_reason, sizeof g->fail_reason,
                         "key %u: both orders of two writers close a cycle (pruning round %u)",
                         g->ix->unit_key[c.u], g->prune_rounds);
                g->fail_stage = "pruning";
                return 0;
            }
            if (!buv && !bvu) { g->cons.data[keep++] = c; continue; }
            decided++;
            if (bvu) g->edges_covering += pg_add_side(g, c.u, c.v);
            else g->edges_covering += pg_add_side(g, c.v, c.u);
        }
        g->cons.len = keep;
        g->cons_pruned += decided;
        if (!decided) return 1;
    }
}
