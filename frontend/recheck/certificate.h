/* certificate.h — a checkable proof that a history satisfies a level (si,
 * ser, and the other searched levels: cert_form below), and its
 * verification.
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
 * Independence.  The verifier derives all of this from the raw operations
 * itself and shares no code with the checker: it includes nothing of the
 * pipeline (tests/layering.sh, part "recheck"), only the history model and
 * the version-order and dependency types.
 *
 * Certificates are made by the checker's builder (reports/cert_build.h,
 * through cert_edges() below) and written and read by reports/cert_file.h.
 * Transactions are named by their external id, or "#index" when the
 * history's external ids are not unique; keys by their external key (a
 * quoted string for string keys). */
#ifndef ISOCHECK_CERTIFICATE_H
#define ISOCHECK_CERTIFICATE_H

#include <stdint.h>

#include "error.h"
#include "vec.h"
#include "frontend/history/dep_edge.h"
#include "frontend/history/history.h"
#include "frontend/history/levels.h"
#include "frontend/history/version_order.h"

typedef enum { CERT_OK = 0, CERT_REJECT = 1, CERT_MALFORMED = 2 } cert_status;

/* What a level's certificate is and what verify checks (cert_forms.c has
 * the table, one row a level; doc/certificate.md the argument):
 *   events     the commit order orders start and commit events (sT, cT):
 *              D edges a -> b need cA before sB, RW b -> c sB before cC;
 *              else it orders transactions, every edge a -> b a before b;
 *   ordered    0: no commit order at all (psi: the version orders alone,
 *              and a graph check: D = SO ∪ WR ∪ WW acyclic and no RW edge
 *              r -> c with c D+ r);
 *   so, rt     session order / real-time edges are checked (RT a -> b:
 *              a committed, complete(a) < invoke(b): as a D edge);
 *   ww_commit  pc: a WW edge a -> b needs cA before cB (not before sB);
 *   weak       rc, ra, cc: the commit order of transactions alone, no
 *              version orders (no 'key' line), checked by
 *              cert_weak_verify (below).
 * rr is unordered too (no commit order: its cycles with predicate
 * anti-dependencies alone have none); its graph check is cert_check_rr. */
typedef struct cert_form {
    check_level_id level;
    int events, ordered, so, rt, ww_commit, weak;
} cert_form;
/* The level's form, or NULL when it has no certificate (yet). */
const cert_form *cert_form_of(check_level_id level);

/* SI order events: txn << 1 | 0 for its start, txn << 1 | 1 for its commit. */
#define CERT_START(t)  ((uint32_t)(t) << 1)
#define CERT_COMMIT(t) (((uint32_t)(t) << 1) | 1u)

typedef struct certificate {
    check_level_id level;    /* the level it proves (the file's 'level' line) */
    int si;                  /* its form's events: 1 the order is of events, 0 of transactions */
    version_order vo;        /* num_keys == the history's */
    uint32_t *key_line;      /* per key: line of its entry when read from a file (0: absent / built) */
    vec_u32 order;           /* SER: txns; SI: events; INIT excluded */
    vec_u32 order_line;      /* per order entry: its line when read from a file */
    char file[256];          /* name for messages ("" when built) */
    /* Reads of a value several transactions wrote to the key (issue 35):
     * triples (reader txn, key, writer txn), sorted by (reader, key): the
     * version that transaction's reads of the key show.  A read of such a
     * value needs one; the verifier checks the writer installed the value.
     * Several triples of one (reader, key), in a row (one 'read' line):
     * the writer of each of its external reads of the key in program order
     * (rc, whose reads of a key may see different versions; a level with
     * one version a transaction rejects differing writers). */
    vec_u32 reads_from;
    vec_u32 reads_from_line;     /* per triple: its line when read from a file */
    /* Predicate reads' views of keys they did not return, where the
     * history leaves the version a choice (issue 34; doc/certificate.md,
     * "view"): quadruples (reader txn, n, key, writer txn or 0 for INIT),
     * sorted by (reader, n, key): the n-th predicate read (1-based, in
     * the order of h->preds->reads) of the reader saw the writer's version
     * of the key, which must not match its predicate. */
    vec_u32 views;
    vec_u32 views_line;          /* per quadruple: its line when read from a file */
} certificate;
/* The writer a certificate names for txn t's reads of key k (its first
 * when it names one per read), or HISTORY_NONE. */
uint32_t cert_read_from(const certificate *c, uint32_t t, uint32_t k);

/* The writer c's view line names for the n-th predicate read of t and key
 * k (HISTORY_NONE: none), *line its line (may be NULL). */
uint32_t cert_view_of(const certificate *c, uint32_t t, uint32_t n, uint32_t k, uint32_t *line);
/* Per predicate read of h (h->preds->reads), its number n among its
 * transaction's predicate reads, 1-based (NULL when h has none; free()). */
uint32_t *cert_pred_numbers(const history *h);
/* cert_view.c: a lowered op of a predicate read that did not return its
 * key (history_op_pred, not returned) under c's view lines, or a read of
 * nil whose absent version is a choice (predicate.h, preds_is_nil_choice)
 * under its read line (the version must be absent): CV_NONE the op is no
 * such op; CV_NOLINE it has no view line (its own value stands: a
 * version the history decided, or a marker no write installed, whose view
 * the certificate must name); CV_OK *v is the named writer's version of
 * the key (VALUE_INIT: INIT's), which does not match the read's predicate,
 * *w the writer; CV_BAD *bad says why the line is wrong.  *line: the view
 * line (0: none).  num: cert_pred_numbers(h). */
enum { CV_BAD = -1, CV_NONE = 0, CV_NOLINE = 1, CV_OK = 2 };
int cert_view_value(const history *h, const certificate *c, const uint32_t *num, uint32_t op, int64_t *v, uint32_t *w,
                    uint32_t *line, const char **bad);

void cert_init(certificate *c);
void cert_free(certificate *c);

/* Check c against h for the level (si: 1 SI, 0 SER; a SER certificate
 * also proves SI, an SI one does not prove SER).  CERT_OK, or CERT_REJECT
 * with err naming the first broken condition (and the certificate line
 * where one applies).  *edges_checked (may be NULL) gets the edge count. */
cert_status cert_verify(const history *h, const certificate *c, int si, ic_error *err, uint64_t *edges_checked);
/* The same for any level with a form: c must be a certificate of that
 * level (or of ser when level is si).  rc, ra, cc: c->order (INIT not
 * listed) through cert_weak_verify. */
cert_status cert_verify_level(const history *h, const certificate *c, check_level_id level, ic_error *err,
                              uint64_t *edges_checked);

/* cert_forms.c: the checks beyond one comparison an edge.  The real-time
 * edges against the positions of commits (pc) and starts or, for orders of
 * transactions, the same positions (ps == pc): per transaction b, every
 * committed a with complete(a) < invoke(b) must have pc[a] < ps[b].  The
 * psi graph check of the edges cert_edges gives.  1, or 0 with err set. */
int cert_check_rt(const history *h, const certificate *c, const uint8_t *part, const uint32_t *pc, const uint32_t *ps,
                  ic_error *err);
int cert_check_psi(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                   ic_error *err, uint64_t *edges);
/* cert_rr.c: rr's check of the version orders (SO ignored): WR ∪ WW acyclic
 * (G1c) and no item anti-dependency on a cycle of WR ∪ WW ∪ RW (G2-item);
 * an RW edge is a predicate anti-dependency when its reader reads the key
 * by predicate only (every read of it before the reader's own first write
 * is a lowered predicate read op that did not return the key). */
int cert_check_rr(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                  ic_error *err, uint64_t *edges);
/* The check of an unordered form: cert_check_rr for rr, else cert_check_psi. */
int cert_check_graph(const history *h, const certificate *c, const version_order *vo, const uint8_t *part,
                     ic_error *err, uint64_t *edges);

/* The verifier's reading of h under vo, for the builder too: checks that
 * vo lists exactly the writers among the participants part[] (per
 * transaction, 1: it takes part) and that every participant's reads
 * replay consistently against it, and calls fn once per edge a commit
 * order must respect: SO (sessions in order), then per key its WW chain,
 * then per participant in transaction order, per key, WR from the version
 * it reads and RW to the next one.  read_op is the read that shows the
 * version (WR: in `to`, RW: in `from`), wop_from and wop_to the writes
 * (WW: both; WR: from's; RW: to's), HISTORY_NONE where there is none.  fn
 * returns 0 to stop (having set err).  c (may be NULL) names the file and
 * lines in messages.  1, or 0 with err set. */
typedef int (*cert_edge_fn)(void *ctx, const dep_edge *e, uint32_t read_op, uint32_t wop_from, uint32_t wop_to);
int cert_edges(const history *h, const version_order *vo, const certificate *c, const uint8_t *part,
               cert_edge_fn fn, void *ctx, ic_error *err);

/* The weak levels (rc, ra, cc: doc/levels.md), certified by a commit order
 * alone: order[0 .. len) must list every participant once (INIT first;
 * participants as doc/levels.md defines them, recomputed here), and
 * cert_weak_verify() accepts iff every participant's reads are valid (no
 * thin-air, aborted, future, intermediate read; register reads after an
 * own write show the last one; a list read is its external prefix followed
 * by the own appends so far, the prefix whole appends of distinct
 * writers), the order contains SO and WR, each list read's prefix shows
 * exactly the writers of its key up to its source in the order, in that
 * order, and for every external read α of x by t3 from t1 no writer t2 of
 * x that the level makes visible to t3 (rc: the source of an earlier read
 * of t3 of another key; ra: a source of a read of t3 or a session
 * predecessor; cc: a transaction that reaches t3 by SO and WR edges) comes
 * after t1.  One pass over the history in the given order plus, per read,
 * its earlier reads (rc), its transaction's reads (ra) or a binary search
 * per session writing x (cc, with vector clocks over the sessions).  It
 * shares no code with the checker (frontend/checking/weak*.c).  level is a
 * check_level_id (LEVEL_RC, LEVEL_RA or LEVEL_CC); anything else is
 * CERT_MALFORMED.  CERT_REJECT with err naming the first broken condition. */
cert_status cert_weak_verify(const history *h, int level, const uint32_t *order, uint32_t len, ic_error *err);
/* The same with the certificate's read lines (reads: nreads triples
 * reader, key, writer, sorted by reader then key; issue 35): a register
 * read of a value several transactions wrote (INIT's initial value
 * included) needs a line for its transaction and key, and reads from the
 * writer it names, which must be a participant other than the reader whose
 * last write of the key is that value (a read of a unique value ignores
 * the line: at rc a later read of the key may show another version).  The
 * named writer is the read's source everywhere
 * above (the order, the premises), and an indeterminate one it names takes
 * part.  cert_weak_verify is this with no lines. */
cert_status cert_weak_verify_reads(const history *h, int level, const uint32_t *order, uint32_t len,
                                   const uint32_t *reads, size_t nreads, ic_error *err);
/* The same with c's read lines and view lines (a predicate read's view of a
 * key it did not return, cert_view_value, is then the read's source like
 * any other read's). */
cert_status cert_weak_verify_cert(const history *h, int level, const uint32_t *order, uint32_t len,
                                  const certificate *c, ic_error *err);

#endif
