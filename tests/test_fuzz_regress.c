/* test_fuzz_regress.c — replay every input that ever broke a reader or the
 * engine's API (tests/data/fuzz-regress/<target>-<name>, targets: text,
 * dbcop, cobra, elle, json, cert, gnf, dimacs, api, and verdict: verdicts
 * kept through every writer) through the fuzz bodies of tests/fuzz/, plus a
 * few hand-picked nasty inputs.
 *
 * Each input runs in a child process, so that one crash names its input
 * and the others still run.  It passes when the child ends normally (a
 * verdict, or a clean error with a message: the bodies abort() on an
 * error without one, and leak nothing) or exits 2 after running out of
 * memory: this binary
 * caps single allocations at 512 MB (__asan_default_options), the way a
 * memory limit would, so a header that declares billions of nodes gives
 * "out of memory" instead of taking the machine's memory.  Anything else
 * (a signal, a sanitizer report, a timeout of 60 s) fails.  The API
 * target's inputs may not exit at all: out of memory there is an error the
 * library returns.
 *
 * tests/data/fuzz-regress/PENDING lists inputs whose fix is on another
 * branch ("NAME  why"): their failures are reported, not counted, and a
 * pending input that passes is reported so that its line can go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_api_body.h"
#include "tests/fuzz/fuzz_body.h"
#include "tests/fuzz/fuzz_cert_body.h"
#include "tests/fuzz/fuzz_gnf_body.h"
#include "tests/fuzz/fuzz_verdict_body.h"

/* (visible: the objects are built with hidden visibility, and the
 * sanitizer runtime looks the hook up by name) */
const char *__asan_default_options(void) __attribute__((visibility("default")));
const char *__asan_default_options(void) { return "allocator_may_return_null=1:max_allocation_size_mb=512"; }
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));   /* present under ASan */

/* The crash handlers before cmocka replaced them with its own (which
 * would longjmp a crashed child back into the test runner). */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS };
static struct sigaction saved_handlers[sizeof crash_signals / sizeof *crash_signals];

static void save_crash_handlers(void) {
    for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
        sigaction(crash_signals[i], NULL, &saved_handlers[i]);
}

/* In a child, exit() only comes from the out-of-memory path (vec.h's
 * xalloc_fail, exit code 2): end there, before the leak checker would
 * count the abandoned solver as leaked. */
static void child_exit_is_out_of_memory(void) { _exit(2); }

#define CORPUS "tests/data/fuzz-regress"

typedef enum { R_TEXT, R_DBCOP, R_COBRA, R_ELLE, R_JSON, R_CERT, R_GNF, R_DIMACS, R_VERDICT, R_API, R_NONE } reader_kind;
static const char *const reader_prefix[] = { "text-", "dbcop-", "cobra-", "elle-", "json-", "cert-", "gnf-", "dimacs-",
                                             "verdict-", "api-" };

static reader_kind kind_of(const char *name) {
    for (int k = 0; k < R_NONE; k++)
        if (!strncmp(name, reader_prefix[k], strlen(reader_prefix[k]))) return (reader_kind)k;
    return R_NONE;
}

static void run_body(reader_kind k, const uint8_t *data, size_t n) {
    static const history_format fmt[] = { FORMAT_TEXT, FORMAT_DBCOP, FORMAT_COBRA, FORMAT_ELLE, FORMAT_JSON };
    switch (k) {
    case R_CERT: fuzz_cert_one(data, n); break;
    case R_GNF: fuzz_gnf_one(data, n); break;
    case R_DIMACS: fuzz_dimacs_one(data, n); break;
    case R_VERDICT: fuzz_verdict_one(data, n); break;
    case R_API: fuzz_api_one(data, n); break;
    default: fuzz_one(data, n, fmt[k]); break;
    }
}

typedef void (*body_fn)(reader_kind k, const uint8_t *data, size_t n);

/* Run one input in a child; 1 if it passed, else 0 with why in buf. */
static int replay(body_fn body, reader_kind k, const uint8_t *data, size_t n, char *why, size_t wn) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) { snprintf(why, wn, "fork failed"); return 0; }
    if (pid == 0) {
        for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
            sigaction(crash_signals[i], &saved_handlers[i], NULL);
        atexit(child_exit_is_out_of_memory);
        alarm(60);
        body(k, data, n);
        if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check()) _exit(3);
        _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid) { snprintf(why, wn, "waitpid failed"); return 0; }
    if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || (WEXITSTATUS(st) == 2 && k != R_API))) return 1;
    if (WIFSIGNALED(st)) snprintf(why, wn, "killed by signal %d%s", WTERMSIG(st), WTERMSIG(st) == SIGALRM ? " (timeout)" : "");
    else if (WEXITSTATUS(st) == 3) snprintf(why, wn, "memory leaked");
    else snprintf(why, wn, "exit status %d (a sanitizer report?)", WEXITSTATUS(st));
    return 0;
}

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len == cap) buf = realloc(buf, cap = cap ? 2 * cap : 4096);
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = len;
    return buf;
}

/* Is name listed in PENDING? */
static int pending(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == 0)) return 1;
    return 0;
}

static void replay_corpus(void **state) {
    (void)state;
    DIR *d = opendir(CORPUS);
    if (!d) { fprintf(stderr, "%s absent (run from the repository root)\n", CORPUS); fail(); }
    size_t pn = 0;
    uint8_t *plist = slurp(CORPUS "/PENDING", &pn);
    char *list = calloc(pn + 1, 1);
    if (plist) memcpy(list, plist, pn);
    free(plist);
    int replayed = 0, failed = 0, per_kind[R_NONE] = { 0 };
    struct dirent *e;
    while ((e = readdir(d))) {
        reader_kind k = kind_of(e->d_name);
        if (k == R_NONE) continue;
        char path[512], why[128];
        snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
        size_t n;
        uint8_t *data = slurp(path, &n);
        assert_non_null(data);
        int ok = replay(run_body, k, data, n, why, sizeof why);
        free(data);
        replayed++;
        per_kind[k]++;
        int is_pending = pending(list, e->d_name);
        if (!ok && is_pending) fprintf(stderr, "pending (fixed on another branch): %s: %s\n", e->d_name, why);
        else if (!ok) { fprintf(stderr, "FAILED: %s: %s\n", e->d_name, why); failed++; }
        else if (is_pending) fprintf(stderr, "note: %s passes now: remove it from %s/PENDING\n", e->d_name, CORPUS);
    }
    closedir(d);
    free(list);
    fprintf(stderr, "replayed %d inputs (text %d, dbcop %d, cobra %d, elle %d, json %d, cert %d, gnf %d, dimacs %d, "
            "verdict %d), %d failed\n", replayed, per_kind[R_TEXT], per_kind[R_DBCOP], per_kind[R_COBRA], per_kind[R_ELLE],
            per_kind[R_JSON], per_kind[R_CERT], per_kind[R_GNF], per_kind[R_DIMACS], per_kind[R_VERDICT], failed);
    fprintf(stderr, "replayed %d inputs (text %d, dbcop %d, cobra %d, elle %d, json %d, cert %d, gnf %d, dimacs %d, api %d), %d failed\n",
            replayed, per_kind[R_TEXT], per_kind[R_DBCOP], per_kind[R_COBRA], per_kind[R_ELLE], per_kind[R_JSON], per_kind[R_CERT],
            per_kind[R_GNF], per_kind[R_DIMACS], per_kind[R_API], failed);
    assert_true(replayed > 0);
    assert_int_equal(failed, 0);
}

static void crashing_body(reader_kind k, const uint8_t *data, size_t n) {
    (void)k; (void)data; (void)n;
    abort();
}

/* The replay can fail: a crash in the child is caught and named. */
static void replay_catches_a_crash(void **state) {
    (void)state;
    char why[128] = "";
    assert_int_equal(replay(run_body, R_TEXT, (const uint8_t *)"r(1,0,1,1)\n", 11, why, sizeof why), 1);
    assert_int_equal(replay(crashing_body, R_TEXT, (const uint8_t *)"", 0, why, sizeof why), 0);
    assert_string_equal(why, "killed by signal 6");
}

static void nasty_inputs(void **state) {
    (void)state;
    static const char *text[] = { "", "\n\n", "r(", "w(1,1,1,1", "r(1,0,1,1)", "w(1,1,1,1)\nr(1,1,1,1)\n",
                                  "w(9223372036854775807,-9223372036854775807,0,0)" };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) {
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_TEXT);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_ELLE);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_DBCOP);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_COBRA);
    }
    static const char *elle[] = { "{", "{:type", "{:type :ok :f :txn :process 0 :value [[:r 1 [", "#{", "#", "\\",
                                  "{:type :ok, :f :txn, :process 0, :value [[:r 1 [1]] [:r 1 nil]]}" };
    for (size_t i = 0; i < sizeof elle / sizeof *elle; i++) fuzz_one((const uint8_t *)elle[i], strlen(elle[i]), FORMAT_ELLE);
    static const char *json[] = { "[", "{\"", "[{\"type\":\"ok\",\"value\":[[\"r\",1,[", "\"\\ud800", "-", "1e",
                                  "[{\"type\":\"ok\",\"process\":\"p\",\"value\":[[\"w\",\"k\",\"v\"],[\"r\",\"k\",null]]}]" };
    for (size_t i = 0; i < sizeof json / sizeof *json; i++) fuzz_one((const uint8_t *)json[i], strlen(json[i]), FORMAT_JSON);
    static const char *cert[] = { "", "isocheck-certificate 1\n", "isocheck-certificate 1\nlevel si\nend\n",
                                  "isocheck-certificate 1\nlevel ser\nkey 1 INIT 1\nkey 2 INIT 1 3\norder 1 2 3 4\nend\n",
                                  "isocheck-certificate 1\nlevel si\nkey \"", "w(1,1,1,1)\n%%\nisocheck-certificate 1\nlevel ser\norder 1\nend\n" };
    for (size_t i = 0; i < sizeof cert / sizeof *cert; i++) fuzz_cert_one((const uint8_t *)cert[i], strlen(cert[i]));
    static const char *gnf[] = { "", "p cnf 1 1\n1 0\n", "digraph 3 0 0\nedge 0 0 1 1\nedge 0 1 0 2\nacyclic 0 3\n3 0\n",
                                 "solve\n", "c\n%\n" };
    for (size_t i = 0; i < sizeof gnf / sizeof *gnf; i++) {
        fuzz_gnf_one((const uint8_t *)gnf[i], strlen(gnf[i]));
        fuzz_dimacs_one((const uint8_t *)gnf[i], strlen(gnf[i]));
    }
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) fuzz_verdict_one((const uint8_t *)text[i], strlen(text[i]));
    for (size_t i = 0; i < sizeof elle / sizeof *elle; i++) fuzz_verdict_one((const uint8_t *)elle[i], strlen(elle[i]));
    for (size_t i = 0; i < sizeof json / sizeof *json; i++) fuzz_verdict_one((const uint8_t *)json[i], strlen(json[i]));
}

/* The verdict body's parts: fuzz_verdict tells PASS from FAIL, and a
 * history written as dbcop or cobra reads back with its verdict. */
static void verdict_body_compares(void **state) {
    (void)state;
    static const char lost[] = "r(1,0,1,1)\nw(1,1,1,1)\nr(1,0,2,2)\nw(1,2,2,2)\n";   /* a lost update: SI fails */
    static const char fine[] = "w(1,1,1,1)\nr(1,1,2,2)\n";
    ic_error err;
    ic_error_clear(&err);
    history *a = load_history_mem(lost, strlen(lost), FORMAT_TEXT, "t", &err), *b = load_history_mem(fine, strlen(fine), FORMAT_TEXT, "t", &err);
    assert_non_null(a); assert_non_null(b);
    assert_int_equal(fuzz_verdict(a, LEVEL_SI, "t"), 1);
    assert_int_equal(fuzz_verdict(b, LEVEL_SI, "t"), 0);
    assert_int_equal(fuzz_verdict(b, LEVEL_SER, "t"), 0);
    for (int f = 0; f < 2; f++) {                        /* every writer keeps them */
        history *back = fuzz_rewrite(f ? b : a, f ? FORMAT_COBRA : FORMAT_DBCOP);
        assert_non_null(back);
        assert_int_equal(fuzz_verdict(back, LEVEL_SI, "t"), f ? 0 : 1);
        history_free(back);
    }
    history_free(a); history_free(b);
}

int main(void) {
    save_crash_handlers();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_catches_a_crash),
        cmocka_unit_test(replay_corpus),
        cmocka_unit_test(nasty_inputs),
        cmocka_unit_test(verdict_body_compares),
    };
    return cmocka_run_group_tests_name("fuzz_regress", tests, NULL, NULL);
}
