/* parse_text.c — PolySI's text format: one operation per line,
 *     r(key,value,session,txn)   or   w(key,value,session,txn)
 * Integers are decimal digits only (0 to 2^63-1), as PolySI's own loader
 * reads them: a sign is bad input.  Value 0 is the initial value: a read
 * of 0 reads INIT.  When the file's first transaction only writes 0
 * (IsoVista writes its initial state so, w(k,0,0,0) for every key) it
 * stands for the initial state: its writes are merged into INIT (counted
 * in the load report, with a note); writing 0 anywhere else is an error.  Transaction ids are
 * global; a transaction belongs to the session of its first line, and its
 * position in the session is the order of first appearance.  Blank lines
 * and lines starting with '#' are skipped; a NUL byte anywhere is an
 * error.  A comment "#@time TXN invoke=.. complete=.. start=.. commit=.."
 * gives transaction TXN its times (text_times.h); the annotations are
 * resolved once the file is read, so one may come before or after its
 * transaction's operations.
 *
 * Plume's and IsoVista's generators write the writes of aborted
 * transactions with transaction id -1 (the only sign accepted): each such
 * write becomes an aborted transaction of its own in its session, with
 * ids -1, -2, ... in file order (no file id is negative, so they never
 * collide), so a committed read of its value is an aborted read.  A read
 * with id -1 is skipped (counted): Plume and IsoVista skip it too, and it
 * belongs to no transaction that could be checked.
 *
 * Two steps per line: lexing (text to a text_op, no state) and applying
 * (the op into the history builder, in file order).  With opt->threads
 * >= 2 the input is taken in blocks of whole lines, each block cut at line
 * ends into chunks lexed on several threads (par.h) into per-chunk arrays
 * (with the ids of the keys the builder already has, looked up read-only
 * while nothing adds keys), then applied in order on one thread; while a
 * helper thread applies block i, block i + 1 is taken (into a buffer of
 * its own, on the caller's thread, where a signal ends a read that waits)
 * and lexed on both threads, the helper's once block i is applied
 * (parse_chunked).  A chunk stops at its first bad
 * line; applying stops at the first chunk error after the ops before it,
 * so the error reported is the first in the file, as when lexing line by
 * line.
 *
 * Predicate lines (rp(...), up(...), init(...): text_pred.h) are lexed and
 * applied by text_pred.c at apply time (TEXT_PRED_OP carries the line);
 * from the first one on, r/w lines go through tp_op too. */
#include "frontend/formats/parse.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "par.h"
#include "quiet_thread.h"
#include "vec.h"
#include "frontend/formats/lex.h"
#include "frontend/formats/text_line.h"
#include "frontend/formats/text_pred.h"
#include "frontend/formats/text_times.h"
#include "frontend/history/predicate.h"
#include "frontend/history/u64map.h"

/* One operation line, lexed; line counts from the start of its chunk;
 * key_id is the key's id if the builder had it when the block was lexed
 * (HISTORY_NONE: look it up, or add it, when applying). */
typedef struct text_op {
    int64_t key, value, sess, txn;
    uint32_t line, key_id;
    uint8_t kind;
} text_op;

static int expect_int(const char **p, int64_t *v, const char *what, const char *name, long line, ic_error *err) {
    char fb[48];
    int rc = lex_digits_i64(p, v);
    if (rc == 1) return 1;
    if (rc < 0) ic_error_at(err, name, line, "%s out of range (at most 9223372036854775807)", what);
    else ic_error_at(err, name, line, "expected %s (digits 0-9, no sign), found %s", what, lex_found(*p, fb, sizeof fb));
    return 0;
}

static int expect_char(const char **p, char c, const char *after, const char *name, long line, ic_error *err) {
    char fb[48];
    if (**p == c) { (*p)++; return 1; }
    ic_error_at(err, name, line, "expected '%c' after %s, found %s", c, after, lex_found(*p, fb, sizeof fb));
    return 0;
}

#define TEXT_TIMES_OP 0xffu        /* text_op.kind of a time annotation (its index in key) */
#define TEXT_ABORTED_TXN (-1)      /* text_op.txn of Plume's/IsoVista's aborted writes */
#define TEXT_PRED_OP 0xfeu         /* text_op.kind of a predicate line: key its text, value its length */

/* The usual line, the whole of it "r(K,V,S,T)" or "w(...)" with four
 * runs of at most 18 digits (so no overflow): 1 with *op set (kind and
 * the four numbers), as lex_line would; else 0 and lex_line decides (a
 * blank, a comment, spaces, an aborted id -1, a long number, bad input,
 * a NUL byte: none of them passes here).  One pass, no per-field calls:
 * the loader's inner loop. */
static int lex_plain(const char *p, size_t len, text_op *op) {
    if (len < 10 || (p[0] != 'r' && p[0] != 'w') || p[1] != '(' || p[len - 1] != ')') return 0;
    const char *s = p + 2, *end = p + len - 1;
    int64_t v[4];
    for (int i = 0; i < 4; i++) {
        const char *d = s;
        uint64_t x = 0;
        while ((unsigned)(*s - '0') < 10u) x = x * 10 + (unsigned)(*s++ - '0');
        if (s == d || s - d > 18) return 0;
        v[i] = (int64_t)x;
        if (i < 3 && *s++ != ',') return 0;
    }
    if (s != end) return 0;
    op->kind = p[0] == 'r' ? OP_READ : OP_WRITE;
    op->key = v[0]; op->value = v[1]; op->sess = v[2]; op->txn = v[3];
    return 1;
}

/* Lex one line (NUL-terminated, len bytes, without its newline): 1 an
 * operation in *op (all but op->line), 2 a time annotation in *tt, 3 a
 * predicate line (kind TEXT_PRED_OP, lexed when applied), 0 blank or a
 * comment, -1 bad (err set at `line`). */
static int lex_line(const char *p, size_t len, text_op *op, text_times *tt, const char *name, long line, ic_error *err) {
    char fb[48];
    if (lex_plain(p, len, op)) return 1;
    if (memchr(p, 0, len)) { ic_error_at(err, name, line, "expected text, found a NUL byte"); return -1; }
    const char *start = p;
    lex_space(&p);
    if (!*p) return 0;
    if (*p == '#') return text_is_times(p) ? (text_lex_times(p, tt, name, line, err) < 0 ? -1 : 2) : 0;
    if (text_pred_starts(p)) {
        op->kind = TEXT_PRED_OP;
        op->key = (int64_t)(intptr_t)p;
        op->value = (int64_t)(len - (size_t)(p - start));
        return 3;
    }
    if ((p[0] == 'r' || p[0] == 'w') && p[1] == '(') op->kind = p[0] == 'r' ? OP_READ : OP_WRITE;
    else { ic_error_at(err, name, line, "expected 'r(' or 'w(', found %s", lex_found(p, fb, sizeof fb)); return -1; }
    p += 2;
    if (!expect_int(&p, &op->key, "key", name, line, err) || !expect_char(&p, ',', "the key", name, line, err) ||
        !expect_int(&p, &op->value, "value", name, line, err) || !expect_char(&p, ',', "the value", name, line, err) ||
        !expect_int(&p, &op->sess, "session id", name, line, err) ||
        !expect_char(&p, ',', "the session id", name, line, err))
        return -1;
    if (p[0] == '-' && p[1] == '1' && p[2] == ')') { op->txn = TEXT_ABORTED_TXN; p += 2; }   /* an aborted write */
    else if (!expect_int(&p, &op->txn, "transaction id", name, line, err)) return -1;
    if (!expect_char(&p, ')', "the transaction id", name, line, err)) return -1;
    lex_space(&p);
    if (*p) { ic_error_at(err, name, line, "expected end of line after ')', found %s", lex_found(p, fb, sizeof fb)); return -1; }
    return 1;
}

int text_lex_line(const char *p, size_t len, text_fields *f, const char *name, long line, ic_error *err) {
    text_op op;
    text_times tt;
    int rc = lex_line(p, len, &op, &tt, name, line, err);
    if (rc == 2) return 0;                   /* times are not followed (check --follow has no real-time levels) */
    if (rc == 3) {
        ic_error_at(err, name, line, "predicate reads (rp, up, init lines) cannot be followed; check the file "
                    "without --follow");
        return -1;
    }
    if (rc > 0 && op.txn == TEXT_ABORTED_TXN) {
        ic_error_at(err, name, line, "an aborted write (transaction id -1) cannot be followed; check the file "
                    "without --follow");
        return -1;
    }
    if (rc > 0) {
        f->key = op.key; f->value = op.value; f->sess = op.sess; f->txn = op.txn;
        f->kind = op.kind;
    }
    return rc;
}

/* What applying needs to remember from line to line. */
typedef struct text_state {
    history_builder *b;
    const char *name;
    load_report *rep;
    u64map txn_ids;                 /* ext txn id -> builder txn */
    vec_u32 txn_session;            /* builder txn -> builder session */
    int have_last, have_init;
    int64_t last_txn, last_sess, init_txn, init_sess;
    long init_line;
    uint64_t merged, aborted;       /* init writes merged; aborted-write lines (txn -1) applied */
    uint32_t last_t;
    VEC(text_times) times;          /* the time annotations, in file order */
    vec_u32 times_line;
    text_pred *tp;                  /* predicate mode (text_pred.h): NULL until a predicate line */
    text_pred_line pl;              /* the last predicate line, lexed */
    vec_u32 init_keys;              /* keys of the initial-state transaction */
} text_state;

static void add_times(text_state *st, const text_times *tt, long line) {
    vec_push(st->times, *tt);
    vec_push(st->times_line, (uint32_t)line);
}

/* The annotations to their transactions, once every line is read. */
static int resolve_times(text_state *st, ic_error *err) {
    if (!st->times.len) return 1;
    uint32_t n = hb_num_txns(st->b);
    uint32_t *first = xcalloc(n ? n : 1, sizeof *first);    /* builder txn -> annotation + 1 */
    int ok = 1;
    for (size_t i = 0; ok && i < st->times.len; i++) {
        const text_times *tt = &st->times.data[i];
        long line = st->times_line.data[i];
        uint32_t t = u64map_get(&st->txn_ids, (uint64_t)tt->txn);
        if (t == UINT32_MAX) {
            if (st->have_init && tt->txn == st->init_txn)
                ic_error_at(err, st->name, line, "times for transaction %" PRId64 ", which stands for the initial state "
                            "(line %ld): it has none", tt->txn, st->init_line);
            else
                ic_error_at(err, st->name, line, "times for transaction %" PRId64 ", which has no operation in the file",
                            tt->txn);
            ok = 0;
        } else if (first[t]) {
            ic_error_at(err, st->name, line, "times for transaction %" PRId64 " given twice (first at line %" PRIu32 ")",
                        tt->txn, st->times_line.data[first[t] - 1]);
            ok = 0;
        } else {
            first[t] = (uint32_t)i + 1;
            for (int k = 0; k < TIME_KINDS; k++)
                if (tt->t[k] != HISTORY_TIME_NONE) hb_txn_time(st->b, t, (history_time_kind)k, tt->t[k]);
        }
    }
    free(first);
    return ok;
}

/* A line with transaction id -1: a write becomes an aborted transaction of
 * its own (ids -1, -2, ...); a read is skipped. */
static int apply_aborted(text_state *st, const text_op *op, long line, ic_error *err) {
    if (st->rep) { st->rep->records++; st->rep->aborted_lines++; }
    if (op->kind == OP_READ) { if (st->rep) st->rep->aborted_reads++; return 1; }
    if (op->value == 0) {
        ic_error_at(err, st->name, line, "value 0 is the initial value and cannot be written (also not by an aborted "
                    "write, transaction id -1)");
        return 0;
    }
    history_builder *b = st->b;
    uint32_t t = hb_txn(b, hb_session(b, op->sess, NULL), -1 - (int64_t)st->aborted++, (uint32_t)line);
    uint32_t key = op->key_id != HISTORY_NONE ? op->key_id : hb_key(b, op->key);
    hb_op(b, t, OP_WRITE, key, op->value, (uint32_t)line);
    hb_txn_status(b, t, TXN_ABORTED);
    if (st->tp) tp_aborted(st->tp, t, key, op->value, line);
    return 1;
}

/* The builder transaction of (sess, txn) at line, made if new: 1, or 0
 * with err (it is in another session). */
static int txn_of(text_state *st, int64_t sess, int64_t txn, long line, uint32_t *out, ic_error *err) {
    if (st->have_last && txn == st->last_txn && sess == st->last_sess) { *out = st->last_t; return 1; }
    uint32_t s = hb_session(st->b, sess, NULL);
    uint32_t t = u64map_get(&st->txn_ids, (uint64_t)txn);
    if (t == UINT32_MAX) {
        t = hb_txn(st->b, s, txn, (uint32_t)line);
        u64map_put(&st->txn_ids, (uint64_t)txn, t);
        vec_push(st->txn_session, s);
    } else if (st->txn_session.data[t] != s) {
        ic_error_at(err, st->name, line, "transaction %" PRId64 " appears in two sessions (duplicate transaction id?)", txn);
        return 0;
    }
    st->have_last = 1; st->last_txn = txn; st->last_sess = sess; st->last_t = t;
    *out = t;
    return 1;
}

/* A predicate line (rp, up, init): lexed and applied by text_pred.c. */
static int apply_pred_line(text_state *st, const text_op *op, long line, ic_error *err) {
    if (st->rep) st->rep->records++;
    if (!text_pred_lex((const char *)(intptr_t)op->key, (size_t)op->value, &st->pl, st->name, line, err)) return 0;
    if (!st->tp) st->tp = tp_new(st->b);
    if (st->pl.kind == TPL_INIT) return tp_init(st->tp, st->b, hb_key(st->b, st->pl.key), st->pl.value, st->name, line, err);
    if (st->have_init && st->pl.txn == st->init_txn) {
        ic_error_at(err, st->name, line, "transaction %" PRId64 " stands for the initial state (line %ld) and may only "
                    "write 0; found a predicate read", st->pl.txn, st->init_line);
        return 0;
    }
    uint32_t t;
    return txn_of(st, st->pl.sess, st->pl.txn, line, &t, err) && tp_pred_line(st->tp, st->b, t, &st->pl, st->name, line, err);
}

/* Apply one lexed operation found at `line`: 1, or 0 with err set. */
static int apply_op(text_state *st, const text_op *op, long line, ic_error *err) {
    history_builder *b = st->b;
    int64_t key = op->key, value = op->value, sess = op->sess, txn = op->txn;
    unsigned kind = op->kind;
    uint32_t key_id = op->key_id;
    if (kind == TEXT_PRED_OP) return apply_pred_line(st, op, line, err);
    if (st->rep) st->rep->records++;
    if (txn == TEXT_ABORTED_TXN) return apply_aborted(st, op, line, err);
    if (st->have_init && txn == st->init_txn) {              /* the initial-state transaction goes on */
        if (kind != OP_WRITE || value != 0 || sess != st->init_sess) {
            ic_error_at(err, st->name, line,
                        "transaction %" PRId64 " writes the initial value 0 (line %ld), so it stands for the initial "
                        "state and may only write 0 in session %" PRId64 "; found %s",
                        txn, st->init_line, st->init_sess,
                        kind == OP_READ ? "a read" : sess != st->init_sess ? "another session" : "another value");
            return 0;
        }
        vec_push(st->init_keys, hb_key(b, key));
        st->merged++;
        return 1;
    }
    if (value == 0) {
        if (kind == OP_WRITE) {
            if (st->have_init || st->have_last) {            /* only the file's first transaction */
                ic_error_at(err, st->name, line,
                            "value 0 is the initial value and cannot be written (only the first transaction of "
                            "the file, all of whose operations write 0, may: it stands for the initial state)");
                return 0;
            }
            st->have_init = 1;                                /* IsoVista's explicit initial state */
            st->init_txn = txn;
            st->init_sess = sess;
            st->init_line = line;
            vec_push(st->init_keys, hb_key(b, key));
            st->merged++;
            return 1;
        }
        value = VALUE_INIT;
    }
    uint32_t t;                                       /* txn_of: the same txn as the last line, mostly */
    if (!txn_of(st, sess, txn, line, &t, err)) return 0;
    if (st->tp)
        return tp_op(st->tp, b, t, txn, kind, key_id != HISTORY_NONE ? key_id : hb_key(b, key), value, st->name, line, err);
    hb_op(b, t, kind, key_id != HISTORY_NONE ? key_id : hb_key(b, key), value, (uint32_t)line);
    return 1;
}

/* Line by line (one thread). */
static int parse_serial(input *r, text_state *st, ic_error *err) {
    size_t len;
    char *line;
    text_op op;
    text_times tt;
    while ((line = input_line(r, &len))) {
        int rc = lex_line(line, len, &op, &tt, r->name, r->line, err);
        op.key_id = HISTORY_NONE;
        if (rc == 2) add_times(st, &tt, r->line);
        else if (rc < 0 || (rc > 0 && !apply_op(st, &op, r->line, err))) return 0;
    }
    return 1;
}

/* ---- In chunks ---------------------------------------------------------- */

#define TEXT_CHUNK_BYTES ((size_t)2 << 20)    /* lexed by one task, unless opt->chunk_bytes says */
#define TEXT_CHUNKS_PER_THREAD 4              /* per block: uneven chunks still balance */

typedef struct text_chunk {
    char *p;                 /* whole lines (the last may lack its '\n' at EOF) */
    size_t n;
    VEC(text_op) ops;
    VEC(text_times) times;   /* time annotations; their text_op has kind TEXT_TIMES_OP, key the index */
    long lines;              /* lines in the chunk (up to its bad line, if any) */
    int failed;
    int keyed;               /* its keys looked up (find_keys) when it was lexed */
    ic_error err;            /* the chunk's first bad line; its line counts from the chunk's start */
} text_chunk;

typedef struct text_block {
    text_chunk *chunks;
    size_t n;
    const char *name;
    const history_builder *b;    /* read only while the block is lexed: the keys known so far */
} text_block;

/* The ids of the chunk's keys the builder already has (the probes off the
 * serial path), each asked for some ops ahead: the keys are all over the
 * map, so the probes' cache misses overlap instead of one after another. */
#define KEY_AHEAD 12
static int has_key(const text_op *op) { return op->kind != TEXT_TIMES_OP && op->kind != TEXT_PRED_OP; }
static void find_keys(const history_builder *b, text_chunk *c) {
    text_op *ops = c->ops.data;
    size_t n = c->ops.len;
    for (size_t j = 0; j < n && j < KEY_AHEAD; j++)
        if (has_key(&ops[j])) hb_key_prefetch(b, ops[j].key);
    for (size_t j = 0; j < n; j++) {
        if (j + KEY_AHEAD < n && has_key(&ops[j + KEY_AHEAD])) hb_key_prefetch(b, ops[j + KEY_AHEAD].key);
        if (has_key(&ops[j])) ops[j].key_id = hb_key_find(b, ops[j].key);
    }
}

/* Lex one chunk: its lines end with NUL in place of '\n' (and a '\r'
 * before it), as input_line() gives them.  The keys' ids are not looked
 * up (find_keys). */
static void lex_chunk_text(text_chunk *c, const char *name) {
    char *p = c->p, *end = c->p + c->n;
    vec_clear(c->ops);
    vec_clear(c->times);
    c->lines = 0;
    c->failed = 0;
    ic_error_clear(&c->err);
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end;
        size_t len = (size_t)(e - p);
        if (len > 0 && p[len - 1] == '\r') len--;
        char saved = *e;                     /* at EOF the byte after the input: its spare byte */
        p[len] = 0;
        c->lines++;
        text_op op;
        text_times tt;
        int rc = lex_line(p, len, &op, &tt, name, c->lines, &c->err);
        if (!nl) *e = saved;
        if (rc < 0) { c->failed = 1; break; }       /* the ops before it are applied */
        if (rc == 2) {
            vec_push(c->times, tt);
            op.kind = TEXT_TIMES_OP;
            op.key = (int64_t)c->times.len - 1;
            op.line = (uint32_t)c->lines;
            vec_push(c->ops, op);
        } else if (rc == 3) {                            /* a predicate line: its text stays in the chunk */
            op.line = (uint32_t)c->lines;
            vec_push(c->ops, op);
        } else if (rc > 0) {
            op.line = (uint32_t)c->lines;
            vec_push(c->ops, op);
        }
        p = e + (nl != NULL);
    }
}

/* Lex one chunk and look up the keys the builder has (nothing adds keys
 * meanwhile). */
static void lex_chunk(void *ctx, size_t i) {
    text_block *blk = ctx;
    lex_chunk_text(&blk->chunks[i], blk->name);
    find_keys(blk->b, &blk->chunks[i]);
}

/* Cut [p, p+n) into chunks of about `size` bytes at line ends. */
static size_t cut_chunks(char *p, size_t n, size_t size, text_chunk *chunks, size_t max) {
    size_t k = 0;
    while (n > 0 && k < max) {
        size_t take = n;
        if (k + 1 < max && n > size) {
            char *nl = memchr(p + size, '\n', n - size);
            take = nl ? (size_t)(nl - p) + 1 : n;
        }
        chunks[k].p = p;
        chunks[k].n = take;
        k++;
        p += take;
        n -= take;
    }
    return k;
}

/* A lexed block applied in order (one thread): 1, or 0 with err set at
 * the first bad line; *base counts the lines. */
static int apply_block(text_state *st, text_chunk *chunks, size_t n, long *base, ic_error *err) {
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++) {
        text_chunk *c = &chunks[i];
        for (size_t j = 0; ok && j < c->ops.len; j++) {
            const text_op *op = &c->ops.data[j];
            if (op->kind == TEXT_TIMES_OP) add_times(st, &c->times.data[op->key], *base + op->line);
            else ok = apply_op(st, op, *base + op->line, err);
        }
        if (ok && c->failed) {
            *err = c->err;
            err->line += *base;
            ok = 0;
        }
        *base += c->lines;
    }
    return ok;
}

/* A block of whole lines in a buffer of its own (it outlives the next
 * take: input_take_lines_into): its chunks, n of them in use (0: the
 * input ended). */
typedef struct text_slot {
    char *buf;               /* holds the block's bytes, zeroed ones after (input_take_lines_into) */
    size_t cap;
    text_chunk *chunks;
    size_t n;
} text_slot;

static void slot_take(input *r, text_slot *s, size_t max, size_t chunk_bytes) {
    size_t n;
    char *p = input_take_lines_into(r, max * chunk_bytes, &n, &s->buf, &s->cap);
    s->n = p ? cut_chunks(p, n, chunk_bytes, s->chunks, max) : 0;
}

/* Applying a block is the serial part of the load.  Block i is applied
 * on a helper thread (SIGINT and SIGTERM blocked there) while the
 * caller's thread takes block i + 1 from the input (a signal reaches that
 * thread, and ends a read that waits on a pipe: interrupt.h; on another
 * thread the read went on waiting, review47) and faults in the builder's
 * room for its ops (hb_reserve_ops; about as many as block i's).  Then
 * both threads lex block i + 1's chunks, handed out one at a time from a
 * counter: the caller at once, the helper once block i is applied and
 * block i + 1 taken, so that neither thread idles while the other lexes.
 * A chunk lexed once block i is applied has its keys looked up
 * (find_keys) by the thread that lexed it; the others' keys are looked up
 * on every thread once the helper is joined.  The builder is changed by
 * the apply alone, and keys are looked up only between block i's apply
 * and block i + 1's; the blocks are applied in file order, so the
 * history and the first error are those of the line by line reader. */
typedef struct block_job {
    text_state *st;
    text_slot *now, *next;
    long *base;
    ic_error *err;
    const char *name;
    int ok;
    atomic_int applied;          /* block i is applied: nothing adds keys until the next job */
    atomic_size_t claim;         /* the next chunk of block i + 1 to lex */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ready;                   /* block i + 1 is taken (under mu) */
} block_job;

/* Lex the chunks of block i + 1 not yet handed out, each with its keys
 * looked up if block i is applied by then. */
static void lex_claimed(block_job *jb) {
    for (;;) {
        size_t c = atomic_fetch_add_explicit(&jb->claim, 1, memory_order_relaxed);
        if (c >= jb->next->n) return;
        text_chunk *ch = &jb->next->chunks[c];
        lex_chunk_text(ch, jb->name);
        ch->keyed = atomic_load_explicit(&jb->applied, memory_order_acquire);
        if (ch->keyed) find_keys(jb->st->b, ch);
    }
}

static void block_applied(block_job *jb) {
    jb->ok = apply_block(jb->st, jb->now->chunks, jb->now->n, jb->base, jb->err);
    atomic_store_explicit(&jb->applied, 1, memory_order_release);
}

static void *helper_main(void *arg) {
    block_job *jb = arg;
    block_applied(jb);
    pthread_mutex_lock(&jb->mu);
    while (!jb->ready) pthread_cond_wait(&jb->cv, &jb->mu);
    pthread_mutex_unlock(&jb->mu);
    if (jb->ok) lex_claimed(jb);
    return NULL;
}

/* Start the helper: 1 (join *tid), or 0 when its thread could not be
 * made (then block i has been applied here, first). */
static int helper_start(block_job *jb, pthread_t *tid) {
    int rc = quiet_thread_start(tid, helper_main, jb);
    if (rc == 0) return 1;
    block_applied(jb);
    return 0;
}

/* The keys of the chunks lexed before block i was applied. */
static void find_keys_late(void *ctx, size_t i) {
    text_block *blk = ctx;
    if (!blk->chunks[i].keyed) find_keys(blk->b, &blk->chunks[i]);
}

/* Block i applied beside block i + 1's take and lexing: 1, or 0 with err
 * set (block i's first bad line). */
static int apply_beside(input *r, text_state *st, block_job *jb, unsigned threads, size_t max, size_t chunk_bytes) {
    size_t nops = 0;
    for (size_t i = 0; i < jb->now->n; i++) nops += jb->now->chunks[i].ops.len;
    hb_room room = hb_reserve_ops(st->b, nops, nops);
    jb->ok = 1;
    jb->ready = 0;
    atomic_store_explicit(&jb->applied, 0, memory_order_relaxed);
    atomic_store_explicit(&jb->claim, 0, memory_order_relaxed);
    pthread_t tid;
    int joined = helper_start(jb, &tid);
    slot_take(r, jb->next, max, chunk_bytes);      /* on this thread (above) */
    pthread_mutex_lock(&jb->mu);
    jb->ready = 1;
    pthread_cond_signal(&jb->cv);
    pthread_mutex_unlock(&jb->mu);
    hb_room_touch(&room);
    lex_claimed(jb);
    if (joined) pthread_join(tid, NULL);
    text_block nb = { jb->next->chunks, jb->next->n, r->name, st->b };
    if (jb->ok) par_run(threads, nb.n, find_keys_late, &nb);
    return jb->ok;
}

static int parse_chunked(input *r, text_state *st, unsigned threads, size_t chunk_bytes, ic_error *err) {
    size_t max = (size_t)threads * TEXT_CHUNKS_PER_THREAD;
    text_slot slot[2];
    memset(slot, 0, sizeof slot);
    for (int k = 0; k < 2; k++) {
        slot[k].chunks = xcalloc(max, sizeof *slot[k].chunks);
        for (size_t i = 0; i < max; i++) { vec_init(slot[k].chunks[i].ops); vec_init(slot[k].chunks[i].times); }
    }
    long base = 0;                           /* lines before the block */
    int ok = 1, cur = 0;
    slot_take(r, &slot[0], max, chunk_bytes);      /* the first block lexed on every thread */
    text_block blk = { slot[0].chunks, slot[0].n, r->name, st->b };
    par_run(threads, blk.n, lex_chunk, &blk);
    block_job jb = { .st = st, .base = &base, .err = err, .name = r->name };
    pthread_mutex_init(&jb.mu, NULL);
    pthread_cond_init(&jb.cv, NULL);
    while (ok && slot[cur].n) {
        jb.now = &slot[cur];
        jb.next = &slot[!cur];
        ok = apply_beside(r, st, &jb, threads, max, chunk_bytes);
        cur = !cur;
    }
    pthread_cond_destroy(&jb.cv);
    pthread_mutex_destroy(&jb.mu);
    r->line = base;
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < max; i++) { vec_free(slot[k].chunks[i].ops); vec_free(slot[k].chunks[i].times); }
        free(slot[k].chunks);
        free(slot[k].buf);
    }
    return ok;
}

history *parse_text(input *r, const load_options *opt, load_report *rep, ic_error *err) {
    text_state st;
    memset(&st, 0, sizeof st);
    st.b = hb_new(FORMAT_TEXT, LOC_LINE, r->name);
    st.name = r->name;
    st.rep = rep;
    u64map_init(&st.txn_ids);
    vec_init(st.txn_session);
    unsigned threads = opt ? opt->threads : 0;
    size_t chunk_bytes = opt && opt->chunk_bytes ? opt->chunk_bytes : TEXT_CHUNK_BYTES;
    const unsigned char *head;           /* a UTF-8 byte-order mark is skipped (doc/formats.md) */
    if (input_peek(r, 3, &head) >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3)) {
        unsigned char bom[3];
        input_read(r, bom, 3);
    }
    int ok = threads >= 2 ? parse_chunked(r, &st, threads, chunk_bytes, err) : parse_serial(r, &st, err);
    if (ok && r->io_error) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); ok = 0; }
    if (ok) ok = resolve_times(&st, err);
    if (ok && st.tp) ok = tp_finish(st.tp, st.b, st.init_keys.data, st.init_keys.len, r->name, err);
    if (ok && st.have_init && rep) {
        rep->init_merged += st.merged;
        load_report_note(rep, "note", "transaction %" PRId64 " (session %" PRId64 ", line %ld) writes only the initial "
                         "value 0: read as the initial state (%" PRIu64 " writes merged)", st.init_txn, st.init_sess,
                         st.init_line, st.merged);
    }
    u64map_free(&st.txn_ids);
    vec_free(st.txn_session);
    vec_free(st.times);
    vec_free(st.times_line);
    tp_free(st.tp);
    tpl_free(&st.pl);
    vec_free(st.init_keys);
    if (!ok) { hb_free(st.b); return NULL; }
    hb_set_threads(st.b, threads);
    history *h = hb_finish(st.b, err);             /* then the choices of predicate reads, as Elle's reader */
    return h && !preds_attach_choices(h, err) ? (history_free(h), (history *)NULL) : h;
}
