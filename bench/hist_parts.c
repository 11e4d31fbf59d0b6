/* hist_parts.c — what the history and its index hold, part by part (issue
 * 37: history + index are held through every stage).  Loads FILE as
 * `isocheck check` does (load_history_ex, every thread), builds the index
 * SI and SER share (pg_index_build_on), and prints per array its bytes and
 * bytes per transaction, with the process's resident size after the load
 * and after the index (VmRSS) beside the arrays' sum: what the sum does not
 * explain is the allocator's and the loader's; then history_spill (io/spill.h)
 * as `isocheck check` does after the index, and VmRSS again.
 *
 *   cc -O2 -DNDEBUG -Iinclude -I. -o build/bench/hist_parts bench/hist_parts.c \
 *      build/obj/libisocheck.a build/obj/libgsat.a -lpthread -lm
 *   build/bench/hist_parts FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "par.h"
#include "frontend/checking/polygraph.h"
#include "frontend/formats/parse.h"
#include "frontend/history/predicate.h"
#include "io/bigmem.h"
#include "io/spill.h"

static double ntx;
static double total;

static void row(const char *part, const char *what, double bytes) {
    total += bytes;
    if (bytes > 0) printf("| %s | %s | %.1f | %.1f |\n", part, what, bytes / 1e6, bytes / ntx);
}

static double rss(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) kb = atof(line + 6);
    if (f) fclose(f);
    return kb * 1024;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: hist_parts FILE\n"); return 2; }
    big_prefer_mappings();                  /* as `isocheck check`: large blocks have mappings of their own */
    spill_enable(getenv("TMPDIR"));
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    par_pool *pool = par_pool_new(cpus > 0 ? (unsigned)cpus : 1);
    load_options lo; memset(&lo, 0, sizeof lo);
    lo.threads = cpus > 0 ? (unsigned)cpus : 1;
    ic_error err; ic_error_clear(&err);
    history *h = load_history_ex(argv[1], FORMAT_AUTO, &lo, NULL, &err);
    if (!h) { fprintf(stderr, "%s\n", err.msg); return 2; }
    double rss_load = rss();
    ntx = h->num_txns;
    double ops = h->num_ops, keys = h->num_keys, writes = h->key_write_start[h->num_keys];
    printf("%s: %u transactions, %u ops, %u keys, %.0f writes\n\n", argv[1], h->num_txns, h->num_ops, h->num_keys, writes);
    printf("| part | array | MB | B/txn |\n|---|---|---|---|\n");
    row("history", "txns (32 B a transaction)", ntx * sizeof *h->txns);
    row("history", "sessions", (double)h->num_sessions * sizeof *h->sessions);
    row("history", "op_kind", ops);
    row("history", "op_key", ops * 4);
    row("history", "op_val32 / op_val64", h->op_val64 ? ops * 8 : ops * 4);
    row("history", "escaped values", h->num_esc * 12.0);
    row("history", "op_txn (base + delta, or full)", h->op_txn_full ? ops * 4 : ops + (ops / 256 + 1) * 4);
    row("history", "op_line", h->op_line ? ops * 4 : 0);
    row("history", "key_ext / key_name", keys * 8 + (h->key_name ? keys * 4 : 0));
    row("history", "key_write_start + key_writes", keys * 4 + writes * 4);
    row("history", "writer_slots", (double)h->writer_cap * 4);
    row("history", "lists + list_pool", (double)h->num_lists * sizeof *h->lists);
    row("history", "strings", (double)h->strings_len);
    for (int k = 0; k < TIME_KINDS; k++) row("history", "times", h->times[k] ? ntx * 8 : 0);
    row("history", "op_pred", h->op_pred ? ops * 4 : 0);
    double hist = total;
    printf("| history | **sum** | %.1f | %.1f |\n", hist / 1e6, hist / ntx);
    pg_index ix;
    if (!pg_index_build_on(&ix, h, &err, pool)) { fprintf(stderr, "%s\n", err.msg); return 2; }
    double rss_index = rss();
    total = 0;
    row("index", "in_graph", ix.num_node_txns);
    row("index", "key_unit_start, key_wr_start, key_ue_start", keys * 12);
    row("index", "units (16 B)", (double)(ix.units.len + 1) * sizeof(pg_unit));
    row("index", "members", (double)ix.members.cap * 4);
    row("index", "readers", (double)ix.readers.cap * 4);
    row("index", "base_wr", (double)ix.base_wr.cap * 4);
    row("index", "base_unit", (double)ix.base_unit.cap * sizeof(pg_edge));
    row("index", "base_tail", (double)ix.base_tail.cap * sizeof(pg_edge));
    row("index", "chains", ix.chain_sess ? ix.num_node_txns * 8.0 : 0);
    double index = total;
    printf("| index | **sum** | %.1f | %.1f |\n", index / 1e6, index / ntx);
    printf("\nVmRSS after the load %.1f MB (%.1f B/txn; arrays %.1f), after the index %.1f MB (%.1f B/txn; arrays %.1f)\n",
           rss_load / 1e6, rss_load / ntx, hist / ntx, rss_index / 1e6, rss_index / ntx, (hist + index) / ntx);
    history_spill(h);                       /* what `isocheck check` does once the index is built */
    double rss_spill = rss();
    printf("VmRSS after history_spill %.1f MB (%.1f B/txn): %.1f MB spilled\n", rss_spill / 1e6, rss_spill / ntx,
           (double)spill_total() / 1e6);
    pg_index_free(&ix);
    history_free(h);
    par_pool_free(pool);
    return 0;
}
