/* index_spill.c — see index_spill.h. */
#include "frontend/checking/index_spill.h"

#include "io/spill.h"

/* The arrays, with their bytes (NULL where absent).  Not the base edges'
 * arrays: pg_index_base_copied frees those during the checks. */
enum { NUM_ARRAYS = 3 };
static void arrays(const pg_index *ix, void **p, size_t *bytes) {
    p[0] = ix->units.data; bytes[0] = ix->units.data ? (ix->units.len + 1) * sizeof *ix->units.data : 0;  /* the sentinel */
    p[1] = ix->members.data; bytes[1] = ix->members.len * sizeof *ix->members.data;
    p[2] = ix->readers.data; bytes[2] = ix->readers.len * sizeof *ix->readers.data;
}

void pg_index_spill(const pg_index *ix) {
    if (!ix || !spill_enabled()) return;
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(ix, p, bytes);
    for (int i = 0; i < NUM_ARRAYS; i++) if (p[i]) (void)spill_block(p[i], bytes[i]);
}

void pg_index_spill_forget(const pg_index *ix) {
    if (!ix) return;
    void *p[NUM_ARRAYS]; size_t bytes[NUM_ARRAYS];
    arrays(ix, p, bytes);
    for (int i = 0; i < NUM_ARRAYS; i++) spill_forget(p[i], bytes[i]);
}
