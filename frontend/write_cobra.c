/* write_cobra.c — Cobra logs (layout in parse_cobra.c), one T<i>.log per
 * session i.  A write's write id and value are both the model value; a
 * read names its writer's transaction id, the init ids for the initial
 * value, and -1 when nobody wrote what it read (a thin-air read stays
 * one when read back). */
#include "frontend/write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"
#include "frontend/parse.h"

static void put_i64(FILE *out, int64_t v) {
    uint64_t x = (uint64_t)v;
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (56 - 8 * i));
    fwrite(b, 1, 8, out);
}

static int reserved(int64_t v) {
    return v == COBRA_INIT_WRITE_ID || v == COBRA_NULL_TXN_ID || v == COBRA_GC_WID_TRUE || v == COBRA_GC_WID_FALSE;
}

int write_cobra(const history *h, const char *dir, ic_error *err) {
    if (!write_check(h, "cobra", 0, 0, 1, 0, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "cobra", err)) return 0;
    char wb[600];
    for (uint32_t t = 1; t < h->num_txns; t++)
        if (reserved(h->txns[t].ext_id) || h->txns[t].ext_id == -1) {
            ic_error_at(err, h->source, 0, "cannot write transaction id %" PRId64 " (%s) in cobra format: it is reserved",
                        h->txns[t].ext_id, history_txn_where(h, t, wb, sizeof wb));
            return 0;
        }
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++)
        if (reserved(h->op_value[op])) {
            ic_error_at(err, h->source, 0, "cannot write value 0x%" PRIx64 " (%s) in cobra format: it is reserved",
                        (uint64_t)h->op_value[op], history_op_where(h, op, wb, sizeof wb));
            return 0;
        }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        ic_error_at(err, dir, 0, "cannot create directory: %s", strerror(errno));
        return 0;
    }
    size_t dl = strlen(dir);
    char *path = xmalloc(dl + 32);
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        sprintf(path, "%s/T%u.log", dir, s);
        FILE *out = fopen(path, "wb");
        if (!out) { ic_error_at(err, path, 0, "cannot create: %s", strerror(errno)); free(path); return 0; }
        const history_session *se = &h->sessions[s];
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            fputc('S', out); put_i64(out, x->ext_id);
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t key = h->key_ext[h->op_key[op]], v = h->op_value[op];
                if (history_op_kind(h, op) == OP_WRITE) {
                    fputc('W', out); put_i64(out, v); put_i64(out, key); put_i64(out, v);
                } else if (v == VALUE_INIT) {
                    fputc('R', out); put_i64(out, COBRA_INIT_TXN_ID); put_i64(out, COBRA_INIT_WRITE_ID);
                    put_i64(out, key); put_i64(out, 0);
                } else {
                    uint32_t w = history_writer_of(h, h->op_key[op], v);
                    int64_t wt = w == HISTORY_NONE ? -1 : h->txns[h->op_txn[w]].ext_id;
                    fputc('R', out); put_i64(out, wt); put_i64(out, v); put_i64(out, key); put_i64(out, v);
                }
            }
            fputc(x->status == TXN_COMMITTED ? 'C' : 'A', out); put_i64(out, x->ext_id);
        }
        int bad = ferror(out);
        if (fclose(out) != 0 || bad) { ic_error_at(err, path, 0, "write error"); free(path); return 0; }
    }
    free(path);
    return 1;
}
