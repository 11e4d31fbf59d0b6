/* cli.h — isocheck's subcommands (table in commands.def).
 * Each cli_<name> gets argv with argv[0] = the subcommand name and returns
 * the exit code: 0 pass, 1 the history fails, 2 bad input / usage. */
#ifndef ISOCHECK_CLI_H
#define ISOCHECK_CLI_H

#define CMD(name, summary) int cli_##name(int argc, char **argv);
#include "frontend/commands.def"
#undef CMD

#endif
