/* write_elle.c — Elle EDN, one completion map per transaction, sessions
 * one after another:
 *   {:type :ok, :f :txn, :process S, :index I, :value [[:w k v] [:r k nil]]}
 * The initial value is nil (registers) or [] (lists).  Keys, values and
 * processes are written as they were read (named values by their written
 * form).  Every op is read back: the completion of an aborted or
 * indeterminate transaction says `:isocheck/reads :observed`, so that its
 * reads (nil included) are taken as observed rather than as the
 * invocation's placeholders (jepsen_ops.h).  Failed ops cannot be written.
 * Times (doc/formats.md, "Times"): a transaction with an invocation time
 * is preceded by its invocation, {:type :invoke, :f :txn, :process S,
 * :time I, :value nil}; its completion carries :time (the completion
 * time) and :ts {:rts START, :cts COMMIT} (the database's timestamps) when
 * it has them. */
#include "frontend/formats/write.h"

#include <inttypes.h>

static void put_key(const history *h, FILE *out, uint32_t k) {
    if (h->key_name[k] != HISTORY_NONE) fputs(h->strings + h->key_name[k], out);
    else fprintf(out, "%" PRId64, h->key_ext[k]);
}

static void put_value(const history *h, FILE *out, int64_t v) {
    char vb[32];
    if (history_value_is_named(h, v)) fputs(h->strings + h->name_off[v - VALUE_NAME_BASE], out);
    else fputs(history_value_str(h, v, vb, sizeof vb), out);
}

int write_elle(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "elle", 1, 1, 1, 1, 0, err)) return 0;
    if (!write_check_unique_txn_ids(h, "elle", err)) return 0;
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        const history_session *se = &h->sessions[s];
        for (uint32_t t = se->first_txn; t < se->first_txn + se->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            int64_t inv = history_time(h, TIME_INVOKE, t), cmp = history_time(h, TIME_COMPLETE, t);
            int64_t st = history_time(h, TIME_DB_START, t), cm = history_time(h, TIME_DB_COMMIT, t);
            if (inv != HISTORY_TIME_NONE) {
                fputs("{:type :invoke, :f :txn, :process ", out);
                put_value(h, out, se->ext_id);
                fprintf(out, ", :time %" PRId64 ", :value nil}\n", inv);
            }
            fprintf(out, "{:type %s, :f :txn, :process ",
                    x->status == TXN_COMMITTED ? ":ok" : x->status == TXN_ABORTED ? ":fail" : ":info");
            put_value(h, out, se->ext_id);
            fprintf(out, ", :index %" PRId64 ", ", x->ext_id);
            if (cmp != HISTORY_TIME_NONE && x->status != TXN_INDETERMINATE) fprintf(out, ":time %" PRId64 ", ", cmp);
            if (st != HISTORY_TIME_NONE || cm != HISTORY_TIME_NONE) {
                fputs(":ts {", out);
                if (st != HISTORY_TIME_NONE) fprintf(out, ":rts %" PRId64 "%s", st, cm != HISTORY_TIME_NONE ? ", " : "");
                if (cm != HISTORY_TIME_NONE) fprintf(out, ":cts %" PRId64, cm);
                fputs("}, ", out);
            }
            if (x->status != TXN_COMMITTED) fputs(":isocheck/reads :observed, ", out);
            fputs(":value [", out);
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
                    for (uint32_t i = 0; i < n; i++) {
                        if (i) fputc(' ', out);
                        put_value(h, out, l[i]);
                    }
                    fputs("]]", out);
                } else if (v == VALUE_INIT) fputs(" nil]", out);
                else { fputc(' ', out); put_value(h, out, v); fputc(']', out); }
            }
            fputs("]}\n", out);
        }
    }
    return 1;
}
