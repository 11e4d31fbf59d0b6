/* cli_check.c — `isocheck check`: placeholder until the history front end lands. */
#include <stdio.h>
#include "frontend/cli.h"

int cli_check(int argc, char **argv) {
    (void)argc; (void)argv;
    fprintf(stderr, "isocheck check: not available yet\n");
    return 2;
}
