/* sat_model.c — reading a solver's answer (contract in sat_model.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/checking/sat_model.h"

void sat_model_init(sat_model *m) { m->status = 0; m->num_vars = 0; m->val = NULL; }
void sat_model_free(sat_model *m) { free(m->val); sat_model_init(m); }

int sat_model_value(const sat_model *m, int var) {
    return var >= 1 && var <= m->num_vars ? m->val[var] : 0;
}

static void set_lit(sat_model *m, long lit, int *cap) {
    long v = lit < 0 ? -lit : lit;
    if (v > m->num_vars) {
        if (v >= *cap) {
            int c = *cap ? *cap : 64;
            while (c <= v) c *= 2;
            m->val = xrealloc(m->val, (size_t)c);
            memset(m->val + *cap, 0, (size_t)(c - *cap));
            *cap = c;
        }
        m->num_vars = (int)v;
    }
    m->val[v] = lit < 0 ? -1 : 1;
}

static int status_word(const char *w, size_t n) {
    if ((n == 3 && !strncmp(w, "SAT", 3)) || (n == 11 && !strncmp(w, "SATISFIABLE", 11))) return 10;
    if ((n == 5 && !strncmp(w, "UNSAT", 5)) || (n == 13 && !strncmp(w, "UNSATISFIABLE", 13))) return 20;
    if ((n == 7 && !strncmp(w, "UNKNOWN", 7)) || (n == 5 && !strncmp(w, "INDET", 5))) return 0;
    return -1;
}

static int read_model(input *r, sat_model *m, ic_error *err);

int sat_model_read(input *r, sat_model *m, ic_error *err) {
    sat_model_free(m);
    if (read_model(r, m, err)) return 1;
    sat_model_free(m);                  /* no half-read model on error */
    return 0;
}

static int read_model(input *r, sat_model *m, ic_error *err) {
    int cap = 0, said = -1, lits = 0;
    char *line; size_t len;
    while ((line = input_line(r, &len))) {
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == 'c') continue;
        if (*p == 's' && (p[1] == ' ' || p[1] == '\t')) {
            p++;
            while (*p == ' ' || *p == '\t') p++;
            size_t n = strcspn(p, " \t");
            int st = status_word(p, n);
            if (st < 0) {
                ic_error_at(err, r->name, r->line, "expected SATISFIABLE, UNSATISFIABLE or UNKNOWN after 's', found '%.*s'",
                            (int)(n > 40 ? 40 : n), p);
                return 0;
            }
            said = st;
            continue;
        }
        if (isalpha((unsigned char)*p) && *p != 'v') {
            size_t n = strcspn(p, " \t");
            int st = status_word(p, n);
            if (st < 0) {
                ic_error_at(err, r->name, r->line, "expected a status (SAT/UNSAT), a 'v' line or literals, found '%.*s'",
                            (int)(n > 40 ? 40 : n), p);
                return 0;
            }
            said = st;
            continue;
        }
        if (*p == 'v') p++;
        for (;;) {
            while (*p == ' ' || *p == '\t') p++;
            if (!*p) break;
            char *end;
            errno = 0;
            long lit = strtol(p, &end, 10);
            if (end == p || (*end && *end != ' ' && *end != '\t') || errno || lit > 0x3fffffff || lit < -0x3fffffff) {
                size_t n = strcspn(p, " \t");
                ic_error_at(err, r->name, r->line, "expected a literal, found '%.*s'", (int)(n > 40 ? 40 : n), p);
                return 0;
            }
            p = end;
            if (lit) { set_lit(m, lit, &cap); lits++; }
        }
    }
    if (r->io_error) { ic_error_at(err, r->name, 0, "read error"); return 0; }
    if (said == 20 && lits) { ic_error_at(err, r->name, 0, "the answer says UNSATISFIABLE but lists literals"); return 0; }
    m->status = said >= 0 ? said : lits ? 10 : 0;
    return 1;
}
