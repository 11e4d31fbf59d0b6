/* hint_commit.c — the white-box answer with a commit order (a file, or the
 * history's database timestamps): the ids resolved, every hint checked
 * against the history, SER by replay, SI by the timestamps or under the
 * version order the commit order implies (contract in hint_check.h;
 * frontend/checking/replay.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/checking/hints.h"
#include "frontend/checking/replay.h"
#include "frontend/reports/hint_check_internal.h"

/* The file's ids to the participants in commit order.  1; 0 with a
 * finding; -1 with wb->no_answer. */
static int resolve(const history *h, const commit_order_file *co, const uint8_t *part, commit_hint *ch, whitebox *wb) {
    u64map ids;
    u64map_init(&ids);
    for (uint32_t t = 1; t < h->num_txns; t++) {
        uint32_t prev = u64map_put(&ids, (uint64_t)h->txns[t].ext_id, t);
        if (prev != t) {
            /* two transactions share the id: a commit order cannot name either */
            u64map_free(&ids);
            char w1[600], w2[600];
            snprintf(wb->no_answer, sizeof wb->no_answer, "transaction id %" PRId64 " names two transactions of the "
                     "history (%s and %s): a commit order cannot tell them apart", h->txns[t].ext_id,
                     history_txn_where(h, prev, w1, sizeof w1), history_txn_where(h, t, w2, sizeof w2));
            return -1;
        }
    }
    memset(ch, 0, sizeof *ch);
    ch->part = part;
    ch->source = co->source;
    ch->order = xmalloc((co->ids.len + 1) * sizeof *ch->order);
    ch->pos = xmalloc((size_t)h->num_txns * sizeof *ch->pos);
    ch->line = xcalloc(h->num_txns, sizeof *ch->line);
    for (uint32_t t = 0; t < h->num_txns; t++) ch->pos[t] = HISTORY_NONE;
    int ok = 1;
    char w[600];
    vec_foreach(const co_entry, e, co->ids) {
        uint32_t t = u64map_get(&ids, (uint64_t)e->id);
        if (t == HISTORY_NONE) {
            snprintf(wb->finding, sizeof wb->finding, "commit order contradicts the history: it lists transaction %"
                     PRId64 " (%s:%u), which the history does not have", e->id, co->source, e->line);
            ok = 0;
            break;
        }
        if (h->txns[t].status == TXN_ABORTED) {
            snprintf(wb->finding, sizeof wb->finding, "commit order contradicts the history: it lists txn %" PRId64
                     " (%s:%u), which aborted (%s)", e->id, co->source, e->line, history_txn_where(h, t, w, sizeof w));
            ok = 0;
            break;
        }
        if (!part[t]) continue;         /* an indeterminate transaction nobody read: left out, as everywhere */
        ch->pos[t] = ch->n;
        ch->line[t] = e->line;
        ch->order[ch->n++] = t;
    }
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (part[t] && ch->pos[t] == HISTORY_NONE) {
            snprintf(wb->finding, sizeof wb->finding, "commit order contradicts the history: it leaves out txn %" PRId64
                     " (%s), which %s: a commit order lists every committed transaction (%s)", h->txns[t].ext_id,
                     history_txn_where(h, t, w, sizeof w),
                     h->txns[t].status == TXN_COMMITTED ? "committed" : "took part (another transaction read its write)",
                     co->source);
            ok = 0;
        }
    u64map_free(&ids);
    return ok;
}

/* The two levels' replays once the order is known (ch); SI under the
 * implied version order leaves its re-check to the caller (*vo_check). */
static void replay_levels(const history *h, const commit_hint *ch, whitebox *wb, int *vo_check) {
    if (wb->want[LEVEL_SER]) {
        check_result *r = &wb->res[LEVEL_SER];
        r->level = LEVEL_SER;
        r->stage = "commit order replay";
        wb->method[LEVEL_SER] = wb->kind == WB_COMMIT_ORDER ? "the commit order" : "the commit timestamps' order";
        if (replay_ser(h, ch, wb->level_finding[LEVEL_SER], sizeof wb->level_finding[LEVEL_SER])) r->verdict = VERDICT_PASS;
        else r->verdict = VERDICT_FAIL;
        whitebox_stage(wb, "ser replay");
    }
    if (!wb->want[LEVEL_SI]) return;
    check_result *r = &wb->res[LEVEL_SI];
    r->level = LEVEL_SI;
    if (wb->kind == WB_DB_TIMES && history_has_times(h, TIME_DB_START)) {
        r->stage = "timestamps";
        wb->method[LEVEL_SI] = "the start and commit timestamps";
        int rc = replay_si_times(h, ch->part, wb->level_finding[LEVEL_SI], sizeof wb->level_finding[LEVEL_SI]);
        whitebox_stage(wb, "si timestamps");
        if (rc < 0) {
            snprintf(r->msg, sizeof r->msg, "%.500s", wb->level_finding[LEVEL_SI]);
            wb->level_finding[LEVEL_SI][0] = 0;
            r->verdict = VERDICT_UNKNOWN;
        } else r->verdict = rc ? VERDICT_PASS : VERDICT_FAIL;
        return;
    }
    wb->method[LEVEL_SI] = wb->kind == WB_COMMIT_ORDER ? "the version order the commit order implies"
                                                       : "the version order the commit timestamps imply";
    r->stage = "commit order";
    int rf = replay_reads_from(h, ch, wb->level_finding[LEVEL_SI], sizeof wb->level_finding[LEVEL_SI]);
    whitebox_stage(wb, "reads-from");
    if (!rf) {
        r->verdict = VERDICT_FAIL;
        return;
    }
    replay_version_order(h, ch, &r->vo);
    whitebox_stage(wb, "version order");
    *vo_check = 1;
}

/* What runs beside the axioms: the order resolved or made from the
 * timestamps, checked against session order, and the replays. */
typedef struct co_work {
    whitebox *wb;
    const history *h;
    const commit_order_file *co;
    int vo_check;
} co_work;

static void co_first(void *ctx) {
    co_work *w = ctx;
    whitebox *wb = w->wb;
    const history *h = w->h;
    wb->kind = w->co ? WB_COMMIT_ORDER : WB_DB_TIMES;
    wb->hint_file = w->co ? w->co->source : NULL;
    uint8_t *part = history_participants(h);
    commit_hint ch;
    memset(&ch, 0, sizeof ch);
    int rc = w->co ? resolve(h, w->co, part, &ch, wb)
                   : commit_hint_from_times(h, part, &ch, wb->finding, sizeof wb->finding);
    whitebox_stage(wb, w->co ? "resolve" : "order by timestamps");
    if (!w->co && rc < 0) {
        snprintf(wb->no_answer, sizeof wb->no_answer, "%.1000s", wb->finding);
        wb->finding[0] = 0;
    }
    wb->hint_txns = ch.n;
    int so = rc == 1 && replay_session_order(h, &ch, wb->finding, sizeof wb->finding);
    if (rc == 1) whitebox_stage(wb, "session order");
    if (so) replay_levels(h, &ch, wb, &w->vo_check);
    commit_hint_free(&ch);
    free(part);
}

int whitebox_run_commit(const history *h, const commit_order_file *co, const int want[2], const check_options *opt,
                        whitebox *wb, ic_error *err) {
    (void)err;
    co_work w = { wb, h, co, 0 };
    int ok = whitebox_begin(wb, h, want, opt ? opt->threads : 1, co_first, &w);
    wb->kind = co ? WB_COMMIT_ORDER : WB_DB_TIMES;
    wb->hint_file = co ? co->source : NULL;
    if (!ok) { wb->hint_txns = 0; return 1; }
    if (w.vo_check) {                    /* SI under the implied version order: the re-check decides */
        hints_check_vo(h, LEVEL_SI, opt, &wb->res[LEVEL_SI]);
        whitebox_stage(wb, "si re-check");
        whitebox_name_cycle(wb, LEVEL_SI, 1);
        whitebox_stage(wb, "name");
    }
    return 1;
}
