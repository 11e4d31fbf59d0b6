/* incr_windex.c — every successful write (wops) and the index from
 * (key, value) to it (the state and its invariants: incr_internal.h).
 *
 * The index is the key's own record first (ikw): the write of the key's
 * greatest value, and while the key's values arrive almost in increasing
 * order (a value is never more than KW_SHIFT places below the greatest),
 * the list of its writes sorted by value, in rooms of the arena kwa.  Most
 * reads read a key's latest write, which in such a stream is its greatest:
 * its lookup is one compare in the key's record, and a new write is an
 * append to the key's list (one cache line) instead of a probe of a
 * global table as large as the stream (512 MB at the tenth million, each
 * write a first touch somewhere in it).  A key whose values come in any
 * other order (random values, say) moves to the global open-addressing
 * table (wtable_), with its past writes, for good. */
#include "frontend/online/incr_internal.h"

#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

#define KW_SHIFT 16                  /* a new value may go this many places before the end of its key's list */

static uint64_t wr_hash(uint32_t key, int64_t value) {
    return u64_mix((uint64_t)value ^ ((uint64_t)key * 0x9e3779b97f4a7c15ULL));
}

/* The high half of wide entry `at` of wops (it is listed). */
static uint32_t wide_hi(const incr_check *ic, uint32_t at) {
    size_t lo = 0, hi = ic->wide.len;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ic->wide.data[mid].at <= at) lo = mid;
        else hi = mid;
    }
    return ic->wide.data[lo].hi;
}

/* Entry at of wops is a write of value to key. */
static inline int wop_is(const incr_check *ic, uint32_t at, uint32_t key, int64_t value) {
    const iwop *w = &ic->wops.data[at];
    if (w->key != key || w->vlo != (uint32_t)(uint64_t)value) return 0;
    if (!(w->txn & WOP_WIDE)) return value_narrow(value);
    return !value_narrow(value) && wide_hi(ic, at) == (uint32_t)((uint64_t)value >> 32);
}

/* The value entry at of wops wrote. */
static inline int64_t wop_value(const incr_check *ic, uint32_t at) {
    const iwop *w = &ic->wops.data[at];
    if (!(w->txn & WOP_WIDE)) return (int64_t)(int32_t)w->vlo;
    return (int64_t)((uint64_t)wide_hi(ic, at) << 32 | w->vlo);
}


/* ---- the global table (keys of any order) ------------------------------ */

/* The write of value to key in table t (mask m), or NONE; *slot (if
 * given) gets where the probe ended: that write's slot or the empty one. */
static uint32_t wtable_find(const incr_check *ic, const uint32_t *t, uint64_t m, uint32_t key, int64_t value,
                            uint64_t *slot) {
    uint64_t i = wr_hash(key, value) & m;
    for (;; i = (i + 1) & m) {
        uint32_t op = t[i];
        if (!op || wop_is(ic, op - 1, key, value)) {
            if (slot) *slot = i;
            return op ? op - 1 : NONE;
        }
    }
}

/* In the new table, else (not moved yet) in the old one (one found there
 * is in no other: a moved one would be in the new). */
static uint32_t wtable_get(const incr_check *ic, uint32_t key, int64_t value) {
    if (!ic->wslots) return NONE;
    uint32_t op = wtable_find(ic, ic->wslots, ic->wmask, key, value, NULL);
    if (op == NONE && ic->wold) op = wtable_find(ic, ic->wold, ic->woldmask, key, value, NULL);
    return op;
}

/* Move the writes of up to n more slots of the old table into the new
 * one; the old table goes once every slot is past. */
static void wtable_move(incr_check *ic, uint64_t n) {
    if (!ic->wold) return;
    for (; n && ic->wmoved <= ic->woldmask; n--, ic->wmoved++) {
        uint32_t op = ic->wold[ic->wmoved];
        if (!op) continue;
        uint64_t j = wr_hash(ic->wops.data[op - 1].key, wop_value(ic, op - 1)) & ic->wmask;
        while (ic->wslots[j]) j = (j + 1) & ic->wmask;
        ic->wslots[j] = op;
    }
    if (ic->wmoved > ic->woldmask) { free(ic->wold); ic->wold = NULL; }
}

/* Put entry at of wops (a write no entry in the tables has) in the table. */
static void wtable_put(incr_check *ic, uint32_t at) {
    if ((ic->wlen + 1) * 2 > ic->wmask + 1 || !ic->wslots) {
        /* twice the room: the old table's slots (twice its writes) are
         * moved, 4 a write, before as many writes as it holds come (the next
         * doubling), so the new table is at most half full and the old one
         * is gone by then */
        wtable_move(ic, UINT64_MAX);
        uint64_t cap = ic->wslots ? (ic->wmask + 1) * 2 : 16;   /* small: tests cross many doublings */
        ic->wold = ic->wslots;
        ic->woldmask = ic->wmask;
        ic->wslots = big_calloc(cap, sizeof *ic->wslots);
        ic->wmask = cap - 1;
        ic->wmoved = 0;
    }
    wtable_move(ic, 4);
    uint64_t i;
    const iwop *w = &ic->wops.data[at];
    if (wtable_find(ic, ic->wslots, ic->wmask, w->key, wop_value(ic, at), &i) != NONE) return;   /* not reached: callers check */
    ic->wslots[i] = at + 1;
    ic->wlen++;
}


/* ---- a key's own record (ikw) ------------------------------------------ */

static const uint32_t *kw_list(const incr_check *ic, const ikw *k) { return k->n >= 2 ? ic->kwa.data + k->at : &k->at; }

/* A room of class c in kwa: a freed one, else at the end. */
static uint32_t kw_take(incr_check *ic, uint32_t c) {
    uint32_t at = ic->kwa_free[c];
    if (at != NONE) { ic->kwa_free[c] = ic->kwa.data[at]; return at; }
    at = (uint32_t)ic->kwa.len;
    if (ic->kwa.len + ((size_t)1 << c) > UINT32_MAX) xalloc_fail(SIZE_MAX);
    big_vec_reserve(ic->kwa, ic->kwa.len + ((size_t)1 << c));
    ic->kwa.len += (size_t)1 << c;
    return at;
}

static void kw_give(incr_check *ic, ikw *k) {      /* k's room (n >= 2) goes on its free list */
    uint32_t c = incr_room_class(k->n);
    ic->kwa.data[k->at] = ic->kwa_free[c];
    ic->kwa_free[c] = k->at;
}

/* The first place in k's list whose value is not below v (n if none).
 * Backwards from the end first: a value not the greatest is mostly among
 * the last few (a write stored after a later one, a read of a version just
 * overwritten), whose writes are recent in wops, so in the caches; then by
 * bisection over the rest. */
static uint32_t kw_lower(const incr_check *ic, const ikw *k, int64_t v) {
    const uint32_t *l = kw_list(ic, k);
    uint32_t hi = k->n, lo = 0;
    for (uint32_t i = 0; i < 4 && hi > 0; i++, hi--)
        if (wop_value(ic, l[hi - 1]) < v) return hi;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (wop_value(ic, l[mid]) < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Insert entry e at place p of k's list. */
static void kw_insert(incr_check *ic, ikw *k, uint32_t p, uint32_t e) {
    uint32_t n = k->n;
    if (n == 0) { k->at = e; k->n = 1; return; }
    if (n == 1 || incr_room_class(n + 1) != incr_room_class(n)) {        /* a bigger room (taking it may move kwa) */
        uint32_t to = kw_take(ic, incr_room_class(n + 1));
        memcpy(ic->kwa.data + to, kw_list(ic, k), n * sizeof(uint32_t));
        if (n >= 2) kw_give(ic, k);
        k->at = to;
    }
    uint32_t *l = ic->kwa.data + k->at;
    memmove(l + p + 1, l + p, (n - p) * sizeof *l);
    l[p] = e;
    k->n = n + 1;
}

/* k's writes go to the global table, for good. */
static void kw_to_table(incr_check *ic, ikw *k) {
    const uint32_t *l = kw_list(ic, k);
    for (uint32_t i = 0; i < k->n; i++) wtable_put(ic, l[i]);
    if (k->n >= 2) kw_give(ic, k);
    k->n = KW_TABLE;
    k->at = 0;
    ic->st.keys_to_table++;
}


/* ---- the index --------------------------------------------------------- */

/* The stored successful write of value to key (an index in wops), or NONE. */
uint32_t incr_writer_op(const incr_check *ic, uint32_t key, int64_t value) {
    if (key >= ic->kw.len) return NONE;
    const ikw *k = &ic->kw.data[key];
    if (k->n == 0) return NONE;
    if (value == k->max) return k->top;
    if (k->n == KW_TABLE) return wtable_get(ic, key, value);
    if (value > k->max) return NONE;
    uint32_t p = kw_lower(ic, k, value);
    const uint32_t *l = kw_list(ic, k);
    return p < k->n && wop_value(ic, l[p]) == value ? l[p] : NONE;
}

/* Index transaction txn's successful write of value to key: its entry in
 * wops, or NONE if another write wrote that value. */
uint32_t incr_index_write(incr_check *ic, uint32_t key, int64_t value, uint32_t txn, int over) {
    ikw *k = &ic->kw.data[key];
    uint32_t p = 0;
    int append = k->n == 0 || value > k->max;
    if (!append) {
        if (value == k->max) return NONE;
        if (k->n == KW_TABLE) {
            if (wtable_get(ic, key, value) != NONE) return NONE;
        } else {
            p = kw_lower(ic, k, value);
            if (p < k->n && wop_value(ic, kw_list(ic, k)[p]) == value) return NONE;
            if (k->n - p > KW_SHIFT) kw_to_table(ic, k);
        }
    }
    const int wide = !value_narrow(value);
    iwop w = { key, txn | (over ? WOP_OVER : 0) | (wide ? WOP_WIDE : 0), (uint32_t)(uint64_t)value };
    uint32_t at = (uint32_t)ic->wops.len;
    big_vec_push(ic->wops, w);
    if (wide) {
        iwide x = { at, (uint32_t)((uint64_t)value >> 32) };
        vec_push(ic->wide, x);
    }
    if (k->n == KW_TABLE) wtable_put(ic, at);
    else kw_insert(ic, k, append ? k->n : p, at);
    if (append) { k->max = value; k->top = at; }
    return at;
}

/* A new key's record (no write yet). */
void incr_index_key(incr_check *ic) {
    ikw k = { 0, 0, 0, 0, 0 };
    big_vec_push(ic->kw, k);
}
