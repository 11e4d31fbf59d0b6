/* simp_state.h — the preprocessor's state, shared by solver/simp_*.c only
 * (the engine sees solver/simp.h).
 *
 * struct simp lives as long as the solver: freeze counts, which variables
 * are removed, and the extension stack.  A record on the stack is
 *     lit_1 ... lit_n  n  witness
 * (DIMACS literals; witness 0 once the record is dead because its variable
 * came back).  Records of one variable are contiguous: ext_begin/ext_end.
 *
 * simp_run is one preprocessing pass: occurrence lists of the irredundant
 * clauses (which may still name garbage clauses; nocc counts the live
 * ones), the subsumption queue, the elimination heap and a work budget.
 * When most clauses name no variable that could go (frozen or non-decision
 * variables only: a solve under many assumptions), those clauses stay out
 * of the lists (partial run): no technique could remove their variables,
 * and they could only subsume each other.
 * During a run the watches are stale: nothing propagates through them;
 * units go on the trail at level 0 and occ_propagate() applies them to the
 * clauses through the occurrence lists. */
#ifndef GSAT_SIMP_STATE_H
#define GSAT_SIMP_STATE_H

#include "solver/simp.h"
#include "solver/solver.h"

enum { SIMP_ACTIVE = 0, SIMP_ELIMINATED = 1, SIMP_SUBSTITUTED = 2 };

struct simp {
    uint32_t cap;                 /* per-variable arrays hold 0..cap */
    uint32_t *frozen;             /* gsat_freeze() count */
    uint8_t *removed;             /* SIMP_* */
    uint8_t *saved_decision;      /* decision flag of a removed variable */
    size_t *ext_begin, *ext_end;  /* the variable's records in ext */
    vec_int ext;
    size_t ext_dead;              /* words in dead records */
    int ran;                      /* a run has happened */
    size_t originals_after;       /* s->originals.len after the last run */
};

typedef struct simp_run {
    gsat *s;
    simp *p;
    vec_uint *occ;                /* per literal: clauses containing it */
    uint8_t *listed;              /* per originals index < nlisted: in the lists */
    size_t nlisted;               /* later clauses (resolvents) are all listed */
    int partial;                  /* clauses without a removable variable left out */
    uint32_t *nocc;               /* per literal: live clauses containing it */
    uint8_t *frozen;              /* per variable: must stay in this run */
    uint32_t *mark;               /* per literal: == stamp when marked */
    uint32_t stamp;
    uint32_t prop_head;           /* trail units up to here are applied */
    vec_uint queue;               /* clauses to subsume/strengthen with */
    vec_uint heap;                /* elimination candidates, cheapest first */
    int32_t *heap_pos;            /* per variable, -1 if not in the heap */
    int heap_on;
    int any_nondecision;
    int64_t steps, step_limit;
    vec_uint tmp;                 /* occ_propagate's copy of a list */
    vec_uint cand;                /* subsume_run's candidates */
    vec_uint res;                 /* resolvents: n lits... per resolvent */
} simp_run;

static inline uint32_t simp_next_stamp(simp_run *r) {
    if (++r->stamp == 0) {
        memset(r->mark, 0, 2 * ((size_t)r->s->nvars + 1) * sizeof *r->mark);
        r->stamp = 1;
    }
    return r->stamp;
}
static inline int simp_out_of_budget(const simp_run *r) { return r->steps > r->step_limit; }

/* simp.c */
/* Variable v leaves the formula (its records are already pushed). */
void simp_mark_removed(simp_run *r, uint32_t v, int kind);

/* simp_occ.c */
void occ_init(simp_run *r);
int  occ_listed(const simp_run *r, size_t i);     /* originals.data[i] is in the lists */
void occ_free(simp_run *r);
int  occ_unit(simp_run *r, lit_t l);                 /* 0: conflict (s->ok = 0) */
int  occ_propagate(simp_run *r);                     /* 0: conflict */
void occ_remove_clause(simp_run *r, cref_t c);
void occ_strengthen(simp_run *r, cref_t c, lit_t l); /* drop l from c */
/* A new irredundant clause (distinct, unassigned literals): stored and
 * queued, or a unit / the empty clause.  0 on the empty clause. */
int  occ_new_clause(simp_run *r, const lit_t *lits, uint32_t n);
/* Drop garbage from occ[l]; returns it. */
vec_uint *occ_live(simp_run *r, lit_t l);

/* simp_subsume.c */
void subsume_queue_all(simp_run *r);
int  subsume_run(simp_run *r);                       /* 0: conflict */

/* simp_elim.c */
void elim_touch(simp_run *r, uint32_t v);            /* occurrences of v changed */
int  elim_run(simp_run *r);                          /* 0: conflict */
void elim_heap_free(simp_run *r);

/* simp_equiv.c */
int  equiv_run(simp_run *r);                         /* 0: conflict */

/* simp_extend.c */
void simp_ext_push(simp *p, const lit_t *lits, uint32_t n, lit_t witness);

#endif
