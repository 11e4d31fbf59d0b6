# Bad input: one line "isocheck: FILE:LINE: expected ..., found ..." and exit 2, for every command.
f="$ROOT/tests/data/hist/bad.txt"
for cmd in check stats "convert --to elle"; do
  err=$($ISOCHECK $cmd "$f" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || { echo "$cmd: exit $rc, want 2"; exit 1; }
  [ "$err" = "isocheck: $f:2: expected ',' after the session id, found end of line" ] || { echo "$cmd: $err"; exit 1; }
done
err=$("$ISOCHECK" stats /nonexistent 2>&1); [ $? -eq 2 ] || exit 1
echo "$err" | grep -q 'cannot open' || { echo "$err"; exit 1; }
head -c 30 /dev/urandom > "${TMPDIR:-/tmp}/isocheck-garbage.$$"
printf '\001\002garbage' >> "${TMPDIR:-/tmp}/isocheck-garbage.$$"
"$ISOCHECK" stats --format dbcop "${TMPDIR:-/tmp}/isocheck-garbage.$$" 2>/dev/null; rc=$?
rm -f "${TMPDIR:-/tmp}/isocheck-garbage.$$"
[ $rc -eq 2 ] || { echo "garbage: exit $rc"; exit 1; }
"$ISOCHECK" check --level xyz "$f" 2>/dev/null; [ $? -eq 2 ] || exit 1
"$ISOCHECK" check --format nope "$f" 2>/dev/null; [ $? -eq 2 ] || exit 1
# a line of the EDN reader's plain shape that it refuses: the general reader names it, exit 2
e="${TMPDIR:-/tmp}/isocheck-plain.$$.edn"
printf '{:type :ok, :f :txn, :process 0, :index 1, :value [[:w 1 1]]}\n{:type :fail, :f :txn, :process 1, :index 2, :isocheck/reads :observed, :value [[:appendx 1 2]]}\n' > "$e"
err=$("$ISOCHECK" stats "$e" 2>&1 >/dev/null); rc=$?
rm -f "$e"
[ $rc -eq 2 ] && [ "$err" = "isocheck: $e:2: expected a micro-op :r, :w or :append, found :appendx" ] ||
  { echo "plain-shaped EDN line: exit $rc: $err"; exit 1; }
# a repeated named value (issue 35): checked, not refused; check --follow refuses it, as written
d="${TMPDIR:-/tmp}/isocheck-dup.$$.edn"
printf '{:type :ok, :f :txn, :value [[:w "k3" "a"]], :process 0, :index 0}\n{:type :ok, :f :txn, :value [[:w "k3" "a"]], :process 1, :index 1}\n' > "$d"
out=$("$ISOCHECK" check "$d" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^PASS si' || { rm -f "$d"; echo "repeated string value: exit $rc: $out"; exit 1; }
out=$("$ISOCHECK" check --follow --idle-end 1 "$d" 2>&1); rc=$?   # no end marker: ended when idle
rm -f "$d"
# followed too since issue 35 (doc/checker.md, "Repeated values while following"): the batch verdict
[ $rc -eq 0 ] && echo "$out" | grep -q '^PASS si' || { echo "repeated string value, followed: exit $rc: $out"; exit 1; }
exit 0
