/* write_text.c — PolySI text: r(key,value,session,txn) per op; the
 * initial value is written as 0. */
#include "frontend/write.h"

#include <inttypes.h>

int write_text(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "text", 0, 0, 0, 0, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "text", err)) return 0;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t sess = h->sessions[x->session].ext_id;
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            int64_t v = h->op_value[op];
            fprintf(out, "%c(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")\n",
                    history_op_kind(h, op) == OP_READ ? 'r' : 'w', h->key_ext[h->op_key[op]],
                    v == VALUE_INIT ? 0 : v, sess, x->ext_id);
        }
    }
    return 1;
}
