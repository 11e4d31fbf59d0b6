/* isocheck_main.c — dispatch `isocheck COMMAND ...` to programs/cli_*.c,
 * then make sure everything written to standard output arrived (a full
 * disk or a closed pipe is an error, exit 2).  A signal that ends the
 * process removes the temporary output files first (io/tmp_registry.h). */
#include <stdio.h>
#include <string.h>

#include "version.h"
#include "io/tmp_registry.h"
#include "programs/cli.h"

static const struct { const char *name, *summary; int (*run)(int, char **); } commands[] = {
#define CMD(name, summary) { #name, summary, cli_##name },
#include "programs/commands.def"
#undef CMD
};

static void usage(FILE *out) {
    fprintf(out, "usage: isocheck COMMAND [options] ...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'isocheck COMMAND --help' describes each command; 'isocheck --version' the version.\n"
                 "exit codes: 0 the history satisfies the level, 1 it does not, 2 bad input, usage\n"
                 "or output\n");
}

static int run(int argc, char **argv) {
    if (argc < 2) { usage(stderr); return 2; }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) { usage(stdout); return 0; }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) { printf("isocheck %s\n", ISOCHECK_VERSION); return 0; }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "isocheck: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) {
    tmpreg_on_signals();         /* SIGINT, SIGTERM, ... leave no temporary output file behind */
    int rc = run(argc, argv);
    ic_error err;
    ic_error_clear(&err);
    if (!cmdline_close_stdout(&err)) {
        fprintf(stderr, "isocheck: %s\n", err.msg);
        return 2;
    }
    return rc;
}
