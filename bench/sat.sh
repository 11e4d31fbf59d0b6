#!/bin/sh
# bench/sat.sh — the SAT engine against Debian's minisat (and cadical):
# a fixed-seed suite (bench/gen_cnf.py), every solver on every instance with
# a per-instance timeout, answers cross-checked (any disagreement or wrong
# gsat model is reported and makes the script fail), time and peak memory
# from /usr/bin/time.  Writes the table into doc/benchmarks.md, section
# "SAT engine" (replaced on each run), raw results to bench/out/sat/.
#
# usage: bench/sat.sh [-t SECONDS] [-j JOBS] [-f FAMILY]...    (default limit 60 s, 1 job)
# The limit is CPU time (ulimit -t; the machine is shared, wall time is
# noise), with a wall-clock safety net of 4x (env WALL_FACTOR: under a
# heavy load 4x the CPU limit in wall time can cut a run short; a run cut
# by it also counts as a timeout).  Runs the solvers under
# `nice` (env NICE=0: not; under a heavy load a niced run hardly gets the
# CPU); -j runs that many instances at once (the times are CPU times, so
# the table means the same).  Long (about 10-20 minutes at -j 1 on a quiet
# machine).  Env GSAT: the gsat binary (default build/gsat, built first).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out/sat
gsat=${GSAT:-build/gsat}
solvers="gsat minisat"
command -v cadical >/dev/null 2>&1 && solvers="$solvers cadical"
nice_cmd=nice
[ "${NICE:-1}" = 0 ] && nice_cmd=

# One instance, every solver (called by the loop below, maybe in parallel):
# bench/sat.sh --instance LIMIT FAMILY CNF.  Writes $out/res/FAMILY/NAME.tsv
# (the result lines), .txt (the answers line) and .wrong (its problems).
if [ "${1:-}" = --instance ]; then
  timeout_s=$2; fam=$3; cnf=$4
  name=$(basename "$cnf" .cnf)
  dir="$out/res/$fam"; mkdir -p "$dir"
  tsv="$dir/$name.tsv"; : > "$tsv"; : > "$dir/$name.wrong"
  answers=""
  for s in $solvers; do
    case $s in
      gsat) cmd="$gsat" ;;
      minisat) cmd="minisat -verb=0" ;;
      cadical) cmd="cadical -q" ;;
    esac
    set +e
    /usr/bin/time -f "%e %U %S %M" -o "$dir/$name.time" timeout $((${WALL_FACTOR:-4} * timeout_s)) $nice_cmd \
      sh -c 'ulimit -t "$0"; exec "$@"' "$timeout_s" $cmd "$cnf" > "$dir/$name.answer" 2>/dev/null
    rc=$?
    set -e
    # CPU time (user+sys): the machine is shared, wall time is noise
    t=$(tail -1 "$dir/$name.time" | awk '{printf "%.2f", $2 + $3}')
    mem=$(tail -1 "$dir/$name.time" | awk '{print $4}')
    case $rc in
      10) st=SAT ;;
      20) st=UNSAT ;;
      *) st=TIMEOUT; t=$timeout_s ;;
    esac
    if [ "$s" = gsat ] && [ $st = SAT ]; then
      # the printed model must satisfy every clause
      if ! awk 'FNR==NR { if ($1=="v") for (i=2;i<=NF;i++) val[$i]=1; next }
                /^[cp%]/ { next }
                { for (i=1;i<=NF;i++) { if ($i=="0") { if (!ok) bad=1; ok=0 } else if ($i in val) ok=1 } }
                END { exit bad }' "$dir/$name.answer" "$cnf"; then
        echo "WRONG MODEL: gsat on $cnf" | tee -a "$dir/$name.wrong" >&2
      fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$fam" "$name" "$s" "$st" "$t" "$mem" >> "$tsv"
    answers="$answers $st"
  done
  rm -f "$dir/$name.answer" "$dir/$name.time"
  has_sat=0; has_unsat=0
  for a in $answers; do
    [ "$a" = SAT ] && has_sat=1
    [ "$a" = UNSAT ] && has_unsat=1
  done
  if [ $has_sat = 1 ] && [ $has_unsat = 1 ]; then
    echo "DISAGREEMENT on $cnf:$answers ($solvers)" | tee -a "$dir/$name.wrong" >&2
  fi
  printf '%-12s %-28s %s\n' "$fam" "$name" "$answers"
  exit 0
fi

timeout_s=60
jobs=1
families=""
while [ $# -gt 0 ]; do
  case "$1" in
    -t) timeout_s=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -f) families="$families $2"; shift 2 ;;
    *) echo "usage: bench/sat.sh [-t SECONDS] [-j JOBS] [-f FAMILY]..." >&2; exit 2 ;;
  esac
done
for tool in python3 minisat /usr/bin/time timeout xargs; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench/sat.sh: needs $tool" >&2; exit 2; }
done
[ -n "${GSAT:-}" ] || make -s build/gsat
rm -rf "$out"; mkdir -p "$out"
python3 bench/gen_cnf.py "$out/suite"
[ -n "$families" ] || families=$(ls "$out/suite")

list="$out/instances.txt"
: > "$list"
for fam in $families; do
  for cnf in "$out/suite/$fam"/*.cnf; do printf '%s %s\n' "$fam" "$cnf" >> "$list"; done
done
export GSAT="$gsat" NICE="${NICE:-1}" WALL_FACTOR="${WALL_FACTOR:-4}"
xargs -P "$jobs" -L 1 sh bench/sat.sh --instance "$timeout_s" < "$list"

# the results in the suite's order, whatever order the jobs finished in
results="$out/results.tsv"
: > "$results"
wrong=0
while read -r fam cnf; do
  name=$(basename "$cnf" .cnf)
  cat "$out/res/$fam/$name.tsv" >> "$results"
  wrong=$((wrong + $(wc -l < "$out/res/$fam/$name.wrong")))
done < "$list"

# ---- the table --------------------------------------------------------------
table=$(awk -F'\t' -v solvers="$solvers" '
  BEGIN { ns = split(solvers, S, " ") }
  { f=$1; s=$3; if (!(f in seen)) { seen[f]=1; order[++nf]=f }
    if (s == S[1]) n[f]++
    if ($4 != "TIMEOUT") solved[f,s]++
    tm[f,s] += $5; TT[s] += $5; if (s == S[1]) NN++
    if ($4 != "TIMEOUT") SS[s]++
    if ($6 > mem[f,s]) mem[f,s] = $6; if ($6 > MM[s]) MM[s] = $6 }
  END {
    printf "| family | instances |"; for (i=1;i<=ns;i++) printf " %s solved | %s time (s) |", S[i], S[i]
    printf " gsat/minisat time | gsat peak MB | minisat peak MB |\n"
    printf "|---|---|"; for (i=1;i<=ns;i++) printf "---|---|"; printf "---|---|---|\n"
    for (k=1;k<=nf;k++) { f=order[k]
      printf "| %s | %d |", f, n[f]
      for (i=1;i<=ns;i++) printf " %d | %.2f |", solved[f,S[i]], tm[f,S[i]]
      printf " %.2f | %.1f | %.1f |\n", (tm[f,"minisat"] > 0 ? tm[f,"gsat"]/tm[f,"minisat"] : 0), mem[f,"gsat"]/1024, mem[f,"minisat"]/1024 }
    printf "| **total** | %d |", NN
    for (i=1;i<=ns;i++) printf " %d | %.2f |", SS[S[i]], TT[S[i]]
    printf " **%.2f** | %.1f | %.1f |\n", (TT["minisat"] > 0 ? TT["gsat"]/TT["minisat"] : 0), MM["gsat"]/1024, MM["minisat"]/1024
    # factoring is dominated by preprocessing (variable elimination): also without it
    if ("factoring" in seen) {
      printf "| total without factoring | %d |", NN - n["factoring"]
      for (i=1;i<=ns;i++) printf " %d | %.2f |", SS[S[i]] - solved["factoring",S[i]], TT[S[i]] - tm["factoring",S[i]]
      g = TT["gsat"] - tm["factoring","gsat"]; m = TT["minisat"] - tm["factoring","minisat"]
      printf " **%.2f** | | |\n", (m > 0 ? g/m : 0)
    }
  }' "$results")

machine="$(uname -srm), $(nproc) cores, $(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ *//')"
section=$(cat <<EOF
## SAT engine

- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $machine (shared, $([ -n "$nice_cmd" ] && echo 'solvers run under `nice`' || echo 'solvers not niced')).
- Command: \`$([ -n "$nice_cmd" ] || echo 'NICE=0 ')$([ "${WALL_FACTOR:-4}" = 4 ] || echo "WALL_FACTOR=$WALL_FACTOR ")bench/sat.sh -t $timeout_s$([ "$jobs" = 1 ] || echo " -j $jobs")\` (suite from \`bench/gen_cnf.py\`, fixed seeds;
  minisat = Debian \`minisat\`, cadical = Debian \`cadical\`, gsat = \`$gsat\`).
- Time is CPU time (user+sys) per instance, summed per family; the limit is $timeout_s s of CPU time
  (ulimit -t), and a run that hits it counts as $timeout_s s.  Load average when the run ended: $(cut -d' ' -f1-3 /proc/loadavg).
  Peak memory is the largest maximum resident set size over the family.
- Answers cross-checked between solvers and every gsat model checked against the
  formula: $wrong wrong answers.

$table
EOF
)
doc=doc/benchmarks.md
mkdir -p doc
[ -f "$doc" ] || printf '# Benchmarks\n\nEach section is written by the script it names; rerun it to refresh.\n' > "$doc"
begin='<!-- sat-engine:begin -->'; end='<!-- sat-engine:end -->'
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
echo "wrong answers: $wrong  (table written to $doc)"
[ $wrong -eq 0 ]
