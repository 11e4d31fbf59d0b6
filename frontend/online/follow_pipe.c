/* follow_pipe.c — the reader thread of `check --follow` (contract in
 * follow_pipe.h). */
#include "frontend/online/follow_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "quiet_thread.h"

struct follow_pipe {
    follow_input *in;
    follow_parse *fp;
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;           /* any change below: both threads wait on it (broadcast) */
    follow_batch pending, taken; /* the reader fills pending; the caller takes it whole (a swap) */
    int ended;                   /* the reader returned */
    int waiting;                 /* the caller waits in follow_pipe_next: the checker is idle */
    atomic_int quit;             /* the caller asked the reader to end */
    int wake[2];                 /* a pipe: a byte in it wakes the reader's poll() */
    uint32_t keys_sent;          /* keys handed out in batches so far */
    int (*stop)(void *ctx);      /* in->stop and its ctx, as they were */
    void *stop_ctx;
    text_written_fn written;     /* the readers' question to the checker, as it was */
    void *written_ctx;
    int which;                   /* the incremental reader under way at the start: 1 text, 2 Elle */
    follow_pipe_end end;
};

static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void batch_free(follow_batch *b) {
    vec_free(b->txns);
    vec_free(b->ops);
    vec_free(b->keys);
}

static void batch_clear(follow_batch *b) {
    vec_clear(b->txns);
    vec_clear(b->ops);
    vec_clear(b->keys);
    b->read = b->completed = b->parses = 0;
    b->arrived = 0;
    b->note[0] = 0;
}

/* Taken: each transaction's operations are where the copies are (they
 * were appended in order; the array may have moved while it grew). */
static void batch_fix(follow_batch *b) {
    size_t at = 0;
    vec_foreach(incr_txn, t, b->txns) {
        t->ops = b->ops.data + at;
        at += t->num_ops;
    }
}

/* in->stop while the reader runs: the caller's quit, or the stop it had. */
static int reader_stop(void *ctx) {
    follow_pipe *p = ctx;
    return atomic_load(&p->quit) || (p->stop && p->stop(p->stop_ctx));
}

/* The readers' question (follow_pipe.h): asked of the checker only while
 * it is idle with nothing pending; "cannot say" (-1) once the caller is
 * stopping the reader with a batch pending. */
static int reader_written(void *ctx, uint32_t key, int64_t value) {
    follow_pipe *p = ctx;
    pthread_mutex_lock(&p->mu);
    p->end.questions++;
    while (!(p->waiting && !p->pending.txns.len) && !atomic_load(&p->quit)) pthread_cond_wait(&p->cv, &p->mu);
    int r = p->pending.txns.len ? -1 : p->written(p->written_ctx, key, value);
    pthread_mutex_unlock(&p->mu);
    return r;
}

/* The transactions the last follow_delta completed join the pending batch
 * (after waiting for room), with the keys new since the last batch. */
static void publish(follow_pipe *p, double arrived) {
    const follow_parse *fp = p->fp;
    pthread_mutex_lock(&p->mu);
    while (p->pending.txns.len >= FOLLOW_PIPE_MAX && !atomic_load(&p->quit)) pthread_cond_wait(&p->cv, &p->mu);
    follow_batch *b = &p->pending;
    for (size_t i = 0; i < fp->num_done; i++) {
        incr_txn t = fp->done[i];
        vec_reserve(b->ops, b->ops.len + t.num_ops);
        if (t.num_ops) memcpy(b->ops.data + b->ops.len, t.ops, t.num_ops * sizeof *t.ops);
        b->ops.len += t.num_ops;
        t.ops = NULL;                                 /* (set when taken: batch_fix) */
        vec_push(b->txns, t);
    }
    for (uint32_t k = p->keys_sent; k < fp->num_keys; k++) vec_push(b->keys, fp->key_ext[k]);
    p->keys_sent = fp->num_keys;
    b->read = fp->read;
    b->completed = fp->completed;
    if (!b->parses++) b->arrived = arrived;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* The note follow_spill left (once): into the pending batch. */
static void pass_note(follow_pipe *p) {
    if (!p->in->note[0]) return;
    pthread_mutex_lock(&p->mu);
    memcpy(p->pending.note, p->in->note, sizeof p->pending.note - 1);
    p->pending.note[sizeof p->pending.note - 1] = 0;
    pthread_mutex_unlock(&p->mu);
    p->in->note[0] = 0;
}

static void *reader_main(void *arg) {
    follow_pipe *p = arg;
    follow_input *in = p->in;
    follow_parse *fp = p->fp;
    size_t checked = follow_total(in);           /* every line up to here was parsed before the start */
    int got = 1, st = 1;
    ic_error err;
    ic_error_clear(&err);
    for (;;) {
        got = follow_read(in, &err);
        if (got == FOLLOW_WAKE) continue;        /* (no wake is set while the reader runs) */
        if (got <= 0) break;
        if (!memchr(in->data.data + (checked - in->base), '\n', follow_total(in) - checked)) continue;
        checked = follow_total(in);
        double arrived = monotonic_seconds(), t0 = thread_cpu();
        st = follow_delta(fp, in->data.data, in->base, in->data.len, in->name, &err);
        p->end.t_parse += thread_cpu() - t0;
        if (st <= 0) break;
        if (fp->closed) in->eof = 1;             /* the vector/array holding the history closed: its end */
        if (fp->num_done) publish(p, arrived);
        /* the parsed bytes only matter to the final check: out of memory */
        int s = follow_spill(in, fp->consumed, &err);
        if (s < 0) { got = -1; break; }
        if (s == 0) pass_note(p);
        if (atomic_load(&p->quit)) break;
    }
    pthread_mutex_lock(&p->mu);
    p->end.got = got;
    p->end.delta = st;
    if (err.set) p->end.err = err;
    p->ended = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

follow_pipe *follow_pipe_start(follow_input *in, follow_parse *fp) {
    if (fp->delta != 1 && fp->delta != 2) return NULL;
    follow_pipe *p = xcalloc(1, sizeof *p);
    p->in = in;
    p->fp = fp;
    p->keys_sent = fp->num_keys;                  /* the caller has those */
    p->which = fp->delta;
    ic_error_clear(&p->end.err);
    atomic_init(&p->quit, 0);
    if (pipe(p->wake) != 0) { free(p); return NULL; }
    for (int i = 0; i < 2; i++) fcntl(p->wake[i], F_SETFD, FD_CLOEXEC);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->stop = in->stop;
    p->stop_ctx = in->stop_ctx;
    in->stop = reader_stop;
    in->stop_ctx = p;
    in->wake_fd = p->wake[0];
    text_written_fn *fn = fp->delta == 1 ? &fp->ts.written : &fp->es.written;
    void **ctx = fp->delta == 1 ? &fp->ts.written_ctx : &fp->es.written_ctx;
    p->written = *fn;
    p->written_ctx = *ctx;
    if (p->written) { *fn = reader_written; *ctx = p; }
    int rc = quiet_thread_start(&p->tid, reader_main, p);   /* the signals go to the caller's thread */
    if (rc != 0) {                                /* as it was: the caller goes on alone */
        *fn = p->written;
        *ctx = p->written_ctx;
        in->stop = p->stop;
        in->stop_ctx = p->stop_ctx;
        in->wake_fd = -1;
        close(p->wake[0]);
        close(p->wake[1]);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

int follow_pipe_next(follow_pipe *p, const follow_batch **b, int (*stop)(void *ctx), void *ctx) {
    pthread_mutex_lock(&p->mu);
    p->waiting = 1;
    pthread_cond_broadcast(&p->cv);               /* a question may wait for the checker to be idle */
    while (!p->pending.txns.len && !p->ended) {
        if (stop && stop(ctx)) {
            p->waiting = 0;
            pthread_mutex_unlock(&p->mu);
            return -1;
        }
        struct timespec ts;                       /* a signal is seen within 20 ms */
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
    }
    p->waiting = 0;
    if (!p->pending.txns.len) {
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    follow_batch t = p->taken;
    p->taken = p->pending;
    p->pending = t;
    batch_clear(&p->pending);
    p->end.batches++;
    pthread_cond_broadcast(&p->cv);               /* room again */
    pthread_mutex_unlock(&p->mu);
    batch_fix(&p->taken);
    *b = &p->taken;
    return 1;
}

const follow_batch *follow_pipe_stop(follow_pipe *p, follow_pipe_end *end) {
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    ssize_t w;
    do w = write(p->wake[1], "q", 1);
    while (w < 0 && errno == EINTR);              /* (if it fails, the reader's poll still ends within 250 ms) */
    pthread_join(p->tid, NULL);
    follow_parse *fp = p->fp;
    if (p->written) {
        if (p->which == 1) {
            fp->ts.written = p->written;
            fp->ts.written_ctx = p->written_ctx;
        } else {
            fp->es.written = p->written;
            fp->es.written_ctx = p->written_ctx;
        }
    }
    p->in->stop = p->stop;
    p->in->stop_ctx = p->stop_ctx;
    p->in->wake_fd = -1;
    follow_batch t = p->taken;                    /* what is pending, for the caller */
    p->taken = p->pending;
    p->pending = t;
    batch_clear(&p->pending);
    batch_fix(&p->taken);
    *end = p->end;
    return &p->taken;
}

void follow_pipe_free(follow_pipe *p) {
    if (!p) return;
    close(p->wake[0]);
    close(p->wake[1]);
    batch_free(&p->pending);
    batch_free(&p->taken);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
