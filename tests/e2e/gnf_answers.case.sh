# GNF input end to end: MonoSAT's own trace of PolySI's galera problem
# (unsatisfiable: galera violates SI), the same relaxed to satisfiable,
# gzip from a file and from standard input, answers and models.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d="$ROOT/tests/e2e/data"
fail() { echo "$*"; exit 1; }

"$GSAT" "$d/polysi-galera.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] && grep -qx 's UNSATISFIABLE' "$tmp/out" || fail "galera: exit $rc, want 20"

# without the solve line's assumptions the problem is satisfiable
grep -v '^ *solve' "$d/polysi-galera.gnf" > "$tmp/free.gnf"
"$GSAT" "$tmp/free.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] && grep -qx 's SATISFIABLE' "$tmp/out" || fail "galera without assumptions: exit $rc, want 10"
# the self-loop edges' variables are false in the model (edge 1 0 0 142 ...)
grep '^v' "$tmp/out" | tr ' ' '\n' | grep -qx -- -142 || fail "self-loop variable 142 not false in the model"
grep '^v' "$tmp/out" | tr ' ' '\n' | grep -qx -- -148 || fail "self-loop variable 148 not false in the model"

# gzip: from a file (by name and by magic) and from standard input
gzip -c "$d/polysi-galera.gnf" > "$tmp/g.gnf.gz"
"$GSAT" "$tmp/g.gnf.gz" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || fail "galera.gnf.gz: exit $rc, want 20"
"$GSAT" - < "$tmp/g.gnf.gz" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || fail "galera.gnf.gz on stdin: exit $rc, want 20"
gzip -c "$tmp/free.gnf" | "$GSAT" --gnf - > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || fail "gzip pipe: exit $rc, want 10"

# a small cycle decided by the solve line; -v reports the graph
printf 'c monosat\ndigraph 3 3 0\n edge 0 0 1 1\n edge 0 1 2 2\n edge 0 2 0 3\nacyclic 0 4\n4 0\nsolve 1 2\n' > "$tmp/c.gnf"
"$GSAT" -v "$tmp/c.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 10 ] || fail "cycle with two edges assumed: exit $rc, want 10"
grep -q '^v.* -3 ' "$tmp/out" || fail "edge 2->0 should be off"
grep -q '^c gsat: 1 graphs (1 acyclic), 3 nodes, 3 edges, 2 assumptions' "$tmp/out" || fail "-v graph line missing"
sed 's/^solve 1 2$/solve 1 2 3/' "$tmp/c.gnf" > "$tmp/c3.gnf"
"$GSAT" "$tmp/c3.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || fail "all three edges assumed: exit $rc, want 20"
# --assume: solved under the assumptions, the failed ones are listed
"$GSAT" --assume "$tmp/c3.gnf" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] && grep -qx 'c failed: 1 2 3' "$tmp/out" || fail "--assume: exit $rc, $(cat "$tmp/out")"
# the same problem through strict DIMACS is refused (no header)
"$GSAT" --cnf "$tmp/c.gnf" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--cnf on GNF: exit $rc, want 2"
exit 0
