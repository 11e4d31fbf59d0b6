/* interpret_internal.h — what the parts of the interpreter share (the
 * contract of the whole: interpret.h).
 *
 *   interpret_setup.c    the context: the fact graph, version positions, the
 *                        initial versions' readers and the read-modify-write
 *                        readers, built by whole-history passes in ranges
 *   interpret_facts.c    questions about one transaction or version (its
 *                        external read, the version it read, a list read
 *                        that shows an order), the repaired version order
 *   interpret_cycles.c   violating cycles among a few transactions, and
 *                        short ones in the whole graph avoiding used ones
 *   interpret_explain.c  why a version order fact is forced
 *   interpret.c          the candidate loop and the anomaly records
 *
 * Graphs here are over transactions (SER) or the split nodes of SI, with
 * the graph type, numbering and searches of depgraph.h. */
#ifndef ISOCHECK_INTERPRET_INTERNAL_H
#define ISOCHECK_INTERPRET_INTERNAL_H

#include "frontend/reports/interpret.h"
#include "frontend/reports/classify.h"
#include "frontend/checking/depgraph.h"
#include "frontend/history/u64map.h"

#include <stdatomic.h>

#define NONE UINT32_MAX
#define PAIR(k, t) (((uint64_t)(k) << 32) | (uint64_t)(t))
typedef VEC(uint64_t) ivec_u64;

/* ---- context ------------------------------------------------------------ */

/* The fact graph, one graph for three: the arcs of a node are its known
 * edges (SO, WR, read-modify-write links) in the order they are generated,
 * then its forced edges in the caller's order, then (SI) the fixed arc.
 * cls[j] says which of the nested graphs arc j belongs to, so that reading
 * only the arcs of class <= c gives exactly the graph that class names, in
 * the same arc order as a graph of its own:
 *   CLS_KNOWN   known edges (and fixed arcs)      eid: PG_META(kind, key)
 *   CLS_HOLDS   forced edges that hold under the (repaired) version order
 *   CLS_FORCED  the other forced edges                eid: index in forced
 * A forced arc is CLS_UNSET in cls, which is not written after the set-up,
 * and whether it is in the CLS_HOLDS graph is settled when a search first
 * asks (ictx_arc_within) and kept in holds[] (per forced edge, read and
 * written atomically: a cycle's edges are explained on several threads at
 * once, interpret.c): most are never asked, and asking is a few random
 * accesses into the history, not a pass over every forced edge.
 * No edge list is kept: an arc's edge is rebuilt from its two nodes and eid
 * (arc_edge), and the forced edges are read in the caller's array. */
enum { CLS_KNOWN = 0, CLS_HOLDS = 1, CLS_FORCED = 2, CLS_UNSET = 3 };

typedef struct ictx {
    const history *h;
    const version_order *vo;
    int si;                      /* the split graph: the level is SI-shaped (or psi, searched as SI) */
    int so;                      /* session order is a fact at the level (not for si-plain, ser-plain) */
    int rt;                      /* real-time order is a fact (strong-si, sser; the history has times):
                                    RT edges join the cycles among a few transactions, not the fact
                                    graph (a whole-history search does not look for them) */
    cycle_rule rule;             /* which cycles the level forbids (classify.h) */
    uint8_t *part;
    uint32_t *vsort;             /* per version: each key's slice of vo->txns as positions sorted by
                                    writer, then position (ictx_version_of) */
    uint32_t *lr_start;          /* per key: its participants' list reads lr[lr_start[k]..] */
    vec_u32 lr;
    u64map lpos;                 /* (key, txn) -> index of txn's last element in the key's longest list */
    /* A version's readers are not indexed for the whole history (only the
     * explanations ask, for a few versions): a writer's are its WR arcs of
     * that key in the fact graph (ictx_readers).  INIT writes no arcs, so
     * its readers are kept here: PAIR(key, reader) sorted (reads in
     * transaction order, one external read of a key a transaction).  The
     * lost-update scan needs only the readers that write the key too:
     * PAIR(version, reader), sorted. */
    ivec_u64 init_rd;
    ivec_u64 rmw_rd;
    dg_graph g;                  /* the fact graph (above) */
    uint8_t *cls;                /* per arc: CLS_KNOWN or, for a forced arc, CLS_UNSET */
    _Atomic uint8_t *holds;      /* per forced edge: 0 not asked yet, else CLS_HOLDS or CLS_FORCED */
    uint64_t num_known;          /* known edges (SO, WR, read-modify-write links) */
    int has_forced;              /* forced edges were given: the CLS_HOLDS and CLS_FORCED graphs exist */
    const dep_edge *forced;
    size_t nforced;
    version_order own_vo;        /* vo repaired to agree with the forced WW edges */
    struct par_pool *pool;       /* the set-up's passes run on it (NULL: on the caller alone) */
    int prio;
    const history *amb;          /* h is a choice of writers: the resolved history whose OP_AMBIGUOUS reads
                                    have assumed writers (same op numbers), proofs without them tried first
                                    (interpret_explain.c); NULL: every read's writer is the history's */
    dg_graph strict_g;           /* amb: the fact graph without the arcs resting on an assumed writer, */
    int strict_built;            /* built on its first search (ictx_find_cycle_txns) */
} ictx;


/* ---- the context (interpret_setup.c, interpret_facts.c) ---- */

/* Build the context for the (repaired) version order vo and the level
 * (check_level_id: its split graph, session order, real time and rule);
 * its passes run on pool at priority prio (NULL: on the caller's thread). */
void ictx_init(ictx *c, const history *h, const version_order *vo, int level, const dep_edge *forced, size_t nf,
               struct par_pool *pool, int prio);
/* 1 if a RT b: a committed and completed strictly before b was invoked
 * (both times known; never when c->rt is off). */
int ictx_rt(const ictx *c, uint32_t a, uint32_t b);
void ictx_free(ictx *c);

/* t's external read of key: per key the first op that is not an append, if
 * it is a read (a register read before an own write, any list read: its
 * prefix without the own appends so far, counted in *own, which may be
 * NULL).  NONE: no such read, or t does not take part. */
uint32_t ictx_ext_read(const ictx *c, uint32_t t, uint32_t key, uint32_t *own);
/* The writer txn whose version t's external read of key observed (NONE: no read). */
uint32_t ictx_read_src(const ictx *c, uint32_t t, uint32_t key);
/* t's version of key: its index in vo->txns, or NONE. */
uint32_t ictx_vidx(const ictx *c, uint32_t key, uint32_t t);
/* The first position of t in key's slice of vo->txns, or NONE: ictx_vidx
 * for a t known to write key (a binary search of vsort). */
uint32_t ictx_version_of(const ictx *c, uint32_t key, uint32_t t);
/* The readers of version g of key (its index in vo->txns), in transaction
 * order, appended to out: the participants whose external read of key
 * observed the version's writer's final write (none for a later entry of
 * a writer the key's order lists twice). */
void ictx_readers(const ictx *c, uint32_t key, uint32_t g, vec_u32 *out);
/* Is arc j in the graph of class maxcls (its class <= maxcls)?  A forced
 * arc's class is settled on the first such question that needs it (kept
 * in holds: the same answer whichever thread asks first). */
int ictx_arc_within(const ictx *c, uint32_t j, int maxcls);
/* The edge of arc j of the fact graph, which leaves node u (none for a fixed arc: 0). */
int ictx_arc_edge(const ictx *c, uint32_t u, uint32_t j, dep_edge *e);
/* A list read of key that shows a's version before b's: it holds a's
 * elements and b's later or not at all (the shortest such read), or NONE. */
uint32_t ictx_list_shows(const ictx *c, uint32_t key, uint32_t a, uint32_t b);
/* Is forced edge e between two distinct transactions of h (one the fact graph takes)? */
int interp_forced_in_facts(const history *h, const dep_edge *e);
/* Per key, vo's writers reordered to agree with the forced WW edges of that
 * key (topological order, ties by the original position), so that cycles
 * of forced edges hold under it.  A key whose forced edges are cyclic
 * keeps the rest of its order as given.  Key ranges are tasks on pool at
 * priority prio (NULL: the caller's thread): the same order for any pool. */
void interp_repair_vo(const history *h, const version_order *vo, const dep_edge *forced, size_t nf, version_order *out,
                      struct par_pool *pool, int prio);

/* The two graph nodes of dependency e (depgraph.h's numbering). */
void interp_node_pair(int split, const dep_edge *e, uint32_t *x, uint32_t *y);
/* Append the dependency (kind, key, from, to) to v (SO: no key). */
void interp_push_dep(dep_edge_vec *v, dep_kind kind, uint32_t key, uint32_t from, uint32_t to);

/* ---- cycles (interpret_cycles.c) ---- */

/* The shortest violating cycle among the dependencies between S's m
 * transactions (ties: fewer RW, then WW edges), rotated to start at the
 * smallest transaction: facts, those of the fact graph (known and forced
 * edges and SO); else all, by definition under the version order.  Under
 * a choice of writers (c->amb), fewest WR/RW edges resting on an assumed
 * writer first (report_edge_assumed), then the shortest. */
int ictx_minimal_cycle(const ictx *c, const uint32_t *S, size_t m, int facts, dep_edge_vec *out);
/* Transactions of a short violating cycle avoiding excl, sorted, in the
 * fact graph (facts) or the graph of the version order; 0 if none.
 * strict (under a choice of writers, c->amb): without the arcs or WR/RW
 * edges resting on an assumed writer (ictx_arc_assumed, report_edge_assumed). */
int ictx_find_cycle_txns(ictx *c, const uint8_t *excl, int facts, int strict, vec_u32 *S);
/* Does arc j of the fact graph, leaving node u, rest on a writer the
 * choice assumes (c->amb; a known WW arc: its overwriter's read, a
 * read-modify-write)?  The proofs' strict searches' test (interpret_explain.c). */
int ictx_arc_assumed(const ictx *c, uint32_t u, uint32_t j);

/* ---- explanations (interpret_explain.c) ---- */

/* Why the version order fact behind dependency e holds (report.h's
 * edge_why); facts (a VEC(report_fact)) gets, in the order proven, the
 * facts its explanation relies on that were not already there. */
/* Returns 1 when the explanation looked up facts in `facts` (its outcome
 * may depend on the facts proven before it), else 0: then nothing was
 * added to facts, and the explanation is the same whatever facts held
 * (interpret.c explains a cycle's edges at once on that ground). */
int ictx_explain_edge(const ictx *c, const dep_edge *e, edge_why *w, void *facts);

#endif
