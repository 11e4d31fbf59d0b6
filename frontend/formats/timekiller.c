/* timekiller.c — TimeKiller's JSON transactions into the model (contract
 * in timekiller.h).
 *
 * Transactions are created as they are read (file order is session
 * order); their operations are kept and added at the end, when it is
 * known whether 0 is the initial value and which keys are lists.  The
 * timestamps are kept as (p, l) pairs and encoded at the end too. */
#include "frontend/formats/timekiller.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vec.h"
#include "frontend/formats/lex.h"
#include "frontend/history/strtab.h"
#include "frontend/history/u64map.h"

typedef enum { K_READ, K_READ_NULL, K_LIST_READ, K_WRITE, K_APPEND } tk_kind;

typedef struct tk_op {
    uint32_t txn, line;
    uint8_t kind;
    int64_t key, value;
    uint32_t list_off, list_len;
} tk_op;

typedef struct tk_hlc { int64_t p, l; } tk_hlc;
typedef struct tk_stamp { uint32_t txn; uint8_t commit; tk_hlc c; } tk_stamp;

struct tk_reader {
    history_builder *b;
    load_report *rep;
    const char *source;
    uint64_t ordinal;
    u64map txn_ids;
    strtab names;                /* string session ids */
    vec_i64 name_ids;
    VEC(tk_op) ops;
    vec_i64 elems;
    VEC(tk_stamp) stamps;
    int zero_read, zero_written;
};

typedef VEC(uint8_t) u8vec;

typedef struct tctx { tk_reader *r; const optree *t; ic_error *err; } tctx;

int tk_is_txn(const optree *t, uint32_t root) {
    const ov_node *r = ot_node(t, root);
    if (r->kind != OV_MAP) return 0;
    int ops = 0;
    for (uint32_t k = r->child; k != OV_NONE; k = ot_node(t, ot_node(t, k)->next)->next) {
        if (ot_is_field(t, k, "type")) return 0;
        ops |= ot_is_field(t, k, "ops");
    }
    return ops;
}

tk_reader *tk_new(const char *source, load_report *rep) {
    tk_reader *r = xcalloc(1, sizeof *r);
    r->b = hb_new(FORMAT_JSON, LOC_LINE, source);
    r->rep = rep;
    r->source = source;
    u64map_init(&r->txn_ids);
    strtab_init(&r->names);
    return r;
}

static void free_parts(tk_reader *r) {
    u64map_free(&r->txn_ids);
    strtab_free(&r->names);
    vec_free(r->name_ids);
    vec_free(r->ops);
    vec_free(r->elems);
    vec_free(r->stamps);
}

void tk_free(tk_reader *r) {
    if (!r) return;
    hb_free(r->b);
    free_parts(r);
    free(r);
}

static int fail(tctx *c, uint32_t node, const char *expected) {
    char fb[64];
    ic_error_at(c->err, c->r->source, ot_node(c->t, node)->line, "expected %s, found %s", expected,
                ot_render(c->t, node, fb, sizeof fb));
    return 0;
}

/* An integer, or a string of digits (fastjson's getLong reads both). */
static int tk_int(const optree *t, uint32_t node, int64_t *v) {
    const ov_node *n = ot_node(t, node);
    if (n->kind == OV_INT) { *v = n->ival; return 1; }
    if (n->kind != OV_STRING) return 0;
    const char *p = ot_text(t, node);
    return lex_i64(&p, v) == 1 && p == ot_text(t, node) + n->len;
}

/* The value node of field name in map m, OV_NONE if absent. */
static uint32_t member(const optree *t, uint32_t m, const char *name) {
    for (uint32_t k = ot_node(t, m)->child; k != OV_NONE; k = ot_node(t, ot_node(t, k)->next)->next)
        if (ot_is_field(t, k, name)) return ot_node(t, k)->next;
    return OV_NONE;
}

/* A hybrid logical clock {"p": P, "l": L} (l absent: 0), both >= 0. */
static int hlc(tctx *c, uint32_t node, const char *name, tk_hlc *h) {
    const optree *t = c->t;
    char ex[64];
    snprintf(ex, sizeof ex, "a timestamp \"%s\": {\"p\": P, \"l\": L}", name);
    if (ot_node(t, node)->kind != OV_MAP) return fail(c, node, ex);
    uint32_t p = member(t, node, "p"), l = member(t, node, "l");
    if (p == OV_NONE) return fail(c, node, ex);
    if (!tk_int(t, p, &h->p) || h->p < 0) return fail(c, p, "a non-negative integer \"p\"");
    h->l = 0;
    if (l != OV_NONE && (!tk_int(t, l, &h->l) || h->l < 0)) return fail(c, l, "a non-negative integer \"l\"");
    return 1;
}

static int hlc_cmp(tk_hlc a, tk_hlc b) {
    if (a.p != b.p) return a.p < b.p ? -1 : 1;
    return (a.l > b.l) - (a.l < b.l);
}

static int op_value(tctx *c, uint32_t node, int64_t *v) {
    if (!tk_int(c->t, node, v) || *v < VALUE_NAME_BASE + (int64_t)UINT32_MAX)
        return fail(c, node, "an integer value (above -9223372032559808512)");
    return 1;
}

static int one_op(tctx *c, uint32_t txn, uint32_t node) {
    const optree *t = c->t;
    tk_reader *r = c->r;
    if (ot_node(t, node)->kind != OV_MAP) return fail(c, node, "an operation {\"t\": ..., \"k\": ..., \"v\": ...}");
    uint32_t tn = member(t, node, "t"), kn = member(t, node, "k"), vn = member(t, node, "v");
    tk_op op;
    memset(&op, 0, sizeof op);
    op.txn = txn;
    op.line = ot_node(t, node)->line;
    const char *name = tn != OV_NONE && ot_node(t, tn)->kind == OV_STRING ? ot_text(t, tn) : "";
    int read = !strcasecmp(name, "r") || !strcasecmp(name, "read");
    int write = !strcasecmp(name, "w") || !strcasecmp(name, "write");
    int append = !strcasecmp(name, "a") || !strcasecmp(name, "append");
    if (!read && !write && !append)
        return fail(c, tn != OV_NONE ? tn : node, "an operation type \"t\": \"r\", \"w\" or \"a\"");
    if (kn == OV_NONE || !tk_int(t, kn, &op.key)) return fail(c, kn != OV_NONE ? kn : node, "an integer key \"k\"");
    int null = vn == OV_NONE || ot_node(t, vn)->kind == OV_NIL;
    if (read && null) op.kind = K_READ_NULL;
    else if (read && ot_node(t, vn)->kind == OV_VECTOR) {
        op.kind = K_LIST_READ;
        op.list_off = (uint32_t)r->elems.len;
        for (uint32_t e = ot_node(t, vn)->child; e != OV_NONE; e = ot_node(t, e)->next) {
            int64_t v;
            if (!op_value(c, e, &v)) return 0;
            vec_push(r->elems, v);
        }
        op.list_len = (uint32_t)(r->elems.len - op.list_off);
    } else {
        if (null) return fail(c, vn != OV_NONE ? vn : node, "a written value \"v\"");
        if (!op_value(c, vn, &op.value)) return 0;
        op.kind = read ? K_READ : write ? K_WRITE : K_APPEND;
        if (op.value == 0) {
            if (read) r->zero_read = 1;
            else r->zero_written = 1;
        }
    }
    vec_push(r->ops, op);
    if (r->rep) r->rep->micro_ops++;
    return 1;
}

/* The session of "sid" (an integer, digits, or any other string by name). */
static int session_of(tctx *c, uint32_t sn, uint32_t txn_node, uint32_t *s) {
    tk_reader *r = c->r;
    int64_t id;
    if (sn == OV_NONE) return fail(c, txn_node, "a transaction with a session \"sid\"");
    if (!tk_int(c->t, sn, &id) || id < VALUE_NAME_BASE + (int64_t)UINT32_MAX) {
        if (ot_node(c->t, sn)->kind != OV_STRING && ot_node(c->t, sn)->kind != OV_INT)
            return fail(c, sn, "a session id \"sid\" (integer or string)");
        const char *text = ot_text(c->t, sn);
        int added;
        uint32_t i = strtab_intern(&r->names, text, strlen(text), &added);
        if (added) vec_push(r->name_ids, hb_name(r->b, text, strlen(text)));
        id = r->name_ids.data[i];
    }
    *s = hb_session(r->b, id, NULL);
    return 1;
}

int tk_txn(tk_reader *r, const optree *t, uint32_t root, ic_error *err) {
    tctx c = { r, t, err };
    uint64_t ordinal = r->ordinal++;
    if (r->rep) r->rep->records++;
    if (!tk_is_txn(t, root)) return fail(&c, root, "a TimeKiller transaction {\"tid\", \"sid\", \"sts\", \"cts\", \"ops\"}");
    uint32_t line = ot_node(t, root)->line;
    uint32_t tid = member(t, root, "tid"), sts = member(t, root, "sts"), cts = member(t, root, "cts");
    uint32_t ops = member(t, root, "ops"), s = 0;
    int64_t ext = (int64_t)ordinal;
    if (tid != OV_NONE && !tk_int(t, tid, &ext)) ext = (int64_t)ordinal;   /* a string id: by position */
    if (u64map_get(&r->txn_ids, (uint64_t)ext) != UINT32_MAX) {
        ic_error_at(err, r->source, line, "duplicate transaction id (%s %" PRId64 ")", tid != OV_NONE ? "\"tid\"" : "position", ext);
        return 0;
    }
    if (!session_of(&c, member(t, root, "sid"), root, &s)) return 0;
    if (ot_node(t, ops)->kind != OV_VECTOR) return fail(&c, ops, "an array of operations \"ops\"");
    uint32_t txn = hb_txn(r->b, s, ext, line);
    u64map_put(&r->txn_ids, (uint64_t)ext, txn);
    tk_stamp st[2] = { { txn, 0, { 0, 0 } }, { txn, 1, { 0, 0 } } };
    if ((sts != OV_NONE && !hlc(&c, sts, "sts", &st[0].c)) || (cts != OV_NONE && !hlc(&c, cts, "cts", &st[1].c))) return 0;
    if (sts != OV_NONE && cts != OV_NONE && hlc_cmp(st[0].c, st[1].c) > 0) {
        ic_error_at(err, r->source, line, "start timestamp (%" PRId64 ", %" PRId64 ") is after commit timestamp (%" PRId64
                    ", %" PRId64 ") (a transaction commits after it starts)", st[0].c.p, st[0].c.l, st[1].c.p, st[1].c.l);
        return 0;
    }
    if (sts != OV_NONE) vec_push(r->stamps, st[0]);
    if (cts != OV_NONE) vec_push(r->stamps, st[1]);
    if (r->rep) r->rep->completions_ok++;
    for (uint32_t e = ot_node(t, ops)->child; e != OV_NONE; e = ot_node(t, e)->next)
        if (!one_op(&c, txn, e)) return 0;
    return 1;
}

/* ---- at the end ----------------------------------------------------------- */

static int cmp_hlc(const void *a, const void *b) { return hlc_cmp(*(const tk_hlc *)a, *(const tk_hlc *)b); }

/* The timestamps as one order-preserving integer each (timekiller.h). */
static void encode_stamps(tk_reader *r) {
    int64_t max_p = 0, max_l = 0;
    vec_foreach(const tk_stamp, s, r->stamps) {
        if (s->c.p > max_p) max_p = s->c.p;
        if (s->c.l > max_l) max_l = s->c.l;
    }
    int bits = 0;
    while (bits < 63 && (max_l >> bits)) bits++;
    tk_hlc *sorted = NULL;
    size_t n = 0;
    if (bits && max_p >> (63 - bits)) {                  /* p and l do not fit in one integer: ranks */
        sorted = xmalloc((r->stamps.len ? r->stamps.len : 1) * sizeof *sorted);
        vec_foreach(const tk_stamp, s, r->stamps) sorted[n++] = s->c;
        qsort(sorted, n, sizeof *sorted, cmp_hlc);
        size_t u = 0;
        for (size_t i = 0; i < n; i++)
            if (!u || hlc_cmp(sorted[u - 1], sorted[i])) sorted[u++] = sorted[i];
        n = u;
        load_report_note(r->rep, "note", "timestamps: (p, l) too wide for one integer; their ranks (0 = oldest of %zu) "
                         "stand for them", n);
    } else if (bits) {
        load_report_note(r->rep, "note", "timestamps: (p, l) written as p * %" PRId64 " + l, which keeps their order",
                         (int64_t)1 << bits);
    }
    vec_foreach(const tk_stamp, s, r->stamps) {
        int64_t v = s->c.p;
        if (sorted) {
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (hlc_cmp(sorted[mid], s->c) < 0) lo = mid + 1; else hi = mid;
            }
            v = (int64_t)lo;
        } else if (bits) v = (s->c.p << bits) | s->c.l;
        hb_txn_time(r->b, s->txn, s->commit ? TIME_DB_COMMIT : TIME_DB_START, v);
    }
    free(sorted);
}

/* Each key is a register or a list, not both: 0 with err set at the op. */
static int use_key(tk_reader *r, u8vec *use, uint32_t key, uint8_t u, const tk_op *op, ic_error *err) {
    while (use->len <= key) vec_push(*use, 0);
    if (!use->data[key]) use->data[key] = u;
    if (use->data[key] == u) return 1;
    ic_error_at(err, r->source, op->line, "key %" PRId64 " is used both as a register (\"w\", a read of a value) and as a "
                "list (\"a\", a read of a list)", op->key);
    return 0;
}

history *tk_finish(tk_reader *r, ic_error *err) {
    int zero_init = r->zero_read && !r->zero_written;
    if (zero_init)
        load_report_note(r->rep, "note", "reads of 0 read the initial value (no transaction writes 0; TimeKiller's "
                         "--initial_value 0)");
    u8vec use = { NULL, 0, 0 };          /* builder key -> 1 register, 2 list */
    vec_u32 nil_reads = { NULL, 0, 0 };         /* pairs (builder op, key) */
    int ok = 1;
    vec_foreach(const tk_op, op, r->ops) {
        uint32_t key = hb_key(r->b, op->key);
        switch (op->kind) {
        case K_READ_NULL:
            vec_push(nil_reads, hb_op(r->b, op->txn, OP_READ, key, VALUE_INIT, op->line));
            vec_push(nil_reads, key);
            break;
        case K_READ:
            ok = use_key(r, &use, key, 1, op, err);
            hb_op(r->b, op->txn, OP_READ, key, zero_init && op->value == 0 ? VALUE_INIT : op->value, op->line);
            break;
        case K_LIST_READ:
            ok = use_key(r, &use, key, 2, op, err);
            hb_list_read(r->b, op->txn, key, op->list_len ? r->elems.data + op->list_off : NULL, op->list_len, op->line);
            break;
        default:
            ok = use_key(r, &use, key, op->kind == K_WRITE ? 1 : 2, op, err);
            hb_op(r->b, op->txn, op->kind == K_WRITE ? OP_WRITE : OP_APPEND, key, op->value, op->line);
        }
        if (!ok) break;
    }
    for (size_t i = 0; ok && i + 1 < nil_reads.len; i += 2)      /* null on a list key reads [] */
        if (nil_reads.data[i + 1] < use.len && use.data[nil_reads.data[i + 1]] == 2)
            hb_op_make_empty_list_read(r->b, nil_reads.data[i]);
    vec_free(use);
    vec_free(nil_reads);
    if (ok) encode_stamps(r);
    history_builder *b = r->b;
    r->b = NULL;
    free_parts(r);
    free(r);
    if (!ok) { hb_free(b); return NULL; }
    return hb_finish(b, err);
}
