# The certificate reader (isocheck verify): a NUL byte anywhere, also at the
# start of a line that would otherwise look blank or like a comment, is bad
# input naming the line (exit 2); so are truncation and stray text.
d="$ROOT/tests/data/anomalies"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
"$ISOCHECK" check --level ser --certificate "$t/c" "$d/serializable_mix.txt" >/dev/null || { echo "no certificate"; exit 1; }
h="$d/serializable_mix.txt"
"$ISOCHECK" verify "$h" "$t/c" >/dev/null || { echo "the certificate does not verify"; exit 1; }
n=$(wc -l < "$t/c")
# a NUL at the start of each line, in the middle of a line, on a blank and a comment line
for i in $(seq 1 "$n"); do
  awk -v i="$i" 'NR == i { printf "%c", 0 } { print }' "$t/c" > "$t/nul"
  err=$("$ISOCHECK" verify "$h" "$t/nul" 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$err" | grep -q "nul:$i: expected text, found a NUL byte" || no "NUL before line $i: exit $rc: $err"
done
{ head -n 2 "$t/c"; printf '  \0\n'; tail -n +3 "$t/c"; } > "$t/nul"
err=$("$ISOCHECK" verify "$h" "$t/nul" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "nul:3: expected text, found a NUL byte" || no "blanks then NUL: exit $rc: $err"
{ head -n 2 "$t/c"; printf '# note \0 here\n'; tail -n +3 "$t/c"; } > "$t/nul"
err=$("$ISOCHECK" verify "$h" "$t/nul" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "nul:3: expected text, found a NUL byte" || no "NUL in a comment: exit $rc: $err"
# the last line ('end') dropped behind a NUL: must not verify
{ head -n $((n - 1)) "$t/c"; printf '\0end\n'; } > "$t/nul"
err=$("$ISOCHECK" verify "$h" "$t/nul" 2>&1); rc=$?
[ $rc -eq 2 ] || no "NUL hiding 'end': exit $rc: $err"
head -n $((n - 1)) "$t/c" > "$t/trunc"
err=$("$ISOCHECK" verify "$h" "$t/trunc" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "expected 'end' as the last line" || no "truncated: exit $rc: $err"
exit $fail
