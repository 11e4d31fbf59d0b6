# Malformed input and bad usage: `gsat: FILE:LINE: message`, exit 2, no
# answer line on standard output, never a crash.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name input expected-stderr
  printf '%b' "$2" > "$tmp/$1.cnf"
  out=$("$GSAT" "$tmp/$1.cnf" 2>"$tmp/err"); rc=$?
  want="gsat: $tmp/$1.cnf:$3"
  if [ $rc -ne 2 ] || [ "$(cat "$tmp/err")" != "$want" ] || [ -n "$out" ]; then
    echo "$1: exit $rc, stderr '$(cat "$tmp/err")', stdout '$out'; want exit 2 and '$want'"; fails=$((fails+1))
  fi
}
check empty ""                               "1: empty input: expected the 'p cnf VARIABLES CLAUSES' header"
check badheader "p cnf three 1\n1 0\n"       "1: bad header 'p cnf three 1': expected 'p cnf VARIABLES CLAUSES'"
check range "p cnf 2 1\n1 3 0\n"             "2: literal 3 out of range: the header declares 2 variables"
check fewer "p cnf 2 3\n1 0\n2 0\n"          "3: the header declares 3 clauses, found 2"
check more "p cnf 2 1\n1 0\n2 0\n"           "3: the header declares 1 clauses, found 2"
check stray "p cnf 2 1\n1 2 0\nfoo\n"        "3: unexpected 'foo' (expected a clause, a comment or the 'p cnf' header)"
check strayinline "p cnf 2 1\n1 two 0\n"     "2: unexpected 'two' after literals (expected a literal or 0)"
check noheader "1 2 0\n"                     "1: clause before the 'p cnf VARIABLES CLAUSES' header"
check unterminated "p cnf 2 1\n1 2\n"        "2: the last clause is not terminated by 0"
check binary "p cnf 2 1\n\001\002\003 0\n"   "2: unexpected '???' (expected a clause, a comment or the 'p cnf' header)"

"$GSAT" "$tmp/missing.cnf" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "gsat: $tmp/missing.cnf: cannot open: No such file or directory" ] || {
  echo "missing file: exit $rc, '$(cat "$tmp/err")'"; fails=$((fails+1)); }
"$GSAT" "$tmp" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^gsat: $tmp" "$tmp/err" || { echo "directory: exit $rc, '$(cat "$tmp/err")'"; fails=$((fails+1)); }

# no file: standard input, as MiniSat reads it; two files: a usage error
printf 'p cnf 2 2\n1 2 0\n-1 0\n' | "$GSAT" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 10 ] && grep -qx "s SATISFIABLE" "$tmp/out" || { echo "no file (stdin): exit $rc"; fails=$((fails+1)); }
"$GSAT" a.cnf b.cnf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "at most one input: FILE or -" "$tmp/err" || { echo "two files: exit $rc, '$(cat "$tmp/err")'"; fails=$((fails+1)); }
# --version: the one version of include/version.h, for both programs
v=$(sed -n 's/^#define ISOCHECK_VERSION "\(.*\)"/\1/p' "$(dirname "$0")/../../include/version.h")
[ -n "$v" ] && [ "$("$GSAT" --version)" = "gsat $v" ] || { echo "gsat --version: '$("$GSAT" --version)' (want gsat $v)"; fails=$((fails+1)); }
[ "$("$ISOCHECK" --version)" = "isocheck $v" ] || { echo "isocheck --version: '$("$ISOCHECK" --version)'"; fails=$((fails+1)); }
"$GSAT" --frobnicate x.cnf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown option '--frobnicate'" "$tmp/err" || { echo "unknown option: exit $rc"; fails=$((fails+1)); }
"$GSAT" --restart=7 x.cnf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "option --restart expects an integer in 0..1, found '7'" "$tmp/err" || { echo "bad option value: exit $rc"; fails=$((fails+1)); }
"$GSAT" --time-limit=abc x.cnf >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || { echo "bad time limit: exit $rc"; fails=$((fails+1)); }
[ $fails -eq 0 ]
