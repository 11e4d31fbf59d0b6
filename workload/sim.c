/* sim.c — the embedded multi-version key-value store and the seeded
 * scheduler that runs a workload against it (contract in workload.h).
 *
 * Time is the commit counter `now`: a commit gets ts = ++now and a
 * snapshot taken at `now` sees the versions with ts <= now.  Each key keeps
 * its committed versions in ts order; versions no snapshot can reach any
 * more are dropped when the key is next written.  Writes are buffered in
 * the transaction and installed at commit (only the last write per key
 * becomes a version), so the version order of a key is its commit order. */
#include "workload/workload.h"

#include <string.h>

#include "vec.h"
#include "frontend/history/u64map.h"

typedef struct version {
    uint64_t ts;
    int64_t value;
    int64_t read_before;         /* what its writer had read of the key first, -1: blind write */
    uint32_t replica;
} version;

/* A key's committed versions in ts order; none: only the initial value.
 * 16 bytes, zero-initialized, grown from one slot (most keys keep one). */
typedef struct key_state {
    version *v;
    uint32_t len, cap;
} key_state;

/* The last uncommitted write of a key (dirty-read faults only). */
typedef struct pending { uint32_t session, serial; int64_t value; } pending;

typedef struct store_read { int64_t key, value; } store_read;
typedef struct planned_op { uint8_t write; int64_t key; } planned_op;

/* An aborted transaction is retried (same program) at most this often. */
#define MAX_RETRIES 1000

typedef struct session_state {
    rng prog;                    /* the session's program: op kinds and keys */
    uint32_t pos;                /* program transactions finished (committed or given up) */
    uint32_t emitted;            /* transactions passed to the sink */
    uint32_t retries;            /* aborted attempts of the current program transaction */
    uint64_t last_commit_ts;
    uint64_t begin_step;         /* the step that began the open transaction */
    /* the open transaction */
    int open;
    uint32_t serial;
    uint32_t done;               /* program ops executed */
    VEC(planned_op) plan;        /* the current program transaction */
    uint64_t snap, fresh_snap;   /* visibility snapshot; what an unfaulted one would be */
    int forked, faulted, no_fcw, doomed;
    uint64_t dirty_read_by_others;
    VEC(sim_op) ops;
    VEC(store_read) reads;       /* reads served by the store (validation) */
    vec_i64 inject;              /* keys to write again before commit (intermediate-read) */
} session_state;

typedef struct sim {
    const workload_params *p;
    keydist dist;
    rng sched, fault, repeat;    /* repeat: drawn only with repeat_values > 0 */
    uint64_t now, lag, horizon, commits_since_horizon, slots_done;
    uint64_t steps;              /* scheduler steps taken: the real time of sim_times */
    int64_t next_txn_id;
    int64_t next_value;
    int dirty_fault;
    key_state fence;             /* WORKLOAD_FENCE_KEY's versions */
    key_state *dense;            /* keys <= DENSE_MAX: indexed directly (calloc: untouched
                                  * pages cost nothing) */
    vec_i64 dense_used;          /* dense keys that own version storage */
    u64map key_index;            /* otherwise key -> index into `sparse` */
    VEC(key_state) sparse;
    u64map pend_index;           /* key -> index into `pend` */
    VEC(pending) pend;
    session_state *ss;
    sim_truth *t;
    const sim_times_sink *ts;    /* NULL: no times wanted */
} sim;

#define DENSE_MAX (1u << 26)

static key_state *key_get(sim *m, int64_t key) {
    if (key == WORKLOAD_FENCE_KEY) return &m->fence;
    if (m->dense) return &m->dense[key];
    uint32_t i = u64map_get(&m->key_index, (uint64_t)key);
    if (i == UINT32_MAX) {
        key_state z; memset(&z, 0, sizeof z);
        i = (uint32_t)m->sparse.len;
        vec_push(m->sparse, z);
        u64map_put(&m->key_index, (uint64_t)key, i);
    }
    return &m->sparse.data[i];
}

/* Does the view (snap, replica, forked) of transaction x see version v? */
static int visible(const sim *m, const session_state *x, uint32_t replica, uint64_t snap, const version *v) {
    if (v->ts > snap) return 0;
    if (x && x->forked && v->replica != replica && v->ts + m->lag > snap) return 0;
    return 1;
}

/* Index of the newest version visible to the view, -1 for the initial value. */
static long visible_index(const sim *m, const key_state *k, const session_state *x, uint32_t replica, uint64_t snap) {
    for (long i = (long)k->len - 1; i >= 0; i--)
        if (visible(m, x, replica, snap, &k->v[i])) return i;
    return -1;
}

static int64_t version_value(const key_state *k, long i) { return i < 0 ? 0 : k->v[i].value; }

static void push_version(sim *m, key_state *k, int64_t key, version v) {
    if (k->len == k->cap) {
        if (!k->cap && m->dense && key != WORKLOAD_FENCE_KEY) vec_push(m->dense_used, key);
        k->cap = k->cap ? 2 * k->cap : 1;
        k->v = xrealloc(k->v, k->cap * sizeof *k->v);
    }
    k->v[k->len++] = v;
}

static pending *pending_of(sim *m, int64_t key, int create) {
    uint32_t i = u64map_get(&m->pend_index, (uint64_t)key);
    if (i == UINT32_MAX) {
        if (!create) return NULL;
        pending z = { UINT32_MAX, 0, 0 };
        i = (uint32_t)m->pend.len;
        vec_push(m->pend, z);
        u64map_put(&m->pend_index, (uint64_t)key, i);
    }
    return &m->pend.data[i];
}

/* Unique values; skips Cobra's marker values so every format can hold them. */
static int64_t fresh_value(sim *m) {
    for (;;) {
        int64_t v = m->next_value++;
        if (v != 0x23332333LL && v != 0x66666666LL && v != 0xbebeebeeLL && v != 0xdeadbeefLL) return v;
    }
}

/* Oldest point any current or future view may need (see the trim rule). */
static void update_horizon(sim *m) {
    uint64_t h = m->now;
    if (m->p->fault == FAULT_CAUSALITY || m->p->fault == FAULT_LONG_FORK) h = h > m->lag ? h - m->lag : 0;
    for (uint32_t s = 0; s < m->p->sessions; s++) {
        const session_state *x = &m->ss[s];
        if (!x->open) continue;
        uint64_t view = x->snap;
        if (x->forked) view = view > m->lag ? view - m->lag : 0;
        if (view < h) h = view;
    }
    m->horizon = h;
    m->commits_since_horizon = 0;
}

/* Every view sees at least the newest version with ts <= horizon: drop the
 * ones before it. */
static void trim(sim *m, key_state *k) {
    size_t keep = 0;
    while (keep + 1 < k->len && k->v[keep + 1].ts <= m->horizon) keep++;
    if (keep) {
        memmove(k->v, k->v + keep, (k->len - keep) * sizeof *k->v);
        k->len -= keep;
    }
}

static void begin(sim *m, uint32_t s) {
    session_state *x = &m->ss[s];
    const workload_params *p = m->p;
    x->open = 1;
    x->serial++;
    x->begin_step = m->steps;
    if (!x->retries && p->fence_every && (x->pos + 1) % (p->fence_every + 1) == 0) {
        vec_clear(x->plan);      /* a fence: no draw from the program */
        planned_op rd = { 0, WORKLOAD_FENCE_KEY }, wr = { 1, WORKLOAD_FENCE_KEY };
        vec_push(x->plan, rd);
        vec_push(x->plan, wr);
    } else if (!x->retries) {    /* a new program transaction; a retry repeats it */
        uint32_t n = rng_chance(&x->prog, p->long_fraction) ? p->long_ops : p->ops_per_txn;
        vec_clear(x->plan);
        for (uint32_t i = 0; i < n; i++) {
            planned_op po;
            po.write = !rng_chance(&x->prog, p->read_fraction);
            po.key = (int64_t)keydist_sample(&m->dist, &x->prog);
            vec_push(x->plan, po);
        }
    }
    x->done = 0;
    x->snap = x->fresh_snap = m->now;
    x->forked = x->faulted = x->no_fcw = x->doomed = 0;
    x->dirty_read_by_others = 0;
    vec_clear(x->ops);
    vec_clear(x->reads);
    vec_clear(x->inject);
    switch (p->fault) {
    case FAULT_LOST_UPDATE:
        if (rng_chance(&m->fault, p->fault_rate)) x->no_fcw = x->faulted = 1;
        break;
    case FAULT_LONG_FORK:
        if (rng_chance(&m->fault, p->fault_rate)) x->forked = x->faulted = 1;
        break;
    case FAULT_CAUSALITY:
        /* A replica that has not applied the session's last commit yet. */
        if (x->last_commit_ts > 0 && rng_chance(&m->fault, p->fault_rate)) {
            uint64_t back = 1 + rng_below(&m->fault, m->lag);
            uint64_t snap = x->last_commit_ts > back ? x->last_commit_ts - back : 0;
            uint64_t floor = m->now > m->lag ? m->now - m->lag : 0;
            x->snap = snap > floor ? snap : floor;
            if (x->snap < x->last_commit_ts) x->faulted = 1; else x->snap = m->now;
        }
        break;
    default:
        break;
    }
    if (x->faulted) m->t->faulted_txns++;
}

/* A written value: fresh, or with repeat_values an earlier committed
 * version's value of the key again (a counter, a flag, a retried write). */
static int64_t write_value(sim *m, int64_t key) {
    if (m->p->repeat_values > 0 && rng_chance(&m->repeat, m->p->repeat_values)) {
        key_state *k = key_get(m, key);
        if (k->len) return k->v[rng_below(&m->repeat, k->len)].value;
    }
    return fresh_value(m);
}

static void do_write(sim *m, uint32_t s, int64_t key) {
    session_state *x = &m->ss[s];
    sim_op op = { 1, key, write_value(m, key) };
    vec_push(x->ops, op);
    if (m->dirty_fault) {
        pending *pw = pending_of(m, key, 1);
        pw->session = s; pw->serial = x->serial; pw->value = op.value;
    }
    m->t->writes++;
}

static void do_read(sim *m, uint32_t s, int64_t key) {
    session_state *x = &m->ss[s];
    const workload_params *p = m->p;
    sim_op op = { 0, key, 0 };
    m->t->reads++;
    /* Own writes first; at ser/si a repeated read repeats. */
    for (size_t i = x->ops.len; i-- > 0;)
        if (x->ops.data[i].key == key && (x->ops.data[i].write || p->level != SIM_RC)) {
            op.value = x->ops.data[i].value;
            vec_push(x->ops, op);
            return;
        }
    key_state *k = key_get(m, key);
    pending *pw = m->dirty_fault ? pending_of(m, key, 0) : NULL;
    if (pw && pw->session != UINT32_MAX && pw->session != s) {
        session_state *w = &m->ss[pw->session];
        if (w->open && w->serial == pw->serial && rng_chance(&m->fault, p->fault_rate)) {
            op.value = pw->value;
            vec_push(x->ops, op);
            w->dirty_read_by_others++;
            if (p->fault == FAULT_ABORTED_READ) w->doomed = 1;
            else vec_push(w->inject, key);            /* the writer overwrites it */
            if (!w->faulted) { w->faulted = 1; m->t->faulted_txns++; }
            return;
        }
    }
    uint32_t replica = s & 1;
    uint64_t snap = p->level == SIM_RC ? m->now : x->snap;
    long i = visible_index(m, k, x, replica, snap);
    op.value = version_value(k, i);
    if (x->faulted && (x->forked || p->fault == FAULT_CAUSALITY)) {
        uint64_t fresh = p->level == SIM_RC ? m->now : x->fresh_snap;
        if (version_value(k, visible_index(m, k, NULL, replica, fresh)) != op.value) m->t->stale_reads++;
    }
    vec_push(x->ops, op);
    store_read r = { key, op.value };
    vec_push(x->reads, r);
}

/* Would committing x's write of `key` overwrite a version x did not see? */
static int write_conflict(sim *m, uint32_t s, int64_t key) {
    session_state *x = &m->ss[s];
    key_state *k = key_get(m, key);
    if (!k->len) return 0;
    return !visible(m, x, s & 1, x->snap, &k->v[k->len - 1]);
}

/* What x read of key before writing it, -1 if it wrote blind.  (Only
 * program order matters: a read after x's own write sees that write.) */
static int64_t read_before_write(const session_state *x, int64_t key) {
    for (size_t i = 0; i < x->ops.len; i++)
        if (x->ops.data[i].key == key) return x->ops.data[i].write ? -1 : x->ops.data[i].value;
    return -1;
}

/* A lost update x would make by committing its write of key: x read value
 * r of it, and a concurrent transaction x did not see read the same r and
 * overwrote it.  In every version order one of the two then overwrote what
 * the other read: a cycle SI forbids. */
static int lost_update(sim *m, uint32_t s, int64_t key) {
    session_state *x = &m->ss[s];
    int64_t r = read_before_write(x, key);
    if (r < 0) return 0;
    key_state *k = key_get(m, key);
    for (size_t i = k->len; i-- > 0 && !visible(m, x, s & 1, x->snap, &k->v[i]);)
        if (k->v[i].read_before == r) return 1;
    return 0;
}

static int commit_ok(sim *m, uint32_t s) {
    session_state *x = &m->ss[s];
    const workload_params *p = m->p;
    if (x->doomed) return 0;
    if (p->level == SIM_RC) return 1;
    uint64_t lost = 0, overwrites = 0;
    int wrote = 0;
    for (size_t i = 0; i < x->ops.len; i++) {
        const sim_op *o = &x->ops.data[i];
        if (!o->write) continue;
        wrote = 1;
        int first = 1;                             /* count each key once */
        for (size_t j = 0; j < i; j++)
            if (x->ops.data[j].write && x->ops.data[j].key == o->key) { first = 0; break; }
        if (!first || !write_conflict(m, s, o->key)) continue;
        if (!x->no_fcw) return 0;
        overwrites++;
        lost += (uint64_t)lost_update(m, s, o->key);
    }
    if (p->level == SIM_SER && wrote && !x->no_fcw)
        for (size_t i = 0; i < x->reads.len; i++) {
            key_state *k = key_get(m, x->reads.data[i].key);
            if (version_value(k, (long)k->len - 1) != x->reads.data[i].value) return 0;
        }
    m->t->lost_updates += lost;
    m->t->concurrent_overwrites += overwrites;
    return 1;
}

static int finish(sim *m, uint32_t s, const sim_sink *sink, ic_error *err) {
    session_state *x = &m->ss[s];
    const workload_params *p = m->p;
    int committed = commit_ok(m, s);
    sim_times tm = { (int64_t)x->begin_step, (int64_t)m->steps, (int64_t)x->snap, -1 };
    if (committed) {
        uint64_t ts = ++m->now;
        tm.commit = (int64_t)ts;
        if (++m->commits_since_horizon * 32 >= p->sessions) update_horizon(m);
        for (size_t i = x->ops.len; i-- > 0;) {
            const sim_op *o = &x->ops.data[i];
            if (!o->write) continue;
            key_state *k = key_get(m, o->key);
            if (k->len && k->v[k->len - 1].ts == ts) continue;   /* a later write won */
            version v = { ts, o->value, read_before_write(x, o->key), s & 1 };
            push_version(m, k, o->key, v);
            trim(m, k);
        }
        x->last_commit_ts = ts;
        m->t->committed++;
        if (p->fault == FAULT_INTERMEDIATE_READ) m->t->intermediate_reads += x->dirty_read_by_others;
        else m->t->aborted_reads += x->dirty_read_by_others;
    } else {
        m->t->aborted++;
        m->t->aborted_reads += x->dirty_read_by_others;
    }
    x->open = 0;
    m->t->txns++;
    m->t->ops += x->ops.len;
    if (m->ts) m->ts->times(m->ts->ctx, &tm);
    int ok = sink->txn(sink->ctx, s, x->emitted++, m->next_txn_id++, committed, x->ops.data, (uint32_t)x->ops.len, err);
    if (committed || !p->retry || x->retries >= MAX_RETRIES) {
        if (!committed && p->retry) m->t->given_up++;
        x->pos++;
        x->retries = 0;
        m->slots_done++;
    } else {
        x->retries++;
    }
    return ok;
}

/* One step of session s: begin, one operation, or commit.  Returns 0 when
 * the sink failed. */
static int step(sim *m, uint32_t s, const sim_sink *sink, ic_error *err) {
    session_state *x = &m->ss[s];
    if (!x->open) { begin(m, s); return 1; }
    if (x->done < x->plan.len) {
        const planned_op *po = &x->plan.data[x->done++];
        if (po->write) do_write(m, s, po->key); else do_read(m, s, po->key);
        return 1;
    }
    if (x->inject.len) { do_write(m, s, vec_pop(x->inject)); return 1; }
    return finish(m, s, sink, err);
}

int sim_run(const workload_params *p, const sim_sink *sink, sim_truth *truth,
            sim_progress_fn progress, void *progress_ctx, ic_error *err) {
    return sim_run_timed(p, sink, NULL, truth, progress, progress_ctx, err);
}

int sim_run_timed(const workload_params *p, const sim_sink *sink, const sim_times_sink *ts, sim_truth *truth,
                  sim_progress_fn progress, void *progress_ctx, ic_error *err) {
    sim m;
    memset(&m, 0, sizeof m);
    m.ts = ts && ts->times ? ts : NULL;
    memset(truth, 0, sizeof *truth);
    m.p = p;
    m.t = truth;
    m.lag = p->lag ? p->lag : 2 * (uint64_t)p->sessions;
    m.next_value = 1;
    m.next_txn_id = 1;
    m.dirty_fault = p->fault == FAULT_ABORTED_READ || p->fault == FAULT_INTERMEDIATE_READ;
    keydist_init(&m.dist, p->dist, p->keys, p->zipf_exponent);
    rng_seed(&m.sched, p->seed, 0x5c4ed);
    rng_seed(&m.fault, p->seed, 0xfa17);
    rng_seed(&m.repeat, p->seed, 0x4e9ea7);
    if (p->keys <= DENSE_MAX) {
        m.dense = xcalloc(p->keys, sizeof *m.dense);
    }
    u64map_init(&m.key_index);
    vec_init(m.sparse);
    vec_init(m.dense_used);
    u64map_init(&m.pend_index);
    vec_init(m.pend);
    m.ss = xcalloc(p->sessions, sizeof *m.ss);
    uint32_t *active = xmalloc(p->sessions * sizeof *active);
    for (uint32_t s = 0; s < p->sessions; s++) {
        rng_seed(&m.ss[s].prog, p->seed, 0x1000000ULL + s);
        active[s] = s;
    }
    uint32_t first = p->first_session_txns ? p->first_session_txns : p->txns_per_session;
    uint64_t total = (uint64_t)(p->sessions - 1) * p->txns_per_session + first, next_report = 0;
    uint32_t n_active = p->sessions;
    int ok = 1;
    while (n_active && ok) {
        uint32_t i = (uint32_t)rng_below(&m.sched, n_active), s = active[i];
        session_state *x = &m.ss[s];
        m.steps++;
        ok = step(&m, s, sink, err);
        if (!x->open && x->pos == (s ? p->txns_per_session : first)) active[i] = active[--n_active];
        if (progress && m.slots_done >= next_report) {
            progress(progress_ctx, m.slots_done, total);
            next_report = m.slots_done + 65536;
        }
    }
    if (progress && ok) progress(progress_ctx, m.slots_done, total);
    switch (p->fault) {
    case FAULT_LOST_UPDATE: truth->manifested = truth->concurrent_overwrites; break;
    case FAULT_LONG_FORK: case FAULT_CAUSALITY: truth->manifested = truth->stale_reads; break;
    case FAULT_ABORTED_READ: truth->manifested = truth->aborted_reads; break;
    case FAULT_INTERMEDIATE_READ:          /* its dirty reads: of overwritten writes, or of aborted ones */
        truth->manifested = truth->intermediate_reads + truth->aborted_reads; break;
    default: truth->manifested = 0; break;
    }
    for (uint32_t s = 0; s < p->sessions; s++) {
        vec_free(m.ss[s].ops); vec_free(m.ss[s].reads); vec_free(m.ss[s].inject); vec_free(m.ss[s].plan);
    }
    vec_foreach(int64_t, k, m.dense_used) free(m.dense[*k].v);
    free(m.fence.v);
    vec_foreach(key_state, k, m.sparse) free(k->v);
    vec_free(m.sparse);
    vec_free(m.dense_used);
    vec_free(m.pend);
    u64map_free(&m.pend_index);
    u64map_free(&m.key_index);
    free(m.dense);
    free(m.ss);
    free(active);
    keydist_free(&m.dist);
    return ok;
}
