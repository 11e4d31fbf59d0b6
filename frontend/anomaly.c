/* anomaly.c — the anomaly list and its text/JSON output (see anomaly.h). */
#include "frontend/anomaly.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name, *summary; } kinds[] = {
#define ANOMALY_ROW(id, name, summary) { name, summary },
    ANOMALY_KINDS(ANOMALY_ROW)
#undef ANOMALY_ROW
};

const char *anomaly_name(anomaly_kind k) { return (unsigned)k < AN_NUM_KINDS ? kinds[k].name : "?"; }
const char *anomaly_summary(anomaly_kind k) { return (unsigned)k < AN_NUM_KINDS ? kinds[k].summary : "?"; }

void anomaly_list_init(anomaly_list *l) { vec_init(l->items); }

void anomaly_list_free(anomaly_list *l) {
    for (size_t i = 0; i < l->items.len; i++) {    /* not vec_foreach: NULL + 0 upsets clang's UBSan */
        anomaly *a = &l->items.data[i];
        vec_free(a->txns); vec_free(a->ops); free(a->detail);
    }
    vec_free(l->items);
}

anomaly *anomaly_add(anomaly_list *l, anomaly_kind kind) {
    anomaly a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    vec_push(l->items, a);
    return &vec_last(l->items);
}

void anomaly_add_txn(anomaly *a, uint32_t txn) {
    for (size_t i = 0; i < a->txns.len; i++)
        if (a->txns.data[i] == txn) return;
    vec_push(a->txns, txn);
}

void anomaly_add_op(anomaly *a, const history *h, uint32_t op) {
    vec_push(a->ops, op);
    anomaly_add_txn(a, h->op_txn[op]);
}

void anomaly_set_detail(anomaly *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(a->detail);
    a->detail = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(a->detail, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
}

static const char *kind_letter(const history *h, uint32_t op) {
    switch (history_op_kind(h, op)) {
    case OP_READ: return "r";
    case OP_WRITE: return "w";
    case OP_APPEND: return "append";
    case OP_LIST_READ: return "r";
    }
    return "?";
}

/* The op's value as text: a number, "init", or a list "[1 2 3]". */
static void op_value_str(const history *h, uint32_t op, char *buf, size_t n) {
    if (history_op_kind(h, op) == OP_LIST_READ) {
        uint32_t len;
        const int64_t *l = history_list(h, op, &len);
        size_t at = 0;
        at += (size_t)snprintf(buf + at, n - at, "[");
        char eb[64];
        for (uint32_t i = 0; i < len && at + 24 < n; i++)
            at += (size_t)snprintf(buf + at, n - at, i ? " %s" : "%s", history_value_str(h, l[i], eb, sizeof eb));
        if (at + 24 >= n && len) snprintf(buf + at, n - at, " ...]");
        else snprintf(buf + at, n - at, "]");
        return;
    }
    history_value_str(h, h->op_value[op], buf, n);   /* "init", a named value's written form, or the integer */
}

static const char *status_name(uint8_t st) {
    return st == TXN_COMMITTED ? "committed" : st == TXN_ABORTED ? "aborted" : "indeterminate";
}

void anomaly_print_text(FILE *out, const history *h, const anomaly *a) {
    fprintf(out, "FAIL: %s: %s\n", anomaly_name(a->kind), a->detail ? a->detail : anomaly_summary(a->kind));
    for (size_t i = 0; i < a->ops.len; i++) {
        uint32_t op = a->ops.data[i], t = h->op_txn[op];
        char kb[128], vb[256], wb[600], sb[64];
        op_value_str(h, op, vb, sizeof vb);
        history_key_str(h, h->op_key[op], kb, sizeof kb);
        if (t == 0) { fprintf(out, "  %s(%s)=%s  initial state\n", kind_letter(h, op), kb, vb); continue; }
        fprintf(out, "  %s(%s)=%s  txn %" PRId64 " (session %s, %s)  at %s\n", kind_letter(h, op), kb, vb,
                h->txns[t].ext_id, history_value_str(h, h->sessions[h->txns[t].session].ext_id, sb, sizeof sb),
                status_name(h->txns[t].status),
                history_op_where(h, op, wb, sizeof wb));
    }
}

static void json_str(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void anomaly_print_json(FILE *out, const history *h, const anomaly *a) {
    fprintf(out, "{\"anomaly\": ");
    json_str(out, anomaly_name(a->kind));
    fprintf(out, ", \"detail\": ");
    json_str(out, a->detail ? a->detail : anomaly_summary(a->kind));
    fprintf(out, ", \"txns\": [");
    for (size_t i = 0; i < a->txns.len; i++) {
        uint32_t t = a->txns.data[i];
        if (t == 0) { fprintf(out, "%s{\"index\": 0, \"initial\": true}", i ? ", " : ""); continue; }
        fprintf(out, "%s{\"index\": %u, \"id\": %" PRId64 ", \"session\": %" PRId64 ", \"status\": \"%s\"}", i ? ", " : "", t,
                h->txns[t].ext_id, h->sessions[h->txns[t].session].ext_id, status_name(h->txns[t].status));
    }
    fprintf(out, "], \"ops\": [");
    for (size_t i = 0; i < a->ops.len; i++) {
        uint32_t op = a->ops.data[i];
        char kb[128], vb[256], wb[600];
        op_value_str(h, op, vb, sizeof vb);
        history_key_str(h, h->op_key[op], kb, sizeof kb);
        fprintf(out, "%s{\"op\": \"%s\", \"key\": ", i ? ", " : "", kind_letter(h, op));
        json_str(out, kb);
        fprintf(out, ", \"value\": ");
        json_str(out, vb);
        fprintf(out, ", \"txn\": %u, \"where\": ", h->op_txn[op]);
        json_str(out, history_op_where(h, op, wb, sizeof wb));
        fprintf(out, "}");
    }
    fprintf(out, "]}");
}
