# Predicate reads and updates in the text format (doc/formats.md, "Predicate
# reads in text"; frontend/formats/text_pred.h): verdicts and reasons naming
# the predicate, bad input at FILE:LINE (exit 2), Elle's closed-predicate
# histories converted to text keeping their predicates, --follow refusing.
d="$ROOT/tests/data/formats"
p="$ROOT/tests/data/predicates"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "$1"; echo "$2"; exit 1; }

# Clark et al.'s Fig. 4 in text: not serializable, the read named with its predicate
out=$("$ISOCHECK" check --level ser "$d/pred-fig4.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "predicate-miss: txn 3's predicate read of \`value < 5\` missed key 1, which the same transaction read as 4" ||
  fail "pred-fig4 ser: exit $rc" "$out"
# phantoms: si passes, ser names both predicate reads
"$ISOCHECK" check --level si "$d/pred-phantom.txt" > /dev/null 2>&1 || fail "pred-phantom si: expected PASS" ""
out=$("$ISOCHECK" check --level ser "$d/pred-phantom.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "phantom: txn 1's predicate read of \`value < 5\` missed txn 2's insert of key 2 = 2 (it saw key 2 unborn, which does not match)" ||
  fail "pred-phantom ser: exit $rc" "$out"
# predicate updates: a lost update at si, in text and in its JSON twin
for f in pred-update.txt pred-update.json; do
  out=$("$ISOCHECK" check --level si "$d/$f" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "lost-update (G-single): txn 2 and txn 1 both read \"*1\"*=init" || fail "$f si: exit $rc" "$out"
done
"$ISOCHECK" check --level si,ser "$d/pred-serial.txt" > /dev/null 2>&1 || fail "pred-serial: expected PASS" ""
# a declared key range: inserts outside it are no phantoms; inside, the phantom names the range
"$ISOCHECK" check --level si,ser "$d/pred-keys.txt" > /dev/null 2>&1 || fail "pred-keys: expected PASS" ""
out=$("$ISOCHECK" check --level ser "$d/pred-keys-phantom.txt" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "phantom: txn 1's predicate read of \`key in 1..20 and value < 5\` missed txn 2's insert of key 11 = 2" ||
  fail "pred-keys-phantom ser: exit $rc" "$out"
# the same in Elle's EDN and JSON ([:and [:key-in a b] PRED], doc/formats.md)
for f in pred-keys.edn pred-keys.json; do
  "$ISOCHECK" check --level si,ser "$d/$f" > /dev/null 2>&1 || fail "$f: expected PASS" ""
done
for f in pred-keys-phantom.edn pred-keys-phantom.json; do
  "$ISOCHECK" check --level si "$d/$f" > /dev/null 2>&1 || fail "$f si: expected PASS" ""
  out=$("$ISOCHECK" check --level ser "$d/$f" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "predicate read of \`key in 1..20 and value < 5\` missed txn" ||
    fail "$f ser: exit $rc" "$out"
done
# convert --to elle keeps the key range; read back, the verdict is the same
"$ISOCHECK" convert --to elle "$d/pred-keys-phantom.txt" -o "$t/keys.edn" > /dev/null 2>&1 || fail "convert keys: failed" ""
grep -qF '[:rp [:and [:key-in 1 20] [:< 5]] {}]' "$t/keys.edn" || fail "convert keys: no key range" "$(cat "$t/keys.edn")"
out=$("$ISOCHECK" check --level ser "$t/keys.edn" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qF "key in 1..20 and value < 5" || fail "keys.edn ser: exit $rc" "$out"
printf '{:type :ok, :f :txn, :value [[:w 1 1]]}\n{:type :ok, :f :txn, :value [[:rp [:and [:key-in 9 3] [:< 5]] {}]]}\n' > "$t/badkeys.edn"
out=$("$ISOCHECK" check "$t/badkeys.edn" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "badkeys.edn:2: expected a key range and a predicate" || fail "badkeys.edn: exit $rc" "$out"

# bad input: FILE:LINE, exit 2, nothing else
printf 'w(1,1,1,1)\nrp(c < 5,{1:1,1:1},2,2)\n' > "$t/bad.txt"
out=$("$ISOCHECK" check "$t/bad.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$out" = "isocheck: $t/bad.txt:2: key 1 appears twice in the result set" ] || fail "bad.txt: exit $rc" "$out"
printf 'w(1,1,1,1)\nup(c < 5,{1:1},2,2)\n' > "$t/bad2.txt"
out=$("$ISOCHECK" check "$t/bad2.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "bad2.txt:2: expected '->' and the new value" || fail "bad2.txt: exit $rc" "$out"

# Elle's closed-predicate histories to text: the predicates are kept
for f in clark-fig4 phantom-ser g2-unseen-write pred-miss; do
  "$ISOCHECK" convert --to text -o "$t/$f.txt" "$p/$f.edn" > /dev/null 2>&1 || fail "convert $f: exit $?" ""
  grep -q '^rp(' "$t/$f.txt" || fail "convert $f: no rp line" "$(cat "$t/$f.txt")"
  for l in si ser; do
    a=$("$ISOCHECK" check --level $l "$p/$f.edn" 2>&1 | head -1); b=$("$ISOCHECK" check --level $l "$t/$f.txt" 2>&1 | head -1)
    [ "$a" = "$b" ] || fail "$f at $l: EDN '$a', text '$b'" ""
  done
done
out=$("$ISOCHECK" check --level ser "$t/clark-fig4.txt" 2>&1)
echo "$out" | grep -qF "predicate read of \`value < 5\` missed key 1, which the same transaction read as 4" || fail "clark-fig4 as text" "$out"
out=$("$ISOCHECK" check --level ser "$t/phantom-ser.txt" 2>&1)
echo "$out" | grep -qF "phantom: txn 0's predicate read of \`value < 5\` missed txn 1's insert of key 2 = 2" || fail "phantom-ser as text" "$out"
# text back to text: the same lines
"$ISOCHECK" convert --to text -o "$t/again.txt" "$t/phantom-ser.txt" > /dev/null 2>&1 && cmp -s "$t/phantom-ser.txt" "$t/again.txt" ||
  fail "text to text changed" "$(diff "$t/phantom-ser.txt" "$t/again.txt")"
# text to Elle (write_elle.c: :init, [:rp ...]) and back: the same answers
for f in pred-update pred-phantom pred-fig4; do
  "$ISOCHECK" convert --to elle -o "$t/$f.edn" "$d/$f.txt" > /dev/null 2>&1 && grep -q ':rp ' "$t/$f.edn" || fail "$f to elle" "$(cat "$t/$f.edn")"
  for l in si ser; do
    a=$("$ISOCHECK" check --level $l "$d/$f.txt" 2>&1 | head -2); b=$("$ISOCHECK" check --level $l "$t/$f.edn" 2>&1 | head -2)
    [ "$(echo "$a" | sed 's/\.txt/.edn/g')" = "$(echo "$b" | sed "s|$t|$d|g")" ] || fail "$f at $l: text '$a', elle '$b'" ""
  done
done
grep -qF '{:type :ok, :f :init, :value {1 1, 2 7}}' "$t/pred-update.edn" || fail "pred-update.edn: no :init" "$(cat "$t/pred-update.edn")"
# formats without predicate reads refuse, leaving nothing behind
out=$("$ISOCHECK" convert --to dbcop -o "$t/x.dbcop" "$d/pred-phantom.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$t/x.dbcop" ] && echo "$out" | grep -qF "cannot write predicate reads" || fail "convert dbcop: exit $rc" "$out"
# deletes have no text form
out=$("$ISOCHECK" convert --to text -o "$t/y.txt" "$p/g1c-unseen-delete.edn" 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$t/y.txt" ] || fail "convert delete: exit $rc" "$out"
# --follow cannot follow them
out=$(timeout 20 "$ISOCHECK" check --follow --level si "$d/pred-phantom.txt" 2>&1 < /dev/null); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "pred-phantom.txt:3: predicate reads (rp, up, init lines) cannot be followed" ||
  fail "follow: exit $rc" "$out"
exit 0
