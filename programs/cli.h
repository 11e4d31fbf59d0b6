/* cli.h — isocheck's subcommands (table in commands.def) and what they
 * share: the option parser (programs/cmdline.h), the names of formats and
 * levels, and checks of outputs against inputs (io/output.h).
 * Each cli_<name> gets argv with argv[0] = the subcommand name and returns
 * the exit code: 0 pass, 1 the history fails, 2 bad input, usage or output
 * (and no answer: cli_exit_code). */
#ifndef ISOCHECK_CLI_H
#define ISOCHECK_CLI_H

#include "error.h"
#include "frontend/history/verdict.h"
#include "programs/cmdline.h"

#define CMD(name, summary) int cli_##name(int argc, char **argv);
#include "programs/commands.def"
#undef CMD

/* The exit code of a verdict, the one place it is decided: 0 PASS, 1 FAIL,
 * 2 UNKNOWN (the code of every error too: bad input, usage, an output
 * that cannot be written). */
int cli_exit_code(verdict v);

/* --level values of the commands that know si and ser only (encode, decode,
 * verify): index LEVEL_SI, LEVEL_SER.  `check --level` takes every level:
 * programs/check_levels.h. */
extern const char *const cli_level_names[];
/* --format values (text, dbcop, cobra, elle, json, viper) and the formats
 * `convert --to` and `gen --format` write (the same less json), both from
 * the one table of format names (frontend/formats/parse.h,
 * history_format_list); NULL-terminated. */
const char *const *cli_format_names(void);
const char *const *cli_write_format_names(void);
/* The history_format of a --format choice (-1, not given: FORMAT_AUTO),
 * and of a choice among the written formats. */
int cli_format(int choice);
int cli_write_format(int choice);

/* Parse; returns -1 to go on, else the exit code (0 after --help, 2 after
 * an error, both printed). */
int cli_parse(cmd_spec *spec, int argc, char **argv, const char **operands, int *num_operands);

/* "isocheck CMD: message" on stderr (file and line as ic_error_print). */
void cli_error(const char *prog, const ic_error *err);

/* Where temporary files that belong beside no output go: $TMPDIR if set
 * and not empty, else /tmp.  The one reading of TMPDIR (the libraries
 * take the directory as an argument). */
const char *cli_temp_dir(void);

/* Refuse (message printed, 0) an output that is the input, lies in an
 * input directory, or is given twice; outputs may be NULL.  Standard
 * output is always one of the outputs, "-" as input standard input. */
int cli_outputs_ok(const char *prog, const char *input, const char *const *outputs, const int *out_is_dir, int n);

#endif
