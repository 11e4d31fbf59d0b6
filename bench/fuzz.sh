#!/bin/sh
# fuzz.sh — `make fuzz`: fuzz every reader with libFuzzer (clang).
#
#   FUZZ_SECONDS=300 (per target)  FUZZ_TARGETS="text dbcop cobra elle json cert gnf dimacs verdict follow api"
#   FUZZ_CFLAGS="-DFUZZ_SKIP_NUL" (harnesses only: e.g. leave out inputs that hit a known bug)
#
# Targets: tests/fuzz/fuzz_<target>.c — the history parsers (body in
# tests/fuzz/fuzz_body.h: parse, axioms, stats, write back, parse again),
# the certificate reader and verifier (fuzz_cert_body.h: a certificate that
# verifies for a history the checker fails is a finding), the GNF and the
# DIMACS readers (fuzz_gnf_body.h: read, then solve under a small conflict
# limit), verdict (fuzz_verdict_body.h: any history format, checked for
# SI and SER, written as text, dbcop, cobra and elle and read back: a
# verdict that changes is a finding), and `check --follow` (fuzz_follow_body.h:
# the bytes fed through a pipe in pieces the input's first two bytes choose,
# against the batch check of them: one input, one answer;
# tests/test_follow_chunks.c replays its findings), and the API misuse target
# (fuzz_api_body.h: random programs of gsat_* and ipasir_* calls with extreme
# arguments; the process must never end, every misuse or failed allocation
# must come back as an error; its allocations are capped at 512 MB so that
# huge sizes fail).  Built with ASan+UBSan and -DGSAT_DEBUG (every model is checked
# against the clauses) into build/fuzz/.  Seeds come from tests/data,
# examples/ and what build/isocheck makes of them (other formats,
# certificates, encodings).  libFuzzer runs in fork mode and goes on after
# a finding; memory is capped (-rss_limit_mb=2048, -malloc_limit_mb=1024:
# a header that asks for more is reported as out-of-memory).  Every crash,
# leak, timeout or out-of-memory input is copied to
# tests/data/fuzz-regress/<target>-<sha1>, which tests/test_fuzz_regress.c
# replays in `make test`.  Exit status 1 if anything was found.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
secs=${FUZZ_SECONDS:-300}
targets=${FUZZ_TARGETS:-"text dbcop cobra elle json cert gnf dimacs verdict follow api"}
CLANG=${CLANG:-clang}
out=build/fuzz
command -v "$CLANG" >/dev/null || { echo "fuzz.sh: needs clang with libFuzzer (sh .ci/deps fuzz installs it)"; exit 2; }
make -s all || exit 2
mkdir -p "$out/obj" tests/data/fuzz-regress
flags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DGSAT_DEBUG -Iinclude -I. -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# Known findings in code owned elsewhere, suppressed so that fuzzing gets past
# them (bench/fuzz.supp says which and why): their checks must be recoverable
# to be suppressible; halt_on_error keeps every other report fatal.
flags="$flags -fsanitize-recover=pointer-overflow"
export UBSAN_OPTIONS="suppressions=$root/bench/fuzz.supp:halt_on_error=1:print_stacktrace=1"
# the libraries once, instrumented for coverage
lib="$out/libfuzzed.a"
src=$(find io solver theory frontend compat/ipasir -name '*.c' | sort; echo programs/gnf.c; echo programs/cli_check.c programs/cli_follow.c programs/cli_common.c programs/cmdline.c)
objs=""
for f in $src; do
  o="$out/obj/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')"
  if [ ! "$o" -nt "$f" ] || [ "$o" -ot bench/fuzz.sh ]; then $CLANG $flags -fsanitize=fuzzer-no-link -c "$f" -o "$o" || exit 2; fi
  objs="$objs $o"
done
rm -f "$lib"; ar rcs "$lib" $objs || exit 2

# seeds: $1 target, $2 directory
make_seeds() {
  s=$2
  case "$1" in
    text) cp tests/data/anomalies/*.txt tests/data/hist/*.txt tests/data/formats/*.txt examples/*.txt "$s/" 2>/dev/null ;;
    json) cp tests/data/formats/*.json tests/data/formats/*.jsonl "$s/" 2>/dev/null ;;
    elle) cp tests/data/anomalies/*.edn tests/data/hist/*.edn tests/data/formats/*.edn "$s/" 2>/dev/null
          for f in tests/data/anomalies/*.txt; do build/isocheck convert --to elle -o "$s/$(basename "$f").edn" "$f" 2>/dev/null; done ;;
    dbcop) for f in tests/data/anomalies/*.txt tests/data/hist/*; do
             build/isocheck convert --to dbcop -o "$s/$(basename "$f").bin" "$f" 2>/dev/null; done ;;
    cobra) for f in tests/data/anomalies/*.txt; do      # the harness splits its input at "LOG|"
             d="$s/$(basename "$f").d"
             build/isocheck convert --to cobra -o "$d" "$f" 2>/dev/null &&
               for l in "$d"/T*.log; do cat "$l"; printf 'LOG|'; done > "$s/$(basename "$f").logs"
             rm -rf "$d"; done ;;
    cert) for f in tests/data/anomalies/*.txt; do      # HISTORY %% CERTIFICATE, and the certificate alone
            for lv in si ser; do
              b="$s/$(basename "$f").$lv"
              build/isocheck check --level $lv --certificate "$b.alone" "$f" >/dev/null 2>&1 &&
                { cat "$f"; printf '%%%%\n'; cat "$b.alone"; } > "$b"
            done; done ;;
    gnf) for f in tests/data/anomalies/*.txt; do
           build/isocheck encode --gnf --no-prune -o "$s/$(basename "$f").gnf" "$f" 2>/dev/null; done ;;
    verdict) cp tests/data/anomalies/* tests/data/formats/*.txt tests/data/formats/*.edn tests/data/formats/*.json "$s/" 2>/dev/null
             for f in tests/data/anomalies/*.txt; do
               build/isocheck convert --to dbcop -o "$s/$(basename "$f").bin" "$f" 2>/dev/null; done ;;
    follow) i=0                                          # two bytes (how to cut), then a history
            for f in tests/data/anomalies/*.txt tests/data/anomalies/*.edn tests/data/hist/*.txt tests/data/hist/*.edn \
                     tests/data/formats/*.txt tests/data/formats/*.edn tests/data/formats/*.json tests/data/formats/*.jsonl; do
              [ -f "$f" ] && [ "$(wc -c < "$f")" -le 8000 ] || continue
              i=$((i + 1)); printf "\\$(printf %o $((i % 256)))\\$(printf %o $((i * 7 % 256)))" > "$s/$i"; cat "$f" >> "$s/$i"
            done ;;
    api) printf '\000\003\001\203\003\000\240\001\241\243' > "$s/clauses-and-solves"   # a start; libFuzzer grows it
         printf '\000\002\310\001\003\000' > "$s/int-min" ;;
    dimacs) cp examples/*.cnf "$s/" 2>/dev/null
            for f in tests/data/anomalies/*.txt; do
              build/isocheck encode --cnf tc --no-prune -o "$s/$(basename "$f").cnf" "$f" 2>/dev/null; done ;;
  esac
}

found=0
for t in $targets; do
  bin="$out/fuzz_$t"
  echo "== building $bin"
  $CLANG $flags ${FUZZ_CFLAGS:-} -fsanitize=fuzzer "tests/fuzz/fuzz_$t.c" "$lib" -lm -o "$bin" || exit 2
  corpus="$out/corpus-$t"; seeds="$out/seeds-$t"; art="$out/artifacts-$t/"
  mkdir -p "$corpus"
  rm -rf "$seeds" "$art"; mkdir -p "$seeds" "$art"
  make_seeds "$t" "$seeds"
  for f in tests/data/fuzz-regress/$t-*; do [ -e "$f" ] && cp "$f" "$seeds/"; done
  echo "== fuzzing $t for ${secs}s ($(ls "$seeds" | wc -l) seeds)"
  # the API target: a large allocation fails (the library returns the
  # error) instead of being a finding
  asan= malloc_mb=1024
  [ "$t" = api ] && asan="allocator_may_return_null=1:max_allocation_size_mb=512" malloc_mb=2048
  FUZZ_FOLLOW_LOG="$root/$out/findings-$t.log" ASAN_OPTIONS="$asan" nice "$bin" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -max_total_time="$secs" -max_len=8192 \
    -rss_limit_mb=2048 -malloc_limit_mb=$malloc_mb -timeout=10 -artifact_prefix="$art" -print_final_stats=1 \
    "$corpus" "$seeds" > "$out/fuzz-$t.log" 2>&1
  grep -E '^#[0-9]+.*DONE|cov:|stat::number_of_executed_units|stat::peak_rss_mb' "$out/fuzz-$t.log" | tail -n 3
  for a in "$art"*; do
    [ -f "$a" ] || continue
    sum=$(sha1sum "$a" | cut -c1-12)
    cp "$a" "tests/data/fuzz-regress/$t-$sum"
    echo "fuzz.sh: FINDING $t: $(basename "$a") -> tests/data/fuzz-regress/$t-$sum"
    found=1
  done
done
[ $found -eq 0 ] && echo "fuzz.sh: no findings" || echo "fuzz.sh: findings copied to tests/data/fuzz-regress/ (see $out/fuzz-*.log)"
exit $found
