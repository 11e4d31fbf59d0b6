/* weak_propose.c — the strong levels' choices of writers, checked once per
 * run and shared by its weak levels (contract in weak_propose.h).
 *
 * Before, each of rc, ra and cc checked ser, si, psi and pc again for its
 * own proposals, each on an index of its own: on review49's g_rv_s14 (ser
 * fails, si passes) three of the ladder's four si searches were repeats. */
#include "frontend/checking/weak_propose.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "vec.h"

/* Each implies rc, ra and cc (doc/levels.md, "The order of the ladder":
 * ser ⇒ si ⇒ psi ⇒ cc, si ⇒ pc ⇒ cc); the strongest first (its choice is
 * the likeliest to be a real execution's, and ser is cheap when it fails). */
const check_level_id WEAK_STRONG_LEVELS[WEAK_NUM_STRONG] = { LEVEL_SER, LEVEL_SI, LEVEL_PSI, LEVEL_PC };

enum { WP_NONE = 0, WP_RUNNING, WP_DONE };

struct weak_proposals {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ix_state;                        /* 0 not built, 1 built, -1 failed or freed */
    pg_index ix;
    uint8_t state[WEAK_NUM_STRONG];
    pthread_t owner[WEAK_NUM_STRONG];    /* WP_RUNNING: the thread checking it */
    history *chosen[WEAK_NUM_STRONG];    /* WP_DONE: the level's choice when it passes, else NULL (kept: res[k].chosen) */
    uint8_t keep[WEAK_NUM_STRONG];       /* weak_proposals_keep: the whole result is kept for the level's own task */
    uint8_t kept[WEAK_NUM_STRONG];       /* res[k] holds the level's result (until taken or dropped) */
    check_result res[WEAK_NUM_STRONG];
    VEC(history *) alone;                /* strong_check_alone's answers */
};

weak_proposals *weak_proposals_new(void) {
    weak_proposals *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    vec_init(p->alone);
    return p;
}

void weak_proposals_free(weak_proposals *p) {
    if (!p) return;
    if (p->ix_state == 1) pg_index_free(&p->ix);
    for (size_t k = 0; k < WEAK_NUM_STRONG; k++)
        if (p->kept[k]) check_result_free(&p->res[k]); else history_free(p->chosen[k]);
    for (size_t i = 0; i < p->alone.len; i++) history_free(p->alone.data[i]);
    vec_free(p->alone);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

static atomic_ulong strong_checks;            /* every strong_check, process-wide (tests) */
unsigned long weak_proposals_strong_checks(void) { return atomic_load(&strong_checks); }

/* Strong level k on index ix: its choice (the history under its writers)
 * when it passes, else NULL.  keep: the whole result moved there when the
 * level passes (the choice returned is then keep->chosen), else *keep_ok
 * is 0. */
static history *strong_check(const pg_index *ix, size_t k, const check_options *opt, check_result *keep, uint8_t *keep_ok) {
    check_options o;
    if (opt) o = *opt; else check_options_default(&o);
    o.implied_vo = NULL;
    o.implied_chosen = NULL;
    o.session_level_fails = 0;
    o.spill_index = NULL;
    o.proposals = NULL;
    check_result sr;
    atomic_fetch_add(&strong_checks, 1);
    verdict v = check_level(ix, WEAK_STRONG_LEVELS[k], &o, &sr);
    history *c = v == VERDICT_PASS ? sr.chosen : NULL;
    if (keep && v == VERDICT_PASS) {
        *keep = sr;
        *keep_ok = 1;
        return c;
    }
    if (c) sr.chosen = NULL;
    check_result_free(&sr);
    return c;
}

/* A thread that is itself checking level k asks for it again (it cannot
 * wait for itself): k on an index of its own, not kept. */
static history *strong_check_alone(const history *h, size_t k, const check_options *opt) {
    pg_index mine;
    ic_error err; ic_error_clear(&err);
    if (!pg_index_build_opts(&mine, h, &err, opt ? opt->pool : NULL, pg_index_opts_for(LEVEL_SER))) return NULL;
    history *c = strong_check(&mine, k, opt, NULL, NULL);
    pg_index_free(&mine);
    return c;
}

const history *weak_proposal(weak_proposals *p, const pg_index *ix, size_t k, const check_options *opt) {
    if (k >= WEAK_NUM_STRONG) return NULL;
    pthread_mutex_lock(&p->mu);
    while (p->state[k] == WP_RUNNING && !pthread_equal(p->owner[k], pthread_self())) pthread_cond_wait(&p->cv, &p->mu);
    if (p->state[k] == WP_RUNNING) {              /* this thread is checking k further up its stack */
        pthread_mutex_unlock(&p->mu);
        history *c = strong_check_alone(ix->h, k, opt);
        pthread_mutex_lock(&p->mu);
        if (c) vec_push(p->alone, c);             /* the owner's answer will be the same: kept beside it */
        pthread_mutex_unlock(&p->mu);
        return c;
    }
    if (p->state[k] == WP_DONE) {
        const history *c = p->chosen[k];
        pthread_mutex_unlock(&p->mu);
        return c;
    }
    p->state[k] = WP_RUNNING;
    p->owner[k] = pthread_self();
    if (p->ix_state == 0) {                        /* built by the first to check, under the lock: the others wait anyway */
        ic_error err; ic_error_clear(&err);
        p->ix_state = pg_index_build_opts(&p->ix, ix->h, &err, opt ? opt->pool : NULL, pg_index_opts_for(LEVEL_SER)) ? 1 : -1;
    }
    int have = p->ix_state == 1, keep = p->keep[k];
    pthread_mutex_unlock(&p->mu);
    check_result kr;
    uint8_t kok = 0;
    history *c = have ? strong_check(&p->ix, k, opt, keep ? &kr : NULL, &kok) : NULL;
    pthread_mutex_lock(&p->mu);
    if (kok) p->res[k] = kr, p->kept[k] = 1;
    p->chosen[k] = c;
    p->state[k] = WP_DONE;
    int all = 1;
    for (size_t j = 0; j < WEAK_NUM_STRONG; j++) all &= p->state[j] == WP_DONE;
    if (all && p->ix_state == 1) { pg_index_free(&p->ix); p->ix_state = -1; }   /* nobody checks on it again */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return c;
}

static size_t strong_index(check_level_id level) {
    size_t k = 0;
    while (k < WEAK_NUM_STRONG && WEAK_STRONG_LEVELS[k] != level) k++;
    return k;
}

void weak_proposals_keep(weak_proposals *p, check_level_id level) {
    size_t k = strong_index(level);
    if (!p || k == WEAK_NUM_STRONG) return;
    pthread_mutex_lock(&p->mu);
    p->keep[k] = 1;
    pthread_mutex_unlock(&p->mu);
}

static atomic_ulong taken;                    /* every weak_proposals_take that gave a result (tests) */
unsigned long weak_proposals_taken(void) { return atomic_load(&taken); }

int weak_proposals_take(weak_proposals *p, check_level_id level, check_result *out) {
    size_t k = strong_index(level);
    if (!p || k == WEAK_NUM_STRONG) return 0;
    pthread_mutex_lock(&p->mu);
    int have = p->kept[k];
    if (have) {
        *out = p->res[k];
        memset(&p->res[k], 0, sizeof p->res[k]);
        p->kept[k] = 0;
        p->chosen[k] = NULL;                      /* now out->chosen: the caller's */
        atomic_fetch_add(&taken, 1);
    }
    pthread_mutex_unlock(&p->mu);
    return have;
}

void weak_proposals_drop(weak_proposals *p, check_level_id level) {
    size_t k = strong_index(level);
    if (!p || k == WEAK_NUM_STRONG) return;
    pthread_mutex_lock(&p->mu);
    if (p->kept[k]) {
        check_result_free(&p->res[k]);
        p->kept[k] = 0;
        p->chosen[k] = NULL;
    }
    pthread_mutex_unlock(&p->mu);
}

void weak_proposals_asked(weak_proposals *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    if (p->ix_state == 1) { pg_index_free(&p->ix); p->ix_state = -1; }
    for (size_t k = 0; k < WEAK_NUM_STRONG; k++)
        if (!p->kept[k]) { history_free(p->chosen[k]); p->chosen[k] = NULL; }
    for (size_t i = 0; i < p->alone.len; i++) history_free(p->alone.data[i]);
    p->alone.len = 0;
    pthread_mutex_unlock(&p->mu);
}
