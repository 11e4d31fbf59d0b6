#!/bin/sh
# isocheck check: levels, exit codes, -v statistics, --json, bad usage.
d="$ROOT/tests/data/anomalies"
fail=0
t() { echo "$1"; fail=1; }
out=$("$ISOCHECK" check "$d/write_skew.txt"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^PASS si:' || t "default level is si and write skew passes it (rc $rc): $out"
out=$("$ISOCHECK" check --level ser "$d/write_skew.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^FAIL ser:' || t "write skew fails ser with exit 1 (rc $rc): $out"
out=$("$ISOCHECK" check --level all "$d/write_skew.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^PASS si:' && echo "$out" | grep -q '^FAIL ser:' || t "--level all reports both (rc $rc): $out"
err=$("$ISOCHECK" check --level all -v "$d/long_fork.txt" 2>&1 >/dev/null)
for w in 'graph .*prune .*solve' 'constraints [0-9]* -> [0-9]*' 'writer-unit pairs' '^\[ser\]'; do
  echo "$err" | grep -q "$w" || t "-v lacks '$w': $err"
done
j=$("$ISOCHECK" check --json --level si "$d/lost_update.txt"); rc=$?
[ $rc -eq 1 ] || t "json lost update: rc $rc"
echo "$j" | grep -q '"verdict": "FAIL", "level": "si"' || t "json verdict: $j"
echo "$j" | grep -q '"kind": "WW", "key": "1"' || t "json cycle edges: $j"
if command -v python3 >/dev/null; then echo "$j" | python3 -c 'import json,sys; json.load(sys.stdin)' || t "json does not parse: $j"; fi
j=$("$ISOCHECK" check --json --level all "$d/write_skew.txt")
if command -v python3 >/dev/null; then echo "$j" | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"]; assert [x["verdict"] for x in r]==["PASS","FAIL"]' || t "json all: $j"; fi
"$ISOCHECK" check --level bogus "$d/write_skew.txt" >/dev/null 2>&1; [ $? -eq 2 ] || t "unknown level must exit 2"
# progress goes to a terminal only: nothing extra on a pipe
err=$("$ISOCHECK" check "$d/write_skew.txt" 2>&1 >/dev/null)
[ -z "$err" ] || t "unexpected stderr without -v: $err"
exit $fail
