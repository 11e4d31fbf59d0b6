# gsat --proof: what is refused (graph problems, the input as the proof, '-',
# options that do not go with it) and that nothing of the user's is lost;
# -q prints only the s (and v) lines; --seed gives the same run twice;
# SIGINT and SIGTERM during the search end with s UNKNOWN, exit 0, and the
# statistics; a signal while reading ends gsat by the signal, leaving no
# temporary file.  (The proofs themselves are checked by tests/test_drat.c.)
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
php="$ROOT/examples/pigeonhole-5.cnf"
fail() { echo "$*"; exit 1; }

# an UNSAT answer's proof ends with the empty clause; -v reports it
"$GSAT" -v --proof "$tmp/p.drat" "$php" > "$tmp/out"; rc=$?
[ $rc -eq 20 ] || fail "--proof: exit $rc"
[ "$(tail -1 "$tmp/p.drat")" = "0" ] || fail "proof does not end with the empty clause"
grep -q "^c proof: [0-9]* clauses added" "$tmp/out" || fail "-v lacks the proof line"
grep -q "^c |  *conflicts" "$tmp/out" || fail "-v lacks the progress table"
ls -a "$tmp" | grep -q isocheck && fail "temporary file left: $(ls -a "$tmp")"

# refused, exit 2, a message, the existing file untouched
echo keep > "$tmp/keep"
cp "$php" "$tmp/in.cnf"
expect2() {  # what, then the arguments
  what=$1; shift
  "$GSAT" "$@" > "$tmp/o" 2> "$tmp/e"; rc=$?
  [ $rc -eq 2 ] || fail "$what: exit $rc, expected 2: $(cat "$tmp/o" "$tmp/e")"
  grep -q "$what" "$tmp/e" || fail "message lacks '$what': $(cat "$tmp/e")"
  [ "$(cat "$tmp/keep")" = keep ] || fail "$what: the existing proof file was changed"
  cmp -s "$php" "$tmp/in.cnf" || fail "$what: the input was changed"
}
printf 'digraph 2 2 0\nedge 0 0 1 1\nedge 0 1 0 2\nacyclic 0 3\n3 0\n' > "$tmp/g.gnf"
expect2 "pure CNF only" --proof "$tmp/keep" "$tmp/g.gnf"
expect2 "input" --proof "$tmp/in.cnf" "$tmp/in.cnf"
expect2 "give the proof a file" --proof - "$php"
expect2 "needs --proof" --binary-proof "$php"
expect2 "do not go together" --proof "$tmp/keep" --to-cnf=rank "$tmp/g.gnf"
expect2 "at most one of -q and -v" -q -v "$php"
printf 'p cnf 2 1\n1 x 0\n' > "$tmp/bad.cnf"
expect2 "bad.cnf:2" --proof "$tmp/keep" "$tmp/bad.cnf"
expect2 "nodir" --proof "$tmp/nodir/p.drat" "$php"
if [ -w /dev/full ]; then
  "$GSAT" --proof /dev/full "$php" > /dev/null 2> "$tmp/e"; rc=$?
  [ $rc -eq 2 ] && grep -q "No space left" "$tmp/e" || fail "/dev/full: exit $rc: $(cat "$tmp/e")"
fi
ls -a "$tmp" | grep -q isocheck && fail "temporary file left: $(ls -a "$tmp")"

# a satisfiable formula: exit 10, the proof written all the same
printf 'p cnf 2 2\n1 2 0\n-1 0\n' > "$tmp/sat.cnf"
"$GSAT" --proof "$tmp/keep" "$tmp/sat.cnf" > "$tmp/o"; rc=$?
[ $rc -eq 10 ] || fail "sat with --proof: exit $rc"
[ "$(cat "$tmp/keep")" = keep ] && fail "the proof of a satisfiable run was not written"

# -q: only the s line (and v lines)
"$GSAT" -q "$php" > "$tmp/o"; rc=$?
[ $rc -eq 20 ] && [ "$(cat "$tmp/o")" = "s UNSATISFIABLE" ] || fail "-q: exit $rc: $(cat "$tmp/o")"
"$GSAT" -q "$tmp/sat.cnf" > "$tmp/o"; rc=$?
[ $rc -eq 10 ] && [ "$(cat "$tmp/o")" = "$(printf 's SATISFIABLE\nv -1 2 0')" ] || fail "-q sat: $(cat "$tmp/o")"

# --seed: the same seed, the same run; the seed changes the run
runs=""
for seed in 1 1 2 3 4; do
  "$GSAT" -v --seed "$seed" "$php" > "$tmp/o"; rc=$?
  [ $rc -eq 20 ] || fail "--seed $seed: exit $rc"
  runs="$runs $(awk '$2=="conflicts:" || $2=="decisions:" {printf "%s/", $3}' "$tmp/o")"
done
set -- $runs
[ "$1" = "$2" ] || fail "--seed 1 twice: $1 vs $2"
[ "$1" != "$3" ] || [ "$1" != "$4" ] || [ "$1" != "$5" ] || fail "--seed changes nothing: $runs"

# pigeonhole 11 runs long: interrupt it
{ p=12; h=11; echo "p cnf $((p*h)) $((p + h*p*(p-1)/2))"
  i=0; while [ $i -lt $p ]; do j=0; l=""; while [ $j -lt $h ]; do l="$l $((i*h+j+1))"; j=$((j+1)); done; echo "$l 0"; i=$((i+1)); done
  j=0; while [ $j -lt $h ]; do a=0; while [ $a -lt $p ]; do b=$((a+1)); while [ $b -lt $p ]; do
    echo "-$((a*h+j+1)) -$((b*h+j+1)) 0"; b=$((b+1)); done; a=$((a+1)); done; j=$((j+1)); done; } > "$tmp/php11.cnf"
# sh starts background jobs with SIGINT ignored (and gsat keeps it so):
# env gives it back its default action where it can
if env --default-signal=INT true 2> /dev/null; then dfl="env --default-signal=INT"; sigs="INT TERM"; last=INT; code=130
else dfl=""; sigs=TERM; last=TERM; code=143; fi
for sig in $sigs; do
  rm -f "$tmp/i.drat"
  $dfl "$GSAT" -v --proof "$tmp/i.drat" "$tmp/php11.cnf" > "$tmp/o" 2> "$tmp/e" &
  pid=$!
  # -v's table header is printed (and flushed) once the search has begun
  n=0; while [ $n -lt 300 ] && ! grep -q "^c |  *conflicts" "$tmp/o"; do sleep 0.1; n=$((n+1)); done
  sleep 0.5
  kill -$sig $pid; wait $pid; rc=$?
  [ $rc -eq 0 ] || fail "SIG$sig: exit $rc: $(cat "$tmp/o" "$tmp/e")"
  grep -q "^c interrupted by SIG$sig" "$tmp/o" || fail "SIG$sig: no 'c interrupted' line: $(cat "$tmp/o")"
  grep -q "^c conflicts: *[1-9]" "$tmp/o" || fail "SIG$sig: no statistics: $(cat "$tmp/o")"
  [ "$(grep '^s ' "$tmp/o")" = "s UNKNOWN" ] || fail "SIG$sig: answer $(grep '^s ' "$tmp/o")"
  [ -s "$tmp/i.drat" ] || fail "SIG$sig: the proof so far was not written"
done
# while reading (a FIFO kept open): the signal ends gsat, no temporary file stays
rm -f "$tmp/i.drat"
mkfifo "$tmp/fifo" || fail "mkfifo"
$dfl "$GSAT" --proof "$tmp/i.drat" "$tmp/fifo" > "$tmp/o" 2>&1 &
pid=$!
exec 3> "$tmp/fifo"
head -5 "$php" >&3
n=0; while [ $n -lt 60 ] && ! ls -a "$tmp" | grep -q '\.i\.drat\.isocheck'; do sleep 0.1; n=$((n+1)); done
kill -$last $pid; wait $pid; rc=$?
exec 3>&-
[ $rc -eq $code ] || fail "SIG$last while reading: exit $rc, expected $code: $(cat "$tmp/o")"
[ -e "$tmp/i.drat" ] && fail "SIGINT while reading: a proof was written"
ls -a "$tmp" | grep -q isocheck && fail "SIGINT while reading: temporary file left: $(ls -a "$tmp")"
exit 0
