# isocheck check --follow on Elle EDN and JSON lines, read in increments
# (frontend/online/elle_stream.h): only the lines that arrived are parsed;
# what would read differently in pieces (an invocation in one piece, its
# completion without micro-ops in the next; named values; no :index; a
# JSON array) hands over to the whole re-parse.  Either way: the exit code
# and final report of the batch check of the same bytes (when nothing was
# detected on the way), and, on the increments, the parsed bytes left
# memory ("N of them out of memory" in -v).
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# feed FILE in three pieces (at lines N/3 and 2N/3) through a pipe; $out, $err, $frc
feed() {
  n=$(wc -l < "$1")
  out=$( (head -n $((n / 3)) "$1"; sleep 0.1; sed -n "$((n / 3 + 1)),$((2 * n / 3))p" "$1"; sleep 0.1
          tail -n +$((2 * n / 3 + 1)) "$1") | "$ISOCHECK" check -v --follow - $2 2> "$t/err"); frc=$?
  err=$(cat "$t/err")
}
# same NAME FILE [increments|whole] [check options]: the follow run ends as the batch check does
same() {
  "$ISOCHECK" check $4 - < "$2" > "$t/batch"; brc=$?
  batch=$(sed 's/^\( *txn [0-9]* *session [0-9]* *\)-:/\1F:/' "$t/batch")
  feed "$2" "$4"
  final=$(echo "$out" | sed -n '/^END after/,$p' | tail -n +2 | sed 's/^\( *txn [0-9]* *session [0-9]* *\)-:/\1F:/')
  [ "$brc" = "$frc" ] || { echo "$1: exit $frc, batch $brc"; echo "$err"; exit 1; }
  if ! echo "$out" | grep -q '^DETECTED'; then
    [ "$batch" = "$final" ] || { echo "$1: final report differs from batch:"; echo "$final"; echo "batch:"; echo "$batch"; exit 1; }
  fi
  spilled=$(echo "$err" | sed -n 's/.* bytes read, \([0-9]*\) of them out of memory.*/\1/p')
  case $3 in
    increments)   # (a violation proven at the first check stops the spilling: only a run without one tells)
      echo "$out" | grep -q '^DETECTED' ||
        [ "${spilled:-0}" -gt 0 ] || { echo "$1: not read in increments: $err"; exit 1; } ;;
    whole) [ "${spilled:-0}" = 0 ] || { echo "$1: read in increments: $err"; exit 1; } ;;
  esac
}
for spec in "si none 1" "si lost-update 5" "si long-fork 6" "ser none 10" "si causality 7"; do
  set -- $spec
  "$ISOCHECK" gen --sessions 6 --txns 60 --ops 5 --keys 30 --seed "$3" --level "$1" --fault "$2" --fault-rate 0.05 \
    --format elle -o "$t/h.edn" --no-truth --force >/dev/null 2>&1 || { echo "gen $spec failed"; exit 1; }
  same "$spec" "$t/h.edn" increments
  same "$spec ser" "$t/h.edn" increments "--level ser"
done
"$ISOCHECK" gen --sessions 6 --txns 60 --ops 5 --keys 30 --seed 3 --level si --format elle -o "$t/c.edn" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
n=$(wc -l < "$t/c.edn")
# a history wrapped in a vector, maps spanning two lines: read in increments, same answer
{ echo '['; sed 's/, :value /,\n :value /' "$t/c.edn"; echo ']'; } > "$t/w.edn"
same "vector, maps over two lines" "$t/w.edn" increments
# an invocation with writes in the first piece, its :info completion without micro-ops in the next,
# read by a later transaction: the completion takes the invocation's writes, as in batch
{ echo '{:type :invoke, :f :txn, :process 900, :index 900000, :value [[:w 1 900001] [:w 2 900002]]}'
  head -n $((n / 3 - 1)) "$t/c.edn"
  echo '{:type :info, :f :txn, :process 900, :index 900001, :value nil}'
  sed -n "$((n / 3)),\$p" "$t/c.edn"
  echo '{:type :ok, :f :txn, :process 901, :index 900002, :value [[:r 1 900001] [:r 2 900002]]}'; } > "$t/i.edn"
same "invocation, then :info without micro-ops" "$t/i.edn" whole
grep -q 'r 1 900001' "$t/i.edn" && "$ISOCHECK" check "$t/i.edn" >/dev/null || { echo "i.edn does not pass in batch"; exit 1; }
# string values (named): the whole re-parse
sed '$s/.*/{:type :ok, :f :txn, :process 7, :index 999999, :value [[:w 3 "x"]]}/' "$t/c.edn" > "$t/s.edn"
same "a string value" "$t/s.edn" whole
# no :index (ids are positions in the input)
sed 's/:index [0-9]*, //' "$t/c.edn" > "$t/x.edn"
same "no :index" "$t/x.edn" whole
# JSON lines: increments; a JSON array: the whole re-parse
"$ISOCHECK" gen --sessions 6 --txns 60 --ops 5 --keys 30 --seed 3 --level si --format elle -o "$t/j.edn" --no-retry \
  --no-truth --force >/dev/null 2>&1 || exit 1
sed -e 's/, :isocheck\/reads :observed//' \
    -e 's/{:type :\([a-z]*\), :f :txn, :process \([0-9]*\), :index \([0-9]*\), :value /{"type": "\1", "f": "txn", "process": \2, "index": \3, "value": /' \
    -e 's/\[:\([rw]\) /["\1", /g' -e 's/ \([0-9]*\) \([0-9]*\|nil\)\]/ \1, \2]/g' -e 's/nil/null/g' -e 's/\] \[/], [/g' -e 's/\]}$/]}/' "$t/j.edn" > "$t/j.json"
"$ISOCHECK" check "$t/j.json" >/dev/null 2>&1; [ $? = 2 ] && { echo "j.json does not read: $(head -c 300 "$t/j.json")"; exit 1; }
same "JSON lines" "$t/j.json" increments
{ echo '['; sed '$!s/$/,/' "$t/j.json"; echo ']'; } > "$t/a.json"
same "JSON array" "$t/a.json" whole
exit 0
