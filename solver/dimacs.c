/* dimacs.c — DIMACS CNF parser with an extension hook (see dimacs.h).
 * Literal lines are scanned byte by byte straight from the reader; any
 * other line is collected whole and classified by its first token. */
#include <stdint.h>
#include <string.h>

#include "solver/dimacs.h"
#include "vec.h"

/* Keyword lines are held whole; a GNF `solve` line lists every assumption
 * (PolySI traces reach several MB), so the bound only stops runaway input. */
#define MAX_LINE (1 << 30)

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* First token of a line, printable, at most 40 bytes, for messages. */
static void first_token(const char *line, char *out, size_t cap) {
    size_t n = 0;
    while (line[n] && !dimacs_is_blank((unsigned char)line[n]) && n + 1 < cap && n < 40) {
        unsigned char ch = (unsigned char)line[n];
        out[n] = (ch >= 32 && ch < 127) ? (char)ch : '?';
        n++;
    }
    out[n] = 0;
}

int dimacs_tokenize(char *line, char **tok, int max) {
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p && dimacs_is_blank((unsigned char)*p)) p++;
        if (!*p) break;
        if (n == max) return max + 1;
        tok[n++] = p;
        while (*p && !dimacs_is_blank((unsigned char)*p)) p++;
        if (*p) *p++ = 0;
    }
    return n;
}

static int parse_count(const char *t, long *out) {
    long v = 0;
    if (!*t) return 0;
    for (; *t; t++) {
        if (!is_digit((unsigned char)*t)) return 0;
        if (v > (INT32_MAX - 9) / 10) return 0;
        v = v * 10 + (*t - '0');
    }
    *out = v;
    return 1;
}

int dimacs_parse(gsat *s, reader *r, const dimacs_opts *opts, dimacs_info *info, ic_error *err) {
    const char *file = r->name;
    int ext = opts && opts->hook;
    int header_optional = ext || (opts && opts->header_optional);
    long line = 1, last_line = 0, header_line = 0;
    long hdr_vars = -1, hdr_clauses = -1, nclauses = 0, max_var = 0;
    int has_header = 0, any_content = 0, failed = 0;
    vec_int clause; vec_init(clause);
    vec_char lb; vec_init(lb);

#define FAIL(ln, ...) do { ic_error_at(err, file, (ln), __VA_ARGS__); failed = 1; goto done; } while (0)

    for (;;) {
        int c = reader_getc(r);
        while (dimacs_is_blank(c)) c = reader_getc(r);
        if (c == READER_EOF) break;
        if (c == '\n') { line++; continue; }
        any_content = 1;
        last_line = line;
        if (c == '-' || is_digit(c)) {
            if (!has_header && !header_optional) FAIL(line, "clause before the 'p cnf VARIABLES CLAUSES' header");
            for (;;) {
                int neg = 0;
                if (c == '-') { neg = 1; c = reader_getc(r); }
                if (!is_digit(c)) {
                    if (c == READER_EOF || c == '\n' || dimacs_is_blank(c)) FAIL(line, "expected a literal, found '-'");
                    FAIL(line, "expected a literal, found '%s%c'", neg ? "-" : "",
                         (c >= 32 && c < 127) ? c : '?');
                }
                long v = 0;
                int too_big = 0;
                while (is_digit(c)) {
                    if (v <= DIMACS_MAX_VAR) v = v * 10 + (c - '0');
                    if (v > DIMACS_MAX_VAR) too_big = 1;
                    c = reader_getc(r);
                }
                if (c != READER_EOF && c != '\n' && !dimacs_is_blank(c))
                    FAIL(line, "unexpected character '%c' in a literal", (c >= 32 && c < 127) ? c : '?');
                if (too_big) FAIL(line, "literal out of range: variable index above %d", DIMACS_MAX_VAR);
                if (v == 0) {
                    if (neg) FAIL(line, "'-0' is not a literal");
                    gsat_add_clause(s, clause.data, (int)clause.len);
                    vec_clear(clause);
                    nclauses++;
                } else {
                    if (has_header && v > hdr_vars)
                        FAIL(line, "literal %s%ld out of range: the header declares %ld variables", neg ? "-" : "", v, hdr_vars);
                    if (v > max_var) max_var = v;
                    vec_push(clause, neg ? -(int)v : (int)v);
                }
                while (dimacs_is_blank(c)) c = reader_getc(r);
                if (c == '\n' || c == READER_EOF) break;
                if (c != '-' && !is_digit(c)) {
                    char tok[48]; size_t n = 0;
                    while (c != READER_EOF && c != '\n' && !dimacs_is_blank(c) && n < 40) {
                        tok[n++] = (c >= 32 && c < 127) ? (char)c : '?';
                        c = reader_getc(r);
                    }
                    tok[n] = 0;
                    FAIL(line, "unexpected '%s' after literals (expected a literal or 0)", tok);
                }
            }
            if (c == READER_EOF) break;
            line++;
            continue;
        }

        /* a non-literal line: collect it */
        vec_clear(lb);
        while (c != READER_EOF && c != '\n') {
            if (lb.len >= MAX_LINE) FAIL(line, "line longer than %d bytes", MAX_LINE);
            vec_push(lb, (char)c);
            c = reader_getc(r);
        }
        while (lb.len && dimacs_is_blank((unsigned char)lb.data[lb.len - 1])) lb.len--;
        vec_push(lb, 0);
        char tok[48];
        first_token(lb.data, tok, sizeof tok);
        if (lb.data[0] == 'c' && (!ext || strcmp(tok, "c") == 0)) {
            /* comment */
        } else if (strcmp(tok, "p") == 0) {
            if (has_header) FAIL(line, "second 'p' header (the first is on line %ld)", header_line);
            if (nclauses || clause.len) FAIL(line, "'p cnf' header after clauses");
            char copy[128];
            snprintf(copy, sizeof copy, "%s", lb.data);
            char *t[5];
            int n = dimacs_tokenize(lb.data, t, 4);
            long nv, nc;
            if (n != 4 || strcmp(t[1], "cnf") != 0 || !parse_count(t[2], &nv) || !parse_count(t[3], &nc))
                FAIL(line, "bad header '%s': expected 'p cnf VARIABLES CLAUSES'", copy);
            if (nv > DIMACS_MAX_VAR) FAIL(line, "header declares %ld variables, more than the limit %d", nv, DIMACS_MAX_VAR);
            if (max_var > nv) FAIL(line, "header declares %ld variables but variable %ld was used", nv, max_var);
            has_header = 1;
            header_line = line;
            hdr_vars = nv;
            hdr_clauses = nc;
            gsat_reserve_vars(s, (int)nv);
        } else if (lb.data[0] == '%') {
            break;                 /* SATLIB end-of-data marker */
        } else if (ext) {
            if (clause.len) FAIL(line, "'%s' line inside an unterminated clause", tok);
            if (opts->hook(opts->hook_ctx, lb.data, line, err)) {
                if (!err->set) ic_error_at(err, file, line, "unknown keyword '%s'", tok);
                failed = 1;
                goto done;
            }
        } else {
            FAIL(line, "unexpected '%s' (expected a clause, a comment or the 'p cnf' header)", tok);
        }
        if (c == READER_EOF) break;
        line++;
    }

    if (r->error) FAIL(line, "read error: %s", reader_strerror(r));
    {
        long at = last_line ? last_line : 1;
        if (!has_header && !header_optional) {
            if (!any_content) FAIL(1, "empty input: expected the 'p cnf VARIABLES CLAUSES' header");
            FAIL(at, "missing 'p cnf VARIABLES CLAUSES' header");
        }
        if (clause.len) FAIL(at, "the last clause is not terminated by 0");
        if (has_header && nclauses != hdr_clauses)
            FAIL(at, "the header declares %ld clauses, found %ld", hdr_clauses, nclauses);
    }
    if (info) {
        info->vars = has_header ? hdr_vars : max_var;
        info->clauses = nclauses;
        info->has_header = has_header;
        info->lines = line;
    }
done:
#undef FAIL
    vec_free(clause);
    vec_free(lb);
    return failed ? -1 : 0;
}

int dimacs_parse_file(gsat *s, const char *path, const dimacs_opts *opts, dimacs_info *info, ic_error *err) {
    reader r;
    if (reader_open(&r, path, err) < 0) return -1;
    int rc = dimacs_parse(s, &r, opts, info, err);
    reader_close(&r);
    return rc;
}
