# `isocheck check --level si,ser --threads N`, N = 1 and 2, on generated
# histories of 12,000 transactions with faults, large enough that the
# interpretation's whole-history passes, its repair of the version order
# and the explanations of a cycle's edges run on the pool, and the model's
# sides are found while the base edges come back: the same report, exit
# code and -v counts (times left out) at both N, with the verdicts and an
# explained anomaly each must give.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
strip() { sed -E 's/[0-9]+\.[0-9]+s//g; s/\(cpu [^)]*\)//g'; }
# name | gen options | SI verdict line | SER verdict line | an anomaly that must be listed
while IFS='|' read -r name opts si ser anomaly; do
  "$ISOCHECK" gen --sessions 20 --txns 600 --ops 8 --keys 3000 $opts --force --no-truth -o "$tmp/$name.txt" 2>/dev/null ||
    { echo "$name: gen failed"; exit 1; }
  for n in 1 2; do
    "$ISOCHECK" check -v --level si,ser --threads $n "$tmp/$name.txt" > "$tmp/$name.$n" 2> "$tmp/$name.err.$n"
    echo "exit $?" >> "$tmp/$name.$n"
    strip < "$tmp/$name.err.$n" > "$tmp/$name.v.$n"
  done
  cmp -s "$tmp/$name.1" "$tmp/$name.2" || { echo "$name: the report differs between --threads 1 and 2"; diff "$tmp/$name.1" "$tmp/$name.2" | head -8; fail=1; }
  cmp -s "$tmp/$name.v.1" "$tmp/$name.v.2" || { echo "$name: -v differs between --threads 1 and 2"; diff "$tmp/$name.v.1" "$tmp/$name.v.2" | head -8; fail=1; }
  grep -q "^$si" "$tmp/$name.1" || { echo "$name: expected '$si'"; head -3 "$tmp/$name.1"; fail=1; }
  grep -q "^$ser" "$tmp/$name.1" || { echo "$name: expected '$ser'"; head -3 "$tmp/$name.1"; fail=1; }
  grep -q "^  1\. $anomaly" "$tmp/$name.1" || { echo "$name: no $anomaly first"; head -4 "$tmp/$name.1"; fail=1; }
  grep -q "forced: " "$tmp/$name.1" || { echo "$name: no forced fact explained"; fail=1; }
  grep -q "interpret" "$tmp/$name.v.1" || { echo "$name: -v shows no interpretation"; fail=1; }
done <<'CASES'
write-skew|--level si --seed 7|PASS si|FAIL ser: serializability is violated: 10 anomalies|write-skew
long-fork|--fault long-fork --fault-rate 0.02 --seed 9|FAIL si: snapshot isolation is violated|FAIL ser|monotonic-reads
CASES
exit $fail
