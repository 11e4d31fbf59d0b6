/* solver.h — the engine's internal state and the small inline helpers every
 * module shares.  Only solver/ includes this; the outside sees gsat.h.
 *
 * Encoding: variable v (1..nvars, as in DIMACS) has literals 2v (positive)
 * and 2v+1 (negative).  Values are kept per literal (vals[l] = 1 true,
 * -1 false, 0 unassigned) so testing a literal is one load.
 *
 * Clauses live in one arena of 32-bit words, named by their offset (cref).
 * The two watched literals of a clause are always lits[0] and lits[1]; the
 * literal a clause implied is lits[0] (or either literal of a binary
 * clause, which propagation does not reorder).  A reason is a cref, or
 * CREF_NONE (decision, assumption, level-0 fact), or a lazy theory marker
 * REASON_THEORY0 + th, turned into a real clause on first use. */
#ifndef GSAT_SOLVER_H
#define GSAT_SOLVER_H

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "gsat.h"
#include "vec.h"
#include "solver/guard.h"
#include "solver/options.h"
#include "solver/simp.h"
#include "solver/stats.h"
#include "solver/theory.h"

typedef uint32_t lit_t;
typedef uint32_t cref_t;

#define LIT_UNDEF UINT32_MAX
#define CREF_NONE UINT32_MAX
#define MAX_THEORIES 8           /* theory_mask is a byte a variable (isocheck attaches one a solver) */
#define REASON_THEORY0 (UINT32_MAX - MAX_THEORIES - 1)
#define WATCH_BIN 0x80000000u        /* watcher flag: the clause is binary */
#define ARENA_MAX_WORDS 0x7ffff000u   /* crefs stay below WATCH_BIN */

static inline lit_t mklit(uint32_t v, int neg) { return 2 * v + (neg ? 1u : 0u); }
static inline uint32_t lvar(lit_t l) { return l >> 1; }
static inline lit_t lneg(lit_t l) { return l ^ 1u; }
static inline lit_t lit_from_dimacs(int d) {
    return d > 0 ? 2u * (uint32_t)d : 2u * (uint32_t)(-(int64_t)d) + 1u;
}
static inline int lit_to_dimacs(lit_t l) { int v = (int)(l >> 1); return (l & 1) ? -v : v; }
static inline int reason_is_theory(cref_t r) { return r >= REASON_THEORY0 && r != CREF_NONE; }

/* ---- clauses ------------------------------------------------------------ */
enum {
    CL_LEARNT = 1u << 0,
    CL_GARBAGE = 1u << 1,
    CL_REASON = 1u << 2,   /* a theory reason or conflict: not watched */
    CL_USED = 1u << 3,     /* took part in a conflict since the last reduction */
    CL_MOVED = 1u << 4,    /* during compaction: size holds the new cref */
    CL_LBD_SHIFT = 8,
};

typedef struct clause {
    uint32_t size;
    uint32_t flags;          /* CL_* bits, LBD in the bits above CL_LBD_SHIFT */
    lit_t lits[];            /* learned clauses keep their activity after lits */
} clause;

static inline uint32_t cl_lbd(const clause *c) { return c->flags >> CL_LBD_SHIFT; }
static inline void cl_set_lbd(clause *c, uint32_t lbd) {
    if (lbd > 0xffffff) lbd = 0xffffff;
    c->flags = (c->flags & ((1u << CL_LBD_SHIFT) - 1)) | (lbd << CL_LBD_SHIFT);
}
static inline float cl_activity(const clause *c) {
    float a; memcpy(&a, &c->lits[c->size], sizeof a); return a;
}
static inline void cl_set_activity(clause *c, float a) { memcpy(&c->lits[c->size], &a, sizeof a); }

typedef struct arena {
    uint32_t *mem;
    size_t len, cap;          /* in words */
    size_t wasted;            /* words of garbage clauses */
    int unpurged;             /* clauses freed since the watches were rebuilt */
} arena;

/* ---- watches ------------------------------------------------------------- */
typedef struct watcher {
    lit_t blocker;            /* some other literal of the clause; true => skip */
    uint32_t cref;            /* | WATCH_BIN for binary clauses */
} watcher;

typedef struct watch_list {
    watcher *data;
    uint32_t len, cap;
} watch_list;
/* The lists themselves live in s->wl, made for a literal on its first
 * watcher; s->watch_at[l] names literal l's (0: none yet, wl.data[0] is an
 * empty list that is never written, its data a static room, not NULL).
 * Most literals of a problem carried by a graph theory are in no clause:
 * they cost 4 bytes each instead of a 16-byte header. */
typedef VEC(watch_list) watch_vec;

typedef struct var_info {
    cref_t reason;
    int level;
} var_info;

typedef struct theory_slot {
    const theory_ops *ops;
    void *t;
    uint32_t head;            /* trail position up to which it was told */
    vec_uint pending;         /* watched literals assigned before the watch began */
    int (*phase)(void *t, int lit);   /* optional branching advice */
} theory_slot;

typedef struct option_group {   /* a theory's options (gsat_add_options) */
    const gsat_option *table;
    int n;
    int64_t *values;
} option_group;

typedef struct restart_state {
    /* Glucose: bounded queues of recent LBDs and trail sizes */
    uint32_t *lbd_q; uint32_t lbd_n, lbd_pos, lbd_cap; uint64_t lbd_sum;
    uint32_t *trail_q; uint32_t trail_n, trail_pos, trail_cap; uint64_t trail_sum;
    uint64_t lbd_total, lbd_count;
    /* Luby */
    int64_t luby_index, luby_budget, since_restart;
    int due;
} restart_state;

/* unassign.c: one occurrence of a literal in a clause */
typedef struct occ_node { cref_t cref; uint32_t next; } occ_node;
#define OCC_NONE UINT32_MAX

struct gsat {
    int ok;                   /* 0 once the formula is unsatisfiable at level 0 */
    int in_error;             /* the error state (solver/guard.h): error holds its message */
    char error[240];
    uint32_t nvars, cap_vars;

    int8_t *vals;             /* per literal */
    var_info *vinfo;          /* per variable */
    uint8_t *seen;            /* analysis marks */
    uint8_t *polarity;        /* saved phase: 1 = negative */
    uint8_t *decision;
    uint8_t *theory_mask;     /* bit th: theory th watches the variable */
    double *activity;
    int32_t *heap_index;      /* position in heap, -1 if absent */
    vec_uint heap;
    uint32_t *watch_at;       /* per literal: its list in wl (0: none) */
    watch_vec wl;             /* the watch lists: clauses watching a literal */
    VEC(watcher *) watch_slabs;  /* watch.c: first small blocks of the lists */
    watcher *slab_next;
    uint32_t slab_left;
    uint8_t *failed_mark;     /* per literal: a failed assumption (NULL until the first) */
    int8_t *model;            /* per variable, after SAT */
    uint32_t model_vars;
    /* keep_trail: the last model assigned every variable up to model_full
     * (0: none known), and these were taken back since; the next model
     * copies only them and the new variables (solver.c copy_model) */
    uint32_t model_full;
    vec_uint model_dirty;
    uint32_t *trail_pos;      /* per variable: index on the trail */
#ifdef GSAT_DEBUG
    vec_int original;         /* every added clause, 0-terminated, for model checks */
#endif

    lit_t *trail;
    uint32_t trail_n, qhead;
    vec_uint trail_lim;

    arena ca;
    vec_uint originals, learnts, treasons;
    /* unassign.c: partial backtracking's bookkeeping */
    vec_uint tprop_pos;       /* trail positions of theory-implied literals, ascending */
    /* per literal: the clauses holding it, a chain through occ_pool from
     * occ_head (OCC_NONE ends it; 4 bytes a literal, most of them in no
     * clause when a graph carries the constraints); valid when occ_n > 0 */
    uint32_t *occ_head;
    size_t occ_n, occ_cap;    /* literals covered (2 * (nvars + 1)), 0 = not built; room */
    VEC(occ_node) occ_pool;
    vec_uint dep_heap, dep_gone;
    /* unassign.c: unassign_owed_pick's scan (next variable; 0 = 1) and
     * whether gsat_set_decision_var ever made a variable non-decision */
    uint32_t owed_next;
    int has_nondecision;
    size_t unwatched;         /* originals[unwatched..] are not attached yet (watch.c) */
    int defer_units;          /* dimacs_load: unit clauses only assigned, propagated at the end */

    /* analysis scratch */
    vec_uint learnt, toclear, stack;
    uint64_t *level_stamp; uint64_t stamp; size_t level_stamp_cap;
    double var_inc, cla_inc, var_decay;

    restart_state rs;
    int64_t next_reduce, reduce_interval;
    /* mode.c: focused/stable phases, target phases */
    int stable, target_valid;
    int64_t mode_next, mode_len;
    uint32_t target_assigned, best_assigned;
    int64_t rephase_next;
    uint8_t *target, *best;   /* per variable, as polarity (NULL until mode.c snapshots: never with a theory) */
    int64_t next_walk, walk_props;    /* walk.c: conflicts of the next walk, propagations at the last */
    uint8_t probed;                   /* probe.c: the probe ran, or may not (a caller set phases) */
    uint32_t simp_assigns; int64_t simp_props;

    vec_uint assumptions;
    /* warm.c: unit clauses whose literal is true above level 0, to become
     * level-0 facts once a backtrack takes the literal back */
    uint8_t *late_mark;       /* per variable (NULL until the first): 0, or 1 + the unit's sign */
    uint32_t late_count;      /* variables marked */
    vec_uint late_units;      /* units of marked variables a backtrack took back, to restore */
    int late_dirty;           /* late_units is not empty */
    vec_int failed;           /* DIMACS failed assumptions */

    int64_t conflict_limit;   /* per solve, < 0 none */
    double time_limit;        /* per solve, <= 0 none */
    double solve_start;
    int64_t solve_conflicts0;

    /* caller's hooks (gsat_set_terminate, gsat_set_learn) */
    int (*terminate)(void *state);
    void *terminate_state;
    void (*learn)(void *state, const int *lits, int n);
    void *learn_state;
    int learn_max;
    vec_int learn_buf;        /* the learned clause in DIMACS, 0-terminated */
    /* proof.c: the proof trace (solver/proof.h) */
    void (*proof_fn)(void *state, int add, const int *lits, int n);
    void *proof_state;
    vec_int proof_buf;        /* the traced clause in DIMACS, 0-terminated */
    uint32_t proof_units;     /* level-0 trail prefix traced as units */
    int proof_done;           /* the empty clause was traced */
    /* progress: called after each learned-clause reduction (gsat -v) */
    void (*progress_fn)(void *state, const gsat *s);
    void *progress_state;

    theory_slot theories[MAX_THEORIES];
    int ntheories;
    vec_int tbuf;             /* DIMACS clauses from theories */
    vec_int tout;             /* DIMACS literals implied by a theory */
    vec_uint tlits;

    simp *simp;               /* preprocessing (solver/simp.h); NULL until used */
    VEC(option_group) opt_groups;

    struct {
#define X(name, def, lo, hi, help) int64_t name;
        GSAT_OPTIONS(X)
#undef X
    } opt;
    struct {
#define X(name, help) int64_t name;
        GSAT_STATS(X)
#undef X
        double seconds;
    } st;
};

static inline clause *CL(const gsat *s, cref_t r) { return (clause *)(s->ca.mem + r); }
static inline int lit_value(const gsat *s, lit_t l) { return s->vals[l]; }
static inline int var_level(const gsat *s, uint32_t v) { return s->vinfo[v].level; }
static inline uint32_t decision_level(const gsat *s) { return (uint32_t)s->trail_lim.len; }

/* Assign l at `level`, which may lie below the current decision level
 * (chronological backtracking keeps such out-of-order literals on the
 * trail; a literal's level is never below those of its reason's other
 * literals). */
static inline void enqueue_at(gsat *s, lit_t l, cref_t reason, int level) {
    uint32_t v = lvar(l);
    s->vals[l] = 1;
    s->vals[l ^ 1] = -1;
    s->vinfo[v].reason = reason;
    s->vinfo[v].level = level;
    s->trail_pos[v] = s->trail_n;
    s->trail[s->trail_n++] = l;
}

static inline void enqueue(gsat *s, lit_t l, cref_t reason) { enqueue_at(s, l, reason, (int)s->trail_lim.len); }

/* arena.c */
cref_t arena_alloc(gsat *s, const lit_t *lits, uint32_t n, uint32_t flags);
void arena_reserve(gsat *s, size_t clauses, size_t lits);   /* room for that many more original clauses */
void arena_free_clause(gsat *s, cref_t r);
/* Compact when more than gc_percent of the arena is garbage (copy the
 * live clauses, forward reasons), else purge the watches; either way the
 * watches are rebuilt. */
void arena_collect(gsat *s);

/* watch.c */
/* Literal l's watch list, to read (empty if l never had one).  The pointer
 * is valid until a list is made (watch_push, watch_make). */
static inline watch_list *watch_of(const gsat *s, lit_t l) { return &s->wl.data[s->watch_at[l]]; }
watch_list *watch_make_slow(gsat *s, lit_t l);
/* Literal l's list, made if it has none (may move every list header). */
static inline watch_list *watch_make(gsat *s, lit_t l) {
    uint32_t i = s->watch_at[l];
    return i ? &s->wl.data[i] : watch_make_slow(s, l);
}
void watch_init(gsat *s);
void watch_free_all(gsat *s);
void watch_push_slow(gsat *s, lit_t l, lit_t blocker, uint32_t cref);
/* A literal without a list reads the empty one, whose len == cap (0)
 * sends it to the slow path with a full list: one test for both. */
static inline void watch_push(gsat *s, lit_t l, lit_t blocker, uint32_t cref) {
    watch_list *w = watch_of(s, l);
    if (w->len == w->cap) { watch_push_slow(s, l, blocker, cref); return; }
    w->data[w->len].blocker = blocker;
    w->data[w->len].cref = cref;
    w->len++;
}
void watch_attach(gsat *s, cref_t r);
void watch_flush_slow(gsat *s);
/* Attach the original clauses added since the last flush: before anything
 * reads the watch lists (propagation, preprocessing, a solve). */
static inline void watch_flush(gsat *s) {
    assert(s->unwatched <= s->originals.len);   /* a shrinking list is followed by watch_rebuild */
    if (s->unwatched < s->originals.len) watch_flush_slow(s);
}
void watch_rebuild(gsat *s);
void watch_move(gsat *s, cref_t r, uint32_t i, uint32_t j);   /* watch lits[i], lits[j] */

/* propagate.c */
cref_t solver_propagate(gsat *s);
/* gsat_reserve_vars without its checks and guard (0 <= n <= GSAT_MAX_VARS),
 * for the engine's own modules. */
void solver_reserve_vars(gsat *s, int n);
/* gsat_add_clause without its checks and guard (literals nonzero, at
 * most GSAT_MAX_VARS), for the engine's own modules (the DIMACS loader). */
int solver_add_clause(gsat *s, const int *lits, int n);
/* Store a cleaned clause (solver/clause_clean.h) at level 0: see solver.c. */
int solver_store_clause(gsat *s, const lit_t *d, size_t n, int propagate);
void solver_new_level(gsat *s);
void solver_backtrack(gsat *s, uint32_t level);

/* heap.c */
void heap_insert(gsat *s, uint32_t v);
uint32_t heap_pop(gsat *s);            /* 0 if empty */
void solver_var_bump(gsat *s, uint32_t v);
void solver_var_decay(gsat *s);

/* analyze.c */
void solver_analyze(gsat *s, cref_t confl, uint32_t *bt_level, uint32_t *lbd);
void solver_analyze_final(gsat *s, lit_t p);
uint32_t solver_compute_lbd(gsat *s, const lit_t *lits, uint32_t n);
void solver_clause_bump(gsat *s, clause *c);
void solver_clause_decay(gsat *s);

/* restart.c */
void restart_init(gsat *s);
void restart_free(gsat *s);
void restart_on_conflict(gsat *s, uint32_t lbd);
int restart_due(gsat *s);
void restart_done(gsat *s);

/* reduce.c */
void solver_reduce_db(gsat *s);

/* unassign.c */
int unassign_supported(const gsat *s);      /* option on, every theory can unassign */
void unassign_dependents(gsat *s, lit_t p); /* take back true p and what depends on it */
void unassign_occ_add(gsat *s, cref_t r);   /* a new clause, while the lists are built */
void unassign_forget(gsat *s);              /* clauses move or change: drop the lists */
/* Once the decision heap is empty, after partial backtracks: an
 * unassigned non-decision variable, as a literal to decide (its saved
 * phase), else LIT_UNDEF. */
lit_t unassign_owed_pick(gsat *s);

/* mode.c */
void mode_start(gsat *s);                 /* at a solve's start */
void mode_after_restart(gsat *s);
int mode_switch_due(const gsat *s);
void mode_on_conflict(gsat *s);
void mode_reset_target(gsat *s);
void mode_rephase(gsat *s);
uint8_t mode_polarity(const gsat *s, uint32_t v);
void restart_mode_changed(gsat *s);      /* restart.c: the policy follows s->stable */

/* walk.c */
int walk_phases(gsat *s);          /* 1 if the new phases satisfy every clause */
void probe_phases(gsat *s);        /* probe.c: before the first preprocessing of a pure CNF solve */

/* simplify.c */
void solver_simplify_level0(gsat *s);

/* theory.c */
cref_t theory_round(gsat *s, int *progress);
cref_t theory_final_check(gsat *s);
cref_t theory_explain(gsat *s, uint32_t v, int th);
int theory_still_implied(gsat *s, uint32_t v, int th);   /* partial backtracking */
void theory_new_level(gsat *s);
void theory_backtrack(gsat *s, uint32_t level, uint32_t lim);   /* lim: trail start of level+1 */
void theory_free_all(gsat *s);
void theory_solve_start(gsat *s);      /* each theory's solve_start() */

/* warm.c: the kept assignment (option keep_trail) */
static inline int warm_active(const gsat *s) { return s->opt.keep_trail && decision_level(s) > 0 && !s->simp; }
int warm_add_clause(gsat *s, lit_t *lits, uint32_t n);   /* n >= 1, no literal fixed at level 0 */
cref_t warm_restore_units(gsat *s);                     /* before propagation: a conflict or CREF_NONE */
/* A backtrack takes variable v back: list its late unit, if any, and it
 * for the next model.  `late`, `dirty`: whether either is kept. */
static inline void warm_taken_back(gsat *s, uint32_t v, int late, int dirty) {
    if (late && s->late_mark[v]) { vec_push(s->late_units, mklit(v, s->late_mark[v] - 1u)); s->late_dirty = 1; }
    if (dirty) vec_push(s->model_dirty, v);
}
/* After a backtrack: a list longer than the variables (restarts inside
 * one solve) is worth no more than copying them all. */
static inline void warm_dirty_bound(gsat *s) {
    if (s->model_dirty.len > s->nvars) { s->model_full = 0; vec_clear(s->model_dirty); }
}
void warm_solve_start(gsat *s, int n_assumptions);      /* keep the trail or go to level 0 */

/* Option seed (0: none): a 64-bit mix of the seed and x (splitmix64's
 * finaliser), and a variable's initial activity, below 1e-3 so that the
 * first bumps decide (deterministic: the same seed, the same run). */
static inline uint64_t solver_seed_mix(uint64_t seed, uint64_t x) {
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + x + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) | 1u;
}
static inline double solver_seed_activity(const gsat *s, uint32_t v) {
    return (double)(solver_seed_mix((uint64_t)s->opt.seed, v) >> 11) / 9007199254740992.0 * 1e-3;
}

/* search.c */
int solver_search(gsat *s);
double gsat_now(void);

#endif
