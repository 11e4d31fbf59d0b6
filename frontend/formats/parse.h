/* parse.h — the history parsers and the loader that picks one.
 *
 * Every parser builds through history_builder and returns a history, or
 * NULL with err set to FILE:LINE (text formats) or FILE: byte N (binary)
 * and a message "expected ..., found ...".  Parsers never print, never
 * exit and never crash on any input.  Each fills a load report (what it
 * read, skipped, merged; notes and warnings; NULL: none) and honours the
 * load options. */
#ifndef ISOCHECK_PARSE_H
#define ISOCHECK_PARSE_H

#include <stddef.h>

#include "error.h"
#include "frontend/history/history.h"
#include "io/input.h"
#include "frontend/history/load_report.h"

typedef struct load_options {
    int failed_ops_abort;    /* dbcop: a committed transaction with a failed op is aborted */
    unsigned threads;        /* threads a parser may use (par.h); 0 or 1: one.  The history and any
                                error are the same for every count. */
    size_t chunk_bytes;      /* with threads: bytes lexed per task (0: the default, 2 MiB; tests set
                                it small to cut small inputs into many chunks) */
} load_options;

history *parse_text(input *r, const load_options *opt, load_report *rep, ic_error *err);
history *parse_dbcop(input *r, const load_options *opt, load_report *rep, ic_error *err);
history *parse_elle(input *r, const load_options *opt, load_report *rep, ic_error *err);
history *parse_json(input *r, const load_options *opt, load_report *rep, ic_error *err);
/* A directory of Cobra logs (*.log, one session each). */
history *parse_cobra_dir(const char *dir, load_report *rep, ic_error *err);
/* Cobra logs given as inputs (tests, fuzzing): logs[i] is session i. */
history *parse_cobra_logs(input *logs, size_t n, const char *source, load_report *rep, ic_error *err);

/* A directory of Viper's JSON-lines logs (J<n>.log, one session each). */
history *parse_viper_dir(const char *dir, load_report *rep, ic_error *err);
/* Viper logs given as inputs (tests; one file read as --format viper): logs[i] is session i + 1. */
history *parse_viper_logs(input *logs, size_t n, const char *source, load_report *rep, ic_error *err);

/* Cobra's special ids (see doc/formats.md). */
#define COBRA_INIT_WRITE_ID 0xbebeebeeLL
#define COBRA_INIT_TXN_ID   0xbebeebeeLL
#define COBRA_NULL_TXN_ID   0xdeadbeefLL
#define COBRA_GC_WID_TRUE   0x23332333LL
#define COBRA_GC_WID_FALSE  0x66666666LL
#define COBRA_UNIVERSAL_ID  0xabddefeeLL   /* value-identified logs (VeriStrong's) */

/* A format's name: "text", "dbcop", "cobra", "elle", "json", ... */
const char *history_format_name(history_format f);
/* The formats a command line names, in history_format order (written:
 * only those history_write_file writes): their names in names[] (NULL
 * after the last), their formats in fmts[]; at most max - 1 of them.
 * Returns the count.  The names come from the one table that
 * history_format_name reads. */
int history_format_list(int written, const char **names, history_format *fmts, int max);

/* Guess the format of a file's first bytes (not for directories). */
history_format detect_format(const unsigned char *p, size_t n);

/* Load path (file, "-" for stdin, or a Cobra directory) in format fmt
 * (FORMAT_AUTO: detect), with default options and no report. */
history *load_history(const char *path, history_format fmt, ic_error *err);
/* The same with options (NULL: defaults) and a load report (NULL: none;
 * else initialized by the caller, completed by load_report_finish). */
history *load_history_ex(const char *path, history_format fmt, const load_options *opt, load_report *rep, ic_error *err);
/* Load from memory (tests, fuzzing); Cobra takes one session. */
history *load_history_mem(const void *data, size_t n, history_format fmt, const char *name, ic_error *err);
history *load_history_mem_ex(const void *data, size_t n, history_format fmt, const char *name,
                             const load_options *opt, load_report *rep, ic_error *err);
/* Load from an opened input (io/input.h; not a Cobra directory); r stays
 * the caller's to close. */
history *load_history_input(input *r, history_format fmt, const load_options *opt, load_report *rep, ic_error *err);

#endif
