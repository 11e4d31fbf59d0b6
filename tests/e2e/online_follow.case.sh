# isocheck check --follow: a history written in pieces by a background
# writer (a growing file, a pipe); the violation is printed, named, before
# the input ends, and the final verdict is the batch one.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$ISOCHECK" gen --sessions 4 --txns 20 --ops 4 --keys 20 --seed 3 --level si -o "$t/clean.txt" >/dev/null || exit 1
n=$(wc -l < "$t/clean.txt"); half=$((n / 2))
# a lost update on a key of its own: txns 90002 and 90003 both read 900001 and overwrite it
cat > "$t/lost.txt" <<'H'
w(999999,900001,901,90001)
r(999999,900001,901,90002)
w(999999,900002,901,90002)
r(999999,900001,902,90003)
w(999999,900003,902,90003)
r(999998,0,901,90004)
r(999998,0,902,90005)
H
# 1. a growing file: clean half, clean half, the anomaly, then (after the detection) more
: > "$t/grow.txt"
( head -n "$half" "$t/clean.txt" >> "$t/grow.txt"; sleep 0.3
  tail -n +"$((half + 1))" "$t/clean.txt" >> "$t/grow.txt"; sleep 0.3
  cat "$t/lost.txt" >> "$t/grow.txt"; sleep 1.5
  echo 'r(999997,0,903,90006)' >> "$t/grow.txt" ) &
out=$("$ISOCHECK" check --follow --follow-idle 2 "$t/grow.txt"); rc=$?
wait
[ $rc = 1 ] || { echo "growing file: exit $rc, expected 1: $out"; exit 1; }
first=$(echo "$out" | grep -n '^DETECTED after' | head -1 | cut -d: -f1)
end=$(echo "$out" | grep -n '^END after' | cut -d: -f1)
[ -n "$first" ] && [ -n "$end" ] && [ "$first" -lt "$end" ] || { echo "growing file: no DETECTED before END: $out"; exit 1; }
[ "$(echo "$out" | grep -c '^DETECTED')" = 1 ] || { echo "growing file: more than one detection: $out"; exit 1; }
# the detection names the anomaly, and came before the last transaction was read
echo "$out" | sed -n "$first,${end}p" | grep -q '^  1\. lost-update (G-single): txn 90003 and txn 90002\|^  1\. lost-update (G-single): txn 90002 and txn 90003' ||
  { echo "growing file: the detection does not name the lost update: $out"; exit 1; }
read_at=$(echo "$out" | sed -n "${first}p" | sed 's/.*: \([0-9]*\) transactions read.*/\1/')
total=$(cat "$t/grow.txt" | sed 's/.*,\([0-9]*\))$/\1/' | sort -u | wc -l)
[ "$read_at" -lt "$total" ] || { echo "growing file: detected only after all $total transactions ($read_at)"; exit 1; }
# the final verdict is the batch check's
batch=$("$ISOCHECK" check "$t/grow.txt" | sed "s#$t/grow.txt#F#g")
final=$(echo "$out" | sed -n "$((end + 1)),\$p" | sed "s#$t/grow.txt#F#g")
[ "$batch" = "$final" ] || { echo "growing file: final report differs from batch:"; echo "$final"; echo "batch:"; echo "$batch"; exit 1; }

# 2. a pipe, clean: no detection, PASS at EOF (both levels)
out=$( (head -n "$half" "$t/clean.txt"; sleep 0.2; tail -n +"$((half + 1))" "$t/clean.txt") |
       "$ISOCHECK" check --follow --level si -); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q '^PASS si' && ! echo "$out" | grep -q DETECTED ||
  { echo "clean pipe: exit $rc: $out"; exit 1; }
# ... checked incrementally (-v says how): one engine per level, no check from scratch
err=$( (head -n "$half" "$t/clean.txt"; sleep 0.2; tail -n +"$((half + 1))" "$t/clean.txt") |
       "$ISOCHECK" check -v --follow - 2>&1 >/dev/null)
echo "$err" | grep -q 'checks of the settled part: [0-9]* incremental, 0 from scratch$' &&
  ! echo "$err" | grep -q ': 0 incremental' || { echo "clean pipe: not checked incrementally: $err"; exit 1; }

# 3. Elle EDN through a pipe, --json: one event per line, the violation first
"$ISOCHECK" convert --to elle -o "$t/lost.edn" "$t/grow.txt" >/dev/null || exit 1
m=$(wc -l < "$t/lost.edn")
out=$( (head -n $((m / 2)) "$t/lost.edn"; sleep 0.3; tail -n +$((m / 2 + 1)) "$t/lost.edn") |
       "$ISOCHECK" check --follow --json -); rc=$?
[ $rc = 1 ] || { echo "elle pipe: exit $rc: $out"; exit 1; }
echo "$out" | grep -v -q '^{"event": "' && { echo "elle pipe: a line that is not an event: $out"; exit 1; }
echo "$out" | head -1 | grep -q '^{"event": "violation".*"lost-update"' || { echo "elle pipe: first event: $out"; exit 1; }
echo "$out" | tail -1 | grep -q '^{"event": "final".*"verdict": "FAIL"' || { echo "elle pipe: last event: $out"; exit 1; }

# 4. what cannot be followed: dbcop; a text transaction that grows after its
# session moved on is not followed further, and the answer is the batch one
# whatever the chunks (here a FAIL: txn 1's second write makes txn 2's read
# of x = 1 an intermediate read only once it arrives)
"$ISOCHECK" convert --to dbcop -o "$t/h.dbcop" "$t/clean.txt" >/dev/null || exit 1
out=$("$ISOCHECK" check --follow --follow-idle 0.2 "$t/h.dbcop" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'dbcop histories are checked once complete' || { echo "dbcop: exit $rc: $out"; exit 1; }
printf 'w(1,1,1,1)\nr(1,1,1,2)\nw(1,3,1,1)\n' > "$t/g.txt"
"$ISOCHECK" check "$t/g.txt" > "$t/g.batch" 2>&1; brc=$?
[ $brc = 1 ] || { echo "growing transaction: batch exit $brc"; exit 1; }
out=$( (head -n 2 "$t/g.txt"; sleep 0.3; tail -n 1 "$t/g.txt") | "$ISOCHECK" check --follow - 2>"$t/g.err"); rc=$?
[ $rc = $brc ] && grep -q -- '^isocheck: note: -:3: transaction 1 gets an operation after its session went on' "$t/g.err" ||
  { echo "growing transaction: exit $rc: $out $(cat "$t/g.err")"; exit 1; }
[ "$(echo "$out" | sed -n '/^END after/,$p' | sed 1d | sed 's#-:\([0-9]\)#F:\1#g')" = "$(sed "s#$t/g.txt:#F:#g" "$t/g.batch")" ] ||
  { echo "growing transaction: final report is not the batch one: $out"; cat "$t/g.batch"; exit 1; }
for chunks in "1 2" "2 1" "3 0"; do     # every split: one answer
  set -- $chunks
  o2=$( (head -n $1 "$t/g.txt"; sleep 0.3; tail -n +$(( $1 + 1 )) "$t/g.txt") | "$ISOCHECK" check --follow - 2>/dev/null); r2=$?
  [ $r2 = $brc ] || { echo "growing transaction, split after $1 lines: exit $r2: $o2"; exit 1; }
done

# 5. where the parsed bytes wait for the final check: a pipe's in a temporary
# file in $TMPDIR, unlinked at once (nothing left behind); none usable: in
# memory, with a note; either way the final report is the batch check's
mkdir "$t/tmp" || exit 1
batch=$("$ISOCHECK" check "$t/clean.txt")
for td in "$t/tmp" "$t/none"; do
  out=$( (head -n "$half" "$t/clean.txt"; sleep 0.2; tail -n +"$((half + 1))" "$t/clean.txt") |
         TMPDIR="$td" "$ISOCHECK" check -v --follow - 2> "$t/err"); rc=$?
  [ $rc = 0 ] && [ "$(echo "$out" | sed -n '/^END after/,$p' | tail -n +2)" = "$batch" ] ||
    { echo "pipe, TMPDIR $td: exit $rc: $out"; cat "$t/err"; exit 1; }
  [ -z "$(ls -A "$t/tmp")" ] || { echo "pipe: left in TMPDIR: $(ls -A "$t/tmp")"; exit 1; }
done
grep -q 'note: cannot create a temporary file in .*/none' "$t/err" && grep -q 'of them out of memory (none)' "$t/err" ||
  { echo "no TMPDIR: no note: $(cat "$t/err")"; exit 1; }
(head -n "$half" "$t/clean.txt"; sleep 0.2; tail -n +"$((half + 1))" "$t/clean.txt") |
  TMPDIR="$t/tmp" "$ISOCHECK" check -v --follow - 2>&1 >/dev/null | grep -q ' [1-9][0-9]* of them out of memory (in a temporary file)' ||
  { echo "pipe: nothing in a temporary file"; exit 1; }
# a followed file is read again at the end; rewritten under us, it is refused
: > "$t/rw.txt"
( head -n "$half" "$t/clean.txt" >> "$t/rw.txt"; sleep 0.5
  printf '#' | dd of="$t/rw.txt" bs=1 seek=0 conv=notrunc 2>/dev/null        # the first line becomes a comment
  tail -n +"$((half + 1))" "$t/clean.txt" >> "$t/rw.txt" ) &
out=$("$ISOCHECK" check --follow --follow-idle 1 "$t/rw.txt" 2>&1); rc=$?
wait
[ $rc = 2 ] && echo "$out" | grep -q 'rw.txt: the file changed while it was followed' ||
  { echo "rewritten file: exit $rc: $out"; exit 1; }
exit 0
