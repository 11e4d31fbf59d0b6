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
# Cut in the middle of the stream: the lines decoded before the cut are whole,
# the last one is not; the error is the read error (not a parse error on
# the cut line, whose number would depend on the block sizes), with any
# thread count, for the text and the Elle EDN readers.
"$ISOCHECK" gen --sessions 8 --txns 4000 --ops 8 --keys 5000 --seed 3 --no-truth -o "$t/big.txt" > /dev/null
"$ISOCHECK" gen --sessions 8 --txns 4000 --ops 8 --keys 5000 --seed 3 --no-truth --format elle -o "$t/big.edn" > /dev/null
for f in big.txt big.edn; do
  gzip -c "$t/$f" > "$t/$f.gz"
  size=$(wc -c < "$t/$f.gz")
  head -c $((size / 2)) "$t/$f.gz" > "$t/cut.gz"
  for th in 1 2 3; do
    set +e; "$ISOCHECK" check --threads $th "$t/cut.gz" > "$t/out" 2> "$t/err"; rc=$?; set -e
    [ $rc = 2 ] || { echo "$f cut gzip, $th threads: exit $rc, want 2"; cat "$t/err"; exit 1; }
    [ ! -s "$t/out" ] || { echo "$f cut gzip, $th threads: a verdict on stdout:"; cat "$t/out"; exit 1; }
    grep -q 'cut.gz: read error: corrupt gzip input\|cut.gz: read error: .*gzip' "$t/err" \
      || { echo "$f cut gzip, $th threads: not the read error:"; cat "$t/err"; exit 1; }
  done
done
echo "gzip histories: whole, cut at 20 bytes, cut mid-stream (text, EDN; 1-3 threads)"
