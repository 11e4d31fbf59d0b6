/* verify_model.c — rebuild the dependency graph of a history under a given
 * version order, by definition, and check it for cycles (see the header).
 *
 * Independence.  This is the re-check of every answer of the pipeline, so
 * it derives the meaning of every read itself, from the raw operation
 * arrays (op_kind, op_key, op_value, op_txn, txns) and history_list()
 * alone: it calls none of the history model's interpretation helpers
 * (history_read_source, history_external_source, history_txn_external_read,
 * history_txn_final_write, history_writer_of, history_participants) and
 * nothing of the polygraph code but the dep_edge type.  Its graph and
 * cycle search are its own on purpose, not depgraph.h's: a re-check must
 * share no code with what it re-checks.
 *
 * How it reads a history under a version order (per key k, versions
 * v_0 = INIT, v_1, ... as listed):
 *   - version i installs its transaction's last successful write of k
 *     (registers), or appends all its successful appends to k in program
 *     order (lists): the list at version i is the concatenation of the
 *     appends of v_1..v_i;
 *   - a participant's ops on k are replayed in program order against one
 *     snapshot version s, unknown until a read reveals it: a register read
 *     before an own write must see version s's value, after one the own
 *     write; a list read must be (list at s) ++ (own appends so far).  The
 *     first read fixes s (the version whose value, or whose list, the read
 *     shows without the own suffix); every later read must agree with it;
 *   - s gives WR v_s -> t and RW t -> v_{s+1} (unless that is t itself).
 * Participants are INIT, the committed transactions and, to a fixpoint,
 * the indeterminate ones whose writes a participant's read shows; the
 * version order must list exactly the participants' writers. */
#include "frontend/checking/verify_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"

void version_order_free(version_order *vo) {
    free(vo->start);
    vec_free(vo->txns);
    vo->start = NULL;
    vo->num_keys = 0;
}

static int op_ok(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }
static op_kind op_k(const history *h, uint32_t op) { return (op_kind)(h->op_kind[op] & OP_KIND_MASK); }

/* ---- (key, value) lookups by sorting ------------------------------------- */

typedef struct kv_entry { uint32_t key; int64_t value; uint32_t id; } kv_entry;

static int cmp_kv(const void *a, const void *b) {
    const kv_entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* id of (key, value) in a sorted table, or UINT32_MAX */
static uint32_t kv_find(const kv_entry *t, size_t n, uint32_t key, int64_t value) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid].key < key || (t[mid].key == key && t[mid].value < value)) lo = mid + 1; else hi = mid;
    }
    return lo < n && t[lo].key == key && t[lo].value == value ? t[lo].id : UINT32_MAX;
}

/* ---- the history read under a version order -------------------------------- */

typedef struct key_op { uint32_t key, op; } key_op;

typedef struct vm {
    const history *h;
    const version_order *vo;
    uint8_t *part;               /* per txn */
    key_op *ko; size_t nko;      /* participants' successful ops, by key then program order */
    uint32_t *ko_start;          /* per key: its slice of ko */
    uint8_t *is_list;            /* per key */
    int64_t *marker;             /* per version g: installed value / last element (INIT: VALUE_INIT) */
    uint32_t *len;               /* per version g: length of the list at g */
    uint32_t *el_start;          /* per key: its full list in el */
    vec_i64 el;                  /* per key, the appends of its versions in order */
    uint32_t *gkey;              /* per version g: its key */
    uint32_t *slot; uint64_t mask;   /* open addressing: (key, marker) -> g, UINT32_MAX empty */
    uint32_t *grp_key, *grp_at;  /* per txn: key whose slice it was seen in, where its ops start */
} vm;

static void vm_free(vm *m) {
    free(m->part); free(m->ko); free(m->ko_start); free(m->is_list); free(m->marker); free(m->len);
    free(m->el_start); vec_free(m->el); free(m->gkey); free(m->slot); free(m->grp_key); free(m->grp_at);
    memset(m, 0, sizeof *m);
}

/* The marker table: a slot holds a version g; a probe compares g's key and
 * marker exactly, so collisions cost time, never a wrong answer. */
static uint64_t mk_hash(uint32_t key, int64_t v) {
    uint64_t x = (uint64_t)v * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)key << 32 | key);
    x ^= x >> 31; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 29;
    return x;
}
static void mk_put(vm *m, uint32_t g) {
    uint64_t i = mk_hash(m->gkey[g], m->marker[g]) & m->mask;
    while (m->slot[i] != UINT32_MAX) i = (i + 1) & m->mask;
    m->slot[i] = g;
}
static uint32_t mk_get(const vm *m, uint32_t key, int64_t v) {
    if (!m->slot) return UINT32_MAX;
    for (uint64_t i = mk_hash(key, v) & m->mask;; i = (i + 1) & m->mask) {
        uint32_t g = m->slot[i];
        if (g == UINT32_MAX || (m->gkey[g] == key && m->marker[g] == v)) return g;
    }
}

/* Participants: INIT, committed, and indeterminate writers whose write a
 * participant reads (any element of a list read), to a fixpoint. */
static uint8_t *participants(const history *h) {
    uint8_t *p = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    VEC(kv_entry) w; vec_init(w);
    for (uint32_t op = 0; op < h->num_ops; op++) {
        op_kind k = op_k(h, op);
        uint32_t t = h->op_txn[op];
        if ((k == OP_WRITE || k == OP_APPEND) && op_ok(h, op) && t && h->txns[t].status == TXN_INDETERMINATE) {
            kv_entry e = { h->op_key[op], h->op_value[op], t };
            vec_push(w, e);
        }
    }
    if (w.len) qsort(w.data, w.len, sizeof *w.data, cmp_kv);
    vec_u32 work; vec_init(work);
    p[0] = 1;
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (h->txns[t].status == TXN_COMMITTED) { p[t] = 1; vec_push(work, t); }
    while (w.len && work.len) {
        uint32_t t = work.data[--work.len];
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            if (!op_ok(h, op) || (op_k(h, op) != OP_READ && op_k(h, op) != OP_LIST_READ)) continue;
            uint32_t n = 1;
            const int64_t *l = &h->op_value[op];
            if (op_k(h, op) == OP_LIST_READ) l = history_list(h, op, &n);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t u = kv_find(w.data, w.len, h->op_key[op], l[i]);
                if (u != UINT32_MAX && u != t && !p[u]) { p[u] = 1; vec_push(work, u); }
            }
        }
    }
    vec_free(work); vec_free(w);
    return p;
}

/* Index the history under vo — only the keys with want[k] set when want
 * is non-NULL (checking a few edges needs only their keys); 0 with why set
 * when vo is not a version order of the participants' writers. */
static int vm_build(vm *m, const history *h, const version_order *vo, const uint8_t *want, char *why, size_t wl) {
    memset(m, 0, sizeof *m);
    m->h = h; m->vo = vo;
    if (vo->num_keys != h->num_keys) { snprintf(why, wl, "version order has %u keys, history %u", vo->num_keys, h->num_keys); return 0; }
    m->part = participants(h);
    uint32_t nk = h->num_keys, nt = h->num_txns;
    /* the participants' successful ops by key, in op order within a key
     * (a counting sort: ops are visited in increasing order) */
    m->ko_start = xcalloc((size_t)nk + 1, sizeof *m->ko_start);
    for (uint32_t t = 1; t < nt; t++) {
        if (!m->part[t]) continue;
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            if (op_ok(h, op) && (!want || want[h->op_key[op]])) { m->ko_start[h->op_key[op] + 1]++; m->nko++; }
    }
    for (uint32_t k = 0; k < nk; k++) m->ko_start[k + 1] += m->ko_start[k];
    m->ko = xmalloc((m->nko ? m->nko : 1) * sizeof *m->ko);
    {
        uint32_t *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
        memcpy(fill, m->ko_start, ((size_t)nk + 1) * sizeof *fill);
        for (uint32_t t = 1; t < nt; t++) {
            if (!m->part[t]) continue;
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
                if (op_ok(h, op) && (!want || want[h->op_key[op]])) { key_op e = { h->op_key[op], op }; m->ko[fill[h->op_key[op]]++] = e; }
        }
        free(fill);
    }
    m->is_list = xcalloc(nk ? nk : 1, 1);
    for (uint32_t op = nk; op < h->num_ops; op++)       /* ops 0..nk-1 are INIT's */
        if (op_k(h, op) == OP_APPEND || op_k(h, op) == OP_LIST_READ) m->is_list[h->op_key[op]] = 1;
    size_t nv = vo->txns.len;
    m->marker = xmalloc((nv ? nv : 1) * sizeof *m->marker);
    m->len = xcalloc(nv ? nv : 1, sizeof *m->len);
    m->el_start = xcalloc((size_t)nk + 1, sizeof *m->el_start);
    m->gkey = xmalloc((nv ? nv : 1) * sizeof *m->gkey);
    uint64_t cap = 64;
    while (cap < 2 * (uint64_t)nv) cap *= 2;
    m->mask = cap - 1;
    m->slot = xmalloc(cap * sizeof *m->slot);
    memset(m->slot, 0xff, cap * sizeof *m->slot);
    m->grp_key = xmalloc((nt ? nt : 1) * sizeof *m->grp_key);
    m->grp_at = xmalloc((nt ? nt : 1) * sizeof *m->grp_at);
    for (uint32_t t = 0; t < nt; t++) m->grp_key[t] = UINT32_MAX;
    uint64_t *listed = xcalloc(nt ? nt : 1, sizeof *listed);     /* 2k+1: writes k, 2k+2: listed for k */
    int ok = 0;
    for (uint32_t k = 0; k < nk; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1];
        if (want && !want[k]) { m->el_start[k] = (uint32_t)m->el.len; continue; }
        if (b <= a || b > vo->txns.len || vo->txns.data[a] != 0) {
            snprintf(why, wl, "key %u: the version order does not start with INIT", k); goto out;
        }
        /* the participants that write k, and where their ops on k start */
        uint32_t writers = 0;
        for (uint32_t i = m->ko_start[k]; i < m->ko_start[k + 1]; i++) {
            uint32_t op = m->ko[i].op, t = h->op_txn[op];
            if (m->grp_key[t] != k) { m->grp_key[t] = k; m->grp_at[t] = i; }
            op_kind ok_ = op_k(h, op);
            if ((ok_ == OP_WRITE || ok_ == OP_APPEND) && listed[t] != 2 * (uint64_t)k + 1) { listed[t] = 2 * (uint64_t)k + 1; writers++; }
        }
        if (b - a - 1 != writers) {
            snprintf(why, wl, "key %u: the version order has %u writers, the history %u", k, b - a - 1, writers); goto out;
        }
        m->el_start[k] = (uint32_t)m->el.len;
        m->marker[a] = VALUE_INIT;
        m->len[a] = 0;
        m->gkey[a] = k;
        mk_put(m, a);
        for (uint32_t g = a + 1; g < b; g++) {
            uint32_t t = vo->txns.data[g];
            if (t == 0 || t >= nt || listed[t] != 2 * (uint64_t)k + 1) {
                snprintf(why, wl, "key %u: bad or repeated writer T%u in the version order", k, t); goto out;
            }
            listed[t] = 2 * (uint64_t)k + 2;            /* listed: a repeat is caught above */
            int64_t last = VALUE_INIT;
            for (uint32_t i = m->grp_at[t]; i < m->ko_start[k + 1] && h->op_txn[m->ko[i].op] == t; i++) {
                uint32_t op = m->ko[i].op;
                if (op_k(h, op) == OP_WRITE) last = h->op_value[op];
                else if (op_k(h, op) == OP_APPEND) { last = h->op_value[op]; vec_push(m->el, last); }
            }
            m->marker[g] = last;
            m->len[g] = (uint32_t)(m->el.len - m->el_start[k]);
            m->gkey[g] = k;
            mk_put(m, g);
        }
    }
    m->el_start[nk] = (uint32_t)m->el.len;
    ok = 1;
out:
    free(listed);
    return ok;
}

/* Replay t's ops on key k (ops[0..n), program order).  1: consistent, *s
 * the snapshot's version index (UINT32_MAX: no read shows it); 0: why. */
static int vm_replay(const vm *m, uint32_t t, uint32_t k, const key_op *ops, size_t n, uint32_t *s, char *why, size_t wl) {
    const history *h = m->h;
    uint32_t a = m->vo->start[k], b = m->vo->start[k + 1];
    const int64_t *full = m->el.data ? m->el.data + m->el_start[k] : NULL;
    int have_own = 0;
    int64_t own_val = 0;
    size_t own_first = 0, own_n = 0;              /* own appends: the OP_APPENDs among ops[own_first..] */
    *s = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t op = ops[i].op;
        switch (op_k(h, op)) {
        case OP_WRITE: have_own = 1; own_val = h->op_value[op]; break;
        case OP_APPEND: if (!own_n) own_first = i; own_n++; break;
        case OP_READ: {
            int64_t v = h->op_value[op];
            if (have_own) {
                if (v != own_val) { snprintf(why, wl, "T%u reads key %u after its own write but not that write", t, k); return 0; }
                break;
            }
            if (*s == UINT32_MAX) {
                uint32_t g = mk_get(m, k, v);
                if (g == UINT32_MAX || g < a || g >= b || m->vo->txns.data[g] == t) {
                    snprintf(why, wl, "T%u's read of key %u is no other participant's installed version", t, k); return 0;
                }
                *s = g - a;
            } else if (m->marker[a + *s] != v) {
                snprintf(why, wl, "T%u reads key %u twice with different values", t, k); return 0;
            }
            break;
        }
        case OP_LIST_READ: {
            uint32_t len;
            const int64_t *l = history_list(h, op, &len);
            if (len < own_n) { snprintf(why, wl, "T%u's list read of key %u misses its own appends", t, k); return 0; }
            uint32_t p = len - (uint32_t)own_n, j = p;
            for (size_t x = own_first; x < i; x++)
                if (op_k(h, ops[x].op) == OP_APPEND && l[j++] != h->op_value[ops[x].op]) {
                    snprintf(why, wl, "T%u's list read of key %u does not end with its own appends", t, k); return 0;
                }
            uint32_t g;
            if (*s != UINT32_MAX) g = a + *s;
            else if (p == 0) g = a;
            else {
                g = mk_get(m, k, l[p - 1]);
                if (g == UINT32_MAX || g < a || g >= b || m->vo->txns.data[g] == t) {
                    snprintf(why, wl, "T%u's list read of key %u is no other participant's installed version", t, k); return 0;
                }
            }
            if (m->len[g] != p || (p && memcmp(l, full, p * sizeof *l))) {
                snprintf(why, wl, "T%u's list read of key %u disagrees with the version order", t, k); return 0;
            }
            *s = g - a;
            break;
        }
        }
    }
    return 1;
}

/* t's snapshot of k (UINT32_MAX: none shown); 0 on an inconsistent read. */
static int vm_snapshot(const vm *m, uint32_t t, uint32_t k, uint32_t *s, char *why, size_t wl) {
    *s = UINT32_MAX;
    if (t == 0 || k >= m->h->num_keys || !m->part[t]) return 1;
    size_t lo = m->ko_start[k], hi = m->ko_start[k + 1];
    while (lo < hi) {                             /* first op of t in k's slice */
        size_t mid = lo + (hi - lo) / 2;
        if (m->h->op_txn[m->ko[mid].op] < t) lo = mid + 1; else hi = mid;
    }
    size_t end = lo;
    while (end < m->ko_start[k + 1] && m->h->op_txn[m->ko[end].op] == t) end++;
    return vm_replay(m, t, k, m->ko + lo, end - lo, s, why, wl);
}

static long vo_index(const version_order *vo, uint32_t key, uint32_t t) {
    if (key >= vo->num_keys) return -1;
    for (uint32_t i = vo->start[key]; i < vo->start[key + 1]; i++)
        if (vo->txns.data[i] == t) return (long)(i - vo->start[key]);
    return -1;
}

static int dep_holds_in(const vm *m, const dep_edge *e, char *why, size_t wl) {
    const history *h = m->h;
    const version_order *vo = m->vo;
    if (e->from >= h->num_txns || e->to >= h->num_txns) { snprintf(why, wl, "no such transaction"); return 0; }
    if (!m->part[e->from] || !m->part[e->to]) { snprintf(why, wl, "T%u or T%u did not commit", e->from, e->to); return 0; }
    uint32_t s;
    switch (e->kind) {
    case DEP_SO:
        if (e->from != 0 && h->txns[e->from].session == h->txns[e->to].session && h->txns[e->from].pos < h->txns[e->to].pos) return 1;
        snprintf(why, wl, "T%u is not before T%u in one session", e->from, e->to);
        return 0;
    case DEP_WR:
        if (!vm_snapshot(m, e->to, e->key, &s, why, wl)) return 0;
        if (s != UINT32_MAX && vo->txns.data[vo->start[e->key] + s] == e->from) return 1;
        snprintf(why, wl, "T%u does not read key %u from T%u", e->to, e->key, e->from);
        return 0;
    case DEP_WW: {
        long a = vo_index(vo, e->key, e->from), b = vo_index(vo, e->key, e->to);
        if (a >= 0 && b >= 0 && a < b) return 1;
        snprintf(why, wl, "T%u's version of key %u is not before T%u's", e->from, e->key, e->to);
        return 0;
    }
    case DEP_RW: {
        if (!vm_snapshot(m, e->from, e->key, &s, why, wl)) return 0;
        long b = vo_index(vo, e->key, e->to);
        if (e->from != e->to && s != UINT32_MAX && b >= 0 && (long)s < b) return 1;
        snprintf(why, wl, "T%u does not read a version of key %u older than T%u's", e->from, e->key, e->to);
        return 0;
    }
    default:
        snprintf(why, wl, "unknown dependency kind");
        return 0;
    }
}

/* want[k] for the keys of edges c[0..n) (NULL if a key is out of range). */
static uint8_t *edge_keys(const history *h, const dep_edge *c, size_t n) {
    uint8_t *want = xcalloc(h->num_keys ? h->num_keys : 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind == DEP_SO) continue;
        if (c[i].key >= h->num_keys) { free(want); return NULL; }
        want[c[i].key] = 1;
    }
    return want;
}

int dep_holds(const history *h, const version_order *vo, const dep_edge *e, char *why, size_t wl) {
    vm m;
    uint8_t *want = edge_keys(h, e, 1);
    int ok = want ? vm_build(&m, h, vo, want, why, wl) && dep_holds_in(&m, e, why, wl) : 0;
    if (!want) { snprintf(why, wl, "no such key"); memset(&m, 0, sizeof m); }
    vm_free(&m);
    free(want);
    return ok;
}

int cycle_holds(const history *h, const version_order *vo, int si,
                const dep_edge *c, size_t n, char *why, size_t wl) {
    if (n == 0) { snprintf(why, wl, "empty cycle"); return 0; }
    vm m;
    memset(&m, 0, sizeof m);
    uint8_t *want = edge_keys(h, c, n);
    int ok = want && vm_build(&m, h, vo, want, why, wl);
    if (!want) snprintf(why, wl, "no such key");
    for (size_t i = 0; i < n && ok; i++) {
        if (!dep_holds_in(&m, &c[i], why, wl)) { ok = 0; break; }
        if (c[i].to != c[(i + 1) % n].from) { snprintf(why, wl, "edges %zu and %zu do not meet", i, (i + 1) % n); ok = 0; break; }
        if (si && c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) {
            snprintf(why, wl, "two adjacent RW edges (allowed under SI)"); ok = 0; break;
        }
    }
    if (ok && si) {
        size_t rw = 0;
        for (size_t i = 0; i < n; i++) rw += c[i].kind == DEP_RW;
        if (rw == n) { snprintf(why, wl, "only RW edges"); ok = 0; }
    }
    vm_free(&m);
    free(want);
    return ok;
}

/* ---- the graph -------------------------------------------------------- */

typedef struct vgraph {
    uint32_t n;
    VEC(uint32_t) from, to, meta;    /* meta: key << 3 | kind */
    uint32_t *start, *adj, *adj_meta;
} vgraph;

static void vg_edge(vgraph *g, int si, dep_kind kind, uint32_t key, uint32_t a, uint32_t b) {
    uint32_t x, y;
    if (!si) { x = a; y = b; }
    else if (kind == DEP_RW) { x = 2 * a + 1; y = 2 * b; }
    else if (kind == DEP_FIXED) { x = 2 * a + 1; y = 2 * a; }
    else { x = 2 * a; y = 2 * b + 1; }
    vec_push(g->from, x); vec_push(g->to, y); vec_push(g->meta, (key << 3) | (uint32_t)kind);
}

static void vg_finish(vgraph *g) {
    g->start = xcalloc((size_t)g->n + 1, sizeof *g->start);
    for (size_t i = 0; i < g->from.len; i++) g->start[g->from.data[i] + 1]++;
    for (uint32_t u = 0; u < g->n; u++) g->start[u + 1] += g->start[u];
    size_t m = g->from.len ? g->from.len : 1;
    g->adj = xmalloc(m * sizeof *g->adj);
    g->adj_meta = xmalloc(m * sizeof *g->adj_meta);
    uint32_t *fill = xmalloc(((size_t)g->n + 1) * sizeof *fill);
    memcpy(fill, g->start, ((size_t)g->n + 1) * sizeof *fill);
    for (size_t i = 0; i < g->from.len; i++) {
        uint32_t j = fill[g->from.data[i]]++;
        g->adj[j] = g->to.data[i];
        g->adj_meta[j] = g->meta.data[i];
    }
    free(fill);
}

static void vg_free(vgraph *g) {
    vec_free(g->from); vec_free(g->to); vec_free(g->meta);
    free(g->start); free(g->adj); free(g->adj_meta);
}

/* Iterative DFS; on a back edge returns 1 and the cycle's nodes in *cyc. */
static int vg_find_cycle(const vgraph *g, vec_u32 *cyc) {
    uint8_t *color = xcalloc(g->n ? g->n : 1, 1);
    uint32_t *it = xmalloc((g->n ? g->n : 1) * sizeof *it);
    vec_u32 stack; vec_init(stack);
    int found = 0;
    for (uint32_t s = 0; s < g->n && !found; s++) {
        if (color[s]) continue;
        vec_push(stack, s); color[s] = 1; it[s] = g->start[s];
        while (stack.len && !found) {
            uint32_t u = vec_last(stack);
            if (it[u] < g->start[u + 1]) {
                uint32_t v = g->adj[it[u]++];
                if (color[v] == 0) { color[v] = 1; it[v] = g->start[v]; vec_push(stack, v); }
                else if (color[v] == 1) {
                    size_t i = stack.len;
                    while (stack.data[--i] != v) {}
                    for (; i < stack.len; i++) vec_push(*cyc, stack.data[i]);
                    found = 1;
                }
            } else { color[u] = 2; stack.len--; }
        }
        vec_clear(stack);
    }
    vec_free(stack); free(color); free(it);
    return found;
}

/* Shortest cycle through s (BFS), as nodes; 0 if none. */
static int vg_shortest_through(const vgraph *g, uint32_t s, uint32_t *parent, uint32_t *queue, vec_u32 *out) {
    for (uint32_t u = 0; u < g->n; u++) parent[u] = UINT32_MAX;
    uint32_t qh = 0, qt = 0;
    queue[qt++] = s;
    parent[s] = s;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t j = g->start[u]; j < g->start[u + 1]; j++) {
            uint32_t v = g->adj[j];
            if (v == s) {
                vec_clear(*out);
                for (uint32_t x = u; ; x = parent[x]) { vec_push(*out, x); if (x == s) break; }
                for (size_t a = 0, b = out->len - 1; a < b; a++, b--) {
                    uint32_t t = out->data[a]; out->data[a] = out->data[b]; out->data[b] = t;
                }
                return 1;
            }
            if (parent[v] == UINT32_MAX) { parent[v] = u; queue[qt++] = v; }
        }
    }
    return 0;
}

static void nodes_to_deps(const vgraph *g, int si, const vec_u32 *cyc, dep_edge_vec *out) {
    vec_clear(*out);
    for (size_t i = 0; i < cyc->len; i++) {
        uint32_t a = cyc->data[i], b = cyc->data[(i + 1) % cyc->len];
        uint32_t meta = UINT32_MAX;
        for (uint32_t j = g->start[a]; j < g->start[a + 1]; j++)
            if (g->adj[j] == b) { meta = g->adj_meta[j]; break; }
        dep_kind k = (dep_kind)(meta & 7u);
        if (k == DEP_FIXED) continue;
        dep_edge e = { si ? a >> 1 : a, si ? b >> 1 : b, meta >> 3, (uint8_t)k };
        if (k == DEP_SO) e.key = HISTORY_NONE;
        vec_push(*out, e);
    }
}

/* ---- the per-key edges, in key ranges ------------------------------------
 * A range's WW, WR and RW edges go to its own vectors, which are appended
 * in key order: the same graph as one pass over all keys.  A range stops
 * at its first inconsistent key; the first such range's message is the one
 * a single pass would give. */
typedef struct key_range_out { vgraph part; int failed; char why[300]; } key_range_out;

typedef struct key_job {
    const vm *m;
    int si;
    const uint32_t *range;       /* ntasks + 1 key bounds */
    key_range_out *out;
} key_job;

static void key_task(void *ctx, size_t task) {
    const key_job *j = ctx;
    const vm *m = j->m;
    const history *h = m->h;
    const version_order *vo = m->vo;
    key_range_out *o = &j->out[task];
    for (uint32_t k = j->range[task]; k < j->range[task + 1]; k++) {
        uint32_t a = vo->start[k], b = vo->start[k + 1];
        for (uint32_t i = a + 1; i < b; i++) vg_edge(&o->part, j->si, DEP_WW, k, vo->txns.data[i - 1], vo->txns.data[i]);
        for (uint32_t i = m->ko_start[k]; i < m->ko_start[k + 1];) {
            uint32_t t = h->op_txn[m->ko[i].op], e = i, s;
            while (e < m->ko_start[k + 1] && h->op_txn[m->ko[e].op] == t) e++;
            if (!vm_replay(m, t, k, m->ko + i, e - i, &s, o->why, sizeof o->why)) { o->failed = 1; return; }
            i = e;
            if (s == UINT32_MAX) continue;
            uint32_t w = vo->txns.data[a + s];
            if (w != 0) vg_edge(&o->part, j->si, DEP_WR, k, w, t);
            if (a + s + 1 < b && vo->txns.data[a + s + 1] != t) vg_edge(&o->part, j->si, DEP_RW, k, t, vo->txns.data[a + s + 1]);
        }
    }
}

/* The per-key edges into g; 0 with why set at the first inconsistent key. */
static int key_edges(const vm *m, int si, vgraph *g, struct par_pool *pool, int prio, char *why, size_t wl) {
    const history *h = m->h;
    uint32_t nk = h->num_keys, ntasks = par_pool_threads(pool) > 1 ? 8 * par_pool_threads(pool) : 1;
    if (ntasks > nk) ntasks = nk ? nk : 1;
    /* ranges of about equal numbers of ops */
    uint32_t *range = xmalloc(((size_t)ntasks + 1) * sizeof *range), nr = 0;
    range[nr++] = 0;
    uint64_t per = m->nko / ntasks + 1;
    for (uint32_t k = 0; k < nk && nr < ntasks; k++)
        if ((uint64_t)m->ko_start[k + 1] >= per * nr) range[nr++] = k + 1;
    if (range[nr - 1] != nk) range[nr++] = nk;
    ntasks = nr - 1;
    key_range_out *out = xcalloc(ntasks ? ntasks : 1, sizeof *out);
    key_job job = { m, si, range, out };
    par_pool_run_prio(pool, prio, ntasks, key_task, &job);
    size_t total = g->from.len;                  /* reserved once: no regrowth beside the parts */
    for (uint32_t i = 0; i < ntasks; i++) {
        total += out[i].part.from.len;
        if (out[i].failed) break;
    }
    vec_reserve(g->from, total); vec_reserve(g->to, total); vec_reserve(g->meta, total);
    int ok = 1;
    for (uint32_t i = 0; i < ntasks; i++) {
        key_range_out *o = &out[i];
        if (ok) {
            for (size_t e = 0; e < o->part.from.len; e++) {
                g->from.data[g->from.len++] = o->part.from.data[e];
                g->to.data[g->to.len++] = o->part.to.data[e];
                g->meta.data[g->meta.len++] = o->part.meta.data[e];
            }
            if (o->failed) { ok = 0; snprintf(why, wl, "%s", o->why); }
        }
        vg_free(&o->part);
    }
    free(out);
    free(range);
    return ok;
}

int vo_check(const history *h, const version_order *vo, int si,
             dep_edge_vec *cycle, char *why, size_t wl) {
    return vo_check_on(h, vo, si, cycle, why, wl, NULL, 0);
}

int vo_check_on(const history *h, const version_order *vo, int si, dep_edge_vec *cycle, char *why, size_t wl,
                struct par_pool *pool, int prio) {
    vm m;
    vgraph g; memset(&g, 0, sizeof g);
    g.n = si ? 2 * h->num_txns : h->num_txns;
    int rc = -1;
    if (!vm_build(&m, h, vo, NULL, why, wl)) goto out;

    /* SO and fixed edges */
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!m.part[t]) continue;
            if (prev != UINT32_MAX) vg_edge(&g, si, DEP_SO, HISTORY_NONE >> 3, prev, t);
            prev = t;
        }
    }
    if (si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (m.part[t]) vg_edge(&g, si, DEP_FIXED, 0, t, t);
    /* WW between consecutive versions; per participant and key its
     * snapshot: WR from it, RW to the version right after it */
    if (!key_edges(&m, si, &g, pool, prio, why, wl)) goto out;
    vg_finish(&g);
    vec_u32 cyc; vec_init(cyc);
    if (!vg_find_cycle(&g, &cyc)) { rc = 1; vec_free(cyc); goto out; }
    rc = 0;
    if (cycle) {
        /* shorten: the shortest cycle through each node of the one found */
        uint32_t *parent = xmalloc((size_t)g.n * sizeof *parent), *queue = xmalloc((size_t)g.n * sizeof *queue);
        vec_u32 best, cur; vec_init(best); vec_init(cur);
        size_t budget = (size_t)2e8 / ((size_t)g.n + g.from.len + 1) + 1;
        size_t tries = cyc.len < 64 ? cyc.len : 64;
        if (tries > budget) tries = budget;
        for (size_t i = 0; i < tries; i++)
            if (vg_shortest_through(&g, cyc.data[i], parent, queue, &cur) && (!best.len || cur.len < best.len)) {
                vec_clear(best);
                for (size_t j = 0; j < cur.len; j++) vec_push(best, cur.data[j]);
            }
        nodes_to_deps(&g, si, best.len ? &best : &cyc, cycle);
        free(parent); free(queue); vec_free(best); vec_free(cur);
    }
    vec_free(cyc);
out:
    vg_free(&g);
    vm_free(&m);
    return rc;
}
