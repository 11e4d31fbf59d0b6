# The library reports what `isocheck check` reports: a lost update built
# with include/isocheck.h (tests/link/api_report.c) and the same history
# as a text file get the same report — verdict, anomaly name, the sentence
# that explains it, its cycle and why each edge is forced — apart from
# where each operation came from (API call numbers, file lines).  Both
# levels.
set -e
nice make -s -C "$ROOT" all >/dev/null 2>&1 || { echo "make all failed"; exit 1; }
B="$ROOT/build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -Wall -Wextra -Werror -I"$ROOT/include" -o "$tmp/api_report" "$ROOT/tests/link/api_report.c" \
  "$B/libisocheck.a" "$B/libgsat.a" -lm 2>"$tmp/cc.err" || { echo "cannot build api_report:"; head -20 "$tmp/cc.err"; exit 1; }
printf 'r(1,0,1,1)\nw(1,1,1,1)\nr(1,0,2,2)\nw(1,2,2,2)\n' >"$tmp/lu.txt"
# locations: "[line N]" ("[call N]" in the library's) after an operation, the source column after a session
strip() { sed -e 's/ \[\(line\|call\) [0-9]*\]//g' -e 's/\(session [0-9]*\) .*$/\1/' "$1"; }
for lv in si ser; do
  rc=0; "$tmp/api_report" $lv >"$tmp/api.$lv" || rc=$?
  [ $rc = 1 ] || { echo "library, $lv: exit $rc, expected 1 (FAIL)"; cat "$tmp/api.$lv"; exit 1; }
  rc=0; "$ISOCHECK" check --level $lv "$tmp/lu.txt" >"$tmp/cli.$lv" || rc=$?
  [ $rc = 1 ] || { echo "isocheck check, $lv: exit $rc, expected 1"; cat "$tmp/cli.$lv"; exit 1; }
  grep -q "lost-update (G-single): txn 2 and txn 1 both read 1=init and both wrote 1" "$tmp/api.$lv" ||
    { echo "library, $lv: no lost update explained:"; cat "$tmp/api.$lv"; exit 1; }
  grep -q "forced: txn 1's 1 precedes txn 2's, else the cycle" "$tmp/api.$lv" ||
    { echo "library, $lv: no reason for the forced edge:"; cat "$tmp/api.$lv"; exit 1; }
  grep -q "r(1)=init \[call 2\]  w(1)=1 \[call 3\]" "$tmp/api.$lv" && ! grep -q "\[line" "$tmp/api.$lv" ||
    { echo "library, $lv: operations not named by their calls:"; cat "$tmp/api.$lv"; exit 1; }
  strip "$tmp/api.$lv" >"$tmp/api.$lv.s"; strip "$tmp/cli.$lv" >"$tmp/cli.$lv.s"
  cmp -s "$tmp/api.$lv.s" "$tmp/cli.$lv.s" || { echo "$lv: the library's report differs from the CLI's:"; diff "$tmp/cli.$lv.s" "$tmp/api.$lv.s"; exit 1; }
done
