# SIGINT or SIGTERM during a batch `isocheck check` (programs/interrupt.h),
# wherever it arrives: while the history loads (here from a pipe whose
# writer has stopped writing: the load must not wait for more bytes), and
# once it is loaded (indexing, a level's stages, the solver).  The run
# stops promptly, prints what it knows ("no verdict: ..." with the stage),
# never a verdict, and exits 130 (SIGINT) or 143 (SIGTERM).
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; exec 3>&- 2>/dev/null; rm -rf "$t"' EXIT
await() { i=0; while ! eval "$1"; do i=$((i + 1)); [ $i -gt 300 ] && return 1; sleep 0.1; done; }
now() { date +%s.%N; }
# seconds from $1 to now, as an integer (rounded up)
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { d = b - a; printf "%d", d == int(d) ? d : int(d) + 1 }'; }
env --default-signal=INT true 2>/dev/null || { echo "env --default-signal is missing"; exit 77; }
[ -d /proc/self/fdinfo ] || { echo "no /proc"; exit 77; }

"$ISOCHECK" gen --sessions 20 --txns 12000 --ops 8 --keys 12000 --seed 3 --level si -o "$t/h.txt" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
lines=$(wc -l < "$t/h.txt")

# 1. a big history through a pipe: half of it, then the writer pauses (it
# keeps the pipe open); SIGINT while the loader waits for the rest
mkfifo "$t/p"
env --default-signal=INT "$ISOCHECK" check "$t/p" > "$t/o1" 2> "$t/e1" & pid=$!; pids="$pids $pid"
exec 3> "$t/p"
head -n $((lines / 2)) "$t/h.txt" >&3          # returns once the reader has taken all but a pipe's buffer
sleep 0.3
kill -0 $pid 2>/dev/null || { echo "load: the run ended on half a history"; cat "$t/o1" "$t/e1"; exit 1; }
t0=$(now)
kill -INT $pid; wait $pid; rc=$?
took=$(since "$t0")
exec 3>&-
[ $rc = 130 ] || { echo "load: exit $rc, expected 130"; cat "$t/o1" "$t/e1"; exit 1; }
[ "$took" -le 3 ] || { echo "load: it took ${took}s to stop"; exit 1; }
grep -qx "STOPPED by SIGINT while loading $t/p" "$t/o1" || { echo "load: no STOPPED line"; cat "$t/o1"; exit 1; }
grep -qx 'no verdict: stopped while loading, before checking' "$t/o1" || { echo "load: no 'no verdict' line"; cat "$t/o1"; exit 1; }
grep -q 'PASS\|FAIL' "$t/o1" && { echo "load: a verdict was printed"; cat "$t/o1"; exit 1; }

# 2. the same history from its file: SIGTERM once it was read to its end
# (the check is under way: indexing or a level's stages); the line says
# where it stopped, with the transactions loaded
size=$(wc -c < "$t/h.txt")
"$ISOCHECK" check --threads 1 "$t/h.txt" > "$t/o2" 2> "$t/e2" & pid=$!; pids="$pids $pid"
at_end() {
  for fd in /proc/$pid/fd/*; do
    [ "$(readlink "$fd")" = "$t/h.txt" ] && grep -q "^pos:[[:space:]]*$size\$" "/proc/$pid/fdinfo/${fd##*/}" && return 0
  done
  ! kill -0 $pid 2>/dev/null     # (closed: loaded, or ended)
}
await at_end || { echo "check: the file was not read"; exit 1; }
sleep "${CHECK_SIGNAL_DELAY:-0.1}"              # into the check (indexing and the levels: seconds under ASan)
kill -0 $pid 2>/dev/null || { echo "check: ended before the signal (too fast to test here)"; exit 77; }
t0=$(now)
kill -TERM $pid; wait $pid; rc=$?
took=$(since "$t0")
[ $rc = 143 ] || { echo "check: exit $rc, expected 143"; cat "$t/o2" "$t/e2"; exit 1; }
[ "$took" -le 3 ] || { echo "check: it took ${took}s to stop"; exit 1; }
grep -q 'PASS\|^FAIL' "$t/o2" && { echo "check: a verdict was printed"; cat "$t/o2"; exit 1; }
# either the watchdog's line (a stage that does not poll) or the level's own
# UNKNOWN (a stage that polls): both say where, neither is a verdict
if grep -q '^STOPPED by SIGTERM' "$t/o2"; then
  grep -Eq '^no verdict: stopped (after [1-9][0-9]* transactions, while [a-z]|while loading|after loading)' "$t/o2" ||
    { echo "check: the 'no verdict' line"; cat "$t/o2"; exit 1; }
else
  grep -Eq '^UNKNOWN si: no verdict: interrupted (before checking|after building the polygraph of|after pruning|after encoding|while solving) level si' "$t/o2" ||
    { echo "check: neither STOPPED nor the level's own UNKNOWN"; cat "$t/o2" "$t/e2"; exit 1; }
fi
sed -n 1p "$t/o2" >&2
exit 0
