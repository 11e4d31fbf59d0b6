# A signal that ends isocheck while it writes its outputs leaves no
# temporary file (.NAME.isocheck-XXXXXX) behind and ends the process as the
# signal does (exit 128+N in the shell): gen with a large workload (SIGTERM),
# a batch check waiting on a FIFO (SIGINT), a --follow check of a FIFO
# (SIGTERM); io/tmp_registry.h.
t=$(mktemp -d) || exit 1
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; exec 3>&-; rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
leftovers() { ls -A "$1" | grep '\.isocheck-'; }
# wait up to 30 s for a temporary output file in directory $1
await_tmp() {
  i=0
  while [ -z "$(leftovers "$1")" ]; do i=$((i+1)); [ $i -gt 300 ] && return 1; sleep 0.1; done
}
# end pid $1 by signal $2 once directory $3 holds a temporary file; expect exit $4
stop() {
  if ! await_tmp "$3"; then no "$5: no temporary output appeared"; kill -KILL $1; wait $1; return; fi
  kill -$2 $1; wait $1; rc=$?
  [ $rc -eq $4 ] || no "$5: exit $rc after SIG$2 (expected $4)"
  [ -z "$(leftovers "$3")" ] || no "$5: left behind after SIG$2: $(leftovers "$3")"
}

mkdir "$t/gen"
"$ISOCHECK" gen --sessions 50 --txns 10000000 -o "$t/gen/h.txt" 2>/dev/null & pid=$!; pids="$pids $pid"
stop $pid TERM "$t/gen" 143 "gen"
[ ! -e "$t/gen/h.txt" ] && [ ! -e "$t/gen/h.txt.truth" ] || no "gen killed: an output appeared: $(ls -A "$t/gen")"

# a background command of a script ignores SIGINT: env gives it the default action back
if env --default-signal=INT true 2>/dev/null; then
  mkdir "$t/chk"; mkfifo "$t/chk/in"
  echo mine > "$t/chk/c.txt"
  env --default-signal=INT "$ISOCHECK" check --certificate "$t/chk/c.txt" --dot "$t/chk/d.dot" "$t/chk/in" 2>/dev/null &
  pid=$!; pids="$pids $pid"
  stop $pid INT "$t/chk" 130 "check --certificate --dot"
  [ "$(cat "$t/chk/c.txt")" = mine ] && [ ! -e "$t/chk/d.dot" ] || no "check killed: outputs changed: $(ls -A "$t/chk")"
fi

mkdir "$t/fol"; mkfifo "$t/fol/in"
"$ISOCHECK" check --follow --certificate "$t/fol/c.txt" "$t/fol/in" >/dev/null 2>&1 & pid=$!; pids="$pids $pid"
exec 3>"$t/fol/in"
printf 'w(1,1,1,1)\nr(1,1,2,2)\n' >&3
stop $pid TERM "$t/fol" 143 "check --follow --certificate"
exec 3>&-
[ ! -e "$t/fol/c.txt" ] || no "check --follow killed: a certificate appeared"
exit $fail
