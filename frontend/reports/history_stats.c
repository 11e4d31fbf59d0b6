/* history_stats.c — see history_stats.h. */
#include "frontend/reports/history_stats.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/formats/parse.h"

void history_stats_compute(const history *h, history_stats *s) {
    memset(s, 0, sizeof *s);
    s->sessions = h->num_sessions;
    s->txns = h->num_txns - 1;
    s->keys = h->num_keys;
    for (uint32_t t = 1; t < h->num_txns; t++) {
        const history_txn *x = &h->txns[t];
        if (x->status == TXN_COMMITTED) s->committed++;
        else if (x->status == TXN_ABORTED) s->aborted++;
        else s->indeterminate++;
        if (x->num_ops > s->max_txn_ops) s->max_txn_ops = x->num_ops;
        s->times_invoke += history_time(h, TIME_INVOKE, t) != HISTORY_TIME_NONE;
        s->times_complete += history_time(h, TIME_COMPLETE, t) != HISTORY_TIME_NONE;
        s->times_db_start += history_time(h, TIME_DB_START, t) != HISTORY_TIME_NONE;
        s->times_db_commit += history_time(h, TIME_DB_COMMIT, t) != HISTORY_TIME_NONE;
    }
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++) {
        s->ops++;
        if (history_op_failed(h, op)) { s->failed_ops++; continue; }
        switch (history_op_kind(h, op)) {
        case OP_READ:      s->reads++; if (history_op_value(h, op) == VALUE_INIT) s->init_reads++; break;
        case OP_LIST_READ: s->reads++; s->list_reads++; if (history_read_value(h, op) == VALUE_INIT) s->init_reads++; break;
        case OP_WRITE:     s->writes++; break;
        case OP_APPEND:    s->writes++; s->appends++; break;
        }
    }
    for (uint32_t k = 0; k < h->num_keys; k++) {
        uint64_t writers = 0;
        for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++) {
            uint32_t op = h->key_writes[i];          /* a transaction's last write of k: not overwritten */
            writers += op >= h->txns[0].num_ops && !history_op_overwritten(h, op);
        }
        if (writers > s->max_key_writers) s->max_key_writers = writers;
    }
    s->read_fraction = s->reads + s->writes ? (double)s->reads / (double)(s->reads + s->writes) : 0.0;
}

static const char *const time_names[TIME_KINDS] = { "invoke", "complete", "db-start", "db-commit" };

/* The kinds of times the history carries, blank-separated ("none"), or
 * as a JSON array. */
static void print_times(FILE *out, const history *h, int json) {
    int n = 0;
    fputs(json ? "[" : "", out);
    for (int k = 0; k < TIME_KINDS; k++)
        if (history_has_times(h, (history_time_kind)k))
            fprintf(out, json ? "%s\"%s\"" : "%s%s", n++ ? (json ? ", " : " ") : "", time_names[k]);
    fputs(json ? "]" : n ? "" : "none", out);
}

void history_stats_print(FILE *out, const history *h, const history_stats *s, int json, const load_report *lr) {
    if (json) {
        fprintf(out, "{\"format\": \"%s\"", history_format_name(h->format));
#define STAT_JSON(name, desc) fprintf(out, ", \"" #name "\": %" PRIu64, s->name);
        HISTORY_STATS(STAT_JSON)
#undef STAT_JSON
        fprintf(out, ", \"read_fraction\": %.4f, \"times\": ", s->read_fraction);
        print_times(out, h, 1);
        if (lr) { fputs(", \"load\": ", out); load_report_print_json(out, lr); }
        fputs("}\n", out);
        return;
    }
    fprintf(out, "%-16s %s\n", "format", history_format_name(h->format));
#define STAT_TEXT(name, desc) fprintf(out, "%-16s %" PRIu64 "\n", #name, s->name);
    HISTORY_STATS(STAT_TEXT)
#undef STAT_TEXT
    fprintf(out, "%-16s %.4f\n%-16s ", "read_fraction", s->read_fraction, "times");
    print_times(out, h, 0);
    fputc('\n', out);
    if (lr) { fputs("load report (what the reader did):\n", out); load_report_print(out, lr); }
}
