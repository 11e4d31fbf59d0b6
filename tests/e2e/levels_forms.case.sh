# Plume's anomaly patterns (TAP-a … TAP-n, and TAP-o) in the other forms its artifact ships them
# in, written here in those shapes from the text examples of tests/data/levels (each file's
# "# holds:" / "# fails:" lines, which test_levels_oracle checks against the oracle):
#   dbcop   the bincode of a dbcop run directory (history.bincode; aborted transactions have
#           committed = 0)
#   cobra   a directory of T<session>.log, Plume's write ids (key << 32 | value, the value the
#           same), reads of the initial state by Cobra's init marker 0xbebeebee, 'A' for an abort
#   viper   a directory of J<session>.log JSON lines, every read flagged true as Plume's
#           converter writes it ("dead" in ViperBench: read as an ordinary read of a written
#           value, as Viper reads it; doc/formats.md)
# Every level a file states must give the same verdict through the command line on each form,
# a FAIL with a named reason; a level that needs times (dbcop and cobra carry none, these viper
# logs neither) must be refused for want of them, never answered.  Then every Elle example of
# tests/data/levels (lists, aborted and :info transactions) at each level it states.
fail=0
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
D=$ROOT/tests/data/levels

# file and the forms it is written in (a form that cannot say what the file says is left out:
# viper logs hold no aborted transaction, and a read of a value nobody wrote is a read of the
# initial state there; Cobra's reads name their writer, so a thin-air read has none to name)
cases="tap-a-thin-air.txt:dbcop tap-b-aborted-read.txt:dbcop,cobra tap-c-future-read.txt:dbcop,cobra,viper
tap-d-not-my-own-write.txt:dbcop,cobra,viper tap-e-not-my-last-write.txt:dbcop,cobra,viper
g1b-intermediate-read.txt:dbcop,cobra,viper g1c-wr-cycle.txt:dbcop,cobra,viper nonmono-read.txt:dbcop,cobra,viper
tap-i-nonmono-read-ao.txt:dbcop,cobra,viper tap-i-plume-shape.txt:dbcop,cobra,viper
tap-j-non-repeatable-read.txt:dbcop,cobra,viper fractured-read.txt:dbcop,cobra,viper
tap-l-fractured-read-ao.txt:dbcop,cobra,viper causal-violation.txt:dbcop,cobra,viper
tap-n-conflict-ao.txt:dbcop,cobra,viper session-stale-read.txt:dbcop,cobra,viper"

# bytes: one three-digit octal escape each (so a digit after one is not taken into it), for printf %b
byte() { printf '\\0%03o' "$1"; }
be64() { h=$(printf %016x "$1"); while [ -n "$h" ]; do byte "0x${h%"${h#??}"}"; h=${h#??}; done; }
le64() { h=$(printf %016x "$1"); while [ -n "$h" ]; do byte "0x${h#"${h%??}"}"; h=${h%??}; done; }
str() { le64 ${#1}; printf %s "$1" | od -An -v -tu1 | tr -s ' ' '\n' | while read -r b; do [ -n "$b" ] && byte "$b"; done; }

# The text file's operations as "session txn op key value aborted", sessions and transactions
# numbered from 1 in order of appearance (a text line with transaction id -1 is an aborted
# transaction of its own).
ops() {
  sed -n 's/^\([rw]\)(\([0-9]*\),\([0-9]*\),\([0-9]*\),\(-\{0,1\}[0-9]*\))$/\1 \2 \3 \4 \5/p' "$1" | awk '
    { op = $1; key = $2; val = $3; s = $4; x = $5
      if (!(s in sid)) sid[s] = ++ns
      if (x == -1 || !((s, x) in tid)) { tid[s, x] = ++nt; ab[nt] = (x == -1) }
      print sid[s], tid[s, x], op, key, val, ab[tid[s, x]] }'
}

dbcop() {   # ops -> history.bincode (dbcop 0.1: Rust bincode, little endian)
  awk '{ n[$1, $2]++; if (!($1 in seen)) { seen[$1] = 1; S[++ns] = $1 } if (!(($1, $2) in tx)) { tx[$1, $2] = 1; T[$1] = T[$1] " " $2; nt[$1]++ }
         ev[$1, $2] = ev[$1, $2] " " ($3 == "w" ? 1 : 0) ":" $4 ":" $5; ab[$2] = $6; ne++; k[$4] = 1 }
       END { nk = 0; for (x in k) nk++; ntx = 0; for (i = 1; i <= ns; i++) ntx += nt[S[i]]
             print "H", ns, nk, ntx, ne, ns
             for (i = 1; i <= ns; i++) { s = S[i]; print "S", nt[s]; m = split(T[s], a, " ")
               for (j = 1; j <= m; j++) { print "T", n[s, a[j]]; c = split(ev[s, a[j]], e, " ")
                 for (q = 1; q <= c; q++) { split(e[q], f, ":"); print "E", f[1], f[2], f[3] }
                 print "C", (ab[a[j]] ? 0 : 1) } } }' | while read -r w a b c d e; do
    case $w in
      H) le64 0; le64 "$a"; le64 "$b"; le64 "$c"; le64 "$d"; str "levels_forms.case.sh"; str 0; str 0; le64 "$e";;
      S|T) le64 "$a";;
      E) byte "$a"; le64 "$b"; le64 "$c"; byte 1;;
      C) byte "$a";;
    esac
  done
}

cobra() {   # ops -> one T<session>.log command list per line: "FILE RECORDS..."
  awk 'function wid(key, v) { return sprintf("%.0f", key * 4294967296 + v) }
       { s = $1; x = $2; if (x != cur) { if (cur) print last, "END", cur, ab[cur]; cur = x; print s, "S", x }
         ab[x] = $6; last = s
         if ($3 == "w") { print s, "W", wid($4, $5), $4, wid($4, $5); who[$4, $5] = x }
         else if ($5 == 0) print s, "R", "0xbebeebee", "0xbebeebee", $4, wid($4, 0)
         else print s, "R", ((($4, $5) in who) ? who[$4, $5] : x), wid($4, $5), $4, wid($4, $5) }
       END { if (cur) print last, "END", cur, ab[cur] }' | while read -r s w a b c d; do
    case $w in
      S) { printf S; be64 "$a"; } >> "$1/T$s.rec";;
      W) { printf W; be64 "$a"; be64 "$b"; be64 "$c"; } >> "$1/T$s.rec";;
      R) { printf R; be64 "$a"; be64 "$b"; be64 "$c"; be64 "$d"; } >> "$1/T$s.rec";;
      END) { [ "$b" = 1 ] && printf A || printf C; be64 "$a"; } >> "$1/T$s.rec";;
    esac
  done
}

viper() {   # ops -> J<session>.log, one JSON line per transaction, reads flagged true
  awk '{ if ($2 != cur) { if (cur) print last, line "]}"; cur = $2; line = "{\"value\": [" }
         else line = line ", "
         last = $1; line = line sprintf("[\"%s\", %d, %d, true]", $3, $4, $5) }
       END { if (cur) print last, line "]}" }' | while read -r s line; do
    printf '%s\n' "$line" >> "$1/J$s.log"
  done
}

# check FILE-OR-DIR LEVEL WANT NAME: WANT 1 holds (exit 0, "PASS L:"), 0 fails with a reason
check() {
  out=$("$ISOCHECK" check --level "$2" "$1" 2>&1); rc=$?
  if [ $rc = 2 ] && echo "$out" | grep -q 'times'; then
    echo "$out" | grep -q 'invocation and completion times\|needs.*times' || { echo "$4: $2 refused: $out"; fail=1; }
    return
  fi
  if [ "$3" = 1 ]; then
    [ $rc = 0 ] && echo "$out" | grep -q "^PASS $2:" || { echo "$4: $2 should hold (exit $rc): $out" | head -5; fail=1; }
  else
    [ $rc = 1 ] && echo "$out" | grep -q "^FAIL " && echo "$out" | grep -q "^  [1-9A-Za-z]" ||
      { echo "$4: $2 should fail with a reason (exit $rc): $out" | head -5; fail=1; }
  fi
}

forms=0
for c in $cases; do
  f=${c%%:*}
  [ -f "$D/$f" ] || { echo "$f: missing"; fail=1; continue; }
  ops "$D/$f" > "$t/ops"
  for form in $(echo "${c#*:}" | tr , ' '); do
    dir=$t/${f%.txt}.$form
    mkdir "$dir"
    case $form in
      dbcop) printf '%b' "$(dbcop < "$t/ops")" > "$dir/history.bincode";;
      cobra) cobra "$dir" < "$t/ops"
             for r in "$dir"/*.rec; do printf '%b' "$(cat "$r")" > "${r%.rec}.log"; rm "$r"; done;;
      viper) viper "$dir" < "$t/ops";;
    esac
    for l in $(sed -n 's/^# holds: //p' "$D/$f"); do check "$dir" "$l" 1 "$f ($form)"; done
    for l in $(sed -n 's/^# fails: //p' "$D/$f"); do check "$dir" "$l" 0 "$f ($form)"; done
    forms=$((forms + 1))
  done
done
[ $forms -ge 40 ] || { echo "only $forms forms written"; fail=1; }

# The Elle examples (lists, aborted and :info transactions) through the command line.
for f in "$D"/*.edn; do
  for l in $(sed -n 's/^; holds: //p' "$f"); do check "$f" "$l" 1 "$(basename "$f")"; done
  for l in $(sed -n 's/^; fails: //p' "$f"); do check "$f" "$l" 0 "$(basename "$f")"; done
done

# The weak levels name a cycle by its edges: a cycle of lists' orders alone is Elle's G0, one of
# session order and reads alone Plume's CyclicCO (TAP-g).
out=$("$ISOCHECK" check --level rc "$D/list-g0-write-cycle.edn" 2>&1)
echo "$out" | grep -q '^  write cycle (G0): a cycle of 2 edges: list key 1' || { echo "G0 named: $out"; fail=1; }
out=$("$ISOCHECK" check --level rc "$D/list-elle21-so-wr-cycle.edn" 2>&1)
echo "$out" | grep -q '^  CyclicCO (TAP-g): a cycle of 3 edges' || { echo "CyclicCO named: $out"; fail=1; }
exit $fail
