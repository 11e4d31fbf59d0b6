# More formats (doc/formats.md): dbcop's JSON histories, Viper's per-session
# JSON-lines logs, Plume's/IsoVista's aborted writes (text, transaction id
# -1); stats says which times a history carries; check --json carries the
# version.  Each: the verdict AND the reason; bad input at FILE:LINE, exit 2.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
d="$ROOT/tests/data/formats"
I="$ISOCHECK"
want() {   # FILE LEVEL VERDICT-LINE-PREFIX REASON-PATTERN
  out=$("$I" check --level "$2" "$1" 2>&1); rc=$?
  echo "$out" | head -1 | grep -q "^$3" || { echo "$1: want $3"; echo "$out" | head -5; exit 1; }
  echo "$out" | grep -q -- "$4" || { echo "$1: no '$4'"; echo "$out" | head -8; exit 1; }
}
bad() {    # NAME CONTENT WANT (the whole message after FILE)
  printf "$2" > "$t/$1"
  err=$("$I" check "$t/$1" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || { echo "$1: exit $rc ($err)"; exit 1; }
  [ "$err" = "isocheck: $t/$1$3" ] || { echo "$1: $err"; exit 1; }
}
# ---- dbcop JSON: the standalone file (tagged events) and the raw array (compact)
"$I" stats "$d/dbcop-lost-update.json" | grep -q '^format *json$' || { echo "dbcop json: not detected"; exit 1; }
want "$d/dbcop-lost-update.json" si "FAIL si" "lost-update (G-single): txn 2 and txn 1 both read 0=init"
want "$d/dbcop-aborted-read.json" si "FAIL si" "aborted-read (G1a): txn 3 reads key 1 = 5 written by aborted txn 1"
# a read of 0 is the initial value unless some transaction writes 0 to the key
printf '[[{"events": [["w", 1, 0]], "committed": true}], [{"events": [["r", 1, 0], ["r", 2, 0]], "committed": true}]]' > "$t/z.json"
"$I" convert --to elle "$t/z.json" | grep -q ':value \[\[:r 1 0\] \[:r 2 nil\]\]' || { echo "dbcop json: read of 0"; "$I" convert --to elle "$t/z.json"; exit 1; }
bad dj1.json '[[{"events": [["x", 1, 2]], "committed": true}]]' ':1: expected "r" or "w", found "x"'
bad dj2.json '[[{"events": [["w", 1, 2]]}]]' ':1: expected a transaction {"events": [...], "committed": true|false}, found {"events":[["w",1,2]]}'
bad dj3.json '{"data": [[{"events": [{"Write": {"variable": 1, "version": null}}], "committed": true}]]}' \
  ':1: expected a version (an integer from 0 to 2^63-1), found null'
# ---- text: Plume's and IsoVista's aborted writes (transaction id -1)
want "$d/plume-aborted.txt" si "FAIL si" "aborted-read (G1a): txn 2 reads key 1 = 5 written by aborted txn -1"
out=$("$I" stats "$d/plume-aborted.txt") || exit 1
echo "$out" | grep -q '^  aborted_lines *3 ' && echo "$out" | grep -q '^  aborted_reads *1 ' && echo "$out" | grep -q '^aborted *2$' ||
  { echo "plume: load report"; echo "$out"; exit 1; }
bad ab1.txt 'w(1,1,1,1)\nw(2,5,1,-2)\n' ":2: expected transaction id (digits 0-9, no sign), found '-2)'"
bad ab2.txt 'w(1,0,1,-1)\n' ':1: value 0 is the initial value and cannot be written (also not by an aborted write, transaction id -1)'
"$I" check --follow "$d/plume-aborted.txt" > /dev/null 2>&1; [ $? -eq 2 ] || { echo "follow: -1 accepted"; exit 1; }
# ---- Viper: a directory of J<n>.log (JSON lines), told from Cobra's logs by content
"$I" stats "$d/viper-lost-update" | grep -q '^format *viper$' || { echo "viper: not detected"; exit 1; }
want "$d/viper-lost-update" si "FAIL si" "lost-update (G-single): txn 3 and txn 1 both read 1=init"
want "$d/viper-initial" ser "PASS ser" "satisfies serializability"
# one log alone is detected too: one session (here its second read is of a value nobody in it wrote)
"$I" stats "$d/viper-lost-update/J14.log" | grep -q '^format *viper$' || { echo "viper: one log not detected"; exit 1; }
want "$d/viper-lost-update/J14.log" si "FAIL si" "thin-air-read: txn 2 reads key 1 = 7002, which no transaction wrote"
out=$("$I" stats "$d/viper-initial") || exit 1
echo "$out" | grep -q '^times *invoke complete$' && echo "$out" | grep -q '^  init_merged *2 ' ||
  { echo "viper: times/initial state"; echo "$out"; exit 1; }
# with an initial transaction, a value nobody wrote that is not the initial one is a thin-air read
mkdir "$t/v1" && cp "$d/viper-initial/"*.log "$t/v1/" && echo '{"value": [["r", 1, 424242, false]]}' >> "$t/v1/J2.log"
want "$t/v1" si "FAIL si" "thin-air-read"
# without one, the first unwritten value of a key is its initial value and another one is thin air
mkdir "$t/v2" && printf '{"value": [["r", 5, 77, false]]}\n{"value": [["r", 5, 78, false]]}\n' > "$t/v2/J1.log"
want "$t/v2" si "FAIL si" "thin-air-read"
mkdir "$t/v3" && printf '{"value": [["w", 1, 5, true]]}\n{"value": [["d", 1, 0, 5, false, true]]}\n' > "$t/v3/J1.log"
err=$("$I" check "$t/v3" 2>&1); [ $? -eq 2 ] && [ "$err" = "isocheck: $t/v3/J1.log:2: unsupported: Viper's inserts, deletes and range queries ([\"d\",1,0,5,false,true]); isocheck checks reads and writes of keys" ] ||
  { echo "viper delete: $err"; exit 1; }
mkdir "$t/v4" && printf '{"value": [["w", 1, 5, true]]}\n{"value": [["r", 1, 5]]}\n' > "$t/v4/J1.log"
err=$("$I" check "$t/v4" 2>&1); [ $? -eq 2 ] && [ "$err" = "isocheck: $t/v4/J1.log:2: expected [\"r\", K, V, dead], found [\"r\",1,5]" ] ||
  { echo "viper arity: $err"; exit 1; }
# ---- Elle keyword and string keys converted to text/dbcop/cobra: integer keys the
# history does not use, with a note; the verdict and the reason survive the round trip
cat > "$t/kw.edn" <<'EDN'
{:type :ok, :f :txn, :process 0, :index 1, :value [[:r :x nil] [:w :x 1] [:w 3 5]]}
{:type :ok, :f :txn, :process 1, :index 2, :value [[:r :x nil] [:w :x 2] [:r "y" nil]]}
{:type :ok, :f :txn, :process 2, :index 3, :value [[:r 1 nil] [:w "y" 7]]}
EDN
want "$t/kw.edn" si "FAIL si" "lost-update (G-single): txn 2 and txn 1 both read :x=init and both wrote :x"
for f in text dbcop cobra; do
  err=$("$I" convert --to $f -o "$t/kw.$f" "$t/kw.edn" 2>&1) || { echo "convert $f: $err"; exit 1; }
  [ "$err" = "isocheck convert: note: renumbered what $f cannot hold: key :x -> 2 (and 1 more named key)" ] ||
    { echo "convert $f note: $err"; exit 1; }
  "$I" convert --to elle "$t/kw.$f" > "$t/kw.$f.edn" || exit 1
  want "$t/kw.$f.edn" si "FAIL si" "lost-update (G-single): txn 2 and txn 1 both read 2=init and both wrote 2"
done
grep -qx 'r(1,0,2,3)' "$t/kw.text" && grep -qx 'w(4,7,2,3)' "$t/kw.text" || { echo "kw text: keys"; cat "$t/kw.text"; exit 1; }
want "$t/kw.dbcop" ser "FAIL ser" "lost-update"
# ---- stats names the times; check --json names the version
"$I" stats "$d/lost-update.txt" | grep -q '^times *none$' || { echo "stats: times none"; exit 1; }
"$I" stats --json "$d/times.txt" | grep -q '"times": \["invoke", "complete", "db-start", "db-commit"\]' || { echo "stats --json times"; exit 1; }
v=$(sed -n 's/^#define ISOCHECK_VERSION "\(.*\)"$/\1/p' "$ROOT/include/version.h")
"$I" check --json "$d/lost-update.txt" | grep -q "^{\"isocheck\": 1, \"version\": \"$v\", " || { echo "json: no version"; exit 1; }
exit 0
