/* stats.h — the engine's counters, one X-macro table: X(name, help).
 * The table defines the counter fields of the solver and what `gsat -v`
 * prints; gsat_get_stats() copies the public subset. */
#ifndef GSAT_STATS_H
#define GSAT_STATS_H

#define GSAT_STATS(X)                                                        \
    X(conflicts, "conflicts (Boolean and theory)")                           \
    X(decisions, "decisions")                                                \
    X(propagations, "literals propagated")                                   \
    X(chrono_backtracks, "conflicts answered by backtracking one level")    \
    X(missed_implications, "conflicts with one literal on their level (no analysis)") \
    X(learned_missed, "theory clauses of missed implications kept as learned clauses") \
    X(partial_backtracks, "conflicts below the current level answered by partial backtracking") \
    X(partial_unassigned, "literals taken back by partial backtracking")     \
    X(partial_lists, "occurrence lists built for partial backtracking")     \
    X(partial_rewatched, "clauses given a non-false watch after partial backtracking") \
    X(partial_owed, "non-decision variables decided, left unassigned after partial backtracking") \
    X(restarts, "restarts")                                                  \
    X(mode_switches, "switches between focused and stable search (pure CNF)") \
    X(rephases, "resets of the saved phases (pure CNF)")                    \
    X(walks, "local searches for phases")                                    \
    X(walk_flips, "local search flips")                                      \
    X(walk_models, "local searches that found a model")                      \
    X(probe_conflicts, "conflicts of the probe (a first search of the formula as given, pure CNF)") \
    X(probe_models, "probes that found a model (then the saved phases)")     \
    X(blocked_restarts, "restarts blocked by a long trail")                  \
    X(learned, "learned clauses (units included)")                           \
    X(learned_lits, "literals in learned clauses after minimization")        \
    X(minimized_lits, "literals removed by minimization")                    \
    X(reductions, "learned-clause database reductions")                      \
    X(reduced, "learned clauses deleted")                                    \
    X(simplifications, "level-0 simplifications")                            \
    X(gcs, "clause arena compactions")                                       \
    X(theory_conflicts, "theory conflicts")                                  \
    X(theory_propagations, "literals implied by theories")                   \
    X(theory_explanations, "lazy reasons asked of theories")                 \
    X(theory_explanation_lits, "literals in theory reasons and conflicts") \
    X(warm_starts, "solves that began on the kept assignment (keep_trail)")  \
    X(warm_clauses, "clauses added above level 0 (keep_trail)")              \
    X(warm_backtracks, "backtracks an added clause needed (keep_trail)")     \
    X(warm_late_units, "unit clauses added true above level 0 (keep_trail)") \
    X(warm_late_restored, "of those, made level-0 facts after a backtrack (keep_trail)") \
    X(simp_runs, "preprocessing runs")                                       \
    X(simp_partial_runs, "runs that left clauses of frozen variables out")   \
    X(simp_eliminated, "variables eliminated")                               \
    X(simp_substituted, "variables replaced by an equivalent literal")       \
    X(simp_restored, "removed variables brought back")                       \
    X(simp_removed_clauses, "clauses removed by preprocessing")              \
    X(simp_resolvents, "resolvents added by variable elimination")           \
    X(simp_subsumed, "clauses removed by subsumption")                       \
    X(simp_strengthened, "literals removed by self-subsuming resolution")    \
    X(simp_units, "units found by preprocessing")                            \
    X(simp_usec, "preprocessing time, wall clock (microseconds)")

#endif
