/* output_tree.c — a new directory of output files, written into a
 * temporary directory and renamed into place (rules in output_tree.h). */
#include "io/output_tree.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/path.h"

static char *dupstr(const char *s) { return strcpy(xmalloc(strlen(s) + 1), s); }

static char *join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = xmalloc(n);
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

/* 1 if the directory holds no entry but . and .. (-1: cannot be read). */
static int dir_empty(const char *path) {
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d))) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

int output_tree_check(const char *path, ic_error *err) {
    struct stat st;
    if (!path[0] || !strcmp(path, "-")) { ic_error_at(err, path, 0, "a report needs a directory name"); return 0; }
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return 1;
        ic_error_at(err, path, 0, "cannot use it as a report directory: %s", strerror(errno));
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        ic_error_at(err, path, 0, "exists and is not a directory; a report directory must be new or empty");
        return 0;
    }
    int e = dir_empty(path);
    if (e < 0) { ic_error_at(err, path, 0, "cannot read the directory: %s", strerror(errno)); return 0; }
    if (!e) {
        ic_error_at(err, path, 0, "is not empty; a report directory must be new or empty (nothing in it is replaced)");
        return 0;
    }
    return 1;
}

static void tree_release(output_tree *t) {
    free(t->path); free(t->tmp); free(t->cur_name);
    vec_foreach(char *, s, t->dirs) free(*s);
    vec_foreach(char *, s, t->files) free(*s);
    vec_free(t->dirs); vec_free(t->files); vec_free(t->regs);
    memset(t, 0, sizeof *t);
}

void output_tree_discard(output_tree *t) {
    if (t->cur) { fclose(t->cur); t->cur = NULL; }
    vec_foreach(char *, s, t->files) unlink(*s);
    for (size_t i = t->dirs.len; i-- > 0;) rmdir(t->dirs.data[i]);
    if (t->tmp) rmdir(t->tmp);
    vec_foreach(tmpreg_slot *, r, t->regs) tmpreg_remove(*r);
    tree_release(t);
}

static int valid_subdir(const char *s) {
    return s[0] && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

/* The temporary directory and its subdirectories, listed in the registry
 * children first, with the signals it covers blocked meanwhile. */
static int tree_make(output_tree *t, const char *const *subdirs, size_t n, ic_error *err) {
    char *dir = path_dir(t->path);
    size_t len = strlen(dir) + strlen(path_base(t->path)) + 32;
    char *tmp = xmalloc(len);
    snprintf(tmp, len, "%s/.%s.isocheck-XXXXXX", dir, path_base(t->path));
    free(dir);
    sigset_t block, was;
    tmpreg_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &was);
    int ok = mkdtemp(tmp) != NULL, e = errno;
    if (ok) t->tmp = tmp;
    for (size_t i = 0; ok && i < n; i++) {
        char *p = join(tmp, subdirs[i]);
        if (mkdir(p, 0777) != 0) { e = errno; ok = 0; free(p); break; }
        vec_push(t->dirs, p);
        vec_push(t->regs, tmpreg_add(p, 1));
    }
    if (t->tmp) vec_push(t->regs, tmpreg_add(tmp, 1));
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (!ok) {
        ic_error_at(err, t->path, 0, "cannot create the temporary directory %s: %s", tmp, strerror(e));
        if (!t->tmp) free(tmp);
        return 0;
    }
    mode_t um = umask(0);
    umask(um);
    if (chmod(tmp, 0777 & ~um) != 0) {
        ic_error_at(err, t->path, 0, "cannot set up the temporary directory %s: %s", tmp, strerror(errno));
        return 0;
    }
    return 1;
}

int output_tree_open(output_tree *t, const char *path, const char *const *subdirs, size_t n, ic_error *err) {
    memset(t, 0, sizeof *t);
    if (!output_tree_check(path, err)) return 0;
    for (size_t i = 0; i < n; i++)
        if (!valid_subdir(subdirs[i])) { ic_error_at(err, path, 0, "bad subdirectory name '%s'", subdirs[i]); return 0; }
    vec_init(t->dirs); vec_init(t->files); vec_init(t->regs);
    t->path = dupstr(path);
    if (!tree_make(t, subdirs, n, err)) { output_tree_discard(t); return 0; }
    return 1;
}

/* Flush, sync and close the current file; 1, or 0 with err set. */
static int close_current(output_tree *t, ic_error *err) {
    if (!t->cur) return 1;
    FILE *f = t->cur;
    t->cur = NULL;
    int bad = ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) { bad = 1; e = errno; }
    if (bad) {
        ic_error_at(err, t->path, 0, "cannot write %s: %s", t->cur_name, e ? strerror(e) : "write error");
        return 0;
    }
    return 1;
}

/* name: "FILE" or "SUB/FILE" with SUB made at open. */
static int name_ok(const output_tree *t, const char *name) {
    const char *slash = strchr(name, '/');
    if (!slash) return valid_subdir(name);
    if (strchr(slash + 1, '/') || !valid_subdir(slash + 1)) return 0;
    size_t dl = (size_t)(slash - name), tl = strlen(t->tmp);
    vec_foreach(char *const, d, t->dirs)
        if (strlen(*d) == tl + 1 + dl && !strncmp(*d + tl + 1, name, dl)) return 1;
    return 0;
}

FILE *output_tree_file(output_tree *t, const char *name, ic_error *err) {
    if (!close_current(t, err)) return NULL;
    if (!name_ok(t, name)) { ic_error_at(err, t->path, 0, "bad file name '%s' in the report", name); return NULL; }
    char *p = join(t->tmp, name);
    sigset_t block, was;
    tmpreg_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &was);
    FILE *f = fopen(p, "wx");                      /* exclusive: never an existing file */
    int e = errno;
    if (f) { vec_push(t->files, p); vec_push(t->regs, tmpreg_add(p, 0)); }
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (!f) {
        ic_error_at(err, t->path, 0, "cannot create %s: %s", p, strerror(e));
        free(p);
        return NULL;
    }
    free(t->cur_name);
    t->cur_name = dupstr(name);
    t->cur = f;
    return f;
}

int output_tree_commit(output_tree *t, ic_error *err) {
    if (!close_current(t, err)) { output_tree_discard(t); return 0; }
    /* DIR again: it may have appeared, or been filled, while we wrote */
    if (!output_tree_check(t->path, err)) { output_tree_discard(t); return 0; }
    if (rename(t->tmp, t->path) != 0) {
        ic_error_at(err, t->path, 0, "cannot move the report into place: %s", strerror(errno));
        output_tree_discard(t);
        return 0;
    }
    vec_foreach(tmpreg_slot *, r, t->regs) tmpreg_remove(*r);
    tree_release(t);
    return 1;
}
