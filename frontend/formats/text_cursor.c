/* text_cursor.c — see text_cursor.h. */
#include "frontend/formats/text_cursor.h"

#include <stdarg.h>
#include <string.h>

#include "frontend/formats/lex.h"

static int load_line(tcur *c) {
    size_t len;
    char *s = input_line(c->in, &len);
    if (!s) {
        c->eof = 1;
        c->p = c->line_start = "";
        if (c->in->io_error) {
            c->failed = 1;
            ic_error_at(c->err, c->in->name, 0, "read error: %s", input_error(c->in));
        }
        return 0;
    }
    c->line = c->in->line;
    c->p = c->line_start = s;
    (void)len;
    if (input_line_has_nul(c->in)) {
        c->failed = 1;
        ic_error_at(c->err, c->in->name, c->line, "expected text, found a NUL byte");
        c->p = "";
        return 0;
    }
    return 1;
}

int tcur_init(tcur *c, input *in, ic_error *err) {
    memset(c, 0, sizeof *c);
    c->in = in;
    c->err = err;
    if (!load_line(c)) return !c->failed;
    if (!strncmp(c->p, "\xEF\xBB\xBF", 3)) c->p += 3;
    return 1;
}

int tcur_next_line(tcur *c) {
    if (c->eof || c->failed) return 0;
    return load_line(c);
}

int tcur_fail(tcur *c, const char *what) {
    char fb[48];
    if (c->failed) return 0;
    c->failed = 1;
    ic_error_at(c->err, c->in->name, c->line, "expected %s, found %s", what,
                c->eof ? "end of file" : lex_found(c->p, fb, sizeof fb));
    return 0;
}

int tcur_error(tcur *c, long line, const char *fmt, ...) {
    if (c->failed) return 0;
    c->failed = 1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ic_error_at(c->err, c->in->name, line, "%s", msg);
    return 0;
}

static void put_utf8(vec_char *b, unsigned cp) {
    if (cp < 0x80) vec_push(*b, (char)cp);
    else if (cp < 0x800) { vec_push(*b, (char)(0xC0 | cp >> 6)); vec_push(*b, (char)(0x80 | (cp & 0x3F))); }
    else if (cp < 0x10000) {
        vec_push(*b, (char)(0xE0 | cp >> 12));
        vec_push(*b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        vec_push(*b, (char)(0x80 | (cp & 0x3F)));
    } else {
        vec_push(*b, (char)(0xF0 | cp >> 18));
        vec_push(*b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        vec_push(*b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        vec_push(*b, (char)(0x80 | (cp & 0x3F)));
    }
}

static int hex4(const char *p, unsigned *cp) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                   : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16u;
        if (d == 16) return 0;
        v = v * 16 + d;
    }
    *cp = v;
    return 1;
}

int tcur_escape(tcur *c, vec_char *b, int json) {
    char esc = *c->p;
    unsigned cp, lo;
    switch (esc) {
    case 'n': vec_push(*b, '\n'); break;
    case 't': vec_push(*b, '\t'); break;
    case 'r': vec_push(*b, '\r'); break;
    case 'b': vec_push(*b, '\b'); break;
    case 'f': vec_push(*b, '\f'); break;
    case '"': case '\\': case '/': vec_push(*b, esc); break;
    case 'u':
        if (!hex4(c->p + 1, &cp) || cp == 0) return tcur_fail(c, "4 hex digits (not 0000) after \\u");
        c->p += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {                 /* the high half of a surrogate pair */
            if (c->p[1] == '\\' && c->p[2] == 'u' && hex4(c->p + 3, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                c->p += 6;
            } else if (json) return tcur_fail(c, "the low half of a UTF-16 surrogate pair (\\uDC00-\\uDFFF)");
        }
        put_utf8(b, cp);
        break;
    default:
        c->p--;
        return tcur_fail(c, json ? "an escape \\n, \\t, \\r, \\b, \\f, \\/, \\\", \\\\ or \\uXXXX"
                                 : "an escape \\n, \\t, \\r, \\b, \\f, \\\", \\\\ or \\uXXXX");
    }
    c->p++;
    return 1;
}
