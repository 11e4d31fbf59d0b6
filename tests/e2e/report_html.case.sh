# check --report DIR (an HTML report directory), many histories in one run,
# and read anomalies reported with the cycles among the rest.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
g="$ROOT/examples/galera-lost-update.txt"
# one history: index, a page and a drawing per anomaly, report.json = --json
"$ISOCHECK" check --level all --report "$tmp/r" "$g" > "$tmp/out.txt"; rc=$?
[ $rc -eq 1 ] || { echo "report: exit $rc"; fail=1; }
"$ISOCHECK" check --level all "$g" | cmp -s - "$tmp/out.txt" || { echo "report: stdout differs from check without it"; fail=1; }
for f in index.html report.json anomaly-1.html anomaly-1.svg anomaly-2.html anomaly-2.svg; do
  [ -s "$tmp/r/$f" ] || { echo "report: no $f"; fail=1; }
done
[ "$(ls -A "$tmp/r" | wc -l)" -eq 6 ] || { echo "report: $(ls -A "$tmp/r")"; fail=1; }
"$ISOCHECK" check --level all --json "$g" | cmp -s - "$tmp/r/report.json" || { echo "report.json is not the --json report"; fail=1; }
grep -q '<a href="anomaly-1.html">lost-update</a>' "$tmp/r/index.html" || { echo "index: no anomaly link"; fail=1; }
grep -q 'txn 8 (session 2)' "$tmp/r/index.html" || { echo "index: no transactions"; fail=1; }
grep -q 'r(0)=4 \[line 9\]' "$tmp/r/index.html" || { echo "index: no operations"; fail=1; }
grep -q '<h1>1. lost-update (G-single)</h1>' "$tmp/r/anomaly-1.html" || { echo "page: no name"; fail=1; }
grep -q 'forced: txn 3&#39;s 0 precedes txn 8&#39;s, else the cycle txn [38] -[RW]W 0-&gt; txn' "$tmp/r/anomaly-1.html" \
  || { echo "page: no explanation"; fail=1; }
[ "$(grep -c '<circle' "$tmp/r/anomaly-1.svg")" -eq 2 ] || { echo "svg: nodes"; fail=1; }
grep -q '>RW 0</text>' "$tmp/r/anomaly-1.svg" && grep -q '>WW 0</text>' "$tmp/r/anomaly-1.svg" || { echo "svg: edge labels"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import sys,xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' "$tmp"/r/*.svg || { echo "svg: not XML"; fail=1; }
fi
grep -l '<script' "$tmp"/r/*.html && { echo "a script in the pages"; fail=1; }
# refused: a DIR that is not empty (even our own report), or not a directory; nothing touched
before=$(ls -l --time-style=+%s.%N "$tmp/r" | md5sum)
"$ISOCHECK" check --report "$tmp/r" "$g" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'is not empty' "$tmp/err" || { echo "non-empty DIR: exit $rc $(cat "$tmp/err")"; fail=1; }
[ "$(ls -l --time-style=+%s.%N "$tmp/r" | md5sum)" = "$before" ] || { echo "non-empty DIR was changed"; fail=1; }
echo keep > "$tmp/file"
"$ISOCHECK" check --report "$tmp/file" "$g" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'not a directory' "$tmp/err" && [ "$(cat "$tmp/file")" = keep ] || { echo "file as DIR: exit $rc"; fail=1; }
ls -A "$tmp" | grep -q isocheck && { echo "temporary left: $(ls -A "$tmp")"; fail=1; }
"$ISOCHECK" check --dot "$tmp/same" --report "$tmp/same" "$g" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'given for two outputs' "$tmp/err" && [ ! -e "$tmp/same" ] || { echo "--dot and --report one path: exit $rc"; fail=1; }
mkdir "$tmp/empty"
"$ISOCHECK" check --report "$tmp/empty" "$g" > /dev/null; [ -s "$tmp/empty/index.html" ] || { echo "empty DIR not filled"; fail=1; }
# values from the history are escaped: string keys with markup (Elle)
cat > "$tmp/k.edn" <<'EDN'
{:type :ok, :f :txn, :process 0, :index 1, :value [[:r "<script>alert(1)</script>" []] [:append "<script>alert(1)</script>" 1]]}
{:type :ok, :f :txn, :process 1, :index 2, :value [[:r "<script>alert(1)</script>" []] [:append "<script>alert(1)</script>" 2]]}
{:type :ok, :f :txn, :process 2, :index 3, :value [[:r "<script>alert(1)</script>" [1 2]]]}
EDN
"$ISOCHECK" check --report "$tmp/k" "$tmp/k.edn" > /dev/null; rc=$?
[ $rc -eq 1 ] || { echo "markup keys: exit $rc"; fail=1; }
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/k/anomaly-1.html" || { echo "markup keys: not escaped"; fail=1; }
grep -l '<script' "$tmp"/k/*.html "$tmp"/k/*.svg && { echo "markup keys: a script got through"; fail=1; }
# an aborted read AND a lost update among other transactions: both reported
cat > "$tmp/ag.edn" <<'EDN'
{:type :fail, :f :txn, :process 0, :index 1, :value [[:append 1 1]]}
{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 [1]]]}
{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 2 []] [:append 2 10]]}
{:type :ok, :f :txn, :process 3, :index 4, :value [[:r 2 []] [:append 2 20]]}
{:type :ok, :f :txn, :process 4, :index 5, :value [[:r 2 [10 20]]]}
EDN
out=$("$ISOCHECK" check "$tmp/ag.edn"); rc=$?
[ $rc -eq 1 ] || { echo "aborted+lost: exit $rc"; fail=1; }
echo "$out" | grep -q '^  1\. aborted-read (G1a): txn 2 reads list key 1 containing 1, appended by aborted txn 1' || { echo "aborted+lost: $out"; fail=1; }
echo "$out" | grep -q '^cycles among the rest, with the 1 read that breaks the axioms set aside (the verdict stays FAIL):' || { echo "aborted+lost: $out"; fail=1; }
echo "$out" | grep -q '^  1\. lost-update (G-single): txn 4 and txn 3 both read 2=\[\] and both wrote 2' || { echo "aborted+lost: $out"; fail=1; }
echo "$out" | grep -q 'PASS' && { echo "aborted+lost: a PASS line: $out"; fail=1; }
"$ISOCHECK" check --json "$tmp/ag.edn" > "$tmp/ag.json"
grep -q '"verdict": "FAIL", "level": "si", "axiom_violations": 1, "results": \[{"level": "si", "verdict": "FAIL"' "$tmp/ag.json" \
  && grep -q '"set_aside": \[3\]' "$tmp/ag.json" || { echo "aborted+lost json: $(cut -c1-400 "$tmp/ag.json")"; fail=1; }
"$ISOCHECK" check --report "$tmp/agr" "$tmp/ag.edn" > /dev/null
grep -q '>aborted-read</a>' "$tmp/agr/index.html" && grep -q '>lost-update</a>' "$tmp/agr/index.html" || { echo "aborted+lost: index"; fail=1; }
# the aborted read alone: the rest has no cycle, never a PASS line
head -2 "$tmp/ag.edn" > "$tmp/a.edn"
out=$("$ISOCHECK" check "$tmp/a.edn"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^no cycle si: the rest satisfies snapshot isolation once those reads are set aside' \
  && ! echo "$out" | grep -q PASS || { echo "aborted alone: exit $rc $out"; fail=1; }
# many histories: a line each, a summary, the worst exit code, errors on their line
mkdir "$tmp/h"
cp "$g" "$tmp/h/b-galera.txt"; printf 'w(1,1,1,1)\nr(1,1,2,2)\n' > "$tmp/h/a-ok.txt"; printf 'nonsense\n' > "$tmp/h/c-bad.txt"
cp "$tmp/ag.edn" "$tmp/h/d-ag.edn"; mkdir "$tmp/h/sub"; echo x > "$tmp/h/.hidden"
out=$("$ISOCHECK" check "$tmp/h"); rc=$?
[ $rc -eq 1 ] || { echo "many: exit $rc"; fail=1; }
want="PASS $tmp/h/a-ok.txt: si PASS
FAIL $tmp/h/b-galera.txt: si FAIL: lost-update (G-single)
ERROR $tmp/h/c-bad.txt: cannot tell the format (expected text r(...)/w(...) lines, Elle EDN maps, JSON objects, dbcop bincode or Cobra logs); use --format
FAIL $tmp/h/d-ag.edn: read axioms FAIL; among the rest: si FAIL: aborted-read (G1a), lost-update (G-single)
4 histories: 1 PASS, 2 FAIL, 0 UNKNOWN, 1 ERROR"
[ "$out" = "$want" ] || { echo "many: got"; echo "$out"; echo "want"; echo "$want"; fail=1; }
out=$("$ISOCHECK" check "$tmp/h/a-ok.txt" "$tmp/h/c-bad.txt"); rc=$?
[ $rc -eq 2 ] || { echo "many, pass and error: exit $rc"; fail=1; }
"$ISOCHECK" check "$tmp/h/a-ok.txt" "$tmp/h/a-ok.txt" > /dev/null; rc=$?
[ $rc -eq 0 ] || { echo "many, all pass: exit $rc"; fail=1; }
"$ISOCHECK" check --json --level all "$tmp/h" > "$tmp/many.jsonl"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/many.jsonl")" -eq 5 ] || { echo "many json: exit $rc"; cat "$tmp/many.jsonl" | cut -c1-200; fail=1; }
tail -1 "$tmp/many.jsonl" | grep -qx '{"isocheck": 1, "summary": {"histories": 4, "PASS": 1, "FAIL": 2, "UNKNOWN": 0, "ERROR": 1}, "exit": 1}' \
  || { echo "many json summary: $(tail -1 "$tmp/many.jsonl")"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c '
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
assert [r.get("verdict") for r in rows[:4]]==["PASS","FAIL",None,"FAIL"], rows
assert "error" in rows[2] and rows[2]["history"].endswith("c-bad.txt")
assert rows[3]["anomalies"][0]["name"]=="aborted-read"
' "$tmp/many.jsonl" || { echo "many json lines do not parse as expected"; fail=1; }
fi
"$ISOCHECK" check --report "$tmp/mr" "$tmp/h" > /dev/null; rc=$?
[ $rc -eq 1 ] || { echo "many report: exit $rc"; fail=1; }
[ "$(ls "$tmp/mr" | tr '\n' ' ')" = "001-a-ok.txt 002-b-galera.txt 003-c-bad.txt 004-d-ag.edn index.html " ] || { echo "many report: $(ls "$tmp/mr")"; fail=1; }
grep -q '<a href="002-b-galera.txt/index.html">' "$tmp/mr/index.html" && grep -q 'lost-update (G-single)' "$tmp/mr/index.html" \
  || { echo "many report: top index"; fail=1; }
[ -s "$tmp/mr/002-b-galera.txt/anomaly-1.svg" ] && grep -q 'cannot tell the format' "$tmp/mr/003-c-bad.txt/index.html" || { echo "many report: pages"; fail=1; }
"$ISOCHECK" check --certificate "$tmp/c" "$tmp/h" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--certificate takes one history' "$tmp/err" && [ ! -e "$tmp/c" ] || { echo "many --certificate: exit $rc"; fail=1; }
mkdir "$tmp/none"
"$ISOCHECK" check "$tmp/none" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'no history files' "$tmp/err" || { echo "empty dir of histories: exit $rc $(cat "$tmp/err")"; fail=1; }
exit $fail
