/* read_input.c — one stage of gsat's input alone, for bench/parse.sh.  Not
 * part of the product: the script compiles it against the current sources
 * and against an earlier commit's (-DBEFORE_API: gnf_parse_file had no
 * options then), so both are timed by the same driver.
 *
 *   read_input bytes FILE   every byte through io/reader.c (gzip decoded)
 *   read_input cnf FILE     DIMACS read into a solver, no solving
 *   read_input gnf FILE     GNF read into a solver, no solving
 *
 * Built with -DSTUB_ENGINE and linked with -Wl,--wrap=gsat_add_clause,
 * --wrap=gsat_graph_new,--wrap=gsat_graph_add_edge, the reader's clauses
 * (but unit clauses, which GNF's `acyclic` check needs) and edges go
 * nowhere: that times an earlier reader's text path alone, as it had no
 * text-only mode.
 *
 * Prints the byte count (bytes) or nothing; exit 0, or 2 with a message. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "gsat.h"
#include "solver/dimacs.h"
#include "io/reader.h"
#include "programs/gnf.h"

#ifdef STUB_ENGINE
int __real_gsat_add_clause(gsat *s, const int *lits, int n);
int __wrap_gsat_add_clause(gsat *s, const int *lits, int n);
int __wrap_gsat_graph_new(gsat *s, int nodes);
int __wrap_gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit);
int __wrap_gsat_add_clause(gsat *s, const int *lits, int n) { return n == 1 ? __real_gsat_add_clause(s, lits, n) : 1; }
int __wrap_gsat_graph_new(gsat *s, int nodes) { (void)s; (void)nodes; return 0; }
int __wrap_gsat_graph_add_edge(gsat *s, int graph, int from, int to, int lit) {
    (void)s; (void)graph; (void)from; (void)to; (void)lit;
    return 0;
}
#endif

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: read_input bytes|cnf|gnf FILE\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    ic_error err;
    ic_error_clear(&err);
    if (strcmp(mode, "bytes") == 0) {
        reader r;
        if (reader_open(&r, path, &err) < 0) { ic_error_print(stderr, "read_input", &err); return 2; }
        static unsigned char block[1 << 18];
        size_t total = 0, k;
        while ((k = reader_read_block(&r, block, sizeof block)) > 0) total += k;
        int bad = r.error != 0;
        if (bad) fprintf(stderr, "read_input: %s: %s\n", path, reader_strerror(&r));
        reader_close(&r);
        printf("%zu\n", total);
        return bad ? 2 : 0;
    }
    gsat *s = gsat_new();
    int rc;
    if (strcmp(mode, "cnf") == 0) {
        dimacs_info info;
        rc = dimacs_parse_file(s, path, NULL, &info, &err);
#ifndef BEFORE_API
        dimacs_info_free(&info);
#endif
    } else {
        gnf_info info;
#ifdef BEFORE_API
        rc = gnf_parse_file(s, path, &info, &err);
#else
        rc = gnf_parse_file(s, path, NULL, &info, &err);
#endif
        gnf_info_free(&info);
    }
    if (rc != 0) ic_error_print(stderr, "read_input", &err);
    gsat_free(s);
    return rc != 0 ? 2 : 0;
}
