/* axioms.c — INT, aborted/intermediate/thin-air reads and list-append
 * prefix consistency (contract in axioms.h).
 *
 * One pass over the committed transactions with, per key, the last op of
 * the current transaction on it (stamped by transaction, so nothing is
 * cleared between transactions; one record a key); a second pass per list
 * key compares every read with the longest one.  Linear in the size of the
 * history.  An external read's writer is looked up (history_read_source:
 * the run's shared array, read_sources.c, else history_writer_of) and, in
 * the common case, judged from the writer op alone: outside the
 * reader's ops, not overwritten, and, when some transaction does not
 * participate, of a transaction that is not aborted. */
#include "frontend/checking/axioms.h"
#include "frontend/history/predicate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/pred_axioms.h"
#include "io/bigmem.h"

/* Per key, within the current transaction (stamp): its last op on the key
 * and its last own write (HISTORY_NONE: none yet).  One 16-byte record a
 * key, so that an op touches one cache line of them, not three (2.2M keys
 * at 22M: the records are far past the caches, the ops' keys random). */
typedef struct key_at { uint32_t stamp, last_op, last_w, pad_; } key_at;

typedef struct ax {
    const history *h;
    const uint8_t *part;         /* history_participants: whose reads are judged */
    anomaly_list *out;
    size_t limit;
    uint64_t found;
    uint64_t *counts;            /* per anomaly kind, or NULL */
    uint32_t listed_breaks;      /* the levels the listed violations break */
    key_at *at;                  /* per key, within the current txn */
    uint32_t *ext_len;           /* per list read op: the length of its external prefix */
    uint32_t *prev;              /* per op of the current txn: previous op on its key (lists) */
    uint32_t *seen;              /* per op: list read that last saw it (duplicate elements) */
    uint32_t txn_first, txn_end; /* the current transaction's ops */
    int all_part;                /* every transaction participates: none is aborted */
} ax;

static void report(ax *x, anomaly_kind kind, const uint32_t *ops, int n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void report(ax *x, anomaly_kind kind, const uint32_t *ops, int n, const char *fmt, ...) {
    x->found++;
    if (x->counts) x->counts[kind]++;
    /* past the limit, only a violation that breaks a level no listed one
     * breaks (so that every broken level has a listed reason) */
    if (x->limit && x->out->items.len >= x->limit && !(anomaly_breaks(kind) & ~x->listed_breaks)) return;
    x->listed_breaks |= anomaly_breaks(kind);
    anomaly *a = anomaly_add(x->out, kind);
    for (int i = 0; i < n; i++) anomaly_add_op(a, x->h, ops[i]);
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    anomaly_set_detail(a, "%s", buf);
}

/* "txn 12" / "the initial state" */
static const char *txn_name(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "the initial state");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

/* The write op after w in w's transaction on the same key, or HISTORY_NONE. */
static uint32_t next_own_write(const history *h, uint32_t w) {
    uint32_t k = h->op_key[w];
    uint32_t lo = h->key_write_start[k], hi = h->key_write_start[k + 1];
    while (lo < hi) {                     /* key_writes is sorted by op index */
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->key_writes[mid] < w) lo = mid + 1; else hi = mid;
    }
    if (lo + 1 < h->key_write_start[k + 1]) {
        uint32_t nx = h->key_writes[lo + 1];
        if (history_op_txn(h, nx) == history_op_txn(h, w)) return nx;
    }
    return HISTORY_NONE;
}

/* An external read of a repeated value whose candidates did not narrow
 * down to one (a resolved history, repeat.c): several possible writers is
 * no anomaly whichever the read saw (the level's check chooses); none is
 * one, named by what ruled out each candidate. */
static void ambiguous_read(ax *x, uint32_t r) {
    const history *h = x->h;
    uint32_t i = history_amb_index(h, r);
    if (i == HISTORY_NONE) return;
    uint32_t a = h->amb_start[i], b = h->amb_start[i + 1];
    for (uint32_t j = a; j < b; j++) if (!h->amb_why[j]) return;
    static const anomaly_kind kinds[] = { AN_THIN_AIR_READ, AN_ABORTED_READ, AN_INT, AN_INTERMEDIATE_READ };
    char tb[48], wb[48], kb[64], vb[96], detail[700];
    history_value_str(h, history_op_value(h, r), vb, sizeof vb);
    char *at = strstr(vb, "@?");                 /* the value as written, not its marker */
    if (at) *at = 0;
    int len = snprintf(detail, sizeof detail, "%s reads key %s = %s, which %u writes wrote, none of them readable:",
                       txn_name(h, history_op_txn(h, r), tb, sizeof tb), history_key_str(h, h->op_key[r], kb, sizeof kb), vb, b - a);
    uint32_t ops[3] = { r, h->amb_cand[a], b - a > 1 ? h->amb_cand[a + 1] : r };
    for (uint32_t j = a; j < b && len > 0 && (size_t)len < sizeof detail - 80; j++)
        len += snprintf(detail + len, sizeof detail - (size_t)len, "%s %s's %s", j > a ? ";" : "",
                        txn_name(h, history_op_txn(h, h->amb_cand[j]), wb, sizeof wb), history_rule_out_text((history_rule_out)h->amb_why[j]));
    report(x, kinds[h->amb_why[a] < 4 ? h->amb_why[a] : 0], ops, b - a > 1 ? 3 : 2, "%s", detail);
}

/* A register read with no earlier own op on its key. */
static void external_read(ax *x, uint32_t r) {
    const history *h = x->h;
    if (history_op_ambiguous(h, r)) { ambiguous_read(x, r); return; }
    uint32_t t = history_op_txn(h, r), k = h->op_key[r];
    int64_t v = history_op_value(h, r);
    char tb[48], wb[48], kb[64], vb[96], nb[96];
    uint32_t w = history_read_source(h, r);  /* history_writer_of(h, k, v): the shared array's where there is one */
    /* the common case, nothing to report: another transaction's (outside
     * the current one's ops), final write, not aborted (none is when every
     * transaction participates), without looking up the writer's txn */
    if (w != HISTORY_NONE && (w < x->txn_first || w >= x->txn_end) && !history_op_overwritten(h, w) &&
        (x->all_part || h->txns[history_op_txn(h, w)].status != TXN_ABORTED))
        return;
    history_key_str(h, k, kb, sizeof kb);
    if (w == HISTORY_NONE) {
        report(x, AN_THIN_AIR_READ, &r, 1, "%s reads key %s = %s, which no transaction wrote",
               txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, v, vb, sizeof vb));
        return;
    }
    uint32_t wt = history_op_txn(h, w), ops[2] = { r, w };
    if (wt == t) {
        report(x, AN_INT, ops, 2, "%s reads key %s = %s, which it writes only later", txn_name(h, t, tb, sizeof tb), kb,
               history_value_str(h, v, vb, sizeof vb));
        return;
    }
    if (h->txns[wt].status == TXN_ABORTED) {
        report(x, AN_ABORTED_READ, ops, 2, "%s reads key %s = %s written by aborted %s", txn_name(h, t, tb, sizeof tb), kb,
               history_value_str(h, v, vb, sizeof vb), txn_name(h, wt, wb, sizeof wb));
        return;
    }
    uint32_t nx = history_op_overwritten(h, w) ? next_own_write(h, w) : HISTORY_NONE;
    if (nx != HISTORY_NONE) {
        uint32_t ops3[3] = { r, w, nx };
        report(x, AN_INTERMEDIATE_READ, ops3, 3, "%s reads key %s = %s, which %s overwrote with %s later in the same transaction",
               txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, v, vb, sizeof vb), txn_name(h, wt, wb, sizeof wb),
               history_value_str(h, history_op_value(h, nx), nb, sizeof nb));
    }
}

/* The write op before w in w's transaction on the same key, or HISTORY_NONE. */
static uint32_t prev_own_write(const history *h, uint32_t w) {
    uint32_t k = h->op_key[w];
    uint32_t lo = h->key_write_start[k], hi = h->key_write_start[k + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->key_writes[mid] < w) lo = mid + 1; else hi = mid;
    }
    if (lo > h->key_write_start[k]) {
        uint32_t pv = h->key_writes[lo - 1];
        if (history_op_txn(h, pv) == history_op_txn(h, w)) return pv;
    }
    return HISTORY_NONE;
}

/* Elements l[0..m) of list read r, not explained by r's own appends (its
 * external prefix).  Every version is a whole transaction's appends, so
 * each other transaction's elements must form one run of all its appends
 * in program order: an element's own-transaction predecessor right before
 * it, its successor right after it. */
static void external_list(ax *x, uint32_t r, const int64_t *l, uint32_t m) {
    const history *h = x->h;
    uint32_t t = history_op_txn(h, r), k = h->op_key[r];
    char tb[48], wb[48], kb[64], vb[96], nb[96];
    history_key_str(h, k, kb, sizeof kb);
    int aborted_done = 0, inter_done = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t w = history_writer_of(h, k, l[i]);
        if (w == HISTORY_NONE || history_op_txn(h, w) == 0) {
            report(x, AN_LIST_BAD_ELEMENT, &r, 1, "%s reads list key %s containing %s, which nobody appended",
                   txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, l[i], vb, sizeof vb));
            return;
        }
        uint32_t ops[2] = { r, w };
        if (x->seen[w] == r + 1) {
            report(x, AN_LIST_BAD_ELEMENT, ops, 2, "%s reads list key %s containing %s twice", txn_name(h, t, tb, sizeof tb), kb,
                   history_value_str(h, l[i], vb, sizeof vb));
            return;
        }
        x->seen[w] = r + 1;
        uint32_t wt = history_op_txn(h, w);
        if (wt == t) {
            report(x, AN_INT, ops, 2, "%s reads list key %s containing %s, which it appends only later",
                   txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, l[i], vb, sizeof vb));
            return;
        }
        if (h->txns[wt].status == TXN_ABORTED && !aborted_done) {
            aborted_done = 1;
            report(x, AN_ABORTED_READ, ops, 2, "%s reads list key %s containing %s, appended by aborted %s",
                   txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, l[i], vb, sizeof vb), txn_name(h, wt, wb, sizeof wb));
        }
        uint32_t pv = prev_own_write(h, w);
        if (pv != HISTORY_NONE && !inter_done && (i == 0 || l[i - 1] != history_op_value(h, pv))) {
            inter_done = 1;
            uint32_t ops3[3] = { r, pv, w };
            report(x, AN_LIST_INCOMPATIBLE, ops3, 3, "%s reads list key %s with %s but not right after %s, which %s appended just before it",
                   txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, l[i], vb, sizeof vb), history_value_str(h, history_op_value(h, pv), nb, sizeof nb),
                   txn_name(h, wt, wb, sizeof wb));
        }
        uint32_t nx = history_op_overwritten(h, w) ? next_own_write(h, w) : HISTORY_NONE;
        if (nx != HISTORY_NONE && !inter_done && (i + 1 == m || l[i + 1] != history_op_value(h, nx))) {
            inter_done = 1;
            uint32_t ops3[3] = { r, w, nx };
            report(x, AN_INTERMEDIATE_READ, ops3, 3, "%s reads list key %s with %s but without %s, which %s appended next",
                   txn_name(h, t, tb, sizeof tb), kb, history_value_str(h, l[i], vb, sizeof vb), history_value_str(h, history_op_value(h, nx), nb, sizeof nb),
                   txn_name(h, wt, wb, sizeof wb));
        }
    }
}

/* "[1 2 3]", shortened to fit. */
static const char *list_str(const history *h, const int64_t *l, uint32_t m, char *buf, size_t n) {
    size_t at = (size_t)snprintf(buf, n, "[");
    char eb[64];
    for (uint32_t i = 0; i < m && at + 24 < n; i++)
        at += (size_t)snprintf(buf + at, n - at, i ? " %s" : "%s", history_value_str(h, l[i], eb, sizeof eb));
    snprintf(buf + at, n - at, at + 24 >= n && m ? " ...]" : "]");
    return buf;
}

/* A predicate read's view of a key it did not return whose version is a
 * choice (an ambiguous lowered op): when it differs from an item read of the
 * key, pred_axioms.c's predicate-miss reports it (rc: the view's own choice). */
static int pred_view_choice(const history *h, uint32_t op) {
    uint32_t tag = history_op_pred(h, op);
    return (h->op_kind[op] & OP_AMBIGUOUS) && tag != PRED_TAG_NONE && !pred_tag_returned(tag);
}

/* A register read: after an own write it must show the last one; else it
 * is an external read, and one that differs from the transaction's own
 * earlier read of the key is a non-repeatable read (allowed by rc only). */
static void check_register_read(ax *x, uint32_t r, uint32_t prev, uint32_t own_write) {
    const history *h = x->h;
    char tb[48], kb[64], vb[96], pb[96];
    int64_t v = history_op_value(h, r);
    if (own_write != HISTORY_NONE) {
        if (v == history_op_value(h, own_write)) return;
        uint32_t ops[2] = { r, own_write };
        report(x, AN_INT, ops, 2, "%s reads key %s = %s after writing %s itself", txn_name(h, history_op_txn(h, r), tb, sizeof tb),
               history_key_str(h, h->op_key[r], kb, sizeof kb), history_value_str(h, v, vb, sizeof vb),
               history_value_str(h, history_op_value(h, own_write), pb, sizeof pb));
        return;
    }
    if (prev != HISTORY_NONE && history_op_kind(h, prev) == OP_READ) {
        int64_t pv = history_op_value(h, prev);
        if (v == pv) return;                /* agrees with a checked read */
        uint32_t ops[2] = { r, prev };
        if (!pred_view_choice(h, r) && !pred_view_choice(h, prev))      /* else a predicate-miss says it (rc: a choice) */
            report(x, AN_NONREPEATABLE_READ, ops, 2, "%s reads key %s = %s after reading %s itself, with no own write between",
                   txn_name(h, history_op_txn(h, r), tb, sizeof tb), history_key_str(h, h->op_key[r], kb, sizeof kb),
                   history_value_str(h, v, vb, sizeof vb), history_value_str(h, pv, pb, sizeof pb));
    }
    external_read(x, r);                    /* a new external read: its own source is judged too */
}

/* A list read must end with all of its transaction's appends to the key
 * so far, in program order; the rest is its external prefix.  One that
 * differs from the external prefix of the transaction's own earlier read of
 * the key is a non-repeatable read (allowed by rc only). */
static void check_list_read(ax *x, uint32_t r, uint32_t first_op) {
    const history *h = x->h;
    uint32_t n;
    const int64_t *l = history_list(h, r, &n);
    uint32_t appends = 0, base = HISTORY_NONE, last_append = HISTORY_NONE;
    for (uint32_t p = x->prev[r - first_op]; p != HISTORY_NONE; p = x->prev[p - first_op]) {
        op_kind pk = history_op_kind(h, p);
        if (pk == OP_LIST_READ && base == HISTORY_NONE) base = p;
        if (pk == OP_APPEND) { appends++; if (last_append == HISTORY_NONE) last_append = p; }
    }
    int ok = n >= appends;
    uint32_t own_from = ok ? n - appends : 0;          /* l[own_from..n) must be the own appends */
    if (ok && appends) {                   /* compare the suffix with the appends, in order (collected backwards) */
        uint32_t i = n;
        for (uint32_t p = x->prev[r - first_op]; p != HISTORY_NONE && ok; p = x->prev[p - first_op])
            if (history_op_kind(h, p) == OP_APPEND) ok = l[--i] == history_op_value(h, p);
    }
    x->ext_len[r] = own_from;
    char tb[48], kb[64];
    if (!ok) {
        uint32_t ops[2] = { r, base != HISTORY_NONE ? base : last_append };
        report(x, AN_INT, ops, 2, "%s reads list key %s, which does not match its own earlier %s", txn_name(h, history_op_txn(h, r), tb, sizeof tb),
               history_key_str(h, h->op_key[r], kb, sizeof kb), base != HISTORY_NONE ? "read and appends" : "appends");
        return;
    }
    if (base != HISTORY_NONE) {
        uint32_t bn;
        const int64_t *bl = history_list(h, base, &bn);
        uint32_t be = x->ext_len[base];
        if (be == own_from && (be == 0 || !memcmp(l, bl, be * sizeof *l))) return;   /* a repeated read */
        uint32_t ops[2] = { r, base };
        char nb[256], ob[256];
        report(x, AN_NONREPEATABLE_READ, ops, 2, "%s reads list key %s as version %s after reading version %s itself",
               txn_name(h, history_op_txn(h, r), tb, sizeof tb), history_key_str(h, h->op_key[r], kb, sizeof kb),
               list_str(h, l, own_from, nb, sizeof nb), list_str(h, bl, be, ob, sizeof ob));
    }
    external_list(x, r, l, own_from);
}

/* Per list key, the reads of participants compared with the longest one:
 * whole = 0 compares the external prefixes (they must all be versions of
 * one order: incompatible-order, every level), whole = 1 the whole lists,
 * own appends included, on the keys whose prefixes agree (the appends must
 * follow the version read: incompatible-append-order, psi and up). */
static void compare_lists(ax *x, uint32_t *longest, uint8_t *done, int whole) {
    const history *h = x->h;
    memset(longest, 0xff, (size_t)h->num_keys * sizeof *longest);
    #define LEN_OF(op, n) (whole ? (n) : x->ext_len[op])
    for (uint32_t r = 0; r < h->num_ops; r++) {
        if (!history_op_is_read(h, r) || history_op_kind(h, r) != OP_LIST_READ) continue;
        uint32_t k = h->op_key[r], n, ln;
        if (!x->part[history_op_txn(h, r)] || done[k]) continue;
        history_list(h, r, &n);
        if (longest[k] == HISTORY_NONE || (history_list(h, longest[k], &ln), LEN_OF(r, n) > LEN_OF(longest[k], ln))) longest[k] = r;
    }
    for (uint32_t r = 0; r < h->num_ops; r++) {
        if (!history_op_is_read(h, r) || history_op_kind(h, r) != OP_LIST_READ) continue;
        uint32_t k = h->op_key[r], n, ln;
        if (!x->part[history_op_txn(h, r)] || done[k] || longest[k] == HISTORY_NONE || longest[k] == r) continue;
        const int64_t *l = history_list(h, r, &n), *L = history_list(h, longest[k], &ln);
        uint32_t m = LEN_OF(r, n), i = 0;
        while (i < m && l[i] == L[i]) i++;
        if (i == m) continue;
        char tb[48], ub[48], kb[64], vb[96], wb[96];
        uint32_t ops[2] = { r, longest[k] };
        history_key_str(h, k, kb, sizeof kb);
        txn_name(h, history_op_txn(h, r), tb, sizeof tb);
        txn_name(h, history_op_txn(h, longest[k]), ub, sizeof ub);
        history_value_str(h, l[i], vb, sizeof vb);
        history_value_str(h, L[i], wb, sizeof wb);
        if (!whole)
            report(x, AN_LIST_INCOMPATIBLE, ops, 2, "reads of list key %s disagree at position %u: %s saw %s where %s saw %s",
                   kb, i, tb, vb, ub, wb);
        else
            report(x, AN_APPEND_ORDER, ops, 2, "reads of list key %s disagree at position %u: %s saw %s where %s saw %s; "
                   "%s's own appends there do not follow the version it read", kb, i, tb, vb, ub, wb,
                   i >= x->ext_len[r] ? tb : ub);
        done[k] = 1;                        /* once per key */
    }
    #undef LEN_OF
}

static void check_list_orders(ax *x) {
    const history *h = x->h;
    uint32_t *longest = xmalloc(((size_t)h->num_keys ? h->num_keys : 1) * sizeof *longest);
    uint8_t *done = xcalloc((size_t)h->num_keys ? h->num_keys : 1, 1);
    compare_lists(x, longest, done, 0);
    compare_lists(x, longest, done, 1);
    free(done);
    free(longest);
}

uint64_t axioms_check(const history *h, anomaly_list *out, size_t limit) { return axioms_check_kinds(h, out, limit, NULL); }

uint32_t axioms_broken_levels(const uint64_t counts[AN_NUM_KINDS]) {
    uint32_t m = 0;
    for (int k = 0; k < AN_NUM_KINDS; k++)
        if (counts[k]) m |= anomaly_breaks((anomaly_kind)k);
    return m;
}

uint64_t axioms_level_count(const uint64_t counts[AN_NUM_KINDS], check_level_id l) {
    uint64_t n = 0;
    for (int k = 0; k < AN_NUM_KINDS; k++)
        if (anomaly_breaks((anomaly_kind)k) >> l & 1u) n += counts[k];
    return n;
}

/* The writer lookups of the register reads ahead of op o fetched early
 * (the ops are visited in order, their writers are all over the history),
 * and the per-key record of the op half as far ahead. */
HISTORY_PREFETCH_FN void prefetch_reads(const history *h, const key_at *at, uint32_t o) {
    uint32_t a = o + HISTORY_PREFETCH_AHEAD, b = o + HISTORY_PREFETCH_AHEAD / 2, z = o + HISTORY_PREFETCH_REGION;
    if (b < h->num_ops) HISTORY_PREFETCH(&at[h->op_key[b]]);          /* the key's record */
    if (history_has_read_sources(h)) { history_read_source_prefetch(h, b); return; }   /* no lookups: the writer's kind */
    if (z < h->num_ops) history_writer_prefetch_region(h, h->op_key[z]);
    if (a < h->num_ops && history_op_kind(h, a) == OP_READ) history_writer_prefetch_slot(h, h->op_key[a], history_op_value(h, a));
    if (b < h->num_ops && history_op_kind(h, b) == OP_READ) history_writer_prefetch_op(h, h->op_key[b], history_op_value(h, b));
}

uint64_t axioms_check_kinds(const history *h, anomaly_list *out, size_t limit, uint64_t counts[AN_NUM_KINDS]) {
    uint8_t *part = history_participants(h);
    ax x;
    memset(&x, 0, sizeof x);
    x.h = h; x.part = part; x.out = out; x.limit = limit; x.counts = counts;
    if (counts) memset(counts, 0, AN_NUM_KINDS * sizeof *counts);
    size_t nk = h->num_keys ? h->num_keys : 1;
    x.at = big_calloc(nk, sizeof *x.at);             /* stamp 0: txn 0 is never checked */
    uint32_t max_ops = 1;
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (h->txns[t].num_ops > max_ops) max_ops = h->txns[t].num_ops;
    if (h->has_lists) {
        x.prev = xmalloc((size_t)max_ops * sizeof *x.prev);
        x.seen = xcalloc(h->num_ops, sizeof *x.seen);
        x.ext_len = xcalloc(h->num_ops, sizeof *x.ext_len);
    }
    x.all_part = memchr(part, 0, h->num_txns) == NULL;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *tx = &h->txns[t];
        if (!part[t]) continue;
        x.txn_first = tx->first_op;
        x.txn_end = tx->first_op + tx->num_ops;
        for (uint32_t o = tx->first_op; o < tx->first_op + tx->num_ops; o++) {
            prefetch_reads(h, x.at, o);
            if (history_op_failed(h, o)) { if (x.prev) x.prev[o - tx->first_op] = HISTORY_NONE; continue; }
            key_at *a = &x.at[h->op_key[o]];
            uint32_t prev = a->stamp == t ? a->last_op : HISTORY_NONE;
            if (a->stamp != t) a->last_w = HISTORY_NONE;
            a->stamp = t;
            a->last_op = o;
            if (x.prev) x.prev[o - tx->first_op] = prev;
            switch (history_op_kind(h, o)) {
            case OP_READ: check_register_read(&x, o, prev, a->last_w); break;
            case OP_LIST_READ: check_list_read(&x, o, tx->first_op); break;
            default: a->last_w = o; break;
            }
        }
    }
    if (h->has_lists) check_list_orders(&x);
    x.found += pred_axioms_check(h, part, out, limit, x.counts);
    free(x.at); free(x.prev); free(x.seen); free(x.ext_len); free(part);
    return x.found;
}

/* The levels whose reader's list version comes right after the version its
 * prefix shows (under psi, SI, SER and their variants a list reader's own
 * appends follow its snapshot); not pc or the weak levels: exactly the
 * levels an incompatible append order breaks (anomaly_breaks). */
int axioms_whole_lists(check_level_id level) { return anomaly_breaks(AN_APPEND_ORDER) >> level & 1u; }

uint64_t axioms_check_lists(const history *h, anomaly_list *out, size_t limit, int whole_lists) {
    uint64_t counts[AN_NUM_KINDS];
    uint64_t n = axioms_check_kinds(h, out, limit, counts);
    return whole_lists ? n : n - counts[AN_APPEND_ORDER];
}
