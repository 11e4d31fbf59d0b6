# `isocheck check --threads N`: the same bytes out for N = 1, 2, 3 — text,
# --json, the certificate, the drawing, the exit code — on generated
# histories with faults (SI and SER checked at once for N >= 2), with the
# verdict and the anomaly each fault must give; and a bad text history
# large enough to be parsed in several chunks fails at its first bad line,
# with the same message, at every N.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# name | gen options | how the report starts | an anomaly that must be listed (- none)
while IFS='|' read -r name opts si_verdict anomaly; do
  "$ISOCHECK" gen --sessions 6 --txns 40 --ops 6 --keys 15 --dist hotspot $opts --force --no-truth \
      -o "$tmp/$name.txt" 2>/dev/null || { echo "$name: gen failed"; exit 1; }
  for n in 1 2 3; do
    d="$tmp/$name.$n"; mkdir -p "$d"
    "$ISOCHECK" check --level all --threads $n --max-anomalies 5 "$tmp/$name.txt" > "$d/text" 2>"$d/err"
    echo "exit $?" >> "$d/text"
    "$ISOCHECK" check --level all --threads $n --json --certificate "$tmp/c" --dot "$tmp/g" "$tmp/$name.txt" \
        > "$d/json" 2>>"$d/err"
    echo "exit $?" >> "$d/json"
    for f in c g; do [ -f "$tmp/$f" ] && mv "$tmp/$f" "$d/$f"; done
  done
  for n in 2 3; do
    for f in text json err c g; do
      [ -f "$tmp/$name.1/$f" ] || [ ! -f "$tmp/$name.$n/$f" ] || { echo "$name: --threads $n wrote $f, --threads 1 did not"; fail=1; }
      [ -f "$tmp/$name.1/$f" ] || continue
      cmp -s "$tmp/$name.1/$f" "$tmp/$name.$n/$f" || {
        echo "$name: $f differs between --threads 1 and --threads $n"; diff "$tmp/$name.1/$f" "$tmp/$name.$n/$f" | head -5; fail=1; }
    done
  done
  out=$(cat "$tmp/$name.1/text")
  echo "$out" | grep -q "^$si_verdict" || { echo "$name: expected '$si_verdict':"; echo "$out" | head -3; fail=1; }
  [ "$anomaly" = "-" ] || echo "$out" | grep -q "^  [0-9]*\. $anomaly" || { echo "$name: no $anomaly reported"; echo "$out" | head -5; fail=1; }
  [ "$si_verdict" != "PASS si" ] || [ -s "$tmp/$name.1/c" ] || { echo "$name: SI passes but no certificate"; fail=1; }
done <<'EOF'
lost-update|--fault=lost-update --fault-rate=0.3 --seed=1|FAIL si|lost-update
long-fork|--fault=long-fork --seed=2|FAIL si|monotonic-reads
aborted-read|--fault=aborted-read --seed=3|FAIL all|thin-air-read
si-only|--level=si --seed=4|PASS si|write-skew
ser-ok|--level=ser --seed=5|PASS si|-
EOF
grep -q '^PASS ser' "$tmp/ser-ok.1/text" || { echo "ser-ok: SER does not pass"; head -3 "$tmp/ser-ok.1/text"; fail=1; }
grep -q '^FAIL ser' "$tmp/si-only.1/text" || { echo "si-only: SER does not fail"; head -3 "$tmp/si-only.1/text"; fail=1; }

# Parse errors in a text history of ~3 MB (two chunks or more at N >= 2):
# the first bad line of the file is reported, whether it comes before or
# after another kind of error.
# (a good history loads the same at every N: tests/test_parse_chunks.c)
awk 'BEGIN { for (i = 1; i <= 150000; i++) printf "w(%d,1,%d,%d)\n", i, i % 7, i }' > "$tmp/big.txt"
bad() {   # FILE LINE TEXT: replace line LINE
  awk -v l="$2" -v t="$3" 'NR == l { print t; next } { print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}
cp "$tmp/big.txt" "$tmp/e1.txt"; bad "$tmp/e1.txt" 40000 'w(1,2,3,1)'; bad "$tmp/e1.txt" 120000 'w(1,x,1,1)'
cp "$tmp/big.txt" "$tmp/e2.txt"; bad "$tmp/e2.txt" 40000 'oops'; bad "$tmp/e2.txt" 120000 'w(1,2,3,1)'
want1="isocheck: $tmp/e1.txt:40000: transaction 1 appears in two sessions (duplicate transaction id?)"
want2="isocheck: $tmp/e2.txt:40000: expected 'r(' or 'w(', found 'oops'"
for n in 1 2 3; do
  got=$("$ISOCHECK" check --threads $n "$tmp/e1.txt" 2>&1); rc=$?
  [ $rc = 2 ] && [ "$got" = "$want1" ] || { echo "e1 --threads $n: exit $rc, $got"; fail=1; }
  got=$("$ISOCHECK" check --threads $n "$tmp/e2.txt" 2>&1); rc=$?
  [ $rc = 2 ] && [ "$got" = "$want2" ] || { echo "e2 --threads $n: exit $rc, $got"; fail=1; }
done
got=$("$ISOCHECK" check --threads 0 "$tmp/e1.txt" 2>&1); rc=$?
[ $rc = 2 ] && echo "$got" | grep -q "option --threads expects an integer in 1\.\.64, found '0'" || { echo "--threads 0: exit $rc, $got"; fail=1; }
exit $fail
