/* truth.c — a run's ground truth as JSON (the `.truth` sidecar of gen). */
#include "workload/workload.h"

#include <inttypes.h>

void sim_truth_json(FILE *out, const workload_params *p, const sim_truth *t) {
    fprintf(out,
            "{\"level\": \"%s\", \"fault\": \"%s\", \"fault_rate\": %g, \"manifested\": %" PRIu64 ",\n"
            " \"seed\": %" PRIu64 ", \"sessions\": %u, \"txns_per_session\": %u, \"ops_per_txn\": %u,"
            " \"keys\": %" PRIu64 ", \"read_fraction\": %g, \"distribution\": \"%s\", \"zipf_exponent\": %g,"
            " \"long_fraction\": %g, \"long_ops\": %u, \"lag\": %u, \"retry\": %s, \"fence_every\": %u,\n"
            " \"txns\": %" PRIu64 ", \"committed\": %" PRIu64 ", \"aborted\": %" PRIu64 ", \"ops\": %" PRIu64
            ", \"reads\": %" PRIu64 ", \"writes\": %" PRIu64 ",\n"
            " \"given_up\": %" PRIu64 ", \"faulted_txns\": %" PRIu64 ", \"concurrent_overwrites\": %" PRIu64 ", \"lost_updates\": %" PRIu64 ", \"stale_reads\": %" PRIu64
            ", \"aborted_reads\": %" PRIu64 ", \"intermediate_reads\": %" PRIu64 "}\n",
            sim_level_name(p->level), sim_fault_name(p->fault), p->fault_rate, t->manifested,
            p->seed, p->sessions, p->txns_per_session, p->ops_per_txn, p->keys, p->read_fraction,
            keydist_name(p->dist), p->zipf_exponent, p->long_fraction, p->long_ops,
            p->lag ? p->lag : 2 * p->sessions, p->retry ? "true" : "false", p->fence_every,
            t->txns, t->committed, t->aborted, t->ops, t->reads, t->writes,
            t->given_up, t->faulted_txns, t->concurrent_overwrites, t->lost_updates, t->stale_reads, t->aborted_reads, t->intermediate_reads);
}
