#!/bin/bash
# bench/real_levels.sh — the isolation ladder on histories written by other
# tools, against the verdicts those tools published (doc/real-levels.md).
# It fetches nothing: it looks for each known file under MIRRORS, the
# directory where the repositories were fetched (the `fetch` tool's
# /work/.mirror: MIRRORS/OWNER+NAME/repo, a git directory without a work
# tree, read with git show; or a checked-out MIRRORS/OWNER+NAME or
# MIRRORS/NAME), copies what it finds into a temporary directory, runs
# `isocheck check --level ladder` on each, and prints one Markdown row per
# file:
#
#   | source | form | published | isocheck's ladder | agree |
#
# "published" lists the claims the source makes about the file: fail:L (the
# tool rejects it at level L; for Plume's test cases, the level at which the
# paper says the pattern is forbidden), hold:L (the tool accepts it at L).
# "agree" is yes when isocheck's verdict at every such level is the claimed
# one, else "no (TAG)"; every TAG is explained in doc/real-levels.md.  Files
# the sources ship in several forms (Plume's test cases: text, Elle, dbcop,
# Cobra, Viper) get one row per form.  AWDIT's test histories are in AWDIT's
# own test format, which isocheck does not read: they are turned into the
# text format by the awk filter below (values + 1, so that none is text's
# initial value 0) and say so in the form column.
#
#   bench/real_levels.sh [--all] [--timeout S] MIRRORS
#
#   --all   also the thousands of histories of Plume's History/reproduce
#           (dbcop's, and the Cockroach/Galera runs), one row per directory
#           with counts at rc, ra and cc (their published verdicts are per
#           database, not per file)
#
# The commit of each repository read is printed after the table.  Exit 0
# when every row agrees or carries a documented TAG, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/.." && pwd)
ISOCHECK=${ISOCHECK:-$root/build/isocheck}
all=0; limit=300
while [ $# -gt 1 ]; do case $1 in
  --all) all=1;; --timeout) limit=$2; shift;;
  *) echo "usage: $0 [--all] [--timeout S] MIRRORS" >&2; exit 2;; esac; shift; done
[ $# = 1 ] && [ -d "$1" ] || { echo "usage: $0 [--all] [--timeout S] MIRRORS" >&2; exit 2; }
M=$1
[ -x "$ISOCHECK" ] || { echo "real_levels: build isocheck first (make)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# git directory (or work tree) of OWNER/NAME under $M, else empty
repo_dir() {
  local r=$1 d
  for d in "$M/${r/\//+}/repo" "$M/${r/\//+}" "$M/${r#*/}"; do
    [ -e "$d" ] && { echo "$d"; return; }
  done
}

# materialize OWNER/NAME PATH -> prints the local copy of PATH (a file or a
# directory), empty when the mirror lacks it.  Blobs a snapshot lacks (its
# largest files) are skipped, so a directory may come out partial.
materialize() {
  local r=$1 p=$2 d out q
  d=$(repo_dir "$r"); [ -n "$d" ] || return
  out="$tmp/src/${r/\//+}/$p"
  [ -e "$out" ] && { echo "$out"; return; }
  if git -C "$d" rev-parse --git-dir > /dev/null 2>&1 && [ ! -e "$d/$p" ]; then
    git -C "$d" ls-tree -r --name-only HEAD -- "$p" | while IFS= read -r q; do
      mkdir -p "$(dirname "$tmp/src/${r/\//+}/$q")"
      git -C "$d" show "HEAD:$q" > "$tmp/src/${r/\//+}/$q" 2> /dev/null || rm -f "$tmp/src/${r/\//+}/$q"
    done
  elif [ -e "$d/$p" ]; then
    mkdir -p "$(dirname "$out")"; cp -R "$d/$p" "$out"
  fi
  [ -e "$out" ] && echo "$out"
}

# AWDIT's test format (src/formats.rs, parse_test_history): a line of '='
# starts a session, a line of '-' a transaction, events "r|w KEY VALUE".
awdit_to_text() {
  awk 'BEGIN { s = 1; t = 1; n = 0 }
       /^[ \t]*=+[ \t]*$/ { if (n) { s++; t++; n = 0 } next }
       /^[ \t]*-+[ \t]*$/ { if (n) { t++; n = 0 } next }
       NF == 3 && ($1 == "r" || $1 == "w") { printf "%s(%d,%d,%d,%d)\n", $1, $2, $3 + 1, s, t; n++; next }
       NF == 0 { next }
       { printf "%s:%d: not an AWDIT test event\n", FILENAME, FNR > "/dev/stderr"; exit 2 }' "$1"
}

# The per-level verdicts of a ladder run (its first ladder), "level=P|F|N" words.
levels_of() {
  awk '/^  [a-z-]+ +(PASS|FAIL|NOT CHECKED)/ && !seen[$1]++ {
         printf "%s=%s ", $1, ($2 == "PASS" ? "P" : $2 == "FAIL" ? "F" : "N") }' "$1"
}

# The answer column: strongest holding levels, weakest failing ones and the anomaly.
answer_of() {
  awk '/^strongest level/ { sub(/^[^:]*: /, ""); gsub(/ \([^)]*\)/, ""); h = $0 }
       /^weakest level/ { w = 1; next }
       w && /^  [a-z-]+ \(/ { l = $1; r = $0; sub(/^[^)]*\): /, "", r); sub(/:.*/, "", r); sub(/ \(TAP.*|, .*/, "", r)
                            f = f (f ? "; " : "") l " (" r ")"; next }
       w { w = 0 }
       END { printf "holds: %s; fails: %s", (h ? h : "none"), (f ? f : "none") }' "$1"
}

rows=0; bad=0
# row OWNER/NAME PATH FORM CLAIMS [TAG]
row() {
  local r=$1 p=$2 form=$3 claims=$4 tag=${5:-} f in log lv ans ok c l want got
  f=$(materialize "$r" "$p"); [ -n "$f" ] || return
  in=$f
  case $form in awdit*) in=$tmp/awdit.txt; awdit_to_text "$f" > "$in" || return;; esac
  log=$tmp/run.log
  timeout "$limit" "$ISOCHECK" check --level ladder "$in" > "$log" 2>&1
  local rc=$?
  if [ $rc -ge 2 ]; then
    ans="refused (exit $rc): $(grep -m1 -v ': note:' "$log" | sed 's/^isocheck: [^:]*: //' | cut -c1-90)"
    lv=""
  else
    lv=$(levels_of "$log"); ans=$(answer_of "$log")
  fi
  ok=yes
  for c in $claims; do
    l=${c#*:}; want=P; [ "${c%%:*}" = fail ] && want=F
    got=$(echo " $lv" | sed -n "s/.* $l=\([PFN]\).*/\1/p")
    [ "$got" = "$want" ] || ok=no
  done
  if [ $ok = no ]; then
    if [ -n "$tag" ]; then ok="no ($tag)"; else ok="NO (undocumented)"; bad=$((bad + 1)); fi
  elif [ -n "$tag" ]; then ok="yes ($tag)"; fi
  printf '| %s `%s` | %s | %s | %s | %s |\n' "$r" "$p" "$form" "$claims" "$ans" "$ok"
  rows=$((rows + 1))
}

echo "| source | form | published | isocheck's ladder | agree |"
echo "|---|---|---|---|---|"

# Plume's 14 test cases in the five forms its artifact ships (History/testcase).
P=anonymous-authors-artifact/plume-on-hat
for x in a b c d e f g h i j k l m n; do
  case $x in [a-i]) lvl=rc;; [j-l]) lvl=ra;; *) lvl=cc;; esac
  for form in text elle dbcop cobra viper; do
    case $form in text) p=History/testcase/text/tap-$x.txt;; elle) p=History/testcase/elle/tap-$x.edn;;
                  *) p=History/testcase/$form/tap-$x;; esac
    tag=""
    case $x/$form in
      i/text|i/dbcop|i/cobra|i/viper) tag=tap-i-is-rc;;
      [a-d]/viper) tag=viper-empty;;
      e/cobra) tag=cobra-e-no-reads;;
      b/dbcop) tag=dbcop-b-thin-air;;
      j/*) tag=tap-j-own-write;;
      [il]/elle) tag=elle-list-g0;;
      n/elle) tag=elle-n-incompatible;;
    esac
    c="fail:$lvl"; [ $lvl = cc ] || c="$c fail:cc"
    row "$P" "$p" "$form" "$c" "$tag"
  done
done
# Plume's new bugs (History/bugs) and the ones other tools found first (History/reproduce).
row "$P" History/bugs/antidote.txt text "fail:cc" thin-air-excerpt
row "$P" History/bugs/mariadb/result.txt text "fail:cc" thin-air-excerpt
row "$P" History/bugs/yugabyte.txt text "fail:cc"
row "$P" History/reproduce/dgraph/history.txt text "fail:si"
for v in history3-4-1-2-aborted-read history4-4-6-cyclic-information history5-4-7-read-ur-future-writes; do
  row "$P" "History/reproduce/viper/$v/history.edn" elle "fail:si-plain"
done
# IsoVista's bug files (history/bugs, named by the level they break) and its test history.
I=hengxin/IsoVista
row "$I" history/bugs/dgraph_si.txt text "fail:si"
row "$I" history/bugs/pg_ser_bug.txt text "fail:ser"
row "$I" history/bugs/yugabyte_tcc.txt text "fail:cc"
# Elle's own histories (its tests: test/elle/list_append_test.clj).
E=jepsen-io/elle
row "$E" histories/paper-example.edn elle "fail:si-plain"
row "$E" histories/si-without-g-single.edn elle "hold:si-plain fail:ser-plain"
row "$E" histories/huge-scc.edn elle "fail:strong-si"
# elle-cli's transactional examples (its test.sh; default model strict-serializable).
C=ligurio/elle-cli
row "$C" histories/elle/list-append-gh-30.edn elle "fail:ser-plain"
row "$C" histories/elle/paper-example.edn elle "fail:sser"
row "$C" histories/elle/paper-example.json json "fail:sser"
row "$C" histories/elle/rw-register.edn elle "hold:sser" rw-register-thin-air
row "$C" histories/elle/rw-register.json json "hold:sser" rw-register-thin-air
# AWDIT's test histories (src/checker.rs: causal/ hold cc, read-atomic/ hold ra and fail cc,
# read-committed/ hold rc and fail ra, none/ fail rc).
A=lassemoldrup/AWDIT
d=$(repo_dir "$A")
if [ -n "$d" ]; then
  list=$( (git -C "$d" ls-tree -r --name-only HEAD -- histories/tests 2> /dev/null || (cd "$d" && find histories/tests -type f)) | grep '\.txt$' | sort)
  for p in $list; do
    case $p in
      */causal/*) c="hold:cc";; */read-atomic/*) c="hold:ra fail:cc";;
      */read-committed/*) c="hold:rc fail:ra";; */none/*) c="fail:rc";; *) continue;;
    esac
    row "$A" "$p" "awdit→text" "$c"
  done
fi

# --all: Plume's reproduce directories, counted per directory at rc, ra, cc.
if [ $all = 1 ]; then
  for p in History/reproduce/dbcop/antidote_all_writes History/reproduce/dbcop/galera History/reproduce/dbcop/roachdb \
           History/reproduce/Cockroach History/reproduce/Galera; do
    f=$(materialize "$P" "$p"); [ -n "$f" ] || continue
    n=0; frc=0; fra=0; fcc=0; ref=0
    while IFS= read -r h; do
      n=$((n + 1))
      timeout "$limit" "$ISOCHECK" check --level rc,ra,cc "$h" > "$tmp/run.log" 2>&1
      rc=$?
      if [ $rc -ge 2 ]; then
        ref=$((ref + 1))
        echo "real_levels: ${h#"$f"/}: exit $rc: $(grep -m1 -v '^PASS\|^FAIL\|^  ' "$tmp/run.log" | cut -c1-160)" >&2
        continue
      fi
      grep -q '^FAIL rc' "$tmp/run.log" && frc=$((frc + 1))
      grep -q '^FAIL ra' "$tmp/run.log" && fra=$((fra + 1))
      grep -q '^FAIL cc' "$tmp/run.log" && fcc=$((fcc + 1))
    done < <(find "$f" -type f -name '*.txt' | sort)
    printf '| %s `%s` | text | bugs found before (per database) | %d files: %d fail rc, %d fail ra, %d fail cc, %d without a verdict (exit 2 or more, on stderr) | — |\n' \
      "$P" "$p" "$n" "$frc" "$fra" "$fcc" "$ref"
  done
fi

echo
echo "$rows files; $bad disagreements without a documented reason."
echo "Sources (the snapshot read):"
for r in "$P" "$I" "$E" "$C" "$A"; do
  d=$(repo_dir "$r"); [ -n "$d" ] || continue
  echo "- $r at $(git -C "$d" rev-parse HEAD 2> /dev/null || echo "a work tree (no git)")"
done
[ $bad = 0 ]
