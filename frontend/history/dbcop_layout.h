/* dbcop_layout.h — the bytes of dbcop's binary history (Rust bincode,
 * little endian), for the two writers: frontend/formats/write_dbcop.c
 * (from a history) and workload/gen_writer.c (streamed from the
 * simulator), so that both write one layout.  The reader,
 * frontend/formats/parse_dbcop.c, reads the same:
 *
 *   u64 id, n_node, n_variable, n_transaction, n_event
 *   3 x string (u64 length + bytes): info, start, end
 *   u64 n_sessions, per session: u64 n_txns, per txn:
 *       u64 n_events, per event: u8 write, u64 key, u64 value, u8 success
 *       u8 committed
 *
 * Value 0 is the initial value.  The layout sits beside the history model
 * because the workload may include history/ but not formats/
 * (tests/layering.sh). */
#ifndef ISOCHECK_DBCOP_LAYOUT_H
#define ISOCHECK_DBCOP_LAYOUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Bytes of a transaction of n events: its count, the events, committed. */
#define DBCOP_TXN_BYTES(n) (8 + (size_t)(n) * 18 + 1)

static inline unsigned char *dbcop_le64(unsigned char *b, uint64_t x) {
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (8 * i));
    return b + 8;
}

static inline void dbcop_put_u64(FILE *out, uint64_t x) {
    unsigned char b[8];
    dbcop_le64(b, x);
    fwrite(b, 1, 8, out);
}

/* Everything before the first session: id 0, the counts (n_node is the
 * number of sessions), info "written by isocheck", empty start and end,
 * n_sessions. */
static inline void dbcop_put_header(FILE *out, uint64_t sessions, uint64_t keys, uint64_t txns, uint64_t events) {
    static const char info[] = "written by isocheck";
    dbcop_put_u64(out, 0);
    dbcop_put_u64(out, sessions);
    dbcop_put_u64(out, keys);
    dbcop_put_u64(out, txns);
    dbcop_put_u64(out, events);
    dbcop_put_u64(out, strlen(info));
    fwrite(info, 1, strlen(info), out);
    dbcop_put_u64(out, 0);
    dbcop_put_u64(out, 0);
    dbcop_put_u64(out, sessions);
}

/* One transaction into b (DBCOP_TXN_BYTES(n) bytes): dbcop_txn_begin,
 * n times dbcop_txn_event, dbcop_txn_end; each returns the next byte. */
static inline unsigned char *dbcop_txn_begin(unsigned char *b, uint64_t n) { return dbcop_le64(b, n); }

static inline unsigned char *dbcop_txn_event(unsigned char *b, int write, uint64_t key, uint64_t value, int success) {
    *b++ = (unsigned char)(write != 0);
    b = dbcop_le64(b, key);
    b = dbcop_le64(b, value);
    *b++ = (unsigned char)(success != 0);
    return b;
}

static inline unsigned char *dbcop_txn_end(unsigned char *b, int committed) {
    *b++ = (unsigned char)(committed != 0);
    return b;
}

#endif
