#!/bin/sh
# bench/cnf_check.sh HISTORY LEVEL [MODE] [SOLVER] — check a history through the
# CNF-only path: `isocheck encode --cnf=MODE` (acyclicity as clauses, default
# rank) then a plain SAT solver (default cadical; minisat works too).
# exit 0: satisfiable (the history satisfies LEVEL), 1: unsatisfiable, 2: error.
h=$1; level=$2; mode=${3:-rank}; solver=${4:-cadical}
root=$(cd "$(dirname "$0")/.." && pwd)
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
cnf=$(mktemp "${TMPDIR:-/tmp}/isocheck-cnf.XXXXXX") || exit 2
trap 'rm -f "$cnf"' EXIT
"$ISOCHECK" encode --level "$level" --cnf="$mode" -o "$cnf" "$h" || exit 2
case $solver in
  cadical) cadical -q "$cnf" >/dev/null; rc=$? ;;
  minisat) minisat -verb=0 "$cnf" >/dev/null 2>&1; rc=$? ;;
  *) "$solver" "$cnf" >/dev/null 2>&1; rc=$? ;;
esac
case $rc in 10) echo "PASS (SAT)"; exit 0;; 20) echo "FAIL (UNSAT)"; exit 1;; *) echo "solver exit $rc"; exit 2;; esac
