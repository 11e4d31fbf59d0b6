#!/bin/sh
# bench/simp.sh — what gsat's preprocessing (doc/preprocessing.md) costs and
# saves: gsat with it (the default) and without (--preprocess=0), and minisat
# for reference, on bench/sat.sh's fixed-seed CNF suite (bench/gen_cnf.py);
# then gsat on/off on GNF acyclicity problems (bench/gen_gnf.c families, and
# PolySI's own problems when cached in GNF_DIR, see bench/polysi-gnf.sh).
# Each run has a CPU-time limit (ulimit -t; the wall limit is 20x that, the
# machine is shared); times are CPU seconds (user+sys), a run out of time
# counts as the limit.  Answers are cross-checked and every gsat model is
# checked against the CNF; any problem makes the script fail.  Writes the
# section "Preprocessing" of doc/benchmarks.md, raw results to bench/out/simp/.
#
# usage: bench/simp.sh [-t CPU_SECONDS] [-f FAMILY]... [-n]   (default 30 s)
#   -f: CNF families to run (default all); -n: no GNF part
#   env: GNF_DIR (default build/bench/polysi-gnf)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
limit=30
families=""
gnf=1
while [ $# -gt 0 ]; do
  case "$1" in
    -t) limit=$2; shift 2 ;;
    -f) families="$families $2"; shift 2 ;;
    -n) gnf=0; shift ;;
    *) echo "usage: bench/simp.sh [-t CPU_SECONDS] [-f FAMILY]... [-n]" >&2; exit 2 ;;
  esac
done
for tool in python3 minisat /usr/bin/time timeout bash cc; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench/simp.sh: needs $tool" >&2; exit 2; }
done
make -s build/gsat
out=bench/out/simp
rm -rf "$out"; mkdir -p "$out"
python3 bench/gen_cnf.py "$out/suite"
[ -n "$families" ] || families=$(ls "$out/suite")
GNF_DIR=${GNF_DIR:-build/bench/polysi-gnf}
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# run OUTFILE CMD... -> "ANSWER CPU MB" (ANSWER: SAT UNSAT TIMEOUT ERROR)
run() {
  o=$1; shift
  set +e
  /usr/bin/time -f "%U %S %M" -o "$o.time" timeout $((20 * limit)) nice \
    bash -c 'ulimit -t "$0"; exec "$@"' "$limit" "$@" > "$o" 2>/dev/null
  rc=$?
  set -e
  case $rc in 10) a=SAT ;; 20) a=UNSAT ;; 0|124|137|152) a=TIMEOUT ;; *) a=ERROR ;; esac
  tail -1 "$o.time" | awk -v a="$a" -v lim="$limit" \
    '{ t = $1 + $2; if (a == "TIMEOUT" || a == "ERROR") t = lim; printf "%s %.2f %.1f\n", a, t, $3 / 1024 }'
}

stat_of() { awk -v k="$2" '$2 == k ":" { print $3; exit }' "$1"; }

model_ok() { # gsat answer file, cnf: every clause has a true literal
  awk 'FNR==NR { if ($1=="v") for (i=2;i<=NF;i++) val[$i]=1; next }
       /^[cp%]/ { next }
       { for (i=1;i<=NF;i++) { if ($i=="0") { if (!ok) bad=1; ok=0 } else if ($i in val) ok=1 } }
       END { exit bad }' "$1" "$2"
}

results="$out/results.tsv"
: > "$results"
wrong=0
for fam in $families; do
  for cnf in "$out/suite/$fam"/*.cnf; do
    name=$(basename "$cnf" .cnf)
    set -- $(run "$out/on.txt" build/gsat -v "$cnf"); a_on=$1 t_on=$2 m_on=$3
    el=$(stat_of "$out/on.txt" simp_eliminated); su=$(stat_of "$out/on.txt" simp_substituted)
    us=$(stat_of "$out/on.txt" simp_usec); c_on=$(stat_of "$out/on.txt" conflicts)
    if [ "$a_on" = SAT ] && ! model_ok "$out/on.txt" "$cnf"; then echo "WRONG MODEL: gsat on $cnf" >&2; wrong=$((wrong+1)); fi
    set -- $(run "$out/off.txt" build/gsat -v --preprocess=0 "$cnf"); a_off=$1 t_off=$2 m_off=$3
    c_off=$(stat_of "$out/off.txt" conflicts)
    if [ "$a_off" = SAT ] && ! model_ok "$out/off.txt" "$cnf"; then echo "WRONG MODEL: gsat --preprocess=0 on $cnf" >&2; wrong=$((wrong+1)); fi
    set -- $(run "$out/ms.txt" minisat -verb=0 "$cnf"); a_ms=$1 t_ms=$2 m_ms=$3
    sat=0; unsat=0
    for a in $a_on $a_off $a_ms; do
      [ $a = SAT ] && sat=1; [ $a = UNSAT ] && unsat=1
      [ $a = ERROR ] && { echo "ERROR (crash?) on $cnf: $a_on $a_off $a_ms" >&2; wrong=$((wrong+1)); }
    done
    if [ $sat = 1 ] && [ $unsat = 1 ]; then echo "DISAGREEMENT on $cnf: $a_on $a_off $a_ms" >&2; wrong=$((wrong+1)); fi
    printf 'cnf\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fam" "$name" \
      "$a_on" "$t_on" "$m_on" "$a_off" "$t_off" "$m_off" "$a_ms" "$t_ms" "$m_ms" \
      "${el:-0}" "${su:-0}" "${us:-0}" "${c_on:--}" "${c_off:--}" >> "$results"
    printf '%-10s %-24s on %-7s %6ss  off %-7s %6ss  minisat %-7s %6ss  (elim %s, subst %s)\n' \
      "$fam" "$name" "$a_on" "$t_on" "$a_off" "$t_off" "$a_ms" "$t_ms" "${el:-0}" "${su:-0}"
  done
done

if [ $gnf = 1 ]; then
  cc -O2 -o "$out/gen_gnf" bench/gen_gnf.c
  for spec in pairs:2000:20000 triple:2000:20000 rw:2000:20000; do
    fam=${spec%%:*}; rest=${spec#*:}; n=${rest%%:*}; m=${rest#*:}
    for uns in 0 1; do
      "$out/gen_gnf" "$fam" "$n" "$m" 1 $([ $uns = 1 ] && echo unsat) > "$out/$fam-$n-$m-$uns.gnf"
    done
  done
  for g in "$out"/*.gnf "$GNF_DIR"/*.gnf; do
    [ -s "$g" ] || continue
    name=$(basename "$g" .gnf)
    case "$g" in "$GNF_DIR"/*) fam=polysi ;; *) fam=gnf-${name%%-*} ;; esac
    set -- $(run "$out/on.txt" build/gsat -v -n "$g"); a_on=$1 t_on=$2 m_on=$3
    el=$(stat_of "$out/on.txt" simp_eliminated); su=$(stat_of "$out/on.txt" simp_substituted)
    us=$(stat_of "$out/on.txt" simp_usec); c_on=$(stat_of "$out/on.txt" conflicts)
    set -- $(run "$out/off.txt" build/gsat -v -n --preprocess=0 "$g"); a_off=$1 t_off=$2 m_off=$3
    c_off=$(stat_of "$out/off.txt" conflicts)
    if { [ $a_on = SAT ] && [ $a_off = UNSAT ]; } || { [ $a_on = UNSAT ] && [ $a_off = SAT ]; } ||
       [ $a_on = ERROR ] || [ $a_off = ERROR ]; then
      echo "DISAGREEMENT on $g: $a_on $a_off" >&2; wrong=$((wrong+1))
    fi
    printf 'gnf\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t0\t0\t%s\t%s\t%s\t%s\t%s\n' "$fam" "$name" \
      "$a_on" "$t_on" "$m_on" "$a_off" "$t_off" "$m_off" "${el:-0}" "${su:-0}" "${us:-0}" "${c_on:--}" "${c_off:--}" >> "$results"
    printf '%-10s %-24s on %-7s %6ss  off %-7s %6ss  (elim %s, subst %s)\n' "$fam" "$name" "$a_on" "$t_on" "$a_off" "$t_off" "${el:-0}" "${su:-0}"
  done
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table ---------------------------------------------------------------
table=$(awk -F'\t' '
  { f = $2; if (!(f in n)) order[++nf] = f; n[f]++
    if ($4 != "TIMEOUT" && $4 != "ERROR") son[f]++
    if ($7 != "TIMEOUT" && $7 != "ERROR") soff[f]++
    if ($1 == "cnf" && $10 != "TIMEOUT" && $10 != "ERROR") sms[f]++
    ton[f] += $5; toff[f] += $8; tms[f] += $11; cnfrow[f] = ($1 == "cnf")
    if ($6 > mon[f]) mon[f] = $6; if ($9 > moff[f]) moff[f] = $9
    el[f] += $13; su[f] += $14; us[f] += $15 }
  END {
    print "| family | instances | on: solved | on: CPU s | off: solved | off: CPU s | on/off CPU | minisat: solved | minisat: CPU s | on/minisat CPU | eliminated | substituted | preprocessing s (wall) | peak MB on / off |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for (k = 1; k <= nf; k++) { f = order[k]
      ms1 = cnfrow[f] ? sprintf("%d", sms[f]) : "-"; ms2 = cnfrow[f] ? sprintf("%.2f", tms[f]) : "-"
      r2 = (cnfrow[f] && tms[f] > 0) ? sprintf("%.2f", ton[f] / tms[f]) : "-"
      printf "| %s | %d | %d | %.2f | %d | %.2f | %.2f | %s | %s | %s | %d | %d | %.2f | %.1f / %.1f |\n", f, n[f], son[f], ton[f], soff[f], toff[f],
        (toff[f] > 0 ? ton[f] / toff[f] : 0), ms1, ms2, r2, el[f], su[f], us[f] / 1e6, mon[f], moff[f] }
  }' "$results")

machine="$(uname -srm), $(nproc) cores, $(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ *//')"
section=$(cat <<EOF
## Preprocessing

- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $machine, shared (load average $load_start at the start, $load_end at the end; solvers under \`nice\`).
- Command: \`bench/simp.sh -t $limit\`: gsat with preprocessing (\`on\`, the default) and
  without (\`off\`, \`--preprocess=0\`) on bench/sat.sh's suite, minisat for reference; gsat on/off
  on GNF families (\`bench/gen_gnf.c\`, seed 1) and PolySI's problems if cached (family \`polysi\`).
- CPU time (user+sys) summed per family, limit $limit s CPU per run (a run out of time counts
  $limit s); all three runs of an instance one after the other, so the ratios are same-run.
  Preprocessing time is wall time (\`simp_usec\`).
- Answers cross-checked, gsat models checked against the CNF: $wrong problems.

$table
EOF
)
doc=doc/benchmarks.md
begin='<!-- preprocessing:begin -->'; end='<!-- preprocessing:end -->'
tmpdoc=$(mktemp)
if grep -q "$begin" "$doc"; then
  awk -v b="$begin" -v e="$end" 'index($0,b)==1 {skip=1; print "@@SECTION@@"; next} index($0,e)==1 {skip=0; next} !skip' "$doc" > "$tmpdoc"
else
  { cat "$doc"; echo; echo "@@SECTION@@"; } > "$tmpdoc"
fi
{ while IFS= read -r line; do
    if [ "$line" = "@@SECTION@@" ]; then printf '%s\n%s\n%s\n' "$begin" "$section" "$end"; else printf '%s\n' "$line"; fi
  done < "$tmpdoc"; } > "$doc"
rm -f "$tmpdoc"
echo
echo "$table"
echo "problems: $wrong  (table written to $doc)"
[ $wrong -eq 0 ]
