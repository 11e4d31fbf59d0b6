/* text_cursor.c — see text_cursor.h. */
#include "frontend/text_cursor.h"

#include <stdarg.h>
#include <string.h>

#include "frontend/lex.h"

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
    if (len != strlen(s)) {
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
