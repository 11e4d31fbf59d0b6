/* jepsen_ops.c — Jepsen operations into transactions (contract in
 * jepsen_ops.h).
 *
 * Each operation's micro-ops are first checked and decoded into `mops`
 * (keys still as written, so that invocations add no keys to the model),
 * then, for a completion, added to the builder; a plain EDN completion's
 * (jr_plain_op) go to the builder as parse_elle.c decoded them. */
#include "frontend/formats/jepsen_ops.h"

#include <inttypes.h>
#include <string.h>

#include "vec.h"
#include "frontend/formats/jepsen_keys.h"
#include "frontend/formats/jepsen_pred.h"
#include "frontend/formats/lex.h"
#include "frontend/formats/jepsen_times.h"
#include "frontend/history/strtab.h"
#include "frontend/history/u64map.h"

/* Integers in [INT64_MIN, NAMED_BAND_END) are named like strings, so that a
 * named value's id never equals an integer value of the history. */
#define NAMED_BAND_END (VALUE_NAME_BASE + (int64_t)UINT32_MAX)

typedef enum { M_READ, M_READ_NIL, M_LIST_READ, M_WRITE, M_APPEND, M_DELETE, M_PRED } mop_kind;

typedef struct mop {
    uint8_t  kind;           /* mop_kind */
    uint8_t  named_key;      /* key: an integer, or a jk_name id */
    int64_t  key;
    int64_t  value;          /* M_READ/M_WRITE/M_APPEND */
    uint32_t list_off, list_len;   /* M_LIST_READ: elements in `elems`; M_PRED: pairs in `pairs` */
    uint32_t line;
} mop;
typedef VEC(mop) mop_vec;

typedef struct pending { int64_t process; mop_vec writes; int valid; } pending;

struct jepsen_reader {
    history_builder *b;
    load_report *rep;
    const char *source;
    uint64_t ordinal;        /* operation maps seen */
    jepsen_keys keys;        /* the keys and their uses (jepsen_keys.h) */
    strtab value_names;      /* written forms of named values and processes */
    vec_i64 value_name_id;   /* value_names id -> model value */
    vec_u32 nil_reads;       /* pairs (builder op, key) of [:r k nil] */
    u64map txn_ids;
    mop_vec mops;
    vec_i64 elems;
    vec_char scratch;
    u64map pending_ix;       /* process -> pendings index */
    VEC(pending) pendings;
    jepsen_times *times;     /* invocation/completion stamps (jepsen_times.h) */
    jp_state *jp;            /* closed-predicate histories (jepsen_pred.h) */
    mop_vec pairs;           /* M_PRED result pairs (key, value; value 0 + kind M_READ_NIL: nil) */
    VEC(jp_pred) preds;      /* M_PRED predicates (mop.value indexes) */
    int txns_seen;
    int json;
};

jepsen_reader *jr_new(history_format fmt, const char *source, load_report *rep) {
    jepsen_reader *jr = xcalloc(1, sizeof *jr);
    jr->b = hb_new(fmt, LOC_LINE, source);
    jr->rep = rep;
    jr->source = source;
    jk_init(&jr->keys);
    strtab_init(&jr->value_names);
    u64map_init(&jr->txn_ids);
    u64map_init(&jr->pending_ix);
    jr->times = jt_new();
    jr->jp = jp_new();
    jr->json = fmt == FORMAT_JSON;
    return jr;
}

static void free_parts(jepsen_reader *jr) {
    jk_free(&jr->keys);
    strtab_free(&jr->value_names);
    vec_free(jr->value_name_id);
    vec_free(jr->nil_reads);
    u64map_free(&jr->txn_ids);
    vec_free(jr->mops);
    vec_free(jr->elems);
    vec_free(jr->scratch);
    u64map_free(&jr->pending_ix);
    for (size_t i = 0; i < jr->pendings.len; i++) vec_free(jr->pendings.data[i].writes);
    vec_free(jr->pendings);
    jt_free(jr->times);
    jr->times = NULL;
    jp_free(jr->jp); jr->jp = NULL; vec_free(jr->pairs); vec_free(jr->preds);
}

void jr_free(jepsen_reader *jr) {
    if (!jr) return;
    hb_free(jr->b);
    free_parts(jr);
    free(jr);
}

/* ---- errors ------------------------------------------------------------ */

typedef struct ctx { jepsen_reader *jr; const optree *t; ic_error *err; } ctx;

static int fail_node(ctx *c, uint32_t node, uint32_t line, const char *expected) {
    char fb[64];
    ic_error_at(c->err, c->jr->source, line, "expected %s, found %s", expected, ot_render(c->t, node, fb, sizeof fb));
    return 0;
}

/* "the keyword :f" / "\"f\"" as written, for messages. */
static const char *field(const ctx *c, const char *name, char *buf, size_t n) {
    snprintf(buf, n, c->jr->json ? "\"%s\"" : ":%s", name);
    return buf;
}

/* ---- scalars ----------------------------------------------------------- */

static const char *written(ctx *c, uint32_t node) {
    vec_clear(c->jr->scratch);
    ot_written(c->t, node, &c->jr->scratch);
    vec_push(c->jr->scratch, 0);
    return c->jr->scratch.data;
}

/* The model id of a named thing with written form s. */
static int64_t name_id(jepsen_reader *jr, const char *s, size_t len) {
    int added;
    uint32_t id = strtab_intern(&jr->value_names, s, len, &added);
    if (added) {
        vec_push(jr->value_name_id, hb_name(jr->b, s, len));
        if (jr->rep) jr->rep->named_values++;
    }
    return jr->value_name_id.data[id];
}

/* A value: 1 with *v set, 0 if node is not a value. */
static int scalar_value(ctx *c, uint32_t node, int64_t *v) {
    const ov_node *n = ot_node(c->t, node);
    if (n->kind == OV_INT && n->ival >= NAMED_BAND_END) { *v = n->ival; return 1; }
    if (n->kind == OV_INT || n->kind == OV_BIGINT || n->kind == OV_STRING || n->kind == OV_KEYWORD ||
        n->kind == OV_NUMBER) {                      /* integers in the named band are names too */
        const char *s = written(c, node);
        *v = name_id(c->jr, s, strlen(s));
        return 1;
    }
    return 0;
}

static int parse_key(ctx *c, uint32_t node, mop *m) {
    const ov_node *n = ot_node(c->t, node);
    if (n->kind == OV_INT) { m->named_key = 0; m->key = n->ival; return 1; }
    if (n->kind == OV_BIGINT || n->kind == OV_STRING || n->kind == OV_KEYWORD) {
        const char *s = written(c, node);
        m->named_key = 1;
        m->key = jk_name(&c->jr->keys, s, strlen(s));
        return 1;
    }
    return fail_node(c, node, n->line, "a key (integer, keyword or string)");
}

/* ---- micro-ops ----------------------------------------------------------- */

static int is_seq(const optree *t, uint32_t node) {
    return node != OV_NONE && (ot_node(t, node)->kind == OV_VECTOR || ot_node(t, node)->kind == OV_LIST);
}

static int is_mop_name(const optree *t, uint32_t node) {
    return ot_is_name(t, node, "r") || ot_is_name(t, node, "w") || ot_is_name(t, node, "append") ||
           ot_is_name(t, node, "insert") || ot_is_name(t, node, "delete") || ot_is_name(t, node, "rp");
}

/* Whether :value is meant as a transaction: any sequence for :f :txn (or
 * no :f), else a sequence whose first element looks like a micro-op. */
static int txn_shaped(const optree *t, uint32_t value, int txn_f) {
    if (!is_seq(t, value)) return 0;
    if (txn_f) return 1;
    uint32_t first = ot_node(t, value)->child;
    return first != OV_NONE && is_seq(t, first) && is_mop_name(t, ot_node(t, first)->child);
}

/* The first predicate op or :init: the predicate reader records from now
 * on, after replaying the ops read so far (jepsen_pred.h). */
static void activate(jepsen_reader *jr) { jp_activate_replay(jr->jp, jr->b, jr->nil_reads.data, jr->nil_reads.len); }

/* [:delete k] (also [:delete k nil]) and [:rp PRED {k v ...}] (or nil, or no result). */
static int parse_pred_mop(ctx *c, uint32_t node) {
    const optree *t = c->t;
    jepsen_reader *jr = c->jr;
    const ov_node *n = ot_node(t, node);
    uint32_t fn = n->child, second = ot_node(t, fn)->next;
    mop m = { .line = n->line, .kind = M_DELETE };
    activate(jr);
    if (ot_is_name(t, fn, "delete")) {
        if (n->count < 2 || n->count > 3) return fail_node(c, node, n->line, "a micro-op [:delete k]");
        if (!parse_key(c, second, &m)) return 0;
        vec_push(jr->mops, m);
        return 1;
    }
    if (n->count < 2 || n->count > 3) return fail_node(c, node, n->line, "a micro-op [:rp predicate {k v ...}]");
    jp_pred p;
    uint32_t bad;
    const char *want = jp_parse_read_pred(t, second, &p, &bad);
    if (want) return fail_node(c, bad == OV_NONE ? node : bad, n->line, want);
    m.kind = M_PRED;
    m.value = (int64_t)jr->preds.len;
    vec_push(jr->preds, p);
    m.list_off = (uint32_t)jr->pairs.len;
    uint32_t res = ot_node(t, second)->next;
    if (res != OV_NONE && ot_node(t, res)->kind != OV_NIL) {
        int pairs = ot_node(t, res)->kind == OV_VECTOR;     /* [[k v] ...]: JSON's integer keys */
        if (!pairs && ot_node(t, res)->kind != OV_MAP)
            return fail_node(c, res, n->line, "a predicate read's result: a map {k v ...}, pairs [[k v] ...] or nil");
        for (uint32_t e = ot_node(t, res)->child; e != OV_NONE; e = ot_node(t, pairs ? e : ot_node(t, e)->next)->next) {
            if (pairs && (ot_node(t, e)->kind != OV_VECTOR || ot_node(t, e)->count != 2))
                return fail_node(c, e, n->line, "a pair [k v] in a predicate read's result");
            uint32_t k = pairs ? ot_node(t, e)->child : e, v = ot_node(t, k)->next;
            mop pr = { .line = n->line, .kind = ot_node(t, v)->kind == OV_NIL ? M_READ_NIL : M_READ };
            if (!parse_key(c, k, &pr)) return 0;
            if (pr.kind == M_READ && !scalar_value(c, v, &pr.value))
                return fail_node(c, v, n->line, "a value in a predicate read's result");
            vec_push(jr->pairs, pr);
        }
    }
    m.list_len = (uint32_t)(jr->pairs.len - m.list_off);
    vec_push(jr->mops, m);
    return 1;
}

static int parse_mop(ctx *c, uint32_t node) {
    const optree *t = c->t;
    const ov_node *n = ot_node(t, node);
    uint32_t line = n->line;
    if (!is_seq(t, node)) return fail_node(c, node, line, "a micro-op like [:r k v], [:w k v] or [:append k v]");
    uint32_t fn = n->child;
    if (!is_mop_name(t, fn)) return fail_node(c, fn == OV_NONE ? node : fn, line, "a micro-op :r, :w or :append");
    if (ot_is_name(t, fn, "rp") || ot_is_name(t, fn, "delete")) return parse_pred_mop(c, node);
    int is_read = ot_is_name(t, fn, "r"), is_append = ot_is_name(t, fn, "append");
    if (n->count < 2 || n->count > 3 || (!is_read && n->count != 3))
        return fail_node(c, node, line, is_read ? "a micro-op [:r k v] or [:r k]" : "a micro-op of 3 elements like [:w k v]");
    mop m;
    memset(&m, 0, sizeof m);
    m.line = line;
    if (ot_is_name(t, fn, "insert")) activate(c->jr);
    uint32_t knode = ot_node(t, fn)->next;
    if (!parse_key(c, knode, &m)) return 0;
    uint32_t vnode = ot_node(t, knode)->next;
    if (is_read) {
        if (vnode == OV_NONE || ot_node(t, vnode)->kind == OV_NIL) m.kind = M_READ_NIL;
        else if (is_seq(t, vnode)) {
            m.kind = M_LIST_READ;
            m.list_off = (uint32_t)c->jr->elems.len;
            for (uint32_t e = ot_node(t, vnode)->child; e != OV_NONE; e = ot_node(t, e)->next) {
                int64_t v;
                if (!scalar_value(c, e, &v)) return fail_node(c, e, ot_node(t, e)->line, "a list element (integer, string or keyword)");
                vec_push(c->jr->elems, v);
            }
            if (c->jr->elems.len - m.list_off > UINT32_MAX / 2) return fail_node(c, vnode, line, "a shorter list");
            m.list_len = (uint32_t)(c->jr->elems.len - m.list_off);
        } else {
            m.kind = M_READ;
            if (!scalar_value(c, vnode, &m.value))
                return fail_node(c, vnode, line, "a read value (integer, string, keyword, nil or a list)");
        }
    } else {
        m.kind = is_append ? M_APPEND : M_WRITE;
        if (!scalar_value(c, vnode, &m.value))
            return fail_node(c, vnode, line, is_append ? "an appended value (integer, string or keyword)"
                                                       : "a written value (integer, string or keyword)");
    }
    vec_push(c->jr->mops, m);
    return 1;
}

static int parse_mops(ctx *c, uint32_t value) {
    vec_clear(c->jr->mops);
    vec_clear(c->jr->elems);
    vec_clear(c->jr->pairs);
    vec_clear(c->jr->preds);
    for (uint32_t e = ot_node(c->t, value)->child; e != OV_NONE; e = ot_node(c->t, e)->next)
        if (!parse_mop(c, e)) return 0;
    return 1;
}

/* ---- adding a transaction ------------------------------------------------ */

static uint32_t builder_key(jepsen_reader *jr, const mop *m) { return jk_key(&jr->keys, jr->b, m->named_key, m->key); }

static int use_key(ctx *c, uint32_t key, jk_use_kind use, const mop *m) {
    return jk_use(&c->jr->keys, key, use, m->named_key, m->key, c->jr->source, m->line, c->err);
}

/* [:rp ...] of a committed transaction: its result pairs as reads, and a
 * placeholder read for each key the transaction writes that it did not return. */
static int add_pred_read(ctx *c, uint32_t txn, const mop *ms, size_t n, size_t i) {
    jepsen_reader *jr = c->jr;
    const mop *m = &ms[i];
    const jp_pred *jpp = &jr->preds.data[m->value];
    uint32_t r = jp_read(jr->jp, &jpp->p, txn, m->line);
    jp_read_pos(jr->jp, r, hb_txn_num_ops(jr->b, txn));
    if (jpp->keyed) jp_read_keys(jr->jp, r, jpp->klo, jpp->khi);
    for (uint32_t j = 0; j < m->list_len; j++) {
        const mop *pr = &jr->pairs.data[m->list_off + j];
        if (pr->kind == M_READ_NIL) continue;
        uint32_t key = builder_key(jr, pr);
        if (!use_key(c, key, JK_REGISTER, pr)) return 0;
        int64_t v = jp_read_value(jr->jp, key, pr->value);
        jp_returned(jr->jp, r, key, v, hb_op(jr->b, txn, OP_READ, key, v, m->line));
    }
    for (size_t j = 0; j < n; j++) {
        if (ms[j].kind != M_WRITE && ms[j].kind != M_DELETE) continue;
        uint32_t key = builder_key(jr, &ms[j]);
        jp_own(jr->jp, r, key, hb_op(jr->b, txn, OP_READ, key, VALUE_INIT, m->line));
    }
    return 1;
}

/* A write or delete: its value (a delete: a new "dead" value), recorded as
 * a version when the history is predicate-active (rec). */
static int add_write(ctx *c, uint32_t txn, const mop *m, uint32_t key, uint8_t status, int rec) {
    jepsen_reader *jr = c->jr;
    if (!use_key(c, key, JK_REGISTER, m)) return 0;
    int64_t val = m->kind == M_DELETE ? hb_name(jr->b, "dead", 4) : m->value;
    if (rec && m->kind == M_WRITE && jp_read_value(jr->jp, key, m->value) == VALUE_INIT) {
        ic_error_at(c->err, jr->source, m->line, "this write's value is the key's :init value: a value is written once");
        return 0;
    }
    hb_op(jr->b, txn, OP_WRITE, key, val, m->line);
    if (rec) jp_version(jr->jp, key, val, txn, status, m->kind == M_DELETE, m->line);
    return 1;
}

/* Add mops (all of them for :ok; nil reads and predicate reads of
 * :fail/:info only if observed). */
static int add_mops(ctx *c, uint32_t txn, const mop *ms, size_t n, int keep_nil_reads, uint8_t status) {
    jepsen_reader *jr = c->jr;
    int ok = 1, rec = jp_active(jr->jp);          /* (inactive: the predicate reader records nothing) */
    if (rec) jp_begin_txn(jr->jp);
    for (size_t i = 0; i < n && ok; i++) {
        const mop *m = &ms[i];
        if ((m->kind == M_READ_NIL || m->kind == M_PRED) && !keep_nil_reads) {
            if (jr->rep) jr->rep->unknown_reads++;
            continue;
        }
        if (m->kind == M_PRED) { ok = add_pred_read(c, txn, ms, n, i); continue; }
        uint32_t key = builder_key(jr, m);
        switch (m->kind) {
        case M_READ_NIL:
            vec_push(jr->nil_reads, hb_op(jr->b, txn, OP_READ, key, VALUE_INIT, m->line));
            vec_push(jr->nil_reads, key);
            if (rec) jp_nil_read(jr->jp, jr->nil_reads.data[jr->nil_reads.len - 2], key, txn, m->line);
            break;
        case M_READ:
            ok = use_key(c, key, JK_REGISTER, m);
            if (ok) hb_op(jr->b, txn, OP_READ, key, rec ? jp_item_read(jr->jp, key, m->value, txn) : m->value, m->line);
            break;
        case M_LIST_READ:
            ok = use_key(c, key, JK_LIST, m);
            if (ok) hb_list_read(jr->b, txn, key, m->list_len ? jr->elems.data + m->list_off : NULL, m->list_len, m->line);
            break;
        case M_WRITE:
        case M_DELETE:
            ok = add_write(c, txn, m, key, status, rec);
            break;
        case M_APPEND:
            ok = use_key(c, key, JK_LIST, m);
            if (ok) hb_op(jr->b, txn, OP_APPEND, key, m->value, m->line);
            break;
        default:
            break;
        }
    }
    return ok;
}

static pending *pending_of(jepsen_reader *jr, int64_t process, int create) {
    uint32_t i = u64map_get(&jr->pending_ix, (uint64_t)process);
    if (i == UINT32_MAX) {
        if (!create) return NULL;
        pending p = { process, { NULL, 0, 0 }, 0 };
        vec_push(jr->pendings, p);
        i = u64map_put(&jr->pending_ix, (uint64_t)process, (uint32_t)jr->pendings.len - 1);
    }
    return &jr->pendings.data[i];
}

/* ---- one operation --------------------------------------------------------- */

typedef enum { T_NONE, T_INVOKE, T_OK, T_FAIL, T_INFO } op_type;
typedef enum { P_NONE, P_CLIENT, P_NEMESIS } proc_kind;

/* The fields of an operation map this reader reads, OV_NONE when absent. */
static const char *const op_field_names[] = { "type", "f", "process", "index", "value", "isocheck/reads", "time", "ts" };
enum { F_TYPE, F_F, F_PROCESS, F_INDEX, F_VALUE, F_READS, F_TIME, F_TS, F_N };

/* The value nodes of the operation map r's fields; a field twice is an error. */
static int op_fields(ctx *c, const ov_node *r, uint32_t fields[F_N]) {
    const optree *t = c->t;
    for (int i = 0; i < F_N; i++) fields[i] = OV_NONE;
    for (uint32_t k = r->child; k != OV_NONE;) {
        uint32_t v = ot_node(t, k)->next;
        for (int i = 0; i < F_N; i++) {
            if (!ot_is_field(t, k, op_field_names[i])) continue;
            if (fields[i] != OV_NONE) {
                char fb[32];
                ic_error_at(c->err, c->jr->source, ot_node(t, k)->line, "key %s appears twice in one operation map",
                            field(c, op_field_names[i], fb, sizeof fb));
                return 0;
            }
            fields[i] = v;
        }
        k = v == OV_NONE ? OV_NONE : ot_node(t, v)->next;
    }
    return 1;
}

/* The operation's :type (node tn, OV_NONE if absent) into *type. */
static int op_type_of(ctx *c, const ov_node *r, uint32_t tn, op_type *type) {
    const optree *t = c->t;
    if (tn == OV_NONE) {
        char fb[32];
        ic_error_at(c->err, c->jr->source, r->line, "expected an operation with %s, found none", field(c, "type", fb, sizeof fb));
        return 0;
    }
    if (ot_is_name(t, tn, "invoke")) *type = T_INVOKE;
    else if (ot_is_name(t, tn, "ok")) *type = T_OK;
    else if (ot_is_name(t, tn, "fail")) *type = T_FAIL;
    else if (ot_is_name(t, tn, "info")) *type = T_INFO;
    else return fail_node(c, tn, ot_node(t, tn)->line, t->json ? "\"invoke\", \"ok\", \"fail\" or \"info\" as \"type\""
                                                             : ":invoke, :ok, :fail or :info as :type");
    return 1;
}

/* The process (node pn, OV_NONE if absent): a client (session) with its
 * id, a non-client, or none. */
static int op_process(ctx *c, uint32_t pn, proc_kind *pk, int64_t *process) {
    const optree *t = c->t;
    jepsen_reader *jr = c->jr;
    *pk = P_NONE;
    *process = 0;
    if (pn == OV_NONE) return 1;
    const ov_node *p = ot_node(t, pn);
    if (p->kind == OV_KEYWORD) *pk = P_NEMESIS;
    else if (p->kind == OV_NIL) *pk = P_NONE;
    else if (p->kind == OV_INT && p->ival >= NAMED_BAND_END) { *pk = P_CLIENT; *process = p->ival; }
    else if (p->kind == OV_STRING && t->json && ot_is_name(t, pn, "nemesis")) *pk = P_NEMESIS;  /* JSON's :nemesis */
    else if (p->kind == OV_STRING) {
        *pk = P_CLIENT;
        const char *d = ot_text(t, pn);
        if (lex_digits_i64(&d, process) != 1 || *d || *process < NAMED_BAND_END) {   /* "3" is process 3 */
            const char *s = written(c, pn);
            *process = name_id(jr, s, strlen(s));
        }
    } else if (p->kind == OV_INT || p->kind == OV_BIGINT) {
        const char *s = written(c, pn);
        *pk = P_CLIENT;
        *process = name_id(jr, s, strlen(s));
    } else return fail_node(c, pn, p->line, "a :process (integer, string, keyword or nil)");
    return 1;
}

/* A client's invocation: its writes kept for a completion without micro-ops. */
static int op_invoke(ctx *c, int64_t process, uint32_t value) {
    jepsen_reader *jr = c->jr;
    if (!parse_mops(c, value)) return 0;
    pending *pd = pending_of(jr, process, 1);
    vec_clear(pd->writes);
    for (size_t i = 0; i < jr->mops.len; i++)
        if (jr->mops.data[i].kind == M_WRITE || jr->mops.data[i].kind == M_APPEND || jr->mops.data[i].kind == M_DELETE)
            vec_push(pd->writes, jr->mops.data[i]);
    pd->valid = 1;
    return 1;
}

/* A completion that is not a transaction: the error that says so. */
static int not_a_txn(ctx *c, const ov_node *r, uint32_t fnode, uint32_t value) {
    const optree *t = c->t;
    char fb[32], fb2[32], vb[64], fnb[64];
    ic_error_at(c->err, c->jr->source, r->line,
                "expected a transaction (a %s of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an "
                "operation with %s %s and %s %s: isocheck checks transactional histories (Elle's rw-register and "
                "list-append), not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)",
                field(c, "value", fb, sizeof fb), field(c, "f", fb2, sizeof fb2),
                fnode == OV_NONE ? "absent" : ot_render(t, fnode, fnb, sizeof fnb),
                field(c, "value", fb, sizeof fb), value == OV_NONE ? "absent" : ot_render(t, value, vb, sizeof vb));
    return 0;
}

/* A completion's transaction with id ext (index_given: its :index, else
 * its position: the duplicate's message says which), stamped s; ts its
 * :ts node (OV_NONE: none); observed: `:isocheck/reads :observed`. */
static int add_plain_mops(ctx *c, uint32_t txn, const jr_plain *p, int keep_nil_reads);

static int txn_add(ctx *c, uint32_t line, int64_t ext, int index_given, op_type type, proc_kind pk, int64_t process,
                   jt_stamp s, int observed, uint32_t ts, const jr_plain *pl, const mop *ms, size_t nms) {
    jepsen_reader *jr = c->jr;
    uint32_t next = hb_num_txns(jr->b);          /* the id hb_txn gives it: one probe, not two */
    if (u64map_put(&jr->txn_ids, (uint64_t)ext, next) != next) {
        char fb[32];
        ic_error_at(c->err, jr->source, line, "duplicate transaction id (%s %" PRId64 ")",
                    index_given ? field(c, "index", fb, sizeof fb) : "position", ext);
        return 0;
    }
    if (pk == P_NONE) {
        process = hb_name(jr->b, "nil", 3);      /* a session of its own */
        if (jr->rep) jr->rep->no_process++;
    }
    uint32_t txn = hb_txn(jr->b, hb_session(jr->b, process, NULL), ext, line);
    hb_txn_status(jr->b, txn, type == T_OK ? TXN_COMMITTED : type == T_FAIL ? TXN_ABORTED : TXN_INDETERMINATE);
    jt_complete(jr->times, pk == P_CLIENT, process, txn, type == T_INFO, s, line);
    if (ts != OV_NONE && !jt_db_times(c->t, ts, jr->b, txn, jr->source, c->err)) return 0;
    jr->txns_seen = 1;
    if (pl) return add_plain_mops(c, txn, pl, type == T_OK || observed);
    return add_mops(c, txn, ms, nms, type == T_OK || observed,
                    type == T_OK ? TXN_COMMITTED : type == T_FAIL ? TXN_ABORTED : TXN_INDETERMINATE);
}

/* A completion's transaction, numbered by :index (else its position
 * ordinal), with the micro-ops ms[0..nms); its stamps to jr->times. */
static int op_txn(ctx *c, const ov_node *r, const uint32_t fields[F_N], op_type type, proc_kind pk, int64_t process,
                  uint64_t ordinal, const mop *ms, size_t nms) {
    const optree *t = c->t;
    int64_t ext = (int64_t)ordinal;
    uint32_t in = fields[F_INDEX];
    if (in != OV_NONE) {
        if (ot_node(t, in)->kind != OV_INT) return fail_node(c, in, ot_node(t, in)->line, "an integer :index");
        ext = ot_node(t, in)->ival;
    }
    int observed = fields[F_READS] != OV_NONE && ot_is_name(t, fields[F_READS], "observed");
    return txn_add(c, r->line, ext, in != OV_NONE, type, pk, process, jt_stamp_of(t, fields[F_TIME], in), observed,
                   fields[F_TS], NULL, ms, nms);
}

int jr_plain_op(jepsen_reader *jr, const jr_plain *p, ic_error *err) {
    if (p->process < NAMED_BAND_END || (p->type != 'o' && p->type != 'f' && p->type != 'i')) return -1;
    for (size_t i = 0; i < p->n; i++) {           /* named values, a nil written: the general path */
        if (p->mops[i].nil ? p->mops[i].kind != 'r' : p->mops[i].value < NAMED_BAND_END) return -1;
        jk_prefetch(&jr->keys, p->mops[i].key);
    }
    ctx c = { jr, NULL, err };
    op_type type = p->type == 'o' ? T_OK : p->type == 'f' ? T_FAIL : T_INFO;
    jr->ordinal++;
    if (jr->rep) {
        jr->rep->records++;
        if (type == T_OK) jr->rep->completions_ok++;
        else if (type == T_FAIL) jr->rep->completions_fail++;
        else jr->rep->completions_info++;
        jr->rep->micro_ops += p->n;
    }
    pending *pd = pending_of(jr, p->process, 0);
    int plain = !jp_active(jr->jp);               /* else as parse_mops would decode them */
    vec_clear(jr->mops); vec_clear(jr->elems); vec_clear(jr->pairs); vec_clear(jr->preds);
    for (size_t i = 0; i < p->n && !plain; i++) {
        const jr_plain_mop *q = &p->mops[i];
        mop m = { (uint8_t)(q->kind == 'r' ? (q->nil ? M_READ_NIL : M_READ) : q->kind == 'w' ? M_WRITE : M_APPEND), 0,
                  q->key, q->nil ? 0 : q->value, 0, 0, p->line };
        vec_push(jr->mops, m);
    }
    int timed = p->has_time && p->time != HISTORY_TIME_NONE;     /* as jt_stamp_of reads the map */
    jt_stamp s = { timed ? p->time : 0, p->index,
                   (uint8_t)((p->index != HISTORY_TIME_NONE ? JT_INDEX : 0) | (timed ? JT_TIME : 0)) };
    if (!txn_add(&c, p->line, p->index, 1, type, P_CLIENT, p->process, s, p->observed, OV_NONE, plain ? p : NULL,
                 jr->mops.data, jr->mops.len))
        return 0;
    if (pd) pd->valid = 0;
    return 1;
}

/* The micro-ops of a plain completion (jr_plain_op) in a history that is
 * not predicate-active: what add_mops does with them, without decoding
 * them into mops first, an integer key's builder id and use found in one
 * look (jk_int_use).  jr_plain_op let through nil only in reads. */
static int add_plain_mops(ctx *c, uint32_t txn, const jr_plain *p, int keep_nil_reads) {
    jepsen_reader *jr = c->jr;
    for (size_t i = 0; i < p->n; i++) {
        const jr_plain_mop *q = &p->mops[i];
        uint32_t key;
        if (q->nil) {                                /* [:r k nil] */
            if (!keep_nil_reads) {
                if (jr->rep) jr->rep->unknown_reads++;
                continue;
            }
            key = jk_key(&jr->keys, jr->b, 0, q->key);
            vec_push(jr->nil_reads, hb_op(jr->b, txn, OP_READ, key, VALUE_INIT, p->line));
            vec_push(jr->nil_reads, key);
            continue;
        }
        if (!jk_int_use(&jr->keys, jr->b, q->key, q->kind == 'a' ? JK_LIST : JK_REGISTER, jr->source, p->line, c->err, &key))
            return 0;
        hb_op(jr->b, txn, q->kind == 'r' ? OP_READ : q->kind == 'w' ? OP_WRITE : OP_APPEND, key, q->value, p->line);
    }
    return 1;
}

/* Elle closed-predicate's {:f :init, :value {k v ...}}: the trusted initial state. */
static int op_init(ctx *c, const ov_node *r, uint32_t value) {
    const optree *t = c->t;
    jepsen_reader *jr = c->jr;
    if (jr->txns_seen) {
        ic_error_at(c->err, jr->source, r->line, "expected :init before every transaction, found it after one");
        return 0;
    }
    activate(jr);
    for (uint32_t k = ot_node(t, value)->child; k != OV_NONE;) {
        uint32_t v = ot_node(t, k)->next;
        mop m = { .line = ot_node(t, k)->line, .kind = M_WRITE };
        if (!parse_key(c, k, &m)) return 0;
        if (ot_node(t, v)->kind != OV_INT) return fail_node(c, v, m.line, "an integer initial value");
        uint32_t key = builder_key(jr, &m);
        if (!use_key(c, key, JK_REGISTER, &m)) return 0;
        if (!jp_init(jr->jp, key, ot_node(t, v)->ival)) {
            ic_error_at(c->err, jr->source, m.line, "key %s has two initial values", ot_render(t, k, (char[64]){0}, 64));
            return 0;
        }
        k = ot_node(t, v)->next;
    }
    return 1;
}

int jr_op(jepsen_reader *jr, const optree *t, uint32_t root, ic_error *err) {
    ctx c = { jr, t, err };
    const ov_node *r = ot_node(t, root);
    uint64_t ordinal = jr->ordinal++;
    if (jr->rep) jr->rep->records++;
    if (r->kind != OV_MAP)
        return fail_node(&c, root, r->line, t->json ? "an operation object ({\"type\": ..., \"value\": ...})"
                                                    : "an operation map ({:type ..., :value ...})");
    uint32_t fields[F_N];
    op_type type = T_NONE;
    proc_kind pk;
    int64_t process;
    if (!op_fields(&c, r, fields) || !op_type_of(&c, r, fields[F_TYPE], &type) ||
        !op_process(&c, fields[F_PROCESS], &pk, &process))
        return 0;
    if (pk == P_NEMESIS) {
        if (jr->rep) jr->rep->nemesis++;
        return 1;
    }

    uint32_t fnode = fields[F_F], value = fields[F_VALUE];
    if (fnode != OV_NONE && ot_is_name(t, fnode, "init") && value != OV_NONE && ot_node(t, value)->kind == OV_MAP)
        return type == T_OK ? op_init(&c, r, value) : 1;
    int txn_f = fnode == OV_NONE || ot_is_name(t, fnode, "txn");
    int shaped = value != OV_NONE && txn_shaped(t, value, txn_f);
    if (type == T_INVOKE) {
        if (jr->rep) jr->rep->invocations++;
        if (pk == P_CLIENT) jt_invoke(jr->times, process, jt_stamp_of(t, fields[F_TIME], fields[F_INDEX]));
        if (!shaped || pk != P_CLIENT) return 1;
        return op_invoke(&c, process, value);
    }

    if (jr->rep) {
        if (type == T_OK) jr->rep->completions_ok++;
        else if (type == T_FAIL) jr->rep->completions_fail++;
        else jr->rep->completions_info++;
    }
    pending *pd = pk == P_CLIENT ? pending_of(jr, process, 0) : NULL;
    const mop *ms = NULL;
    size_t nms = 0;
    if (shaped) {
        if (!parse_mops(&c, value)) return 0;
        ms = jr->mops.data;
        nms = jr->mops.len;
        if (jr->rep) jr->rep->micro_ops += nms;
    } else if (type != T_OK && pd && pd->valid) {
        ms = pd->writes.data;                     /* :fail/:info without micro-ops: the invocation's writes */
        nms = pd->writes.len;
        if (jr->rep) jr->rep->from_invocation += nms;
    } else if (!(type != T_OK && txn_f && (value == OV_NONE || ot_node(t, value)->kind == OV_NIL))) {
        return not_a_txn(&c, r, fnode, value);
    }
    if (!op_txn(&c, r, fields, type, pk, process, ordinal, ms, nms)) return 0;
    if (pd) pd->valid = 0;
    return 1;
}

history *jr_finish(jepsen_reader *jr, ic_error *err) {
    uint8_t *is_list = jk_list_flags(&jr->keys);
    int ok = jp_finish(jr->jp, jr->b, is_list, jk_count(&jr->keys), jr->source, err);
    free(is_list);
    if (!ok) {
        jr_free(jr);
        return NULL;
    }
    for (size_t i = 0; i + 1 < jr->nil_reads.len; i += 2)     /* [:r k nil] on a list key reads [] */
        if (jk_is_list(&jr->keys, jr->nil_reads.data[i + 1]))
            hb_op_make_empty_list_read(jr->b, jr->nil_reads.data[i]);
    if (!jt_finish(jr->times, jr->b, jr->rep, jr->source, jr->json, err)) {
        jr_free(jr);
        return NULL;
    }
    history_builder *b = jr->b;
    jr->b = NULL;
    free_parts(jr);
    free(jr);
    history *h = hb_finish(b, err);                /* then the choices of predicate reads and nil reads */
    return h && !preds_attach_choices(h, err) ? (history_free(h), (history *)NULL) : h;
}
