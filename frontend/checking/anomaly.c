/* anomaly.c — the anomaly list: names, summaries, entries (see anomaly.h). */
#include "frontend/checking/anomaly.h"

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

uint32_t anomaly_breaks(anomaly_kind k) {
    switch (k) {
#define ANOMALY_ALLOWED_CASE(kind, allowed) case kind: return ANOMALY_ALL_LEVELS & ~(uint32_t)(allowed);
    ANOMALY_ALLOWED_BY(ANOMALY_ALLOWED_CASE)
#undef ANOMALY_ALLOWED_CASE
    default: return ANOMALY_ALL_LEVELS;
    }
}

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

/* Add txn to a's transactions (a repeat is ignored). */
static void anomaly_add_txn(anomaly *a, uint32_t txn) {
    for (size_t i = 0; i < a->txns.len; i++)
        if (a->txns.data[i] == txn) return;
    vec_push(a->txns, txn);
}

void anomaly_add_op(anomaly *a, const history *h, uint32_t op) {
    vec_push(a->ops, op);
    anomaly_add_txn(a, history_op_txn(h, op));
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
