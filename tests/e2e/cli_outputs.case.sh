# Output safety (io/output.h): a failed write never removes anything
# of the user's, no output overwrites an input, gen does not replace files
# without --force, a Cobra directory is not mixed with old logs, and
# writes to a full disk (/dev/full) are errors, on files and on stdout.
d="$ROOT/tests/data/anomalies"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
leftovers() { ls -A "$1" | grep -q 'isocheck-' && no "temporary file left in $1: $(ls -A "$1")"; }

# -- a refused or failed convert keeps the target as it was --------------------
# (an aborted transaction cannot be written in text)
printf '{:type :fail, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n{:type :ok, :f :txn, :process 1, :index 2, :value [[:r 1 nil]]}\n' > "$t/ab.edn"
echo precious > "$t/keep.txt"
err=$("$ISOCHECK" convert --to text -o "$t/keep.txt" "$t/ab.edn" 2>&1); rc=$?
[ $rc -eq 2 ] || no "refused convert: exit $rc"
echo "$err" | grep -q 'cannot write an aborted transaction' || no "refused convert: $err"
[ "$(cat "$t/keep.txt")" = precious ] || no "a refused convert changed or removed the target"
leftovers "$t"
# a device is written in place and never removed (as root, /dev/full used to be deleted)
if [ -c /dev/full ]; then
  err=$("$ISOCHECK" convert --to text -o /dev/full "$d/write_skew.txt" 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q '/dev/full: write error: No space left on device' || no "convert to /dev/full: exit $rc: $err"
  [ -c /dev/full ] || no "/dev/full is gone"
  err=$("$ISOCHECK" convert --to text -o /dev/full "$t/ab.edn" 2>&1); rc=$?
  [ $rc -eq 2 ] && [ -c /dev/full ] || no "refused convert to /dev/full: exit $rc, $(ls -l /dev/full 2>&1)"
fi
# a successful convert replaces the file, keeping its mode
"$ISOCHECK" convert --to text "$d/write_skew.txt" > "$t/h.txt" || no "convert to stdout failed"
chmod 640 "$t/keep.txt"
"$ISOCHECK" convert --to text -o "$t/keep.txt" "$t/h.txt" || no "convert onto an existing file failed"
cmp -s "$t/keep.txt" "$t/h.txt" || no "convert result differs from the text input"
[ "$(stat -c %a "$t/keep.txt")" = 640 ] || no "mode not kept: $(stat -c %a "$t/keep.txt")"
leftovers "$t"

# -- no output over an input, by inode and not by name ------------------------
cp "$t/h.txt" "$t/h.bak"
ln "$t/h.txt" "$t/hard.txt"
for args in "check --certificate $t/h.txt $t/h.txt" "check --dot $t/h.txt $t/h.txt" \
            "check --level ser --dot=$t/./h.txt $t/h.txt" "encode --gnf -o $t/hard.txt $t/h.txt" \
            "convert --to text -o $t/hard.txt $t/h.txt" "convert --to dbcop -o $t/../$(basename "$t")/h.txt $t/h.txt" \
            "decode -o $t/h.txt $t/h.txt $t/h.bak"; do
  err=$("$ISOCHECK" $args 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'this output is the input' || no "isocheck $args: exit $rc: $err"
done
cmp -s "$t/h.txt" "$t/h.bak" || no "an input was overwritten"
# the input read from standard input ("-", /dev/stdin, /proc/self/fd/0) is the same file
for args in "check --certificate $t/h.txt -" "check --certificate /proc/self/fd/0 -" "check --dot /dev/stdin -" \
            "check --certificate $t/hard.txt /dev/stdin" "encode --cnf tc -o $t/h.txt -" "convert --to text -o /dev/stdin -" \
            "convert --to dbcop -o $t/h.txt /proc/self/fd/0" "decode -o $t/h.txt $t/h.bak -"; do
  err=$("$ISOCHECK" $args 2>&1 < "$t/h.txt"); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'this output is the input' || no "isocheck $args < h.txt: exit $rc: $err"
done
# standard output appended to the input
err=$("$ISOCHECK" check "$t/h.txt" 2>&1 >> "$t/h.txt"); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'standard output is the input' || no "check h.txt >> h.txt: exit $rc: $err"
cmp -s "$t/h.txt" "$t/h.bak" || no "an input read from standard input was overwritten"
# a certificate into the pipe the history comes from: refused, not a hang
err=$(cat "$t/h.txt" | timeout 20 "$ISOCHECK" check --certificate /dev/stdin - 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'this output is the input (standard input), a pipe' ||
  no "cat h | check --certificate /dev/stdin -: exit $rc: $err"
err=$("$ISOCHECK" check --certificate "$t/c" --dot "$t/./c" "$t/h.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'given for two outputs' || no "same file for two outputs: exit $rc: $err"
# a Cobra input directory: nothing may be written inside it, and it may not be inside the output directory
mkdir "$t/logs"
"$ISOCHECK" convert --to cobra -o "$t/logs" "$t/h.txt" || no "convert to cobra failed"
for args in "convert --to text -o $t/logs/T0.log $t/logs" "convert --to text -o $t/logs/new.txt $t/logs" \
            "check --certificate $t/logs/cert $t/logs" "convert --to cobra --force -o $t/logs $t/logs/T1.log"; do
  err=$("$ISOCHECK" $args 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'refusing' || no "isocheck $args: exit $rc: $err"
done
[ "$(ls "$t/logs")" = "T0.log
T1.log" ] || no "the input directory changed: $(ls "$t/logs")"

# -- Cobra output directories ---------------------------------------------------
err=$("$ISOCHECK" convert --to cobra -o "$t/logs" "$d/lost_update.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'not empty' || no "non-empty cobra directory: exit $rc: $err"
printf 'S' > "$t/logs/T7.log"; echo notes > "$t/logs/README"
"$ISOCHECK" convert --to cobra --force -o "$t/logs" "$d/lost_update.txt" 2>/dev/null || no "--force into a cobra directory failed"
[ ! -e "$t/logs/T7.log" ] || no "--force left an old log that reads back as a session"
[ "$(cat "$t/logs/README")" = notes ] || no "--force removed a file that is not a log"
want=$("$ISOCHECK" stats "$d/lost_update.txt" | sed '/load report/,$d' | grep -v '^format'); got=$("$ISOCHECK" stats "$t/logs" | sed '/load report/,$d' | grep -v '^format')
[ "$got" = "$want" ] || no "cobra round trip after --force: $got"
out=$("$ISOCHECK" check "$t/logs"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'lost-update' || no "cobra after --force: exit $rc: $out"
leftovers "$t/logs"
# a failed cobra write into a new directory leaves nothing behind
err=$("$ISOCHECK" convert --to cobra -o "$t/new" "$t/ab.edn" 2>&1)
[ $? -eq 0 ] || no "aborted transactions to cobra: $err"
printf '{:type :info, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n' > "$t/info.edn"
"$ISOCHECK" convert --to cobra -o "$t/new2" "$t/info.edn" 2>/dev/null && no "indeterminate txn written to cobra"
[ ! -e "$t/new2" ] || no "a refused cobra convert left $t/new2"

# -- gen does not replace files without --force ---------------------------------
g() { "$ISOCHECK" gen --sessions 2 --txns 5 --ops 3 --keys 5 "$@"; }
echo notes > "$t/notes.txt"
err=$(g -o "$t/notes.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'exists; not replaced' || no "gen over a file: exit $rc: $err"
[ "$(cat "$t/notes.txt")" = notes ] && [ ! -e "$t/notes.txt.truth" ] || no "gen touched notes.txt or wrote its .truth"
g -o "$t/g.txt" || no "gen to a new file failed"
echo mine > "$t/g.txt.truth"
err=$(g --seed 2 -o "$t/g2.txt" --truth "$t/g.txt.truth" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$t/g.txt.truth")" = mine ] && [ ! -e "$t/g2.txt" ] || no "gen over an existing truth file: exit $rc: $err"
g --force -o "$t/notes.txt" || no "gen --force failed"
grep -q '^[rw](' "$t/notes.txt" && grep -q '"level"' "$t/notes.txt.truth" || no "gen --force did not replace the file"
err=$(g -o "$t/same" --truth "$t/same" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'given for two outputs' || no "gen -o X --truth X: exit $rc: $err"
# dbcop to a device spools in $TMPDIR (else /tmp), and leaves nothing there
mkdir "$t/spool"
TMPDIR="$t/spool" g --format dbcop -o /dev/null || no "gen dbcop to /dev/null with TMPDIR failed"
[ -z "$(ls -A "$t/spool")" ] || no "gen dbcop left in TMPDIR: $(ls -A "$t/spool")"
err=$(TMPDIR="$t/no/such" g --format dbcop -o /dev/null 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "$t/no/such: cannot create a temporary file" || no "gen dbcop, TMPDIR missing: exit $rc: $err"
TMPDIR= g --format dbcop -o /dev/null || no "gen dbcop with an empty TMPDIR (/tmp) failed"
mkdir "$t/gc"; touch "$t/gc/T3.log"
err=$(g --format cobra -o "$t/gc" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'not empty' || no "gen cobra into a non-empty directory: exit $rc: $err"
g --format cobra --force -o "$t/gc" || no "gen cobra --force failed"
[ ! -e "$t/gc/T3.log" ] || no "gen cobra --force left an old log"
leftovers "$t"

# -- unwritable outputs: exit 2 whatever the verdict -----------------------------
for lv in si ser; do           # write skew passes si, fails ser
  err=$("$ISOCHECK" check --level $lv --dot "$t/no/such/dir.dot" "$d/write_skew.txt" 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'no/such/dir.dot' || no "unwritable --dot at $lv: exit $rc: $err"
done
if [ -c /dev/full ]; then
  err=$("$ISOCHECK" check --level ser --dot /dev/full "$d/write_skew.txt" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'No space left' || no "--dot /dev/full on FAIL: exit $rc: $err"
  err=$("$ISOCHECK" check --certificate /dev/full "$d/write_skew.txt" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q 'No space left' || no "--certificate /dev/full: exit $rc: $err"
  # standard output on a full disk
  for args in "check --json $d/write_skew.txt" "check --level ser $d/write_skew.txt" "check $d/write_skew.txt" "stats $d/write_skew.txt" \
              "stats --json $d/write_skew.txt" "convert --to elle $d/write_skew.txt" "encode --gnf $d/write_skew.txt"; do
    err=$("$ISOCHECK" $args 2>&1 >/dev/full); rc=$?
    [ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q 'isocheck[a-z ]*: error writing standard output: No space left on device' ||
      no "isocheck $args > /dev/full: exit $rc: $err"
  done
  # outputs longer than stdio's buffer: the failed write's errno is gone by the time the program
  # checks standard output, and the reason is still given
  g --sessions 10 --txns 40 --seed 3 -o "$t/m.txt" 2>/dev/null && "$ISOCHECK" encode --gnf "$t/m.txt" > "$t/m.gnf" || no "no GNF to test with"
  for cmd in "$GSAT --to-cnf rank $t/m.gnf" "$GSAT --to-cnf ve $t/m.gnf" "$ISOCHECK encode --gnf $t/m.txt" \
             "$ISOCHECK encode --cnf rank $t/m.txt" "$ISOCHECK convert --to elle $t/m.txt"; do
    err=$($cmd 2>&1 >/dev/full); rc=$?
    [ $rc -eq 2 ] && echo "$err" | grep -q 'error writing standard output: No space left on device' || no "$cmd > /dev/full: exit $rc: $err"
  done
  printf 'p cnf 3 2\n1 2 0\n-1 3 0\n' > "$t/s.cnf"
  for args in "$t/s.cnf" "-n $t/s.cnf" "-v $t/s.cnf" "--to-cnf tc $t/s.cnf"; do
    err=$("$GSAT" $args 2>&1 >/dev/full); rc=$?
    [ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q 'gsat: error writing standard output: No space left on device' ||
      no "gsat $args > /dev/full: exit $rc: $err"
  done
fi
# a size limit (SIGXFSZ ignored: the write fails with EFBIG) names its reason, for a file and for stdout
sh -c "trap '' XFSZ; ulimit -f 64; \"$ISOCHECK\" encode --gnf -o \"$t/fz.gnf\" \"$t/m.txt\"" > "$t/fz.err" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'fz.gnf: write error: File too large' "$t/fz.err" || no "encode -o past a size limit: exit $rc: $(cat "$t/fz.err")"
sh -c "trap '' XFSZ; ulimit -f 64; \"$GSAT\" --to-cnf rank \"$t/m.gnf\" > \"$t/fz.cnf\"" > "$t/fz.err" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'gsat: error writing standard output: File too large' "$t/fz.err" || no "gsat --to-cnf past a size limit: exit $rc: $(cat "$t/fz.err")"
[ ! -e "$t/fz.gnf" ] || no "a failed encode left its target"
leftovers "$t"
exit $fail
