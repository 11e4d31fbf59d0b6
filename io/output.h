/* output.h — every file an isocheck command writes goes through here
 * (convert, check --certificate/--dot, encode -o, decode -o, gen -o and
 * its .truth), so that no command ever loses a user's file.
 *
 * Rules (doc/cli.md, "Output files"):
 *   - "-" is standard output, written in place (checked when the program
 *     closes it).
 *   - An existing target that is not a regular file (a device such as
 *     /dev/null or /dev/full, a FIFO) is written in place: never replaced,
 *     never removed, whatever happens.
 *   - A regular file, new or existing, is written to a temporary file
 *     created (exclusively) beside it, and renamed over the target only
 *     when every byte was written and the file closed without error.  On
 *     any failure the temporary file is removed: the module removes only
 *     files it created.  An existing target keeps its permission bits; a
 *     symbolic link to a file keeps being a link (the file it names is
 *     replaced).
 *   - OUTPUT_NO_CLOBBER refuses an existing regular file (or a non-empty
 *     directory), so that only an explicit --force replaces one.
 *   - A directory output (Cobra logs) is filled the same way: each log is
 *     written under a temporary name and renamed when all are complete.
 *     An existing directory must be empty, unless OUTPUT_FORCE: then the
 *     `*.log` entries in it (the files the Cobra reader would read back as
 *     sessions) are removed after the new logs are complete; nothing else
 *     in the directory is touched.  A directory the module created is
 *     removed again if writing fails.
 *   - output_check_input() refuses an output that is an input (same device
 *     and inode, whatever the names: "-" is the file behind standard input
 *     or output, /dev/stdin and /proc/self/fd/N the file they lead to), lies
 *     inside an input directory, or is a directory containing an input;
 *     a pipe counts as a file (writing into the pipe one reads would keep
 *     it open forever), a terminal or other character device, or a socket,
 *     does not.  output_check_distinct() refuses two outputs that are the
 *     same file.
 *   - Every temporary file, and a directory the module created, is listed
 *     in io/tmp_registry.h while it exists: a program that calls
 *     tmpreg_on_signals() leaves none behind when SIGINT, SIGTERM (and the
 *     other signals listed there) end it.
 * Errors are returned in an ic_error naming the path; nothing is printed. */
#ifndef ISOCHECK_OUTPUT_H
#define ISOCHECK_OUTPUT_H

#include <stdio.h>

#include "error.h"
#include "io/tmp_registry.h"
#include "vec.h"

enum { OUTPUT_NO_CLOBBER = 1, OUTPUT_FORCE = 2 };

typedef struct output {
    FILE *f;                 /* write here between open and commit */
    char *path;              /* as given (for messages) */
    char *target;            /* the file replaced on commit */
    char *tmp;               /* the temporary file; NULL: writing in place */
    tmpreg_slot *reg;        /* tmp's entry in the registry */
    int is_stdout;
} output;

/* Open path for writing ("-": standard output).  0 with err set. */
int output_open(output *o, const char *path, unsigned flags, ic_error *err);
/* Flush, check and close; move the temporary file into place.  1 on
 * success; 0 with err set (the temporary file is then removed).  Releases
 * o either way. */
int output_commit(output *o, ic_error *err);
/* Give up: remove the temporary file (nothing else); release o.  Safe on
 * a zeroed or already released output. */
void output_discard(output *o);

/* A write to standard output failed with errno e: noted (the first one)
 * by a writer that sees the failure, for output_commit and the program's
 * last check of standard output, which cannot learn it once stdio has
 * dropped the bytes that failed. */
void output_stdout_failed(int e);
/* Why writes to standard output fail: the errno noted, else what a write
 * of nothing answers (a device: /dev/full gives ENOSPC); 0 if unknown. */
int output_stdout_errno(void);

typedef struct output_dir {
    char *path;
    int created;             /* the module made the directory */
    int force;
    tmpreg_slot *reg;        /* the directory's entry in the registry, if created */
    VEC(char *) tmp, final;  /* temporary and final names of the files written */
    VEC(tmpreg_slot *) regs; /* the temporary files' entries */
    FILE *cur;               /* the file being written, if any */
} output_dir;

/* A directory for output files (created if absent).  0 with err set. */
int output_dir_open(output_dir *d, const char *path, unsigned flags, ic_error *err);
/* Start the file `name` in the directory (written under a temporary
 * name); the previous file, if any, is closed and checked first.  NULL
 * with err set. */
FILE *output_dir_file(output_dir *d, const char *name, ic_error *err);
/* Close and check the last file, remove stale *.log entries (OUTPUT_FORCE),
 * rename every file into place.  1 on success; 0 with err set (then as
 * output_dir_discard).  Releases d. */
int output_dir_commit(output_dir *d, ic_error *err);
void output_dir_discard(output_dir *d);

/* Would output_open (is_dir: output_dir_open) with flags accept path?
 * Creates nothing: for commands that find out late what they write. */
int output_may_write(const char *path, int is_dir, unsigned flags, ic_error *err);

/* 0 with err set if writing out_path would write over or into in_path
 * (out_is_dir: out_path is an output directory).  "-" is standard input
 * as in_path, standard output as out_path. */
int output_check_input(const char *out_path, int out_is_dir, const char *in_path, ic_error *err);
/* 0 with err set if a and b are the same file (NULLs are ignored). */
int output_check_distinct(const char *a, const char *b, ic_error *err);

#endif
