/* load.c — pick a parser: by --format, or by the input's shape.
 *
 * Detection: a directory is Cobra; a file whose first non-blank byte is
 * '{' is Elle, 'r(' or 'w(' is text; a file starting with a Cobra 'S'
 * record followed by another record type byte is one Cobra log; a file with NUL bytes in a 48-byte dbcop header
 * whose first string length is plausible is dbcop.  A directory without
 * *.log files but with history.bincode (a dbcop run) is that file. */
#include "frontend/parse.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"

static const char *const format_names[] = { "auto", "text", "dbcop", "cobra", "elle", "synthetic" };

int history_format_from_name(const char *name) {
    if (!name) return FORMAT_AUTO;
    for (int i = 0; i <= FORMAT_ELLE; i++)
        if (!strcmp(name, format_names[i])) return i;
    return -1;
}

const char *history_format_name(history_format f) {
    return (unsigned)f < sizeof format_names / sizeof *format_names ? format_names[f] : "?";
}

static uint64_t le64(const unsigned char *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
    return x;
}

history_format detect_format(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
    if (i < n && p[i] == '{') return FORMAT_ELLE;
    if (i + 1 < n && (p[i] == 'r' || p[i] == 'w') && p[i + 1] == '(') return FORMAT_TEXT;
    if (n >= 10 && p[0] == 'S' && memchr("WRCA", p[9], 4) && p[9]) return FORMAT_COBRA;   /* one log */
    if (n >= 48 && memchr(p, 0, 40) && le64(p + 40) < (1u << 20)) return FORMAT_DBCOP;
    if (i + 1 < n && p[i] == '#') {          /* an Elle record tag, or a commented text history */
        for (size_t j = i; j < n && p[j] != '\n'; j++)
            if (p[j] == '{') return FORMAT_ELLE;
        return FORMAT_TEXT;
    }
    return FORMAT_AUTO;
}

static history *parse_input(input *r, history_format fmt, ic_error *err) {
    if (fmt == FORMAT_AUTO) {
        const unsigned char *p;
        size_t n = input_peek(r, 4096, &p);
        if (n == 0 && input_error(r)) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); return NULL; }
        if (n == 0) { ic_error_at(err, r->name, 0, "empty history: the file is empty"); return NULL; }
        fmt = detect_format(p, n);
        if (fmt == FORMAT_AUTO) {
            ic_error_at(err, r->name, 0,
                        "cannot tell the format (expected text r(...)/w(...) lines, Elle EDN maps, "
                        "dbcop bincode or Cobra logs); use --format");
            return NULL;
        }
    }
    switch (fmt) {
    case FORMAT_TEXT:  return parse_text(r, err);
    case FORMAT_DBCOP: return parse_dbcop(r, err);
    case FORMAT_ELLE:  return parse_elle(r, err);
    case FORMAT_COBRA: return parse_cobra_logs(r, 1, r->name, err);
    default:
        ic_error_at(err, r->name, 0, "unsupported format");
        return NULL;
    }
}

static int dir_has_logs(const char *path) {
    DIR *d = opendir(path);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        found = n > 4 && !strcmp(e->d_name + n - 4, ".log");
    }
    closedir(d);
    return found;
}

history *load_history(const char *path, history_format fmt, ic_error *err) {
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (fmt != FORMAT_AUTO && fmt != FORMAT_COBRA) {
            ic_error_at(err, path, 0, "is a directory; only the cobra format is a directory of logs");
            return NULL;
        }
        /* a dbcop run directory (hist-00000/history.bincode) without logs */
        size_t pl = strlen(path);
        char *bin = xmalloc(pl + 32);
        sprintf(bin, "%s/history.bincode", path);
        struct stat bs;
        int dbcop_dir = fmt == FORMAT_AUTO && stat(bin, &bs) == 0 && S_ISREG(bs.st_mode) && !dir_has_logs(path);
        history *h = NULL;
        if (dbcop_dir) {
            input r;
            if (input_open(&r, bin, err)) { h = parse_dbcop(&r, err); input_close(&r); }
        } else h = parse_cobra_dir(path, err);
        free(bin);
        return h;
    }
    input r;
    if (!input_open(&r, path, err)) return NULL;
    history *h = parse_input(&r, fmt, err);
    input_close(&r);
    return h;
}

history *load_history_mem(const void *data, size_t n, history_format fmt, const char *name, ic_error *err) {
    input r;
    input_from_mem(&r, data, n, name);
    history *h = parse_input(&r, fmt, err);
    input_close(&r);
    return h;
}
