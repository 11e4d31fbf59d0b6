/* report.c — the report model and its text output (see report.h). */
#include "frontend/reports/pred_report.h"
#include "frontend/reports/report.h"
#include "frontend/reports/report_assumed.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/reports/classify.h"
#include "frontend/reports/ladder.h"

void report_init(report *r, const history *h, const char *level_arg) {
    memset(r, 0, sizeof *r);
    r->h = h;
    r->level_arg = level_arg;
    vec_init(r->items);
    vec_init(r->set_aside);
}

void report_anomaly_free(report_anomaly *a) {
    vec_free(a->txns);
    vec_free(a->ops);
    vec_free(a->edges);
    vec_foreach(edge_why, w, a->why) edge_why_free(w);
    vec_free(a->why);
    vec_foreach(report_fact, f, a->facts) edge_why_free(&f->why);
    vec_free(a->facts);
    free(a->detail);
    a->detail = NULL;
}

void report_free(report *r) {
    vec_foreach(report_anomaly, a, r->items) report_anomaly_free(a);
    vec_free(r->items);
    vec_free(r->set_aside);
}

void edge_why_free(edge_why *w) {
    vec_free(w->alt);
    vec_free(w->basis);
}

report_anomaly *report_add(report *r, anomaly_kind kind, int level) {
    report_anomaly a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    a.level = level;
    vec_init(a.txns); vec_init(a.ops); vec_init(a.edges); vec_init(a.why); vec_init(a.facts);
    vec_push(r->items, a);
    return &vec_last(r->items);
}

void report_add_axioms(report *r, const anomaly_list *l, uint64_t total) {
    r->axiom_violations = total;
    vec_foreach(const anomaly, x, l->items) {
        report_anomaly *a = report_add(r, x->kind, LEVEL_ANY);
        a->breaks = anomaly_breaks(x->kind);
        const char *adya = anomaly_adya(x->kind);
        snprintf(a->adya, sizeof a->adya, "%s", adya ? adya : "");
        for (size_t i = 0; i < x->txns.len; i++) vec_push(a->txns, x->txns.data[i]);
        a->num_cycle_txns = 0;
        for (size_t i = 0; i < x->ops.len; i++) vec_push(a->ops, x->ops.data[i]);
        const char *d = x->detail ? x->detail : anomaly_summary(x->kind);
        a->detail = xmalloc(strlen(d) + 1);
        memcpy(a->detail, d, strlen(d) + 1);
    }
}

int report_axioms_fail_all(const report *r) { return r->axiom_violations && !r->axioms_per_level; }

const char *report_levels_text(uint32_t mask, char *buf, size_t n) {
    uint32_t all = (1u << LEVEL_COUNT) - 1u, show;
    int count = 0;
    mask &= all;
    for (int i = 0; i < LEVEL_COUNT; i++) count += (int)(mask >> i & 1u);
    if (!mask) { snprintf(buf, n, "no level"); return buf; }
    if (mask == all) { snprintf(buf, n, "every level"); return buf; }
    show = 2 * count > LEVEL_COUNT ? all & ~mask : mask;
    size_t at = (size_t)snprintf(buf, n, "%s", show != mask ? "every level but " : "");
    for (int i = 0, k = 0; i < LEVEL_COUNT && at < n; i++)
        if (show >> ladder_order[i] & 1u) at += (size_t)snprintf(buf + at, n - at, "%s%s", k++ ? ", " : "", level_name(ladder_order[i]));
    return buf;
}

verdict report_verdict(const report *r) {
    if (r->internal_errors) return VERDICT_UNKNOWN;          /* verdicts that contradict each other: none is trusted */
    verdict v = report_axioms_fail_all(r) ? VERDICT_FAIL : VERDICT_PASS;
    for (int i = 0; i < r->num_levels; i++) v = verdict_worse(v, r->levels[i].verdict);
    if (!r->ladder && !report_axioms_fail_all(r))            /* a level asked by name and not checked: no answer */
        for (int l = 0; l < LEVEL_COUNT; l++)
            if (r->no_times[l]) v = verdict_worse(v, VERDICT_UNKNOWN);
    return v;
}

const char *report_txn_name(const history *h, uint32_t t, char *buf, size_t n) {
    if (t == 0) snprintf(buf, n, "INIT");
    else snprintf(buf, n, "txn %" PRId64, h->txns[t].ext_id);
    return buf;
}

const char *report_value(const history *h, uint32_t op, char *buf, size_t n) {
    if (op == HISTORY_NONE) { snprintf(buf, n, "?"); return buf; }
    if (history_op_kind(h, op) == OP_LIST_READ) {
        uint32_t len;
        const int64_t *l = history_list(h, op, &len);
        size_t at = (size_t)snprintf(buf, n, "[");
        char eb[64];
        for (uint32_t i = 0; i < len && at + 24 < n; i++)
            at += (size_t)snprintf(buf + at, n - at, i ? " %s" : "%s", history_value_str(h, l[i], eb, sizeof eb));
        snprintf(buf + at, n - at, at + 24 >= n && len ? " ...]" : "]");
        return buf;
    }
    return history_value_str(h, history_op_value(h, op), buf, n);   /* "init", a named value's written form, or the integer */
}

/* A read's value for edge sentences: a list read that ends with its
 * transaction's own appends also names the part it read from the snapshot
 * ("[1 2] (snapshot [1])"). */
static const char *read_value(const history *h, uint32_t op, char *buf, size_t n) {
    report_value(h, op, buf, n);
    if (op == HISTORY_NONE || history_op_kind(h, op) != OP_LIST_READ) return buf;
    uint32_t t = history_op_txn(h, op), own = 0, len;
    for (uint32_t o = h->txns[t].first_op; o < op; o++)
        own += h->op_key[o] == h->op_key[op] && history_op_kind(h, o) == OP_APPEND && !history_op_failed(h, o);
    const int64_t *l = history_list(h, op, &len);
    if (!own || own > len) return buf;
    size_t at = strlen(buf);
    at += (size_t)snprintf(buf + at, n > at ? n - at : 0, " (snapshot [");
    char eb[64];
    for (uint32_t i = 0; i + own < len && at + 30 < n; i++)
        at += (size_t)snprintf(buf + at, n - at, i ? " %s" : "%s", history_value_str(h, l[i], eb, sizeof eb));
    if (at < n) snprintf(buf + at, n - at, "%s])", at + 30 >= n ? " ..." : "");
    return buf;
}

const char *report_level_name(int level) { return level == LEVEL_ANY ? "any" : level_name((check_level_id)level); }

/* SO and RT edges name no key. */
static int keyless(const dep_edge *e) { return e->kind == DEP_SO || e->kind == DEP_RT; }

void report_edge_sentence_from(const history *h, const dep_edge *e, uint32_t src, char *buf, size_t n) {
    char a[64], b[64], kb[128], v1[256], v2[96], sb[64];
    report_txn_name(h, e->from, a, sizeof a);
    report_txn_name(h, e->to, b, sizeof b);
    if (!keyless(e) && e->key != HISTORY_NONE) history_key_str(h, e->key, kb, sizeof kb);
    if (pred_edge_sentence(h, e, report_edge_assumed(h, e, NULL), buf, n)) return;   /* a predicate read's edge (issue 34) */
    switch (e->kind) {
    case DEP_RT:
        snprintf(buf, n, "%s completed at %" PRId64 ", before %s was invoked at %" PRId64, a,
                 history_time(h, TIME_COMPLETE, e->from), b, history_time(h, TIME_INVOKE, e->to));
        break;
    case DEP_SO:
        snprintf(buf, n, "%s ran before %s in session %s", a, b,
                 history_value_str(h, e->to < h->num_txns && h->txns[e->to].session != HISTORY_NONE
                                   ? h->sessions[h->txns[e->to].session].ext_id : -1, sb, sizeof sb));
        break;
    case DEP_WR:
        snprintf(buf, n, report_edge_assumed(h, e, NULL) ? "%s read %s=%s, assumed written by %s" : "%s read %s=%s written by %s",
                 b, kb, read_value(h, history_txn_external_read(h, e->to, e->key), v1, sizeof v1), a);
        break;
    case DEP_WW:
        snprintf(buf, n, "%s's %s=%s is an older version than %s's %s=%s", a, kb,
                 report_value(h, history_txn_final_write(h, e->from, e->key), v1, sizeof v1), b, kb,
                 report_value(h, history_txn_final_write(h, e->to, e->key), v2, sizeof v2));
        break;
    case DEP_RW: {
        char from[96] = "";              /* an assumed writer: named */
        if (report_edge_assumed(h, e, NULL)) {
            char s[64];
            if (src == HISTORY_NONE) snprintf(from, sizeof from, " (its writer assumed),");
            else snprintf(from, sizeof from, ", assumed written by %s,", report_txn_name(h, src, s, sizeof s));
        }
        snprintf(buf, n, "%s read %s=%s%s which %s's %s=%s overwrote", a, kb,
                 read_value(h, history_txn_external_read(h, e->from, e->key), v1, sizeof v1), from[0] ? from : ",", b, kb,
                 report_value(h, history_txn_final_write(h, e->to, e->key), v2, sizeof v2));
        break;
    }
    default: snprintf(buf, n, "?");
    }
}

void report_edge_sentence(const history *h, const dep_edge *e, char *buf, size_t n) {
    report_edge_sentence_from(h, e, HISTORY_NONE, buf, n);
}

/* "txn 3 -RW x-> txn 8 -WW x-> txn 3" */
static void chain_text(const history *h, const dep_edge *e, size_t n, char *buf, size_t cap) {
    char t[64], kb[128];
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && at + 100 < cap; i++) {
        if (i == 0) at += (size_t)snprintf(buf + at, cap - at, "%s", report_txn_name(h, e[i].from, t, sizeof t));
        if (keyless(&e[i])) at += (size_t)snprintf(buf + at, cap - at, " -%s-> ", dep_kind_name((dep_kind)e[i].kind));
        else at += (size_t)snprintf(buf + at, cap - at, " -%s %s-> ", dep_kind_name((dep_kind)e[i].kind),
                                    history_key_str(h, e[i].key, kb, sizeof kb));
        at += (size_t)snprintf(buf + at, cap - at, "%s", report_txn_name(h, e[i].to, t, sizeof t));
    }
}

static const char *op_letter(const history *h, uint32_t op) {
    switch (history_op_kind(h, op)) {
    case OP_READ: case OP_LIST_READ: return "r";
    case OP_WRITE: return "w";
    case OP_APPEND: return "append";
    }
    return "?";
}

static const char *status_name(uint8_t st) {
    return st == TXN_COMMITTED ? "committed" : st == TXN_ABORTED ? "aborted" : "indeterminate";
}

static void print_txns(FILE *out, const history *h, const report_anomaly *a) {
    char where[600], kb[128], vb[256], tb[64], sb[64];
    for (size_t i = 0; i < a->txns.len; i++) {
        uint32_t t = a->txns.data[i];
        const history_txn *tx = &h->txns[t];
        fprintf(out, "     %-9s session %-4s %s%s%s\n", report_txn_name(h, t, tb, sizeof tb),
                history_value_str(h, h->sessions[tx->session].ext_id, sb, sizeof sb),
                history_txn_where(h, t, where, sizeof where), tx->status == TXN_COMMITTED ? "" : "  ",
                tx->status == TXN_COMMITTED ? "" : status_name(tx->status));
        int any = 0;
        for (size_t j = 0; j < a->ops.len; j++) {
            uint32_t op = a->ops.data[j];
            if (history_op_txn(h, op) != t) continue;
            fprintf(out, "%s%s(%s)=%s [%s %u]", any ? "  " : "         ", op_letter(h, op),
                    history_key_str(h, h->op_key[op], kb, sizeof kb), report_value(h, op, vb, sizeof vb),
                    history_loc_word(h), history_op_line(h, op));
            any = 1;
        }
        if (i >= a->num_cycle_txns && a->edges.len) fprintf(out, "%s(in an explanation below)", any ? "  " : "         ");
        if (any || (i >= a->num_cycle_txns && a->edges.len)) fputc('\n', out);
    }
}

/* " (txn 1's 1 precedes txn 2's: fact 1)": how edge e of an explanation's
 * cycle holds without the fact explained. */
static void basis_text(const history *h, const dep_edge *e, const edge_basis *bs, char *buf, size_t n) {
    char x[64], y[64], kb[128], r[64], v[256];
    buf[0] = 0;
    if (bs->kind == BASIS_OBSERVED || (e->kind != DEP_WW && e->kind != DEP_RW)) return;
    report_txn_name(h, bs->before, x, sizeof x);
    report_txn_name(h, bs->after, y, sizeof y);
    history_key_str(h, e->key, kb, sizeof kb);
    switch (bs->kind) {
    case BASIS_ASSUMED: snprintf(buf, n, " (%s's %s precedes %s's: the order refuted)", x, kb, y); break;
    case BASIS_INIT: snprintf(buf, n, " (%s=init is the initial version, older than every write)", kb); break;
    case BASIS_RMW:
        snprintf(buf, n, " (%s's %s precedes %s's: %s read it%s and overwrote it)", x, kb, y, y,
                 report_basis_assumed(h, e, bs) ? " (assumed: another write of the value is possible)" : "");
        break;
    case BASIS_LISTED:
        snprintf(buf, n, " (%s's %s precedes %s's: %s's read %s=%s lists it so%s)", x, kb, y,
                 report_txn_name(h, history_op_txn(h, bs->ref), r, sizeof r), kb, report_value(h, bs->ref, v, sizeof v),
                 report_listed_assumed(h, bs->ref, bs->before, bs->after) ? " (assumed: another append of a value is possible)"
                                                                           : "");
        break;
    default: snprintf(buf, n, " (%s's %s precedes %s's: fact %u)", x, kb, y, bs->ref + 1);
    }
}

/* Why the fact "before's key precedes after's" holds, at indent ind (a's
 * facts below index lim are what it may cite). */
static void print_why(FILE *out, const history *h, const report_anomaly *an, size_t lim, uint32_t key, const edge_why *w,
                      const char *ind) {
    char a[64], b[64], kb[128], chain[2048];
    if (w->status == WHY_OBSERVED) return;
    history_key_str(h, key, kb, sizeof kb);
    if (w->status == WHY_VIEW) {                 /* no two versions named: the view is the order's */
        fprintf(out, "%schosen: at rr a predicate read has a version set of its own (Adya); under the version order "
                "found its view of %s is the latest version before its transaction's that it does not match\n", ind, kb);
        return;
    }
    report_txn_name(h, w->before, a, sizeof a);
    report_txn_name(h, w->after, b, sizeof b);
    switch (w->status) {
    case WHY_INIT:
        fprintf(out, "%sforced: %s=init is the initial version, older than every write\n", ind, kb);
        break;
    case WHY_FORCED: {
        /* resting on a chosen writer: said so (report_assumed.h) */
        const char *forced = report_why_assumed(h, an, w, lim) ? "forced given the writers assumed" : "forced";
        /* the two common short reasons in words */
        if (w->alt.len == 2 && w->alt.data[0].kind == DEP_WW && w->alt.data[0].from == w->after &&
            w->alt.data[0].to == w->before && w->alt.data[1].from == w->before && w->alt.data[1].to == w->after) {
            char s[700];
            if (w->alt.data[1].kind == DEP_WR && w->alt.data[1].key == key) {
                report_edge_sentence(h, &w->alt.data[1], s, sizeof s);
                fprintf(out, "%s%s: %s before overwriting it, so %s's %s precedes %s's\n", ind, forced, s, a, kb, b);
                break;
            }
            if (w->alt.data[1].kind == DEP_SO) {
                fprintf(out, "%s%s: %s ran before %s in their session, so its %s is the older version\n", ind, forced, a, b, kb);
                break;
            }
        }
        chain_text(h, w->alt.data, w->alt.len, chain, sizeof chain);
        fprintf(out, "%s%s: %s's %s precedes %s's, else the cycle %s\n", ind, forced, a, kb, b, chain);
        for (size_t i = 1; i < w->alt.len; i++) {
            char s[700], t[600];
            report_edge_sentence_from(h, &w->alt.data[i], i < w->basis.len ? w->basis.data[i].before : HISTORY_NONE, s, sizeof s);
            if (i < w->basis.len) basis_text(h, &w->alt.data[i], &w->basis.data[i], t, sizeof t);
            else t[0] = 0;
            fprintf(out, "%s  where %s%s\n", ind, s, t);
        }
        break;
    }
    case WHY_DECIDED:
        fprintf(out, "%sforced: the checker decided that %s's %s precedes %s's (the other order closes a cycle with "
                     "what it knew then)\n", ind, a, kb, b);
        break;
    case WHY_LISTED: {
        char r[64], v[256];
        uint32_t n, op = w->read_op;
        const int64_t *l = history_list(h, op, &n);
        int has_after = 0;               /* does the list hold after's elements too? */
        for (uint32_t i = 0; i < n && !has_after; i++) {
            uint32_t wop = history_writer_of(h, h->op_key[op], l[i]);
            has_after = wop != HISTORY_NONE && history_op_txn(h, wop) == w->after;
        }
        report_txn_name(h, history_op_txn(h, op), r, sizeof r);
        report_value(h, op, v, sizeof v);
        /* an element of it whose appender is the choice places one of the two: said so (report_assumed.h) */
        const char *forced = report_why_assumed(h, an, w, lim) ? "forced given the writers assumed" : "forced";
        if (has_after) fprintf(out, "%s%s: %s's read %s=%s lists %s's %s before %s's\n", ind, forced, r, kb, v, a, kb, b);
        else fprintf(out, "%s%s: %s's read %s=%s lists %s's %s but not %s's, which must come later\n", ind, forced, r, kb, v,
                     a, kb, b);
        break;
    }
    default:
        fprintf(out, "%schosen: the version order found puts %s's %s before %s's (not forced by the history alone)\n",
                ind, a, kb, b);
    }
}

/* The facts the explanations rely on, numbered in the order proven. */
static void print_facts(FILE *out, const history *h, const report_anomaly *a) {
    if (!a->facts.len) return;
    int assumed = 0;
    for (size_t i = 0; i < a->facts.len; i++) assumed |= report_why_assumed(h, a, &a->facts.data[i].why, i);
    fprintf(out, "     facts proven first, each from the history%s and the facts before it:\n",
            assumed ? ", the writers assumed" : "");
    for (size_t i = 0; i < a->facts.len; i++) {
        const report_fact *f = &a->facts.data[i];
        char x[64], y[64], kb[128];
        fprintf(out, "       %zu. %s's %s precedes %s's\n", i + 1, report_txn_name(h, f->fact.from, x, sizeof x),
                history_key_str(h, f->fact.key, kb, sizeof kb), report_txn_name(h, f->fact.to, y, sizeof y));
        print_why(out, h, a, i, f->fact.key, &f->why, "          ");
    }
}

void report_print_anomaly(FILE *out, const history *h, const report_anomaly *a, size_t num) {
    if (a->chosen)
        fprintf(out, "  %zu. cycle under the chosen version order (shaped as %s%s%s%s): %s\n", num, anomaly_name(a->shape),
                a->shape_adya[0] ? ", " : "", a->shape_adya, "", a->detail ? a->detail : anomaly_summary(a->kind));
    else
        fprintf(out, "  %zu. %s%s%s%s: %s\n", num, anomaly_name(a->kind), a->adya[0] ? " (" : "", a->adya, a->adya[0] ? ")" : "",
                a->detail ? a->detail : anomaly_summary(a->kind));
    if (a->level == LEVEL_ANY && a->breaks && a->breaks != ANOMALY_ALL_LEVELS) {
        char lv[256];
        fprintf(out, "     breaks %s\n", report_levels_text(a->breaks, lv, sizeof lv));
    }
    print_txns(out, h, a);
    if (a->txns.len == 0)
        for (size_t j = 0; j < a->ops.len; j++) {
            char kb[128], vb[256];
            uint32_t op = a->ops.data[j];
            fprintf(out, "         %s(%s)=%s  initial state\n", op_letter(h, op), history_key_str(h, h->op_key[op], kb, sizeof kb),
                    report_value(h, op, vb, sizeof vb));
        }
    if (!a->edges.len) return;
    report_print_assumed(out, h, a);
    print_facts(out, h, a);
    fprintf(out, "     cycle:\n");
    for (size_t i = 0; i < a->edges.len; i++) {
        const dep_edge *e = &a->edges.data[i];
        char x[64], y[64], kb[128], s[700];
        report_edge_sentence_from(h, e, i < a->why.len ? a->why.data[i].before : HISTORY_NONE, s, sizeof s);
        if (keyless(e))
            fprintf(out, "       %s -%s-> %s   %s\n", report_txn_name(h, e->from, x, sizeof x), dep_kind_name((dep_kind)e->kind),
                    report_txn_name(h, e->to, y, sizeof y), s);
        else
            fprintf(out, "       %s -%s %s-> %s   %s\n", report_txn_name(h, e->from, x, sizeof x), dep_kind_name((dep_kind)e->kind),
                    history_key_str(h, e->key, kb, sizeof kb), report_txn_name(h, e->to, y, sizeof y), s);
        if (i < a->why.len) print_why(out, h, a, a->facts.len, e->key, &a->why.data[i], "         ");
    }
}

/* The choices assumed: repeated values, predicate reads; with anomalies
 * shown, each lists the reads it assumes (report_assumed.h) instead of the
 * check's list, the reads of the check's own cycle (check.c, choice_message). */
const char *report_level_reason(const report *r, const report_level *L, char *buf, size_t n) {
    size_t shown = 0;
    vec_foreach(const report_anomaly, a, r->items) shown += a->level == L->level;
    const char *cut = shown && !L->implied && report_has_assumed(r->h) ? strstr(L->msg, "; the cycle shown assumes") : NULL;
    if (!cut) return L->msg;
    snprintf(buf, n, "%.*s; the anomalies below are cycles under one such choice, each listing the reads it assumes",
             (int)(cut - L->msg), L->msg);
    return buf;
}

void report_print_level_text(FILE *out, const report *r, const report_level *L) {
    const char *lv = report_level_name(L->level);
    if (L->verdict == VERDICT_PASS && report_axioms_fail_all(r)) {     /* checked with the bad reads set aside */
        fprintf(out, "no cycle %s: the rest satisfies %s once those reads are set aside\n", lv,
                level_title((check_level_id)L->level));
        return;
    }
    if (L->verdict == VERDICT_PASS) {
        fprintf(out, "PASS %s: the history satisfies %s", lv, level_title((check_level_id)L->level));
        if (r->certificate) fprintf(out, " (certificate: %s)", r->certificate);
        fputc('\n', out);
        return;
    }
    if (L->verdict != VERDICT_FAIL) { fprintf(out, "UNKNOWN %s: %s\n", lv, L->msg); return; }
    size_t shown = 0;
    vec_foreach(const report_anomaly, a, r->items) if (a->level == L->level) shown++;
    fprintf(out, "FAIL %s: %s is violated", lv, level_title((check_level_id)L->level));
    if (shown) fprintf(out, ": %zu anomal%s%s", shown, shown == 1 ? "y" : "ies", shown > 1 ? " on disjoint transactions" : "");
    if (L->stage && L->stage[0]) fprintf(out, " (stage: %s)", L->stage);
    fputc('\n', out);
    char why[sizeof L->msg + 128];
    if ((!shown || L->implied || strstr(L->msg, "whichever")) && L->msg[0])
        fprintf(out, "  %s\n", report_level_reason(r, L, why, sizeof why));
    size_t k = 0;
    vec_foreach(const report_anomaly, a, r->items) if (a->level == L->level) report_print_anomaly(out, r->h, a, ++k);
}

void report_print_text(FILE *out, const report *r, int verbose) {
    (void)verbose;
    const history *h = r->h;
    size_t num = 0;
    if (r->axiom_violations) {
        int every = 1;
        vec_foreach(const report_anomaly, a, r->items) if (a->level == LEVEL_ANY && a->breaks && a->breaks != ANOMALY_ALL_LEVELS) every = 0;
        const char *n_s = r->axiom_violations == 1 ? "" : "s";
        if (r->axioms_per_level)
            fprintf(out, "read axioms: %" PRIu64 " violation%s, each failing only the levels it names; the other levels are "
                    "checked\n", r->axiom_violations, n_s);
        else if (every)
            fprintf(out, "FAIL %s: the history breaks the read axioms every level relies on (%" PRIu64 " violation%s)\n",
                    r->level_arg ? r->level_arg : "any", r->axiom_violations, n_s);
        else
            fprintf(out, "FAIL %s: the history breaks read axioms every level asked relies on (%" PRIu64 " violation%s, "
                    "each with the levels it breaks)\n", r->level_arg ? r->level_arg : "any", r->axiom_violations, n_s);
        vec_foreach(const report_anomaly, a, r->items) if (a->level == LEVEL_ANY) report_print_anomaly(out, h, a, ++num);
        if (r->axiom_violations > num)
            fprintf(out, "  (%" PRIu64 " more not shown; --max-anomalies N)\n", r->axiom_violations - num);
        if (r->num_levels && !r->axioms_per_level)
            fprintf(out, "cycles among the rest, with the %zu read%s that break%s the axioms set aside (the verdict stays FAIL):\n",
                    r->set_aside.len, r->set_aside.len == 1 ? "" : "s", r->set_aside.len == 1 ? "s" : "");
    }
    if (r->ladder) { report_print_ladder_text(out, r); return; }
    for (int i = 0; i < r->num_levels; i++) report_print_level_text(out, r, &r->levels[i]);
    if (!report_axioms_fail_all(r))
        for (int l = 0; l < LEVEL_COUNT; l++)
            if (r->no_times[l])
                fprintf(out, "NOT CHECKED %s: %s needs the transactions' invocation and completion times, which this "
                        "history does not carry\n", level_name((check_level_id)l), level_title((check_level_id)l));
}

/* The one-line prose of an interpreted anomaly (its detail). */
void report_describe_cycle(const history *h, report_anomaly *a, int si) { report_describe_cycle_in(h, h, a, si); }

void report_describe_cycle_in(const history *h, const history *amb, report_anomaly *a, int si) {
    char buf[1024], t1[64], t2[64], kb[128];
    size_t at = 0;
    const dep_edge *e = a->edges.data;
    size_t n = a->edges.len;
    switch (a->kind) {
    case AN_LOST_UPDATE: {
        const dep_edge *rw = e[0].kind == DEP_RW ? &e[0] : &e[1];
        uint32_t r = rw->from, w = rw->to, rop = history_txn_external_read(h, r, rw->key), wop = history_txn_external_read(h, w, rw->key);
        char v[64], x[64], y[64];
        report_value(h, rop, v, sizeof v);
        report_value(h, history_txn_final_write(h, w, rw->key), x, sizeof x);
        report_value(h, history_txn_final_write(h, r, rw->key), y, sizeof y);
        history_key_str(h, rw->key, kb, sizeof kb);
        report_txn_name(h, r, t1, sizeof t1);
        report_txn_name(h, w, t2, sizeof t2);
        if (wop != HISTORY_NONE && history_external_source(h, wop) == history_external_source(h, rop))
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s and %s both read %s=%s and both wrote %s; %s's %s=%s overwrote "
                                   "%s's %s=%s without seeing it: %s's update is lost", t1, t2, kb, v, kb, t1, kb, y, t2, kb, x, t2);
        else
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s read %s=%s, then its %s=%s overwrote %s's later %s=%s without "
                                   "seeing it: %s's update is lost", t1, kb, v, kb, y, t2, kb, x, t2);
        if (report_edge_assumed(amb, &e[0], NULL) || report_edge_assumed(amb, &e[1], NULL) ||
            report_assumed_read(amb, w, rw->key) != HISTORY_NONE)
            at += (size_t)snprintf(buf + at, sizeof buf - at, " (under the writers assumed)");   /* report_assumed.h */
        break;
    }
    default:
        if (a->chosen)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "no version order avoids a violating cycle; this one holds under "
                                   "the order found, not under every order: cycle of %zu transaction%s", n, n == 1 ? "" : "s");
        else
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s: cycle of %zu transaction%s", anomaly_summary(a->kind), n,
                                   n == 1 ? "" : "s");
    }
    at += (size_t)snprintf(buf + at, sizeof buf - at, " [");
    for (size_t i = 0; i < n && at < sizeof buf - 80; i++) {
        if (i == 0) at += (size_t)snprintf(buf + at, sizeof buf - at, "%s", report_txn_name(h, e[i].from, t1, sizeof t1));
        if (keyless(&e[i])) at += (size_t)snprintf(buf + at, sizeof buf - at, " -%s-> ", dep_kind_name((dep_kind)e[i].kind));
        else at += (size_t)snprintf(buf + at, sizeof buf - at, " -%s %s-> ", dep_kind_name((dep_kind)e[i].kind),
                                    history_key_str(h, e[i].key, kb, sizeof kb));
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s", report_txn_name(h, e[i].to, t1, sizeof t1));
    }
    snprintf(buf + at, sizeof buf - at, "]%s", si && a->kind == AN_WRITE_SKEW ? " (allowed under SI)" : "");
    free(a->detail);
    a->detail = xmalloc(strlen(buf) + 1);
    memcpy(a->detail, buf, strlen(buf) + 1);
}
