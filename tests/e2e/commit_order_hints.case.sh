#!/bin/sh
# isocheck check --commit-order FILE and --db-timestamps: both answers
# (black-box, white-box), the verdict AND the reason of each, exit codes,
# findings, JSON, malformed orders.
d="$ROOT/tests/data/hints"
fail=0
t() { echo "$1"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Fig. 2 in the order T1 T2 T3: SER by replay, SI under the implied version order
out=$("$ISOCHECK" check --level all --commit-order "$d/clark_fig2.commits" "$d/clark_fig2.txt"); rc=$?
[ $rc -eq 0 ] || t "fig2: exit $rc: $out"
for w in '^PASS si:' '^PASS ser:' '^white-box PASS si: the history satisfies snapshot isolation with the version order the commit order implies$' \
         '^white-box PASS ser: the history satisfies serializability in the commit order' 'white-box hint: .*clark_fig2.commits: commit order of 3 transactions'; do
  echo "$out" | grep -q "$w" || t "fig2 lacks '$w': $out"
done
# T3 listed first: it read two writes that commit after it
out=$("$ISOCHECK" check --level all --commit-order "$d/clark_fig2_future.commits" "$d/clark_fig2.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^PASS ser:' &&
  echo "$out" | grep -q "^white-box FAIL si: txn 3 read 1=1 (.*clark_fig2.txt:7), written by txn 1, which commits after it (commit order .*: txn 3 at line 2, txn 1 at line 2): a transaction reads what committed before it started$" &&
  echo "$out" | grep -q "^white-box FAIL ser: txn 3 read 1=1 (.*clark_fig2.txt:7), written by txn 1, which commits after it (commit order .*clark_fig2_future.commits: txn 3 at line 2, txn 1 at line 2): by the commit order it read from the future$" \
  || t "future read (rc $rc): $out"
# T3 between T1 and the read-modify-write T2: SER a stale read, SI a named lost update
out=$("$ISOCHECK" check --level all --commit-order "$d/rmw_between.commits" "$d/rmw.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^PASS si:' || t "rmw: exit $rc: $out"
echo "$out" | grep -q "^white-box FAIL ser: txn 2 read 1=10 (.*rmw.txt:4), but by the commit order the last write of 1 before it is txn 3's 1=5 (commit order .*rmw_between.commits: txn 3 at line 3, txn 2 at line 4)$" || t "rmw ser: $out"
echo "$out" | grep -q "^white-box FAIL si: snapshot isolation is violated under the version order the commit order implies: .*: lost-update (G-single): txn 2 read 1=10, then its 1=20 overwrote txn 3's later 1=5 without seeing it: txn 3's update is lost \[txn 2 -RW 1-> txn 3 -WW 1-> txn 2\] (stage version order)$" || t "rmw si: $out"
echo "$out" | grep -q '^    txn 3 -WW 1-> txn 2   txn 3.s 1=5 is an older version than txn 2.s 1=20$' || t "rmw si cycle: $out"
# Fig. 3 in session order but against its reads; and against session order
printf '1 2 3\n' > "$tmp/a.commits"
out=$("$ISOCHECK" check --level all --commit-order "$tmp/a.commits" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL si: .*: read-your-writes (G-single-process): .*\[txn 2 -SO-> txn 3 -RW 1-> txn 2\]" &&
  echo "$out" | grep -q "^white-box FAIL ser: txn 3 read 1=1 (.*clark_fig3.txt:8), but by the commit order the last write of 1 before it is txn 2's 1=2" \
  || t "fig3 (rc $rc): $out"
printf '1\n3\n2\n' > "$tmp/b.commits"
out=$("$ISOCHECK" check --level ser --commit-order "$tmp/b.commits" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL ser: commit order contradicts session order: txn 2 commits after txn 3, which follows it in its session (commit order .*b.commits: txn 2 at line 3, txn 3 at line 2)$" \
  || t "session order (rc $rc): $out"
# ids the history lacks, committed transactions left out
printf '1 2 3 9\n' > "$tmp/c.commits"
out=$("$ISOCHECK" check --commit-order "$tmp/c.commits" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL si: commit order contradicts the history: it lists transaction 9 (.*c.commits:1), which the history does not have$" || t "unknown id (rc $rc): $out"
printf '1 2\n' > "$tmp/d.commits"
out=$("$ISOCHECK" check --commit-order "$tmp/d.commits" "$d/clark_fig3.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL si: commit order contradicts the history: it leaves out txn 3 (.*clark_fig3.txt:8), which committed" || t "left out (rc $rc): $out"
# Elle list-append: lists compared element by element with the order's
l="$ROOT/tests/data/anomalies/list_append_ok.edn"
printf '1 2 3 4 5\n' > "$tmp/l1.commits"; printf '1 4 2 3 5\n' > "$tmp/l2.commits"
out=$("$ISOCHECK" check --level all --commit-order "$tmp/l1.commits" "$l"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^white-box PASS si:' &&
  echo "$out" | grep -q "^white-box FAIL ser: txn 4 read 1=\[1\] (.*list_append_ok.edn:9; 1 elements of the snapshot), but by the commit order 1 holds 4 elements before it, the last appended by txn 3" \
  || t "lists, T4 last (rc $rc): $out"
out=$("$ISOCHECK" check --level all --commit-order "$tmp/l2.commits" "$l"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^white-box PASS ser: the history satisfies serializability in the commit order' || t "lists, T4 second (rc $rc): $out"
# JSON: both answers, the anomaly named
j=$("$ISOCHECK" check --json --level all --commit-order "$d/rmw_between.commits" "$d/rmw.txt"); rc=$?
[ $rc -eq 1 ] || t "json: exit $rc"
if command -v python3 >/dev/null; then
  echo "$j" | python3 -c 'import json,sys
r=json.load(sys.stdin)
assert r["black_box"]["verdict"]=="PASS", r
w=r["white_box"]
assert w["verdict"]=="FAIL" and w["hint_kind"]=="commit-order" and w["hint_txns"]==3, w
si, ser = w["results"]
assert si["level"]=="si" and si["anomaly"]["name"]=="lost-update (G-single)" and si["stage"]=="version order", si
assert [(e["kind"], e["key"]) for e in si["cycle"]]==[("RW", "1"), ("WW", "1")], si
assert ser["stage"]=="hint" and ser["anomaly"] is None and "the last write of 1 before it is txn 3" in ser["reason"], ser' || t "json: $j"
fi
# malformed orders: file and line, exit 2, nothing on stdout, no file written
printf '1 2\n3 x\n' > "$tmp/bad.commits"
out=$("$ISOCHECK" check --certificate "$tmp/cert" --commit-order "$tmp/bad.commits" "$d/clark_fig3.txt" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] && [ ! -e "$tmp/cert" ] && grep -q "bad.commits:2: expected a transaction id (a decimal integer), found 'x'" "$tmp/err" || t "malformed (rc $rc): $(cat "$tmp/err")"
printf '1 2\n\n2 3\n' > "$tmp/dup.commits"
"$ISOCHECK" check --commit-order "$tmp/dup.commits" "$d/clark_fig3.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "dup.commits:3: transaction 2 is listed twice (first at line 1)" "$tmp/err" || t "listed twice (rc $rc): $(cat "$tmp/err")"
"$ISOCHECK" check --commit-order "$tmp/none.commits" "$d/clark_fig3.txt" >/dev/null 2>&1; [ $? -eq 2 ] || t "missing commit order file must exit 2"
# one hint at a time, and none with --follow
"$ISOCHECK" check --commit-order "$d/clark_fig2.commits" --version-order "$d/clark_fig2.order" "$d/clark_fig2.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'give one' "$tmp/err" || t "two hints (rc $rc): $(cat "$tmp/err")"
"$ISOCHECK" check --follow --commit-order "$d/clark_fig2.commits" "$d/clark_fig2.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--commit-order is not available with --follow' "$tmp/err" || t "follow (rc $rc): $(cat "$tmp/err")"
# --db-timestamps on a history without them: no white-box answer (exit 2), the black-box one as usual
out=$("$ISOCHECK" check --db-timestamps "$d/clark_fig2.txt"); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '^PASS si:' && echo "$out" | grep -q "^white-box UNKNOWN si: no answer: txn 1 (.*clark_fig2.txt:5) has no commit timestamp" || t "db-timestamps without times (rc $rc): $out"
exit $fail
