#!/bin/sh
# isocheck gen --commit-order-out FILE: the store's own commit order, read
# back by check --commit-order (every format); a corrupted order is caught
# and named (session order, a transaction left out, a read from the future).
fail=0
t() { echo "$1"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case $ISOCHECK in /*) ;; *) ISOCHECK=$(pwd)/$ISOCHECK ;; esac     # the case runs in $tmp
cd "$tmp" || exit 1

# every format, both levels: the order explains the history (ser: a read-only
# transaction at its snapshot, so the order is the store's serialization)
for f in text elle dbcop cobra; do
  for lv in si ser; do
    "$ISOCHECK" gen --sessions 4 --txns 25 --ops 4 --keys 8 --format "$f" --level "$lv" --seed 5 \
      --commit-order-out "$f.$lv.co" -o "$f.$lv" >/dev/null 2>&1 || { t "gen $f $lv failed"; continue; }
    n=$(grep -cv '^#' "$f.$lv.co")
    [ "$n" -eq 100 ] || t "$f $lv: $n ids, not 100"
    out=$("$ISOCHECK" check --white-box-only --level "$lv" --commit-order "$f.$lv.co" "$f.$lv"); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q "^white-box PASS $lv:" && echo "$out" | grep -q "commit order of 100 transactions" \
      || t "$f $lv: the generated order must pass (rc $rc): $out"
  done
done
# SI's order at ser: the history is not serializable in it, and the stale read is named
out=$("$ISOCHECK" check --white-box-only --level all --commit-order text.si.co text.si); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^white-box PASS si:' && echo "$out" | grep -q "^white-box FAIL ser: txn [0-9]* read [0-9]*=[0-9a-z]* (text.si:[0-9]*), but by the commit order the last write of [0-9]* before it is txn [0-9]*'s" \
  || t "si order at ser (rc $rc): $out"

# corrupted: the last transaction first (it commits before its session's earlier ones)
"$ISOCHECK" gen --sessions 6 --txns 40 --ops 4 --keys 6 --level ser --seed 3 --commit-order-out s.co -o s.txt >/dev/null 2>&1 || t "gen s.txt"
last=$(tail -1 s.co)
{ echo "$last"; grep -v "^$last\$" s.co; } > moved.co
out=$("$ISOCHECK" check --white-box-only --level ser --commit-order moved.co s.txt); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL ser: commit order contradicts session order: txn [0-9]* commits after txn $last, which follows it in its session (commit order moved.co: txn [0-9]* at line [0-9]*, txn $last at line 1)" \
  || t "moved (rc $rc): $out"
# a committed transaction left out
grep -v "^$last\$" s.co > short.co
out=$("$ISOCHECK" check --white-box-only --level ser --commit-order short.co s.txt); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL ser: commit order contradicts the history: it leaves out txn $last (s.txt:[0-9]*), which committed" \
  || t "left out (rc $rc): $out"
# a reader swapped before the writer it read from, next to it in the order
# (different sessions, so session order still holds): a read from the future
awk -F'[(,)]' '/^r/ { r[NR] = $2 "," $3 " " $4 " " $5 } /^w/ { w[$2 "," $3] = $4 " " $5 }
  END { for (i in r) { split(r[i], a, " "); if (a[1] in w) { split(w[a[1]], b, " "); if (b[1] != a[2]) print a[3], b[2] } } }' s.txt | sort -u > rf
pair=$(awk 'NR == FNR { rf[$2 " " $1] = 1; next } !/^#/ { if ((prev " " $1) in rf) { print prev, $1; exit } prev = $1 }' rf s.co)
[ -n "$pair" ] || t "no adjacent writer/reader pair in s.co (the case would test nothing)"
w=${pair% *}; r=${pair#* }
awk -v w="$w" -v r="$r" '$1 == w { held = 1; next } { print } held && $1 == r { print w; held = 0 }' s.co > swapped.co
out=$("$ISOCHECK" check --white-box-only --level all --commit-order swapped.co s.txt); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^white-box FAIL ser: txn $r read .*, written by txn $w, which commits after it (commit order swapped.co: txn $r at line [0-9]*, txn $w at line [0-9]*): by the commit order it read from the future" \
  && echo "$out" | grep -q "^white-box FAIL si: txn $r read .*, written by txn $w, which commits after it" \
  || t "swapped $w and $r (rc $rc): $out"
# the options: an existing file is not replaced without --force
"$ISOCHECK" gen --sessions 2 --txns 2 --commit-order-out s.co -o other.txt >/dev/null 2>err; rc=$?
[ $rc -eq 2 ] && [ ! -e other.txt ] && grep -q "s.co" err || t "existing commit order file (rc $rc): $(cat err)"
exit $fail
