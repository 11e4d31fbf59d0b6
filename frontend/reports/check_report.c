/* check_report.c — a level's check statistics (see the header). */
#include "frontend/reports/check_report.h"

#include <inttypes.h>

void check_print_stats(FILE *out, const check_result *r) {
    const check_stats *s = &r->st;
    const char *lv = check_level_name(r->level);
    fprintf(out, "[%s] graph %.3fs  prune %.3fs  encode %.3fs  solve %.3fs  verify %.3fs\n", lv, s->t_graph, s->t_prune,
            s->t_encode, s->t_solve, s->t_verify);
    fprintf(out, "[%s] nodes %" PRIu64 "  known edges %" PRIu64 " -> %" PRIu64 " (covering %" PRIu64 ")\n", lv, s->nodes,
            s->known_edges_initial, s->known_edges_final, s->edges_covering);
    fprintf(out, "[%s] writer-unit pairs %" PRIu64 ": decided by reachability %" PRIu64 ", constraints %" PRIu64
            " -> %" PRIu64 " after %u pruning rounds (%" PRIu64 " pruned)\n", lv, s->pairs_total, s->pairs_decided_scan,
            s->cons_initial, s->cons_final, s->prune_rounds, s->cons_pruned);
    if (r->verdict == VERDICT_FAIL)
        fprintf(out, "[%s] interpret %.3fs (cpu %.3fs)%s\n", lv, s->t_interpret, s->cpu_interpret,
                s->interpret_early ? " right after the level" : "");
    if (s->solver_called)
        fprintf(out, "[%s] solver: %" PRIu64 " vars, %" PRIu64 " guarded edges, %" PRId64 " conflicts, %" PRId64
                " decisions, %" PRId64 " propagations, %" PRId64 " theory conflicts, %" PRId64 " theory propagations\n",
                lv, s->vars, s->guarded_edges, s->solver.conflicts, s->solver.decisions, s->solver.propagations,
                s->solver.theory_conflicts, s->solver.theory_propagations);
    if (r->verdict != VERDICT_PASS && r->msg[0]) fprintf(out, "[%s] %s\n", lv, r->msg);
}
