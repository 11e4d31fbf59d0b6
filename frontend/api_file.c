/* api_file.c — isocheck_check_file (include/isocheck.h): a history file
 * loaded as `isocheck check` loads it (format detected), checked through
 * the same pipeline (run_check.h), its report rendered as the JSON object
 * `check --json` prints, into memory (open_memstream). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isocheck.h"
#include "version.h"
#include "frontend/formats/parse.h"
#include "frontend/run_check.h"
#include "io/json_out.h"

/* {"isocheck": 1, "version": V, "history": PATH, "error": MESSAGE}, the
 * object `check --json` prints for a history it cannot read. */
static void print_error(FILE *out, const char *path, const ic_error *err) {
    char msg[1200];
    if (err->file[0] && err->line > 0) snprintf(msg, sizeof msg, "%s:%ld: %s", err->file, err->line, err->msg);
    else if (err->file[0] && err->offset >= 0) snprintf(msg, sizeof msg, "%s: byte %lld: %s", err->file, err->offset, err->msg);
    else if (err->file[0]) snprintf(msg, sizeof msg, "%s: %s", err->file, err->msg);
    else snprintf(msg, sizeof msg, "%s", err->msg);
    fputs("{\"isocheck\": 1, \"version\": \"" ISOCHECK_VERSION "\", \"history\": ", out);
    json_write_string(out, path);
    fputs(", \"error\": ", out);
    json_write_string(out, msg);
    fputs("}\n", out);
}

int isocheck_check_file(const char *path, isocheck_level level, char **json) {
    if (json) *json = NULL;
    if (!path || !json || (unsigned)level >= LEVEL_COUNT) return ISOCHECK_EINVAL;
    size_t len = 0;
    FILE *out = open_memstream(json, &len);
    if (!out) xalloc_fail(0);
    ic_error err;
    ic_error_clear(&err);
    int rc;
    history *h = load_history(path, FORMAT_AUTO, &err);
    if (!h) {
        print_error(out, path, &err);
        rc = ISOCHECK_EINPUT;
    } else {
        check_level_id lv = (check_level_id)level;
        run_check_options ro;
        run_check_options_default(&ro);
        memset(ro.want, 0, sizeof ro.want);
        ro.want[lv] = 1;
        report rep;
        report_init(&rep, h, check_level_name(lv));
        if (run_check(h, &ro, &rep, NULL, NULL, &err)) {
            report_print_json(out, &rep);
            rc = (int)report_verdict(&rep);          /* the verdicts' values are the public ones (api.c) */
        } else {
            print_error(out, path, &err);
            rc = ISOCHECK_EINPUT;
        }
        report_free(&rep);
        history_free(h);
    }
    if (fclose(out) != 0) xalloc_fail(len);
    return rc;
}

void isocheck_string_free(char *s) { free(s); }
