/* strtab.h — interned strings: each distinct byte string gets a dense id
 * 0, 1, 2, ... (first come, first numbered); the text stays in one pool.
 * Used by the Jepsen readers for written forms of keys, values and
 * processes that are not 64-bit integers. */
#ifndef ISOCHECK_STRTAB_H
#define ISOCHECK_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

typedef struct strtab {
    vec_char pool;           /* NUL-terminated texts */
    vec_u32 off, len;        /* per id */
    uint32_t *slots;         /* open addressing over ids, UINT32_MAX = empty */
    size_t cap;
} strtab;

void strtab_init(strtab *t);
void strtab_free(strtab *t);
/* The id of s (added if new); *added (may be NULL) tells which. */
uint32_t strtab_intern(strtab *t, const char *s, size_t len, int *added);
static inline const char *strtab_text(const strtab *t, uint32_t id) { return t->pool.data + t->off.data[id]; }
static inline size_t strtab_len(const strtab *t, uint32_t id) { return t->len.data[id]; }

#endif
