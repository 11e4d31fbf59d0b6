# stats on real histories of three formats, from a file, a directory and stdin.
[ -d "$DATA" ] || { echo "skip: $DATA absent"; exit 0; }
p="$DATA/polysi-histories"
out=$("$ISOCHECK" stats "$p/violations/galera/galera.txt") || exit 1
echo "$out" | grep -q '^txns *7$' || { echo "$out"; exit 1; }
out=$("$ISOCHECK" stats < /dev/null - 2>&1); [ $? -eq 2 ] || { echo "empty stdin accepted"; exit 1; }
out=$("$ISOCHECK" stats - < "$p/violations/dgraph/history.bincode") || exit 1
echo "$out" | grep -q '^aborted *320$' || { echo "$out"; exit 1; }
out=$("$ISOCHECK" stats --json "$p/fig8_9_10/rubis-10000/hist-00000") || exit 1
echo "$out" | grep -q '"format": "cobra", "sessions": 24, "txns": 9358' || { echo "$out"; exit 1; }
for c in check stats convert; do "$ISOCHECK" $c --help | grep -q "usage: isocheck $c" || { echo "$c --help"; exit 1; }; done
exit 0
