# gsat's input, issue 14: NUL bytes (file, gzip, standard input), long and
# glued numbers, contradictory units before an `acyclic` line, memory that
# follows what the input uses (not declared sizes or the largest index),
# models in the input's numbering, the time limit counting the reading, and
# the out-of-memory message naming the stage.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "$*"; fails=$((fails+1)); }
# Under ASan an allocation above 1 GB fails (exit 2) instead of eating the
# machine; other builds get a 2 GB address-space limit.
asan=0; grep -q __asan_init "$GSAT" 2>/dev/null && asan=1
limited() {
  if [ $asan = 1 ]; then ASAN_OPTIONS=max_allocation_size_mb=1024:allocator_may_return_null=1 "$GSAT" "$@"
  else (ulimit -v 2000000; "$GSAT" "$@"); fi
}
# every clause of CNF/GNF text $1 holds in the model printed in $2
model_ok() {
  awk 'FNR==NR { if ($1=="v") for (i=2;i<=NF;i++) val[$i]=1; next }
       /^ *(c|p|digraph|edge|acyclic|node|solve|decision)( |$)/ { next }
       /^ *$/ { next }
       { ok=0; for (i=1;i<=NF;i++) if ($i in val) ok=1; if (!ok) { print "clause falsified: " $0; bad=1 } }
       END { exit bad }' "$2" "$1"
}

# ---- NUL bytes: exit 2 naming the line, from a file, gzip and stdin
want="NUL byte in the input (expected DIMACS or GNF text)"
printf '\0\n' > "$tmp/nul.gnf"
out=$("$GSAT" "$tmp/nul.gnf" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/nul.gnf:1: $want" ] || bad "nul file: exit $rc, '$(cat "$tmp/err")'"
gzip -c "$tmp/nul.gnf" > "$tmp/nulz.gnf.gz"
out=$("$GSAT" "$tmp/nulz.gnf.gz" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/nulz.gnf.gz:1: $want" ] || bad "nul gzip: exit $rc, '$(cat "$tmp/err")'"
out=$("$GSAT" - < "$tmp/nul.gnf" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: <stdin>:1: $want" ] || bad "nul stdin: exit $rc, '$(cat "$tmp/err")'"
printf 'p cnf 2 1\nc fine\n1 2\0 0\n' > "$tmp/nul.cnf"
out=$("$GSAT" "$tmp/nul.cnf" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/nul.cnf:3: $want" ] || bad "nul cnf: exit $rc, '$(cat "$tmp/err")'"

# ---- numbers: a 34-digit 12 is 12, one token; glued tokens are errors
printf -- '-1 -2 0\nsolve 00000000000000000000000000000012 0\n' > "$tmp/long.gnf"
"$GSAT" "$tmp/long.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx 'v -1 -2 12 0' "$tmp/out" || bad "long solve token: exit $rc, $(cat "$tmp/out" "$tmp/err")"
printf -- '-1 -2 0\nsolve 0001-1\n' > "$tmp/glued.gnf"
"$GSAT" "$tmp/glued.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/glued.gnf:2: 'solve' line: expected a literal, found '0001-1'" ] ||
  bad "glued solve token: exit $rc, '$(cat "$tmp/err")'"
printf 'p cnf 2 1\n0001-1 0\n' > "$tmp/glued.cnf"
"$GSAT" "$tmp/glued.cnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/glued.cnf:2: unexpected character '-' in a literal" ] ||
  bad "glued literal: exit $rc, '$(cat "$tmp/err")'"

# ---- contradictory units before an acyclic line: UNSAT, not bad input
printf '1 0\n-1 0\ndigraph 1 0 0\nacyclic 0 2\n2 0\n' > "$tmp/contra.gnf"
"$GSAT" "$tmp/contra.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 20 ] && grep -qx 's UNSATISFIABLE' "$tmp/out" || bad "contradictory units: exit $rc, $(cat "$tmp/err")"

# ---- memory follows use: 41 bytes declaring 2^28 nodes, a decision on
# variable 2^26, a header of 2e9 variables, graph and node ids near INT32_MAX
printf 'digraph 268435456 0 0\nacyclic 0 1\n1 0\n' > "$tmp/nodes.gnf"
limited "$tmp/nodes.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx 'v 1 0' "$tmp/out" || bad "2^28 declared nodes: exit $rc, $(cat "$tmp/err")"
printf 'decision 67108864 1\n' > "$tmp/dec.gnf"
limited "$tmp/dec.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx 'v -67108864 0' "$tmp/out" || bad "decision 2^26: exit $rc, $(cat "$tmp/out" "$tmp/err")"
printf 'p cnf 2000000000 3\n1 -2000000000 0\n2000000000 0\n-1 7 0\n' > "$tmp/hdr.cnf"
limited "$tmp/hdr.cnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx 'v 1 7 2000000000 0' "$tmp/out" || bad "2e9 declared variables: exit $rc, $(cat "$tmp/out" "$tmp/err")"
printf 'digraph 5 3 2147483647\nedge 2147483647 2147483646 0 2000000000\nedge 2147483647 0 2147483646 1999999999\n' > "$tmp/ids.gnf"
printf 'acyclic 2147483647 2147483647\n2147483647 0\n2000000000 0\n' >> "$tmp/ids.gnf"
limited "$tmp/ids.gnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx 'v -1999999999 2000000000 2147483647 0' "$tmp/out" || bad "large ids: exit $rc, $(cat "$tmp/out" "$tmp/err")"
limited --assume "$tmp/ids.gnf" > /dev/null 2>&1; rc=$?
[ $rc -eq 10 ] || bad "large ids --assume: exit $rc"

# ---- the model lists the variables the input names, in its numbering
awk 'BEGIN { srand(7); print "p cnf 2147483647 400"
  for (i = 0; i < 400; i++) { l = ""; for (k = 0; k < 3; k++) { v = 1 + int(rand() * 60) * 35791394; l = l (rand() < .5 ? "-" : "") v " " } print l "0" } }' > "$tmp/spread.cnf"
"$GSAT" "$tmp/spread.cnf" > "$tmp/out"; rc=$?
if [ $rc -eq 10 ]; then
  model_ok "$tmp/spread.cnf" "$tmp/out" || bad "spread variables: model falsifies a clause"
  named=$(grep -v '^[cp]' "$tmp/spread.cnf" | tr ' ' '\n' | tr -d - | grep -v '^0*$' | sort -u | wc -l)
  listed=$(grep '^v' "$tmp/out" | tr ' ' '\n' | grep -c '^-\?[1-9]')
  [ "$named" -eq "$listed" ] || bad "spread variables: $named named, $listed in the model"
elif [ $rc -ne 20 ]; then bad "spread variables: exit $rc"; fi

# ---- --time-limit counts from the start, reading included
start=$(date +%s)
(printf 'p cnf 1 1\n'; sleep 3; printf '1 0\n') | "$GSAT" --cnf --time-limit=1 - > "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "s UNKNOWN" ] || bad "time limit while reading: exit $rc, $(cat "$tmp/out" "$tmp/err")"
[ $(( $(date +%s) - start )) -le 8 ] || bad "time limit while reading: took too long"

# ---- out of memory while reading: one line naming program, stage and file
if [ $asan = 1 ]; then
  seq 1 300000 | awk 'BEGIN { print "p cnf 300000 300000" } { print $1 " 0" }' > "$tmp/many.cnf"
  ASAN_OPTIONS=max_allocation_size_mb=1:allocator_may_return_null=1 "$GSAT" "$tmp/many.cnf" > "$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "^gsat: out of memory while reading $tmp/many.cnf (allocating [0-9]* bytes)$" "$tmp/err" ||
    bad "out of memory: exit $rc, '$(cat "$tmp/err")'"
fi
[ $fails -eq 0 ]
