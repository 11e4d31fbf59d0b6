# isocheck check --follow on histories whose written values repeat (issue 35;
# doc/checker.md, "Repeated values while following"): a stream that passes,
# one that fails (the violation printed while following, with how far it
# holds), and one whose violation on a prefix a later write of the same value
# undoes (withdrawn while following, or by the final check) — text, Elle EDN,
# JSON lines and --json events; every final report is the batch check's.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
# final OUT FILE: the report after the END line (a withdrawal line after it aside), names of FILE as F
final() { echo "$1" | sed -n '/^END after/,$p' | sed 1d | grep -v '^WITHDRAWN: ' | sed "s#$2:#F:#g; s#-:#F:#g"; }
batch() { "$ISOCHECK" check "$@" 2>/dev/null | sed "s#${1}:#F:#g"; }

# 1. passes: a flag flipped 1, 2, 1, ... on 3 sessions (every read has several writers)
: > "$t/flag.txt"; last=0
for i in $(seq 1 12); do w=$((2 - i % 2)); printf 'r(1,%s,%s,%s)\nw(1,%s,%s,%s)\n' $last $((i % 3)) $i $w $((i % 3)) $i >> "$t/flag.txt"; last=$w; done
out=$( (head -n 8 "$t/flag.txt"; sleep 0.4; sed -n 9,16p "$t/flag.txt"; sleep 0.4; tail -n +17 "$t/flag.txt") |
       "$ISOCHECK" check -v --level ser --follow - 2>"$t/err"); rc=$?
[ $rc = 0 ] && ! echo "$out" | grep -q 'DETECTED\|WITHDRAWN' && [ "$(final "$out" -)" = "$(batch "$t/flag.txt" --level ser)" ] &&
  echo "$out" | grep -q '^PASS ser: the history satisfies serializability' ||
  { echo "flag: exit $rc: $out"; fail=1; }
# -v says how: the settled part re-checked in batch once a value repeated
grep -q '^isocheck: follow: repeated values: [1-9][0-9]* batch re-checks as the input grew, 0 violations withdrawn$' "$t/err" &&
  grep -q 'a value written twice' "$t/err" || { echo "flag: -v: $(cat "$t/err")"; fail=1; }

# 2. fails: a lost update on a value written twice (txn 1's 5 is overwritten in it, so txn 4 and
# txn 5 both read txn 3's), then clean transactions: printed while following, final FAIL
printf 'w(1,5,1,1)\nw(1,9,1,1)\nw(1,5,2,3)\nr(1,5,3,4)\nw(1,8,3,4)\nr(1,5,4,5)\nw(1,7,4,5)\n' > "$t/lost1.txt"
printf 'w(2,1,3,6)\nw(2,2,4,7)\nw(3,1,1,8)\nw(3,2,2,9)\nw(3,3,1,10)\nw(3,4,2,11)\nw(3,5,3,12)\nw(3,6,4,13)\n' > "$t/lost2.txt"
cat "$t/lost1.txt" "$t/lost2.txt" > "$t/lost.txt"
out=$( (cat "$t/lost1.txt"; sleep 0.4; head -n 4 "$t/lost2.txt"; sleep 0.4; tail -n +5 "$t/lost2.txt") |
       "$ISOCHECK" check --level si --follow -); rc=$?
d=$(echo "$out" | grep -n '^DETECTED after' | head -1 | cut -d: -f1); e=$(echo "$out" | grep -n '^END after' | cut -d: -f1)
[ $rc = 1 ] && [ -n "$d" ] && [ "$d" -lt "$e" ] && [ "$(final "$out" -)" = "$(batch "$t/lost.txt" --level si)" ] ||
  { echo "lost: exit $rc: $out"; fail=1; }
echo "$out" | sed -n "$d,${e}p" | grep -q '^  1\. lost-update (G-single): txn 5 and txn 4 both read 1=5' &&
  echo "$out" | sed -n "$d,${e}p" | grep -q '^  (holds unless a transaction not completed yet, or still to come, writes again a value read by these [0-9]* transactions; then the final check decides)$' &&
  ! echo "$out" | grep -q WITHDRAWN || { echo "lost: the violation printed: $out"; fail=1; }

# 3. a violation on a prefix undone by a later repeated write: txn 3 reads y = 2 from txn 2 and
# x = 1 from txn 1, which txn 2 overwrote (a fractured read, si and ser) — until txn 4 writes x = 1
# again, which txn 3 may have read instead: the whole input passes
printf 'w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,1,2,3)\nr(2,2,2,5)\nr(1,2,1,6)\n' > "$t/wd1.txt"
printf 'w(1,1,3,4)\n' > "$t/wd2.txt"
cat "$t/wd1.txt" "$t/wd2.txt" > "$t/wd.txt"
"$ISOCHECK" check "$t/wd1.txt" > /dev/null; [ $? = 1 ] || { echo "wd1: the prefix does not fail"; fail=1; }
# 3a. txn 4 completes only at the end: the final check withdraws it, after its report
out=$( (cat "$t/wd1.txt"; sleep 0.5; cat "$t/wd2.txt") | "$ISOCHECK" check --follow -); rc=$?
[ $rc = 0 ] && [ "$(final "$out" -)" = "$(batch "$t/wd.txt")" ] && echo "$out" | grep -q '^DETECTED after' &&
  echo "$out" | grep -q '^  1\. fractured-read (G-single): .*\[txn 2 -WR 2-> txn 3 -RW 1-> txn 2\]' &&
  [ "$(echo "$out" | tail -1)" = 'WITHDRAWN: the violation printed while following does not hold in the whole input (the final check above passes): txn 3 (-:4) read key 1 = 1, which 2 transactions write (txn 1 (-:1) and txn 4 (-:8)): the check chooses which write it saw' ] ||
  { echo "withdrawn at the end: exit $rc: $out"; fail=1; }
# 3b. txn 4 completes while the input is followed: withdrawn then, before the end
printf 'w(1,1,3,4)\nr(1,1,3,7)\n' > "$t/wd3.txt"; printf 'r(2,2,1,8)\n' > "$t/wd4.txt"
cat "$t/wd1.txt" "$t/wd3.txt" "$t/wd4.txt" > "$t/wdl.txt"
out=$( (cat "$t/wd1.txt"; sleep 0.5; cat "$t/wd3.txt"; sleep 0.5; cat "$t/wd4.txt") | "$ISOCHECK" check --follow -); rc=$?
w=$(echo "$out" | grep -n '^WITHDRAWN after' | cut -d: -f1); e=$(echo "$out" | grep -n '^END after' | cut -d: -f1)
[ $rc = 0 ] && [ -n "$w" ] && [ "$w" -lt "$e" ] && [ "$(final "$out" -)" = "$(batch "$t/wdl.txt")" ] &&
  echo "$out" | grep -q '^WITHDRAWN after [0-9.]*s: the violation above does not hold on the 4 transactions checked now (7 read, 4 completed): txn 3 (-:4) read key 1 = 1, which 2 transactions write (txn 1 (-:1) and txn 4 (-:8)): the check chooses which write it saw$' &&
  ! echo "$out" | sed -n "$((e + 1)),\$p" | grep -q WITHDRAWN || { echo "withdrawn while following: exit $rc: $out"; fail=1; }
# 3d. txn 4 writes x = 1 again before the violation is found, but waits (it reads z = 9, which nobody
# wrote yet): the violation is provisional, naming it; once txn 8 writes z = 9, txn 4 is checked too and
# the violation is withdrawn (the second check is due by time: a second after the first)
printf 'w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,1,2,3)\nr(3,9,3,4)\nw(1,1,3,4)\nr(2,2,2,5)\nr(1,2,1,6)\nr(1,1,3,7)\n' > "$t/pv1.txt"
printf 'w(3,9,4,8)\nr(3,9,4,10)\nr(2,2,1,11)\n' > "$t/pv2.txt"; printf 'r(2,2,2,12)\nr(1,1,3,13)\n' > "$t/pv3.txt"
cat "$t/pv1.txt" "$t/pv2.txt" "$t/pv3.txt" > "$t/pv.txt"
out=$( (cat "$t/pv1.txt"; sleep 0.3; cat "$t/pv2.txt"; sleep 1.5; cat "$t/pv3.txt") | "$ISOCHECK" check --follow -); rc=$?
[ $rc = 0 ] && [ "$(final "$out" -)" = "$(batch "$t/pv.txt")" ] &&
  echo "$out" | grep -q '^  (provisional: txn 4 (-:6) (not in the part checked yet) writes key 1 = 1 too, which txn 3 (-:4) read; checked again as the input grows)$' &&
  echo "$out" | grep -q '^WITHDRAWN after [0-9.]*s: the violation above does not hold on the [0-9]* transactions checked now .*: txn 3 (-:4) read key 1 = 1, which 2 transactions write (txn 1 (-:1) and txn 4 (-:6))' ||
  { echo "provisional: exit $rc: $out"; fail=1; }
# 3e. the same with the writer pausing 3 s after txn 8: the check due by time runs in the pause
out=$( (cat "$t/pv1.txt"; sleep 0.3; cat "$t/pv2.txt"; sleep 3; cat "$t/pv3.txt") | "$ISOCHECK" check --follow -); rc=$?
at=$(echo "$out" | sed -n 's/^WITHDRAWN after \([0-9]*\)\.[0-9]*s: .*/\1/p')
[ $rc = 0 ] && [ -n "$at" ] && [ "$at" -lt 3 ] || { echo "withdrawn in a pause: exit $rc, at ${at}s: $out"; fail=1; }
# 3c. the same as Elle EDN and as JSON lines, and as --json events
cat > "$t/wd.edn" <<'E'
{:type :ok, :f :txn, :process 1, :index 1, :value [[:w 1 1]]}
{:type :ok, :f :txn, :process 1, :index 2, :value [[:w 1 2] [:w 2 2]]}
{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 2 2] [:r 1 1]]}
{:type :ok, :f :txn, :process 2, :index 5, :value [[:r 2 2]]}
{:type :ok, :f :txn, :process 1, :index 6, :value [[:r 1 2]]}
{:type :ok, :f :txn, :process 3, :index 7, :value [[:w 1 1]]}
{:type :ok, :f :txn, :process 3, :index 8, :value [[:r 1 1]]}
E
sed -e 's/:type :ok, :f :txn, :process \([0-9]\), :index \([0-9]\), :value /"type":"ok","f":"txn","process":\1,"index":\2,"value":/' \
    -e 's/\[:\([rw]\) \([0-9]\) \([0-9]\)\]/["\1",\2,\3]/g' -e 's/\] \[/],[/g' "$t/wd.edn" > "$t/wd.jsonl"
for f in wd.edn wd.jsonl; do
  out=$( (head -n 5 "$t/$f"; sleep 0.5; tail -n +6 "$t/$f") | "$ISOCHECK" check --follow -); rc=$?
  [ $rc = 0 ] && [ "$(final "$out" -)" = "$(batch "$t/$f")" ] && echo "$out" | grep -q '^DETECTED after' &&
    echo "$out" | grep -q '^WITHDRAWN after .*: txn 3 (-:3) read key 1 = 1, which 2 transactions write (txn 1 (-:1) and txn 7 (-:6))' ||
    { echo "$f: exit $rc: $out"; fail=1; }
done
out=$( (head -n 5 "$t/wd.edn"; sleep 0.5; tail -n +6 "$t/wd.edn") | "$ISOCHECK" check --json --follow -); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | sed 's/^{"event": "\([a-z]*\)".*/\1/' | tr '\n' ' ')" = "violation withdrawn end final " ] &&
  echo "$out" | grep -q '^{"event": "violation", .*"provisional": false, "qualifier": "holds unless' &&
  echo "$out" | grep -q '^{"event": "withdrawn", .*"why": "txn 3 (-:3) read key 1 = 1, which 2 transactions write' &&
  echo "$out" | tail -1 | grep -q '"verdict": "PASS"' || { echo "edn --json: exit $rc: $out"; fail=1; }

# 4. --retire keeps refusing them, and says why
out=$("$ISOCHECK" check --follow --retire "$t/wd.txt" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "wd.txt:8: value 1 written twice to key 1 (first at .*wd.txt:1); values written to a key must be unique; --retire does not follow repeated values (a retired writer may be the one a later read of its value saw: doc/checker.md); check --follow without --retire does" ||
  { echo "retire: exit $rc: $out"; fail=1; }
exit $fail
