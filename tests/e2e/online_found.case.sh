# isocheck check --follow: every anomaly printed while following (under
# DETECTED) is in the final report too (frontend/online/found.h).  A batch
# check of the whole input lists some anomalies, on disjoint transactions,
# chosen by its own solve: before the fix, the lost update and read skews
# detected in these 2,000-transaction streams were missing from it.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
for seed in 1 2 3; do
  "$ISOCHECK" gen --sessions 10 --txns 200 --ops 8 --keys 100 --seed $seed --level si --fault lost-update \
    -o "$t/h.txt" --no-truth --force >/dev/null 2>&1 || { echo "gen $seed failed"; exit 1; }
  split -l 1000 -a 3 -d "$t/h.txt" "$t/c$seed."
  out=$(for c in "$t/c$seed".*; do cat "$c"; sleep 0.02; done | "$ISOCHECK" check --follow -); rc=$?
  [ $rc = 1 ] || { echo "seed $seed: exit $rc, expected 1"; exit 1; }
  echo "$out" | grep -q '^DETECTED after' || { echo "seed $seed: nothing detected while following"; exit 1; }
  final=$(echo "$out" | sed -n '/^END after/,$p')
  n=0
  echo "$out" | sed -n '/^END after/q; /^  [0-9]*\. /p' | grep -v 'cycle under the chosen version order' | sed 's/^  [0-9]*\. //' > "$t/detected"
  while IFS= read -r a; do
    n=$((n + 1))
    echo "$final" | grep -qF -- "$a" || { echo "seed $seed: detected, missing from the final report: $a"; exit 1; }
  done < "$t/detected" || exit 1
  [ -s "$t/detected" ] || { echo "seed $seed: no anomaly listed under DETECTED"; exit 1; }
  # the final report's header counts what it lists
  shown=$(echo "$final" | grep -c '^  [0-9]*\. ')
  echo "$final" | grep -q "^FAIL si: snapshot isolation is violated: $shown anomal" ||
    { echo "seed $seed: header does not count the $shown anomalies listed"; echo "$final" | head -3; exit 1; }
done
exit 0
