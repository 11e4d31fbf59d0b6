# A batch `isocheck check` whose history is spilled after the index
# (io/spill.h: the per-op arrays written to an unlinked file in the temp
# directory), and whose index's units are spilled where no stage reads
# them (index_spill.h: ser's re-check and interpretation, si's pruning
# renewals, solving and re-check, then read back by si's graph and the
# model's sides) must answer exactly as without a spill whatever the file
# system allows: under a file-size limit (ulimit -f: a write past it
# raises SIGXFSZ, which kills the process unless ignored), with TMPDIR a
# directory that does not exist, and with TMPDIR a directory of its own,
# which is left empty (the file is unlinked at once).  Same stdout and
# exit code as the run with no limit, never a signal's exit code.
#
# The spill is off under AddressSanitizer (io/spill.c own_mapping), so the
# release binary is used when it is built ($ROOT/build/isocheck), else
# $ISOCHECK (then the case checks less).
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
bin=$ISOCHECK
[ -x "$ROOT/build/isocheck" ] && bin=$ROOT/build/isocheck
# 35,000 transactions of 12 operations: each per-op array over 1 MB (spilled),
# the index's units (2.9 MB), and the transactions' records (1.1 MB, spilled
# while si's engine runs: history_spill_txns)
"$bin" gen --sessions 50 --txns 700 --ops 12 --keys 50000 --seed 5 --level si -o "$t/h.txt" --no-truth --force \
  >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
"$bin" check --level si,ser "$t/h.txt" > "$t/want" 2>/dev/null; want_rc=$?
[ $want_rc = 0 ] || [ $want_rc = 1 ] || { echo "the plain run exited $want_rc"; exit 1; }
grep -q "^PASS si" "$t/want" || { echo "the plain run: no PASS si"; cat "$t/want"; exit 1; }
grep -q "^FAIL ser" "$t/want" || { echo "the plain run: no FAIL ser (its interpretation)"; cat "$t/want"; exit 1; }

same() {   # $1: what was varied; $t/got and $rc from the run
  [ "$rc" = "$want_rc" ] || { echo "$1: exit $rc, without it $want_rc"; head -5 "$t/got"; exit 1; }
  cmp -s "$t/want" "$t/got" || { echo "$1: stdout differs"; diff "$t/want" "$t/got" | head -10; exit 1; }
}

(ulimit -f 1024; exec "$bin" check --level si,ser "$t/h.txt") > "$t/got" 2>/dev/null; rc=$?
same "ulimit -f 1024 (1 MB)"

TMPDIR="$t/missing" "$bin" check --level si,ser "$t/h.txt" > "$t/got" 2>/dev/null; rc=$?
same "TMPDIR missing"

mkdir "$t/tmp"
TMPDIR="$t/tmp" "$bin" check --level si,ser "$t/h.txt" > "$t/got" 2>/dev/null; rc=$?
same "TMPDIR of its own"
[ -z "$(ls -A "$t/tmp")" ] || { echo "files left in TMPDIR:"; ls -la "$t/tmp"; exit 1; }
exit 0
