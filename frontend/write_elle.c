/* write_elle.c — Elle EDN, one completion map per transaction, sessions
 * one after another:
 *   {:type :ok, :f :txn, :process S, :index I, :value [[:w k v] [:r k nil]]}
 * The initial value is nil (registers) or [] (lists). */
#include "frontend/write.h"

#include <inttypes.h>

static void put_key(const history *h, FILE *out, uint32_t k) {
    if (h->key_name[k] != HISTORY_NONE) fputs(h->strings + h->key_name[k], out);
    else fprintf(out, "%" PRId64, h->key_ext[k]);
}

int write_elle(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "elle", 1, 1, 1, 1, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "elle", err)) return 0;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *se = &h->sessions[s];
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            fprintf(out, "{:type %s, :f :txn, :process %" PRId64 ", :index %" PRId64 ", :value [",
                    x->status == TXN_COMMITTED ? ":ok" : x->status == TXN_ABORTED ? ":fail" : ":info", se->ext_id, x->ext_id);
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t v = h->op_value[op];
                fputs(op == x->first_op ? "[" : " [", out);
                switch (history_op_kind(h, op)) {
                case OP_READ: fputs(":r ", out); break;
                case OP_WRITE: fputs(":w ", out); break;
                case OP_APPEND: fputs(":append ", out); break;
                case OP_LIST_READ: fputs(":r ", out); break;
                }
                put_key(h, out, h->op_key[op]);
                if (history_op_kind(h, op) == OP_LIST_READ) {
                    uint32_t n;
                    const int64_t *l = history_list(h, op, &n);
                    fputs(" [", out);
                    for (uint32_t i = 0; i < n; i++) fprintf(out, i ? " %" PRId64 : "%" PRId64, l[i]);
                    fputs("]]", out);
                } else if (v == VALUE_INIT) fputs(" nil]", out);
                else fprintf(out, " %" PRId64 "]", v);
            }
            fputs("]}\n", out);
        }
    }
    return 1;
}
