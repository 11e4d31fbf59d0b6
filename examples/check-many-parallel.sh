#!/bin/sh
# check-many-parallel.sh — check many histories on one machine with N jobs at
# once (GNU parallel, else xargs -P), then one summary (check-many-merge.sh).
#
# usage: check-many-parallel.sh [-j N] [-a 'ISOCHECK CHECK OPTIONS'] [-o OUT]
#                               [-l LIST] [HISTORY|DIR ...]
#
# The histories: each operand as `isocheck check` takes it (doc/cli.md, "Many
# histories": a file, or a directory that is one history — it holds *.log or
# history.bincode, or any directory under --format cobra; any other directory
# stands for its regular files not starting with ".", in byte order), then
# the lines of LIST (one path a line; - : stdin).
#   -j N    jobs at once (default: the processors online). Each job is one
#           `isocheck check --json` of one history (check-one.sh), so a long
#           history holds one job while the others go on.
#   -a ...  options for every `isocheck check`, split at blanks (e.g.
#           '--level ser --threads 1'; with N jobs on N cores, --threads 1
#           keeps the jobs from competing for the cores). Options that name
#           one output (--certificate, --dot, --report, --version-order,
#           --follow) are refused, as by `isocheck check` with many histories.
#   -o OUT  write the output to OUT (a temporary file beside it, renamed when
#           complete; never over a history); default stdout.
# ISOCHECK: the isocheck to run (default `isocheck` on PATH). CHECK_MANY_RUNNER:
# `xargs` runs the jobs with xargs -P even when GNU parallel is there.
#
# Output: what `isocheck check --json A B C` prints — a JSON line per history
# in the order of the list, whatever order they finished in — then the merged
# summary line (check-many-merge.sh: counts, exit, the failing files); the
# summary in words on stderr. Installing GNU parallel: `apt-get install -y
# parallel` (Debian); without it xargs -P runs the jobs, the same output.
#
# exit: 1 if any history fails; else 2 if any has no answer (UNKNOWN) or could
# not be read; else 0 (as `isocheck check DIR`). 2 also for no histories, an
# unreadable LIST or an OUT that cannot be written; 3 bad usage.
me=check-many-parallel.sh
here=$(cd "$(dirname "$0")" && pwd) || exit 3
usage() { echo "usage: $me [-j N] [-a 'ISOCHECK CHECK OPTIONS'] [-o OUT] [-l LIST] [HISTORY|DIR ...]" >&2; exit 3; }
jobs= args= out= list=
while getopts j:a:o:l: opt; do
  case $opt in j) jobs=$OPTARG ;; a) args=$OPTARG ;; o) out=$OPTARG ;; l) list=$OPTARG ;; *) usage ;; esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || [ -n "$list" ] || usage
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case $jobs in ''|0|*[!0-9]*) echo "$me: -j $jobs: expected a number of jobs >= 1" >&2; exit 3 ;; esac
cobra=0
set -f
for a in $args; do
  case $a in
    --certificate*|--dot*|--report*|--version-order*|--follow*)
      echo "$me: $a names one output or follows one input: not with many histories" >&2; exit 3 ;;
    --format=cobra) cobra=1 ;;
  esac
done
set +f
case " $args " in *" --format cobra "*) cobra=1 ;; esac
: "${ISOCHECK:=isocheck}"
command -v "$ISOCHECK" >/dev/null 2>&1 || { echo "$me: $ISOCHECK: not found (set ISOCHECK)" >&2; exit 2; }
export ISOCHECK LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-many.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
mkdir "$tmp/out" || exit 2

# A directory is one history when the loader reads it as one (as isocheck does).
is_history_dir() {
  [ $cobra = 1 ] && return 0
  ls -a "$1" 2>/dev/null | grep -q -e '.\.log$' -e '^history\.bincode$'
}
for p; do
  if [ -d "$p" ] && ! is_history_dir "$p"; then
    case $p in */) pre=$p ;; *) pre=$p/ ;; esac
    n=0
    for f in "$pre"*; do
      [ -f "$f" ] || continue
      case $f in *"
"*) echo "$me: $f: a newline in a path is not supported" >&2; exit 2 ;; esac
      printf '%s\n' "$f"; n=$((n + 1))
    done
    [ $n -gt 0 ] || { echo "$me: $p: no history files in the directory" >&2; exit 2; }
  else
    printf '%s\n' "$p"
  fi
done >"$tmp/list" || exit 2
if [ -n "$list" ]; then
  { [ "$list" = - ] || [ -r "$list" ]; } || { echo "$me: $list: cannot read" >&2; exit 2; }
  grep -v '^$' "$list" >>"$tmp/list"
fi
total=$(wc -l <"$tmp/list" | tr -d ' ')
[ "$total" -gt 0 ] || { echo "$me: no histories" >&2; exit 2; }
if [ -n "$out" ] && grep -qxF -- "$out" "$tmp/list"; then
  echo "$me: $out is one of the histories: not written over" >&2; exit 3
fi

# One job: history number N of the list, its JSON line in out/N.
if [ "${CHECK_MANY_RUNNER:-}" != xargs ] && command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  # {#}: the job's number, its line in the list; {}: the line
  parallel --will-cite -q -j "$jobs" -a "$tmp/list" sh "$here/check-one.sh" -a "$args" -o "$tmp/out/{#}" -- {}
else
  [ "${CHECK_MANY_RUNNER:-}" = xargs ] ||
    echo "$me: GNU parallel not found (apt-get install -y parallel): running the jobs with xargs -P $jobs" >&2
  # xargs splits at blanks and quotes: it gets the numbers, each job reads its
  # line; a job never dies by a signal for xargs (that would stop the rest)
  job='h=$(sed -n "$1p" "$T/list"); sh "$H/check-one.sh" -a "$A" -o "$T/out/$1" -- "$h"; exit 0'
  export T="$tmp" H="$here" A="$args"
  awk -v n="$total" 'BEGIN { for (i = 1; i <= n; i++) print i }' |
    xargs -n 1 -P "$jobs" sh -c "$job" job
fi
# check-one.sh's exit codes are the verdicts; whether each wrote its line is
# checked here: a job that left none (killed) is that history's error line.
awk -v d="$tmp/out" '{
  f = d "/" NR; n = 0
  while ((getline l < f) > 0) { print l; n++ }
  close(f)
  if (!n) {
    h = $0; gsub(/\\/, "\\\\", h); gsub(/"/, "\\\"", h)
    printf "{\"isocheck\": 1, \"history\": \"%s\", \"error\": \"its job left no report (killed?)\"}\n", h
  }
}' "$tmp/list" >"$tmp/all" || exit 2
sh "$here/check-many-merge.sh" -n "$total" "$tmp/all" >"$tmp/summary"; rc=$?
[ -s "$tmp/summary" ] || exit 2
sh "$here/check-many-merge.sh" -t "$tmp/all" | head -1 >&2
cat "$tmp/summary" >>"$tmp/all" || exit 2
if [ -z "$out" ]; then cat "$tmp/all" || exit 2
else
  # beside OUT, so the rename is atomic
  cp "$tmp/all" "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out" ||
    { rm -f "$out.tmp.$$"; echo "$me: $out: cannot write" >&2; exit 2; }
fi
exit $rc
