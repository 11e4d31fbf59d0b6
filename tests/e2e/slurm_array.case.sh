#!/bin/sh
# examples/slurm-check-array.sh under a real Slurm: a slurmctld and a slurmd
# of this test's own (a minimal slurm.conf in a temporary directory, this
# host the only node, auth/none, ports of its own), `sbatch --array`, then
# check-many-merge.sh as a job depending on it (`--dependency=afterany`,
# `--wait`): the counts and exit code of the serial `isocheck check --json` run. Skips when Slurm is not installed (Debian: apt-get
# install -y slurm-wlm), when not root (slurmd runs jobs as their user), or
# when the daemons do not start here (the reason is printed). The daemons
# are stopped by their pids, whatever happens.
ex="$ROOT/examples"
for p in slurmctld slurmd sbatch sinfo; do
  command -v $p >/dev/null 2>&1 || { echo "slurm not installed ($p missing; apt-get install -y slurm-wlm)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "slurmd needs root here"; exit 77; }
fail=0
t() { echo "$1"; fail=1; }
w=$(mktemp -d)
stop() {
  for f in "$w/slurmd.pid" "$w/slurmctld.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 1
  rm -rf "$w"
}
trap stop EXIT
trap 'exit 1' INT TERM
host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir "$w/state" "$w/spool" "$w/out"
cat >"$w/slurm.conf" <<EOF
ClusterName=isocheck$$
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$w/state
SlurmdSpoolDir=$w/spool
SlurmctldPidFile=$w/slurmctld.pid
SlurmdPidFile=$w/slurmd.pid
SlurmctldLogFile=$w/slurmctld.log
SlurmdLogFile=$w/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(getconf _NPROCESSORS_ONLN) State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
case $ISOCHECK in /*) ;; *) ISOCHECK=$PWD/$ISOCHECK ;; esac   # the tasks run elsewhere
export SLURM_CONF="$w/slurm.conf" ISOCHECK
slurmctld -f "$SLURM_CONF" >"$w/ctld.out" 2>&1 && slurmd -f "$SLURM_CONF" >"$w/d.out" 2>&1 ||
  { echo "the slurm daemons do not start here: $(tail -2 "$w/ctld.out" "$w/d.out" "$w"/*.log 2>/dev/null | tr '\n' ' ')"; exit 77; }
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
  i=$((i + 1))
  [ $i -lt 30 ] || { echo "the slurm node never became idle: $(sinfo 2>&1 | tr '\n' ' ') $(tail -3 "$w"/*.log | tr '\n' ' ')"; exit 77; }
  sleep 1
done

ls -d "$ROOT"/tests/data/anomalies/*.txt "$ROOT"/tests/data/formats/lost-update.edn >"$w/list"
echo "$w/missing.txt" >>"$w/list"
n=$(grep -c . "$w/list")
"$ISOCHECK" check --json $(cat "$w/list") >"$w/serial" 2>/dev/null; src=$?
want=$(tail -1 "$w/serial" | sed 's/.*"summary": \({[^}]*}\).*/\1/')
# the array, then the merge as a job that waits for it (doc/cluster.md)
id=$(cd "$w" && sbatch --parsable --array=0-2 --output="$w/task-%a.log" \
       "$ex/slurm-check-array.sh" "$w/list" "$w/out" '--threads 1' 2>"$w/sbatch.out") ||
  { echo "sbatch: $(cat "$w/sbatch.out")"; exit 1; }
( cd "$w" && timeout 300 sbatch --wait --dependency=afterany:"${id%%;*}" --output="$w/merge.log" \
    --wrap "sh '$ex/check-many-merge.sh' -n $n -o '$w/sum' '$w'/out/shard-*.jsonl" >"$w/sbatch.out" 2>&1 )
rc=$?
[ $rc -eq $src ] || t "merge job: exit $rc, serial $src: $(cat "$w/sbatch.out" "$w/merge.log" "$w"/task-*.log 2>/dev/null)"
[ "$(ls "$w/out" | tr '\n' ' ')" = "shard-00000.jsonl shard-00001.jsonl shard-00002.jsonl " ] ||
  t "shards: $(ls -a "$w/out") $(cat "$w"/task-*.log 2>/dev/null)"
got=$(sed 's/.*"summary": \({[^}]*}\).*/\1/' "$w/sum" 2>/dev/null)
[ "$got" = "$want" ] || t "merged $got, serial $want"
exit $fail
