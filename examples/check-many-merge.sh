#!/bin/sh
# check-many-merge.sh — merge the JSON lines of many `isocheck check --json`
# runs into one summary: counts per verdict, the worst exit code, the files
# that fail or have no answer.
#
# usage: check-many-merge.sh [-t] [-n EXPECTED] [-o OUT] FILE... (- : stdin)
#
# Input: JSON lines as `isocheck check --json` prints them (doc/json-schema.md):
# a history's report (top-level "verdict": PASS, FAIL, UNKNOWN), a history that
# could not be read ({"history": ..., "error": ...}), and the summary line of a
# run of many ({"summary": {...}, "exit": N}), e.g. the outputs of
# check-one.sh, check-shard.sh, `isocheck check --json DIR`, in any number of
# files. A summary line is checked against the histories of its file since the
# previous summary line (a shard that stopped early has none, or a wrong one).
# Blank lines are skipped; anything else is bad input.
#   -n N   there must be exactly N histories (e.g. the length of the list the
#          shards were cut from: a lost shard is an error, never a PASS).
#   -t     text instead of JSON: "N histories: a PASS, b FAIL, c UNKNOWN, d ERROR",
#          then "FAIL PATH", "UNKNOWN PATH", "ERROR PATH: MESSAGE" lines.
#   -o OUT write to OUT (a temporary file beside it, renamed when complete).
#
# Output (JSON, one line): {"isocheck": 1, "summary": {"histories": N, "PASS": a,
# "FAIL": b, "UNKNOWN": c, "ERROR": d}, "exit": E, "failing": [PATH...],
# "unknown": [PATH...], "errors": [PATH...]} — the summary object of
# `isocheck check --json DIR` with the files named.
#
# exit: E, as isocheck's for a run of many: 1 if any history fails; else 2 if
# any has no answer (UNKNOWN) or an error; else 0. Also 2, with FILE:LINE and
# what was wrong on stderr and nothing written, when the input is bad (not a
# JSON object, no verdict, a summary that disagrees, not N histories, no
# history at all) or OUT cannot be written; 3 bad usage.
usage() { echo "usage: check-many-merge.sh [-t] [-n EXPECTED] [-o OUT] FILE..." >&2; exit 3; }
text=0 expect=-1 out=
while getopts tn:o: opt; do
  case $opt in
    t) text=1 ;;
    n) case $OPTARG in ''|*[!0-9]*) echo "check-many-merge.sh: -n $OPTARG: expected a count" >&2; exit 3 ;; esac
       expect=$OPTARG ;;
    o) out=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
for f; do
  [ "$f" = - ] || [ -r "$f" ] && [ ! -d "$f" ] || { echo "check-many-merge.sh: $f: cannot read" >&2; exit 2; }
  [ -n "$out" ] && [ "$f" = "$out" ] && { echo "check-many-merge.sh: $f: the output would replace an input" >&2; exit 3; }
done

# The awk program reads the top level of each object: the first keys of
# isocheck's lines are "isocheck", "history", "format", "verdict", so the
# scan stops there and never walks a report's anomalies.
prog='
function bad(what) { printf "check-many-merge.sh: %s:%d: %s\n", FILENAME, FNR, what > "/dev/stderr"; failed = 1; exit 2 }
function str(   c, start) {          # a JSON string at pos, its raw (escaped) text
  start = ++pos
  for (;;) {
    c = substr(s, pos, 1)
    if (c == "") bad("unterminated string")
    if (c == "\\") pos += 2
    else if (c == "\"") { pos++; return substr(s, start, pos - 1 - start) }
    else pos++
  }
}
function skipval(   c, depth) {      # any value at pos; numbers kept in num
  c = substr(s, pos, 1)
  if (c == "\"") { num = ""; return str() }
  if (c == "{" || c == "[") {
    depth = 0
    for (;;) {
      c = substr(s, pos, 1)
      if (c == "") bad("unbalanced object")
      if (c == "\"") { str(); continue }
      if (c == "{" || c == "[") depth++
      else if (c == "}" || c == "]") { if (--depth == 0) { pos++; return "" } }
      pos++
    }
  }
  num = ""
  while ((c = substr(s, pos, 1)) != "" && c !~ /[,} \t]/) { num = num c; pos++ }
  if (num == "") bad("expected a value")
  return ""
}
function ws() { while (substr(s, pos, 1) ~ /^[ \t\r]$/) pos++ }
function field(o, k,   m) {           # a count in a flat summary object
  if (!match(o, "\"" k "\": *[0-9]+")) bad("summary without \"" k "\"")
  m = substr(o, RSTART, RLENGTH); sub(/^.*: */, "", m); return m + 0
}
function unesc(t) { gsub(/\\"/, "\"", t); gsub(/\\\\/, "\\", t); return t }
FNR == 1 { since_sum = 0 }
/^[ \t\r]*$/ { next }
{
  s = $0; pos = 1; ws()
  if (substr(s, pos, 1) != "{") bad("expected a JSON object")
  pos++
  split("", v); sumobj = ""; exitv = ""
  for (;;) {
    ws(); c = substr(s, pos, 1)
    if (c == "}") break
    if (c == ",") { pos++; continue }
    if (c != "\"") bad("expected a key")
    key = str(); ws()
    if (substr(s, pos, 1) != ":") bad("expected : after \"" key "\"")
    pos++; ws(); start = pos
    val = skipval()
    if (key == "summary") sumobj = substr(s, start, pos - start)
    else if (key == "exit") exitv = num
    else v[key] = val
    if ("history" in v && ("verdict" in v || "error" in v)) break
  }
  if (sumobj != "") {                 # a run of many ended: its counts must be ours
    n = field(sumobj, "histories")
    if (n != since_sum || field(sumobj, "PASS") != sp || field(sumobj, "FAIL") != sf ||
        field(sumobj, "UNKNOWN") != su || field(sumobj, "ERROR") != se)
      bad("the summary (" n " histories) disagrees with the " since_sum " history lines before it")
    since_sum = 0; sp = sf = su = se = 0
    next
  }
  if (!("history" in v)) bad("neither a history nor a summary")
  h = v["history"]; total++; since_sum++
  if ("verdict" in v) {
    t = v["verdict"]
    if (t == "PASS") { pass++; sp++ }
    else if (t == "FAIL") { fail++; sf++; failing[++nf] = h }
    else if (t == "UNKNOWN") { unk++; su++; unknown[++nu] = h }
    else bad("unknown verdict \"" t "\"")
  } else if ("error" in v) { err++; se++; errs[++ne] = h; errmsg[ne] = v["error"] }
  else bad("a history line without \"verdict\" or \"error\"")
}
function list(a, n,   i, r) { r = ""; for (i = 1; i <= n; i++) r = r (i > 1 ? ", " : "") "\"" a[i] "\""; return "[" r "]" }
END {
  if (failed) exit 2
  if (total == 0) { print "check-many-merge.sh: no histories in the input" > "/dev/stderr"; exit 2 }
  if (expect >= 0 && total != expect) { printf "check-many-merge.sh: expected %d histories, found %d\n", expect, total > "/dev/stderr"; exit 2 }
  code = fail ? 1 : (unk || err) ? 2 : 0
  if (text) {
    printf "%d histories: %d PASS, %d FAIL, %d UNKNOWN, %d ERROR\n", total, pass, fail, unk, err
    for (i = 1; i <= nf; i++) print "FAIL " unesc(failing[i])
    for (i = 1; i <= nu; i++) print "UNKNOWN " unesc(unknown[i])
    for (i = 1; i <= ne; i++) print "ERROR " unesc(errs[i]) ": " unesc(errmsg[i])
  } else
    printf "{\"isocheck\": 1, \"summary\": {\"histories\": %d, \"PASS\": %d, \"FAIL\": %d, \"UNKNOWN\": %d, \"ERROR\": %d}, \"exit\": %d, \"failing\": %s, \"unknown\": %s, \"errors\": %s}\n", total, pass, fail, unk, err, code, list(failing, nf), list(unknown, nu), list(errs, ne)
  exit code
}'

if [ -z "$out" ]; then
  exec awk -v text=$text -v expect="$expect" "$prog" "$@"
fi
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
trap 'exit 3' INT TERM
awk -v text=$text -v expect="$expect" "$prog" "$@" >"$tmp"; rc=$?
[ $rc -le 1 ] || [ -s "$tmp" ] || exit $rc      # bad input: nothing written
mv -f "$tmp" "$out" || { echo "check-many-merge.sh: $out: cannot write" >&2; exit 2; }
exit $rc
