/* load_report.c — see load_report.h. */
#include "frontend/load_report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

void load_report_init(load_report *r) {
    memset(r, 0, sizeof *r);
    vec_init(r->notes);
}

void load_report_free(load_report *r) {
    if (!r) return;
    for (size_t i = 0; i < r->notes.len; i++) free(r->notes.data[i]);
    vec_free(r->notes);
}

void load_report_note(load_report *r, const char *kind, const char *fmt, ...) {
    if (!r) return;
    char buf[1024];
    int at = snprintf(buf, sizeof buf, "%s: ", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, sizeof buf - (size_t)at, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    char *s = xmalloc(n + 1);
    memcpy(s, buf, n + 1);
    vec_push(r->notes, s);
}

void load_report_finish(load_report *r, const history *h) {
    if (!r) return;
    r->txns = h->num_txns - 1;
    r->ops = h->num_ops - h->txns[0].num_ops;
    uint64_t committed = 0, aborted = 0, indeterminate = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        if (h->txns[t].status == TXN_COMMITTED) committed++;
        else if (h->txns[t].status == TXN_ABORTED) aborted++;
        else indeterminate++;
    }
    if (!committed)
        load_report_note(r, "note",
                         "no committed transaction (%" PRIu64 " aborted, %" PRIu64 " indeterminate): "
                         "there is nothing to check, so any level holds trivially", aborted, indeterminate);
}

void load_report_print(FILE *out, const load_report *r) {
#define LOAD_TEXT(name, desc) \
    if (r->name) fprintf(out, "  %-20s %10" PRIu64 "  %s\n", #name, r->name, desc);
    LOAD_COUNTS(LOAD_TEXT)
#undef LOAD_TEXT
}

void load_report_print_notes(FILE *out, const load_report *r, const char *prog, const char *source) {
    for (size_t i = 0; i < r->notes.len; i++) fprintf(out, "%s: %s: %s\n", prog, source, r->notes.data[i]);
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void load_report_print_json(FILE *out, const load_report *r) {
    const char *sep = "{";
#define LOAD_JSON(name, desc) { fprintf(out, "%s\"" #name "\": %" PRIu64, sep, r->name); sep = ", "; }
    LOAD_COUNTS(LOAD_JSON)
#undef LOAD_JSON
    fprintf(out, ", \"notes\": [");
    for (size_t i = 0; i < r->notes.len; i++) {
        if (i) fputs(", ", out);
        json_string(out, r->notes.data[i]);
    }
    fputs("]}", out);
}
