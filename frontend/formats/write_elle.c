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
 * it has them.
 * Predicate reads (history.preds, issue 34) are written as Elle's
 * closed-predicate workload writes them (doc/formats.md): an :init
 * completion first with the keys whose initial version is present, each
 * predicate read as [:rp PRED {k v ...}] where it was (write_pred.h; over a
 * declared key range: [:and [:key-in a b] PRED], the extension), a
 * read of a present initial version as its value, deletes as [:delete k]
 * (in any history: the reader's "dead" versions), reads of absent versions
 * as nil.
 * Refused: a predicate read that returned an absent version (Elle's result
 * map cannot say it). */
#include "frontend/formats/write.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/formats/write_pred.h"
#include "frontend/history/predicate.h"

static void put_key(const history *h, FILE *out, uint32_t k) {
    if (h->key_name[k] != HISTORY_NONE) fputs(h->strings + h->key_name[k], out);
    else fprintf(out, "%" PRId64, h->key_ext[k]);
}

static void put_value(const history *h, FILE *out, int64_t v) {
    char vb[32];
    if (history_value_is_named(h, v)) fputs(h->strings + h->name_off[v - VALUE_NAME_BASE], out);
    else fputs(history_value_str(h, v, vb, sizeof vb), out);
}

/* key's initial version: 1 with its value (present), 0 (unborn, or no predicate reads). */
static int init_value(const history *h, uint32_t key, int64_t *v) {
    return h->preds && preds_version_data(h->preds, key, VALUE_INIT, v);
}

/* The reader's own names (jepsen_ops.c, jepsen_pred.c): "dead", a delete's
 * version, and "absent", a nil read no absent version explains.  Bare
 * names: no Elle value is written so (strings keep their quotes, keywords
 * their colon). */
static int reader_name(const history *h, int64_t v, const char *name) {
    return history_value_is_named(h, v) && !strcmp(h->strings + h->name_off[v - VALUE_NAME_BASE], name);
}

/* A register read's value: an absent version (unborn or dead) is nil. */
static void put_read_value(const history *h, FILE *out, uint32_t key, int64_t v) {
    int64_t d;
    if (v == VALUE_INIT ? !init_value(h, key, &d) : reader_name(h, v, "dead") || reader_name(h, v, "absent"))
        fputs("nil", out);
    else put_value(h, out, v == VALUE_INIT ? d : v);
}

static void put_pred(FILE *out, const predicate *p) {
    static const char *const ops[] = { "", "=", "not=", "<", "<=", ">", ">=" };
    switch ((pred_kind)p->kind) {
    case PRED_TRUE: fputs(":true", out); break;
    case PRED_RANGE: fprintf(out, "[:range %" PRId64 " %" PRId64 "]", p->a, p->b); break;
    case PRED_MOD: fprintf(out, "[:mod %" PRId64 " %" PRId64 "]", p->a, p->b); break;
    default: fprintf(out, "[:%s %" PRId64 "]", ops[p->kind], p->a); break;
    }
}

static void put_pred_read(const history *h, FILE *out, pred_plan *pp, uint32_t r, int first) {
    pp->done[r] = 1;
    const pred_read *rd = &h->preds->reads.data[r];
    fputs(first ? "[:rp " : " [:rp ", out);
    if (rd->keyed) fprintf(out, "[:and [:key-in %" PRId64 " %" PRId64 "] ", rd->klo, rd->khi);
    put_pred(out, &rd->p);
    if (rd->keyed) fputc(']', out);
    fputs(" {", out);
    for (uint32_t i = pp->ret_start[r]; i < pp->ret_start[r + 1]; i++) {
        uint32_t op = pp->ret_ops[i];
        if (i > pp->ret_start[r]) fputc(' ', out);
        put_key(h, out, h->op_key[op]);
        fputc(' ', out);
        put_read_value(h, out, h->op_key[op], history_op_value(h, op));
    }
    fputs("}]", out);
}

/* The :init completion, and what Elle cannot say: 0 with err. */
static int pred_prelude(const history *h, FILE *out, pred_plan *pp, ic_error *err) {
    if (!pred_plan_build(h, "elle", pp, err)) return 0;
    for (uint32_t i = 0; i < pp->ret_start[h->preds->reads.len]; i++) {
        uint32_t op = pp->ret_ops[i];
        int64_t v = history_op_value(h, op), d;
        if (v == VALUE_INIT ? !init_value(h, h->op_key[op], &d) : reader_name(h, v, "dead")) {
            char wb[600];
            ic_error_at(err, h->source, 0, "cannot write a predicate read that returned an absent version (%s) in elle "
                        "format (its result map has no nil)", history_op_where(h, op, wb, sizeof wb));
            pred_plan_free(pp);
            return 0;
        }
    }
    int any = 0;
    for (uint32_t k = 0; k < h->num_keys; k++) {
        int64_t d;
        if (!init_value(h, k, &d)) continue;
        fputs(any++ ? ", " : "{:type :ok, :f :init, :value {", out);
        put_key(h, out, k);
        fputc(' ', out);
        put_value(h, out, d);
    }
    if (any) fputs("}}\n", out);
    return 1;
}

int write_elle(const history *h, FILE *out, ic_error *err) {
    if (!write_check(h, "elle", 1, 1, 1, 1, h->preds != NULL, err)) return 0;
    if (!write_check_unique_txn_ids(h, "elle", err)) return 0;
    pred_plan pp = { 0 };
    if (h->preds && !pred_prelude(h, out, &pp, err)) return 0;
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
            int first = 1;
            for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
                int64_t v = history_op_value(h, op);
                for (uint32_t r; h->preds && (r = pred_plan_due(h, &pp, t, op - x->first_op)) != UINT32_MAX; first = 0)
                    put_pred_read(h, out, &pp, r, first);                  /* at its place (pred_read.pos) */
                uint32_t tag = history_op_pred(h, op);
                if (tag != PRED_TAG_NONE) {          /* lowered from a predicate read: the read, once */
                    if (!pp.done[pred_tag_read(tag)]) put_pred_read(h, out, &pp, pred_tag_read(tag), first);
                    first = 0;
                    continue;
                }
                fputs(first ? "[" : " [", out);
                first = 0;
                int dead = history_op_kind(h, op) == OP_WRITE && reader_name(h, v, "dead");
                switch (history_op_kind(h, op)) {
                case OP_READ: fputs(":r ", out); break;
                case OP_WRITE: fputs(dead ? ":delete " : ":w ", out); break;
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
                } else if (dead) fputc(']', out);
                else if (history_op_kind(h, op) == OP_READ) { fputc(' ', out); put_read_value(h, out, h->op_key[op], v); fputc(']', out); }
                else { fputc(' ', out); put_value(h, out, v); fputc(']', out); }
            }
            for (uint32_t i = h->preds ? pp.txn_start[t] : 0; h->preds && i < pp.txn_start[t + 1]; i++)
                if (!pp.done[pp.txn_reads[i]]) { put_pred_read(h, out, &pp, pp.txn_reads[i], first); first = 0; }
            fputs("]}\n", out);
        }
    }
    if (h->preds) pred_plan_free(&pp);
    return 1;
}
