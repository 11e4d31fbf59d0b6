/* level_bv.h — the pipeline's level ids mapped to the oracle's
 * (tests/brute_levels.h's BV_* indexes), for the differential tests that
 * run both; -1 for a level the oracle does not define.  Include after
 * brute_levels.h and frontend/history/levels.h. */
#ifndef ISOCHECK_TESTS_LEVEL_BV_H
#define ISOCHECK_TESTS_LEVEL_BV_H

static inline int bv_of(check_level_id l) {
    switch (l) {
    case LEVEL_RC: return BV_RC;
    case LEVEL_RA: return BV_RA;
    case LEVEL_CC: return BV_CC;
    case LEVEL_PC: return BV_PC;
    case LEVEL_PSI: return BV_PSI;
    case LEVEL_SI_PLAIN: return BV_SI_PLAIN;
    case LEVEL_SI: return BV_SI;
    case LEVEL_SER_PLAIN: return BV_SER_PLAIN;
    case LEVEL_SER: return BV_SER;
    case LEVEL_STRONG_SI: return BV_STRONG_SI;
    case LEVEL_SSER: return BV_SSER;
    case LEVEL_RR: return BV_RR;
    default: return -1;
    }
}

#endif
