# convert to every format and back: same stats.
[ -d "$DATA" ] || { echo "skip: $DATA absent"; exit 0; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
src="$DATA/polysi-histories/violations/yugabyte/yugabyte.txt"
want=$("$ISOCHECK" stats --json "$src" | sed 's/"format": "[a-z]*", //')
for to in text dbcop cobra elle; do
  "$ISOCHECK" convert --to $to -o "$t/$to" "$src" || { echo "convert to $to failed"; exit 1; }
  got=$("$ISOCHECK" stats --json "$t/$to" | sed 's/"format": "[a-z]*", //')
  [ "$got" = "$want" ] || { echo "$to: $got"; echo "want: $want"; exit 1; }
done
err=$("$ISOCHECK" convert --to text "$DATA/polysi-histories/violations/dgraph/history.bincode" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "dgraph to text: exit $rc"; exit 1; }
echo "$err" | grep -q 'cannot write an aborted transaction' || { echo "$err"; exit 1; }
exit 0
