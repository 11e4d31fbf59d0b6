# One argument parser for every command (programs/cmdline.h): --opt value and
# --opt=value, every value validated, errors that name the option and the
# value, --help everywhere.
d="$ROOT/tests/data/anomalies"
fail=0
no() { echo "$1"; fail=1; }
# bad: exit 2 and stderr matching the pattern
bad() { pat=$1; shift; err=$("$@" 2>&1 >/dev/null); rc=$?
        [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q -- "$pat" || no "$*: exit $rc, expected '$pat': $err"; }
h="$d/write_skew.txt"
bad "option --time-limit expects a number in 0..1e+09, found 'abc'" "$ISOCHECK" check --time-limit abc "$h"
bad "option --time-limit expects a number in 0..1e+09, found '-5'" "$ISOCHECK" check --time-limit -5 "$h"
bad "option --time-limit expects a number in 0..1e+09, found 'nan'" "$ISOCHECK" check --time-limit=nan "$h"
bad "found '1e999'" "$ISOCHECK" check --time-limit 1e999 "$h"
bad "found '5s'" "$ISOCHECK" check --time-limit 5s "$h"
bad "option --dot needs a value (FILE)" "$ISOCHECK" check "$h" --dot
bad "option --certificate needs a value (FILE)" "$ISOCHECK" check "$h" --certificate
bad "option --dot needs a value (FILE), found the option '--json'" "$ISOCHECK" check --dot --json "$h"
bad "option --level: unknown level '$h' (expected one of: rc, ra, cc, pc, psi, si, ser, strong-si, sser, si-plain, rr, ser-plain, all, ladder; or a comma list)" "$ISOCHECK" check --level "$h" "$h"
bad "missing operand" "$ISOCHECK" check --level "$h"
bad "option --level: unknown level 'SI' (expected one of: rc, " "$ISOCHECK" check --level rc,SI "$h"
bad "option --level: empty level name in 'si,,ser'" "$ISOCHECK" check --level si,,ser "$h"
bad "option --format: unknown value 'csv' (expected text, dbcop, cobra, elle, json, viper or dbcop-json)" "$ISOCHECK" check --format=csv "$h"
bad "option --max-anomalies expects an integer in 1..1000000000, found '0'" "$ISOCHECK" check --max-anomalies 0 "$h"
bad "option --max-anomalies expects an integer in 1..1000000000, found '3x'" "$ISOCHECK" check --max-anomalies=3x "$h"
# leading white space is refused alike, a newline included (shown escaped)
nl3=$(printf '\n3')
bad "option --threads expects an integer in 1\.\.[0-9]*, found '\\\\n3'" "$ISOCHECK" check --threads="$nl3" "$h"
bad "option --threads expects an integer in 1\.\.[0-9]*, found ' 3'" "$ISOCHECK" check --threads=" 3" "$h"
bad "option --conflict-limit expects an integer >= 0, found '\\\\n3'" "$GSAT" --conflict-limit "$nl3" x.cnf
bad "option --seed expects an integer in 0..18446744073709551615, found '-1'" "$ISOCHECK" gen --seed=-1 -o /dev/null
bad "option --json takes no value" "$ISOCHECK" check --json=1 "$h"
bad "unknown option '--bogus'" "$ISOCHECK" check --bogus "$h"
bad "unexpected argument" "$ISOCHECK" stats "$h" "$h"     # check takes many histories (report_html.case.sh)
bad "--certificate takes one history; with many, use --report DIR" "$ISOCHECK" check --certificate /dev/null "$h" "$h"
bad "missing operand (expected HISTORY CERTIFICATE)" "$ISOCHECK" verify "$h"
bad "option --to: unknown value 'xml'" "$ISOCHECK" convert --to xml "$h"
bad "no target format" "$ISOCHECK" convert "$h"
bad "option --to: unknown value 'json' (expected text, dbcop, cobra, elle, viper or dbcop-json)" "$ISOCHECK" convert --to json "$h"
bad "option --format: unknown value 'json' (expected text, dbcop, cobra, elle, viper or dbcop-json)" "$ISOCHECK" gen --format json -o /dev/null
bad "option --format: unknown value 'auto' (expected text, dbcop, cobra, elle, json, viper or dbcop-json)" "$ISOCHECK" stats --format auto "$h"
bad "option --cnf: unknown value 'foo' (expected tc, rank, unary or ve)" "$ISOCHECK" encode --cnf=foo "$h"
bad "give exactly one of --gnf and --cnf" "$ISOCHECK" encode "$h"
bad "option --max-clauses expects an integer >= 0, found '-1'" "$ISOCHECK" encode --cnf tc --max-clauses -1 "$h"
bad "option --reads expects a number in 0..1, found '2'" "$ISOCHECK" gen --reads 2 -o /dev/null
bad "option --sessions expects an integer in 1..1000000, found '-3'" "$ISOCHECK" gen --sessions -3 -o /dev/null
bad "option --seed expects an integer in 0..18446744073709551615, found '18446744073709551616'" "$ISOCHECK" gen --seed 18446744073709551616 -o /dev/null
bad "option --fault: unknown value 'nope' (expected none, lost-update" "$ISOCHECK" gen --fault nope -o /dev/null
bad "option --preset: unknown value 'x' (expected polysi" "$ISOCHECK" gen --preset x -o /dev/null
bad "option --level: no certificate proves 'bogus'" "$ISOCHECK" verify --level ser --level=bogus "$h" "$h"
bad "option --time-limit expects a number in 0..1e+09, found 'abc'" "$GSAT" --time-limit abc x.cnf
bad "option --time-limit expects a number in 0..1e+09, found '-1'" "$GSAT" --time-limit=-1 x.cnf
bad "option --conflict-limit expects an integer >= 0, found '1.5'" "$GSAT" --conflict-limit 1.5 x.cnf
bad "option --luby-unit expects an integer in 1..1000000, found '0'" "$GSAT" --luby-unit=0 x.cnf
bad "option --to-cnf: unknown value 'x' (expected tc, rank, unary or ve)" "$GSAT" --to-cnf x x.cnf
bad "unknown option '--bogus'" "$GSAT" --bogus x.cnf
bad "give at most one of --gnf and --cnf" "$GSAT" --gnf --cnf x.cnf
# both spellings work, in any position
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$ISOCHECK" check --level=ser --max-anomalies=1 "$h" > "$t/a"; ra=$?
"$ISOCHECK" check "$h" --max-anomalies 1 --level ser > "$t/b"; rb=$?
[ $ra -eq 1 ] && [ $rb -eq 1 ] && cmp -s "$t/a" "$t/b" || no "--opt=value and --opt value differ: $ra $rb"
printf 'p cnf 2 2\n1 2 0\n-1 0\n' > "$t/s.cnf"
out=$("$GSAT" --theory-phase-budget 5 --luby_unit=7 --conflict-limit=100 --time-limit 10 "$t/s.cnf"); rc=$?
[ $rc -eq 10 ] && echo "$out" | grep -q '^v -1 2 0' || no "gsat with options: exit $rc: $out"
# --help for every command and gsat, on stdout, exit 0
for c in check stats convert verify encode decode gen; do
  out=$("$ISOCHECK" $c --help); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -q "^usage: isocheck $c " && echo "$out" | grep -q -- '-h, --help' || no "$c --help: exit $rc"
done
out=$("$GSAT" --help); [ $? -eq 0 ] && echo "$out" | grep -q -- '--theory_phase_budget N' || no "gsat --help"
exit $fail
