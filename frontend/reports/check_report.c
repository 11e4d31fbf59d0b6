/* check_report.c — verdict output for `isocheck check` (see the header). */
#include "frontend/reports/check_report.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/reports/report.h"

void dep_edge_ops(const history *h, const dep_edge *e, uint32_t *rd, uint32_t *wf, uint32_t *wt) {
    *rd = *wf = *wt = HISTORY_NONE;
    switch (e->kind) {
    case DEP_WR: *rd = history_txn_external_read(h, e->to, e->key); *wf = history_txn_final_write(h, e->from, e->key); break;
    case DEP_WW: *wf = history_txn_final_write(h, e->from, e->key); *wt = history_txn_final_write(h, e->to, e->key); break;
    case DEP_RW: *rd = history_txn_external_read(h, e->from, e->key); *wt = history_txn_final_write(h, e->to, e->key); break;
    default: break;
    }
}

static const char *value_str(const history *h, uint32_t op, char *buf, size_t n) {
    if (op == HISTORY_NONE) { snprintf(buf, n, "?"); return buf; }
    return history_value_str(h, history_op_is_read(h, op) ? history_read_value(h, op) : h->op_value[op], buf, n);
}

static void print_edge(FILE *out, const history *h, const dep_edge *e) {
    char a[64], b[64], kb[128], v1[64], v2[64], where[600];
    uint32_t rd, wf, wt;
    dep_edge_ops(h, e, &rd, &wf, &wt);
    report_txn_name(h, e->from, a, sizeof a);
    report_txn_name(h, e->to, b, sizeof b);
    if (e->kind != DEP_SO) history_key_str(h, e->key, kb, sizeof kb);
    fprintf(out, "  %s", a);
    if (e->from) fprintf(out, " [session %" PRId64 ", %s]", h->sessions[h->txns[e->from].session].ext_id,
                         history_txn_where(h, e->from, where, sizeof where));
    switch (e->kind) {
    case DEP_SO: fprintf(out, "  --SO-->  %s: later in the same session\n", b); break;
    case DEP_WR:
        fprintf(out, "  --WR %s-->  %s: %s reads %s=%s written by %s\n", kb, b, b, kb, value_str(h, rd, v1, sizeof v1), a);
        break;
    case DEP_WW:
        fprintf(out, "  --WW %s-->  %s: %s's %s=%s precedes %s's %s=%s in the version order\n", kb, b, a, kb,
                value_str(h, wf, v1, sizeof v1), b, kb, value_str(h, wt, v2, sizeof v2));
        break;
    case DEP_RW:
        fprintf(out, "  --RW %s-->  %s: %s reads %s=%s, which %s's %s=%s overwrites\n", kb, b, a, kb,
                value_str(h, rd, v1, sizeof v1), b, kb, value_str(h, wt, v2, sizeof v2));
        break;
    default: fprintf(out, "  --?-->  %s\n", b);
    }
}

void check_print_text(FILE *out, const history *h, const check_result *r) {
    const char *lv = check_level_name(r->level), *title = check_level_title(r->level);
    switch (r->verdict) {
    case VERDICT_PASS:
        fprintf(out, "PASS %s: the history satisfies %s\n", lv, title);
        break;
    case VERDICT_FAIL:
        fprintf(out, "FAIL %s: %s is violated: a dependency cycle of %zu transaction%s (%s)\n", lv, title,
                r->cycle.len, r->cycle.len == 1 ? "" : "s",
                !strcmp(r->stage, "solver") ? "no version order avoids one: solver"
                : !strcmp(r->stage, "external solver") ? "no version order avoids one: external solver"
                : !strcmp(r->stage, "pruning") ? "no version order avoids one: pruning" : "already in the known graph");
        for (size_t i = 0; i < r->cycle.len; i++) print_edge(out, h, &r->cycle.data[i]);
        break;
    default:
        fprintf(out, "UNKNOWN %s: %s\n", lv, r->msg);
    }
}

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
    if (r->verdict == VERDICT_FAIL) fprintf(out, "[%s] interpret %.3fs (cpu %.3fs)\n", lv, s->t_interpret, s->cpu_interpret);
    if (s->solver_called)
        fprintf(out, "[%s] solver: %" PRIu64 " vars, %" PRIu64 " guarded edges, %" PRId64 " conflicts, %" PRId64
                " decisions, %" PRId64 " propagations, %" PRId64 " theory conflicts, %" PRId64 " theory propagations\n",
                lv, s->vars, s->guarded_edges, s->solver.conflicts, s->solver.decisions, s->solver.propagations,
                s->solver.theory_conflicts, s->solver.theory_propagations);
    if (r->verdict != VERDICT_PASS && r->msg[0]) fprintf(out, "[%s] %s\n", lv, r->msg);
}
