/* proof.c — the proof trace's hook and its conversion to DIMACS
 * (contract: solver/proof.h). */
#include "solver/proof.h"

void solver_set_proof(gsat *s, void *state, solver_proof_fn fn) {
    s->proof_fn = fn;
    s->proof_state = state;
    s->proof_units = 0;
    s->proof_done = 0;
}

void proof_emit(gsat *s, int add, const lit_t *lits, uint32_t n) {
    if (add && n == 0) {              /* the empty clause: once, and nothing after it matters */
        if (s->proof_done) return;
        s->proof_done = 1;
    }
    vec_clear(s->proof_buf);
    for (uint32_t i = 0; i < n; i++) vec_push(s->proof_buf, lit_to_dimacs(lits[i]));
    vec_push(s->proof_buf, 0);
    guard_pause p = guard_suspend();              /* the caller's code: its failures are its own */
    s->proof_fn(s->proof_state, add, s->proof_buf.data, (int)n);
    guard_resume(p);
}

void proof_level0_units(gsat *s) {
    if (!s->proof_fn) return;
    uint32_t end = s->trail_lim.len ? s->trail_lim.data[0] : s->trail_n;
    for (uint32_t i = s->proof_units; i < end; i++)
        if (var_level(s, lvar(s->trail[i])) == 0) proof_add(s, &s->trail[i], 1);
    if (end > s->proof_units) s->proof_units = end;
}

void proof_empty(gsat *s) { proof_add(s, NULL, 0); }
