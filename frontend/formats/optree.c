/* optree.c — see optree.h. */
#include "frontend/formats/optree.h"

#include <stdio.h>
#include <string.h>

void ot_init(optree *t, int json) {
    vec_init(t->nodes);
    vec_init(t->pool);
    t->json = json;
    t->key_compares = 0;
}

void ot_free(optree *t) {
    vec_free(t->nodes);
    vec_free(t->pool);
}

void ot_reset(optree *t) {
    vec_clear(t->nodes);
    vec_clear(t->pool);
}

static uint32_t add_node(optree *t, ov_kind kind, uint32_t line) {
    if (t->nodes.len >= UINT32_MAX - 1) xalloc_fail(SIZE_MAX);
    ov_node n = { (uint8_t)kind, line, OV_NONE, OV_NONE, 0, 0, 0, 0 };
    vec_push(t->nodes, n);
    return (uint32_t)t->nodes.len - 1;
}

uint32_t ot_atom(optree *t, ov_kind kind, uint32_t line, const char *text, size_t len) {
    if (t->pool.len + len + 1 > UINT32_MAX) xalloc_fail(t->pool.len + len + 1);
    uint32_t i = add_node(t, kind, line);
    ov_node *n = &t->nodes.data[i];
    n->text = (uint32_t)t->pool.len;
    n->len = (uint32_t)len;
    vec_reserve(t->pool, t->pool.len + len + 1);
    if (len) memcpy(t->pool.data + t->pool.len, text, len);
    t->pool.len += len;
    t->pool.data[t->pool.len++] = 0;
    return i;
}

uint32_t ot_container(optree *t, ov_kind kind, uint32_t line) { return add_node(t, kind, line); }

void ot_append(optree *t, uint32_t parent, uint32_t *last, uint32_t child) {
    if (*last == OV_NONE) t->nodes.data[parent].child = child;
    else t->nodes.data[*last].next = child;
    *last = child;
    t->nodes.data[parent].count++;
}

uint32_t ot_integer(optree *t, uint32_t line, const char *s, size_t len) {
    if (len && len <= 18 && s[0] > '0' && s[0] <= '9') {   /* the usual case: a canonical non-negative int64 */
        uint64_t v = 0;
        size_t j = 0;
        while (j < len && s[j] >= '0' && s[j] <= '9') v = v * 10 + (unsigned)(s[j++] - '0');
        if (j == len) {
            uint32_t node = ot_atom(t, OV_INT, line, s, len);
            t->nodes.data[node].ival = (int64_t)v;
            return node;
        }
    }
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (len && s[len - 1] == 'N') len--;                /* Clojure's bigint suffix: the same number */
    if (i >= len) return OV_NONE;
    for (size_t j = i; j < len; j++)
        if (s[j] < '0' || s[j] > '9') return OV_NONE;
    while (i + 1 < len && s[i] == '0') i++;             /* canonical: no leading zeros, no '+', no "-0" */
    if (len - i == 1 && s[i] == '0') neg = 0;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int big = 0;
    for (size_t j = i; j < len && !big; j++) {
        unsigned d = (unsigned)(s[j] - '0');
        if (v > (lim - d) / 10) big = 1;
        else v = v * 10 + d;
    }
    uint32_t node = ot_atom(t, big ? OV_BIGINT : OV_INT, line, "", 0);
    t->pool.len--;                                      /* the text: sign and digits, then the NUL */
    if (t->pool.len + len + 2 > UINT32_MAX) xalloc_fail(t->pool.len + len + 2);
    vec_reserve(t->pool, t->pool.len + len - i + 2);
    if (neg) t->pool.data[t->pool.len++] = '-';
    memcpy(t->pool.data + t->pool.len, s + i, len - i);
    t->pool.len += len - i;
    t->pool.data[t->pool.len++] = 0;
    t->nodes.data[node].len = (uint32_t)(len - i + (size_t)neg);
    if (!big) t->nodes.data[node].ival = neg ? (int64_t)(0 - v) : (int64_t)v;
    return node;
}

/* Whether two nodes are the same value (same kind and text; containers
 * element by element). */
static int ot_equal(const optree *t, uint32_t a, uint32_t b) {
    const ov_node *x = ot_node(t, a), *y = ot_node(t, b);
    if (x->kind != y->kind || x->count != y->count || x->len != y->len) return 0;
    if (x->kind < OV_VECTOR) return !memcmp(ot_text(t, a), ot_text(t, b), x->len);
    for (uint32_t i = x->child, j = y->child; i != OV_NONE; i = ot_node(t, i)->next, j = ot_node(t, j)->next)
        if (!ot_equal(t, i, j)) return 0;
    return 1;
}

void ot_written(const optree *t, uint32_t node, vec_char *out) {
    const ov_node *n = ot_node(t, node);
    const char *s = ot_text(t, node);
    if (n->kind != OV_STRING) {
        for (uint32_t i = 0; i < n->len; i++) vec_push(*out, s[i]);
        return;
    }
    vec_push(*out, '"');
    for (uint32_t i = 0; i < n->len; i++) {
        char c = s[i];
        if (c == '"' || c == '\\') { vec_push(*out, '\\'); vec_push(*out, c); }
        else if (c == '\n') { vec_push(*out, '\\'); vec_push(*out, 'n'); }
        else if (c == '\t') { vec_push(*out, '\\'); vec_push(*out, 't'); }
        else if (c == '\r') { vec_push(*out, '\\'); vec_push(*out, 'r'); }
        else vec_push(*out, c);
    }
    vec_push(*out, '"');
}

/* Render into out up to limit bytes (then "..."). */
static void render(const optree *t, uint32_t node, vec_char *out, size_t limit) {
    if (out->len > limit) return;
    const ov_node *n = ot_node(t, node);
    if (n->kind == OV_NIL) {
        const char *s = t->json ? "null" : "nil";
        while (*s) vec_push(*out, *s++);
        return;
    }
    if (n->kind < OV_VECTOR) { ot_written(t, node, out); return; }
    const char *open = n->kind == OV_VECTOR ? "[" : n->kind == OV_LIST ? "(" : n->kind == OV_MAP ? "{" : "#{";
    char close = n->kind == OV_VECTOR ? ']' : n->kind == OV_LIST ? ')' : '}';
    while (*open) vec_push(*out, *open++);
    uint32_t k = 0;
    for (uint32_t c = n->child; c != OV_NONE; c = ot_node(t, c)->next, k++) {
        if (out->len > limit) return;
        if (k) {
            if (t->json) vec_push(*out, n->kind == OV_MAP && (k & 1) ? ':' : ',');
            else vec_push(*out, ' ');
        }
        render(t, c, out, limit);
    }
    vec_push(*out, close);
}

const char *ot_render(const optree *t, uint32_t node, char *buf, size_t n) {
    if (node == OV_NONE) { snprintf(buf, n, "nothing"); return buf; }
    vec_char out;
    vec_init(out);
    size_t limit = n > 8 ? n - 5 : 1;
    render(t, node, &out, limit);
    if (out.len > limit) { out.len = limit; vec_push(out, '.'); vec_push(out, '.'); vec_push(out, '.'); }
    vec_push(out, 0);
    snprintf(buf, n, "%s", out.data);
    vec_free(out);
    return buf;
}

/* FNV-1a over the value as ot_equal compares it: kind, then the text of
 * an atom or the hashes of a container's children in order, so keys that
 * differ anywhere (not only in kind or size) rarely share a hash.  Costs
 * the key's size; nesting is bounded by the readers (OT_MAX_DEPTH). */
static uint64_t fnv_byte(uint64_t h, unsigned char b) { return (h ^ b) * 1099511628211ULL; }

static uint64_t key_hash(const optree *t, uint32_t node) {
    const ov_node *n = ot_node(t, node);
    uint64_t h = fnv_byte(1469598103934665603ULL, n->kind);
    if (n->kind >= OV_VECTOR) {
        for (uint32_t c = n->child; c != OV_NONE; c = ot_node(t, c)->next) {
            uint64_t ch = key_hash(t, c);
            for (int i = 0; i < 8; i++) h = fnv_byte(h, (unsigned char)(ch >> (8 * i)));
        }
        return h;
    }
    const char *s = ot_text(t, node);
    for (uint32_t i = 0; i < n->len; i++) h = fnv_byte(h, (unsigned char)s[i]);
    return h;
}

typedef struct hkey { uint64_t h; uint32_t node, pos; } hkey;

static int hkey_cmp(const void *a, const void *b) {
    const hkey *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

uint32_t ot_duplicate_key(optree *t, uint32_t map) {
    uint32_t nkeys = ot_node(t, map)->count / 2;
    if (nkeys < 2) return OV_NONE;
    if (nkeys <= 16) {                              /* the usual operation map */
        for (uint32_t a = ot_node(t, map)->child; a != OV_NONE; a = ot_node(t, ot_node(t, a)->next)->next) {
            uint32_t va = ot_node(t, a)->next;
            if (va == OV_NONE) break;
            for (uint32_t b = ot_node(t, va)->next; b != OV_NONE;) {
                t->key_compares++;
                if (ot_equal(t, a, b)) return b;
                uint32_t vb = ot_node(t, b)->next;
                if (vb == OV_NONE) break;
                b = ot_node(t, vb)->next;
            }
        }
        return OV_NONE;
    }
    hkey *keys = xmalloc(nkeys * sizeof *keys);
    uint32_t k = 0;
    for (uint32_t a = ot_node(t, map)->child; a != OV_NONE && k < nkeys; k++) {
        keys[k] = (hkey){ key_hash(t, a), a, k };
        uint32_t va = ot_node(t, a)->next;
        a = va == OV_NONE ? OV_NONE : ot_node(t, va)->next;
    }
    qsort(keys, k, sizeof *keys, hkey_cmp);
    uint32_t dup = OV_NONE, dup_pos = UINT32_MAX;
    /* The earliest second occurrence.  Within a run of equal hashes (in
     * key order), each key looks for its next equal key and stops there:
     * a value repeated many times costs one comparison per copy. */
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = i + 1; j < k && keys[j].h == keys[i].h; j++) {
            if (keys[j].pos >= dup_pos) break;
            t->key_compares++;
            if (ot_equal(t, keys[i].node, keys[j].node)) { dup = keys[j].node; dup_pos = keys[j].pos; break; }
        }
    free(keys);
    return dup;
}
