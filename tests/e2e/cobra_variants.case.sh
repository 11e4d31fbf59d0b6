# Cobra logs in the shapes other tools write beyond Cobra's own client: value-identified
# logs (VeriStrong's history/: universal write id 0xabddefee, the value names the write)
# and reads of the initial state whose reported row hashes disagree. Verdict AND reason.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
U=00000000abddefee INIT=00000000bebeebee
# one big-endian int64 from 16 hex digits
i64() { h=$1; while [ -n "$h" ]; do printf "\\$(printf %o "0x${h%"${h#??}"}")"; h=${h#??}; done; }
hx() { printf %016x "$1"; }
S() { printf S; i64 "$(hx "$1")"; }
C() { printf C; i64 "$(hx "$1")"; }
W() { printf W; i64 "$1"; i64 "$(hx "$2")"; i64 "$(hx "$3")"; }         # write id (hex), key, value
R() { printf R; i64 "$1"; i64 "$2"; i64 "$(hx "$3")"; i64 "$(hx "$4")"; }  # writer txn, write id (hex), key, value

run() { out=$("$ISOCHECK" check --level si "$1" 2>&1); rc=$?; }

# lost update in a value-identified history: both read x's initial row, both write x
mkdir "$t/lu"
{ S 11; R $INIT $INIT 1 900; W $U 1 501; C 11; } > "$t/lu/T1.log"
{ S 21; R $INIT $INIT 1 900; W $U 1 502; C 21; } > "$t/lu/T2.log"
run "$t/lu"
[ $rc = 1 ] && echo "$out" | head -1 | grep -q '^FAIL si' && echo "$out" | grep -q 'lost-update' \
  || { echo "value-identified lost update: rc=$rc"; echo "$out" | head -5; fail=1; }

# the same shape without the conflict passes; the read of 501 is attributed to txn 11
mkdir "$t/ok"
{ S 11; R $INIT $INIT 1 900; W $U 1 501; C 11; } > "$t/ok/T1.log"
{ S 21; R $U $U 1 501; W $U 1 502; C 21; } > "$t/ok/T2.log"
run "$t/ok"
[ $rc = 0 ] && echo "$out" | grep -q '^PASS si' || { echo "value-identified clean: rc=$rc"; echo "$out" | head -3; fail=1; }

# two transactions writing one value to a key (issue 35): the read of 501 may be either's, and passes
mkdir "$t/dup"
{ S 11; W $U 1 501; C 11; } > "$t/dup/T1.log"
{ S 21; W $U 1 501; C 21; S 22; R $U $U 1 501; C 22; } > "$t/dup/T2.log"
run "$t/dup"
[ $rc = 0 ] && echo "$out" | grep -q '^PASS si' || { echo "duplicate value: rc=$rc $out"; fail=1; }

# two reads of x's initial state report different rows: one read something never written
for ids in unique universal; do
  mkdir "$t/init-$ids"
  if [ $ids = unique ]; then w=0000000000000457; else w=$U; fi
  { S 11; R $INIT $INIT 1 900; W $w 2 5; C 11; } > "$t/init-$ids/T1.log"
  { S 21; R $INIT $INIT 1 901; C 21; } > "$t/init-$ids/T2.log"
  run "$t/init-$ids"
  [ $rc = 1 ] && echo "$out" | grep -q "thin-air-read: txn 21 reads key 1 = an initial value with hash 0x385 (first read: 0x384), which no transaction wrote" \
    || { echo "$ids ids, initial values that disagree: rc=$rc"; echo "$out" | head -5; fail=1; }
done
exit $fail
