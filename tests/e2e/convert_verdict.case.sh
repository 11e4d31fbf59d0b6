# convert keeps the verdict: every history of the test data, written in
# text, dbcop, dbcop-json, cobra and viper where they can hold it, checks the same (verdicts
# and anomaly names); values and ids a format reserves are renumbered, not
# reused (Elle's 0 is an ordinary value, text's and dbcop's 0 is the
# initial one).  (Elle output is the formats tests' business.)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
# verdict lines and the sorted anomaly names of `check --level all`
summary() { "$ISOCHECK" check --level all --max-anomalies 100 "$1" 2>&1 |
            sed -n -E -e 's/^((PASS|FAIL|UNKNOWN) [a-z]+):.*/\1/p' -e 's/^ *[0-9]+\. ([^:]*):.*/\1/p' | sort; }
roundtrip() {       # $1: history, $2: label
  want=$(summary "$1")
  [ -n "$want" ] || { no "$2: no verdict: $("$ISOCHECK" check "$1" 2>&1)"; return; }
  for to in text dbcop dbcop-json cobra viper; do
    out="$t/rt.$to"; rm -rf "$out"
    if ! err=$("$ISOCHECK" convert --to $to -o "$out" "$1" 2>&1); then
      echo "$err" | grep -q 'cannot write' || no "$2 -> $to: $err"     # refused: fine, it says so
      continue
    fi
    got=$(summary "$out")
    [ "$got" = "$want" ] || no "$2 -> $to: verdict changed:
$got
    expected:
$want"
  done
}
for f in "$ROOT"/tests/data/anomalies/*.txt "$ROOT"/tests/data/hist/*; do     # (the .edn anomalies are list-append)
  case "$f" in */bad.txt) continue;; esac       # bad input on purpose
  roundtrip "$f" "$(basename "$f")"
done
# Elle's 0: read of 0 nobody wrote (thin air), a write of 0, a lost update over 0,
# negative keys, values, processes and indexes (text has no signs)
printf '{:type :ok, :f :txn, :process 0, :index 0, :value [[:r 1 0]]}\n' > "$t/read0.edn"
printf '{:type :ok, :f :txn, :process 0, :index 0, :value [[:w 1 0]]}\n{:type :ok, :f :txn, :process 1, :index 1, :value [[:r 1 0] [:w 2 1]]}\n' > "$t/write0.edn"
printf '{:type :ok, :f :txn, :process 0, :index 0, :value [[:w 1 0]]}\n{:type :ok, :f :txn, :process 1, :index 1, :value [[:r 1 0] [:w 1 5]]}\n{:type :ok, :f :txn, :process 2, :index 2, :value [[:r 1 0] [:w 1 6]]}\n' > "$t/lost0.edn"
printf '{:type :ok, :f :txn, :process -3, :index -1, :value [[:w -1 -5] [:w 5 0]]}\n{:type :ok, :f :txn, :process -4, :index -2, :value [[:r -1 -5] [:r 5 0] [:r 6 -7]]}\n' > "$t/neg.edn"
for f in read0 write0 lost0 neg; do roundtrip "$t/$f.edn" "$f.edn"; done
[ "$(summary "$t/read0.edn")" = "FAIL all
thin-air-read" ] || no "read0.edn: $(summary "$t/read0.edn")"
[ "$(summary "$t/write0.edn")" = "PASS ser
PASS si" ] || no "write0.edn: $(summary "$t/write0.edn")"
echo "$(summary "$t/lost0.edn")" | grep -q '^lost-update' || no "lost0.edn: $(summary "$t/lost0.edn")"
err=$("$ISOCHECK" convert --to text "$t/read0.edn" 2>&1 >"$t/read0.txt")
echo "$err" | grep -q 'note: renumbered what text cannot hold: value 0 -> 1' || no "no note on renumbering: $err"
grep -q '^r(1,1,0,0)$' "$t/read0.txt" || no "read0 as text: $(cat "$t/read0.txt")"
# Cobra's markers as values and transaction ids (0xdeadbeef = 3735928559, 0xbebeebee = 3200183278)
printf 'w(1,3735928559,1,3200183278)\nr(1,3735928559,2,2)\nr(2,3200183278,2,2)\n' > "$t/markers.txt"
roundtrip "$t/markers.txt" markers.txt
"$ISOCHECK" convert --to cobra -o "$t/mk" "$t/markers.txt" 2>"$t/err" || no "markers to cobra: $(cat "$t/err")"
grep -q 'renumbered what cobra cannot hold: value 3735928559 -> 1 (and 1 more value); transaction id 3200183278 -> 1' "$t/err" ||
  no "markers note: $(cat "$t/err")"
exit $fail
