/* path.h — the parts of a file name, as dirname(3) and basename(3) give
 * them but without touching the argument: the one place the project splits
 * a path (output files are created beside their target, gen's dbcop spool
 * beside its output).
 *
 *   path_dir("a/b/c") = "a/b"   path_dir("c") = "."   path_dir("/c") = "/"
 *   path_base("a/b/c") = "c"    path_base("c") = "c"
 * A path ending in '/' has an empty base ("a/" -> dir "a", base ""). */
#ifndef ISOCHECK_PATH_H
#define ISOCHECK_PATH_H

/* The directory part, newly allocated (the caller frees it). */
char *path_dir(const char *path);
/* The last component: a pointer into path. */
const char *path_base(const char *path);

#endif
