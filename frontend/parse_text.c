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
 * error. */
#include "frontend/parse.h"

#include <inttypes.h>
#include <string.h>

#include "vec.h"
#include "frontend/lex.h"
#include "frontend/u64map.h"

static int expect_int(const char **p, int64_t *v, const char *what, input *r, ic_error *err) {
    char fb[48];
    int rc = lex_digits_i64(p, v);
    if (rc == 1) return 1;
    if (rc < 0) ic_error_at(err, r->name, r->line, "%s out of range (at most 9223372036854775807)", what);
    else ic_error_at(err, r->name, r->line, "expected %s (digits 0-9, no sign), found %s", what, lex_found(*p, fb, sizeof fb));
    return 0;
}

static int expect_char(const char **p, char c, const char *after, input *r, ic_error *err) {
    char fb[48];
    if (**p == c) { (*p)++; return 1; }
    ic_error_at(err, r->name, r->line, "expected '%c' after %s, found %s", c, after, lex_found(*p, fb, sizeof fb));
    return 0;
}

history *parse_text(input *r, const load_options *opt, load_report *rep, ic_error *err) {
    (void)opt;
    history_builder *b = hb_new(FORMAT_TEXT, LOC_LINE, r->name);
    u64map txn_ids;                 /* ext txn id -> builder txn */
    vec_u32 txn_session;            /* builder txn -> builder session */
    u64map_init(&txn_ids);
    vec_init(txn_session);
    size_t len;
    char *line;
    char fb[48];
    int have_last = 0, have_init = 0;
    int64_t last_txn = 0, last_sess = 0, init_txn = 0, init_sess = 0;
    long init_line = 0;
    uint64_t merged = 0;
    uint32_t last_t = 0;
    while ((line = input_line(r, &len))) {
        if (len != strlen(line)) { ic_error_at(err, r->name, r->line, "expected text, found a NUL byte"); goto fail; }
        const char *p = line;
        lex_space(&p);
        if (!*p || *p == '#') continue;
        if (rep) rep->records++;
        unsigned kind;
        if ((p[0] == 'r' || p[0] == 'w') && p[1] == '(') kind = p[0] == 'r' ? OP_READ : OP_WRITE;
        else { ic_error_at(err, r->name, r->line, "expected 'r(' or 'w(', found %s", lex_found(p, fb, sizeof fb)); goto fail; }
        p += 2;
        int64_t key, value, sess, txn;
        if (!expect_int(&p, &key, "key", r, err) || !expect_char(&p, ',', "the key", r, err) ||
            !expect_int(&p, &value, "value", r, err) || !expect_char(&p, ',', "the value", r, err) ||
            !expect_int(&p, &sess, "session id", r, err) || !expect_char(&p, ',', "the session id", r, err) ||
            !expect_int(&p, &txn, "transaction id", r, err) || !expect_char(&p, ')', "the transaction id", r, err))
            goto fail;
        lex_space(&p);
        if (*p) { ic_error_at(err, r->name, r->line, "expected end of line after ')', found %s", lex_found(p, fb, sizeof fb)); goto fail; }
        if (have_init && txn == init_txn) {              /* the initial-state transaction goes on */
            if (kind != OP_WRITE || value != 0 || sess != init_sess) {
                ic_error_at(err, r->name, r->line,
                            "transaction %" PRId64 " writes the initial value 0 (line %ld), so it stands for the initial "
                            "state and may only write 0 in session %" PRId64 "; found %s",
                            txn, init_line, init_sess, kind == OP_READ ? "a read" : sess != init_sess ? "another session" : "another value");
                goto fail;
            }
            hb_key(b, key);
            merged++;
            continue;
        }
        if (value == 0) {
            if (kind == OP_WRITE) {
                if (have_init || have_last) {            /* only the file's first transaction */
                    ic_error_at(err, r->name, r->line,
                                "value 0 is the initial value and cannot be written (only the first transaction of "
                                "the file, all of whose operations write 0, may: it stands for the initial state)");
                    goto fail;
                }
                have_init = 1;                            /* IsoVista's explicit initial state */
                init_txn = txn;
                init_sess = sess;
                init_line = r->line;
                hb_key(b, key);
                merged++;
                continue;
            }
            value = VALUE_INIT;
        }
        if (have_last && txn == last_txn && sess == last_sess) {   /* the common case: same txn */
            hb_op(b, last_t, kind, hb_key(b, key), value, (uint32_t)r->line);
            continue;
        }
        uint32_t s = hb_session(b, sess, NULL);
        uint32_t t = u64map_get(&txn_ids, (uint64_t)txn);
        if (t == UINT32_MAX) {
            t = hb_txn(b, s, txn, (uint32_t)r->line);
            u64map_put(&txn_ids, (uint64_t)txn, t);
            vec_push(txn_session, s);
        } else if (txn_session.data[t] != s) {
            ic_error_at(err, r->name, r->line, "transaction %" PRId64 " appears in two sessions (duplicate transaction id?)", txn);
            goto fail;
        }
        hb_op(b, t, kind, hb_key(b, key), value, (uint32_t)r->line);
        have_last = 1; last_txn = txn; last_sess = sess; last_t = t;
    }
    if (r->io_error) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); goto fail; }
    if (have_init && rep) {
        rep->init_merged += merged;
        load_report_note(rep, "note", "transaction %" PRId64 " (session %" PRId64 ", line %ld) writes only the initial "
                         "value 0: read as the initial state (%" PRIu64 " writes merged)", init_txn, init_sess, init_line, merged);
    }
    u64map_free(&txn_ids);
    vec_free(txn_session);
    return hb_finish(b, err);
fail:
    u64map_free(&txn_ids);
    vec_free(txn_session);
    hb_free(b);
    return NULL;
}
