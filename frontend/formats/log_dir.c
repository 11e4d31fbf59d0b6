/* log_dir.c — see log_dir.h. */
#include "frontend/formats/log_dir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

/* T2.log before T10.log: compare digit runs by value. */
static int natural_cmp(const void *pa, const void *pb) {
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0') a++;
            while (*b == '0') b++;
            size_t la = 0, lb = 0;
            while (a[la] >= '0' && a[la] <= '9') la++;
            while (b[lb] >= '0' && b[lb] <= '9') lb++;
            if (la != lb) return la < lb ? -1 : 1;
            int c = strncmp(a, b, la);
            if (c) return c;
            a += la; b += lb;
        } else {
            if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++; b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int is_log(const char *name) {
    size_t len = strlen(name);
    return len > 4 && !strcmp(name + len - 4, ".log");
}

char **log_dir_list(const char *dir, const char *what, size_t *n, ic_error *err) {
    DIR *d = opendir(dir);
    if (!d) { ic_error_at(err, dir, 0, "cannot open directory"); return NULL; }
    VEC(char *) names;
    vec_init(names);
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_log(e->d_name)) {
            size_t len = strlen(e->d_name);
            char *s = xmalloc(len + 1);
            memcpy(s, e->d_name, len + 1);
            vec_push(names, s);
        }
    closedir(d);
    if (names.len == 0) {
        ic_error_at(err, dir, 0, "expected %s (*.log files) in the directory, found none", what);
        vec_free(names);
        return NULL;
    }
    qsort(names.data, names.len, sizeof *names.data, natural_cmp);
    size_t dl = strlen(dir);
    char **paths = xmalloc((names.len + 1) * sizeof *paths);
    for (size_t i = 0; i < names.len; i++) {
        paths[i] = xmalloc(dl + strlen(names.data[i]) + 2);
        sprintf(paths[i], "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names.data[i]);
        free(names.data[i]);
    }
    paths[names.len] = NULL;
    *n = names.len;
    vec_free(names);
    return paths;
}

void log_dir_free(char **paths) {
    if (!paths) return;
    for (char **p = paths; *p; p++) free(*p);
    free(paths);
}

int log_dir_has_logs(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) found = is_log(e->d_name);
    closedir(d);
    return found;
}
