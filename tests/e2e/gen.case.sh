# isocheck gen: every format loads back with the requested shape, the same
# seed gives the same bytes, the truth sidecar is written, bad options exit 2.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$ISOCHECK" gen --help | grep -q "usage: isocheck gen" || { echo "gen --help"; exit 1; }
"$ISOCHECK" gen --sessions 4 --txns 25 --ops 6 --keys 50 --seed 3 -o "$t/a.txt" || exit 1
"$ISOCHECK" gen --sessions 4 --txns 25 --ops 6 --keys 50 --seed 3 -o "$t/b.txt" || exit 1
cmp -s "$t/a.txt" "$t/b.txt" || { echo "same seed, different bytes"; exit 1; }
out=$("$ISOCHECK" stats "$t/a.txt") || exit 1
echo "$out" | grep -q '^sessions *4$' && echo "$out" | grep -q '^committed *100$' || { echo "$out"; exit 1; }
grep -q '"level": "si", "fault": "none"' "$t/a.txt.truth" || { cat "$t/a.txt.truth"; exit 1; }
for f in dbcop cobra elle; do
  "$ISOCHECK" gen --preset general-rw --txns 10 --fault aborted-read --fault-rate 0.5 --format $f -o "$t/h.$f" || { echo "gen $f"; exit 1; }
  out=$("$ISOCHECK" stats "$t/h.$f") || { echo "stats $f"; exit 1; }
  echo "$out" | grep -q '^sessions *25$' && echo "$out" | grep -q '^committed *250$' || { echo "$f: $out"; exit 1; }
  grep -q '"fault": "aborted-read"' "$t/h.$f.truth" || { echo "$f truth"; exit 1; }
done
"$ISOCHECK" gen --reads 2 -o "$t/x" 2>/dev/null; [ $? -eq 2 ] || { echo "bad --reads accepted"; exit 1; }
"$ISOCHECK" gen --fault nope -o "$t/x" 2>/dev/null; [ $? -eq 2 ] || { echo "bad --fault accepted"; exit 1; }
"$ISOCHECK" gen --sessions 3 2>/dev/null; [ $? -eq 2 ] || { echo "missing -o accepted"; exit 1; }
[ ! -e "$t/x" ] || { echo "output written on error"; exit 1; }
# a pipe (like /dev/null) is written in place, never replaced by a file
mkfifo "$t/pipe" || exit 1
cat "$t/pipe" > "$t/piped" &
"$ISOCHECK" gen --sessions 4 --txns 25 --ops 6 --keys 50 --seed 3 -o "$t/pipe" || exit 1
wait
[ -p "$t/pipe" ] || { echo "the pipe was replaced"; exit 1; }
cmp -s "$t/piped" "$t/a.txt" || { echo "piped output differs"; exit 1; }
[ ! -e "$t/pipe.truth" ] || { echo "truth file next to a pipe"; exit 1; }
exit 0
