/* found.c — the detected anomalies, carried to the final report (contract
 * in found.h). */
#include "frontend/online/found.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"
#include "frontend/online/checker.h"

/* ---- one history's anomaly onto another --------------------------------- */

/* From history a to history b: transactions by ext id, keys by their ext
 * id or name, operations by transaction, line, kind, key and value. */
typedef struct map {
    const history *a, *b;
    u64map txn, key;             /* b: ext id -> index (integer keys) */
    int ok;                      /* 0 once something had no counterpart */
} map;

static void map_init(map *m, const history *a, const history *b) {
    m->a = a;
    m->b = b;
    m->ok = 1;
    u64map_init(&m->txn);
    u64map_init(&m->key);
    for (uint32_t t = 1; t < b->num_txns; t++) u64map_put(&m->txn, (uint64_t)b->txns[t].ext_id, t);
    for (uint32_t k = 0; k < b->num_keys; k++)
        if (b->key_name[k] == HISTORY_NONE) u64map_put(&m->key, (uint64_t)b->key_ext[k], k);
}

static void map_free(map *m) {
    u64map_free(&m->txn);
    u64map_free(&m->key);
}

static uint32_t map_txn(map *m, uint32_t t) {
    if (t == 0 || t >= m->a->num_txns) return t;          /* INIT, or not a transaction (a marker) */
    uint32_t r = u64map_get(&m->txn, (uint64_t)m->a->txns[t].ext_id);
    if (r == UINT32_MAX) { m->ok = 0; return 0; }
    return r;
}

static uint32_t map_key(map *m, uint32_t k) {
    const history *a = m->a, *b = m->b;
    if (k >= a->num_keys) return k;
    if (a->key_name[k] == HISTORY_NONE) {
        uint32_t r = u64map_get(&m->key, (uint64_t)a->key_ext[k]);
        if (r != UINT32_MAX) return r;
    } else
        for (uint32_t j = 0; j < b->num_keys; j++)
            if (b->key_name[j] != HISTORY_NONE && !strcmp(a->strings + a->key_name[k], b->strings + b->key_name[j]))
                return j;
    m->ok = 0;
    return 0;
}

static uint32_t map_op(map *m, uint32_t op) {
    const history *a = m->a, *b = m->b;
    if (op >= a->num_ops) return op;
    uint32_t t = map_txn(m, history_op_txn(a, op)), key = map_key(m, a->op_key[op]);
    if (!m->ok) return 0;
    op_kind kind = history_op_kind(a, op);
    uint32_t line = history_op_line(a, op);
    const history_txn *x = &b->txns[t];
    for (uint32_t o = x->first_op; o < x->first_op + x->num_ops; o++)
        if (history_op_kind(b, o) == kind && b->op_key[o] == key && history_op_line(b, o) == line &&
            (kind == OP_LIST_READ || history_op_value(b, o) == history_op_value(a, op)))
            return o;
    m->ok = 0;
    return 0;
}

static dep_edge map_edge(map *m, dep_edge e) {
    e.from = map_txn(m, e.from);
    e.to = map_txn(m, e.to);
    if (e.kind != DEP_SO) e.key = map_key(m, e.key);
    return e;
}

static void map_why(map *m, const edge_why *s, edge_why *d) {
    memset(d, 0, sizeof *d);
    d->status = s->status;
    d->before = map_txn(m, s->before);
    d->after = map_txn(m, s->after);
    d->read_op = s->status == WHY_LISTED ? map_op(m, s->read_op) : s->read_op;
    vec_init(d->alt);
    vec_init(d->basis);
    vec_foreach(const dep_edge, e, s->alt) vec_push(d->alt, map_edge(m, *e));
    vec_foreach(const edge_basis, x, s->basis) {
        edge_basis y = *x;
        y.before = map_txn(m, x->before);
        y.after = map_txn(m, x->after);
        if (x->kind == BASIS_LISTED) y.ref = map_op(m, x->ref);
        vec_push(d->basis, y);
    }
}

/* s (over m->a) added to r (over m->b); 0 if it does not map (then r's
 * last item is the partial copy: the caller drops it). */
static int map_anomaly(map *m, const report_anomaly *s, report *r) {
    report_anomaly *d = report_add(r, s->kind, s->level);
    memcpy(d->adya, s->adya, sizeof d->adya);
    memcpy(d->shape_adya, s->shape_adya, sizeof d->shape_adya);
    d->num_cycle_txns = s->num_cycle_txns;
    d->chosen = s->chosen;
    d->shape = s->shape;
    if (s->detail) {
        d->detail = xmalloc(strlen(s->detail) + 1);
        strcpy(d->detail, s->detail);
    }
    m->ok = 1;
    vec_foreach(const uint32_t, t, s->txns) vec_push(d->txns, map_txn(m, *t));
    vec_foreach(const uint32_t, o, s->ops) vec_push(d->ops, map_op(m, *o));
    vec_foreach(const dep_edge, e, s->edges) vec_push(d->edges, map_edge(m, *e));
    vec_foreach(const edge_why, w, s->why) {
        edge_why y;
        map_why(m, w, &y);
        vec_push(d->why, y);
    }
    vec_foreach(const report_fact, f, s->facts) {
        report_fact g;
        g.fact = map_edge(m, f->fact);
        map_why(m, &f->why, &g.why);
        vec_push(d->facts, g);
    }
    return m->ok;
}

/* Drop r's last item. */
static void drop_last(report *r) {
    report tmp;
    report_init(&tmp, r->h, r->level_arg);
    vec_push(tmp.items, vec_last(r->items));
    r->items.len--;
    report_free(&tmp);
}

/* ---- keep ---------------------------------------------------------------- */

int online_found_keep(online_found *f, const history *proof, const report *rep, ic_error *err) {
    memset(f, 0, sizeof *f);
    uint8_t *keep = xcalloc(proof->num_txns ? proof->num_txns : 1, 1);
    vec_foreach(const report_anomaly, a, rep->items) {
        vec_foreach(const uint32_t, t, a->txns) if (*t < proof->num_txns) keep[*t] = 1;
        vec_foreach(const uint32_t, o, a->ops) if (*o < proof->num_ops) keep[history_op_txn(proof, *o)] = 1;
        vec_foreach(const dep_edge, e, a->edges) keep[e->from < proof->num_txns ? e->from : 0] = keep[e->to < proof->num_txns ? e->to : 0] = 1;
        vec_foreach(const edge_why, w, a->why) vec_foreach(const dep_edge, e, w->alt) {
            if (e->from < proof->num_txns) keep[e->from] = 1;
            if (e->to < proof->num_txns) keep[e->to] = 1;
        }
        vec_foreach(const report_fact, x, a->facts) {
            if (x->fact.from < proof->num_txns) keep[x->fact.from] = 1;
            if (x->fact.to < proof->num_txns) keep[x->fact.to] = 1;
            vec_foreach(const dep_edge, e, x->why.alt) {
                if (e->from < proof->num_txns) keep[e->from] = 1;
                if (e->to < proof->num_txns) keep[e->to] = 1;
            }
        }
    }
    f->h = history_subset(proof, keep, err);
    free(keep);
    if (!f->h) return 0;
    report_init(&f->rep, f->h, rep->level_arg);
    map m;
    map_init(&m, proof, f->h);
    vec_foreach(const report_anomaly, a, rep->items)
        if (!map_anomaly(&m, a, &f->rep)) drop_last(&f->rep);   /* (never: every transaction it names was kept) */
    map_free(&m);
    f->set = 1;
    return 1;
}

void online_found_free(online_found *f) {
    if (f->set) report_free(&f->rep);
    if (f->h) history_free(f->h);
    memset(f, 0, sizeof *f);
}

/* ---- merge --------------------------------------------------------------- */

/* Whether a and b are the same anomaly: same kind and level, same cycle. */
static int same_anomaly(const report_anomaly *a, const report_anomaly *b) {
    if (a->kind != b->kind || a->level != b->level || a->edges.len != b->edges.len || a->txns.len < a->num_cycle_txns ||
        b->txns.len < b->num_cycle_txns || a->num_cycle_txns != b->num_cycle_txns)
        return 0;
    if (!a->edges.len) {                                  /* an axiom anomaly: its operations */
        if (a->ops.len != b->ops.len) return 0;
        for (size_t i = 0; i < a->ops.len; i++) if (a->ops.data[i] != b->ops.data[i]) return 0;
        return a->txns.len == b->txns.len && (!a->txns.len || !memcmp(a->txns.data, b->txns.data, a->txns.len * 4));
    }
    for (size_t i = 0; i < a->edges.len; i++) {           /* a cycle, from any of its edges */
        int found = 0;
        for (size_t j = 0; j < b->edges.len && !found; j++) {
            const dep_edge *x = &a->edges.data[i], *y = &b->edges.data[j];
            found = x->from == y->from && x->to == y->to && x->kind == y->kind && x->key == y->key;
        }
        if (!found) return 0;
    }
    return 1;
}

/* Whether a's cycle shares a transaction with b's. */
static int share_txn(const report_anomaly *a, const report_anomaly *b) {
    for (uint32_t i = 0; i < a->num_cycle_txns && i < a->txns.len; i++)
        for (uint32_t j = 0; j < b->num_cycle_txns && j < b->txns.len; j++)
            if (a->txns.data[i] == b->txns.data[j]) return 1;
    return 0;
}

/* A detected anomaly, in the final list: rep's own copy, or mapped (det). */
typedef struct pick { int from_rep; size_t i; } pick;

int online_found_merge(const online_found *f, const history *h, report *rep, size_t max_anomalies) {
    if (!f->set || !f->rep.items.len) return 1;
    int all = 1;
    report det;                                           /* the detected ones over h that rep lacks */
    report_init(&det, h, rep->level_arg);
    uint8_t *taken = xcalloc(rep->items.len + 1, 1);      /* rep's items: 1 detected (first), 2 listed */
    VEC(pick) picks;
    vec_init(picks);
    map m;
    map_init(&m, f->h, h);
    vec_foreach(const report_anomaly, a, f->rep.items) {
        if (a->chosen) continue;                          /* a cycle of S's chosen order: not one of every order of h */
        if (!map_anomaly(&m, a, &det)) { drop_last(&det); all = 0; continue; }
        size_t j = 0;
        while (j < rep->items.len && !same_anomaly(&vec_last(det.items), &rep->items.data[j])) j++;
        pick p = { j < rep->items.len, j < rep->items.len ? j : det.items.len - 1 };
        if (p.from_rep) {                                 /* the batch found it too: its own copy */
            drop_last(&det);
            if (taken[j]) continue;
            taken[j] = 1;
        }
        vec_push(picks, p);
    }
    map_free(&m);
    vec_foreach(const pick, p, picks) {                  /* a level the batch did not reach (axioms broken) */
        int level = p->from_rep ? rep->items.data[p->i].level : det.items.data[p->i].level, have = level == LEVEL_ANY;
        for (int l = 0; l < rep->num_levels; l++) have |= rep->levels[l].level == level;
        if (have || rep->num_levels >= 2) continue;
        report_level *L = &rep->levels[rep->num_levels++];
        memset(L, 0, sizeof *L);
        L->level = level;
        L->verdict = VERDICT_FAIL;
        L->stage = "followed";
        if (rep->num_levels == 2 && rep->levels[0].level > rep->levels[1].level) {   /* si, then ser */
            report_level t = rep->levels[0];
            rep->levels[0] = rep->levels[1];
            rep->levels[1] = t;
        }
    }
    uint8_t *used = xcalloc(det.items.len + 1, 1);
    report_anomaly_vec out;
    vec_init(out);
    /* axioms, then each level in the report's order: the detected first,
     * then the batch's on other transactions, up to the limit */
    for (int pass = -1; pass < rep->num_levels; pass++) {
        int level = pass < 0 ? LEVEL_ANY : rep->levels[pass].level;
        if (pass >= 0 && rep->levels[pass].verdict != VERDICT_FAIL) continue;
        size_t first = out.len;
        vec_foreach(const pick, p, picks) {
            report_anomaly *x = p->from_rep ? &rep->items.data[p->i] : &det.items.data[p->i];
            if (x->level != level) continue;
            vec_push(out, *x);
            if (p->from_rep) taken[p->i] = 2;
            else used[p->i] = 1;
        }
        size_t n = out.len - first, cap = max_anomalies > n ? max_anomalies : n;
        for (size_t i = 0; i < rep->items.len; i++) {
            report_anomaly *b = &rep->items.data[i];
            if (b->level != level || taken[i]) continue;
            int clash = 0;
            for (size_t j = first; j < first + n && !clash; j++) clash = level != LEVEL_ANY && share_txn(&out.data[j], b);
            if (clash || (level != LEVEL_ANY && out.len - first >= cap)) continue;
            vec_push(out, *b);
            taken[i] = 2;
        }
    }
    report gone;                                          /* what is not listed */
    report_init(&gone, h, rep->level_arg);
    for (size_t i = 0; i < rep->items.len; i++) {
        int level = rep->items.data[i].level, listed = level == LEVEL_ANY;
        for (int l = 0; l < rep->num_levels; l++) listed |= rep->levels[l].level == level;
        if (taken[i] == 2) continue;
        if (!listed) vec_push(out, rep->items.data[i]);   /* items of no listed level stay */
        else vec_push(gone.items, rep->items.data[i]);
    }
    for (size_t i = 0; i < det.items.len; i++)
        if (!used[i]) vec_push(gone.items, det.items.data[i]);
    vec_free(rep->items);
    rep->items = out;
    vec_free(det.items);
    report_free(&gone);
    vec_free(picks);
    free(taken);
    free(used);
    return all;
}
