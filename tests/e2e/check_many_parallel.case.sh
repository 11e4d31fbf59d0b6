#!/bin/sh
# examples/check-many-parallel.sh (GNU parallel and xargs -P) against the
# built-in serial `isocheck check --json A B C`: the same history lines in the
# same order, the same counts and exit code; check-many-merge.sh on bad input
# (file:line, exit 2, OUT untouched). Skips when neither GNU parallel nor
# xargs -P is there.
ex="$ROOT/examples"
fail=0
t() { echo "$1"; fail=1; }
have_parallel=0 have_xargs=0
parallel --version 2>/dev/null | grep -q 'GNU parallel' && have_parallel=1
echo x | xargs -n 1 -P 2 true 2>/dev/null && have_xargs=1
[ $have_parallel = 1 ] || [ $have_xargs = 1 ] || { echo "neither GNU parallel nor xargs -P here"; exit 77; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
export ISOCHECK TMPDIR="$w"

# the histories: a directory of files (FAIL and PASS), a Cobra log directory
# (one history), a file that cannot be read, a Elle file
mkdir "$w/h" "$w/h2"
for f in lost_update.txt write_skew.txt long_fork.txt read_skew.txt; do cp "$ROOT/tests/data/anomalies/$f" "$w/h/"; done
cp "$ROOT/tests/data/formats/lost-update.edn" "$w/h2/"
echo 'not a history' >"$w/h2/bad.txt"
"$ISOCHECK" gen --sessions 3 --txns 8 --ops 4 --keys 20 --format cobra --no-truth -o "$w/cobra" >/dev/null 2>&1 ||
  t "gen cobra failed"
set -- "$w/h" "$w/cobra" "$w/h2/bad.txt" "$w/h2/lost-update.edn" "$ROOT/tests/data/formats/list-append.edn"
"$ISOCHECK" check --json "$@" >"$w/serial" 2>/dev/null; src=$?
[ $src -eq 1 ] || t "serial run: exit $src, expected 1"
n=$(($(wc -l <"$w/serial") - 1))
[ $n -eq 8 ] || t "serial run: $n histories, expected 8"
head -n "$n" "$w/serial" >"$w/serial.lines"
serial_counts=$(tail -1 "$w/serial" | sed 's/.*"summary": \({[^}]*}\).*/\1/')
words=$(echo "$serial_counts" | sed 's/{"histories": \([0-9]*\), "PASS": \([0-9]*\), "FAIL": \([0-9]*\), "UNKNOWN": \([0-9]*\), "ERROR": \([0-9]*\)}/\1 histories: \2 PASS, \3 FAIL, \4 UNKNOWN, \5 ERROR/')
case $words in "8 histories: "[1-9]*" PASS, "[1-9]*" FAIL, 0 UNKNOWN, 1 ERROR") ;; *) t "serial run: $words, expected PASS, FAIL and 1 ERROR";; esac

runners=
[ $have_parallel = 1 ] && runners="parallel"
[ $have_xargs = 1 ] && runners="$runners xargs"
for r in $runners; do
  for j in 1 2; do
    CHECK_MANY_RUNNER=$r sh "$ex/check-many-parallel.sh" -j $j -a '--level si --threads 1' -o "$w/par" "$@" 2>"$w/err"; rc=$?
    [ $rc -eq $src ] || t "$r -j $j: exit $rc, serial $src"
    head -n "$n" "$w/par" | cmp -s - "$w/serial.lines" || t "$r -j $j: the history lines differ from the serial run's"
    [ "$(wc -l <"$w/par")" -eq $((n + 1)) ] || t "$r -j $j: not one summary line after the histories"
    last=$(tail -1 "$w/par")
    counts=$(echo "$last" | sed 's/.*"summary": \({[^}]*}\).*/\1/')
    [ "$counts" = "$serial_counts" ] || t "$r -j $j: merged $counts, serial $serial_counts"
    echo "$last" | grep -q '"exit": 1, "failing": \[[^]]*lost_update.txt' || t "$r -j $j: failing files not named: $last"
    echo "$last" | grep -q '"errors": \["[^"]*bad.txt"\]' || t "$r -j $j: the unreadable file not named: $last"
    grep -qxF "$words" "$w/err" || t "$r -j $j: no summary in words: $(cat "$w/err")"
  done
done

# an isocheck that dies (kill-me: its check-one.sh is killed too), never a
# history lost or passed: both ERROR with why, the others checked
mkdir "$w/k"
for f in a kill-me crash-me; do cp "$w/h/write_skew.txt" "$w/k/$f.txt"; done
printf '#!/bin/sh\ncase "$*" in *kill-me*) kill -9 $PPID; sleep 1;; *crash-me*) kill -9 $$;; esac\nexec "%s" "$@"\n' \
  "$ISOCHECK" >"$w/dying"
chmod +x "$w/dying"
for r in $runners; do
  CHECK_MANY_RUNNER=$r ISOCHECK="$w/dying" sh "$ex/check-many-parallel.sh" -j 2 "$w/k" >"$w/died" 2>/dev/null; rc=$?
  [ $rc -eq 2 ] && grep -q '"history": "[^"]*/a.txt", "format": "text", "verdict": "PASS"' "$w/died" &&
    grep -q 'kill-me.txt", "error": "its job left no report (killed?)"' "$w/died" &&
    grep -q 'crash-me.txt", "error": "isocheck exited with status 137 and printed no report"' "$w/died" &&
    tail -1 "$w/died" | grep -q '"histories": 3, "PASS": 1, "FAIL": 0, "UNKNOWN": 0, "ERROR": 2}' ||
    t "$r: a dying isocheck: rc $rc: $(cut -c1-160 "$w/died")"
done

# the same counts whichever way the lines are cut: the merge of the serial
# run's own output (its summary checked against its lines)
m=$(sh "$ex/check-many-merge.sh" "$w/serial"); rc=$?
[ $rc -eq 1 ] && [ "$(echo "$m" | sed 's/.*"summary": \({[^}]*}\).*/\1/')" = "$serial_counts" ] ||
  t "merge of the serial output: rc $rc: $m"
# a list on stdin; an all-PASS set exits 0
printf '%s\n' "$w/h/write_skew.txt" "$w/cobra" >"$w/list"
sh "$ex/check-many-parallel.sh" -j 2 -l - <"$w/list" >"$w/ok" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && tail -1 "$w/ok" | grep -q '"histories": 2, "PASS": 2,' || t "list on stdin: rc $rc: $(tail -1 "$w/ok")"

# bad input to the merge: where and what, exit 2, OUT kept
echo keep >"$w/out"
printf '%s\n' "$(head -1 "$w/serial")" 'PASS not json' >"$w/badin"
err=$(sh "$ex/check-many-merge.sh" -o "$w/out" "$w/badin" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "badin:2: expected a JSON object" || t "not JSON: rc $rc: $err"
[ "$(cat "$w/out")" = keep ] || t "bad input replaced OUT"
head -2 "$w/serial" >"$w/cut"; tail -1 "$w/serial" >>"$w/cut"
err=$(sh "$ex/check-many-merge.sh" "$w/cut" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'cut:3: the summary (8 histories) disagrees with the 2 history lines' ||
  t "a summary that disagrees: rc $rc: $err"
err=$(sh "$ex/check-many-merge.sh" -n 9 "$w/serial.lines" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'expected 9 histories, found 8' || t "-n: rc $rc: $err"
echo '{"isocheck": 1, "history": "x", "verdict": "MAYBE"}' >"$w/odd"
err=$(sh "$ex/check-many-merge.sh" "$w/odd" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q 'odd:1: unknown verdict "MAYBE"' || t "unknown verdict: rc $rc: $err"
# an error line alone: no verdict is 2, never 0
sed -n '/"error"/p' "$w/serial" >"$w/erronly"
m=$(sh "$ex/check-many-merge.sh" -t "$w/erronly"); rc=$?
[ $rc -eq 2 ] && echo "$m" | grep -q '^ERROR .*bad.txt: cannot tell the format' || t "error only: rc $rc: $m"
# bad usage of the runner: an option naming one output, a history as OUT
sh "$ex/check-many-parallel.sh" -a '--certificate c' "$w/h" >/dev/null 2>&1; [ $? -eq 3 ] || t "--certificate accepted"
sh "$ex/check-many-parallel.sh" -o "$w/h/write_skew.txt" "$w/h" >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'r(' "$w/h/write_skew.txt" || t "OUT over a history: rc $rc"
exit $fail
