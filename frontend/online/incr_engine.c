/* incr_engine.c — the engines' calls on a thread of their own (contract in
 * frontend/online/incr_engine.h).
 *
 * The calls are words in chunks: a header (the call, the level), then its
 * arguments.  The caller fills a chunk and hands it over when it is full
 * or at ieng_sync(); the thread applies the chunks in order and gives them
 * back.  One mutex guards the queue, the spare chunks and the flags; the
 * chunk being filled is the caller's alone, the one being applied the
 * thread's alone. */
#include "frontend/online/incr_engine.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/bigmem.h"
#include "vec.h"
#include "quiet_thread.h"

#define CHUNK_WORDS 4096      /* 16 KB: about 1,000 edges, a few hundred transactions */

enum { C_NODES = 1, C_EDGE, C_VAR, C_UNIT, C_POP };

typedef struct chunk { struct chunk *next; uint32_t len; int32_t w[CHUNK_WORDS]; } chunk;

struct incr_engine {
    gsat *s[2];
    int graph[2];
    chunk *cur;                  /* being filled (the caller's) */
    int nvars;                   /* the caller's count: the next ieng_var is nvars + 1 */
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t work, idle;
    chunk *head, *tail;          /* handed over, not applied yet */
    chunk *spare;                /* applied, for reuse */
    uint32_t queued;             /* chunks in head..tail */
    int busy;                    /* the thread is applying a chunk */
    int quit;
    int diverged;                /* a new variable got another number */
    int tvars;                   /* the thread's count */
};

static void apply(incr_engine *e, const chunk *c) {
    for (uint32_t i = 0; i < c->len;) {
        int32_t h = c->w[i++];
        int op = h & 7, l = h >> 3;
        switch (op) {
        case C_NODES: gsat_graph_add_nodes(e->s[l], e->graph[l], c->w[i++]); break;
        case C_EDGE: gsat_graph_add_edge(e->s[l], e->graph[l], c->w[i], c->w[i + 1], c->w[i + 2]); i += 3; break;
        case C_UNIT: gsat_add_clause(e->s[l], &c->w[i++], 1); break;
        case C_POP: {                                 /* a pointer and a size, 32 bits a word, low first */
            uint64_t p = (uint64_t)(uint32_t)c->w[i] | (uint64_t)(uint32_t)c->w[i + 1] << 32;
            uint64_t n = (uint64_t)(uint32_t)c->w[i + 2] | (uint64_t)(uint32_t)c->w[i + 3] << 32;
            i += 4;
            big_populate((void *)(uintptr_t)p, (size_t)n);
            break;
        }
        default: {                                    /* C_VAR */
            int want = ++e->tvars;
            for (int k = 0; k < 2; k++) {
                if (!e->s[k]) continue;
                int v = gsat_new_var(e->s[k]);
                if (v != want && v != 0) e->diverged = 1;
            }
        }
        }
    }
}

static void *engine_main(void *arg) {
    incr_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->head && !e->quit) pthread_cond_wait(&e->work, &e->mu);
        if (!e->head) break;
        chunk *c = e->head;
        e->head = c->next;
        if (!e->head) e->tail = NULL;
        e->queued--;
        e->busy = 1;
        pthread_mutex_unlock(&e->mu);
        apply(e, c);
        pthread_mutex_lock(&e->mu);
        c->next = e->spare;
        e->spare = c;
        e->busy = 0;
        pthread_cond_broadcast(&e->idle);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

static chunk *take_spare(incr_engine *e) {       /* under mu */
    chunk *c = e->spare;
    if (c) e->spare = c->next;
    else c = xmalloc(sizeof *c);
    c->next = NULL;
    c->len = 0;
    return c;
}

/* Hand the chunk being filled over (if it holds anything) and take another. */
static void hand_over(incr_engine *e) {
    if (!e->cur->len) return;
    pthread_mutex_lock(&e->mu);
    while (e->queued >= IENG_MAX_CHUNKS) pthread_cond_wait(&e->idle, &e->mu);
    if (e->tail) e->tail->next = e->cur;
    else e->head = e->cur;
    e->tail = e->cur;
    e->queued++;
    pthread_cond_signal(&e->work);
    e->cur = take_spare(e);
    pthread_mutex_unlock(&e->mu);
}

static inline int32_t *room(incr_engine *e, uint32_t words) {
    if (e->cur->len + words > CHUNK_WORDS) hand_over(e);
    int32_t *w = e->cur->w + e->cur->len;
    e->cur->len += words;
    return w;
}

incr_engine *ieng_start(gsat *s[2], const int graph[2]) {
    incr_engine *e = xcalloc(1, sizeof *e);
    for (int l = 0; l < 2; l++) { e->s[l] = s[l]; e->graph[l] = graph[l]; }
    for (int l = 0; l < 2; l++)
        if (s[l]) e->nvars = e->tvars = gsat_num_vars(s[l]);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->work, NULL);
    pthread_cond_init(&e->idle, NULL);
    e->cur = take_spare(e);
    int r = quiet_thread_start(&e->tid, engine_main, e);   /* the signals go to the caller's thread */
    if (r == 0) return e;
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->work);
    pthread_cond_destroy(&e->idle);
    free(e->cur);
    free(e);
    return NULL;
}

void ieng_nodes(incr_engine *e, int level, int count) {
    int32_t *w = room(e, 2);
    w[0] = C_NODES | level << 3;
    w[1] = count;
}

void ieng_edge(incr_engine *e, int level, int from, int to, int lit) {
    int32_t *w = room(e, 4);
    w[0] = C_EDGE | level << 3;
    w[1] = from;
    w[2] = to;
    w[3] = lit;
}

int ieng_var(incr_engine *e) {
    *room(e, 1) = C_VAR;
    return ++e->nvars;
}

void ieng_unit(incr_engine *e, int level, int lit) {
    int32_t *w = room(e, 2);
    w[0] = C_UNIT | level << 3;
    w[1] = lit;
}

void ieng_populate(incr_engine *e, void *p, size_t bytes) {
    if (!p || !bytes) return;
    int32_t *w = room(e, 5);
    uint64_t a = (uint64_t)(uintptr_t)p, n = bytes;
    w[0] = C_POP;
    w[1] = (int32_t)(uint32_t)a;
    w[2] = (int32_t)(uint32_t)(a >> 32);
    w[3] = (int32_t)(uint32_t)n;
    w[4] = (int32_t)(uint32_t)(n >> 32);
    hand_over(e);                                     /* now: the caller fills it soon */
}

int ieng_sync(incr_engine *e) {
    hand_over(e);
    pthread_mutex_lock(&e->mu);
    while (e->head || e->busy) pthread_cond_wait(&e->idle, &e->mu);
    int ok = !e->diverged;
    pthread_mutex_unlock(&e->mu);
    return ok;
}

void ieng_stop(incr_engine *e) {
    if (!e) return;
    ieng_sync(e);
    pthread_mutex_lock(&e->mu);
    e->quit = 1;
    pthread_cond_signal(&e->work);
    pthread_mutex_unlock(&e->mu);
    pthread_join(e->tid, NULL);
    while (e->spare) { chunk *c = e->spare; e->spare = c->next; free(c); }
    free(e->cur);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->work);
    pthread_cond_destroy(&e->idle);
    free(e);
}
