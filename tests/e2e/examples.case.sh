# examples/ built against a staged install (make install DESTDIR=... PREFIX=/usr):
# headers, static and shared libraries and pkg-config files, and nothing
# from the source tree.  Both programs check their own results.  libisocheck
# carries its own copy of the engine, so its program links libisocheck alone.
set -e
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
nice make -s -C "$ROOT" install DESTDIR="$stage" PREFIX=/usr >"$stage/make.log" 2>&1 ||
  { echo "make install failed:"; tail -20 "$stage/make.log"; exit 1; }
for f in usr/include/gsat.h usr/include/isocheck.h usr/include/ipasir.h usr/include/gsat/monosat.h \
         usr/lib/libgsat.a usr/lib/libgsat.so usr/lib/libgsat.so.1 usr/lib/libisocheck.a usr/lib/libisocheck.so \
         usr/lib/libisocheck.so.1 usr/lib/gsat/libmonosat.so usr/lib/pkgconfig/gsat.pc usr/lib/pkgconfig/isocheck.pc \
         usr/bin/gsat usr/bin/isocheck; do
  [ -e "$stage/$f" ] || { echo "not installed: $f"; exit 1; }
done
grep -q '^prefix=/usr$' "$stage/usr/lib/pkgconfig/isocheck.pc" || { echo "isocheck.pc: prefix not substituted"; exit 1; }
# pkg-config resolves the staged files (the sysroot prefixes -I and -L)
export PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
cflags=$(pkg-config --cflags isocheck)
libs=$(pkg-config --libs isocheck)
case "$libs" in *"-L$stage/usr/lib"*"-lisocheck"*) ;; *) echo "unexpected pkg-config libs: $libs"; exit 1;; esac
mkdir "$stage/out"
for ex in check_history either_or_graph check_file; do
  pc=isocheck; [ $ex = either_or_graph ] && pc=gsat
  # shared, through pkg-config
  cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags $pc) -o "$stage/out/$ex" "$ROOT/examples/$ex.c" \
     $(pkg-config --libs $pc) || { echo "$ex: does not compile against the staged install"; exit 1; }
  LD_LIBRARY_PATH="$stage/usr/lib" "$stage/out/$ex" >"$stage/out/$ex.txt" 2>&1 ||
    { echo "$ex (shared) failed:"; cat "$stage/out/$ex.txt"; exit 1; }
  grep -q "all as expected" "$stage/out/$ex.txt" || { echo "$ex: no success line"; cat "$stage/out/$ex.txt"; exit 1; }
  LD_LIBRARY_PATH="$stage/usr/lib" ldd "$stage/out/$ex" | grep -q "$stage/usr/lib/lib$pc.so" ||
    { echo "$ex: not linked to the staged shared library"; exit 1; }
  # static, from the staged archives only
  cc -std=c11 -Wall -Wextra -Werror -I"$stage/usr/include" -o "$stage/out/$ex.static" "$ROOT/examples/$ex.c" \
     "$stage/usr/lib/lib$pc.a" -lm
  "$stage/out/$ex.static" >"$stage/out/$ex.static.txt" 2>&1 ||
    { echo "$ex (static) failed:"; cat "$stage/out/$ex.static.txt"; exit 1; }
  cmp -s "$stage/out/$ex.txt" "$stage/out/$ex.static.txt" || { echo "$ex: static and shared runs differ"; exit 1; }
done
# the two examples' key lines
grep -q "^lost update, si: FAIL" "$stage/out/check_history.txt" || { echo "check_history: lost update not FAIL under si"; exit 1; }
grep -q "^write skew, si: PASS" "$stage/out/check_history.txt" || { echo "check_history: write skew not PASS under si"; exit 1; }
grep -q "^lost update from a file, si: FAIL, ser: FAIL$" "$stage/out/check_file.txt" || { echo "check_file: lost update not FAIL"; exit 1; }
# with a file operand: the JSON report of a history in any format
rc=0; LD_LIBRARY_PATH="$stage/usr/lib" "$stage/out/check_file" "$ROOT/tests/data/formats/dbcop-lost-update.json" si >"$stage/out/j.json" || rc=$?
[ $rc -eq 1 ] || { echo "check_file FILE: exit $rc, want 1 (FAIL)"; exit 1; }
grep -q '"verdict": "FAIL", "level": "si"' "$stage/out/j.json" || { echo "check_file FILE: no FAIL report"; exit 1; }
grep -q "^solve 2 (assume x, y): UNSAT, failed x=1 y=1" "$stage/out/either_or_graph.txt" || { echo "either_or_graph: assumptions"; exit 1; }
