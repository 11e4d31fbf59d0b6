#!/bin/sh
# layering.sh — fail when an #include crosses the layering the wrong way
# (doc/architecture.md, "What each part may include").
#
# Every C source and header of the product (include/ io/ solver/ theory/
# frontend/ workload/ programs/ compat/) belongs to one part, named by its
# folder.  Each quoted #include names a file of some part; the pair must be
# in the table below.  Angle-bracket includes (libc, cmocka, libpq) are not
# checked; tests/, bench/ and examples/ may include anything and are not
# checked either.  A file directly in frontend/ is part "frontend" (the
# library's top: api.c); a file in a frontend/ subfolder the table does
# not know is an error, so that a new folder gets its row before its code.
# "run-check" is frontend/run_check.h alone: the batch pipeline, which the
# online checker calls to explain a violation and to check what its
# incremental path cannot follow; api.c and the programs include the online
# part, nothing below them does.
#
# Usage: tests/layering.sh [ROOT]   (exit 0 clean, 1 violations, 2 misuse)
ROOT=${1:-${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}}
cd "$ROOT" || exit 2

# part: the parts it may include besides itself.  "include" is the public
# headers and the two shared utilities (vec.h, error.h) in include/;
# "solver-interface" is solver/theory.h alone, the hook a theory plugs into.
rules='
include:
io: include
solver: include io
theory: include io solver-interface
history: include io
recheck: include history
formats: include io history
checking: include io theory history recheck
reports: include io theory history formats checking recheck
run-check: include io theory history formats checking reports recheck
online: include io theory history formats checking reports run-check recheck
frontend: include io theory history formats checking reports run-check online recheck
workload: include io history
programs: include io solver solver-interface theory history formats checking reports run-check online frontend workload recheck
compat: include
'

# The re-checkers (frontend/recheck/) re-check the pipeline, so they include
# none of it (their row above) and the pipeline sees only their public
# headers; of the history model they call only these functions: the raw
# list of a read, an op's raw transaction and value (the arrays' accessors:
# history.h keeps them compact) and names for messages, never its reading
# of reads.
recheck_public='frontend/recheck/verify_model.h frontend/recheck/certificate.h'
recheck_calls='history_list history_key_str history_op_where history_op_txn history_op_value'
recheck_bad=$(find frontend/recheck -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort | while read -r f; do
  grep -noE 'history_[a-z_]+[ \t]*\(' "$f" | while IFS=: read -r n call; do
    fn=${call%%(*}; fn=$(echo "$fn" | tr -d ' \t')
    case " $recheck_calls " in *" $fn "*) ;; *) echo "layering: $f:$n calls $fn (a re-checker may call only $recheck_calls)";; esac
  done
done)

# Known violations, each "file included-file" and why; they are other
# work in progress, not precedent.  None today.
allowed='
'

files=$(find include io solver theory frontend workload programs compat \
             -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) 2>/dev/null | sort)
[ -n "$files" ] || { echo "layering.sh: no sources under $ROOT" >&2; exit 2; }

# One line per quoted include: "file<TAB>line<TAB>included path".
for f in $files; do
  awk -v f="$f" '
    /^[ \t]*#[ \t]*include[ \t]*"/ {
      p = $0; sub(/^[^"]*"/, "", p); sub(/".*$/, "", p)
      printf "%s\t%d\t%s\n", f, FNR, p
    }' "$f"
done | awk -F '\t' -v rules="$rules" -v allowed="$allowed" -v recheck_public="$recheck_public" -v recheck_bad="$recheck_bad" '
  # the part of a path rooted at the repository
  function part(path) {
    if (path == "solver/theory.h") return "solver-interface"
    if (path == "frontend/run_check.h") return "run-check"
    if (path ~ /^include\//) return "include"
    if (path ~ /^frontend\/[^\/]+$/) return "frontend"
    if (path ~ /^frontend\/[^\/]+\//) { split(path, a, "/"); return a[2] }
    split(path, a, "/"); return a[1]
  }
  BEGIN {
    n = split(rules, line, "\n")
    for (i = 1; i <= n; i++) {
      if (line[i] !~ /:/) continue
      split(line[i], kv, ":"); p = kv[1]; known[p] = 1
      may[p, p] = 1
      m = split(kv[2], dep, " ")
      for (j = 1; j <= m; j++) { may[p, dep[j]] = 1; list[p] = list[p] " " dep[j] }
    }
    known["solver-interface"] = 1; may["solver-interface", "include"] = 1
    may["solver", "solver-interface"] = 1
    n = split(allowed, line, "\n")
    for (i = 1; i <= n; i++) if (split(line[i], w, " ") == 2) { ok[w[1], w[2]] = 1; used[w[1], w[2]] = 0 }
    n = split(recheck_public, line, " ")
    for (i = 1; i <= n; i++) public[line[i]] = 1
    bad = 0
    if (recheck_bad != "") { print recheck_bad; bad = 1 }
  }
  {
    file = $1; target = $3
    # "gsat.h": a public header; "x.h" beside the file: its own folder
    if (target !~ /\//) {
      if ((getline junk < ("include/" target)) >= 0) { close("include/" target); target = "include/" target }
      else { t = file; sub(/[^\/]*$/, "", t); target = t target }
    }
    from = part(file); to = part(target)
    if (!(from in known)) { printf "layering: %s: folder of part \"%s\" is not in tests/layering.sh\n", file, from; bad = 1; next }
    if (to == "recheck" && from != "recheck" && !(target in public)) {
      printf "layering: %s:%d includes \"%s\", internal to the re-checkers (public: %s)\n", file, $2, $3, recheck_public
      bad = 1; next
    }
    if (!(to in known) || !may[from, to]) {
      if ((file, $3) in ok) { used[file, $3] = 1; next }
      printf "layering: %s:%d includes \"%s\" (part %s); %s may include only%s\n", file, $2, $3, to, from, list[from] ? list[from] : " itself"
      bad = 1
    }
  }
  END {
    for (k in used) if (!used[k]) { split(k, w, SUBSEP); printf "layering: note: allowed %s -> %s is no longer needed\n", w[1], w[2] }
    if (bad) { print "layering: FAILED (doc/architecture.md says why the layers are as they are)"; exit 1 }
    print "layering: every include goes down"
  }'
