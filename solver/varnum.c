/* varnum.c — order-keeping numbering of named variables (see varnum.h).
 * Indices bounded by a multiple of the literal count are marked in a
 * bitmap (linear time, memory bounded by the literals); then either the
 * numbering is kept or a rank table renumbers.  Larger indices are sorted
 * instead. */
#include "solver/varnum.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t var_of(int lit) { return lit < 0 ? (uint32_t)-lit : (uint32_t)lit; }

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Position of v in sorted[0..n) (v is there). */
static uint32_t rank_of(const uint32_t *sorted, size_t n, uint32_t v) {
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= v) lo = mid; else hi = mid;
    }
    return (uint32_t)lo;
}

static size_t sparse(varnum_span *spans, size_t nspans, size_t total, vec_int *names) {
    uint32_t *all = xmalloc((total + 1) * sizeof *all);
    size_t n = 0;
    for (size_t s = 0; s < nspans; s++)
        for (size_t i = 0; i < spans[s].len; i++)
            if (spans[s].data[i]) all[n++] = var_of(spans[s].data[i]);
    if (n > 1) qsort(all, n, sizeof *all, cmp_u32);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || all[i] != all[u - 1]) all[u++] = all[i];
    vec_resize(*names, u + 1);
    names->data[0] = 0;
    for (size_t i = 0; i < u; i++) names->data[i + 1] = (int)all[i];
    for (size_t s = 0; s < nspans; s++)
        for (size_t i = 0; i < spans[s].len; i++) {
            int l = spans[s].data[i];
            if (!l) continue;
            int v = (int)rank_of(all, u, var_of(l)) + 1;
            spans[s].data[i] = l < 0 ? -v : v;
        }
    free(all);
    return u;
}

void varnum_mark_grow(varnum_marks *m, uint32_t v, size_t literals) {
    if (m->gave_up) return;
    if ((size_t)v > 8 * literals + ((size_t)1 << 20)) {       /* too sparse for a bitmap */
        m->gave_up = 1;
        return;
    }
    size_t words = m->words ? 2 * m->words : 1024;
    if (words <= v >> 6) words = (v >> 6) + 1;
    m->bits = xrealloc(m->bits, words * sizeof *m->bits);
    memset(m->bits + m->words, 0, (words - m->words) * sizeof *m->bits);
    m->words = words;
    m->bits[v >> 6] |= (uint64_t)1 << (v & 63);
}

void varnum_marks_free(varnum_marks *m) {
    free(m->bits);
    memset(m, 0, sizeof *m);
}

size_t varnum_renumber(varnum_span *spans, size_t nspans, int max_var, varnum_marks *marks, vec_int *names) {
    size_t total = 0;
    for (size_t s = 0; s < nspans; s++) total += spans[s].len;
    vec_clear(*names);
    if (max_var < 0) max_var = 0;
    if ((size_t)max_var > 4 * total + 65536) return sparse(spans, nspans, total, names);

    size_t words = (size_t)max_var / 64 + 1, first = 0;
    uint64_t *named;
    if (marks && !marks->gave_up && marks->bits) {   /* spans[0] is marked already */
        named = marks->bits;
        if (marks->words < words) {
            named = xrealloc(named, words * sizeof *named);
            memset(named + marks->words, 0, (words - marks->words) * sizeof *named);
        }
        marks->bits = NULL;
        marks->words = 0;
        first = 1;
    } else {
        named = xcalloc(words, sizeof *named);
    }
    for (size_t s = first; s < nspans; s++) {
        const int *d = spans[s].data;
        for (size_t i = 0, n = spans[s].len; i < n; i++) {
            uint32_t v = var_of(d[i]);
            named[v >> 6] |= (uint64_t)1 << (v & 63);
        }
    }
    named[0] &= ~(uint64_t)1;                      /* 0 ends clauses: no variable */
    size_t count = 0;
    for (size_t w = 0; w < words; w++) count += (size_t)__builtin_popcountll(named[w]);
    if ((size_t)max_var <= 2 * count + 1024) {     /* dense: keep the file's numbering */
        vec_resize(*names, (size_t)max_var + 1);
        for (size_t v = 0; v <= (size_t)max_var; v++) names->data[v] = (named[v >> 6] >> (v & 63) & 1) ? (int)v : 0;
        free(named);
        return count;
    }
    vec_resize(*names, count + 1);
    names->data[0] = 0;
    uint32_t *rank = xmalloc(((size_t)max_var + 1) * sizeof *rank);
    uint32_t next = 0;
    for (size_t v = 0; v <= (size_t)max_var; v++) {
        if (named[v >> 6] >> (v & 63) & 1) {
            rank[v] = ++next;
            names->data[next] = (int)v;
        } else {
            rank[v] = 0;
        }
    }
    free(named);
    for (size_t s = 0; s < nspans; s++) {
        int *d = spans[s].data;
        for (size_t i = 0, n = spans[s].len; i < n; i++) {
            int l = d[i];
            int v = (int)rank[var_of(l)];
            d[i] = l < 0 ? -v : v;
        }
    }
    free(rank);
    return count;
}
