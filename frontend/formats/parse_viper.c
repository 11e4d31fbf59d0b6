/* parse_viper.c — Viper's per-session JSON-lines logs (ViperBench's
 * JsonLogger: a directory of J<thread>.log, one per client thread):
 *
 *   {"value": [["r", 30, -812764, false], ["w", 18, 4411, true]]}
 *   {"preBeginTS": 1, "postBeginTS": 2, "preCommitTS": 5, "postCommitTS": 6,
 *    "value": [...], "isInitial": false, "isFinal": false}
 *
 * One line is one committed transaction (the client drops an aborted
 * one's buffer: aborts are not logged).  A micro-op is ["r", K, V, dead]
 * or ["w", K, V, succ]: K an integer or a string key, V a 64-bit hash of
 * the row the operation read or wrote (the written rows carry the
 * writer's ids, so V names one write).  "isInitial": true marks the
 * transaction that wrote the initial state: its writes are the initial
 * values (merged into INIT).  A read of a value no transaction writes
 * reads the initial state when it is the key's initial value: the one the
 * initial transaction wrote, or 0 (no row) for a key it did not write;
 * without an initial transaction, the first such value read of the key
 * (every later read must report the same one).  Any other unwritten value
 * is kept: a thin-air read.  A write with succ false is a failed op.
 * Inserts, deletes and range queries ("i", "d", "range") are refused by
 * name: the model has no deletes.  A read flagged dead (a deleted row) is
 * an ordinary read of its value, as Viper's checker reads it (it ignores
 * the flag of "r"; Plume's converter writes true on every read): without a
 * logged delete, a row read dead was deleted before the logs began, and its
 * value is the key's initial one or a thin-air read by the rules above.
 * preBeginTS and postCommitTS (the client's clock, PRINT_TS) become
 * TIME_INVOKE and TIME_COMPLETE.  Transactions are numbered 1, 2, ... in
 * file order; sessions 1, 2, ... in the logs' natural order. */
#include "frontend/formats/parse.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/formats/json_lines.h"
#include "frontend/formats/log_dir.h"
#include "frontend/formats/viper.h"

typedef struct vp_op { uint32_t txn, key, line; uint8_t write, failed, dead; int64_t value; } vp_op;
typedef struct vp_kv { uint32_t key; int64_t value; } vp_kv;

typedef struct viper_state {
    history_builder *b;
    load_report *rep;
    const char *file;            /* the log being read (errors) */
    uint32_t session;
    int64_t next_txn;
    long initial_line;           /* the initial transaction's line (0: none yet) */
    const char *initial_file;
    VEC(vp_op) ops;
    VEC(vp_kv) initial;          /* the initial transaction's writes */
} viper_state;

static uint32_t member(const optree *t, uint32_t m, const char *name) {
    for (uint32_t k = ot_node(t, m)->child; k != OV_NONE; k = ot_node(t, ot_node(t, k)->next)->next)
        if (ot_is_field(t, k, name)) return ot_node(t, k)->next;
    return OV_NONE;
}

static int fail(viper_state *st, const optree *t, uint32_t node, const char *expected, ic_error *err) {
    char fb[64];
    ic_error_at(err, st->file, ot_node(t, node)->line, "expected %s, found %s", expected, ot_render(t, node, fb, sizeof fb));
    return 0;
}

static int boolean(const optree *t, uint32_t node, int *v) {
    if (node == OV_NONE || ot_node(t, node)->kind != OV_BOOL) return 0;
    *v = !strcmp(ot_text(t, node), "true");
    return 1;
}

/* One micro-op of builder transaction txn, or of the initial transaction. */
static int micro_op(viper_state *st, const optree *t, uint32_t node, uint32_t txn, int initial, ic_error *err) {
    const ov_node *n = ot_node(t, node);
    if (n->kind != OV_VECTOR || n->count < 1) return fail(st, t, node, "a micro-op [\"r\"|\"w\", K, V, flag]", err);
    uint32_t f = n->child;
    int write = ot_is_name(t, f, "w");
    if (!write && !ot_is_name(t, f, "r")) {
        if (ot_is_name(t, f, "i") || ot_is_name(t, f, "d") || ot_is_name(t, f, "range")) {
            char fb[64];
            ic_error_at(err, st->file, n->line, "unsupported: Viper's inserts, deletes and range queries (%s); isocheck "
                        "checks reads and writes of keys", ot_render(t, node, fb, sizeof fb));
            return 0;
        }
        return fail(st, t, f, "\"r\" or \"w\"", err);
    }
    if (n->count != 4) return fail(st, t, node, write ? "[\"w\", K, V, succ]" : "[\"r\", K, V, dead]", err);
    uint32_t k = ot_node(t, f)->next, v = ot_node(t, k)->next, fl = ot_node(t, v)->next;
    const ov_node *kn = ot_node(t, k), *vn = ot_node(t, v);
    uint32_t key;
    if (kn->kind == OV_INT) key = hb_key(st->b, kn->ival);
    else if (kn->kind == OV_STRING) key = hb_key_str(st->b, ot_text(t, k), kn->len);
    else return fail(st, t, k, "a key (an integer or a string)", err);
    if (vn->kind != OV_INT) return fail(st, t, v, "a value (a 64-bit integer: the row's hash)", err);
    if (vn->ival < VALUE_NAME_BASE + (int64_t)UINT32_MAX)
        return fail(st, t, v, "a value above -9223372032559808512 (lower ones are reserved)", err);
    int flag;
    if (!boolean(t, fl, &flag)) return fail(st, t, fl, write ? "true or false (succ)" : "true or false (dead)", err);
    if (st->rep) st->rep->records++;
    if (initial) {
        if (!write) return fail(st, t, node, "a write (the initial transaction writes the initial state)", err);
        vec_push(st->initial, ((vp_kv){ key, vn->ival }));
        if (st->rep) st->rep->init_merged++;
        return 1;
    }
    vec_push(st->ops, ((vp_op){ txn, key, n->line, (uint8_t)write, (uint8_t)(write && !flag),
                                (uint8_t)(!write && flag), vn->ival }));
    if (write && !flag && st->rep) st->rep->failed_ops++;
    return 1;
}

/* The client's times: preBeginTS and postCommitTS, when present. */
static int times(viper_state *st, const optree *t, uint32_t root, uint32_t txn, ic_error *err) {
    uint32_t a = member(t, root, "preBeginTS"), c = member(t, root, "postCommitTS");
    if (a != OV_NONE && ot_node(t, a)->kind != OV_INT) return fail(st, t, a, "an integer preBeginTS", err);
    if (c != OV_NONE && ot_node(t, c)->kind != OV_INT) return fail(st, t, c, "an integer postCommitTS", err);
    if (a != OV_NONE && c != OV_NONE && ot_node(t, c)->ival < ot_node(t, a)->ival) {
        ic_error_at(err, st->file, ot_node(t, c)->line, "postCommitTS %" PRId64 " is before preBeginTS %" PRId64
                    " (a transaction cannot complete before it begins)", ot_node(t, c)->ival, ot_node(t, a)->ival);
        return 0;
    }
    if (a != OV_NONE && ot_node(t, a)->ival != HISTORY_TIME_NONE) hb_txn_time(st->b, txn, TIME_INVOKE, ot_node(t, a)->ival);
    if (c != OV_NONE && ot_node(t, c)->ival != HISTORY_TIME_NONE) hb_txn_time(st->b, txn, TIME_COMPLETE, ot_node(t, c)->ival);
    return 1;
}

/* One line: a transaction object. */
static int viper_txn(void *ctx, const optree *t, uint32_t root, ic_error *err) {
    viper_state *st = ctx;
    if (ot_node(t, root)->kind != OV_MAP) return fail(st, t, root, "a transaction {\"value\": [micro-ops]}", err);
    uint32_t ops = member(t, root, "value"), ini = member(t, root, "isInitial");
    if (ops == OV_NONE || ot_node(t, ops)->kind != OV_VECTOR)
        return fail(st, t, ops == OV_NONE ? root : ops, "\"value\": an array of micro-ops", err);
    int initial = 0;
    if (ini != OV_NONE && !boolean(t, ini, &initial)) return fail(st, t, ini, "true or false (isInitial)", err);
    uint32_t line = ot_node(t, root)->line, txn = 0;
    if (initial) {
        if (st->initial_line) {
            ic_error_at(err, st->file, line, "a second initial transaction (isInitial true); the first is at %s:%ld",
                        st->initial_file, st->initial_line);
            return 0;
        }
        st->initial_line = line;
        st->initial_file = st->file;
    } else {
        txn = hb_txn(st->b, st->session, st->next_txn++, line);
        if (!times(st, t, root, txn, err)) return 0;
    }
    for (uint32_t m = ot_node(t, ops)->child; m != OV_NONE; m = ot_node(t, m)->next)
        if (!micro_op(st, t, m, txn, initial, err)) return 0;
    return 1;
}

static int vp_kv_cmp(const void *pa, const void *pb) {
    const vp_kv *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->value > b->value) - (a->value < b->value);
}

static const vp_kv *vp_kv_find(const vp_kv *v, size_t n, uint32_t key, int64_t value) {
    vp_kv k = { key, value };
    if (!n) return NULL;
    return bsearch(&k, v, n, sizeof *v, vp_kv_cmp);
}

/* The ops into the builder, reads of the initial state made reads of INIT. */
static void emit_ops(viper_state *st) {
    VEC(vp_kv) written;
    vec_init(written);
    vec_foreach(const vp_op, op, st->ops)
        if (op->write) vec_push(written, ((vp_kv){ op->key, op->value }));
    if (written.len) qsort(written.data, written.len, sizeof *written.data, vp_kv_cmp);
    size_t ni = st->initial.len;
    VEC(vp_kv) initial = { NULL, 0, 0 };
    for (size_t i = 0; i < ni; i++) vec_push(initial, ((vp_kv){ st->initial.data[i].key, 0 }));  /* keys it wrote */
    if (ni) {
        qsort(st->initial.data, ni, sizeof *st->initial.data, vp_kv_cmp);
        qsort(initial.data, ni, sizeof *initial.data, vp_kv_cmp);
    }
    VEC(int64_t) first;                   /* without an initial transaction: key -> its initial value */
    VEC(uint8_t) have;
    vec_init(first);
    vec_init(have);
    uint64_t dead = 0;
    vec_foreach(const vp_op, op, st->ops) {
        int64_t v = op->value;
        dead += op->dead;
        if (!op->write && !vp_kv_find(written.data, written.len, op->key, v)) {
            if (st->initial_line) {
                if (vp_kv_find(st->initial.data, ni, op->key, v) || (v == 0 && !vp_kv_find(initial.data, ni, op->key, 0)))
                    v = VALUE_INIT;
            } else {
                while (have.len <= op->key) { vec_push(have, 0); vec_push(first, 0); }
                if (!have.data[op->key]) { have.data[op->key] = 1; first.data[op->key] = v; }
                if (first.data[op->key] == v) v = VALUE_INIT;
            }
        }
        hb_op(st->b, op->txn, (op->write ? OP_WRITE : OP_READ) | (op->failed ? OP_FAILED : 0), op->key, v, op->line);
    }
    vec_free(written);
    vec_free(initial);
    vec_free(first);
    vec_free(have);
    if (dead)
        load_report_note(st->rep, "note", "%" PRIu64 " reads flagged dead (a deleted row): read as ordinary reads, as "
                         "Viper's checker reads them (the logs hold no deletes)", dead);
}

static history *finish(viper_state *st, int ok, ic_error *err) {
    if (ok) emit_ops(st);
    vec_free(st->ops);
    vec_free(st->initial);
    if (!ok) { hb_free(st->b); return NULL; }
    return hb_finish(st->b, err);
}

static void state_init(viper_state *st, const char *source, load_report *rep) {
    memset(st, 0, sizeof *st);
    st->b = hb_new(FORMAT_VIPER, LOC_LINE, source);
    st->rep = rep;
    st->next_txn = 1;
}

int vp_is_txn(const optree *t, uint32_t root) {
    if (ot_node(t, root)->kind != OV_MAP || member(t, root, "type") != OV_NONE) return 0;
    uint32_t v = member(t, root, "value");
    if (v == OV_NONE || ot_node(t, v)->kind != OV_VECTOR) return 0;
    uint32_t m = ot_node(t, v)->child;
    if (m == OV_NONE) return 1;
    if (ot_node(t, m)->kind != OV_VECTOR || ot_node(t, m)->child == OV_NONE) return 0;
    uint32_t f = ot_node(t, m)->child;
    return ot_node(t, f)->kind == OV_STRING && (ot_is_name(t, f, "r") || ot_is_name(t, f, "w"));
}

vp_reader *vp_new(const char *source, load_report *rep) {
    viper_state *st = xmalloc(sizeof *st);
    state_init(st, source, rep);
    st->file = source;
    st->session = hb_session(st->b, 1, source);
    return st;
}

int vp_txn(vp_reader *r, const optree *t, uint32_t root, ic_error *err) { return viper_txn(r, t, root, err); }

history *vp_finish(vp_reader *r, ic_error *err) {
    history *h = finish(r, 1, err);
    free(r);
    return h;
}

void vp_free(vp_reader *r) {
    if (!r) return;
    finish(r, 0, NULL);
    free(r);
}

history *parse_viper_logs(input *logs, size_t n, const char *source, load_report *rep, ic_error *err) {
    viper_state st;
    state_init(&st, source, rep);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        st.file = logs[i].name;
        st.session = hb_session(st.b, (int64_t)i + 1, logs[i].name);
        ok = jl_each_value(&logs[i], viper_txn, &st, err);
    }
    return finish(&st, ok, err);
}

history *parse_viper_dir(const char *dir, load_report *rep, ic_error *err) {
    size_t n;
    char **paths = log_dir_list(dir, "Viper logs", &n, err);
    if (!paths) return NULL;
    viper_state st;
    state_init(&st, dir, rep);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {      /* one log open at a time */
        input r;
        ok = input_open(&r, paths[i], err);
        if (!ok) break;
        st.file = r.name;
        st.session = hb_session(st.b, (int64_t)i + 1, paths[i]);
        ok = jl_each_value(&r, viper_txn, &st, err);
        input_close(&r);
    }
    history *h = finish(&st, ok, err);
    log_dir_free(paths);
    return h;
}
