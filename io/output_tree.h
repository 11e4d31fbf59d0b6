/* output_tree.h — a new directory of output files (`check --report DIR`),
 * written whole or not at all, never over anything of the user's.
 *
 * Rules (doc/cli.md, "Report directories"):
 *   - DIR must not exist, or be an empty directory.  A DIR that exists and
 *     is not a directory, or holds anything (even files an earlier run
 *     wrote), is refused before any work: the module never removes or
 *     replaces a file it did not create in this run.
 *   - Everything is written into a fresh temporary directory created
 *     beside DIR (".BASE.isocheck-XXXXXX", mkdtemp), with the
 *     subdirectories named at open; output_tree_commit flushes, syncs and
 *     closes each file (every write checked), then renames the temporary
 *     directory onto DIR (rename(2) replaces an empty directory, and fails
 *     if something appeared in DIR meanwhile).  On any failure, and on
 *     discard, exactly the files and directories the module created are
 *     removed.
 *   - Every file and directory created is listed in io/tmp_registry.h while
 *     the tree is not in place: a signal leaves nothing behind (the
 *     subdirectories are listed before the top one, so the handler's rmdir
 *     pass empties them first).
 *   - Names are relative ("index.html", "001-h/index.html"); a name with
 *     "..", a leading '/' or an unknown subdirectory is refused.
 * Errors are returned in an ic_error naming the path; nothing is printed. */
#ifndef ISOCHECK_OUTPUT_TREE_H
#define ISOCHECK_OUTPUT_TREE_H

#include <stdio.h>

#include "error.h"
#include "io/tmp_registry.h"
#include "vec.h"

typedef struct output_tree {
    char *path;                  /* DIR as given */
    char *tmp;                   /* the temporary directory */
    VEC(char *) dirs;            /* its subdirectories (full paths), in creation order */
    VEC(char *) files;           /* files created in it (full paths) */
    VEC(tmpreg_slot *) regs;     /* registry entries: subdirectories, top, then files */
    FILE *cur;                   /* the file being written, if any */
    char *cur_name;
} output_tree;

/* Would DIR be accepted?  Creates nothing.  0 with err set. */
int output_tree_check(const char *path, ic_error *err);
/* Check DIR, create the temporary directory and its n subdirectories
 * (plain names, no '/').  0 with err set (nothing left behind). */
int output_tree_open(output_tree *t, const char *path, const char *const *subdirs, size_t n, ic_error *err);
/* Start the file `name` (relative to DIR); the previous file, if any, is
 * closed and checked first.  NULL with err set. */
FILE *output_tree_file(output_tree *t, const char *name, ic_error *err);
/* Close and check the last file, rename the tree into place.  1 on
 * success; 0 with err set (everything created removed).  Releases t. */
int output_tree_commit(output_tree *t, ic_error *err);
/* Remove everything created; release t.  Safe on a zeroed or released tree. */
void output_tree_discard(output_tree *t);

#endif
