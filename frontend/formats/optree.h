/* optree.h — one Jepsen operation read from EDN or JSON, as a tree of
 * values: what the EDN and JSON lexers build and what jepsen_ops.c turns
 * into transactions, so both syntaxes share one meaning.
 *
 * Nodes live in one array, reused for every operation (ot_reset).  A
 * container's children are linked by `next` from `child`; a map's children
 * alternate key, value.  Atoms keep a canonical text in the pool:
 *   OV_INT      decimal integer that fits in int64 (also in `ival`)
 *   OV_BIGINT   integer beyond 64 bits, canonical digits ("-123", no 'N')
 *   OV_NUMBER   any other number, as written (1.5, 2e3, 1M)
 *   OV_STRING   the decoded content (escapes resolved)
 *   OV_KEYWORD  ":name" as written;  OV_SYMBOL / OV_BOOL / OV_CHAR as written
 * Tags (#jepsen.history.Op{...}, #inst "...") are dropped, keeping the
 * tagged value. */
#ifndef ISOCHECK_OPTREE_H
#define ISOCHECK_OPTREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vec.h"

typedef enum {
    OV_NIL, OV_BOOL, OV_INT, OV_BIGINT, OV_NUMBER, OV_STRING, OV_KEYWORD, OV_SYMBOL, OV_CHAR,
    OV_VECTOR, OV_LIST, OV_MAP, OV_SET,
} ov_kind;

#define OV_NONE UINT32_MAX
#define OT_MAX_DEPTH 256

typedef struct ov_node {
    uint8_t  kind;
    uint32_t line;
    uint32_t next;           /* next sibling, OV_NONE */
    uint32_t child;          /* first child (containers), OV_NONE */
    uint32_t count;          /* number of children */
    uint32_t text, len;      /* atoms: canonical text in the pool */
    int64_t  ival;           /* OV_INT */
} ov_node;

typedef struct optree {
    VEC(ov_node) nodes;
    vec_char pool;
    int json;                /* rendering: JSON or EDN syntax */
    uint64_t key_compares;   /* key comparisons ot_duplicate_key made (its cost: about one per
                                key, never a product of key counts) */
} optree;

void ot_init(optree *t, int json);
void ot_free(optree *t);
void ot_reset(optree *t);

/* Add an atom / a container (children are linked by the caller with
 * ot_append).  Return the node's index. */
uint32_t ot_atom(optree *t, ov_kind kind, uint32_t line, const char *text, size_t len);
uint32_t ot_container(optree *t, ov_kind kind, uint32_t line);
/* Link child at the end of parent's children; *last tracks the last one. */
void ot_append(optree *t, uint32_t parent, uint32_t *last, uint32_t child);
/* Turn a decimal integer token (optional sign, digits, optional 'N') into
 * OV_INT or OV_BIGINT; returns the node, or OV_NONE if it is not one. */
uint32_t ot_integer(optree *t, uint32_t line, const char *s, size_t len);

static inline const ov_node *ot_node(const optree *t, uint32_t i) { return &t->nodes.data[i]; }
static inline const char *ot_text(const optree *t, uint32_t i) { return t->pool.data + t->nodes.data[i].text; }
/* A "name": a keyword without its ':', or a string's content.  Whether
 * node is a name equal to word.  Inline: the readers ask it of every map
 * key and micro-op name, mostly with a literal word, whose length is then
 * a constant (the first byte is compared first, then the length, then
 * the bytes). */
static inline int ot_is_name(const optree *t, uint32_t node, const char *word) {
    if (node == OV_NONE) return 0;
    const ov_node *n = ot_node(t, node);
    const char *s = ot_text(t, node);
    size_t len = n->len;
    if (n->kind == OV_KEYWORD) { s++; len--; }
    else if (n->kind != OV_STRING) return 0;
    if (!len || s[0] != word[0]) return !len && !word[0];   /* (a word from a table: no strlen) */
    size_t wl = strlen(word);
    return len == wl && !memcmp(s, word, wl);
}
/* A map key naming a field: a keyword in EDN, a string in JSON. */
static inline int ot_is_field(const optree *t, uint32_t node, const char *word) {
    if (node == OV_NONE || ot_node(t, node)->kind != (t->json ? OV_STRING : OV_KEYWORD)) return 0;
    return ot_is_name(t, node, word);
}
/* The first key that appears a second time in map node (same value), or
 * OV_NONE.  Both readers reject such maps (EDN and JSON forbid them).
 * Keys are hashed by content, so the cost is the keys' total size plus
 * about one comparison per key (counted in t->key_compares). */
uint32_t ot_duplicate_key(optree *t, uint32_t map);
/* Short rendering for messages ("[:cas 1 2]", "\"x\"", "a map"), into buf. */
const char *ot_render(const optree *t, uint32_t node, char *buf, size_t n);
/* The written form of an atom (strings re-quoted and escaped), into vec. */
void ot_written(const optree *t, uint32_t node, vec_char *out);

#endif
