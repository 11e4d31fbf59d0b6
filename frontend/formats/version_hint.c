/* version_hint.c — the version order hint reader (contract in
 * version_hint.h): the whole file in memory, then the text or the JSON
 * form; every error names the file and the line. */
#include "frontend/formats/version_hint.h"

#include <stdlib.h>
#include <string.h>

#include "io/reader.h"

static uint32_t pool_add(version_hint *vh, const char *s, size_t n) {
    uint32_t off = (uint32_t)vh->pool.len;
    vec_reserve(vh->pool, vh->pool.len + n + 1);
    memcpy(vh->pool.data + vh->pool.len, s, n);
    vh->pool.len += n;
    vh->pool.data[vh->pool.len++] = 0;
    return off;
}

/* The keys named so far, by the hash of their text (open addressing, at
 * most half full): a key named twice is found in constant time, so a hint
 * of many keys reads in linear time. */
typedef struct keyset { uint32_t *slot; size_t cap; } keyset;

static uint64_t name_hash(const char *s, size_t n) {
    uint64_t x = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) x = (x ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return x ^ (x >> 29);
}

/* Where name s (n bytes) is, or the empty slot it would take. */
static size_t keyset_find(const keyset *ks, const version_hint *vh, const char *s, size_t n) {
    size_t i = (size_t)name_hash(s, n) & (ks->cap - 1);
    for (;; i = (i + 1) & (ks->cap - 1)) {
        uint32_t k = ks->slot[i];
        if (k == UINT32_MAX) return i;
        const char *t = vh_text(vh, vh->keys.data[k].name);
        if (strncmp(t, s, n) == 0 && t[n] == 0) return i;     /* s has no NUL byte */
    }
}

static void keyset_grow(keyset *ks, const version_hint *vh) {
    free(ks->slot);
    ks->cap = ks->cap ? 2 * ks->cap : 64;
    ks->slot = xmalloc(ks->cap * sizeof *ks->slot);
    memset(ks->slot, 0xff, ks->cap * sizeof *ks->slot);
    for (uint32_t k = 0; k < vh->keys.len; k++) {
        const char *t = vh_text(vh, vh->keys.data[k].name);
        ks->slot[keyset_find(ks, vh, t, strlen(t))] = k;
    }
}

/* A key named twice is malformed: the hint would say two things of it. */
static int add_key(version_hint *vh, keyset *ks, const char *s, size_t n, uint32_t line, ic_error *err) {
    if (2 * (vh->keys.len + 1) > ks->cap) keyset_grow(ks, vh);
    size_t i = keyset_find(ks, vh, s, n);
    if (ks->slot[i] != UINT32_MAX) {
        ic_error_at(err, vh->source, line, "key %.*s is listed twice (first at line %u)", (int)(n > 200 ? 200 : n), s,
                    vh->keys.data[ks->slot[i]].line);
        return 0;
    }
    vh_key k = { pool_add(vh, s, n), line, (uint32_t)vh->values.len, 0 };
    ks->slot[i] = (uint32_t)vh->keys.len;
    vec_push(vh->keys, k);
    return 1;
}

static void add_value(version_hint *vh, const char *s, size_t n, uint32_t line, int is_init) {
    vh_value v = { pool_add(vh, s, n), line, (uint8_t)is_init };
    vec_push(vh->values, v);
    vec_last(vh->keys).num++;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* ---- text: "KEY: V V V" --------------------------------------------- */

static int parse_text_form(version_hint *vh, keyset *ks, const char *p, const char *end, ic_error *err) {
    uint32_t line = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        line++;
        const char *a = p, *b = eol;
        p = eol < end ? eol + 1 : end;
        while (a < b && is_blank(*a)) a++;
        while (b > a && is_blank(b[-1])) b--;
        if (a == b || *a == '#') continue;
        const char *colon = memchr(a, ':', (size_t)(b - a));
        if (!colon) {
            ic_error_at(err, vh->source, line, "expected 'KEY: VALUE ...' (the key, a colon, then its values in version order)");
            return 0;
        }
        const char *ke = colon;
        while (ke > a && is_blank(ke[-1])) ke--;
        if (ke == a) { ic_error_at(err, vh->source, line, "no key before the colon"); return 0; }
        for (const char *c = a; c < ke; c++)
            if (is_blank(*c)) { ic_error_at(err, vh->source, line, "a key has no blanks (use the JSON form for such keys)"); return 0; }
        if (!add_key(vh, ks, a, (size_t)(ke - a), line, err)) return 0;
        for (const char *c = colon + 1; c < b;) {
            while (c < b && is_blank(*c)) c++;
            const char *s = c;
            while (c < b && !is_blank(*c)) c++;
            if (c > s) add_value(vh, s, (size_t)(c - s), line, 0);
        }
    }
    return 1;
}

/* ---- JSON: {"KEY": [V, ...], ...} ------------------------------------ */

typedef struct jcur { const char *p, *end; uint32_t line; version_hint *vh; keyset *ks; ic_error *err; } jcur;

static void jskip(jcur *c) {
    while (c->p < c->end && is_blank(*c->p)) { if (*c->p == '\n') c->line++; c->p++; }
}

static int jfail(jcur *c, const char *what) {
    ic_error_at(c->err, c->vh->source, c->line, "JSON version order: %s", what);
    return 0;
}

/* A string's content (escapes \" \\ \/ \n \t kept simple: the escaped
 * character itself; \u is refused) into out. */
static int jstring(jcur *c, vec_char *out) {
    vec_clear(*out);
    c->p++;                                      /* the opening quote */
    while (c->p < c->end && *c->p != '"') {
        char ch = *c->p++;
        if (ch == '\n') return jfail(c, "a string runs past the end of its line");
        if (ch == '\\') {
            if (c->p >= c->end) break;
            ch = *c->p++;
            if (ch == 'u') return jfail(c, "\\u escapes are not supported in keys and values");
            ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch;
        }
        vec_push(*out, ch);
    }
    if (c->p >= c->end) return jfail(c, "unterminated string");
    c->p++;
    return 1;
}

static int jvalue(jcur *c, vec_char *tmp) {
    jskip(c);
    if (c->p >= c->end) return jfail(c, "unexpected end of input in an array");
    if (*c->p == '"') {
        if (!jstring(c, tmp)) return 0;
        add_value(c->vh, tmp->data ? tmp->data : "", tmp->len, c->line, 0);
        return 1;
    }
    if ((size_t)(c->end - c->p) >= 4 && memcmp(c->p, "null", 4) == 0) {
        c->p += 4;
        add_value(c->vh, "init", 4, c->line, 1);
        return 1;
    }
    const char *s = c->p;
    while (c->p < c->end && (*c->p == '-' || *c->p == '+' || *c->p == '.' || *c->p == 'e' || *c->p == 'E' ||
                             (*c->p >= '0' && *c->p <= '9')))
        c->p++;
    if (c->p == s) return jfail(c, "expected a number, a string or null as a value");
    add_value(c->vh, s, (size_t)(c->p - s), c->line, 0);
    return 1;
}

static int parse_json_form(version_hint *vh, keyset *ks, const char *p, const char *end, ic_error *err) {
    jcur c = { p, end, 1, vh, ks, err };
    vec_char tmp; vec_init(tmp);
    int ok = 0;
    jskip(&c);
    c.p++;                                       /* '{' */
    jskip(&c);
    if (c.p < c.end && *c.p == '}') { c.p++; ok = 1; goto tail; }
    for (;;) {
        jskip(&c);
        if (c.p >= c.end || *c.p != '"') { jfail(&c, "expected a key (a string)"); goto out; }
        uint32_t kline = c.line;
        if (!jstring(&c, &tmp)) goto out;
        if (!add_key(vh, ks, tmp.data ? tmp.data : "", tmp.len, kline, err)) goto out;
        jskip(&c);
        if (c.p >= c.end || *c.p != ':') { jfail(&c, "expected ':' after a key"); goto out; }
        c.p++;
        jskip(&c);
        if (c.p >= c.end || *c.p != '[') { jfail(&c, "expected an array of values after a key"); goto out; }
        c.p++;
        jskip(&c);
        if (c.p < c.end && *c.p == ']') c.p++;
        else for (;;) {
            if (!jvalue(&c, &tmp)) goto out;
            jskip(&c);
            if (c.p < c.end && *c.p == ',') { c.p++; continue; }
            if (c.p < c.end && *c.p == ']') { c.p++; break; }
            jfail(&c, "expected ',' or ']' in an array");
            goto out;
        }
        jskip(&c);
        if (c.p < c.end && *c.p == ',') { c.p++; continue; }
        if (c.p < c.end && *c.p == '}') { c.p++; break; }
        jfail(&c, "expected ',' or '}' after a key's array");
        goto out;
    }
    ok = 1;
tail:
    jskip(&c);
    if (c.p < c.end) ok = jfail(&c, "text after the closing '}'");
out:
    vec_free(tmp);
    return ok;
}

int version_hint_parse(const char *name, const char *data, size_t len, version_hint *vh, ic_error *err) {
    memset(vh, 0, sizeof *vh);
    size_t n = strlen(name);
    vh->source = xmalloc(n + 1);
    memcpy(vh->source, name, n + 1);
    const char *p = data, *end = data + len;
    if (memchr(data, 0, len)) {
        ic_error_at(err, vh->source, 0, "a version order is text (a NUL byte found)");
        return 0;
    }
    while (p < end && is_blank(*p)) p++;
    keyset ks = { NULL, 0 };
    int ok = p < end && *p == '{' ? parse_json_form(vh, &ks, data, end, err) : parse_text_form(vh, &ks, data, end, err);
    free(ks.slot);
    return ok;
}

int version_hint_load(const char *path, version_hint *vh, ic_error *err) {
    memset(vh, 0, sizeof *vh);
    char *data;
    size_t len;
    if (!reader_read_all(path, &data, &len, err)) return 0;
    int ok = version_hint_parse(path, data, len, vh, err);
    free(data);
    return ok;
}

void version_hint_free(version_hint *vh) {
    free(vh->source);
    vec_free(vh->pool);
    vec_free(vh->keys);
    vec_free(vh->values);
    memset(vh, 0, sizeof *vh);
}
