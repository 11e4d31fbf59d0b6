/* frontend/online/retire_ids.c — the retired ids, in chunks of consecutive
 * ids: a short sorted list, a bitmap, or full (contract in
 * frontend/online/retire_ids.h). */
#include "frontend/online/retire_ids.h"

#include <stdlib.h>
#include <string.h>

void retire_ids_init(retire_ids *s) {
    vec_init(s->chunks);
    u64map_init(&s->index);
    s->bytes = 0;
}

void retire_ids_free(retire_ids *s) {
    vec_foreach(retire_id_chunk, c, s->chunks) { free(c->list); free(c->bits); }
    vec_free(s->chunks);
    u64map_free(&s->index);
    s->bytes = 0;
}

/* The chunk number and the offset of id in it (two's complement order). */
static uint64_t chunk_of(int64_t id) { return ((uint64_t)id ^ (1ULL << 63)) / RETIRE_ID_CHUNK; }
static uint32_t offset_of(int64_t id) { return (uint32_t)(((uint64_t)id ^ (1ULL << 63)) % RETIRE_ID_CHUNK); }

/* The first list position whose offset is >= off. */
static uint32_t list_pos(const retire_id_chunk *c, uint32_t off) {
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->list[mid] < off) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void add_one(retire_ids *s, int64_t id) {
    uint64_t no = chunk_of(id);
    uint32_t off = offset_of(id), i = u64map_get(&s->index, no);
    if (i == UINT32_MAX) {
        i = (uint32_t)s->chunks.len;
        retire_id_chunk z = { NULL, NULL, 0, 0 };
        vec_push(s->chunks, z);
        u64map_put(&s->index, no, i);
    }
    retire_id_chunk *c = &s->chunks.data[i];
    if (c->n == RETIRE_ID_CHUNK) return;
    if (c->bits) {
        uint64_t m = 1ULL << (off % 64);
        if (c->bits[off / 64] & m) return;
        c->bits[off / 64] |= m;
        if (++c->n == RETIRE_ID_CHUNK) { free(c->bits); c->bits = NULL; s->bytes -= RETIRE_ID_CHUNK / 8; }
        return;
    }
    uint32_t at = list_pos(c, off);
    if (at < c->n && c->list[at] == off) return;
    if (c->n == RETIRE_ID_LIST) {                 /* to a bitmap */
        c->bits = xcalloc(RETIRE_ID_CHUNK / 64, sizeof *c->bits);
        for (uint32_t j = 0; j < c->n; j++) c->bits[c->list[j] / 64] |= 1ULL << (c->list[j] % 64);
        c->bits[off / 64] |= 1ULL << (off % 64);
        free(c->list);
        c->list = NULL;
        s->bytes += RETIRE_ID_CHUNK / 8 - (size_t)c->cap * sizeof *c->list;
        c->cap = 0;
        c->n++;
        return;
    }
    if (c->n == c->cap) {
        uint32_t cap = c->cap ? 2 * c->cap : 4;
        if (cap > RETIRE_ID_LIST) cap = RETIRE_ID_LIST;
        c->list = xrealloc(c->list, cap * sizeof *c->list);
        s->bytes += (size_t)(cap - c->cap) * sizeof *c->list;
        c->cap = cap;
    }
    memmove(c->list + at + 1, c->list + at, (c->n - at) * sizeof *c->list);
    c->list[at] = (uint16_t)off;
    c->n++;
}

void retire_ids_add(retire_ids *s, const int64_t *ids, size_t n) {
    for (size_t i = 0; i < n; i++) add_one(s, ids[i]);
}

int retire_ids_has(const retire_ids *s, int64_t id) {
    uint32_t i = u64map_get(&s->index, chunk_of(id)), off = offset_of(id);
    if (i == UINT32_MAX) return 0;
    const retire_id_chunk *c = &s->chunks.data[i];
    if (c->n == RETIRE_ID_CHUNK) return 1;
    if (c->bits) return (c->bits[off / 64] >> (off % 64)) & 1;
    uint32_t at = list_pos(c, off);
    return at < c->n && c->list[at] == off;
}

size_t retire_ids_bytes(const retire_ids *s) {
    return s->bytes + s->chunks.cap * sizeof *s->chunks.data + s->index.cap * sizeof *s->index.slots +
           s->index.dense_cap * sizeof *s->index.dense;
}
