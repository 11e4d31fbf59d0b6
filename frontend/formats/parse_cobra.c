/* parse_cobra.c — Cobra's logs: a directory of *.log files, one session
 * each (sessions numbered in file-name order, T2.log before T10.log).
 * A log is a sequence of records, a type byte then big-endian int64s:
 *
 *   'S' txn                          transaction begins
 *   'C' txn                          it commits
 *   'A' txn                          it aborts (not written by every client)
 *   'W' write_id key value           a write; write_id is unique per history
 *   'R' writer_txn write_id key value   a read of the write write_id
 *
 * The model's value of a write is its write_id (Cobra guarantees those
 * are unique; the value field is a hash).  A read whose writer_txn is the
 * init or null txn id and whose write_id is the init write id or the null
 * id reads the initial value — the value its first such read of the key
 * reported (a hash of the row): a read of the initial state reporting
 * another hash read something that was never the initial value, so it gets
 * a named value no write wrote, and the axioms report a thin-air read (as
 * PolySI and VeriStrong, which compare the hashes).  Write ids (and values
 * of value-identified logs) in the band of named values are reserved.
 * Cobra's garbage-collection reads (write ids
 * 0x23332333 / 0x66666666) are not supported and are reported.  A
 * transaction left open at the end of a log is an error (truncated).
 *
 * Value-identified logs (VeriStrong's histories): every write carries the
 * universal write id 0xabddefee and every read of a write the universal
 * writer txn and write id; the value field then names the write, so it is
 * the model value (and must be unique per key, as the model checks).  A
 * history is one kind or the other: mixing them could make a write id of
 * one equal a value of the other, so it is refused. */
#include "frontend/formats/parse.h"
#include "frontend/formats/log_dir.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"

typedef struct cobra_state {
    history_builder *b;
    u64map txn_ids;
    int ids;                /* 0 not yet known, ID_UNIQUE or ID_BY_VALUE */
    vec_i64 init_hash;      /* per key id: the hash its first read of the initial state reported */
    vec_char init_seen;
    ic_error *err;
    load_report *rep;
} cobra_state;

static int get_i64(input *r, int64_t *v, const char *what, uint64_t rec_at, char type, ic_error *err) {
    unsigned char b[8];
    uint64_t at = r->offset;
    size_t got = input_read(r, b, 8);
    if (got < 8) {
        ic_error_at_offset(err, r->name, (long long)at, "expected %s of the '%c' record at byte %" PRIu64 " (8 bytes), found %s",
                           what, type, rec_at, got ? "a truncated field" : "end of file");
        return 0;
    }
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x = x << 8 | b[i];
    *v = (int64_t)x;
    return 1;
}

enum { ID_UNIQUE = 1, ID_BY_VALUE = 2 };

/* The first write or read of a write fixes the history's kind of ids. */
static int same_kind(cobra_state *st, input *r, uint64_t at, int kind) {
    if (!st->ids) st->ids = kind;
    if (st->ids == kind) return 1;
    ic_error_at_offset(st->err, r->name, (long long)at,
                       "expected %s, found %s: a history may not mix Cobra's unique write ids with "
                       "value-identified writes (universal id 0x%llx)",
                       st->ids == ID_UNIQUE ? "a unique write id" : "the universal write id",
                       st->ids == ID_UNIQUE ? "the universal write id" : "a unique write id", (unsigned long long)COBRA_UNIVERSAL_ID);
    return 0;
}

/* The band of named values (hb_name); a Cobra id there could equal one. */
#define RESERVED_BELOW (VALUE_NAME_BASE + (int64_t)UINT32_MAX)

/* The model value of a read of key's initial state that reported hash. */
static int64_t initial_value(cobra_state *st, uint32_t key, int64_t hash) {
    if (key >= st->init_seen.len) {
        size_t old = st->init_seen.len;
        vec_resize(st->init_seen, (size_t)key + 1);
        vec_resize(st->init_hash, (size_t)key + 1);
        memset(st->init_seen.data + old, 0, st->init_seen.len - old);
    }
    if (!st->init_seen.data[key]) {
        st->init_seen.data[key] = 1;
        st->init_hash.data[key] = hash;
    }
    if (st->init_hash.data[key] == hash) return VALUE_INIT;
    char name[64];
    int len = snprintf(name, sizeof name, "an initial value with hash 0x%" PRIx64 " (first read: 0x%" PRIx64 ")",
                       (uint64_t)hash, (uint64_t)st->init_hash.data[key]);
    return hb_name(st->b, name, (size_t)len);
}

static int reserved_txn_id(int64_t id) {
    return id == COBRA_INIT_TXN_ID || id == COBRA_NULL_TXN_ID || id == COBRA_UNIVERSAL_ID || id == VALUE_INIT;
}

static void state_init(cobra_state *st, const char *source, load_report *rep, ic_error *err) {
    *st = (cobra_state){ .b = hb_new(FORMAT_COBRA, LOC_OFFSET, source), .err = err, .rep = rep };
    u64map_init(&st->txn_ids);
}

/* Frees the parse state; the builder is finished (ok) or freed. */
static history *state_finish(cobra_state *st, int ok) {
    u64map_free(&st->txn_ids);
    vec_free(st->init_hash); vec_free(st->init_seen);
    if (!ok) { hb_free(st->b); return NULL; }
    return hb_finish(st->b, st->err);
}

static uint32_t sat32(uint64_t x) { return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x; }

/* A 'W' record at offset at, in transaction cur. */
static int parse_write(cobra_state *st, input *r, uint64_t at, uint32_t cur) {
    ic_error *err = st->err;
    int64_t a, b2, c;
    if (!get_i64(r, &a, "the write id", at, 'W', err) || !get_i64(r, &b2, "the key", at, 'W', err) ||
        !get_i64(r, &c, "the value", at, 'W', err))
        return 0;
    if (cur == HISTORY_NONE) {
        ic_error_at_offset(err, r->name, (long long)at, "expected 'S' before 'W', found 'W' outside a transaction");
        return 0;
    }
    if (a == COBRA_INIT_WRITE_ID || a == COBRA_NULL_TXN_ID || a == COBRA_GC_WID_TRUE ||
        a == COBRA_GC_WID_FALSE || a < RESERVED_BELOW) {
        ic_error_at_offset(err, r->name, (long long)at, "write id 0x%" PRIx64 " is reserved", (uint64_t)a);
        return 0;
    }
    if (!same_kind(st, r, at, a == COBRA_UNIVERSAL_ID ? ID_BY_VALUE : ID_UNIQUE)) return 0;
    if (a == COBRA_UNIVERSAL_ID) {
        if (c < RESERVED_BELOW) {
            ic_error_at_offset(err, r->name, (long long)at, "value 0x%" PRIx64 " is reserved", (uint64_t)c);
            return 0;
        }
        a = c;
    }
    hb_op(st->b, cur, OP_WRITE, hb_key(st->b, b2), a, sat32(at));
    return 1;
}

/* An 'R' record at offset at, in transaction cur. */
static int parse_read(cobra_state *st, input *r, uint64_t at, uint32_t cur) {
    ic_error *err = st->err;
    int64_t a, b2, c, d;
    if (!get_i64(r, &a, "the writer transaction id", at, 'R', err) ||
        !get_i64(r, &b2, "the write id", at, 'R', err) || !get_i64(r, &c, "the key", at, 'R', err) ||
        !get_i64(r, &d, "the value", at, 'R', err))
        return 0;
    if (cur == HISTORY_NONE) {
        ic_error_at_offset(err, r->name, (long long)at, "expected 'S' before 'R', found 'R' outside a transaction");
        return 0;
    }
    int64_t value = b2;
    uint32_t key = hb_key(st->b, c);
    if (a == COBRA_UNIVERSAL_ID || b2 == COBRA_UNIVERSAL_ID) {
        if (a != b2) {
            ic_error_at_offset(err, r->name, (long long)at,
                               "expected the universal id 0x%llx as both writer txn and write id, found 0x%" PRIx64 " and 0x%" PRIx64,
                               (unsigned long long)COBRA_UNIVERSAL_ID, (uint64_t)a, (uint64_t)b2);
            return 0;
        }
        if (!same_kind(st, r, at, ID_BY_VALUE)) return 0;
        if (d < RESERVED_BELOW) {
            ic_error_at_offset(err, r->name, (long long)at, "value 0x%" PRIx64 " is reserved", (uint64_t)d);
            return 0;
        }
        value = d;
    } else if (a == COBRA_INIT_TXN_ID || a == COBRA_NULL_TXN_ID) {
        if (b2 == COBRA_INIT_WRITE_ID || b2 == COBRA_NULL_TXN_ID) value = initial_value(st, key, d);
        else if (b2 == COBRA_GC_WID_TRUE || b2 == COBRA_GC_WID_FALSE) {
            ic_error_at_offset(err, r->name, (long long)at, "Cobra garbage-collection reads are not supported");
            return 0;
        } else {
            ic_error_at_offset(err, r->name, (long long)at,
                               "expected the init or null write id in a read of the initial state, found 0x%" PRIx64, (uint64_t)b2);
            return 0;
        }
    } else if (b2 < RESERVED_BELOW) {
        ic_error_at_offset(err, r->name, (long long)at, "write id 0x%" PRIx64 " is reserved", (uint64_t)b2);
        return 0;
    } else if (!same_kind(st, r, at, ID_UNIQUE)) {
        return 0;
    }
    hb_op(st->b, cur, OP_READ, key, value, sat32(at));
    return 1;
}

static int parse_log(cobra_state *st, input *r, uint32_t sess) {
    ic_error *err = st->err;
    uint32_t cur = HISTORY_NONE;
    int64_t cur_id = 0;
    for (;;) {
        unsigned char type;
        uint64_t at = r->offset;
        if (input_read(r, &type, 1) < 1) break;
        if (st->rep) st->rep->records++;
        int64_t a;
        switch (type) {
        case 'S':
            if (!get_i64(r, &a, "the transaction id", at, 'S', err)) return 0;
            if (cur != HISTORY_NONE) {
                ic_error_at_offset(err, r->name, (long long)at,
                                   "expected 'C' or 'A' ending transaction %" PRId64 ", found 'S' (a new transaction)", cur_id);
                return 0;
            }
            if (reserved_txn_id(a)) {
                ic_error_at_offset(err, r->name, (long long)at, "transaction id 0x%" PRIx64 " is reserved", (uint64_t)a);
                return 0;
            }
            if (u64map_get(&st->txn_ids, (uint64_t)a) != UINT32_MAX) {
                ic_error_at_offset(err, r->name, (long long)at, "duplicate transaction id %" PRId64, a);
                return 0;
            }
            cur = hb_txn(st->b, sess, a, sat32(at));
            cur_id = a;
            u64map_put(&st->txn_ids, (uint64_t)a, cur);
            break;
        case 'C': case 'A':
            if (!get_i64(r, &a, "the transaction id", at, (char)type, err)) return 0;
            if (cur == HISTORY_NONE) {
                ic_error_at_offset(err, r->name, (long long)at, "expected 'S' before '%c', found '%c' outside a transaction", type, type);
                return 0;
            }
            if (a != cur_id) {
                ic_error_at_offset(err, r->name, (long long)at, "expected '%c' for transaction %" PRId64 ", found one for %" PRId64,
                                   type, cur_id, a);
                return 0;
            }
            hb_txn_status(st->b, cur, type == 'C' ? TXN_COMMITTED : TXN_ABORTED);
            cur = HISTORY_NONE;
            break;
        case 'W':
            if (!parse_write(st, r, at, cur)) return 0;
            break;
        case 'R':
            if (!parse_read(st, r, at, cur)) return 0;
            break;
        default:
            ic_error_at_offset(err, r->name, (long long)at,
                               "expected a record type 'S', 'C', 'A', 'W' or 'R', found byte 0x%02x", type);
            return 0;
        }
    }
    if (r->io_error) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); return 0; }
    if (cur != HISTORY_NONE) {
        ic_error_at_offset(err, r->name, (long long)r->offset,
                           "expected 'C' or 'A' ending transaction %" PRId64 ", found end of file (truncated log?)", cur_id);
        return 0;
    }
    return 1;
}

history *parse_cobra_logs(input *logs, size_t n, const char *source, load_report *rep, ic_error *err) {
    cobra_state st;
    state_init(&st, source, rep, err);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        uint32_t sess = hb_session(st.b, (int64_t)i, logs[i].name);
        ok = parse_log(&st, &logs[i], sess);
    }
    return state_finish(&st, ok);
}

history *parse_cobra_dir(const char *dir, load_report *rep, ic_error *err) {
    size_t n;
    char **paths = log_dir_list(dir, "Cobra logs", &n, err);
    if (!paths) return NULL;
    cobra_state st;
    state_init(&st, dir, rep, err);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {      /* one log open at a time */
        input r;
        ok = input_open(&r, paths[i], err);
        if (ok) {
            ok = parse_log(&st, &r, hb_session(st.b, (int64_t)i, paths[i]));
            input_close(&r);
        }
    }
    log_dir_free(paths);
    return state_finish(&st, ok);
}
