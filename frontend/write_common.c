/* write_common.c — what every writer checks, and the dispatch. */
#include "frontend/write.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "frontend/u64map.h"

int write_check(const history *h, const char *format, int lists_ok, int string_keys_ok,
                int aborted_ok, int indeterminate_ok, int failed_ok, ic_error *err) {
    char wb[600];
    for (uint32_t t = 1; t < h->num_txns; t++) {
        uint8_t st = h->txns[t].status;
        if ((st == TXN_ABORTED && !aborted_ok) || (st == TXN_INDETERMINATE && !indeterminate_ok)) {
            ic_error_at(err, h->source, 0, "cannot write %s transaction (%s) in %s format",
                        st == TXN_ABORTED ? "an aborted" : "an indeterminate", history_txn_where(h, t, wb, sizeof wb), format);
            return 0;
        }
    }
    if (!string_keys_ok)
        for (uint32_t k = 0; k < h->num_keys; k++)
            if (h->key_name[k] != HISTORY_NONE) {
                ic_error_at(err, h->source, 0, "cannot write string key %s in %s format (integer keys only)",
                            h->strings + h->key_name[k], format);
                return 0;
            }
    if (!string_keys_ok && h->num_names) {          /* named values/processes (Elle strings, big integers) */
        for (uint32_t s = 0; s < h->num_sessions; s++)
            if (history_value_is_named(h, h->sessions[s].ext_id)) {
                ic_error_at(err, h->source, 0, "cannot write session %s in %s format (integer sessions only)",
                            h->strings + h->name_off[h->sessions[s].ext_id - VALUE_NAME_BASE], format);
                return 0;
            }
        for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++)
            if (history_op_kind(h, op) != OP_LIST_READ && history_value_is_named(h, h->op_value[op])) {
                ic_error_at(err, h->source, 0, "cannot write value %s (%s) in %s format (integer values only)",
                            h->strings + h->name_off[h->op_value[op] - VALUE_NAME_BASE],
                            history_op_where(h, op, wb, sizeof wb), format);
                return 0;
            }
    }
    for (uint32_t op = h->txns[0].num_ops; op < h->num_ops; op++) {
        op_kind k = history_op_kind(h, op);
        if ((history_op_failed(h, op) && !failed_ok) || ((k == OP_APPEND || k == OP_LIST_READ) && !lists_ok)) {
            ic_error_at(err, h->source, 0, "cannot write %s (%s) in %s format",
                        history_op_failed(h, op) ? "a failed operation" : "a list operation",
                        history_op_where(h, op, wb, sizeof wb), format);
            return 0;
        }
    }
    return 1;
}

int write_check_unique_txn_ids(const history *h, const char *format, ic_error *err) {
    u64map ids;
    u64map_init(&ids);
    int ok = 1;
    for (uint32_t t = 1; t < h->num_txns && ok; t++)
        if (u64map_put(&ids, (uint64_t)h->txns[t].ext_id, t) != t) {
            char wb[600];
            ic_error_at(err, h->source, 0, "cannot write %s in %s format: transaction id %" PRId64 " is used twice",
                        history_txn_where(h, t, wb, sizeof wb), format, h->txns[t].ext_id);
            ok = 0;
        }
    u64map_free(&ids);
    return ok;
}

int history_write(const history *h, history_format fmt, const char *path, ic_error *err) {
    if (fmt == FORMAT_COBRA) {
        if (!strcmp(path, "-")) { ic_error_at(err, "", 0, "cobra output is a directory: give -o DIR"); return 0; }
        return write_cobra(h, path, err);
    }
    FILE *out = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!out) { ic_error_at(err, path, 0, "cannot create: %s", strerror(errno)); return 0; }
    int ok;
    switch (fmt) {
    case FORMAT_TEXT:  ok = write_text(h, out, err); break;
    case FORMAT_DBCOP: ok = write_dbcop(h, out, err); break;
    case FORMAT_ELLE:  ok = write_elle(h, out, err); break;
    default: ic_error_at(err, path, 0, "cannot write this format"); ok = 0; break;
    }
    if (fflush(out) != 0 && ok) { ic_error_at(err, path, 0, "write error: %s", strerror(errno)); ok = 0; }
    if (out != stdout) {
        if (fclose(out) != 0 && ok) { ic_error_at(err, path, 0, "write error: %s", strerror(errno)); ok = 0; }
        if (!ok) remove(path);              /* no half-written histories */
    }
    return ok;
}
