/* restart.c — when to restart.
 *
 * Luby (opt.restart = 0): restart after luby(i) * luby_unit conflicts.
 * Glucose (opt.restart = 1): restart when the average LBD of the last
 * lbd_window learned clauses, scaled by lbd_margin%, exceeds the average
 * over the whole run (recent clauses are worse than usual: the search is
 * lost); block the restart when the trail is much longer than usual (the
 * search may be close to a model).
 * Stable mode (mode.c) restarts by Luby with its own, long unit. */
#include "solver/solver.h"

static int64_t luby_unit(const gsat *s) { return s->stable ? s->opt.stable_luby_unit : s->opt.luby_unit; }

static double luby(double y, int64_t x) {
    int64_t size = 1, seq = 0;
    while (size < x + 1) { seq++; size = 2 * size + 1; }
    while (size - 1 != x) { size = (size - 1) >> 1; seq--; x = x % size; }
    double r = 1;
    while (seq-- > 0) r *= y;
    return r;
}

void restart_init(gsat *s) {
    restart_state *r = &s->rs;
    restart_free(s);
    r->lbd_cap = (uint32_t)s->opt.lbd_window;
    r->trail_cap = (uint32_t)s->opt.block_window;
    r->lbd_q = xcalloc(r->lbd_cap, sizeof *r->lbd_q);
    r->trail_q = xcalloc(r->trail_cap, sizeof *r->trail_q);
    r->luby_budget = (int64_t)(luby(2, r->luby_index) * (double)luby_unit(s));
}

void restart_free(gsat *s) {
    free(s->rs.lbd_q);
    free(s->rs.trail_q);
    s->rs.lbd_q = s->rs.trail_q = NULL;
    s->rs.lbd_n = s->rs.lbd_pos = s->rs.lbd_sum = 0;
    s->rs.trail_n = s->rs.trail_pos = s->rs.trail_sum = 0;
}

static void push_q(uint32_t *q, uint32_t cap, uint32_t *n, uint32_t *pos, uint64_t *sum, uint32_t x) {
    if (*n == cap) *sum -= q[*pos];
    else (*n)++;
    q[*pos] = x;
    *sum += x;
    if (++*pos == cap) *pos = 0;
}

void restart_on_conflict(gsat *s, uint32_t lbd) {
    restart_state *r = &s->rs;
    r->since_restart++;
    if (mode_switch_due(s)) r->due = 1;
    if (s->opt.restart == 0 || s->stable) {
        if (r->since_restart >= r->luby_budget) r->due = 1;
        return;
    }
    r->lbd_total += lbd;
    r->lbd_count++;
    /* blocking: a trail far longer than usual */
    if (s->opt.block_restart && s->st.conflicts > 10000 && r->lbd_n == r->lbd_cap && r->trail_n == r->trail_cap &&
        (double)s->trail_n * 100.0 > (double)s->opt.block_restart * ((double)r->trail_sum / r->trail_n)) {
        r->lbd_n = r->lbd_pos = 0;
        r->lbd_sum = 0;
        s->st.blocked_restarts++;
    }
    push_q(r->trail_q, r->trail_cap, &r->trail_n, &r->trail_pos, &r->trail_sum, s->trail_n);
    push_q(r->lbd_q, r->lbd_cap, &r->lbd_n, &r->lbd_pos, &r->lbd_sum, lbd);
    if (r->lbd_n == r->lbd_cap &&
        (double)r->lbd_sum / r->lbd_n * (double)s->opt.lbd_margin / 100.0 >
            (double)r->lbd_total / (double)r->lbd_count)
        r->due = 1;
}

int restart_due(gsat *s) { return s->rs.due; }

void restart_done(gsat *s) {
    restart_state *r = &s->rs;
    r->due = 0;
    r->since_restart = 0;
    r->lbd_n = r->lbd_pos = 0;
    r->lbd_sum = 0;
    r->luby_index++;
    r->luby_budget = (int64_t)(luby(2, r->luby_index) * (double)luby_unit(s));
    s->st.restarts++;
}

/* The mode changed (mode.c): start its policy afresh. */
void restart_mode_changed(gsat *s) {
    restart_state *r = &s->rs;
    r->lbd_n = r->lbd_pos = 0;
    r->lbd_sum = 0;
    r->since_restart = 0;
    r->luby_index = 0;
    r->luby_budget = (int64_t)(luby(2, 0) * (double)luby_unit(s));
}
