# Every PASS writes a certificate that `isocheck verify` accepts; tampered
# copies (swapped versions, a key line removed, the commit order reversed,
# an unknown transaction) are rejected with exit 1, a truncated one with 2.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for f in "$ROOT"/tests/data/anomalies/*.txt "$ROOT"/tests/data/anomalies/*.edn \
         "$DATA"/polysi-histories/fig7/5_100_15_10000_0.5_uniform/hist-00000/history.bincode; do
  [ -e "$f" ] || continue
  fmt=""; case "$f" in *.edn) fmt="--format elle" ;; esac
  for lv in si ser; do
    c="$tmp/cert"
    rm -f "$c"
    "$ISOCHECK" check $fmt --level $lv --certificate "$c" "$f" >/dev/null; rc=$?
    [ $rc -eq 0 ] || { [ -e "$c" ] && { echo "$f $lv: certificate written on exit $rc"; fail=1; }; continue; }
    n=$((n+1))
    out=$("$ISOCHECK" verify $fmt "$f" "$c"); vrc=$?
    [ $vrc -eq 0 ] && echo "$out" | grep -q "^VALID $lv" || { echo "$f $lv: verify exit $vrc: $out"; fail=1; continue; }
    # a SER certificate also proves SI
    [ $lv = ser ] && { "$ISOCHECK" verify $fmt --level si "$f" "$c" >/dev/null || { echo "$f: ser cert not valid for si"; fail=1; }; }
    # tampering: swap the first two writers of the first key that has two
    awk 'BEGIN{d=0} /^key / && NF>=5 && !d {t=$4; $4=$5; $5=t; d=1} {print}' "$c" > "$tmp/swap"
    if ! cmp -s "$c" "$tmp/swap"; then
      "$ISOCHECK" verify $fmt "$f" "$tmp/swap" >/dev/null; [ $? -eq 1 ] || { echo "$f $lv: swapped versions accepted"; fail=1; }
    fi
    # drop the first key line with a writer
    awk 'BEGIN{d=0} /^key / && NF>=4 && !d {d=1; next} {print}' "$c" > "$tmp/nokey"
    if ! cmp -s "$c" "$tmp/nokey"; then
      out=$("$ISOCHECK" verify $fmt "$f" "$tmp/nokey"); [ $? -eq 1 ] && echo "$out" | grep -q "missing" || { echo "$f $lv: missing key: $out"; fail=1; }
    fi
    # reverse the commit order (more than one entry)
    if [ $(grep '^order' "$c" | wc -w) -gt 3 ]; then
      { grep -v '^order\|^end' "$c"; echo "order $(grep '^order' "$c" | sed 's/^order //' | tr ' ' '\n' | tac | tr '\n' ' ')"; echo end; } > "$tmp/rev"
      # SI: reversing makes commits precede starts; SER: breaks some edge
      "$ISOCHECK" verify $fmt "$f" "$tmp/rev" >/dev/null; [ $? -eq 1 ] || { echo "$f $lv: reversed order accepted"; fail=1; }
    fi
    # an unknown transaction
    ev=""; [ $lv = si ] && ev=s
    sed "s/^end\$/order ${ev}987654321\nend/" "$c" > "$tmp/unknown"
    out=$("$ISOCHECK" verify $fmt "$f" "$tmp/unknown"); [ $? -eq 1 ] && echo "$out" | grep -q "unknown transaction 987654321" || { echo "$f $lv: unknown txn: $out"; fail=1; }
    # truncated: malformed, exit 2 with file:line
    grep -v '^end$' "$c" > "$tmp/trunc"
    "$ISOCHECK" verify $fmt "$f" "$tmp/trunc" >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && grep -q "trunc:[0-9]*: expected 'end'" "$tmp/err" || { echo "$f $lv: truncated: $(cat "$tmp/err")"; fail=1; }
  done
done
[ $n -ge 8 ] || { echo "only $n certificates checked"; fail=1; }
echo "$n certificates verified"
exit $fail
