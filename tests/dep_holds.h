/* dep_holds.h — for tests: does one dependency hold in a history under a
 * version order, by the re-checker's definition (frontend/recheck/)?
 * The library checks whole cycles (cycle_holds); the tests also check
 * single edges, and a bogus edge's refusal. */
#ifndef ISOCHECK_TESTS_DEP_HOLDS_H
#define ISOCHECK_TESTS_DEP_HOLDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/recheck/vm_internal.h"

/* 1 if e holds in h under vo; 0 with why set if not (or e names no such
 * key or transaction, or vo is not a version order of h). */
static inline int dep_holds(const history *h, const version_order *vo, const dep_edge *e, char *why, size_t wl) {
    if (e->kind != DEP_SO && e->key >= h->num_keys) { snprintf(why, wl, "no such key"); return 0; }
    uint8_t *want = calloc(h->num_keys ? h->num_keys : 1, 1);
    if (!want) { snprintf(why, wl, "out of memory"); return 0; }
    if (e->kind != DEP_SO) want[e->key] = 1;
    vm m;
    int ok = vm_build(&m, h, vo, want, NULL, 0, NULL, why, wl) && vm_dep_holds(&m, e, why, wl);
    vm_free(&m);
    free(want);
    return ok;
}

#endif
