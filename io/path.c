/* path.c — the parts of a file name (contract in path.h). */
#include "io/path.h"

#include <string.h>

#include "vec.h"

char *path_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return strcpy(xmalloc(2), ".");
    if (slash == path) return strcpy(xmalloc(2), "/");
    size_t n = (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

const char *path_base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
