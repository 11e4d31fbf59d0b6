# rc with repeated values: a transaction's reads of a key may see different
# versions (rc allows non-repeatable reads), also two different writes of one
# value; each later read is a choice of its own (doc/checker.md, "Later reads
# of the same key"), and the certificate's read line names each read's
# writer.  Verdict AND reason each time.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# txn 1 and txn 3 both write key 1 = 5; txn 4 reads key 1 = 5 twice.  rc holds
# only if its first read saw txn 1's 5 and its second txn 3's (it read key 5
# from txn 3 in between, and txn 1 precedes txn 3: txn 3 reads txn 1's key 2)
printf 'w(1,5,1,1)\nw(2,7,1,1)\nw(3,4,2,2)\nw(4,3,2,2)\nr(2,7,3,3)\nr(3,4,3,3)\nw(1,5,3,3)\nw(5,1,3,3)\nw(4,8,3,3)\nr(1,5,4,4)\nr(4,3,4,4)\nr(5,1,4,4)\nr(1,5,4,4)\n' > "$t/h.txt"
out=$("$ISOCHECK" check --level rc,ra --certificate "$t/c.txt" "$t/h.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "PASS rc: the history satisfies read committed (certificate: $t/c.txt)" &&
  echo "$out" | grep -qF "FAIL ra: read atomic is violated" &&
  echo "$out" | grep -qF "whichever write of its value each of the 1 reads of a repeated value saw, the level fails" ||
  { echo "check: exit $rc"; echo "$out"; exit 1; }
grep -qx 'read 4 1 1 3' "$t/c.txt" || { echo "expected one writer per read"; cat "$t/c.txt"; exit 1; }
out=$("$ISOCHECK" verify "$t/h.txt" "$t/c.txt" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -qF "VALID rc: the certificate proves read committed" || { echo "verify: exit $rc"; echo "$out"; exit 1; }
line=$(grep -n '^read ' "$t/c.txt" | cut -d: -f1)
bad() {   # name line-replacement pattern
  sed "s/^read 4 1 .*/$2/" "$t/c.txt" > "$t/b.txt"
  out=$("$ISOCHECK" verify "$t/h.txt" "$t/b.txt" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF -- "$3" || { echo "$1: exit $rc, want /$3/"; echo "$out"; exit 1; }
}
bad "both from txn 1" "read 4 1 1 1" "txn 4 reads key 1 at $t/h.txt:13 from txn 1 although txn 3, which it read another key from before, writes the key after it in the commit order"
bad "one writer for both" "read 4 1 1" "txn 4 reads key 1 at $t/h.txt:13 from txn 1 although txn 3"
bad "three writers" "read 4 1 1 3 3" "b.txt:$line: the read line of txn 4 and key 1 names 3 writers, not one per external read of the key"
bad "a writer of another value" "read 4 1 1 2" "b.txt:$line: the read at $t/h.txt:13 shows a writer (named by its 'read' line) that did not install that value"
# ra (one version a transaction): the same line is rejected
sed 's/^level rc$/level ra/' "$t/c.txt" > "$t/ra.txt"
out=$("$ISOCHECK" verify "$t/h.txt" "$t/ra.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "INVALID ra: " || { echo "ra: exit $rc"; echo "$out"; exit 1; }
# a later read of another repeated value than the read before it (a non-repeatable read): rc holds, ra fails
printf 'w(1,5,1,1)\nw(1,6,2,2)\nw(1,5,3,3)\nw(1,6,4,4)\nr(1,5,5,5)\nr(1,6,5,5)\n' > "$t/nr.txt"
out=$("$ISOCHECK" check --level rc,ra --certificate "$t/nr.cert" "$t/nr.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "PASS rc: " && echo "$out" | grep -qF "FAIL ra: " && echo "$out" | grep -qF "non-repeatable" ||
  { echo "non-repeatable: exit $rc"; echo "$out"; exit 1; }
grep -qE '^read 5 1 [13] [24]$' "$t/nr.cert" && "$ISOCHECK" verify "$t/nr.txt" "$t/nr.cert" | grep -qF "VALID rc" ||
  { echo "non-repeatable certificate"; cat "$t/nr.cert"; exit 1; }
exit 0
