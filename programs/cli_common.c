/* cli_common.c — what isocheck's commands share (see cli.h). */
#include <stdio.h>

#include "programs/cli.h"
#include "frontend/history/history.h"
#include "io/output.h"

const char *const cli_level_names[] = { "si", "ser", NULL };
const char *const cli_level_all_names[] = { "si", "ser", "all", NULL };
const char *const cli_format_names[] = { "text", "dbcop", "cobra", "elle", "json", NULL };
const char *const cli_write_format_names[] = { "text", "dbcop", "cobra", "elle", NULL };

static const history_format format_of_choice[] = { FORMAT_TEXT, FORMAT_DBCOP, FORMAT_COBRA, FORMAT_ELLE, FORMAT_JSON };

int cli_format(int choice) { return choice < 0 ? FORMAT_AUTO : (int)format_of_choice[choice]; }

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

int cli_outputs_ok(const char *prog, const char *input, const char *const *outputs, const int *out_is_dir, int n) {
    ic_error err;
    ic_error_clear(&err);
    if (input) output_check_input("-", 0, input, &err);      /* the report or the output on stdout */
    for (int i = 0; i < n && !err.set; i++) {
        if (!outputs[i]) continue;
        if (input && !output_check_input(outputs[i], out_is_dir ? out_is_dir[i] : 0, input, &err)) break;
        for (int j = i + 1; j < n && !err.set; j++) output_check_distinct(outputs[i], outputs[j], &err);
        if (err.set) break;
    }
    if (err.set) { cli_error(prog, &err); return 0; }
    return 1;
}
