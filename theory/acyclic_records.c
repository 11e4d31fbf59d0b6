/* acyclic_records.c — which edge ids have a record, and the ends of every
 * edge id (acyclic_edge_ends in acyclic.h; state in acyclic_internal.h). */
#include "theory/acyclic_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bigmem.h"

/* Edge id `id` (above every edge id with a record) gets the next record:
 * its bit, the rank blocks up to its own (those before it count the
 * records so far, its own as well: they all sit below). */
static void mark_record(acyclic *a, int id) {
    size_t k = (size_t)id >> 9;
    if (k >= a->rank_cap) {
        size_t cap = a->rank_cap ? 2 * a->rank_cap : 64;
        if (cap <= k) cap = k + 1;
        BIG_GROW_ZERO(a->rec_bits, 8 * a->rank_cap, 8 * cap);
        a->rec_rank = big_realloc(a->rec_rank, cap * sizeof *a->rec_rank);
        a->rank_cap = cap;
    }
    for (; a->rank_len <= k; a->rank_len++) a->rec_rank[a->rank_len] = (uint32_t)a->num_guarded;
    a->rec_bits[(size_t)id >> 6] |= (uint64_t)1 << (id & 63);
}

/* The records with an edge id below e. */
static int records_below(const acyclic *a, int e) {
    size_t k = (size_t)e >> 9;
    if (k >= a->rank_len) return a->num_guarded;
    uint32_t n = a->rec_rank[k];
    for (size_t w = 8 * k; w < (size_t)e >> 6; w++) n += (uint32_t)__builtin_popcountll(a->rec_bits[w]);
    if (e & 63) n += (uint32_t)__builtin_popcountll(a->rec_bits[(size_t)e >> 6] & (((uint64_t)1 << (e & 63)) - 1));
    return (int)n;
}

static int has_record(const acyclic *a, int e) {
    return ((size_t)e >> 9) < a->rank_len && (a->rec_bits[(size_t)e >> 6] >> (e & 63) & 1);
}

/* A new record (guarded id) for edge id `id`. */
int acyclic_new_record(acyclic *a, int id, int from, int to, int lit) {
    if (a->num_guarded == a->cap_guarded) {
        if (a->num_guarded >= PK_FIXED - 1) xalloc_fail(SIZE_MAX);    /* guarded ids must stay below PK_FIXED */
        a->cap_guarded = a->cap_guarded ? 2 * a->cap_guarded : 64;
        if (a->cap_guarded >= PK_FIXED) a->cap_guarded = PK_FIXED - 1;
        a->e = big_realloc(a->e, (size_t)a->cap_guarded * sizeof *a->e);
    }
    mark_record(a, id);
    int g = a->num_guarded++;
    a->e[g] = (edge){from, to, lit, -1, -1};
    return g;
}


void acyclic_edge_ends(const acyclic *a, int e, int *from, int *to, int *lit) {
    int lo = records_below(a, e);
    if (has_record(a, e)) {
        *from = a->e[lo].from; *to = a->e[lo].to; *lit = a->e[lo].lit;
        return;
    }
    size_t f = (size_t)(e - lo);
    *lit = 0;
    if (f < a->fixed_base) { *from = *to = -1; return; }      /* dropped (theory_keep_ends 0) */
    *from = a->fixed[2 * (f - a->fixed_base)]; *to = a->fixed[2 * (f - a->fixed_base) + 1];
}

