# A signal that ends `check --report DIR` leaves nothing behind: not the
# temporary directory beside DIR, nor its subdirectories and pages already
# written (many histories: the first one's pages exist when the second, a
# FIFO, blocks), nor DIR (io/output_tree.h, io/tmp_registry.h).
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
leftovers() { ls -A "$1" | grep '\.isocheck-'; }
# wait up to 30 s for file $1 to exist
await() { i=0; while [ -z "$(ls -d $1 2>/dev/null)" ]; do i=$((i+1)); [ $i -gt 300 ] && return 1; sleep 0.1; done; }
mkdir "$t/one" "$t/many"
mkfifo "$t/one/in" "$t/many/in"
# one history: the temporary directory exists from the start, empty
"$ISOCHECK" check --report "$t/one/rep" "$t/one/in" >/dev/null 2>&1 & pid=$!; pids="$pids $pid"
if await "$t/one/.rep.isocheck-*"; then
  kill -TERM $pid; wait $pid; rc=$?
  [ $rc -eq 143 ] || no "one: exit $rc after SIGTERM"
  [ -z "$(ls -A "$t/one" | grep -v '^in$')" ] || no "one: left behind: $(ls -A "$t/one")"
else no "one: no temporary directory appeared"; fi
# many: the first history's pages are written, in a subdirectory, when the FIFO blocks
"$ISOCHECK" check --report "$t/many/rep" "$ROOT/examples/galera-lost-update.txt" "$t/many/in" >/dev/null 2>&1 & pid=$!; pids="$pids $pid"
if await "$t/many/.rep.isocheck-*/001-galera-lost-update.txt/anomaly-1.svg"; then
  sleep 0.2
  kill -TERM $pid; wait $pid; rc=$?
  [ $rc -eq 143 ] || no "many: exit $rc after SIGTERM"
  [ -z "$(ls -A "$t/many" | grep -v '^in$')" ] || no "many: left behind: $(ls -AR "$t/many")"
else no "many: the first history's pages did not appear"; kill -KILL $pid; fi
exit $fail
