# isocheck check --follow FILE ends only when told (doc/cli.md, "Following a
# history as it is written"): not after a writer's pause (there is no idle
# limit unless --idle-end S sets one), but at the text end line '# end', where
# an Elle vector closes, after an explicit --idle-end, or at a signal.
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; rm -rf "$t"' EXIT
"$ISOCHECK" gen --sessions 10 --txns 100 --ops 6 --keys 200 --seed 3 --level si -o "$t/h.txt" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
n=$(wc -l < "$t/h.txt"); half=$((n / 2))
head -n $half "$t/h.txt" > "$t/a"; tail -n +$((half + 1)) "$t/h.txt" > "$t/b"
size=$(wc -c < "$t/h.txt"); asize=$(wc -c < "$t/a")
batch=$("$ISOCHECK" check "$t/h.txt")
# write A, pause S seconds, write B, then (optionally) the end line, into $t/g.txt
writer() { : > "$t/g.txt"; cat "$t/a" >> "$t/g.txt"; sleep "$1"; cat "$t/b" >> "$t/g.txt"; [ -z "$2" ] || echo "$2" >> "$t/g.txt"; }

# 1. a pause longer than the old 5 s default does not end the run; the end line does
writer 5.5 '# end' & pids="$pids $!"
out=$(timeout 60 "$ISOCHECK" check --follow "$t/g.txt"); rc=$?
[ $rc = 0 ] || { echo "pause 5.5 s: exit $rc"; echo "$out"; exit 1; }
echo "$out" | grep -q "^END after .*: $((size + 6)) bytes read" || { echo "pause 5.5 s: not every byte read: $out" | head -3; exit 1; }
[ "$(echo "$out" | sed -n '/^END after/,$p' | tail -n +2)" = "$batch" ] || { echo "pause 5.5 s: final report differs"; exit 1; }

# 2. an explicit idle limit longer than the pause: every byte; shorter: the first half only
writer 0.5 & pids="$pids $!"
out=$(timeout 60 "$ISOCHECK" check --follow --idle-end 2 "$t/g.txt"); rc=$?
echo "$out" | grep -q "^END after .*: $size bytes read" || { echo "idle 2 > pause 0.5: $out" | head -3; exit 1; }
wait
writer 2 & pids="$pids $!"
out=$(timeout 60 "$ISOCHECK" check --follow --idle-end 0.4 "$t/g.txt"); rc=$?
echo "$out" | grep -q "^END after .*: $asize bytes read" || { echo "idle 0.4 < pause 2: $out" | head -3; exit 1; }
wait

# 3. the end line: whatever follows it is not read (nor checked)
{ cat "$t/a"; echo '# end'; echo 'r(1,1,1,1)'; } > "$t/m.txt"
out=$(timeout 60 "$ISOCHECK" check --follow "$t/m.txt"); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q "^END after .*: $((asize + 6)) bytes read" || { echo "end line: exit $rc: $out" | head -3; exit 1; }

# 4. Elle EDN wrapped in a vector: the run ends where it closes, after a pause,
# also when the "]" line comes alone after the last map was read (a pause
# before it: that read once left the vector open until the timeout)
"$ISOCHECK" convert --to elle -o "$t/h.edn" "$t/h.txt" >/dev/null 2>&1 || { echo "convert failed"; exit 1; }
head -n 500 "$t/h.edn" > "$t/ea"; tail -n +501 "$t/h.edn" > "$t/eb"
{ : > "$t/g.edn"; echo '[' >> "$t/g.edn"; cat "$t/ea" >> "$t/g.edn"; sleep 1; cat "$t/eb" >> "$t/g.edn"; sleep 0.5
  echo ']' >> "$t/g.edn"; } &
pids="$pids $!"
out=$(timeout 60 "$ISOCHECK" check --follow "$t/g.edn"); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q "^END after .*: $(($(wc -c < "$t/h.edn") + 4)) bytes read" ||
  { echo "edn vector: exit $rc: $out" | head -3; exit 1; }
exit 0
