/* cert_file.h — certificates (recheck/certificate.h) in the text format of
 * doc/certificate.md: written by `isocheck check --certificate` and
 * `isocheck decode`, read by `isocheck verify`.
 *
 * Transactions are named by their external id, or "#index" when the
 * history's external ids are not unique; keys by their external key (a
 * quoted string for string keys). */
#ifndef ISOCHECK_CERT_FILE_H
#define ISOCHECK_CERT_FILE_H

#include <stdio.h>

#include "error.h"
#include "io/input.h"
#include "frontend/history/history.h"
#include "frontend/recheck/certificate.h"

/* Write c, a certificate for h. */
void cert_write(FILE *out, const history *h, const certificate *c);

/* Read a certificate for history h.  CERT_MALFORMED: a syntax error
 * (err: file:line, expected/found); CERT_REJECT: well-formed but names a
 * key or transaction the history does not have, or a key twice. */
cert_status cert_read(input *r, const history *h, certificate *c, ic_error *err);

#endif
