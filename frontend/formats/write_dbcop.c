/* write_dbcop.c — dbcop bincode (layout in parse_dbcop.c); the initial
 * value is written as 0 (a value 0 of the history is renumbered, write.h),
 * aborted transactions with committed = 0 and failed ops with
 * success = 0. */
#include "frontend/formats/write.h"

#include <string.h>

static void put_u64(FILE *out, uint64_t x) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (8 * i));
    fwrite(b, 1, 8, out);
}

static void put_string(FILE *out, const char *s) {
    size_t n = strlen(s);
    put_u64(out, n);
    fwrite(s, 1, n, out);
}

int write_dbcop(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "dbcop", 0, 0, 1, 0, 1, err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_DBCOP, &p);
    put_u64(out, 0);
    put_u64(out, h->num_sessions);
    put_u64(out, h->num_keys);
    put_u64(out, h->num_txns - 1);
    put_u64(out, h->num_ops - h->txns[0].num_ops);
    put_string(out, "written by isocheck");
    put_string(out, "");
    put_string(out, "");
    put_u64(out, h->num_sessions);
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *se = &h->sessions[s];
        put_u64(out, se->num_txns);
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            put_u64(out, x->num_ops);
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t v = h->op_value[op];
                fputc(history_op_kind(h, op) == OP_WRITE, out);
                put_u64(out, (uint64_t)write_renumbered(&p.key, h->key_ext[h->op_key[op]]));
                put_u64(out, v == VALUE_INIT ? 0 : (uint64_t)write_renumbered(&p.value, v));
                fputc(!history_op_failed(h, op), out);
            }
            fputc(x->status == TXN_COMMITTED, out);
        }
    }
    write_plan_free(&p);
    return 1;
}
