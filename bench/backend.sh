#!/bin/bash
# bench/backend.sh — gsat as a drop-in backend (doc/backend.md), measured.
#
#   bench/backend.sh [polysi] [api] [ipasir]      (default: all three)
#
# polysi  PolySI (the peers' build, unchanged jar) on every shared history,
#         once with MonoSAT's libmonosat.so and once with gsat's (build/jni,
#         `make jni`), one after the other per history in the same run:
#         verdicts (must be equal), wall and CPU time, PolySI's own solver
#         time (its SI_SOLVER_SOLVE tick) and peak memory.
# api     what the interfaces cost: bench/api_cost.c solves one problem
#         through the native API, IPASIR and MonoSAT's C API, with the calls
#         arranged so the engine gets the same problem in the same order
#         (same conflict count); instructions (callgrind) and CPU time.
# ipasir  public IPASIR applications (the IPASIR repository's genipasat and
#         genipaessentials, built from source) on gsat and on the repository's
#         own PicoSAT back end: same answers, CPU time.
#
# Results: build/bench/backend/ (raw), doc/benchmarks.md (tables).
# env: PEERS_DIR (/opt/peers), SHARED (../shared or /work/shared),
#      TIMEOUT (900 s per PolySI run), IPASIR_GIT (git dir of biotomas/ipasir),
#      POLYSI_GNF_CASES (histories whose PolySI problem the api part also uses)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
P=${PEERS_DIR:-/opt/peers}
SHARED=${SHARED:-$ROOT/../shared}; [ -d "$SHARED/data" ] || SHARED=/work/shared
H=$SHARED/data/polysi-histories
OUT=$ROOT/build/bench/backend; mkdir -p "$OUT"
DOC=${DOC:-$ROOT/doc/benchmarks.md}
TIMEOUT=${TIMEOUT:-900}
IPASIR_GIT=${IPASIR_GIT:-/work/.mirror/biotomas+ipasir/repo}
parts=${*:-polysi api ipasir}

load() { awk '{print $1", "$2", "$3}' /proc/loadavg; }
cpu_s() { awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f", u+s}' "$1"; }
tick_ms() { sed -n "s/^$2: \([0-9]*\)ms$/\1/p" "$1" | tail -1; }

# only the polysi part needs (and relinks) build/jni
case " $parts " in *" polysi "*) targets="all jni";; *) targets=all;; esac
nice make -s -C "$ROOT" $targets >/dev/null || { echo "backend.sh: make $targets failed" >&2; exit 2; }

# ---- PolySI: MonoSAT vs gsat, same jar, same histories --------------------------
polysi() {
  [ -f "$P/polysi/polysi.jar" ] && [ -f "$P/monosat-java/libmonosat.so" ] ||
    { echo "backend.sh: no PolySI/MonoSAT build under $P (../shared/peers/build.sh); skipping polysi" >&2; return 0; }
  # POLYSI_ONLY (a grep pattern) runs a part of the histories into its own
  # table file (POLYSI_TSV), so that parts can run side by side; the report
  # below gathers every polysi*.tsv.
  local list=$OUT/histories${POLYSI_TSV:+-$POLYSI_TSV}.txt tsv=$OUT/polysi${POLYSI_TSV:+-$POLYSI_TSV}.tsv
  { find "$H" -name history.bincode | sort | sed 's/^/dbcop /'
    find "$H" -name '*.txt' ! -name 'README*' | sort | sed 's/^/text /'
    find "$H" -name '*.log' -exec dirname {} \; | sort -u | sed 's/^/cobra /'; } | grep -e "${POLYSI_ONLY:-.}" > "$list"
  printf 'history\tbackend\tverdict\twall_s\tcpu_s\tsolver_ms\tpeak_mb\tload\n' > "$tsv"
  local fmt path name lib log
  while read -r fmt path; do
    name=${path#$H/}; name=${name%/hist-00000*}
    for lib in monosat gsat; do
      local dir=$P/monosat-java; [ $lib = gsat ] && dir=$ROOT/build/jni
      log=$OUT/polysi-$(echo "$name" | tr '/' '_')-$lib.log
      local l; l=$(load)
      read -r v w m _ < <(run_measured "$log" "$TIMEOUT" env POLYSI_NATIVE_DIR="$dir" nice "$SHARED/peers/polysi.sh" audit -t "$fmt" "$path")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$lib" "$v" "$w" "$(cpu_s "$log.time")" \
        "$(tick_ms "$log" SI_SOLVER_SOLVE)" "$m" "$l" >> "$tsv"
      echo "polysi: $name $lib $v ${w}s" >&2
    done
  done < "$list"
  polysi_report
}

# The PolySI table from every polysi*.tsv in $OUT (also: backend.sh polysi-report).
polysi_report() {
  awk -F'\t' -v rev="$(revision)" -v machine="$(machine_line)" '
    FNR == 1 { next }
    { k = $1; if (!(k in seen)) { order[++n] = k; seen[k] = 1 }
      v[k, $2] = $3; w[k, $2] = $4; c[k, $2] = $5; s[k, $2] = $6; m[k, $2] = $7; ld[k] = $8 }
    END {
      print "The PolySI jar as built by the peers (`/opt/peers/polysi/polysi.jar`, unchanged) with the MonoSAT build of"
      print "`libmonosat.so` and with the gsat one (`make jni`, picked by `-Djava.library.path`), one after the other for each history in one run"
      print "(`bench/backend.sh polysi`; " rev "; " machine "). CPU = user+sys of the whole JVM;"
      print "solver = the `SI_SOLVER_SOLVE` tick PolySI prints (the solve call); peak = maximum resident set."
      print ""
      print "| history | verdict MonoSAT | verdict gsat | wall MonoSAT | wall gsat | CPU MonoSAT | CPU gsat | CPU ratio | solver MonoSAT | solver gsat | peak MonoSAT | peak gsat | load at start |"
      print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      same = 0; tm = tg = cm = cg = sm = sg = 0
      for (i = 1; i <= n; i++) {
        k = order[i]; ok = v[k, "monosat"] == v[k, "gsat"]; same += ok
        r = c[k, "gsat"] > 0 ? sprintf("%.2f", c[k, "monosat"] / c[k, "gsat"]) : "-"
        printf "| %s | %s | %s%s | %s s | %s s | %s s | %s s | %s | %s ms | %s ms | %s MB | %s MB | %s |\n", k,
          v[k, "monosat"], v[k, "gsat"], ok ? "" : " **DIFFERS**", w[k, "monosat"], w[k, "gsat"], c[k, "monosat"], c[k, "gsat"], r,
          s[k, "monosat"], s[k, "gsat"], m[k, "monosat"], m[k, "gsat"], ld[k]
        tm += w[k, "monosat"]; tg += w[k, "gsat"]; cm += c[k, "monosat"]; cg += c[k, "gsat"]; sm += s[k, "monosat"]; sg += s[k, "gsat"]
      }
      printf "| **all %d** | | %d of %d equal | %.1f s | %.1f s | %.1f s | %.1f s | %.2f | %.1f s | %.1f s | | | |\n",
        n, same, n, tm, tg, cm, cg, (cg > 0 ? cm / cg : 0), sm / 1000, sg / 1000
    }' "$OUT"/polysi*.tsv > "$OUT/polysi.md"
  md_section "$DOC" "PolySI on gsat (drop-in libmonosat.so) vs PolySI on MonoSAT" < "$OUT/polysi.md"
  cat "$OUT/polysi.md"
}

# ---- the interfaces' cost ----------------------------------------------------------------
api() {
  command -v valgrind >/dev/null || echo "backend.sh: no valgrind; CPU times only" >&2
  local bin=$OUT/api_cost gen=$OUT/gen_gnf f
  cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I"$ROOT/include" -o "$bin" "$ROOT/bench/api_cost.c" \
     "$ROOT/build/libgsat.a" "$ROOT/build/obj/monosat_layer.o" -lm || return 1
  cc -O2 -o "$gen" "$ROOT/bench/gen_gnf.c" || return 1
  # problems: CNF (IPASIR's sample inputs when there, pigeonhole), GNF (acyclicity families; PolySI's own)
  local files=""
  [ -s "$OUT/php8.cnf" ] || python3 - "$OUT/php8.cnf" <<'EOF'
import sys
h = 8; p = h + 1; v = lambda i, j: i * h + j + 1
cl = [[v(i, j) for j in range(h)] for i in range(p)]
cl += [[-v(a, j), -v(b, j)] for j in range(h) for a in range(p) for b in range(a + 1, p)]
with open(sys.argv[1], "w") as f:
    f.write("p cnf %d %d\n" % (p * h, len(cl)))
    for c in cl: f.write(" ".join(map(str, c)) + " 0\n")
EOF
  files="$OUT/php8.cnf"
  if [ -d "$IPASIR_GIT" ]; then
    for f in sat250; do
      [ -s "$OUT/$f.cnf" ] || git --git-dir="$IPASIR_GIT" show "HEAD:app/genipasat/inputs/$f.cnf" > "$OUT/$f.cnf"
      files="$files $OUT/$f.cnf"
    done
  fi
  [ -s "$OUT/rw.gnf" ] || "$gen" rw 4000 8000 1 > "$OUT/rw.gnf"
  [ -s "$OUT/pairs.gnf" ] || "$gen" pairs 2000 6000 1 > "$OUT/pairs.gnf"
  [ -s "$OUT/triple.gnf" ] || "$gen" triple 400 1200 1 > "$OUT/triple.gnf"
  files="$files $OUT/rw.gnf $OUT/pairs.gnf $OUT/triple.gnf"
  local c name path
  for c in ${POLYSI_GNF_CASES:-rubis:cobra:fig8_9_10/rubis-10000/hist-00000 fig7:dbcop:fig7/20_100_15_10000_0.5_uniform/hist-00000/history.bincode}; do
    name=${c%%:*}; path=${c##*:}; c=${c#*:}; local fmt=${c%%:*}
    if [ ! -s "$OUT/polysi-$name.gnf" ] && [ -f "$P/polysi/polysi-gnf.jar" ]; then
      POLYSI_GNF="$OUT/polysi-$name.gnf" timeout "$TIMEOUT" "$SHARED/peers/polysi.sh" audit -t "$fmt" "$H/$path" > "$OUT/polysi-$name.gnf.log" 2>&1
    fi
    [ -s "$OUT/polysi-$name.gnf" ] && files="$files $OUT/polysi-$name.gnf"
  done
  local tsv=$OUT/api.tsv
  printf 'problem\tmode\tanswer\tconflicts\tinstructions\tcpu_s\tload\n' > "$tsv"
  for f in $files; do
    local modes="native ipasir native1 monosat"
    case $f in *.gnf) modes="native1 monosat";; esac
    for mode in $modes; do
      local log=$OUT/api-$(basename "$f")-$mode ir="-" cpu l
      l=$(load)
      /usr/bin/time -v -o "$log.time" "$bin" "$mode" "$f" > "$log.out" 2>&1
      cpu=$(cpu_s "$log.time")
      if command -v valgrind >/dev/null; then
        valgrind --tool=callgrind --toggle-collect='run_*' --callgrind-out-file="$log.cg" "$bin" "$mode" "$f" > /dev/null 2> "$log.vg"
        ir=$(sed -n 's/.*Collected : \([0-9]*\)/\1/p' "$log.vg")
      fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$f")" "$mode" "$(sed -n 's/^s //p' "$log.out")" \
        "$(sed -n 's/^c conflicts //p' "$log.out")" "$ir" "$cpu" "$l" >> "$tsv"
      echo "api: $(basename "$f") $mode ir=$ir cpu=$cpu" >&2
    done
  done
  awk -F'\t' -v rev="$(revision)" -v machine="$(machine_line)" '
    NR == 1 { next }
    { k = $1; if (!(k in seen)) { order[++n] = k; seen[k] = 1 }
      a[k, $2] = $3; cf[k, $2] = $4; ir[k, $2] = $5; cpu[k, $2] = $6; ld[k] = $7 }
    function pct(x, y) { return (y > 0 && x != "-" && y != "-") ? sprintf("%+.2f%%", 100 * (x - y) / y) : "-" }
    END {
      print "One problem through two interfaces whose calls give the engine the same problem in the same order"
      print "(`bench/api_cost.c`; the conflict counts show the search is the same).  Instructions: callgrind,"
      print "counted inside the interface calls only (building the problem and solving it; not reading the file);"
      print "CPU: user+sys of one plain run of the whole process."
      print "native vs IPASIR: clauses as they come; native1 vs MonoSAT C API: the order of MonoSAT (its true"
      print "variable first, edges made by `newEdge`, graphs handed over at the solve)."
      print "(`bench/backend.sh api`; " rev "; " machine ")"
      print ""
      print "| problem | answer | conflicts | native instr. | IPASIR instr. | IPASIR vs native | native1 instr. | MonoSAT API instr. | MonoSAT vs native1 | CPU native / IPASIR / native1 / MonoSAT | load |"
      print "|---|---|---|---|---|---|---|---|---|---|---|"
      for (i = 1; i <= n; i++) {
        k = order[i]
        same = a[k, "native1"] == a[k, "monosat"] && cf[k, "native1"] == cf[k, "monosat"] && (!((k, "native") in a) || a[k, "native"] == a[k, "ipasir"])
        printf "| %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s / %s s | %s |\n", k, a[k, "native1"], same ? "" : " **DIFFERS**",
          cf[k, "native1"], ((k, "native") in ir) ? ir[k, "native"] : "-", ((k, "ipasir") in ir) ? ir[k, "ipasir"] : "-",
          ((k, "ipasir") in ir) ? pct(ir[k, "ipasir"], ir[k, "native"]) : "-", ir[k, "native1"], ir[k, "monosat"],
          pct(ir[k, "monosat"], ir[k, "native1"]), ((k, "native") in cpu) ? cpu[k, "native"] : "-",
          ((k, "ipasir") in cpu) ? cpu[k, "ipasir"] : "-", cpu[k, "native1"], cpu[k, "monosat"], ld[k]
      }
    }' "$tsv" > "$OUT/api.md"
  md_section "$DOC" "gsat's interfaces: what IPASIR and MonoSAT's C API cost" < "$OUT/api.md"
  cat "$OUT/api.md"
}

# ---- public IPASIR applications ------------------------------------------------------------
ipasir() {
  [ -d "$IPASIR_GIT" ] || { echo "backend.sh: no IPASIR repository at $IPASIR_GIT (fetch github:biotomas/ipasir); skipping ipasir" >&2; return 0; }
  local src=$OUT/ipasir
  rm -rf "$src"; mkdir -p "$src"
  git --git-dir="$IPASIR_GIT" archive HEAD ipasir.h app/genipasat app/genipaessentials sat/picosat961 | tar -x -C "$src"
  (cd "$src/sat/picosat961" && make -s > build.log 2>&1) || { echo "backend.sh: PicoSAT's IPASIR build failed" >&2; return 1; }
  local pico=$src/sat/picosat961/libipasirpicosat961.a gsat=$ROOT/build/libgsat.a
  gcc -O2 -w -o "$src/genipasat.gsat" "$src/app/genipasat/genipasat.c" "$gsat" -lm &&
  gcc -O2 -w -o "$src/genipasat.pico" "$src/app/genipasat/genipasat.c" "$pico" &&
  g++ -O2 -w -o "$src/genipaessentials.gsat" "$src/app/genipaessentials/genipaessentials.cpp" "$gsat" -lm &&
  g++ -O2 -w -o "$src/genipaessentials.pico" "$src/app/genipaessentials/genipaessentials.cpp" "$pico" || return 1
  local tsv=$OUT/ipasir.tsv app f s log
  printf 'app\tinput\tsolver\tanswer\tcpu_s\tload\n' > "$tsv"
  for app in genipasat:sat100 genipasat:sat250 genipasat:unsat250 genipaessentials:sat100; do
    f=${app#*:}; app=${app%%:*}
    for s in pico gsat; do
      log=$src/$app-$f-$s
      local l; l=$(load)
      /usr/bin/time -v -o "$log.time" timeout "$TIMEOUT" "$src/$app.$s" "$src/app/$app/inputs/$f.cnf" > "$log" 2>&1
      local ans
      if [ $app = genipasat ]; then ans=$(sed -n 's/^s //p' "$log")
      else ans=$(grep -A1 '^The list of variables' "$log" | tail -1 | md5sum | cut -c1-8)" ($(sed -n 's/^SUMMARY: \([0-9]* of [0-9]*\).*/\1/p' "$log") essential)"; fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$f" "$s" "$ans" "$(cpu_s "$log.time")" "$l" >> "$tsv"
      echo "ipasir: $app $f $s: $ans" >&2
    done
  done
  awk -F'\t' -v rev="$(revision)" -v machine="$(machine_line)" '
    NR == 1 { next }
    { k = $1 " " $2; if (!(k in seen)) { order[++n] = k; seen[k] = 1 } a[k, $3] = $4; c[k, $3] = $5; ld[k] = $6 }
    END {
      print "The IPASIR repository'"'"'s own applications, built from source, linked once with its PicoSAT back end and once"
      print "with `build/libgsat.a` (`bench/backend.sh ipasir`; " rev "; " machine ").  genipaessentials makes one"
      print "incremental solve under assumptions per variable; its answer is the list of essential variables (hash)."
      print ""
      print "| application | input | answer PicoSAT | answer gsat | CPU PicoSAT | CPU gsat | load |"
      print "|---|---|---|---|---|---|---|"
      for (i = 1; i <= n; i++) { k = order[i]; split(k, p, " ")
        printf "| %s | %s | %s | %s%s | %s s | %s s | %s |\n", p[1], p[2], a[k, "pico"], a[k, "gsat"], a[k, "pico"] == a[k, "gsat"] ? "" : " **DIFFERS**", c[k, "pico"], c[k, "gsat"], ld[k] }
    }' "$tsv" > "$OUT/ipasir.md"
  md_section "$DOC" "IPASIR applications on gsat" < "$OUT/ipasir.md"
  cat "$OUT/ipasir.md"
}

for part in $parts; do
  case $part in
    polysi) polysi ;;
    polysi-report) polysi_report ;;
    api) api ;;
    ipasir) ipasir ;;
    *) echo "backend.sh: unknown part '$part' (polysi, api, ipasir)" >&2; exit 2 ;;
  esac
done
