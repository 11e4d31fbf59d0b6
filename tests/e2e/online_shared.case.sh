# isocheck check --follow on histories other tools wrote (../shared/data:
# galera's and yugabyte's PolySI text as the PolySI authors recorded it, and
# dbcop and Cobra histories of real databases, rewritten as text by
# `isocheck convert`), fed in three pieces split inside the file: the final
# report and exit code equal the batch check's at si and ser (after a
# DETECTED line: the verdicts, and the detected anomalies are listed too),
# and on the two violations a DETECTED line comes first.
H="$DATA/polysi-histories"
[ -d "$H" ] || { echo "skipped: $H not present"; exit 0; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
cp "$H/violations/galera/galera.txt" "$t/galera.txt" || exit 1
cp "$H/violations/yugabyte/yugabyte.txt" "$t/yugabyte.txt" || exit 1
i=0
for d in "$H/fig7/20_100_15_10000_0.5_uniform/hist-00000" "$H/fig7/20_100_15_1000_0.5_uniform/hist-00000" \
         "$H/fig8_9_10/25_400_8_10000_0.3_uniform/hist-00000" "$H/fig8_9_10/rubis-10000/hist-00000" \
         "$H/fig8_9_10/twitter-10000/hist-00000"; do
  i=$((i + 1))
  "$ISOCHECK" convert --to text "$d" -o "$t/c$i.txt" 2>/dev/null || { echo "convert $d failed"; exit 1; }
done
for f in "$t"/*.txt; do
  n=$(wc -l < "$f")
  for lv in si ser; do
    "$ISOCHECK" check --level $lv - < "$f" > "$t/batch"; brc=$?
    (head -n $((n / 3)) "$f"; sleep 0.05; sed -n "$((n / 3 + 1)),$((2 * n / 3))p" "$f"; sleep 0.05
     tail -n +$((2 * n / 3 + 1)) "$f") | "$ISOCHECK" check --level $lv --follow - > "$t/follow" 2> "$t/err"; frc=$?
    sed -n '/^END after/,$p' "$t/follow" | tail -n +2 > "$t/final"
    [ "$brc" = "$frc" ] || { echo "$(basename "$f") $lv: exit $frc, batch $brc"; cat "$t/err"; exit 1; }
    if grep -q '^DETECTED' "$t/follow"; then
      # the anomalies printed while following are in the final list too (frontend/online/found.h): the
      # verdict lines are the batch's, and every detected anomaly is listed
      [ "$(grep -E '^(PASS|FAIL|UNKNOWN) ' "$t/batch" | sed 's/:.*//')" = "$(grep -E '^(PASS|FAIL|UNKNOWN) ' "$t/final" |
          grep -v '(stage: followed)$' | sed 's/:.*//')" ] || { echo "$(basename "$f") $lv: final verdicts differ"; exit 1; }
      sed -n '/^END after/q; /^  [0-9]*\. /p' "$t/follow" | grep -v 'cycle under the chosen version order' | sed 's/^  [0-9]*\. //' | while IFS= read -r a; do
        grep -qF -- "$a" "$t/final" || { echo "$(basename "$f") $lv: detected, not in the final report: $a"; exit 1; }
      done || exit 1
    else
      cmp -s "$t/batch" "$t/final" || { echo "$(basename "$f") $lv: final report differs"; diff "$t/batch" "$t/final" | head; exit 1; }
    fi
    grep -q 'internal error' "$t/err" && { echo "$(basename "$f") $lv: $(cat "$t/err")"; exit 1; }
    case "$(basename "$f")" in
      galera.txt|yugabyte.txt)
        [ "$frc" = 1 ] || { echo "$(basename "$f") $lv: exit $frc, expected 1"; exit 1; }
        head -n 1 "$t/follow" | grep -q '^DETECTED after ' || { echo "$(basename "$f") $lv: no DETECTED line first"; exit 1; } ;;
    esac
  done
done
exit 0
