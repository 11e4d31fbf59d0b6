/* frontend/online/retire_feed.c — the retire stream's input side: its
 * lines read into the live part (transactions, operations, sessions, the
 * #@time lines through retire_time.c), the input checks that do not depend
 * on where the feeds were cut, and the live part as a history with the
 * retired past as INIT (contract in frontend/online/retire.h). */
#include "frontend/online/retire.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/formats/parse.h"
#include "frontend/history/levels.h"
#include "frontend/history/load_report.h"
#include "frontend/online/follow_repeat.h"
#include "frontend/online/retire_free.h"
#include "frontend/online/retire_time.h"

static int is_last(const retire_stream *rs, uint32_t t) {
    return rs->sessions.data[rs->txns.data[t].session].last_txn == t;
}

uint32_t retire_stream_live(const retire_stream *rs) { return (uint32_t)rs->txns.len; }

uint32_t retire_stream_completed(const retire_stream *rs) {
    uint32_t open = 0;
    vec_foreach(retire_session, s, rs->sessions) open += s->last_txn != HISTORY_NONE;
    return (uint32_t)rs->txns.len - open;
}

static int summary_has(const retire_stream *rs, int64_t key, int64_t *v) {
    uint32_t i = u64map_get(&rs->summary_index, (uint64_t)key);
    if (i == UINT32_MAX) return 0;
    *v = rs->summary.data[i];
    return 1;
}

/* A transaction with a line after its session's next one began is
 * refused within a feed as across feeds (is_last), so that the answer does
 * not depend on where the feeds were cut: 1, or 0 with err set. */
static int in_session_order(const retire_stream *rs, const history *c, ic_error *err) {
    for (uint32_t s = 0; s < c->num_sessions; s++) {
        const history_session *S = &c->sessions[s];
        for (uint32_t i = 0; i + 1 < S->num_txns; i++) {
            const history_txn *a = &c->txns[S->first_txn + i], *b = &c->txns[S->first_txn + i + 1];
            if (!a->num_ops || !b->num_ops) continue;
            uint32_t next = history_op_line(c, b->first_op);
            for (uint32_t op = a->first_op; op < a->first_op + a->num_ops; op++)
                if (history_op_line(c, op) > next) {
                    ic_error_at(err, rs->name, rs->lines + (long)history_op_line(c, op), "transaction %lld gets an "
                                "operation after its session went on to another transaction (or from another session)",
                                (long long)a->ext_id);
                    return 0;
                }
        }
    }
    return 1;
}

/* Whether text holds only blank lines and comments. */
static int only_comments(const char *text, size_t n) {
    for (size_t i = 0; i < n;) {
        while (i < n && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) i++;
        if (i < n && text[i] != '\n' && text[i] != '#') return 0;
        while (i < n && text[i] != '\n') i++;
        i++;
    }
    return 1;
}

/* The chunk's transactions (c, loaded from its lines) into the live part:
 * new sessions and transactions, each operation; a transaction whose
 * session goes on takes its times (retiring by time).  1, or 0 with err
 * set. */
static int take_txns(retire_stream *rs, const history *c, retire_time_notes *notes, ic_error *err) {
    if (!in_session_order(rs, c, err)) return 0;
    for (uint32_t t = 1; t < c->num_txns; t++) {
        const history_txn *x = &c->txns[t];
        int64_t sess = c->sessions[x->session].ext_id;
        long line0 = rs->lines + (long)x->line;
        uint32_t s = u64map_get(&rs->session_index, (uint64_t)sess);
        if (s == UINT32_MAX) {
            if (rs->retirements && rs->time_level == LEVEL_COUNT) {    /* (by time: T3 when its times come) */
                ic_error_at(err, rs->name, line0, "session %lld first appears after transactions were retired; "
                            "--retire needs every session to start before the first retirement", (long long)sess);
                return 0;
            }
            retire_session z = { sess, -1, HISTORY_TIME_NONE, HISTORY_NONE, 0 };
            s = (uint32_t)rs->sessions.len;
            vec_push(rs->sessions, z);
            u64map_put(&rs->session_index, (uint64_t)sess, s);
        }
        uint32_t lt = u64map_get(&rs->txn_index, (uint64_t)x->ext_id);
        if (lt == UINT32_MAX && rs->retirements && retire_ids_has(&rs->retired_ids, x->ext_id)) {
            ic_error_at(err, rs->name, line0, "transaction %lld comes back after it was retired (a transaction given "
                        "twice: its lines must come before its session goes on, and an id names one transaction)",
                        (long long)x->ext_id);
            return 0;
        }
        if (lt != UINT32_MAX) {
            if (rs->max_lag >= 0 && rs->txns.data[lt].invoke != HISTORY_TIME_NONE) {
                ic_error_at(err, rs->name, line0, "transaction %lld gets an operation after its #@time line (with "
                            "--max-lag a transaction's #@time line is its last)", (long long)x->ext_id);
                return 0;
            }
            if (rs->txns.data[lt].session != s || !is_last(rs, lt)) {
                ic_error_at(err, rs->name, line0, "transaction %lld gets an operation after its session went on "
                            "to another transaction (or from another session)", (long long)x->ext_id);
                return 0;
            }
        } else {
            retire_session *ss = &rs->sessions.data[s];
            if (ss->last_txn != HISTORY_NONE) {
                rs->fresh++;                                        /* the previous one is complete now */
                if (rs->time_level != LEVEL_COUNT && !retire_time_complete(rs, ss->last_txn, line0, notes, err)) {
                    return 0;
                }
            }
            lt = (uint32_t)rs->txns.len;
            retire_txn z = { x->ext_id, s, (uint32_t)line0, (uint32_t)line0, HISTORY_TIME_NONE, HISTORY_TIME_NONE };
            vec_push(rs->txns, z);
            u64map_put(&rs->txn_index, (uint64_t)x->ext_id, lt);
            ss->last_txn = lt;
            ss->live++;
        }
        for (uint32_t op = x->first_op; op < x->first_op + x->num_ops; op++) {
            int64_t key = c->key_ext[c->op_key[op]], v = c->op_value[op], sv;
            retire_op o = { key, v, (uint32_t)(rs->lines + (long)history_op_line(c, op)), lt, (uint8_t)history_op_kind(c, op) };
            if (o.kind == OP_WRITE && summary_has(rs, key, &sv) && (sv == v || retire_free_has(rs, key, v))) {
                ic_error_at(err, rs->name, (long)o.line, "value %lld is written twice to key %lld (its first write was retired)",
                            (long long)v, (long long)key);
                return 0;
            }
            vec_push(rs->ops, o);
            if (o.line > rs->txns.data[lt].last_line) rs->txns.data[lt].last_line = o.line;
        }
    }
    return 1;
}

int retire_stream_feed(retire_stream *rs, const char *text, size_t n, int at_end, ic_error *err) {
    long newlines = 0;
    for (size_t i = 0; i < n; i++) newlines += text[i] == '\n';
    if (!at_end && n && text[n - 1] != '\n') { ic_error_at(err, rs->name, rs->lines + 1, "internal: a chunk must end at a line end"); return 0; }
    size_t blank = 0;
    while (blank < n && (text[blank] == ' ' || text[blank] == '\t' || text[blank] == '\r' || text[blank] == '\n')) blank++;
    if (blank == n) { rs->lines += newlines; return 1; }
    retire_time_notes notes;
    vec_init(notes);
    char *stripped = NULL;
    /* the #@time lines are read here, not by the chunk's loader: their
     * transaction may lie in another chunk (behind fences they are dropped) */
    stripped = retire_time_strip(rs->name, text, n, rs->lines, rs->time_level != LEVEL_COUNT ? &notes : NULL, err);
    if (!stripped) { vec_free(notes); return 0; }
    text = stripped;
    retire_time_seen(rs, &notes);
    if (only_comments(text, n)) {                /* (the loader calls that an empty history) */
        int ok = rs->time_level == LEVEL_COUNT || retire_time_rest(rs, &notes, err);
        free(stripped);
        vec_free(notes);
        rs->lines += newlines;
        return ok;
    }
    load_report lrep;
    load_report_init(&lrep);
    load_options lopt;
    memset(&lopt, 0, sizeof lopt);
    ic_error perr;
    ic_error_clear(&perr);
    history *c = follow_refuse_retire(load_history_mem_ex(text, n, FORMAT_TEXT, rs->name, &lopt, &lrep, &perr), &perr);
    int merged = lrep.init_merged != 0;
    load_report_free(&lrep);
    if (!c) {
        *err = perr;
        if (err->line) err->line += rs->lines;
        free(stripped);
        vec_free(notes);
        return 0;
    }
    if (merged && (rs->lines > 0 || rs->txns.len)) {
        ic_error_at(err, rs->name, rs->lines + (long)history_op_line(c, c->txns[0].num_ops ? c->txns[0].first_op : 0),
                    "a transaction that writes only the initial value 0 after the history's start");
        history_free(c);
        free(stripped);
        vec_free(notes);
        return 0;
    }
    size_t before = rs->ops.len;
    int ok = take_txns(rs, c, &notes, err);
    if (ok) retire_free_collapse(rs, before);          /* a read that decides a freed key */
    history_free(c);
    if (ok && rs->time_level != LEVEL_COUNT) ok = retire_time_rest(rs, &notes, err);
    free(stripped);
    vec_free(notes);
    rs->lines += newlines;
    if (rs->txns.len > rs->peak_live) rs->peak_live = (uint32_t)rs->txns.len;
    return ok;
}

history *retire_stream_history(const retire_stream *rs, int at_end, ic_error *err) {
    uint32_t nt = (uint32_t)rs->txns.len, kept = 0;
    uint32_t *bt = xmalloc((nt ? nt : 1) * sizeof *bt);
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, rs->name);
    for (uint32_t t = 0; t < nt; t++) {
        bt[t] = HISTORY_NONE;
        if (!at_end && is_last(rs, t)) continue;
        const retire_txn *x = &rs->txns.data[t];
        if (at_end && rs->time_level != LEVEL_COUNT && x->invoke == HISTORY_TIME_NONE) {
            ic_error_at(err, rs->name, rs->lines, "transaction %lld has no #@time line with invoke= and complete= by the "
                        "end of input (--retire by time needs every transaction's times)", (long long)x->ext_id);
            free(bt);
            hb_free(b);
            return NULL;
        }
        uint32_t s = hb_session(b, rs->sessions.data[x->session].ext_id, NULL);
        bt[t] = hb_txn(b, s, x->ext_id, 0);
        if (x->invoke != HISTORY_TIME_NONE) {
            hb_txn_time(b, bt[t], TIME_INVOKE, x->invoke);
            hb_txn_time(b, bt[t], TIME_COMPLETE, x->complete);
        }
        kept++;
    }
    vec_foreach(retire_op, o, rs->ops) {
        if (bt[o->txn] == HISTORY_NONE) continue;
        int64_t v = o->value, sv;
        if (o->kind == OP_READ && summary_has(rs, o->key, &sv))
            v = v == sv ? VALUE_INIT : v == VALUE_INIT ? RETIRE_STALE_INIT : v;
        hb_op(b, bt[o->txn], o->kind, hb_key(b, o->key), v, o->line);
    }
    free(bt);
    if (!kept) { hb_free(b); return NULL; }
    return hb_finish(b, err);
}
