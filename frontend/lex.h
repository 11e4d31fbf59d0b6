/* lex.h — small helpers shared by the text-format parsers. */
#ifndef ISOCHECK_LEX_H
#define ISOCHECK_LEX_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

/* Describe the text at p for "found ..." messages. */
static inline const char *lex_found(const char *p, char *buf, size_t n) {
    if (!*p) { snprintf(buf, n, "end of line"); return buf; }
    size_t i = 0;
    buf[i++] = '\'';
    while (*p && i + 5 < n && i < 24) {
        unsigned char c = (unsigned char)*p++;
        buf[i++] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    if (*p && i + 4 < n) { buf[i++] = '.'; buf[i++] = '.'; buf[i++] = '.'; }
    buf[i++] = '\'';
    buf[i] = 0;
    return buf;
}

/* Parse a decimal int64 (optional '-') at *p; 1 on success (advances *p),
 * 0 if no digits, -1 on overflow. */
static inline int lex_i64(const char **p, int64_t *out) {
    const char *s = *p;
    int neg = 0;
    if (*s == '-') { neg = 1; s++; }
    if (!isdigit((unsigned char)*s)) return 0;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (lim - d) / 10) return -1;
        v = v * 10 + d;
        s++;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return 1;
}

/* Parse a decimal int64 of digits only (no sign) at *p; 1 on success
 * (advances *p), 0 if no digit, -1 on overflow. */
static inline int lex_digits_i64(const char **p, int64_t *out) {
    const char *s = *p;
    if (!isdigit((unsigned char)*s)) return 0;
    uint64_t v = 0;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
        s++;
    }
    *out = (int64_t)v;
    *p = s;
    return 1;
}

static inline void lex_space(const char **p) {
    while (**p == ' ' || **p == '\t') (*p)++;
}

#endif
