#!/bin/bash
# bench/graph.sh — the acyclicity theory against MonoSAT on the same GNF files.
#
# Families (fixed seeds, bench/gen_gnf.c): "pairs" (either/or edge pairs on
# a random always-on DAG) and "triple" (three-way polygraph-like choices),
# each satisfiable and unsatisfiable, at 1000 nodes / 10000 choices and
# 2000 / 20000; a scaling run to 100k nodes / about 1M guarded edges; and,
# when present, the GNF problems PolySI hands to MonoSAT (family "polysi",
# $POLYSI_GNF_DIR/*.gnf, made with POLYSI_GNF=... peers/polysi.sh).
# Every file is solved by build/gsat and by MonoSAT (when
# $MONOSAT, default /opt/peers/monosat-static/monosat, exists), under
# `timeout`, timed by /usr/bin/time (wall, CPU = user+sys, peak memory).
# Answers are cross-checked.  An ablation runs gsat with theory propagation
# off / bounded and with the order-guided phase off.
#
# Usage: bench/graph.sh [--quick]      (--quick: 1000-node sizes only)
# Env:   GSAT_TIMEOUT (s, default 600), MONOSAT_TIMEOUT (s, default 900),
#        OUT (results dir, default build/bench/graph), DOC (default doc/benchmarks.md)
# Writes the table into $DOC, section "Acyclicity theory" (replaced if present).
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
QUICK=0; [ "${1:-}" = "--quick" ] && QUICK=1
MONOSAT=${MONOSAT:-/opt/peers/monosat-static/monosat}
GSAT_TIMEOUT=${GSAT_TIMEOUT:-600}
MONOSAT_TIMEOUT=${MONOSAT_TIMEOUT:-900}
OUT=${OUT:-$ROOT/build/bench/graph}
DOC=${DOC:-$ROOT/doc/benchmarks.md}
POLYSI_GNF_DIR=${POLYSI_GNF_DIR:-}
mkdir -p "$OUT"

make -s all >/dev/null || { echo "graph.sh: build failed" >&2; exit 2; }
cc -O2 -o "$OUT/gen_gnf" bench/gen_gnf.c || exit 2
GSAT=$ROOT/build/gsat
have_monosat=0; [ -x "$MONOSAT" ] && have_monosat=1
[ $have_monosat = 1 ] || echo "graph.sh: MonoSAT not found at $MONOSAT: gsat only" >&2

# run NAME TIMEOUT CMD... -> "answer wall cpu mem_mb" (answer: SAT UNSAT TIMEOUT ERROR)
run() {
  local name=$1 to=$2; shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$OUT/$name.time" timeout "$to" nice "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
  local rc=$? ans
  if grep -qx 's SATISFIABLE' "$OUT/$name.out"; then ans=SAT
  elif grep -qx 's UNSATISFIABLE' "$OUT/$name.out"; then ans=UNSAT
  elif [ $rc -eq 124 ]; then ans=TIMEOUT
  else ans=ERROR; fi
  local t; t=$(tail -1 "$OUT/$name.time")
  set -- $t
  awk -v a="$ans" -v w="$1" -v u="$2" -v s="$3" -v m="$4" 'BEGIN { printf "%s %.3f %.3f %.0f\n", a, w, u + s, m / 1024 }'
}

rows=()      # markdown rows
abl=()
add_case() { # family nodes count seed unsat(0/1) [monosat 0/1]
  local fam=$1 n=$2 m=$3 seed=$4 uns=$5 mono=${6:-1}
  local tag="$fam-$n-$m-$([ "$uns" = 1 ] && echo unsat || echo sat)"
  local f="$OUT/$tag.gnf"
  [ -s "$f" ] || "$OUT/gen_gnf" "$fam" "$n" "$m" "$seed" $([ "$uns" = 1 ] && echo unsat) > "$f"
  local edges; edges=$(grep -c '^edge' "$f")
  read -r ga gw gc gm <<< "$(run "$tag.gsat" "$GSAT_TIMEOUT" "$GSAT" -n "$f")"
  local ma=- mw=- mc=- mm=- ratio_w=- ratio_c=-
  if [ $have_monosat = 1 ] && [ "$mono" = 1 ]; then
    read -r ma mw mc mm <<< "$(run "$tag.monosat" "$MONOSAT_TIMEOUT" "$MONOSAT" "$f")"
    ratio_w=$(awk -v a="$mw" -v b="$gw" 'BEGIN { if (b < 0.01) b = 0.01; printf "%.0fx", a / b }')
    ratio_c=$(awk -v a="$mc" -v b="$gc" 'BEGIN { if (b < 0.01) b = 0.01; printf "%.0fx", a / b }')
    if [ "$ma" = TIMEOUT ]; then mw=">$MONOSAT_TIMEOUT"; ratio_w=">$ratio_w"; ratio_c=-; fi
    if [ "$ma" != TIMEOUT ] && [ "$ma" != "$ga" ]; then
      echo "graph.sh: ANSWERS DIFFER on $tag: gsat $ga, MonoSAT $ma" >&2
    fi
  fi
  local want; want=$([ "$uns" = 1 ] && echo UNSAT || echo SAT)
  [ "$fam" = polysi ] && want=$ma
  [ "$ga" = "$want" ] || [ "$want" = - ] || echo "graph.sh: gsat answered $ga on $tag, expected $want" >&2
  rows+=("| $tag | $edges | $ga | $gw | $gc | $gm | $ma | $mw | $mc | $mm | $ratio_w | $ratio_c |")
  echo "${rows[-1]}"
}

ablate() { # tag (file exists)
  local tag=$1 f="$OUT/$1.gnf" line="| $1 |" a w c m
  for o in "--theory_propagate=0" "--theory_propagate=1" "--theory_propagate=2" "--theory_phase=0"; do
    local oname=${o#--}; oname=${oname//=/_}
    read -r a w c m <<< "$(run "$tag.gsat.$oname" "$GSAT_TIMEOUT" "$GSAT" -n -v $o "$f")"
    local confl; confl=$(awk '/^c conflicts:/ { print $3 }' "$OUT/$tag.gsat.$oname.out")
    line="$line $a $c s, ${confl:-?} conflicts |"
  done
  abl+=("$line")
  echo "$line"
}

sizes="1000:10000"; [ $QUICK = 0 ] && sizes="1000:10000 2000:20000"
sizes=${SIZES:-$sizes}
for sz in $sizes; do
  n=${sz%:*}; m=${sz#*:}
  for fam in pairs triple; do
    for uns in 0 1; do add_case "$fam" "$n" "$m" 1 "$uns"; done
  done
done
if [ $QUICK = 0 ]; then
  # scaling: 100k nodes, ~1M guarded edges (pairs: 2 per choice, triple: 6)
  add_case pairs 100000 500000 1 0 0
  add_case triple 100000 170000 1 0 0
fi
if [ -n "$POLYSI_GNF_DIR" ]; then
  for f in "$POLYSI_GNF_DIR"/*.gnf; do
    [ -e "$f" ] || continue
    t=polysi-$(basename "$f" .gnf)
    ln -sf "$f" "$OUT/$t.gnf"
    add_case polysi "$t" "" 0 0
  done
fi
for sz in $sizes; do n=${sz%:*}; m=${sz#*:}; for fam in pairs triple; do ablate "$fam-$n-$m-sat"; done; break; done
for f in "$OUT"/polysi-*.gnf; do [ -e "$f" ] && ablate "$(basename "$f" .gnf)"; done

# ---- write doc/benchmarks.md, section "Acyclicity theory" ----
mkdir -p "$(dirname "$DOC")"
[ -f "$DOC" ] || printf '# Benchmarks\n' > "$DOC"
sec="$OUT/section.md"
{
  echo "## Acyclicity theory"
  echo
  echo "Generated by \`bench/graph.sh${1:+ $1}\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores"
  echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), shared with other jobs: wall times"
  echo "include waiting for a core, CPU = user+sys.  Commit $(git rev-parse --short HEAD)."
  echo "gsat: \`build/gsat -n FILE.gnf\` (defaults: theory_propagate=1, theory_phase=1);"
  echo "MonoSAT: \`$MONOSAT FILE.gnf\` (built from source, /opt/peers), timeout ${MONOSAT_TIMEOUT} s."
  echo "Files: \`bench/gen_gnf.c\` with seed 1 (family NODES CHOICES); \"polysi-*\" are the exact"
  echo "problems PolySI gives MonoSAT (POLYSI_GNF trace) on the named history. Memory = peak RSS."
  echo
  echo "| instance | edges | gsat | wall s | CPU s | MB | MonoSAT | wall s | CPU s | MB | wall ratio | CPU ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Ablation (gsat only; answer, CPU seconds, conflicts): theory propagation off / Pearce–Kelly"
  echo "window (default) / window + bounded search (64 nodes each way), and the order-guided phase off."
  echo
  echo "| instance | theory_propagate=0 | =1 (default) | =2 | theory_phase=0 |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${abl[@]}"
} > "$sec"
awk -v secfile="$sec" '
  BEGIN { while ((getline l < secfile) > 0) sec = sec l "\n" }
  /^## Acyclicity theory/ { skip = 1; printf "%s", sec; done = 1; next }
  skip && /^## / { skip = 0 }
  !skip { print }
  END { if (!done) printf "\n%s", sec }' "$DOC" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
echo "graph.sh: wrote $DOC (section Acyclicity theory); raw results in $OUT"
