#!/bin/bash
# bench/encodings.sh — solver-integrated acyclicity (gsat, MonoSAT) against
# acyclicity encoded in clauses (tc, rank, unary, ve; doc/encodings.md)
# under plain SAT solvers (MiniSat, CaDiCaL), on the same checking problems.
#
# Histories: `isocheck gen` (SI simulator, fixed seed) with a growing number
# of sessions and transactions, plus the same runs with an injected
# lost-update fault (unsatisfiable).  Each history is exported once per
# format with `isocheck encode --level si --no-prune` (pruning decides the
# generated histories outright, so without it the solvers get the whole
# problem) and every file is solved under `timeout`; answers are
# cross-checked (every solver must agree with `isocheck check`).
#
# Usage: bench/encodings.sh [--quick]
# Env:   TIMEOUT (s per solver run, default 60), OUT (default build/bench/encodings),
#        DOC (default doc/benchmarks.md; section "Encodings" is replaced)
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. bench/lib.sh
QUICK=0; [ "${1:-}" = "--quick" ] && QUICK=1
TIMEOUT=${TIMEOUT:-60}
OUT=${OUT:-$ROOT/build/bench/encodings}
DOC=${DOC:-$ROOT/doc/benchmarks.md}
MONOSAT=${MONOSAT:-/opt/peers/monosat-static/monosat}
mkdir -p "$OUT"
make -s all >/dev/null || { echo "encodings.sh: build failed" >&2; exit 2; }
I=$ROOT/build/isocheck G=$ROOT/build/gsat
have() { command -v "$1" >/dev/null 2>&1; }
SOLVERS=""; for s in minisat cadical; do have $s && SOLVERS="$SOLVERS $s"; done
[ -x "$MONOSAT" ] || MONOSAT=

# sessions:transactions-per-session
if [ $QUICK = 1 ]; then SIZES="4:20 8:25 12:25"; else SIZES="4:20 8:25 12:25 16:30 24:30 32:30"; fi
ENCS="tc rank unary ve"

# time one solver run: prints "answer seconds" (answer SAT, UNSAT, TIMEOUT, ERROR)
solve() { # log cmd...
  local log=$1; shift
  /usr/bin/time -f %e -o "$log.t" timeout "$TIMEOUT" "$@" >"$log" 2>&1
  local rc=$? a=ERROR
  case $rc in 10) a=SAT;; 20) a=UNSAT;; 124) a=TIMEOUT;; esac
  echo "$a $(tail -1 "$log.t" 2>/dev/null | awk '{print ($1 ~ /^[0-9.]+$/) ? $1 : "?"}')"
}

sizes=$OUT/sizes.tsv times=$OUT/times.tsv
mismatch=0
# REPORT_ONLY=1: rebuild the section from the last run's tables
[ "${REPORT_ONLY:-0}" = 1 ] && SIZES=""
[ -n "$SIZES" ] && { : >"$sizes"; : >"$times"; echo "$(revision); $(machine_line)" >"$OUT/run.info"; echo "$TIMEOUT" >"$OUT/timeout"; }
for sz in $SIZES; do
  S=${sz%%:*} T=${sz##*:}
  for fault in none lost-update; do
    name="s${S}x${T}-$fault"
    h=$OUT/$name.txt
    if [ $fault = none ]; then
      nice "$I" gen --sessions $S --txns $T --ops 8 --keys $((S * T / 2)) --dist zipf --level si --seed 7 --no-truth --force -o "$h" || exit 2
    else
      nice "$I" gen --sessions $S --txns $T --ops 8 --keys $((S * T / 2)) --dist zipf --level si --seed 7 \
        --fault lost-update --fault-rate 0.2 --no-truth --force -o "$h" || exit 2
    fi
    "$I" check --level si "$h" >/dev/null 2>&1; ref=$?
    case $ref in 0) want=SAT;; 1) want=UNSAT;; *) want=?;; esac
    txns=$((S * T))
    /usr/bin/time -f %e -o "$OUT/check.t" "$I" check --level si "$h" >/dev/null 2>&1
    tcheck=$(tail -1 "$OUT/check.t")
    # GNF: gsat and MonoSAT on the same file
    "$I" encode --level si --no-prune -v --gnf -o "$OUT/$name.gnf" "$h" 2>"$OUT/$name.gnf.info"
    cons=$(sed -n 's/.*gnf: \([0-9]*\) constraint variables, \([0-9]*\) graph nodes, \([0-9]*\) edges.*/\1 \2 \3/p' "$OUT/$name.gnf.info")
    set -- $cons; ncons=${1:-?} nodes=${2:-?} edges=${3:-?}
    row="$name\t$txns\t$want\t$tcheck"
    r=$(solve "$OUT/$name.gsat.log" "$G" -n "$OUT/$name.gnf"); row="$row\tgsat-gnf $r"
    [ "${r%% *}" = "$want" ] || { [ "${r%% *}" = TIMEOUT ] || { echo "MISMATCH $name gsat-gnf: $r, want $want" >&2; mismatch=1; }; }
    if [ -n "$MONOSAT" ]; then
      r=$(solve "$OUT/$name.mono.log" "$MONOSAT" "$OUT/$name.gnf"); row="$row\tmonosat-gnf $r"
      [ "${r%% *}" = "$want" ] || [ "${r%% *}" = TIMEOUT ] || { echo "MISMATCH $name monosat: $r, want $want" >&2; mismatch=1; }
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s' "$name" "$txns" "$ncons" "$nodes" "$edges" "$(wc -c <"$OUT/$name.gnf")" >>"$sizes"
    for e in $ENCS; do
      cnf=$OUT/$name.$e.cnf
      if "$I" encode --level si --no-prune --cnf=$e --max-clauses 30000000 -o "$cnf" "$h" 2>"$cnf.err"; then
        vc=$(awk '/^p cnf/{print $3 "/" $4; exit}' "$cnf")
        printf '\t%s' "$vc" >>"$sizes"
        r=$(solve "$OUT/$name.$e.gsat.log" "$G" -n "$cnf"); row="$row\tgsat-$e $r"
        [ "${r%% *}" = "$want" ] || [ "${r%% *}" = TIMEOUT ] || { echo "MISMATCH $name gsat $e: $r, want $want" >&2; mismatch=1; }
        for s in $SOLVERS; do
          case $s in minisat) r=$(solve "$OUT/$name.$e.$s.log" minisat -verb=0 "$cnf");;
                     cadical) r=$(solve "$OUT/$name.$e.$s.log" cadical -q "$cnf");; esac
          row="$row\t$s-$e $r"
          [ "${r%% *}" = "$want" ] || [ "${r%% *}" = TIMEOUT ] || { echo "MISMATCH $name $s $e: $r, want $want" >&2; mismatch=1; }
        done
        rm -f "$cnf"
      else
        printf '\t%s' "too big" >>"$sizes"
        row="$row\tgsat-$e SKIP -"; for s in $SOLVERS; do row="$row\t$s-$e SKIP -"; done
      fi
    done
    printf '\n' >>"$sizes"
    printf '%b\n' "$row" >>"$times"
    echo "done $name" >&2
  done
done

# ---- real histories: our GNF export against PolySI's GNF for the same benchmark
# (PolySI's MonoSAT traces in $POLYSI_GNF_DIR, e.g. tpcc.gnf for fig8_9_10/tpcc-10000)
POLYSI_GNF_DIR=${POLYSI_GNF_DIR:-/work/wt/gnf}
DATA=${DATA:-$ROOT/../shared/data}
real=$OUT/real.tsv
: >"$real"
echo "$(revision), $(date -u '+%Y-%m-%d %H:%M UTC')" >"$OUT/real.info"
for b in rubis twitter tpcc; do
  pg=$POLYSI_GNF_DIR/$b.gnf; hd=$DATA/polysi-histories/fig8_9_10/$b-10000
  [ -f "$pg" ] && [ -d "$hd" ] || continue
  h=$(ls -d "$hd"/* | head -1)
  "$I" encode --level si --gnf -o "$OUT/$b.real.gnf" "$h" || continue
  row="$b\t$(wc -c <"$OUT/$b.real.gnf")\t$(wc -c <"$pg")"
  for f in "$OUT/$b.real.gnf" "$pg"; do
    r=$(solve "$OUT/$b.real.gsat.log" "$G" -n "$f"); row="$row\t$r"
    if [ -n "$MONOSAT" ]; then r=$(solve "$OUT/$b.real.mono.log" "$MONOSAT" "$f"); row="$row\t$r"; fi
  done
  printf '%b\n' "$row" >>"$real"
  rm -f "$OUT/$b.real.gnf"
done

# ---- tables ---------------------------------------------------------------
cell() { # answer seconds -> "1.23" / "timeout" / "—"
  case $1 in SAT|UNSAT) echo "$2";; TIMEOUT) echo ">$TIMEOUT";; SKIP) echo "—";; *) echo "error";; esac
}
{
  echo "Command: \`bench/encodings.sh$([ $QUICK = 1 ] && echo ' --quick')\` ($(cat "$OUT/run.info"))."
  echo "Histories from \`isocheck gen --sessions S --txns T --ops 8 --keys S*T/2 --dist zipf --level si --seed 7\`"
  echo "(\`-lost-update\`: the same with \`--fault lost-update --fault-rate 0.2\`, unsatisfiable;"
  echo "the rows with 0 constraint variables are decided before any solver: one empty clause), exported with"
  echo "\`isocheck encode --level si --no-prune\` (pruning alone decides these histories, so the solvers get the"
  echo "unpruned problem). Every answer agreed with \`isocheck check\`$([ $mismatch = 1 ] && echo ' — EXCEPT the MISMATCH lines printed by the run')."
  echo "Timeout $(cat "$OUT/timeout" 2>/dev/null || echo "$TIMEOUT") s per run; times are wall seconds including parsing; \`—\`: refused (over 30M clauses)."
  echo
  echo "Instance sizes (CNF: variables/clauses):"
  echo
  echo "| history | txns | constraint vars | nodes | edges | GNF bytes | tc | rank | unary | ve |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1,$2,$3,$4,$5,$6,$7,$8,$9,$10 }' "$sizes"
  echo
  echo "Solve times (s):"
  echo
  hdr="| history | answer | isocheck check | gsat GNF |"; sep="|---|---|---|---|"
  [ -n "$MONOSAT" ] && { hdr="$hdr MonoSAT GNF |"; sep="$sep---|"; }
  for e in $ENCS; do hdr="$hdr gsat $e |"; sep="$sep---|"; for s in $SOLVERS; do hdr="$hdr $s $e |"; sep="$sep---|"; done; done
  echo "$hdr"; echo "$sep"
  while IFS=$'\t' read -r name txns want tcheck rest; do
    line="| $name | $want | $tcheck |"
    IFS=$'\t' read -ra cells <<<"$rest"
    for c in "${cells[@]}"; do set -- $c; line="$line $(cell "$2" "$3") |"; done
    echo "$line"
  done <"$times"
  if [ -s "$real" ] && [ -n "$MONOSAT" ]; then
    echo
    echo "Real histories (fig8_9_10, SI, pruned): \`isocheck encode --gnf\` against the GNF PolySI hands MonoSAT for"
    echo "the same benchmark (\`$POLYSI_GNF_DIR\`); both files solved by gsat and MonoSAT, wall s with parsing"
    echo "($(cat "$OUT/real.info")):"
    echo
    echo "| history | our GNF bytes | PolySI GNF bytes | gsat, ours | MonoSAT, ours | gsat, PolySI's | MonoSAT, PolySI's |"
    echo "|---|---|---|---|---|---|---|"
    while IFS=$'\t' read -r b ob pb r1 r2 r3 r4; do
      set -- $r1; a1=$(cell "$1" "$2"); set -- $r2; a2=$(cell "$1" "$2")
      set -- $r3; a3=$(cell "$1" "$2"); set -- $r4; a4=$(cell "$1" "$2")
      echo "| $b | $ob | $pb | $a1 | $a2 | $a3 | $a4 |"
    done <"$real"
  fi
  # ratios on the largest history every method solved: each time / gsat's on the GNF
  echo
  awk -F'\t' '{ ok = 1; for (i = 5; i <= NF; i++) { split($i, c, " "); if (c[2] != "SAT" && c[2] != "UNSAT" && c[2] != "SKIP") ok = 0 }
                 if (ok && $1 ~ /-none$/) last = $0 }
       END { if (!last) exit; n = split(last, f, "\t"); split(f[5], g, " "); base = g[3] < 0.01 ? 0.01 : g[3];
             printf "Ratios on %s (largest satisfiable history every method that was run solved; tc refused), time / gsat on the GNF (%.2f s, floor 0.01 s):", f[1], g[3];
             for (i = 6; i <= n; i++) { split(f[i], c, " "); if (c[2] == "SKIP") continue; t = c[3] < 0.01 ? 0.01 : c[3]; printf " %s %.0fx;", c[1], t / base }
             print "" }' "$times"
} >"$OUT/section.md"

# ---- plot: solve time against transactions, satisfiable runs --------------
dat=$OUT/plot.dat
{
  printf '# txns'
  head -1 "$times" | tr '\t' '\n' | tail -n +5 | awk '{printf " %s", $1}'; echo
  grep -- '-none' "$times" | while IFS=$'\t' read -r name txns want tcheck rest; do
    printf '%s' "$txns"
    IFS=$'\t' read -ra cells <<<"$rest"
    for c in "${cells[@]}"; do set -- $c; case $2 in SAT|UNSAT) printf ' %s' "$3";; *) printf ' NaN';; esac; done
    echo
  done
} >"$dat"
if have gnuplot; then
  # the integrated solvers and each encoding under CaDiCaL (MiniSat: the tables)
  plot=""; i=2
  for t in $(head -1 "$dat" | cut -d' ' -f3-); do
    case $t in gsat-gnf|monosat-gnf|cadical-*|gsat-ve) plot="$plot${plot:+, }'$dat' using 1:$i with linespoints title '$t'";; esac
    i=$((i + 1))
  done
  gnuplot -e "set terminal dumb size 100,30; set logscale y; set xlabel 'transactions'; set ylabel 'seconds (log)';
              set key outside right; plot $plot" >"$OUT/plot.txt" 2>/dev/null
  gnuplot -e "set terminal pngcairo size 1000,600; set output '$ROOT/doc/encodings.png'; set logscale y;
              set xlabel 'transactions'; set ylabel 'solve time, s (log)'; set key outside right; plot $plot" 2>/dev/null &&
    echo >>"$OUT/section.md" && echo "Plot (satisfiable histories; also \`doc/encodings.png\`):" >>"$OUT/section.md"
  { echo; echo '```'; cat "$OUT/plot.txt"; echo '```'; } >>"$OUT/section.md"
fi
md_section "$DOC" "Encodings" <"$OUT/section.md"
cat "$OUT/section.md"
exit $mismatch
