/* api.c — include/isocheck.h over the history builder and the checking
 * pipeline (run_check.h, the one `isocheck check` runs: the same report).
 * Checks after more transactions arrive reuse the work of the earlier ones
 * (frontend/online/incr.h, one instance per level): a PASS found there is re-checked
 * by definition (online/final.h: vo_check) before it is returned; a FAIL, a read whose
 * writer is not there yet, or anything the incremental path cannot follow
 * goes through the pipeline, which names the anomaly.
 * Everything a caller sees is owned by its handle; reports are rendered
 * into memory (open_memstream), never to a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isocheck.h"
#include "frontend/api_stats.h"
#include "frontend/history/history.h"
#include "frontend/history/u64map.h"
#include "frontend/online/final.h"
#include "frontend/online/incr.h"
#include "frontend/run_check.h"
#include "frontend/recheck/verify_model.h"

struct isocheck_history {
    history_builder *b;          /* everything added so far; it grows after checks too */
    history *h;                  /* built by the last check, kept until the next edit (NULL if rejected) */
    uint32_t calls;              /* "line" of each operation: the call number (LOC_CALL) */
    u64map txn_ids;              /* the caller's transaction ids -> handle: one id, one transaction */
    int rejected;                /* hb_finish refused the history */
    char error[600];
    incr_check *incr[2];         /* per isocheck_level: the incremental state, NULL until used */
    int incr_off[2];             /* the incremental path fell back: the pipeline from now on */
    api_check_stats stats;
};

typedef struct api_edge { int64_t from, to, key; const char *kind; } api_edge;

struct isocheck_result {
    isocheck_verdict verdict;
    int status;
    char *text;
    size_t num_edges;
    api_edge *edges;
};

const char *isocheck_status_message(int status) {
    switch (status) {
    case ISOCHECK_OK: return "ok";
    case ISOCHECK_EINVAL: return "invalid argument";
    case ISOCHECK_EINPUT: return "the history is not well-formed";
    case ISOCHECK_ESTATE: return "not allowed now";
    case ISOCHECK_ELIMIT: return "the solver hit a limit";
    case ISOCHECK_ENOTIMES: return "the level needs invocation and completion times the history does not carry";
    case ISOCHECK_EDUPLICATE: return "the transaction id is already used in this history";
    }
    return "unknown status";
}

isocheck_history *isocheck_history_new(void) {
    isocheck_history *h = xcalloc(1, sizeof *h);
    h->b = hb_new(FORMAT_SYNTHETIC, LOC_CALL, "isocheck API");
    u64map_init(&h->txn_ids);
    return h;
}

void isocheck_history_free(isocheck_history *h) {
    if (!h) return;
    if (h->b) hb_free(h->b);
    if (h->h) history_free(h->h);
    u64map_free(&h->txn_ids);
    for (int l = 0; l < 2; l++) incr_free(h->incr[l]);
    free(h);
}

const char *isocheck_history_error(const isocheck_history *h) { return h ? h->error : "no history"; }

static int fail(isocheck_history *h, int status, const char *msg) {
    if (h) snprintf(h->error, sizeof h->error, "%s", msg);
    return status;
}

/* Common checks for an edit; returns 0 or a status. */
static int editable(isocheck_history *h, int txn, int check_txn) {
    if (!h) return ISOCHECK_EINVAL;
    if (check_txn && (txn < 1 || (uint32_t)txn > hb_num_txns(h->b)))
        return fail(h, ISOCHECK_EINVAL, "unknown transaction handle");
    h->error[0] = 0;
    h->calls++;
    if (h->h) { history_free(h->h); h->h = NULL; }     /* the next check builds the grown history */
    h->rejected = 0;
    return 0;
}

int isocheck_txn_begin(isocheck_history *h, int64_t session_id, int64_t txn_id) {
    if (!h) return ISOCHECK_EINVAL;
    uint32_t used = u64map_get(&h->txn_ids, (uint64_t)txn_id);
    if (used != UINT32_MAX) {           /* nothing changes: the history stays as it was */
        char msg[160];
        snprintf(msg, sizeof msg, "transaction id %lld is already used (by the transaction begun at call %u)",
                 (long long)txn_id, used);
        return fail(h, ISOCHECK_EDUPLICATE, msg);
    }
    int rc = editable(h, 0, 0);
    if (rc) return rc;
    uint32_t s = hb_session(h->b, session_id, NULL);
    u64map_put(&h->txn_ids, (uint64_t)txn_id, h->calls);
    return (int)hb_txn(h->b, s, txn_id, h->calls) + 1;
}

int isocheck_txn_abort(isocheck_history *h, int txn) {
    int rc = editable(h, txn, 1);
    if (rc) return rc;
    hb_txn_status(h->b, (uint32_t)txn - 1, TXN_ABORTED);
    return ISOCHECK_OK;
}

static int op(isocheck_history *h, int txn, op_kind kind, int64_t key, int64_t value) {
    int rc = editable(h, txn, 1);
    if (rc) return rc;
    hb_op(h->b, (uint32_t)txn - 1, kind, hb_key(h->b, key), value, h->calls);
    return ISOCHECK_OK;
}

int isocheck_write(isocheck_history *h, int txn, int64_t key, int64_t value) {
    if (value == VALUE_INIT) return fail(h, ISOCHECK_EINVAL, "value INT64_MIN is reserved for the initial value");
    return op(h, txn, OP_WRITE, key, value);
}

int isocheck_read(isocheck_history *h, int txn, int64_t key, int64_t value) {
    if (value == VALUE_INIT) return fail(h, ISOCHECK_EINVAL, "value INT64_MIN is reserved: use isocheck_read_initial");
    return op(h, txn, OP_READ, key, value);
}

int isocheck_read_initial(isocheck_history *h, int txn, int64_t key) {
    return op(h, txn, OP_READ, key, VALUE_INIT);
}

/* ---- results -------------------------------------------------------- */
/* The public verdict of the checker's: the ABI fixes isocheck_verdict's
 * values, and they are the internal ones. */
_Static_assert((int)ISOCHECK_PASS == (int)VERDICT_PASS && (int)ISOCHECK_FAIL == (int)VERDICT_FAIL &&
               (int)ISOCHECK_UNKNOWN == (int)VERDICT_UNKNOWN, "isocheck_verdict and verdict disagree");
static isocheck_verdict public_verdict(verdict v) {
    switch (v) {
    case VERDICT_PASS: return ISOCHECK_PASS;
    case VERDICT_FAIL: return ISOCHECK_FAIL;
    default: return ISOCHECK_UNKNOWN;
    }
}

static isocheck_result *result_new(verdict v, int status) {
    isocheck_result *r = xcalloc(1, sizeof *r);
    r->verdict = public_verdict(v);
    r->status = status;
    return r;
}

static isocheck_result *unknown(int status, const char *msg) {
    isocheck_result *r = result_new(VERDICT_UNKNOWN, status);
    size_t n = strlen(msg);
    r->text = xmalloc(n + 1);
    memcpy(r->text, msg, n + 1);
    return r;
}

/* The result's text is the same report as `isocheck check` prints; the report is freed. */
static void take_report_text(isocheck_result *r, report *rep) {
    size_t len = 0;
    FILE *out = open_memstream(&r->text, &len);
    if (!out) xalloc_fail(0);
    report_print_text(out, rep, 0);
    if (fclose(out) != 0) xalloc_fail(len);
    report_free(rep);
}

/* The checker's dependency cycle of a failing level (the accessors' cycle). */
static void keep_cycle(void *ctx, const check_result *res) {
    dep_edge_vec *cycle = ctx;
    if (res->verdict != VERDICT_FAIL) return;
    vec_clear(*cycle);
    vec_foreach(const dep_edge, e, res->cycle) vec_push(*cycle, *e);
}

const api_check_stats *isocheck_history_check_stats(const isocheck_history *h) { return &h->stats; }

static void incr_leave(isocheck_history *ih, int lv) {
    incr_free(ih->incr[lv]);
    ih->incr[lv] = NULL;
    ih->incr_off[lv] = 1;
}

/* The incremental path: a PASS result, re-checked by definition, or NULL
 * (*detected: it found a violation) when the pipeline must decide. */
static isocheck_result *check_incremental(isocheck_history *ih, const history *h, check_level_id lv, int *detected) {
    *detected = 0;
    if (ih->incr_off[lv]) return NULL;
    if (!ih->incr[lv]) {
        ih->incr[lv] = incr_new(lv == LEVEL_SI, lv == LEVEL_SER);
        incr_set_rescan(ih->incr[lv]);          /* a transaction may get more operations after a check */
    }
    uint32_t num, fresh;
    int rc = incr_update(ih->incr[lv], h, &num, &fresh);
    if (rc == INCR_FALLBACK) { incr_leave(ih, lv); return NULL; }
    ih->stats.incremental++;
    if (rc == INCR_FAIL) { *detected = 1; return NULL; }
    if (num != h->num_txns - 1) return NULL;    /* a read with no writer (yet): the pipeline names it */
    /* a PASS only once the re-check accepts the model's order (final.h) */
    version_order vo[2];
    memset(vo, 0, sizeof vo);
    char why[300];
    int want[2] = { lv == LEVEL_SI, lv == LEVEL_SER };
    report rep;
    report_init(&rep, h, check_level_name(lv));
    int ok = incr_version_order(ih->incr[lv], h, lv, &vo[lv]) && online_confirm_pass(h, want, vo, &rep, why, sizeof why);
    version_order_free(&vo[lv]);
    if (!ok) {                                  /* never trusted unconfirmed: the pipeline decides */
        report_free(&rep);
        incr_leave(ih, lv);
        return NULL;
    }
    ih->stats.incremental_pass++;
    isocheck_result *r = result_new(VERDICT_PASS, ISOCHECK_OK);
    take_report_text(r, &rep);
    return r;
}

/* The public levels are levels.def's, in its order. */
#define LEVEL(id, name, title, shape, so, rt) \
    _Static_assert((int)ISOCHECK_##id == (int)LEVEL_##id, "isocheck_level and levels.def disagree on " name);
#include "frontend/history/levels.def"
#undef LEVEL
_Static_assert((int)ISOCHECK_LEVEL_COUNT == (int)LEVEL_COUNT, "isocheck_level and levels.def disagree");

const char *isocheck_level_name(isocheck_level level) {
    return (unsigned)level < LEVEL_COUNT ? level_name((check_level_id)level) : NULL;
}

int isocheck_level_by_name(const char *name) {
    int l = name ? level_by_name(name) : -1;
    return l >= 0 ? l : ISOCHECK_EINVAL;
}

isocheck_result *isocheck_check_named(isocheck_history *ih, const char *level) {
    if (!ih) return NULL;
    int l = isocheck_level_by_name(level);
    if (l < 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "unknown level '%.100s'", level ? level : "(null)");
        return unknown(ISOCHECK_EINVAL, msg);
    }
    return isocheck_check(ih, (isocheck_level)l);
}

isocheck_result *isocheck_check(isocheck_history *ih, isocheck_level level) {
    if (!ih) return NULL;
    if ((unsigned)level >= LEVEL_COUNT) return unknown(ISOCHECK_EINVAL, "unknown level");
    if (!ih->h && !ih->rejected) {      /* built from a copy: the builder takes more afterwards */
        ic_error err;
        ic_error_clear(&err);
        ih->h = hb_finish(hb_clone(ih->b, NULL), &err);
        if (!ih->h) {
            ih->rejected = 1;
            if (err.line > 0) snprintf(ih->error, sizeof ih->error, "call %ld: %s", err.line, err.msg);
            else snprintf(ih->error, sizeof ih->error, "%s", err.msg);
        }
    }
    if (ih->rejected) return unknown(ISOCHECK_EINPUT, ih->error);
    const history *h = ih->h;
    check_level_id lv = (check_level_id)level;
    int detected = 0;
    /* the incremental path follows si and ser (frontend/online/incr.h) */
    isocheck_result *fast = lv == LEVEL_SI || lv == LEVEL_SER ? check_incremental(ih, h, lv, &detected) : NULL;
    if (fast) return fast;
    ih->stats.pipeline++;

    run_check_options ro;
    run_check_options_default(&ro);
    memset(ro.want, 0, sizeof ro.want);
    ro.want[lv] = 1;
    dep_edge_vec cycle;
    vec_init(cycle);
    ro.on_level = keep_cycle;
    ro.hook_ctx = &cycle;
    report rep;
    report_init(&rep, h, check_level_name(lv));
    ic_error err;
    ic_error_clear(&err);
    if (!run_check(h, &ro, &rep, NULL, NULL, &err)) {
        report_free(&rep);
        vec_free(cycle);
        return unknown(ISOCHECK_EINPUT, err.msg);
    }
    verdict v = report_verdict(&rep);
    if (detected && v != VERDICT_FAIL) incr_leave(ih, lv);     /* not confirmed: never trusted again */
    isocheck_result *r = result_new(v, v != VERDICT_UNKNOWN ? ISOCHECK_OK : rep.no_times[lv] ? ISOCHECK_ENOTIMES
                                                                                          : ISOCHECK_ELIMIT);
    if (v == VERDICT_FAIL && cycle.len) {
        r->num_edges = cycle.len;
        r->edges = xcalloc(cycle.len, sizeof *r->edges);
        for (size_t i = 0; i < cycle.len; i++) {
            const dep_edge *e = &cycle.data[i];
            api_edge *a = &r->edges[i];
            a->from = e->from ? h->txns[e->from].ext_id : -1;
            a->to = e->to ? h->txns[e->to].ext_id : -1;
            a->kind = dep_kind_name((dep_kind)e->kind);
            a->key = e->kind == DEP_SO || e->key == HISTORY_NONE ? 0 : h->key_ext[e->key];
        }
    }
    vec_free(cycle);
    take_report_text(r, &rep);
    return r;
}

isocheck_verdict isocheck_result_verdict(const isocheck_result *r) { return r ? r->verdict : ISOCHECK_UNKNOWN; }
int isocheck_result_status(const isocheck_result *r) { return r ? r->status : ISOCHECK_EINVAL; }
const char *isocheck_result_text(const isocheck_result *r) { return r && r->text ? r->text : ""; }
size_t isocheck_result_cycle_length(const isocheck_result *r) { return r ? r->num_edges : 0; }

int isocheck_result_cycle_edge(const isocheck_result *r, size_t i, int64_t *from, int64_t *to,
                               int64_t *key, const char **kind) {
    if (!r || i >= r->num_edges) return ISOCHECK_EINVAL;
    const api_edge *e = &r->edges[i];
    if (from) *from = e->from;
    if (to) *to = e->to;
    if (key) *key = e->key;
    if (kind) *kind = e->kind;
    return ISOCHECK_OK;
}

void isocheck_result_free(isocheck_result *r) {
    if (!r) return;
    free(r->text);
    free(r->edges);
    free(r);
}
