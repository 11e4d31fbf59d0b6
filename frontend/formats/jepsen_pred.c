/* jepsen_pred.c — closed-predicate histories lowered to reads (contract in
 * jepsen_pred.h). */
#include "frontend/formats/jepsen_pred.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"

typedef struct jp_ver { uint32_t key, txn, line; int64_t value; uint8_t status, dead, over; } jp_ver;   /* over: its txn wrote the key again */
typedef struct jp_ret { uint32_t read, key, op; int64_t value; uint8_t ext; } jp_ret;   /* ext: no own write before */
typedef struct jp_own_t { uint32_t read, key, op; int64_t own; uint8_t has_own, own_dead; } jp_own_t;
typedef struct jp_item { uint64_t id; int64_t value; } jp_item;
typedef struct jp_nil { uint32_t op, key, txn, line; int64_t own; uint8_t has_own, own_dead; } jp_nil;

struct jp_state {
    int active;
    u64map init_ix;              /* key -> index in init_vals */
    vec_i64 init_vals;
    VEC(jp_ver) vers;
    history_preds *preds;
    VEC(jp_ret) rets;            /* grouped by read (appended in read order) */
    VEC(jp_own_t) owns;
    VEC(jp_nil) nils;
    size_t txn_start;            /* vers[txn_start..]: the current transaction's */
    VEC(jp_item) items;          /* each txn's item reads before its own write, in order (indexed only
                                    by jp_finish of an active history: a hash per read cost the
                                    reader of every history a cache miss a read) */
    u64map item_ix;              /* (txn << 32 | key) -> index in items: a txn's first external item read */
    u64map choice_ix;            /* (txn << 32 | key): a choice made for it (pred_choice) */
    u64map lowered_ix;           /* (txn << 32 | key): a nil read lowered to one version */
    u64map alt_ix;               /* (txn << 32 | key): rc's choice of a view that a read of the key pins (rc_view) */
    /* the transaction whose predicate reads are being resolved: per key, its
     * view so far (vstamp == vtxn + 1): a version (pinned, vval) */
    uint32_t vtxn, *vstamp;
    int64_t *vval;
    uint8_t *vlone;              /* the view is a lone candidate's (not a returned pair) */
};

jp_state *jp_new(void) {
    jp_state *s = xcalloc(1, sizeof *s);
    u64map_init(&s->init_ix);
    u64map_init(&s->item_ix);
    u64map_init(&s->choice_ix);
    u64map_init(&s->lowered_ix);
    u64map_init(&s->alt_ix);
    s->preds = preds_new();
    return s;
}

void jp_free(jp_state *s) {
    if (!s) return;
    u64map_free(&s->init_ix);
    u64map_free(&s->item_ix);
    u64map_free(&s->choice_ix);
    u64map_free(&s->lowered_ix);
    u64map_free(&s->alt_ix);
    free(s->vstamp); free(s->vval); free(s->vlone);
    vec_free(s->items);
    vec_free(s->init_vals); vec_free(s->vers); vec_free(s->rets); vec_free(s->owns); vec_free(s->nils);
    preds_free(s->preds);
    free(s);
}

int jp_active(const jp_state *s) { return s->active; }
void jp_activate(jp_state *s) { s->active = 1; }

void jp_activate_replay(jp_state *s, const history_builder *b, const uint32_t *nil_pairs, size_t n) {
    if (s->active) return;
    s->active = 1;
    uint32_t cur = HISTORY_NONE, nops = hb_num_ops(b);
    size_t ni = 0;
    for (uint32_t i = 0; i < nops; i++) {
        uint32_t txn, key, line;
        unsigned kind;
        int64_t v;
        hb_op_get(b, i, &txn, &kind, &key, &v, &line);
        if (txn != cur) { jp_begin_txn(s); cur = txn; }
        if (ni + 1 < n && nil_pairs[ni] == i) {
            jp_nil_read(s, i, key, txn, line);
            ni += 2;
        } else if ((kind & OP_KIND_MASK) == OP_READ) jp_item_read(s, key, v, txn);
        else if ((kind & OP_KIND_MASK) == OP_WRITE) jp_version(s, key, v, txn, (uint8_t)hb_txn_status_of(b, txn), 0, line);
    }
}

int jp_init(jp_state *s, uint32_t key, int64_t value) {
    s->active = 1;
    if (u64map_get(&s->init_ix, key) != UINT32_MAX) return 0;
    u64map_put(&s->init_ix, key, (uint32_t)s->init_vals.len);
    vec_push(s->init_vals, value);
    return 1;
}

static int init_of(const jp_state *s, uint32_t key, int64_t *v) {
    uint32_t i = u64map_get(&s->init_ix, key);
    if (i == UINT32_MAX) return 0;
    *v = s->init_vals.data[i];
    return 1;
}

int64_t jp_read_value(const jp_state *s, uint32_t key, int64_t v) {
    int64_t iv;
    if (!s->init_vals.len) return v;                        /* (every write of a history asks) */
    return init_of(s, key, &iv) && iv == v ? VALUE_INIT : v;
}

void jp_version(jp_state *s, uint32_t key, int64_t value, uint32_t txn, uint8_t status, int dead, uint32_t line) {
    if (!s->active) return;                                 /* (replayed on activation) */
    for (size_t i = s->txn_start; i < s->vers.len; i++)     /* an overwritten write is no version */
        if (s->vers.data[i].key == key && s->vers.data[i].txn == txn) s->vers.data[i].over = 1;
    jp_ver v = { key, txn, line, value, status, (uint8_t)(dead != 0), 0 };
    vec_push(s->vers, v);
    if (dead) vec_push(s->preds->dead, value);
}

uint32_t jp_read(jp_state *s, const predicate *p, uint32_t txn, uint32_t line) {
    s->active = 1;
    pred_read r = { *p, txn, line, 0, 0, 0, PRED_POS_NONE };
    vec_push(s->preds->reads, r);
    return (uint32_t)s->preds->reads.len - 1;
}

static int own_so_far(const jp_state *s, uint32_t key, int64_t *v, uint8_t *dead);

void jp_read_pos(jp_state *s, uint32_t read, uint32_t pos) { s->preds->reads.data[read].pos = pos; }

void jp_read_keys(jp_state *s, uint32_t read, int64_t lo, int64_t hi) {
    pred_read *r = &s->preds->reads.data[read];
    r->keyed = 1;
    r->klo = lo;
    r->khi = hi;
}

/* Whether read rd covers key k of b. */
static int covers(const history_builder *b, const pred_read *rd, uint32_t k) {
    int64_t ext = 0;
    if (!rd->keyed) return 1;
    int named = !hb_key_int(b, k, &ext);
    return pred_read_covers(rd, named, ext);
}

void jp_returned(jp_state *s, uint32_t read, uint32_t key, int64_t value, uint32_t op) {
    int64_t own;
    uint8_t dead;
    jp_ret r = { read, key, op, value, (uint8_t)!own_so_far(s, key, &own, &dead) };
    vec_push(s->rets, r);
}

void jp_begin_txn(jp_state *s) { s->txn_start = s->vers.len; }

/* The current transaction's last version of key so far: 1 with *v, *dead. */
static int own_so_far(const jp_state *s, uint32_t key, int64_t *v, uint8_t *dead) {
    for (size_t i = s->vers.len; i > s->txn_start; i--)
        if (s->vers.data[i - 1].key == key) { *v = s->vers.data[i - 1].value; *dead = s->vers.data[i - 1].dead; return 1; }
    return 0;
}

void jp_own(jp_state *s, uint32_t read, uint32_t key, uint32_t op) {
    jp_own_t o = { read, key, op, 0, 0, 0 };
    o.has_own = (uint8_t)own_so_far(s, key, &o.own, &o.own_dead);
    vec_push(s->owns, o);
}

int64_t jp_item_read(jp_state *s, uint32_t key, int64_t v, uint32_t txn) {
    if (!s->active) return v;                               /* (no :init while inactive) */
    int64_t value = jp_read_value(s, key, v), own;
    uint8_t dead;
    uint64_t id = (uint64_t)txn << 32 | key;
    if (own_so_far(s, key, &own, &dead)) return value;
    jp_item it = { id, value };
    vec_push(s->items, it);
    return value;
}

void jp_nil_read(jp_state *s, uint32_t op, uint32_t key, uint32_t txn, uint32_t line) {
    if (!s->active) return;
    jp_nil n = { op, key, txn, line, 0, 0, 0 };
    n.has_own = (uint8_t)own_so_far(s, key, &n.own, &n.own_dead);
    vec_push(s->nils, n);
}

const char *jp_parse_predicate(const optree *t, uint32_t node, predicate *p) {
    static const char *const ops[] = { "=", "not=", "<", "<=", ">", ">=" };
    static const pred_kind kinds[] = { PRED_EQ, PRED_NE, PRED_LT, PRED_LE, PRED_GT, PRED_GE };
    const char *want = "a predicate (:true, [:= c], [:< c], [:<= c], [:> c], [:>= c], [:not= c], [:mod m r], [:range lo hi])";
    memset(p, 0, sizeof *p);
    if (node == OV_NONE) return want;
    if (ot_is_name(t, node, "true")) { p->kind = PRED_TRUE; return NULL; }
    const ov_node *n = ot_node(t, node);
    if ((n->kind != OV_VECTOR && n->kind != OV_LIST) || n->count < 2 || n->count > 3) return want;
    uint32_t fn = n->child, a = ot_node(t, fn)->next, b = ot_node(t, a)->next;
    if (ot_node(t, a)->kind != OV_INT || (b != OV_NONE && ot_node(t, b)->kind != OV_INT))
        return "a predicate over 64-bit integer constants";
    p->a = ot_node(t, a)->ival;
    p->b = b != OV_NONE ? ot_node(t, b)->ival : 0;
    int two = b != OV_NONE;
    if (two && ot_is_name(t, fn, "mod") && p->a != 0) { p->kind = PRED_MOD; return NULL; }
    if (two && ot_is_name(t, fn, "range")) { p->kind = PRED_RANGE; return NULL; }
    for (int i = 0; i < 6 && !two; i++)
        if (ot_is_name(t, fn, ops[i])) { p->kind = (uint8_t)kinds[i]; return NULL; }
    return want;
}

const char *jp_parse_read_pred(const optree *t, uint32_t node, jp_pred *p, uint32_t *bad) {
    memset(p, 0, sizeof *p);
    *bad = node;
    const ov_node *n = node == OV_NONE ? NULL : ot_node(t, node);
    if (!n || (n->kind != OV_VECTOR && n->kind != OV_LIST) || n->count != 3 || !ot_is_name(t, n->child, "and"))
        return jp_parse_predicate(t, node, &p->p);
    const char *want = "a key range and a predicate: [:and [:key-in a b] PRED] (integers a <= b)";
    uint32_t kin = ot_node(t, n->child)->next, pred = ot_node(t, kin)->next;
    const ov_node *k = ot_node(t, kin);
    if ((k->kind != OV_VECTOR && k->kind != OV_LIST) || k->count != 3 || !ot_is_name(t, k->child, "key-in")) return want;
    uint32_t a = ot_node(t, k->child)->next, b = ot_node(t, a)->next;
    if (ot_node(t, a)->kind != OV_INT || ot_node(t, b)->kind != OV_INT) return want;
    p->keyed = 1;
    p->klo = ot_node(t, a)->ival;
    p->khi = ot_node(t, b)->ival;
    if (p->klo > p->khi) return want;
    *bad = pred;
    return jp_parse_predicate(t, pred, &p->p);
}

/* ---- resolution ------------------------------------------------------------ */

/* Versions grouped by key: ver_start[k] .. ver_start[k+1] index `order`. */
typedef struct jp_index { uint32_t *start, *order; uint32_t nkeys; } jp_index;

static void index_versions(const jp_state *s, uint32_t nkeys, jp_index *ix) {
    ix->nkeys = nkeys;
    ix->start = xcalloc((size_t)nkeys + 1, sizeof *ix->start);
    ix->order = xmalloc((s->vers.len ? s->vers.len : 1) * sizeof *ix->order);
    for (size_t i = 0; i < s->vers.len; i++) ix->start[s->vers.data[i].key + 1]++;
    for (uint32_t k = 0; k < nkeys; k++) ix->start[k + 1] += ix->start[k];
    uint32_t *cur = xmalloc(((size_t)nkeys + 1) * sizeof *cur);
    for (uint32_t k = 0; k <= nkeys; k++) cur[k] = ix->start[k];
    for (size_t i = 0; i < s->vers.len; i++) ix->order[cur[s->vers.data[i].key]++] = (uint32_t)i;
    free(cur);
}

/* A candidate version of key: INIT's (ver NONE) or vers[ver]; its data. */
typedef struct cand { uint32_t ver; int present; int64_t data; int64_t value; } cand;

static cand init_cand(const jp_state *s, uint32_t key) {
    cand c = { HISTORY_NONE, 0, 0, VALUE_INIT };
    c.present = init_of(s, key, &c.data);
    return c;
}

static cand ver_cand(const jp_state *s, uint32_t i) {
    const jp_ver *v = &s->vers.data[i];
    cand c = { i, !v->dead, v->value, v->value };
    return c;
}

static int named(int64_t v) { return v < VALUE_NAME_BASE + (int64_t)UINT32_MAX; }

static int bad_value(const cand *c, const char *source, uint32_t line, ic_error *err, const jp_state *s) {
    uint32_t at = c->ver == HISTORY_NONE ? line : s->vers.data[c->ver].line;
    ic_error_at(err, source, at, "predicate reads compare integer values; this value is not a 64-bit integer");
    return 0;
}

typedef struct split { uint32_t n_match, n_other; cand match, other; } split;

/* Key's versions a reader in txn could see (not its own, none aborted),
 * split by p (absent: only absent versions are "other"). */
static int split_versions(const jp_state *s, const jp_index *ix, uint32_t key, uint32_t txn, const predicate *p,
                          split *sp, const char *source, uint32_t line, ic_error *err) {
    sp->n_match = sp->n_other = 0;
    for (uint32_t j = ix->start[key]; j <= ix->start[key + 1]; j++) {
        cand c;
        if (j == ix->start[key + 1]) c = init_cand(s, key);
        else {
            const jp_ver *v = &s->vers.data[ix->order[j]];
            if (v->txn == txn || v->status == TXN_ABORTED || v->over) continue;
            c = ver_cand(s, ix->order[j]);
        }
        if (c.present && named(c.data)) return bad_value(&c, source, line, err, s);
        int m = p ? pred_match_version(p, c.present, c.data) : c.present;
        if (m) { if (!sp->n_match++ || c.ver != HISTORY_NONE) sp->match = c; }   /* a transaction's, rather than INIT's */
        else { sp->n_other++; sp->other = c; }
    }
    return 1;
}

/* Key's version with model value v (INIT's for VALUE_INIT): 1 with *c set. */
static int version_of(const jp_state *s, const jp_index *ix, uint32_t key, int64_t v, cand *c) {
    if (v == VALUE_INIT) { *c = init_cand(s, key); return 1; }
    for (uint32_t j = ix->start[key]; j < ix->start[key + 1]; j++)
        if (s->vers.data[ix->order[j]].value == v) { *c = ver_cand(s, ix->order[j]); return !c->present || !named(c->data); }
    return 0;
}

static void fact(jp_state *s, pred_fact_kind kind, uint32_t read, uint32_t key, int64_t value) {
    int64_t data = value;
    if (value == VALUE_INIT) init_of(s, key, &data);
    pred_fact f = { .kind = (uint8_t)kind, .read = read, .key = key, .value = value, .data = data };
    vec_push(s->preds->facts, f);
}

static int undecided(const char *source, uint32_t line, uint32_t n_other, const char *why, ic_error *err) {
    ic_error_at(err, source, line,
                "which version this read saw of a key it did not return depends on the version order (%" PRIu32
                " versions of the key could be it%s): not decided yet (doc/checker.md, \"Predicate reads\")", n_other, why);
    return 0;
}

/* Transaction txn's reads of key saw the version of value v (one snapshot
 * a transaction): later predicate reads of the key by it are pinned to it. */
static void pin_version(jp_state *s, uint32_t txn, uint32_t key, int64_t v) {
    uint64_t id = (uint64_t)txn << 32 | key;
    if (u64map_get(&s->item_ix, id) != UINT32_MAX) return;
    u64map_put(&s->item_ix, id, (uint32_t)s->items.len);
    jp_item it = { id, v };
    vec_push(s->items, it);
}

/* Of choice c's candidates, those p does not match stay (p NULL: every one
 * that is a version): a second read of the key by the same transaction
 * keeps what both allow.  How many stay. */
static uint32_t narrow_choice(jp_state *s, const jp_index *ix, pred_choice *c, const predicate *p) {
    uint32_t keep = 0;
    for (uint32_t j = 0; j < c->n; j++) {
        int64_t v = s->preds->choice_vals.data[c->first + j];
        cand x;
        if (version_of(s, ix, c->key, v, &x) && (!p || !pred_match_version(p, x.present, x.data)))
            s->preds->choice_vals.data[c->first + keep++] = v;
    }
    return c->n = keep;
}

/* c's candidates, appended to choice_vals: the versions of c->key that p
 * does not match (p NULL: the absent ones), INIT's included, none of
 * c->txn's own, aborted or overwritten inside its transaction.  0 (and
 * nothing appended) when one is an indeterminate transaction's. */
static int gather_choice(jp_state *s, const jp_index *ix, pred_choice *c, const predicate *p) {
    uint32_t key = c->key;
    for (uint32_t j = ix->start[key]; j <= ix->start[key + 1]; j++) {
        cand v;
        if (j == ix->start[key + 1]) v = init_cand(s, key);
        else {
            const jp_ver *w = &s->vers.data[ix->order[j]];
            if (w->txn == c->txn || w->status == TXN_ABORTED || w->over) continue;
            if (w->status != TXN_COMMITTED) { s->preds->choice_vals.len = c->first; c->n = 0; return 0; }
            v = ver_cand(s, ix->order[j]);
        }
        if (p ? pred_match_version(p, v.present, v.data) : v.present) continue;
        vec_push(s->preds->choice_vals, v.value);
        c->n++;
    }
    return 1;
}

/* The reader (txn) saw one of several versions of key — those p does not
 * match (a predicate read), or the absent ones (p NULL: a read of nil) —
 * and the version order decides which: record the choice
 * (preds_attach_choices makes it an ambiguous read after hb_finish) with
 * every such version, each INIT's or a committed transaction's (an
 * indeterminate writer would have to become a participant only under some
 * choices).  A second predicate read of the key by the transaction keeps
 * the candidates both allow (one version a transaction).  The marker its
 * op reads, or 0 (undecided: an indeterminate candidate, none left, or the
 * key already read as one version). */
static int64_t record_choice(jp_state *s, history_builder *b, const jp_index *ix, uint32_t r, uint32_t key, uint32_t txn,
                             const predicate *p) {
    uint64_t id = (uint64_t)txn << 32 | key;
    if (u64map_get(&s->lowered_ix, id) != UINT32_MAX || (s->vstamp && s->vtxn == txn && s->vstamp[key] == txn + 1))
        return 0;                                /* read as one version already */
    uint32_t prev = u64map_get(&s->choice_ix, id);
    if (prev != UINT32_MAX)                      /* intersect with the first predicate read's */
        return narrow_choice(s, ix, &s->preds->choices.data[prev], p) ? s->preds->choices.data[prev].marker : 0;
    pred_choice c = { r, key, (uint32_t)s->preds->choice_vals.len, 0, txn, hb_name(b, "unread@?", 8), 0 };
    if (!gather_choice(s, ix, &c, p)) return 0;
    u64map_put(&s->choice_ix, id, (uint32_t)s->preds->choices.len);
    vec_push(s->preds->choices, c);
    return c.marker;
}

/* rc's view of key by predicate read r of txn, which a read of the key by
 * txn pins to a version that matches (PF_MISS_READ): rc lets the view be
 * another version (a non-repeatable read), one of those p does not match
 * (not txn's own, none aborted or overwritten), a choice as record_choice's
 * (a second such read of the key by txn keeps the candidates both allow).
 * Its marker, or 0: none (the miss breaks rc too), or one of them an
 * indeterminate transaction's (not decided: rc fails, as every level). */
static int64_t rc_view_choice(jp_state *s, history_builder *b, const jp_index *ix, uint32_t r, uint32_t key, uint32_t txn,
                              const predicate *p) {
    uint64_t id = (uint64_t)txn << 32 | key;
    uint32_t prev = u64map_get(&s->alt_ix, id);
    if (prev != UINT32_MAX)                      /* intersect with the first such read's */
        return narrow_choice(s, ix, &s->preds->choices.data[prev], p) ? s->preds->choices.data[prev].marker : 0;
    pred_choice c = { r, key, (uint32_t)s->preds->choice_vals.len, 0, txn, 0, 1 };
    if (!gather_choice(s, ix, &c, p)) return 0;
    if (!c.n) return 0;
    c.marker = hb_name(b, "unread@?", 8);
    u64map_put(&s->alt_ix, id, (uint32_t)s->preds->choices.len);
    vec_push(s->preds->choices, c);
    return c.marker;
}

static int resolve_nils(jp_state *s, history_builder *b, const jp_index *ix, const char *source, ic_error *err) {
    for (size_t i = 0; i < s->nils.len; i++) {
        const jp_nil *n = &s->nils.data[i];
        if (n->key >= ix->nkeys) continue;
        if (n->has_own) {              /* its own version: dead, or a value nil contradicts */
            hb_op_set(b, n->op, OP_READ, n->own_dead ? n->own : hb_name(b, "absent", 6));
            continue;
        }
        split sp;
        if (!split_versions(s, ix, n->key, n->txn, NULL, &sp, source, n->line, err)) return 0;
        int64_t v = sp.n_other ? sp.other.value : hb_name(b, "absent", 6);
        if (sp.n_other > 1) {                          /* one of several absent versions: a choice */
            v = record_choice(s, b, ix, HISTORY_NONE, n->key, n->txn, NULL);
            if (!v) return undecided(source, n->line, sp.n_other, ", one of them an indeterminate transaction's", err);
        } else u64map_put(&s->lowered_ix, (uint64_t)n->txn << 32 | n->key, 1);
        hb_op_set(b, n->op, OP_READ, v);
        pin_version(s, n->txn, n->key, v);                     /* absent: whichever it is, no predicate matches it */
    }
    return 1;
}

/* The fact just recorded (PF_MISS_READ: txn's predicate read p missed key,
 * which the transaction saw in a matching version) gets rr's view
 * (predicate.h): the versions of key p does not match that the reader
 * could see — INIT's, and those of every committed transaction but its
 * own (no aborted or overwritten write is a version).  None when one of
 * them is an indeterminate transaction's (seeing it would make that one a
 * participant under some views only) or none is left: the fact then
 * breaks rr as well.  by_pred: the matching version is another predicate
 * read's lone candidate (kind (b)). */
static void rr_view(jp_state *s, const jp_index *ix, uint32_t key, uint32_t txn, const predicate *p, int by_pred) {
    pred_fact *f = &vec_last(s->preds->facts);
    vec_i64 *vals = &s->preds->view_vals;
    size_t first = vals->len;
    for (uint32_t j = ix->start[key]; j <= ix->start[key + 1]; j++) {
        cand v;
        if (j == ix->start[key + 1]) v = init_cand(s, key);
        else {
            const jp_ver *w = &s->vers.data[ix->order[j]];
            if (w->txn == txn || w->status == TXN_ABORTED || w->over) continue;
            if (w->status != TXN_COMMITTED) { vals->len = first; return; }
            v = ver_cand(s, ix->order[j]);
        }
        if (v.present && named(v.data)) { vals->len = first; return; }   /* no integer: no view */
        if (!pred_match_version(p, v.present, v.data)) vec_push(*vals, v.value);
    }
    f->vfirst = (uint32_t)first;
    f->vn = (uint32_t)(vals->len - first);
    f->by_pred = (uint8_t)(by_pred != 0);
}

/* One predicate read: its returned pairs (rets[*ri..]) and own keys
 * (owns[*oi..]) are the next ones; mark[] is per key scratch. */
static int resolve_read(jp_state *s, history_builder *b, const jp_index *ix, uint32_t r, size_t *ri, size_t *oi,
                        uint32_t *mark, uint32_t *own_op, const uint8_t *is_list, const char *source, ic_error *err) {
    const pred_read rd = s->preds->reads.data[r];
    if (r == 0 || s->preds->reads.data[r - 1].txn != rd.txn) {
        /* a new transaction: every pair its predicate reads returned (before
         * an own write of the key) is its view of the key, for the others */
        s->vtxn = rd.txn;
        for (size_t j = *ri; j < s->rets.len && s->preds->reads.data[s->rets.data[j].read].txn == rd.txn; j++) {
            const jp_ret *rt = &s->rets.data[j];
            if (!rt->ext || s->vstamp[rt->key] == rd.txn + 1) continue;
            s->vstamp[rt->key] = rd.txn + 1;
            s->vval[rt->key] = rt->value;
            s->vlone[rt->key] = 0;
        }
    }
    for (; *ri < s->rets.len && s->rets.data[*ri].read == r; (*ri)++) {
        const jp_ret *rt = &s->rets.data[*ri];
        mark[rt->key] = r;
        hb_op_tag(b, rt->op, pred_tag(r, 1));
        if (!covers(b, &rd, rt->key)) fact(s, PF_MISMATCH, r, rt->key, rt->value);   /* outside its keys */
        else if (rt->value == VALUE_INIT) {
            cand c = init_cand(s, rt->key);
            if (!pred_match_version(&rd.p, c.present, c.data)) fact(s, PF_MISMATCH, r, rt->key, VALUE_INIT);
        } else if (!named(rt->value) && !pred_match(&rd.p, rt->value)) fact(s, PF_MISMATCH, r, rt->key, rt->value);
    }
    for (; *oi < s->owns.len && s->owns.data[*oi].read == r; (*oi)++) {
        const jp_own_t *o = &s->owns.data[*oi];
        hb_op_tag(b, o->op, pred_tag(r, 0));
        if (mark[o->key] == r || own_op[o->key] != HISTORY_NONE || !covers(b, &rd, o->key)) {   /* returned, twice, outside */
            hb_op_set(b, o->op, OP_READ | OP_FAILED, VALUE_INIT);
            continue;
        }
        if (o->has_own) {                              /* its own version */
            mark[o->key] = r;
            hb_op_set(b, o->op, OP_READ, o->own);
            if (!o->own_dead && pred_match(&rd.p, o->own)) fact(s, PF_MISS_OWN, r, o->key, o->own);
        } else own_op[o->key] = o->op;                 /* resolved below, like any other key */
    }
    for (uint32_t k = 0; k < ix->nkeys; k++) {
        if (mark[k] == r || (is_list && is_list[k]) || !covers(b, &rd, k)) continue;
        uint32_t op = own_op[k];
        own_op[k] = HISTORY_NONE;
        uint32_t pin = u64map_get(&s->item_ix, (uint64_t)rd.txn << 32 | k);
        int viewed = s->vstamp[k] == rd.txn + 1;
        if (pin != UINT32_MAX || viewed) {             /* the transaction read k itself: that version */
            cand c;
            int64_t v = pin != UINT32_MAX ? s->items.data[pin].value : s->vval[k];
            if (version_of(s, ix, k, v, &c) && pred_match_version(&rd.p, c.present, c.data)) {
                fact(s, PF_MISS_READ, r, k, c.value);
                rr_view(s, ix, k, rd.txn, &rd.p, pin == UINT32_MAX && s->vlone[k]);   /* rr's view (pred_fact.vn) */
                int64_t marker = rc_view_choice(s, b, ix, r, k, rd.txn, &rd.p);
                if (marker) {                          /* rc: the view is a choice of its own (pred_fact.rc_view) */
                    vec_last(s->preds->facts).rc_view = 1;
                    if (op == HISTORY_NONE) op = hb_op(b, rd.txn, OP_READ, k, marker, rd.line);
                    else hb_op_set(b, op, OP_READ, marker);
                    hb_op_tag(b, op, pred_tag(r, 0));
                    continue;
                }
            } else if (pin != UINT32_MAX && version_of(s, ix, k, v, &c)) {
                /* a version it does not match: the view is that version, read
                 * again at the predicate read's place (preds_op_rank), where
                 * rc's premise asks what the transaction read before (an item
                 * read before it makes it a later read; rc would allow any
                 * version p leaves out there: a restriction, never a PASS too
                 * many; one version a transaction elsewhere: no new edge) */
                if (op == HISTORY_NONE) op = hb_op(b, rd.txn, OP_READ, k, v, rd.line);
                else hb_op_set(b, op, OP_READ, v);
                hb_op_tag(b, op, pred_tag(r, 0));
                continue;
            }
            if (op != HISTORY_NONE) hb_op_set(b, op, OP_READ | OP_FAILED, VALUE_INIT);
            continue;
        }
        split sp;
        if (!split_versions(s, ix, k, rd.txn, &rd.p, &sp, source, rd.line, err)) return 0;
        if (sp.n_match && sp.n_other > 1) {            /* it saw one of these: a choice (preds_attach_choices) */
            int64_t marker = record_choice(s, b, ix, r, k, rd.txn, &rd.p);
            if (!marker)
                return undecided(source, rd.line, sp.n_other, ", and one that matches could not; one of them is an "
                                 "indeterminate transaction's, or another read of the key by the same transaction "
                                 "leaves none", err);
            if (op == HISTORY_NONE) op = hb_op(b, rd.txn, OP_READ, k, marker, rd.line);
            else hb_op_set(b, op, OP_READ, marker);
            hb_op_tag(b, op, pred_tag(r, 0));
            continue;
        }
        if (sp.n_match && sp.n_other == 1) {           /* it saw the one version that does not match */
            if (u64map_get(&s->choice_ix, (uint64_t)rd.txn << 32 | k) != UINT32_MAX)
                return undecided(source, rd.line, 1, ", and another predicate read of the key by the same transaction "
                                 "is a choice among several", err);
            s->vstamp[k] = rd.txn + 1;                 /* later predicate reads of k by it: this version */
            s->vval[k] = sp.other.value;
            s->vlone[k] = 1;
            if (op == HISTORY_NONE) op = hb_op(b, rd.txn, OP_READ, k, sp.other.value, rd.line);
            else hb_op_set(b, op, OP_READ, sp.other.value);
            hb_op_tag(b, op, pred_tag(r, 0));
            continue;
        }
        if (sp.n_match && !sp.n_other) fact(s, PF_MISS, r, k, sp.match.value);
        if (op != HISTORY_NONE) hb_op_set(b, op, OP_READ | OP_FAILED, VALUE_INIT);
    }
    return 1;
}

/* Own placeholders grouped by read, in emission order (the text reader
 * adds a read's placeholders for keys written after it later, interleaved
 * with the next reads'; Elle's are grouped already). */
static int cmp_own(const void *x, const void *y) {
    const jp_own_t *a = x, *b = y;
    if (a->read != b->read) return a->read < b->read ? -1 : 1;
    return (a->op > b->op) - (a->op < b->op);
}

int jp_finish(jp_state *s, history_builder *b, const uint8_t *is_list, uint32_t nkeys, const char *source, ic_error *err) {
    if (!s->active) return 1;
    if (s->owns.len > 1) qsort(s->owns.data, s->owns.len, sizeof *s->owns.data, cmp_own);
    for (size_t i = 0; i < s->items.len; i++)        /* the first read of each (txn, key) */
        u64map_put(&s->item_ix, s->items.data[i].id, (uint32_t)i);
    jp_index ix;
    index_versions(s, nkeys, &ix);
    int ok = resolve_nils(s, b, &ix, source, err);
    uint32_t *mark = xmalloc(((size_t)nkeys + 1) * sizeof *mark);
    uint32_t *own_op = xmalloc(((size_t)nkeys + 1) * sizeof *own_op);
    for (uint32_t k = 0; k < nkeys; k++) { mark[k] = HISTORY_NONE; own_op[k] = HISTORY_NONE; }
    s->vstamp = xcalloc((size_t)nkeys + 1, sizeof *s->vstamp);
    s->vval = xcalloc((size_t)nkeys + 1, sizeof *s->vval);
    s->vlone = xcalloc((size_t)nkeys + 1, 1);
    size_t ri = 0, oi = 0;
    for (uint32_t r = 0; ok && r < s->preds->reads.len; r++)
        ok = resolve_read(s, b, &ix, r, &ri, &oi, mark, own_op, is_list, source, err);
    free(mark); free(own_op); free(ix.start); free(ix.order);
    if (!ok) return 0;
    if (s->preds->reads.len || s->preds->choices.len) {     /* choices: preds_attach_choices */
        for (uint32_t k = 0; k < nkeys; k++) {
            int64_t v = 0;
            vec_push(s->preds->init_present, (uint8_t)init_of(s, k, &v));
            vec_push(s->preds->init_data, v);
        }
        hb_set_preds(b, s->preds);
        s->preds = preds_new();
    }
    return 1;
}
