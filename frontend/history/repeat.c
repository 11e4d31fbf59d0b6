/* repeat.c — values written more than once to a key (issue 35; contract
 * in history.h, "Repeated values"; doc/checker.md, "Repeated values").
 *
 * The writer table keeps the first writer of a repeated (key, value), so
 * the unique case's lookup is unchanged; the others are found through
 * rep_ops, the OP_REPEATED writes sorted by (key, value, op), by binary
 * search.
 *
 * The resolved form of a history is a copy in which every repeated write
 * (INIT's excepted: it keeps VALUE_INIT) has a named value of its own
 * (distinct ids; each shown as V, the value written: reports name the
 * writer separately when it is known or chosen), and every read is rewritten to the value of the write it can only
 * have seen:
 *   - an external read (no earlier op of its transaction on the key) of a
 *     repeated value: its candidates are every write of (key, value) minus
 *     those history_rule_out_of rules out; one left: that write's value;
 *     none or several: OP_AMBIGUOUS, a fresh named value (shown V) nobody
 *     writes, and an entry in amb_* with every candidate and why it is
 *     ruled out (0: possible);
 *   - a later read of the key in the same transaction: the value of the
 *     op before it on the key when the written values agree (it shows the
 *     same version); a read of another repeated value than the read before
 *     it is an external read of its own (a non-repeatable read: rc allows
 *     it, the axioms report it at the other levels); after an own write of
 *     another value, a marker nobody writes (the INT anomaly stays).
 * Linear in the history plus a sort of the repeated writes. */
#include "frontend/history/repeat_internal.h"
#include "frontend/history/predicate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

static const history *sort_h;          /* qsort has no context: set under the caller's only thread */

static int cmp_rep(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const history *h = sort_h;
    if (h->op_key[x] != h->op_key[y]) return h->op_key[x] < h->op_key[y] ? -1 : 1;
    if (history_op_value(h, x) != history_op_value(h, y)) return history_op_value(h, x) < history_op_value(h, y) ? -1 : 1;
    return (x > y) - (x < y);
}

int history_index_repeats(history *h) {
    free(h->rep_ops);
    h->rep_ops = NULL;
    h->num_repeated = 0;
    for (uint32_t op = 0; op < h->num_ops; op++) h->num_repeated += (h->op_kind[op] & OP_REPEATED) != 0;
    if (!h->num_repeated) return 1;
    h->rep_ops = xmalloc((size_t)h->num_repeated * sizeof *h->rep_ops);
    uint32_t n = 0;
    for (uint32_t op = 0; op < h->num_ops; op++)
        if (h->op_kind[op] & OP_REPEATED) h->rep_ops[n++] = op;
    /* ops are in order already; a stable sort by (key, value) keeps it */
    sort_h = h;
    qsort(h->rep_ops, n, sizeof *h->rep_ops, cmp_rep);
    sort_h = NULL;
    return 1;
}

uint32_t history_writers_of(const history *h, uint32_t key, int64_t value, uint32_t one[1], const uint32_t **ops) {
    uint32_t w = history_writer_of(h, key, value);
    one[0] = w;
    *ops = one;
    if (w == HISTORY_NONE) return 0;
    if (!(h->op_kind[w] & OP_REPEATED)) return 1;
    uint32_t lo = 0, hi = h->num_repeated;             /* first entry >= (key, value) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, m = h->rep_ops[mid];
        int less = h->op_key[m] < key || (h->op_key[m] == key && history_op_value(h, m) < value);
        if (less) lo = mid + 1; else hi = mid;
    }
    uint32_t e = lo;
    while (e < h->num_repeated && h->op_key[h->rep_ops[e]] == key && history_op_value(h, h->rep_ops[e]) == value) e++;
    *ops = h->rep_ops + lo;
    return e - lo;
}

history_rule_out history_rule_out_of(const history *h, uint32_t r, uint32_t w) {
    uint32_t wt = history_op_txn(h, w);
    if (wt == history_op_txn(h, r)) return RULE_OWN_LATER;
    if (h->txns[wt].status == TXN_ABORTED) return RULE_ABORTED;
    if (h->op_kind[w] & OP_OVERWRITTEN) return RULE_OVERWRITTEN;
    return RULE_POSSIBLE;
}

const char *history_rule_out_text(history_rule_out why) {
    switch (why) {
    case RULE_ABORTED: return "aborted";
    case RULE_OWN_LATER: return "the reader's own later write";
    case RULE_OVERWRITTEN: return "overwritten later in its own transaction";
    case RULE_UNOBSERVED: return "indeterminate, and no other read shows it took part";
    default: return "possible";
    }
}

/* ---- copies ------------------------------------------------------------ */

static void *dup_bytes(const void *p, size_t n) {
    if (!p) return NULL;
    void *q = xmalloc(n ? n : 1);
    memcpy(q, p, n);
    return q;
}

/* A copy of h's arrays without its writer index, repeats or resolved form
 * (repeat_internal.h). */
history *history_dup(const history *h) {
    history *c = xcalloc(1, sizeof *c);
    c->format = h->format;
    c->loc = h->loc;
    c->source = dup_bytes(h->source, strlen(h->source) + 1);
    c->num_sessions = h->num_sessions;
    c->sessions = dup_bytes(h->sessions, (size_t)h->num_sessions * sizeof *h->sessions);
    c->num_txns = h->num_txns;
    c->txns = dup_bytes(h->txns, (size_t)h->num_txns * sizeof *h->txns);
    c->num_ops = h->num_ops;
    c->op_kind = dup_bytes(h->op_kind, h->num_ops);
    c->op_key = dup_bytes(h->op_key, (size_t)h->num_ops * sizeof *h->op_key);
    c->op_val32 = dup_bytes(h->op_val32, h->op_val32 ? (size_t)h->num_ops * sizeof *h->op_val32 : 0);
    c->op_val64 = dup_bytes(h->op_val64, h->op_val64 ? (size_t)h->num_ops * sizeof *h->op_val64 : 0);
    c->num_esc = h->num_esc;
    c->esc_op = dup_bytes(h->esc_op, (size_t)h->num_esc * sizeof *h->esc_op);
    c->esc_val = dup_bytes(h->esc_val, (size_t)h->num_esc * sizeof *h->esc_val);
    history_values_widen(c);                    /* its users rewrite values: op_val64 */
    history_txn_index(c);
    c->op_line = dup_bytes(h->op_line, (size_t)h->num_ops * sizeof *h->op_line);
    c->op_line_step = h->op_line_step;
    c->num_keys = h->num_keys;
    c->key_ext = dup_bytes(h->key_ext, (size_t)h->num_keys * sizeof *h->key_ext);
    c->key_name = dup_bytes(h->key_name, (size_t)h->num_keys * sizeof *h->key_name);
    c->num_lists = h->num_lists;
    c->lists = dup_bytes(h->lists, (size_t)h->num_lists * sizeof *h->lists);
    size_t pool = 0;
    for (uint32_t i = 0; i < h->num_lists; i++)
        if (h->lists[i].off + h->lists[i].len > pool) pool = h->lists[i].off + h->lists[i].len;
    c->list_pool = dup_bytes(h->list_pool, pool * sizeof *h->list_pool);
    c->strings = dup_bytes(h->strings, h->strings_len);
    c->strings_len = h->strings_len;
    c->num_names = h->num_names;
    c->name_off = dup_bytes(h->name_off, (size_t)h->num_names * sizeof *h->name_off);
    c->has_lists = h->has_lists;
    for (int k = 0; k < TIME_KINDS; k++) c->times[k] = dup_bytes(h->times[k], (size_t)h->num_txns * sizeof *h->times[k]);
    if (h->preds) {                          /* predicate reads: their facts still break every level */
        uint32_t *same = xmalloc((size_t)h->num_txns * sizeof *same);
        for (uint32_t t = 0; t < h->num_txns; t++) same[t] = t;
        c->preds = preds_clone(h->preds, same);
        preds_seal(c->preds);
        free(same);
    }
    c->op_pred = dup_bytes(h->op_pred, (size_t)h->num_ops * sizeof *h->op_pred);
    return c;
}

/* A new named value of c with the written form text (repeat_internal.h). */
int64_t history_add_name(history *c, size_t *cap, const char *text) {
    size_t len = strlen(text) + 1;
    if (c->strings_len + len > *cap) {
        *cap = (c->strings_len + len) * 2;
        c->strings = xrealloc(c->strings, *cap);
    }
    memcpy(c->strings + c->strings_len, text, len);
    c->name_off = xrealloc(c->name_off, ((size_t)c->num_names + 1) * sizeof *c->name_off);
    c->name_off[c->num_names] = (uint32_t)c->strings_len;
    c->strings_len += len;
    return (int64_t)((uint64_t)VALUE_NAME_BASE + c->num_names++);
}

typedef struct resolve_out { VEC(uint32_t) read, start, cand; VEC(uint8_t) why; } resolve_out;

/* External read r of a repeated value in h: its new value in c. */
static int64_t resolve_external(const history *h, history *c, size_t *cap, uint32_t r, resolve_out *o) {
    uint32_t one[1];
    const uint32_t *ws;
    uint32_t n = history_writers_of(h, h->op_key[r], history_op_value(h, r), one, &ws), possible = 0, pick = HISTORY_NONE;
    for (uint32_t i = 0; i < n; i++)
        if (history_rule_out_of(h, r, ws[i]) == RULE_POSSIBLE) { possible++; pick = ws[i]; }
    if (possible == 1) return history_op_value(c, pick);
    vec_push(o->read, r);
    for (uint32_t i = 0; i < n; i++) {
        vec_push(o->cand, ws[i]);
        vec_push(o->why, (uint8_t)history_rule_out_of(h, r, ws[i]));
    }
    vec_push(o->start, (uint32_t)o->cand.len);
    c->op_kind[r] |= OP_AMBIGUOUS;
    char vb[96], text[128];
    snprintf(text, sizeof text, "%s", history_value_str(h, history_op_value(h, r), vb, sizeof vb));
    return history_add_name(c, cap, text);
}

/* Ambiguous read i of c reads write w: its value and its repeats' (the
 * later reads of the key in its transaction that showed the same marker). */
static void read_writer(history *c, uint32_t i, uint32_t w) {
    uint32_t r = c->amb_read[i];
    int64_t marker = history_op_value(c, r);
    const history_txn *tx = &c->txns[history_op_txn(c, r)];
    for (uint32_t op = r; op < tx->first_op + tx->num_ops; op++)
        if (c->op_key[op] == c->op_key[r] && history_op_kind(c, op) == OP_READ && history_op_value(c, op) == marker)
            c->op_val64[op] = history_op_value(c, w);
    c->op_kind[r] &= (uint8_t)~OP_AMBIGUOUS;
}

/* Who takes part (history_participants: committed transactions and the
 * indeterminate ones a participant's read names) cannot depend on the
 * choice of writer: an ambiguous read of a participant chooses among the
 * possible writers that take part anyway; the others (indeterminate, no
 * read shows they took part) are ruled out, RULE_UNOBSERVED.  When none
 * of a read's possible writers takes part, the read names its first
 * possible writer (op order), which then takes part; this repeats until
 * nothing changes.  A read left with one possible writer reads it and is
 * no longer ambiguous; the entries of c->amb_* are compacted. */
static void settle_participants(history *c) {
    uint8_t *part = NULL;
    for (int changed = 1; changed;) {
        changed = 0;
        free(part);
        part = history_participants(c);
        for (uint32_t i = 0; i < c->num_amb; i++) {
            uint32_t r = c->amb_read[i], first = HISTORY_NONE, in = 0;
            if (!(c->op_kind[r] & OP_AMBIGUOUS) || !part[history_op_txn(c, r)] || history_op_failed(c, r)) continue;
            for (uint32_t j = c->amb_start[i]; j < c->amb_start[i + 1]; j++) {
                if (c->amb_why[j]) continue;
                if (first == HISTORY_NONE) first = c->amb_cand[j];
                in += part[history_op_txn(c, c->amb_cand[j])] != 0;
            }
            if (in || first == HISTORY_NONE) continue;
            read_writer(c, i, first);
            changed = 1;
        }
    }
    uint32_t n = 0, m = 0;
    for (uint32_t i = 0; i < c->num_amb; i++) {
        uint32_t r = c->amb_read[i], a = c->amb_start[i], b = c->amb_start[i + 1], left = 0, w = HISTORY_NONE;
        if (!(c->op_kind[r] & OP_AMBIGUOUS)) continue;
        int judged = part[history_op_txn(c, r)] && !history_op_failed(c, r);
        for (uint32_t j = a; j < b; j++) {
            if (judged && !c->amb_why[j] && !part[history_op_txn(c, c->amb_cand[j])]) c->amb_why[j] = RULE_UNOBSERVED;
            if (!c->amb_why[j]) { left++; w = c->amb_cand[j]; }
        }
        if (judged && left == 1) { read_writer(c, i, w); continue; }
        c->amb_read[n] = r;
        c->amb_start[n] = m;
        for (uint32_t j = a; j < b; j++, m++) { c->amb_cand[m] = c->amb_cand[j]; c->amb_why[m] = c->amb_why[j]; }
        n++;
    }
    c->amb_start[n] = m;
    c->num_amb = n;
    free(part);
}

static history *resolve(const history *h, ic_error *err) {
    history *c = history_dup(h);
    size_t cap = c->strings_len;
    char vb[96], text[160];
    for (uint32_t op = 0; op < h->num_ops; op++) {          /* a value of its own for every repeated write */
        c->op_kind[op] &= (uint8_t)~OP_REPEATED;
        if (!(h->op_kind[op] & OP_REPEATED) || history_op_txn(h, op) == 0) continue;
        snprintf(text, sizeof text, "%s", history_value_str(h, history_op_value(h, op), vb, sizeof vb));   /* shown as written */
        c->op_val64[op] = history_add_name(c, &cap, text);
    }
    resolve_out o; vec_init(o.read); vec_init(o.start); vec_init(o.cand); vec_init(o.why);
    vec_push(o.start, 0);
    uint32_t *last = xmalloc(((size_t)h->num_keys + 1) * sizeof *last), *stamp = xcalloc((size_t)h->num_keys + 1, sizeof *stamp);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *tx = &h->txns[t];
        for (uint32_t op = tx->first_op; op < tx->first_op + tx->num_ops; op++) {
            if (history_op_failed(h, op)) continue;
            uint32_t k = h->op_key[op], prev = stamp[k] == t ? last[k] : HISTORY_NONE;
            stamp[k] = t;
            last[k] = op;
            if (history_op_kind(h, op) != OP_READ) continue;
            int repeated = (history_writer_of(h, k, history_op_value(h, op)) != HISTORY_NONE &&
                            (h->op_kind[history_writer_of(h, k, history_op_value(h, op))] & OP_REPEATED));
            if (prev != HISTORY_NONE && history_op_kind(h, prev) != OP_READ && history_op_kind(h, prev) != OP_WRITE)
                prev = HISTORY_NONE;                        /* as the axioms: only a register op shows a value */
            if (prev == HISTORY_NONE) {
                if (repeated) c->op_val64[op] = resolve_external(h, c, &cap, op, &o);
            } else if (history_op_value(h, op) == history_op_value(h, prev)) c->op_val64[op] = history_op_value(c, prev);
            else if (repeated && history_op_kind(h, prev) == OP_READ)   /* another version than the read before it (rc */
                c->op_val64[op] = resolve_external(h, c, &cap, op, &o);  /* allows it): a choice of its own */
            else if (repeated) {
                snprintf(text, sizeof text, "%s", history_value_str(h, history_op_value(h, op), vb, sizeof vb));
                c->op_val64[op] = history_add_name(c, &cap, text);
            }
        }
    }
    free(last); free(stamp);
    c->num_amb = (uint32_t)o.read.len;
    c->amb_read = o.read.data; c->amb_start = o.start.data; c->amb_cand = o.cand.data; c->amb_why = o.why.data;
    if (!history_index_writers(c, err)) { history_free(c); return NULL; }
    if (c->num_amb) settle_participants(c);
    return c;
}

const history *history_resolved(const history *h, ic_error *err) {
    if (!h->num_repeated) return h;
    if (!h->resolved) ((history *)h)->resolved = resolve(h, err);
    return h->resolved;
}

uint32_t history_amb_index(const history *h, uint32_t r) {
    uint32_t lo = 0, hi = h->num_amb;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->amb_read[mid] < r) lo = mid + 1; else hi = mid;
    }
    return lo < h->num_amb && h->amb_read[lo] == r ? lo : HISTORY_NONE;
}

history *history_with_choice(const history *h, const uint32_t *choice) {
    history *c = history_dup(h);
    for (uint32_t i = 0; i < h->num_amb; i++) {
        uint32_t r = h->amb_read[i], w = choice[i], ok = 0;
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1] && w == HISTORY_NONE; j++)
            if (!h->amb_why[j] && h->txns[history_op_txn(h, r)].status != TXN_COMMITTED) w = h->amb_cand[j];  /* not judged */
        for (uint32_t j = h->amb_start[i]; j < h->amb_start[i + 1]; j++) ok |= h->amb_cand[j] == w && !h->amb_why[j];
        if (!ok && w == HISTORY_NONE && (h->txns[history_op_txn(h, r)].status != TXN_COMMITTED || history_op_failed(h, r)))
            continue;                                   /* not judged (a read set aside: failed) */
        if (!ok) { history_free(c); return NULL; }
        int64_t marker = history_op_value(h, r);
        const history_txn *tx = &h->txns[history_op_txn(h, r)];
        for (uint32_t op = r; op < tx->first_op + tx->num_ops; op++)     /* the read and its repeats */
            if (h->op_key[op] == h->op_key[r] && history_op_kind(h, op) == OP_READ && history_op_value(h, op) == marker)
                c->op_val64[op] = history_op_value(h, w);
        c->op_kind[r] &= (uint8_t)~OP_AMBIGUOUS;
    }
    ic_error e;
    ic_error_clear(&e);
    if (!history_index_writers(c, &e)) { history_free(c); return NULL; }
    return c;
}

history *history_refuse_repeated(history *h, ic_error *err) {
    if (!h || !h->num_repeated) return h;
    uint32_t at = HISTORY_NONE, first = HISTORY_NONE;        /* the earliest second write of a value */
    for (uint32_t i = 0; i + 1 < h->num_repeated; i++) {
        uint32_t a = h->rep_ops[i], b = h->rep_ops[i + 1];
        if (h->op_key[a] != h->op_key[b] || history_op_value(h, a) != history_op_value(h, b)) continue;
        if (i > 0 && h->op_key[h->rep_ops[i - 1]] == h->op_key[a] && history_op_value(h, h->rep_ops[i - 1]) == history_op_value(h, a)) continue;
        if (at == HISTORY_NONE || b < at) { at = b; first = a; }
    }
    char kb[64], vs[64], vb[80], wb[300], msg[512];
    int64_t value = history_op_value(h, at);
    if (value == VALUE_INIT) snprintf(vb, sizeof vb, "the initial value");
    else snprintf(vb, sizeof vb, "value %s", history_value_str(h, value, vs, sizeof vs));
    history_op_where(h, first, wb, sizeof wb);
    int app = history_op_kind(h, at) == OP_APPEND;
    snprintf(msg, sizeof msg, "%s %s twice to %skey %s (first at %s); values %s to a key must be unique", vb,
             app ? "appended" : "written", app ? "list " : "", history_key_str(h, h->op_key[at], kb, sizeof kb), wb,
             app ? "appended" : "written");
    uint32_t t = history_op_txn(h, at), s = h->txns[t].session;
    const char *file = s < h->num_sessions ? h->strings + h->sessions[s].file : h->source;
    if (h->loc == LOC_OFFSET) ic_error_at_offset(err, file, history_op_line(h, at), "%s", msg);
    else ic_error_at(err, file, history_op_line(h, at), "%s", msg);
    history_free(h);
    return NULL;
}
