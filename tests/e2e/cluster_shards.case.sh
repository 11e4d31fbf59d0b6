#!/bin/sh
# The cluster recipes without a cluster (doc/cluster.md): slurm-check-array.sh
# run as a plain loop with the variables Slurm sets for an array task, and the
# command of k8s-check-job.yaml run per JOB_COMPLETION_INDEX; merged by
# check-many-merge.sh, the counts and exit code equal the serial `isocheck
# check --json` run's; a lost shard is an error (exit 2), never a PASS.
# tests/e2e/slurm_array.case.sh runs the array under a real slurmctld.
ex="$ROOT/examples"
fail=0
t() { echo "$1"; fail=1; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
case $ISOCHECK in /*) ;; *) ISOCHECK=$PWD/$ISOCHECK ;; esac   # the tasks run elsewhere
export ISOCHECK TMPDIR="$w"
counts() { tail -1 "$1" | sed 's/.*"summary": \({[^}]*}\).*/\1/'; }

ls -d "$ROOT"/tests/data/anomalies/*.txt "$ROOT"/tests/data/formats/lost-update.edn >"$w/list"
echo "$w/missing.txt" >>"$w/list"
n=$(grep -c . "$w/list")
"$ISOCHECK" check --json $(cat "$w/list") >"$w/serial" 2>/dev/null; src=$?
[ $src -eq 1 ] || t "serial: exit $src"
want=$(counts "$w/serial")

# Slurm: --array=1-7:2 (tasks 1 3 5 7: MIN 1, STEP 2, COUNT 4), from another
# directory, as sbatch runs a copy of the script (ISOCHECK_EXAMPLES finds the rest)
mkdir "$w/slurm" "$w/spool"
cp "$ex/slurm-check-array.sh" "$w/spool/"
for id in 1 3 5 7; do
  ( cd "$w" && SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 \
    SLURM_ARRAY_TASK_STEP=2 SLURM_CPUS_PER_TASK=2 ISOCHECK_EXAMPLES="$ex" \
    sh "$w/spool/slurm-check-array.sh" "$w/list" "$w/slurm" '--threads 1' ) 2>"$w/err" ||
    t "slurm task $id: exit $?: $(cat "$w/err")"
done
[ "$(ls "$w/slurm" | tr '\n' ' ')" = "shard-00000.jsonl shard-00001.jsonl shard-00002.jsonl shard-00003.jsonl " ] ||
  t "slurm shards: $(ls -a "$w/slurm")"
sh "$ex/check-many-merge.sh" -n "$n" -o "$w/slurm.sum" "$w"/slurm/shard-*.jsonl; rc=$?
[ $rc -eq $src ] || t "slurm merge: exit $rc, serial $src"
[ "$(counts "$w/slurm.sum")" = "$want" ] || t "slurm merge: $(counts "$w/slurm.sum"), serial $want"
# every history exactly once, the same line as in the serial run
cat "$w"/slurm/shard-*.jsonl | grep -v '^{"isocheck": 1, "summary": ' | sort >"$w/a"
head -n "$n" "$w/serial" | sort >"$w/b"
cmp -s "$w/a" "$w/b" || { t "slurm shards: the history lines differ from the serial run's"; diff "$w/a" "$w/b" | cut -c1-300; }
# a lost shard: not N histories, exit 2
rm "$w/slurm/shard-00002.jsonl"
err=$(sh "$ex/check-many-merge.sh" -n "$n" "$w"/slurm/shard-*.jsonl 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "expected $n histories, found" || t "a lost shard: rc $rc: $err"
# not an array task: exit 3 with the reason
err=$(sh "$ex/slurm-check-array.sh" "$w/list" "$w/slurm" 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$err" | grep -q 'SLURM_ARRAY_TASK_ID=.*job array' || t "outside an array: rc $rc: $err"

# Kubernetes: the Job's own command, /data made a directory here
y="$ex/k8s-check-job.yaml"
if command -v python3 >/dev/null 2>&1 && python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$y" >"$w/k8s.env" <<'EOF' || t "k8s-check-job.yaml: $(cat "$w/k8s.env")"
import sys, yaml, shlex
j = yaml.safe_load(open(sys.argv[1]))
s = j["spec"]; c = s["template"]["spec"]["containers"][0]
env = {e["name"]: e["value"] for e in c["env"]}
assert j["apiVersion"] == "batch/v1" and j["kind"] == "Job", "not a batch/v1 Job"
assert s["completionMode"] == "Indexed", "not an Indexed Job"
assert str(s["completions"]) == env["SHARDS"], "completions != SHARDS"
assert s["template"]["spec"]["restartPolicy"] == "Never"
assert c["command"] == ["sh", "-c"] and len(c["args"]) == 1, "command is not sh -c SCRIPT"
print("shards=%s" % shlex.quote(env["SHARDS"]))
print("cmd=%s" % shlex.quote(c["args"][0]))
EOF
  . "$w/k8s.env"
  data="$w/data"
  mkdir -p "$data/bin" "$data/out"
  ln -s "$ex" "$data/examples"
  ln -s "$ISOCHECK" "$data/bin/isocheck"
  cp "$w/list" "$data/list"
  cmd=$(printf '%s' "$cmd" | sed "s#/data/#$data/#g")
  i=0
  while [ $i -lt "$shards" ]; do
    JOB_COMPLETION_INDEX=$i SHARDS=$shards ISOCHECK="$data/bin/isocheck" sh -c "$cmd" 2>"$w/err" ||
      t "k8s index $i: exit $?: $(cat "$w/err")"
    i=$((i + 1))
  done
  [ "$(ls "$data/out" | wc -l)" -eq "$shards" ] || t "k8s: $(ls "$data/out" | wc -l) shard files, expected $shards"
  sh "$ex/check-many-merge.sh" -n "$n" "$data"/out/shard-*.jsonl >"$w/k8s.sum"; rc=$?
  [ $rc -eq $src ] && [ "$(counts "$w/k8s.sum")" = "$want" ] || t "k8s merge: rc $rc: $(cat "$w/k8s.sum")"
else
  echo "note: no python3 yaml module: k8s-check-job.yaml not parsed" >&2
fi
exit $fail
