/* write_viper.c — Viper's per-session JSON-lines logs (the layout
 * parse_viper.c reads): a directory with one J<n>.log per session
 * (n = 1, 2, ... in session order, so the logs' natural order gives the
 * sessions back in order), one committed transaction a line:
 *   {"preBeginTS": I, "postCommitTS": C, "value": [["w", K, V, true], ["r", K, 0, false]]}
 * J1.log starts with an empty initial transaction,
 *   {"value": [], "isInitial": true, "isFinal": false}
 * so that a read of 0 is a read of the initial state, and any other value
 * nobody wrote stays a thin-air read.  Values are renumbered away from 0
 * and from the band the reader reserves (write.h); a failed write is
 * ["w", K, V, false].  A key with a name (a Viper string key, an Elle
 * keyword) is written as a JSON string, others as integers.  Viper logs
 * only committed transactions and has no failed reads: aborted and
 * indeterminate transactions, failed reads and lists are refused.  The
 * client's times (TIME_INVOKE, TIME_COMPLETE) are written; the database's
 * are dropped (the note says so). */
#include "frontend/formats/write.h"

#include <inttypes.h>

#include "io/json_out.h"
#include "io/output.h"

static int check_failed_reads(const history *h, ic_error *err) {
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++)
        if (history_op_failed(h, op) && history_op_kind(h, op) != OP_WRITE) {
            char wb[600];
            ic_error_at(err, h->source, 0, "cannot write a failed read (%s) in viper format",
                        history_op_where(h, op, wb, sizeof wb));
            return 0;
        }
    return 1;
}

static void write_session(const history *h, const write_plan *p, uint32_t s, FILE *out) {
    const history_session *se = &h->sessions[s];
    if (s == 0) fputs("{\"value\": [], \"isInitial\": true, \"isFinal\": false}\n", out);
    for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t inv = history_time(h, TIME_INVOKE, t), cmp = history_time(h, TIME_COMPLETE, t);
        fputc('{', out);
        if (inv != HISTORY_TIME_NONE) fprintf(out, "\"preBeginTS\": %" PRId64 ", ", inv);
        if (cmp != HISTORY_TIME_NONE) fprintf(out, "\"postCommitTS\": %" PRId64 ", ", cmp);
        fputs("\"value\": [", out);
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            int write = history_op_kind(h, op) == OP_WRITE;
            int64_t v = history_op_value(h, op);
            fprintf(out, "%s[\"%c\", ", op > x->first_op ? ", " : "", write ? 'w' : 'r');
            uint32_t k = h->op_key[op];
            if (h->key_name[k] != HISTORY_NONE) json_write_string(out, h->strings + h->key_name[k]);
            else fprintf(out, "%" PRId64, h->key_ext[k]);
            fprintf(out, ", %" PRId64 ", %s]", v == VALUE_INIT ? 0 : write_renumbered(&p->value, v),
                    write ? (history_op_failed(h, op) ? "false" : "true") : "false");
        }
        fputs("]}\n", out);
    }
}

int write_viper(const history *h, const char *dir, unsigned flags, ic_error *err) {
    if (!write_check(h, "viper", 0, 0, 0, 0, 1, err) || !check_failed_reads(h, err)) return 0;
    output_dir d;
    if (!output_dir_open(&d, dir, flags, err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_VIPER, &p);
    int ok = 1;
    for (uint32_t s = 0; s < h->num_sessions && ok; s++) {
        char name[32];
        snprintf(name, sizeof name, "J%u.log", s + 1);
        FILE *out = output_dir_file(&d, name, err);
        if (!out) ok = 0;
        else write_session(h, &p, s, out);
    }
    write_plan_free(&p);
    if (ok) return output_dir_commit(&d, err);
    output_dir_discard(&d);
    return 0;
}
