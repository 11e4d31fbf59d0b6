/* cli_common.c — what isocheck's commands share (see cli.h). */
#include <stdio.h>
#include <stdlib.h>

#include "programs/cli.h"
#include "frontend/formats/parse.h"
#include "frontend/history/history.h"
#include "io/output.h"

int cli_exit_code(verdict v) {
    switch (v) {
    case VERDICT_PASS: return 0;
    case VERDICT_FAIL: return 1;
    default: return 2;
    }
}

const char *const cli_level_names[] = { "si", "ser", NULL };
/* The formats read (0) and written (1), from the library's one table. */
typedef struct format_choices {
    const char *names[16];
    history_format fmts[16];
    int ready;
} format_choices;

static const format_choices *choices(int written) {
    static format_choices c[2];
    if (!c[written].ready) {
        history_format_list(written, c[written].names, c[written].fmts, 16);
        c[written].ready = 1;
    }
    return &c[written];
}

const char *const *cli_format_names(void) { return choices(0)->names; }
const char *const *cli_write_format_names(void) { return choices(1)->names; }
int cli_format(int choice) { return choice < 0 ? FORMAT_AUTO : (int)choices(0)->fmts[choice]; }
int cli_write_format(int choice) { return (int)choices(1)->fmts[choice]; }

int cli_parse(cmd_spec *spec, int argc, char **argv, const char **operands, int *num_operands) {
    ic_error err;
    ic_error_clear(&err);
    switch (cmdline_parse(spec, argc, argv, operands, num_operands, &err)) {
    case CMDLINE_OK: return -1;
    case CMDLINE_HELP: cmdline_help(stdout, spec); return 0;
    default:
        fprintf(stderr, "%s: %s\n(try '%s --help')\n", spec->prog, err.msg, spec->prog);
        return 2;
    }
}

void cli_error(const char *prog, const ic_error *err) { ic_error_print(stderr, prog, err); }

const char *cli_temp_dir(void) {
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

int cli_outputs_ok(const char *prog, const char *in_path, const char *const *outputs, const int *out_is_dir, int n) {
    ic_error err;
    ic_error_clear(&err);
    if (in_path) output_check_input("-", 0, in_path, &err);      /* the report or the output on stdout */
    for (int i = 0; i < n && !err.set; i++) {
        if (!outputs[i]) continue;
        if (in_path && !output_check_input(outputs[i], out_is_dir ? out_is_dir[i] : 0, in_path, &err)) break;
        for (int j = i + 1; j < n && !err.set; j++) output_check_distinct(outputs[i], outputs[j], &err);
        if (err.set) break;
    }
    if (err.set) { cli_error(prog, &err); return 0; }
    return 1;
}
