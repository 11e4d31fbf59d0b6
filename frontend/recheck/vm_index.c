/* vm_index.c — the re-check's reading of a history under a version order
 * (vm_internal.h; the re-check's contract: verify_model.h).
 *
 * It derives the meaning of every read itself, from the raw operation
 * arrays (op_kind, op_key, op_value, op_txn, txns) and history_list()
 * alone: it calls none of the history model's interpretation helpers
 * (history_read_source, history_external_source, history_txn_external_read,
 * history_txn_final_write, history_writer_of, history_participants).
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
 * version order must list exactly the participants' writers.
 *
 * The per-key passes visit ops in key order, the history's arrays are in
 * op order: each op's transaction, kind and value are copied into its
 * record in ko (ko_rec, 12 bytes an op) while ko is filled in op order, so
 * those passes read them in sequence rather than one cache miss each; a
 * value that does not fit 30 bits is read from the history (ko_value). */
#include "frontend/recheck/vm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "huge_pages.h"
#include "par.h"

static int op_ok(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }

/* ko's kind and value, packed in vk: the value's bits hold v + KV_BIAS
 * when that is in [1, 2^30), else 0 (the value does not fit: read the
 * op's, a look-up in the history); the low two bits hold the kind. */
#define KV_BIAS ((int64_t)1 << 29)
_Static_assert(OP_READ <= 3 && OP_WRITE <= 3 && OP_APPEND <= 3 && OP_LIST_READ <= 3, "a kind fits ko_rec's two bits");
static uint32_t vk_of(int64_t v, op_kind k) {
    uint32_t x = v > -KV_BIAS && v < KV_BIAS ? (uint32_t)(v + KV_BIAS) : 0;
    return x << 2 | (uint32_t)k;
}
static inline op_kind ko_kind(const vm *m, size_t i) { return (op_kind)(m->ko[i].vk & 3u); }
/* The value of ko[i]'s op. */
static inline int64_t ko_value(const vm *m, size_t i) {
    uint32_t x = m->ko[i].vk >> 2;
    return x ? (int64_t)x - KV_BIAS : history_op_value(m->h, m->ko[i].op);
}
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

void vm_free(vm *m) {
    free(m->part); free(m->ko); free(m->ko_start); free(m->is_list); free(m->marker); free(m->len);
    free(m->el_start); vec_free(m->el); free(m->slot); free(m->range);
    memset(m, 0, sizeof *m);
}

/* The marker table: (key, marker) -> version g.  Key k (versions a..b-1)
 * has slots [2a + k, 2a + k + 2(b - a) + 1) to itself, at most half full,
 * open addressing inside them: a key's lookups stay in its few cache lines,
 * and keys in different ranges are indexed at once without sharing a
 * slot.  A probe compares g's range and marker exactly, so collisions cost
 * time, never a wrong answer.  A slot holds g + 1, 0 when empty: the
 * table is calloc'd, its pages zeroed where they are first written (in the
 * key ranges' tasks) rather than all filled with a mark by one thread
 * first, and never touched for a key not indexed (cycle_holds' few keys). */
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
    while (m->slot[base + i]) i = i + 1 == size ? 0 : i + 1;
    m->slot[base + i] = g + 1;
}
static uint32_t mk_get(const vm *m, uint32_t key, int64_t v) {
    if (!m->slot) return UINT32_MAX;
    uint64_t base, size;
    mk_region(m, key, &base, &size);
    uint32_t a = m->vo->start[key], b = m->vo->start[key + 1];
    for (uint64_t i = mk_first(key, v, size);; i = i + 1 == size ? 0 : i + 1) {
        uint32_t g = m->slot[base + i] - 1;               /* empty: UINT32_MAX */
        if (g == UINT32_MAX || (g >= a && g < b && m->marker[g] == v)) return g;
    }
}

uint32_t vm_version_of(const vm *m, uint32_t key, int64_t v) {
    if (key >= m->h->num_keys || !m->marker) return UINT32_MAX;
    uint32_t a = m->vo->start[key], b = m->vo->start[key + 1];
    if (v == VALUE_INIT) return a < b ? a : UINT32_MAX;
    return mk_get(m, key, v);
}

/* Participants: INIT, committed, and indeterminate writers whose write a
 * participant reads (any element of a list read), to a fixpoint. */
static uint8_t *participants(const history *h) {
    uint8_t *p = xcalloc(h->num_txns ? h->num_txns : 1, 1);
    VEC(kv_entry) w; vec_init(w);
    for (uint32_t t = 1; t < h->num_txns; t++) {       /* the indeterminate transactions' writes */
        if (h->txns[t].status != TXN_INDETERMINATE) continue;
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            op_kind k = op_k(h, op);
            if ((k == OP_WRITE || k == OP_APPEND) && op_ok(h, op)) {
                kv_entry e = { h->op_key[op], history_op_value(h, op), t };
                vec_push(w, e);
            }
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
            int64_t one = history_op_value(h, op);
            const int64_t *l = &one;
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

void vreads_free(vreads *r) {
    for (uint32_t i = 0; r->out && i < r->ntasks; i++) vec_free(r->out[i].reads);
    free(r->out); free(r->range);
    vec_free(r->views);
    memset(r, 0, sizeof *r);
}

/* ---- the index of the versions, per key ------------------------------------
 * Each key is indexed from its own slice of ko and its own slice of the
 * version order alone (its writers found by a search of the slice, which is
 * in transaction order), so key ranges run as independent tasks; a range
 * stops at its first bad key, and the first failing range's message is the
 * one a single pass over the keys would give. */
static int vm_replay(const vm *m, uint32_t t, uint32_t k, const int64_t *full, size_t at, size_t n,
                     uint32_t *s, char *why, size_t wl);

/* Replay every participant's ops on key k (its list elements from full)
 * into o's reads; 0 with o->why set at the first inconsistent read. */
static int replay_key(const vm *m, uint32_t k, const int64_t *full, key_range_out *o) {
    uint32_t a = m->vo->start[k];
    for (uint32_t i = m->ko_start[k]; i < m->ko_start[k + 1];) {
        uint32_t t = m->ko[i].t, e = i, s;
        while (e < m->ko_start[k + 1] && m->ko[e].t == t) e++;
        if (!vm_replay(m, t, k, full, i, e - i, &s, o->why, sizeof o->why)) return 0;
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
    const version_order *vo = m->vo;
    uint32_t a = vo->start[k], b = vo->start[k + 1];
    if (vo->txns.data[a] != 0) { snprintf(why, wl, "key %u: the version order does not start with INIT", k); return 0; }
    /* the participants that write k, in transaction order, and where their ops on k start */
    vec_clear(*w);
    for (uint32_t i = m->ko_start[k], e; i < m->ko_start[k + 1]; i = e) {
        uint32_t t = m->ko[i].t;
        int writes = 0;
        for (e = i; e < m->ko_start[k + 1] && m->ko[e].t == t; e++)
            writes |= ko_kind(m, e) == OP_WRITE || ko_kind(m, e) == OP_APPEND;
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
        for (uint32_t i = w->data[lo].at; i < m->ko_start[k + 1] && m->ko[i].t == t; i++) {
            if (ko_kind(m, i) == OP_WRITE) last = ko_value(m, i);
            else if (ko_kind(m, i) == OP_APPEND) { last = ko_value(m, i); vec_push(*el, last); }
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

/* The participants' successful ops by key, in op order within a key (ko,
 * each key's slice from ko_start): a counting sort over transaction
 * ranges, one a thread on pool, each counting into its own row and then
 * filling from that row's offsets.  A key's ops from an earlier range go
 * first, so ko is the same for any number of ranges.  The fill writes at
 * every key's cursor at once (at 22M, 2.2M keys), a cache miss per write:
 * one record per op, not an array per field (a stand-alone fill of 88M ops
 * over 2.2M keys: 4.3 s against 6.6 s for four arrays; asking for the
 * record 16 ops ahead made it 6.8 s, the cursor read ahead a miss too).
 * So in two steps: the cursor 16 ops ahead, then the record its (by then
 * cached) cursor names 8 ops ahead; and ko on huge pages (huge_pages_advise).
 * h5m si, ko_build's CPU: 4.5 s, 3.3 s with huge pages, 2.3 s with both. */
typedef struct ko_job { vm *m; const uint8_t *want; uint32_t nr, *cnt; int fill; } ko_job;

static void ko_task(void *ctx, size_t r) {
    const ko_job *j = ctx;
    vm *m = j->m;
    const history *h = m->h;
    uint32_t nt = h->num_txns, nk = h->num_keys;
    uint32_t lo = 1 + (uint32_t)((uint64_t)(nt - 1) * r / j->nr), hi = 1 + (uint32_t)((uint64_t)(nt - 1) * (r + 1) / j->nr);
    uint32_t *c = j->cnt + (size_t)r * h->num_keys;
    for (uint32_t t = lo; t < hi; t++) {
        if (!m->part[t]) continue;
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
            uint32_t k = h->op_key[op];
            /* a kind past OP_LIST_READ (none is made) is no op any pass reads: left out */
            if (!op_ok(h, op) || op_k(h, op) > OP_LIST_READ || (j->want && !j->want[k])) continue;
            if (!j->fill) { c[k]++; continue; }
            if (op + 16 < h->num_ops) {          /* the slots at random: ask for them ahead (see above) */
                uint32_t k16 = h->op_key[op + 16], k8 = h->op_key[op + 8];
                if (k16 < nk) __builtin_prefetch(&c[k16]);
                if (k8 < nk) __builtin_prefetch(&m->ko[c[k8]], 1);
            }
            ko_rec *e = &m->ko[c[k]++];
            e->op = op;
            e->t = t;
            e->vk = vk_of(history_op_value(h, op), op_k(h, op));
        }
    }
}

static void ko_build(vm *m, const uint8_t *want, struct par_pool *pool, int prio) {
    const history *h = m->h;
    uint32_t nk = h->num_keys, nr = par_pool_threads(pool);   /* a few keys (want) too: a pass over every op */
    uint32_t *cnt = xcalloc((size_t)nr * nk + 1, sizeof *cnt);
    ko_job j = { m, want, nr, cnt, 0 };
    par_pool_run_prio(nr > 1 ? pool : NULL, prio, nr, ko_task, &j);
    m->ko_start = xmalloc(((size_t)nk + 1) * sizeof *m->ko_start);
    uint32_t run = 0;
    for (uint32_t k = 0; k < nk; k++) {          /* each range's first slot of k */
        m->ko_start[k] = run;
        for (uint32_t r = 0; r < nr; r++) { uint32_t c = cnt[(size_t)r * nk + k]; cnt[(size_t)r * nk + k] = run; run += c; }
    }
    m->ko_start[nk] = run;
    m->nko = run;
    m->ko = xmalloc((m->nko ? m->nko : 1) * sizeof *m->ko);
    huge_pages_advise(m->ko, m->nko * sizeof *m->ko);   /* written at random: include/huge_pages.h */
    j.fill = 1;
    par_pool_run_prio(nr > 1 ? pool : NULL, prio, nr, ko_task, &j);
    free(cnt);
}

/* Index (and replay, r non-NULL) the history under vo: vm_internal.h. */
int vm_build(vm *m, const history *h, const version_order *vo, const uint8_t *want,
             struct par_pool *pool, int prio, vreads *r, char *why, size_t wl) {
    memset(m, 0, sizeof *m);
    m->h = h; m->vo = vo;
    if (vo->num_keys != h->num_keys) { snprintf(why, wl, "version order has %u keys, history %u", vo->num_keys, h->num_keys); return 0; }
    m->part = participants(h);
    uint32_t nk = h->num_keys;
    ko_build(m, want, pool, prio);
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
    m->slot = xcalloc(nslots, sizeof *m->slot);
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
static int vm_replay(const vm *m, uint32_t t, uint32_t k, const int64_t *full, size_t at, size_t n,
                     uint32_t *s, char *why, size_t wl) {
    const history *h = m->h;
    uint32_t a = m->vo->start[k], b = m->vo->start[k + 1];
    int have_own = 0;
    int64_t own_val = 0;
    size_t own_first = 0, own_n = 0;              /* own appends: the OP_APPENDs among ops[own_first..] */
    *s = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t op = m->ko[at + i].op;
        switch (ko_kind(m, at + i)) {
        case OP_WRITE: have_own = 1; own_val = ko_value(m, at + i); break;
        case OP_APPEND: if (!own_n) own_first = i; own_n++; break;
        case OP_READ: {
            int64_t v = ko_value(m, at + i);
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
                if (ko_kind(m, at + x) == OP_APPEND && l[j++] != ko_value(m, at + x)) {
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

/* t's snapshot of k: vm_internal.h. */
int vm_snapshot(const vm *m, uint32_t t, uint32_t k, uint32_t *s, char *why, size_t wl) {
    *s = UINT32_MAX;
    if (t == 0 || k >= m->h->num_keys || !m->part[t]) return 1;
    size_t lo = m->ko_start[k], hi = m->ko_start[k + 1];
    while (lo < hi) {                             /* first op of t in k's slice */
        size_t mid = lo + (hi - lo) / 2;
        if (m->ko[mid].t < t) lo = mid + 1; else hi = mid;
    }
    size_t end = lo;
    while (end < m->ko_start[k + 1] && m->ko[end].t == t) end++;
    return vm_replay(m, t, k, m->el.data ? m->el.data + m->el_start[k] : NULL, lo, end - lo, s, why, wl);
}
