/* cert_round_trip.h — a certificate as `isocheck verify` sees it: written
 * to memory (cert_write), read back against the history (cert_read: it
 * must read, as the file of a certificate just built always does, at the
 * level it names and with the same read lines) and verified at level l.
 * Returns cert_verify_level's status, its message in msg.  Include after
 * cmocka.h and frontend/recheck/certificate.h. */
#ifndef ISOCHECK_TESTS_CERT_ROUND_TRIP_H
#define ISOCHECK_TESTS_CERT_ROUND_TRIP_H

#include <stdio.h>
#include <stdlib.h>

#include "io/input.h"

static inline cert_status cert_round_trip(const history *h, const certificate *c, check_level_id l, char *msg, size_t n) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cert_write(f, h, c);
    assert_int_equal(fclose(f), 0);
    certificate back;
    cert_init(&back);
    input r;
    input_from_mem(&r, buf, len, "cert");
    ic_error err;
    ic_error_clear(&err);
    cert_status st = cert_read(&r, h, &back, &err);
    input_close(&r);
    if (st != CERT_OK) fail_msg("a certificate just written does not read back: %s", err.msg);
    assert_int_equal(back.level, l);
    assert_int_equal(back.reads_from.len, c->reads_from.len);
    st = cert_verify_level(h, &back, l, &err, NULL);
    snprintf(msg, n, "%s", err.msg);
    cert_free(&back);
    free(buf);
    return st;
}

#endif
