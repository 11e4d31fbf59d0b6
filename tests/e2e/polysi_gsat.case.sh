# PolySI, unchanged (the peers' polysi.jar), on gsat: the JVM loads
# build/jni/libmonosat.so instead of MonoSAT's (POLYSI_NATIVE_DIR).  Two
# real histories that violate SI (Galera, YugabyteDB) must be rejected and
# one PostgreSQL history accepted, as with MonoSAT.  Needs a JDK and the
# peers' PolySI build (/work/shared/peers/build.sh) and the shared data;
# skipped (exit 77) without them.  bench/backend.sh runs every history.
P=${PEERS_DIR:-/opt/peers}
SHARED=$ROOT/../shared; [ -d "$SHARED/peers" ] || SHARED=/work/shared
H=$SHARED/data/polysi-histories
command -v java >/dev/null 2>&1 || { echo "skipped: no java"; exit 77; }
[ -f "$P/polysi/polysi.jar" ] && [ -x "$SHARED/peers/polysi.sh" ] || { echo "skipped: no PolySI build under $P"; exit 77; }
[ -d "$H" ] || { echo "skipped: no shared histories at $H"; exit 77; }
nice make -s -C "$ROOT" jni >/dev/null 2>&1 || { echo "skipped: make jni failed (no JDK headers?)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for c in "text violations/galera/galera.txt REJECT 255" "text violations/yugabyte/yugabyte.txt REJECT 255" \
         "dbcop fig7/20_10_15_10000_0.5_uniform/hist-00000/history.bincode ACCEPT 0"; do
  set -- $c
  POLYSI_JAVA_OPTS="-Xlog:library=info" POLYSI_NATIVE_DIR="$ROOT/build/jni" "$SHARED/peers/polysi.sh" audit -t "$1" "$H/$2" >"$tmp/out" 2>&1
  rc=$?
  grep -q "Loaded library $ROOT/build/jni/libmonosat.so" "$tmp/out" || { echo "$2: the JVM did not load gsat's libmonosat.so"; grep -i monosat "$tmp/out" | head -3; fail=1; }
  got=$(grep -o '\[\[\[\[ [A-Z]* \]\]\]\]' "$tmp/out" | tr -d '[] ')
  if [ "$got" != "$3" ] || [ $rc != "$4" ]; then
    echo "$2: PolySI on gsat says '$got' (exit $rc), expected $3 (exit $4)"; tail -5 "$tmp/out"; fail=1
  fi
done
exit $fail
