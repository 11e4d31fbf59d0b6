/* model_text.h — a history model as text (sessions in order, each
 * transaction's id, status and ops with keys and values as written), so
 * that tests can compare two readings of one history in one assertion. */
#ifndef TESTS_MODEL_TEXT_H
#define TESTS_MODEL_TEXT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontend/history/history.h"

static char *model_text(const history *h) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    static const char *const status[] = { "ok", "fail", "info" };
    for (uint32_t s = 0; s < h->num_sessions; s++) {
        char sb[64];
        fprintf(out, "session %s\n", history_value_str(h, h->sessions[s].ext_id, sb, sizeof sb));
        for (uint32_t t = h->sessions[s].first_txn; t < h->sessions[s].first_txn + h->sessions[s].num_txns; t++) {
            fprintf(out, "  txn %" PRId64 " %s:", h->txns[t].ext_id, status[h->txns[t].status]);
            for (uint32_t op = h->txns[t].first_op; op < h->txns[t].first_op + h->txns[t].num_ops; op++) {
                char kb[128], vb[128];
                static const char *const kind[] = { "r", "w", "append", "r" };
                fprintf(out, " %s%s(%s)=", history_op_failed(h, op) ? "failed-" : "", kind[history_op_kind(h, op)],
                        history_key_str(h, h->op_key[op], kb, sizeof kb));
                if (history_op_kind(h, op) == OP_LIST_READ) {
                    uint32_t n;
                    const int64_t *l = history_list(h, op, &n);
                    fputc('[', out);
                    for (uint32_t i = 0; i < n; i++) fprintf(out, i ? " %s" : "%s", history_value_str(h, l[i], vb, sizeof vb));
                    fputc(']', out);
                } else fputs(history_value_str(h, history_op_value(h, op), vb, sizeof vb), out);
            }
            fputc('\n', out);
        }
    }
    fclose(out);
    return buf;
}

#endif
