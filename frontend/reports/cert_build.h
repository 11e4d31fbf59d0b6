/* cert_build.h — a certificate from the checker's answer.
 *
 * cert_build() makes a certificate (recheck/certificate.h) from a version
 * order found by the checker: the commit order is a topological order of
 * the edges the verifier will check (cert_edges()), with the indeterminate
 * transactions the version order lists put in it (they committed in this
 * witness).  The verifier then checks what was built (run_check() calls
 * cert_verify() on every certificate it builds). */
#ifndef ISOCHECK_CERT_BUILD_H
#define ISOCHECK_CERT_BUILD_H

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/version_order.h"
#include "frontend/recheck/certificate.h"
#include "frontend/checking/check.h"

/* From a version order (listing every participating writer of every key):
 * computes the commit order.  CERT_OK, or CERT_REJECT with err set when
 * the version order is not a witness for the level. */
cert_status cert_build(const history *h, const version_order *vo, int si, certificate *c, ic_error *err);
/* The same for any level with a certificate form (cert_form_of): its
 * commit order respects the level's edges (no SO for the plain levels;
 * real time, through clock nodes, for strong-si and sser; pc's WW rule),
 * or, for psi, no order: the version order passes the verifier's graph
 * check.  cert_build(.., si, ..) is the level si or ser. */
cert_status cert_build_level(const history *h, const version_order *vo, check_level_id level, certificate *c, ic_error *err);
/* rc, ra, cc (cert_form.weak): the certificate is the commit order the
 * saturation found (weak.h: order[0 .. len), INIT first), INIT left out. */
cert_status cert_build_weak(const history *h, const uint32_t *order, uint32_t len, check_level_id level, certificate *c,
                            ic_error *err);

/* Predicate reads' views (issue 34): the view line of every lowered op of
 * orig whose version is a choice (a predicate read's of a key it did not
 * return), and the read line of every read of nil whose absent version is
 * one (predicate.h, nil_ops), naming the writer `chosen` (orig under the
 * checker's choice, history_with_choice) gave it.  1, or 0 when a choice
 * is neither (no line states it). */
int cert_add_views(const history *orig, const history *chosen, certificate *c);
/* Repeated values (issue 35): per (reader, key) with a read of a value
 * several transactions wrote, the writer each external register read of
 * the key saw under `chosen` (orig resolved under the model's choice), as
 * read lines: one writer when they agree, else one per read in program
 * order (rc). */
void cert_add_reads_from(const history *orig, const history *chosen, certificate *c);

/* A level's PASS (res) as a certificate, verified: built on the history
 * under the model's choice when values repeat (res->chosen), given its read
 * lines (cert_add_reads_from) or a predicate read's view lines
 * (cert_add_views), and verified again against the history as loaded
 * (orig), as `isocheck verify` will.  1 if it verifies, 2 if it verifies
 * under the choice but its lines cannot name it (not to be kept), else 0
 * with msg set. */
int cert_of_result(const history *orig, const history *h, const check_result *res, certificate *c, char *msg, size_t cap);

#endif
