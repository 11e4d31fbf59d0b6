# isocheck check --follow: the final verdict of a text stream comes from the
# incremental state when it covers every transaction and passes (its models'
# version orders re-checked by verify_model on the whole input), else from
# the batch check; either way the final report is the batch check's, byte
# for byte, at every level, on clean and faulty histories — except that an
# anomaly printed while following is in the final list too (the verdicts
# stay the batch's).
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
incr=0
for spec in "si none 1" "si none 2" "ser none 3" "rc none 4" "si lost-update 5" "si long-fork 6" "si causality 7" \
            "si aborted-read 8" "si intermediate-read 9" "ser none 10" "si none 11"; do
  set -- $spec
  "$ISOCHECK" gen --sessions 6 --txns 40 --ops 5 --keys 30 --seed "$3" --level "$1" --fault "$2" --fault-rate 0.05 \
    -o "$t/h.txt" --no-truth --force >/dev/null 2>&1 || { echo "gen $spec failed"; exit 1; }
  n=$(wc -l < "$t/h.txt")
  for lv in si ser all; do
    batch=$("$ISOCHECK" check --level $lv - < "$t/h.txt"); brc=$?
    out=$( (head -n $((n / 3)) "$t/h.txt"; sleep 0.05; sed -n "$((n / 3 + 1)),$((2 * n / 3))p" "$t/h.txt"; sleep 0.05
            tail -n +$((2 * n / 3 + 1)) "$t/h.txt") | "$ISOCHECK" check -v --level $lv --follow - 2> "$t/err"); frc=$?
    final=$(echo "$out" | sed -n '/^END after/,$p' | tail -n +2)
    [ "$brc" = "$frc" ] || { echo "$spec $lv: exit $frc, batch $brc"; cat "$t/err"; exit 1; }
    if echo "$out" | grep -q '^DETECTED'; then
      # the anomalies printed while following are in the final list (found.h), the verdict lines are the batch's
      # (a level the batch did not reach, its read axioms broken, is added: FAIL, stage "followed")
      [ "$(echo "$batch" | grep -E '^(PASS|FAIL|UNKNOWN) ' | sed 's/:.*//')" = "$(echo "$final" | grep -E '^(PASS|FAIL|UNKNOWN) ' |
          grep -v '(stage: followed)$' | sed 's/:.*//')" ] ||
        { echo "$spec $lv: final verdicts differ from batch:"; echo "$final"; echo "batch:"; echo "$batch"; exit 1; }
      echo "$out" | sed -n '/^END after/q; /^  [0-9]*\. /p' | grep -v 'cycle under the chosen version order' | sed 's/^  [0-9]*\. //' | while IFS= read -r a; do
        echo "$final" | grep -qF -- "$a" || { echo "$spec $lv: detected, not in the final report: $a"; exit 1; }
      done || exit 1
    else
      [ "$batch" = "$final" ] || { echo "$spec $lv: final report differs from batch:"; echo "$final"; echo "batch:"; echo "$batch"; exit 1; }
    fi
    grep -q 'internal error' "$t/err" && { echo "$spec $lv: $(cat "$t/err")"; exit 1; }
    if grep -q 'final verdict from the incremental state' "$t/err"; then
      incr=$((incr + 1))
      [ $frc = 0 ] || { echo "$spec $lv: a verdict from the incremental state that is not PASS"; exit 1; }
      echo "$out" | grep -q '^END after .*; the whole input, the incremental model re-checked:$' ||
        { echo "$spec $lv: the END line does not say the incremental model was re-checked"; exit 1; }
    else
      echo "$out" | grep -q '^END after .*; the whole input, checked in batch:$' ||
        { echo "$spec $lv: the END line does not say the batch check ran"; exit 1; }
    fi
  done
done
# the clean ones passed from the incremental state (at si at least)
[ $incr -ge 6 ] || { echo "only $incr final verdicts from the incremental state"; exit 1; }
# with the batch check forced, the same report
"$ISOCHECK" gen --sessions 6 --txns 40 --ops 5 --keys 30 --seed 12 --level si -o "$t/h.txt" --no-truth --force >/dev/null 2>&1 || exit 1
a=$(cat "$t/h.txt" | "$ISOCHECK" check --follow - | tail -n +2)
b=$(cat "$t/h.txt" | ISOCHECK_FOLLOW_BATCH=1 "$ISOCHECK" check --follow - | tail -n +2)
[ "$a" = "$b" ] && [ "$a" = "$("$ISOCHECK" check - < "$t/h.txt")" ] || { echo "forced batch: $a / $b"; exit 1; }
# a last line without its newline: the batch check decides, same report
head -c -1 "$t/h.txt" > "$t/nonl.txt"
err=$(cat "$t/nonl.txt" | "$ISOCHECK" check -v --follow - 2>&1 >/dev/null)
echo "$err" | grep -q 'final verdict from the incremental state' && { echo "no newline: verdict from the incremental state"; exit 1; }
[ "$(cat "$t/nonl.txt" | "$ISOCHECK" check --follow - | tail -n +2)" = "$("$ISOCHECK" check - < "$t/nonl.txt")" ] || { echo "no newline: differs"; exit 1; }
exit 0
