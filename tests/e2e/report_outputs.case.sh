# The three real violations (galera, yugabyte, dgraph): names, text that
# explains edges, --json that parses, --dot that Graphviz renders, and
# --max-anomalies.
v="$DATA/polysi-histories/violations"
[ -d "$v" ] || { echo "no shared data; skipped"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
out=$("$ISOCHECK" check "$v/galera/galera.txt"); rc=$?
[ $rc -eq 1 ] || { echo "galera exit $rc"; fail=1; }
echo "$out" | grep -q '^  1\. lost-update (G-single): txn 8 and txn 3 both read 0=4 and both wrote 0' || { echo "galera: $out"; fail=1; }
echo "$out" | grep -q 'forced: txn 3.s 0 precedes txn 8.s, else the cycle txn 8 -WW 0-> txn 3 -RW 0-> txn 8' || { echo "galera why: $out"; fail=1; }
echo "$out" | grep -q 'r(0)=4 \[line 9\]  w(0)=10 \[line 10\]' || { echo "galera ops: $out"; fail=1; }
out=$("$ISOCHECK" check "$v/yugabyte/yugabyte.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^  [0-9]\. read-your-writes' || { echo "yugabyte: $out"; fail=1; }
# dgraph: several independent anomalies; --max-anomalies bounds them
n=$("$ISOCHECK" check "$v/dgraph/history.bincode" | grep -c '^  [0-9]*\. ')
[ "$n" -ge 2 ] || { echo "dgraph: $n anomalies"; fail=1; }
n=$("$ISOCHECK" check --max-anomalies 1 "$v/dgraph/history.bincode" | grep -c '^  [0-9]*\. ')
[ "$n" -eq 1 ] || { echo "dgraph --max-anomalies 1: $n"; fail=1; }
"$ISOCHECK" check --max-anomalies 0 "$v/galera/galera.txt" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "--max-anomalies 0 accepted"; fail=1; }
# JSON
"$ISOCHECK" check --json --level all "$v/galera/galera.txt" > "$tmp/g.json"
grep -q '"verdict": "FAIL", "level": "all"' "$tmp/g.json" || { echo "json: $(cat "$tmp/g.json")"; fail=1; }
grep -q '"name": "lost-update", "adya": "G-single", "level": "si"' "$tmp/g.json" || { echo "json si"; fail=1; }
grep -q '"name": "lost-update", "adya": "G-single", "level": "ser"' "$tmp/g.json" || { echo "json ser"; fail=1; }
if command -v python3 >/dev/null; then
  for h in "$v/galera/galera.txt" "$v/yugabyte/yugabyte.txt" "$v/dgraph/history.bincode" "$ROOT/tests/data/anomalies/chained_rmw.txt"; do
    "$ISOCHECK" check --json --level all "$h" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["isocheck"]==1 and d["verdict"] in ("PASS","FAIL")' \
      || { echo "json does not parse: $h"; fail=1; }
  done
fi
# DOT
"$ISOCHECK" check --dot "$tmp/g.dot" "$v/galera/galera.txt" >/dev/null
grep -q 'label="RW 0"' "$tmp/g.dot" || { echo "dot: $(cat "$tmp/g.dot")"; fail=1; }
if command -v dot >/dev/null; then
  for h in galera/galera.txt yugabyte/yugabyte.txt dgraph/history.bincode; do
    "$ISOCHECK" check --dot "$tmp/x.dot" "$v/$h" >/dev/null
    dot -Tsvg "$tmp/x.dot" -o "$tmp/x.svg" && grep -q '<svg' "$tmp/x.svg" || { echo "dot -Tsvg failed on $h"; fail=1; }
  done
else
  echo "graphviz not installed: rendering skipped"
fi
# string keys with quotes and backslashes (Elle): JSON, DOT and certificates escape them
cat > "$tmp/k.edn" <<'EDN'
{:type :ok, :f :txn, :process 0, :index 1, :value [[:r "y \"q\" \\z" []] [:append "y \"q\" \\z" 1]]}
{:type :ok, :f :txn, :process 1, :index 2, :value [[:r "y \"q\" \\z" []] [:append "y \"q\" \\z" 2] [:append :x 3]]}
{:type :ok, :f :txn, :process 2, :index 3, :value [[:r :x [3]]]}
EDN
"$ISOCHECK" check --format elle --json --dot "$tmp/k.dot" "$tmp/k.edn" > "$tmp/k.json"; rc=$?
[ $rc -eq 1 ] || { echo "string keys: exit $rc"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(sys.stdin); a=d["anomalies"][0]; assert a["name"]=="lost-update", a; assert a["edges"][0]["key"]=="\"y \\\"q\\\" \\\\z\"", a["edges"][0]["key"]' < "$tmp/k.json" \
    || { echo "string keys json: $(cat "$tmp/k.json")"; fail=1; }
fi
if command -v dot >/dev/null; then dot -Tsvg "$tmp/k.dot" -o "$tmp/k.svg" || { echo "string keys dot"; cat "$tmp/k.dot"; fail=1; }; fi
printf '%s\n' '{:type :ok, :f :txn, :process 0, :index 1, :value [[:append "a \"b\"" 1]]}' \
  '{:type :ok, :f :txn, :process 1, :index 2, :value [[:r "a \"b\"" [1]]]}' > "$tmp/k2.edn"
"$ISOCHECK" check --format elle --certificate "$tmp/k2.cert" "$tmp/k2.edn" >/dev/null && "$ISOCHECK" verify --format elle "$tmp/k2.edn" "$tmp/k2.cert" >/dev/null \
  || { echo "string key certificate: $(cat "$tmp/k2.cert")"; fail=1; }
exit $fail
