# convert to every format and back: same stats.
[ -d "$DATA" ] || { echo "skip: $DATA absent"; exit 0; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
src="$DATA/polysi-histories/violations/yugabyte/yugabyte.txt"
# the model's shape, without the format and the reader's own load report
shape() { "$ISOCHECK" stats --json "$1" | sed 's/"format": "[a-z]*", //; s/, "load": {.*}}$/}/'; }
want=$(shape "$src")
for to in text dbcop cobra elle; do
  "$ISOCHECK" convert --to $to -o "$t/$to" "$src" || { echo "convert to $to failed"; exit 1; }
  got=$(shape "$t/$to")
  [ "$got" = "$want" ] || { echo "$to: $got"; echo "want: $want"; exit 1; }
done
# issue 14: the reads of dgraph's 320 aborted transactions went into :fail completions, which
# the Elle reader drops (16,000 ops became 12,880); every op comes back now
dg="$DATA/polysi-histories/violations/dgraph/history.bincode"
"$ISOCHECK" convert --to elle -o "$t/dgraph.edn" "$dg" || { echo "convert dgraph to elle failed"; exit 1; }
want=$(shape "$dg"); got=$(shape "$t/dgraph.edn")
[ "$got" = "$want" ] || { echo "dgraph through elle: $got"; echo "want: $want"; exit 1; }
echo "$got" | grep -q '"ops": 16000' || { echo "dgraph: $got"; exit 1; }
err=$("$ISOCHECK" convert --to text "$DATA/polysi-histories/violations/dgraph/history.bincode" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "dgraph to text: exit $rc"; exit 1; }
echo "$err" | grep -q 'cannot write an aborted transaction' || { echo "$err"; exit 1; }
exit 0
