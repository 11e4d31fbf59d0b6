/* cli_convert.c — `isocheck convert --to FORMAT [-o OUT] INPUT`. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "frontend/cli.h"
#include "frontend/parse.h"
#include "frontend/write.h"

static void usage(FILE *out) {
    fprintf(out, "usage: isocheck convert --to text|dbcop|cobra|elle [--format F] [-o OUT] FILE|DIR|-\n"
                 "Rewrite a history in another format (OUT defaults to stdout; cobra needs -o DIR).\n"
                 "Refuses what the target cannot express (see doc/formats.md) instead of dropping it.\n");
}

int cli_convert(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL, *to_name = NULL, *out = "-";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--to") && i + 1 < argc) to_name = argv[++i];
        else if (!strncmp(a, "--to=", 5)) to_name = a + 5;
        else if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck convert: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "isocheck convert: more than one history given\n"); return 2; }
    }
    if (!path || !to_name) { usage(stderr); return 2; }
    int fmt = history_format_from_name(fmt_name), to = history_format_from_name(to_name);
    if (fmt < 0) { fprintf(stderr, "isocheck convert: unknown format '%s'\n", fmt_name); return 2; }
    if (to <= 0) { fprintf(stderr, "isocheck convert: unknown target format '%s'\n", to_name); return 2; }
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    int ok = history_write(h, (history_format)to, out, &err);
    history_free(h);
    if (!ok) { ic_error_print(stderr, "isocheck convert", &err); return 2; }
    return 0;
}
