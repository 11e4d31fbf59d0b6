# isocheck check --follow with a reader thread (--threads 2: it reads and
# parses while the checks run; frontend/online/follow_pipe.h): every
# answer is the single-threaded one (--threads 1) and the batch one — a
# writer that pauses, a violation found by the threaded path, a question
# about a value written twice answered by the idle checker, a value that
# is written twice, input that ends inside a line — and a signal stops the
# run while the reader thread waits on the pipe.
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; exec 3>&- 2>/dev/null; rm -rf "$t"' EXIT
fail=0
# pieces FILE N: FILE's lines in N pieces, 0.3 s apart (the reader thread starts after the first)
pieces() {
  n=$(wc -l < "$1"); step=$(( (n + $2 - 1) / $2 )); i=1
  while [ $i -le "$n" ]; do sed -n "$i,$((i + step - 1))p" "$1"; sleep 0.3; i=$((i + step)); done
}
# same NAME FILE N: followed through a pipe in N pieces with 2 threads and with 1: the same exit
# code and final report as the batch check; -v of the 2-thread run in $t/NAME.err2
same() {
  b=$("$ISOCHECK" check --level si "$2" 2>&1); brc=$?
  b=$(echo "$b" | sed "s#$2#-#g")
  for th in 2 1; do
    out=$(pieces "$2" "$3" | "$ISOCHECK" check -v --level si --threads $th --follow - 2> "$t/$1.err$th"); rc=$?
    if [ $rc = 2 ]; then final=$(grep -v '^isocheck: follow:\|^load report\|^  [a-z]' "$t/$1.err$th")
    else final=$(echo "$out" | sed -n '/^END after/,$p' | sed 1d); fi
    [ $rc = $brc ] || { echo "$1, $th threads: exit $rc, batch $brc: $out $(cat "$t/$1.err$th")"; fail=1; }
    [ "$final" = "$b" ] || { echo "$1, $th threads: final differs from batch:"; echo "$final"; echo "batch:"; echo "$b"; fail=1; }
  done
  grep -q '^isocheck: follow: a reader thread parsed while the checks ran: [1-9][0-9]* batches' "$t/$1.err2" ||
    { [ "$4" = nothread ] || { echo "$1: the reader thread did not run: $(cat "$t/$1.err2")"; fail=1; }; }
  ! grep -q 'a reader thread' "$t/$1.err1" || { echo "$1: a reader thread with --threads 1"; fail=1; }
}

# 1. clean, a writer that pauses between pieces
"$ISOCHECK" gen --sessions 8 --txns 500 --ops 8 --keys 500 --seed 5 --level si -o "$t/clean.txt" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
same clean "$t/clean.txt" 4
grep -q 'checks of the settled part: [1-9][0-9]* incremental, 0 from scratch' "$t/clean.err2" ||
  { echo "clean: not checked incrementally: $(cat "$t/clean.err2")"; fail=1; }

# 2. a lost update after the first pieces: found by the threaded path, named, before the end
cp "$t/clean.txt" "$t/lost.txt"
cat >> "$t/lost.txt" <<'H'
w(999999,900001,901,90001)
r(999999,900001,901,90002)
w(999999,900002,901,90002)
r(999999,900001,902,90003)
w(999999,900003,902,90003)
r(999998,0,901,90004)
r(999998,0,902,90005)
H
same lost "$t/lost.txt" 4
out=$(pieces "$t/lost.txt" 4 | "$ISOCHECK" check --level si --threads 2 --follow -)
d=$(echo "$out" | grep -n '^DETECTED after' | head -1 | cut -d: -f1); e=$(echo "$out" | grep -n '^END after' | cut -d: -f1)
[ -n "$d" ] && [ -n "$e" ] && [ "$d" -lt "$e" ] && echo "$out" | sed -n "$d,${e}p" |
  grep -q '^  1\. lost-update (G-single): txn 9000[23] and txn 9000[23]' || { echo "lost: no named detection before END: $out"; fail=1; }

# 3. a value inside the range written to its key, after the reader thread started: asked of the
#    idle checker (not written: accepted); then one written twice (written: the batch parser reads on)
cat > "$t/q.txt" <<'H'
w(1,1,1,1)
w(1,10,2,2)
r(2,0,1,3)
r(2,0,2,4)
H
{ cat "$t/q.txt"; echo 'w(1,5,1,5)'; echo 'r(1,5,2,6)'; echo 'r(2,0,1,7)'; echo 'r(2,0,2,8)'; } > "$t/q1.txt"
same question "$t/q1.txt" 2
grep -q 'batches checked, [1-9][0-9]* questions about a value written twice' "$t/question.err2" ||
  { echo "question: no question asked: $(cat "$t/question.err2")"; fail=1; }
{ cat "$t/q1.txt"; echo 'w(1,10,1,9)'; echo 'r(1,10,2,10)'; echo 'r(2,0,1,11)'; echo 'r(2,0,2,12)'; } > "$t/q2.txt"
same twice "$t/q2.txt" 3

# 4. the input ends inside a line: cut in the middle of a write, and a last line without its newline
head -n 3001 "$t/clean.txt" > "$t/cut.txt"; printf 'w(12,34' >> "$t/cut.txt"
same cut "$t/cut.txt" 3
head -n 3001 "$t/clean.txt" > "$t/nonl.txt"; printf 'r(999997,0,903,90006)' >> "$t/nonl.txt"
same nonl "$t/nonl.txt" 3

# 5. SIGTERM (SIGINT) while the reader thread waits on the pipe: stopped at once, what is known
mkfifo "$t/p" || exit 1
for sig in TERM INT; do
  env --default-signal=INT true 2>/dev/null || { echo "env --default-signal is missing"; exit 77; }
  env --default-signal=INT "$ISOCHECK" check --follow --threads 2 - < "$t/p" > "$t/o.$sig" 2> "$t/e.$sig" & pid=$!
  pids="$pids $pid"
  exec 3> "$t/p"
  head -n 2000 "$t/clean.txt" >&3; sleep 0.3; sed -n '2001,3000p' "$t/clean.txt" >&3
  sleep 1                                               # read and checked: the reader thread waits in poll()
  kill -0 $pid 2>/dev/null || { echo "$sig: the run ended before the signal: $(cat "$t/o.$sig")"; fail=1; continue; }
  t0=$(date +%s%N); kill -$sig $pid; wait $pid; rc=$?; t1=$(date +%s%N)
  exec 3>&-
  want=143; [ $sig = INT ] && want=130
  [ $rc = $want ] || { echo "$sig: exit $rc, expected $want: $(cat "$t/o.$sig" "$t/e.$sig")"; fail=1; }
  grep -q "^STOPPED after [0-9.]*s by SIG$sig: [0-9]* bytes, [1-9][0-9]* transactions read" "$t/o.$sig" &&
    grep -q '^no verdict: stopped after [1-9][0-9]* transactions$' "$t/o.$sig" || { echo "$sig: $(cat "$t/o.$sig")"; fail=1; }
  ms=$(( (t1 - t0) / 1000000 ))
  [ $ms -lt 3000 ] || { echo "$sig: took $ms ms to stop"; fail=1; }
done
exit $fail
