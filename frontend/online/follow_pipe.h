/* follow_pipe.h — `check --follow` on two threads: a reader thread reads the
 * input and parses what arrived (follow.h: follow_read, follow_delta) while
 * the caller's thread checks the transactions parsed before
 * (checker.h: online_check_delta).  follow_run.c uses it with --threads 2
 * or more (the default on a machine with two processors).
 *
 * Contract
 *   - follow_pipe_start(in, fp) starts the reader on an input whose
 *     incremental reader is under way (fp->delta 1 or 2).  From then until
 *     follow_pipe_stop() returns, the reader thread alone touches *in and
 *     *fp; the caller checks (online_check_delta) the batches it takes.  The
 *     reader thread holds SIGINT and SIGTERM blocked: they reach the
 *     caller's thread, which asks its stop callback while it waits
 *     (follow_pipe_next) and then stops the reader.
 *   - The reader loops: follow_read; when a line ended since the last
 *     parse, follow_delta; the transactions it completed join the pending
 *     batch (copied: their operations, and the keys new since the last
 *     batch, in id order), with the counts as of that parse; then the
 *     parsed bytes may leave memory (follow_spill, as the serial loop does).
 *     The pending batch is what the caller takes next: every transaction
 *     parsed since its last take, in the order parsed, so that one check
 *     covers what arrived while the previous one ran.  Once it holds
 *     FOLLOW_PIPE_MAX transactions the reader waits (and a writer with it,
 *     when the pipe fills): memory stays bounded.
 *   - Values written twice: the text and Elle readers ask the checker
 *     whether a value was written by a transaction already handed out.  The
 *     reader thread asks only while the caller waits in follow_pipe_next
 *     with no batch pending — every transaction handed out was given to the
 *     checker, which is idle — and holds the lock the caller needs to go on,
 *     so the answer is the one the single-threaded loop would get.  While
 *     the caller is stopping the reader with a batch still pending it
 *     answers "cannot say" (the stream is then handed to the batch parser,
 *     which is always right; follow.h).
 *   - The reader ends at the end of input (follow_read 0), a read or
 *     spill error (-1), FOLLOW_STOPPED (in->stop, or the caller's stop), or
 *     a parse the incremental reader does not take (follow_delta 0: the
 *     caller re-parses with the batch parser) or refuses (-1: bad input);
 *     follow_pipe_next then returns what is pending, then 0.
 *   - follow_pipe_stop(): makes the reader end (a pipe waited on in poll()
 *     wakes at once: in->wake_fd), joins it, gives back the readers'
 *     question to the checker, in->stop and in->wake_fd as they were; the
 *     batch still pending (possibly empty) and how the reader ended are the
 *     caller's until follow_pipe_free.  *in and *fp are the caller's again.
 *   - If the thread cannot be started, follow_pipe_start returns NULL and
 *     nothing changed: the caller goes on alone.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_FOLLOW_PIPE_H
#define ISOCHECK_ONLINE_FOLLOW_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/online/follow.h"
#include "frontend/online/incr.h"

/* The pending batch's size at which the reader waits for the checker. */
#define FOLLOW_PIPE_MAX 65536

typedef struct follow_batch {
    VEC(incr_txn) txns;          /* in the order parsed; ops point into ops once taken */
    VEC(incr_op) ops;
    vec_i64 keys;                /* the ext ids of the keys new in this batch, in id order */
    uint32_t read, completed;    /* fp->read, fp->completed after its last parse */
    double arrived;              /* monotonic_seconds() when its first parse's bytes had arrived */
    uint32_t parses;             /* follow_delta calls it holds */
    char note[256];              /* in->note, once, when the read bytes must stay in memory ("" none) */
} follow_batch;

/* How the reader ended (follow_pipe_stop). */
typedef struct follow_pipe_end {
    int got;                     /* follow_read's last answer: 1 (it was still reading), 0, -1, FOLLOW_STOPPED */
    int delta;                   /* follow_delta's last answer: 1, 0 (handed over) or -1 (bad input) */
    ic_error err;                /* got -1 or delta -1: why */
    double t_parse;              /* CPU seconds of the reader thread in follow_delta */
    uint32_t batches;            /* batches taken */
    uint64_t questions;          /* questions to the checker about a value written twice */
} follow_pipe_end;

typedef struct follow_pipe follow_pipe;

follow_pipe *follow_pipe_start(follow_input *in, follow_parse *fp);
/* Wait for the pending batch: 1 with *b (valid until the next call), 0 the
 * reader ended and nothing is pending, -1 stop(ctx) said stop while waiting. */
int follow_pipe_next(follow_pipe *p, const follow_batch **b, int (*stop)(void *ctx), void *ctx);
/* End and join the reader: the batch it left pending, valid until
 * follow_pipe_free; *end how it ended. */
const follow_batch *follow_pipe_stop(follow_pipe *p, follow_pipe_end *end);
void follow_pipe_free(follow_pipe *p);

#endif
