/* write_dbcop.c — dbcop bincode (frontend/history/dbcop_layout.h); the initial
 * value is written as 0 (a value 0 of the history is renumbered, write.h),
 * aborted transactions with committed = 0 and failed ops with
 * success = 0. */
#include "frontend/formats/write.h"

#include "frontend/history/dbcop_layout.h"

int write_dbcop(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "dbcop", 0, 0, 1, 0, 1, err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_DBCOP, &p);
    dbcop_put_header(out, h->num_sessions, h->num_keys, h->num_txns - 1, h->num_ops - h->txns[0].num_ops);
    vec_char buf;                                       /* one transaction's bytes */
    vec_init(buf);
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *se = &h->sessions[s];
        dbcop_put_u64(out, se->num_txns);
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            vec_reserve(buf, DBCOP_TXN_BYTES(x->num_ops));
            unsigned char *b = dbcop_txn_begin((unsigned char *)buf.data, x->num_ops);
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t v = history_op_value(h, op);
                b = dbcop_txn_event(b, history_op_kind(h, op) == OP_WRITE,
                                    (uint64_t)write_key(&p, h, h->op_key[op]),
                                    v == VALUE_INIT ? 0 : (uint64_t)write_renumbered(&p.value, v), !history_op_failed(h, op));
            }
            b = dbcop_txn_end(b, x->status == TXN_COMMITTED);
            fwrite(buf.data, 1, (size_t)(b - (unsigned char *)buf.data), out);
        }
    }
    vec_free(buf);
    write_plan_free(&p);
    return 1;
}
