#!/bin/bash
# bench/parse.sh — how fast gsat reads its input, against `wc -l` and
# `gzip -dc` on the same files, before and after a given commit.
#
# Files (fixed seeds, cached in $OUT): DIMACS — random binary clauses (3M
# over 1M variables), random 3-SAT (1.7M clauses), and the rank encoding of
# a gen_gnf instance as `gsat --to-cnf` writes it; GNF — bench/gen_gnf.c
# "pairs" and "rw" at 100k nodes; and PolySI's own GNF dumps when cached
# (bench/polysi-gnf.sh, $POLYSI_GNF_DIR).  Each also gzip -6 compressed.
#
# Stages, each timed alone as CPU time (user+sys, /usr/bin/time), best of
# $REPS runs, reported as uncompressed MB per CPU second:
#   wc -l, gzip -dc           the floor: counting lines, decompressing
#   inflate                   every byte through io/reader.c from the .gz
#                             (bench/read_input.c bytes)
#   text                      `gsat --parse-only=text`: the text checked and
#                             the variables numbered, from the plain and the .gz
#                             file; before: the earlier reader with its calls
#                             adding clauses and edges to the engine stubbed out
#                             (bench/read_input.c, STUB_ENGINE), plain file
#   into solver               `read_input cnf|gnf`: read into a solver (text,
#                             numbering, clauses and graphs built), no solving
# "before" is the same driver built from commit $BEFORE (default e10e052,
# the reader before issues 14/15; it had no text-only mode).
#
# Usage: bench/parse.sh        Env: REPS (3), BEFORE, OUT (build/bench/parse),
#        POLYSI_GNF_DIR (build/bench/polysi-gnf), DOC (doc/benchmarks.md)
# Writes the table into $DOC, section "Reading" (replaced if present).
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. "$ROOT/bench/lib.sh"
REPS=${REPS:-3}
BEFORE=${BEFORE:-e10e052}
OUT=${OUT:-$ROOT/build/bench/parse}
POLYSI_GNF_DIR=${POLYSI_GNF_DIR:-$ROOT/build/bench/polysi-gnf}
DOC=${DOC:-$ROOT/doc/benchmarks.md}
mkdir -p "$OUT"

make -s all >/dev/null || { echo "parse.sh: build failed" >&2; exit 2; }
GSAT=$ROOT/build/gsat
cc -O2 -o "$OUT/gen_gnf" bench/gen_gnf.c || exit 2
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -I. -o "$OUT/read_after" \
  bench/read_input.c build/obj/libprograms.a build/obj/libgsat.a -lm || exit 2
have_before=0
if [ -n "$BEFORE" ] && git rev-parse -q --verify "$BEFORE^{commit}" >/dev/null; then
  if [ ! -x "$OUT/read_before" ]; then
    rm -rf "$OUT/before" && mkdir -p "$OUT/before" && git archive "$BEFORE" | tar -x -C "$OUT/before" &&
      make -s -C "$OUT/before" build/libgsat.a >/dev/null &&
      cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DBEFORE_API -I"$OUT/before/include" -I"$OUT/before" \
        -o "$OUT/read_before" bench/read_input.c "$OUT/before/build/libgsat.a" -lm &&
      cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DBEFORE_API -DSTUB_ENGINE -I"$OUT/before/include" \
        -I"$OUT/before" -o "$OUT/text_before" bench/read_input.c "$OUT/before/build/libgsat.a" -lm \
        -Wl,--wrap=gsat_add_clause,--wrap=gsat_graph_new,--wrap=gsat_graph_add_edge
  fi
  [ -x "$OUT/read_before" ] && [ -x "$OUT/text_before" ] && have_before=1
fi
[ $have_before = 1 ] || echo "parse.sh: no 'before' build (commit '$BEFORE')" >&2

# ---- the files
gen() { # NAME CMD...: $OUT/NAME (and NAME.gz) unless cached
  local f=$OUT/$1; shift
  if [ ! -s "$f" ]; then echo "parse.sh: generating $(basename "$f")" >&2; "$@" > "$f.tmp" && mv "$f.tmp" "$f" || exit 2; fi
  [ -s "$f.gz" ] && [ "$f.gz" -nt "$f" ] || gzip -6 -c "$f" > "$f.gz"
}
gen cnf-binary.cnf awk 'BEGIN { srand(1); n = 1000000; m = 3000000; print "p cnf " n " " m
  for (i = 0; i < m; i++) printf "%s%d %s%d 0\n", rand() < .5 ? "-" : "", 1 + int(rand() * n), rand() < .5 ? "-" : "", 1 + int(rand() * n) }'
gen cnf-3sat.cnf awk 'BEGIN { srand(2); n = 400000; m = 1704000; print "p cnf " n " " m
  for (i = 0; i < m; i++) printf "%s%d %s%d %s%d 0\n", rand() < .5 ? "-" : "", 1 + int(rand() * n),
    rand() < .5 ? "-" : "", 1 + int(rand() * n), rand() < .5 ? "-" : "", 1 + int(rand() * n) }'
gen pairs-5000.gnf "$OUT/gen_gnf" pairs 5000 20000 1
gen cnf-rank.cnf "$GSAT" --to-cnf=rank "$OUT/pairs-5000.gnf"
gen gnf-pairs.gnf "$OUT/gen_gnf" pairs 100000 500000 1
gen gnf-rw.gnf "$OUT/gen_gnf" rw 100000 250000 1
files="cnf-binary.cnf cnf-3sat.cnf cnf-rank.cnf gnf-pairs.gnf gnf-rw.gnf"
for p in "$POLYSI_GNF_DIR"/*.gnf; do
  [ -s "$p" ] || continue
  n=polysi-$(basename "$p"); ln -sf "$p" "$OUT/$n"; [ -s "$OUT/$n.gz" ] || gzip -6 -c "$p" > "$OUT/$n.gz"
  files="$files $n"
done

# cpu CMD... -> best user+sys seconds over REPS runs (stdout discarded); "-" on failure
cpu() {
  local best="" t
  for _ in $(seq "$REPS"); do
    /usr/bin/time -f "%U %S" -o "$OUT/time" "$@" > /dev/null 2> "$OUT/err" || { echo "parse.sh: failed: $* ($(head -c 200 "$OUT/err"))" >&2; echo -; return; }
    t=$(awk '{ printf "%.3f", $1 + $2 }' "$OUT/time")
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  echo "$best"
}
rate() { awk -v b="$1" -v t="$2" 'BEGIN { if (t == "-") print "-"; else { if (t < 0.01) t = 0.01; printf "%.0f", b / 1e6 / t } }'; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
rows=""
for f in $files; do
  p=$OUT/$f; z=$p.gz
  bytes=$(wc -c < "$p"); mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
  kind=cnf; case $f in *.gnf) kind=gnf;; esac
  got=$("$OUT/read_after" bytes "$z") || exit 2
  [ "$got" = "$bytes" ] || { echo "parse.sh: inflate gave $got bytes for $f, want $bytes" >&2; exit 2; }
  t_wc=$(cpu wc -l "$p"); t_gz=$(cpu gzip -dc "$z")
  t_inf_a=$(cpu "$OUT/read_after" bytes "$z"); t_inf_b=-
  t_txt=$(cpu "$GSAT" --parse-only=text "$p"); t_txtz=$(cpu "$GSAT" --parse-only=text "$z"); t_txt_b=-
  t_sol_a=$(cpu "$OUT/read_after" $kind "$p"); t_sol_b=-
  if [ $have_before = 1 ]; then
    t_inf_b=$(cpu "$OUT/read_before" bytes "$z"); t_sol_b=$(cpu "$OUT/read_before" $kind "$p"); t_txt_b=$(cpu "$OUT/text_before" $kind "$p")
  fi
  echo "parse.sh: $f $mb MB: wc $t_wc gzip $t_gz inflate $t_inf_b/$t_inf_a text $t_txt_b/$t_txt ($t_txtz .gz) solver $t_sol_b/$t_sol_a s" >&2
  rows="$rows| $f | $mb | $(rate "$bytes" "$t_wc") | $(rate "$bytes" "$t_gz") | $(rate "$bytes" "$t_inf_b") | $(rate "$bytes" "$t_inf_a") | $(rate "$bytes" "$t_txt_b") | $(rate "$bytes" "$t_txt") | $(rate "$bytes" "$t_txtz") | $(rate "$bytes" "$t_sol_b") | $(rate "$bytes" "$t_sol_a") | ${t_sol_b} / ${t_sol_a} |
"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "$(machine_line); $(revision); load average $load0 before, $load1 after the run."
  echo
  echo "Command: \`bench/parse.sh\` (REPS=$REPS: best of $REPS runs of each stage, CPU = user+sys from"
  echo "\`/usr/bin/time\`). Every figure is uncompressed MB per CPU second, measured in the same run;"
  echo "\"before\" is commit $BEFORE (the reader before issues 14/15), built and timed by the same driver"
  echo "(\`bench/read_input.c\`). inflate: the .gz through \`io/reader.c\`; text: \`gsat --parse-only=text\`"
  echo "(every line checked, variables numbered; plain file, and after also the .gz); text before: the earlier"
  echo "reader with its calls adding clauses and edges to the engine stubbed out (it allocated the header's"
  echo "variables still); into solver: read into a solver with its clauses and graphs built (\`gsat --parse-only\`"
  echo "does the same), no solving. Times below 0.01 s count as 0.01 s."
  echo
  echo "| file | MB | wc -l | gzip -dc | inflate before | inflate after | text before | text after | text after .gz | into solver before | into solver after | into solver CPU s (before / after) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
} | md_section "$DOC" "Reading"
echo "parse.sh: table in $DOC (section Reading)" >&2
