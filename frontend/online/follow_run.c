/* follow_run.c — following one input to its end (contract in
 * follow_run.h). */
#include "frontend/online/follow_run.h"

#include <stdio.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string.h>
#include <time.h>

#include "monotonic.h"
#include "frontend/formats/write.h"
#include "frontend/history/levels.h"
#include "frontend/online/follow.h"
#include "frontend/online/follow_pipe.h"
#include "frontend/online/follow_repeat.h"
#include "frontend/online/retire.h"

#define POLL_SECONDS 0.05        /* a regular file is looked at this often */

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The checker's state was just freed: its pages back to the system
 * before the final load, which would otherwise grow next to them (glibc
 * keeps freed heap pages in the middle of the heap until asked:
 * doc/benchmarks.md). */
static void give_back_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/* One followed input. */
typedef struct run {
    const follow_config *c;
    const follow_events *ev;
    const char *path;
    follow_input in;
    follow_parse fp;
    online_checker oc;
    follow_recheck rc;           /* repeated values: the batch re-checks (follow_repeat.h) */
    online_checker boc;          /* the last of them (its violation, while shown) */
    uint64_t read, completed;    /* the counts as of the check (set before it) */
    int proven;                  /* detected has run for the check under way */
    size_t checked_bytes;
    double t_parse, t_check, t_check_max;
    unsigned long slow_checks;
    unsigned threads;            /* --threads: 2 or more, a reader thread parses while the checks run */
    int piped;                   /* the reader thread was started (once) */
    follow_pipe_end pipe_end;    /* how it ended */
} run;

/* online_checker's on_detect: the detected event, with the counts. */
static void on_detect(void *ctx, const online_checker *oc) {
    run *r = ctx;
    r->proven = 1;
    if (r->ev->detected) r->ev->detected(r->ev->ctx, oc, r->read, r->completed);
}

static void note(const run *r, const char *msg) {
    if (r->ev->note) r->ev->note(r->ev->ctx, msg);
}

/* The violation just reported, kept for the final report (found.h). */
static void keep_found(run *r, const online_checker *oc) {
    follow_final *f = r->c->final;
    if (!f || f->found.set || !oc->proof) return;
    ic_error e;
    ic_error_clear(&e);
    if (!online_found_keep(&f->found, oc->proof, &oc->rep, &e)) note(r, e.msg);
}

/* follow_spill, and the note (once) when the bytes must stay in memory. */
static int spill(run *r, size_t upto, ic_error *err) {
    int s = follow_spill(&r->in, upto, err);
    if (s == 0 && r->in.note[0]) {
        char msg[320];
        snprintf(msg, sizeof msg, "%s: the input read stays in memory", r->in.note);
        note(r, msg);
        r->in.note[0] = 0;
    }
    return s;
}

/* ---- retiring ----------------------------------------------------------- */

/* --retire: feed complete lines to a retire_stream and drop them; check
 * whenever the completed live part has grown by half (at least 1,000
 * transactions), so the work stays linear in the stream.  -1 with *text
 * the live part at the end as text, or 2 (err set). */
static int follow_retiring(run *r, char **text, size_t *len, follow_summary *s, ic_error *err) {
    const follow_config *c = r->c;
    retire_stream rs;
    retire_stream_init(&rs, r->path, c->want_si, c->want_ser, c->max_anomalies);
    if (c->retire_level > 0 && level_real_time((check_level_id)c->retire_level)) retire_stream_by_time(&rs, c->retire_level, c->has_max_lag ? c->max_lag : -1);
    rs.oc.on_detect = on_detect;
    rs.oc.detect_ctx = r;
    int rc = -1, got, detected = c->fmt == FORMAT_TEXT;
    uint64_t read = 0, completed_total = 0;
    for (;;) {
        got = follow_read(&r->in, err);
        if (got == FOLLOW_STOPPED) {              /* what is known, before the state goes */
            follow_summary st;
            memset(&st, 0, sizeof st);
            st.retiring = 1;
            st.bytes = follow_total(&r->in);
            st.txns = read;
            st.retired = rs.retired;
            st.peak_live = rs.peak_live;
            st.completed = completed_total;
            st.checked = rs.oc.settled;
            if (r->ev->stopped) r->ev->stopped(r->ev->ctx, &rs.oc, &st);
            rc = FOLLOW_RUN_STOPPED;
            break;
        }
        if (got < 0) { rc = 2; break; }
        int at_end = got == 0;
        follow_input *in = &r->in;
        if (!detected && in->data.len) {
            history_format f = detect_format((const unsigned char *)in->data.data, in->data.len);
            if (f != FORMAT_AUTO || at_end) {
                if (f != FORMAT_TEXT) {
                    ic_error_at(err, r->path, 0, "--retire reads the text format only (found %s)",
                                f == FORMAT_AUTO ? "no known format" : history_format_name(f));
                    rc = 2;
                    break;
                }
                detected = 1;
            } else continue;
        }
        size_t upto = in->data.len;
        if (!at_end) while (upto > 0 && in->data.data[upto - 1] != '\n') upto--;
        if (upto) {
            uint32_t before = retire_stream_completed(&rs), live_before = retire_stream_live(&rs);
            if (!retire_stream_feed(&rs, in->data.data, upto, at_end, err)) { rc = 2; break; }
            memmove(in->data.data, in->data.data + upto, in->data.len - upto);      /* the bytes are in rs now */
            in->data.len -= upto;
            in->base += upto;                     /* (gone: a regular file is still checked to only grow) */
            read += retire_stream_live(&rs) - live_before;
            completed_total += retire_stream_completed(&rs) - before;
        }
        double arrived = monotonic_seconds();
        uint32_t live = retire_stream_completed(&rs);
        if (!rs.oc.failed && !at_end && rs.fresh >= 1000 && rs.fresh * 2 >= live) {
            r->read = read;
            r->completed = completed_total;
            if (retire_stream_check(&rs) == ONLINE_VIOLATION) {
                keep_found(r, &rs.oc);
                if (r->ev->violation) r->ev->violation(r->ev->ctx, &rs.oc, r->read, r->completed);
            }
            if (r->ev->progress) {
                follow_progress p = { 1, read, completed_total, rs.retired, rs.oc.settled, retire_stream_live(&rs),
                                      rs.oc.failed, monotonic_seconds() - arrived };
                r->ev->progress(r->ev->ctx, &p);
            }
        }
        if (at_end) break;
    }
    if (rc == -1) {                       /* the final check: the live part, every transaction complete, as text */
        history *h = retire_stream_history(&rs, 1, err);
        if (h) {
            FILE *m = open_memstream(text, len);
            if (!m) xalloc_fail(0);
            int ok = write_text(h, m, err);
            if (fclose(m) != 0) xalloc_fail(*len);
            history_free(h);
            if (!ok) { free(*text); *text = NULL; *len = 0; rc = 2; }
        } else if (err->set) rc = 2;
    }
    s->retiring = 1;
    s->txns = read;
    s->retired = rs.retired;
    s->peak_live = rs.peak_live;
    retire_stream_free(&rs);
    return rc;
}

static int closed_now(run *r, ic_error *err);
static int follow_piped(run *r, ic_error *err);

/* ---- following ---------------------------------------------------------- */

/* The qualifier of a violation of the incremental path (no value repeated
 * in the completed transactions): it holds unless a later write repeats a
 * value it read (follow_repeat.h). */
static void qualify(online_checker *oc) {
    oc->provisional = 0;
    snprintf(oc->qualifier, sizeof oc->qualifier, "holds unless a transaction not completed yet, or still to come, "
             "writes again a value read by these %u transactions; then the final check decides",
             oc->witness_txns ? oc->witness_txns : oc->settled);
}

/* A violation is reported: kept for the final report, and shown. */
static void report_violation(run *r, const online_checker *oc) {
    keep_found(r, oc);
    r->rc.shown = 1;
    r->rc.provisional = oc->provisional;
    if (r->ev->violation) r->ev->violation(r->ev->ctx, oc, r->read, r->completed);
}

/* Repeated values: check the settled part of h (the completed transactions)
 * in batch, from scratch; report a violation (provisional or not), or
 * withdraw the one shown when the part passes now. */
static void recheck(run *r, const history *h) {
    const follow_config *c = r->c;
    follow_recheck *rc = &r->rc;
    double w0 = monotonic_seconds(), t0 = cpu_seconds();
    if (!rc->active) {                            /* the incremental state cannot choose writers: it goes */
        rc->active = 1;
        if (!r->oc.fallback_why[0])
            snprintf(r->oc.fallback_why, sizeof r->oc.fallback_why, "a value written twice: the settled part is "
                     "checked in batch as the input doubles");
        incr_free(r->oc.incr);
        r->oc.incr = NULL;
        r->oc.from_scratch = 1;
    }
    online_checker *b = &r->boc;
    online_free(b);
    online_init(b, c->want_si, c->want_ser, c->max_anomalies);
    b->from_scratch = 1;
    b->stop = c->stop;
    b->stop_ctx = c->stop_ctx;
    b->source = r->path;
    r->read = r->fp.read;
    r->completed = r->fp.completed;
    int out = online_check(b, h);
    rc->batch_checks++;
    r->oc.checks += b->checks;
    r->oc.scratch_checks += b->scratch_checks;
    if (b->checks) r->oc.settled = b->settled;
    if (out == ONLINE_VIOLATION) {             /* how far it holds (also for the stopped event) */
        b->provisional = follow_repeat_doubt(h, b->proof, b->qualifier, sizeof b->qualifier);
        if (b->provisional) {
            static const char head[] = "provisional: ", tail[] = "; checked again as the input grows";
            size_t len = strnlen(b->qualifier, sizeof b->qualifier - sizeof head - sizeof tail);
            memmove(b->qualifier + sizeof head - 1, b->qualifier, len);
            memcpy(b->qualifier, head, sizeof head - 1);
            memcpy(b->qualifier + sizeof head - 1 + len, tail, sizeof tail);
        } else qualify(b);
    }
    if (out == ONLINE_VIOLATION && !rc->shown) {
        if (r->ev->detected) r->ev->detected(r->ev->ctx, b, r->read, r->completed);
        report_violation(r, b);
    } else if (out == ONLINE_NO_VIOLATION && rc->shown && b->checks) {
        char why[1024];
        follow_withdrawn_why(c->final ? c->final->found.h : NULL, h, why, sizeof why);
        if (r->ev->withdrawn) r->ev->withdrawn(r->ev->ctx, why, r->read, r->completed, b->settled);
        rc->shown = rc->provisional = 0;
        rc->withdrawn++;
        if (c->final) online_found_free(&c->final->found);   /* it is not the history's */
    } else if (out == ONLINE_UNKNOWN && b->unknown_msg[0]) note(r, b->unknown_msg);
    double t1 = cpu_seconds() - t0;
    r->t_check += t1;
    if (t1 > r->t_check_max) r->t_check_max = t1;
    if (t1 > FOLLOW_SLOW_CHECK) r->slow_checks++;
    if (r->ev->progress) {
        follow_progress p = { 0, r->fp.read, r->fp.completed, 0, r->oc.settled, 0, rc->shown,
                              monotonic_seconds() - w0 };
        r->ev->progress(r->ev->ctx, &p);
    }
    follow_recheck_done(rc, follow_total(&r->in), w0, monotonic_seconds());
}

/* The completed transactions h are checked: by the online checker, or —
 * once a value repeats — in batch (recheck; then ARRIVAL_NONE: its events
 * have run). */
static int check_history(run *r, const history *h);

/* After a violation, or once a value repeats: parse every byte when a
 * re-check is due, and re-check if a value repeats (a shown violation of
 * the incremental path holds while none does).  -1 bad input (err set). */
static int watch(run *r, ic_error *err) {
    follow_input *in = &r->in;
    double now = monotonic_seconds();
    if (!follow_recheck_due(&r->rc, follow_total(in), now)) return closed_now(r, err);
    double t0 = cpu_seconds();
    if (!follow_all(in, err)) return -1;
    history *h;
    int st = follow_completed(&r->fp, in->data.data, in->data.len, r->path, 0, &h, err);
    r->t_parse += cpu_seconds() - t0;
    if (st < 0) return -1;
    if (h && (r->rc.active || h->num_repeated)) recheck(r, h);
    else follow_recheck_done(&r->rc, follow_total(in), now, monotonic_seconds());
    if (h) history_free(h);
    if (r->fp.closed) in->eof = 1;
    return 0;
}

/* The incremental path asked for the history of every completed
 * transaction (a fallback, or a violation to explain): every byte read so
 * far parsed whole, and checked.  An online_outcome, ARRIVAL_NONE, or -1
 * bad input (err set). */
static int with_history(run *r, ic_error *err) {
    history *h;
    if (!follow_all(&r->in, err)) return -1;
    int st = follow_completed(&r->fp, r->in.data.data, r->in.data.len, r->path, 0, &h, err);
    if (st < 0) return -1;
    /* a violation the incremental state proved is explained on its settled
     * part, which holds no value written twice (the readers refuse, or ask
     * about, every write before they hand a transaction out) even when h —
     * read further by the reader thread — shows one; the next read's watch
     * re-checks it then, as the single-threaded loop does at its next arrival */
    int out = !st || !h ? ONLINE_NO_VIOLATION : r->oc.explain_pending && r->oc.incr && !r->rc.active
                                              ? online_check(&r->oc, h) : check_history(r, h);
    history_free(h);
    return out;
}

/* The bytes that arrived: parse what completed and check it.  -1 an input
 * error (err set), ARRIVAL_NONE nothing completed (or the text stopped
 * being followed: r->fp.stopped), else an online_outcome. */
#define ARRIVAL_NONE (-2)
static int follow_arrival(run *r, ic_error *err) {
    follow_input *in = &r->in;
    follow_parse *fp = &r->fp;
    history *h;
    double t0 = cpu_seconds();
    /* text: only the new lines; else (or once the batch parser must word an input error) all of them */
    int st = follow_delta(fp, in->data.data, in->base, in->data.len, r->path, err), out;
    double t1 = cpu_seconds();
    if (st > 0) {
        r->t_parse += t1 - t0;
        if (!fp->num_done) return ARRIVAL_NONE;
        r->read = fp->read;
        r->completed = fp->completed;
        out = online_check_delta(&r->oc, fp->key_ext, fp->num_keys, fp->done, fp->num_done, fp->completed);
        if (out == ONLINE_NEED_HISTORY && (out = with_history(r, err)) == -1) return -1;
    } else {
        if (st == 0) {
            if (!follow_all(in, err)) return -1;
            st = follow_completed(fp, in->data.data, in->data.len, r->path, 0, &h, err);
        }
        t1 = cpu_seconds();
        r->t_parse += t1 - t0;
        if (st < 0) return -1;
        if (st == 0 || !h) return ARRIVAL_NONE;
        r->read = fp->read;
        r->completed = fp->completed;
        out = check_history(r, h);
        history_free(h);
    }
    t1 = cpu_seconds() - t1;
    r->t_check += t1;
    if (t1 > r->t_check_max) r->t_check_max = t1;
    if (t1 > FOLLOW_SLOW_CHECK) r->slow_checks++;
    return out;
}

static int check_history(run *r, const history *h) {
    if (!h->num_repeated && !r->rc.active) return online_check(&r->oc, h);
    recheck(r, h);
    return ARRIVAL_NONE;
}

/* The end of a text input the incremental path has followed: the last
 * transaction of each session completes; if everything is settled and
 * passes, the models' version orders go to the final report, which
 * re-checks them (final.h) instead of a second pipeline. */
static void follow_finish(run *r) {
    double t0 = cpu_seconds();
    r->oc.on_detect = NULL;
    text_stream *ts = &r->fp.ts;
    if (r->fp.delta == 2)                         /* Elle: every transaction read was handed out */
        r->c->final->ready = online_finish_delta(&r->oc, r->fp.key_ext, r->fp.num_keys, NULL, 0, r->fp.es.completed,
                                                 r->c->final->order);
    else if (text_stream_finish(ts))
        r->c->final->ready = online_finish_delta(&r->oc, ts->key_ext.data, (uint32_t)ts->key_ext.len, ts->done.data,
                                                 ts->done.len, text_stream_read(ts), r->c->final->order);
    r->t_check += cpu_seconds() - t0;
}

/* After a violation, an Elle EDN/JSON history still ends where the
 * vector/array holding it closes: when its last byte is a closing bracket,
 * parsed whole once to see (follow_parse: closed).  -1 bad input. */
static int closed_now(run *r, ic_error *err) {
    follow_input *in = &r->in;
    if (r->fp.fmt != FORMAT_ELLE && r->fp.fmt != FORMAT_JSON) return 0;
    size_t n = in->data.len;
    while (n > 0 && (in->data.data[n - 1] == '\n' || in->data.data[n - 1] == ' ' || in->data.data[n - 1] == '\r' ||
                     in->data.data[n - 1] == '\t' || in->data.data[n - 1] == ','))
        n--;
    if (!n || (in->data.data[n - 1] != ']' && in->data.data[n - 1] != ')')) return 0;
    if (!follow_all(in, err)) return -1;
    history *h;
    if (follow_completed(&r->fp, in->data.data, in->data.len, r->path, 0, &h, err) < 0) return -1;
    if (h) history_free(h);
    if (r->fp.closed) in->eof = 1;
    return 0;
}

/* After a check of the completed transactions (out: its online_outcome):
 * the violation reported, or a proof the batch check did not confirm; the
 * progress (read, completed: the counts as of the check). */
static void after_check(run *r, int out, double arrived, uint64_t read, uint64_t completed) {
    if (out == ONLINE_VIOLATION) {
        qualify(&r->oc);
        report_violation(r, &r->oc);
    } else if (r->proven && !r->oc.failed && r->ev->unconfirmed)   /* proven incrementally, not confirmed */
        r->ev->unconfirmed(r->ev->ctx, &r->oc);
    r->proven = 0;
    if (r->ev->progress) {
        follow_progress p = { 0, read, completed, 0, r->oc.settled, 0, r->oc.failed, monotonic_seconds() - arrived };
        r->ev->progress(r->ev->ctx, &p);
    }
}

/* Read, parse and check to the end of input: -1, 2 (err set), or
 * FOLLOW_RUN_STOPPED (c->stop said so; the stopped event has run). */
static int follow_checking(run *r, ic_error *err) {
    const follow_config *c = r->c;
    follow_parse_init(&r->fp, c->fmt);
    online_init(&r->oc, c->want_si, c->want_ser, c->max_anomalies);
    r->oc.source = r->path;
    r->oc.stop = c->stop;
    r->oc.stop_ctx = c->stop_ctx;
    r->oc.engine_thread = r->threads > 1;         /* beside the reader thread (follow_pipe.h) */
    follow_parse_checker(&r->fp, &r->oc);         /* the text reader asks it about the writes handed out */
    r->oc.on_detect = on_detect;
    r->oc.detect_ctx = r;
    int got;
    while ((got = follow_read(&r->in, err)) > 0 || got == FOLLOW_WAKE) {
        if (r->fp.stopped[0]) {                           /* the final check decides: only the end matters now */
            if (got > 0 && closed_now(r, err) < 0) return 2;
            continue;
        }
        if (r->oc.failed || r->rc.active) {               /* a violation shown, or values repeat: re-checks in batch */
            if (watch(r, err) < 0) return 2;
            r->in.wake = follow_recheck_wake(&r->rc, follow_total(&r->in));   /* due by time: even in a pause */
            continue;
        }
        if (got == FOLLOW_WAKE) continue;
        double arrived = monotonic_seconds();
        /* only lines that ended since the last check can complete something */
        if (!memchr(r->in.data.data + (r->checked_bytes - r->in.base), '\n', follow_total(&r->in) - r->checked_bytes)) continue;
        r->checked_bytes = follow_total(&r->in);
        int out = follow_arrival(r, err);
        if (out == -1) return 2;
        if (r->fp.closed) r->in.eof = 1;                  /* the vector/array holding the history closed: its end */
        if (r->fp.stopped[0]) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s: not checked while it is written; the final check reads every byte", r->fp.stopped);
            note(r, msg);
            continue;
        }
        if (out == ARRIVAL_NONE) continue;
        after_check(r, out, arrived, r->fp.read, r->fp.completed);
        /* the parsed bytes only matter to the final check: out of memory */
        if (r->fp.delta > 0 && !r->oc.failed && spill(r, r->fp.consumed, err) < 0) return 2;
        /* from here on a reader thread parses while the checks run (follow_pipe.h) */
        if (r->threads > 1 && !r->piped && r->fp.delta > 0 && !r->oc.failed && !r->rc.active && !r->in.eof &&
            follow_piped(r, err) < 0)
            return 2;
    }
    if (got == FOLLOW_STOPPED) {
        follow_summary st;
        memset(&st, 0, sizeof st);
        st.bytes = follow_total(&r->in);
        st.txns = r->fp.read;
        st.completed = r->fp.completed;
        st.checked = r->oc.settled;
        if (r->ev->stopped) r->ev->stopped(r->ev->ctx, r->rc.active && r->rc.shown ? &r->boc : &r->oc, &st);
        return FOLLOW_RUN_STOPPED;
    }
    if (got < 0) return 2;
    if (c->final) { c->final->shown = r->rc.shown; c->final->provisional = r->rc.provisional; }
    if (c->final && !c->final->batch_only && r->fp.delta > 0 && !r->fp.stopped[0] && !r->oc.failed &&
        r->fp.consumed == follow_total(&r->in))
        follow_finish(r);
    return -1;
}

/* ---- the reader thread (follow_pipe.h) ---------------------------------- */

static double thread_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A check of t CPU seconds, counted. */
static void count_check(run *r, double t) {
    r->t_check += t;
    if (t > r->t_check_max) r->t_check_max = t;
    if (t > FOLLOW_SLOW_CHECK) r->slow_checks++;
}

/* One batch the reader thread parsed, checked as follow_arrival checks the
 * transactions of one parse (keys: every key id so far; the batch's new
 * ones are appended).  An online_outcome, ONLINE_NEED_HISTORY included. */
static int check_batch(run *r, const follow_batch *b, vec_i64 *keys) {
    vec_foreach(const int64_t, k, b->keys) vec_push(*keys, *k);
    if (b->note[0]) {
        char msg[320];
        snprintf(msg, sizeof msg, "%s: the input read stays in memory", b->note);
        note(r, msg);
    }
    r->read = b->read;
    r->completed = b->completed;
    double t0 = thread_cpu_seconds();             /* (the process's clock counts the reader's parsing too) */
    int out = online_check_delta(&r->oc, keys->data, (uint32_t)keys->len, b->txns.data, b->txns.len, b->completed);
    count_check(r, thread_cpu_seconds() - t0);
    return out;
}

/* After the reader stopped (*in and *fp are this thread's again): a batch
 * whose check asked for the history (out), then the batch the reader left
 * pending, checked as the single-threaded loop would have.  -1 bad input. */
static int piped_rest(run *r, int out, double arrived, const follow_batch *left, vec_i64 *keys, ic_error *err) {
    for (int i = 0; i < 2; i++) {
        if (i == 1) {
            if (!left->txns.len || r->oc.failed || r->rc.active) break;
            out = check_batch(r, left, keys);
            arrived = left->arrived;
        }
        if (out == ONLINE_NEED_HISTORY) {
            double t0 = cpu_seconds();
            out = with_history(r, err);
            count_check(r, cpu_seconds() - t0);
            if (out == -1) return -1;
            if (out != ARRIVAL_NONE) after_check(r, out, arrived, r->fp.read, r->fp.completed);
        }
    }
    return 0;
}

/* The reader handed the input over (follow_delta said 0): what it read
 * and did not parse is parsed and checked now, as one arrival of the
 * single-threaded loop.  -1 bad input. */
static int piped_handover(run *r, ic_error *err) {
    if (r->oc.failed || r->rc.active) return watch(r, err);
    double arrived = monotonic_seconds();
    int out = follow_arrival(r, err);
    if (out == -1) return -1;
    if (r->fp.closed) r->in.eof = 1;
    if (r->fp.stopped[0]) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: not checked while it is written; the final check reads every byte", r->fp.stopped);
        note(r, msg);
        return 0;
    }
    if (out != ARRIVAL_NONE) after_check(r, out, arrived, r->fp.read, r->fp.completed);
    return 0;
}

/* Follow with a reader thread until it ends (the input's end, a signal, a
 * handover to the batch parser) or a check needs the input itself (a
 * violation, a fallback): then back to the single-threaded loop, with
 * everything the reader parsed checked.  0, or -1 (err set). */
static int follow_piped(run *r, ic_error *err) {
    r->piped = 1;
    vec_i64 keys;                                 /* every key id so far: the checker's copy */
    vec_init(keys);
    for (uint32_t k = 0; k < r->fp.num_keys; k++) vec_push(keys, r->fp.key_ext[k]);
    follow_pipe *p = follow_pipe_start(&r->in, &r->fp);
    if (!p) { vec_free(keys); return 0; }
    const follow_batch *b;
    int out = ONLINE_NO_VIOLATION;
    double arrived = 0;
    while (follow_pipe_next(p, &b, r->c->stop, r->c->stop_ctx) == 1) {
        if (r->c->stop && r->c->stop(r->c->stop_ctx)) break;
        arrived = b->arrived;
        out = check_batch(r, b, &keys);
        if (out == ONLINE_NEED_HISTORY) break;    /* the input is needed: the reader stops first */
        after_check(r, out, arrived, b->read, b->completed);
        if (r->oc.failed) break;
    }
    const follow_batch *left = follow_pipe_stop(p, &r->pipe_end);
    r->t_parse += r->pipe_end.t_parse;
    r->checked_bytes = follow_total(&r->in);
    int rc = 0;
    if (!(r->c->stop && r->c->stop(r->c->stop_ctx))) {   /* (stopped: the loop's next read says so) */
        rc = piped_rest(r, out, arrived, left, &keys, err);
        if (!rc && (r->pipe_end.got == -1 || r->pipe_end.delta < 0)) {
            *err = r->pipe_end.err;
            rc = -1;
        } else if (!rc && r->pipe_end.delta == 0) rc = piped_handover(r, err);
        /* (after a violation, the loop's next read watches, as it would have:
         * a re-check due now must not keep the bytes still coming unread) */
    }
    vec_free(keys);
    follow_pipe_free(p);
    return rc;
}

int follow_run(const char *path, const follow_config *c, const follow_events *ev, const load_options *lopt,
               load_report *lrep, history **h, ic_error *err, ic_error *lerr) {
    *h = NULL;
    if (c->retire && c->fmt != FORMAT_AUTO && c->fmt != FORMAT_TEXT) {
        ic_error_at(err, NULL, 0, "--retire reads the text format only");
        return 2;
    }
    run r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.ev = ev;
    r.path = path;
    r.threads = lopt ? lopt->threads : 1;
    if (!follow_open(&r.in, path, c->idle, POLL_SECONDS, c->tmp_dir, err)) return 2;
    r.in.stop = c->stop;
    r.in.stop_ctx = c->stop_ctx;
    follow_summary s;
    memset(&s, 0, sizeof s);
    char *text = NULL;
    size_t len = 0;
    int rc;
    history_format detected = FORMAT_TEXT;
    if (c->retire) rc = follow_retiring(&r, &text, &len, &s, err);
    else {
        rc = follow_checking(&r, err);
        s.checks = r.oc.checks;
        s.incr_checks = r.oc.incr_checks;
        s.scratch_checks = r.oc.scratch_checks;
        s.fallback_why = r.oc.fallback_why;
        s.rechecks = r.rc.batch_checks;
        s.withdrawn = r.rc.withdrawn;
        s.incr = r.oc.incr ? incr_get_stats(r.oc.incr) : NULL;
        s.t_parse = r.t_parse;
        s.t_check = r.t_check;
        s.t_check_max = r.t_check_max;
        s.slow_checks = r.slow_checks;
        s.reader_batches = r.pipe_end.batches;
        s.reader_questions = r.pipe_end.questions;
        s.reader_thread = r.piped;
        s.spilled = r.in.base;
        s.spilled_where = r.in.spill_fd < 0 ? "none" : r.in.spill_fd == r.in.fd ? "read again from the file"
                                                                                : "in a temporary file";
        s.bytes = follow_total(&r.in);
        if (ev->stats && rc != FOLLOW_RUN_STOPPED) ev->stats(ev->ctx, &s);
        /* the checker's state goes, and its memory back to the system, before
         * the final load: the final phase holds only what a batch check would */
        detected = r.fp.fmt;
        online_free(&r.oc);
        online_free(&r.boc);
        follow_parse_free(&r.fp);
        s.incr = NULL;
        s.fallback_why = "";
    }
    give_back_memory();
    if (rc < 0 && !c->retire) {
        if (detected == FORMAT_AUTO) {                  /* nothing detected yet: the batch loader decides */
            /* (nothing was spilled: only parsed text is) */
            if (!r.in.base && r.in.data.len && r.in.data.data[0] == (char)0x1f) {
                ic_error_at(err, path, 0, "gzip-compressed input cannot be followed");
                rc = 2;
            }
        } else if (detected == FORMAT_DBCOP || detected == FORMAT_COBRA) {
            ic_error_at(err, path, 0, "--follow reads text, Elle EDN or JSON histories; %s histories are checked once "
                        "complete (without --follow)", history_format_name(detected));
            rc = 2;
        }
    }
    if (rc < 0) {
        s.from_incr = c->final && c->final->ready;
        if (ev->ended) ev->ended(ev->ctx, &s);
        /* every byte, by the batch loader, read from where it was kept (retiring: the live part) */
        if (c->retire) *h = follow_refuse_retire(load_history_mem_ex(text ? text : "", len, FORMAT_TEXT, path, lopt, lrep, lerr), lerr);
        else *h = follow_load(&r.in, detected, lopt, lrep, lerr);
    }
    free(text);
    follow_close(&r.in);
    return rc;
}
