/* mode.c — focused and stable search phases, and target phases
 * (after CaDiCaL and Kissat; Biere et al., SAT Competition 2019-2020).
 *
 * On pure CNF (no theory) with opt.stable = 1 the search alternates a
 * focused phase (Glucose restarts, saved phases: many short dives that
 * learn short clauses, good on unsatisfiable formulas) and a stable phase
 * (Luby restarts with a long unit: few restarts, so the search keeps
 * working in one region, good on satisfiable ones).  Phases are measured
 * in conflicts and grow geometrically, so both keep a fixed share of the
 * time.  opt.stable = 2 searches in stable mode only.
 *
 * Target phases: the assignment of the longest conflict-free trail seen
 * (the values of that trail's prefix, the saved phases elsewhere).  Stable
 * mode branches along it, so every restart heads back to the largest
 * consistent assignment found so far instead of the last one.  Reset when
 * the walk (walk.c) changes the saved phases.
 *
 * With a theory nothing here is active: the graph problems' search is the
 * focused one it was tuned for. */
#include "io/bigmem.h"
#include "solver/solver.h"

/* Do modes switch at all (never with a theory attached)? */
static int mode_active(const gsat *s) { return s->opt.stable && !s->ntheories; }

void mode_start(gsat *s) {
    if (!mode_active(s) || s->mode_next) return;
    s->mode_len = s->opt.stable_init;
    s->mode_next = s->st.conflicts + s->mode_len;
    s->stable = s->opt.stable == 2;
    s->rephase_next = s->st.conflicts + s->opt.rephase_interval;
}

/* After a restart at level 0: switch modes when the phase is over. */
void mode_after_restart(gsat *s) {
    if (!mode_active(s) || s->opt.stable == 2 || s->st.conflicts < s->mode_next) return;
    if (s->stable) s->mode_len = s->mode_len * s->opt.stable_factor / 100;
    s->stable = !s->stable;
    s->mode_next = s->st.conflicts + s->mode_len;
    s->st.mode_switches++;
    restart_mode_changed(s);
}

int mode_switch_due(const gsat *s) {
    return s->mode_next && s->opt.stable == 1 && s->st.conflicts >= s->mode_next;
}

/* The saved phases of every variable into *to (made at the first
 * snapshot: nothing reads it before, and gsat_reserve_vars sets it for the
 * variables made later). */
static void snapshot(const gsat *s, uint8_t **tp) {
    if (!*tp) *tp = big_calloc((size_t)s->cap_vars + 1, 1);
    uint8_t *to = *tp;
    for (uint32_t v = 1; v <= s->nvars; v++) {
        int8_t x = s->vals[mklit(v, 0)];
        to[v] = x ? (uint8_t)(x < 0) : s->polarity[v];
    }
}

/* Before backtracking from a conflict: the levels below the current one
 * were propagated to a fixpoint without conflict; if they are longer than
 * the target's (the best's) trail, they become the target (the best). */
void mode_on_conflict(gsat *s) {
    if (!mode_active(s)) return;
    uint32_t dl = decision_level(s);
    if (!dl) return;
    uint32_t prefix = s->trail_lim.data[dl - 1];
    if (s->stable && s->opt.target_phase && prefix > s->target_assigned) {
        s->target_assigned = prefix;
        snapshot(s, &s->target);
        s->target_valid = 1;
    }
    if (s->opt.rephase && prefix > s->best_assigned) {
        s->best_assigned = prefix;
        snapshot(s, &s->best);
    }
}

/* At level 0 after a restart: every rephase_interval * k conflicts reset
 * the saved phases, in turn to the best ones, the original, the best,
 * the inverted original (so a search stuck far from every model is moved
 * while the best trail keeps coming back). */
void mode_rephase(gsat *s) {
    if (!mode_active(s) || !s->opt.rephase || s->st.conflicts < s->rephase_next) return;
    static const char cycle[] = "BOBI";
    char kind = cycle[s->st.rephases % 4];
    s->st.rephases++;
    s->rephase_next = s->st.conflicts + s->opt.rephase_interval * (s->st.rephases + 1);
    for (uint32_t v = 1; v <= s->nvars; v++) {
        if (kind == 'B') { if (s->best_assigned) s->polarity[v] = s->best[v]; }
        else s->polarity[v] = (uint8_t)((kind == 'O') == !s->opt.phase);
    }
    if (kind == 'B') s->best_assigned = 0;
    mode_reset_target(s);
}

void mode_reset_target(gsat *s) { s->target_assigned = 0; s->target_valid = 0; }

uint8_t mode_polarity(const gsat *s, uint32_t v) {
    return s->stable && s->target_valid ? s->target[v] : s->polarity[v];
}
