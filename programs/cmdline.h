/* cmdline.h — the one command-line parser of gsat and of every isocheck
 * command: a table of options per program, one line each.
 *
 *   cmd_opt opts[] = {
 *       CMD_FLAG("json", 0, &json, "one JSON object"),
 *       CMD_CHOICE("level", 0, &level, levels, "L", "si, ser or all (default si)"),
 *       CMD_REAL("time-limit", 0, &secs, 0, 1e9, "S", "give up after S seconds"),
 *       CMD_END
 *   };
 *
 * Accepted: `--name value`, `--name=value`, `-x value` for options with a
 * short name, flags alone (`--json`, `-v`); '-' and '_' are the same in
 * names; options and operands may be mixed; `--` ends the options; `-`
 * alone is an operand.  Every value is checked while parsing: integers and
 * reals fully parsed (a digit first, after an optional sign: no leading
 * white space or newline, no trailing text, no NaN or infinity, no '-' for
 * an unsigned value) and inside their range, choices among their names.
 * A value taken from the next argument may not look like a long option
 * ("--dot --json" is an error; "--dot=--json" names a file "--json").
 * Errors name the option as written and the bad value (control characters
 * escaped).  A repeated option keeps its last value;
 * `given` counts how often each option appeared.
 *
 * The parser never prints: errors go to an ic_error, the help text to the
 * FILE the caller passes. */
#ifndef GSAT_CMDLINE_H
#define GSAT_CMDLINE_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"

typedef enum {
    CMD_KIND_END,      /* table terminator */
    CMD_KIND_FLAG,     /* int: set to 1 */
    CMD_KIND_STR,      /* const char *: the argument */
    CMD_KIND_INT,      /* int64_t in [lo, hi] */
    CMD_KIND_U64,      /* uint64_t in [lo, umax] (lo >= 0) */
    CMD_KIND_REAL,     /* double in [rlo, rhi], finite */
    CMD_KIND_CHOICE,   /* int: index into choices (NULL-terminated) */
    CMD_KIND_OPT_CHOICE /* int: `--name` alone is choices[0], `--name=value` another;
                         * never takes the next argument */
} cmd_kind;

typedef struct cmd_opt {
    const char *name;            /* long name without "--" */
    char short_name;             /* 'v' for -v, or 0 */
    cmd_kind kind;
    void *dest;
    const char *arg;             /* the value's name in the help ("FILE", "N") */
    const char *help;
    int64_t lo, hi;              /* CMD_KIND_INT */
    uint64_t umax;               /* CMD_KIND_U64 (and lo) */
    double rlo, rhi;             /* CMD_KIND_REAL */
    const char *const *choices;  /* CMD_KIND_CHOICE */
    int given;                   /* set by cmdline_parse: times the option appeared */
} cmd_opt;

#define CMD_FLAG(name, sh, dest, help) { name, sh, CMD_KIND_FLAG, dest, NULL, help, 0, 0, 0, 0, 0, NULL, 0 }
#define CMD_STR(name, sh, dest, arg, help) { name, sh, CMD_KIND_STR, dest, arg, help, 0, 0, 0, 0, 0, NULL, 0 }
#define CMD_INT(name, sh, dest, lo, hi, arg, help) { name, sh, CMD_KIND_INT, dest, arg, help, lo, hi, 0, 0, 0, NULL, 0 }
#define CMD_U64(name, sh, dest, lo, umax, arg, help) { name, sh, CMD_KIND_U64, dest, arg, help, lo, 0, umax, 0, 0, NULL, 0 }
#define CMD_REAL(name, sh, dest, lo, hi, arg, help) { name, sh, CMD_KIND_REAL, dest, arg, help, 0, 0, 0, lo, hi, NULL, 0 }
#define CMD_CHOICE(name, sh, dest, choices, arg, help) { name, sh, CMD_KIND_CHOICE, dest, arg, help, 0, 0, 0, 0, 0, choices, 0 }
#define CMD_OPT_CHOICE(name, dest, choices, arg, help) { name, 0, CMD_KIND_OPT_CHOICE, dest, arg, help, 0, 0, 0, 0, 0, choices, 0 }
#define CMD_END { NULL, 0, CMD_KIND_END, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, 0 }

typedef struct cmd_spec {
    const char *prog;            /* "isocheck check", "gsat" */
    const char *synopsis;        /* after the program name: "[options] FILE|DIR|-" */
    const char *about;           /* what the command does (printed after the synopsis) */
    cmd_opt *opts;               /* ends with CMD_END */
    const char *operands;        /* the operands' names, for errors: "HISTORY CERTIFICATE" */
    int min_operands, max_operands;
    const char *epilog;          /* printed after the options (may be NULL) */
} cmd_spec;

typedef enum { CMDLINE_OK, CMDLINE_HELP, CMDLINE_ERROR } cmdline_result;

/* Parse argv[1..argc-1].  operands gets up to spec->max_operands pointers
 * into argv (*num_operands their count).  -h / --help anywhere gives
 * CMDLINE_HELP (unless the table defines -h itself).  CMDLINE_ERROR: err
 * says what is wrong. */
cmdline_result cmdline_parse(cmd_spec *spec, int argc, char **argv, const char **operands, int *num_operands,
                             ic_error *err);

/* The help: synopsis, about, one line per option, epilog. */
void cmdline_help(FILE *out, const cmd_spec *spec);

/* Flush and close standard output; 0 with err set if anything written to
 * it was lost (disk full, closed pipe), with its reason when known (the
 * flush's errno, else io/output.h's output_stdout_errno). */
int cmdline_close_stdout(ic_error *err);

#endif
