/* interpret_explain.c — why a version order fact behind a WW or RW edge is
 * forced: the cycle its opposite would close, each of whose edges holds
 * without the fact (interpret_internal.h).
 *
 * A fact "a's version of key precedes b's" is explained by a violating
 * cycle that holds once b's version precedes a's.  Its edges are taken
 * from the fact graph (SO, WR and read-modify-write links: the history's
 * own facts), from the opposite order itself (WW b -> a, RW from b's
 * readers to a), from read-modify-write chains (other readers of a
 * version overwritten by a read-modify-write), and from the checker's
 * forced edges.  A forced edge is not taken on trust: the fact it rests
 * on must be a fact of the history (initial version, read-modify-write,
 * a list read) or be proven first, the same way, without the fact being
 * explained or any fact whose proof is under way — so no explanation
 * assumes what it proves, and the facts proven first are listed in the
 * order proven (the anomaly's facts).  A forced edge whose fact cannot be
 * proven so is left out and the search is run again without it.
 *
 * Under a choice of writers (ictx.amb: a read of a repeated value with
 * several possible writers has the one the check chose), a proof is first
 * searched without any edge that rests on such a read (its WR edge, the RW
 * edges from it, a read-modify-write link through it, a fact proven so):
 * one found holds whichever writer each read saw.  Only when none is found
 * within the bounds is the search run again with them (the report then says
 * the proof is given the writers assumed: report_assumed.h). */
#include "fatal.h"
#include "frontend/reports/interpret_internal.h"
#include "frontend/reports/report_assumed.h"

#include "frontend/history/predicate.h"

#include <stdlib.h>
#include <string.h>

#include "par.h"

/* Search bounds: facts proven inside a proof (depth), searches of the fact
 * graph for one explained edge, forced edges set aside per search. */
#define PROOF_DEPTH 3
#define PROOF_SEARCHES 12
#define PROOF_BANNED 16
/* Searches of a fact graph without assumed writers (ictx.amb) before the
 * search with them: a proof from the history alone is short or absent. */
#define STRICT_SEARCHES 4

/* Does t's external read of key, resp. e with basis bs (may be NULL), rest
 * on a writer the choice assumes (ictx.amb)?  The report's own test
 * (report_assumed.h), so a proof found without them is one the report
 * calls forced. */
static int read_assumed(const ictx *c, uint32_t t, uint32_t key) {
    return c->amb && report_assumed_read(c->amb, t, key) != NONE;
}

static int edge_assumed(const ictx *c, const dep_edge *e, const edge_basis *bs) {
    return c->amb && report_edge_assumed(c->amb, e, bs);
}

int ictx_arc_assumed(const ictx *c, uint32_t u, uint32_t j) {
    dep_edge d;
    edge_basis rmw = { BASIS_RMW, 0, 0, NONE };
    return c->amb && ictx_arc_edge(c, u, j, &d) &&
           (rmw.after = d.to, edge_assumed(c, &d, d.kind == DEP_WW && c->cls[j] == CLS_KNOWN ? &rmw : NULL));
}

typedef struct xedge { uint32_t x, y; dep_edge e; edge_basis basis; } xedge;
typedef VEC(xedge) xedge_vec;

static int cmp_xedge(const void *a, const void *b) {
    const xedge *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

static void add_x(const ictx *c, xedge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to, uint8_t basis,
                  uint32_t before, uint32_t after) {
    if (from == to) return;
    xedge xe;
    xe.e = (dep_edge){ from, to, key, (uint8_t)kind };
    xe.basis = (edge_basis){ basis, before, after, NONE };
    interp_node_pair(c->si, &xe.e, &xe.x, &xe.y);
    vec_push(*v, xe);
}

/* The edges that hold once b's version of key precedes a's, beside the
 * fact graph's. */
static void opposite_extras(const ictx *c, uint32_t a, uint32_t b, uint32_t key, xedge_vec *ex) {
    const history *h = c->h;
    add_x(c, ex, DEP_WW, key, b, a, BASIS_ASSUMED, b, a);
    vec_u32 rd; vec_init(rd);
    uint32_t gb = ictx_vidx(c, key, b);
    if (gb != NONE) ictx_readers(c, key, gb, &rd);
    vec_foreach(const uint32_t, t, rd) add_x(c, ex, DEP_RW, key, *t, a, BASIS_ASSUMED, b, a);
    /* b's read-modify-write ancestors s: every other reader of s's version
     * read one older than s's overwriter v (whatever the order) */
    uint32_t v = b;
    for (int steps = 0; steps < 64 && v != 0; steps++) {
        uint32_t s = ictx_read_src(c, v, key);
        if (s == NONE || history_txn_final_write(h, v, key) == NONE) break;
        uint32_t gs = ictx_vidx(c, key, s);
        if (gs == NONE) break;
        vec_clear(rd);
        ictx_readers(c, key, gs, &rd);
        vec_foreach(const uint32_t, t, rd) if (*t != v) add_x(c, ex, DEP_RW, key, *t, v, BASIS_RMW, s, v);
        v = s;
    }
    vec_free(rd);
    if (ex->len) qsort(ex->data, ex->len, sizeof *ex->data, cmp_xedge);
}

static int is_banned(const vec_u32 *banned, uint32_t j) {
    for (size_t i = 0; i < banned->len; i++) if (banned->data[i] == j) return 1;
    return 0;
}

/* Origin of an edge of a found cycle: an arc of the fact graph (its
 * index; for an RW edge derived from a WW arc, that arc's), or the extra
 * edge i (ORIGIN_EXTRA - i). */
#define ORIGIN_EXTRA (NONE - 1)
/* Origin of an RW edge derived from a fact of session order or from the
 * initial version rather than an arc (see derive_rw); banned as a whole
 * when one cannot be proven (one from the initial version always can). */
#define ORIGIN_SESSION NONE
/* How far a session is walked for versions later than its writer's. */
#define SESSION_WALK 16
/* How many of a version's writer's WR and SO arcs are followed for later versions. */
#define FOLLOW_ARCS 64
/* How many writers of a key a reader of its initial version gets RW edges to. */
#define INIT_WRITERS 64
/* Transactions of more ops than this derive no RW edges in a search (each
 * visit compares their ops pairwise). */
#define DERIVE_MAX_OPS 64
/* Nor do nodes after the first DERIVE_NODES a search visits: the derived
 * edges serve short cycles, and each visit costs a lookup a read. */
#define DERIVE_NODES 4096

/* The search's state: per node its parent, how it was reached (kind: 0 an
 * arc, 1 an extra edge, 2 a derived RW edge; id: the arc, extra or derived
 * edge), the queue, and the derived edges with the WW arcs they rest on. */
typedef struct osearch {
    uint32_t *par, *id, *queue;
    uint8_t *how;
    vec_u32 stamped;
    dep_edge_vec dv;
    vec_u32 dv_arc;
    /* a search ahead (pre_search): it gives up, cancelled set, once a
     * class below its own (cls) has found a cycle (*low: the lowest so far) */
    _Atomic int *low;
    int cls, cancelled;
    int strict;                  /* no arc or derived edge resting on an assumed writer (ictx.amb) */
} osearch;

static void osearch_init(osearch *s, uint32_t n) {
    s->par = xmalloc(((size_t)n + 1) * sizeof *s->par); s->id = xmalloc(((size_t)n + 1) * sizeof *s->id);
    s->queue = xmalloc(((size_t)n + 1) * sizeof *s->queue); s->how = xmalloc((size_t)n + 1);
    vec_init(s->stamped); vec_init(s->dv); vec_init(s->dv_arc);
    s->low = NULL; s->cls = 0; s->cancelled = 0; s->strict = 0;
    for (uint32_t u = 0; u < n; u++) s->par[u] = NONE;
}

static void osearch_free(osearch *s) {
    free(s->par); free(s->id); free(s->queue); free(s->how);
    vec_free(s->stamped); vec_free(s->dv); vec_free(s->dv_arc);
}

static void reach(osearch *s, uint32_t *qt, uint32_t u, uint32_t w, uint8_t how, uint32_t id) {
    s->par[w] = u; s->how[w] = how; s->id[w] = id; s->queue[(*qt)++] = w; vec_push(s->stamped, w);
}

/* Writers whose version of key the session of t shows to be later than
 * t's (t writes key): the versions read by t's later transactions, up to
 * and including the next writer of key in the session (SESSION_WALK
 * transactions at most).  Each such fact is proven by a two-edge cycle
 * with the session order.  Returns how many went to out (at most max). */
static uint32_t session_later_versions(const ictx *c, uint32_t t, uint32_t key, uint32_t *out, uint32_t max) {
    const history *h = c->h;
    uint32_t n = 0;
    if (t == 0 || history_txn_final_write(h, t, key) == NONE) return 0;
    uint32_t sess = h->txns[t].session;
    for (uint32_t u = t + 1, i = 0; u < h->num_txns && i < SESSION_WALK && n < max && h->txns[u].session == sess; u++, i++) {
        if (!c->part[u]) continue;
        if (history_txn_final_write(h, u, key) != NONE) { out[n++] = u; break; }
        uint32_t y = ictx_read_src(c, u, key);
        if (y != NONE && y != 0 && y != t) out[n++] = y;
    }
    return n;
}

/* Reach y's node by the RW edge r -> y on key, derived from origin, if it leaves u. */
static void push_derived(const ictx *c, osearch *s, uint32_t *qt, uint32_t u, uint32_t r, uint32_t to, uint32_t k,
                         uint32_t origin) {
    dep_edge rw = { r, to, k, DEP_RW };
    uint32_t x, y;
    interp_node_pair(c->si, &rw, &x, &y);
    if (x != u || s->par[y] != NONE) return;
    vec_push(s->dv, rw); vec_push(s->dv_arc, origin);
    reach(s, qt, u, y, 2, (uint32_t)s->dv.len - 1);
}

static void derive_rw(const ictx *c, osearch *s, uint32_t *qt, uint32_t u, int maxcls, const vec_u32 *banned) {
    const history *h = c->h;
    uint32_t r = dg_node_txn(c->si, u);
    if (r == 0 || r >= h->num_txns || !c->part[r] || (c->si && u != dg_start(r))) return;
    const history_txn *tx = &h->txns[r];
    if (tx->num_ops > DERIVE_MAX_OPS) return;
    for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
        uint32_t k = h->op_key[op];
        if (!history_op_is_read(h, op) || ictx_ext_read(c, r, k, NULL) != op) continue;
        if (s->strict && read_assumed(c, r, k)) continue;
        uint32_t src = ictx_read_src(c, r, k), xs, ys;
        if (src == NONE) continue;
        if (src == 0) {                 /* the initial version: every writer's is later (a fact needing no proof) */
            for (uint32_t i = h->key_write_start[k], n = 0; i < h->key_write_start[k + 1] && n < INIT_WRITERS; i++) {
                uint32_t t = history_op_txn(h, h->key_writes[i]);
                if (t == 0 || t == r || !c->part[t] || history_txn_final_write(h, t, k) != h->key_writes[i]) continue;
                n++;
                push_derived(c, s, qt, u, r, t, k, ORIGIN_SESSION);
            }
            continue;
        }
        dg_dep_nodes(c->si, DEP_WW, src, src, &xs, &ys);
        int follow = !is_banned(banned, ORIGIN_SESSION);
        for (uint32_t j = c->g.start[xs], seen = 0; j < c->g.start[xs + 1]; j++) {
            dep_edge d;
            if (!ictx_arc_within(c, j, maxcls) || !ictx_arc_edge(c, xs, j, &d) || d.to == r) continue;
            if (d.kind == DEP_WW && d.key == k && !is_banned(banned, j)) push_derived(c, s, qt, u, r, d.to, k, j);
            /* a reader of src's writes, or its session successor, that writes k: its version is later
             * (a fact to be proven: the opposite closes a cycle with that edge) */
            else if (follow && (d.kind == DEP_WR || d.kind == DEP_SO) && seen++ < FOLLOW_ARCS &&
                     history_txn_final_write(h, d.to, k) != NONE)
                push_derived(c, s, qt, u, r, d.to, k, ORIGIN_SESSION);
        }
        if (is_banned(banned, ORIGIN_SESSION)) continue;
        uint32_t later[SESSION_WALK], nl = session_later_versions(c, src, k, later, SESSION_WALK);
        for (uint32_t i = 0; i < nl; i++)
            if (later[i] != r) push_derived(c, s, qt, u, r, later[i], k, ORIGIN_SESSION);
    }
}

/* BFS from y over the arcs, derived RW edges and extras until the source
 * of an extra edge x -> y (its index; NONE: none). */
static uint32_t search_from(const ictx *c, osearch *s, const xedge_vec *exv, uint32_t y, int maxcls, const vec_u32 *banned) {
    const xedge_vec ex = *exv;
    const dg_graph *g = &c->g;
    for (size_t i = 0; i < s->stamped.len; i++) s->par[s->stamped.data[i]] = NONE;
    vec_clear(s->stamped); vec_clear(s->dv); vec_clear(s->dv_arc);
    uint32_t qh = 0, qt = 0;
    reach(s, &qt, y, y, 0, NONE);
    while (qh < qt) {
        /* the queue's next nodes asked for ahead (the BFS's order is its
         * own): their offsets, their arcs, then their arcs' heads' states */
        if (qh + 12 < qt) HISTORY_PREFETCH(&g->start[s->queue[qh + 12]]);
        if (qh + 6 < qt) {
            uint32_t v = s->queue[qh + 6];
            HISTORY_PREFETCH(&g->adj[g->start[v]]); HISTORY_PREFETCH(&c->cls[g->start[v]]);
        }
        if (qh + 2 < qt)
            for (uint32_t v = s->queue[qh + 2], j = g->start[v]; j < g->start[v + 1]; j++) HISTORY_PREFETCH(&s->par[g->adj[j]]);
        if (s->low && (qh & 1023) == 1023 && atomic_load_explicit(s->low, memory_order_relaxed) < s->cls) {
            s->cancelled = 1;
            return NONE;
        }
        uint32_t u = s->queue[qh++];
        size_t lo = 0, hi = ex.len;
        while (lo < hi) { size_t mid = (lo + hi) / 2; if (ex.data[mid].x < u) lo = mid + 1; else hi = mid; }
        for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++)
            if (ex.data[j].y == y) { s->id[y] = u; return (uint32_t)j; }     /* the closing extra; id[y]: where from */
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t w = g->adj[j];
            if (s->par[w] != NONE || !ictx_arc_within(c, j, maxcls)) continue;
            if (c->cls[j] != CLS_KNOWN && is_banned(banned, j)) continue;
            if (s->strict && ictx_arc_assumed(c, u, j)) continue;
            reach(s, &qt, u, w, 0, j);
        }
        if (qh <= DERIVE_NODES) derive_rw(c, s, &qt, u, maxcls, banned);
        for (size_t j = lo; j < ex.len && ex.data[j].x == u; j++)
            if (s->par[ex.data[j].y] == NONE) reach(s, &qt, u, ex.data[j].y, 1, (uint32_t)j);
    }
    return NONE;
}

/* The shortest violating cycle through an extra edge, over the fact graph's
 * arcs of class <= maxcls not in banned, the RW edges they derive and the
 * extras; the cycle in alt (starting with the opposite WW edge b -> a when
 * it uses it), each edge's origin in org.  0 if none. */
static int opposite_cycle(const ictx *c, osearch *sp, int maxcls, const xedge_vec *exv, const vec_u32 *banned, uint32_t a,
                          uint32_t b, uint32_t key, dep_edge_vec *alt, vec_u32 *org) {
    const xedge_vec ex = *exv;
    osearch *s = sp;
    int found = 0;
    size_t best_len = SIZE_MAX;
    dep_edge_vec cyc; vec_init(cyc);
    vec_u32 corg; vec_init(corg);
    for (size_t ti = 0; ti < ex.len && best_len > 2; ti++) {
        uint32_t y = ex.data[ti].y;
        int dup = 0;
        for (size_t tj = 0; tj < ti; tj++) if (ex.data[tj].y == y) { dup = 1; break; }
        if (dup) continue;
        uint32_t hit_edge = search_from(c, s, exv, y, maxcls, banned);
        if (s->cancelled) break;
        if (hit_edge == NONE) continue;
        /* path y ~> hit (backwards), then the extra edge hit -> y */
        vec_clear(cyc); vec_clear(corg);
        for (uint32_t w = s->id[y]; w != y; w = s->par[w]) {
            dep_edge d;
            if (s->how[w] == 1) { vec_push(cyc, ex.data[s->id[w]].e); vec_push(corg, ORIGIN_EXTRA - s->id[w]); }
            else if (s->how[w] == 2) { vec_push(cyc, s->dv.data[s->id[w]]); vec_push(corg, s->dv_arc.data[s->id[w]]); }
            else if (ictx_arc_edge(c, s->par[w], s->id[w], &d)) { vec_push(cyc, d); vec_push(corg, s->id[w]); }  /* else a fixed arc */
        }
        if (cyc.len + 1 >= best_len) continue;
        best_len = cyc.len + 1;
        vec_clear(*alt); vec_clear(*org);
        vec_push(*alt, ex.data[hit_edge].e); vec_push(*org, ORIGIN_EXTRA - hit_edge);
        for (size_t i = cyc.len; i-- > 0;) { vec_push(*alt, cyc.data[i]); vec_push(*org, corg.data[i]); }
        /* start at the opposite WW edge b -> a when the cycle uses it */
        for (size_t r = 1; r < alt->len; r++) {
            const dep_edge *e = &alt->data[r];
            if (e->kind != DEP_WW || e->from != b || e->to != a || e->key != key) continue;
            vec_clear(cyc); vec_clear(corg);
            for (size_t i = 0; i < alt->len; i++) { vec_push(cyc, alt->data[(r + i) % alt->len]); vec_push(corg, org->data[(r + i) % alt->len]); }
            vec_clear(*alt); vec_clear(*org);
            for (size_t i = 0; i < cyc.len; i++) { vec_push(*alt, cyc.data[i]); vec_push(*org, corg.data[i]); }
            break;
        }
        found = 1;
    }
    vec_free(cyc); vec_free(corg);
    return found;
}

/* ---- proofs ---------------------------------------------------------------- */

/* Facts being proven (innermost last), the facts proven so far, and the searches left. */
typedef struct iproof {
    VEC(report_fact) *facts;
    osearch *search;             /* the searches' state, one for all of an edge's (every par NONE between them) */
    dep_edge stack[PROOF_DEPTH + 1];
    int depth;
    int searches;
    int consulted;               /* facts was looked up (ictx_explain_edge's answer) */
    int strict;                  /* nothing resting on an assumed writer (ictx.amb), facts proven inside too */
} iproof;

/* Does proof w rest on an assumed writer: an edge of its cycle, or a fact
 * it cites (facts below lim)? */
static int why_assumed(const ictx *c, const iproof *pf, const edge_why *w, size_t lim) {
    return c->amb && report_why_assumed_in(c->amb, pf->facts->data, pf->facts->len, w, lim);
}

static int same_fact(const dep_edge *f, uint32_t x, uint32_t y, uint32_t key) {
    return f->from == x && f->to == y && f->key == key;
}

static int prove(const ictx *c, iproof *pf, uint32_t a, uint32_t b, uint32_t key, edge_why *w);

/* Did y read x's version of key and write key (own-write order: x's version precedes y's)? */
static int is_rmw(const ictx *c, uint32_t x, uint32_t y, uint32_t key) {
    return ictx_read_src(c, y, key) == x && history_txn_final_write(c->h, y, key) != NONE;
}

/* How a fact x <key y behind an edge of a cycle for "a before b" holds, in
 * *bs: a fact of the history, or one proven (now, if need be).  0: it is a
 * fact under way or cannot be proven within the bounds. */
static int basis_of(const ictx *c, iproof *pf, uint32_t x, uint32_t y, uint32_t key, edge_basis *bs) {
    *bs = (edge_basis){ BASIS_PROVEN, x, y, NONE };
    if (x == NONE || y == NONE || x == y) return 0;
    /* the history's own facts first: they need no proof, so are never circular */
    if (x == 0) { bs->kind = BASIS_INIT; return 1; }
    if (is_rmw(c, x, y, key) && !(pf->strict && read_assumed(c, y, key))) { bs->kind = BASIS_RMW; return 1; }
    uint32_t lop = ictx_list_shows(c, key, x, y);
    if (lop != NONE) { bs->kind = BASIS_LISTED; bs->ref = lop; return 1; }
    for (int i = 0; i < pf->depth; i++) if (same_fact(&pf->stack[i], x, y, key)) return 0;
    pf->consulted = 1;                           /* from here on the outcome depends on the facts proven before */
    for (size_t i = 0; i < pf->facts->len; i++)
        if (same_fact(&pf->facts->data[i].fact, x, y, key)) {
            if (pf->strict && why_assumed(c, pf, &pf->facts->data[i].why, i)) return 0;
            bs->ref = (uint32_t)i;
            return 1;
        }
    if (pf->depth >= PROOF_DEPTH) return 0;
    report_fact f;
    f.fact = (dep_edge){ x, y, key, DEP_WW };
    if (!prove(c, pf, x, y, key, &f.why)) { edge_why_free(&f.why); return 0; }
    bs->ref = (uint32_t)pf->facts->len;
    vec_push(*pf->facts, f);
    return 1;
}

/* The bases of the edges of a found cycle, into w->basis; 0 with the arc to
 * set aside in *bad when one rests on a fact that cannot be used. */
static int cycle_bases(const ictx *c, iproof *pf, const xedge_vec *ex, const vec_u32 *org, edge_why *w, uint32_t *bad) {
    vec_clear(w->basis);
    for (size_t i = 0; i < w->alt.len; i++) {
        const dep_edge *e = &w->alt.data[i];
        uint32_t o = org->data[i];
        edge_basis bs = { BASIS_OBSERVED, NONE, NONE, NONE };
        if (o != ORIGIN_SESSION && o > ORIGIN_EXTRA - ex->len && o <= ORIGIN_EXTRA) bs = ex->data[ORIGIN_EXTRA - o].basis;
        else if (e->kind == DEP_WW && c->cls[o] == CLS_KNOWN) bs = (edge_basis){ BASIS_RMW, e->from, e->to, NONE };
        else if (e->kind == DEP_WW || e->kind == DEP_RW) {
            uint32_t x = e->kind == DEP_WW ? e->from : ictx_read_src(c, e->from, e->key);
            if (!basis_of(c, pf, x, e->to, e->key, &bs)) { *bad = o; return 0; }
        }
        vec_push(w->basis, bs);
    }
    return 1;
}

/* The first search of each class of an edge's proof (prove, below), begun
 * at once on the pool: class 0's on the search state of the proof, the
 * others each on a state of its own, which gives up once a class below has
 * found a cycle (most proofs end at class 0).  A search with no set-aside
 * edges is a function of the context alone (holds[] is settled the same on
 * any thread), so prove takes a finished one as its own first search of that
 * class: the same cycle, the same count of searches.  On a pool of one
 * thread, or a graph of more than PRE_MAX_NODES nodes, nothing is searched
 * ahead: a state is 13 bytes a node, and with two edges explained at once
 * (interpret.c) up to two such states are alive beside the edges' own
 * (52 MB each at the cap: 4M transactions under SER, 2M under SI).  Only the edge's own proof does (not the
 * facts proven inside it): it is the serial part at 1M transactions, an edge
 * none of whose three searches finds a cycle (0.3 s). */
#define PRE_MAX_NODES (4u << 20)
_Atomic uint64_t interpret_pre_taken;
typedef struct pre_search {
    const ictx *c;
    osearch *s0;                 /* the proof's own state, for class 0 */
    const xedge_vec *ex;
    uint32_t a, b, key;
    int ncls;
    _Atomic int low;             /* the lowest class that found a cycle (ncls: none yet) */
    int done[CLS_FORCED + 1], found[CLS_FORCED + 1];
    dep_edge_vec alt[CLS_FORCED + 1];
    vec_u32 org[CLS_FORCED + 1];
} pre_search;

#ifdef GSAT_DEBUG
/* Debug builds: the search taken from ahead is the one prove would run now
 * (the same answer, cycle and origins), whatever the threads did. */
static void pre_same(const ictx *c, osearch *s, int cls, const xedge_vec *ex, const vec_u32 *banned, uint32_t a,
                     uint32_t b, uint32_t key, int found, const dep_edge_vec *alt, const vec_u32 *org) {
    dep_edge_vec a2; vec_u32 o2; vec_init(a2); vec_init(o2);
    int f2 = opposite_cycle(c, s, cls, ex, banned, a, b, key, &a2, &o2);
    int same = f2 == found && (!found || (a2.len == alt->len && o2.len == org->len &&
                                          !memcmp(o2.data, org->data, o2.len * sizeof *o2.data)));
    for (size_t i = 0; same && found && i < a2.len; i++)
        same = a2.data[i].from == alt->data[i].from && a2.data[i].to == alt->data[i].to &&
               a2.data[i].key == alt->data[i].key && a2.data[i].kind == alt->data[i].kind;
    if (!same) internal_error("isocheck", "interpretation: a search of class %d taken from ahead differs", cls);
    vec_free(a2); vec_free(o2);
}
#endif

static void pre_task(void *ctx, size_t i) {
    pre_search *p = ctx;
    int cls = (int)i;
    if (atomic_load_explicit(&p->low, memory_order_relaxed) < cls) return;   /* not needed first */
    osearch own, *s = p->s0;
    if (cls) { osearch_init(&own, p->c->g.n); own.low = &p->low; own.cls = cls; s = &own; }
    vec_u32 none; vec_init(none);
    int found = opposite_cycle(p->c, s, cls, p->ex, &none, p->a, p->b, p->key, &p->alt[cls], &p->org[cls]);
    if (!s->cancelled) {
        p->done[cls] = 1; p->found[cls] = found;
        int low = atomic_load_explicit(&p->low, memory_order_relaxed);
        while (found && cls < low && !atomic_compare_exchange_weak_explicit(&p->low, &low, cls, memory_order_relaxed,
                                                                             memory_order_relaxed)) {}
    }
    if (cls) osearch_free(&own);
}

/* The search of one phase of prove (below): every class in turn, each
 * search again without the arc a rejected cycle's basis could not use. */
static int prove_classes(const ictx *c, iproof *pf, const pre_search *pre, const xedge_vec *ex, int top, uint32_t a,
                         uint32_t b, uint32_t key, edge_why *w) {
    vec_u32 banned, org; vec_init(banned); vec_init(org);
    int ok = 0;
    for (int cls = CLS_KNOWN; cls <= top && !ok; cls++) {
        vec_clear(banned);
        while (!ok && pf->searches > 0 && banned.len < PROOF_BANNED) {
            pf->searches--;
            int found;
            if (!banned.len && cls < pre->ncls && pre->done[cls]) {      /* searched ahead: that search's answer */
                found = pre->found[cls];
                if (cls > CLS_KNOWN) atomic_fetch_add_explicit(&interpret_pre_taken, 1, memory_order_relaxed);
                if (found) {
                    vec_clear(w->alt); vec_clear(org);
                    vec_foreach(const dep_edge, e, pre->alt[cls]) vec_push(w->alt, *e);
                    vec_foreach(const uint32_t, o, pre->org[cls]) vec_push(org, *o);
                }
#ifdef GSAT_DEBUG
                pre_same(c, pf->search, cls, ex, &banned, a, b, key, found, &w->alt, &org);
#endif
            } else {
                pf->search->strict = pf->strict;
                found = opposite_cycle(c, pf->search, cls, ex, &banned, a, b, key, &w->alt, &org);
            }
            if (!found) break;
            size_t mark = pf->facts->len;
            uint32_t bad = NONE;
            if (cycle_bases(c, pf, ex, &org, w, &bad)) { ok = 1; break; }
            /* facts proven for a cycle not taken are dropped: the list holds only what is used */
            while (pf->facts->len > mark) edge_why_free(&pf->facts->data[--pf->facts->len].why);
            vec_push(banned, bad);
        }
    }
    vec_free(banned); vec_free(org);
    return ok;
}

/* Prove "a's version of key precedes b's" by a cycle its opposite closes
 * (first with the history's facts alone, then with the forced edges that
 * hold under the version order, then with all), into w (WHY_FORCED).
 * Under a choice of writers (ictx.amb), first all that without anything
 * resting on an assumed writer, on a budget of searches of its own. */
static int prove(const ictx *c, iproof *pf, uint32_t a, uint32_t b, uint32_t key, edge_why *w) {
    memset(w, 0, sizeof *w);
    vec_init(w->alt); vec_init(w->basis);
    w->status = WHY_FORCED;
    w->before = a; w->after = b; w->read_op = NONE;
    pf->stack[pf->depth++] = (dep_edge){ a, b, key, DEP_WW };
    xedge_vec ex; vec_init(ex);
    opposite_extras(c, a, b, key, &ex);
    int ok = 0, top = c->has_forced ? CLS_FORCED : CLS_KNOWN;
    pre_search pre;
    memset(&pre, 0, sizeof pre);
    if (pf->depth == 1 && top > CLS_KNOWN && par_pool_threads(c->pool) >= 2 && c->g.n <= PRE_MAX_NODES && !c->amb) {
        pre = (pre_search){ .c = c, .s0 = pf->search, .ex = &ex, .a = a, .b = b, .key = key, .ncls = top + 1 };
        atomic_init(&pre.low, top + 1);
        for (int i = 0; i <= top; i++) { vec_init(pre.alt[i]); vec_init(pre.org[i]); }
        par_pool_run_prio(c->pool, c->prio, (size_t)top + 1, pre_task, &pre);
    }
    if (c->amb && !pf->strict) {                  /* first without the assumed writers */
        xedge_vec sx; vec_init(sx);                /* the extras that rest on none */
        vec_foreach(const xedge, x, ex) if (!edge_assumed(c, &x->e, &x->basis)) vec_push(sx, *x);
        int searches = pf->searches, cap = searches < STRICT_SEARCHES ? searches : STRICT_SEARCHES;
        pf->searches = cap;
        pf->strict = 1;
        ok = prove_classes(c, pf, &pre, &sx, top, a, b, key, w);
        pf->strict = 0;
        vec_free(sx);
        pf->searches = ok ? searches - (cap - pf->searches) : searches;
    } else if (pf->strict) {                       /* inside a proof without them: the extras that rest on none */
        size_t n = 0;
        vec_foreach(const xedge, x, ex) if (!edge_assumed(c, &x->e, &x->basis)) ex.data[n++] = *x;
        ex.len = n;
    }
    if (!ok) ok = prove_classes(c, pf, &pre, &ex, top, a, b, key, w);
    if (!ok) { vec_clear(w->alt); vec_clear(w->basis); }
    for (int i = 0; i < pre.ncls; i++) { vec_free(pre.alt[i]); vec_free(pre.org[i]); }
    vec_free(ex);
    pf->depth--;
    return ok;
}

/* Is e one of the checker's forced edges (one in the fact graph)?  A scan:
 * asked only for a fact no cycle explains, and no dearer than one search of
 * the fact graph, where a sorted copy would cost 16 bytes an edge. */
static int is_forced(const ictx *c, const dep_edge *e) {
    for (size_t i = 0; i < c->nforced; i++) {
        const dep_edge *f = &c->forced[i];
        if (f->from == e->from && f->to == e->to && f->key == e->key && f->kind == e->kind && interp_forced_in_facts(c->h, f))
            return 1;
    }
    return 0;
}

/* rr: e is an edge of a predicate read's own view of its key (doc/levels.md
 * "rr"; the re-check's vm_views.c), not of its transaction's read: a WR
 * edge from another writer than the read's, an RW edge to a version not
 * after the one read (under the order found). */
static int view_edge(const ictx *c, const dep_edge *e) {
    if (e->kind != DEP_WR && e->kind != DEP_RW) return 0;
    uint32_t reader = e->kind == DEP_WR ? e->to : e->from;
    if (!preds_view_read(c->h->preds, reader, e->key, NULL)) return 0;
    uint32_t src = ictx_read_src(c, reader, e->key);
    if (e->kind == DEP_WR) return src != e->from;
    if (src == NONE) return 0;
    uint32_t gs = ictx_vidx(c, e->key, src), gb = ictx_vidx(c, e->key, e->to);
    return gs != NONE && gb != NONE && gb <= gs;
}

/* "b read a's version of e's key before overwriting it": the two-edge cycle its opposite closes. */
static void rmw_why(const dep_edge *e, uint32_t a, uint32_t b, edge_why *w) {
    w->status = WHY_FORCED;
    dep_edge opp = { b, a, e->key, DEP_WW }, wr = { a, b, e->key, DEP_WR };
    edge_basis bo = { BASIS_ASSUMED, b, a, NONE }, bw = { BASIS_OBSERVED, NONE, NONE, NONE };
    vec_push(w->alt, opp); vec_push(w->alt, wr);
    vec_push(w->basis, bo); vec_push(w->basis, bw);
}

int ictx_explain_edge(const ictx *c, const dep_edge *e, edge_why *w, void *factsv) {
    memset(w, 0, sizeof *w);
    vec_init(w->alt); vec_init(w->basis);
    w->before = w->after = w->read_op = NONE;
    if (view_edge(c, e)) { w->status = WHY_VIEW; return 0; }   /* rr: a predicate read's own view, under the order found */
    if (e->kind == DEP_SO || e->kind == DEP_WR || e->kind == DEP_RT) { w->status = WHY_OBSERVED; return 0; }
    uint32_t a, b = e->to;
    if (e->kind == DEP_WW) a = e->from;
    else a = ictx_read_src(c, e->from, e->key);
    w->before = a; w->after = b;
    if (a == 0) { w->status = WHY_INIT; return 0; }
    if (a == NONE) { w->status = WHY_CHOSEN; return 0; }
    /* a list read that shows the order is the plainest reason */
    uint32_t lop = ictx_list_shows(c, e->key, a, b);
    if (lop != NONE) { w->status = WHY_LISTED; w->read_op = lop; return 0; }
    /* b read a's version and overwrote it; when b's writer is assumed
     * (ictx.amb), a proof without assumed writers first */
    int rmw = is_rmw(c, a, b, e->key), rmw_assumed = rmw && read_assumed(c, b, e->key);
    if (rmw && !rmw_assumed) { rmw_why(e, a, b, w); return 0; }
    iproof pf;
    memset(&pf, 0, sizeof pf);
    pf.facts = factsv;
    pf.searches = PROOF_SEARCHES;
    pf.strict = rmw_assumed;
    osearch s;
    osearch_init(&s, c->g.n);
    pf.search = &s;
    edge_why p;
    int ok = prove(c, &pf, a, b, e->key, &p);
    osearch_free(&s);
    if (ok) { *w = p; return pf.consulted; }
    edge_why_free(&p);
    if (rmw) { rmw_why(e, a, b, w); return pf.consulted; }
    w->status = is_forced(c, e) ? WHY_DECIDED : WHY_CHOSEN;
    return pf.consulted;
}
