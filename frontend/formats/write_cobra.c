/* write_cobra.c — Cobra logs (layout in parse_cobra.c), one T<i>.log per
 * session i, written through io/output.h's directory rules.  A
 * write's write id and value are both the model value; a read names its
 * writer's transaction id, the init ids for the initial value, and -1
 * when nobody wrote what it read (a thin-air read stays one when read
 * back).  Values and transaction ids equal to Cobra's markers are
 * renumbered (write.h). */
#include "frontend/formats/write.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/output.h"
#include "frontend/formats/parse.h"

static void put_i64(FILE *out, int64_t v) {
    uint64_t x = (uint64_t)v;
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (56 - 8 * i));
    fwrite(b, 1, 8, out);
}

static void write_session(const history *h, const write_plan *p, uint32_t s, FILE *out) {
    const history_session *se = &h->sessions[s];
    for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        int64_t id = write_renumbered(&p->txn, x->ext_id);
        fputc('S', out); put_i64(out, id);
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            int64_t key = write_key(p, h, h->op_key[op]), v = history_op_value(h, op);
            if (history_op_kind(h, op) == OP_WRITE) {
                v = write_renumbered(&p->value, v);
                fputc('W', out); put_i64(out, v); put_i64(out, key); put_i64(out, v);
            } else if (v == VALUE_INIT) {
                fputc('R', out); put_i64(out, COBRA_INIT_TXN_ID); put_i64(out, COBRA_INIT_WRITE_ID);
                put_i64(out, key); put_i64(out, 0);
            } else {
                uint32_t w = history_writer_of(h, h->op_key[op], v);
                int64_t wt = w == HISTORY_NONE ? -1 : write_renumbered(&p->txn, h->txns[history_op_txn(h, w)].ext_id);
                v = write_renumbered(&p->value, v);
                fputc('R', out); put_i64(out, wt); put_i64(out, v); put_i64(out, key); put_i64(out, v);
            }
        }
        fputc(x->status == TXN_COMMITTED ? 'C' : 'A', out); put_i64(out, id);
    }
}

int write_cobra(const history *h, const char *dir, unsigned flags, ic_error *err) {
    if (!write_check(h, "cobra", 0, 0, 1, 0, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "cobra", err)) return 0;
    output_dir d;
    if (!output_dir_open(&d, dir, flags, err)) return 0;
    write_plan p;
    write_plan_build(h, FORMAT_COBRA, &p);
    int ok = 1;
    for (uint32_t s = 0; s < h->num_sessions && ok; s++) {
        char name[32];
        snprintf(name, sizeof name, "T%u.log", s);
        FILE *out = output_dir_file(&d, name, err);
        if (!out) ok = 0;
        else write_session(h, &p, s, out);
    }
    write_plan_free(&p);
    if (ok) return output_dir_commit(&d, err);
    output_dir_discard(&d);
    return 0;
}
