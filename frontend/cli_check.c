/* cli_check.c — `isocheck check`: load, check the axioms, print a verdict.
 *
 * First slice: only the non-cycle axioms are decided.  Without a violation
 * the answer is UNKNOWN (exit 2): cycle checking is not available yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "frontend/anomaly.h"
#include "frontend/axioms.h"
#include "frontend/cli.h"
#include "frontend/parse.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: isocheck check [--format text|dbcop|cobra|elle] [--level si|ser|all] [--json]\n"
            "                      [--max-anomalies N] FILE|DIR|-\n"
            "Check a history against an isolation level (default si).\n"
            "Prints PASS, or FAIL: <anomaly>: <detail> lines with the operations involved.\n"
            "exit: 0 the history satisfies the level, 1 it does not, 2 bad input or no answer.\n");
}

int cli_check(int argc, char **argv) {
    const char *path = NULL, *fmt_name = NULL, *level = "si";
    int json = 0;
    long max_anomalies = 10;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--format") && i + 1 < argc) fmt_name = argv[++i];
        else if (!strncmp(a, "--format=", 9)) fmt_name = a + 9;
        else if (!strcmp(a, "--level") && i + 1 < argc) level = argv[++i];
        else if (!strncmp(a, "--level=", 8)) level = a + 8;
        else if (!strcmp(a, "--max-anomalies") && i + 1 < argc) max_anomalies = strtol(argv[++i], NULL, 10);
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "isocheck check: unknown option '%s'\n", a); usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "isocheck check: more than one history given\n"); return 2; }
    }
    if (!path) { usage(stderr); return 2; }
    if (strcmp(level, "si") && strcmp(level, "ser") && strcmp(level, "all")) {
        fprintf(stderr, "isocheck check: unknown level '%s' (si, ser or all)\n", level);
        return 2;
    }
    int fmt = history_format_from_name(fmt_name);
    if (fmt < 0) { fprintf(stderr, "isocheck check: unknown format '%s'\n", fmt_name); return 2; }
    if (max_anomalies < 1) max_anomalies = 1;

    ic_error err;
    ic_error_clear(&err);
    history *h = load_history(path, (history_format)fmt, &err);
    if (!h) { ic_error_print(stderr, "isocheck", &err); return 2; }

    anomaly_list anomalies;
    anomaly_list_init(&anomalies);
    uint64_t found = axioms_check(h, &anomalies, (size_t)max_anomalies);
    int rc;
    if (found) {
        rc = 1;
        if (json) {
            printf("{\"verdict\": \"FAIL\", \"level\": \"%s\", \"violations\": %llu, \"anomalies\": [", level,
                   (unsigned long long)found);
            for (size_t i = 0; i < anomalies.items.len; i++) {
                if (i) printf(", ");
                anomaly_print_json(stdout, h, &anomalies.items.data[i]);
            }
            printf("]}\n");
        } else {
            for (size_t i = 0; i < anomalies.items.len; i++) anomaly_print_text(stdout, h, &anomalies.items.data[i]);
            if (found > anomalies.items.len)
                printf("(%llu more violations not shown; --max-anomalies N)\n", (unsigned long long)(found - anomalies.items.len));
        }
    } else {
        rc = 2;
        const char *why = "no axiom violations; cycle checking is not available yet, so no verdict";
        if (json) printf("{\"verdict\": \"UNKNOWN\", \"level\": \"%s\", \"reason\": \"%s\"}\n", level, why);
        else printf("UNKNOWN: %s (level %s)\n", why, level);
    }
    anomaly_list_free(&anomalies);
    history_free(h);
    return rc;
}
