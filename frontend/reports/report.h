/* report.h — what `isocheck check` answers, as data shared by the text,
 * JSON and DOT writers (report.c, report_json.c, report_dot.c).
 *
 * A report holds one result per checked level (verdict, message, where it
 * was decided) and the anomalies found: non-cycle ones from the axioms
 * (level LEVEL_ANY, each with the levels it breaks) and interpreted dependency cycles (interpret.h), each
 * with its name, transactions, operations, edges and, per WW/RW edge, why
 * the version order behind it is forced.  The JSON schema is documented in
 * doc/json-schema.md; the writers print exactly what is here. */
#ifndef ISOCHECK_REPORT_H
#define ISOCHECK_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "vec.h"
#include "frontend/checking/anomaly.h"
#include "frontend/history/history.h"
#include "frontend/history/verdict.h"
#include "frontend/checking/polygraph.h"
#include "frontend/history/levels.h"

/* Why a dependency holds. */
typedef enum {
    WHY_OBSERVED = 0,        /* SO, WR: read straight off the history */
    WHY_INIT,                /* the version read is the initial one: every write follows it */
    WHY_FORCED,              /* the other version order closes the cycle in `alt` */
    WHY_CHOSEN,              /* not forced by what is known alone: the version order found */
    WHY_DECIDED,             /* forced by the checker's reasoning (pruning: the other order closes a
                                cycle with what was known then), no short cycle shown */
    WHY_LISTED,              /* a list read (read_op) holds before's elements and after's later or
                                not at all: list reads show the version order itself */
    WHY_VIEW,                /* rr: an edge of a predicate read's own view, which the version
                                order found gives (doc/levels.md "rr") */
} why_status;

/* How an edge of an explanation's cycle holds without the fact it
 * explains.  Every WW or RW edge rests on a version order fact "before's
 * version of key precedes after's" (WW: its two ends; RW: the version its
 * reader read, and its `to`). */
typedef enum {
    BASIS_OBSERVED = 0,      /* SO, WR: read straight off the history */
    BASIS_ASSUMED,           /* the opposite of the fact explained: the order the cycle refutes */
    BASIS_INIT,              /* before is the initial version, older than every write */
    BASIS_RMW,               /* after read before's version of key and wrote key (own-write order) */
    BASIS_LISTED,            /* the list read `ref` holds before's elements and after's later or not at all */
    BASIS_PROVEN,            /* proven earlier in the same anomaly: its facts[ref] */
} basis_kind;

typedef struct edge_basis {
    uint8_t kind;            /* basis_kind */
    uint32_t before, after;  /* WW/RW: the version order fact the edge rests on */
    uint32_t ref;            /* BASIS_LISTED: the list read op; BASIS_PROVEN: the fact's index */
} edge_basis;

typedef struct edge_why {
    uint8_t status;          /* why_status */
    uint32_t before, after;  /* WW/RW: the version order fact "before's version of key precedes after's" */
    dep_edge_vec alt;        /* WHY_FORCED: the cycle the opposite order would close (its first
                                edge is the opposite WW or RW) */
    VEC(edge_basis) basis;   /* WHY_FORCED: per edge of alt, how it holds without this fact */
    uint32_t read_op;        /* WHY_LISTED: the list read that shows the order */
} edge_why;

/* A version order fact an explanation relies on, proven before it: fact
 * is the WW edge before -> after on its key, why its proof (WHY_FORCED:
 * its cycle's edges rest only on the history and on facts proven before
 * it in the anomaly's list). */
typedef struct report_fact {
    dep_edge fact;
    edge_why why;
} report_fact;

void edge_why_free(edge_why *w);

#define LEVEL_ANY (-1)

typedef struct report_anomaly {
    anomaly_kind kind;
    char adya[32];           /* "G-single", "G1a", "G-single-realtime", "" */
    int level;               /* LEVEL_ANY (axioms) or check_level_id */
    uint32_t breaks;         /* axioms: the levels it breaks (anomaly_breaks: bit l, check_level_id l) */
    vec_u32 txns;            /* the cycle's transactions in order, then supporting ones */
    uint32_t num_cycle_txns;
    vec_u32 ops;             /* the operations that show it */
    dep_edge_vec edges;      /* the cycle (empty for axiom anomalies) */
    VEC(edge_why) why;       /* per edge */
    VEC(report_fact) facts;  /* facts the explanations rely on, in the order proven */
    uint8_t chosen;          /* some edge's fact is merely the found version order's choice: the cycle
                                holds under that order (and every order has some violating cycle); kind
                                is then AN_CYCLE, adya empty, and the name its shape would have: */
    anomaly_kind shape;
    char shape_adya[32];
    char *detail;            /* one line */
} report_anomaly;

typedef VEC(report_anomaly) report_anomaly_vec;

typedef struct report_level {
    int level;               /* check_level_id */
    verdict verdict;
    const char *stage;       /* where it was decided ("" if not known) */
    char msg[512];           /* UNKNOWN: why; FAIL: the checker's reason */
    uint64_t violations;     /* anomalies found for the level (may exceed those listed) */
    uint8_t implied;         /* FAIL decided by the FAIL of a weaker level of the run it implies
                                (stage "implied", ladder_derive.h): level implied_by */
    uint8_t implied_by;      /* check_level_id, when implied */
} report_level;

typedef struct report {
    const history *h;
    const history *choice_of;    /* h is a choice of writers (check_result.chosen) made on this history
                                    (the one the report prints from): its reads of a repeated value with
                                    several possible writers have assumed ones (interpret.h); else NULL */
    const char *level_arg;   /* the --level argument as asked: "si", "all", "rc,si,sser", "ladder" */
    report_level levels[LEVEL_COUNT];   /* the levels checked, in ladder order (ladder.h) */
    int num_levels;
    uint8_t no_times[LEVEL_COUNT];      /* asked but not checked: the level needs times the history lacks */
    int ladder;              /* print the ladder's summary (report_ladder.c) */
    uint32_t internal_errors;           /* levels whose verdicts contradict the ladder's order (ladder.h):
                                           the stronger one's PASS is withdrawn (UNKNOWN) */
    report_anomaly_vec items;
    uint64_t axiom_violations;   /* total axiom violations (items holds at most the limit) */
    uint32_t axiom_breaks;       /* the levels they break, listed or not (bit l: check_level_id l) */
    uint8_t axioms_per_level;    /* some asked level is not broken by them: every level has its own
                                    verdict in levels (a broken one FAILs, stage "axioms"); else (0)
                                    the axioms fail every level asked and levels holds, if anything,
                                    the results with the bad reads set aside */
    const char *certificate;     /* file written on PASS, or NULL */
    vec_u32 set_aside;           /* with axiom violations and levels checked (run_check's
                                    cycles_after_axioms): the read ops set aside, the levels'
                                    results are those of the history without them */
} report;

void report_init(report *r, const history *h, const char *level_arg);
void report_free(report *r);
report_anomaly *report_add(report *r, anomaly_kind kind, int level);
/* Frees what one anomaly holds (report_free does it for every item). */
void report_anomaly_free(report_anomaly *a);
/* Copy the axiom anomalies (LEVEL_ANY; each with the levels it breaks). */
void report_add_axioms(report *r, const anomaly_list *l, uint64_t total);
/* Worst verdict over the levels (verdict_worse), FAIL if an axiom violation
 * fails every level asked (!axioms_per_level). */
verdict report_verdict(const report *r);

/* 1 when the axioms fail every level asked, so that levels holds no verdict
 * of its own (see axioms_per_level). */
int report_axioms_fail_all(const report *r);
/* "every level", "every level but rc", or "ra, cc" (the levels of mask). */
const char *report_levels_text(uint32_t mask, char *buf, size_t n);

/* Names shared by the writers. */
const char *report_txn_name(const history *h, uint32_t t, char *buf, size_t n);   /* "txn 12" / "INIT" */
const char *report_value(const history *h, uint32_t op, char *buf, size_t n);     /* "5", "init", "[1 2]" */
const char *report_level_name(int level);                                         /* "si", "ser-plain", "any" */
/* One sentence explaining a dependency with its values ("txn 3 read x=5 written by txn 1"). */
void report_edge_sentence(const history *h, const dep_edge *e, char *buf, size_t n);
/* The same; src: an RW edge's reader's writer when known (HISTORY_NONE: not
 * named).  A read whose writer the history does not establish
 * (report_assumed.h) is told as assumed: "read x=5, assumed written by txn 1". */
void report_edge_sentence_from(const history *h, const dep_edge *e, uint32_t src, char *buf, size_t n);
/* Set a's detail to the one line that names and explains its cycle (a
 * lost update with the values involved, else the anomaly's summary) and
 * lists the cycle's edges; si: a write skew is marked allowed under SI. */
void report_describe_cycle(const history *h, report_anomaly *a, int si);
/* The same, with amb the history whose reads of repeated values have no
 * established writer (report_assumed.h; h may be a choice of writers on
 * it): a lost update whose shared read rests on a chosen writer says
 * "(under the writers assumed)". */
void report_describe_cycle_in(const history *h, const history *amb, report_anomaly *a, int si);

/* Withdraw every PASS that contradicts a FAIL of a level it implies (ladder.h):
 * such a level becomes UNKNOWN with an internal-error message, counted in
 * internal_errors.  The runs over several levels call it once all are in. */
void report_check_ladder(report *r);
/* The ladder's report (r->ladder): each asked level's verdict in ladder
 * order (text: one line each, then the full report of each weakest
 * failing level — the anomalies of a stronger failing level add nothing:
 * every one of a weaker level's breaks it too), the strongest levels that
 * hold, the weakest that fail with the first (minimal) anomaly that breaks
 * each; text, and the JSON member "ladder". */
void report_print_ladder_text(FILE *out, const report *r);
void report_print_ladder_json(FILE *out, const report *r);

/* The level's reason as the reports state it: L->msg, except that with
 * anomalies of the level shown (not implied) on a history with reads of
 * assumed writers, the check's list of the reads its own cycle assumes
 * ("; the cycle shown assumes ...", a cycle the report may not show) gives
 * way to "; the anomalies below are cycles under one such choice, each
 * listing the reads it assumes" (each anomaly's list: report_assumed.h).
 * buf (n bytes, sizeof L->msg + 128 is enough) holds the new text. */
const char *report_level_reason(const report *r, const report_level *L, char *buf, size_t n);
/* One level's lines: "PASS si: ...", or "FAIL ser: ..." with its anomalies in full, or "UNKNOWN ...". */
void report_print_level_text(FILE *out, const report *r, const report_level *L);
void report_print_text(FILE *out, const report *r, int verbose);
/* One anomaly as report_print_text prints it, numbered num: its line, its
 * transactions and operations, the facts and the cycle with why each edge
 * holds (the HTML report's explanation). */
void report_print_anomaly(FILE *out, const history *h, const report_anomaly *a, size_t num);
void report_print_json(FILE *out, const report *r);
/* Graphviz: one cluster per anomaly with a cycle. */
void report_print_dot(FILE *out, const report *r);

#endif
