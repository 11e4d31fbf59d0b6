/* vm_internal.h — what the re-check's files share (the contract is
 * verify_model.h; not for use outside frontend/recheck/: tests/layering.sh).
 *
 *   vm_index.c     the history read under a version order: participants,
 *                  the index of every key's versions, each participant's
 *                  replay against them (its snapshot per key);
 *   vm_graph.c     the dependency graph the replay gives, its cycle search
 *                  and the shortest cycle as dependencies;
 *   vm_views.c     rr's views of predicate reads under the order;
 *   verify_model.c the entry points (vo_check, cycle_holds) and the
 *                  test of one dependency (vm_dep_holds). */
#ifndef ISOCHECK_VM_INTERNAL_H
#define ISOCHECK_VM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"
#include "frontend/recheck/verify_model.h"

/* One participant's successful op in a key's slice: the op, its
 * transaction, and its kind and value packed (vm_index.c: ko_kind,
 * ko_value), copied in op order so that the per-key passes never look an
 * op up in the history at random (at 22M, 176M ops), and written as one
 * 12-byte record: the fill scatters over every key's cursor at once, so
 * each array it writes costs a cache miss per op. */
typedef struct ko_rec { uint32_t op, t, vk; } ko_rec;

typedef struct vm {
    const history *h;
    const version_order *vo;
    uint8_t *part;               /* per txn */
    ko_rec *ko; size_t nko;      /* participants' successful ops, by key then program order
                                    (the key is implied by the slice: ko_start) */
    uint32_t *ko_start;          /* per key: its slice of ko */
    uint8_t *is_list;            /* per key */
    int64_t *marker;             /* per version g: installed value / last element (INIT: VALUE_INIT) */
    uint32_t *len;               /* per version g: length of the list at g (NULL: no list keys) */
    uint32_t *el_start;          /* per key: its full list in el */
    vec_i64 el;                  /* per key, the appends of its versions in order */
    uint32_t *slot;              /* marker table: per key a region of its own (mk_region) */
    uint32_t ntasks, *range;     /* key ranges (ntasks + 1 bounds) for the per-key passes */
} vm;

/* Participant t reads key k's version g (an index into vo->txns inside
 * k's slice, so g also names the key). */
typedef struct vread { uint32_t t, g; } vread;

/* The per-key replay's output: key ranges in key order, each range's
 * reads in key order, then in order of the participants' ops. */
typedef struct key_range_out { VEC(vread) reads; int failed; char why[300]; } key_range_out;

typedef struct vreads {
    dep_edge_vec views;           /* rr: the views' edges (vm_view_edges), emitted at rr only */
    uint32_t ntasks;
    uint32_t *range;              /* ntasks + 1 key bounds */
    key_range_out *out;
} vreads;

void vm_free(vm *m);
void vreads_free(vreads *r);

/* Index the history under vo — only the keys with want[k] set when want
 * is non-NULL (checking a few edges needs only their keys); 0 with why set
 * when vo is not a version order of the participants' writers.  The keys
 * are indexed in ranges on pool (NULL: inline); with r non-NULL each key
 * is replayed right after it is indexed, into r (0 with why set at the
 * first inconsistent read in key order). */
int vm_build(vm *m, const history *h, const version_order *vo, const uint8_t *want,
             struct par_pool *pool, int prio, vreads *r, char *why, size_t wl);

/* Key's version (an index into vo->txns) whose installed value is v
 * (VALUE_INIT: INIT's), or UINT32_MAX (none, or the key not indexed). */
uint32_t vm_version_of(const vm *m, uint32_t key, int64_t v);

/* rr's views (vm_views.c; predicate.h, pred_fact_is_view): the edges
 * Adya's definition gives each view of a participant's predicate read of
 * an indexed key (want[k], or every key with want NULL) under the indexed
 * order, appended to out: WR (a predicate read-dependency, a D edge) from
 * every version up to the view's that changes the read's matches, RW (a
 * predicate anti-dependency) to every later one that does.  The view is
 * the latest of its versions before the one its transaction saw (none
 * before: the first after it).  0 with why when a view has none of its
 * versions in the order. */
int vm_view_edges(const vm *m, const uint8_t *want, const uint32_t *pick, dep_edge_vec *out, char *why, size_t wl);
/* The views of kind (b) (pred_fact.by_pred: the version seen is another
 * predicate read's, so the view is one choice among several): how many
 * the re-check sees, and each one's number of versions into n, in fact
 * order.  pick (NULL: the rule for each) names, per such view in that
 * order, the index of the version vm_view_edges takes instead (n[i] or
 * more: the rule). */
size_t vm_views_other(const vm *m, vec_u32 *n);

/* t's snapshot of k as a version index within k's slice (UINT32_MAX: none
 * shown); 0 with why set on an inconsistent read. */
int vm_snapshot(const vm *m, uint32_t t, uint32_t k, uint32_t *s, char *why, size_t wl);

/* Does dependency e hold in the indexed history, by definition (its key
 * indexed)?  why on failure. */
int vm_dep_holds(const vm *m, const dep_edge *e, char *why, size_t wl);

/* The graph of the participants part[] under vo with the snapshots r (SER:
 * D and RW; si: the split graph), searched for a cycle: 1 acyclic, 0 a
 * cycle (a short one in *cycle when non-NULL), -1 the graph is too large
 * (why set).  On pool at prio (NULL: inline), the same answer for every
 * pool. */
/* The graph a level is checked on (vm_mode_of). */
typedef struct vm_mode {
    int si;                      /* the split graph (SI levels, pc) */
    int so;                      /* SO edges */
    int rt;                      /* RT edges, through clock nodes */
    int ww_commit;               /* pc: WW commit -> commit */
    int psi;                     /* RW edges are no arcs; each is tested against D paths */
    int rr;                      /* predicate anti-dependencies are no arcs; each item RW edge
                                    is tested against paths of the whole graph */
} vm_mode;
vm_mode vm_mode_of(check_level_id level);

/* rr: whether participant t's external reads of key k (reads before its
 * own first write of k) are all lowered predicate reads that did not
 * return k (its RW edges on k are predicate anti-dependencies). */
int vm_pred_only(const history *h, uint32_t t, uint32_t k);

/* rank (NULL: none), nrank entries: a proposed rank per node of the
 * graph (the split graph's numbering under si), checked on every arc and
 * trusted for nothing: when every arc goes up it, 1 without a search;
 * else, or when nrank is not the graph's node count, or with clock nodes,
 * psi or rr, the search (the same answer and cycle as without it).
 * *by_rank (when non-NULL): 1 when the rank gave the answer, else 0. */
int vm_graph_check(const history *h, const version_order *vo, vm_mode mode, const uint8_t *part, const vreads *r,
                   const uint32_t *rank, size_t nrank, int *by_rank, struct par_pool *pool, int prio,
                   dep_edge_vec *cycle, char *why, size_t wl);

#endif
