/* ladder.c — the implication order of the levels and its conclusions
 * (contract in ladder.h). */
#include "frontend/reports/ladder.h"
#include "frontend/recheck/certificate.h"

#include <string.h>

const check_level_id ladder_order[LEVEL_COUNT] = {
    LEVEL_RC, LEVEL_RA, LEVEL_CC, LEVEL_PC, LEVEL_PSI, LEVEL_SI, LEVEL_SER, LEVEL_STRONG_SI, LEVEL_SSER,
    LEVEL_SI_PLAIN, LEVEL_RR, LEVEL_SER_PLAIN,
};

/* The Hasse diagram of doc/levels.md: each level and the levels it
 * directly implies. */
typedef struct hasse_row { check_level_id level; check_level_id weaker[3]; int n; } hasse_row;
static const hasse_row hasse[] = {
    { LEVEL_SSER, { LEVEL_STRONG_SI, LEVEL_SER }, 2 },
    { LEVEL_STRONG_SI, { LEVEL_SI }, 1 },
    { LEVEL_SER, { LEVEL_SI, LEVEL_SER_PLAIN }, 2 },
    { LEVEL_SI, { LEVEL_PC, LEVEL_PSI, LEVEL_SI_PLAIN }, 3 },
    { LEVEL_PC, { LEVEL_CC }, 1 },
    { LEVEL_PSI, { LEVEL_CC }, 1 },
    { LEVEL_CC, { LEVEL_RA }, 1 },
    { LEVEL_RA, { LEVEL_RC }, 1 },
    { LEVEL_SER_PLAIN, { LEVEL_SI_PLAIN, LEVEL_RR }, 2 },
};

int ladder_part(check_level_id l) { return !level_session_order(l); }

int level_implies(check_level_id a, check_level_id b) {
    if (a == b) return 1;
    for (size_t i = 0; i < sizeof hasse / sizeof hasse[0]; i++) {
        if (hasse[i].level != a) continue;
        for (int j = 0; j < hasse[i].n; j++)
            if (level_implies(hasse[i].weaker[j], b)) return 1;
    }
    return 0;
}

int level_has_certificate(check_level_id l) { return cert_form_of(l) != NULL; }

int level_checkable(check_level_id l, int has_times) { return has_times || !level_real_time(l); }

ladder_state ladder_state_of(verdict v) {
    return v == VERDICT_PASS ? LADDER_PASS : v == VERDICT_FAIL ? LADDER_FAIL : LADDER_UNKNOWN;
}

void ladder_summary(const ladder_state st[LEVEL_COUNT], ladder_summary_t *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < LEVEL_COUNT; i++) {
        check_level_id a = ladder_order[i];
        int stronger_passes = 0, weaker_fails = 0;
        for (int j = 0; j < LEVEL_COUNT; j++) {
            check_level_id b = ladder_order[j];
            if (b == a) continue;
            if (st[b] == LADDER_PASS && level_implies(b, a)) stronger_passes = 1;
            if (st[b] == LADDER_FAIL && level_implies(a, b)) {
                weaker_fails = 1;
                if (st[a] == LADDER_PASS) out->conflicts[out->num_conflicts++] = (ladder_conflict){ a, b };
            }
        }
        if (st[a] == LADDER_PASS && !stronger_passes) out->holds[out->num_holds++] = a;
        if (st[a] == LADDER_FAIL && !weaker_fails) out->fails[out->num_fails++] = a;
    }
}
