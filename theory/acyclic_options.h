/* acyclic_options.h — the acyclicity theory's tunables, one X-macro table.
 *
 * X(name, default, min, max, help), as the engine's solver/options.h.  The
 * table defines the theory's option indices (ACYCLIC_OPT_name, read with
 * OPTION(a, name) in acyclic_internal.h) and the gsat_option entries it
 * hands the engine (acyclic_add_options), hence gsat_set_option(), gsat's
 * `--name=value` and `gsat --help`; nothing else lists them.  The engine
 * keeps the values, so they can be set before the theory is attached;
 * theory_in_arrays is read once, at the first guarded edge. */
#ifndef GSAT_ACYCLIC_OPTIONS_H
#define GSAT_ACYCLIC_OPTIONS_H

#define ACYCLIC_OPTIONS(X)                                                                        \
    X(theory_propagate, 1, 0, 2, "acyclicity: imply edges off that would close a cycle: 0 off, 1 from the Pearce-Kelly window, 2 also a bounded search") \
    X(theory_propagate_budget, 64, 1, 1000000000, "acyclicity, theory_propagate=2: nodes searched each way per new edge") \
    X(theory_phase, 2, 0, 2, "branch on an edge variable with the value that agrees with the current topological order; " \
      "else 1: the saved phase, 2: the one spanning fewer positions") \
    X(theory_phase_budget, 1024, 0, 1000000000, "theory_phase: nodes searched to see whether a backward edge closes a cycle") \
    X(theory_presort, 1, 0, 1, "re-sort the order once per solve for the edges it will turn on (a pass over every edge; " \
      "0: never, for many small solves of one growing graph)")                                   \
    X(theory_keep_ends, 1, 0, 1, "keep the ends of always-on edges once frozen into the order's arrays (8 bytes an edge; " \
      "0: a caller that never lists the edges drops them)")                                      \
    X(theory_in_arrays, 1, 0, 1, "keep the guarded edges into each node as arrays too (8 bytes an edge, 4 a node): " \
      "propagation scans the smaller side (0: out-edges only, for few scans)")

#endif
