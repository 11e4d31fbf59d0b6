#!/bin/sh
# The anomaly catalogue (tests/data/anomalies/*.txt, *.edn): every history states
# its expected verdict per level in header lines
#   # si: PASS
#   # ser: FAIL cycle 1,2 RW,WW        (the cycle's transactions and edge kinds, sorted)
#   # ser: FAIL cycle 1,2 RW,WW read-skew   (optionally: the first anomaly's name)
#   # si: FAIL anomaly thin-air-read   (an axiom violation, by name)
# and `isocheck check --level L` must give that verdict, exit code and reason.
dir="$ROOT/tests/data/anomalies"
fail=0; n=0
for f in "$dir"/*.txt "$dir"/*.edn; do
  fmt=; case $f in *.edn) fmt="--format elle";; esac
  for level in si ser; do
    exp=$(sed -n "s/^[#;] $level: //p" "$f")
    [ -n "$exp" ] || { echo "$f: no expectation for $level"; fail=1; continue; }
    n=$((n+1))
    out=$("$ISOCHECK" check $fmt --level $level "$f" 2>&1); rc=$?
    verdict=${exp%% *}
    case $verdict in
      PASS) want_rc=0; echo "$out" | grep -q "^PASS $level:" || { echo "$f [$level]: expected PASS, got: $out"; fail=1; } ;;
      FAIL) want_rc=1 ;;
      *) echo "$f: bad expectation '$exp'"; fail=1; continue ;;
    esac
    [ $rc -eq $want_rc ] || { echo "$f [$level]: exit $rc, expected $want_rc"; echo "$out"; fail=1; continue; }
    set -- $exp
    if [ "$verdict" = FAIL ] && [ "$2" = cycle ]; then
      echo "$out" | grep -q "^FAIL $level:" || { echo "$f [$level]: expected a FAIL $level line: $out"; fail=1; continue; }
      # the first anomaly's cycle: its "cycle:" block, one "txn A -KIND key-> txn B" line per edge
      cyc=$(echo "$out" | awk '/^  1\. /{a=1} /^  2\. /{a=0} a && /^     cycle:/{c=1; next} a && c && /^       txn /{print}')
      txns=$(echo "$cyc" | sed -n 's/^       txn \([0-9]*\) .*/\1/p' | sort -n | tr '\n' ',' | sed 's/,$//')
      kinds=$(echo "$cyc" | sed -n 's/^       txn [0-9]* -\(SO\|WR\|WW\|RW\)[ -].*/\1/p' | sort | tr '\n' ',' | sed 's/,$//')
      [ "$txns" = "$3" ] || { echo "$f [$level]: cycle transactions $txns, expected $3"; echo "$out"; fail=1; }
      [ "$kinds" = "$4" ] || { echo "$f [$level]: cycle edges $kinds, expected $4"; echo "$out"; fail=1; }
      if [ -n "$5" ]; then
        echo "$out" | grep -q "^  1\. $5 " || { echo "$f [$level]: expected anomaly $5, got: $out"; fail=1; }
      fi
    elif [ "$verdict" = FAIL ] && [ "$2" = anomaly ]; then
      echo "$out" | grep -q "^  1\. $3" || { echo "$f [$level]: expected anomaly $3, got: $out"; fail=1; }
    fi
  done
done
[ $n -ge 30 ] || { echo "only $n expectations checked"; fail=1; }
exit $fail
