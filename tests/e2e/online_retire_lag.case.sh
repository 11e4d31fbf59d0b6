# isocheck check --follow --retire --level sser|strong-si with a session
# that stops early (gen --first-session-txns): without --max-lag its last
# transaction holds the watermark and little retires; with --max-lag T (the
# least T the stream keeps, computed here) nearly everything retires and
# the verdict is batch's; a stream that breaks the promise is refused at
# its line, exit 2; a retired transaction that comes back is refused at its
# line, exit 2, as batch refuses the same bytes (doc/checker.md, "A
# session that stops", "Retiring transactions").
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$ISOCHECK" gen --sessions 4 --txns 1500 --first-session-txns 5 --ops 4 --keys 20 --dist uniform --reads 0.7 --times \
  --seed 6 --level ser -o "$t/h.txt" --no-truth >/dev/null || exit 1
n=$(grep -c '^#@time' "$t/h.txt")
[ "$n" = 4505 ] || { echo "gen --first-session-txns 5: $n transactions, expected 4505"; exit 1; }
# the least T: how far the latest complete= before a #@time line passes its invoke=
lag=$(awk '/^#@time/ { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
                       if (seen != "" && seen - v["invoke"] > lag) lag = seen - v["invoke"];
                       if (seen == "" || v["complete"] > seen) seen = v["complete"] }
           END { print lag + 0 }' "$t/h.txt")
retired() { echo "$1" | sed -n 's/^END after [0-9.]*s: [0-9]* transactions read, \([0-9]*\) retired.*/\1/p'; }
for level in sser strong-si; do
  out=$({ head -n 6000 "$t/h.txt"; sleep 1; tail -n +6001 "$t/h.txt"; } | "$ISOCHECK" check --follow --retire --level $level -); rc=$?
  [ $rc = 0 ] && echo "$out" | grep -q "^PASS $level" || { echo "$level, no --max-lag: exit $rc: $out"; exit 1; }
  without=$(retired "$out")
  out=$({ head -n 6000 "$t/h.txt"; sleep 1; tail -n +6001 "$t/h.txt"; } |
        "$ISOCHECK" check --follow --retire --level $level --max-lag "$lag" -); rc=$?
  [ $rc = 0 ] && echo "$out" | grep -q "^PASS $level: the history satisfies" || { echo "$level, --max-lag $lag: exit $rc: $out"; exit 1; }
  with=$(retired "$out")
  [ -n "$without" ] && [ -n "$with" ] && [ "$without" -lt 500 ] && [ "$with" -gt 2000 ] ||
    { echo "$level: $without retired without --max-lag, $with with --max-lag $lag"; exit 1; }
done
# a promise broken at line 6: invoked at 49, after a line that completes at 60 (T = 10)
printf 'w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(1,2,2,2)\n#@time 2 invoke=50 complete=60\nr(1,2,3,3)\n#@time 3 invoke=49 complete=70\n' \
  > "$t/late.txt"
cat "$t/late.txt" | "$ISOCHECK" check --follow --retire --level sser --max-lag 10 - > /dev/null 2> "$t/err"
[ $? = 2 ] && grep -q -- '-:6: transaction 3 is invoked at 49, but its #@time line comes after one that completes at 60, more than --max-lag 10' "$t/err" ||
  { echo "broken --max-lag: $(cat "$t/err")"; exit 1; }
cat "$t/late.txt" | "$ISOCHECK" check --follow --retire --level sser --max-lag 11 - > /dev/null || { echo "--max-lag 11 refused"; exit 1; }
# ... and an operation after its #@time line
printf 'w(1,1,1,1)\n#@time 1 invoke=1 complete=2\nw(2,1,1,1)\n' | "$ISOCHECK" check --follow --retire --level sser --max-lag 5 - \
  > /dev/null 2> "$t/err"
[ $? = 2 ] && grep -q -- "-:3: transaction 1 gets an operation after its #@time line" "$t/err" || { echo "op after #@time: $(cat "$t/err")"; exit 1; }
# --max-lag only retiring by time
"$ISOCHECK" check --follow --retire --max-lag 5 - < /dev/null > /dev/null 2>&1; [ $? = 2 ] || { echo "--max-lag at si accepted"; exit 1; }
"$ISOCHECK" check --level sser --max-lag 5 "$t/h.txt" > /dev/null 2>&1; [ $? = 2 ] || { echo "--max-lag in batch accepted"; exit 1; }
# a retired transaction comes back (operations and a second #@time line): refused at its line, as batch refuses it
end=$(grep '^#@time' "$t/h.txt" | sed 's/.*complete=\([0-9]*\).*/\1/' | sort -n | tail -1)
lines=$(wc -l < "$t/h.txt")
s2=$(grep -m1 '^[rw]([0-9]*,[0-9]*,[0-9]*,2)$' "$t/h.txt" | sed 's/^.(\([0-9]*\),\([0-9]*\),\([0-9]*\),2)$/\3/')
back="w(0,999999,$s2,2)
#@time 2 invoke=$((end + 10)) complete=$((end + 20))"
{ cat "$t/h.txt"; echo "$back"; } > "$t/back.txt"
"$ISOCHECK" check --level sser "$t/back.txt" > /dev/null 2> "$t/err"
[ $? = 2 ] && grep -q "times for transaction 2 given twice" "$t/err" || { echo "batch, txn 2 again: $(cat "$t/err")"; exit 1; }
for lag in "" "--max-lag $lag"; do
  { cat "$t/h.txt"; sleep 1; echo "$back"; } | "$ISOCHECK" check --follow --retire --level sser $lag - > /dev/null 2> "$t/err"; rc=$?
  # retired by then (a slow checker may still hold it live: then its session went on long ago)
  [ $rc = 2 ] && grep -q -- "-:$((lines + 1)): transaction 2 \(comes back after it was retired\|gets an operation after its session went on\)" "$t/err" ||
    { echo "stream$lag, txn 2 again: exit $rc: $(cat "$t/err")"; exit 1; }
done
exit 0
