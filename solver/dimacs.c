/* dimacs.c — DIMACS CNF input with an extension hook (see dimacs.h).
 * The scanner works on whole lines in the reader's buffer: a window of
 * lines ends in '\n', which stops every inner loop, so numbers are read
 * with a pointer and no bounds checks; literals go to one growing array
 * (reserved per window: a literal takes at least two bytes).  Loading
 * stores the clauses itself (same rules as gsat_add_clause at level 0) with
 * the level-0 values in a small bitmap: the lookups of every literal are
 * what loading a million-variable problem costs. */
#include <string.h>
#include <sys/mman.h>

#include "io/bigmem.h"
#include "solver/clause_clean.h"
#include "solver/dimacs.h"
#include "solver/solver.h"

static inline int is_digit(int c) { return (unsigned)(c - '0') <= 9; }

void dimacs_shown(const char *t, size_t n, char out[48]) {
    size_t k = 0;
    for (; k < n && k < 40; k++) {
        unsigned char ch = (unsigned char)t[k];
        out[k] = (ch >= 32 && ch < 127) ? (char)ch : '?';
    }
    out[k] = 0;
}

int dimacs_int(const char *t, size_t n, int64_t lo, int64_t hi, int64_t *out) {
    size_t i = 0;
    int neg = 0;
    if (i < n && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
    if (i == n) return 0;
    int64_t v = 0;
    for (; i < n; i++) {
        if (!is_digit((unsigned char)t[i])) return 0;
        v = v * 10 + (t[i] - '0');
        if (v > ((int64_t)1 << 40)) v = (int64_t)1 << 40;   /* saturate: out of any range */
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

/* The first token of a line, for messages. */
static void first_token(const char *p, const char *end, char out[48]) {
    const char *tok;
    size_t n;
    dimacs_token(&p, end, &tok, &n);
    dimacs_shown(tok, n, out);
}

void dimacs_reserve_slow(vec_int *v, size_t need, size_t *populated) {
    vec_reserve(*v, need);
    big_advise(v->data, v->cap * sizeof *v->data);
    size_t upto = need + ((1u << 20) / sizeof(int));          /* 1 MB steps */
    if (upto > v->cap) upto = v->cap;
#ifdef MADV_POPULATE_WRITE
    const size_t page = 4096;
    uintptr_t a = (uintptr_t)(v->data + v->len) & ~(uintptr_t)(page - 1);
    uintptr_t z = ((uintptr_t)(v->data + upto)) & ~(uintptr_t)(page - 1);
    if (z > a) (void)madvise((void *)a, z - a, MADV_POPULATE_WRITE);   /* only a hint */
#endif
    *populated = upto;
}

void dimacs_text_free(dimacs_text *t) {
    vec_free(t->lits);
    varnum_marks_free(&t->marks);
}
void dimacs_info_free(dimacs_info *info) { vec_free(info->names); }

/* "p cnf VARS CLAUSES" in [p, end); the counts may be out of range. */
static int parse_header(const char *p, const char *end, int64_t *vars, int64_t *clauses) {
    const char *t[5];
    size_t n[5];
    int k = 0;
    while (k < 5 && dimacs_token(&p, end, &t[k], &n[k])) k++;
    return k == 4 && n[1] == 3 && memcmp(t[1], "cnf", 3) == 0 && is_digit((unsigned char)t[2][0]) &&
           is_digit((unsigned char)t[3][0]) && dimacs_int(t[2], n[2], 0, INT64_MAX, vars) &&
           dimacs_int(t[3], n[3], 0, INT64_MAX, clauses);
}

static int scan(reader *r, const dimacs_opts *opts, dimacs_text *t, ic_error *err) {
    memset(t, 0, sizeof *t);
    t->declared_vars = t->declared_clauses = -1;
    const char *file = r->name;
    int ext = opts && opts->hook;
    int header_optional = ext || (opts && opts->header_optional);
    double deadline = opts ? opts->deadline : 0;
    long line = 0, header_line = 0, last_line = 0, clauses = 0;
    int has_header = 0, stop = 0;
    int64_t hdr_vars = INT64_MAX, max_var = 0;
    size_t open_lits = 0;                 /* literals of the clause not yet ended by 0 */
    size_t populated = 0;                 /* t->lits.data[0..populated) is prefaulted */
    char *b, *e;
    int got = 0;
    /* at most one literal per two bytes of text: one allocation, no copies
     * (the pages are only touched as they fill) */
    size_t hint = reader_size_hint(r);
    if (hint > (1u << 20)) {
        vec_reserve(t->lits, hint / 2 + 1);
        big_advise(t->lits.data, t->lits.cap * sizeof *t->lits.data);
    }

#define FAIL(ln, ...) do { ic_error_at(err, file, (ln), __VA_ARGS__); t->lits.len = (size_t)(out - t->lits.data); return DIMACS_ERROR; } while (0)

    while (!stop && (got = reader_lines(r, &b, &e)) > 0) {
        /* lines after a NUL byte wait: the error names the NUL's line */
        char *end = e, *nul = memchr(b, 0, (size_t)(e - b));
        if (nul) { end = nul; while (end > b && end[-1] != '\n') end--; }
        dimacs_reserve(&t->lits, (size_t)(end - b) / 2 + 1, &populated);
        int *out = t->lits.data + t->lits.len;
        const char *p = b;
        while (p < end) {
            line++;
            while (dimacs_is_blank((unsigned char)*p)) p++;
            int c = (unsigned char)*p;
            if (c == '\n') { p++; continue; }
            last_line = line;
            if (c == '-' || is_digit(c)) {
                if (!has_header && !header_optional) FAIL(line, "clause before the 'p cnf VARIABLES CLAUSES' header");
                for (;;) {
                    int neg = *p == '-';
                    p += neg;
                    unsigned d = (unsigned)((unsigned char)*p - '0');
                    if (d > 9) {
                        c = (unsigned char)*p;
                        if (c == '\n' || dimacs_is_blank(c)) FAIL(line, "expected a literal, found '-'");
                        FAIL(line, "expected a literal, found '-%c'", (c >= 32 && c < 127) ? c : '?');
                    }
                    int64_t v = d;
                    while ((d = (unsigned)((unsigned char)*++p - '0')) <= 9) {
                        v = v * 10 + d;
                        if (v > DIMACS_MAX_VAR) v = (int64_t)DIMACS_MAX_VAR + 1;
                    }
                    c = (unsigned char)*p;
                    if (c != '\n' && !dimacs_is_blank(c))
                        FAIL(line, "unexpected character '%c' in a literal", (c >= 32 && c < 127) ? c : '?');
                    if (v == 0) {
                        if (neg) FAIL(line, "'-0' is not a literal");
                        *out++ = 0;
                        clauses++;
                        open_lits = 0;
                    } else {
                        if (v > DIMACS_MAX_VAR)
                            FAIL(line, "literal out of range: variable index above %d", DIMACS_MAX_VAR);
                        if (v > hdr_vars)
                            FAIL(line, "literal %s%lld out of range: the header declares %lld variables", neg ? "-" : "",
                                 (long long)v, (long long)hdr_vars);
                        if (v > max_var) max_var = v;
                        varnum_mark(&t->marks, (uint32_t)v, (size_t)(out - t->lits.data));
                        *out++ = neg ? -(int)v : (int)v;
                        open_lits++;
                    }
                    while (dimacs_is_blank((unsigned char)*p)) p++;
                    c = (unsigned char)*p;
                    if (c == '\n') { p++; break; }
                    if (c != '-' && !is_digit(c)) {
                        char tok[48];
                        first_token(p, end, tok);
                        FAIL(line, "unexpected '%s' after literals (expected a literal or 0)", tok);
                    }
                }
                continue;
            }

            /* a keyword line: [ls, le) without blanks at either end */
            const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p));
            p = le + 1;
            while (le > ls && dimacs_is_blank((unsigned char)le[-1])) le--;
            int single = ls + 1 == le || dimacs_is_blank((unsigned char)ls[1]);   /* a 1-byte first token */
            if (c == 'c' && (!ext || single)) continue;    /* comment */
            char tok[48];                                  /* the first token, for messages */
            if (c == 'p' && single) {
                if (has_header) FAIL(line, "second 'p' header (the first is on line %ld)", header_line);
                if (clauses || open_lits) FAIL(line, "'p cnf' header after clauses");
                int64_t nv, nc;
                if (!parse_header(ls, le, &nv, &nc)) {
                    char shown[128];
                    size_t k = (size_t)(le - ls) < sizeof shown - 1 ? (size_t)(le - ls) : sizeof shown - 1;
                    for (size_t i = 0; i < k; i++)
                        shown[i] = (ls[i] >= 32 && ls[i] < 127) ? ls[i] : '?';
                    shown[k] = 0;
                    FAIL(line, "bad header '%s': expected 'p cnf VARIABLES CLAUSES'", shown);
                }
                if (nv > DIMACS_MAX_VAR)
                    FAIL(line, "header declares %lld variables, more than the limit %d", (long long)nv, DIMACS_MAX_VAR);
                if (nc > INT32_MAX)
                    FAIL(line, "header declares %lld clauses, more than the limit %d", (long long)nc, INT32_MAX);
                has_header = 1;
                header_line = line;
                hdr_vars = nv;
                t->declared_vars = (long)nv;
                t->declared_clauses = (long)nc;
            } else if (c == '%') {
                stop = 1;                  /* SATLIB end-of-data marker */
                break;
            } else if (ext) {
                if (open_lits) FAIL(line, "'%s' line inside an unterminated clause", (first_token(ls, le, tok), tok));
                if (opts->hook(opts->hook_ctx, ls, le, line, err)) {
                    if (!err->set) ic_error_at(err, file, line, "unknown keyword '%s'", (first_token(ls, le, tok), tok));
                    t->lits.len = (size_t)(out - t->lits.data);
                    return DIMACS_ERROR;
                }
            } else {
                first_token(ls, le, tok);
                FAIL(line, "unexpected '%s' (expected a clause, a comment or the 'p cnf' header)", tok);
            }
        }
        t->lits.len = (size_t)(out - t->lits.data);
        if (nul && !stop) {
            line++;
            ic_error_at(err, file, line, "NUL byte in the input (expected DIMACS or GNF text)");
            return DIMACS_ERROR;
        }
        if (deadline > 0 && gsat_now() > deadline) return DIMACS_TIMEOUT;
    }
#undef FAIL
    t->lines = line;
    t->clauses = clauses;
    t->max_var = (int)max_var;
    long at = last_line ? last_line : 1;
    if (!stop && got < 0) {
        ic_error_at(err, file, line + 1, "line longer than %u bytes", READER_MAX_LINE);
        return DIMACS_ERROR;
    }
    if (r->error) {
        ic_error_at(err, file, line + 1, "read error: %s", reader_strerror(r));
        return DIMACS_ERROR;
    }
    if (!has_header && !header_optional) {
        if (!last_line) ic_error_at(err, file, 1, "empty input: expected the 'p cnf VARIABLES CLAUSES' header");
        else ic_error_at(err, file, at, "missing 'p cnf VARIABLES CLAUSES' header");
        return DIMACS_ERROR;
    }
    if (open_lits) {
        ic_error_at(err, file, at, "the last clause is not terminated by 0");
        return DIMACS_ERROR;
    }
    if (has_header && clauses != t->declared_clauses) {
        ic_error_at(err, file, at, "the header declares %ld clauses, found %ld", t->declared_clauses, clauses);
        return DIMACS_ERROR;
    }
    return DIMACS_OK;
}

int dimacs_scan(reader *r, const dimacs_opts *opts, dimacs_text *t, ic_error *err) {
    int rc = scan(r, opts, t, err);
    if (rc == DIMACS_ERROR && r->gz) {
        /* Corrupt compressed data decodes to garbage before a CRC check can
         * catch it: read on, and if the data is corrupt, say so instead. */
        long line = err->line;
        char *b, *e;
        while (!r->error && reader_lines(r, &b, &e) > 0) {}
        if (r->error) {
            ic_error_clear(err);
            ic_error_at(err, r->name, line, "read error: %s", reader_strerror(r));
        }
    }
    return rc;
}

int dimacs_load(gsat *s, const int *lits, size_t n, double deadline) {
    return dimacs_load_after_units(s, NULL, 0, lits, n, deadline);
}

/* Level-0 values as a bitmap over literal codes (bit l: l is true), 2
 * bits per variable: cache-resident where the engine's value array (2
 * bytes per variable) is not, and loading looks up every literal. */
static inline int truth_has(const uint64_t *t, lit_t l) { return (int)(t[l >> 6] >> (l & 63) & 1); }
static inline void truth_set(uint64_t *t, lit_t l) { t[l >> 6] |= (uint64_t)1 << (l & 63); }

static int satisfied(const uint64_t *truth, const int *lits, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (truth_has(truth, lit_from_dimacs(lits[i]))) return 1;
    return 0;
}

/* lit's level-0 value as truth holds it (the loader's bitmap). */
static int truth_value(const void *ctx, lit_t l) {
    const uint64_t *t = ctx;
    return truth_has(t, l) ? 1 : truth_has(t, lneg(l)) ? -1 : 0;
}

/* Clause lits[0..n) into s as gsat_add_clause() does it at level 0 with
 * no preprocessor state (the same clean-up, solver/clause_clean.h; a unit
 * enqueued, to be propagated by the caller), the values read from truth,
 * which follows the units enqueued here. */
static void load_clause(gsat *s, uint64_t *truth, vec_uint *buf, const int *lits, size_t n) {
#ifdef GSAT_DEBUG
    for (size_t i = 0; i < n; i++) vec_push(s->original, lits[i]);
    vec_push(s->original, 0);
#endif
    if (!s->ok) return;
    vec_resize(*buf, n);
    for (size_t i = 0; i < n; i++) buf->data[i] = lit_from_dimacs(lits[i]);
    size_t j = clause_clean(buf->data, n, truth_value, truth);
    if (j == CLAUSE_HOLDS) return;
    if (j == 1) truth_set(truth, buf->data[0]);
    solver_store_clause(s, buf->data, j, 0);
}

int dimacs_load_after_units(gsat *s, const int *units, size_t nunits, const int *lits, size_t n, double deadline) {
    size_t clauses = 0, stored = 0;               /* clauses and words to store */
    long added = 0;
    int maxv = 0;
    for (size_t i = 0; i < n; i++) {
        int v = lits[i] < 0 ? -lits[i] : lits[i];
        if (v > maxv) maxv = v;
    }
    for (size_t i = 0; i < nunits; i++) {
        int v = units[i] < 0 ? -units[i] : units[i];
        if (v > maxv) maxv = v;
    }
    solver_reserve_vars(s, maxv);
    int rc = DIMACS_OK;
    solver_backtrack(s, 0);
    /* The fast path needs every value to be a level-0 one and no
     * preprocessor state (a clause may bring a removed variable back);
     * otherwise each clause goes the way of gsat_add_clause(). */
    uint64_t *truth = NULL;
    if (!s->simp) {
        truth = big_calloc(((size_t)s->nvars + 1) / 32 + 1, sizeof *truth);
        for (uint32_t i = 0; i < s->trail_n; i++) truth_set(truth, s->trail[i]);
    }
    s->defer_units = 1;                           /* units: propagated once, below */
    if (truth) {
        /* in their order; the engine's arrays they write are fetched ahead
         * (the variables of a solve line are scattered) */
        vec_uint buf;
        vec_init(buf);
        for (size_t i = 0; i < nunits; i++) {
            if (i + 16 < nunits) {
                uint32_t w = (uint32_t)(units[i + 16] < 0 ? -units[i + 16] : units[i + 16]);
                __builtin_prefetch(&s->vals[2 * w], 1);
                __builtin_prefetch(&s->vinfo[w], 1);
                __builtin_prefetch(&s->trail_pos[w], 1);
            }
            load_clause(s, truth, &buf, &units[i], 1);
        }
        vec_free(buf);
    } else {
        for (size_t i = 0; i < nunits; i++) solver_add_clause(s, &units[i], 1);
    }
    s->defer_units = 0;
    for (size_t i = 0, start = 0; i < n; i++) {
        if (lits[i]) continue;
        if (!truth || !satisfied(truth, lits + start, i - start)) { clauses++; stored += i - start + 2; }
        start = i + 1;
    }
    arena_reserve(s, clauses, stored - 2 * clauses);   /* one allocation, no copies */
    vec_uint buf;
    vec_init(buf);
    s->defer_units = 1;
    for (size_t i = 0, start = 0; i < n && s->ok; i++) {
        if (lits[i]) continue;
        if (truth) load_clause(s, truth, &buf, lits + start, i - start);
        else solver_add_clause(s, lits + start, (int)(i - start));
        start = i + 1;
        if (deadline > 0 && (++added & 0xffff) == 0 && gsat_now() > deadline) { rc = DIMACS_TIMEOUT; break; }
    }
    vec_free(buf);
    free(truth);
    s->defer_units = 0;
    if (s->ok && solver_propagate(s) != CREF_NONE) s->ok = 0;
    return rc;
}

void dimacs_equivalences(gsat *s, const int *vars, size_t n, void *state, void (*each)(void *state, int v, int p)) {
    if (!s->ok) return;
    solver_backtrack(s, 0);
    watch_flush(s);
    for (size_t i = 0; i < n; i++) {
        int v = vars[i];
        if (v <= 0 || (uint32_t)v > s->nvars) continue;
        /* a binary clause's watcher holds its other literal as blocker */
        const watch_list *neg = watch_of(s, mklit((uint32_t)v, 1)), *pos = watch_of(s, mklit((uint32_t)v, 0));
        for (uint32_t a = 0; a < neg->len; a++) {
            if (!(neg->data[a].cref & WATCH_BIN)) continue;
            lit_t p = neg->data[a].blocker;       /* (-v p) */
            for (uint32_t b = 0; b < pos->len; b++)
                if ((pos->data[b].cref & WATCH_BIN) && pos->data[b].blocker == lneg(p)) {   /* (v -p) */
                    each(state, v, lit_to_dimacs(p));
                    break;
                }
        }
    }
}

int dimacs_parse(gsat *s, reader *r, const dimacs_opts *opts, dimacs_info *info, ic_error *err) {
    dimacs_text t;
    dimacs_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    int rc = dimacs_scan(r, opts, &t, err);
    if (rc == DIMACS_OK) {
        varnum_span span = {t.lits.data, t.lits.len};
        info->vars = (long)varnum_renumber(&span, 1, t.max_var, &t.marks, &info->names);
        if (info->names.len - 1 > GSAT_MAX_VARS) {
            ic_error_at(err, r->name, 0, "%ld distinct variables, more than gsat's limit %d", info->vars, GSAT_MAX_VARS);
            rc = DIMACS_ERROR;
        }
    }
    if (rc == DIMACS_OK) {
        info->clauses = t.clauses;
        info->declared_vars = t.declared_vars;
        info->has_header = t.declared_vars >= 0;
        info->lines = t.lines;
    }
    if (rc == DIMACS_OK && !(opts && opts->text_only)) {
        solver_reserve_vars(s, (int)info->names.len - 1);
        rc = dimacs_load(s, t.lits.data, t.lits.len, opts ? opts->deadline : 0);
    }
    dimacs_text_free(&t);
    if (info == &local) dimacs_info_free(info);
    return rc;
}

int dimacs_parse_file(gsat *s, const char *path, const dimacs_opts *opts, dimacs_info *info, ic_error *err) {
    reader r;
    if (info) memset(info, 0, sizeof *info);
    if (reader_open(&r, path, err) < 0) return DIMACS_ERROR;
    int rc = dimacs_parse(s, &r, opts, info, err);
    reader_close(&r);
    return rc;
}
