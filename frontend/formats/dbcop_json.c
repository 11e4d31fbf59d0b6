/* dbcop_json.c — dbcop's JSON histories (see dbcop_json.h).  The events
 * are kept until the end: whether a read of 0 reads the initial value
 * depends on whether any transaction writes 0 to its key. */
#include "frontend/formats/dbcop_json.h"

#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"

typedef struct dj_op { uint32_t txn, line; uint8_t write, null; int64_t key, value; } dj_op;

struct dj_reader {
    history_builder *b;
    load_report *rep;
    const char *source;
    int64_t next_session, next_txn;
    VEC(dj_op) ops;
};

typedef struct dctx { dj_reader *r; const optree *t; ic_error *err; } dctx;

static uint32_t member(const optree *t, uint32_t m, const char *name) {
    for (uint32_t k = ot_node(t, m)->child; k != OV_NONE; k = ot_node(t, ot_node(t, k)->next)->next)
        if (ot_is_field(t, k, name)) return ot_node(t, k)->next;
    return OV_NONE;
}

int dj_is_history(const optree *t, uint32_t root) {
    const ov_node *n = ot_node(t, root);
    if (n->kind == OV_VECTOR) return 1;
    return n->kind == OV_MAP && member(t, root, "data") != OV_NONE && member(t, root, "type") == OV_NONE;
}

dj_reader *dj_new(const char *source, load_report *rep) {
    dj_reader *r = xcalloc(1, sizeof *r);
    r->b = hb_new(FORMAT_JSON, LOC_LINE, source);
    r->rep = rep;
    r->source = source;
    r->next_session = 1;
    r->next_txn = 1;
    return r;
}

void dj_free(dj_reader *r) {
    if (!r) return;
    hb_free(r->b);
    vec_free(r->ops);
    free(r);
}

static int fail(dctx *c, uint32_t node, const char *expected) {
    char fb[64];
    ic_error_at(c->err, c->r->source, ot_node(c->t, node)->line, "expected %s, found %s", expected,
                ot_render(c->t, node, fb, sizeof fb));
    return 0;
}

/* A variable or version: an integer >= 0 (null allowed where nullable). */
static int number(dctx *c, uint32_t node, int nullable, int64_t *v, uint8_t *null, const char *what) {
    const ov_node *n = ot_node(c->t, node);
    *null = 0;
    if (nullable && n->kind == OV_NIL) { *null = 1; *v = 0; return 1; }
    if (n->kind == OV_INT && n->ival >= 0) { *v = n->ival; return 1; }
    char ex[80];
    snprintf(ex, sizeof ex, "%s (an integer from 0 to 2^63-1%s)", what, nullable ? ", or null" : "");
    return fail(c, node, ex);
}

/* One event: {"Read"|"Write": {"variable": K, "version": V}} or ["r"|"w", K, V]. */
static int event(dctx *c, uint32_t txn, uint32_t node) {
    const optree *t = c->t;
    const ov_node *n = ot_node(t, node);
    dj_op op = { txn, n->line, 0, 0, 0, 0 };
    uint32_t var, ver;
    static const char *const shape = "an event {\"Read\": {\"variable\": K, \"version\": V}}, {\"Write\": ...} or "
                                     "[\"r\"|\"w\", K, V]";
    if (n->kind == OV_MAP && n->count == 2) {
        uint32_t k = n->child, body = ot_node(t, k)->next;
        if (ot_is_field(t, k, "Write")) op.write = 1;
        else if (!ot_is_field(t, k, "Read")) return fail(c, node, shape);
        if (ot_node(t, body)->kind != OV_MAP) return fail(c, body, "{\"variable\": K, \"version\": V}");
        var = member(t, body, "variable");
        ver = member(t, body, "version");
        if (var == OV_NONE || ver == OV_NONE) return fail(c, body, "{\"variable\": K, \"version\": V}");
    } else if (n->kind == OV_VECTOR && n->count == 3) {
        uint32_t tag = n->child;
        if (ot_is_name(t, tag, "w")) op.write = 1;
        else if (!ot_is_name(t, tag, "r")) return fail(c, tag, "\"r\" or \"w\"");
        var = ot_node(t, tag)->next;
        ver = ot_node(t, var)->next;
    } else return fail(c, node, shape);
    uint8_t unused;
    if (!number(c, var, 0, &op.key, &unused, "a variable") ||
        !number(c, ver, !op.write, &op.value, &op.null, "a version"))
        return 0;
    vec_push(c->r->ops, op);
    if (c->r->rep) c->r->rep->records++;
    return 1;
}

static int session(dctx *c, uint32_t node) {
    const optree *t = c->t;
    if (ot_node(t, node)->kind != OV_VECTOR) return fail(c, node, "a session (an array of transactions)");
    uint32_t s = hb_session(c->r->b, c->r->next_session++, NULL);
    for (uint32_t x = ot_node(t, node)->child; x != OV_NONE; x = ot_node(t, x)->next) {
        static const char *const shape = "a transaction {\"events\": [...], \"committed\": true|false}";
        if (ot_node(t, x)->kind != OV_MAP) return fail(c, x, shape);
        uint32_t ev = member(t, x, "events"), cm = member(t, x, "committed");
        if (ev == OV_NONE || cm == OV_NONE) return fail(c, x, shape);
        if (ot_node(t, ev)->kind != OV_VECTOR) return fail(c, ev, "an array of events");
        if (ot_node(t, cm)->kind != OV_BOOL) return fail(c, cm, "true or false (\"committed\")");
        uint32_t txn = hb_txn(c->r->b, s, c->r->next_txn++, ot_node(t, x)->line);
        if (!strcmp(ot_text(t, cm), "false")) hb_txn_status(c->r->b, txn, TXN_ABORTED);
        for (uint32_t e = ot_node(t, ev)->child; e != OV_NONE; e = ot_node(t, e)->next)
            if (!event(c, txn, e)) return 0;
    }
    return 1;
}

int dj_value(dj_reader *r, const optree *t, uint32_t root, ic_error *err) {
    dctx c = { r, t, err };
    if (ot_node(t, root)->kind == OV_VECTOR) return session(&c, root);
    if (ot_node(t, root)->kind != OV_MAP || member(t, root, "data") == OV_NONE)
        return fail(&c, root, "a dbcop session (an array of transactions), as the history's first value is");
    uint32_t data = member(t, root, "data");
    if (ot_node(t, data)->kind != OV_VECTOR) return fail(&c, data, "\"data\": an array of sessions");
    for (uint32_t s = ot_node(t, data)->child; s != OV_NONE; s = ot_node(t, s)->next)
        if (!session(&c, s)) return 0;
    return 1;
}

history *dj_finish(dj_reader *r, ic_error *err) {
    u64map zero_written;                  /* keys some transaction writes 0 to */
    u64map_init(&zero_written);
    vec_foreach(const dj_op, op, r->ops)
        if (op->write && op->value == 0) u64map_put(&zero_written, (uint64_t)op->key, 1);
    vec_foreach(const dj_op, op, r->ops) {
        uint32_t key = hb_key(r->b, op->key);
        int64_t v = op->value;
        if (!op->write && (op->null || (v == 0 && u64map_get(&zero_written, (uint64_t)op->key) == UINT32_MAX)))
            v = VALUE_INIT;
        hb_op(r->b, op->txn, op->write ? OP_WRITE : OP_READ, key, v, op->line);
    }
    u64map_free(&zero_written);
    history_builder *b = r->b;
    r->b = NULL;
    dj_free(r);
    return hb_finish(b, err);
}
