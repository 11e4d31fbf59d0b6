# Every shape real Jepsen/Elle/IsoVista/JSON histories come in loads, auto-detected,
# with the verdict AND the reason of the canonical form (tests/data/formats/).
d="$ROOT/tests/data/formats"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0

# verdict line, exit code, first anomaly's name and its cycle's edge kinds
sig() {
  out=$("$ISOCHECK" check --level si "$1" 2>/dev/null); rc=$?
  name=$(echo "$out" | sed -n 's/^  1\. \([^:]*\):.*/\1/p')
  kinds=$(echo "$out" | awk '/^     cycle:/{c=1; next} c && /^       txn /{print}' \
          | sed -n 's/^       txn [^ ]* -\(SO\|WR\|WW\|RW\)[ -].*/\1/p' | tr '\n' ,)
  echo "rc=$rc | $(echo "$out" | head -1) | $name | $kinds"
}

want=$(sig "$d/lost-update.edn")
case "$want" in
  "rc=1 | FAIL si: snapshot isolation is violated: 1 anomaly (stage: pruning) | lost-update (G-single) | WW,RW,") ;;
  *) echo "canonical lost update: $want"; fail=1 ;;
esac
for f in "$d"/lost-update*; do
  got=$(sig "$f")
  [ "$got" = "$want" ] || { echo "$(basename "$f"): $got"; echo "  want: $want"; fail=1; }
done
"$ISOCHECK" check "$d/lost-update-strings.edn" | grep -q "txn 3's \"x\"=99999999999999999999999 overwrote txn 2's \"x\"=\"ten\"" \
  || { echo "strings: values not shown as written"; fail=1; }

want=$(sig "$d/list-append.edn")
case "$want" in
  "rc=1 | FAIL si: snapshot isolation is violated: 1 anomaly (stage: known graph) | read-your-writes (G-single-process) | SO,RW,") ;;
  *) echo "list append: $want"; fail=1 ;;
esac
got=$(sig "$d/list-append.json")
[ "$got" = "$want" ] || { echo "list-append.json: $got"; echo "  want: $want"; fail=1; }

# a :f :write op is a transaction: its read is no thin-air read (it was dropped)
grep -v '^;' "$d/write-then-read.edn" > "$t/wr.edn"
for f in "$d/write-then-read.edn" "$t/wr.edn"; do
  out=$("$ISOCHECK" check --level all "$f" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -q '^PASS si:' && echo "$out" | grep -q '^PASS ser:' || { echo "write-then-read: $out"; fail=1; }
done

# no committed transaction: a note, not a bare PASS
err=$("$ISOCHECK" check "$d/no-committed.edn" 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] && [ "$err" = "isocheck: $d/no-committed.edn: note: no committed transaction (1 aborted, 1 indeterminate): there is nothing to check, so any level holds trivially" ] \
  || { echo "no-committed: rc=$rc $err"; fail=1; }

# the load report: stats, check -v
out=$("$ISOCHECK" stats "$d/lost-update-info.edn")
for want_line in 'records  *14 ' 'invocations  *6 ' 'nemesis  *2 ' 'completions_ok  *4 ' 'completions_fail  *1 ' \
                 'completions_info  *1 ' 'from_invocation  *1 ' 'txns  *6 ' 'ops  *8 '; do
  echo "$out" | grep -q "^  $want_line" || { echo "stats lacks /$want_line/: $out"; fail=1; }
done
"$ISOCHECK" check -v "$d/lost-update-isovista.txt" 2>&1 >/dev/null | grep -q '^  init_merged  *2 ' || { echo "check -v: no load report"; fail=1; }

# IsoVista's explicit initial state is merged, with a note
err=$("$ISOCHECK" check "$d/lost-update-isovista.txt" 2>&1 >/dev/null)
echo "$err" | grep -q 'note: transaction 0 (session 0, line 1) writes only the initial value 0: read as the initial state (2 writes merged)' \
  || { echo "isovista: $err"; fail=1; }

# issue 14: a NUL first on the last line hid a lost update's second write (PASS); now bad
# input at that line
{ sed -n '2,4p' "$d/lost-update.txt"; printf '\000'; sed -n '5p' "$d/lost-update.txt"; } > "$t/nul.txt"
err=$("$ISOCHECK" check "$t/nul.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck: $t/nul.txt:4: expected text, found a NUL byte" ] || { echo "nul: rc=$rc $err"; fail=1; }
{ sed -n '4,6p' "$d/lost-update.edn"; printf '  \000'; sed -n '7p' "$d/lost-update.edn"; } > "$t/nul.edn"
err=$("$ISOCHECK" check "$t/nul.edn" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck: $t/nul.edn:4: expected text, found a NUL byte" ] || { echo "nul edn: rc=$rc $err"; fail=1; }

# issue 14: a second :type in one map won and hid the lost update (PASS); now bad input
sed -n '4,7p' "$d/lost-update.edn" | sed '4s/}$/, :type :fail}/' > "$t/twice.edn"
err=$("$ISOCHECK" check "$t/twice.edn" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck: $t/twice.edn:4: key :type appears twice in one map (EDN forbids it)" ] || { echo "twice: rc=$rc $err"; fail=1; }
sed '4s/]]},$/]], "type": "fail"},/' "$d/lost-update.json" > "$t/twice.json"
err=$("$ISOCHECK" check "$t/twice.json" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck: $t/twice.json:4: key \"type\" appears twice in one object" ] || { echo "twice json: rc=$rc $err"; fail=1; }

# issue 14: r(1,-1,1,1) was a thin-air read of -1; a sign is bad input
printf 'w(1,1,1,1)\nr(1,-1,2,2)\n' > "$t/sign.txt"
err=$("$ISOCHECK" check "$t/sign.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "isocheck: $t/sign.txt:2: expected value (digits 0-9, no sign), found '-1,2,2)'" ] || { echo "sign: rc=$rc $err"; fail=1; }

# a Knossos register history is named in an error, not skipped
printf '[{:process 4, :type :invoke, :f :write, :value 2}\n {:process 4, :type :ok, :f :write, :value 2}]\n' > "$t/knossos.edn"
err=$("$ISOCHECK" check "$t/knossos.edn" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "knossos.edn:2: expected a transaction .* found an operation with :f :write and :value 2" \
  || { echo "knossos: rc=$rc $err"; fail=1; }

# dbcop: a committed transaction with a failed op (its COMMIT returned OK): a warning naming
# it; --failed-ops-abort aborts it, and then the read of its write is an aborted read
u64() { v=$1; i=0; while [ $i -lt 8 ]; do printf "\\$(printf %03o $((v & 255)))"; v=$((v >> 8)); i=$((i+1)); done; }
ev() { printf "\\$(printf %03o $1)"; u64 $2; u64 $3; printf "\\$(printf %03o $4)"; }
{ for i in 0 1 2 3 4; do u64 $i; done; u64 0; u64 0; u64 0; u64 2
  u64 1; u64 2; ev 1 1 5 1; ev 0 2 0 0; printf '\001'        # session 1: w(1)=5, a failed read; committed
  u64 1; u64 1; ev 0 1 5 1; printf '\001'                     # session 2: reads 5
} > "$t/failed.bincode"
out=$("$ISOCHECK" check "$t/failed.bincode" 2>"$t/err"); rc=$?
[ $rc -eq 0 ] && grep -q "warning: 1 committed transactions contain failed operations (their COMMIT returned OK after an operation failed): txn 1 ($t/failed.bincode: byte 80)" "$t/err" \
  || { echo "failed ops: rc=$rc $out $(cat "$t/err")"; fail=1; }
out=$("$ISOCHECK" check --failed-ops-abort "$t/failed.bincode" 2>"$t/err"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^  1\. aborted-read' && grep -q 'treated as aborted (--failed-ops-abort)' "$t/err" \
  || { echo "--failed-ops-abort: rc=$rc $out $(cat "$t/err")"; fail=1; }
"$ISOCHECK" stats --failed-ops-abort "$t/failed.bincode" 2>/dev/null | grep -q '^  failed_aborted  *1 ' || { echo "stats --failed-ops-abort"; fail=1; }
{ for i in 0 1 2 3 4; do u64 $i; done; u64 0; u64 0; u64 0; u64 2
  u64 1; u64 2; ev 1 1 5 1; ev 0 2 0 0; printf '\001'
  u64 1; u64 1; ev 0 1 0 1; printf '\001'                     # session 2 reads the initial value
} > "$t/failed2.bincode"
"$ISOCHECK" check --failed-ops-abort --certificate "$t/cert" "$t/failed2.bincode" >/dev/null 2>&1 \
  && out=$("$ISOCHECK" verify --failed-ops-abort "$t/failed2.bincode" "$t/cert") && echo "$out" | grep -q '^VALID si:' \
  || { echo "verify --failed-ops-abort: $out"; fail=1; }
exit $fail
