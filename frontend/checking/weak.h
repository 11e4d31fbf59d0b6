/* weak.h — read committed, read atomic and causal consistency (doc/levels.md)
 * decided by saturation, without any search (doc/checker.md, "The weak
 * levels").
 *
 * For rc, ra and cc the premise of the axiom does not depend on the commit
 * order, so the level holds iff the graph
 *     B ∪ L ∪ {t2 → t1 : premise(t2, α)}            (B = SO ∪ WR)
 * is acyclic with INIT first, where α is an external read of key x by t3
 * from t1 and t2 ∉ {t1, t3} writes x, and L orders a list key's writers as
 * its reads show them (the writers no read shows after the last shown one).
 * weak_check() builds that graph with only the premise edges that no other
 * edge implies and sorts it:
 *   PASS  out->order is a commit order: every participant once, INIT first,
 *         a topological order of the graph (checkable by cert_weak_check,
 *         frontend/recheck/certificate.h, which shares no code with this);
 *   FAIL  out->cycle is a short cycle of the graph (a shortest one through
 *         the nodes tried: breadth-first), each edge with its basis, and
 *         out->anomaly names it in Plume's terms;
 *   UNKNOWN the history breaks an axiom weak_check relies on (the axioms
 *         stage, frontend/checking/axioms.c, runs first and reports those).
 * Participants are the caller's (history_participants()); aborted and
 * unobserved indeterminate transactions take no part.  The history is only
 * read. */
#ifndef ISOCHECK_WEAK_H
#define ISOCHECK_WEAK_H

#include <stdint.h>

#include "vec.h"
#include "frontend/history/dep_edge.h"
#include "frontend/history/history.h"
#include "frontend/history/levels.h"
#include "frontend/history/verdict.h"

/* Why an edge of the saturated graph is there. */
typedef enum {
    WB_SO = 0,        /* from precedes to in a session */
    WB_WR,            /* to's external read `read_op` of key reads from's version */
    WB_LIST,          /* list key `key`: read `read_op` shows from's appends before to's, or
                         shows from's as its last and none of to's */
    WB_PREMISE,       /* from → to, both writing key: to's version was read by `read_op`
                         (α, in transaction `reader`) while from was visible to the reader
                         (`via`, `vis_op`) */
    WB_INIT           /* INIT precedes every transaction (its version of key is the first) */
} weak_basis;

/* How the writer t2 of a premise edge is visible to the reader t3. */
typedef enum {
    WV_NONE = 0,
    WV_EARLIER,       /* rc: t3 read another key from t2 before α (vis_op: that read) */
    WV_READ,          /* ra: t3 read from t2 (vis_op: that read; of the same key: a non-repeatable read) */
    WV_SESSION,       /* ra: t2 precedes t3 in t3's session */
    WV_CAUSAL         /* cc: a path of SO and WR edges from t2 to t3 (path_first .. + path_len) */
} weak_via;

typedef struct weak_edge {
    uint32_t from, to;       /* transactions */
    uint32_t key;            /* HISTORY_NONE for SO */
    uint32_t read_op;        /* WR, LIST, PREMISE (α); else HISTORY_NONE */
    uint32_t reader;         /* PREMISE: t3 */
    uint32_t vis_op;         /* PREMISE with WV_EARLIER / WV_READ: t3's read from t2 */
    uint32_t path_first, path_len;   /* PREMISE with WV_CAUSAL: weak_result.paths[...], t2 to t3 */
    uint8_t basis;           /* weak_basis */
    uint8_t via;             /* weak_via */
} weak_edge;
typedef VEC(weak_edge) weak_edge_vec;

typedef struct weak_result {
    check_level_id level;
    verdict verdict;
    uint32_t *order;         /* PASS: the commit order (transactions, INIT first) */
    uint32_t order_len;
    weak_edge_vec cycle;     /* FAIL: edge i ends where edge i + 1 starts, the last where the first starts */
    weak_edge_vec paths;     /* the causal paths of WV_CAUSAL premise edges (SO and WR edges) */
    const char *anomaly;     /* FAIL: "CyclicCO", "write cycle", "non-monotonic read", "fractured read", ... */
    const char *tap;         /* FAIL: the TAP letters of Plume ("TAP-g", "TAP-k/l", ...) or Elle's G0/G1c names */
    char msg[512];           /* one line: the verdict's reason */
    uint64_t premise_edges, edges, participants;   /* statistics */
    double t_index, t_premise, t_sort;              /* seconds: reading the history, premise edges, sorting */
} weak_result;

/* Decide rc, ra or cc (level_shape_of(level) is SHAPE_WEAK_*).  part:
 * history_participants(h).  cc's reads are split into tasks on pool (par.h;
 * NULL: the caller's thread); the result is the same for every pool.  out
 * is overwritten (free with weak_result_free). */
struct par_pool;
verdict weak_check(const history *h, const uint8_t *part, check_level_id level, struct par_pool *pool, weak_result *out);
/* The same for each of levels[0 .. n) into out[0 .. n), the history read
 * once for all of them (the index, with its list edges, is each level's
 * start; the premise edges and the sort are each level's own). */
void weak_check_levels(const history *h, const uint8_t *part, const check_level_id *levels, size_t n,
                       struct par_pool *pool, weak_result *out);
void weak_result_free(weak_result *r);

/* The strong levels' choices of writers shared by a run's rc, ra and cc
 * (weak_propose.h, where the rest of its interface is). */
typedef struct weak_proposals weak_proposals;
weak_proposals *weak_proposals_new(void);
void weak_proposals_free(weak_proposals *p);

/* For tests: cc scans a key's writers when they number at most 2 per
 * session writing it + slack (default 16), else searches each session's
 * (the answer is the same; a test reaches both ways with a slack of
 * INT_MIN / 2, always search, or INT_MAX / 2, always scan). */
void weak_set_scan_slack(int slack);

/* The cycle as dependency edges (SO, WR; LIST, PREMISE and INIT as WW of
 * their key: each orders two writers of that key), appended to out. */
void weak_cycle_deps(const weak_result *r, dep_edge_vec *out);

/* One line describing edge e of r (for reports and tests). */
void weak_edge_describe(const history *h, const weak_result *r, const weak_edge *e, char *buf, size_t n);

#endif
