/* classify.c — the level test and the names of dependency cycles (rules
 * in classify.h). */
#include "frontend/reports/classify.h"

#include <stdio.h>
#include <string.h>

int cycle_violates(const dep_edge *c, size_t n, int si) {
    if (n == 0) return 0;
    if (!si) return 1;
    for (size_t i = 0; i < n; i++)
        if (c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) return 0;
    return 1;
}

static int rw_adjacent(const dep_edge *c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (c[i].kind == DEP_RW && c[(i + 1) % n].kind == DEP_RW) return 1;
    return 0;
}

cycle_class classify_cycle(const dep_edge *c, size_t n, int si) {
    cycle_class r;
    memset(&r, 0, sizeof r);
    r.violates = cycle_violates(c, n, si);
    r.kind = AN_CYCLE;
    size_t cnt[DEP_FIXED + 1] = { 0 };
    for (size_t i = 0; i < n; i++) if (c[i].kind <= DEP_FIXED) cnt[c[i].kind]++;
    size_t so = cnt[DEP_SO], wr = cnt[DEP_WR], ww = cnt[DEP_WW], rw = cnt[DEP_RW];
    int adj = rw_adjacent(c, n);

    const char *base = rw == 0 ? (wr == 0 ? "G0" : "G1c") : rw == 1 ? "G-single" : adj ? "G2-item" : "G-nonadjacent";
    snprintf(r.adya, sizeof r.adya, "%s%s", base, so ? "-process" : "");
    if (n == 0) return r;

    if (rw == 0 && so == 0) { r.kind = wr == 0 ? AN_G0 : AN_G1C; return r; }
    if (n == 2 && rw == 1 && ww == 1 && c[0].key == c[1].key) { r.kind = AN_LOST_UPDATE; return r; }
    if (rw + ww == 1) {
        size_t b = 0;                       /* the back edge */
        while (c[b].kind != DEP_RW && c[b].kind != DEP_WW) b++;
        int is_rw = c[b].kind == DEP_RW;
        size_t path_so = 0, path_len = n - 1;
        const dep_edge *first = &c[(b + 1) % n];
        for (size_t j = 1; j < n; j++) path_so += c[(b + j) % n].kind == DEP_SO;
        if (path_so == path_len) r.kind = is_rw ? AN_READ_YOUR_WRITES : AN_MONOTONIC_WRITES;
        else if (path_len >= 2 && first->kind == DEP_WR && path_so == path_len - 1)
            r.kind = is_rw ? AN_MONOTONIC_READS : AN_WRITES_FOLLOW_READS;
        else if (n == 2 && is_rw && first->kind == DEP_WR) r.kind = AN_FRACTURED_READ;
        else r.kind = AN_CAUSALITY;
        return r;
    }
    if (rw == 1) { r.kind = AN_READ_SKEW; return r; }
    if (rw == 2 && !adj && ww == 0) { r.kind = AN_LONG_FORK; return r; }
    if (rw == n) { r.kind = AN_WRITE_SKEW; return r; }
    return r;
}

const char *anomaly_adya(anomaly_kind k) {
    switch (k) {
    case AN_ABORTED_READ: return "G1a";
    case AN_INTERMEDIATE_READ: return "G1b";
    case AN_INT: return "INT";
    default: return NULL;
    }
}
