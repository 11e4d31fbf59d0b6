/* parse_dbcop.c — dbcop's binary history (Rust bincode, little endian):
 *
 *   u64 id, n_node, n_variable, n_transaction, n_event
 *   3 x string (u64 length + UTF-8 bytes): info, start, end
 *   u64 n_sessions, per session: u64 n_txns, per txn:
 *       u64 n_events, per event: u8 write, u64 key, u64 value, u8 success
 *       u8 committed
 *
 * Value 0 is the initial value.  Unlike PolySI (which drops them), failed
 * events are kept with OP_FAILED and uncommitted transactions as aborted:
 * reading an aborted write is an anomaly worth reporting.  The header
 * counts are informational and not checked.  Bytes after the last session
 * are an error.
 *
 * A committed transaction with a failed event (a client whose COMMIT of an
 * already-failed transaction returned OK) is suspicious: the load report
 * gets a warning naming such transactions, and with the load option
 * failed_ops_abort they are aborted instead. */
#include "frontend/parse.h"

#include <inttypes.h>
#include <string.h>

typedef struct dbcop_in { input *r; ic_error *err; } dbcop_in;

static int get_u64(dbcop_in *in, uint64_t *v, const char *what) {
    unsigned char b[8];
    uint64_t at = in->r->offset;
    size_t got = input_read(in->r, b, 8);
    if (got < 8) {
        ic_error_at_offset(in->err, in->r->name, (long long)at,
                           "expected %s (8 bytes), found %s", what, got ? "a truncated field" : "end of file");
        return 0;
    }
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | b[i];
    *v = x;
    return 1;
}

static int get_bool(dbcop_in *in, int *v, const char *what) {
    unsigned char c;
    uint64_t at = in->r->offset;
    if (input_read(in->r, &c, 1) < 1) {
        ic_error_at_offset(in->err, in->r->name, (long long)at, "expected %s (1 byte), found end of file", what);
        return 0;
    }
    if (c > 1) {
        ic_error_at_offset(in->err, in->r->name, (long long)at, "expected %s (0 or 1), found 0x%02x", what, c);
        return 0;
    }
    *v = c;
    return 1;
}

static int skip_string(dbcop_in *in, const char *what) {
    uint64_t n, at;
    if (!get_u64(in, &n, what)) return 0;
    at = in->r->offset;
    unsigned char buf[4096];
    while (n > 0) {
        size_t chunk = n < sizeof buf ? (size_t)n : sizeof buf;
        size_t got = input_read(in->r, buf, chunk);
        if (got < chunk) {
            ic_error_at_offset(in->err, in->r->name, (long long)at,
                               "expected %s of %" PRIu64 " bytes, found end of file", what, n);
            return 0;
        }
        n -= chunk;
    }
    return 1;
}

static uint32_t sat32(uint64_t x) { return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x; }

#define NAMED_SUSPECTS 5

/* The warning (or note, when they were aborted) about committed
 * transactions with failed events. */
static void report_failed_in_committed(load_report *rep, const char *name, const int64_t *ids, const uint64_t *at,
                                       size_t named, int aborted) {
    if (!rep || !rep->failed_in_committed) return;
    char list[400];
    size_t len = 0;
    list[0] = 0;
    for (size_t i = 0; i < named && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%stxn %" PRId64 " (%s: byte %" PRIu64 ")", i ? ", " : "",
                                ids[i], name, at[i]);
    char more[48] = "";
    if (rep->failed_in_committed > named)
        snprintf(more, sizeof more, " and %" PRIu64 " more", rep->failed_in_committed - named);
    if (aborted)
        load_report_note(rep, "note", "%" PRIu64 " committed transactions contain failed operations: %s%s; "
                         "treated as aborted (--failed-ops-abort)", rep->failed_in_committed, list, more);
    else
        load_report_note(rep, "warning", "%" PRIu64 " committed transactions contain failed operations "
                         "(their COMMIT returned OK after an operation failed): %s%s; they are checked as committed "
                         "without the failed operations; --failed-ops-abort treats them as aborted",
                         rep->failed_in_committed, list, more);
}

history *parse_dbcop(input *r, const load_options *opt, load_report *rep, ic_error *err) {
    int64_t suspect_id[NAMED_SUSPECTS];
    uint64_t suspect_at[NAMED_SUSPECTS];
    size_t suspects = 0;
    int abort_failed = opt && opt->failed_ops_abort;
    dbcop_in in = { r, err };
    history_builder *b = hb_new(FORMAT_DBCOP, LOC_OFFSET, r->name);
    static const char *const header[] = { "header id", "header n_node", "header n_variable",
                                          "header n_transaction", "header n_event" };
    uint64_t v, n_sessions;
    for (int i = 0; i < 5; i++)
        if (!get_u64(&in, &v, header[i])) goto fail;
    if (!skip_string(&in, "info string") || !skip_string(&in, "start time string") ||
        !skip_string(&in, "end time string"))
        goto fail;
    if (!get_u64(&in, &n_sessions, "number of sessions")) goto fail;
    int64_t txn_id = 1;
    for (uint64_t s = 0; s < n_sessions; s++) {
        uint64_t n_txns;
        if (!get_u64(&in, &n_txns, "number of transactions in a session")) goto fail;
        uint32_t sess = hb_session(b, (int64_t)s + 1, NULL);
        for (uint64_t t = 0; t < n_txns; t++) {
            uint64_t n_events, at = r->offset;
            if (!get_u64(&in, &n_events, "number of events in a transaction")) goto fail;
            int64_t ext = txn_id++;
            uint32_t txn = hb_txn(b, sess, ext, sat32(at));
            int has_failed = 0;
            for (uint64_t e = 0; e < n_events; e++) {
                uint64_t key, value, ev_at = r->offset;
                int write, success;
                if (!get_bool(&in, &write, "event flag 'write'") || !get_u64(&in, &key, "event key") ||
                    !get_u64(&in, &value, "event value") || !get_bool(&in, &success, "event flag 'success'"))
                    goto fail;
                int64_t val = (int64_t)value;
                if (val == VALUE_INIT) {
                    ic_error_at_offset(err, r->name, (long long)ev_at + 9, "value %" PRIu64 " is reserved", value);
                    goto fail;
                }
                if (val == 0) {
                    if (write && success) {
                        ic_error_at_offset(err, r->name, (long long)ev_at + 9,
                                           "value 0 is the initial value and cannot be written");
                        goto fail;
                    }
                    val = VALUE_INIT;
                }
                unsigned kind = (write ? OP_WRITE : OP_READ) | (success ? 0 : OP_FAILED);
                hb_op(b, txn, kind, hb_key(b, (int64_t)key), val, sat32(ev_at));
                if (rep) rep->records++;
                if (!success) { has_failed = 1; if (rep) rep->failed_ops++; }
            }
            int committed;
            if (!get_bool(&in, &committed, "transaction flag 'committed'")) goto fail;
            if (committed && has_failed && rep) {
                if (suspects < NAMED_SUSPECTS) { suspect_id[suspects] = ext; suspect_at[suspects++] = at; }
                rep->failed_in_committed++;
                if (abort_failed) rep->failed_aborted++;
            }
            if (!committed || (has_failed && abort_failed)) hb_txn_status(b, txn, TXN_ABORTED);
        }
    }
    const unsigned char *p;
    if (input_peek(r, 1, &p)) {
        ic_error_at_offset(err, r->name, (long long)r->offset, "expected end of file after the last session, found more bytes");
        goto fail;
    }
    report_failed_in_committed(rep, r->name, suspect_id, suspect_at, suspects, abort_failed);
    return hb_finish(b, err);
fail:
    hb_free(b);
    return NULL;
}
