#!/bin/sh
# A level's FAIL derived from a weaker level's FAIL of the same run
# (doc/checker.md, "A run over several levels"; frontend/reports/ladder_derive.h):
# the verdict line says how it was decided (stage "implied", "fails: implied
# by X's FAIL"), the ladder names the weaker level and its anomaly, JSON has
# implied_by; and the certificates of rc, ra, cc (doc/certificate.md):
# written by check --certificate, proved by verify, a corrupted one rejected
# with its reason; psi's anomalies named.
fail=0
t() { echo "$1"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d="$tmp/levels"
mkdir "$d"
for f in "$ROOT"/tests/data/levels/*.txt; do grep -v '^#@time' "$f" > "$d/$(basename "$f")"; done

# causality violation: cc fails by saturation, every searched session level because of it
out=$("$ISOCHECK" check --level ladder "$d/causal-violation.txt" 2>/dev/null); rc=$?
[ $rc -eq 1 ] || t "ladder on a causality violation: exit $rc"
echo "$out" | grep -q '^  cc         FAIL         causality violation (TAP-m/n): ' || t "ladder: cc's own FAIL: $out"
for l in pc psi si ser; do
  echo "$out" | grep -q "^  $l  *FAIL         implied by cc's FAIL: causality violation (TAP-m/n): " ||
    t "ladder: $l implied by cc's FAIL: $out"
done
echo "$out" | grep -q '^  ra         PASS$' || t "ladder: ra PASS: $out"
"$ISOCHECK" check --json --level ladder "$d/causal-violation.txt" >"$tmp/j" 2>/dev/null
python3 - "$tmp/j" <<'EOF' || t "json ladder with derived levels: $(cat "$tmp/j")"
import json, sys
r = json.load(open(sys.argv[1]))
res = {x["level"]: x for x in r["results"]}
assert res["cc"]["verdict"] == "FAIL" and res["cc"]["implied_by"] is None and res["cc"]["stage"] == "saturation"
for l in ("pc", "psi", "si", "ser"):
    assert res[l]["verdict"] == "FAIL" and res[l]["stage"] == "implied" and res[l]["implied_by"] == "cc", res[l]
    assert "implied by cc's FAIL" in res[l]["reason"], res[l]
lad = {x["level"]: x for x in r["ladder"]["levels"]}
assert lad["si"]["implied_by"] == "cc" and lad["si"]["anomaly"] is not None
assert [x["level"] for x in r["ladder"]["weakest_failing"]][0] == "cc"
# the derived levels' anomalies are cycles at their own level, one each
for l in ("pc", "psi", "si", "ser"):
    mine = [a for a in r["anomalies"] if l in a.get("breaks", [])]
    assert mine, l
EOF

# --level all on a lost update: si fails on its own search, ser because si does
out=$("$ISOCHECK" check --level all "$d/lost-update.txt" 2>/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^FAIL si: snapshot isolation is violated: 1 anomaly (stage: ' &&
  echo "$out" | grep -q '^  1\. lost-update (G-single): ' || t "all on lost update, si: (rc $rc) $out"
echo "$out" | grep -q '^FAIL ser: serializability is violated: 1 anomaly (stage: implied)$' &&
  echo "$out" | grep -q "^  fails: implied by si's FAIL (ser implies si; si's cycle re-checked at ser)$" ||
  t "all on lost update, ser implied by si: $out"

# certificates of the weak levels
"$ISOCHECK" check --level rc --certificate "$tmp/rc.cert" "$d/fractured-read.txt" >"$tmp/o" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^PASS rc: the history satisfies read committed (certificate: ' "$tmp/o" || t "rc certificate: $(cat "$tmp/o")"
grep -q '^level rc$' "$tmp/rc.cert" && grep -q '^order 1 2$' "$tmp/rc.cert" && ! grep -q '^key' "$tmp/rc.cert" ||
  t "rc certificate file: $(cat "$tmp/rc.cert")"
out=$("$ISOCHECK" verify "$d/fractured-read.txt" "$tmp/rc.cert"); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^VALID rc: the certificate proves read committed for ' || t "verify rc (rc $rc): $out"
for l in ra cc; do
  "$ISOCHECK" check --level $l --certificate "$tmp/$l.cert" "$d/causal-violation.txt" >"$tmp/o" 2>&1; rc=$?
  if [ $l = ra ]; then
    [ $rc -eq 0 ] || t "ra certificate on a causality violation: $(cat "$tmp/o")"
    out=$("$ISOCHECK" verify --level ra "$d/causal-violation.txt" "$tmp/ra.cert"); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q '^VALID ra: ' || t "verify ra (rc $rc): $out"
  else
    [ $rc -eq 1 ] && [ ! -e "$tmp/cc.cert" ] || t "cc fails: no certificate (rc $rc): $(cat "$tmp/o")"
  fi
done
# corrupted: a read before its writer; the level line of a failing level; a key line
sed 's/^order 1 2$/order 2 1/' "$tmp/rc.cert" >"$tmp/bad1"
out=$("$ISOCHECK" verify "$d/fractured-read.txt" "$tmp/bad1"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^INVALID rc: certificate: .*bad1: the read at .*fractured-read.txt:11 reads from a later transaction in the commit order$' ||
  t "corrupted rc order (rc $rc): $out"
sed 's/^level rc$/level ra/' "$tmp/rc.cert" >"$tmp/bad2"
out=$("$ISOCHECK" verify "$d/fractured-read.txt" "$tmp/bad2"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "^INVALID ra: .*txn 2 reads key 1 at .*fractured-read.txt:10 from the initial state although txn 1, which it read from, writes the key after it in the commit order$" ||
  t "rc's order claimed for ra (rc $rc): $out"
out=$("$ISOCHECK" verify --level cc "$d/fractured-read.txt" "$tmp/rc.cert"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^INVALID cc: .*the certificate is for level rc; it does not prove cc' || t "verify --level cc of an rc certificate (rc $rc): $out"
sed 's/^order 1 2$/key 1 INIT 1\norder 1 2/' "$tmp/rc.cert" >"$tmp/bad3"
out=$("$ISOCHECK" verify "$d/fractured-read.txt" "$tmp/bad3" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "bad3:5: expected no 'key' line in a certificate of rc, ra or cc" || t "key line in an rc certificate (rc $rc): $out"
# psi names every anomaly it reports: a G0 cycle through session order is a
# write-cycle (G0-process), no longer the unnamed "cycle" (classify.h)
"$ISOCHECK" gen --sessions 4 --txns 8 --ops 4 --keys 6 --level si --fault lost-update --fault-rate 0.3 --seed 13 \
  --no-truth -o "$tmp/g13.txt" >/dev/null 2>&1 || t "gen seed 13"
"$ISOCHECK" check --level psi --json "$tmp/g13.txt" >"$tmp/p.json" 2>/dev/null
python3 - "$tmp/p.json" <<'EOF2' || t "psi names: $(cat "$tmp/p.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "FAIL"
names = [(a["name"], a["adya"]) for a in r["anomalies"] if not a["chosen"]]
assert ("write-cycle", "G0-process") in names, names
assert all(n != "cycle" for n, _ in names), names
EOF2
exit $fail
