# isocheck encode / decode: on the anomaly catalogue and random small
# histories, every export (GNF through gsat and MonoSAT; CNF tc, rank, unary, ve through
# gsat, and the unpruned ones also through MiniSat and CaDiCaL when installed;
# GNF read back by gsat --to-cnf) gives the verdict of
# `isocheck check`, for SI and SER; each PASS decodes into a certificate
# that `isocheck verify` accepts, each FAIL into exit 1.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
solvers=gsat
monosat=/opt/peers/monosat-static/monosat
[ -x "$monosat" ] || echo "note: MonoSAT not built, GNF only through gsat"
for s in minisat cadical; do
  if command -v $s >/dev/null 2>&1; then solvers="$solvers $s"; else echo "note: $s not installed, skipped"; fi
done

# random histories as in tests/test_export.c: transactions run one after
# another; reads see the initial value, an earlier final value or their own write
awk -v dir="$tmp" 'BEGIN {
  srand(20261123);
  for (h = 1; h <= 8; h++) {
    f = dir "/rand" h ".txt"; nv = 1; delete nfin; delete fin
    S = 2 + int(rand() * 2); T = 3 + int(rand() * 6); K = 1 + int(rand() * 3)
    for (t = 1; t <= T; t++) {
      s = 1 + int(rand() * S); delete own; delete seen; n = 1 + int(rand() * 4)
      for (i = 0; i < n; i++) {
        k = 1 + int(rand() * K)
        if (rand() < 0.5) {
          if (k in own) v = own[k]; else if (k in seen) v = seen[k];
          else { m = nfin[k] + 0; r = int(rand() * (m + 1)); v = r == 0 ? 0 : fin[k, r] }
          seen[k] = v; printf "r(%d,%d,%d,%d)\n", k, v, s, t > f
        } else { own[k] = nv++; printf "w(%d,%d,%d,%d)\n", k, own[k], s, t > f }
      }
      for (k in own) { nfin[k]++; fin[k, nfin[k]] = own[k] }
    }
    close(f)
  }
}'

# a solver's answer into $2 (model file); prints SAT/UNSAT
run_solver() { # solver cnf out
  case $1 in
    gsat) "$GSAT" "$2" >"$3" 2>/dev/null || true ;;
    minisat) minisat "$2" "$3" >/dev/null 2>&1 || true ;;
    cadical) cadical -q "$2" >"$3" 2>/dev/null || true ;;
  esac
}

checked=0 no_check=0
for h in "$ROOT"/tests/data/anomalies/*.txt "$tmp"/rand*.txt; do
  for lv in si ser; do
    # the reference: isocheck check; while it gives no verdict (exit 2), the
    # catalogue's expectation line, else the engine on the GNF export
    set +e; "$ISOCHECK" check --level $lv "$h" >/dev/null 2>&1; want=$?; set -e
    if [ $want -gt 1 ]; then
      exp=$(sed -n "s/^# $lv: \(PASS\|FAIL\).*/\1/p" "$h")
      case $exp in PASS) want=0;; FAIL) want=1;; *) want=;; esac
      no_check=$((no_check + 1))
    fi
    for np in "" --no-prune; do
      "$ISOCHECK" encode --level $lv $np --gnf -o "$tmp/p.gnf" "$h" 2>/dev/null
      set +e; "$GSAT" "$tmp/p.gnf" >"$tmp/gnf.out" 2>&1; st=$?; set -e
      case $st in 10) got=0;; 20) got=1;; *) echo "$h $lv $np: gsat on GNF exit $st"; head -3 "$tmp/gnf.out"; exit 1;; esac
      [ -n "$want" ] || want=$got
      [ $got = $want ] || { echo "$h $lv $np: GNF via gsat says $st, reference says $want"; exit 1; }
      set +e; "$ISOCHECK" decode --level $lv $np -o "$tmp/c.cert" "$h" "$tmp/gnf.out" >"$tmp/dec.txt" 2>&1; d=$?; set -e
      [ $d = $want ] || { echo "$h $lv $np: decode of gsat's GNF model exit $d, want $want"; cat "$tmp/dec.txt"; exit 1; }
      if [ -x "$monosat" ]; then
        "$monosat" -witness "$tmp/p.gnf" >"$tmp/mono.out" 2>&1 || true
        set +e; "$ISOCHECK" decode --level $lv $np -o "$tmp/c.cert" "$h" "$tmp/mono.out" >"$tmp/dec.txt" 2>&1; d=$?; set -e
        [ $d = $want ] || { echo "$h $lv $np: decode of MonoSAT's GNF model exit $d, want $want"; cat "$tmp/dec.txt"; exit 1; }
      fi
      # gsat reads the GNF back and writes it as CNF (the same parser as for solving)
      for enc in tc rank unary ve; do
        "$GSAT" --to-cnf=$enc "$tmp/p.gnf" >"$tmp/back.cnf"
        set +e; "$GSAT" -n "$tmp/back.cnf" >/dev/null 2>&1; st=$?; set -e
        case $st in 10) got=0;; 20) got=1;; *) got=x;; esac
        [ $got = $want ] || { echo "$h $lv $np: gsat --to-cnf=$enc of the GNF: exit $st, want $want"; exit 1; }
      done
      for enc in tc rank unary ve; do
        "$ISOCHECK" encode --level $lv $np --cnf=$enc -o "$tmp/p.cnf" "$h" 2>/dev/null
        # the pruned instances through gsat only, the unpruned (harder) ones through every solver
        run_with=$solvers; [ -z "$np" ] && run_with=gsat
        for s in $run_with; do
          run_solver $s "$tmp/p.cnf" "$tmp/model"
          set +e; "$ISOCHECK" decode --level $lv $np -o "$tmp/c.cert" "$h" "$tmp/model" >"$tmp/dec.txt" 2>&1; d=$?; set -e
          [ $d = $want ] || { echo "$h $lv $np $enc $s: decode exit $d, check exit $want"; cat "$tmp/dec.txt"; exit 1; }
          if [ $d = 0 ]; then
            "$ISOCHECK" verify --level $lv "$h" "$tmp/c.cert" >/dev/null ||
              { echo "$h $lv $np $enc $s: certificate rejected"; "$ISOCHECK" verify --level $lv "$h" "$tmp/c.cert"; exit 1; }
          fi
          checked=$((checked + 1))
        done
      done
    done
  done
done
echo "$checked solver runs agree with the reference ($no_check times isocheck check gave no verdict)"
# bad usage and bad models
set +e
"$ISOCHECK" encode --gnf --cnf=tc "$ROOT/tests/data/anomalies/write_skew.txt" >/dev/null 2>&1; [ $? = 2 ] || { echo "both --gnf and --cnf accepted"; exit 1; }
"$ISOCHECK" encode --cnf=nope "$ROOT/tests/data/anomalies/write_skew.txt" 2>"$tmp/e" >/dev/null; [ $? = 2 ] && grep -q "option --cnf: unknown value 'nope' (expected tc, rank, unary or ve)" "$tmp/e" || { echo "bad encoding name not rejected"; exit 1; }
# a false UNSAT: refused (exit 2) for a history that passes; for one that
# fails, decode reports what `isocheck check` reports (the anomaly named)
printf 's UNSATISFIABLE\n' >"$tmp/unsat.model"
printf 'w(1,1,1,1)\nw(1,2,2,2)\nr(1,1,1,3)\nr(1,2,2,4)\n' >"$tmp/pass.txt"
"$ISOCHECK" decode --level ser "$tmp/pass.txt" "$tmp/unsat.model" >"$tmp/o" 2>"$tmp/e"; [ $? = 2 ] && [ ! -s "$tmp/o" ] &&
  grep -q "the answer says UNSATISFIABLE, but the history satisfies serializability" "$tmp/e" || { echo "false UNSAT not refused:"; cat "$tmp/o" "$tmp/e"; exit 1; }
h="$ROOT/tests/data/anomalies/lost_update.txt"
"$ISOCHECK" check --level si "$h" >"$tmp/check.txt" 2>/dev/null; [ $? = 1 ] || { echo "lost_update passes SI?"; exit 1; }
"$ISOCHECK" decode --level si "$h" "$tmp/unsat.model" >"$tmp/o" 2>"$tmp/e"; [ $? = 1 ] && cmp -s "$tmp/o" "$tmp/check.txt" ||
  { echo "decode's FAIL is not check's:"; diff "$tmp/check.txt" "$tmp/o"; cat "$tmp/e"; exit 1; }
printf 's SATISFIABLE\nv 1 x2 0\n' >"$tmp/bad.model"
"$ISOCHECK" decode "$ROOT/tests/data/anomalies/write_skew.txt" "$tmp/bad.model" 2>"$tmp/e" >/dev/null; [ $? = 2 ] && grep -q "bad.model:2: expected a literal, found 'x2'" "$tmp/e" || { echo "bad model not rejected:"; cat "$tmp/e"; exit 1; }
exit 0
