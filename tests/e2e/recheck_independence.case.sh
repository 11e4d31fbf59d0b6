# The re-checkers' independence is a rule tests/layering.sh enforces: on a
# copy of the sources, each way of breaking it (a re-checker including the
# pipeline, the pipeline including a re-checker's internals, a re-checker
# calling the history model's reading of reads) fails the script, naming
# the file and what it may do; the untouched copy passes.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "$1"; fail=1; }
for d in include io solver theory frontend workload programs compat; do cp -r "$ROOT/$d" "$t/" || exit 1; done
mkdir "$t/tests" && cp "$ROOT/tests/layering.sh" "$t/tests/" || exit 1
out=$(sh "$t/tests/layering.sh" "$t" 2>&1) || no "the clean copy fails: $out"
# break FILE with the sed script; expect exit 1 and WANT in the output
expect() {
  f=$1; cp "$t/$f" "$t/saved"
  sed -i "$2" "$t/$f"
  cmp -s "$t/$f" "$t/saved" && { no "$f: the edit did not apply ($2)"; return; }
  out=$(sh "$t/tests/layering.sh" "$t" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -qF "$3" || no "$f ($2): exit $rc, want \"$3\": $out"
  cp "$t/saved" "$t/$f"
}
expect frontend/recheck/cert_verify.c '/#include "frontend\/recheck\/cert_internal.h"/a #include "frontend/checking/depgraph.h"' \
  'includes "frontend/checking/depgraph.h" (part checking); recheck may include only include history'
expect frontend/recheck/vm_graph.c '/#include "par.h"/a #include "frontend/reports/cert_file.h"' \
  'includes "frontend/reports/cert_file.h" (part reports); recheck may include only include history'
expect frontend/recheck/vm_index.c '/#include "par.h"/a #include "theory/graph_sink.h"' \
  'includes "theory/graph_sink.h" (part theory); recheck may include only include history'
expect frontend/recheck/cert_replay.c '/#include "frontend\/recheck\/cert_internal.h"/a #include "io/input.h"' \
  'includes "io/input.h" (part io); recheck may include only include history'
expect frontend/checking/check.c 's|#include "frontend/recheck/verify_model.h"|#include "frontend/recheck/vm_internal.h"|' \
  'includes "frontend/recheck/vm_internal.h", internal to the re-checkers'
expect frontend/reports/cert_build.c '/#include "frontend\/checking\/depgraph.h"/a #include "frontend/recheck/cert_internal.h"' \
  'includes "frontend/recheck/cert_internal.h", internal to the re-checkers'
expect frontend/recheck/vm_index.c 's|    m->part = participants(h);|    m->part = history_participants(h);|' \
  'calls history_participants (a re-checker may call only history_list history_key_str history_op_where history_op_txn history_op_value)'
expect frontend/recheck/cert_replay.c 's|const int64_t \*l = history_list(h, op, &len);|const int64_t *l = history_list(h, op, \&len); (void)history_read_source (h, op);|' \
  'calls history_read_source (a re-checker may call only'
exit $fail
