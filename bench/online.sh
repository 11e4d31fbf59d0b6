#!/bin/bash
# bench/online.sh — `isocheck check --follow` against a batch check of the
# same history.  A generated history (isocheck gen, text, SESS sessions
# (default 20), 8 ops per transaction, KEYS keys (default 10,000; the 1M
# history of issue 17 is --sessions 100 --keys 100000)) is streamed through a pipe in batches of BATCH
# transactions (their lines written at once, then a pause of PAUSE s), with
# a violation (a lost update on keys of their own: 5 transactions) inserted
# after the first half.  Prints, per size: CPU time (user+sys) and peak
# memory of the batch check and of the follow run of the clean history
# (which ends with the same batch check of every byte), their ratios, and,
# on the stream with the violation (where checking stops once it is
# proven), the detection latency:
# from the moment the writer starts writing the batch that completes the
# violation to the DETECTED line (both clocks start with the pipeline),
# and to the report (a witness from the incremental state, or the batch
# check of the settled part, explains it).  -v's split of the follow run's
# CPU into parsing and checking is printed too.
#   [KEYS=N] [SESS=N] [BASE=other/isocheck] bench/online.sh [BATCH (default 1000)] [PAUSE (default 0.02)] SIZES...
#   (default sizes: 10000 100000)
#   EDN=1 bench/online.sh [BATCH] [PAUSE] SIZES...: instead, the same clean
#   history as Elle EDN (isocheck gen --format elle, its lines in :index
#   order: the sessions interleaved, as Jepsen writes them) and as text
#   (the same seed: its committed transactions; text holds no aborted ones),
#   each streamed through a pipe in batches of BATCH transactions: CPU and
#   peak of the batch check of the EDN, of following it, and of following
#   the text, one run each, the ratios to the batch check, and the load
#   (BASE: its EDN and text follow runs too, and the EDN/text ratio of both).
# BASE: a second binary (e.g. main's) whose clean follow run is measured in
# the same run, on the same stream: its CPU/peak and the ratio to it
# (BASE_TIMEOUT=S stops it after S seconds of wall time).
# The clean follow runs' RSS is sampled every 0.2 s (/proc/PID/status): the
# peak before the END line (the stream) and after it (the final phase: the
# batch parse of every byte and the final check or re-check), each against
# the batch check's peak (short phases, as at 10,000 transactions, can fall
# between two samples: then "0MB" and "?"; /usr/bin/time's peak is the whole run's); and the
# final phase's CPU: the run's user+sys less what /proc/PID/stat showed at
# the first sample after END (so up to 0.2 s late).
set -u
cd "$(dirname "$0")/.." || exit 2
ISO=${ISOCHECK:-build/isocheck}
BATCH=${1:-1000}; PAUSE=${2:-0.02}; shift 2 2>/dev/null
SIZES=${*:-10000 100000}
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
SESS=${SESS:-20}; KEYS=${KEYS:-10000}; BASE=${BASE:-}
cpu() { awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f", u+s}' "$1"; }
peak() { awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$1"; }
now() { date +%s.%N; }
# follow_clean NAME BIN [timeout S]: the clean stream into BIN check -v --follow -
# (outputs $t/NAME.{out,err,time}); its RSS sampled: $t/NAME.rss holds
# "stream-peak-MB final-phase-peak-MB CPU-seconds-at-END"; returns its exit code.
follow_clean() {
  local name=$1 bin=$2 tp pid= rc; shift 2
  for c in "$t"/clean.[0-9]*; do cat "$c"; sleep "$PAUSE"; done |
    /usr/bin/time -v -o "$t/$name.time" "$@" "$bin" check -v --follow - > "$t/$name.out" 2> "$t/$name.err" &
  tp=$!
  while [ -z "$pid" ] && kill -0 "$tp" 2>/dev/null; do
    pid=$(pgrep -P "$tp"); [ -n "$pid" ] && [ "$(ps -o comm= -p "$pid")" = timeout ] && pid=$(pgrep -P "$pid")
    sleep 0.05
  done
  local s=0 f=0 r c=0 hz; hz=$(getconf CLK_TCK)
  while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
    r=$(awk '/VmRSS/{printf "%.0f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
    if [ -n "$r" ]; then
      if grep -q '^END after\|"event": "end"' "$t/$name.out"; then
        [ "$r" -gt "$f" ] && f=$r
        [ "$c" = 0 ] && c=$(awk -v hz="$hz" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$pid/stat" 2>/dev/null) && [ -z "$c" ] && c=0
      else [ "$r" -gt "$s" ] && s=$r; fi
    fi
    sleep 0.2
  done
  wait "$tp"; rc=$?
  echo "$s $f ${c:-0}" > "$t/$name.rss"
  return $rc
}
if [ -n "${EDN:-}" ]; then
  # stream FILE BIN OUT: FILE's chunks (t/FILE.NNNNN) into BIN check -v --follow -, timed
  stream() { for c in "$t/$1".[0-9]*; do cat "$c"; sleep "$PAUSE"; done |
               /usr/bin/time -v -o "$t/$3.time" "$2" check -v --follow - > "$t/$3.out" 2> "$t/$3.err"; }
  echo "machine: $(nproc) cores; $SESS sessions, $KEYS keys; batches of $BATCH transactions, pause ${PAUSE}s"
  printf '%-8s %-16s %-16s %-16s %-14s %-14s %s\n' txns "edn batch" "edn follow" "text follow" "edn follow x" "text follow x" "load (1 5 15)"
  for TXNS in $SIZES; do
    "$ISO" gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys $KEYS --seed 7 --level si --format elle \
      -o "$t/g.edn" --no-truth --force >/dev/null || exit 2
    sort -n -k8 "$t/g.edn" > "$t/e.edn"             # :index order (field 8 of "{:type :ok, :f :txn, :process P, :index I, ...")
    "$ISO" gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys $KEYS --seed 7 --level si \
      -o "$t/e.txt" --no-truth --force >/dev/null || exit 2      # the same workload as text (committed ones only)
    rm -f "$t"/e.edn.[0-9]* "$t"/e.txt.[0-9]*
    split -l "$BATCH" -a 5 -d "$t/e.edn" "$t/e.edn."
    per=$(( $(wc -l < "$t/e.txt") / ($(wc -l < "$t/e.edn") / BATCH) ))
    split -l "$per" -a 5 -d "$t/e.txt" "$t/e.txt."
    /usr/bin/time -v -o "$t/eb.time" "$ISO" check "$t/e.edn" > "$t/eb.out"; brc=$?
    stream e.edn "$ISO" ef; erc=$?
    stream e.txt "$ISO" tf; trc=$?
    bc=$(cpu "$t/eb.time"); bp=$(peak "$t/eb.time"); ec=$(cpu "$t/ef.time"); ep=$(peak "$t/ef.time")
    tc=$(cpu "$t/tf.time"); tp=$(peak "$t/tf.time")
    printf '%-8s %-16s %-16s %-16s %-14s %-14s %s\n' "$TXNS" "${bc}s ${bp}MB" "${ec}s ${ep}MB" "${tc}s ${tp}MB" \
      "$(awk -v a="$ec" -v b="$bc" -v c="$ep" -v d="$bp" 'BEGIN{printf "%.1f/%.2f", a / b, c / d}')" \
      "$(awk -v a="$tc" -v b="$bc" -v c="$tp" -v d="$bp" 'BEGIN{printf "%.1f/%.2f", a / b, c / d}')" \
      "$(uptime | sed 's/.*load average: //')"
    [ $brc = 0 ] && [ $erc = 0 ] && [ $trc = 0 ] || echo "  unexpected exit codes: batch $brc, edn follow $erc, text follow $trc"
    grep 'CPU .* parsing' "$t/ef.err" | sed 's/^/  edn: /'
    grep 'CPU .* parsing' "$t/tf.err" | sed 's/^/  text: /'
    if [ -n "$BASE" ]; then
      stream e.edn "$BASE" bf
      echo "  BASE edn follow: $(cpu "$t/bf.time")s $(peak "$t/bf.time")MB; $(grep 'CPU .* parsing' "$t/bf.err")"
      stream e.txt "$BASE" bt
      echo "  BASE text follow: $(cpu "$t/bt.time")s $(peak "$t/bt.time")MB; $(grep 'CPU .* parsing' "$t/bt.err")"
      echo "  edn follow / text follow: this tree $(awk -v a="$ec" -v b="$tc" 'BEGIN{printf "%.2f", a / b}')," \
           "BASE $(awk -v a="$(cpu "$t/bf.time")" -v b="$(cpu "$t/bt.time")" 'BEGIN{printf "%.2f", a / b}')"
    fi
  done
  exit 0
fi
echo "machine: $(nproc) cores; $SESS sessions, $KEYS keys; batches of $BATCH transactions, pause ${PAUSE}s"
printf '%-9s %-18s %-18s %-9s %-9s %-16s %s\n' txns "batch cpu/peak" "follow cpu/peak" "cpu x" "peak x" "proven/reported" "load (1 5 15)"
echo "(cpu/peak: the clean history; latency: the stream with the violation)"
for TXNS in $SIZES; do
  "$ISO" gen --sessions $SESS --txns $((TXNS / SESS)) --ops 8 --keys $KEYS --seed 7 --level si \
    -o "$t/h.txt" --force >/dev/null || exit 2
  lines=$(wc -l < "$t/h.txt"); per=$((lines / (TXNS / BATCH)))
  cut_at=$(( (lines / 2) / per * per ))            # the violation starts a batch of its own
  { head -n $cut_at "$t/h.txt"
    printf 'w(999999,900001,901,90000001)\nr(999999,900001,901,90000002)\nw(999999,900002,901,90000002)\n'
    printf 'r(999999,900001,902,90000003)\nw(999999,900003,902,90000003)\nr(999998,0,901,90000004)\nr(999998,0,902,90000005)\n'
    tail -n +$((cut_at + 1)) "$t/h.txt"; } > "$t/s.txt"
  rm -f "$t"/chunk.* "$t"/clean.*
  split -l "$per" -a 5 -d "$t/s.txt" "$t/chunk."
  split -l "$per" -a 5 -d "$t/h.txt" "$t/clean."
  bad=$(printf '%05d' $((cut_at / per)))           # the chunk holding the violation (and its completion)
  /usr/bin/time -v -o "$t/batch.time" "$ISO" check "$t/h.txt" > "$t/batch.out"; brc=$?
  follow_clean clean "$ISO"; crc=$?
  if [ -n "$BASE" ]; then
    follow_clean base "$BASE" timeout "${BASE_TIMEOUT:-0}"
    [ $? = 124 ] && echo "  BASE follow stopped after BASE_TIMEOUT=${BASE_TIMEOUT}s (wall)"
    cmp -s <(tail -n +2 "$t/base.out") <(tail -n +2 "$t/clean.out") || echo "  the final reports differ from BASE's"
  fi
  writer() {
    local start; start=$(now); echo "$start" > "$t/start.at"
    for c in "$t"/chunk.*; do
      [ "${c##*.}" = "$bad" ] && now > "$t/anomaly.at"
      cat "$c"
      sleep "$PAUSE"
    done
  }
  # the violation's transactions complete (text format: their sessions move on) within its batch
  writer | /usr/bin/time -v -o "$t/follow.time" "$ISO" check -v --follow - > "$t/follow.out" 2> "$t/follow.err"; frc=$?
  det=$(grep -m1 '^DETECTED' "$t/follow.out" | sed 's/DETECTED after \([0-9.]*\)s.*/\1/')
  start=$(cat "$t/start.at"); at=$(cat "$t/anomaly.at" 2>/dev/null || echo "$start")
  lat=$(awk -v d="${det:-0}" -v a="$at" -v s="$start" 'BEGIN{ if (d == 0) print "never"; else printf "%.0fms", (d - (a - s)) * 1000 }')
  expl=$(sed -n 's/.*explained at \([0-9.]*\)s.*/\1/p' "$t/follow.err")
  lat="$lat/$(awk -v d="${expl:-0}" -v a="$at" -v s="$start" 'BEGIN{ if (d == 0) print "never"; else printf "%.0fms", (d - (a - s)) * 1000 }')"
  bc=$(cpu "$t/batch.time"); fc=$(cpu "$t/clean.time"); bp=$(peak "$t/batch.time"); fpk=$(peak "$t/clean.time")
  printf '%-9s %-18s %-18s %-9s %-9s %-16s %s\n' "$TXNS" "${bc}s ${bp}MB" "${fc}s ${fpk}MB" \
    "$(awk -v a="$fc" -v b="$bc" 'BEGIN{printf "%.1f", a / b}')" "$(awk -v a="$fpk" -v b="$bp" 'BEGIN{printf "%.2f", a / b}')" \
    "$lat" "$(uptime | sed 's/.*load average: //')"
  [ $brc = 0 ] && [ $crc = 0 ] && [ $frc = 1 ] || echo "  unexpected exit codes: batch $brc, clean follow $crc, follow $frc"
  grep 'isocheck: follow' "$t/clean.err" | sed 's/^/  clean: /'
  read -r css cfs cce < "$t/clean.rss"
  cfc=$(awk -v a="$fc" -v b="$cce" 'BEGIN{if (b > 0) printf "%.2f", a - b; else printf "?"}')
  echo "  clean follow RSS (0.2 s samples): stream ${css}MB ($(awk -v a="$css" -v b="$bp" 'BEGIN{printf "%.2f", a / b}')x batch)," \
    "final phase ${cfs}MB ($(awk -v a="$cfs" -v b="$bp" 'BEGIN{printf "%.2f", a / b}')x batch), its CPU ~${cfc}s"
  if [ -n "$BASE" ]; then
    bsc=$(cpu "$t/base.time"); bsp=$(peak "$t/base.time")
    echo "  BASE follow (clean): ${bsc}s ${bsp}MB: cpu x $(awk -v a="$bsc" -v b="$bc" 'BEGIN{printf "%.1f", a / b}') of batch," \
      "peak x $(awk -v a="$bsp" -v b="$bp" 'BEGIN{printf "%.2f", a / b}'); this/BASE cpu $(awk -v a="$fc" -v b="$bsc" 'BEGIN{printf "%.2f", a / b}')," \
      "peak $(awk -v a="$fpk" -v b="$bsp" 'BEGIN{printf "%.2f", a / b}')"
    grep 'isocheck: follow' "$t/base.err" | sed 's/^/  BASE clean: /'
    read -r bss bfs bce < "$t/base.rss"
    bfc=$(awk -v a="$bsc" -v b="$bce" 'BEGIN{if (b > 0) printf "%.2f", a - b; else printf "?"}')
    echo "  BASE follow RSS (0.2 s samples): stream ${bss}MB ($(awk -v a="$bss" -v b="$bp" 'BEGIN{printf "%.2f", a / b}')x batch)," \
      "final phase ${bfs}MB ($(awk -v a="$bfs" -v b="$bp" 'BEGIN{printf "%.2f", a / b}')x batch), its CPU ~${bfc}s;" \
      "final phase this/BASE: peak $(awk -v a="$cfs" -v b="$bfs" 'BEGIN{if (a > 0 && b > 0) printf "%.2f", a / b; else printf "?"}')," \
      "CPU $(awk -v a="$cfc" -v b="$bfc" 'BEGIN{if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "?"}')"
  fi
  grep 'isocheck: follow' "$t/follow.err" | sed 's/^/  violation: /'
done
