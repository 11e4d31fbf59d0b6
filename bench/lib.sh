# bench/lib.sh — shared by the benchmark scripts (source it; bash).
#   run_measured LOG TIMEOUT CMD...   -> "verdict wall_s peak_mb exit"
#       verdict from the exit code: 0 PASS/ACCEPT, 1 FAIL, 255 REJECT (PolySI),
#       124 TIMEOUT, else ERROR; wall and peak memory from /usr/bin/time -v.
#   md_section FILE TITLE < BODY      replace (or append) "## TITLE" in FILE
#   machine_line                      one line: CPU, cores, memory, OS, date
#   revision                          the git commit measured (+ "-dirty")

run_measured() {
  local log=$1 limit=$2; shift 2
  /usr/bin/time -v -o "$log.time" timeout "$limit" "$@" > "$log" 2>&1
  local rc=$? v=ERROR
  case $rc in 0) v=PASS;; 1) v=FAIL;; 255) v=REJECT;; 124) v=TIMEOUT;; esac
  grep -q 'ACCEPT ]]]]' "$log" && v=ACCEPT
  grep -q 'REJECT ]]]]' "$log" && v=REJECT
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.2f", s}' "$log.time" 2>/dev/null)
  rss=$(awk -F': ' '/Maximum resident set size/{printf "%.0f", $2/1024}' "$log.time" 2>/dev/null)
  echo "$v ${wall:-0} ${rss:-0} $rc"
}

md_section() {
  local file=$1 title=$2 body
  body=$(cat)
  mkdir -p "$(dirname "$file")"
  [ -f "$file" ] || printf '# Benchmarks\n\nMeasured by the scripts in bench/ (`make bench` runs them all).\n' > "$file"
  BODY="$body" TITLE="$title" awk '
    BEGIN { title = "## " ENVIRON["TITLE"]; body = ENVIRON["BODY"] }
    $0 == title { print title; print ""; print body; print ""; skip = 1; done = 1; next }
    skip && /^## / { skip = 0 }
    !skip { print }
    END { if (!done) { print ""; print title; print ""; print body } }' "$file" > "$file.new" && mv "$file.new" "$file"
}

revision() {
  local d r
  d=$(dirname "${BASH_SOURCE[0]}")
  r=$(git -C "$d" rev-parse --short HEAD 2>/dev/null) || { echo "(no git)"; return; }
  git -C "$d" diff --quiet HEAD -- ':(top)' ':(top,exclude)doc' 2>/dev/null || r="$r-dirty"
  echo "commit $r"
}

machine_line() {
  local cpu mem
  cpu=$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo 2>/dev/null)
  mem=$(awk '/MemTotal/{printf "%.0f GB", $2/1048576}' /proc/meminfo 2>/dev/null)
  echo "${cpu:-unknown CPU}, $(nproc) cores, ${mem:-? GB} RAM, $(uname -sr), $(date -u '+%Y-%m-%d %H:%M UTC')"
}
