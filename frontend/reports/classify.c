/* classify.c — the level test and the names of dependency cycles (rules
 * in classify.h). */
#include "frontend/reports/classify.h"

#include <stdio.h>
#include <string.h>

cycle_rule level_cycle_rule(check_level_id level) {
    switch (level_shape_of(level)) {
    case SHAPE_SER: return RULE_ALL;
    case SHAPE_SI: return RULE_NO_ADJ_RW;
    case SHAPE_PSI: return RULE_AT_MOST_ONE_RW;
    default: return RULE_GIVEN;
    }
}

static int rw_adjacent(const dep_edge *c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) return 1;
    return 0;
}

int cycle_violates_rule(const dep_edge *c, size_t n, cycle_rule rule) {
    if (n == 0) return 0;
    size_t rw = 0;
    switch (rule) {
    case RULE_NO_ADJ_RW: return !rw_adjacent(c, n);
    case RULE_AT_MOST_ONE_RW:
        for (size_t i = 0; i < n; i++) rw += c[i].kind == DEP_RW;
        return rw <= 1;
    default: return 1;
    }
}

int cycle_violates(const dep_edge *c, size_t n, int si) { return cycle_violates_rule(c, n, si ? RULE_NO_ADJ_RW : RULE_ALL); }

/* The name of a cycle with exactly one RW or WW edge, the back edge b -> a
 * closing a path a ~> b of SO, WR and RT edges. */
static anomaly_kind one_back_edge(const dep_edge *c, size_t n) {
    size_t b = 0;
    while (c[b].kind != DEP_RW && c[b].kind != DEP_WW) b++;
    int is_rw = c[b].kind == DEP_RW;
    size_t path_so = 0, path_rt = 0, path_len = n - 1;
    const dep_edge *first = &c[(b + 1) % n];
    for (size_t j = 1; j < n; j++) {
        path_so += c[(b + j) % n].kind == DEP_SO;
        path_rt += c[(b + j) % n].kind == DEP_RT;
    }
    if (path_rt) return AN_REAL_TIME;
    if (path_so == path_len) return is_rw ? AN_READ_YOUR_WRITES : AN_MONOTONIC_WRITES;
    if (path_len >= 2 && first->kind == DEP_WR && path_so == path_len - 1)
        return is_rw ? AN_MONOTONIC_READS : AN_WRITES_FOLLOW_READS;
    if (n == 2 && is_rw && first->kind == DEP_WR) return AN_FRACTURED_READ;
    return AN_CAUSALITY;
}

cycle_class classify_cycle_rule(const dep_edge *c, size_t n, cycle_rule rule) {
    cycle_class r;
    memset(&r, 0, sizeof r);
    r.violates = cycle_violates_rule(c, n, rule);
    r.kind = AN_CYCLE;
    size_t cnt[DEP_RT + 1] = { 0 };
    for (size_t i = 0; i < n; i++) if (c[i].kind <= DEP_RT) cnt[c[i].kind]++;
    size_t so = cnt[DEP_SO], wr = cnt[DEP_WR], ww = cnt[DEP_WW], rw = cnt[DEP_RW], rt = cnt[DEP_RT];
    int adj = rw_adjacent(c, n);

    const char *base = rw == 0 ? (wr == 0 ? "G0" : "G1c") : rw == 1 ? "G-single" : adj ? "G2-item" : "G-nonadjacent";
    snprintf(r.adya, sizeof r.adya, "%s%s", base, rt ? "-realtime" : so ? "-process" : "");
    if (n == 0) return r;

    if (rw == 0 && so == 0 && rt == 0) { r.kind = wr == 0 ? AN_G0 : AN_G1C; return r; }
    if (n == 2 && rw == 1 && ww == 1 && c[0].key == c[1].key) { r.kind = AN_LOST_UPDATE; return r; }
    if (rw + ww == 1) { r.kind = one_back_edge(c, n); return r; }
    if (rw == 0) { r.kind = wr == 0 ? AN_G0 : AN_G1C; return r; }     /* G0 / G1c with SO or RT edges */
    if (rw == 1) { r.kind = AN_READ_SKEW; return r; }
    if (rw == 2 && !adj && ww == 0 && rt == 0) { r.kind = AN_LONG_FORK; return r; }
    if (rw == n) { r.kind = AN_WRITE_SKEW; return r; }
    return r;
}

cycle_class classify_cycle(const dep_edge *c, size_t n, int si) {
    return classify_cycle_rule(c, n, si ? RULE_NO_ADJ_RW : RULE_ALL);
}

const char *anomaly_adya(anomaly_kind k) {
    switch (k) {
    case AN_ABORTED_READ: return "G1a";
    case AN_INTERMEDIATE_READ: return "G1b";
    case AN_INT: return "INT";
    default: return NULL;
    }
}
