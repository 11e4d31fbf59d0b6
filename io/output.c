/* output.c — safe output files and directories (rules in output.h). */
#include "io/output.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/path.h"

static char *xstrdup(const char *s) { return strcpy(xmalloc(strlen(s) + 1), s); }

static mode_t default_mode(void) {
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

/* A new empty file "DIR/.BASE.isocheck-XXXXXX" beside target, with mode;
 * its name in *tmp, its registry entry in *reg.  The signals the registry
 * covers are blocked in this thread from its creation to its entry.  NULL
 * with err set. */
static FILE *create_beside(const char *target, const char *shown, mode_t mode, char **tmp, tmpreg_slot **reg,
                           ic_error *err) {
    char *dir = path_dir(target);
    const char *base = path_base(target);
    size_t n = strlen(dir) + strlen(base) + 32;
    char *t = xmalloc(n);
    snprintf(t, n, "%s/.%s.isocheck-XXXXXX", dir, base);
    sigset_t block, was;
    tmpreg_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &was);
    int fd = mkstemp(t);
    int e = errno;
    if (fd >= 0) *reg = tmpreg_add(t, 0);
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (fd < 0) {
        ic_error_at(err, shown, 0, "cannot create a temporary file in %s: %s", dir, strerror(e));
        free(t); free(dir);
        return NULL;
    }
    free(dir);
    FILE *f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        ic_error_at(err, shown, 0, "cannot set up the temporary file %s: %s", t, strerror(errno));
        close(fd);
        unlink(t);
        tmpreg_remove(*reg);
        *reg = NULL;
        free(t);
        return NULL;
    }
    *tmp = t;
    return f;
}

/* The errno of a failed write to standard output, noted by the writer
 * that saw it (output_stdout_failed); 0: none noted. */
static int stdout_errno;

void output_stdout_failed(int e) {
    if (!stdout_errno) stdout_errno = e;
}

/* Why writes to fd fail, asked again once stdio has dropped the bytes that
 * failed and their errno: a write of nothing (a device answers as before:
 * /dev/full gives ENOSPC), then, for our own temporary file only
 * (`scratch`: it is removed anyway), one byte at its end (a full disk,
 * a quota, a size limit).  0 if neither fails. */
static int ask_write_errno(int fd, int scratch) {
    if (write(fd, "", 0) < 0) return errno;
    struct stat st;
    if (scratch && fstat(fd, &st) == 0 && pwrite(fd, "", 1, st.st_size) < 0) return errno;
    return 0;
}

int output_stdout_errno(void) {
    return stdout_errno ? stdout_errno : ask_write_errno(STDOUT_FILENO, 0);
}

/* Flush, fsync (sync: f is our own temporary file) and close f; 0 with err
 * set on any error, naming its reason. */
static int close_checked(FILE *f, int sync, const char *shown, ic_error *err) {
    errno = 0;
    int ok = fflush(f) == 0 && !ferror(f);
    int e = ok ? 0 : errno;
    if (!ok && !e) e = ask_write_errno(fileno(f), sync);
    if (ok && sync && fsync(fileno(f)) != 0) { ok = 0; e = errno; }
    if (fclose(f) != 0 && ok) { ok = 0; e = errno; }
    if (!ok) ic_error_at(err, shown, 0, "write error: %s", e ? strerror(e) : "a write failed");
    return ok;
}

int output_open(output *o, const char *path, unsigned flags, ic_error *err) {
    memset(o, 0, sizeof *o);
    if (!strcmp(path, "-")) {
        o->f = stdout;
        o->is_stdout = 1;
        o->path = xstrdup(path);
        return 1;
    }
    struct stat st, lst;
    mode_t mode;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) { ic_error_at(err, path, 0, "cannot write: it is a directory"); return 0; }
        if (!S_ISREG(st.st_mode)) {              /* a device or a FIFO: in place, never replaced */
            FILE *f = fopen(path, "w");
            if (!f) { ic_error_at(err, path, 0, "cannot open for writing: %s", strerror(errno)); return 0; }
            o->f = f;
            o->path = xstrdup(path);
            return 1;
        }
        if (flags & OUTPUT_NO_CLOBBER) {
            ic_error_at(err, path, 0, "the file exists; not replaced (--force replaces it)");
            return 0;
        }
        char *real = realpath(path, NULL);       /* a link keeps being a link */
        if (!real) { ic_error_at(err, path, 0, "cannot resolve the path: %s", strerror(errno)); return 0; }
        o->target = xstrdup(real);
        free(real);
        mode = st.st_mode & 07777;
    } else if (errno == ENOENT && lstat(path, &lst) != 0) {
        o->target = xstrdup(path);
        mode = default_mode();
    } else if (errno == ENOENT) {
        ic_error_at(err, path, 0, "cannot write: a symbolic link to a missing file");
        return 0;
    } else {
        ic_error_at(err, path, 0, "cannot write: %s", strerror(errno));
        return 0;
    }
    o->f = create_beside(o->target, path, mode, &o->tmp, &o->reg, err);
    if (!o->f) { free(o->target); o->target = NULL; return 0; }
    o->path = xstrdup(path);
    return 1;
}

static void output_release(output *o) {
    free(o->path); free(o->target); free(o->tmp);
    memset(o, 0, sizeof *o);
}

int output_commit(output *o, ic_error *err) {
    int ok;
    if (o->is_stdout) {
        errno = 0;
        ok = fflush(stdout) == 0 && !ferror(stdout);
        int e = errno;
        if (!ok && !e) e = output_stdout_errno();
        if (!ok) {
            ic_error_at(err, "", 0, "error writing standard output%s%s", e ? ": " : "", e ? strerror(e) : "");
            clearerr(stdout);          /* reported here: not once more when the program closes it */
        }
    } else {
        ok = close_checked(o->f, o->tmp != NULL, o->path, err);
        if (o->tmp) {
            if (ok && rename(o->tmp, o->target) != 0) {
                ic_error_at(err, o->path, 0, "cannot move the finished file into place: %s", strerror(errno));
                ok = 0;
            }
            if (!ok) unlink(o->tmp);
            tmpreg_remove(o->reg);
        }
    }
    output_release(o);
    return ok;
}

void output_discard(output *o) {
    if (o->f && !o->is_stdout) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    tmpreg_remove(o->reg);
    output_release(o);
}

/* ---- directories -------------------------------------------------------- */

static int is_log_name(const char *name) {
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".log");
}

int output_dir_open(output_dir *d, const char *path, unsigned flags, ic_error *err) {
    memset(d, 0, sizeof *d);
    vec_init(d->tmp);
    vec_init(d->final);
    vec_init(d->regs);
    if (!strcmp(path, "-")) { ic_error_at(err, "", 0, "this output is a directory: give a directory name, not '-'"); return 0; }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) { ic_error_at(err, path, 0, "cannot write logs here: it exists and is not a directory"); return 0; }
        DIR *dir = opendir(path);
        if (!dir) { ic_error_at(err, path, 0, "cannot read the directory: %s", strerror(errno)); return 0; }
        struct dirent *e;
        int entries = 0, bad_log = 0;
        char bad[256] = "";
        while ((e = readdir(dir))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            entries++;
            if (is_log_name(e->d_name)) {
                size_t n = strlen(path) + strlen(e->d_name) + 2;
                char *p = xmalloc(n);
                snprintf(p, n, "%s/%s", path, e->d_name);
                struct stat ls;
                if (lstat(p, &ls) == 0 && !S_ISREG(ls.st_mode) && !S_ISLNK(ls.st_mode) && !bad_log) {
                    bad_log = 1;
                    snprintf(bad, sizeof bad, "%s", e->d_name);
                }
                free(p);
            }
        }
        closedir(dir);
        if (entries && !(flags & OUTPUT_FORCE)) {
            ic_error_at(err, path, 0, "the directory is not empty; not written (--force replaces the *.log files in it)");
            return 0;
        }
        if (bad_log) {
            ic_error_at(err, path, 0, "'%s' is not a file; remove it or write the logs elsewhere", bad);
            return 0;
        }
    } else if (errno == ENOENT) {
        sigset_t block, was;
        tmpreg_signals(&block);
        pthread_sigmask(SIG_BLOCK, &block, &was);
        int made = mkdir(path, 0777) == 0, e = errno;
        if (made) d->reg = tmpreg_add(path, 1);
        pthread_sigmask(SIG_SETMASK, &was, NULL);
        if (!made) { ic_error_at(err, path, 0, "cannot create the directory: %s", strerror(e)); return 0; }
        d->created = 1;
    } else {
        ic_error_at(err, path, 0, "cannot write: %s", strerror(errno));
        return 0;
    }
    d->path = xstrdup(path);
    d->force = (flags & OUTPUT_FORCE) != 0;
    return 1;
}

static int dir_close_current(output_dir *d, ic_error *err) {
    if (!d->cur) return 1;
    FILE *f = d->cur;
    d->cur = NULL;
    return close_checked(f, 1, vec_last(d->final), err);
}

FILE *output_dir_file(output_dir *d, const char *name, ic_error *err) {
    if (!dir_close_current(d, err)) return NULL;
    size_t n = strlen(d->path) + strlen(name) + 2;
    char *final = xmalloc(n), *tmp = NULL;
    snprintf(final, n, "%s/%s", d->path, name);
    tmpreg_slot *reg = NULL;
    FILE *f = create_beside(final, final, default_mode(), &tmp, &reg, err);
    if (!f) { free(final); return NULL; }
    vec_push(d->regs, reg);
    vec_push(d->tmp, tmp);
    vec_push(d->final, final);
    d->cur = f;
    return f;
}

/* Remove the *.log entries of d that are not among the files just written. */
static int remove_stale_logs(output_dir *d, ic_error *err) {
    DIR *dir = opendir(d->path);
    if (!dir) { ic_error_at(err, d->path, 0, "cannot read the directory: %s", strerror(errno)); return 0; }
    struct dirent *e;
    int ok = 1;
    while (ok && (e = readdir(dir))) {
        if (!is_log_name(e->d_name)) continue;
        int ours = 0;
        for (size_t i = 0; i < d->final.len && !ours; i++) ours = !strcmp(path_base(d->final.data[i]), e->d_name);
        if (ours) continue;
        size_t n = strlen(d->path) + strlen(e->d_name) + 2;
        char *p = xmalloc(n);
        snprintf(p, n, "%s/%s", d->path, e->d_name);
        if (unlink(p) != 0) { ic_error_at(err, p, 0, "cannot remove the old log: %s", strerror(errno)); ok = 0; }
        free(p);
    }
    closedir(dir);
    return ok;
}

/* The registry entries go once the files are renamed or removed. */
static void dir_release(output_dir *d) {
    for (size_t i = 0; i < d->tmp.len; i++) { tmpreg_remove(d->regs.data[i]); free(d->tmp.data[i]); free(d->final.data[i]); }
    tmpreg_remove(d->reg);
    vec_free(d->tmp);
    vec_free(d->final);
    vec_free(d->regs);
    free(d->path);
    memset(d, 0, sizeof *d);
}

int output_dir_commit(output_dir *d, ic_error *err) {
    if (!dir_close_current(d, err)) { output_dir_discard(d); return 0; }
    size_t i;
    for (i = 0; i < d->tmp.len; i++) {
        /* in a directory of ours, a signal during the renames removes the finished logs too */
        tmpreg_slot *fin = d->created ? tmpreg_add(d->final.data[i], 0) : NULL;
        int moved = rename(d->tmp.data[i], d->final.data[i]) == 0, e = errno;
        if (fin && moved) { tmpreg_remove(d->regs.data[i]); d->regs.data[i] = fin; }
        else tmpreg_remove(fin);
        if (!moved) {
            ic_error_at(err, d->final.data[i], 0, "cannot move the finished file into place: %s", strerror(e));
            break;
        }
    }
    if (i < d->tmp.len) {            /* the files already renamed are ours: take them back out */
        for (size_t j = 0; j < i; j++) unlink(d->final.data[j]);
        output_dir_discard(d);
        return 0;
    }
    int ok = !d->force || remove_stale_logs(d, err);
    dir_release(d);
    return ok;
}

void output_dir_discard(output_dir *d) {
    if (d->cur) fclose(d->cur);
    d->cur = NULL;
    for (size_t i = 0; i < d->tmp.len; i++) unlink(d->tmp.data[i]);
    if (d->created && d->path) rmdir(d->path);    /* only if still empty: nothing of the user's goes */
    dir_release(d);
}

static int dir_is_empty(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return 0;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(dir))) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(dir);
    return empty;
}

int output_may_write(const char *path, int is_dir, unsigned flags, ic_error *err) {
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) != 0) return 1;     /* new: output_open says if it cannot */
    if (is_dir) {
        if (!S_ISDIR(st.st_mode)) { ic_error_at(err, path, 0, "cannot write logs here: it exists and is not a directory"); return 0; }
        if (!(flags & OUTPUT_FORCE) && !dir_is_empty(path)) {
            ic_error_at(err, path, 0, "the directory is not empty; not written (--force replaces the *.log files in it)");
            return 0;
        }
        return 1;
    }
    if (S_ISDIR(st.st_mode)) { ic_error_at(err, path, 0, "cannot write: it is a directory"); return 0; }
    if (S_ISREG(st.st_mode) && (flags & OUTPUT_NO_CLOBBER)) {
        ic_error_at(err, path, 0, "the file exists; not replaced (--force replaces it)");
        return 0;
    }
    return 1;
}

/* ---- outputs against inputs ---------------------------------------------- */

static int same_file(const struct stat *a, const struct stat *b) { return a->st_dev == b->st_dev && a->st_ino == b->st_ino; }

/* Is the directory `anc` (by inode) real_path itself or one of its ancestors? */
static int under(const char *real_path, const struct stat *anc) {
    char *p = xstrdup(real_path);
    int found = 0;
    for (;;) {
        struct stat st;
        if (stat(p, &st) == 0 && same_file(&st, anc)) { found = 1; break; }
        char *slash = strrchr(p, '/');
        if (!slash || (slash == p && p[1] == 0)) break;
        if (slash == p) p[1] = 0; else *slash = 0;
    }
    free(p);
    return found;
}

/* realpath of the directory that holds path (NULL if it does not exist). */
static char *real_parent(const char *path) {
    char *dir = path_dir(path);
    char *real = realpath(dir, NULL);
    free(dir);
    return real;
}

/* stat of a name: "-" is the standard stream std_fd (the file behind it). */
static int stat_name(const char *path, int std_fd, struct stat *st) {
    return !strcmp(path, "-") ? fstat(std_fd, st) == 0 : stat(path, st) == 0;
}

/* A character device (a terminal, /dev/null) or a socket read and written
 * at once is two streams: writing does not touch what is read. */
static int two_streams(const struct stat *st) { return S_ISCHR(st->st_mode) || S_ISSOCK(st->st_mode); }

int output_check_input(const char *out_path, int out_is_dir, const char *in_path, ic_error *err) {
    if (!out_path || !in_path) return 1;
    struct stat si, so;
    if (!stat_name(in_path, STDIN_FILENO, &si)) return 1;    /* loading it will fail and say why */
    int out_std = !strcmp(out_path, "-"), in_std = !strcmp(in_path, "-");
    int out_exists = stat_name(out_path, STDOUT_FILENO, &so);
    if (out_exists && same_file(&so, &si) && !two_streams(&si)) {
        const char *in = in_std ? "(standard input)" : in_path;
        const char *what = S_ISFIFO(si.st_mode) ? ", a pipe: refusing to write into it (the input would never end)"
                                                : ": refusing to write over it";
        if (out_std) ic_error_at(err, "", 0, "standard output is the input %s%s", in, what);
        else ic_error_at(err, out_path, 0, "this output is the input %s%s", in, what);
        return 0;
    }
    if (out_std || in_std) return 1;                    /* streams: neither is a directory */
    if (out_exists && !S_ISREG(so.st_mode) && !S_ISDIR(so.st_mode)) return 1;   /* a device or FIFO */
    if (S_ISDIR(si.st_mode)) {
        char *parent = real_parent(out_path);
        int inside = parent && under(parent, &si);
        free(parent);
        if (inside) {
            ic_error_at(err, out_path, 0, "this output lies inside the input directory %s: refusing to write there", in_path);
            return 0;
        }
    }
    if (out_is_dir && out_exists && S_ISDIR(so.st_mode)) {
        char *parent = real_parent(in_path);
        int inside = parent && under(parent, &so);
        free(parent);
        if (inside) {
            ic_error_at(err, out_path, 0, "this output directory contains the input %s: refusing to write there", in_path);
            return 0;
        }
    }
    return 1;
}

/* The name a path would have once created: realpath of its directory + base. */
static char *canonical_name(const char *path) {
    char *parent = real_parent(path);
    if (!parent) return xstrdup(path);
    size_t n = strlen(parent) + strlen(path_base(path)) + 2;
    char *c = xmalloc(n);
    snprintf(c, n, "%s/%s", parent, path_base(path));
    free(parent);
    return c;
}

int output_check_distinct(const char *a, const char *b, ic_error *err) {
    if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-")) return 1;
    struct stat sa, sb;
    int same;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) same = same_file(&sa, &sb) && S_ISREG(sa.st_mode);
    else {
        char *ca = canonical_name(a), *cb = canonical_name(b);
        same = !strcmp(ca, cb);
        free(ca); free(cb);
    }
    if (same) ic_error_at(err, a, 0, "given for two outputs (also as %s): give two different files", b);
    return !same;
}
