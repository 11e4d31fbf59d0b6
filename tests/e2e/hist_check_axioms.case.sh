# isocheck check reports axiom violations with exit 1, naming the anomaly and its ops.
d="$ROOT/tests/data/hist"
out=$("$ISOCHECK" check "$d/intermediate.txt"); rc=$?
[ $rc -eq 1 ] || { echo "intermediate: exit $rc, want 1"; exit 1; }
echo "$out" | grep -q '^  1\. intermediate-read (G1b): txn 2 reads key 1 = 1, which txn 1 overwrote with 2 later' || { echo "$out"; exit 1; }
echo "$out" | grep -q 'intermediate.txt:3' || { echo "no location: $out"; exit 1; }
out=$("$ISOCHECK" check --json "$d/aborted-read.edn"); rc=$?
[ $rc -eq 1 ] || { echo "aborted: exit $rc, want 1"; exit 1; }
echo "$out" | grep -q '"verdict": "FAIL"' || { echo "$out"; exit 1; }
echo "$out" | grep -q '"name": "aborted-read", "adya": "G1a"' || { echo "$out"; exit 1; }
exit 0
