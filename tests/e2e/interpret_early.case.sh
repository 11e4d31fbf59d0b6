#!/bin/sh
# A failing level interpreted between waves (run_check.c interpret_early,
# doc/checker.md "Memory"): `--level si,ser` searches ser first; when ser
# fails and si is still to be searched, ser's interpretation runs before
# si's and `-v` says "right after the level".  Its report must be the one
# ser gets when interpreted last (`--level ser` alone), and the case where
# ser is interpreted early and then derived from si's FAIL must report
# the derived FAIL as before (the early interpretation dropped).
fail=0
tmp=${TMPDIR:-/tmp}/interpret_early.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
ws="$ROOT/tests/data/anomalies/write_skew.txt"

# 1. write skew: si passes, ser fails; ser interpreted right after its wave
"$ISOCHECK" check -v --threads 2 --level si,ser "$ws" > "$tmp/both.out" 2> "$tmp/both.err"; rc=$?
[ $rc -eq 1 ] || { echo "write skew si,ser: exit $rc, expected 1"; fail=1; }
grep -q "^PASS si:" "$tmp/both.out" || { echo "write skew: expected PASS si"; cat "$tmp/both.out"; fail=1; }
grep -q "^FAIL ser:" "$tmp/both.out" || { echo "write skew: expected FAIL ser"; cat "$tmp/both.out"; fail=1; }
grep -q "^  1\. write-skew (G2-item)" "$tmp/both.out" || { echo "write skew: expected the write-skew anomaly"; cat "$tmp/both.out"; fail=1; }
grep -q "^\[ser\] interpret .* right after the level$" "$tmp/both.err" ||
  { echo "write skew si,ser: ser not interpreted between waves"; cat "$tmp/both.err"; fail=1; }
# the same report as ser interpreted after the last wave (its only wave)
"$ISOCHECK" check -v --threads 2 --level ser "$ws" > "$tmp/ser.out" 2> "$tmp/ser.err"
grep -q "right after the level" "$tmp/ser.err" && { echo "ser alone: interpreted early, with no later wave"; fail=1; }
sed -n '/^FAIL ser:/,$p' "$tmp/both.out" > "$tmp/both.ser"
sed -n '/^FAIL ser:/,$p' "$tmp/ser.out" > "$tmp/alone.ser"
[ -s "$tmp/alone.ser" ] && cmp -s "$tmp/both.ser" "$tmp/alone.ser" ||
  { echo "ser's report differs between si,ser and ser alone"; diff "$tmp/alone.ser" "$tmp/both.ser"; fail=1; }

# 2. a write skew (txns 1, 2) and a lost update (txns 3, 4): ser's own cycle is the
# write skew (no violation at si), so ser is interpreted early; si then fails on
# the lost update and ser is reported as derived from it, with si's anomaly
cat > "$tmp/mixed.txt" <<'EOF'
r(1,0,1,1)
r(2,0,1,1)
w(1,10,1,1)
r(1,0,2,2)
r(2,0,2,2)
w(2,20,2,2)
r(3,0,3,3)
w(3,30,3,3)
r(3,0,4,4)
w(3,40,4,4)
EOF
"$ISOCHECK" check -v --threads 2 --level si,ser "$tmp/mixed.txt" > "$tmp/mixed.out" 2> "$tmp/mixed.err"; rc=$?
[ $rc -eq 1 ] || { echo "mixed: exit $rc, expected 1"; fail=1; }
grep -q "^FAIL si: .*1 anomaly" "$tmp/mixed.out" || { echo "mixed: expected FAIL si with 1 anomaly"; cat "$tmp/mixed.out"; fail=1; }
grep -q "^FAIL ser: .*(stage: implied)" "$tmp/mixed.out" || { echo "mixed: expected ser derived (stage implied)"; cat "$tmp/mixed.out"; fail=1; }
grep -q "^  fails: implied by si's FAIL" "$tmp/mixed.out" || { echo "mixed: expected 'implied by si's FAIL'"; cat "$tmp/mixed.out"; fail=1; }
[ "$(grep -c '^  1\. lost-update (G-single)' "$tmp/mixed.out")" = 2 ] ||
  { echo "mixed: expected the lost update as si's and ser's first anomaly"; cat "$tmp/mixed.out"; fail=1; }
grep -q "write-skew" "$tmp/mixed.out" && { echo "mixed: ser's dropped interpretation (the write skew) reported"; cat "$tmp/mixed.out"; fail=1; }
grep -q "right after the level" "$tmp/mixed.err" && { echo "mixed: a derived level kept its early interpretation"; fail=1; }

# 3. the lost update alone: ser's cycle is a violation at si, so ser waits (and is derived)
sed -n '7,10p' "$tmp/mixed.txt" > "$tmp/lost.txt"
"$ISOCHECK" check -v --threads 2 --level si,ser "$tmp/lost.txt" > "$tmp/lost.out" 2> "$tmp/lost.err"
grep -q "^FAIL ser: .*(stage: implied)" "$tmp/lost.out" || { echo "lost update: expected ser derived"; cat "$tmp/lost.out"; fail=1; }
grep -q "right after the level" "$tmp/lost.err" && { echo "lost update: ser interpreted early"; fail=1; }
exit $fail
