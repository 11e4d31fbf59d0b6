/* write_dbcop_json.c — dbcop's JSON history (the layout dbcop_json.h
 * reads, as rnbguy/dbcop's current CLI writes it): a wrapper object whose
 * "data" holds one array per session, each transaction
 *   {"events": [{"Write": {"variable": K, "version": V}},
 *               {"Read": {"variable": K, "version": null}}], "committed": true}
 * A read of the initial value is "version": null; values are >= 1 (a 0,
 * or a negative value, is renumbered: write.h) so that no read of 0 is
 * taken for the initial value, keys >= 0.  Aborted transactions are
 * written with "committed": false; indeterminate ones, failed operations
 * and lists cannot be (write.h).  Sessions and transactions are numbered
 * by position when read back, as in the bincode. */
#include "frontend/formats/write.h"

#include <inttypes.h>

int write_dbcop_json(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "dbcop-json", 0, 0, 1, 0, 0, err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_DBCOP_JSON, &p);
    fprintf(out, "{\n  \"params\": {\"n_node\": %u, \"n_variable\": %u, \"n_transaction\": %u, \"n_event\": %u},\n"
            "  \"info\": \"written by isocheck convert\",\n  \"data\": [", h->num_sessions, h->num_keys, h->num_txns - 1,
            h->num_ops - h->txns[0].num_ops);
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *se = &h->sessions[s];
        fputs(s ? ",\n    [" : "\n    [", out);
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            fputs(t > se->first_txn ? ",\n      {\"events\": [" : "\n      {\"events\": [", out);
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t v = history_op_value(h, op), key = write_key(&p, h, h->op_key[op]);
                int write = history_op_kind(h, op) == OP_WRITE;
                fprintf(out, "%s{\"%s\": {\"variable\": %" PRId64 ", \"version\": ", op > x->first_op ? ", " : "",
                        write ? "Write" : "Read", key);
                if (!write && v == VALUE_INIT) fputs("null}}", out);
                else fprintf(out, "%" PRId64 "}}", write_renumbered(&p.value, v));
            }
            fprintf(out, "], \"committed\": %s}", x->status == TXN_COMMITTED ? "true" : "false");
        }
        fputs(se->num_txns ? "\n    ]" : "]", out);
    }
    fputs(h->num_sessions ? "\n  ]\n}\n" : "]\n}\n", out);
    write_plan_free(&p);
    return 1;
}
