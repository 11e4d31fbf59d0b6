/* write_text.c — PolySI text: r(key,value,session,txn) per op; the
 * initial value is written as 0, and every number is written without a
 * sign (write.h: what is renumbered so that this holds).  A transaction
 * with times gets a "#@time" line after its operations (text_times.h). */
#include "frontend/formats/write.h"

#include <inttypes.h>

#include "frontend/formats/text_times.h"

int write_text(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "text", 0, 0, 0, 0, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "text", err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_TEXT, &p);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t sess = write_renumbered(&p.session, h->sessions[x->session].ext_id);
        int64_t id = write_renumbered(&p.txn, x->ext_id);
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            int64_t v = h->op_value[op];
            fprintf(out, "%c(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")\n",
                    history_op_kind(h, op) == OP_READ ? 'r' : 'w', write_renumbered(&p.key, h->key_ext[h->op_key[op]]),
                    v == VALUE_INIT ? 0 : write_renumbered(&p.value, v), sess, id);
        }
        int64_t tm[TIME_KINDS];
        int any = 0;
        for (int k = 0; k < TIME_KINDS; k++) any |= (tm[k] = history_time(h, (history_time_kind)k, t)) != HISTORY_TIME_NONE;
        char line[160];
        if (any && x->num_ops && text_format_times(line, sizeof line, id, tm) > 0) fputs(line, out);
    }
    write_plan_free(&p);
    return 1;
}
