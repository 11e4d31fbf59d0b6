#!/bin/sh
# bench/loader.sh — the history loader's speed on one core, text and Elle
# EDN, against the floor of reading the same bytes: `cat FILE >/dev/null`
# and `wc -l FILE` (issue 37: 200 MB/s or better).  One generated workload
# (isocheck gen, SESS sessions, TXNS transactions each, 8 operations,
# KEYS keys, seed 7), written as text and as EDN (its lines sorted by
# :index, as Jepsen writes them), each about 80 MB; every file read once
# first (page cache).  Per file: CPU (user+sys, best of REPS runs) of cat
# and wc -l (each timed over 20 runs in one shell, per run), `isocheck stats FILE` (load with its report, one thread) of BASE
# and of this tree's build/isocheck, as MB per CPU second; the load
# average before and after.
#   [BASE=other/isocheck] [SESS=100] [TXNS=4000] [KEYS=100000] [REPS=3] bench/loader.sh
set -u
cd "$(dirname "$0")/.." || exit 2
ISO=${ISOCHECK:-build/isocheck}; BASE=${BASE:-}
SESS=${SESS:-100}; TXNS=${TXNS:-4000}; KEYS=${KEYS:-100000}; REPS=${REPS:-3}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
"$ISO" gen --sessions "$SESS" --txns "$TXNS" --ops 8 --keys "$KEYS" --seed 7 --level si -o "$t/h.txt" --no-truth --force \
  >/dev/null || exit 2
"$ISO" gen --sessions "$SESS" --txns "$TXNS" --ops 8 --keys "$KEYS" --seed 7 --level si --format elle -o "$t/g.edn" \
  --no-truth --force >/dev/null || exit 2
sort -n -k8 "$t/g.edn" > "$t/h.edn" && rm -f "$t/g.edn"
best() {    # CMD...: the least user+sys seconds over REPS runs
  b=""
  for _ in $(seq "$REPS"); do
    /usr/bin/time -f "%U %S" -o "$t/time" "$@" > /dev/null 2>&1 || { echo "-"; return; }
    b=$(awk -v a="$b" -v t="$(awk '{ printf "%.3f", $1 + $2 }' "$t/time")" 'BEGIN { print (a == "" || t < a) ? t : a }')
  done
  echo "$b"
}
rate() { awk -v m="$1" -v s="$2" 'BEGIN { if (s == "-") print "-"; else { if (s < 0.0005) s = 0.0005; printf "%.0f", m / s } }'; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| file | MB | cat | wc -l | %sthis tree |\n|---|---|---|---|%s---|\n' "${BASE:+base | }" "${BASE:+---|}"
for f in h.txt h.edn; do
  cat "$t/$f" > /dev/null
  mb=$(awk -v b="$(wc -c < "$t/$f")" 'BEGIN { printf "%.1f", b / 1e6 }')
  # the floors are too quick for /usr/bin/time's 10 ms: 20 runs in one timed shell, per run
  c=$(best sh -c "for i in \$(seq 20); do cat '$t/$f' > /dev/null; done"); c=$(awk -v s="$c" 'BEGIN { printf "%.4f", s / 20 }')
  w=$(best sh -c "for i in \$(seq 20); do wc -l '$t/$f' > /dev/null; done"); w=$(awk -v s="$w" 'BEGIN { printf "%.4f", s / 20 }')
  n=$(best "$ISO" stats "$t/$f")
  row="| ${f#h.} | $mb | ${c} s ($(rate "$mb" "$c") MB/s) | ${w} s ($(rate "$mb" "$w") MB/s) |"
  if [ -n "$BASE" ]; then b=$(best "$BASE" stats "$t/$f"); row="$row ${b} s ($(rate "$mb" "$b") MB/s) |"; fi
  echo "$row ${n} s ($(rate "$mb" "$n") MB/s) |"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
