/* brute_repeat.h — a brute-force SI / SER oracle for tiny histories whose
 * written values may repeat (issue 35), from the definitions: it reads the
 * raw operations only (op_kind, op_key, op_value, op_txn and the
 * transactions), never the history model's reading of reads, its writer
 * table or its resolved form, and no code of the pipeline.
 *
 * Every external read (the first op of its transaction on a key, a read)
 * may have seen any committed other transaction's final write of the key
 * with the same value (INIT's VALUE_INIT for the initial one); the history
 * satisfies the level iff some choice of one such writer per external read
 * and some per-key version order make the graph acyclic (the search and the
 * relations: tests/brute_check.h's brute_search, run on each choice).
 * Later ops on a key in a transaction must agree with the op before them
 * (INT); a read with no candidate, or breaking INT, makes the history
 * unsatisfiable (0).  Returns 1, 0, or -1 (too big).
 *
 * Every level (brute_repeat_levels, when tests/brute_levels.h is included
 * first): a history whose values repeat satisfies a level iff some choice,
 * per read, of one write of the value it read makes a history of unique
 * values that satisfies it by tests/brute_levels.h.  Each choice is
 * written out as a copy of op_value in which every write of a transaction
 * has a value of its own (1 << 40 | op) and every read the value of the
 * write it chose (VALUE_INIT: INIT's); the level oracle runs on the copy.
 * A read after its transaction's own write of the key shows that write (if
 * the values differ, the read keeps its value: brute_levels fails it).  An
 * external read chooses, independently of the transaction's other reads of
 * the key (rc allows those to differ), among INIT (for VALUE_INIT) and
 * every write of the value except those brute_levels fails anyway (an
 * aborted transaction's, the reader's own, one overwritten in its own
 * transaction); none left: the read keeps its value (a thin-air read).
 * Who takes part is settled before the choice (see brute_repeat_levels). */
#ifndef ISOCHECK_TESTS_BRUTE_REPEAT_H
#define ISOCHECK_TESTS_BRUTE_REPEAT_H

#include "tests/brute_check.h"

#define BRUTE_REPEAT_MAX_READS 12

typedef struct brute_rread { int t, k, nc; int cand[BRUTE_MAX_TXNS]; } brute_rread;

static int brute_repeat_op_ok(const history *h, uint32_t op) { return !(h->op_kind[op] & OP_FAILED); }
static int brute_repeat_kind(const history *h, uint32_t op) { return h->op_kind[op] & OP_KIND_MASK; }

/* Txn w's final successful write of k: 1 and its value, else 0. */
static int brute_repeat_final(const history *h, int w, int k, int64_t *v) {
    int found = 0;
    for (uint32_t i = 0; i < h->txns[w].num_ops; i++) {
        uint32_t op = h->txns[w].first_op + i;
        if (h->op_key[op] == (uint32_t)k && brute_repeat_op_ok(h, op) && brute_repeat_kind(h, op) == OP_WRITE) {
            found = 1;
            *v = history_op_value(h, op);
        }
    }
    return found;
}

static int brute_repeat_choose(brute_state *b, const brute_rread *rr, int n, int i) {
    if (i == n) return brute_search(b, 0);
    for (int c = 0; c < rr[i].nc; c++) {
        int w = rr[i].cand[c];
        uint32_t saved = b->wr[w];
        b->read_from[rr[i].t][rr[i].k] = w;
        if (w != 0) b->wr[w] |= 1u << rr[i].t;
        if (brute_repeat_choose(b, rr, n, i + 1)) return 1;
        b->wr[w] = saved;
    }
    return 0;
}

static int brute_repeat_check(const history *h, int si) {
    brute_state b;
    memset(&b, 0, sizeof b);
    b.si = si;
    if (h->num_txns > BRUTE_MAX_TXNS || h->num_keys > BRUTE_MAX_KEYS) return -1;
    b.n = (int)h->num_txns;
    b.nkeys = (int)h->num_keys;
    int part[BRUTE_MAX_TXNS];
    for (int t = 0; t < b.n; t++) part[t] = t == 0 || h->txns[t].status == TXN_COMMITTED;
    for (int t = 0; t < b.n; t++) for (int k = 0; k < b.nkeys; k++) b.read_from[t][k] = -1;
    for (int a = 1; a < b.n; a++)
        for (int c = 1; c < b.n; c++)
            if (part[a] && part[c] && h->txns[a].session == h->txns[c].session && h->txns[a].pos < h->txns[c].pos)
                b.so[a] |= 1u << c;
    for (int k = 0; k < b.nkeys; k++)
        for (int t = 1; t < b.n; t++) {
            int64_t v;
            if (!part[t] || !brute_repeat_final(h, t, k, &v)) continue;
            if (b.nw[k] == BRUTE_MAX_WRITERS) return -1;
            b.writers[k][b.nw[k]++] = t;
        }
    brute_rread rr[BRUTE_REPEAT_MAX_READS];
    int nr = 0;
    for (int t = 1; t < b.n; t++) {
        if (!part[t]) continue;
        for (int k = 0; k < b.nkeys; k++) {
            int seen = 0;
            int64_t last = 0;
            for (uint32_t i = 0; i < h->txns[t].num_ops; i++) {
                uint32_t op = h->txns[t].first_op + i;
                if (h->op_key[op] != (uint32_t)k || !brute_repeat_op_ok(h, op)) continue;
                int kind = brute_repeat_kind(h, op);
                if (kind != OP_READ && kind != OP_WRITE) return -1;
                if (seen && kind == OP_READ && history_op_value(h, op) != last) return 0;      /* INT */
                if (!seen && kind == OP_READ) {
                    if (nr == BRUTE_REPEAT_MAX_READS) return -1;
                    brute_rread *r = &rr[nr++];
                    r->t = t; r->k = k; r->nc = 0;
                    if (history_op_value(h, op) == VALUE_INIT) r->cand[r->nc++] = 0;
                    for (int w = 1; w < b.n; w++) {
                        int64_t v;
                        if (w != t && part[w] && brute_repeat_final(h, w, k, &v) && v == history_op_value(h, op)) r->cand[r->nc++] = w;
                    }
                    if (!r->nc) return 0;
                }
                seen = 1;
                last = history_op_value(h, op);
            }
        }
    }
    return brute_repeat_choose(&b, rr, nr, 0);
}

#ifdef ISOCHECK_TESTS_BRUTE_LEVELS_H
#define BRUTE_REPEAT_MAX_CHOICES 2048
#define BRUTE_REPEAT_OWN(op) ((int64_t)1 << 40 | (int64_t)(op))

typedef struct brute_rlv {
    const history *h;
    const int64_t *inv, *cmp;
    int64_t val[256];
    uint32_t nr, read[64], nc[64], cand[64][8];   /* cand: write ops, UINT32_MAX for INIT */
    int any[BV_NLEVELS], undecided[BV_NLEVELS];
} brute_rlv;

static void brute_repeat_levels_rec(brute_rlv *s, uint32_t i) {
    if (i == s->nr) {
        history c = *s->h;
        c.op_val64 = s->val; c.op_val32 = NULL;   /* the wide form: history.h */
        int o[BV_NLEVELS];
        bv_check_all(&c, s->inv, s->cmp, o);
        for (int l = 0; l < BV_NLEVELS; l++) { s->any[l] |= o[l] == 1; s->undecided[l] |= o[l] < 0; }
        return;
    }
    for (uint32_t c = 0; c < s->nc[i]; c++) {
        uint32_t w = s->cand[i][c];
        s->val[s->read[i]] = w == UINT32_MAX ? VALUE_INIT : BRUTE_REPEAT_OWN(w);
        brute_repeat_levels_rec(s, i + 1);
    }
}

/* Txn t's write of k at op is overwritten later in t. */
static int brute_repeat_overwritten(const history *h, uint32_t op) {
    uint32_t t = history_op_txn(h, op);
    for (uint32_t o = op + 1; o < h->txns[t].first_op + h->txns[t].num_ops; o++)
        if (h->op_key[o] == h->op_key[op] && brute_repeat_op_ok(h, o) && brute_repeat_kind(h, o) == OP_WRITE) return 1;
    return 0;
}

/* Who takes part, with the unsettled reads (nc[i] > 1) reading a value
 * nobody writes: brute_levels' participants of that copy. */
static void brute_repeat_part(brute_rlv *s, uint8_t *part) {
    for (uint32_t i = 0; i < s->nr; i++)
        if (s->nc[i] > 1) s->val[s->read[i]] = (int64_t)1 << 41 | (int64_t)s->read[i];
    history c = *s->h;
    c.op_val64 = s->val; c.op_val32 = NULL;   /* the wide form: history.h */
    bv_participants(&c, part);
}

static void brute_repeat_settle(brute_rlv *s, uint32_t i, uint32_t w) {
    s->nc[i] = 1;
    s->cand[i][0] = w;
    s->val[s->read[i]] = w == UINT32_MAX ? VALUE_INIT : BRUTE_REPEAT_OWN(w);
}

/* out[l] for every level of tests/brute_levels.h: 1 holds, 0 fails, -1
 * undecided (too big, or no times for the real-time levels).
 * Who takes part does not depend on the choice (doc/checker.md): a read
 * with several possible writers chooses among those that take part by the
 * other reads; when none does, it reads its first (INIT, then op order),
 * and that is repeated until nothing changes. */
static void brute_repeat_levels(const history *h, const int64_t *inv, const int64_t *cmp, int out[BV_NLEVELS]) {
    static brute_rlv s;
    memset(&s, 0, sizeof s);
    s.h = h; s.inv = inv; s.cmp = cmp;
    for (int l = 0; l < BV_NLEVELS; l++) out[l] = -1;
    if (h->num_ops > 256 || h->has_lists || h->num_txns > 64) return;
    for (uint32_t op = 0; op < h->num_ops; op++) s.val[op] = history_op_value(h, op);
    for (uint32_t t = 1; t < h->num_txns; t++)
        for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++)
            if (brute_repeat_op_ok(h, op) && brute_repeat_kind(h, op) == OP_WRITE) s.val[op] = BRUTE_REPEAT_OWN(op);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (h->txns[t].status == TXN_ABORTED) continue;
        const history_txn *tx = &h->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (!brute_repeat_op_ok(h, op) || brute_repeat_kind(h, op) != OP_READ) continue;
            uint32_t own = UINT32_MAX;
            for (uint32_t o = tx->first_op; o < op; o++)
                if (h->op_key[o] == h->op_key[op] && brute_repeat_op_ok(h, o) && brute_repeat_kind(h, o) == OP_WRITE) own = o;
            if (own != UINT32_MAX) {
                if (history_op_value(h, own) == history_op_value(h, op)) s.val[op] = s.val[own];
                continue;
            }
            if (s.nr == 64) return;
            uint32_t i = s.nr, n = 0;
            if (history_op_value(h, op) == VALUE_INIT) s.cand[i][n++] = UINT32_MAX;
            for (uint32_t w = h->txns[1].first_op; w < h->num_ops; w++) {
                uint32_t wt = history_op_txn(h, w);
                if (wt == 0 || wt == t || h->op_key[w] != h->op_key[op] || history_op_value(h, w) != history_op_value(h, op) ||
                    !brute_repeat_op_ok(h, w) || brute_repeat_kind(h, w) != OP_WRITE ||
                    h->txns[wt].status == TXN_ABORTED || brute_repeat_overwritten(h, w))
                    continue;
                if (n == 8) return;
                s.cand[i][n++] = w;
            }
            if (!n) continue;                    /* keeps its value: no write has it now */
            s.read[i] = op;
            s.nc[i] = n;
            s.nr++;
            if (n == 1) brute_repeat_settle(&s, i, s.cand[i][0]);
        }
    }
    uint8_t part[64];
    for (int changed = 1; changed;) {            /* who takes part, settled first */
        changed = 0;
        brute_repeat_part(&s, part);
        for (uint32_t i = 0; i < s.nr; i++) {
            if (s.nc[i] < 2 || !part[history_op_txn(h, s.read[i])]) continue;
            int in = 0;
            for (uint32_t c = 0; c < s.nc[i]; c++) in |= s.cand[i][c] == UINT32_MAX || part[history_op_txn(h, s.cand[i][c])];
            if (!in) { brute_repeat_settle(&s, i, s.cand[i][0]); changed = 1; }
        }
    }
    uint64_t product = 1;
    for (uint32_t i = 0; i < s.nr; i++) {
        if (s.nc[i] < 2) continue;
        if (!part[history_op_txn(h, s.read[i])]) { brute_repeat_settle(&s, i, s.cand[i][0]); continue; }   /* not judged */
        uint32_t n = 0;
        for (uint32_t c = 0; c < s.nc[i]; c++)
            if (s.cand[i][c] == UINT32_MAX || part[history_op_txn(h, s.cand[i][c])]) s.cand[i][n++] = s.cand[i][c];
        s.nc[i] = n;
        product *= n;
        if (product > BRUTE_REPEAT_MAX_CHOICES) return;
    }
    brute_repeat_levels_rec(&s, 0);
    for (int l = 0; l < BV_NLEVELS; l++) out[l] = s.any[l] ? 1 : s.undecided[l] ? -1 : 0;
}
/* ---- lists (issue 35): brute_repeat_list_levels ---------------------------
 * A list history whose appended values may repeat satisfies a level iff
 * some choice, per list read and per position of its list, of one append
 * of the value shown there makes a history of unique values that satisfies
 * it by tests/brute_levels.h.  Each choice is written out as a copy: every
 * successful append gets a value of its own (1 << 40 | op) and every
 * position of a list read the value of the append it chose; the level
 * oracle runs on the copy (so who takes part follows the choice, as its
 * participants are read off the copy).  A position chooses among every
 * successful append of its key and value by a non-aborted transaction
 * (the reader's own included: its own suffix), and a list may not choose
 * one append twice; none left: the position keeps its value (brute_levels
 * fails a read of a value nobody wrote).  The choices are independent per
 * read: nothing of the pipeline's per-key segmentation or its pruning is
 * assumed.  Register reads are left as they are (a history with repeated
 * register values is not handled: -1). */
#define BRUTE_LIST_MAX_CHOICES 4096

typedef struct brute_llv {
    const history *h;
    const int64_t *inv, *cmp;
    int64_t val[256];
    history_list_ref lists[64];
    int64_t pool[512];
    uint32_t npos, pos_at[512], nc[512], cand[512][6];   /* per chosen position: pool slot and candidates */
    int any[BV_NLEVELS], undecided[BV_NLEVELS];
} brute_llv;

static int brute_list_taken(const brute_llv *s, uint32_t i, int64_t v) {
    uint32_t at = s->pos_at[i];
    for (uint32_t j = 0; j < s->h->num_lists; j++)        /* earlier positions of the same list */
        if (s->lists[j].off <= at && at < s->lists[j].off + s->lists[j].len) {
            for (uint64_t q = s->lists[j].off; q < at; q++)
                if (s->pool[q] == v) return 1;
            return 0;
        }
    return 0;
}

static void brute_list_rec(brute_llv *s, uint32_t i) {
    if (i == s->npos) {
        history c = *s->h;
        c.op_val64 = s->val; c.op_val32 = NULL;   /* the wide form: history.h */
        c.lists = s->lists;
        c.list_pool = s->pool;
        int o[BV_NLEVELS];
        bv_check_all(&c, s->inv, s->cmp, o);
        for (int l = 0; l < BV_NLEVELS; l++) { s->any[l] |= o[l] == 1; s->undecided[l] |= o[l] < 0; }
        return;
    }
    for (uint32_t c = 0; c < s->nc[i]; c++) {
        int64_t v = BRUTE_REPEAT_OWN(s->cand[i][c]);
        if (s->nc[i] > 1 && brute_list_taken(s, i, v)) continue;
        s->pool[s->pos_at[i]] = v;
        brute_list_rec(s, i + 1);
    }
}

/* out[l] for every level of tests/brute_levels.h: 1 holds, 0 fails, -1 undecided. */
static void brute_repeat_list_levels(const history *h, const int64_t *inv, const int64_t *cmp, int out[BV_NLEVELS]) {
    static brute_llv s;
    memset(&s, 0, sizeof s);
    s.h = h; s.inv = inv; s.cmp = cmp;
    for (int l = 0; l < BV_NLEVELS; l++) out[l] = -1;
    if (h->num_ops > 256 || h->num_lists > 64 || h->num_txns > 64) return;
    for (uint32_t op = 0; op < h->num_ops; op++) {
        s.val[op] = history_op_value(h, op);
        if (history_op_txn(h, op) && brute_repeat_op_ok(h, op) && brute_repeat_kind(h, op) == OP_APPEND) s.val[op] = BRUTE_REPEAT_OWN(op);
        if (history_op_txn(h, op) && brute_repeat_op_ok(h, op) && brute_repeat_kind(h, op) == OP_WRITE)
            for (uint32_t o = op + 1; o < h->num_ops; o++)
                if (h->op_key[o] == h->op_key[op] && brute_repeat_op_ok(h, o) && brute_repeat_kind(h, o) == OP_WRITE &&
                    history_op_value(h, o) == history_op_value(h, op)) return;          /* a repeated register value */
    }
    uint32_t at = 0;
    uint64_t product = 1;
    for (uint32_t op = 0; op < h->num_ops; op++) {
        if (brute_repeat_kind(h, op) != OP_LIST_READ) continue;
        uint32_t n, li = (uint32_t)history_op_value(h, op);
        const int64_t *l = history_list(h, op, &n);
        if (li >= 64 || at + n > 512) return;
        s.lists[li].off = at; s.lists[li].len = n;
        for (uint32_t i = 0; i < n; i++, at++) {
            s.pool[at] = l[i];
            if (h->txns[history_op_txn(h, op)].status == TXN_ABORTED || !brute_repeat_op_ok(h, op)) continue;
            uint32_t nc = 0, p = s.npos;
            for (uint32_t w = h->txns[1].first_op; w < h->num_ops; w++) {
                if (h->op_key[w] != h->op_key[op] || history_op_value(h, w) != l[i] || !brute_repeat_op_ok(h, w) ||
                    brute_repeat_kind(h, w) != OP_APPEND || h->txns[history_op_txn(h, w)].status == TXN_ABORTED) continue;
                if (nc == 6) return;
                s.cand[p][nc++] = w;
            }
            if (!nc) continue;                    /* keeps its value: nobody appended it */
            if (nc == 1) { s.pool[at] = BRUTE_REPEAT_OWN(s.cand[p][0]); continue; }
            s.pos_at[p] = at;
            s.nc[p] = nc;
            s.npos++;
            product *= nc;
            if (product > BRUTE_LIST_MAX_CHOICES) return;
        }
    }
    brute_list_rec(&s, 0);
    for (int l = 0; l < BV_NLEVELS; l++) out[l] = s.any[l] ? 1 : s.undecided[l] ? -1 : 0;
}
#endif

#endif
