# isocheck check --follow on a file that does not only grow (doc/cli.md,
# "Following a history as it is written"): cut short and written again (a
# copy-and-truncate rotation, a test started again) or replaced under its
# name (rotation by renaming) — in Elle EDN and text (the check is on
# bytes, whatever the format: tests/test_online_follow.c) — ends the run
# with exit 2 and "the file changed while it was followed", never a verdict
# on a splice of old and new bytes or on the old file alone.  The new
# content fails (a lost update in its first lines) while the old passes,
# so the old file read to its end, or a splice of its head and the new
# content's tail, would say PASS.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
"$ISOCHECK" gen --sessions 4 --txns 40 --ops 4 --keys 20 --seed 5 --level ser --no-truth -o "$t/clean.txt" >/dev/null || exit 1
cat > "$t/lost.txt" <<'H'
w(999999,900001,901,90001)
r(999999,900001,901,90002)
w(999999,900002,901,90002)
r(999999,900001,902,90003)
w(999999,900003,902,90003)
H
cat "$t/lost.txt" "$t/clean.txt" > "$t/bad.txt"
"$ISOCHECK" check "$t/clean.txt" >/dev/null; [ $? = 0 ] || { echo "clean history does not pass"; exit 1; }
for fmt in elle text; do
  case $fmt in
    elle) ext=edn; conv() { "$ISOCHECK" convert --to elle -o "$2" "$1" >/dev/null; } ;;
    text) ext=txt; conv() { [ "$1" = "$2" ] || cp "$1" "$2"; } ;;
  esac
  conv "$t/clean.txt" "$t/clean.$ext" || exit 1
  conv "$t/bad.txt" "$t/bad.$ext" || exit 1
  "$ISOCHECK" check "$t/bad.$ext" >/dev/null 2>&1; [ $? = 1 ] || { echo "$fmt: the new content does not fail"; fail=1; }
  n=$(wc -l < "$t/clean.$ext")
  for how in truncate rename; do
    f="$t/f.$ext"; rm -f "$f" "$f.1"
    head -n $((n / 2)) "$t/clean.$ext" > "$f"
    "$ISOCHECK" check --follow --follow-idle 1.5 "$f" > "$t/out" 2>&1 & pid=$!
    sleep 0.5
    tail -n +$((n / 2 + 1)) "$t/clean.$ext" >> "$f"; sleep 0.3
    if [ $how = truncate ]; then : > "$f"; cat "$t/bad.$ext" > "$f"     # copy-and-truncate, then the new run
    else mv "$f" "$f.1"; cat "$t/bad.$ext" > "$f"; fi                 # rotation by renaming
    wait $pid; rc=$?
    if [ $rc != 2 ] || ! grep -q "the file changed while it was followed" "$t/out"; then
      echo "$fmt, $how: exit $rc, expected 2 and 'the file changed while it was followed':"; sed 's/^/  /' "$t/out"; fail=1
    fi
  done
done
exit $fail
