/* frontend/online/kept_model.c — the last model as an incrementally ordered graph
 * (contract in frontend/online/kept_model.h). */
#include "frontend/online/kept_model.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/checking/depgraph.h"

void om_init(online_model *m, int want_si, int want_ser) {
    memset(m, 0, sizeof *m);
    m->on[0] = want_si;
    m->on[1] = want_ser;
    for (int l = 0; l < 2; l++) pk_init(&m->pk[l]);
    vec_push(m->var_head, -1);                       /* variable 0 does not exist */
    vec_push(m->unit, (int8_t)0);
    for (int l = 0; l < 2; l++) vec_push(m->val[l], (int8_t)1);
}

void om_free(online_model *m) {
    for (int l = 0; l < 2; l++) { pk_free(&m->pk[l]); vec_free(m->val[l]); }
    vec_free(m->e); vec_free(m->next); vec_free(m->var_head); vec_free(m->unit);
    memset(m, 0, sizeof *m);
}

void om_add_txn(online_model *m) {
    m->num_txns++;
    for (int l = 0; l < 2; l++)
        if (m->on[l]) pk_add_nodes(&m->pk[l], l == 0 ? 2 : 1);
}

int om_new_var(online_model *m) {
    vec_push(m->var_head, -1);
    vec_push(m->unit, (int8_t)0);
    for (int l = 0; l < 2; l++) vec_push(m->val[l], (int8_t)1);
    return (int)m->var_head.len - 1;
}

static int lit_true(const online_model *m, int l, int lit) {
    if (!lit) return 1;
    int v = lit < 0 ? -lit : lit;
    return (m->val[l].data[v] != 0) == (lit > 0);
}

/* The edge's nodes at level l; 0 if it has none there (SER has no fixed edge). */
static int nodes(const om_edge *e, int l, uint32_t *x, uint32_t *y) {
    if (l == 1 && e->kind == DEP_FIXED) return 0;
    dg_dep_nodes(l == 0, (dep_kind)e->kind, e->a, e->b, x, y);
    return 1;
}

static void enable(online_model *m, int l, int id) {
    om_edge *e = &m->e.data[id];
    uint32_t x, y;
    if (m->stale || !nodes(e, l, &x, &y)) return;
    if (pk_insert(&m->pk[l], (int)x, (int)y, id)) e->on |= (uint8_t)(1u << l);
    else m->stale = 1;                               /* the old choices do not extend: the engine decides */
}

static void disable(online_model *m, int l, int id) {
    om_edge *e = &m->e.data[id];
    uint32_t x, y;
    if (!(e->on & (1u << l)) || !nodes(e, l, &x, &y)) return;
    pk_remove(&m->pk[l], (int)x, (int)y, id);
    e->on &= (uint8_t)~(1u << l);
}

void om_add_edge(online_model *m, int kind, uint32_t a, uint32_t b, int lit) {
    om_edge e = { a, b, lit, (uint8_t)kind, 0 };
    vec_push(m->e, e);
    int id = (int)m->e.len - 1, v = lit < 0 ? -lit : lit;
    vec_push(m->next, lit ? m->var_head.data[v] : -1);
    if (lit) m->var_head.data[v] = id;
    for (int l = 0; l < 2; l++)
        if (m->on[l] && lit_true(m, l, lit)) enable(m, l, id);
}

void om_unit(online_model *m, int lit) {
    int v = lit < 0 ? -lit : lit;
    int8_t sign = lit > 0 ? 1 : -1;
    /* the opposite unit came before: no value satisfies both (a new
     * reader's pruning can fix a pair each way), so no model holds */
    if (m->unit.data[v] == -sign) { m->stale = 1; return; }
    m->unit.data[v] = sign;
    for (int l = 0; l < 2; l++) {
        if (!m->on[l] || lit_true(m, l, lit)) continue;
        m->val[l].data[v] = lit > 0;
        for (int id = m->var_head.data[v]; id >= 0; id = m->next.data[id]) disable(m, l, id);
        for (int id = m->var_head.data[v]; id >= 0; id = m->next.data[id])
            if (lit_true(m, l, m->e.data[id].lit)) enable(m, l, id);
    }
}

int om_reset(online_model *m, gsat *const s[2]) {
    m->stale = 0;
    m->resets++;
    for (int l = 0; l < 2; l++) {
        if (!m->on[l]) continue;
        for (size_t v = 1; v < m->var_head.len; v++) m->val[l].data[v] = gsat_value(s[l], (int)v) > 0;
        /* a topological order of the enabled edges (Kahn), installed as the
         * order, so that every insertion below goes forward */
        int n = (int)(m->num_txns * (l == 0 ? 2 : 1));
        int *indeg = xcalloc((size_t)n + 1, sizeof *indeg), *start = xcalloc((size_t)n + 2, sizeof *start);
        int *head = xmalloc((m->e.len ? m->e.len : 1) * sizeof *head), *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
        for (size_t id = 0; id < m->e.len; id++) {
            uint32_t x, y;
            m->e.data[id].on &= (uint8_t)~(1u << l);
            if (!lit_true(m, l, m->e.data[id].lit) || !nodes(&m->e.data[id], l, &x, &y)) continue;
            start[x + 2]++;
            indeg[y]++;
        }
        for (int v = 0; v < n; v++) start[v + 2] += start[v + 1];
        for (size_t id = 0; id < m->e.len; id++) {
            uint32_t x, y;
            if (!lit_true(m, l, m->e.data[id].lit) || !nodes(&m->e.data[id], l, &x, &y)) continue;
            head[start[x + 1]++] = (int)y;
        }
        int qh = 0, qt = 0;
        for (int v = 0; v < n; v++) if (!indeg[v]) queue[qt++] = v;
        while (qh < qt) {
            int v = queue[qh++];
            for (int j = start[v]; j < start[v + 1]; j++) if (--indeg[head[j]] == 0) queue[qt++] = head[j];
        }
        int ok = qt == n;
        if (ok) {
            pk_free(&m->pk[l]);
            pk_init(&m->pk[l]);
            pk_add_nodes(&m->pk[l], n);
            for (int p = 0; p < n; p++) { m->pk[l].node_at[p] = queue[p]; m->pk[l].ord[queue[p]] = p; }
        }
        free(indeg); free(start); free(head); free(queue);
        if (!ok) { m->stale = 1; return 0; }
        for (size_t id = 0; id < m->e.len; id++)
            if (lit_true(m, l, m->e.data[id].lit)) enable(m, l, (int)id);
        if (m->stale) return 0;
    }
    return 1;
}
