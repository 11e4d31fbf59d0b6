/* report_ladder.c — a run over several levels read along the ladder's
 * order (ladder.h): contradictions withdrawn, and the summary of `check
 * --level ladder` in text and JSON (report.h; schema: doc/json-schema.md,
 * "ladder"). */
#include "frontend/reports/report.h"

#include <string.h>

#include "frontend/reports/ladder.h"
#include "io/json_out.h"

static report_level *find_level(report *r, check_level_id l) {
    for (int i = 0; i < r->num_levels; i++)
        if (r->levels[i].level == (int)l) return &r->levels[i];
    return NULL;
}

static void states(const report *r, ladder_state st[LEVEL_COUNT]) {
    memset(st, 0, sizeof(ladder_state) * LEVEL_COUNT);
    for (int i = 0; i < r->num_levels; i++) st[r->levels[i].level] = ladder_state_of(r->levels[i].verdict);
    for (int l = 0; l < LEVEL_COUNT; l++)
        if (r->no_times[l]) st[l] = LADDER_NO_TIMES;
}

void report_check_ladder(report *r) {
    ladder_state st[LEVEL_COUNT];
    states(r, st);
    ladder_summary_t s;
    ladder_summary(st, &s);
    for (int i = 0; i < s.num_conflicts; i++) {
        report_level *L = find_level(r, s.conflicts[i].stronger);
        if (!L || L->verdict != VERDICT_PASS) continue;      /* withdrawn for an earlier conflict */
        L->verdict = VERDICT_UNKNOWN;
        L->stage = "ladder";
        snprintf(L->msg, sizeof L->msg, "internal error: %s passed, but %s, which it implies, fails; the PASS is withdrawn",
                 level_name(s.conflicts[i].stronger), level_name(s.conflicts[i].weaker));
        r->internal_errors++;
    }
}

/* The first (minimal: interpret.h reports it first) anomaly of level l,
 * or the first axiom violation that breaks it (listed first). */
static const report_anomaly *first_anomaly(const report *r, int l) {
    vec_foreach(const report_anomaly, a, r->items)
        if (a->level == l || (a->level == LEVEL_ANY && (!a->breaks || (a->breaks >> l & 1u)))) return a;
    return NULL;
}

static const char *state_word(ladder_state s) {
    switch (s) {
    case LADDER_PASS: return "PASS";
    case LADDER_FAIL: return "FAIL";
    case LADDER_UNKNOWN: return "UNKNOWN";
    case LADDER_NO_TIMES: return "NOT CHECKED";
    default: return "NOT ASKED";
    }
}

static const char *NO_TIMES = "no times: it needs the transactions' invocation and completion times";

/* What a level's line adds after its verdict (may be ""). */
static void level_note(const report *r, ladder_state s, int l, char *buf, size_t n) {
    buf[0] = 0;
    const report_anomaly *a;
    const report_level *L = find_level((report *)r, (check_level_id)l);
    if (s == LADDER_NO_TIMES) snprintf(buf, n, "%s", NO_TIMES);
    else if (s == LADDER_FAIL && L && L->implied && L->implied_by != l) {   /* the weaker level's FAIL and anomaly */
        char root[600];
        level_note(r, LADDER_FAIL, L->implied_by, root, sizeof root);
        snprintf(buf, n, "implied by %s's FAIL%s%.*s", level_name((check_level_id)L->implied_by), root[0] ? ": " : "",
                 (int)(n > 40 ? n - 40 : 0), root);
    } else if (s == LADDER_FAIL && (a = first_anomaly(r, l)))
        snprintf(buf, n, "%s%s%s%s", anomaly_name(a->chosen ? a->shape : a->kind), a->adya[0] || a->shape_adya[0] ? " (" : "",
                 a->chosen ? a->shape_adya : a->adya, a->adya[0] || a->shape_adya[0] ? ")" : "");
    else if (s != LADDER_PASS && L && L->msg[0]) snprintf(buf, n, "%s", L->msg);
}

/* The asked levels' states.  When the axioms fail every level asked, the
 * levels they break fail (the levels' results, if any, are those of the
 * reads set aside); else each level has its own verdict (a broken one
 * FAILs at stage "axioms"). */
static void ladder_states(const report *r, ladder_state st[LEVEL_COUNT]) {
    states(r, st);
    if (report_axioms_fail_all(r))
        for (int l = 0; l < LEVEL_COUNT; l++)
            st[l] = !r->axiom_breaks || (r->axiom_breaks >> l & 1u) ? LADDER_FAIL : LADDER_NOT_ASKED;
}

static void print_names(FILE *out, const check_level_id *ls, int n) {
    if (!n) fputs(" none", out);
    for (int i = 0; i < n; i++) fprintf(out, "%s %s (%s)", i ? "," : "", level_name(ls[i]), level_title(ls[i]));
    fputc('\n', out);
}

void report_print_ladder_text(FILE *out, const report *r) {
    ladder_state st[LEVEL_COUNT];
    ladder_states(r, st);
    char note[600];
    int unknown = 0;
    for (int part = 0; part < 2; part++) {
        fprintf(out, "ladder, %s:\n", part ? "the plain chain (no session order)" : "session levels, weakest first");
        for (int i = 0; i < LEVEL_COUNT; i++) {
            int l = ladder_order[i];
            if (ladder_part((check_level_id)l) != part || st[l] == LADDER_NOT_ASKED) continue;
            unknown += st[l] == LADDER_UNKNOWN;
            level_note(r, st[l], l, note, sizeof note);
            if (note[0]) fprintf(out, "  %-10s %-11s  %s\n", level_name((check_level_id)l), state_word(st[l]), note);
            else fprintf(out, "  %-10s %s\n", level_name((check_level_id)l), state_word(st[l]));
        }
    }
    ladder_summary_t s;
    ladder_summary(st, &s);
    if (!report_axioms_fail_all(r))        /* the weakest failing levels in full (the axioms are above) */
        for (int i = 0; i < s.num_fails; i++) {
            const report_level *L = find_level((report *)r, s.fails[i]);
            if (L) report_print_level_text(out, r, L);
        }
    fprintf(out, "strongest level%s that hold%s:", s.num_holds > 1 ? "s" : "", s.num_holds > 1 ? "" : "s");
    print_names(out, s.holds, s.num_holds);
    fprintf(out, "weakest level%s that fail%s:", s.num_fails > 1 ? "s" : "", s.num_fails > 1 ? "" : "s");
    if (!s.num_fails) fputs(" none\n", out);
    else fputc('\n', out);
    for (int i = 0; i < s.num_fails; i++) {
        level_note(r, LADDER_FAIL, s.fails[i], note, sizeof note);
        fprintf(out, "  %s (%s)%s%s\n", level_name(s.fails[i]), level_title(s.fails[i]), note[0] ? ": " : "", note);
    }
    if (unknown)
        fprintf(out, "(%d level%s without an answer: the strongest level that holds may be stronger, the weakest that "
                "fails weaker)\n", unknown, unknown == 1 ? "" : "s");
    if (r->internal_errors)
        fprintf(out, "internal error: %u level%s passed while a level %s implies failed (UNKNOWN above); no verdict\n",
                r->internal_errors, r->internal_errors == 1 ? "" : "s", r->internal_errors == 1 ? "it" : "they");
}

static void jlevel(FILE *out, int l) {
    fprintf(out, "{\"level\": \"%s\", \"title\": ", level_name((check_level_id)l));
    json_write_string(out, level_title((check_level_id)l));
}

static void janomaly_ref(FILE *out, const report_anomaly *a) {
    fputs(", \"anomaly\": ", out);
    if (!a) { fputs("null, \"adya\": null", out); return; }
    json_write_string(out, anomaly_name(a->chosen ? a->shape : a->kind));
    const char *adya = a->chosen ? a->shape_adya : a->adya;
    fputs(", \"adya\": ", out);
    if (adya[0]) json_write_string(out, adya); else fputs("null", out);
}

void report_print_ladder_json(FILE *out, const report *r) {
    ladder_state st[LEVEL_COUNT];
    ladder_states(r, st);
    fputs("{\"levels\": [", out);
    int k = 0;
    for (int i = 0; i < LEVEL_COUNT; i++) {
        int l = ladder_order[i];
        if (st[l] == LADDER_NOT_ASKED) continue;
        fputs(k++ ? ", " : "", out);
        jlevel(out, l);
        fprintf(out, ", \"part\": \"%s\", \"verdict\": \"%s\", \"reason\": ", ladder_part((check_level_id)l) ? "plain" : "session",
                state_word(st[l]));
        const report_level *L = find_level((report *)r, (check_level_id)l);
        if (st[l] == LADDER_NO_TIMES) json_write_string(out, "no times");
        else if (L && L->msg[0] && st[l] != LADDER_PASS) {
            char why[sizeof L->msg + 128];
            json_write_string(out, report_level_reason(r, L, why, sizeof why));
        }
        else fputs("null", out);
        if (st[l] == LADDER_FAIL) {
            janomaly_ref(out, first_anomaly(r, l));
            fputs(", \"implied_by\": ", out);
            if (L && L->implied) fprintf(out, "\"%s\"", level_name((check_level_id)L->implied_by)); else fputs("null", out);
        }
        fputc('}', out);
    }
    ladder_summary_t s;
    ladder_summary(st, &s);
    fputs("], \"strongest_holding\": [", out);
    for (int i = 0; i < s.num_holds; i++) { fputs(i ? ", " : "", out); jlevel(out, s.holds[i]); fputc('}', out); }
    fputs("], \"weakest_failing\": [", out);
    for (int i = 0; i < s.num_fails; i++) {
        fputs(i ? ", " : "", out);
        jlevel(out, s.fails[i]);
        janomaly_ref(out, first_anomaly(r, s.fails[i]));
        fputc('}', out);
    }
    fputs("], \"not_checked\": [", out);
    k = 0;
    for (int i = 0; i < LEVEL_COUNT; i++) {
        int l = ladder_order[i];
        if (st[l] != LADDER_NO_TIMES) continue;
        fprintf(out, "%s{\"level\": \"%s\", \"reason\": \"no times\"}", k++ ? ", " : "", level_name((check_level_id)l));
    }
    fprintf(out, "], \"internal_errors\": %u}", r->internal_errors);
}
