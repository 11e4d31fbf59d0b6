/* predicate.c — predicates and the predicate side table (contract in
 * predicate.h). */
#include "frontend/history/predicate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontend/history/history.h"

/* Clojure's mod: the remainder takes the divisor's sign. */
static int64_t floor_mod(int64_t v, int64_t m) {
    if (m == -1 || m == 1) return 0;
    int64_t r = v % m;
    if (r != 0 && ((r < 0) != (m < 0))) r += m;
    return r;
}

int pred_match(const predicate *p, int64_t v) {
    switch ((pred_kind)p->kind) {
    case PRED_TRUE:  return 1;
    case PRED_EQ:    return v == p->a;
    case PRED_NE:    return v != p->a;
    case PRED_LT:    return v < p->a;
    case PRED_LE:    return v <= p->a;
    case PRED_GT:    return v > p->a;
    case PRED_GE:    return v >= p->a;
    case PRED_RANGE: return p->a <= v && v <= p->b;
    case PRED_MOD:   return p->a != 0 && floor_mod(v, p->a) == p->b;
    }
    return 0;
}

const char *pred_str(const predicate *p, const char *var, char *buf, size_t n) {
    static const char *const ops[] = { "", "=", "!=", "<", "<=", ">", ">=" };
    switch ((pred_kind)p->kind) {
    case PRED_TRUE: snprintf(buf, n, "true"); break;
    case PRED_RANGE: snprintf(buf, n, "%" PRId64 " <= %s <= %" PRId64, p->a, var, p->b); break;
    case PRED_MOD: snprintf(buf, n, "%s mod %" PRId64 " = %" PRId64, var, p->a, p->b); break;
    default: snprintf(buf, n, "%s %s %" PRId64, var, ops[p->kind], p->a); break;
    }
    return buf;
}

const char *pred_read_str(const pred_read *r, const char *var, char *buf, size_t n) {
    char pb[96];
    pred_str(&r->p, var, pb, sizeof pb);
    if (r->keyed) snprintf(buf, n, "key in %" PRId64 "..%" PRId64 " and %s", r->klo, r->khi, pb);
    else snprintf(buf, n, "%s", pb);
    return buf;
}

history_preds *preds_new(void) { return xcalloc(1, sizeof(history_preds)); }

void preds_free(history_preds *p) {
    if (!p) return;
    vec_free(p->reads); vec_free(p->facts); vec_free(p->dead); vec_free(p->init_present); vec_free(p->init_data);
    vec_free(p->choices); vec_free(p->choice_vals); vec_free(p->view_vals); vec_free(p->nil_ops);
    free(p);
}

const pred_read *preds_view_read(const history_preds *p, uint32_t t, uint32_t key, const pred_fact **f) {
    for (size_t i = 0; p && i < p->facts.len; i++) {
        const pred_fact *x = &p->facts.data[i];
        if (!pred_fact_is_view(x) || x->key != key || p->reads.data[x->read].txn != t) continue;
        if (f) *f = x;
        return &p->reads.data[x->read];
    }
    return NULL;
}

void preds_remap_txns(history_preds *p, const uint32_t *txn_new) {
    for (size_t i = 0; i < p->reads.len; i++)
        if (p->reads.data[i].txn != HISTORY_NONE) p->reads.data[i].txn = txn_new[p->reads.data[i].txn];
    for (size_t i = 0; i < p->choices.len; i++)
        if (p->choices.data[i].txn != HISTORY_NONE) p->choices.data[i].txn = txn_new[p->choices.data[i].txn];
}

history_preds *preds_clone(const history_preds *p, const uint32_t *txn_new) {
    history_preds *c = preds_new();
    for (size_t i = 0; i < p->reads.len; i++) {      /* every read (ops' tags stay valid) */
        pred_read r = p->reads.data[i];
        if (r.txn != HISTORY_NONE) r.txn = txn_new[r.txn];
        vec_push(c->reads, r);
    }
    for (size_t i = 0; i < p->facts.len; i++)         /* facts of the reads kept */
        if (c->reads.data[p->facts.data[i].read].txn != HISTORY_NONE) vec_push(c->facts, p->facts.data[i]);
    for (size_t i = 0; i < p->view_vals.len; i++) vec_push(c->view_vals, p->view_vals.data[i]);
    for (size_t i = 0; i < p->dead.len; i++) vec_push(c->dead, p->dead.data[i]);
    for (size_t i = 0; i < p->init_present.len; i++) {
        vec_push(c->init_present, p->init_present.data[i]);
        vec_push(c->init_data, p->init_data.data[i]);
    }
    return c;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void preds_seal(history_preds *p) {
    if (p->dead.len > 1) qsort(p->dead.data, p->dead.len, sizeof *p->dead.data, cmp_i64);
}

int preds_is_dead(const history_preds *p, int64_t v) {
    if (!p) return 0;
    size_t lo = 0, hi = p->dead.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->dead.data[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < p->dead.len && p->dead.data[lo] == v;
}

int preds_version_data(const history_preds *p, uint32_t key, int64_t v, int64_t *data) {
    if (v == VALUE_INIT) {
        if (!p || key >= p->init_present.len || !p->init_present.data[key]) return 0;
        *data = p->init_data.data[key];
        return 1;
    }
    if (preds_is_dead(p, v)) return 0;
    *data = v;
    return 1;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t preds_op_rank(const history *h, uint32_t op) {
    uint32_t tag = history_op_pred(h, op), i = op - h->txns[history_op_txn(h, op)].first_op;
    if (tag != PRED_TAG_NONE && h->preds && pred_tag_read(tag) < h->preds->reads.len) {
        uint32_t pos = h->preds->reads.data[pred_tag_read(tag)].pos;
        if (pos != PRED_POS_NONE && pos <= i) return 2 * pos;
    }
    return 2 * i + 1;
}

int preds_is_rc_view_op(const history *h, uint32_t op) {
    const history_preds *p = h->preds;
    if (!p || !h->op_pred || op >= h->num_ops || history_op_kind(h, op) != OP_READ) return 0;
    uint32_t tag = h->op_pred[op];
    if (tag == PRED_TAG_NONE || pred_tag_returned(tag)) return 0;
    uint32_t r = pred_tag_read(tag);
    size_t lo = 0, hi = p->facts.len;            /* the facts ascend by read (added read by read) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->facts.data[mid].read < r) lo = mid + 1; else hi = mid;
    }
    for (; lo < p->facts.len && p->facts.data[lo].read == r; lo++)
        if (p->facts.data[lo].key == h->op_key[op] && p->facts.data[lo].kind == PF_MISS_READ && p->facts.data[lo].rc_view)
            return 1;
    return 0;
}

void preds_set_aside_rc_views(history *h) {
    if (!h->preds || !h->op_pred) return;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (preds_is_rc_view_op(h, op)) h->op_kind[op] |= OP_FAILED;
}

int preds_is_nil_choice(const history_preds *p, uint32_t op) {
    if (!p) return 0;
    size_t lo = 0, hi = p->nil_ops.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->nil_ops.data[mid] < op) lo = mid + 1; else hi = mid;
    }
    return lo < p->nil_ops.len && p->nil_ops.data[lo] == op;
}

typedef struct choice_at { uint32_t op, i; } choice_at;
static int cmp_choice_at(const void *a, const void *b) {
    const choice_at *x = a, *y = b;
    return (x->op > y->op) - (x->op < y->op);
}

int preds_attach_choices(history *h, ic_error *err) {
    history_preds *p = h->preds;
    if (p && h->num_repeated)                    /* rr's views name versions by value: not with values written twice */
        for (size_t i = 0; i < p->facts.len; i++) p->facts.data[i].vn = 0;
    if (!p || !p->choices.len) return 1;
    int all_rc = 1;
    for (size_t i = 0; i < p->choices.len; i++) all_rc &= p->choices.data[i].rc_only;
    if ((h->num_repeated || h->num_amb) && all_rc) {    /* rc's own views only: dropped, the misses break rc too */
        for (size_t i = 0; i < p->choices.len; i++) {
            const pred_choice *c = &p->choices.data[i];
            if (c->txn == HISTORY_NONE || c->txn >= h->num_txns) continue;
            for (uint32_t o = h->txns[c->txn].first_op; o < h->txns[c->txn].first_op + h->txns[c->txn].num_ops; o++)
                if (h->op_key[o] == c->key && history_op_kind(h, o) == OP_READ && history_op_value(h, o) == c->marker)
                    h->op_kind[o] |= OP_FAILED;
        }
        for (size_t i = 0; i < p->facts.len; i++) p->facts.data[i].rc_view = 0;
        vec_clear(p->choices);
        return 1;
    }
    if (h->num_repeated || h->num_amb) {
        uint32_t r = p->choices.data[0].read;
        ic_error_at(err, h->source, r < p->reads.len ? p->reads.data[r].line : 0, "which version a read saw depends on "
                    "the version order (a predicate read's view of a key it did not return, or a read of nil with several "
                    "absent versions), and the history writes some value twice: not decided together yet "
                    "(doc/checker.md, \"Predicate reads\")");
        return 0;
    }
    size_t n = p->choices.len, m = 0, k = 0;
    for (size_t i = 0; i < n; i++) m += p->choices.data[i].n;
    choice_at *at = xmalloc(n * sizeof *at);
    for (size_t i = 0; i < n; i++) {             /* each choice's lowered op */
        const pred_choice *c = &p->choices.data[i];
        uint32_t t = c->txn, op = HISTORY_NONE;
        if (t == HISTORY_NONE || t >= h->num_txns) continue;
        for (uint32_t o = h->txns[t].first_op; o < h->txns[t].first_op + h->txns[t].num_ops; o++)
            if (h->op_key[o] == c->key && history_op_kind(h, o) == OP_READ && history_op_value(h, o) == c->marker) {
                h->op_kind[o] |= OP_AMBIGUOUS;
                if (op == HISTORY_NONE) op = o;
            }
        if (op != HISTORY_NONE) { at[k].op = op; at[k++].i = (uint32_t)i; }
        for (uint32_t o = op; c->read == HISTORY_NONE && o != HISTORY_NONE && o < h->txns[t].first_op + h->txns[t].num_ops; o++)
            if (h->op_key[o] == c->key && history_op_kind(h, o) == OP_READ && history_op_value(h, o) == c->marker &&
                history_op_pred(h, o) == PRED_TAG_NONE) vec_push(p->nil_ops, o);
    }
    qsort(at, k, sizeof *at, cmp_choice_at);
    if (p->nil_ops.len > 1) qsort(p->nil_ops.data, p->nil_ops.len, sizeof *p->nil_ops.data, cmp_u32);     /* amb_read ascends: history_amb_index searches it */
    uint32_t *read = xmalloc((k ? k : 1) * sizeof *read), *start = xmalloc((k + 1) * sizeof *start);
    uint32_t *cand = xmalloc((m ? m : 1) * sizeof *cand);
    size_t w = 0;
    for (size_t e = 0; e < k; e++) {
        const pred_choice *c = &p->choices.data[at[e].i];
        read[e] = at[e].op;
        start[e] = (uint32_t)w;
        for (uint32_t j = 0; j < c->n; j++) {
            int64_t v = p->choice_vals.data[c->first + j];
            cand[w++] = v == VALUE_INIT ? c->key : history_writer_of(h, c->key, v);   /* INIT's op k writes key k */
        }
    }
    start[k] = (uint32_t)w;
    free(at);
    h->num_amb = (uint32_t)k;
    h->amb_read = read; h->amb_start = start; h->amb_cand = cand;
    h->amb_why = xcalloc(w ? w : 1, 1);           /* none ruled out */
    p->choices_attached = k > 0;
    vec_free(p->choices); vec_free(p->choice_vals);
    return 1;
}
