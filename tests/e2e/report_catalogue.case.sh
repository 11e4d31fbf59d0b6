# Every catalogue anomaly (tests/data/anomalies) at SI and SER: exit code,
# the expected name, and the minimal cycle's transactions equal to those the
# file's "# si: FAIL cycle 1,2,3 ..." line lists.  PASS levels must pass.
d="$ROOT/tests/data/anomalies"
name_of() {   # file level -> expected anomaly name
  case "$1:$2" in
    causality:*) echo causality-violation ;;
    circular_flow:*) echo circular-information-flow ;;
    fractured_read:*|read_skew:*) echo fractured-read ;;
    long_fork:*) echo long-fork ;;
    lost_update:*|stale_after_rmw:*) echo lost-update ;;
    monotonic_reads:*) echo monotonic-reads ;;
    read_your_writes:*) echo read-your-writes ;;
    read_only_anomaly:ser) echo cycle ;;
    write_skew:ser) echo write-skew ;;
    intermediate_read:*) echo intermediate-read ;;
    thin_air_read:*) echo thin-air-read ;;
    *) echo "?" ;;
  esac
}
fail=0
for f in "$d"/*.txt; do
  b=$(basename "$f" .txt)
  for lv in si ser; do
    want=$(sed -n "s/^# $lv: //p" "$f")
    out=$("$ISOCHECK" check --level $lv "$f"); rc=$?
    case "$want" in
      PASS*)
        [ $rc -eq 0 ] && echo "$out" | grep -q "^PASS $lv" || { echo "$b $lv: want PASS, exit $rc: $out"; fail=1; } ;;
      "FAIL cycle "*)
        [ $rc -eq 1 ] || { echo "$b $lv: exit $rc, want 1"; fail=1; continue; }
        first=$(echo "$out" | grep -m1 '^  1\. ')
        name=$(name_of "$b" $lv)
        echo "$first" | grep -q "^  1\. $name (" || { echo "$b $lv: want $name: $first"; fail=1; }
        got=$(echo "$first" | sed 's/.*\[\(.*\)\]$/\1/' | grep -o 'txn [0-9]*' | sed 's/txn //' | sort -n | uniq | tr '\n' ',' | sed 's/,$//')
        exp=$(echo "$want" | sed 's/^FAIL cycle \([0-9,]*\).*/\1/' | tr ',' '\n' | sort -n | tr '\n' ',' | sed 's/,$//')
        [ "$got" = "$exp" ] || { echo "$b $lv: cycle txns $got, want $exp"; fail=1; } ;;
      "FAIL anomaly "*)
        [ $rc -eq 1 ] && echo "$out" | grep -q "^  1\. $(name_of "$b" $lv)" || { echo "$b $lv: $out"; fail=1; } ;;
      *) echo "$b: no expectation for $lv"; fail=1 ;;
    esac
  done
done
exit $fail
