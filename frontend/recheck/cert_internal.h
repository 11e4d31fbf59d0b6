/* cert_internal.h — what the certificate verifier's files share (not for
 * use outside frontend/recheck/: tests/layering.sh).
 *
 * Names in the verifier's messages: a transaction as "INIT" or
 * "txn EXTID", an operation's value as a number, "init" or a list
 * "[1 2 3]" (cut with " ...]" when it does not fit; HISTORY_NONE: "init").
 * Each returns buf. */
#ifndef ISOCHECK_CERT_INTERNAL_H
#define ISOCHECK_CERT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/history/history.h"

const char *cert_txn_name(const history *h, uint32_t t, char *buf, size_t n);
const char *cert_value_str(const history *h, uint32_t op, char *buf, size_t n);

#endif
