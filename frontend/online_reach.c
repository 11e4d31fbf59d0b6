/* online_reach.c — reachability summaries of the online check (contract
 * in online_reach.h).
 *
 * One row of `stride` 32-bit entries per node (stride: a multiple of
 * ANC_STEP, widened as chains are given out). */
#include "frontend/online_reach.h"

#include <string.h>

#include "vec.h"

#define ANC_STEP 16                     /* the rows grow by this many chains at a time */
#define ANC_MAX 128                     /* sessions with a chain; later ones: none */

struct online_reach {
    vec_u32 anc;             /* nodes x stride */
    uint32_t stride;         /* chains per row (a multiple of ANC_STEP) */
    uint32_t chains;         /* chains given out */
    uint32_t nodes;
};

online_reach *reach_new(void) {
    online_reach *r = xcalloc(1, sizeof *r);
    r->stride = ANC_STEP;
    for (int c = 0; c < ANC_STEP; c++) vec_push(r->anc, 0u);   /* INIT: no ancestor */
    r->nodes = 1;
    return r;
}

void reach_free(online_reach *r) {
    if (!r) return;
    vec_free(r->anc);
    free(r);
}

uint32_t reach_chains(const online_reach *r) { return r->chains; }

uint32_t reach_new_chain(online_reach *r) {
    if (r->chains == ANC_MAX) return REACH_NONE;
    if (r->chains == r->stride) {
        /* one more chain than the rows hold: widen every row (sessions
         * mostly appear early, while the rows are few) */
        uint32_t old = r->stride, wide = old + ANC_STEP;
        size_t rows = r->anc.len / old;
        vec_resize(r->anc, rows * wide);
        for (size_t i = rows; i-- > 0;) {
            memmove(r->anc.data + i * wide, r->anc.data + i * old, old * sizeof *r->anc.data);
            memset(r->anc.data + i * wide + old, 0, ANC_STEP * sizeof *r->anc.data);
        }
        r->stride = wide;
    }
    return r->chains++;
}

/* row = max(row, pr) per chain; distinct rows, W a multiple of ANC_STEP:
 * blocks of a known length, which the compiler vectorizes. */
static void row_max(uint32_t *restrict row, const uint32_t *restrict pr, uint32_t W) {
    for (uint32_t c = 0; c < W; c += ANC_STEP)
        for (uint32_t k = 0; k < ANC_STEP; k++) row[c + k] = pr[c + k] > row[c + k] ? pr[c + k] : row[c + k];
}

uint32_t reach_add_node(online_reach *r, uint32_t sess, uint32_t chain, uint32_t seq, uint32_t prev,
                        const uint32_t *src, size_t nsrc) {
    (void)sess;
    uint32_t g = r->nodes++, W = r->stride;
    vec_resize(r->anc, (size_t)(g + 1) * W);
    uint32_t *row = r->anc.data + (size_t)g * W;
    if (prev != REACH_NONE) memcpy(row, r->anc.data + (size_t)prev * W, W * sizeof *row);
    else memset(row, 0, W * sizeof *row);
    for (size_t i = 0; i < nsrc; i++) {
        if (src[i] == 0) continue;
        size_t j = 0;
        while (j < i && src[j] != src[i]) j++;
        if (j < i) continue;                          /* merged already */
        row_max(row, r->anc.data + (size_t)src[i] * W, W);
    }
    if (seq && chain != REACH_NONE && seq > row[chain]) row[chain] = seq;
    return g;
}

uint32_t reach_get(const online_reach *r, uint32_t d, uint32_t c) {
    return r->anc.data[(size_t)d * r->stride + c];
}

void reach_row(const online_reach *r, uint32_t d, uint32_t *out) {
    memcpy(out, r->anc.data + (size_t)d * r->stride, r->chains * sizeof *out);
}
