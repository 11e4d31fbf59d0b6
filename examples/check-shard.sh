#!/bin/sh
# check-shard.sh — check shard I of K of a list of histories; one JSON-lines
# file per shard on shared storage, for check-many-merge.sh (doc/cluster.md).
#
# usage: check-shard.sh -i I -k K [-j N] [-a 'ISOCHECK CHECK OPTIONS'] LIST OUTDIR
#
# LIST: one history path a line (as `isocheck check` takes it; blank lines
# skipped), the same file for every shard. Shard I (0 <= I < K) takes the
# histories on lines I+1, I+1+K, I+1+2K, ... (every K-th: long and short
# histories, often listed together, are spread over the shards), checks them
# with check-many-parallel.sh (N jobs, default the processors online; -a as
# there) and writes OUTDIR/shard-IIIII.jsonl (I zero-padded to 5 digits): a
# JSON line per history, then the shard's summary line. The file appears only
# when complete (written beside it, then renamed): a shard that died has no
# file, a shard run again replaces its own. A shard with no history (K larger
# than the list) writes an empty file.
# Called by slurm-check-array.sh (a Slurm job array) and k8s-check-job.yaml
# (a Kubernetes Indexed Job); runs anywhere with I and K given.
#
# exit: 0 when the shard's file is written, whatever the verdicts in it (the
# verdicts are the merge's business: a failing history must not make Slurm or
# Kubernetes run the shard again); 2 LIST unreadable, OUTDIR unwritable or
# no isocheck; 3 bad usage.
me=check-shard.sh
here=$(cd "$(dirname "$0")" && pwd) || exit 3
usage() { echo "usage: $me -i I -k K [-j N] [-a 'ISOCHECK CHECK OPTIONS'] LIST OUTDIR" >&2; exit 3; }
i= k= jobs= args=
while getopts i:k:j:a: opt; do
  case $opt in i) i=$OPTARG ;; k) k=$OPTARG ;; j) jobs=$OPTARG ;; a) args=$OPTARG ;; *) usage ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
list=$1 outdir=$2
case $i in ''|*[!0-9]*) echo "$me: -i '$i': expected a shard number >= 0" >&2; exit 3 ;; esac
case $k in ''|0|*[!0-9]*) echo "$me: -k '$k': expected a shard count >= 1" >&2; exit 3 ;; esac
[ "$i" -lt "$k" ] || { echo "$me: shard $i of $k: expected 0 <= I < K" >&2; exit 3; }
[ -f "$list" ] && [ -r "$list" ] || { echo "$me: $list: cannot read the list" >&2; exit 2; }
[ -d "$outdir" ] && [ -w "$outdir" ] || { echo "$me: $outdir: not a writable directory" >&2; exit 2; }

out=$(printf '%s/shard-%05d.jsonl' "$outdir" "$i")
part="$outdir/.shard-$i.$(hostname 2>/dev/null || echo host).$$"
trap 'rm -f "$part" "$part.list"' EXIT
trap 'exit 2' INT TERM
grep -v '^$' "$list" | awk -v i="$i" -v k="$k" '(NR - 1) % k == i' >"$part.list" ||
  { echo "$me: $part.list: cannot write" >&2; exit 2; }
n=$(wc -l <"$part.list" | tr -d ' ')
if [ "$n" -eq 0 ]; then
  : >"$part" || exit 2
else
  sh "$here/check-many-parallel.sh" ${jobs:+-j "$jobs"} -a "$args" -o "$part" -l "$part.list"
  [ -s "$part" ] || { echo "$me: shard $i of $k: no output (see above)" >&2; exit 2; }
fi
mv -f "$part" "$out" || { echo "$me: $out: cannot write" >&2; exit 2; }
echo "$me: shard $i of $k: $n histories -> $out" >&2
exit 0
