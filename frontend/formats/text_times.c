/* text_times.c — lexing and writing the text format's time annotation
 * (contract in text_times.h). */
#include "frontend/formats/text_times.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frontend/formats/lex.h"

#define TAG "#@time"
#define TAG_LEN 6

static const char *const time_names[TIME_KINDS] = { "invoke", "complete", "start", "commit" };

int text_is_times(const char *p) {
    return !strncmp(p, TAG, TAG_LEN) && (p[TAG_LEN] == ' ' || p[TAG_LEN] == '\t' || !p[TAG_LEN]);
}

static int bad(ic_error *err, const char *name, long line, const char *expected, const char *p) {
    char fb[48];
    ic_error_at(err, name, line, "expected %s, found %s", expected, lex_found(p, fb, sizeof fb));
    return -1;
}

/* A time value at *p (advanced): 1, or -1 with err set. */
static int lex_time(const char **p, int64_t *v, const char *what, const char *name, long line, ic_error *err) {
    const char *s = *p;
    int rc = lex_i64(p, v);
    if (rc > 0 && *v != HISTORY_TIME_NONE) return 1;
    if (rc != 0) {
        ic_error_at(err, name, line, "%s out of range (from -9223372036854775807 to 9223372036854775807)", what);
        return -1;
    }
    return bad(err, name, line, "an integer time after '='", s);
}

int text_lex_times(const char *p, text_times *tt, const char *name, long line, ic_error *err) {
    for (int k = 0; k < TIME_KINDS; k++) tt->t[k] = HISTORY_TIME_NONE;
    lex_space(&p);
    p += TAG_LEN;
    lex_space(&p);
    int rc = lex_digits_i64(&p, &tt->txn);
    if (rc < 0) { ic_error_at(err, name, line, "transaction id out of range (at most 9223372036854775807)"); return -1; }
    if (rc == 0) return bad(err, name, line, "a transaction id (digits) after '" TAG "'", p);
    int given = 0;
    for (;;) {
        const char *q = p;
        lex_space(&p);
        if (!*p) break;
        if (p == q) return bad(err, name, line, "a blank before the next field", p);
        int k = 0;
        while (k < TIME_KINDS && !(strncmp(p, time_names[k], strlen(time_names[k])) == 0 && p[strlen(time_names[k])] == '='))
            k++;
        if (k == TIME_KINDS) return bad(err, name, line, "invoke=, complete=, start= or commit=", p);
        if (tt->t[k] != HISTORY_TIME_NONE) {
            ic_error_at(err, name, line, "%s= given twice for transaction %" PRId64, time_names[k], tt->txn);
            return -1;
        }
        p += strlen(time_names[k]) + 1;
        if (lex_time(&p, &tt->t[k], time_names[k], name, line, err) < 0) return -1;
        given++;
    }
    if (!given) return bad(err, name, line, "invoke=, complete=, start= or commit= after the transaction id", p);
    for (int k = 0; k < TIME_KINDS; k += 2)
        if (tt->t[k] != HISTORY_TIME_NONE && tt->t[k + 1] != HISTORY_TIME_NONE && tt->t[k + 1] < tt->t[k]) {
            ic_error_at(err, name, line, "%s=%" PRId64 " is before %s=%" PRId64 " (transaction %" PRId64 ")",
                        time_names[k + 1], tt->t[k + 1], time_names[k], tt->t[k], tt->txn);
            return -1;
        }
    return 1;
}

int text_format_times(char *buf, size_t n, int64_t txn, const int64_t t[TIME_KINDS]) {
    size_t len = (size_t)snprintf(buf, n, TAG " %" PRId64, txn);
    for (int k = 0; k < TIME_KINDS && len < n; k++)
        if (t[k] != HISTORY_TIME_NONE) len += (size_t)snprintf(buf + len, n - len, " %s=%" PRId64, time_names[k], t[k]);
    if (len < n) len += (size_t)snprintf(buf + len, n - len, "\n");
    return len < n ? (int)len : -1;
}
