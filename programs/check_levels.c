/* check_levels.c — the values of `isocheck check --level` (see the header). */
#include "programs/check_levels.h"

#include <stdio.h>
#include <string.h>

#include "frontend/reports/ladder.h"

/* The times a real-time level needs, and where they come from. */
#define TIMES_NEEDED "invocation and completion times"
#define TIMES_FORMATS "read from a format that records when each transaction was invoked and completed: doc/formats.md"

/* s[0..len) with control characters escaped (\n, \t, \xNN) into out (4 * len + 1 bytes). */
static void escape(const char *s, size_t len, char *out) {
    size_t at = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n') { out[at++] = '\\'; out[at++] = 'n'; }
        else if (ch == '\t') { out[at++] = '\\'; out[at++] = 't'; }
        else if (ch < 0x20 || ch == 0x7f) at += (size_t)sprintf(out + at, "\\x%02x", ch);
        else out[at++] = (char)ch;
    }
    out[at] = 0;
}

int check_levels_parse(const char *arg, level_choice *c, char *err, size_t n) {
    memset(c, 0, sizeof *c);
    c->arg = arg;
    const char *p = arg;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[32];
        if (len == 0) {
            snprintf(err, n, "empty level name in '%.200s' (expected a level, a comma list of levels, all or ladder)", arg);
            return 0;
        }
        memcpy(name, p, len < sizeof name ? len : sizeof name - 1);
        name[len < sizeof name ? len : sizeof name - 1] = 0;
        int l = len < sizeof name ? level_by_name(name) : -1;
        if (l >= 0) c->want[l] = c->named[l] = 1;
        else if (!strcmp(name, "all")) c->want[LEVEL_SI] = c->want[LEVEL_SER] = 1;
        else if (!strcmp(name, "ladder")) {
            c->ladder = 1;
            for (int k = 0; k < LEVEL_COUNT; k++) c->want[k] = 1;
        } else {
            char shown[800];
            escape(p, len < 200 ? len : 200, shown);
            snprintf(err, n, "unknown level '%s' (expected one of: ", shown);
            for (int k = 0; k < LEVEL_COUNT; k++)
                snprintf(err + strlen(err), n - strlen(err), "%s, ", level_name(ladder_order[k]));
            snprintf(err + strlen(err), n - strlen(err), "all, ladder; or a comma list)");
            return 0;
        }
        if (!end) return 1;
        p = end + 1;
    }
}

const char *check_levels_help(void) {
    static char buf[2048];
    if (buf[0]) return buf;
    size_t at = (size_t)snprintf(buf, sizeof buf,
                                 "levels (--level NAME, a comma list NAME,NAME,..., all or ladder; doc/levels.md):\n");
    for (int k = 0; k < LEVEL_COUNT && at < sizeof buf; k++) {      /* weakest first, the plain chain last */
        check_level_id l = ladder_order[k];
        at += (size_t)snprintf(buf + at, sizeof buf - at, "  %-10s %s%s\n", level_name(l), level_title(l),
                               level_real_time(l) ? " (needs " TIMES_NEEDED ")" : "");
    }
    if (at < sizeof buf)
        snprintf(buf + at, sizeof buf - at, "  %-10s si and ser\n  %-10s every level, then the strongest that holds and the "
                 "weakest that fails\n", "all", "ladder");
    return buf;
}

int check_levels_si_ser(const level_choice *c) {
    if (c->ladder) return -1;
    for (int k = 0; k < LEVEL_COUNT; k++)
        if (c->want[k] && k != LEVEL_SI && k != LEVEL_SER) return -1;
    return c->want[LEVEL_SI] && c->want[LEVEL_SER] ? 2 : c->want[LEVEL_SER] ? 1 : 0;
}

int check_levels_retire_by_time(const level_choice *c) {
    int got = -1;
    if (c->ladder) return -1;
    for (int k = 0; k < LEVEL_COUNT; k++) {
        if (!c->want[k]) continue;
        if (got >= 0 || !c->named[k] || !level_real_time((check_level_id)k)) return -1;
        got = k;
    }
    return got;
}

int check_levels_times_ok(const level_choice *c, const history *h, const char *prog) {
    int times = history_has_times(h, TIME_INVOKE) && history_has_times(h, TIME_COMPLETE);
    for (int k = 0; k < LEVEL_COUNT; k++) {
        if (!c->named[k] || !level_real_time((check_level_id)k) || times) continue;   /* a ladder's: NOT CHECKED */
        fprintf(stderr, "%s: %s: %s needs " TIMES_NEEDED " (%s), and this history has none\n", prog,
                h->source ? h->source : "-", level_name((check_level_id)k), TIMES_FORMATS);
        return 0;
    }
    return 1;
}
