# Bad GNF: `gsat: FILE:LINE: message`, exit 2, nothing on standard output.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name input expected-stderr-after-FILE:
  printf '%b' "$2" > "$tmp/$1.gnf"
  out=$("$GSAT" "$tmp/$1.gnf" 2>"$tmp/err"); rc=$?
  want="gsat: $tmp/$1.gnf:$3"
  if [ $rc -ne 2 ] || [ "$(cat "$tmp/err")" != "$want" ] || [ -n "$out" ]; then
    echo "$1: exit $rc, stderr '$(cat "$tmp/err")', stdout '$out'; want exit 2 and '$want'"; fails=$((fails+1))
  fi
}
check reach "digraph 2 1 0\nedge 0 0 1 1\nreach 0 0 1 2\n" "3: unsupported MonoSAT constraint 'reach'"
check bv "1 0\nbv 0 4 1 2 3 4\n" "2: unsupported MonoSAT constraint 'bv'"
check flow "digraph 2 1 0\n maximum_flow_geq 0 0 1 3 5\n" "2: unsupported MonoSAT constraint 'maximum_flow_geq'"
check undeclared "edge 3 0 1 1\n" "1: 'edge' line: graph 3 is not declared (expected an earlier 'digraph' line)"
check badvar "digraph 2 1 0\nedge 0 0 1 0\n" "2: 'edge' line: the edge variable must be an integer in 1..2147483647, found '0'"
check soft "digraph 2 1 0\nedge 0 0 1 1\nacyclic 0 2\n" \
  "3: 'acyclic 0 2': variable 2 is not asserted; gsat supports acyclicity only as a hard constraint (assert it with the unit clause '2 0' or a 'solve' assumption)"
check twosolve "1 0\nsolve 1\n2 0\nsolve 2\n" "4: second 'solve' line (the first is on line 2): incremental GNF is not supported"
# corrupt gzip: an error, never an answer
printf 'digraph 2 1 0\nedge 0 0 1 1\nacyclic 0 2\n2 0\n' | gzip -c | head -c 30 > "$tmp/cut.gnf.gz"
out=$("$GSAT" "$tmp/cut.gnf.gz" 2>"$tmp/err"); rc=$?
if [ $rc -ne 2 ] || [ -n "$out" ] || ! grep -q "^gsat: $tmp/cut.gnf.gz:.*corrupt gzip input at compressed byte" "$tmp/err"; then
  echo "truncated gzip: exit $rc, stderr '$(cat "$tmp/err")'"; fails=$((fails+1))
fi
[ $fails -eq 0 ]
