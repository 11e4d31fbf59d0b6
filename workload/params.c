/* params.c — workload parameters: defaults, the PolySI paper's presets,
 * range checks, and the names of levels and faults. */
#include "workload/workload.h"

#include <string.h>

void workload_defaults(workload_params *p) {
    memset(p, 0, sizeof *p);
    p->sessions = 20;
    p->txns_per_session = 100;
    p->ops_per_txn = 15;
    p->keys = 10000;
    p->read_fraction = 0.5;
    p->dist = KEYDIST_ZIPF;
    p->zipf_exponent = 0.5;     /* the real fig7 zipf history (PostgreSQL, 30k ops on 10k
                                 * keys) touches 8,871 keys; s = 0.5 expects 8,881 */
    p->long_fraction = 0;
    p->long_ops = 150;
    p->level = SIM_SI;
    p->fault = FAULT_NONE;
    p->fault_rate = 0.1;
    p->lag = 0;                 /* 0: 2 * sessions */
    p->seed = 1;
    p->retry = 1;
}

/* PolySI §5.1.1: 20 sessions x 100 txns x 15 ops, 10k keys, 50% reads,
 * zipfian.  GeneralRH/RW/WH (the fig8_9_10 data): 25 x 400 x 8, 10k keys,
 * uniform, 95/50/30% reads. */
static const struct preset {
    const char *name;
    uint32_t sessions, txns, ops;
    uint64_t keys;
    double reads;
    keydist_kind dist;
} presets[] = {
    { "polysi",     20, 100, 15, 10000, 0.50, KEYDIST_ZIPF },
    { "general-rh", 25, 400,  8, 10000, 0.95, KEYDIST_UNIFORM },
    { "general-rw", 25, 400,  8, 10000, 0.50, KEYDIST_UNIFORM },
    { "general-wh", 25, 400,  8, 10000, 0.30, KEYDIST_UNIFORM },
};

int workload_preset(workload_params *p, const char *name) {
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(name, presets[i].name)) {
            p->sessions = presets[i].sessions;
            p->txns_per_session = presets[i].txns;
            p->ops_per_txn = presets[i].ops;
            p->keys = presets[i].keys;
            p->read_fraction = presets[i].reads;
            p->dist = presets[i].dist;
            return 1;
        }
    return 0;
}

const char *workload_preset_names(void) { return "polysi, general-rh, general-rw, general-wh"; }

int workload_validate(const workload_params *p, ic_error *err) {
    if (p->sessions < 1 || p->sessions > 1000000) { ic_error_at(err, "", 0, "sessions must be 1..1000000"); return 0; }
    if (p->txns_per_session < 1) { ic_error_at(err, "", 0, "transactions per session must be at least 1"); return 0; }
    if ((uint64_t)p->sessions * p->txns_per_session > (uint64_t)INT32_MAX) {
        ic_error_at(err, "", 0, "at most %d transactions in all", INT32_MAX); return 0;
    }
    if (p->ops_per_txn < 1 || p->ops_per_txn > 1000000) { ic_error_at(err, "", 0, "operations per transaction must be 1..1000000"); return 0; }
    if (p->long_ops < 1 || p->long_ops > 1000000) { ic_error_at(err, "", 0, "long transaction length must be 1..1000000"); return 0; }
    if (p->keys < 1 || p->keys > (uint64_t)1 << 32) { ic_error_at(err, "", 0, "keys must be 1..2^32"); return 0; }
    if (p->dist == KEYDIST_ZIPF && p->keys > (uint64_t)1 << 28) { ic_error_at(err, "", 0, "zipf supports at most 2^28 keys"); return 0; }
    if (!(p->read_fraction >= 0 && p->read_fraction <= 1)) { ic_error_at(err, "", 0, "read fraction must be in [0,1]"); return 0; }
    if (!(p->long_fraction >= 0 && p->long_fraction <= 1)) { ic_error_at(err, "", 0, "long fraction must be in [0,1]"); return 0; }
    if (!(p->fault_rate >= 0 && p->fault_rate <= 1)) { ic_error_at(err, "", 0, "fault rate must be in [0,1]"); return 0; }
    if (p->dist == KEYDIST_ZIPF && !(p->zipf_exponent > 0 && p->zipf_exponent <= 10)) {
        ic_error_at(err, "", 0, "zipf exponent must be in (0,10]"); return 0;
    }
    if ((unsigned)p->level > SIM_RC || (unsigned)p->fault >= FAULT_COUNT) { ic_error_at(err, "", 0, "unknown level or fault"); return 0; }
    return 1;
}

static const char *const level_names[] = { "ser", "si", "rc" };

const char *sim_level_name(sim_level l) { return (unsigned)l <= SIM_RC ? level_names[l] : "?"; }

int sim_level_parse(const char *s) {
    for (int i = 0; i <= SIM_RC; i++)
        if (!strcmp(s, level_names[i])) return i;
    if (!strcmp(s, "serializable")) return SIM_SER;
    if (!strcmp(s, "snapshot")) return SIM_SI;
    if (!strcmp(s, "read-committed")) return SIM_RC;
    return -1;
}

static const char *const fault_names[] = {
#define X(id, name, desc) name,
    SIM_FAULTS(X)
#undef X
};
static const char *const fault_descs[] = {
#define X(id, name, desc) desc,
    SIM_FAULTS(X)
#undef X
};

const char *sim_fault_name(sim_fault f) { return (unsigned)f < FAULT_COUNT ? fault_names[f] : "?"; }
const char *sim_fault_desc(sim_fault f) { return (unsigned)f < FAULT_COUNT ? fault_descs[f] : "?"; }

int sim_fault_parse(const char *s) {
    for (int i = 0; i < FAULT_COUNT; i++)
        if (!strcmp(s, fault_names[i])) return i;
    return -1;
}
