#!/bin/sh
# collect-postgres.sh — record histories from a real PostgreSQL.
#
# Starts a throwaway PostgreSQL (Debian's postgresql package) on a loopback
# port in a temporary directory, runs a generated workload through libpq
# (bench/pg_client.c and bench/pg_order.c, built here) with N concurrent
# sessions at READ COMMITTED (rc), REPEATABLE READ (rr), SERIALIZABLE (ser),
# writes text histories, stops the server and removes its files.  If
# PostgreSQL or libpq-dev is missing it says "skipping" and exits 0.
#
# The server is private: initdb into a fresh mktemp directory, pg_ctl start
# on a free loopback port with its Unix socket in that directory, fsync off,
# track_commit_timestamp on; never a system cluster (Debian's "main" is
# neither started nor read).  At rr and ser each history has PostgreSQL's
# commit order, recovered from the transactions' snapshots, as `#@time`
# start=/commit= (for `check --db-timestamps`) and as OUT.commits (for
# `check --commit-order`); every history has the client's invoke/complete
# times (doc/workload.md, "Real PostgreSQL").
#
#   bench/collect-postgres.sh [OUTDIR]          (default bench/out/postgres)
#   env: SESSIONS=8 TXNS=100 OPS=8 KEYS=1000 READS=0.5 DIST=uniform SEED=1
#        LEVELS="rr ser" (any of rc rr ser)  CHECK=1 (0: no isocheck runs)
#        ISOCHECK=build/isocheck
#        WORKLOAD=items (pred: the predicate workload, pg_client --pred:
#        SELECT ... WHERE v < K and UPDATE ... WHERE v BETWEEN A AND B, written
#        with text's predicate lines; files pg-pred-LEVEL-...; KEYS <= 4096)
# Then, when CHECK=1 and isocheck exists: isocheck stats, and check at si
# and ser on each history, at rr/ser also with --db-timestamps (expected:
# rr passes si, ser passes both; the white-box si answer passes).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/bench/out/postgres}
SESSIONS=${SESSIONS:-8} TXNS=${TXNS:-100} OPS=${OPS:-8} KEYS=${KEYS:-1000}
READS=${READS:-0.5} DIST=${DIST:-uniform} SEED=${SEED:-1} LEVELS=${LEVELS:-"rr ser"}
CHECK=${CHECK:-1} ISOCHECK=${ISOCHECK:-$root/build/isocheck} WORKLOAD=${WORKLOAD:-items}
case $WORKLOAD in
  items) wflag= prefix=pg ;;
  pred) wflag=--pred prefix=pg-pred ;;
  *) echo "collect-postgres: WORKLOAD must be items or pred"; exit 2 ;;
esac

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
  echo "collect-postgres: PostgreSQL is not installed (apt-get install postgresql); skipping"
  exit 0
fi
inc=$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
if [ ! -f "$inc/libpq-fe.h" ]; then
  echo "collect-postgres: libpq-dev is not installed (apt-get install libpq-dev); skipping"
  exit 0
fi

tmp=$(mktemp -d /tmp/isocheck-pg.XXXXXX) || exit 2
server_up=0
# As root, the server runs as the postgres user (initdb refuses root).
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "collect-postgres: running as root and no 'postgres' user; skipping"; rmdir "$tmp"; exit 0; }
  chown postgres "$tmp"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
cleanup() {
  [ $server_up = 1 ] && as_pg "$bindir/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root" -I"$root/include" -I"$inc" \
   "$root/bench/pg_client.c" "$root/bench/pg_order.c" "$root/workload/keydist.c" -o "$tmp/pg_client" -lpq -lpthread -lm || exit 2

# A free loopback port (the first that nobody listens on).
port=$((20000 + $$ % 20000))
while "$bindir/pg_isready" -q -h 127.0.0.1 -p $port >/dev/null 2>&1 || [ $? = 1 ]; do port=$((port + 1)); done

echo "collect-postgres: $("$bindir/postgres" --version), data in $tmp/data, port $port"
as_pg "$bindir/initdb" -D "$tmp/data" -A trust -U isocheck >"$tmp/initdb.log" 2>&1 || { cat "$tmp/initdb.log"; exit 2; }
as_pg "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
  -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c max_connections=$((SESSIONS + 10)) -c fsync=off -c track_commit_timestamp=on -c deadlock_timeout=5ms" start >/dev/null \
  || { cat "$tmp/server.log"; exit 2; }
server_up=1

mkdir -p "$out" || exit 2
conn="host=127.0.0.1 port=$port user=isocheck dbname=postgres"
rc=0
for level in $LEVELS; do
  f="$out/$prefix-$level-${SESSIONS}_${TXNS}_${OPS}_${KEYS}_${READS}_${DIST}.txt"
  commits="${f%.txt}.commits"
  [ "$level" = rc ] && commits=
  if "$tmp/pg_client" $wflag "$conn" "$level" "$SESSIONS" "$TXNS" "$OPS" "$KEYS" "$READS" "$DIST" "$SEED" "$f" ${commits:+"$commits"}; then
    echo "collect-postgres: wrote $f${commits:+ and $commits}"
    if [ "$CHECK" = 1 ] && [ -x "$ISOCHECK" ]; then
      "$ISOCHECK" stats "$f" | grep -E '^(sessions|txns|ops|read_fraction) '
      for chk in si ser; do
        res=$("$ISOCHECK" check --level $chk "$f"); crc=$?
        echo "  isocheck check --level $chk: $(echo "$res" | head -1) (exit $crc)"
      done
      if [ -n "$commits" ]; then
        res=$("$ISOCHECK" check --level si --db-timestamps --white-box-only "$f"); crc=$?
        echo "  isocheck check --level si --db-timestamps: $(echo "$res" | head -1) (exit $crc)"
      fi
    fi
  else
    rc=1
  fi
done
as_pg "$bindir/pg_ctl" -D "$tmp/data" -m fast stop >/dev/null && server_up=0
exit $rc
