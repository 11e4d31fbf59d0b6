# tests/sizes.sh measures what it claims: on a small generated tree, a
# function of exactly 120 lines passes and one of 121 fails naming
# file:line, function and length, whatever the layout of its definition
# (parameters on several lines, `{` alone on a line, a static inline in a
# header); a file of 701 lines fails; a body not closed by `}` at column 0
# is reported rather than mis-measured; braces inside comments and strings
# do not end a body.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
mkdir -p "$t/tests" "$t/io" && cp "$ROOT/tests/sizes.sh" "$t/tests/" || exit 1
# lines N: N statement lines
lines() { l=0; while [ $l -lt "$1" ]; do echo "    x += $l;"; l=$((l+1)); done; }
# run sizes.sh on the tree; want exit code $1 and every later argument in its output
check() {
  want=$1; shift
  out=$(sh "$t/tests/sizes.sh" "$t" 2>&1); rc=$?
  [ $rc -eq "$want" ] || { no "$what: exit $rc, want $want: $out"; return; }
  for s in "$@"; do echo "$out" | grep -qF -- "$s" || no "$what: no \"$s\" in: $out"; done
}

# 120 lines from signature to "}", one-line signature; a one-line function;
# a table whose entries sit at column 0; braces in comments and strings
what="within the limits"
{ echo '#include <stdio.h>'
  echo 'static const char *names[] = {'
  echo '"a", "b",'
  echo '};'
  echo 'static int one(int x) { return x + 1; }'
  echo 'int exact(int x) {'
  echo '    /* a comment'
  echo '} at column 0 inside a comment'
  echo '    */'
  echo '    const char *s = "}";'
  lines 113
  echo '    return x + (s[0] == 0);'
  echo '}'
} > "$t/io/ok.c"
check 0 "sizes: every file within 700 lines, every function within 120"

what="121 lines"
{ echo 'int too_long(int x) {'; lines 119; echo '}'; } > "$t/io/long.c"
check 1 "sizes: io/long.c:1: too_long() is 121 lines (limit 120)" "sizes: FAILED"
rm "$t/io/long.c"

what="parameters on several lines"
{ echo '#include <stddef.h>'; echo
  echo 'static size_t wide(const char *a, size_t n,'
  echo '                   int flags) {'; lines 130; echo '    return n;'; echo '}'; } > "$t/io/wide.c"
check 1 "sizes: io/wide.c:3: wide() is 134 lines (limit 120)"
rm "$t/io/wide.c"

what="brace alone on its line"
{ echo 'static int'; echo 'allman(int x)'; echo '{'; lines 125; echo '    return x;'; echo '}'; } > "$t/io/allman.c"
check 1 "sizes: io/allman.c:1: allman() is 130 lines (limit 120)"
rm "$t/io/allman.c"

what="static inline in a header"
{ echo '#ifndef INL_H'; echo '#define INL_H'
  echo 'static inline int inl(int x) {'; lines 140; echo '    return x;'; echo '}'; echo '#endif'; } > "$t/io/inl.h"
check 1 "sizes: io/inl.h:3: inl() is 143 lines (limit 120)"
rm "$t/io/inl.h"

what="701-line file"
{ i=0; while [ $i -lt 87 ]; do echo "static int f$i(int x) {"; lines 5; echo '    return x;'; echo '}'; i=$((i+1)); done
  printf '/* filler */\n/* filler */\n/* filler */\n/* filler */\n'; } > "$t/io/big.c"
[ "$(wc -l < "$t/io/big.c")" -eq 700 ] || no "big.c is not 700 lines"
check 0
echo '/* one more */' >> "$t/io/big.c"
check 1 "sizes: io/big.c: 701 lines (limit 700)"
rm "$t/io/big.c"

what="body not closed at column 0"
{ echo 'int a(int x) {'; lines 3; echo '    return x; }'; echo 'int b(int x) {'; lines 3; echo '    return x;'; echo '}'; } > "$t/io/open.c"
check 1 "sizes: io/open.c:1: a(): its body meets the definition at line 6 before a \`}\` at column 0"
rm "$t/io/open.c"

what="limits from the environment"
MAX_FUNC_LINES=100 check 1 "sizes: io/ok.c:6: exact() is 120 lines (limit 100)"
exit $fail
