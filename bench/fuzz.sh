#!/bin/sh
# fuzz.sh — `make fuzz`: fuzz every history parser with libFuzzer (clang).
#
#   FUZZ_SECONDS=600 (per parser)  FUZZ_TARGETS="text dbcop cobra elle json"  FUZZ_JOBS=1
#
# Harnesses: tests/fuzz/fuzz_<format>.c (body in tests/fuzz/fuzz_body.h),
# built with ASan+UBSan into build/fuzz/.  Seeds come from tests/data and
# from converting them with build/isocheck.  Any crash, leak or abort is
# copied to tests/data/fuzz-regress/<format>-<sha1>, which test_fuzz_regress
# replays in `make test`.  Exit status 1 if anything was found.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
secs=${FUZZ_SECONDS:-600}
targets=${FUZZ_TARGETS:-"text dbcop cobra elle json"}
CLANG=${CLANG:-clang}
out=build/fuzz
command -v "$CLANG" >/dev/null || { echo "fuzz.sh: needs clang with libFuzzer"; exit 2; }
make -s all || exit 2
mkdir -p "$out" tests/data/fuzz-regress
lib_src=$(ls frontend/*.c solver/*.c theory/*.c | grep -v -e '_main\.c$' -e '/cli_')
found=0
for t in $targets; do
  bin="$out/fuzz_$t"
  echo "== building $bin"
  $CLANG -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -I. \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    "tests/fuzz/fuzz_$t.c" $lib_src -o "$bin" || exit 2
  corpus="$out/corpus-$t"
  mkdir -p "$corpus"
  seeds="$out/seeds-$t"
  rm -rf "$seeds"; mkdir -p "$seeds"
  for f in tests/data/hist/* tests/data/formats/*; do
    case "$t" in
      text) case "$f" in *.txt) cp "$f" "$seeds/";; esac ;;
      elle) case "$f" in *.edn) cp "$f" "$seeds/";; *.txt) build/isocheck convert --to elle -o "$seeds/$(basename "$f").edn" "$f" 2>/dev/null;; esac ;;
      json) case "$f" in *.json|*.jsonl) cp "$f" "$seeds/";; esac ;;
      dbcop) build/isocheck convert --to dbcop -o "$seeds/$(basename "$f").bin" "$f" 2>/dev/null ;;
      cobra) d="$seeds/$(basename "$f").d"      # the harness splits its input at "LOG|"
             build/isocheck convert --to cobra -o "$d" "$f" 2>/dev/null &&
             for l in "$d"/T*.log; do cat "$l"; printf 'LOG|'; done > "$seeds/$(basename "$f").logs" && rm -rf "$d" ;;
    esac
  done
  for f in tests/data/fuzz-regress/$t-*; do [ -e "$f" ] && cp "$f" "$seeds/"; done
  art="$out/artifacts-$t/"
  rm -rf "$art"; mkdir -p "$art"
  echo "== fuzzing $t for ${secs}s"
  nice "$bin" -max_total_time="$secs" -max_len=8192 -rss_limit_mb=1024 -timeout=10 \
    -artifact_prefix="$art" -print_final_stats=1 "$corpus" "$seeds" 2>&1 | tail -n 12
  for a in "$art"*; do
    [ -f "$a" ] || continue
    sum=$(sha1sum "$a" | cut -c1-12)
    cp "$a" "tests/data/fuzz-regress/$t-$sum"
    echo "fuzz.sh: FINDING $t: $a -> tests/data/fuzz-regress/$t-$sum"
    found=1
  done
done
[ $found -eq 0 ] && echo "fuzz.sh: no findings" || echo "fuzz.sh: findings copied to tests/data/fuzz-regress/"
exit $found
