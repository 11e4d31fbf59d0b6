/* cli_convert.c — `isocheck convert --to FORMAT [-o OUT] [--force] INPUT`:
 * the output goes through io/output.h (never over the input, a
 * temporary file renamed into place, Cobra directories empty unless
 * --force), and what the target format cannot spell is renumbered
 * (frontend/formats/write.h) with a note on stderr. */
#include <stdio.h>

#include "error.h"
#include "programs/cli.h"
#include "io/output.h"
#include "frontend/formats/parse.h"
#include "frontend/formats/write.h"

int cli_convert(int argc, char **argv) {
    const char *out = NULL;
    int fmt_choice = -1, to_choice = -1, force = 0;
    cmd_opt opts[] = {
        CMD_CHOICE("to", 0, &to_choice, cli_write_format_names(), "F", "target format (required)"),
        CMD_CHOICE("format", 0, &fmt_choice, cli_format_names(), "F", "input format (default: detected)"),
        CMD_STR("output", 'o', &out, "OUT", "output file (default stdout), or directory for cobra and viper"),
        CMD_FLAG("force", 0, &force, "cobra, viper: write into a non-empty directory, replacing its *.log files"),
        CMD_END
    };
    cmd_spec spec = {
        "isocheck convert", "--to text|dbcop|dbcop-json|cobra|elle|viper [options] FILE|DIR|-",
        "Rewrite a history in another format; it reads back with the same verdict.\n"
        "Refuses what the target cannot express (aborted transactions in text, lists\n"
        "outside elle, ...) instead of dropping it, and renumbers values and ids the\n"
        "target reserves (a value 0 in text or dbcop, where 0 is the initial value),\n"
        "with a note on stderr.  OUT is replaced only once it is complete; it may not be\n"
        "the input (doc/cli.md).  dbcop-json is dbcop's JSON history (its current CLI's);\n"
        "viper a directory of J<n>.log JSON-lines logs, one per session (ViperBench's).\n",
        opts, "one history: FILE, DIR or -", 1, 1, NULL
    };
    const char *path;
    int n, rc = cli_parse(&spec, argc, argv, &path, &n);
    if (rc >= 0) return rc;
    if (to_choice < 0) {
        fprintf(stderr, "isocheck convert: no target format: give --to text|dbcop|dbcop-json|cobra|elle|viper\n");
        return 2;
    }
    history_format to = (history_format)cli_write_format(to_choice);
    int is_dir = to == FORMAT_COBRA || to == FORMAT_VIPER;
    if (is_dir && !out) {
        fprintf(stderr, "isocheck convert: %s output is a directory: give -o DIR\n", history_format_name(to));
        return 2;
    }
    if (!out) out = "-";
    if (!cli_outputs_ok("isocheck convert", path, &out, &is_dir, 1)) return 2;
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, (history_format)cli_format(fmt_choice), &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }
    char note[512];
    int ok = history_write_file(h, to, out, force ? OUTPUT_FORCE : 0, note, sizeof note, &err);
    history_free(h);
    if (!ok) { ic_error_print(stderr, "isocheck convert", &err); return 2; }
    if (note[0]) fprintf(stderr, "isocheck convert: note: %s\n", note);
    return 0;
}
