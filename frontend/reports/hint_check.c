/* hint_check.c — the white-box answer and its report (contract in
 * hint_check.h). */
#include "frontend/reports/hint_check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monotonic.h"
#include "par.h"
#include "io/json_out.h"
#include "frontend/checking/axioms.h"
#include "frontend/reports/hint_check_internal.h"
#include "frontend/reports/interpret.h"
#include "frontend/reports/report.h"

static uint64_t hash_str(uint64_t seed, const char *s) {
    uint64_t x = 1469598103934665603ULL ^ seed;
    for (; *s; s++) { x ^= (unsigned char)*s; x *= 1099511628211ULL; }
    return u64_mix(x);
}

/* Key id of the text s, or HISTORY_NONE. */
static uint32_t find_key(const history *h, const u64map *keys, const char *s) {
    char kb[128];
    uint32_t k = u64map_get(keys, hash_str(0, s));
    if (k != HISTORY_NONE && strcmp(history_key_str(h, k, kb, sizeof kb), s) == 0) return k;
    for (k = 0; k < h->num_keys; k++)                    /* a hash collision: look at every key */
        if (strcmp(history_key_str(h, k, kb, sizeof kb), s) == 0) return k;
    return HISTORY_NONE;
}

static int parse_i64(const char *s, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end) return 0;
    *out = v;
    return 1;
}

/* The op that wrote value text s to key k (INIT's op k for the initial
 * value), or HISTORY_NONE.  named: (key, written form) -> op for every
 * write, made on first need. */
static uint32_t find_write(const history *h, uint32_t k, const vh_value *v, const char *s, u64map *named, int *named_made) {
    int64_t x;
    if (v->is_init || strcmp(s, "init") == 0 || strcmp(s, "nil") == 0) return k;
    if (parse_i64(s, &x) && x != VALUE_INIT) {
        uint32_t op = history_writer_of(h, k, x);
        if (op != HISTORY_NONE) return op;
        if (x == 0 && (h->format == FORMAT_TEXT || h->format == FORMAT_DBCOP)) return k;
    }
    if (!*named_made) {
        *named_made = 1;
        char vb[128];
        for (uint32_t key = 0; key < h->num_keys; key++)
            for (uint32_t i = h->key_write_start[key]; i < h->key_write_start[key + 1]; i++) {
                uint32_t op = h->key_writes[i];
                if (history_op_txn(h, op) == 0) continue;
                u64map_put(named, hash_str(key, history_value_str(h, history_op_value(h, op), vb, sizeof vb)), op);
            }
    }
    char vb[128];
    uint32_t op = u64map_get(named, hash_str(k, s));
    if (op != HISTORY_NONE && h->op_key[op] == k && strcmp(history_value_str(h, history_op_value(h, op), vb, sizeof vb), s) == 0)
        return op;
    for (uint32_t i = h->key_write_start[k]; i < h->key_write_start[k + 1]; i++)    /* a collision */
        if (strcmp(history_value_str(h, history_op_value(h, h->key_writes[i]), vb, sizeof vb), s) == 0) return h->key_writes[i];
    return HISTORY_NONE;
}

/* The text as written, else in double quotes: Elle keeps a string key or
 * value with its quotes ("x"), a JSON hint spells it x. */
static const char *quoted(const char *s, char *buf, size_t n) {
    snprintf(buf, n, "\"%s\"", s);
    return buf;
}

/* The writes of key k's plain integer values vh->values[first .. first +
 * n) into fast[] (HISTORY_NONE: not one, or not found; find_write then
 * decides), the writer table's lookups fetched ahead (a hint of a large
 * history is millions of random lookups). */
static void resolve_fast(const history *h, const version_hint *vh, uint32_t k, uint32_t first, uint32_t n, vec_i64 *xs,
                         vec_u32 *fast) {
    vec_clear(*xs);
    vec_clear(*fast);
    for (uint32_t i = 0; i < n; i++) {
        const vh_value *v = &vh->values.data[first + i];
        int64_t x;
        if (v->is_init || !parse_i64(vh_text(vh, v->text), &x)) x = VALUE_INIT;
        vec_push(*xs, x);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (i + HISTORY_PREFETCH_AHEAD < n && xs->data[i + HISTORY_PREFETCH_AHEAD] != VALUE_INIT)
            history_writer_prefetch_slot(h, k, xs->data[i + HISTORY_PREFETCH_AHEAD]);
        if (i + HISTORY_PREFETCH_AHEAD / 2 < n && xs->data[i + HISTORY_PREFETCH_AHEAD / 2] != VALUE_INIT)
            history_writer_prefetch_op(h, k, xs->data[i + HISTORY_PREFETCH_AHEAD / 2]);
        vec_push(*fast, xs->data[i] == VALUE_INIT ? HISTORY_NONE : history_writer_of(h, k, xs->data[i]));
    }
}

/* Map the hint's keys and values to the history's writes.  1, or 0 with a
 * finding in msg. */
static int hint_resolve(const history *h, const version_hint *vh, hint_order *o, char *msg, size_t cap) {
    u64map keys, named;                /* key text -> id; (key, value text) -> op */
    u64map_init(&keys);
    u64map_init(&named);
    uint8_t *listed = xcalloc((size_t)h->num_ops / 8 + 1, 1);      /* per op: listed already */
    vec_i64 xs; vec_init(xs);
    vec_u32 fast; vec_init(fast);
    int named_made = 0, ok = 1;
    char kb[128];
    for (uint32_t k = 0; k < h->num_keys; k++) u64map_put(&keys, hash_str(0, history_key_str(h, k, kb, sizeof kb)), k);
    vec_foreach(const vh_key, hk, vh->keys) {
        const char *ks = vh_text(vh, hk->name);
        char qb[600];
        uint32_t k = find_key(h, &keys, ks);
        if (k == HISTORY_NONE) k = find_key(h, &keys, quoted(ks, qb, sizeof qb));
        if (k == HISTORY_NONE) {
            snprintf(msg, cap, "version order hint contradicts the history: it lists key %.200s (%s:%u), which the "
                     "history never uses", ks, vh->source, hk->line);
            ok = 0;
            break;
        }
        hint_key ok_key = { k, (uint32_t)o->items.len, 0 };
        resolve_fast(h, vh, k, hk->first, hk->num, &xs, &fast);
        for (uint32_t i = hk->first; i < hk->first + hk->num && ok; i++) {
            const vh_value *v = &vh->values.data[i];
            uint32_t op = fast.data[i - hk->first];
            if (op == HISTORY_NONE) op = find_write(h, k, v, vh_text(vh, v->text), &named, &named_made);
            if (op == HISTORY_NONE) op = find_write(h, k, v, quoted(vh_text(vh, v->text), qb, sizeof qb), &named, &named_made);
            if (op == HISTORY_NONE) {
                snprintf(msg, cap, "version order hint contradicts the history: it lists %.200s for key %.200s "
                         "(%s:%u), a value the history never wrote to that key", vh_text(vh, v->text), ks, vh->source,
                         v->line);
                ok = 0;
                break;
            }
            if (listed[op / 8] >> (op % 8) & 1) {
                uint32_t seen = 0;
                vec_foreach(const hint_item, it, o->items) if (it->op == op) seen = it->line;
                snprintf(msg, cap, "version order hint contradicts itself: it lists %.200s twice for key %.200s "
                         "(%s:%u and line %u)", vh_text(vh, v->text), ks, vh->source, seen, v->line);
                ok = 0;
                break;
            }
            listed[op / 8] |= (uint8_t)(1u << (op % 8));
            hint_item it = { op, v->line };
            vec_push(o->items, it);
            ok_key.num++;
        }
        if (!ok) break;
        vec_push(o->keys, ok_key);
    }
    u64map_free(&keys);
    u64map_free(&named);
    free(listed);
    vec_free(xs);
    vec_free(fast);
    return ok;
}

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

void whitebox_stage(whitebox *wb, const char *name) {
    double now = monotonic_seconds(), cpu = cpu_seconds();
    if (wb->nstages < WB_MAX_STAGES) {
        wb->stage_name[wb->nstages] = name;
        wb->stage_cpu[wb->nstages] = cpu - wb->stage_c0;
        wb->stage_secs[wb->nstages++] = now - wb->stage_t0;
    }
    wb->stage_t0 = now;
    wb->stage_c0 = cpu;
}

void whitebox_print_stages(FILE *out, const whitebox *wb) {
    fprintf(out, "white-box stages:");
    for (int i = 0; i < wb->nstages; i++)
        fprintf(out, "  %s %.3fs (cpu %.3fs)", wb->stage_name[i], wb->stage_secs[i], wb->stage_cpu[i]);
    fputc('\n', out);
}

/* The axioms beside the hint's own first work, on two threads. */
typedef struct begin_job {
    whitebox *wb;
    const history *h;
    whitebox_work work;
    void *ctx;
    int axioms_fail;
    double axioms_secs, axioms_cpu;   /* axioms_cpu: only when nothing ran beside them */
} begin_job;

static void begin_task(void *ctx, size_t i) {
    begin_job *j = ctx;
    if (i == 1) {
        if (!j->work) return;
        j->wb->stage_t0 = monotonic_seconds();        /* after the axioms when they ran first, inline */
        j->wb->stage_c0 = cpu_seconds();
        j->work(j->ctx);
        return;
    }
    double t0 = monotonic_seconds(), c0 = cpu_seconds();
    anomaly_list al;
    anomaly_list_init(&al);
    j->axioms_fail = axioms_check(j->h, &al, 1) > 0;
    anomaly_list_free(&al);
    j->axioms_secs = monotonic_seconds() - t0;
    j->axioms_cpu = cpu_seconds() - c0;
}

int whitebox_begin(whitebox *wb, const history *h, const int want[2], unsigned threads, whitebox_work work, void *ctx) {
    memset(wb, 0, sizeof *wb);
    wb->stage_t0 = monotonic_seconds();
    wb->stage_c0 = cpu_seconds();
    wb->h = h;
    wb->want[0] = want[0];
    wb->want[1] = want[1];
    for (int lv = 0; lv < 2; lv++) vec_init(wb->res[lv].cycle);
    begin_job job = { wb, h, work, ctx, 0, 0, 0 };
    par_run(threads > 1 ? 2 : 1, 2, begin_task, &job);
    wb->axioms_fail = job.axioms_fail;
    if (wb->axioms_fail) {                   /* the black-box answer's FAIL; what work found is moot */
        wb->finding[0] = wb->no_answer[0] = 0;
        for (int lv = 0; lv < 2; lv++) {
            wb->level_finding[lv][0] = 0;
            wb->method[lv] = NULL;
            check_result_free(&wb->res[lv]);
            memset(&wb->res[lv], 0, sizeof wb->res[lv]);
            vec_init(wb->res[lv].cycle);
        }
    }
    if (!work) whitebox_stage(wb, "axioms");
    else {
        if (wb->nstages < WB_MAX_STAGES) {     /* beside: its wall time, its CPU counted in the stages beside it */
            int at = threads > 1 ? wb->nstages : 0;           /* alone it ran first */
            for (int i = wb->nstages; i > at; i--) {
                wb->stage_name[i] = wb->stage_name[i - 1];
                wb->stage_cpu[i] = wb->stage_cpu[i - 1];
                wb->stage_secs[i] = wb->stage_secs[i - 1];
            }
            wb->stage_name[at] = threads > 1 ? "axioms (beside them)" : "axioms";
            wb->stage_cpu[at] = threads > 1 ? 0 : job.axioms_cpu;
            wb->stage_secs[at] = job.axioms_secs;
            wb->nstages++;
        }
        wb->stage_t0 = monotonic_seconds();
        wb->stage_c0 = cpu_seconds();
    }
    return !wb->axioms_fail;
}

void whitebox_name_cycle(whitebox *wb, int lv, int given) {
    check_result *r = &wb->res[lv];
    if (r->verdict != VERDICT_FAIL || !r->cycle.len) return;
    report rep;
    report_init(&rep, wb->h, check_level_name((check_level_id)lv));
    size_t n = interpret_failure(&rep, lv, &r->vo, r->cycle.data, r->cycle.len, r->forced.data, r->forced.len, 1, NULL,
                                 NULL, 0);
    if (n && rep.items.len) {
        report_anomaly *a = &rep.items.data[0];
        if (a->chosen && given) {           /* every fact is the hint's: the shape is the anomaly */
            a->chosen = 0;
            a->kind = a->shape;
            snprintf(a->adya, sizeof a->adya, "%s", a->shape_adya);
            report_describe_cycle(wb->h, a, lv == LEVEL_SI);
        }
        if (a->chosen)
            snprintf(wb->an_name[lv], sizeof wb->an_name[lv], "a cycle shaped as %s%s%s%s, under the order found that "
                     "extends the hint", anomaly_name(a->shape), a->shape_adya[0] ? " (" : "", a->shape_adya,
                     a->shape_adya[0] ? ")" : "");
        else
            snprintf(wb->an_name[lv], sizeof wb->an_name[lv], "%s%s%s%s", anomaly_name(a->kind), a->adya[0] ? " (" : "",
                     a->adya, a->adya[0] ? ")" : "");
        if (a->detail) {
            size_t dl = strlen(a->detail) + 1;
            wb->an_detail[lv] = xmalloc(dl);
            memcpy(wb->an_detail[lv], a->detail, dl);
        }
        if (a->edges.len) {
            vec_clear(r->cycle);
            vec_foreach(const dep_edge, e, a->edges) vec_push(r->cycle, *e);
        }
    }
    report_free(&rep);
}

/* What runs beside the axioms: the hint resolved, and the order it states
 * when it lists each version (hint_direct.c). */
typedef struct vo_work {
    whitebox *wb;
    const history *h;
    const version_hint *vh;
    hint_order o;
    int resolved, direct;
    version_order vo;
    uint64_t pairs;
} vo_work;

static void vo_first(void *ctx) {
    vo_work *w = ctx;
    w->resolved = hint_resolve(w->h, w->vh, &w->o, w->wb->finding, sizeof w->wb->finding);
    whitebox_stage(w->wb, "resolve");
    w->direct = w->resolved && whitebox_direct_order(w->h, &w->o, &w->vo, &w->pairs);
    whitebox_stage(w->wb, "direct order");
}

int whitebox_run(const history *h, const version_hint *vh, const int want[2], const check_options *opt,
                 whitebox *wb, ic_error *err) {
    vo_work w;
    memset(&w, 0, sizeof w);
    w.wb = wb; w.h = h; w.vh = vh;
    hint_order_init(&w.o);
    int ok = whitebox_begin(wb, h, want, opt ? opt->threads : 1, vo_first, &w);
    wb->kind = WB_VERSION_ORDER;
    wb->hint_file = vh->source;
    wb->hint_keys = vh->keys.len;
    wb->hint_values = vh->values.len;
    hint_order o = w.o;
    if (!ok || !w.resolved) { hint_order_free(&o); version_order_free(&w.vo); return 1; }
    if (w.direct && whitebox_direct_check(wb, h, &w.vo, w.pairs, want, opt)) {
        hint_order_free(&o);
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
            if (want[lv]) whitebox_name_cycle(wb, lv, 1);
        whitebox_stage(wb, "name");
        return 1;
    }
    pg_index ix;
    if (!pg_index_build(&ix, h, err)) { hint_order_free(&o); return 0; }
    whitebox_stage(wb, "index");
    version_order vo;
    memset(&vo, 0, sizeof vo);
    int valid = hints_validate(&ix, &o, wb->finding, sizeof wb->finding);
    whitebox_stage(wb, "validate");
    if (valid) {
        wb->hint_pairs = o.pairs;
        wb->complete = hints_complete(&ix, &o);
        if (wb->complete) hints_complete_order(&ix, &o, &vo);
        else {
            wb->edges_added = hints_apply(&ix, &o);
            for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
                if (want[lv]) hints_check_level(&ix, &o, (check_level_id)lv, opt, &wb->res[lv]);
        }
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
            wb->method[lv] = wb->complete ? "the hint's complete version order" : "every version order that extends the hint";
    }
    pg_index_free(&ix);
    hint_order_free(&o);
    if (wb->complete) {                 /* the polynomial path needs neither the index nor the hint */
        for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--) {
            if (!want[lv]) continue;
            check_result *r = &wb->res[lv];
            r->level = (check_level_id)lv;
            r->vo.num_keys = vo.num_keys;
            r->vo.start = xmalloc(((size_t)vo.num_keys + 1) * sizeof *r->vo.start);
            memcpy(r->vo.start, vo.start, ((size_t)vo.num_keys + 1) * sizeof *vo.start);
            vec_init(r->vo.txns);
            vec_reserve(r->vo.txns, vo.txns.len);
            memcpy(r->vo.txns.data, vo.txns.data, vo.txns.len * sizeof *vo.txns.data);
            r->vo.txns.len = vo.txns.len;
            if (lv == LEVEL_SI || !want[LEVEL_SI]) version_order_free(&vo);   /* the last level asked */
            hints_check_vo(h, (check_level_id)lv, opt, r);
            whitebox_stage(wb, lv == LEVEL_SI ? "si re-check" : "ser re-check");
        }
        version_order_free(&vo);
    } else if (valid) whitebox_stage(wb, "levels");
    for (int lv = LEVEL_SER; lv >= LEVEL_SI; lv--)
        if (want[lv] && !wb->finding[0]) whitebox_name_cycle(wb, lv, wb->complete);
    whitebox_stage(wb, "name");
    return 1;
}

void whitebox_free(whitebox *wb) {
    for (int i = 0; i < 2; i++) { check_result_free(&wb->res[i]); free(wb->an_detail[i]); wb->an_detail[i] = NULL; }
}

static verdict level_verdict(const whitebox *wb, int lv) {
    if (wb->axioms_fail || wb->finding[0] || wb->level_finding[lv][0]) return VERDICT_FAIL;
    if (wb->no_answer[0]) return VERDICT_UNKNOWN;
    return wb->res[lv].verdict;
}

verdict whitebox_verdict(const whitebox *wb) {
    verdict v = VERDICT_PASS;
    for (int lv = 0; lv < 2; lv++)
        if (wb->want[lv]) v = verdict_worse(v, level_verdict(wb, lv));
    return v;
}

static const char *pass_text(const whitebox *wb, int lv) {
    if (wb->kind == WB_VERSION_ORDER) return "with the hinted version order";
    if (lv == LEVEL_SER) return wb->kind == WB_COMMIT_ORDER ? "in the commit order (each read sees the last write before it)"
                                                            : "in the order of its commit timestamps";
    if (wb->res[lv].stage && strcmp(wb->res[lv].stage, "timestamps") == 0) return "by its start and commit timestamps";
    return wb->kind == WB_COMMIT_ORDER ? "with the version order the commit order implies"
                                       : "with the version order its commit timestamps imply";
}

static void reason(const whitebox *wb, int lv, char *buf, size_t n) {
    const check_result *r = &wb->res[lv];
    const char *title = check_level_title((check_level_id)lv);
    if (wb->axioms_fail) snprintf(buf, n, "the history breaks the read axioms (see the black-box answer)");
    else if (wb->finding[0]) snprintf(buf, n, "%s", wb->finding);
    else if (wb->level_finding[lv][0]) snprintf(buf, n, "%s", wb->level_finding[lv]);
    else if (wb->no_answer[0]) snprintf(buf, n, "no answer: %s", wb->no_answer);
    else if (r->verdict == VERDICT_PASS) snprintf(buf, n, "the history satisfies %s %s", title, pass_text(wb, lv));
    else if (r->verdict == VERDICT_FAIL && wb->an_name[lv][0])
        snprintf(buf, n, "%s is violated under %s: the database's order does not explain its results: %s: %s (stage %s)",
                 title, wb->method[lv] ? wb->method[lv] : "the hint", wb->an_name[lv],
                 wb->an_detail[lv] ? wb->an_detail[lv] : "", r->stage ? r->stage : "?");
    else if (r->verdict == VERDICT_FAIL)
        snprintf(buf, n, "%s is violated under %s: the database's order does not explain its results (%s; stage %s)",
                 title, wb->method[lv] ? wb->method[lv] : "the hint", r->msg, r->stage ? r->stage : "?");
    else snprintf(buf, n, "no answer: %s", r->msg);
}

/* Is there a cycle to print for level lv? */
static int has_cycle(const whitebox *wb, int lv) {
    return !wb->axioms_fail && !wb->finding[0] && !wb->level_finding[lv][0] && !wb->no_answer[0] &&
           wb->res[lv].verdict == VERDICT_FAIL && wb->res[lv].cycle.len;
}

void whitebox_print_text(FILE *out, const whitebox *wb) {
    const history *h = wb->h;
    char why[6144], t[64], kb[128], sentence[700];
    for (int lv = LEVEL_SI; lv <= LEVEL_SER; lv++) {
        if (!wb->want[lv]) continue;
        reason(wb, lv, why, sizeof why);
        fprintf(out, "white-box %s %s: %s\n", verdict_name(level_verdict(wb, lv)), check_level_name((check_level_id)lv), why);
        if (!has_cycle(wb, lv)) continue;
        fprintf(out, "  cycle (holds under %s):\n", wb->kind == WB_VERSION_ORDER ? "an order that extends the hint"
                                                                                 : "the order the commit order implies");
        vec_foreach(const dep_edge, e, wb->res[lv].cycle) {
            fprintf(out, "    %s -%s", report_txn_name(h, e->from, t, sizeof t), dep_kind_name((dep_kind)e->kind));
            if (e->kind != DEP_SO) fprintf(out, " %s", history_key_str(h, e->key, kb, sizeof kb));
            report_edge_sentence(h, e, sentence, sizeof sentence);
            fprintf(out, "-> %s   %s\n", report_txn_name(h, e->to, t, sizeof t), sentence);
        }
    }
    if (wb->kind == WB_VERSION_ORDER)
        fprintf(out, "white-box hint: %s: %" PRIu64 " keys, %" PRIu64 " values, %" PRIu64 " version pairs, %s%" PRIu64
                " known edges added\n", wb->hint_file, wb->hint_keys, wb->hint_values, wb->hint_pairs,
                wb->complete ? "complete (checked by the version order alone, no constraints, no solver), " : "",
                wb->edges_added);
    else if (wb->kind == WB_COMMIT_ORDER)
        fprintf(out, "white-box hint: %s: commit order of %" PRIu64 " transactions\n", wb->hint_file, wb->hint_txns);
    else
        fprintf(out, "white-box hint: the history's database timestamps (commit%s) of %" PRIu64 " transactions\n",
                history_has_times(h, TIME_DB_START) ? " and start" : "", wb->hint_txns);
}

void whitebox_print_json(FILE *out, const whitebox *wb) {
    const history *h = wb->h;
    char why[6144], kb[128];
    static const char *kinds[] = { "version-order", "commit-order", "db-timestamps" };
    fprintf(out, "{\"verdict\": \"%s\", \"hint_kind\": \"%s\", \"hint\": ", verdict_name(whitebox_verdict(wb)),
            kinds[wb->kind]);
    if (wb->hint_file) json_write_string(out, wb->hint_file); else fputs("null", out);
    fputs(", \"finding\": ", out);
    if (wb->finding[0]) json_write_string(out, wb->finding); else fputs("null", out);
    fprintf(out, ", \"hint_keys\": %" PRIu64 ", \"hint_pairs\": %" PRIu64 ", \"known_edges_added\": %" PRIu64
            ", \"complete\": %s, \"hint_txns\": %" PRIu64 ", \"results\": [", wb->hint_keys, wb->hint_pairs,
            wb->edges_added, wb->complete ? "true" : "false", wb->hint_txns);
    int first = 1;
    for (int lv = LEVEL_SI; lv <= LEVEL_SER; lv++) {
        if (!wb->want[lv]) continue;
        const check_result *r = &wb->res[lv];
        reason(wb, lv, why, sizeof why);
        fprintf(out, "%s{\"level\": \"%s\", \"verdict\": \"%s\", \"stage\": ", first ? "" : ", ",
                check_level_name((check_level_id)lv), verdict_name(level_verdict(wb, lv)));
        first = 0;
        if (!wb->finding[0] && !wb->axioms_fail && !wb->level_finding[lv][0] && r->stage) json_write_string(out, r->stage);
        else fputs(wb->finding[0] || wb->level_finding[lv][0] ? "\"hint\"" : "null", out);
        fputs(", \"reason\": ", out);
        json_write_string(out, why);
        fprintf(out, ", \"constraints\": %" PRIu64 ", \"solver_called\": %s, \"anomaly\": ",
                r->st.cons_final, r->st.solver_called ? "true" : "false");
        if (has_cycle(wb, lv) && wb->an_name[lv][0]) {
            fputs("{\"name\": ", out);
            json_write_string(out, wb->an_name[lv]);
            fputs(", \"detail\": ", out);
            json_write_string(out, wb->an_detail[lv] ? wb->an_detail[lv] : "");
            fputc('}', out);
        } else fputs("null", out);
        fputs(", \"cycle\": [", out);
        if (has_cycle(wb, lv))
            for (size_t i = 0; i < r->cycle.len; i++) {
                const dep_edge *e = &r->cycle.data[i];
                fprintf(out, "%s{\"from\": ", i ? ", " : "");
                if (e->from) fprintf(out, "%" PRId64, h->txns[e->from].ext_id); else fputs("null", out);
                fputs(", \"to\": ", out);
                if (e->to) fprintf(out, "%" PRId64, h->txns[e->to].ext_id); else fputs("null", out);
                fprintf(out, ", \"kind\": \"%s\", \"key\": ", dep_kind_name((dep_kind)e->kind));
                if (e->kind == DEP_SO || e->key == HISTORY_NONE) fputs("null", out);
                else json_write_string(out, history_key_str(h, e->key, kb, sizeof kb));
                fputc('}', out);
            }
        fputs("]}", out);
    }
    fputs("]}", out);
}
