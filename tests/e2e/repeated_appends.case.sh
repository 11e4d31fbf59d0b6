# Lists whose appended values repeat (issue 35): which append a list
# position shows is a choice per key (doc/checker.md, "Repeated appends").
# Verdicts and reasons at several levels; EDN (vectors and lists) and Elle's
# JSON; certificates that name the order of the appends, checked by verify.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
fail=0
expect() {   # name rc file pattern [options...]
  name=$1 want=$2 f=$3 pat=$4; shift 4
  out=$("$ISOCHECK" check "$@" "$f" 2>&1); rc=$?
  [ $rc = "$want" ] && echo "$out" | grep -q -- "$pat" || { echo "$name: exit $rc, want $want and /$pat/:"; echo "$out" | head -12; fail=1; }
}
# 5 is appended to key 1 by txn 0 and by txn 1; txn 2 read [5] and appended 7 to key 2, which
# txn 0 read: txn 2 must have seen txn 1's 5 (txn 0's closes a WR cycle), so the list [5 5]
# is txn 1's append, then txn 0's
cat > "$t/choose.edn" <<'H'
{:type :ok, :f :txn, :value [[:r 2 [7]] [:append 1 5]], :process 0, :index 0}
{:type :ok, :f :txn, :value [[:append 1 5]], :process 1, :index 1}
{:type :ok, :f :txn, :value [[:r 1 [5]] [:append 2 7]], :process 2, :index 2}
{:type :ok, :f :txn, :value [[:r 1 [5 5]]], :process 3, :index 3}
H
# the naive assignment (the first append of 5 first) written out with unique values fails;
# the right one passes
sed 's/\[:append 1 5\]\], :process 1/[:append 1 6]], :process 1/; s/\[5 5\]/[5 6]/' "$t/choose.edn" > "$t/naive.edn"
sed 's/\[:r 2 \[7\]\] \[:append 1 5\]/[:r 2 [7]] [:append 1 6]/; s/\[5 5\]/[5 6]/' "$t/choose.edn" > "$t/right.edn"
expect "naive assignment fails" 1 "$t/naive.edn" 'circular-information-flow (G1c)' --level ser
expect "right assignment passes" 0 "$t/right.edn" '^PASS ser' --level ser
for l in ser si rc ra cc pc psi si-plain ser-plain rr; do
  expect "a choice passes ($l)" 0 "$t/choose.edn" "^PASS $l:" --level $l --certificate "$t/$l.cert"
  "$ISOCHECK" verify --level $l "$t/choose.edn" "$t/$l.cert" 2>&1 | grep -q "^VALID $l" || { echo "$l.cert: not VALID"; fail=1; }
done
# the ser certificate names the order of the appends of key 1: txn 1's 5, then txn 0's
grep -q '^key 1 INIT 1 0$' "$t/ser.cert" || { echo "ser.cert: key 1 not 'INIT 1 0'"; cat "$t/ser.cert"; fail=1; }
sed 's/^key 1 INIT 1 0$/key 1 INIT 0 1/' "$t/ser.cert" > "$t/bad.cert"
out=$("$ISOCHECK" verify "$t/choose.edn" "$t/bad.cert" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "^INVALID ser: .*txn 0's 1=5 is the version right before txn 1's 1=5" ||
  { echo "the other order of the appends: exit $rc:"; echo "$out"; fail=1; }
# rc's certificate is a commit order: txn 2 placed before txn 1 would read its 5 from txn 0
grep -q '^order 1 2 0 3$' "$t/rc.cert" || { echo "rc.cert: order not '1 2 0 3'"; cat "$t/rc.cert"; fail=1; }
sed 's/^order 1 2 0 3$/order 2 1 0 3/' "$t/rc.cert" > "$t/rcbad.cert"
out=$("$ISOCHECK" verify --level rc "$t/choose.edn" "$t/rcbad.cert" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "^INVALID rc: .*the read at .*choose.edn:3 reads from a later transaction in the commit order" ||
  { echo "rc: another commit order: exit $rc:"; echo "$out"; fail=1; }
# the same in EDN lists and in Elle's JSON
cat > "$t/paren.edn" <<'H'
{:type :ok, :f :txn, :value ((:r 2 [7]) (:append 1 5)), :process 0, :index 0}
{:type :ok, :f :txn, :value ((:append 1 5)), :process 1, :index 1}
{:type :ok, :f :txn, :value ((:r 1 [5]) (:append 2 7)), :process 2, :index 2}
{:type :ok, :f :txn, :value ((:r 1 [5 5])), :process 3, :index 3}
H
expect "EDN lists" 0 "$t/paren.edn" '^PASS ser' --level ser
{ echo '['
  echo '{"type": "ok", "f": "txn", "process": 0, "index": 0, "value": [["r", 2, [7]], ["append", 1, 5]]},'
  echo '{"type": "ok", "f": "txn", "process": 1, "index": 1, "value": [["append", 1, 5]]},'
  echo '{"type": "ok", "f": "txn", "process": 2, "index": 2, "value": [["r", 1, [5]], ["append", 2, 7]]},'
  echo '{"type": "ok", "f": "txn", "process": 3, "index": 3, "value": [["r", 1, [5, 5]]]}'
  echo ']'; } > "$t/choose.json"
expect "Elle JSON" 0 "$t/choose.json" '^PASS ser' --level ser
# both appends of 5 are read by txn 2 before it appended 7, which both appenders read: whichever
# append txn 2 saw, a WR cycle; every choice refuted, the cycle shown under the first
sed 's/\[\[:append 1 5\]\], :process 1/[[:r 2 [7]] [:append 1 5]], :process 1/' "$t/choose.edn" > "$t/every.edn"
expect "fails whichever (ser)" 1 "$t/every.edn" 'whichever append of its values each of the 2 list reads of a repeated value saw (2 choices of appends refuted); shown under the choice where txn 2 read key 1 = \[5\] with 5 appended by txn 0' --level ser
expect "fails whichever (rc)" 1 "$t/every.edn" 'CyclicCO (TAP-g).*whichever append of its values' --level rc
# a second key with a choice: the cycle shown rests on its first order too, and says so
{ cat "$t/every.edn"
  echo '{:type :ok, :f :txn, :value [[:append 5 9]], :process 6, :index 6}'
  echo '{:type :ok, :f :txn, :value [[:append 5 9]], :process 7, :index 7}'
  echo '{:type :ok, :f :txn, :value [[:r 5 [9 9]]], :process 8, :index 8}'; } > "$t/two.edn"
expect "two keys with a choice" 1 "$t/two.edn" 'shown under the choice where txn 2 read key 1 = \[5\] with 5 appended by txn 0 (and each of the other 1 keys with a choice in its first order)' --level ser
# a failure on another key holds under every choice: proven without the ambiguous lists
{ cat "$t/choose.edn"
  echo '{:type :ok, :f :txn, :value [[:r 3 [9]] [:append 4 1]], :process 4, :index 4}'
  echo '{:type :ok, :f :txn, :value [[:r 4 [1]] [:append 3 9]], :process 5, :index 5}'; } > "$t/else.edn"
expect "fails elsewhere" 1 "$t/else.edn" 'whichever append of its values each of the 2 list reads of a repeated value saw (it fails with only the list reads every choice shows alike' --level ser
# pruning by the list itself: [1 2 1] is two appends of 1; txn 2 read [1 2] before appending
# its 1, so its append is the second: no choice left, and the certificate says so
cat > "$t/prune.edn" <<'H'
{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :index 0}
{:type :ok, :f :txn, :value [[:append 1 2]], :process 1, :index 1}
{:type :ok, :f :txn, :value [[:r 1 [1 2]] [:append 1 1]], :process 2, :index 2}
{:type :ok, :f :txn, :value [[:r 1 [1 2 1]]], :process 3, :index 3}
H
expect "list prunes" 0 "$t/prune.edn" '^PASS ser' --level ser --certificate "$t/prune.cert"
grep -q '^key 1 INIT 0 1 2$' "$t/prune.cert" || { echo "prune.cert: key 1 not 'INIT 0 1 2'"; fail=1; }
# one transaction appending 1 twice: [1 1] is its one version
printf '{:type :ok, :f :txn, :value [[:append 1 1] [:append 1 1]], :process 0, :index 0}\n{:type :ok, :f :txn, :value [[:r 1 [1 1]]], :process 1, :index 1}\n' > "$t/twice.edn"
expect "own twice" 0 "$t/twice.edn" '^PASS ser' --level ser
# a position no append can fill: [1 1 1] with two appends of 1 shows one of them twice,
# whichever was seen
printf '{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :index 0}\n{:type :ok, :f :txn, :value [[:append 1 1] [:r 1 [1 1 1]]], :process 1, :index 1}\n' > "$t/dup.edn"
expect "too many" 1 "$t/dup.edn" 'list-thin-air-element: txn 1 reads list key 1 containing 1 twice' --level ser
# What the report states (doc/checker.md, "Repeated appends": what the report states): an edge
# or proof resting on which append a list element is says "assumed", as for repeated register
# values.  every.edn's G1c: txn 2's [5] is txn 0's or txn 1's 5 (the choice), txn 0's [7] is txn 2's
has() {   # name file fixed-string
  grep -qF -- "$3" "$2" || { echo "$1: no '$3' in:"; head -30 "$2"; fail=1; }
}
"$ISOCHECK" check --level ser "$t/every.edn" > "$t/every.out" 2>&1
has "WR on a chosen append" "$t/every.out" "txn 0 -WR 1-> txn 2   txn 2 read 1=[5], assumed written by txn 0"
has "WR on an established append" "$t/every.out" "txn 2 -WR 2-> txn 0   txn 0 read 2=[7] written by txn 2"
has "the anomaly's assumes" "$t/every.out" "not forced by the history alone): txn 2 read 1=[5] from txn 0"
"$ISOCHECK" check --json --level ser "$t/every.edn" > "$t/every.json" 2>&1
has "JSON assumed_writer" "$t/every.json" '"text": "txn 2 read 1=[5], assumed written by txn 0", "assumed_writer": true'
has "JSON assumes" "$t/every.json" '"assumes": [{"txn": 2, "txn_index": 3,'
"$ISOCHECK" check --level ser --report "$t/every.html" "$t/every.edn" > /dev/null 2>&1
grep -rqF "assumed written by txn 0" "$t/every.html" || { echo "HTML: no assumed writer"; fail=1; }
# a G-single under either order of the two 5s: the RW edge and the list's order rest on the choice
cat > "$t/gs.edn" <<'H'
{:type :ok, :f :txn, :value [[:append 1 5] [:append 4 9]], :process 0, :index 0}
{:type :ok, :f :txn, :value [[:append 1 5] [:append 3 8]], :process 1, :index 1}
{:type :ok, :f :txn, :value [[:r 1 [5]] [:r 3 [8]] [:r 4 [9]]], :process 2, :index 2}
{:type :ok, :f :txn, :value [[:r 1 [5 5]]], :process 3, :index 3}
H
"$ISOCHECK" check --level ser "$t/gs.edn" > "$t/gs.out" 2>&1
has "RW on a chosen append" "$t/gs.out" "txn 2 read 1=[5], assumed written by txn 0, which txn 1's 1=5 overwrote"
has "a list's order on a chosen append" "$t/gs.out" "forced given the writers assumed: txn 2's read 1=[5] lists txn 0's 1 but not txn 1's"
# [1 2 1] with txn 2's 1 last (it read [1 2]): every append is established; nothing is hedged
cat > "$t/fixed.edn" <<'H'
{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :index 0}
{:type :ok, :f :txn, :value [[:append 1 2]], :process 1, :index 1}
{:type :ok, :f :txn, :value [[:r 1 [1 2]] [:append 1 1] [:r 5 [30]]], :process 2, :index 2}
{:type :ok, :f :txn, :value [[:r 1 [1 2 1]] [:append 5 30]], :process 3, :index 3}
H
"$ISOCHECK" check --level ser "$t/fixed.edn" > "$t/fixed.out" 2>&1
grep -q "assum" "$t/fixed.out" && { echo "fixed.edn: hedged:"; cat "$t/fixed.out"; fail=1; }
# the independent oracle (list_assumed_oracle.py: segmentations off the EDN text): every edge and
# list proof resting on a chosen element hedged, none other, in text and JSON
if command -v python3 > /dev/null; then
  hedged=0 checked=0
  for f in every gs fixed choose two else prune; do
    for l in ser si rc; do
      "$ISOCHECK" check --level $l "$t/$f.edn" > "$t/o.txt" 2>&1
      "$ISOCHECK" check --json --level $l "$t/$f.edn" > "$t/o.json" 2>&1
      out=$(python3 "$ROOT/tests/e2e/list_assumed_oracle.py" "$t/$f.edn" $l "$t/o.txt" "$t/o.json") ||
        { echo "$f.edn $l:"; echo "$out"; fail=1; }
      hedged=$((hedged + $(echo "$out" | sed -n 's/.* checked, \([0-9]*\) resting.*/\1/p')))
      checked=$((checked + $(echo "$out" | sed -n 's/^\([0-9]*\) statements.*/\1/p')))
    done
  done
  [ "$hedged" -ge 8 ] && [ "$checked" -ge 20 ] || { echo "oracle: only $checked statements, $hedged on a chosen append"; fail=1; }
fi
exit $fail
