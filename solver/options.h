/* options.h — the engine's tunables, one X-macro table.
 *
 * X(name, default, min, max, help).  The table defines the option fields of
 * the solver, gsat_set_option() and gsat's `--name=value` command-line
 * options; nothing else lists options.  Ratios are integers (per mille or
 * percent) so that every option is an int64.  A theory's options are its
 * own (gsat_add_options in solver/theory.h; the acyclicity theory's in
 * theory/acyclic_options.h, the ACYCLIC_OPTIONS table). */
#ifndef GSAT_OPTIONS_H
#define GSAT_OPTIONS_H

#define GSAT_OPTIONS(X)                                                                          \
    X(restart, 1, 0, 1, "restart policy: 0 Luby, 1 Glucose-style (recent vs global LBD average)") \
    X(luby_unit, 100, 1, 1000000, "Luby restarts: conflicts per Luby unit")                     \
    X(lbd_window, 50, 5, 100000, "Glucose restarts: number of recent LBDs averaged")            \
    X(lbd_margin, 80, 10, 100, "Glucose restarts: restart if recent*margin% > global average")  \
    X(block_restart, 140, 0, 1000, "block a restart if the trail is x% of its recent average (0 off)") \
    X(block_window, 5000, 10, 1000000, "restart blocking: number of recent trail sizes averaged") \
    X(var_decay, 950, 500, 999, "VSIDS activity decay, per mille")                              \
    X(var_decay_start, 800, 500, 999, "initial VSIDS decay, raised by 10 every 5000 conflicts")  \
    X(clause_decay, 999, 500, 999, "learned-clause activity decay, per mille")                  \
    X(phase, 0, 0, 1, "initial phase: 0 false, 1 true")                                         \
    X(phase_saving, 1, 0, 1, "reuse the last value of a variable when branching")               \
    X(minimize, 2, 0, 2, "learned-clause minimization: 0 none, 1 local, 2 recursive")           \
    X(reduce_first, 1000, 100, 100000000, "conflicts before the first learned-clause reduction") \
    X(reduce_inc, 100, 0, 1000000, "growth of the reduction interval per reduction")           \
    X(core_lbd, 2, 0, 1000, "learned clauses with LBD <= this are kept forever")                \
    X(tier2_lbd, 6, 0, 1000, "learned clauses with LBD <= this survive reductions while used")   \
    X(chrono, 1, 0, 1, "chronological backtracking: after a conflict go back one level instead of far") \
    X(chrono_levels, 100, 0, 1000000000, "chrono: only when the backjump would undo more than this many levels") \
    X(partial_backtrack, 1, 0, 1, "a conflict below the current level takes back only what depends on the flipped literal") \
    X(learn_missed, 1, 0, 1, "keep a theory clause that shows a missed implication as a learned clause") \
    X(stable, 1, 0, 2, "pure CNF: 0 focused search only, 1 alternate focused and stable phases, 2 stable only") \
    X(stable_init, 1000, 1, 1000000000, "conflicts of the first focused phase (and of the first stable one)") \
    X(stable_factor, 200, 100, 1000, "each stable phase and the focused one after it are this % of the last") \
    X(stable_luby_unit, 1024, 1, 100000000, "stable mode: conflicts per Luby unit of its restarts") \
    X(target_phase, 1, 0, 1, "stable mode: branch along the longest conflict-free trail seen") \
    X(rephase, 1, 0, 1, "pure CNF: reset the saved phases now and then (best, original, best, inverted)") \
    X(rephase_interval, 1000, 1, 100000000, "rephase: conflicts before the first, and added per rephase to the gap") \
    X(walk, 1, 0, 1, "pure CNF: local search (ProbSAT) for the saved phases at restarts") \
    X(probe, 1000, 0, 100000000, "pure CNF: first a separate search of the formula as given (no preprocessing) for up to N conflicts; a model it finds becomes the saved phases (0 off)") \
    X(walk_interval, 2000, 1, 100000000, "walk: conflicts before the first walk, and added per walk to the gap") \
    X(walk_effort, 100, 1, 100000, "walk: clause visits per mille of the propagations since the last walk") \
    X(seed, 0, 0, 4294967295LL, "randomness: 0 the default run; else initial activities perturbed and local search seeded by it") \
    X(simplify, 1, 0, 1, "remove satisfied clauses and false literals at level 0")              \
    X(gc_percent, 20, 1, 90, "compact the clause arena when this % of it is garbage")           \
    X(keep_trail, 0, 0, 1, "incremental: keep the assignment after SAT; clauses and edges added later join it, the next solve decides only what is new (with preprocess=0)") \
    /* preprocessing (solver/simp*.c) */                                                         \
    X(preprocess, 1, 0, 2, "preprocessing: 0 off, 1 before the first solve, 2 before every solve that follows new clauses") \
    X(equiv, 1, 0, 1, "preprocessing: substitute equivalent literals")                          \
    X(subsume, 1, 0, 1, "preprocessing: backward subsumption and self-subsuming strengthening")   \
    X(subsume_limit, 1000, 2, 1000000000, "preprocessing: longest clause used to subsume others") \
    X(elim, 1, 0, 1, "preprocessing: bounded variable elimination")                             \
    X(elim_bound, 0, 0, 1000, "variable elimination: resolvents may outnumber the clauses removed by this") \
    X(elim_clause_limit, 20, 2, 1000000, "variable elimination: longest resolvent allowed")      \
    X(elim_occ_limit, 1000, 1, 1000000000, "variable elimination: skip variables with more occurrences") \
    X(simp_effort, 100, 1, 1000000, "preprocessing work limit: steps per literal of the formula (at least 10^6)")

#endif
