/* weak_choice.c — rc, ra and cc on a history whose reads of repeated
 * values, or predicate reads' views of keys they did not return, stay
 * ambiguous (issues 35, 34; doc/checker.md, "The weak levels with
 * repeated values", "Predicate reads").
 *
 * The weak levels' premise depends on which write a read saw (the WR edge,
 * and the writers visible to the reader), so the choice is searched
 * lazily: a SAT problem over one variable per (ambiguous read, possible
 * writer) with "at least one writer" per read proposes a choice (a read
 * takes its first true candidate); the history under that choice
 * (history_with_choice: unique values again) is decided by weak_check.
 *   PASS  that choice is the answer: res->chosen names every read's writer,
 *         res->weak the commit order (re-checked as any weak PASS is);
 *   FAIL  the cycle's edges depend on the choices of a few reads only (the
 *         reads behind its WR edges, its premise edges' read α and the
 *         read or causal path that made the other writer visible; any read
 *         whose chosen writer made an indeterminate transaction take part,
 *         when one is on the cycle): every choice that agrees with those
 *         has the same cycle, and a clause excludes them all.
 * When the first WEAK_CHOICE_SER_AFTER choices fail, the levels ser, si,
 * psi and pc are checked in turn (each implies rc, ra and cc; once per run,
 * weak_propose.h, when the run shares its weak levels' proposals): the choice
 * of writers of each that passes (under which that level holds, so every
 * weak level does) is decided next, and the first that passes is the
 * answer; real histories with thousands of ambiguous reads need it
 * (VeriStrong's rubis-10k: ser's; a generated 60k one that fails ser: si's).
 * UNSAT: every choice has a cycle, the level fails; the result shown is
 * the first choice's (its cycle, under its writers), the message says how
 * many reads and refuted choice sets it took.  Each choice tried is
 * excluded, so the loop ends; it also stops at the options' time limit,
 * at opt->stop, or after WEAK_CHOICE_MAX_ROUNDS (UNKNOWN). */
#include "frontend/checking/check.h"
#include "frontend/checking/weak.h"
#include "frontend/checking/weak_propose.h"
#include "frontend/history/predicate.h"

#include <stdlib.h>
#include <string.h>

#include "gsat.h"
#include "monotonic.h"
#include "par.h"

#define WEAK_CHOICE_MAX_ROUNDS 100000
#define WEAK_CHOICE_SER_AFTER 4        /* choices refuted before SER's choice is tried */

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

typedef struct wch {
    const history *h;
    uint32_t n;                  /* choices: the ambiguous reads (h->num_amb), then rc's later reads (xop) */
    uint32_t namb;               /* h->num_amb */
    uint32_t *start, *cand;      /* choice i's possible writers cand[start[i] .. start[i + 1]); variable 1 + j */
    uint32_t *pick;              /* per choice, the write op chosen (HISTORY_NONE: not judged) */
    vec_u32 xop;                 /* rc: the later reads of a key that repeat an ambiguous read's marker, ascending */
    vec_int block;
} wch;

/* The read op of choice i. */
static uint32_t slot_op(const wch *w, uint32_t i) { return i < w->namb ? w->h->amb_read[i] : w->xop.data[i - w->namb]; }

/* The ambiguous read (index into h->amb_read) whose writer read op's value
 * follows: op itself, or the first read of its key in its transaction. */
static uint32_t amb_of(const history *h, uint32_t op) {
    if (op == HISTORY_NONE || op >= h->num_ops) return HISTORY_NONE;
    const history_txn *tx = &h->txns[history_op_txn(h, op)];
    for (uint32_t o = tx->first_op; o <= op; o++) {   /* an op of the key before it need not be the ambiguous one */
        if (h->op_key[o] != h->op_key[op]) continue;  /* (a predicate read's unconstrained view of it, say) */
        uint32_t i = history_amb_index(h, o);
        if (i != HISTORY_NONE) return i;
    }
    return HISTORY_NONE;
}

/* The choice whose writer read op's value follows: at rc a later read's
 * own (xop), else amb_of's. */
static uint32_t slot_of(const wch *w, uint32_t op) {
    size_t lo = 0, hi = w->xop.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->xop.data[mid] < op) lo = mid + 1; else hi = mid;
    }
    if (lo < w->xop.len && w->xop.data[lo] == op) return w->namb + (uint32_t)lo;
    return amb_of(w->h, op);
}

static void depend(wch *w, uint32_t op) {
    uint32_t i = slot_of(w, op);
    if (i == HISTORY_NONE || w->pick[i] == HISTORY_NONE) return;
    for (uint32_t j = w->start[i]; j < w->start[i + 1]; j++)
        if (w->cand[j] == w->pick[i]) { vec_push(w->block, -(int)(j + 1)); return; }
}

/* The clause excluding every choice that agrees with this one on the reads
 * the cycle of r depends on. */
static void explain(wch *w, const history *chosen, const weak_result *r) {
    const history *h = w->h;
    vec_clear(w->block);
    int indet = 0;
    vec_foreach(const weak_edge, e, r->cycle) {
        indet |= chosen->txns[e->from].status == TXN_INDETERMINATE || chosen->txns[e->to].status == TXN_INDETERMINATE;
        if (e->basis == WB_WR) depend(w, e->read_op);
        if (e->basis != WB_PREMISE) continue;
        depend(w, e->read_op);
        indet |= chosen->txns[e->reader].status == TXN_INDETERMINATE;
        if (e->via == WV_EARLIER || e->via == WV_READ) depend(w, e->vis_op);
        if (e->via != WV_CAUSAL) continue;
        for (uint32_t p = e->path_first; p < e->path_first + e->path_len; p++) {
            const weak_edge *q = &r->paths.data[p];
            indet |= chosen->txns[q->from].status == TXN_INDETERMINATE || chosen->txns[q->to].status == TXN_INDETERMINATE;
            if (q->basis == WB_WR) depend(w, q->read_op);
        }
    }
    if (indet)                              /* who takes part may depend on any choice of such a writer */
        for (uint32_t i = 0; i < w->n; i++)
            if (w->pick[i] != HISTORY_NONE && h->txns[history_op_txn(h, w->pick[i])].status == TXN_INDETERMINATE)
                depend(w, slot_op(w, i));
}

/* rc: the later reads of each ambiguous read's key in its transaction that
 * show its marker (the same value: resolve() gave them the first read's),
 * each a choice of its own (rc allows a transaction's reads of a key to see
 * different versions: doc/levels.md, non-repeatable read). */
static void later_reads(wch *w) {
    const history *h = w->h;
    for (uint32_t i = 0; i < h->num_amb; i++) {
        uint32_t r = h->amb_read[i];
        const history_txn *tx = &h->txns[history_op_txn(h, r)];
        for (uint32_t op = r + 1; op < tx->first_op + tx->num_ops; op++)
            if (h->op_key[op] == h->op_key[r] && history_op_kind(h, op) == OP_READ && !history_op_failed(h, op) &&
                history_op_value(h, op) == history_op_value(h, r))
                vec_push(w->xop, op);
    }
    if (w->xop.len > 1) qsort(w->xop.data, w->xop.len, sizeof *w->xop.data, cmp_u32);
}

/* The possible writers of every judged read; 0 when a judged read has
 * none (the axioms report it).  At rc (each) a later read of a key that
 * repeats an ambiguous read's marker chooses among the same writers. */
static int wch_init(wch *w, const history *h, int each) {
    memset(w, 0, sizeof *w);
    w->h = h;
    w->namb = h->num_amb;
    vec_init(w->xop);
    if (each) later_reads(w);
    w->n = w->namb + (uint32_t)w->xop.len;
    uint32_t per = 0;
    for (uint32_t i = 0; i < w->namb; i++)
        if (h->amb_start[i + 1] - h->amb_start[i] > per) per = h->amb_start[i + 1] - h->amb_start[i];
    w->start = xmalloc(((size_t)w->n + 1) * sizeof *w->start);
    w->cand = xmalloc(((size_t)h->amb_start[w->namb] + (size_t)w->xop.len * per + 1) * sizeof *w->cand);
    w->pick = xmalloc(((size_t)w->n + 1) * sizeof *w->pick);
    vec_init(w->block);
    uint32_t m = 0;
    int ok = 1;
    for (uint32_t i = 0; i < w->n; i++) {
        if (i >= w->namb) {                    /* a later read: its ambiguous read's writers */
            uint32_t a = amb_of(h, w->xop.data[i - w->namb]);
            w->start[i] = m;
            for (uint32_t j = w->start[a]; j < w->start[a + 1]; j++) w->cand[m++] = w->cand[j];
            continue;
        }
        w->start[i] = m;
        uint32_t r = h->amb_read[i];
        if (history_op_failed(h, r) || h->txns[history_op_txn(h, r)].status == TXN_ABORTED) continue;   /* not judged */
        const history_txn *rx = &h->txns[history_op_txn(h, r)];
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++) {
            const history_txn *wx = &h->txns[history_op_txn(h, h->amb_cand[j])];
            if (h->amb_why[j]) continue;
            if (wx->session == rx->session && wx->pos > rx->pos) continue;   /* a later one of its session: SO cycle */
            w->cand[m++] = h->amb_cand[j];
        }
        if (m == w->start[i])                  /* every one later in its session: the search refutes each */
            for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++)
                if (!h->amb_why[j]) w->cand[m++] = h->amb_cand[j];
        if (m == w->start[i]) ok = 0;
    }
    w->start[w->n] = m;
    return ok;
}

static void wch_free(wch *w) {
    free(w->start); free(w->cand); free(w->pick); vec_free(w->xop);
    vec_free(w->block);
}

/* A topological order of the participants under SO and the known WR
 * edges (the reads that name their writer), by Kahn's algorithm: the
 * position of each transaction, UINT32_MAX when on a cycle or not taking
 * part. */
static uint32_t *known_order(const history *h, const uint8_t *part) {
    uint32_t n = h->num_txns;
    uint32_t *deg = xcalloc((size_t)n + 1, sizeof *deg), *pos = xmalloc((size_t)n * sizeof *pos);
    vec_u32 from, to; vec_init(from); vec_init(to);
    for (uint32_t t = 1; t < n; t++) {
        if (!part[t]) continue;
        const history_txn *tx = &h->txns[t];
        if (t + 1 < n && part[t + 1] && h->txns[t + 1].session == tx->session) { vec_push(from, t); vec_push(to, t + 1); }
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (history_op_kind(h, op) != OP_READ || history_op_failed(h, op)) continue;
            uint32_t w = history_read_source(h, op);
            if (w == HISTORY_NONE || history_op_txn(h, w) == t || !part[history_op_txn(h, w)]) continue;
            vec_push(from, history_op_txn(h, w)); vec_push(to, t);
        }
    }
    uint32_t *start = xcalloc((size_t)n + 1, sizeof *start), *adj = xmalloc((from.len ? from.len : 1) * sizeof *adj);
    for (size_t i = 0; i < from.len; i++) { start[from.data[i] + 1]++; deg[to.data[i]]++; }
    for (uint32_t t = 0; t < n; t++) start[t + 1] += start[t];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < from.len; i++) adj[fill[from.data[i]]++] = to.data[i];
    uint32_t qh = 0, qt = 0, *queue = fill;
    for (uint32_t t = 0; t < n; t++) { pos[t] = UINT32_MAX; if (part[t] && !deg[t]) queue[qt++] = t; }
    while (qh < qt) {
        uint32_t u = queue[qh];
        pos[u] = qh++;
        for (uint32_t j = start[u]; j < start[u + 1]; j++)
            if (--deg[adj[j]] == 0) queue[qt++] = adj[j];
    }
    free(deg); free(start); free(adj); free(fill);
    vec_free(from); vec_free(to);
    return pos;
}

/* The solver: variables 1..m, a clause per judged read, first phases on
 * the candidate whose writer comes last before the reader in the known
 * order (the version a read of a real execution most likely saw), else
 * the first. */
static gsat *wch_solver(const wch *w, const uint32_t *pos) {
    gsat *s = gsat_new();
    if (!s) xalloc_fail(0);
    int m = (int)w->start[w->n];
    gsat_reserve_vars(s, m);
    vec_int cl; vec_init(cl);
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t a = w->start[i], b = w->start[i + 1], best = a, bp = 0;
        if (a == b) continue;
        uint32_t rp = pos[history_op_txn(w->h, slot_op(w, i))];
        vec_clear(cl);
        for (uint32_t j = a; j < b; j++) {
            vec_push(cl, (int)j + 1);
            uint32_t p = pos[history_op_txn(w->h, w->cand[j])];
            if (rp != UINT32_MAX && p < rp && p >= bp) { bp = p; best = j; }
        }
        gsat_add_clause(s, cl.data, (int)cl.len);
        for (uint32_t j = a; j < b; j++) gsat_set_phase(s, (int)j + 1, j == best);
    }
    vec_free(cl);
    return s;
}

static void wch_pick(wch *w, const gsat *s) {
    for (uint32_t i = 0; i < w->n; i++) {
        w->pick[i] = HISTORY_NONE;
        for (uint32_t j = w->start[i]; j < w->start[i + 1] && w->pick[i] == HISTORY_NONE; j++)
            if (gsat_value(s, (int)j + 1) > 0) w->pick[i] = w->cand[j];
    }
}

/* The level under choice `pick` into res (res->chosen set): weak_check's
 * answer, as check_weak_on gives it. */
static verdict decide(const pg_index *ix, const wch *w, const uint32_t *pick, check_level_id level, const check_options *opt,
                      check_result *res) {
    history *c = history_with_choice(ix->h, pick);
    if (!c) {
        snprintf(res->msg, sizeof res->msg, "internal error: a choice of an impossible writer");
        return res->verdict = VERDICT_UNKNOWN;
    }
    for (uint32_t i = w->namb; i < w->n; i++)     /* rc: each later read its own writer (values stay unique) */
        if (pick[i] != HISTORY_NONE) history_set_op_value(c, w->xop.data[i - w->namb], history_op_value(ix->h, pick[i]));
    uint8_t *part = history_participants(c);
    verdict v = check_weak_on(c, part, level, opt, res);
    free(part);
    res->chosen = c;
    return v;
}

static void clear(check_result *res, check_level_id level) {
    check_result_free(res);
    memset(res, 0, sizeof *res);
    res->level = level;
    vec_init(res->cycle);
}

/* After WEAK_CHOICE_SER_AFTER refuted choices: the choices of the strong
 * levels (weak_propose.h: ser, si, psi, pc, each implying rc, ra and cc)
 * that pass, strongest first, each decided at level (re-checked as any
 * choice is); the first that passes there is the answer.  1 and res its
 * PASS, else 0 (res cleared; the search goes on).  The strong levels are
 * checked once per run (opt->proposals, shared by the run's weak levels),
 * else once for this level. */
static int strong_choices(const pg_index *ix, wch *w, check_level_id level, const check_options *opt, check_result *res) {
    weak_proposals *own = opt && opt->proposals ? NULL : weak_proposals_new();
    weak_proposals *p = own ? own : opt->proposals;
    int found = 0;
    for (size_t k = 0; k < WEAK_NUM_STRONG && !found; k++) {
        if (opt && opt->stop && opt->stop(opt->stop_ctx)) break;
        const history *c = weak_proposal(p, ix, k, opt);
        if (!c) continue;
        for (uint32_t i = 0; i < w->n; i++) w->pick[i] = history_read_source(c, slot_op(w, i));
        clear(res, level);
        if (decide(ix, w, w->pick, level, opt, res) == VERDICT_PASS) {
            size_t at = strlen(res->msg);
            snprintf(res->msg + at, sizeof res->msg - at, "; the writers of %s's choice (%s holds under them)",
                     check_level_name(WEAK_STRONG_LEVELS[k]), check_level_name(WEAK_STRONG_LEVELS[k]));
            found = 1;
        } else clear(res, level);
    }
    weak_proposals_free(own);
    return found;
}

/* The FAIL's tail: that every choice fails, and the writers the cycle
 * assumes (w->block: the choices it depends on, explain()); whole: the
 * reason before it shows the whole cycle, else "the cycle found (not
 * shown in full)" (its edges cut off may be the ones resting on those
 * writers).  Returns its length. */
static int fail_tail(const wch *w, int same, uint64_t rounds, int whole, char *tail, size_t cap) {
    const history *h = w->h;
    int len = h->preds && h->preds->choices_attached   /* predicate reads' choices (preds_attach_choices) */
        ? snprintf(tail, cap, "whichever version each of the %u reads with several possible versions saw (a "
                   "predicate read's of a key it did not return, a read of nil), ", h->num_amb)
        : snprintf(tail, cap, "whichever write of its value each of the %u reads of a repeated value saw, ", h->num_amb);
    if (same) len += snprintf(tail + len, cap - (size_t)len, "%s", whole ? "this cycle holds" : "the cycle found (not shown in full) holds");
    else len += snprintf(tail + len, cap - (size_t)len, "the level fails (%llu choices refuted); "
                         "the cycle %s assumes", (unsigned long long)rounds, whole ? "shown" : "found (not shown in full)");
    const char *sep = "";
    for (size_t b = 0; !same && b < w->block.len && len > 0 && (size_t)len < cap - 80; b++) {
        uint32_t j = (uint32_t)(-w->block.data[b] - 1), i = 0;
        while (w->start[i + 1] <= j) i++;
        uint32_t r = slot_op(w, i), wr = w->cand[j];
        char kb[32], vb[32];
        len += snprintf(tail + len, cap - (size_t)len, "%s txn %lld read %s=%s from txn %lld", sep,
                        (long long)h->txns[history_op_txn(h, r)].ext_id, history_key_str(h, h->op_key[r], kb, sizeof kb),
                        history_value_str(h, history_op_value(h, wr), vb, sizeof vb), (long long)h->txns[history_op_txn(h, wr)].ext_id);
        sep = ",";
    }
    return len;
}

/* The FAIL's message: the weak check's reason under the first choice
 * refuted (its cycle, cut with "..." where the message has no room for
 * all of it: weak.c's own stops at its 511th byte), then fail_tail. */
static void fail_message(const wch *w, check_result *res, int same, uint64_t rounds) {
    char tail[320], reason[sizeof res->msg];
    snprintf(reason, sizeof reason, "%s", res->msg);
    int rl = (int)strlen(reason);
    int room = (int)sizeof res->msg - fail_tail(w, same, rounds, 1, tail, sizeof tail) - 3;
    int whole = rl < (int)sizeof res->msg - 1 && rl <= room;
    if (!whole) room = (int)sizeof res->msg - fail_tail(w, same, rounds, 0, tail, sizeof tail) - 7;
    if (whole) snprintf(res->msg, sizeof res->msg, "%.*s; %s", room, reason, tail);
    else snprintf(res->msg, sizeof res->msg, "%.*s ...; %s", room > 0 ? (rl < room ? rl : room) : 0, reason, tail);
}

verdict check_weak_choice(const pg_index *ix, check_level_id level, const check_options *opt, check_result *res) {
    const history *h = ix->h;
    wch w;
    double t0 = monotonic_seconds();
    if (!wch_init(&w, h, level == LEVEL_RC)) {
        wch_free(&w);
        snprintf(res->msg, sizeof res->msg, "a read of a repeated value has no possible writer (the axioms report it)");
        res->stage = "choice";
        return res->verdict = VERDICT_UNKNOWN;
    }
    uint32_t *pos = known_order(h, ix->in_graph);
    gsat *s = wch_solver(&w, pos);
    free(pos);
    uint32_t *first = NULL;
    verdict v = VERDICT_UNKNOWN;
    uint64_t rounds = 0, same = 1;
    const char *why = "the choice search hit its limit";
    for (;;) {
        if (opt && opt->stop && opt->stop(opt->stop_ctx)) { why = "interrupted while choosing writers"; break; }
        if (rounds == WEAK_CHOICE_MAX_ROUNDS || (opt && opt->time_limit > 0 && monotonic_seconds() - t0 > opt->time_limit)) break;
        int r = gsat_solve(s, NULL, 0);
        if (r == GSAT_UNSAT) { v = VERDICT_FAIL; break; }
        if (r != GSAT_SAT) { why = "the choice search failed"; break; }
        wch_pick(&w, s);
        rounds++;
        clear(res, level);
        v = decide(ix, &w, w.pick, level, opt, res);
        if (v == VERDICT_PASS) break;
        if (!first) first = xmalloc(((size_t)w.n + 1) * sizeof *first), memcpy(first, w.pick, (size_t)w.n * sizeof *first);
        if (v == VERDICT_FAIL && res->weak) explain(&w, res->chosen, res->weak);
        else {                                  /* no cycle to explain (an axiom under this choice): this choice alone */
            vec_clear(w.block);
            for (uint32_t i = 0; i < w.n; i++) depend(&w, slot_op(&w, i));
        }
        same &= w.block.len == 0;
        if (!w.block.len) { v = VERDICT_FAIL; break; }   /* the cycle holds whatever the reads saw */
        gsat_add_clause(s, w.block.data, (int)w.block.len);
        v = VERDICT_UNKNOWN;
        if (rounds == WEAK_CHOICE_SER_AFTER && strong_choices(ix, &w, level, opt, res)) {
            v = VERDICT_PASS;                     /* a choice under which a stronger level holds */
            break;
        }
    }
    gsat_free(s);
    if (v == VERDICT_FAIL) {
        clear(res, level);
        v = decide(ix, &w, first, level, opt, res);
        if (v == VERDICT_FAIL) {
            memcpy(w.pick, first, (size_t)w.n * sizeof *first);
            explain(&w, res->chosen, res->weak);
            fail_message(&w, res, same, rounds);
        } else {
            snprintf(res->msg, sizeof res->msg, "internal error: the first choice refuted did not fail again");
            v = res->verdict = VERDICT_UNKNOWN;
        }
    } else if (v != VERDICT_PASS) {
        clear(res, level);
        snprintf(res->msg, sizeof res->msg, "%s (%llu choices of writers tried for %u reads of a repeated value); no verdict",
                 why, (unsigned long long)rounds, h->num_amb);
        res->stage = "choice";
        v = res->verdict = VERDICT_UNKNOWN;
    }
    res->st.t_graph = monotonic_seconds() - t0;
    free(first);
    wch_free(&w);
    return v;
}
