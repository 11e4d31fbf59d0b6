# The public libraries export exactly the declared API: the shared ones
# (nm -D) and the static ones (global symbols of the prelinked object) name
# only the functions declared in include/gsat.h + ipasir.h (libgsat),
# include/isocheck.h (libisocheck) and include/monosat.h (MonoSAT's C API,
# build/monosat/libmonosat.so).  A program that defines its own
# analyze, backtrack, propagate, reduce_db, ... links against both
# libraries, static and shared, and both builds work (tests/link/own_names.c).
set -e
nice make -s -C "$ROOT" all >/dev/null 2>&1 || { echo "make all failed"; exit 1; }
B="$ROOT/build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declared() { for h in "$@"; do sed -n 's/^[A-Z]*_API [^(]*[ *]\([A-Za-z_0-9]*\)(.*/\1/p' "$ROOT/include/$h"; done | sort -u; }
declared gsat.h ipasir.h >"$tmp/gsat.want"
declared isocheck.h >"$tmp/isocheck.want"
declared monosat.h >"$tmp/monosat.want"
nm -D --defined-only "$B/monosat/libmonosat.so" | awk '$2 ~ /^[TDBRVWi]$/ {print $3}' | sort -u >"$tmp/monosat.so.got"
cmp -s "$tmp/monosat.want" "$tmp/monosat.so.got" || { echo "libmonosat.so exports other names than monosat.h declares:"; diff "$tmp/monosat.want" "$tmp/monosat.so.got" | head -20; exit 1; }
[ "$(wc -l <"$tmp/gsat.want")" -ge 30 ] || { echo "could not read the declarations of gsat.h/ipasir.h"; exit 1; }
for lib in gsat isocheck; do
  nm -D --defined-only "$B/lib$lib.so" | awk '$2 ~ /^[TDBRVWi]$/ {print $3}' | sort -u >"$tmp/$lib.so.got"
  cmp -s "$tmp/$lib.want" "$tmp/$lib.so.got" || { echo "lib$lib.so exports other names than its header declares:"; diff "$tmp/$lib.want" "$tmp/$lib.so.got" | head -20; exit 1; }
  nm -g --defined-only "$B/lib$lib.a" | awk 'NF == 3 {print $3}' | sort -u >"$tmp/$lib.a.got"
  cmp -s "$tmp/$lib.want" "$tmp/$lib.a.got" || { echo "lib$lib.a has other global names than its header declares:"; diff "$tmp/$lib.want" "$tmp/$lib.a.got" | head -20; exit 1; }
done
# versioned shared objects
for lib in gsat isocheck; do
  soname=$(readelf -d "$B/lib$lib.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  [ "$soname" = "lib$lib.so.1" ] || { echo "lib$lib.so: soname '$soname', expected lib$lib.so.1"; exit 1; }
  [ -L "$B/lib$lib.so" ] && [ -L "$B/lib$lib.so.1" ] || { echo "lib$lib.so, lib$lib.so.1 should be links"; exit 1; }
done
cflags="-std=c11 -Wall -Wextra -Werror -I$ROOT/include"
cc $cflags -o "$tmp/static" "$ROOT/tests/link/own_names.c" "$B/libisocheck.a" "$B/libgsat.a" -lm 2>"$tmp/static.err" ||
  { echo "static link failed:"; head -20 "$tmp/static.err"; exit 1; }
cc $cflags -o "$tmp/shared" "$ROOT/tests/link/own_names.c" -L"$B" -lisocheck -lgsat -lm 2>"$tmp/shared.err" ||
  { echo "shared link failed:"; head -20 "$tmp/shared.err"; exit 1; }
LD_LIBRARY_PATH="$B" ldd "$tmp/shared" | grep -q "libgsat.so.1 => $B" || { echo "not linked to build/libgsat.so.1"; exit 1; }
for v in static shared; do
  LD_LIBRARY_PATH="$B" "$tmp/$v" >"$tmp/$v.out" 2>&1 || { echo "$v build failed:"; cat "$tmp/$v.out"; exit 1; }
  grep -q "^own names: ok$" "$tmp/$v.out" || { echo "$v build: no success line"; cat "$tmp/$v.out"; exit 1; }
done
