/* cmdline.c — table-driven option parser and help (contract in cmdline.h). */
#include "programs/cmdline.h"
#include "io/output.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* '-' and '_' are the same in option names; s ends at '=' or NUL. */
static int name_matches(const char *name, const char *s) {
    for (; *name; name++, s++) {
        char a = *name == '_' ? '-' : *name, b = *s == '_' ? '-' : *s;
        if (a != b) return 0;
    }
    return *s == 0 || *s == '=';
}

static cmd_opt *find_long(cmd_opt *opts, const char *s) {
    for (cmd_opt *o = opts; o->kind != CMD_KIND_END; o++)
        if (name_matches(o->name, s)) return o;
    return NULL;
}

static cmd_opt *find_short(cmd_opt *opts, char c) {
    for (cmd_opt *o = opts; o->kind != CMD_KIND_END; o++)
        if (o->short_name && o->short_name == c) return o;
    return NULL;
}

static void choices_text(const char *const *choices, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; choices[i] && len < n; i++) {
        const char *sep = i == 0 ? "" : choices[i + 1] ? ", " : " or ";
        len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, choices[i]);
    }
}

/* Does v start as a number of o's kind: a digit, after an optional sign
 * ('+', or '-' unless unsigned), or '.' for a real?  Every number option
 * refuses alike what strtoll, strtoull and strtod would skip or wrap:
 * leading white space of any kind, a '-' read as a huge unsigned value. */
static int number_start(cmd_kind kind, const char *v) {
    if (*v == '+' || (*v == '-' && kind != CMD_KIND_U64)) v++;
    return (*v >= '0' && *v <= '9') || (kind == CMD_KIND_REAL && *v == '.');
}

/* v for an error message: control bytes (a newline, a tab) as escapes. */
static const char *printable(const char *v, char *buf, size_t n) {
    size_t len = 0;
    for (; *v && len + 5 < n; v++) {
        unsigned char c = (unsigned char)*v;
        if (c == '\n') { buf[len++] = '\\'; buf[len++] = 'n'; }
        else if (c == '\t') { buf[len++] = '\\'; buf[len++] = 't'; }
        else if (c < 0x20 || c == 0x7f) len += (size_t)snprintf(buf + len, n - len, "\\x%02x", c);
        else buf[len++] = (char)c;
    }
    if (*v && len + 4 <= n) { memcpy(buf + len, "...", 3); len += 3; }
    buf[len] = 0;
    return buf;
}

/* Check text against o's kind and store it; 0 with err set if it does not fit. */
static int store_value(cmd_opt *o, const char *shown, const char *value, ic_error *err) {
    char *end, vbuf[160];
    const char *v = value;
    int number = o->kind == CMD_KIND_INT || o->kind == CMD_KIND_U64 || o->kind == CMD_KIND_REAL;
    if (number && !number_start(o->kind, value)) v = "";     /* refused below, whatever strto* would take */
    switch (o->kind) {
    case CMD_KIND_STR:
        if (!*v) { ic_error_at(err, "", 0, "option %s needs a non-empty value (%s)", shown, o->arg ? o->arg : "VALUE"); return 0; }
        *(const char **)o->dest = v;
        return 1;
    case CMD_KIND_INT: {
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (*v && !errno && end != v && !*end && x >= o->lo && x <= o->hi) {
            *(int64_t *)o->dest = (int64_t)x;
            return 1;
        }
        if (o->hi == INT64_MAX)
            ic_error_at(err, "", 0, "option %s expects an integer >= %" PRId64 ", found '%s'", shown, o->lo,
                        printable(value, vbuf, sizeof vbuf));
        else
            ic_error_at(err, "", 0, "option %s expects an integer in %" PRId64 "..%" PRId64 ", found '%s'", shown, o->lo, o->hi,
                        printable(value, vbuf, sizeof vbuf));
        return 0;
    }
    case CMD_KIND_U64: {
        errno = 0;
        unsigned long long x = strtoull(v, &end, 10);
        if (*v && !errno && end != v && !*end && x >= (uint64_t)o->lo && x <= o->umax) {
            *(uint64_t *)o->dest = (uint64_t)x;
            return 1;
        }
        ic_error_at(err, "", 0, "option %s expects an integer in %" PRId64 "..%" PRIu64 ", found '%s'", shown, o->lo, o->umax,
                    printable(value, vbuf, sizeof vbuf));
        return 0;
    }
    case CMD_KIND_REAL: {
        errno = 0;
        double x = strtod(v, &end);
        if (*v && !errno && end != v && !*end && isfinite(x) && x >= o->rlo && x <= o->rhi) {
            *(double *)o->dest = x;
            return 1;
        }
        ic_error_at(err, "", 0, "option %s expects a number in %g..%g, found '%s'", shown, o->rlo, o->rhi,
                    printable(value, vbuf, sizeof vbuf));
        return 0;
    }
    case CMD_KIND_CHOICE:
    case CMD_KIND_OPT_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (!strcmp(o->choices[i], v)) { *(int *)o->dest = i; return 1; }
        {
            char cs[256];
            choices_text(o->choices, cs, sizeof cs);
            ic_error_at(err, "", 0, "option %s: unknown value '%s' (expected %s)", shown, printable(value, vbuf, sizeof vbuf), cs);
        }
        return 0;
    default:
        return 0;
    }
}

static const char *arg_name(const cmd_opt *o) {
    if (o->arg) return o->arg;
    return o->kind == CMD_KIND_STR ? "VALUE" : o->kind == CMD_KIND_CHOICE || o->kind == CMD_KIND_OPT_CHOICE ? "NAME" : "N";
}

cmdline_result cmdline_parse(cmd_spec *spec, int argc, char **argv, const char **operands, int *num_operands,
                             ic_error *err) {
    int n = 0, only_operands = 0;
    for (cmd_opt *o = spec->opts; o->kind != CMD_KIND_END; o++) o->given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_operands || a[0] != '-' || a[1] == 0) {
            if (n >= spec->max_operands) {
                ic_error_at(err, "", 0, "unexpected argument '%s' (expected %s)", a, spec->operands ? spec->operands : "no operands");
                return CMDLINE_ERROR;
            }
            operands[n++] = a;
            continue;
        }
        if (!strcmp(a, "--")) { only_operands = 1; continue; }
        cmd_opt *o;
        const char *inline_val = NULL;
        char shown[64];
        if (a[1] == '-') {
            o = find_long(spec->opts, a + 2);
            const char *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a) : strlen(a);
            snprintf(shown, sizeof shown, "%.*s", (int)(len < 60 ? len : 60), a);
            if (!o && (!strcmp(a, "--help"))) return CMDLINE_HELP;
            if (eq) inline_val = eq + 1;
        } else {
            o = a[2] == 0 ? find_short(spec->opts, a[1]) : NULL;
            snprintf(shown, sizeof shown, "%.60s", a);
            if (!o && !strcmp(a, "-h")) return CMDLINE_HELP;
        }
        if (!o) {
            ic_error_at(err, "", 0, "unknown option '%s'", a);
            return CMDLINE_ERROR;
        }
        o->given++;
        if (o->kind == CMD_KIND_FLAG) {
            if (inline_val) { ic_error_at(err, "", 0, "option %s takes no value, found '%s'", shown, a); return CMDLINE_ERROR; }
            *(int *)o->dest = 1;
            continue;
        }
        if (o->kind == CMD_KIND_OPT_CHOICE && !inline_val) {
            *(int *)o->dest = 0;
            continue;
        }
        const char *v = inline_val;
        if (!v) {
            if (i + 1 >= argc) {
                ic_error_at(err, "", 0, "option %s needs a value (%s)", shown, arg_name(o));
                return CMDLINE_ERROR;
            }
            v = argv[++i];
            if (v[0] == '-' && v[1] == '-' && v[2]) {
                ic_error_at(err, "", 0, "option %s needs a value (%s), found the option '%s' (write %s=%s if you mean a value)",
                            shown, arg_name(o), v, shown, v);
                return CMDLINE_ERROR;
            }
        }
        if (!store_value(o, shown, v, err)) return CMDLINE_ERROR;
    }
    if (n < spec->min_operands) {
        ic_error_at(err, "", 0, "missing operand (expected %s)", spec->operands ? spec->operands : "more arguments");
        return CMDLINE_ERROR;
    }
    *num_operands = n;
    return CMDLINE_OK;
}

void cmdline_help(FILE *out, const cmd_spec *spec) {
    fprintf(out, "usage: %s %s\n", spec->prog, spec->synopsis);
    if (spec->about) fprintf(out, "%s", spec->about);
    fprintf(out, "\noptions:\n");
    for (const cmd_opt *o = spec->opts; o->kind != CMD_KIND_END; o++) {
        char left[96], cs[256];
        int len = 0;
        if (o->short_name) len += snprintf(left + len, sizeof left - (size_t)len, "-%c, ", o->short_name);
        len += snprintf(left + len, sizeof left - (size_t)len, "--%s", o->name);
        if (o->kind == CMD_KIND_OPT_CHOICE && len < (int)sizeof left)
            snprintf(left + len, sizeof left - (size_t)len, "[=%s]", arg_name(o));
        else if (o->kind != CMD_KIND_FLAG && len < (int)sizeof left)
            snprintf(left + len, sizeof left - (size_t)len, " %s", arg_name(o));
        if (strlen(left) > 22) fprintf(out, "  %s\n  %-22s ", left, "");
        else fprintf(out, "  %-22s ", left);
        fprintf(out, "%s", o->help ? o->help : "");
        if (o->kind == CMD_KIND_CHOICE || o->kind == CMD_KIND_OPT_CHOICE) {
            choices_text(o->choices, cs, sizeof cs);
            fprintf(out, " [%s]", cs);
        }
        fputc('\n', out);
    }
    fprintf(out, "  %-22s %s\n", "-h, --help", "this help");
    if (spec->epilog) fprintf(out, "\n%s", spec->epilog);
}

int cmdline_close_stdout(ic_error *err) {
    errno = 0;
    int flush_failed = fflush(stdout) != 0;
    int e = flush_failed ? errno : 0;
    int bad = flush_failed || ferror(stdout);
    if (bad && !e) e = output_stdout_errno();       /* a write that failed earlier: its errno is gone */
    if (fclose(stdout) != 0 && !bad) { bad = 1; e = errno; }
    if (bad) ic_error_at(err, "", 0, "error writing standard output%s%s", e ? ": " : "", e ? strerror(e) : "");
    return !bad;
}
