/* jepsen_keys.h — the keys of a Jepsen/Elle history as jepsen_ops.c reads
 * them: each key's id in the builder, and its use.
 *
 * A key is an integer or a non-integer written form (a keyword, string or
 * big integer, interned here); its builder key is made when a completion
 * first adds it (invocations add no keys).  Its use is register ([:w k v],
 * [:r k v]) or list ([:append k v], [:r k [...]]), fixed by its first
 * use: the other use is bad input, reported at the micro-op's line with
 * the key as written.  Every builder key has a use entry (JK_UNUSED until
 * used).
 *
 * Integer keys 0 <= k < 4 x (keys so far) + 64 (most histories' keys) are
 * also kept in `small`, the builder key and the use in one 4-byte entry:
 * reading a micro-op then looks at one entry, not at the builder's map and
 * at `use` (two cache misses a micro-op on a history of many keys). */
#ifndef ISOCHECK_JEPSEN_KEYS_H
#define ISOCHECK_JEPSEN_KEYS_H

#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/strtab.h"

typedef enum { JK_UNUSED = 0, JK_REGISTER = 1, JK_LIST = 2 } jk_use_kind;

enum { JK_USE_SHIFT = 30 };
#define JK_KEY_MASK ((1u << JK_USE_SHIFT) - 1)

typedef struct jepsen_keys {
    strtab names;            /* written forms of non-integer keys */
    vec_u32 name_id;         /* names id -> builder key (HISTORY_NONE until added) */
    VEC(uint8_t) use;        /* builder key -> jk_use_kind */
    vec_u32 small;           /* integer key -> builder key + 1 | use << JK_USE_SHIFT; 0: not added yet */
} jepsen_keys;

void jk_init(jepsen_keys *k);
void jk_free(jepsen_keys *k);
/* The id of a non-integer key written s[0..n). */
uint32_t jk_name(jepsen_keys *k, const char *s, size_t n);
/* The builder key of an integer key (named 0) or of name id key (named
 * 1), made if new. */
uint32_t jk_key(jepsen_keys *k, history_builder *b, int named, int64_t key);
/* Use builder key `key` as use: 1, or 0 with err set (source:line) when it
 * was used the other way; named/ext: the key as read (for the message). */
int jk_use(jepsen_keys *k, uint32_t key, jk_use_kind use, int named, int64_t ext, const char *source, uint32_t line,
           ic_error *err);
/* The number of builder keys, and whether key is a list. */
static inline uint32_t jk_count(const jepsen_keys *k) { return (uint32_t)k->use.len; }
static inline int jk_is_list(const jepsen_keys *k, uint32_t key) { return key < k->use.len && k->use.data[key] == JK_LIST; }
/* A new array of jk_count(k) + 1 flags (free it): 1 for each list key. */
uint8_t *jk_list_flags(const jepsen_keys *k);

/* Start loading integer key ext's entry of `small` (a completion's keys
 * all at once, before they are used one by one: the misses overlap). */
static inline void jk_prefetch(const jepsen_keys *k, int64_t ext) {
#ifdef __GNUC__
    if ((uint64_t)ext < k->small.len) __builtin_prefetch(&k->small.data[ext]);
#else
    (void)k; (void)ext;
#endif
}

/* jk_key then jk_use for integer key ext, the entry of `small` looked at
 * once: 1 with *key set, or 0 with err set. */
int jk_int_slow(jepsen_keys *k, history_builder *b, int64_t ext, jk_use_kind use, const char *source, uint32_t line,
                ic_error *err, uint32_t *key);
static inline int jk_int_use(jepsen_keys *k, history_builder *b, int64_t ext, jk_use_kind use, const char *source,
                             uint32_t line, ic_error *err, uint32_t *key) {
    if ((uint64_t)ext < k->small.len) {
        uint32_t e = k->small.data[ext];
        if (e >> JK_USE_SHIFT == (uint32_t)use && e) { *key = (e & JK_KEY_MASK) - 1; return 1; }
    }
    return jk_int_slow(k, b, ext, use, source, line, err, key);
}

#endif
