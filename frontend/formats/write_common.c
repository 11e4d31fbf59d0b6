/* write_common.c — what every writer checks, the renumbering of the
 * identifiers a format cannot hold (contract in write.h), and the dispatch
 * through the safe output module (io/output.h). */
#include "frontend/formats/write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/output.h"
#include "frontend/formats/parse.h"
#include "frontend/history/predicate.h"

int write_check(const history *h, const char *format, int lists_ok, int string_keys_ok,
                int aborted_ok, int indeterminate_ok, int failed_ok, ic_error *err) {
    char wb[600];
    for (uint32_t t = 1; t < h->num_txns; t++) {
        uint8_t st = h->txns[t].status;
        if ((st == TXN_ABORTED && !aborted_ok) || (st == TXN_INDETERMINATE && !indeterminate_ok)) {
            ic_error_at(err, h->source, 0, "cannot write %s transaction (%s) in %s format",
                        st == TXN_ABORTED ? "an aborted" : "an indeterminate", history_txn_where(h, t, wb, sizeof wb), format);
            return 0;
        }
    }
    /* string and keyword keys are renumbered to integer keys (write_plan_build) */
    if (!string_keys_ok && h->num_names) {          /* named values/processes (Elle strings, big integers) */
        for (uint32_t s = 0; s < h->num_sessions; s++)
            if (history_value_is_named(h, h->sessions[s].ext_id)) {
                ic_error_at(err, h->source, 0, "cannot write session %s in %s format (integer sessions only)",
                            h->strings + h->name_off[h->sessions[s].ext_id - VALUE_NAME_BASE], format);
                return 0;
            }
        for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++)
            if (history_op_kind(h, op) != OP_LIST_READ && history_op_pred(h, op) == PRED_TAG_NONE &&
                history_value_is_named(h, history_op_value(h, op))) {   /* lowered from a predicate read: written as it */
                ic_error_at(err, h->source, 0, "cannot write value %s (%s) in %s format (integer values only)",
                            h->strings + h->name_off[history_op_value(h, op) - VALUE_NAME_BASE],
                            history_op_where(h, op, wb, sizeof wb), format);
                return 0;
            }
    }
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++) {
        op_kind k = history_op_kind(h, op);
        if ((history_op_failed(h, op) && !failed_ok) || ((k == OP_APPEND || k == OP_LIST_READ) && !lists_ok)) {
            ic_error_at(err, h->source, 0, "cannot write %s (%s) in %s format",
                        history_op_failed(h, op) ? "a failed operation" : "a list operation",
                        history_op_where(h, op, wb, sizeof wb), format);
            return 0;
        }
    }
    return 1;
}

int write_check_unique_txn_ids(const history *h, const char *format, ic_error *err) {
    u64map ids;
    u64map_init(&ids);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (u64map_put(&ids, (uint64_t)h->txns[t].ext_id, t) != t) {
            char wb[600];
            ic_error_at(err, h->source, 0, "cannot write %s in %s format: transaction id %" PRId64 " is used twice",
                        history_txn_where(h, t, wb, sizeof wb), format, h->txns[t].ext_id);
            ok = 0;
        }
    u64map_free(&ids);
    return ok;
}

/* ---- renumbering ---------------------------------------------------------- */

typedef int (*holds_fn)(int64_t v);

static int holds_any(int64_t v) { (void)v; return 1; }
static int holds_positive(int64_t v) { return v >= 1; }
static int holds_non_negative(int64_t v) { return v >= 0; }
static int holds_non_zero(int64_t v) { return v != 0; }
static int cobra_marker(int64_t v) {
    return v == COBRA_INIT_WRITE_ID || v == COBRA_NULL_TXN_ID || v == COBRA_GC_WID_TRUE || v == COBRA_GC_WID_FALSE;
}
static int holds_cobra_value(int64_t v) { return !cobra_marker(v); }
/* Viper: 0 is the initial state's value; the lowest band is the reader's (parse_viper.c). */
static int holds_viper_value(int64_t v) { return v != 0 && v >= VALUE_NAME_BASE + (int64_t)UINT32_MAX; }
/* -1 is the writer id of a read nobody's write explains; INT64_MIN is the model's init marker. */
static int holds_cobra_txn(int64_t v) { return !cobra_marker(v) && v != -1 && v != INT64_MIN; }

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

#define AT(first, i, stride) (*(const int64_t *)((const char *)(first) + (size_t)(i) * (stride)))

/* n ids at first, first + stride, ...; skip_init: VALUE_INIT is the
 * initial value, not an id.  Fresh ids are >= lo. */
static void renumber_build(write_renumber *r, const void *first, size_t n, size_t stride, int skip_init, holds_fn holds,
                           int64_t lo) {
    u64map_init(&r->index);
    vec_init(r->from);
    vec_init(r->to);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = AT(first, i, stride);
        if (!(skip_init && v == VALUE_INIT) && !holds(v)) bad++;
    }
    if (!bad) return;
    /* the ids in use that the format holds, sorted: fresh ids go in the gaps */
    vec_i64 used;
    vec_init(used);
    for (size_t i = 0; i < n; i++) {
        int64_t v = AT(first, i, stride);
        if (!(skip_init && v == VALUE_INIT) && holds(v) && v >= lo) vec_push(used, v);
    }
    if (used.len) qsort(used.data, used.len, sizeof *used.data, cmp_i64);
    int64_t cand = lo;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = AT(first, i, stride);
        if ((skip_init && v == VALUE_INIT) || holds(v) || u64map_get(&r->index, (uint64_t)v) != UINT32_MAX) continue;
        for (;;) {      /* at most n + 4 candidates: n ids in use, 4 Cobra markers */
            while (j < used.len && used.data[j] < cand) j++;
            if ((j < used.len && used.data[j] == cand) || !holds(cand)) { cand++; continue; }
            break;
        }
        u64map_put(&r->index, (uint64_t)v, (uint32_t)r->from.len);
        vec_push(r->from, v);
        vec_push(r->to, cand++);
    }
    vec_free(used);
}

int64_t write_renumbered(const write_renumber *r, int64_t v) {
    if (!r->from.len) return v;
    uint32_t i = u64map_get(&r->index, (uint64_t)v);
    return i == UINT32_MAX ? v : r->to.data[i];
}

/* Keys written by name (Elle strings, keywords, big integers) get integer
 * keys the history does not use, the smallest the format holds first, in
 * key order; every key's written integer goes to p->key_out. */
static void name_keys(const history *h, write_plan *p, holds_fn holds) {
    p->key_out = NULL;
    p->named_keys = 0;
    p->first_named = HISTORY_NONE;
    for (uint32_t k = 0; k < h->num_keys; k++) p->named_keys += h->key_name[k] != HISTORY_NONE;
    if (!p->named_keys) return;
    p->key_out = xmalloc((h->num_keys ? h->num_keys : 1) * sizeof *p->key_out);
    vec_i64 used;
    vec_init(used);
    for (uint32_t k = 0; k < h->num_keys; k++)
        if (h->key_name[k] == HISTORY_NONE) vec_push(used, p->key_out[k] = write_renumbered(&p->key, h->key_ext[k]));
    if (used.len) qsort(used.data, used.len, sizeof *used.data, cmp_i64);
    int64_t cand = 1;
    size_t j = 0;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        if (h->key_name[k] == HISTORY_NONE) continue;
        for (;;) {
            while (j < used.len && used.data[j] < cand) j++;
            if ((j < used.len && used.data[j] == cand) || !holds(cand)) { cand++; continue; }
            break;
        }
        if (p->first_named == HISTORY_NONE) p->first_named = k;
        p->key_out[k] = cand++;
    }
    vec_free(used);
}

int64_t write_key(const write_plan *p, const history *h, uint32_t key) {
    return p->key_out ? p->key_out[key] : write_renumbered(&p->key, h->key_ext[key]);
}

void write_plan_build(const history *h, history_format fmt, write_plan *p) {
    holds_fn value = holds_any, key = holds_any, session = holds_any, txn = holds_any;
    int64_t value_lo = 1, id_lo = 1;     /* fresh ids from 1: text never gets a new session 0 / txn 0 */
    p->key_out = NULL;
    p->named_keys = 0;
    p->first_named = HISTORY_NONE;
    switch (fmt) {
    case FORMAT_TEXT: value = holds_positive; key = session = txn = holds_non_negative; break;
    case FORMAT_DBCOP: value = holds_non_zero; break;
    case FORMAT_COBRA: value = holds_cobra_value; txn = holds_cobra_txn; break;
    case FORMAT_DBCOP_JSON: value = holds_positive; key = holds_non_negative; break;
    case FORMAT_VIPER: value = holds_viper_value; break;
    default: break;
    }
    uint32_t first_op = h->txns[0].num_ops;
    size_t nv = h->num_ops - first_op;                 /* the values as one array (history.h packs them) */
    int64_t *vals = xmalloc((nv ? nv : 1) * sizeof *vals);
    for (size_t i = 0; i < nv; i++) vals[i] = history_op_value(h, (uint32_t)(first_op + i));
    renumber_build(&p->value, vals, nv, sizeof *vals, 1, value, value_lo);
    free(vals);
    renumber_build(&p->key, h->key_ext, h->num_keys, sizeof *h->key_ext, 0, key, 0);
    static const int64_t none = 0;       /* a valid address when there is nothing to scan */
    renumber_build(&p->session, h->num_sessions ? &h->sessions[0].ext_id : &none, h->num_sessions, sizeof *h->sessions,
                   0, session, id_lo);
    renumber_build(&p->txn, h->num_txns > 1 ? &h->txns[1].ext_id : &none, h->num_txns - 1, sizeof *h->txns, 0, txn, id_lo);
    if (fmt != FORMAT_ELLE && fmt != FORMAT_VIPER) name_keys(h, p, key);   /* (viper writes names as strings) */
}

static void renumber_free(write_renumber *r) {
    u64map_free(&r->index);
    vec_free(r->from);
    vec_free(r->to);
}

void write_plan_free(write_plan *p) {
    renumber_free(&p->value);
    renumber_free(&p->key);
    renumber_free(&p->session);
    renumber_free(&p->txn);
    free(p->key_out);
    p->key_out = NULL;
}

void write_plan_describe(const write_plan *p, const history *h, const char *format, char *buf, size_t n) {
    const write_renumber *kinds[4] = { &p->value, &p->key, &p->session, &p->txn };
    static const char *const names[4] = { "value", "key", "session", "transaction id" };
    char items[700];
    size_t len = 0, cap = sizeof items;
    items[0] = 0;
    for (int k = 0; k < 4 && len < cap; k++) {
        const write_renumber *r = kinds[k];
        if (!r->from.len) continue;
        len += (size_t)snprintf(items + len, cap - len, "%s%s %" PRId64 " -> %" PRId64, len ? "; " : "", names[k],
                                r->from.data[0], r->to.data[0]);
        if (r->from.len > 1 && len < cap)
            len += (size_t)snprintf(items + len, cap - len, " (and %zu more %s%s)", r->from.len - 1, names[k],
                                    r->from.len > 2 ? "s" : "");
    }
    if (p->named_keys && len < cap) {          /* keys written by name in Elle: integers here */
        len += (size_t)snprintf(items + len, cap - len, "%skey %s -> %" PRId64, len ? "; " : "",
                                h->strings + h->key_name[p->first_named], p->key_out[p->first_named]);
        if (p->named_keys > 1 && len < cap)
            snprintf(items + len, cap - len, " (and %u more named key%s)", p->named_keys - 1, p->named_keys > 2 ? "s" : "");
    }
    if (items[0]) snprintf(buf, n, "renumbered what %s cannot hold: %s", format, items);
    else if (n) buf[0] = 0;
}

/* ---- dispatch ------------------------------------------------------------- */

/* What of h's times fmt drops, appended to the note: dbcop and cobra have
 * no per-transaction times; text loses those of empty transactions (they
 * vanish). */
static void write_times_note(const history *h, history_format fmt, char *note, size_t n) {
    int kinds = 0;
    for (int k = 0; k < TIME_KINDS; k++) kinds += history_has_times(h, (history_time_kind)k);
    if (!kinds) return;
    uint64_t dropped = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        int has = 0;
        for (int k = 0; k < TIME_KINDS; k++) has |= history_time(h, (history_time_kind)k, t) != HISTORY_TIME_NONE;
        int db = history_time(h, TIME_DB_START, t) != HISTORY_TIME_NONE || history_time(h, TIME_DB_COMMIT, t) != HISTORY_TIME_NONE;
        dropped += has && (fmt == FORMAT_DBCOP || fmt == FORMAT_DBCOP_JSON || fmt == FORMAT_COBRA ||
                           (fmt == FORMAT_TEXT && !h->txns[t].num_ops) || (fmt == FORMAT_VIPER && db));
    }
    size_t len = strlen(note);
    if (!dropped || len + 2 >= n) return;
    snprintf(note + len, n - len, "%sdropped the times of %" PRIu64 " transaction%s: %s", len ? "; " : "", dropped,
             dropped == 1 ? "" : "s", fmt == FORMAT_TEXT ? "empty transactions vanish in text"
                                      : fmt == FORMAT_VIPER ? "viper has the client's times, not the database's"
                                                            : "the format has no per-transaction times");
}

int history_write_file(const history *h, history_format fmt, const char *path, unsigned flags, char *note,
                       size_t note_len, ic_error *err) {
    if (note && note_len) note[0] = 0;
    if (fmt != FORMAT_TEXT && fmt != FORMAT_DBCOP && fmt != FORMAT_COBRA && fmt != FORMAT_ELLE && fmt != FORMAT_VIPER &&
        fmt != FORMAT_DBCOP_JSON) {
        ic_error_at(err, path, 0, "cannot write this format");
        return 0;
    }
    if (h->preds && fmt != FORMAT_TEXT && fmt != FORMAT_ELLE) {   /* they would lose their result sets (issue 34) */
        ic_error_at(err, h->source, 0, "cannot write predicate reads ([:rp ...]) in %s format", history_format_name(fmt));
        return 0;
    }
    int ok;
    if (fmt == FORMAT_COBRA || fmt == FORMAT_VIPER) {
        ok = fmt == FORMAT_COBRA ? write_cobra(h, path, flags, err) : write_viper(h, path, flags, err);
    } else {
        output o;
        if (!output_open(&o, path, flags, err)) return 0;
        ok = fmt == FORMAT_TEXT ? write_text(h, o.f, err) : fmt == FORMAT_DBCOP ? write_dbcop(h, o.f, err)
           : fmt == FORMAT_DBCOP_JSON ? write_dbcop_json(h, o.f, err) : write_elle(h, o.f, err);
        if (ok) ok = output_commit(&o, err);
        else output_discard(&o);       /* the target, if any, is untouched */
    }
    if (ok && note && note_len) {
        write_plan p;
        write_plan_build(h, fmt, &p);
        write_plan_describe(&p, h, history_format_name(fmt), note, note_len);
        write_plan_free(&p);
        write_times_note(h, fmt, note, note_len);
    }
    return ok;
}
