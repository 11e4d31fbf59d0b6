/* load.c — pick a parser: by --format, or by the input's shape.
 *
 * Detection: a directory of *.log files is Viper when its first log starts
 * with '{' (JSON lines), else Cobra; without logs but with
 * history.bincode it is a dbcop run (that file).  A file: after blanks and ';'
 * comments, '{' is an operation map, EDN ('{:') or JSON ('{"'), '[' or '('
 * opening a vector of them likewise; '[[{"' or '[[]' is dbcop's JSON (an
 * array of sessions); '#_' or a tag '#name{' is EDN; 'r('
 * or 'w(' (or a predicate line's 'rp(', 'up(', 'init(') is text ('#' lines are text comments); a Cobra 'S' record
 * followed by another record type byte is one Cobra log; NUL bytes in a
 * 48-byte dbcop header whose first string length is plausible is dbcop. */
#include "frontend/formats/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"
#include "frontend/formats/log_dir.h"

/* The one table of format names, in history_format order.  named: a
 * command line names it (not "auto", the default, nor "synthetic", the
 * builder's own); written: history_write_file (write.h) writes it. */
static const struct { const char *name; int named, written; } formats[] = {
    [FORMAT_AUTO] = { "auto", 0, 0 },     [FORMAT_TEXT] = { "text", 1, 1 },  [FORMAT_DBCOP] = { "dbcop", 1, 1 },
    [FORMAT_COBRA] = { "cobra", 1, 1 },   [FORMAT_ELLE] = { "elle", 1, 1 },
    [FORMAT_SYNTHETIC] = { "synthetic", 0, 0 }, [FORMAT_JSON] = { "json", 1, 0 },
    [FORMAT_VIPER] = { "viper", 1, 1 },   [FORMAT_DBCOP_JSON] = { "dbcop-json", 1, 1 },
};
#define NUM_FORMATS ((int)(sizeof formats / sizeof *formats))

const char *history_format_name(history_format f) {
    return (unsigned)f < (unsigned)NUM_FORMATS ? formats[f].name : "?";
}

int history_format_list(int written, const char **names, history_format *fmts, int max) {
    int n = 0;
    for (int i = 0; i < NUM_FORMATS && n + 1 < max; i++)
        if (formats[i].named && (!written || formats[i].written)) {
            names[n] = formats[i].name;
            fmts[n++] = (history_format)i;
        }
    names[n] = NULL;
    return n;
}

static uint64_t le64(const unsigned char *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
    return x;
}

static int blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; }

/* After '{' (at i): JSON if its first key is a string, else EDN. */
static history_format map_syntax(const unsigned char *p, size_t n, size_t i) {
    for (i++; i < n && blank(p[i]); i++) {}
    return i < n && p[i] == '"' ? FORMAT_JSON : FORMAT_ELLE;
}

history_format detect_format(const unsigned char *p, size_t n) {
    size_t i = 0;
    int comments = 0;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) i = 3;    /* a UTF-8 byte-order mark */
    for (;;) {                                             /* blanks and EDN ';' comments */
        while (i < n && blank(p[i])) i++;
        if (i >= n || p[i] != ';') break;
        comments = 1;
        while (i < n && p[i] != '\n') i++;
    }
    if (i < n && p[i] == '{') return map_syntax(p, n, i);
    if (i < n && (p[i] == '[' || p[i] == '(')) {            /* a vector or list of operation maps */
        size_t j = i + 1;
        while (j < n && blank(p[j])) j++;
        if (j < n && p[j] == '{') return p[i] == '(' ? FORMAT_ELLE : map_syntax(p, n, j);
        if (j < n && p[i] == '[' && p[j] == '[') {          /* dbcop's JSON: an array of sessions */
            size_t k = j + 1;
            while (k < n && blank(p[k])) k++;
            if (k < n && (p[k] == ']' || (p[k] == '{' && map_syntax(p, n, k) == FORMAT_JSON))) return FORMAT_JSON;
        }
        if (j < n && (p[j] == '#' || p[j] == ';' || p[j] == ']' || p[j] == ')')) return FORMAT_ELLE;
    }
    if (comments) return FORMAT_ELLE;
    if (i + 1 < n && p[i] == '#' && p[i + 1] == '_') return FORMAT_ELLE;
    if (i + 1 < n && (p[i] == 'r' || p[i] == 'w') && p[i + 1] == '(') return FORMAT_TEXT;
    if ((i + 2 < n && (p[i] == 'r' || p[i] == 'u') && p[i + 1] == 'p' && p[i + 2] == '(') ||
        (i + 4 < n && !memcmp(p + i, "init(", 5)))
        return FORMAT_TEXT;                                /* text's predicate lines (text_pred.h) */
    if (n >= 10 && p[0] == 'S' && memchr("WRCA", p[9], 4) && p[9]) return FORMAT_COBRA;   /* one log */
    if (n >= 48 && memchr(p, 0, 40) && le64(p + 40) < (1u << 20)) return FORMAT_DBCOP;
    if (i + 1 < n && p[i] == '#') {          /* an Elle record tag, or a commented text history */
        for (size_t j = i; j < n && p[j] != '\n'; j++)
            if (p[j] == '{') return FORMAT_ELLE;
        return FORMAT_TEXT;
    }
    return FORMAT_AUTO;
}

/* A compression format isocheck does not inflate (gzip is inflated by the
 * reader, io/gunzip.c), by its magic bytes: its name, or NULL. */
static const char *compressed_as(const unsigned char *p, size_t n) {
    static const struct { const char *name; unsigned char magic[6]; size_t len; } kinds[] = {
        { "xz", { 0xFD, '7', 'z', 'X', 'Z', 0x00 }, 6 },
        { "zstd", { 0x28, 0xB5, 0x2F, 0xFD }, 4 },
        { "lz4", { 0x04, 0x22, 0x4D, 0x18 }, 4 },
        { "7z", { '7', 'z', 0xBC, 0xAF, 0x27, 0x1C }, 6 },
        { "zip", { 'P', 'K', 0x03, 0x04 }, 4 },
    };
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        if (n >= kinds[k].len && !memcmp(p, kinds[k].magic, kinds[k].len)) return kinds[k].name;
    if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9') return "bzip2";
    return NULL;
}

static history *parse_input(input *r, history_format fmt, const load_options *opt, load_report *rep, ic_error *err) {
    const unsigned char *p;
    size_t n = input_peek(r, 4096, &p);
    /* a compressed file is never read as a history, whatever --format says;
     * dbcop's first field is a free u64 id, so a valid dbcop file could
     * begin with such bytes: named dbcop, it is parsed, and the compression
     * is named only if that fails */
    const char *packed = compressed_as(p, n);
    if (packed && fmt == FORMAT_DBCOP) {
        history *h = parse_dbcop(r, opt, rep, err);
        if (!h) {
            ic_error_clear(err);
            ic_error_at(err, r->name, 0, "%s-compressed: decompress it first (isocheck reads plain and gzip-compressed "
                        "histories)", packed);
        }
        return h;
    }
    if (packed) {
        ic_error_at(err, r->name, 0, "%s-compressed: decompress it first (isocheck reads plain and gzip-compressed histories)",
                    packed);
        return NULL;
    }
    if (fmt == FORMAT_AUTO) {
        if (n == 0 && input_error(r)) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); return NULL; }
        if (n == 0) { ic_error_at(err, r->name, 0, "empty history: the file is empty"); return NULL; }
        fmt = detect_format(p, n);
        if (fmt == FORMAT_AUTO) {
            ic_error_at(err, r->name, 0,
                        "cannot tell the format (expected text r(...)/w(...) lines, Elle EDN maps, "
                        "JSON objects, dbcop bincode or Cobra logs); use --format");
            return NULL;
        }
    }
    switch (fmt) {
    case FORMAT_TEXT:  return parse_text(r, opt, rep, err);
    case FORMAT_DBCOP: return parse_dbcop(r, opt, rep, err);
    case FORMAT_ELLE:  return parse_elle(r, opt, rep, err);
    case FORMAT_JSON:
    case FORMAT_DBCOP_JSON: return parse_json(r, opt, rep, err);    /* (it tells dbcop's JSON by its shape) */
    case FORMAT_COBRA: return parse_cobra_logs(r, 1, r->name, rep, err);
    case FORMAT_VIPER: return parse_viper_logs(r, 1, r->name, rep, err);
    default:
        ic_error_at(err, r->name, 0, "unsupported format");
        return NULL;
    }
}

/* Whether a directory of logs holds Viper's JSON lines rather than Cobra's
 * binary records: its first log's first non-blank byte is '{' (a Cobra
 * log starts with a record type byte, 'S'). */
static int dir_is_viper(const char *path) {
    size_t n;
    ic_error e;
    ic_error_clear(&e);
    char **logs = log_dir_list(path, "logs", &n, &e);
    if (!logs) return 0;
    int viper = 0;
    FILE *f = fopen(logs[0], "rb");
    if (f) {
        int c;
        while ((c = getc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n') {}
        viper = c == '{';
        fclose(f);
    }
    log_dir_free(logs);
    return viper;
}

static history *load_any(const char *path, history_format fmt, const load_options *opt, load_report *rep, ic_error *err) {
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (fmt != FORMAT_AUTO && fmt != FORMAT_COBRA && fmt != FORMAT_VIPER) {
            ic_error_at(err, path, 0, "is a directory; only the cobra and viper formats are directories of logs");
            return NULL;
        }
        /* a dbcop run directory (hist-00000/history.bincode) without logs */
        size_t pl = strlen(path);
        char *bin = xmalloc(pl + 32);
        sprintf(bin, "%s/history.bincode", path);
        struct stat bs;
        int dbcop_dir = fmt == FORMAT_AUTO && stat(bin, &bs) == 0 && S_ISREG(bs.st_mode) && !log_dir_has_logs(path);
        history *h = NULL;
        if (dbcop_dir) {
            input r;
            if (input_open(&r, bin, err)) { h = parse_dbcop(&r, opt, rep, err); input_close(&r); }
        } else if (fmt == FORMAT_VIPER || (fmt == FORMAT_AUTO && dir_is_viper(path))) h = parse_viper_dir(path, rep, err);
        else h = parse_cobra_dir(path, rep, err);
        free(bin);
        return h;
    }
    input r;
    if (!input_open(&r, path, err)) return NULL;
    history *h = parse_input(&r, fmt, opt, rep, err);
    input_close(&r);
    return h;
}

history *load_history_ex(const char *path, history_format fmt, const load_options *opt, load_report *rep, ic_error *err) {
    history *h = load_any(path, fmt, opt, rep, err);
    if (h) load_report_finish(rep, h);
    return h;
}

history *load_history(const char *path, history_format fmt, ic_error *err) {
    return load_history_ex(path, fmt, NULL, NULL, err);
}

history *load_history_mem_ex(const void *data, size_t n, history_format fmt, const char *name,
                             const load_options *opt, load_report *rep, ic_error *err) {
    input r;
    input_from_mem(&r, data, n, name);
    history *h = parse_input(&r, fmt, opt, rep, err);
    input_close(&r);
    if (h) load_report_finish(rep, h);
    return h;
}

history *load_history_input(input *r, history_format fmt, const load_options *opt, load_report *rep, ic_error *err) {
    history *h = parse_input(r, fmt, opt, rep, err);
    if (h) load_report_finish(rep, h);
    return h;
}

history *load_history_mem(const void *data, size_t n, history_format fmt, const char *name, ic_error *err) {
    return load_history_mem_ex(data, n, fmt, name, NULL, NULL, err);
}
