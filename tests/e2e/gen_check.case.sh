# Simulator ground truth against the checker: fault-free runs pass their own
# level, each injected fault is rejected with the anomaly it produces.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
g() { "$ISOCHECK" gen --sessions 6 --txns 30 --ops 6 --keys 30 --seed 5 "$@"; }
g --level si -o "$t/si.txt" || exit 1
out=$("$ISOCHECK" check --level si "$t/si.txt"); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q '^PASS si' || { echo "si run, level si: exit $rc: $out"; exit 1; }
g --level ser -o "$t/ser.txt" || exit 1
out=$("$ISOCHECK" check --level ser "$t/ser.txt"); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q '^PASS ser' || { echo "ser run, level ser: exit $rc: $out"; exit 1; }
# fault -> what check must report
# (axiom faults are named in the numbered anomaly list; cycle faults give the
#  SI verdict, their names are the classifier's business and tested there)
for c in "aborted-read|^ *[0-9]*\. aborted-read (G1a)" "intermediate-read|^ *[0-9]*\. intermediate-read" \
         "causality|^FAIL si: snapshot isolation is violated" "long-fork|^FAIL si: snapshot isolation is violated" \
         "lost-update|^FAIL si: snapshot isolation is violated"; do
  f=${c%%|*}; want=${c#*|}
  g --fault $f --fault-rate 0.5 --format dbcop -o "$t/$f.dbcop" || { echo "gen $f"; exit 1; }
  grep -q '"manifested": [1-9]' "$t/$f.dbcop.truth" || { echo "$f did not manifest: $(cat "$t/$f.dbcop.truth")"; exit 1; }
  out=$("$ISOCHECK" check --level si --max-anomalies 100 "$t/$f.dbcop"); rc=$?
  [ $rc = 1 ] && echo "$out" | grep -q "$want" || { echo "$f: exit $rc, expected '$want':"; echo "$out" | head -5; exit 1; }
done
exit 0
