/* frontend/online/follow.h — reading a history that is still being written
 * (`isocheck check --follow`): the bytes of a growing file or a pipe, and
 * the completed transactions of what arrived so far.
 *
 * Contract
 *   - follow_read() appends new bytes to f->data: a pipe (or "-") blocks
 *     until bytes or EOF; a regular file is polled every `poll` seconds
 *     and ends only when told: at a line FOLLOW_END_LINE (then blanks;
 *     the bytes after that line are not read: the input ends with it),
 *     or after `idle` seconds without new bytes when idle >= 0 (idle < 0:
 *     never — a writer may pause for as long as it likes).  The end line
 *     is a comment in the text format; an Elle EDN/JSON history wrapped in
 *     a vector/array ends where it closes (follow_parse: p->closed; the
 *     caller ends the input).  f->stop, when set, is asked between reads
 *     and polls (and a pipe is waited on in poll(), which a signal ends,
 *     and so does f->wake_fd when set): once it says yes, follow_read
 *     returns FOLLOW_STOPPED.  All bytes are
 *     kept: the final verdict is a batch check of exactly them.
 *   - A followed regular file must only grow.  It is checked at every
 *     read and poll, and every byte again at the end (follow_load): cut
 *     short (a copy-and-truncate rotation, a restarted test), rewritten
 *     (the bytes just before the next read are not those read), or
 *     replaced under its name (renamed, or removed and created again: the
 *     name no longer names the file opened) — each is an error (err set,
 *     "the file changed while it was followed: ..."), never a splice of
 *     old and new bytes handed to a check.
 *   - Kept, not necessarily in memory: f->data holds the bytes from
 *     f->base on; follow_spill() lets the bytes before a point leave
 *     memory (parsed text that only the final check needs again).  A
 *     regular file is read again when they are needed (a checksum of them
 *     must match, else the file changed under us: an error); a pipe's go
 *     to a temporary file in the directory follow_open() was given (the
 *     program passes $TMPDIR; NULL: /tmp), unlinked as soon as it
 *     is made, every write checked.  If it cannot be made or written, the
 *     bytes stay in memory (f->note says why) — the answers are the same.
 *     follow_all() brings every byte back into f->data (base 0) and keeps
 *     them there from then on; follow_load() parses them all from where
 *     they are, for the final check, without bringing them back.
 *   - follow_completed() parses the complete lines so far with the batch
 *     parsers (same syntax, same errors, same line numbers) and returns the
 *     history of the *completed* transactions: Elle EDN/JSON — every
 *     transaction the reader built (it builds one per :ok/:fail/:info
 *     completion; invocations wait); text — every transaction but the last
 *     of each session (it is over once its session starts the next one;
 *     at_end: all).  A prefix that ends inside a vector/array holding the
 *     history is read as if it were closed there.
 *   - A text transaction judged complete may still grow (the batch
 *     parser accepts a transaction's lines after its session's next
 *     transaction began): whether it was judged complete first depends on
 *     how the bytes arrived, so the answer must not.  When one grows,
 *     p->stopped says where, and nothing more is completed: no check may
 *     use the stale transaction, and the batch check of every byte at the
 *     end decides, as it would for any chunking.
 *   - Formats: text, Elle EDN, Elle JSON; dbcop and Cobra are refused
 *     (err set), and so is gzip input.  follow_completed() re-parses the
 *     input so far (linear in it); text, Elle EDN and JSON lines are
 *     parsed in increments by follow_delta() instead, until an input
 *     error (or, Elle, what would read differently in pieces:
 *     elle_stream.h), where the batch parser takes over.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_FOLLOW_H
#define ISOCHECK_ONLINE_FOLLOW_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/history/u64map.h"
#include "frontend/formats/parse.h"
#include "frontend/online/elle_stream.h"
#include "frontend/online/text_stream.h"

typedef struct follow_sum { uint64_t h, word, len; unsigned fill; } follow_sum;

typedef struct follow_input {
    int fd;
    int regular;                 /* a regular file: poll; else block */
    char *name;
    char *tmp_dir;               /* where a pipe's spilled bytes go */
    double idle, poll;           /* seconds */
    vec_char data;               /* the bytes read from base on */
    size_t base;                 /* bytes before data.data[0]: spilled */
    int spill_fd;                /* where they are: fd itself (read again), a temporary file, or -1 (none yet) */
    int reread;                  /* a regular file we can read again, from origin */
    uint64_t origin;             /* fd's offset at open (stdin may not start at 0) */
    uint64_t dev, ino;           /* a regular file: which one was opened (its name must keep naming it) */
    char tail[64];               /* a regular file: the last bytes read, to be found there again */
    unsigned tail_len;
    follow_sum sum;              /* of the bytes spilled */
    int keep;                    /* every byte stays in memory from now on */
    char note[256];              /* why bytes stay in memory (set once; the caller may print and clear it) */
    int eof;
    size_t scanned;              /* a regular file: bytes looked at for the end line (complete lines) */
    int marked;                  /* the end line was read: the input ends with it */
    int (*stop)(void *ctx);      /* nonzero: stop reading (a signal arrived); NULL: never */
    double wake;                 /* > 0: follow_read returns FOLLOW_WAKE once monotonic_seconds() reaches it
                                  * with no new bytes (a pipe is then waited on in poll(), 250 ms at a time) */
    double quiet_since;          /* a FOLLOW_WAKE return keeps the idle clock running: since when no byte came */
    int woke;
    void *stop_ctx;
    int wake_fd;                 /* >= 0: a pipe waited on in poll() also wakes when this descriptor is
                                  * readable, and asks f->stop again (follow_pipe.h stops its reader
                                  * thread so); -1 (follow_open's): none */
} follow_input;

/* The line that ends a followed file (text: a comment the batch parser
 * skips); and follow_read's answer once f->stop said stop. */
#define FOLLOW_END_LINE "# end"
#define FOLLOW_STOPPED (-2)
#define FOLLOW_WAKE (-3)

/* Open path ("-": standard input); a pipe's bytes may spill to a
 * temporary file in tmp_dir (NULL or "": /tmp).  0 with err set if path
 * cannot be read. */
int follow_open(follow_input *f, const char *path, double idle, double poll, const char *tmp_dir, ic_error *err);
void follow_close(follow_input *f);
/* Wait for more bytes: 1 some arrived, 0 the input ended (f->eof), -1 a
 * read error or a regular file that did not only grow (err set),
 * FOLLOW_STOPPED f->stop said so, FOLLOW_WAKE f->wake passed (it is
 * cleared). */
int follow_read(follow_input *f, ic_error *err);
/* Bytes read so far. */
static inline size_t follow_total(const follow_input *f) { return f->base + f->data.len; }
/* The bytes before upto (f->base <= upto <= follow_total) leave memory:
 * 1 done, 0 they stay (from now on: f->keep; f->note says why unless
 * follow_all() asked it), -1 a temporary file failed after bytes went
 * into it and they cannot be read back (err set). */
int follow_spill(follow_input *f, size_t upto, ic_error *err);
/* Every byte read, back in f->data (f->base = 0): 1, or 0 (err set) if
 * they cannot be read again or are not the bytes read (a file rewritten
 * under us). */
int follow_all(follow_input *f, ic_error *err);
/* The final check's load: every byte read, parsed by the batch loader
 * (load_history_input: the same parsers, errors and line numbers as a
 * batch check of them) as it is read from where it is — the spilled part
 * from the file again or the temporary file, the rest from f->data — so
 * that they are never all in memory at once, next to the history built
 * from them.  Every spilled byte is read and summed, even past a parse
 * error; if they cannot be read or are not the bytes read, that is the
 * error (as follow_all words it) and no history is returned; so is a
 * regular file whose bytes still in memory are not those there now, or
 * that no longer has its name.  f keeps
 * its bytes (follow_close frees them); f->data's spare room is freed. */
history *follow_load(follow_input *f, history_format fmt, const load_options *opt, load_report *rep, ic_error *err);

typedef struct follow_parse {
    history_format fmt;          /* FORMAT_AUTO until detected */
    u64map text_ops;             /* text: ext txn id -> ops when judged complete here (those the
                                  * reader handed out: text_stream_done_ops) */
    uint32_t completed;          /* completed transactions in the last history */
    uint32_t read;               /* transactions read (completed or not) */
    int delta;                   /* 1 text parsed in increments (ts), 2 Elle EDN/JSON lines (es), -1 no
                                  * longer (the batch parser re-reads everything, as follow_completed) */
    text_stream ts;
    elle_stream es;
    /* after follow_delta returned 1, from ts or es: */
    const incr_txn *done;        /* the transactions completed by this call */
    size_t num_done;
    const int64_t *key_ext;      /* every key id so far */
    uint32_t num_keys;
    size_t consumed;             /* bytes parsed */
    const struct online_checker *oc;   /* where ts->done goes (follow_parse_checker), or NULL */
    int closed;                  /* Elle EDN/JSON: the vector/array holding the history closed (its end) */
    char stopped[320];           /* text: "FILE:LINE: why" a completed transaction grew; nothing is
                                  * completed from then on ("" while following) */
} follow_parse;

void follow_parse_init(follow_parse *p, history_format fmt);
/* The checker every transaction follow_delta hands out goes to
 * (online_check_delta, at once): the text reader asks its incremental
 * state whether a value was written before instead of keeping every write
 * (frontend/online/text_stream.h); while that state cannot say (none, left for checks from
 * scratch, or a violation reported), a new write hands the input over to
 * the batch parser.  Without a checker, the reader hands it over at the
 * first write after a transaction completed. */
static inline void follow_parse_checker(follow_parse *p, const struct online_checker *oc) { p->oc = oc; }
void follow_parse_free(follow_parse *p);

/* The completed transactions of data[0..n) (complete lines only, unless
 * at_end).  Returns 1 with *out (NULL: nothing complete yet), 0 when the
 * prefix cannot be read yet (an EDN/JSON form cut between lines; the end
 * of input decides), -1 bad input (err set: a refused format, a text
 * syntax error).  Once a completed transaction grew (p->stopped): 1 with
 * *out NULL. */
int follow_completed(follow_parse *p, const char *data, size_t n, const char *name, int at_end, history **out,
                     ic_error *err);

/* Text, Elle EDN or JSON lines, parsed in increments (frontend/online/text_stream.h,
 * elle_stream.h): only the lines that arrived since the last call; data
 * holds the bytes [base, base + n) of the input (base <= what was parsed:
 * follow_spill).  1: p->done holds the transactions that completed with
 * them (p->key_ext, p->consumed, p->read, p->completed updated; p->closed
 * when an Elle vector closed); 0: not for this input (another format, the
 * format not known yet, or the stream handed over after a rule the batch
 * parser words, or what reads differently in pieces) — use
 * follow_completed(); -1 bad input (err set, as follow_completed() sets it). */
int follow_delta(follow_parse *p, const char *data, size_t base, size_t n, const char *name, ic_error *err);

#endif
