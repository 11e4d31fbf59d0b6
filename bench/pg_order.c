/* pg_order.c — PostgreSQL's commit order from its snapshots (contract in
 * pg_order.h). */
#include "bench/pg_order.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int pg_parse_snapshot(pg_txn *t, const char *text) {
    char *end;
    t->xmin = strtoull(text, &end, 10);
    if (*end != ':') return 0;
    t->xmax = strtoull(end + 1, &end, 10);
    if (*end != ':') return 0;
    const char *p = end + 1;
    size_t cap = 1;
    for (const char *q = p; *q; q++) cap += *q == ',';
    t->xip = malloc(cap * sizeof *t->xip);
    t->nxip = 0;
    if (!t->xip) return 0;
    while (*p) {
        t->xip[t->nxip++] = strtoull(p, &end, 10);
        if (end == p || (*end && *end != ',')) return 0;
        p = *end ? end + 1 : end;
    }
    qsort(t->xip, t->nxip, sizeof *t->xip, cmp_u64);
    return t->xmin <= t->xmax;
}

/* Does a's snapshot see b? */
static int sees(const pg_txn *a, const pg_txn *b) {
    if (a == b || b->xid >= a->xmax) return 0;
    return b->xid < a->xmin || !bsearch(&b->xid, a->xip, a->nxip, sizeof *a->xip, cmp_u64);
}

typedef struct key { size_t first_view; int64_t ts; uint64_t xid; size_t i; } key;

static int cmp_key(const void *a, const void *b) {
    const key *x = a, *y = b;
    if (x->first_view != y->first_view) return x->first_view < y->first_view ? -1 : 1;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->xid < y->xid ? -1 : x->xid > y->xid;
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int pg_order_recover(pg_txn *t, size_t n, size_t *order, pg_order_stats *st, char *err, size_t cap) {
    size_t *seen = calloc(n + 1, sizeof *seen), *pos = malloc((n + 1) * sizeof *pos);
    long *last = malloc((n + 1) * sizeof *last);
    key *k = malloc((n + 1) * sizeof *k);
    int ok = seen && pos && last && k;
    if (!ok) snprintf(err, cap, "out of memory");
    memset(st, 0, sizeof *st);
    /* How many transactions each snapshot sees: the snapshots' place in the chain. */
    for (size_t a = 0; ok && a < n; a++)
        for (size_t b = 0; b < n; b++) seen[a] += (size_t)sees(&t[a], &t[b]);
    for (size_t b = 0; ok && b < n; b++) {
        k[b] = (key){ SIZE_MAX, t[b].commit_us, t[b].xid, b };
        for (size_t a = 0; a < n; a++)
            if (seen[a] < k[b].first_view && sees(&t[a], &t[b])) k[b].first_view = seen[a];
    }
    if (ok) {
        qsort(k, n, sizeof *k, cmp_key);
        for (size_t i = 0; i < n; i++) { order[i] = k[i].i; pos[k[i].i] = i; }
    }
    for (size_t a = 0; ok && a < n; a++) {
        last[a] = -1;
        for (size_t b = 0; b < n; b++)
            if (sees(&t[a], &t[b]) && (long)pos[b] > last[a]) last[a] = (long)pos[b];
    }
    /* X visible to T iff X's place <= the last place T's snapshot sees. */
    for (size_t a = 0; ok && a < n; a++) {
        if (last[a] >= (long)pos[a]) {
            snprintf(err, cap, "txn %" PRId64 "'s snapshot comes after its own commit", t[a].id);
            ok = 0;
        }
        for (size_t b = 0; ok && b < n; b++)
            if (b != a && sees(&t[a], &t[b]) != ((long)pos[b] <= last[a])) {
                const pg_txn *x = &t[order[last[a]]];
                snprintf(err, cap, "the snapshots are not nested: txn %" PRId64 " (xid %" PRIu64 ") sees txn %" PRId64
                         " (xid %" PRIu64 ") but not txn %" PRId64 " (xid %" PRIu64 "), which other snapshots see first",
                         t[a].id, t[a].xid, x->id, x->xid, t[b].id, t[b].xid);
                ok = 0;
            }
    }
    for (size_t a = 0; ok && a < n; a++) {
        t[a].commit = 2 * ((int64_t)pos[a] + 1);
        t[a].start = last[a] < 0 ? 0 : 2 * ((int64_t)last[a] + 1);
    }
    if (ok) {                    /* statistics: distinct views, commit timestamps against the order */
        memcpy(pos, seen, n * sizeof *pos);
        qsort(pos, n, sizeof *pos, cmp_size);
        for (size_t i = 0; i < n; i++) st->views += i == 0 || pos[i] != pos[i - 1];
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                if (k[i].ts == PG_NO_TIMESTAMP) continue;
                st->ts_ties += k[i].ts == k[j].ts;
                st->ts_against += k[i].first_view < k[j].first_view && k[i].ts > k[j].ts;
            }
    }
    free(seen);
    free(pos);
    free(last);
    free(k);
    return ok;
}
