/* text_pred.c — predicate lines of the text format, lexed and applied
 * (contract in text_pred.h; the resolution is jepsen_pred.c's). */
#include "frontend/formats/text_pred.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/formats/jepsen_pred.h"
#include "frontend/formats/lex.h"
#include "frontend/history/u64map.h"

/* ---- lexing ----------------------------------------------------------------- */

int text_pred_starts(const char *p) {
    return ((p[0] == 'r' || p[0] == 'u') && p[1] == 'p' && p[2] == '(') || !strncmp(p, "init(", 5);
}

void tpl_free(text_pred_line *l) { vec_free(l->pairs); }

typedef struct lx { const char *p; const char *name; long line; ic_error *err; } lx;

static int bad(lx *x, const char *want) {
    char fb[48];
    ic_error_at(x->err, x->name, x->line, "expected %s, found %s", want, lex_found(x->p, fb, sizeof fb));
    return 0;
}

static int ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

static int is_word(const char *p, const char *w) {
    size_t n = strlen(w);
    return !strncmp(p, w, n) && !ident_char(p[n]);
}

/* A name (the predicate's variable): letters, digits, '_', not a digit first. */
static int name(lx *x) {
    lex_space(&x->p);
    if (!ident_char(*x->p) || (*x->p >= '0' && *x->p <= '9')) return 0;
    while (ident_char(*x->p)) x->p++;
    lex_space(&x->p);
    return 1;
}

static int sym(lx *x, const char *s) {
    lex_space(&x->p);
    size_t n = strlen(s);
    if (strncmp(x->p, s, n)) return 0;
    x->p += n;
    lex_space(&x->p);
    return 1;
}

static int int64_at(lx *x, int64_t *v, int sign_ok, const char *what) {
    lex_space(&x->p);
    int rc = sign_ok ? lex_i64(&x->p, v) : lex_digits_i64(&x->p, v);
    if (rc == 1) return 1;
    if (rc < 0) { ic_error_at(x->err, x->name, x->line, "%s out of range (a 64-bit integer)", what); return 0; }
    return bad(x, what);
}

#define PRED_WANT "a predicate (true, c < N, c <= N, c > N, c >= N, c = N, c != N, N <= c <= N, c mod M = R)"

static int predicate_at(lx *x, predicate *p) {
    static const char *const ops[] = { "<=", ">=", "!=", "<", ">", "=" };
    static const pred_kind kinds[] = { PRED_LE, PRED_GE, PRED_NE, PRED_LT, PRED_GT, PRED_EQ };
    memset(p, 0, sizeof *p);
    lex_space(&x->p);
    if (is_word(x->p, "true")) { x->p += 4; p->kind = PRED_TRUE; return 1; }
    if (*x->p == '-' || (*x->p >= '0' && *x->p <= '9')) {          /* N <= c <= N */
        if (!int64_at(x, &p->a, 1, "a 64-bit integer") || !sym(x, "<=") || !name(x) || !sym(x, "<=")) return bad(x, PRED_WANT);
        p->kind = PRED_RANGE;
        return int64_at(x, &p->b, 1, "a 64-bit integer");
    }
    if (!name(x)) return bad(x, PRED_WANT);
    if (is_word(x->p, "mod")) {
        x->p += 3;
        if (!int64_at(x, &p->a, 1, "the modulus (a 64-bit integer)")) return 0;
        if (!p->a) { ic_error_at(x->err, x->name, x->line, "expected a modulus other than 0, found 0"); return 0; }
        if (!sym(x, "=")) return bad(x, "'=' after the modulus");
        p->kind = PRED_MOD;
        return int64_at(x, &p->b, 1, "the remainder (a 64-bit integer)");
    }
    for (int i = 0; i < 6; i++)
        if (sym(x, ops[i])) { p->kind = (uint8_t)kinds[i]; return int64_at(x, &p->a, 1, "a 64-bit integer"); }
    return bad(x, PRED_WANT);
}

/* An optional `key in A..B and ` before the predicate. */
static int keys_at(lx *x, text_pred_line *l) {
    l->keyed = 0;
    lex_space(&x->p);
    if (!is_word(x->p, "key")) return 1;
    const char *save = x->p;
    x->p += 3;
    lex_space(&x->p);
    if (!is_word(x->p, "in")) { x->p = save; return 1; }                 /* `key` is the value's name */
    x->p += 2;
    l->keyed = 1;
    if (!int64_at(x, &l->klo, 1, "the first key of the range (key in A..B)")) return 0;
    if (!sym(x, "..")) return bad(x, "'..' in the key range (key in A..B)");
    if (!int64_at(x, &l->khi, 1, "the last key of the range (key in A..B)")) return 0;
    if (l->klo > l->khi) {
        ic_error_at(x->err, x->name, x->line, "expected a key range A..B with A <= B, found %" PRId64 "..%" PRId64,
                    l->klo, l->khi);
        return 0;
    }
    lex_space(&x->p);
    if (!is_word(x->p, "and")) return bad(x, "'and' and the predicate after the key range");
    x->p += 3;
    return 1;
}

/* {K:V, ...} (update: K:OLD->NEW). */
static int result_at(lx *x, text_pred_line *l) {
    int upd = l->kind == TPL_UPDATE;
    if (!sym(x, "{")) return bad(x, upd ? "'{' (the matched keys: {K:OLD->NEW, ...})" : "'{' (the result set: {K:V, ...})");
    if (sym(x, "}")) return 1;
    for (;;) {
        tpl_pair pr = { 0, 0, 0 };
        if (!int64_at(x, &pr.key, 0, "a key (digits 0-9, no sign)")) return 0;
        if (!sym(x, ":")) return bad(x, "':' after the key");
        if (!int64_at(x, &pr.old, 0, "a value (digits 0-9, no sign)")) return 0;
        if (upd && !sym(x, "->")) return bad(x, "'->' and the new value (K:OLD->NEW)");
        if (upd && !int64_at(x, &pr.now, 0, "a new value (digits 0-9, no sign)")) return 0;
        vec_push(l->pairs, pr);
        if (sym(x, "}")) return 1;
        if (!sym(x, ",")) return bad(x, "',' or '}' in the result set");
    }
}

int text_pred_lex(const char *p, size_t len, text_pred_line *l, const char *name_, long line, ic_error *err) {
    char small[512];
    char *buf = len < sizeof small ? small : xmalloc(len + 1);
    memcpy(buf, p, len);
    buf[len] = 0;
    lx x = { buf, name_, line, err };
    vec_clear(l->pairs);
    int ok = 0;
    lex_space(&x.p);
    if (!strncmp(x.p, "init(", 5)) {
        l->kind = TPL_INIT;
        x.p += 5;
        ok = int64_at(&x, &l->key, 0, "a key (digits 0-9, no sign)") && (sym(&x, ",") || bad(&x, "',' after the key")) &&
             int64_at(&x, &l->value, 1, "the initial value (a 64-bit integer)");
    } else {
        l->kind = x.p[0] == 'u' ? TPL_UPDATE : TPL_READ;
        x.p += 3;
        ok = keys_at(&x, l) && predicate_at(&x, &l->p) && (sym(&x, ",") || bad(&x, "',' after the predicate")) && result_at(&x, l) &&
             (sym(&x, ",") || bad(&x, "',' after the result set")) &&
             int64_at(&x, &l->sess, 0, "session id (digits 0-9, no sign)") && (sym(&x, ",") || bad(&x, "',' after the session id")) &&
             int64_at(&x, &l->txn, 0, "transaction id (digits 0-9, no sign)");
    }
    ok = ok && (sym(&x, ")") || bad(&x, "')'")) && (!*x.p || bad(&x, "end of line after ')'"));
    if (buf != small) free(buf);
    return ok;
}

/* ---- applying ----------------------------------------------------------------- */

enum { TS_SEEN = 1, TS_PRED = 2 };

struct text_pred {
    jp_state *jp;
    VEC(uint8_t) ts;         /* per builder txn: TS_SEEN, TS_PRED */
    uint32_t cur;            /* the transaction of the current run of lines */
    int fresh;               /* the run began at that transaction's first line */
    vec_u32 cur_w;           /* keys the run wrote (each once) */
    vec_u32 cur_reads;       /* predicate reads of the run */
    u64map returned;         /* read << 32 | key: the read returned the key */
    u64map init_keys;        /* keys with an init line */
};

/* A new run of lines when t is not the current one's transaction. */
static int switch_to(text_pred *tp, uint32_t t, int64_t ext, const char *name, long line, ic_error *err) {
    if (t == tp->cur) return 1;
    while (tp->ts.len <= t) vec_push(tp->ts, 0);
    if (tp->ts.data[t] & TS_PRED) {
        ic_error_at(err, name, line, "transaction %" PRId64 " has a predicate read, so its lines must be together; "
                    "another transaction's line came between", ext);
        return 0;
    }
    jp_begin_txn(tp->jp);
    tp->cur = t;
    tp->fresh = !(tp->ts.data[t] & TS_SEEN);
    tp->ts.data[t] |= TS_SEEN;
    vec_clear(tp->cur_w);
    vec_clear(tp->cur_reads);
    return 1;
}

static int written(const text_pred *tp, uint32_t key) {
    for (size_t i = 0; i < tp->cur_w.len; i++)
        if (tp->cur_w.data[i] == key) return 1;
    return 0;
}

static int was_returned(const text_pred *tp, uint32_t r, uint32_t key) {
    return u64map_get(&tp->returned, (uint64_t)r << 32 | key) != UINT32_MAX;
}

text_pred *tp_new(const history_builder *b) {
    text_pred *tp = xcalloc(1, sizeof *tp);
    tp->jp = jp_new();
    jp_activate(tp->jp);
    tp->cur = HISTORY_NONE;
    u64map_init(&tp->returned);
    u64map_init(&tp->init_keys);
    uint32_t n = hb_num_ops(b);
    for (uint32_t i = 0; i < n; i++) {            /* the ops before the first predicate line */
        uint32_t t, key, line;
        unsigned kind;
        int64_t v;
        hb_op_get(b, i, &t, &kind, &key, &v, &line);
        switch_to(tp, t, 0, NULL, 0, NULL);       /* no transaction has a predicate read yet */
        if ((kind & OP_KIND_MASK) == OP_READ) jp_item_read(tp->jp, key, v, t);
        else {
            jp_version(tp->jp, key, v, t, (uint8_t)hb_txn_status_of(b, t), 0, line);
            if (!written(tp, key)) vec_push(tp->cur_w, key);
        }
    }
    return tp;
}

void tp_free(text_pred *tp) {
    if (!tp) return;
    jp_free(tp->jp);
    vec_free(tp->ts); vec_free(tp->cur_w); vec_free(tp->cur_reads);
    u64map_free(&tp->returned);
    u64map_free(&tp->init_keys);
    free(tp);
}

int tp_init(text_pred *tp, const history_builder *b, uint32_t key, int64_t value, const char *name, long line,
            ic_error *err) {
    if (hb_num_ops(b) || hb_num_txns(b)) {
        ic_error_at(err, name, line, "init lines come before every operation of the file");
        return 0;
    }
    if (u64map_get(&tp->init_keys, key) != UINT32_MAX || !jp_init(tp->jp, key, value)) {
        ic_error_at(err, name, line, "a second init line for this key");
        return 0;
    }
    u64map_put(&tp->init_keys, key, 1);
    return 1;
}

/* A write of the current run's transaction t: placeholders for the run's
 * predicate reads that did not return key (its first write in the run),
 * then the write and its version. */
static int write_op(text_pred *tp, history_builder *b, uint32_t t, uint32_t key, int64_t value, const char *name,
                    long line, ic_error *err) {
    if (value != VALUE_INIT && jp_read_value(tp->jp, key, value) == VALUE_INIT) {
        ic_error_at(err, name, line, "this write's value is the key's initial value (its init line): a value is "
                    "written once");
        return 0;
    }
    if (!written(tp, key)) {
        for (size_t i = 0; i < tp->cur_reads.len; i++)
            if (!was_returned(tp, tp->cur_reads.data[i], key))
                jp_own(tp->jp, tp->cur_reads.data[i], key, hb_op(b, t, OP_READ, key, VALUE_INIT, (uint32_t)line));
        vec_push(tp->cur_w, key);
    }
    hb_op(b, t, OP_WRITE, key, value, (uint32_t)line);
    jp_version(tp->jp, key, value, t, TXN_COMMITTED, 0, (uint32_t)line);
    return 1;
}

int tp_op(text_pred *tp, history_builder *b, uint32_t t, int64_t ext, unsigned kind, uint32_t key, int64_t value,
          const char *name, long line, ic_error *err) {
    if (!switch_to(tp, t, ext, name, line, err)) return 0;
    if (kind == OP_WRITE) return write_op(tp, b, t, key, value, name, line, err);
    hb_op(b, t, OP_READ, key, jp_item_read(tp->jp, key, value, t), (uint32_t)line);
    return 1;
}

void tp_aborted(text_pred *tp, uint32_t t, uint32_t key, int64_t value, long line) {
    switch_to(tp, t, 0, NULL, 0, NULL);           /* a new transaction: never one with a predicate read */
    jp_version(tp->jp, key, value, t, TXN_ABORTED, 0, (uint32_t)line);
}

int tp_pred_line(text_pred *tp, history_builder *b, uint32_t t, const text_pred_line *l, const char *name, long line,
                 ic_error *err) {
    if (!switch_to(tp, t, l->txn, name, line, err)) return 0;
    if (!tp->fresh) {
        ic_error_at(err, name, line, "transaction %" PRId64 " has a predicate read, so its lines must be together; "
                    "another transaction's line came between its earlier lines and this one", l->txn);
        return 0;
    }
    tp->ts.data[t] |= TS_PRED;
    uint32_t r = jp_read(tp->jp, &l->p, t, (uint32_t)line);
    jp_read_pos(tp->jp, r, hb_txn_num_ops(b, t));
    if (l->keyed) jp_read_keys(tp->jp, r, l->klo, l->khi);
    vec_push(tp->cur_reads, r);
    for (size_t i = 0; i < l->pairs.len; i++) {
        const tpl_pair *pr = &l->pairs.data[i];
        uint32_t key = hb_key(b, pr->key);
        if (u64map_get(&tp->returned, (uint64_t)r << 32 | key) != UINT32_MAX) {
            ic_error_at(err, name, line, "key %" PRId64 " appears twice in the result set", pr->key);
            return 0;
        }
        u64map_put(&tp->returned, (uint64_t)r << 32 | key, 1);
        int64_t v = pr->old ? jp_read_value(tp->jp, key, pr->old) : VALUE_INIT;
        jp_returned(tp->jp, r, key, v, hb_op(b, t, OP_READ, key, v, (uint32_t)line));
    }
    for (size_t i = 0; i < tp->cur_w.len; i++)      /* keys the transaction wrote before the read */
        if (!was_returned(tp, r, tp->cur_w.data[i]))
            jp_own(tp->jp, r, tp->cur_w.data[i], hb_op(b, t, OP_READ, tp->cur_w.data[i], VALUE_INIT, (uint32_t)line));
    if (l->kind != TPL_UPDATE) return 1;
    for (size_t i = 0; i < l->pairs.len; i++) {
        const tpl_pair *pr = &l->pairs.data[i];
        if (!pr->now) {
            ic_error_at(err, name, line, "value 0 is the initial value and cannot be written (key %" PRId64 "'s new "
                        "value)", pr->key);
            return 0;
        }
        if (!write_op(tp, b, t, hb_key(b, pr->key), pr->now, name, line, err)) return 0;
    }
    return 1;
}

int tp_finish(text_pred *tp, history_builder *b, const uint32_t *init_keys, size_t n_init, const char *name,
              ic_error *err) {
    for (size_t i = 0; i < n_init; i++)
        if (u64map_get(&tp->init_keys, init_keys[i]) == UINT32_MAX) {
            u64map_put(&tp->init_keys, init_keys[i], 1);
            jp_init(tp->jp, init_keys[i], 0);
        } else {
            ic_error_at(err, name, 0, "a key written by the initial-state transaction also has an init line");
            return 0;
        }
    return jp_finish(tp->jp, b, NULL, hb_num_keys(b), name, err);
}
