# Times (doc/formats.md, "Times"): read from Elle EDN/JSON (:time, :ts), text
# ('#@time' lines) and TimeKiller JSON (sts/cts); carried by convert (elle,
# text) and dropped with a note (dbcop); written by gen --times; every bad time
# is FILE:LINE and exit 2.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
d="$ROOT/tests/data/formats"
for f in times.edn times.json times.txt timekiller.json; do
  "$ISOCHECK" stats "$d/$f" > /dev/null 2>&1 || { echo "stats $f"; exit 1; }
done
# the EDN and its JSON twin read the same times; :info has no completion time
"$ISOCHECK" convert --to elle "$d/times.edn" > "$t/a.edn" || exit 1
"$ISOCHECK" convert --to elle "$d/times.json" > "$t/b.edn" || exit 1
cmp -s "$t/a.edn" "$t/b.edn" || { echo "EDN and JSON twins differ"; diff "$t/a.edn" "$t/b.edn"; exit 1; }
# (every operation has an :index: the positions, Elle's real-time order, not :time)
grep -q '^{:type :invoke, :f :txn, :process 1, :time 2, :value nil}$' "$t/a.edn" || { cat "$t/a.edn"; exit 1; }
grep -q ':index 4, :time 4, :ts {:rts 6, :cts 7}, ' "$t/a.edn" || { cat "$t/a.edn"; exit 1; }
# without :index, :time
grep -v '^;' "$d/times.edn" | sed 's/ :index [0-9]*,//' > "$t/noindex.edn"
"$ISOCHECK" convert --to elle "$t/noindex.edn" | grep -q '^{:type :invoke, :f :txn, :process 1, :time 3000, :value nil}$' ||
  { echo "no :index: not :time"; exit 1; }
grep -q ':index 5, :isocheck/reads' "$t/a.edn" || { echo ":info with a completion time"; cat "$t/a.edn"; exit 1; }
# text -> elle -> text keeps every time
"$ISOCHECK" convert --to elle "$d/times.txt" | "$ISOCHECK" convert --to text - > "$t/back.txt" || exit 1
grep -v '^# ' "$d/times.txt" | cmp -s - "$t/back.txt" || { echo "text round trip"; cat "$t/back.txt"; exit 1; }
# TimeKiller: hybrid clocks as p * 4 + l (the largest l is 3), no real time
"$ISOCHECK" convert --to text "$d/timekiller.json" > "$t/tk.txt" || exit 1
grep -q '^#@time 2 start=6765680381745371 commit=6765680381745400$' "$t/tk.txt" || { cat "$t/tk.txt"; exit 1; }
grep -q 'invoke\|complete' "$t/tk.txt" && { echo "TimeKiller: real times invented"; exit 1; }
"$ISOCHECK" stats "$d/timekiller.json" 2>&1 >/dev/null | grep -q 'note: timestamps: (p, l) written as p \* 4 + l' ||
  { echo "TimeKiller: no note on the encoding"; exit 1; }
# dbcop has no times: dropped, with a note
err=$("$ISOCHECK" convert --to dbcop -o "$t/x.dbcop" "$d/times.txt" 2>&1) || exit 1
[ "$err" = "isocheck convert: note: dropped the times of 2 transactions: the format has no per-transaction times" ] ||
  { echo "dbcop note: $err"; exit 1; }
# bad times: FILE:LINE, exit 2
bad() {   # FILE CONTENT WANT
  printf "$2" > "$t/$1"
  err=$("$ISOCHECK" check "$t/$1" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || { echo "$1: exit $rc"; exit 1; }
  [ "$err" = "isocheck: $t/$1:$3" ] || { echo "$1: $err"; exit 1; }
}
bad b1.txt 'w(1,1,1,1)\n#@time 1 invoke=5 complete=4\n' '2: complete=4 is before invoke=5 (transaction 1)'
bad b2.txt 'w(1,1,1,1)\n#@time 1 invoke=5x\n' "2: expected a blank before the next field, found 'x'"
bad b3.txt 'w(1,1,1,1)\n#@time 9 invoke=5\n' '2: times for transaction 9, which has no operation in the file'
bad b4.edn '{:type :invoke, :process 0, :time 9, :value nil}\n{:type :ok, :process 0, :time 8, :value [[:w 1 1]]}\n' \
  "2: completion :time 8 is before its invocation's :time 9 (a transaction cannot complete before it is invoked)"
bad b5.json '[{"tid": 1, "sid": 1, "sts": {"p": 9}, "cts": {"p": 8}, "ops": []}]' \
  '1: start timestamp (9, 0) is after commit timestamp (8, 0) (a transaction commits after it starts)'
# gen --times: text and elle carry them, read back; dbcop refuses
"$ISOCHECK" gen --times --sessions 4 --txns 20 --ops 4 --keys 30 --no-truth -o "$t/g.txt" || exit 1
n=$(grep -c '^#@time [0-9]* invoke=[0-9]* complete=[0-9]* start=[0-9]* commit=[0-9]*$' "$t/g.txt")
[ "$n" = 80 ] || { echo "gen --times: $n time lines, want 80"; exit 1; }
"$ISOCHECK" check "$t/g.txt" | grep -q '^PASS si' || { echo "gen --times: not read back"; exit 1; }
# the same run in elle (read-only, so nothing aborts and text can hold it all): the same times
g="--times --reads 1 --sessions 4 --txns 20 --ops 4 --keys 30 --no-truth"
"$ISOCHECK" gen $g -o "$t/r.txt" && "$ISOCHECK" gen $g --format elle -o "$t/r.edn" || exit 1
"$ISOCHECK" convert --to text "$t/r.edn" > "$t/r2.txt" || exit 1
grep '^#@time' "$t/r.txt" | sort > "$t/t1"; grep '^#@time' "$t/r2.txt" | sort > "$t/t2"
[ "$(wc -l < "$t/t1")" = 80 ] && cmp -s "$t/t1" "$t/t2" || { echo "gen --times: elle and text differ"; diff "$t/t1" "$t/t2" | head; exit 1; }
err=$("$ISOCHECK" gen --times --format dbcop -o "$t/g.dbcop" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck gen: --times: dbcop has no per-transaction times (use text or elle)" ] ||
  { echo "gen --times dbcop: $rc $err"; exit 1; }
exit 0
