# isocheck check --follow --retire --level sser|strong-si: a stream with
# #@time lines and no fences, piped from isocheck gen --times, retires most
# of its transactions by time and passes like the batch check; a stale read
# of a retired version appended to it fails, named thin-air-read; a stale
# read of a live one is named a real-time violation; an input that breaks
# what retiring by time needs is refused at its line (doc/checker.md,
# "Retiring by time").
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$ISOCHECK" gen --sessions 4 --txns 1500 --ops 4 --keys 20 --dist uniform --reads 0.7 --times --seed 5 --level ser \
  -o "$t/h.txt" --no-truth >/dev/null || exit 1
for level in sser strong-si; do
  out=$({ head -n 15000 "$t/h.txt"; sleep 1; tail -n +15001 "$t/h.txt"; } | "$ISOCHECK" check --follow --retire --level $level -); rc=$?
  [ $rc = 0 ] || { echo "$level, clean stream: exit $rc, expected 0: $out"; exit 1; }
  echo "$out" | grep -q "^PASS $level: the history satisfies" || { echo "$level, clean stream: no PASS: $out"; exit 1; }
  retired=$(echo "$out" | sed -n 's/^END after [0-9.]*s: 6000 transactions read, \([0-9]*\) retired.*/\1/p')
  [ -n "$retired" ] && [ "$retired" -gt 2000 ] || { echo "$level, clean stream: too little retired ($retired): $out"; exit 1; }
  "$ISOCHECK" check --level $level "$t/h.txt" | grep -q "^PASS $level" || { echo "batch $level of the clean stream does not pass"; exit 1; }
done
# key 0's first version, overwritten long ago: a late session 1 transaction, invoked after everything, reads it
first=$(grep -m1 '^w(0,' "$t/h.txt" | sed 's/^w(0,\([0-9]*\),.*/\1/')
end=$(grep '^#@time' "$t/h.txt" | sed 's/.*complete=\([0-9]*\).*/\1/' | sort -n | tail -1)
stale="r(0,$first,1,99999)
#@time 99999 invoke=$((end + 10)) complete=$((end + 20))"
{ cat "$t/h.txt"; echo "$stale"; } > "$t/stale.txt"
"$ISOCHECK" check --level sser "$t/stale.txt" > "$t/batch.out"; brc=$?
[ $brc = 1 ] && grep -q '^  [0-9]*\. .*txn 99999' "$t/batch.out" ||
  { echo "stale read: batch exit $brc, expected 1 and an anomaly through txn 99999"; cat "$t/batch.out"; exit 1; }
# The stale lines come a moment after the stream: its checks have retired
# key 0's versions first (thin-air-read at the end); a slow checker (ASan,
# load) may still hold the last check back until they arrived: then the
# read is caught at once as a cycle through txn 99999.  Both name it.
out=$({ cat "$t/h.txt"; sleep 1; echo "$stale"; } | "$ISOCHECK" check --follow --retire --level sser -); rc=$?
[ $rc = 1 ] || { echo "stale read: exit $rc, expected 1: $out"; exit 1; }
echo "$out" | grep -q "thin-air-read: txn 99999 reads key 0 = $first, which no transaction wrote" ||
  { echo "$out" | grep -q '^DETECTED' && echo "$out" | grep -q 'real-time-violation.*txn 99999'; } ||
  { echo "stale read: neither the thin-air read of txn 99999 nor a cycle through it: $out"; exit 1; }
# a stale read in real time among live transactions: named as such
out=$(printf 'w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nr(1,0,2,2)\n#@time 2 invoke=5 complete=6\n' |
      "$ISOCHECK" check --follow --retire --level sser -); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q 'real-time-violation (G-single-realtime).*txn 1 -RT-> txn 2' ||
  { echo "live stale read: exit $rc: $out"; exit 1; }
# refused, exit 2 at the line: a transaction without its #@time line before its session's next one
printf 'w(1,1,1,1)\nw(1,2,1,2)\n#@time 2 invoke=5 complete=6\n' | "$ISOCHECK" check --follow --retire --level sser - > /dev/null 2> "$t/err"
[ $? = 2 ] && grep -q -- '-:2: transaction 1 has no #@time line' "$t/err" || { echo "no times: $(cat "$t/err")"; exit 1; }
# ... and a session that runs two transactions at once
printf 'w(1,1,1,1)\n#@time 1 invoke=1 complete=9\nw(1,2,1,2)\n#@time 2 invoke=5 complete=12\n' |
  "$ISOCHECK" check --follow --retire --level strong-si - > /dev/null 2> "$t/err"
[ $? = 2 ] && grep -q -- "-:4: transaction 2 is invoked at 5, before its session's previous transaction completed" "$t/err" ||
  { echo "overlapping session: $(cat "$t/err")"; exit 1; }
# behind fences (si) the #@time lines are dropped, wherever the reads cut
# the stream (a line alone in a read, a transaction's lines in one and its
# #@time line in the next)
"$ISOCHECK" gen --sessions 4 --txns 600 --ops 4 --keys 20 --times --fence-every 5 --seed 3 -o "$t/f.txt" --no-truth >/dev/null || exit 1
cut=$(grep -n '^#@time' "$t/f.txt" | sed -n 300p | cut -d: -f1)
out=$({ head -n $((cut - 1)) "$t/f.txt"; sleep 1; sed -n "${cut}p" "$t/f.txt"; sleep 1; tail -n +$((cut + 1)) "$t/f.txt"; } |
      "$ISOCHECK" check --follow --retire -); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q '^PASS si' || { echo "fences with #@time lines: exit $rc: $out"; exit 1; }
# real-time levels follow only with --retire, and alone
"$ISOCHECK" check --follow --level sser - < /dev/null > /dev/null 2>&1; [ $? = 2 ] || { echo "--follow sser without --retire accepted"; exit 1; }
"$ISOCHECK" check --follow --retire --level sser,ser - < /dev/null > /dev/null 2>&1; [ $? = 2 ] || { echo "--retire sser,ser accepted"; exit 1; }
exit 0
