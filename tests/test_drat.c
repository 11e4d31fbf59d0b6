/* test_drat.c — `gsat --proof` checked by an independent checker
 * (tests/drat_check.h: forward RUP, no code shared with the solver).
 *
 * The checker first proves it can fail (hand-made proofs: a step that is
 * not RUP, a deletion that matters, a missing empty clause).  Then gsat
 * (the binary beside this test: ../gsat, or $GSAT) solves unsatisfiable
 * CNFs — pigeonhole 5 and 6, examples/pigeonhole-5.cnf, random 3-SAT at
 * ratio 4.26 that gsat finds unsatisfiable, random 3-SAT with equivalent
 * variables, subsumed and strengthening clauses for preprocessing — with
 * --proof, in text and in binary DRAT, with the default search, one that
 * restarts, reduces and simplifies often and one without preprocessing;
 * each proof must be accepted (no deletion of a clause the checker does
 * not hold: these inputs have no unit clause), and the
 * same proof with one lemma removed must be rejected for some lemma
 * (the last ones are tried first), as must the proof without its empty
 * clause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "drat_check.h"

static char gsat_path[4096], example[4096];
static char dir[] = "/tmp/gsat_drat_XXXXXX";

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static void test_checker_can_fail(void **state) {
    (void)state;
    char cnf[300], proof[300];
    snprintf(cnf, sizeof cnf, "%s/four.cnf", dir);
    snprintf(proof, sizeof proof, "%s/hand.drat", dir);
    write_file(cnf, "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n");
    drat_result r;
    write_file(proof, "1 0\n0\n");
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 1);
    write_file(proof, "0\n");                       /* the empty clause is not RUP at once */
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 0);
    assert_non_null(strstr(r.msg, "not RUP"));
    write_file(proof, "1 0\n");                     /* no empty clause */
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 0);
    assert_non_null(strstr(r.msg, "never adds"));
    write_file(proof, "d 1 2 0\n1 0\n0\n");         /* without (1 2), 1 is not RUP */
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 0);
    write_file(proof, "1 0\nd 2 1 0\nd 5 0\n0\n"); /* any order; a missing clause is ignored */
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 1);
    assert_int_equal(r.missing_deletions, 1);
    write_file(proof, "1 0\n1 x 0\n");
    assert_int_equal(drat_check_files(cnf, proof, 0, &r), 0);
    assert_non_null(strstr(r.msg, "malformed"));
    /* binary: a 1 0, a 0 (i.e. "1 0" then "0") */
    FILE *f = fopen(proof, "wb");
    assert_non_null(f);
    const unsigned char bin[] = { 'a', 2, 0, 'a', 0 };
    assert_int_equal(fwrite(bin, 1, sizeof bin, f), sizeof bin);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(drat_check_files(cnf, proof, 1, &r), 1);
}

static void write_pigeonhole(const char *path, int holes) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int p = holes + 1;
    fprintf(f, "p cnf %d %d\n", p * holes, p + holes * p * (p - 1) / 2);
    for (int i = 0; i < p; i++) {
        for (int j = 0; j < holes; j++) fprintf(f, "%d ", i * holes + j + 1);
        fprintf(f, "0\n");
    }
    for (int j = 0; j < holes; j++)
        for (int a = 0; a < p; a++)
            for (int b = a + 1; b < p; b++) fprintf(f, "-%d -%d 0\n", a * holes + j + 1, b * holes + j + 1);
    assert_int_equal(fclose(f), 0);
}

static void write_random3(const char *path, int vars, uint64_t seed) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int clauses = (int)(vars * 4.26 + 0.5);
    fprintf(f, "p cnf %d %d\n", vars, clauses);
    uint64_t x = seed * 2654435761u + 1;
    for (int c = 0; c < clauses; c++) {
        int l[3];
        for (int k = 0; k < 3; k++) {
            int dup;
            do {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                l[k] = (int)(x % (uint64_t)vars) + 1;
                dup = 0;
                for (int m = 0; m < k; m++) dup |= l[m] == l[k];
            } while (dup);
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if (x & 1) l[k] = -l[k];
        }
        fprintf(f, "%d %d %d 0\n", l[0], l[1], l[2]);
    }
    assert_int_equal(fclose(f), 0);
}

/* Random 3-SAT at `ratio` with what preprocessing acts on: equivalent
 * pairs of variables, clauses a shorter one subsumes, pairs that
 * strengthen (the same clause with one literal negated). */
static void write_structured(const char *path, int vars, double ratio, uint64_t seed) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int base = (int)(vars * ratio), n3 = base, extra = vars / 8 * 2 + 2 * (vars / 6);
    int *cl = malloc((size_t)(base * 3) * sizeof *cl);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    fprintf(f, "p cnf %d %d\n", vars, n3 + extra);
    for (int c = 0; c < base; c++) {
        int *l = cl + 3 * c;
        l[0] = (int)(NEXT() % (uint64_t)vars) + 1;
        do l[1] = (int)(NEXT() % (uint64_t)vars) + 1; while (l[1] == l[0]);
        do l[2] = (int)(NEXT() % (uint64_t)vars) + 1; while (l[2] == l[0] || l[2] == l[1]);
        for (int k = 0; k < 3; k++) if (NEXT() & 1) l[k] = -l[k];
        fprintf(f, "%d %d %d 0\n", l[0], l[1], l[2]);
    }
    for (int e = 0; e < vars / 8; e++) {          /* a = b or a = -b */
        int a = (int)(NEXT() % (uint64_t)vars) + 1, b = a % vars + 1, s = (NEXT() & 1) ? 1 : -1;
        fprintf(f, "%d %d 0\n%d %d 0\n", a, -s * b, -a, s * b);
    }
    for (int e = 0; e < vars / 6; e++) {
        const int *l = cl + 3 * (int)(NEXT() % (uint64_t)base);
        int v = (int)(NEXT() % (uint64_t)vars) + 1;
        if (v == abs(l[0]) || v == abs(l[1]) || v == abs(l[2])) fprintf(f, "%d %d %d 0\n", l[0], l[1], l[2]);
        else fprintf(f, "%d %d %d %d 0\n", l[0], l[1], l[2], v);   /* subsumed */
        l = cl + 3 * (int)(NEXT() % (uint64_t)base);
        fprintf(f, "%d %d %d 0\n", -l[0], l[1], l[2]);            /* strengthens */
    }
#undef NEXT
    free(cl);
    assert_int_equal(fclose(f), 0);
}

static int run_gsat(const char *opts, const char *proof, const char *cnf) {
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' -q %s --proof '%s' '%s' > /dev/null", gsat_path, opts, proof, cnf);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The proof's text lines; the file rewritten without line `skip` (-1:
 * none) into out. */
static int copy_without(const char *in, const char *out, long skip) {
    size_t n;
    char *t = dc_slurp(in, &n);
    assert_non_null(t);
    FILE *f = fopen(out, "w");
    assert_non_null(f);
    long line = 0;
    for (char *p = t; *p;) {
        char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p + 1) : strlen(p);
        if (line != skip) assert_int_equal(fwrite(p, 1, len, f), len);
        line++;
        p += len;
    }
    assert_int_equal(fclose(f), 0);
    free(t);
    return (int)line;
}

/* Solve cnf with a proof, check it, and check that corruptions fail.
 * Returns gsat's exit code (only 20 gets the proof checked). */
static int prove(const char *cnf, const char *opts, int binary, int corrupt) {
    char proof[300], bad[300];
    snprintf(proof, sizeof proof, "%s/p.drat", dir);
    snprintf(bad, sizeof bad, "%s/bad.drat", dir);
    char o[200];
    snprintf(o, sizeof o, "%s%s", opts, binary ? " --binary-proof" : "");
    int rc = run_gsat(o, proof, cnf);
    if (rc != 20) return rc;
    drat_result r;
    int ok = drat_check_files(cnf, proof, binary, &r);
    if (!ok) fail_msg("%s (%s): proof rejected: %s", cnf, o, r.msg);
    assert_true(r.additions > 0);
    assert_int_equal(r.missing_deletions, 0);   /* no unit clauses in these inputs: every clause deleted is one the checker holds */
    if (!corrupt || binary) return rc;
    long lines = copy_without(proof, bad, -1);
    /* the last line is the empty clause: without it, no proof */
    copy_without(proof, bad, lines - 1);
    assert_int_equal(drat_check_files(cnf, bad, 0, &r), 0);
    /* some lemma is needed: remove additions from the end until one is */
    int rejected = 0;
    size_t n;
    char *t = dc_slurp(proof, &n);
    assert_non_null(t);
    long line = 0, tried = 0;
    long *adds = malloc((size_t)lines * sizeof *adds);
    for (char *p = t; *p; line++) {
        char *e = strchr(p, '\n');
        if (*p != 'd' && !(p[0] == '0' && p[1] == '\n')) adds[tried++] = line;
        p = e ? e + 1 : p + strlen(p);
    }
    free(t);
    for (long k = tried - 1; k >= 0 && k >= tried - 200 && !rejected; k--) {
        copy_without(proof, bad, adds[k]);
        rejected = !drat_check_files(cnf, bad, 0, &r);
    }
    free(adds);
    if (!rejected) fail_msg("%s: no single lemma removal was rejected", cnf);
    return rc;
}

static const char *const searches[] = {
    "",
    "--reduce-first=100 --reduce-inc=10 --restart=0 --luby-unit=5 --seed=7",
    "--chrono-levels=0 --stable=2 --walk-interval=50 --seed=3 --preprocess=0",
};

static void test_pigeonhole(void **state) {
    (void)state;
    char cnf[300];
    for (int holes = 5; holes <= 6; holes++) {
        snprintf(cnf, sizeof cnf, "%s/php%d.cnf", dir, holes);
        write_pigeonhole(cnf, holes);
        for (size_t i = 0; i < sizeof searches / sizeof *searches; i++)
            assert_int_equal(prove(cnf, searches[i], 0, holes == 5), 20);
        assert_int_equal(prove(cnf, "", 1, 0), 20);
    }
    assert_int_equal(prove(example, "", 0, 1), 20);
}

static void test_random(void **state) {
    (void)state;
    char cnf[300];
    int unsat = 0;
    for (uint64_t seed = 1; seed <= 40 && unsat < 4; seed++) {
        snprintf(cnf, sizeof cnf, "%s/r%llu.cnf", dir, (unsigned long long)seed);
        write_random3(cnf, 60, seed);
        int rc = prove(cnf, searches[seed % 3], 0, 1);
        assert_true(rc == 10 || rc == 20);
        if (rc == 20) {
            unsat++;
            assert_int_equal(prove(cnf, searches[(seed + 1) % 3], 1, 0), 20);
        }
    }
    assert_true(unsat >= 3);
}

/* gsat -v's counter `name` on cnf, added to *sum. */
static void add_counters(const char *cnf, const char *const *names, long long *sums) {
    char cmd[9000], line[256];
    snprintf(cmd, sizeof cmd, "'%s' -v -n '%s'", gsat_path, cnf);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    while (fgets(line, sizeof line, p))
        for (int i = 0; names[i]; i++) {
            size_t n = strlen(names[i]);
            long long v;
            if (!strncmp(line, "c ", 2) && !strncmp(line + 2, names[i], n) && line[2 + n] == ':' &&
                sscanf(line + 3 + n, "%lld", &v) == 1)
                sums[i] += v;
        }
    pclose(p);
}

/* Preprocessing's steps traced: substitutions, subsumption, strengthening,
 * eliminations (gsat -v shows each at work on these inputs). */
static void test_preprocessing(void **state) {
    (void)state;
    char cnf[300];
    int unsat = 0;
    static const char *const names[] = { "simp_substituted", "simp_subsumed", "simp_strengthened", "simp_eliminated", NULL };
    long long sums[4] = {0};
    for (uint64_t seed = 1; seed <= 30 && unsat < 6; seed++) {
        snprintf(cnf, sizeof cnf, "%s/s%llu.cnf", dir, (unsigned long long)seed);
        write_structured(cnf, 80 + 5 * (int)seed, seed % 2 ? 3.6 : 4.0, seed);
        int rc = prove(cnf, seed % 2 ? "" : "--preprocess=2 --elim-bound=5 --reduce-first=100", 0, unsat < 2);
        assert_true(rc == 10 || rc == 20);
        unsat += rc == 20;
        if (rc == 20) add_counters(cnf, names, sums);
    }
    assert_true(unsat >= 4);
    for (int i = 0; names[i]; i++)
        if (sums[i] == 0) fail_msg("%s: 0 on every instance: the test does not exercise it", names[i]);
}

int main(int argc, char **argv) {
    (void)argc;
    /* this test is build/debug/tests/test_drat: gsat one folder up, the
     * sources three */
    const char *g = getenv("GSAT"), *slash = strrchr(argv[0], '/');
    int n = slash ? (int)(slash - argv[0]) : 1;
    const char *here = slash ? argv[0] : ".";
    if (g) snprintf(gsat_path, sizeof gsat_path, "%s", g);
    else snprintf(gsat_path, sizeof gsat_path, "%.*s/../gsat", n, here);
    snprintf(example, sizeof example, "%.*s/../../../examples/pigeonhole-5.cnf", n, here);
    if (access(gsat_path, X_OK) != 0) { fprintf(stderr, "test_drat: no gsat at %s\n", gsat_path); return 1; }
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_can_fail),
        cmocka_unit_test(test_pigeonhole),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_preprocessing),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
