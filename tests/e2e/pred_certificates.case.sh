# Certificates of PASSes that rest on a chosen version (doc/certificate.md,
# "view"): a predicate read's view of a key it did not return ('view'
# lines) and a read of nil's absent version ('read' lines), written by
# `check --certificate`, verified by `isocheck verify`, and tampered copies
# rejected at the line at fault.  Verdict AND reason each time.
P="$ROOT/tests/data/predicates"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# pred-choice.edn: txn 3's predicate read of `= 0` saw key 1 = 4 or 5
for lv in ser rc rr psi; do
  out=$("$ISOCHECK" check --level $lv --certificate "$t/$lv.cert" "$P/pred-choice.edn" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -qF "PASS $lv: " && grep -qE '^view 3 1 1 [12]$' "$t/$lv.cert" ||
    { echo "pred-choice $lv: exit $rc"; echo "$out"; cat "$t/$lv.cert"; exit 1; }
  out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/$lv.cert" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -qF "VALID $lv: " || { echo "pred-choice verify $lv: exit $rc"; echo "$out"; exit 1; }
  line=$(grep -n '^view ' "$t/$lv.cert" | cut -d: -f1)
  # the initial version (0) matches `= 0`: the read would have returned it
  sed 's/^view 3 1 1 .*/view 3 1 1 INIT/' "$t/$lv.cert" > "$t/bad.cert"
  out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/bad.cert" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "bad.cert:$line:" &&
    echo "$out" | grep -qF "the view line names a version that matches the predicate, yet the read did not return the key" ||
    { echo "pred-choice $lv, view of INIT: exit $rc"; echo "$out"; exit 1; }
  # the reader's own transaction
  sed 's/^view 3 1 1 .*/view 3 1 1 3/' "$t/$lv.cert" > "$t/bad.cert"
  out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/bad.cert" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "bad.cert:$line:" && echo "$out" | grep -qF "the line names the reader itself" ||
    { echo "pred-choice $lv, view of itself: exit $rc"; echo "$out"; exit 1; }
  # no view line: the marker it reads is no version
  sed '/^view /d' "$t/$lv.cert" > "$t/bad.cert"
  out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/bad.cert" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "no line of the certificate names it ('view' for a predicate read" ||
    { echo "pred-choice $lv, no view line: exit $rc"; echo "$out"; exit 1; }
done
# ser: the other non-matching version breaks the commit order (an RW edge)
w=$(sed -n 's/^view 3 1 1 //p' "$t/ser.cert"); o=$((3 - w))
sed "s/^view 3 1 1 .*/view 3 1 1 $o/; s/^order .*/order $o $w 3/; s/^key 1 INIT .*/key 1 INIT $o $w/" "$t/ser.cert" > "$t/ok.cert"
out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/ok.cert" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "RW 1: txn 3 reads 1=(the version its predicate read of \`value = 0\` saw), which txn $w's 1=" ||
  { echo "pred-choice ser, the other view: exit $rc"; echo "$out"; cat "$t/ok.cert"; exit 1; }
# malformed: a predicate read numbered 0
sed 's/^view 3 1 1 /view 3 0 1 /' "$t/ser.cert" > "$t/bad.cert"
out=$("$ISOCHECK" verify "$P/pred-choice.edn" "$t/bad.cert" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "expected the number of the reader's predicate read (1 for its first), found '0 1 " ||
  { echo "view 0: exit $rc"; echo "$out"; exit 1; }
# nil-choice.edn: txn 3 read key 1 as nil, INIT's unborn version or txn 2's delete
for lv in ser rc; do
  out=$("$ISOCHECK" check --level $lv --certificate "$t/n$lv.cert" "$P/nil-choice.edn" 2>&1); rc=$?
  [ $rc -eq 0 ] && grep -qE '^read 3 1 (INIT|2)$' "$t/n$lv.cert" || { echo "nil-choice $lv: exit $rc"; echo "$out"; cat "$t/n$lv.cert"; exit 1; }
  out=$("$ISOCHECK" verify "$P/nil-choice.edn" "$t/n$lv.cert" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -qF "VALID $lv: " || { echo "nil-choice verify $lv: exit $rc"; echo "$out"; exit 1; }
  line=$(grep -n '^read ' "$t/n$lv.cert" | cut -d: -f1)
  sed 's/^read 3 1 .*/read 3 1 1/' "$t/n$lv.cert" > "$t/bad.cert"   # txn 1's version is 5: present
  out=$("$ISOCHECK" verify "$P/nil-choice.edn" "$t/bad.cert" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "bad.cert:$line:" &&
    echo "$out" | grep -qF "the read line names a version that is present, yet the read returned nil" ||
    { echo "nil-choice $lv, a present version: exit $rc"; echo "$out"; exit 1; }
done
exit 0
