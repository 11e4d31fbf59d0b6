# SIGINT or SIGTERM during `isocheck check --follow` (programs/interrupt.h):
# the run stops, prints what it knows (STOPPED, the violation proven so far,
# "no verdict: stopped after N transactions") and exits 130 (SIGINT) or 143
# (SIGTERM).  Each signal is sent only once the run is known to be under way
# (a DETECTED line, or the input read: the file's offset in /proc).
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; exec 3>&- 2>/dev/null; rm -rf "$t"' EXIT
# wait up to 30 s for command $1 to succeed
await() { i=0; while ! eval "$1"; do i=$((i + 1)); [ $i -gt 300 ] && return 1; sleep 0.1; done; }

# 1. a violation proven, then the writer pauses: SIGINT (a background job ignores it: env gives it back)
env --default-signal=INT true 2>/dev/null || { echo "env --default-signal is missing"; exit 77; }
"$ISOCHECK" gen --sessions 10 --txns 200 --ops 8 --keys 100 --seed 2 --level si --fault lost-update \
  -o "$t/f.txt" --no-truth --force >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
mkfifo "$t/p1"
env --default-signal=INT "$ISOCHECK" check --follow - < "$t/p1" > "$t/o1" 2> "$t/e1" & pid=$!; pids="$pids $pid"
exec 3> "$t/p1"
cat "$t/f.txt" >&3
await "grep -q '^DETECTED after' '$t/o1'" || { echo "no DETECTED line"; cat "$t/o1" "$t/e1"; exit 1; }
sleep 0.2
kill -INT $pid; wait $pid; rc=$?
exec 3>&-
[ $rc = 130 ] || { echo "SIGINT: exit $rc, expected 130"; cat "$t/o1" "$t/e1"; exit 1; }
grep -q '^STOPPED after [0-9.]*s by SIGINT: [0-9]* bytes, [0-9]* transactions read' "$t/o1" || { echo "SIGINT: no STOPPED line"; cat "$t/o1"; exit 1; }
grep -q '^no verdict: stopped after [1-9][0-9]* transactions (the violation above' "$t/o1" || { echo "SIGINT: no 'no verdict' line"; cat "$t/o1"; exit 1; }
# the violation is printed again after STOPPED (what is known), and no final check ran
sed -n '/^STOPPED/,$p' "$t/o1" | grep -q '^FAIL si: snapshot isolation is violated' || { echo "SIGINT: the violation is not in what is known"; exit 1; }
grep -q '^END after' "$t/o1" && { echo "SIGINT: a final check ran"; exit 1; }

# 2. a followed file with no end line, read to its end: it waits (no idle limit) until SIGTERM
"$ISOCHECK" gen --sessions 10 --txns 200 --ops 8 --keys 1000 --seed 4 --level si -o "$t/h.txt" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
size=$(wc -c < "$t/h.txt")
"$ISOCHECK" check --follow "$t/h.txt" > "$t/o2" 2> "$t/e2" & pid=$!; pids="$pids $pid"
# read to the end: the descriptor that has the file open is at its size
at_end() {
  for fd in /proc/$pid/fd/*; do
    [ "$(readlink "$fd")" = "$t/h.txt" ] && grep -q "^pos:[[:space:]]*$size\$" "/proc/$pid/fdinfo/${fd##*/}" && return 0
  done
  return 1
}
[ -d /proc/$pid ] || { echo "no /proc"; exit 77; }
await at_end || { echo "the file was not read to its end"; exit 1; }
sleep 0.5
kill -0 $pid 2>/dev/null || { echo "the run ended without being told"; cat "$t/o2"; exit 1; }
kill -TERM $pid; wait $pid; rc=$?
[ $rc = 143 ] || { echo "SIGTERM: exit $rc, expected 143"; cat "$t/o2" "$t/e2"; exit 1; }
grep -q "^STOPPED after [0-9.]*s by SIGTERM: $size bytes, 2000 transactions read, [0-9]* completed, [0-9]* checked" "$t/o2" ||
  { echo "SIGTERM: STOPPED line"; cat "$t/o2"; exit 1; }
grep -qx 'no verdict: stopped after 2000 transactions' "$t/o2" || { echo "SIGTERM: no 'no verdict' line"; cat "$t/o2"; exit 1; }
[ ! -s "$t/e2" ] || { echo "SIGTERM: stderr: $(cat "$t/e2")"; exit 1; }

# 3. --json: one "stopped" event
"$ISOCHECK" check --follow --json "$t/h.txt" > "$t/o3" 2> "$t/e3" & pid=$!; pids="$pids $pid"
await at_end || { echo "json: the file was not read to its end"; exit 1; }
sleep 0.3
kill -TERM $pid; wait $pid; rc=$?
[ $rc = 143 ] && grep -q '^{"event": "stopped", "time": [0-9.]*, "signal": "SIGTERM", "read": 2000, ' "$t/o3" ||
  { echo "json: exit $rc"; cat "$t/o3"; exit 1; }
exit 0
