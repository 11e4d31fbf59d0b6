# Manual pages: made from the programs' own --help (doc/man/mkman.sh), they
# render without a single groff warning and hold every isocheck command and
# option.  When the release build is up to date (make all), also: make
# install into a scratch DESTDIR puts the pages in share/man/man1, and make
# uninstall then leaves no file behind (and nothing it did not install is
# touched: a file of ours planted in the tree survives).
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for p in isocheck gsat; do
  bin=$ISOCHECK; [ $p = gsat ] && bin=$GSAT
  sh "$ROOT/doc/man/mkman.sh" "$bin" $p > "$t/$p.1" || { echo "mkman.sh $p failed"; exit 1; }
  groff -man -ww -z "$t/$p.1" 2> "$t/$p.warn"
  [ -s "$t/$p.warn" ] && { echo "groff warns on $p.1:"; head -5 "$t/$p.warn"; exit 1; }
  grep -q "^\.TH $(echo $p | tr a-z A-Z) 1" "$t/$p.1" || { echo "$p.1 has no .TH line"; exit 1; }
done
for c in $("$ISOCHECK" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
  grep -q "^\.SS $c\$" "$t/isocheck.1" || { echo "isocheck.1 has no section for command $c"; exit 1; }
done
for o in $("$ISOCHECK" check --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p'); do
  grep -q -- "$o" "$t/isocheck.1" || { echo "isocheck.1 lacks check's option $o"; exit 1; }
done
grep -q -- '--time-limit' "$t/gsat.1" || { echo "gsat.1 lacks --time-limit"; exit 1; }
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$t/isocheck.1" 2>/dev/null | grep -q 'ISOCHECK(1)' || { echo "man -l cannot show isocheck.1"; exit 1; }
fi
if make -s -q -C "$ROOT" all 2>/dev/null; then
  d=$t/dest
  make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/usr >/dev/null 2>"$t/err" || { echo "make install failed:"; cat "$t/err"; exit 1; }
  for f in share/man/man1/isocheck.1 share/man/man1/gsat.1 bin/isocheck lib/pkgconfig/isocheck.pc; do
    [ -f "$d/usr/$f" ] || { echo "make install did not install $f"; exit 1; }
  done
  v=$("$ISOCHECK" --version | head -1 | awk '{ print $NF }')
  grep -qx "Version: $v" "$d/usr/lib/pkgconfig/isocheck.pc" || { echo "isocheck.pc's Version is not $v"; exit 1; }
  echo mine > "$d/usr/lib/mine.txt"
  make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/usr >/dev/null 2>"$t/err" || { echo "make uninstall failed:"; cat "$t/err"; exit 1; }
  left=$(cd "$d" && find . \( -type f -o -type l \) | sort)
  [ "$left" = "./usr/lib/mine.txt" ] || { echo "after uninstall, expected only our planted file, found:"; echo "$left" | head; exit 1; }
else
  echo "note: release build not up to date; make install/uninstall not exercised (run make all first)"
fi
exit 0
