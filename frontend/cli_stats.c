/* cli_stats.c — `isocheck stats`: placeholder until the history front end lands. */
#include <stdio.h>
#include "frontend/cli.h"

int cli_stats(int argc, char **argv) {
    (void)argc; (void)argv;
    fprintf(stderr, "isocheck stats: not available yet\n");
    return 2;
}
