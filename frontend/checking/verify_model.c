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

typedef struct vm {
    const history *h;
    const version_order *vo;
    uint8_t *part;               /* per txn */
    uint32_t *ko; size_t nko;    /* participants' successful ops, by key then program order
                                    (the key is implied by the slice: ko_start) */
    uint32_t *ko_start;          /* per key: its slice of ko */
    uint8_t *is_list;            /* per key */
    int64_t *marker;             /* per version g: installed value / last element (INIT: VALUE_INIT) */
    uint32_t *len;               /* per version g: length of the list at g (NULL: no list keys) */
    uint32_t *el_start;          /* per key: its full list in el */
    vec_i64 el;                  /* per key, the appends of its versions in order */
    uint32_t *slot;              /* marker table: per key a region of its own (mk_region) */
    uint32_t ntasks, *range;     /* key ranges (ntasks + 1 bounds) for the per-key passes */
} vm;

static void vm_free(vm *m) {
    free(m->part); free(m->ko); free(m->ko_start); free(m->is_list); free(m->marker); free(m->len);
    free(m->el_start); vec_free(m->el); free(m->slot); free(m->range);
    memset(m, 0, sizeof *m);
}

/* The marker table: (key, marker) -> version g.  Key k (versions a..b-1)
 * has slots [2a + k, 2a + k + 2(b - a) + 1) to itself, at most half full,
 * open addressing inside them: a key's lookups stay in its few cache lines,
 * and keys in different ranges are indexed at once without sharing a
 * slot.  A probe compares g's range and marker exactly, so collisions cost
 * time, never a wrong answer. */
static uint64_t mk_hash(uint32_t key, int64_t v) {
    uint64_t x = (uint64_t)v * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)key << 32 | key);
    x ^= x >> 31; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 29;
    return x;
}
static inline void mk_region(const vm *m, uint32_t key, uint64_t *base, uint64_t *size) {
    uint32_t a = m->vo->start[key], b = m->vo->start[key + 1];
    *base = 2 * (uint64_t)a + key;
    *size = 2 * (uint64_t)(b - a) + 1;
}
static inline uint64_t mk_first(uint32_t key, int64_t v, uint64_t size) {
    return ((mk_hash(key, v) >> 32) * size) >> 32;        /* in [0, size) */
}
static void mk_put(vm *m, uint32_t key, uint32_t g) {
    uint64_t base, size;
    mk_region(m, key, &base, &size);
    uint64_t i = mk_first(key, m->marker[g], size);
    while (m->slot[base + i] != UINT32_MAX) i = i + 1 == size ? 0 : i + 1;
    m->slot[base + i] = g;
}
static uint32_t mk_get(const vm *m, uint32_t key, int64_t v) {
    if (!m->slot) return UINT32_MAX;
    uint64_t base, size;
    mk_region(m, key, &base, &size);
    uint32_t a = m->vo->start[key], b = m->vo->start[key + 1];
    for (uint64_t i = mk_first(key, v, size);; i = i + 1 == size ? 0 : i + 1) {
        uint32_t g = m->slot[base + i];
        if (g == UINT32_MAX || (g >= a && g < b && m->marker[g] == v)) return g;
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

/* Participant t reads key k's version g (an index into vo->txns inside
 * k's slice, so g also names the key). */
typedef struct vread { uint32_t t, g; } vread;

/* The per-key replay's output: key ranges in key order, each range's
 * reads in key order, then in order of the participants' ops. */
typedef struct key_range_out { VEC(vread) reads; int failed; char why[300]; } key_range_out;

typedef struct vreads {
    uint32_t ntasks;
    uint32_t *range;              /* ntasks + 1 key bounds */
    key_range_out *out;
} vreads;

static void vreads_free(vreads *r) {
    for (uint32_t i = 0; r->out && i < r->ntasks; i++) vec_free(r->out[i].reads);
    free(r->out); free(r->range);
    memset(r, 0, sizeof *r);
}

/* ---- the index of the versions, per key ------------------------------------
 * Each key is indexed from its own slice of ko and its own slice of the
 * version order alone (its writers found by a search of the slice, which is
 * in transaction order), so key ranges run as independent tasks; a range
 * stops at its first bad key, and the first failing range's message is the
 * one a single pass over the keys would give. */
static int vm_replay(const vm *m, uint32_t t, uint32_t k, const int64_t *full, const uint32_t *ops, size_t n,
                     uint32_t *s, char *why, size_t wl);

/* Replay every participant's ops on key k (its list elements from full)
 * into o's reads; 0 with o->why set at the first inconsistent read. */
static int replay_key(const vm *m, uint32_t k, const int64_t *full, key_range_out *o) {
    const history *h = m->h;
    uint32_t a = m->vo->start[k];
    for (uint32_t i = m->ko_start[k]; i < m->ko_start[k + 1];) {
        uint32_t t = h->op_txn[m->ko[i]], e = i, s;
        while (e < m->ko_start[k + 1] && h->op_txn[m->ko[e]] == t) e++;
        if (!vm_replay(m, t, k, full, m->ko + i, e - i, &s, o->why, sizeof o->why)) return 0;
        i = e;
        if (s != UINT32_MAX) { vread v = { t, a + s }; vec_push(o->reads, v); }
    }
    return 1;
}

typedef struct kw { uint32_t t, at; } kw;        /* a writer of the key, where its ops start in ko */
typedef VEC(kw) kw_vec;

typedef struct build_out { vec_i64 el; int failed; char why[300]; } build_out;

typedef struct build_job {
    vm *m;
    const uint8_t *want;
    uint32_t kend;               /* keys from here on are not indexed (a bad slice bound) */
    build_out *out;
    vreads *r;                   /* non-NULL: replay each key right after indexing it */
} build_job;

static int index_key(vm *m, uint32_t k, kw_vec *w, vec_u32 *listed, vec_i64 *el, char *why, size_t wl) {
    const history *h = m->h;
    const version_order *vo = m->vo;
    uint32_t a = vo->start[k], b = vo->start[k + 1];
    if (vo->txns.data[a] != 0) { snprintf(why, wl, "key %u: the version order does not start with INIT", k); return 0; }
    /* the participants that write k, in transaction order, and where their ops on k start */
    vec_clear(*w);
    for (uint32_t i = m->ko_start[k], e; i < m->ko_start[k + 1]; i = e) {
        uint32_t t = h->op_txn[m->ko[i]];
        int writes = 0;
        for (e = i; e < m->ko_start[k + 1] && h->op_txn[m->ko[e]] == t; e++)
            writes |= op_k(h, m->ko[e]) == OP_WRITE || op_k(h, m->ko[e]) == OP_APPEND;
        if (writes) { kw x = { t, i }; vec_push(*w, x); }
    }
    uint32_t writers = (uint32_t)w->len;
    if (b - a - 1 != writers) {
        snprintf(why, wl, "key %u: the version order has %u writers, the history %u", k, b - a - 1, writers); return 0;
    }
    vec_resize(*listed, writers);
    if (writers) memset(listed->data, 0, writers * sizeof *listed->data);
    m->el_start[k] = (uint32_t)el->len;             /* in the range's own el until joined */
    m->marker[a] = VALUE_INIT;
    if (m->len) m->len[a] = 0;
    mk_put(m, k, a);
    for (uint32_t g = a + 1; g < b; g++) {
        uint32_t t = vo->txns.data[g];
        size_t lo = 0, hi = writers;
        while (lo < hi) { size_t mid = lo + (hi - lo) / 2; if (w->data[mid].t < t) lo = mid + 1; else hi = mid; }
        if (t == 0 || lo == writers || w->data[lo].t != t || listed->data[lo]) {
            snprintf(why, wl, "key %u: bad or repeated writer T%u in the version order", k, t); return 0;
        }
        listed->data[lo] = 1;
        int64_t last = VALUE_INIT;
        for (uint32_t i = w->data[lo].at; i < m->ko_start[k + 1] && h->op_txn[m->ko[i]] == t; i++) {
            uint32_t op = m->ko[i];
            if (op_k(h, op) == OP_WRITE) last = h->op_value[op];
            else if (op_k(h, op) == OP_APPEND) { last = h->op_value[op]; vec_push(*el, last); }
        }
        m->marker[g] = last;
        if (m->len) m->len[g] = (uint32_t)(el->len - m->el_start[k]);
        mk_put(m, k, g);
    }
    return 1;
}

static void build_task(void *ctx, size_t task) {
    const build_job *j = ctx;
    vm *m = j->m;
    build_out *o = &j->out[task];
    kw_vec w; vec_init(w);
    vec_u32 listed; vec_init(listed);
    uint32_t end = m->range[task + 1] < j->kend ? m->range[task + 1] : j->kend;
    key_range_out *ro = j->r ? &j->r->out[task] : NULL;
    for (uint32_t k = m->range[task]; k < end && !o->failed; k++) {
        if (j->want && !j->want[k]) { m->el_start[k] = (uint32_t)o->el.len; continue; }
        if (!index_key(m, k, &w, &listed, &o->el, o->why, sizeof o->why)) { o->failed = 1; break; }
        /* while the key's ops are in the cache; after a failed replay only
         * the index goes on (its failures come first, see vm_build) */
        if (ro && !ro->failed && !replay_key(m, k, o->el.data ? o->el.data + m->el_start[k] : NULL, ro)) ro->failed = 1;
    }
    if (ro) vec_fit(ro->reads);                  /* exact size: the doubling room would outlive the replay */
    vec_free(w); vec_free(listed);
}

/* Key ranges of about equal numbers of ops: one per thread's share of
 * tasks (8 a thread), one range without a pool. */
static void split_keys(vm *m, unsigned threads) {
    uint32_t nk = m->h->num_keys, ntasks = threads > 1 ? 8 * threads : 1;
    if (ntasks > nk) ntasks = nk ? nk : 1;
    uint32_t *range = xmalloc(((size_t)ntasks + 1) * sizeof *range), nr = 0;
    range[nr++] = 0;
    uint64_t per = m->nko / ntasks + 1;
    for (uint32_t k = 0; k < nk && nr < ntasks; k++)
        if ((uint64_t)m->ko_start[k + 1] >= per * nr) range[nr++] = k + 1;
    if (range[nr - 1] != nk) range[nr++] = nk;
    m->ntasks = nr - 1;
    m->range = range;
}

/* Index the history under vo — only the keys with want[k] set when want
 * is non-NULL (checking a few edges needs only their keys); 0 with why set
 * when vo is not a version order of the participants' writers.  The keys
 * are indexed in ranges on pool (NULL: inline). */
static int vm_build(vm *m, const history *h, const version_order *vo, const uint8_t *want,
                    struct par_pool *pool, int prio, vreads *r, char *why, size_t wl) {
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
                if (op_ok(h, op) && (!want || want[h->op_key[op]])) m->ko[fill[h->op_key[op]]++] = op;
        }
        free(fill);
    }
    m->is_list = xcalloc(nk ? nk : 1, 1);
    for (uint32_t op = nk; op < h->num_ops; op++)       /* ops 0..nk-1 are INIT's */
        if (op_k(h, op) == OP_APPEND || op_k(h, op) == OP_LIST_READ) m->is_list[h->op_key[op]] = 1;
    /* The first key whose slice is empty or out of bounds: the keys before
     * it are indexed, it fails (if none before it does), the rest are not
     * looked at — as a pass in key order would stop there.  Below it the
     * slices increase, so the keys' marker regions are disjoint. */
    size_t nv = vo->txns.len;
    uint32_t kend = nk;
    for (uint32_t k = 0; k < nk && kend == nk; k++)
        if (vo->start[k + 1] <= vo->start[k] || vo->start[k + 1] > nv) kend = k;
    m->marker = xmalloc((nv ? nv : 1) * sizeof *m->marker);
    int lists = 0;
    for (uint32_t k = 0; k < nk && !lists; k++) lists = m->is_list[k];
    m->len = lists ? xcalloc(nv ? nv : 1, sizeof *m->len) : NULL;   /* read by list reads only */
    m->el_start = xcalloc((size_t)nk + 1, sizeof *m->el_start);
    size_t nslots = 2 * nv + nk + 1;
    m->slot = xmalloc(nslots * sizeof *m->slot);
    memset(m->slot, 0xff, nslots * sizeof *m->slot);
    split_keys(m, want ? 1 : par_pool_threads(pool));
    build_out *out = xcalloc(m->ntasks, sizeof *out);
    if (r) {
        r->ntasks = m->ntasks;
        r->range = xmalloc(((size_t)m->ntasks + 1) * sizeof *r->range);
        memcpy(r->range, m->range, ((size_t)m->ntasks + 1) * sizeof *r->range);
        r->out = xcalloc(m->ntasks, sizeof *r->out);
    }
    build_job job = { m, want, kend, out, r };
    par_pool_run_prio(want ? NULL : pool, prio, m->ntasks, build_task, &job);
    /* join the ranges' list elements in key order */
    int ok = 1;
    for (uint32_t i = 0; i < m->ntasks && ok; i++)
        if (out[i].failed) { snprintf(why, wl, "%s", out[i].why); ok = 0; }
    if (ok && kend < nk) { snprintf(why, wl, "key %u: the version order does not start with INIT", kend); ok = 0; }
    /* the index sound, the first inconsistent read in key order (a range
     * replays up to its first one) */
    for (uint32_t i = 0; r && i < r->ntasks && ok; i++)
        if (r->out[i].failed) { snprintf(why, wl, "%s", r->out[i].why); ok = 0; }
    if (ok) {
        size_t total = 0;
        for (uint32_t i = 0; i < m->ntasks; i++) total += out[i].el.len;
        vec_reserve(m->el, total);
        for (uint32_t i = 0; i < m->ntasks; i++) {
            uint32_t off = (uint32_t)m->el.len;
            for (uint32_t k = m->range[i]; k < m->range[i + 1]; k++) m->el_start[k] += off;
            if (out[i].el.len) memcpy(m->el.data + m->el.len, out[i].el.data, out[i].el.len * sizeof *m->el.data);
            m->el.len += out[i].el.len;
        }
        m->el_start[nk] = (uint32_t)m->el.len;
    }
    for (uint32_t i = 0; i < m->ntasks; i++) vec_free(out[i].el);
    free(out);
    return ok;
}

/* Replay t's ops on key k (ops[0..n), program order).  1: consistent, *s
 * the snapshot's version index (UINT32_MAX: no read shows it); 0: why. */
static int vm_replay(const vm *m, uint32_t t, uint32_t k, const int64_t *full, const uint32_t *ops, size_t n,
                     uint32_t *s, char *why, size_t wl) {
    const history *h = m->h;
    uint32_t a = m->vo->start[k], b = m->vo->start[k + 1];
    int have_own = 0;
    int64_t own_val = 0;
    size_t own_first = 0, own_n = 0;              /* own appends: the OP_APPENDs among ops[own_first..] */
    *s = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t op = ops[i];
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
                if (op_k(h, ops[x]) == OP_APPEND && l[j++] != h->op_value[ops[x]]) {
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
        if (m->h->op_txn[m->ko[mid]] < t) lo = mid + 1; else hi = mid;
    }
    size_t end = lo;
    while (end < m->ko_start[k + 1] && m->h->op_txn[m->ko[end]] == t) end++;
    return vm_replay(m, t, k, m->el.data ? m->el.data + m->el_start[k] : NULL, m->ko + lo, end - lo, s, why, wl);
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
    int ok = want ? vm_build(&m, h, vo, want, NULL, 0, NULL, why, wl) && dep_holds_in(&m, e, why, wl) : 0;
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
    int ok = want && vm_build(&m, h, vo, want, NULL, 0, NULL, why, wl);
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

/* ---- the graph --------------------------------------------------------
 * Memory.  The graph is one CSR (start[n + 1], adj[m], 32-bit node ids)
 * filled in two passes over the same edge sequence: the first counts each
 * node's out-degree, the second writes the arcs (both split into a head
 * and key-range groups on the pool, see vg_build).  The sequence is cheap
 * to repeat because the per-key replay (the costly part) runs once and
 * leaves only each participant's snapshot per key (vread, 8 bytes); the
 * history index (vm) is freed before the CSR is allocated.  An arc's kind
 * and key are not stored: on a cycle a third pass over the sequence finds
 * them for the cycle's arcs alone.
 *
 * The edge sequence: SO (sessions in order), fixed (SI), then per key its
 * WW chain and, per participant reading it (in program order of the
 * key's ops), WR from the version read and RW to the version after it.
 * Each node's arcs are in sequence order, so the DFS, the cycle found and
 * its first arc a -> b are those of any graph built from this sequence. */

enum { VG_COUNT, VG_FILL, VG_FIND };

typedef struct vgraph {
    uint32_t n;
    int si;
    uint64_t m;                   /* arcs */
    uint32_t *start, *adj;        /* CSR */
    /* VG_FIND: the cycle's arcs cyc[i] -> cyc[i + 1] (cyclically) */
    const uint32_t *cyc; size_t clen;
    uint8_t *on;                  /* per node: it starts a cycle arc */
    uint32_t *ckey; uint8_t *ckind, *cfound;
} vgraph;

static void vg_find(vgraph *g, uint32_t x, uint32_t y, dep_kind kind, uint32_t key) {
    for (size_t i = 0; i < g->clen; i++)
        if (!g->cfound[i] && g->cyc[i] == x && g->cyc[(i + 1) % g->clen] == y) {
            g->cfound[i] = 1; g->ckind[i] = (uint8_t)kind; g->ckey[i] = key;
        }
}

/* Where one pass over (part of) the edge sequence puts its arcs. */
typedef struct vpart {
    int si, pass;
    uint32_t *c;                  /* VG_COUNT: per node, its arcs so far; VG_FILL: where its next one goes */
    uint32_t *adj;
    uint64_t m;                   /* VG_COUNT: arcs so far */
    vgraph *g;                    /* VG_FIND */
} vpart;

static inline void vg_edge(vpart *p, dep_kind kind, uint32_t key, uint32_t a, uint32_t b) {
    uint32_t x, y;
    if (!p->si) { x = a; y = b; }
    else if (kind == DEP_RW) { x = 2 * a + 1; y = 2 * b; }
    else if (kind == DEP_FIXED) { x = 2 * a + 1; y = 2 * a; }
    else { x = 2 * a; y = 2 * b + 1; }
    switch (p->pass) {
    case VG_COUNT: p->c[x]++; p->m++; break;
    case VG_FILL: p->adj[p->c[x]++] = y; break;
    default: if (p->g->on[x]) vg_find(p->g, x, y, kind, key); break;
    }
}

/* The edge sequence's head: SO, then the fixed arcs (SI). */
static void vg_emit_head(vpart *p, const history *h, const uint8_t *part) {
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        uint32_t prev = UINT32_MAX;
        for (uint32_t i = 0; i < h->sessions[s].num_txns; i++) {
            uint32_t t = h->sessions[s].first_txn + i;
            if (!part[t]) continue;
            if (prev != UINT32_MAX) vg_edge(p, DEP_SO, HISTORY_NONE, prev, t);
            prev = t;
        }
    }
    if (p->si)
        for (uint32_t t = 0; t < h->num_txns; t++)
            if (part[t]) vg_edge(p, DEP_FIXED, 0, t, t);
}

/* The sequence's part for the replay's key ranges [lo, hi). */
static void vg_emit_keys(vpart *p, const version_order *vo, const vreads *r, uint32_t lo, uint32_t hi) {
    for (uint32_t task = lo; task < hi; task++) {
        const key_range_out *o = &r->out[task];
        size_t i = 0;
        for (uint32_t k = r->range[task]; k < r->range[task + 1]; k++) {
            uint32_t a = vo->start[k], b = vo->start[k + 1];
            for (uint32_t v = a + 1; v < b; v++) vg_edge(p, DEP_WW, k, vo->txns.data[v - 1], vo->txns.data[v]);
            for (; i < o->reads.len && o->reads.data[i].g < b; i++) {
                uint32_t t = o->reads.data[i].t, v = o->reads.data[i].g, w = vo->txns.data[v];
                if (w != 0) vg_edge(p, DEP_WR, k, w, t);
                if (v + 1 < b && vo->txns.data[v + 1] != t) vg_edge(p, DEP_RW, k, t, vo->txns.data[v + 1]);
            }
        }
    }
}

/* The CSR of the sequence, by parts: the head, then the key ranges in G
 * groups (one a thread), each group counting into its own per-node array
 * on the pool; a node's arcs are laid out head first, then group by group,
 * so each group fills its own slots of every node's list — the layout of
 * one pass over the whole sequence, for any G. */
typedef struct vg_job {
    const version_order *vo;
    const vreads *r;
    uint32_t groups;
    vpart *parts;                 /* groups + 1: the head's, then each group's */
} vg_job;

static void vg_group_task(void *ctx, size_t j) {
    const vg_job *job = ctx;
    uint32_t lo = (uint32_t)((uint64_t)job->r->ntasks * j / job->groups);
    uint32_t hi = (uint32_t)((uint64_t)job->r->ntasks * (j + 1) / job->groups);
    vg_emit_keys(&job->parts[j + 1], job->vo, job->r, lo, hi);
}

/* 0 (why set) if the sequence has 2^32 arcs or more. */
static int vg_build(vgraph *g, const history *h, const version_order *vo, const uint8_t *part, const vreads *r,
                    struct par_pool *pool, int prio, char *why, size_t wl) {
    uint32_t G = par_pool_threads(pool);
    if (G > r->ntasks) G = r->ntasks ? r->ntasks : 1;
    vpart *parts = xcalloc((size_t)G + 1, sizeof *parts);
    for (uint32_t j = 0; j <= G; j++) {
        parts[j].si = g->si;
        parts[j].pass = VG_COUNT;
        parts[j].c = xcalloc((size_t)g->n + 1, sizeof *parts[j].c);
    }
    vg_job job = { vo, r, G, parts };
    vg_emit_head(&parts[0], h, part);
    par_pool_run_prio(pool, prio, G, vg_group_task, &job);
    uint64_t m = 0;
    for (uint32_t j = 0; j <= G; j++) m += parts[j].m;
    int ok = m < UINT32_MAX;
    if (!ok) snprintf(why, wl, "%" PRIu64 " dependencies: too many for the re-check's 32-bit graph", m);
    if (ok) {
        g->m = m;
        g->start = xmalloc(((size_t)g->n + 1) * sizeof *g->start);
        g->adj = xmalloc((m ? m : 1) * sizeof *g->adj);
        uint32_t at = 0;
        for (uint32_t x = 0; x < g->n; x++) {     /* counts into each part's first slot of x */
            g->start[x] = at;
            for (uint32_t j = 0; j <= G; j++) { uint32_t c = parts[j].c[x]; parts[j].c[x] = at; at += c; }
        }
        g->start[g->n] = at;
        for (uint32_t j = 0; j <= G; j++) { parts[j].pass = VG_FILL; parts[j].adj = g->adj; }
        vg_emit_head(&parts[0], h, part);
        par_pool_run_prio(pool, prio, G, vg_group_task, &job);
    }
    for (uint32_t j = 0; j <= G; j++) free(parts[j].c);
    free(parts);
    return ok;
}

static void vg_free(vgraph *g) {
    free(g->start); free(g->adj);
    g->start = g->adj = NULL;
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

/* The cycle's arcs as dependencies: each arc's kind and key are those of
 * the first edge of the sequence with its ends (the first in its tail's
 * arc list), found by a third pass; fixed arcs are left out. */
static void nodes_to_deps(vgraph *g, const history *h, const version_order *vo, const uint8_t *part,
                          const vreads *r, const vec_u32 *cyc, dep_edge_vec *out) {
    vec_clear(*out);
    size_t n = cyc->len;
    g->cyc = cyc->data; g->clen = n;
    g->on = xcalloc(g->n ? g->n : 1, 1);
    g->ckey = xcalloc(n ? n : 1, sizeof *g->ckey);
    g->ckind = xcalloc(n ? n : 1, 1);
    g->cfound = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) g->on[cyc->data[i]] = 1;
    vpart p = { g->si, VG_FIND, NULL, NULL, 0, g };
    vg_emit_head(&p, h, part);
    vg_emit_keys(&p, vo, r, 0, r->ntasks);
    for (size_t i = 0; i < n; i++) {
        uint32_t a = cyc->data[i], b = cyc->data[(i + 1) % n];
        dep_kind k = (dep_kind)g->ckind[i];
        if (!g->cfound[i] || k == DEP_FIXED) continue;   /* not found: cannot be, the arc was in the CSR */
        dep_edge e = { g->si ? a >> 1 : a, g->si ? b >> 1 : b, g->ckey[i], (uint8_t)k };
        if (k == DEP_SO) e.key = HISTORY_NONE;
        vec_push(*out, e);
    }
    free(g->on); free(g->ckey); free(g->ckind); free(g->cfound);
    g->on = NULL; g->ckey = NULL; g->ckind = g->cfound = NULL;
}

int vo_check(const history *h, const version_order *vo, int si,
             dep_edge_vec *cycle, char *why, size_t wl) {
    return vo_check_on(h, vo, si, cycle, why, wl, NULL, 0);
}

int vo_check_on(const history *h, const version_order *vo, int si, dep_edge_vec *cycle, char *why, size_t wl,
                struct par_pool *pool, int prio) {
    vm m;
    vreads r; memset(&r, 0, sizeof r);
    vgraph g; memset(&g, 0, sizeof g);
    g.n = si ? 2 * h->num_txns : h->num_txns;
    g.si = si;
    uint8_t *part = NULL;
    int rc = -1;
    int ok = vm_build(&m, h, vo, NULL, pool, prio, &r, why, wl);    /* index and replay, key by key */
    part = m.part; m.part = NULL;                 /* the rest of the index goes before the graph comes */
    vm_free(&m);
    if (!ok || !vg_build(&g, h, vo, part, &r, pool, prio, why, wl)) goto out;
    vec_u32 cyc; vec_init(cyc);
    if (!vg_find_cycle(&g, &cyc)) { rc = 1; vec_free(cyc); goto out; }
    rc = 0;
    if (cycle) {
        /* shorten: the shortest cycle through each node of the one found */
        uint32_t *parent = xmalloc((size_t)g.n * sizeof *parent), *queue = xmalloc((size_t)g.n * sizeof *queue);
        vec_u32 best, cur; vec_init(best); vec_init(cur);
        size_t budget = (size_t)2e8 / ((size_t)g.n + (size_t)g.m + 1) + 1;
        size_t tries = cyc.len < 64 ? cyc.len : 64;
        if (tries > budget) tries = budget;
        for (size_t i = 0; i < tries; i++)
            if (vg_shortest_through(&g, cyc.data[i], parent, queue, &cur) && (!best.len || cur.len < best.len)) {
                vec_clear(best);
                for (size_t j = 0; j < cur.len; j++) vec_push(best, cur.data[j]);
            }
        free(parent); free(queue);
        nodes_to_deps(&g, h, vo, part, &r, best.len ? &best : &cyc, cycle);
        vec_free(best); vec_free(cur);
    }
    vec_free(cyc);
out:
    vg_free(&g);
    vreads_free(&r);
    free(part);
    return rc;
}
