# Every engine option (solver/options.h, as `gsat --help` prints it) is in
# doc/library.md's "Engine options" table with the same default, range and
# meaning, and the table has no others: the installed headers send users
# there instead of to a source file.
# (an option whose name is long has its help on the next line: joined first;
# engine options are the ones whose help ends "[default D, LO..HI]")
want=$("$GSAT" --help |
       awk '/^  -/ { if (l != "") print l; l = $0; next } /^   / && l != "" { l = l " " $0; next } { if (l != "") print l; l = "" } END { if (l != "") print l }' |
       sed -n 's/^  --\([a-z_0-9]*\) N  *\(.*\) \[default \(.*\), \(.*\)\]$/| `\1` | \3 | \4 | \2 |/p')
[ -n "$want" ] || { echo "gsat --help lists no engine options"; exit 1; }
have=$(sed -n '/^## Engine options/,/^## /p' "$ROOT/doc/library.md" | grep '^| `')
[ "$want" = "$have" ] || {
  echo "doc/library.md's option table differs from gsat --help (the sed above makes the rows):"
  t=$(mktemp -d); echo "$want" > "$t/want"; echo "$have" > "$t/have"; diff "$t/want" "$t/have" | head -10; rm -rf "$t"; exit 1; }
