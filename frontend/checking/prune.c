/* prune.c — PolySI's constraint pruning (Algorithm 2 with the appendix's
 * corrected RW rule) on the chain reachability summary, to a fixpoint or
 * until another round does not pay.
 *
 * A round recomputes reachability of the known graph, then tests both sides
 * of every remaining constraint: a side one of whose edges closes a cycle
 * with the known graph cannot happen, so the other side becomes known; if
 * both are blocked the history fails the level.  Rounds repeat until one
 * decides nothing, max_rounds were run, or the next one is not expected to
 * pay for renewing the table (next_round_pays).  Pruning is an
 * optimization only: the solver handles whatever is left.
 *
 * Within a round every test reads the reachability of the round's start,
 * so the constraints are split into ranges tested by par_pool_run tasks; their
 * outputs (kept constraints, new edges) are combined in constraint order,
 * up to the first failing constraint: the same result for every thread
 * count. */
#include "frontend/checking/polygraph.h"
#include "par.h"

#include <stdlib.h>

typedef struct prune_out {
    pg_cons_vec keep;
    pg_edge_vec edges;
    uint64_t decided, edges_covering;
    size_t failed_at;            /* index of the first constraint with both sides blocked, or SIZE_MAX */
} prune_out;

typedef struct prune_job {
    const polygraph *g;
    size_t per;                  /* constraints per task */
    prune_out *out;
} prune_job;

/* How far ahead, in constraints, a task asks the cache for the rows its
 * tests read at random (pg_side_prefetch): the round's tests are almost
 * all misses on the table otherwise (pg_reaches was 80 % of its time at
 * 1M SI; with the hints its CPU fell by about a sixth). */
#define PRUNE_AHEAD 8

static void prune_task(void *ctx, size_t task) {
    const prune_job *j = ctx;
    const polygraph *g = j->g;
    prune_out *o = &j->out[task];
    o->failed_at = SIZE_MAX;
    dep_edge_vec scratch; vec_init(scratch);
    size_t end = (task + 1) * j->per < g->cons.len ? (task + 1) * j->per : g->cons.len;
    for (size_t i = task * j->per; i < end; i++) {
        if (i + PRUNE_AHEAD < end) pg_side_prefetch(g, g->cons.data[i + PRUNE_AHEAD].u, g->cons.data[i + PRUNE_AHEAD].v);
        pg_cons c = g->cons.data[i];
        int buv = pg_side_blocked(g, c.u, c.v), bvu = pg_side_blocked(g, c.v, c.u);
        if (buv && bvu) { o->failed_at = i; break; }
        if (!buv && !bvu) { vec_push(o->keep, c); continue; }
        o->decided++;
        if (bvu) o->edges_covering += pg_side_edges(g, c.u, c.v, &scratch, &o->edges);
        else o->edges_covering += pg_side_edges(g, c.v, c.u, &scratch, &o->edges);
    }
    vec_free(scratch);
}

/* One round over all constraints; returns 0 when a pair has both sides
 * blocked.  *decided: how many constraints it decided. */
static int prune_round(polygraph *g, size_t *decided) {
    unsigned threads = pg_threads_for(g, g->cons.len);
    size_t n = g->cons.len, ntasks = threads > 1 ? 8 * (size_t)threads : 1;
    if (ntasks > n) ntasks = n ? n : 1;
    prune_job job = { g, (n + ntasks - 1) / ntasks, xcalloc(ntasks, sizeof(prune_out)) };
    if (!job.per) job.per = 1;
    par_pool_run_prio(threads > 1 ? g->pool : NULL, g->prio, ntasks, prune_task, &job);
    size_t keep = 0;
    int ok = 1;
    *decided = 0;
    for (size_t t = 0; t < ntasks; t++) {
        prune_out *o = &job.out[t];
        if (ok) {
            /* kept constraints move down in place (reading ahead of writing) */
            vec_foreach(const pg_cons, c, o->keep) g->cons.data[keep++] = *c;
            pg_known_reserve(g, o->edges.len);
            vec_foreach(const pg_edge, e, o->edges) g->known.data[g->known.len++] = *e;
            g->edges_covering += o->edges_covering;
            *decided += o->decided;
            if (o->failed_at != SIZE_MAX) {
                ok = 0;
                snprintf(g->fail_reason, sizeof g->fail_reason,
                         "key %u: both orders of two writers close a cycle (pruning round %u)",
                         pg_unit_key(g->ix, g->cons.data[o->failed_at].u), g->prune_rounds);
                g->fail_stage = "pruning";
            }
        }
        vec_free(o->keep); vec_free(o->edges);
    }
    free(job.out);
    if (ok) g->cons.len = keep;
    return ok;
}

pg_prune_stop_id pg_prune_stop = PG_PRUNE_STOP_AUTO;

/* Whether another round is worth renewing the table for.  A round's yield
 * falls fast (1M SI: 353k, 28k, 2.9k, 320, 29 ... constraints decided in
 * rounds 1, 2, 3 ...), while a renewal that is not incremental costs a
 * full table (0.8 s at 1M with a core to itself, every round the same); a constraint left
 * to the solver costs it a variable and its guarded edges, a few
 * microseconds, about PRUNE_ROWS_PER_CONS rows of a table.  So round r + 1
 * is run when its expected yield, the last round's count times the
 * fraction it decided, pays for the rows the renewal would compute.
 * Tables below PRUNE_SMALL_TABLE entries (tens of milliseconds) are always
 * renewed: small histories are pruned to the fixpoint as before.  Only
 * counts decide, never clocks: the same for every run and thread count. */
#define PRUNE_ROWS_PER_CONS 5
#define PRUNE_SMALL_TABLE ((uint64_t)1 << 22)
static int next_round_pays(const polygraph *g, size_t decided, size_t cons_before) {
    if (pg_prune_stop == PG_PRUNE_STOP_NEVER) return 1;
    uint64_t rows = pg_reach_renewal_rows(g), width = g->num_chains + 2;
    if (pg_prune_stop == PG_PRUNE_STOP_AUTO && pg_reach_rows(g) * width < PRUNE_SMALL_TABLE) return 1;
    if (!rows) return 0;                       /* no new edge: a round would decide nothing */
    double expect = (double)decided * (double)decided / (double)(cons_before ? cons_before : 1);
    return expect * PRUNE_ROWS_PER_CONS >= (double)rows;
}

/* Whether anything after pruning reads the table: the candidates of
 * ambiguous reads and views (choice.h: a history with ambiguous reads,
 * or rr's predicate reads, which may have views), or the caller
 * (g->reach_keep). */
static int table_wanted_after(const polygraph *g) {
    return g->reach_keep || g->ix->h->num_amb || g->prw;
}

static int prune_rounds(polygraph *g, int max_rounds) {
    size_t decided = 0, cons_before = 0;
    for (;;) {
        /* the last table renewal is skipped when no round follows: only
         * the order (and whether there is one) is needed then, and the
         * table, dead, goes first */
        int more = g->cons.len && (int)g->prune_rounds < max_rounds &&
                   (g->prune_rounds == 0 || next_round_pays(g, decided, cons_before));
        if (!more && !table_wanted_after(g)) pg_reach_drop_table(g);
        if (!(more ? pg_reach(g) : pg_order(g))) {
            if (g->prune_rounds == 0)
                snprintf(g->fail_reason, sizeof g->fail_reason,
                         "the known graph plus the writer orders decided by reachability has a cycle");
            else
                snprintf(g->fail_reason, sizeof g->fail_reason, "the known graph has a cycle after %u pruning rounds",
                         g->prune_rounds);
            g->fail_stage = "pruning";
            return 0;
        }
        if (!more) return 1;
        g->prune_rounds++;
        cons_before = g->cons.len;
        pg_reach_keep_scratch(g, 0);           /* the round reads no adjacency: it goes (45 MB at 1M SI), */
        pg_reach_keep_scratch(g, 1);           /* the next call's arrays are fresh and kept */
        if (!prune_round(g, &decided)) return 0;
        g->cons_pruned += decided;
        if (!decided) return 1;
    }
}

/* The last order writes over the arrays of the renewal before it
 * (pg_reach_keep_scratch); the rounds hold none (each renewal's are
 * fresh): the round after a renewal is the stage's peak of memory. */
int pg_prune(polygraph *g, int max_rounds) {
    pg_reach_keep_scratch(g, 1);
    int ok = prune_rounds(g, max_rounds);
    pg_reach_keep_scratch(g, 0);
    return ok;
}
