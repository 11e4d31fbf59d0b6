/* jepsen_times.c — pairing invocations with completions and choosing
 * their stamps (contract in jepsen_times.h). */
#include "frontend/formats/jepsen_times.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "vec.h"
#include "frontend/history/u64map.h"

/* One completion that is a transaction: its invocation's stamp (inv.has
 * 0 and paired 0: none) and its own. */
typedef struct jt_rec {
    uint32_t txn, line;
    uint8_t paired, info;
    jt_stamp inv, cmp;
} jt_rec;

/* A completion without an invocation and without :time (most of a
 * history written without invocations): its :index stamp, in a quarter
 * of a jt_rec. */
typedef struct jt_solo { int64_t index; uint32_t txn; uint8_t has, info; } jt_solo;

typedef struct jt_pending { jt_stamp s; uint8_t valid; } jt_pending;

struct jepsen_times {
    u64map pending_ix;           /* process -> pendings index */
    VEC(jt_pending) pendings;
    VEC(jt_rec) recs;
    VEC(jt_solo) solos;
    uint64_t stamped[2];         /* stamps that had :time, :index */
    uint64_t stamps;             /* stamps that take part */
};

jepsen_times *jt_new(void) {
    jepsen_times *jt = xcalloc(1, sizeof *jt);
    u64map_init(&jt->pending_ix);
    return jt;
}

void jt_free(jepsen_times *jt) {
    if (!jt) return;
    u64map_free(&jt->pending_ix);
    vec_free(jt->pendings);
    vec_free(jt->recs);
    vec_free(jt->solos);
    free(jt);
}

static void count(jepsen_times *jt, jt_stamp s) {
    jt->stamps++;
    if (s.has & JT_TIME) jt->stamped[0]++;
    if (s.has & JT_INDEX) jt->stamped[1]++;
}

void jt_invoke(jepsen_times *jt, int64_t process, jt_stamp s) {
    uint32_t i = u64map_get(&jt->pending_ix, (uint64_t)process);
    if (i == UINT32_MAX) {
        jt_pending z = { { 0, 0, 0 }, 0 };
        vec_push(jt->pendings, z);
        i = u64map_put(&jt->pending_ix, (uint64_t)process, (uint32_t)jt->pendings.len - 1);
    }
    jt->pendings.data[i].s = s;
    jt->pendings.data[i].valid = 1;
}

void jt_complete(jepsen_times *jt, int client, int64_t process, uint32_t txn, int info, jt_stamp s, uint32_t line) {
    jt_rec r = { txn, line, 0, (uint8_t)(info != 0), { 0, 0, 0 }, s };
    if (client) {
        uint32_t i = u64map_get(&jt->pending_ix, (uint64_t)process);
        if (i != UINT32_MAX && jt->pendings.data[i].valid) {
            r.paired = 1;
            r.inv = jt->pendings.data[i].s;
            jt->pendings.data[i].valid = 0;
            count(jt, r.inv);
        }
    }
    if (!info) count(jt, s);
    if (!r.paired && !(s.has & JT_TIME)) {
        jt_solo o = { s.index, txn, s.has, r.info };
        vec_push(jt->solos, o);
    } else vec_push(jt->recs, r);
}

static int64_t pick(jt_stamp s, int use_time) { return use_time ? s.time : s.index; }

int jt_finish(jepsen_times *jt, history_builder *b, load_report *rep, const char *source, int json, ic_error *err) {
    uint64_t paired = 0;
    vec_foreach(const jt_rec, r, jt->recs) paired += r->paired;
    if (!paired || !(jt->stamped[0] || jt->stamped[1])) return 1;   /* nothing to order, or no stamp */
    /* :index when every stamp has one (the history's order, which is Elle's own real-time
     * order), else :time when any has one, else the :index there is */
    int use_time = jt->stamped[1] < jt->stamps && jt->stamped[0] > 0;
    uint8_t want = use_time ? JT_TIME : JT_INDEX;
    const char *ft = json ? "\"time\"" : ":time", *fi = json ? "\"index\"" : ":index", *f = use_time ? ft : fi;
    uint64_t have = jt->stamped[use_time ? 0 : 1], invoked = 0;
    vec_foreach(const jt_rec, r, jt->recs) invoked += r->paired && (r->inv.has & want);
    if (!invoked) return 1;                        /* no invocation time: no real-time order, no times */
    if (have < jt->stamps)
        load_report_note(rep, "note", "real times from %s: %" PRIu64 " of %" PRIu64 " invocations and completions have "
                         "no integer %s, and so no time", f, jt->stamps - have, jt->stamps, f);
    vec_foreach(const jt_rec, r, jt->recs) {
        int inv_ok = r->paired && (r->inv.has & want), cmp_ok = !r->info && (r->cmp.has & want);
        int64_t c = pick(r->cmp, use_time), i = pick(r->inv, use_time);
        if (inv_ok && cmp_ok && c < i) {
            ic_error_at(err, source, r->line, "completion %s %" PRId64 " is before its invocation's %s %" PRId64
                        " (a transaction cannot complete before it is invoked)", f, c, f, i);
            return 0;
        }
        if (inv_ok) hb_txn_time(b, r->txn, TIME_INVOKE, i);
        if (cmp_ok) hb_txn_time(b, r->txn, TIME_COMPLETE, c);
    }
    vec_foreach(const jt_solo, o, jt->solos)      /* (no invocation; :index is their only stamp) */
        if (!o->info && !use_time && (o->has & JT_INDEX)) hb_txn_time(b, o->txn, TIME_COMPLETE, o->index);
    return 1;
}

jt_stamp jt_stamp_of(const optree *t, uint32_t tn, uint32_t in) {
    jt_stamp s = { 0, 0, 0 };
    if (tn != OV_NONE && ot_node(t, tn)->kind == OV_INT && ot_node(t, tn)->ival != HISTORY_TIME_NONE) {
        s.time = ot_node(t, tn)->ival;
        s.has |= JT_TIME;
    }
    if (in != OV_NONE && ot_node(t, in)->kind == OV_INT && ot_node(t, in)->ival != HISTORY_TIME_NONE) {
        s.index = ot_node(t, in)->ival;
        s.has |= JT_INDEX;
    }
    return s;
}

static int ts_fail(const optree *t, uint32_t node, const char *source, const char *expected, ic_error *err) {
    char fb[64];
    ic_error_at(err, source, ot_node(t, node)->line, "expected %s, found %s", expected, ot_render(t, node, fb, sizeof fb));
    return 0;
}

int jt_db_times(const optree *t, uint32_t ts, history_builder *b, uint32_t txn, const char *source, ic_error *err) {
    if (ot_node(t, ts)->kind == OV_NIL) return 1;
    if (ot_node(t, ts)->kind != OV_MAP)
        return ts_fail(t, ts, source, t->json ? "a \"ts\" object {\"rts\": START, \"cts\": COMMIT}"
                                              : "a :ts map {:rts START, :cts COMMIT}", err);
    int64_t v[2] = { HISTORY_TIME_NONE, HISTORY_TIME_NONE };
    static const char *const names[2] = { "rts", "cts" };
    for (uint32_t k = ot_node(t, ts)->child; k != OV_NONE; k = ot_node(t, ot_node(t, k)->next)->next)
        for (int i = 0; i < 2; i++) {
            uint32_t vn = ot_node(t, k)->next;
            if (!ot_is_field(t, k, names[i]) || ot_node(t, vn)->kind == OV_NIL) continue;
            if (ot_node(t, vn)->kind != OV_INT || ot_node(t, vn)->ival == HISTORY_TIME_NONE) {
                char ex[64];
                snprintf(ex, sizeof ex, t->json ? "an integer timestamp as \"%s\"" : "an integer timestamp as :%s", names[i]);
                return ts_fail(t, vn, source, ex, err);
            }
            v[i] = ot_node(t, vn)->ival;
        }
    if (v[0] != HISTORY_TIME_NONE && v[1] != HISTORY_TIME_NONE && v[1] < v[0]) {
        ic_error_at(err, source, ot_node(t, ts)->line, "commit timestamp %" PRId64 " is before start timestamp %" PRId64
                    " (a transaction commits after it starts)", v[1], v[0]);
        return 0;
    }
    for (int i = 0; i < 2; i++)
        if (v[i] != HISTORY_TIME_NONE) hb_txn_time(b, txn, i ? TIME_DB_COMMIT : TIME_DB_START, v[i]);
    return 1;
}
