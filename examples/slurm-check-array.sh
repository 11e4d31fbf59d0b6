#!/bin/sh
# slurm-check-array.sh — a Slurm job array that checks a list of histories:
# task T of the array checks shard T of it (check-shard.sh) and writes
# OUTDIR/shard-IIIII.jsonl on shared storage; check-many-merge.sh then gives
# the verdict of the whole list (doc/cluster.md).
#
# submit (K tasks, here 32, at most 8 running at once):
#   sbatch --array=0-31%8 examples/slurm-check-array.sh LIST OUTDIR ['ISOCHECK CHECK OPTIONS']
# afterwards (or as a job with --dependency=afterok:JOBID):
#   examples/check-many-merge.sh -n "$(grep -c . LIST)" OUTDIR/shard-*.jsonl
#
# LIST: one history path a line, paths every node can read (shared storage),
# like ISOCHECK (default `isocheck` on PATH: the same binary on every node,
# e.g. one built with
# `make build/isocheck LDLIBS='-static -lm -pthread'`). Each task uses the CPUs Slurm
# gave it (--cpus-per-task, SLURM_CPUS_PER_TASK; default 1) as jobs of
# check-many-parallel.sh. The array may start at any index and have a step
# (--array=1-64:2): the shard is the task's position in the array,
# (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, of
# SLURM_ARRAY_TASK_COUNT shards.
#
# exit: check-shard.sh's: 0 the shard's file written (whatever the verdicts:
# they are the merge's, and a task that "fails" because a history fails would
# be mistaken for a broken node); 2 LIST, OUTDIR or isocheck unusable;
# 3 bad usage or not run as a task of an array.
#SBATCH --job-name=isocheck-many
#SBATCH --cpus-per-task=1
#SBATCH --output=isocheck-many-%A_%a.log
me=slurm-check-array.sh
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: sbatch --array=0-K-1 $me LIST OUTDIR ['ISOCHECK CHECK OPTIONS']" >&2; exit 3; }
for v in SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT; do
  eval "x=\${$v:-}"
  case $x in ''|*[!0-9]*) echo "$me: $v='$x': run me as a task of a job array (sbatch --array=...)" >&2; exit 3 ;; esac
done
min=${SLURM_ARRAY_TASK_MIN:-0} step=${SLURM_ARRAY_TASK_STEP:-1}
shard=$(( (SLURM_ARRAY_TASK_ID - min) / step ))
# sbatch runs a copy of this script from its spool: the other scripts are
# found in ISOCHECK_EXAMPLES, else beside the script submitted (the job's
# Command), else in SLURM_SUBMIT_DIR/examples.
dir=${ISOCHECK_EXAMPLES:-}
cmd=$(scontrol show job "${SLURM_JOB_ID:-none}" 2>/dev/null | sed -n "s/^ *Command=//p" | head -1)
cmd=${cmd:-.}
for d in "$dir" "$(dirname "$0")" "$(dirname "${cmd%% *}")" "${SLURM_SUBMIT_DIR:-.}/examples"; do
  [ -n "$d" ] && [ -f "$d/check-shard.sh" ] && { dir=$d; break; }
done
[ -f "$dir/check-shard.sh" ] || { echo "$me: check-shard.sh not found: set ISOCHECK_EXAMPLES" >&2; exit 2; }
exec sh "$dir/check-shard.sh" -i "$shard" -k "$SLURM_ARRAY_TASK_COUNT" -j "${SLURM_CPUS_PER_TASK:-1}" \
  -a "${3:-}" "$1" "$2"
