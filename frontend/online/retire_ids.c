/* frontend/online/retire_ids.c — the retired ids as runs of consecutive
 * ids (contract in frontend/online/retire_ids.h). */
#include "frontend/online/retire_ids.h"

#include <stdlib.h>

void retire_ids_init(retire_ids *s) { vec_init(s->runs); }

void retire_ids_free(retire_ids *s) { vec_free(s->runs); }

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Append run r to out, joining it to the last run when they touch. */
static void put(retire_run **out, size_t *len, retire_run r) {
    if (*len) {
        retire_run *last = &(*out)[*len - 1];
        if (r.lo <= last->hi || r.lo - 1 == last->hi) {        /* (r.lo > last->lo: no overflow) */
            if (r.hi > last->hi) last->hi = r.hi;
            return;
        }
    }
    (*out)[(*len)++] = r;
}

void retire_ids_add(retire_ids *s, int64_t *ids, size_t n) {
    if (!n) return;
    qsort(ids, n, sizeof *ids, cmp_i64);
    size_t cap = s->runs.len + n, len = 0, i = 0, j = 0;
    retire_run *out = xmalloc(cap * sizeof *out);
    while (i < s->runs.len || j < n) {
        retire_run r;
        if (j == n || (i < s->runs.len && s->runs.data[i].lo <= ids[j])) r = s->runs.data[i++];
        else { r.lo = r.hi = ids[j++]; }
        put(&out, &len, r);
    }
    free(s->runs.data);
    s->runs.data = out;
    s->runs.len = len;
    s->runs.cap = cap;
    if (cap > 2 * len + 64) vec_fit(s->runs);
}

int retire_ids_has(const retire_ids *s, int64_t id) {
    size_t lo = 0, hi = s->runs.len;           /* the first run with hi >= id */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->runs.data[mid].hi < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->runs.len && s->runs.data[lo].lo <= id;
}
