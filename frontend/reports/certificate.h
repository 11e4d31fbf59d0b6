/* certificate.h — a checkable proof that a history satisfies SI or SER.
 *
 * A certificate is (doc/certificate.md has the file format and the
 * argument why the checks below suffice):
 *   - per key a version order: INIT, then every participating writer of
 *     the key once (participating: committed, or indeterminate and listed
 *     in the commit order — the certificate claims it committed);
 *   - a commit order: SER, a total order of the participating
 *     transactions; SI, a total order of their start and commit events
 *     (INIT's are implicitly first).
 * cert_verify() accepts iff the version orders are permutations of the
 * participants' writers, every participant's reads replay consistently
 * against them (one snapshot per key: a register read before an own write
 * shows the snapshot's value, after it the own write; a list read shows
 * the snapshot's list followed by the own appends so far — INT and the
 * read axioms follow), and every SO, WR, WW (consecutive versions) and RW
 * (reader of version i -> writer of version i+1) edge respects the commit
 * order:
 *   SER  a before b;
 *   SI   D edge a->b: a commits before b starts; RW edge b->c: b starts
 *        before c commits; every transaction starts before it commits.
 * That is one pass over the history plus O(1) per edge: no solver, no
 * graph search.
 *
 * The verifier derives all of this from the raw operations itself and
 * shares no code with the checker's interpretation of reads.
 *
 * cert_build() makes a certificate from a version order found by the
 * checker (the commit order is a topological order of the same edges; the
 * indeterminate transactions the version order lists are put in it).
 * Transactions are named by their external id, or "#index" when the
 * history's external ids are not unique; keys by their external key (a
 * quoted string for string keys). */
#ifndef ISOCHECK_CERTIFICATE_H
#define ISOCHECK_CERTIFICATE_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/history.h"
#include "frontend/checking/polygraph.h"
#include "io/input.h"
#include "frontend/checking/verify_model.h"

typedef enum { CERT_OK = 0, CERT_REJECT = 1, CERT_MALFORMED = 2 } cert_status;

/* SI order events: txn << 1 | 0 for its start, txn << 1 | 1 for its commit. */
#define CERT_START(t)  ((uint32_t)(t) << 1)
#define CERT_COMMIT(t) (((uint32_t)(t) << 1) | 1u)

typedef struct certificate {
    int si;                  /* 1: SI (events), 0: SER (transactions) */
    version_order vo;        /* num_keys == the history's */
    uint32_t *key_line;      /* per key: line of its entry when read from a file (0: absent / built) */
    vec_u32 order;           /* SER: txns; SI: events; INIT excluded */
    vec_u32 order_line;      /* per order entry: its line when read from a file */
    char file[256];          /* name for messages ("" when built) */
} certificate;

void cert_init(certificate *c);
void cert_free(certificate *c);

/* From a version order (listing every participating writer of every key):
 * computes the commit order.  CERT_OK, or CERT_REJECT with err set when
 * the version order is not a witness for the level. */
cert_status cert_build(const history *h, const version_order *vo, int si, certificate *c, ic_error *err);

/* Write in the text format of doc/certificate.md. */
void cert_write(FILE *out, const history *h, const certificate *c);

/* Read a certificate for history h.  CERT_MALFORMED: a syntax error
 * (err: file:line, expected/found); CERT_REJECT: well-formed but names a
 * key or transaction the history does not have, or a key twice. */
cert_status cert_read(input *r, const history *h, certificate *c, ic_error *err);

/* Check c against h for the level (si: 1 SI, 0 SER; a SER certificate
 * also proves SI, an SI one does not prove SER).  CERT_OK, or CERT_REJECT
 * with err naming the first broken condition (and the certificate line
 * where one applies).  *edges_checked (may be NULL) gets the edge count. */
cert_status cert_verify(const history *h, const certificate *c, int si, ic_error *err, uint64_t *edges_checked);

#endif
