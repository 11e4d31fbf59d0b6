# Histories may be gzip-compressed; a truncated gzip is a read error, not an empty history.
[ -d "$DATA" ] || { echo "skip: $DATA absent"; exit 0; }
set -e
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gzip -c "$ROOT/examples/galera-lost-update.txt" > "$t/g.txt.gz"      # PolySI's galera history
"$ISOCHECK" stats "$t/g.txt.gz" > "$t/out"
grep -q '^txns *7$' "$t/out" || { echo "gzip history not loaded:"; cat "$t/out"; exit 1; }
head -c 20 "$t/g.txt.gz" > "$t/trunc.gz"
set +e; "$ISOCHECK" stats "$t/trunc.gz" 2> "$t/err"; rc=$?; set -e
[ $rc = 2 ] || { echo "truncated gzip: exit $rc, want 2"; exit 1; }
grep -q 'trunc.gz: read error: .*gzip' "$t/err" || { echo "unexpected message:"; cat "$t/err"; exit 1; }
