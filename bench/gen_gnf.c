/* gen_gnf.c — fixed-seed generator of acyclicity benchmarks in GNF (the
 * format both gsat and MonoSAT read).  Not part of the product: bench/graph.sh
 * compiles and runs it.
 *
 *   gen_gnf pairs  NODES PAIRS  SEED [unsat] > file.gnf
 *   gen_gnf triple NODES TRIPLES SEED [unsat] > file.gnf
 *   gen_gnf rw     NODES PAIRS  SEED [unsat] > file.gnf
 *
 * Every edge has its own variable (MonoSAT requires it); an edge that is
 * always on has a unit clause, edges of one alternative are tied to the
 * alternative's variable by equivalences.
 * A hidden random order of the nodes; a random DAG of always-on edges
 * (NODES of them, each forward in the hidden order).
 *   pairs:  per pair of nodes u, v a variable x with x -> u->v and a second
 *           variable y = not x with y -> v->u (exactly one direction).
 *   triple: per triple a, b, c three variables (at least one true), the
 *           i-th putting its node first: x1 -> a->b, a->c; x2 -> b->a, b->c;
 *           x3 -> c->a, c->b (a polygraph-like three-way choice).
 *   rw:     SI-style writer pairs: writers a, b of one key, ra reading a's
 *           value (always-on a->ra), rb reading b's (b->rb); either a before
 *           b (x -> a->b, ra->b: the reader of a's value precedes b) or b
 *           before a (y = not x -> b->a, rb->a).  Readers are drawn so that
 *           the hidden order satisfies one side; the two edges of a side
 *           need not agree with the solver's current order, so branching
 *           alone does not avoid conflicts.
 * Both are satisfiable (follow the hidden order).  "unsat" adds one more
 * choice whose every alternative closes a cycle with a path of always-on
 * edges through random nodes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static uint64_t rnd(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}
static long pick(long n) { return (long)((rnd() >> 11) % (uint64_t)n); }

static char obuf[1 << 16];

static void fixed_edge(long a, long b, long *next_var) {
    long v = (*next_var)++;
    printf("edge 0 %ld %ld %ld\n%ld 0\n", a, b, v, v);
}

/* An edge whose own variable is equivalent to x. */
static void tied_edge(long a, long b, long x, long *next_var) {
    long v = (*next_var)++;
    printf("edge 0 %ld %ld %ld\n-%ld %ld 0\n%ld -%ld 0\n", a, b, v, x, v, x, v);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: gen_gnf pairs|triple|rw NODES COUNT SEED [unsat]\n");
        return 2;
    }
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    int triple = strcmp(argv[1], "triple") == 0, rw = strcmp(argv[1], "rw") == 0;
    long n = atol(argv[2]), m = atol(argv[3]);
    rng = (uint64_t)atoll(argv[4]) * 0x9E3779B97F4A7C15ULL + 1;
    int unsat = argc > 5 && strcmp(argv[5], "unsat") == 0;
    long *perm = malloc((size_t)n * sizeof *perm), *pos = malloc((size_t)n * sizeof *pos);
    for (long i = 0; i < n; i++) perm[i] = i;
    for (long i = n - 1; i > 0; i--) { long j = pick(i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    for (long i = 0; i < n; i++) pos[perm[i]] = i;     /* hidden order position of node */

    long acyc_var = 1, next_var = 2;
    printf("c gen_gnf %s %ld %ld seed %s%s\n", argv[1], n, m, argv[4], unsat ? " unsat" : "");
    printf("digraph %ld %ld 0\n", n, n + (triple ? 6 : rw ? 6 : 2) * m);
    printf("%ld 0\n", acyc_var);
    /* always-on DAG: n random forward edges */
    for (long i = 0; i < n; i++) {
        long a = pick(n), b = pick(n);
        if (a == b) continue;
        if (pos[a] > pos[b]) { long t = a; a = b; b = t; }
        fixed_edge(a, b, &next_var);
    }
    for (long k = 0; k < m && rw; k++) {
        long a = pick(n), b = pick(n);
        if (a == b) { k--; continue; }
        if (pos[a] > pos[b]) { long t = a; a = b; b = t; }   /* a first in the hidden order */
        if (pos[b] - pos[a] < 2 || pos[b] == n - 1) { k--; continue; }
        long ra = perm[pos[a] + 1 + pick(pos[b] - pos[a] - 1)];   /* between a and b */
        long rb = perm[pos[b] + 1 + pick(n - 1 - pos[b])];        /* after b */
        if (pick(2)) { long t = a; a = b; b = t; t = ra; ra = rb; rb = t; }   /* hide which side holds */
        fixed_edge(a, ra, &next_var);
        fixed_edge(b, rb, &next_var);
        long x = next_var++, y = next_var++;
        printf("edge 0 %ld %ld %ld\n", a, b, x);
        tied_edge(ra, b, x, &next_var);
        printf("edge 0 %ld %ld %ld\n", b, a, y);
        tied_edge(rb, a, y, &next_var);
        printf("%ld %ld 0\n-%ld -%ld 0\n", x, y, x, y);
    }
    for (long k = 0; k < m && !rw; k++) {
        if (!triple) {
            long u = pick(n), v = pick(n);
            if (u == v) v = (u + 1) % n;
            long x = next_var++, y = next_var++;
            printf("edge 0 %ld %ld %ld\nedge 0 %ld %ld %ld\n%ld %ld 0\n-%ld -%ld 0\n", u, v, x, v, u, y, x, y, x, y);
        } else {
            long a = pick(n), b = pick(n), c = pick(n);
            if (a == b || b == c || a == c) { k--; continue; }
            long x1 = next_var++, x2 = next_var++, x3 = next_var++;
            printf("edge 0 %ld %ld %ld\n", a, b, x1);
            tied_edge(a, c, x1, &next_var);
            printf("edge 0 %ld %ld %ld\n", b, a, x2);
            tied_edge(b, c, x2, &next_var);
            printf("edge 0 %ld %ld %ld\n", c, a, x3);
            tied_edge(c, b, x3, &next_var);
            printf("%ld %ld %ld 0\n", x1, x2, x3);
        }
    }
    if (unsat) {
        /* k nodes in hidden order; a chain of always-on edges through them,
         * then one choice whose alternatives all point backwards */
        long k = triple ? 3 : 2, chain[3];   /* rw: like pairs */
        for (long i = 0; i < k; i++) chain[i] = pick(n);
        for (long i = 0; i < k; i++)
            for (long j = i + 1; j < k; j++)
                if (pos[chain[j]] < pos[chain[i]]) { long t = chain[i]; chain[i] = chain[j]; chain[j] = t; }
        for (long i = 0; i + 1 < k; i++) {
            /* path chain[i] ~> chain[i+1] through 20 intermediate nodes (extra nodes) */
            long prev = chain[i];
            for (long step = 0; step < 20; step++) {
                long mid = n + (i * 20) + step;   /* fresh nodes keep the DAG intact */
                printf("node 0 %ld\n", mid);
                fixed_edge(prev, mid, &next_var);
                prev = mid;
            }
            fixed_edge(prev, chain[i + 1], &next_var);
        }
        if (!triple) {
            long x = next_var++, y = next_var++;
            /* either way the same back edge: x -> chain[1]->chain[0], y -> a copy */
            printf("edge 0 %ld %ld %ld\nedge 0 %ld %ld %ld\n%ld %ld 0\n", chain[1], chain[0], x, chain[1], chain[0], y, x, y);
        } else {
            long x1 = next_var++, x2 = next_var++, x3 = next_var++;
            printf("edge 0 %ld %ld %ld\nedge 0 %ld %ld %ld\nedge 0 %ld %ld %ld\n", chain[2], chain[0], x1, chain[1], chain[0], x2,
                   chain[2], chain[1], x3);
            printf("%ld %ld %ld 0\n", x1, x2, x3);
        }
    }
    printf("acyclic 0 %ld\n", acyc_var);
    free(perm); free(pos);
    return 0;
}
