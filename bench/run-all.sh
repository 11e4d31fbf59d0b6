#!/bin/sh
# bench/run-all.sh — `make bench`: every benchmark script that exists, one
# after another (never in parallel: timings share the machine), each
# logged to bench/out/<name>.log; a failing script is reported and the
# others still run.  Results go to doc/benchmarks.md (each script owns its
# section).  Extra arguments are passed to scaling.sh, detect.sh
# and encodings.sh (e.g. --quick).
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/out"
status=0
for name in sat graph polysi-gnf parse check scaling detect encodings; do
  s=$here/$name.sh
  [ -x "$s" ] || [ -f "$s" ] || continue
  case $name in scaling|detect|encodings) args="$*";; *) args="";; esac
  echo "== bench/$name.sh $args (log: bench/out/$name.log)"
  start=$(date +%s)
  # shellcheck disable=SC2086
  if nice bash "$s" $args > "$here/out/$name.log" 2>&1; then
    echo "   done in $(( $(date +%s) - start )) s"
  else
    echo "   FAILED (exit $?) after $(( $(date +%s) - start )) s; tail of the log:"
    tail -5 "$here/out/$name.log" | sed 's/^/   /'
    status=1
  fi
done
exit $status
