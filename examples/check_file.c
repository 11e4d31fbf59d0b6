/* check_file.c — check a history file with libisocheck and get the report
 * as JSON (the object `isocheck check --json` prints, doc/json-schema.md).
 *
 *   check_file FILE [LEVEL]    checks FILE (any format isocheck reads,
 *                              detected) against LEVEL (default si) and
 *                              prints the JSON report; exit 0 PASS, 1 FAIL,
 *                              2 UNKNOWN or unreadable
 *   check_file                 writes a lost update in the text format to
 *                              a temporary file, checks it under si and
 *                              ser, and says whether both FAIL as expected
 *
 *   cc check_file.c $(pkg-config --cflags --libs isocheck) -o check_file */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <isocheck.h>

static int check_one(const char *path, isocheck_level level, int print) {
    char *json = NULL;
    int rc = isocheck_check_file(path, level, &json);
    if (rc < 0 && !json) {
        fprintf(stderr, "check_file: %s\n", isocheck_status_message(rc));
        return rc;
    }
    if (print) fputs(json, stdout);
    isocheck_string_free(json);
    return rc;
}

int main(int argc, char **argv) {
    if (argc >= 2) {
        int level = argc >= 3 ? isocheck_level_by_name(argv[2]) : ISOCHECK_SI;
        if (level < 0) { fprintf(stderr, "check_file: unknown level '%s'\n", argv[2]); return 2; }
        int rc = check_one(argv[1], (isocheck_level)level, 1);
        return rc == ISOCHECK_PASS ? 0 : rc == ISOCHECK_FAIL ? 1 : 2;
    }
    /* two sessions read key 1's initial value (0) and both write it */
    char path[] = "/tmp/check_file_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { perror("check_file: mkstemp"); return 2; }
    static const char history[] = "r(1,0,1,1)\nw(1,10,1,1)\nr(1,0,2,2)\nw(1,20,2,2)\n";
    if (write(fd, history, sizeof history - 1) != (ssize_t)(sizeof history - 1) || close(fd) != 0) {
        perror("check_file: write");
        unlink(path);
        return 2;
    }
    int si = check_one(path, ISOCHECK_SI, 0), ser = check_one(path, ISOCHECK_SER, 0);
    unlink(path);
    printf("lost update from a file, si: %s, ser: %s\n", si == ISOCHECK_FAIL ? "FAIL" : "not FAIL",
           ser == ISOCHECK_FAIL ? "FAIL" : "not FAIL");
    int ok = si == ISOCHECK_FAIL && ser == ISOCHECK_FAIL;
    puts(ok ? "all as expected" : "UNEXPECTED");
    return ok ? 0 : 1;
}
