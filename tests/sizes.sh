#!/bin/sh
# sizes.sh — fail when a product source file is over 700 lines or a
# function over 120 lines (the house style: one job per file, each
# function short enough to hold in mind; doc/architecture.md).
#
# Every C source, header and .def file of the product (include/ io/
# solver/ theory/ frontend/ workload/ programs/ compat/) is measured;
# tests/, bench/ and examples/ are not.  A function is found the way this
# codebase writes one: its definition starts at column 0 (return type and
# name, the parameters possibly continued on indented lines, `{` at the end
# of the last one or alone on the next line at column 0) and its body ends
# with the first `}` at column 0.  Static inline functions in headers are
# functions like any other.  Comments, string and character literals and
# preprocessor lines are ignored when reading a definition.  A function's
# length counts from the first line of its definition to its closing `}`.
# A definition whose body meets another definition before any `}` at
# column 0 is reported too: the measure would be wrong, so is the layout.
#
# Usage: tests/sizes.sh [ROOT]   (exit 0 clean, 1 violations, 2 misuse)
# MAX_FILE_LINES and MAX_FUNC_LINES override the limits (700, 120).
ROOT=${1:-${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}}
cd "$ROOT" || exit 2
max_file=${MAX_FILE_LINES:-700}
max_func=${MAX_FUNC_LINES:-120}

# Known exceptions, one a line: "file-glob function why", function "*"
# meaning the file's length and every function in it.  Each is a split in
# progress on another branch, not precedent; the list empties when they
# merge.  An entry that no longer matches anything is noted, so it goes.
allowed='
'

files=$(find include io solver theory frontend workload programs compat \
             -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) 2>/dev/null | sort)
[ -n "$files" ] || { echo "sizes.sh: no sources under $ROOT" >&2; exit 2; }

# shellcheck disable=SC2086  # $files is a list of paths without blanks
awk -v max_file="$max_file" -v max_func="$max_func" -v allowed="$allowed" '
  # a file glob (only * and [...]) as an anchored regular expression
  function glob_re(g,    r, i, c) {
    r = "^"
    for (i = 1; i <= length(g); i++) {
      c = substr(g, i, 1)
      if (c == "*") r = r ".*"
      else if (c == "." || c == "+" || c == "?" || c == "(" || c == ")" || c == "$" || c == "^" || c == "|") r = r "\\" c
      else r = r c
    }
    return r "$"
  }
  # the exception covering (file, fn) ("*" for the file itself), or 0
  function excused(file, fn,    i) {
    for (i = 1; i <= nallow; i++)
      if (file ~ are[i] && (afn[i] == "*" || afn[i] == fn)) { used[i] = 1; return i }
    return 0
  }
  # the line with comments, string and character literals blanked; keeps
  # the block-comment state across lines in incomment
  function strip(s,    out, i, n, c, d, q) {
    out = ""; n = length(s)
    for (i = 1; i <= n; i++) {
      c = substr(s, i, 1); d = substr(s, i, 2)
      if (incomment) {
        if (d == "*/") { incomment = 0; i++; out = out " " }
        continue
      }
      if (d == "/*") { incomment = 1; i++; continue }
      if (d == "//") break
      if (c == "\"" || c == "\047") {
        q = c; out = out c
        for (i++; i <= n; i++) {
          c = substr(s, i, 1)
          if (c == "\\") { i++; continue }
          if (c == q) break
        }
        out = out q; continue
      }
      out = out c
    }
    return out
  }
  function violation(msg) { print "sizes: " msg; bad = 1 }
  function end_file() {
    if (file == "") return
    if (mode == 2) violation(file ":" start ": " name "(): no `}` at column 0 closes its body")
    if (nlines > max_file && !excused(file, "*"))
      violation(file ": " nlines " lines (limit " max_file ")")
  }
  function end_function(last,    len) {
    len = last - start + 1
    if (len > max_func && !excused(file, name) && !excused(file, "*"))
      violation(file ":" start ": " name "() is " len " lines (limit " max_func ")")
    mode = 0
  }
  # the name of the function a definition declares: the identifier before
  # its first "(" that is not an attribute
  function fname(sig,    rest, m) {
    rest = sig
    while (match(rest, /[A-Za-z_][A-Za-z_0-9]*[ \t]*\(/)) {
      m = substr(rest, RSTART, RLENGTH); sub(/[ \t]*\($/, "", m)
      if (m != "__attribute__" && m != "_Alignas") return m
      rest = substr(rest, RSTART + RLENGTH)
    }
    return "?"
  }
  BEGIN {
    n = split(allowed, line, "\n")
    for (i = 1; i <= n; i++) {
      if (split(line[i], w, " ") < 3) continue
      nallow++; aglob[nallow] = w[1]; are[nallow] = glob_re(w[1]); afn[nallow] = w[2]; used[nallow] = 0
    }
  }
  FNR == 1 { end_file(); file = FILENAME; mode = 0; incomment = 0; inmacro = 0 }
  { nlines = FNR }
  {
    raw = $0
    startcomment = incomment
    code = strip(raw)
    # preprocessor lines and their continuations
    if (inmacro || (!startcomment && code ~ /^[ \t]*#/)) { inmacro = (raw ~ /\\$/); next }
    col0 = !startcomment && code ~ /^[A-Za-z_]/

    if (mode == 2) {                       # in a body: wait for "}" at column 0
      if (!startcomment && code ~ /^}/) { end_function(FNR); next }
      if (col0 && code ~ /\)[ \t]*\{[ \t]*$/) {
        violation(file ":" start ": " name "(): its body meets the definition at line " FNR " before a `}` at column 0")
        mode = 0
      } else next
    }
    if (mode == 3) {                       # in an initializer or a type body
      for (i = 1; i <= length(code); i++) {
        c = substr(code, i, 1)
        if (c == "{") bd++
        else if (c == "}" && --bd == 0) { mode = 0; break }
      }
      next
    }
    if (col0 && (mode == 0 || (pd == 0 && closed))) {
      mode = 1; start = FNR; sig = ""; pd = 0; opened = 0; closed = 0; isvar = 0
    }
    if (mode != 1) next
    sig = sig " " code
    for (i = 1; i <= length(code); i++) {
      c = substr(code, i, 1)
      if (c == "(") { pd++; opened = 1 }
      else if (c == ")") { if (--pd == 0) closed = 1 }
      else if (pd == 0 && c == ";") { mode = 0; break }
      else if (pd == 0 && c == "=") isvar = 1
      else if (pd == 0 && c == "{") {
        if (!opened || isvar) {            # struct, enum, union, table
          mode = 3; bd = 1
          for (i++; i <= length(code); i++) {
            c = substr(code, i, 1)
            if (c == "{") bd++
            else if (c == "}" && --bd == 0) { mode = 0; break }
          }
          break
        }
        name = fname(sig); mode = 2
        rest = substr(code, i + 1); ob = 1
        for (j = 1; j <= length(rest); j++) {  # a body on this very line
          c = substr(rest, j, 1)
          if (c == "{") ob++
          else if (c == "}" && --ob == 0) break
        }
        if (ob == 0) end_function(FNR)
        break
      }
    }
  }
  END {
    end_file()
    for (i = 1; i <= nallow; i++)
      if (!used[i]) printf "sizes: note: the exception for %s %s is no longer needed\n", aglob[i], afn[i]
    if (bad) { print "sizes: FAILED (no file over " max_file " lines, no function over " max_func ": split by job)"; exit 1 }
    print "sizes: every file within " max_file " lines, every function within " max_func
  }' $files
