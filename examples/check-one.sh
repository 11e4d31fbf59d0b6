#!/bin/sh
# check-one.sh — check one history, print exactly one JSON line, whatever happens.
#
# usage: check-one.sh [-a 'ISOCHECK CHECK OPTIONS'] [-o OUT] HISTORY
#
# The building block of check-many-parallel.sh and check-shard.sh (doc/cluster.md).
# Runs `$ISOCHECK check --json OPTIONS HISTORY` (ISOCHECK: default `isocheck`
# on PATH; OPTIONS split at blanks) and prints its report, one line; when
# isocheck printed no report (the history cannot be read, isocheck was killed
# or crashed) it prints {"isocheck": 1, "version": V, "history": PATH, "error": MESSAGE}
# with isocheck's message. These are the two shapes `isocheck check --json A B C`
# prints per history (doc/json-schema.md, "Many histories"), so
# check-many-merge.sh counts both alike.
#   -o OUT  write the line to OUT instead (a temporary file beside it, renamed
#           when complete: OUT is never left half written).
#
# exit: isocheck's exit code when it printed a report (0 PASS, 1 FAIL,
# 2 UNKNOWN); 2 when it printed none (the error line says why); 3 bad usage or
# OUT cannot be written (nothing printed, message on stderr).
usage() { echo "usage: check-one.sh [-a 'ISOCHECK CHECK OPTIONS'] [-o OUT] HISTORY" >&2; exit 3; }
args= out=
while getopts a:o: opt; do
  case $opt in a) args=$OPTARG ;; o) out=$OPTARG ;; *) usage ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
hist=$1
: "${ISOCHECK:=isocheck}"

# isocheck's stderr: beside OUT (no mktemp per history), else a temporary file
if [ -n "$out" ]; then err="$out.err.$$"; else err=$(mktemp "${TMPDIR:-/tmp}/check-one.XXXXXX") || exit 3; fi
trap 'rm -f "$err"' EXIT
trap 'exit 3' INT TERM
set -f   # OPTIONS are split at blanks on purpose, never globbed
# shellcheck disable=SC2086
line=$("$ISOCHECK" check --json $args "$hist" 2>"$err"); rc=$?
case $rc:$line in
  [012]:'{'*'"verdict"'*'}') ;;           # a report: isocheck's own line
  *)
    # isocheck's message (its last "isocheck..." line on stderr, else its last
    # line, without "isocheck: " and the path it repeats), JSON-escaped; a
    # signal or crash says so.
    ver=$("$ISOCHECK" --version 2>/dev/null | awk 'NR == 1 { print $NF }')
    line=$(awk -v path="$hist" -v rc="$rc" -v ver="$ver" '
      function esc(s) {
        gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s)
        gsub(/[\001-\037]/, " ", s)
        return s
      }
      NF { last = $0 }
      /^isocheck/ { msg = $0 }
      END {
        if (msg == "") msg = last
        sub(/^isocheck( check)?: /, "", msg)
        if (index(msg, path ": ") == 1) msg = substr(msg, length(path) + 3)
        if (msg == "" || rc + 0 > 2)
          msg = (msg == "" ? "" : msg "; ") "isocheck exited with status " rc " and printed no report"
        printf "{\"isocheck\": 1, \"version\": \"%s\", \"history\": \"%s\", \"error\": \"%s\"}\n", esc(ver), esc(path), esc(msg)
      }' "$err")
    rc=2 ;;
esac
if [ -z "$out" ]; then
  printf '%s\n' "$line" || exit 3
  exit $rc
fi
tmp="$out.tmp.$$"
if printf '%s\n' "$line" >"$tmp" && mv -f "$tmp" "$out"; then exit $rc; fi
rm -f "$tmp"
echo "check-one.sh: $out: cannot write" >&2
exit 3
