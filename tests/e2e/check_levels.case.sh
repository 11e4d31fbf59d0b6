#!/bin/sh
# isocheck check --level: every level by name, comma lists, all, ladder
# (doc/cli.md, "Levels"): verdicts and reasons, the ladder's summary in text
# and JSON, the refusals (unknown level, real-time levels without times,
# --follow beyond si and ser), the certificate of a multi-level run.
# The examples are used without their #@time lines (a history without
# times: strong-si and sser refused or not checked); levels_examples.case.sh
# checks them with their times.
fail=0
t() { echo "$1"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d="$tmp/levels"
mkdir "$d"
for f in "$ROOT"/tests/data/levels/*.txt; do grep -v '^#@time' "$f" > "$d/$(basename "$f")"; done

# one level by name, the levels main decides: verdict and reason
out=$("$ISOCHECK" check --level ser "$d/write-skew.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^  1\. write-skew (G2-item): ' || t "ser on write skew (rc $rc): $out"
out=$("$ISOCHECK" check --level si "$d/lost-update.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^  1\. lost-update (G-single): ' || t "si on lost update (rc $rc): $out"
# a comma list is reported in ladder order, whatever order it is written in
out=$("$ISOCHECK" check --level ser,si "$d/write-skew.txt"); rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | grep -E '^(PASS|FAIL|UNKNOWN)' | cut -d: -f1 | tr '\n' ' ')" = "PASS si FAIL ser " ] ||
  t "--level ser,si (rc $rc): $out"
out=$("$ISOCHECK" check --level all "$d/session-stale-read.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^FAIL si:' && echo "$out" | grep -q '^FAIL ser:' &&
  echo "$out" | grep -q 'G-single-process' || t "all on a stale read in a session (rc $rc): $out"
# rc holds for write skew; ra fails a fractured read, named as Plume names it
out=$("$ISOCHECK" check --level rc "$d/write-skew.txt" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^PASS rc: the history satisfies read committed$' || t "rc (rc $rc): $out"
out=$("$ISOCHECK" check --level rc,ra "$d/fractured-read.txt" 2>/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^PASS rc:' && echo "$out" | grep -q '^FAIL ra:' &&
  echo "$out" | grep -q 'fractured read (TAP-k/l)' || t "rc,ra on a fractured read (rc $rc): $out"

# a known-graph cycle names the edges of the level's known graph: the plain
# levels have no SO, the session levels do (the reason is on -v's stderr)
for lv in ser-plain si-plain rr; do
  err=$("$ISOCHECK" check -v --level $lv "$d/g1c-wr-cycle.txt" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] && echo "$err" | grep -q "^\[$lv\] the known graph (WR, read-modify-write chains) has a cycle" ||
    t "$lv's known-graph reason (rc $rc): $err"
done
err=$("$ISOCHECK" check -v --level ser "$d/g1c-wr-cycle.txt" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q '^\[ser\] the known graph (SO, WR, read-modify-write chains) has a cycle' ||
  t "ser's known-graph reason (rc $rc): $err"

# argument errors: exit 2, nothing on stdout, the reason on stderr
bad() { pat=$1; shift; o=$("$@" 2>"$tmp/err"); rc=$?
        [ $rc -eq 2 ] && [ -z "$o" ] && grep -q -- "$pat" "$tmp/err" || t "$*: exit $rc, expected '$pat': $(cat "$tmp/err") $o"; }
bad "unknown level 'snapshot'" "$ISOCHECK" check --level snapshot "$d/serial.txt"
bad "unknown level 'ssi' (expected one of: rc, ra, cc, pc, psi, si, ser, strong-si, sser, si-plain, rr, ser-plain, all, ladder" \
  "$ISOCHECK" check --level si,ssi "$d/serial.txt"
bad "unknown level 's\\\\ner'" "$ISOCHECK" check --level "$(printf 'si,s\ner')" "$d/serial.txt"   # escaped
bad "write-skew.txt: sser needs invocation and completion times" "$ISOCHECK" check --level sser "$d/write-skew.txt"
bad "strong-si needs invocation and completion times" "$ISOCHECK" check --level si,strong-si "$d/write-skew.txt"
bad "sser needs invocation and completion times" "$ISOCHECK" check --json --level ladder,sser "$d/write-skew.txt"
bad "--follow checks si and ser only" "$ISOCHECK" check --follow --level ladder "$d/write-skew.txt"
bad "--version-order checks si and ser only" "$ISOCHECK" check --version-order "$d/serial.txt" --level pc "$d/serial.txt"

# the ladder, text: every level in ladder order, the summary
out=$("$ISOCHECK" check --level ladder "$d/write-skew.txt" 2>/dev/null); rc=$?
[ $rc -eq 1 ] || t "ladder on write skew: exit $rc, expected 1"
order=$(echo "$out" | sed -n 's/^  \([a-z-]*\)  *\(PASS\|FAIL\|UNKNOWN\|NOT CHECKED\).*/\1/p' | tr '\n' ' ')
[ "$order" = "rc ra cc pc psi si ser strong-si sser si-plain rr ser-plain " ] || t "ladder order: '$order': $out"
echo "$out" | grep -q '^  si         PASS$' || t "ladder: si PASS: $out"
# ser fails because rr, which it implies (ser => ser-plain => rr), fails: named so, with rr's anomaly
echo "$out" | grep -q "^  ser        FAIL         implied by rr's FAIL: write-skew (G2-item)$" || t "ladder: ser FAIL write-skew: $out"
echo "$out" | grep -q "^  sser       NOT CHECKED  no times" || t "ladder: sser not checked, no times: $out"
echo "$out" | grep -q '^strongest level that holds: si (snapshot isolation)$' || t "ladder: strongest si: $out"
# ser-plain and rr fail too; rr (which ser-plain implies) is the weakest failing
echo "$out" | grep -q '^  ser-plain  FAIL         implied by rr'"'"'s FAIL: write-skew (G2-item)$' || t "ladder: ser-plain FAIL write-skew: $out"
echo "$out" | grep -A1 '^weakest level that fails:$' | grep -q '^  rr (repeatable read): write-skew (G2-item)$' ||
  t "ladder: weakest failing rr, write-skew: $out"
echo "$out" | grep -q '^FAIL rr: repeatable read is violated: 1 anomaly' || t "ladder: rr's anomaly in full: $out"
echo "$out" | grep -q 'without an answer' && t "ladder: every level is decided, none without an answer: $out"
# an axiom violation fails every level: the weakest of both parts, with its name
out=$("$ISOCHECK" check --level ladder "$d/g1b-intermediate-read.txt"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^  rc (read committed): intermediate-read (G1b)$' &&
  echo "$out" | grep -q '^  si-plain (snapshot isolation without session order): intermediate-read (G1b)$' &&
  echo "$out" | grep -q '^strongest level that holds: none$' || t "ladder on G1b (rc $rc): $out"
# every level holds but strong-si and sser (no times, not checked): exit 0
out=$("$ISOCHECK" check --level ladder "$d/serial.txt" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^weakest level that fails: none$' &&
  echo "$out" | grep -q '^strongest level that holds: ser (serializability)$' || t "ladder on a serial history (rc $rc): $out"

# the ladder, JSON (doc/json-schema.md, "ladder")
if command -v python3 >/dev/null; then
  "$ISOCHECK" check --json --level ladder "$d/lost-update.txt" >"$tmp/j" 2>/dev/null; rc=$?
  [ $rc -eq 1 ] || t "json ladder on lost update: exit $rc"
  python3 - "$tmp/j" <<'EOF' || t "json ladder shape: $(cat "$tmp/j")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["level"] == "ladder" and r["verdict"] == "FAIL", (r["level"], r["verdict"])
lad = r["ladder"]
names = [x["level"] for x in lad["levels"]]
assert names == "rc ra cc pc psi si ser strong-si sser si-plain rr ser-plain".split(), names
assert [x["part"] for x in lad["levels"]] == ["session"] * 9 + ["plain"] * 3
v = {x["level"]: x for x in lad["levels"]}
assert v["si"]["verdict"] == "FAIL" and v["si"]["anomaly"] == "lost-update" and v["si"]["adya"] == "G-single", v["si"]
assert v["sser"]["verdict"] == "NOT CHECKED" and v["sser"]["reason"] == "no times", v["sser"]
# lost update: pc holds, psi fails (doc/levels.md: pc and psi are incomparable)
assert v["pc"]["verdict"] == "PASS", v["pc"]
assert v["psi"]["verdict"] == "FAIL" and v["psi"]["anomaly"] == "lost-update", v["psi"]
# the results: the levels checked, in ladder order (not the ones without times)
assert [x["level"] for x in r["results"]] == [n for n in names if n not in ("strong-si", "sser")]
assert [x["level"] for x in lad["strongest_holding"]] == ["pc"], lad["strongest_holding"]
assert [x["level"] for x in lad["weakest_failing"]] == ["psi", "si-plain", "rr"], lad["weakest_failing"]
assert lad["weakest_failing"][0]["anomaly"] == "lost-update"
assert [x["level"] for x in lad["not_checked"]] == ["strong-si", "sser"]
assert lad["internal_errors"] == 0
# every anomaly belongs to a level of the results
assert {a["level"] for a in r["anomalies"]} <= set(names)
EOF
fi

# a certificate from a multi-level run is the strongest passing one's: it verifies at ser
"$ISOCHECK" check --level si,ser,pc --certificate "$tmp/c" "$d/serial.txt" >/dev/null 2>&1
"$ISOCHECK" verify --level ser "$d/serial.txt" "$tmp/c" >/dev/null 2>&1 || t "the certificate of si,ser,pc does not prove ser"

# a ladder is the same bytes for every thread count (levels at once on the pool), -v too
for fault in lost-update long-fork; do
  "$ISOCHECK" gen --sessions 6 --txns 40 --ops 6 --keys 15 --dist hotspot --fault=$fault --seed=7 --force --no-truth \
      -o "$tmp/g.txt" 2>/dev/null || { t "gen --fault $fault failed"; continue; }
  for n in 1 2 3; do
    rm -f "$tmp/c"
    "$ISOCHECK" check --level ladder --threads $n --json --certificate "$tmp/c" "$tmp/g.txt" >"$tmp/l$n" 2>"$tmp/e$n"
    echo "exit $?" >>"$tmp/l$n"
    [ -f "$tmp/c" ] && cat "$tmp/c" >>"$tmp/l$n"      # the certificate kept (pc's: the strongest that passes)
    "$ISOCHECK" check --level ladder --threads $n "$tmp/g.txt" >>"$tmp/l$n" 2>>"$tmp/e$n"
  done
  for n in 2 3; do
    cmp -s "$tmp/l1" "$tmp/l$n" && cmp -s "$tmp/e1" "$tmp/e$n" || t "$fault: the ladder differs between --threads 1 and $n"
  done
  grep -q '^exit 1$' "$tmp/l1" && grep -q '^  si         FAIL ' "$tmp/l1" || t "$fault: the ladder does not fail si: $(cat "$tmp/l1" | tail -20)"
done

# --help lists every level of levels.def, and so does doc/cli.md
help=$("$ISOCHECK" check --help)
for n in $(sed -n 's/^LEVEL([A-Z_]*, *"\([a-z-]*\)".*/\1/p' "$ROOT/frontend/history/levels.def"); do
  echo "$help" | grep -q "^  $n  " || t "check --help does not list level $n"
  grep -q "^| \`$n\` |" "$ROOT/doc/cli.md" || t "doc/cli.md does not list level $n"
done
exit $fail
