#!/bin/sh
# isocheck check --version-order FILE: both answers (black-box, white-box),
# exit codes, findings, JSON, malformed hints, and gen --version-order-out.
d="$ROOT/tests/data/hints"
fail=0
t() { echo "$1"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Clark et al.'s Fig. 2: PASS with the MVTO order, both questions
out=$("$ISOCHECK" check --level all --version-order "$d/clark_fig2.order" "$d/clark_fig2.txt"); rc=$?
[ $rc -eq 0 ] || t "fig2: exit $rc: $out"
for w in '^PASS si:' '^PASS ser:' '^white-box PASS si: .*with the hinted version order' '^white-box PASS ser:'; do
  echo "$out" | grep -q "$w" || t "fig2 lacks '$w': $out"
done
# Fig. 4 without its predicate read: PASS with the figure's order, at both levels
out=$("$ISOCHECK" check --level all --version-order "$d/clark_fig4.order" "$d/clark_fig4.txt"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^white-box PASS ser:' && echo "$out" | grep -q 'white-box hint: .*1 keys, 3 values, 2 version pairs' || t "fig4 (rc $rc): $out"
# the initial value after a write: a finding, exit 1; the black-box answer stays PASS
out=$("$ISOCHECK" check --version-order "$d/clark_fig2_init_last.order" "$d/clark_fig2.txt"); rc=$?
[ $rc -eq 1 ] || t "init last: exit $rc: $out"
echo "$out" | grep -q '^PASS si:' || t "init last: black-box must PASS: $out"
echo "$out" | grep -q '^white-box FAIL si: version order hint contradicts the history: key 1 lists the initial value after 1 (T1, .*clark_fig2.txt:[0-9]*).*hint line 2' \
  || t "init last: finding not named: $out"
# Fig. 3's shape: serializable, but not in the database's order
out=$("$ISOCHECK" check --level ser --version-order "$d/clark_fig3.order" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] || t "fig3: exit $rc: $out"
echo "$out" | grep -q '^PASS ser:' || t "fig3: black-box must PASS: $out"
# a complete order: checked by the version order alone, and the cycle named as the black-box answer names one
echo "$out" | grep -q "^white-box FAIL ser: serializability is violated under the hint's complete version order: .*: read-your-writes (G-single-process): .*\[txn 2 -SO-> txn 3 -RW 1-> txn 2\] (stage version order)" || t "fig3: white-box verdict: $out"
echo "$out" | grep -q '^    txn 2 -SO-> txn 3   txn 2 ran before txn 3 in session 2$' && echo "$out" | grep -q '^    txn 3 -RW 1-> txn 2   txn 3 read 1=1, which txn 2.s 1=2 overwrote$' || t "fig3: cycle: $out"
# a value never written, a value listed twice
printf '1: init 7\n' > "$tmp/never.order"
out=$("$ISOCHECK" check --version-order "$tmp/never.order" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "white-box FAIL si: .*lists 7 for key 1 (.*never.order:1), a value the history never wrote" || t "never written (rc $rc): $out"
printf '1: 1 2 1\n' > "$tmp/twice.order"
out=$("$ISOCHECK" check --version-order "$tmp/twice.order" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "white-box FAIL si: version order hint contradicts itself: it lists 1 twice" || t "twice (rc $rc): $out"
# what the history proves: a read-modify-write chain split or reversed, a
# transaction's own writes out of order, a list prefix reversed
printf '1: 10 5 20\n' > "$tmp/split.order"
out=$("$ISOCHECK" check --level ser --version-order "$tmp/split.order" "$d/rmw.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^PASS ser:' && echo "$out" | grep -q "white-box FAIL ser: version order hint contradicts the history: key 1 lists 5 (T3, .*rmw.txt:6) between 10 (T1, .*rmw.txt:3) and 20 (T2, .*rmw.txt:5), but the history fixes the latter's version right after the former's (T2 read 10 at .*rmw.txt:4 and wrote the key after it) (hint line 1)" || t "split chain (rc $rc): $out"
printf '1: 20 5 10\n' > "$tmp/rev.order"
out=$("$ISOCHECK" check --level ser --version-order "$tmp/rev.order" "$d/rmw.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "white-box FAIL ser: .*key 1 lists 10 (T1, .*) after 20 (T2, .*), but the history orders the former first" || t "reversed chain (rc $rc): $out"
printf '1: 5 20\n' > "$tmp/ok.order"
out=$("$ISOCHECK" check --level ser --version-order "$tmp/ok.order" "$d/rmw.txt"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "white-box hint: .*1 version pairs, complete (checked by the version order alone" || t "a consistent complete order (rc $rc): $out"
printf '1: 10 20\n' > "$tmp/part.order"
out=$("$ISOCHECK" check --level ser --version-order "$tmp/part.order" "$d/rmw.txt"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "white-box hint: .*2 values, 0 version pairs, 0 known edges added" || t "a consistent partial order (rc $rc): $out"
l="$ROOT/tests/data/anomalies/list_append_ok.edn"
printf '1: 1 3 2 4\n' > "$tmp/own.order"
out=$("$ISOCHECK" check --format elle --version-order "$tmp/own.order" "$l"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "white-box FAIL si: .*lists 2 (T2, .*) after 3 (T2, .*), against the transaction's own order of writes" || t "own order (rc $rc): $out"
printf '{"1": [4, 3]}\n' > "$tmp/prefix.order"
out=$("$ISOCHECK" check --format elle --version-order "$tmp/prefix.order" "$l"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "white-box FAIL si: .*lists 3 (T2, .*) after 4 (T3, .*), but the history orders the former first" || t "list prefix reversed (rc $rc): $out"
# string keys and values, spelled with or without Elle's quotes
printf '{"x": ["b", "a"]}' > "$tmp/s1.order"; printf '"x": init "a" "b"\n' > "$tmp/s2.order"
out=$("$ISOCHECK" check --format elle --version-order "$tmp/s1.order" "$d/strings.edn"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^white-box PASS si:' || t "strings b a (rc $rc): $out"
out=$("$ISOCHECK" check --format elle --version-order "$tmp/s2.order" "$d/strings.edn"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL si: snapshot isolation is violated under the hint's complete version order: .*read-your-writes" || t "strings a b (rc $rc): $out"
# JSON: both answers in one object
j=$("$ISOCHECK" check --json --level ser --version-order "$d/clark_fig3.order" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] || t "json: exit $rc"
if command -v python3 >/dev/null; then
  echo "$j" | python3 -c 'import json,sys
r=json.load(sys.stdin)
assert r["black_box"]["verdict"]=="PASS", r
w=r["white_box"]
assert w["verdict"]=="FAIL" and w["finding"] is None, w
assert [(e["kind"], e["key"]) for e in w["results"][0]["cycle"]]==[("SO", None), ("RW", "1")], w' || t "json: $j"
fi
# a lost update on the initial value: every order fails, so the finding
# names the two read-modify-writes, not the hint (which the index's chain
# through one of them would otherwise blame), for either order of the two
printf 'r(1,0,1,1)\nw(1,1,1,1)\nr(1,0,2,2)\nw(1,2,2,2)\n' > "$tmp/lu.txt"
for o in '1: 2 1' '1: 1 2' '1: init 2 1'; do
  printf '%s\n' "$o" > "$tmp/lu.order"
  out=$("$ISOCHECK" check --level all --version-order "$tmp/lu.order" "$tmp/lu.txt"); rc=$?
  [ $rc -eq 1 ] && ! echo "$out" | grep -q 'contradicts the history' && \
    echo "$out" | grep -q "^white-box FAIL si: snapshot isolation is violated under the hint's complete version order: .*: lost-update (G-single): \|^white-box FAIL si: T[12] (.*lu.txt:[13]) and T[12] (.*lu.txt:[13]) both read the initial value of key 1 and wrote it: a lost update" \
    || t "lost update under '$o' (rc $rc): $out"
done
# malformed hints: file and line, exit 2
printf '1: 1\n1 2\n' > "$tmp/bad.order"
err=$("$ISOCHECK" check --version-order "$tmp/bad.order" "$d/clark_fig3.txt" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "bad.order:2: expected 'KEY: VALUE" || t "malformed (rc $rc): $err"
"$ISOCHECK" check --certificate "$tmp/cert" --version-order "$tmp/bad.order" "$d/clark_fig3.txt" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/cert" ] || t "a malformed hint must stop before any output (rc $rc)"
"$ISOCHECK" check --version-order "$tmp/none.order" "$d/clark_fig3.txt" >/dev/null 2>&1; [ $? -eq 2 ] || t "missing hint file must exit 2"
# gen writes its own order: with it a generated SI history passes, and the
# solver gets no constraints
"$ISOCHECK" gen --sessions 5 --txns 30 --ops 4 --keys 8 --version-order-out "$tmp/h.vo" -o "$tmp/h.txt" || t "gen failed"
out=$("$ISOCHECK" check -v --version-order "$tmp/h.vo" "$tmp/h.txt" 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^white-box PASS si:' || t "gen order: rc $rc: $out"
sed -n '/^white-box si/,$p' "$tmp/err" > "$tmp/wb"
grep -q 'constraints 0 -> 0' "$tmp/wb" || t "a complete order leaves constraints: $(cat "$tmp/wb")"
grep -q 'solver:' "$tmp/wb" && t "a complete order still calls the solver: $(cat "$tmp/wb")"
grep -q 'writer-unit pairs 0:' "$tmp/wb" || t "a complete order still scans pairs: $(cat "$tmp/wb")"
"$ISOCHECK" gen --sessions 2 --txns 2 --version-order-out "$tmp/h.vo" -o "$tmp/h2.txt" 2>/dev/null && t "gen replaced an existing version order file without --force"
exit $fail
