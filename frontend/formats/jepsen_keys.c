/* jepsen_keys.c — see jepsen_keys.h. */
#include "frontend/formats/jepsen_keys.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void jk_init(jepsen_keys *k) {
    memset(k, 0, sizeof *k);
    strtab_init(&k->names);
}

void jk_free(jepsen_keys *k) {
    strtab_free(&k->names);
    vec_free(k->name_id);
    vec_free(k->use);
    vec_free(k->small);
}

uint8_t *jk_list_flags(const jepsen_keys *k) {
    uint8_t *f = xcalloc(k->use.len + 1, 1);
    for (size_t i = 0; i < k->use.len; i++) f[i] = k->use.data[i] == JK_LIST;
    return f;
}

uint32_t jk_name(jepsen_keys *k, const char *s, size_t n) { return strtab_intern(&k->names, s, n, NULL); }

/* The small entry of integer key ext, made room for if ext is in its
 * range (jepsen_keys.h); NULL outside it. */
static uint32_t *small_entry(jepsen_keys *k, int64_t ext) {
    if (ext < 0) return NULL;
    uint64_t x = (uint64_t)ext;
    if (x < k->small.len) return &k->small.data[x];
    if (x >= 4 * (uint64_t)k->use.len + 64) return NULL;
    size_t n = k->small.len ? 2 * k->small.len : 64;
    while (n <= x) n *= 2;
    vec_reserve(k->small, n);
    memset(k->small.data + k->small.len, 0, (n - k->small.len) * sizeof *k->small.data);
    k->small.len = n;
    return &k->small.data[x];
}

uint32_t jk_key(jepsen_keys *k, history_builder *b, int named, int64_t key) {
    uint32_t id;
    if (!named) {
        if ((uint64_t)key < k->small.len && k->small.data[key]) return (k->small.data[key] & JK_KEY_MASK) - 1;
        id = hb_key(b, key);
    } else {
        uint32_t nid = (uint32_t)key;
        while (k->name_id.len <= nid) vec_push(k->name_id, HISTORY_NONE);
        if (k->name_id.data[nid] == HISTORY_NONE)
            k->name_id.data[nid] = hb_key_str(b, strtab_text(&k->names, nid), strtab_len(&k->names, nid));
        id = k->name_id.data[nid];
    }
    while (k->use.len <= id) vec_push(k->use, JK_UNUSED);    /* every key in the universe */
    if (!named && id < JK_KEY_MASK) {
        uint32_t *e = small_entry(k, key);
        if (e) *e = (id + 1) | (uint32_t)k->use.data[id] << JK_USE_SHIFT;
    }
    return id;
}

int jk_use(jepsen_keys *k, uint32_t key, jk_use_kind use, int named, int64_t ext, const char *source, uint32_t line,
           ic_error *err) {
    while (k->use.len <= key) vec_push(k->use, JK_UNUSED);
    if (k->use.data[key] == JK_UNUSED) {
        k->use.data[key] = (uint8_t)use;
        if (!named && (uint64_t)ext < k->small.len && k->small.data[ext])
            k->small.data[ext] = (key + 1) | (uint32_t)use << JK_USE_SHIFT;
    }
    if (k->use.data[key] == use) return 1;
    char kb[128];
    if (named) snprintf(kb, sizeof kb, "%.120s", strtab_text(&k->names, (uint32_t)ext));
    else snprintf(kb, sizeof kb, "%" PRId64, ext);
    ic_error_at(err, source, line,
                "key %s is used both as a register ([:w k v], [:r k v]) and as a list ([:append k v], [:r k [...]])", kb);
    return 0;
}

int jk_int_slow(jepsen_keys *k, history_builder *b, int64_t ext, jk_use_kind use, const char *source, uint32_t line,
                ic_error *err, uint32_t *key) {
    *key = jk_key(k, b, 0, ext);
    return jk_use(k, *key, use, 0, ext, source, line, err);
}
