/* test_online_follow.c — where `check --follow` keeps the bytes it has
 * parsed (frontend/online/follow.h: follow_spill, follow_all).
 *
 * Asserted:
 *   - a pipe's bytes spilled in several slices go to a temporary file in
 *     $TMPDIR that is already unlinked (the directory stays empty), and
 *     follow_all() gives back exactly the bytes read, in order;
 *   - with no usable $TMPDIR the bytes stay in memory, a note says why,
 *     and follow_all() gives back the same bytes; likewise when a write
 *     to the temporary file fails (a file size limit), before or after
 *     bytes went into it (those are read back first);
 *   - a regular file's spilled bytes are read again from the file (no
 *     copy of them is kept), and a file rewritten under us (a byte of the
 *     spilled part changed, or the file cut short) is an error, not other
 *     bytes handed to the final check;
 *   - follow_load() (the final check's load, straight from where the bytes
 *     are) gives the history a batch load of every byte gives — the
 *     spilled part and the part still in memory, nothing skipped — with
 *     the batch parser's errors and line numbers, leaves the bytes where
 *     they were, and refuses (no history) spilled bytes that changed: in
 *     the temporary file, or in the followed file, even where the change
 *     still parses (only the checksum sees it) and even after a syntax
 *     error that stopped the parser before them;
 *   - a followed file that does not only grow is an error at the next read
 *     or poll (cut short; cut short and written past what was read;
 *     renamed away, with or without a new file under its name), or at the
 *     end (bytes still in memory rewritten in place);
 *   - a text transaction judged complete that grows later is no input
 *     error: follow_completed() says where (stopped) and completes nothing
 *     more, so the batch check of every byte decides, whatever the chunks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
#include "frontend/online/follow.h"
#include "frontend/formats/parse.h"

/* Some text of n bytes, every byte position telling apart. */
static char *make_bytes(size_t n) {
    char *b = malloc(n);
    for (size_t i = 0; i < n; i++) b[i] = (char)('a' + (i * 7 + i / 26) % 26);
    for (size_t i = 99; i < n; i += 100) b[i] = '\n';
    return b;
}

static int dir_entries(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* Read all of f (a pipe whose writer wrote want[0..n) and closed),
 * spilling up to some point after each read. */
static void read_spilling(follow_input *f, size_t n, int expect_spill) {
    ic_error err;
    ic_error_clear(&err);
    int got;
    size_t slices = 0;
    while ((got = follow_read(f, &err)) > 0) {
        size_t total = follow_total(f), upto = f->base + (total - f->base) / 2 + 1;   /* leave a tail in memory */
        if (upto > total) upto = total;
        int r = follow_spill(f, upto, &err);
        assert_int_equal(r, expect_spill);
        if (expect_spill) { assert_int_equal(f->base, upto); slices++; }
        else assert_int_equal(f->base, 0);
    }
    assert_int_equal(got, 0);
    assert_int_equal(follow_total(f), n);
    if (expect_spill) assert_true(slices >= 1);
}

/* A pipe holding b[0..n), writer closed; the path that opens it. */
static int pipe_of(const char *b, size_t n, char *path, size_t len) {
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_true(n <= 60000);                          /* fits the pipe's buffer: no writer thread */
    assert_int_equal(write(p[1], b, n), (ssize_t)n);
    close(p[1]);
    snprintf(path, len, "/proc/self/fd/%d", p[0]);
    return p[0];
}

/* TMPDIR set to a fresh directory dir (a "/tmp/...XXXXXX" template). */
static void fresh_tmpdir(char *dir) {
    assert_non_null(mkdtemp(dir));
    setenv("TMPDIR", dir, 1);
}

/* n made bytes (*bytes, the caller frees them) in a pipe, opened for
 * following as f; returns the pipe's read end, for the caller to close. */
static int follow_pipe_of(follow_input *f, size_t n, char **bytes, ic_error *err) {
    char path[64];
    *bytes = make_bytes(n);
    int rd = pipe_of(*bytes, n, path, sizeof path);
    ic_error_clear(err);
    assert_true(follow_open(f, path, 0, 0.01, getenv("TMPDIR"), err));
    return rd;
}

static void test_pipe_spills_to_unlinked_temp(void **state) {
    (void)state;
    char dir[] = "/tmp/test_follow.XXXXXX";
    fresh_tmpdir(dir);
    size_t n = 50000;
    char *b;
    follow_input f;
    ic_error err;
    int rd = follow_pipe_of(&f, n, &b, &err);
    assert_false(f.regular);
    read_spilling(&f, n, 1);
    assert_true(f.base > 0);
    assert_true(f.spill_fd >= 0 && f.spill_fd != f.fd);
    assert_int_equal(dir_entries(dir), 0);           /* unlinked as soon as made */
    assert_true(f.data.len < n);                     /* the rest is not in memory */
    assert_int_equal(follow_all(&f, &err), 1);
    assert_int_equal(f.base, 0);
    assert_int_equal(f.data.len, n);
    assert_memory_equal(f.data.data, b, n);
    assert_int_equal(follow_spill(&f, n, &err), 0);  /* kept in memory from now on */
    assert_int_equal(f.data.len, n);
    follow_close(&f);
    close(rd);
    assert_int_equal(rmdir(dir), 0);
    unsetenv("TMPDIR");
    free(b);
}

static void test_pipe_without_tmpdir_stays_in_memory(void **state) {
    (void)state;
    setenv("TMPDIR", "/nonexistent/test_follow", 1);
    size_t n = 30000;
    char *b;
    follow_input f;
    ic_error err;
    int rd = follow_pipe_of(&f, n, &b, &err);
    read_spilling(&f, n, 0);
    assert_non_null(strstr(f.note, "cannot create a temporary file in /nonexistent/test_follow"));
    assert_true(f.keep);
    assert_int_equal(follow_all(&f, &err), 1);
    assert_int_equal(f.data.len, n);
    assert_memory_equal(f.data.data, b, n);
    assert_false(err.set);
    follow_close(&f);
    close(rd);
    unsetenv("TMPDIR");
    free(b);
}

/* Writes to the temporary file fail past 20,000 bytes (RLIMIT_FSIZE,
 * SIGXFSZ ignored: write() says EFBIG): the first spill fits, the second
 * does not; the bytes come back from the file and stay in memory. */
static void test_pipe_write_fails(void **state) {
    (void)state;
    char dir[] = "/tmp/test_follow.XXXXXX";
    fresh_tmpdir(dir);
    size_t n = 50000;
    char *b;
    follow_input f;
    ic_error err;
    int rd = follow_pipe_of(&f, n, &b, &err);
    assert_int_equal(follow_read(&f, &err), 1);
    assert_int_equal(follow_total(&f), n);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 20000;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    assert_int_equal(follow_spill(&f, 10000, &err), 1);      /* fits */
    assert_int_equal(f.base, 10000);
    assert_int_equal(follow_spill(&f, 30000, &err), 0);      /* 10,000 more than the limit: back in memory */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_false(err.set);
    assert_non_null(strstr(f.note, "cannot write the temporary file"));
    assert_true(f.keep);
    assert_int_equal(f.base, 0);
    assert_int_equal(f.data.len, n);
    assert_memory_equal(f.data.data, b, n);
    assert_int_equal(follow_spill(&f, n, &err), 0);          /* from now on in memory */
    assert_int_equal(f.data.len, n);
    assert_int_equal(follow_all(&f, &err), 1);
    assert_memory_equal(f.data.data, b, n);
    follow_close(&f);
    close(rd);
    assert_int_equal(rmdir(dir), 0);
    unsetenv("TMPDIR");
    free(b);
}

/* A regular file of b[0..n), followed to its end (idle 0), spilled. */
static void follow_file(follow_input *f, const char *path, size_t n) {
    ic_error err;
    ic_error_clear(&err);
    assert_true(follow_open(f, path, 0, 0.01, getenv("TMPDIR"), &err));
    assert_true(f->regular);
    read_spilling(f, n, 1);
    assert_int_equal(f->spill_fd, f->fd);            /* the file itself, nothing written anywhere */
}

static void test_file_read_again_or_refused(void **state) {
    (void)state;
    char path[] = "/tmp/test_follow_file.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = 200000;
    char *b = make_bytes(n);
    assert_int_equal(write(fd, b, n), (ssize_t)n);
    ic_error err;
    follow_input f;

    follow_file(&f, path, n);                         /* unchanged: the same bytes */
    ic_error_clear(&err);
    assert_int_equal(follow_all(&f, &err), 1);
    assert_int_equal(f.data.len, n);
    assert_memory_equal(f.data.data, b, n);
    follow_close(&f);

    follow_file(&f, path, n);                         /* a byte of the spilled part changed in place */
    assert_true(f.base > 10);
    assert_int_equal(pwrite(fd, "#", 1, 10), 1);
    ic_error_clear(&err);
    assert_int_equal(follow_all(&f, &err), 0);
    assert_true(err.set);
    assert_non_null(strstr(err.msg, "the file changed while it was followed"));
    follow_close(&f);
    assert_int_equal(pwrite(fd, b + 10, 1, 10), 1);

    follow_file(&f, path, n);                         /* cut short */
    size_t base = f.base;
    assert_int_equal(ftruncate(fd, (off_t)(base / 2)), 0);
    ic_error_clear(&err);
    assert_int_equal(follow_all(&f, &err), 0);
    assert_non_null(strstr(err.msg, "the file changed while it was followed"));
    follow_close(&f);

    close(fd);
    unlink(path);
    free(b);
}

/* A text history of n bytes or a little more (whole lines): writes and
 * reads over 7 keys by 3 sessions, every line telling apart. */
static char *make_text(size_t n, size_t *len) {
    char *b = malloc(n + 64);
    size_t at = 0;
    for (unsigned t = 1; at < n; t++) {
        at += (size_t)sprintf(b + at, "w(%u,%u,%u,%u)\n", t % 7, t, t % 3, t);
        if (t % 4 == 0) at += (size_t)sprintf(b + at, "r(%u,%u,%u,%u)\n", (t + 3) % 7, t / 2, t % 3, t);
    }
    *len = at;
    return b;
}

/* h is the history a batch load of b[0..n) gives: every array equal. */
static void assert_same_as_batch(const history *h, const char *b, size_t n) {
    ic_error err;
    ic_error_clear(&err);
    history *want = load_history_mem(b, n, FORMAT_TEXT, "-", &err);
    assert_non_null(want);
    assert_non_null(h);
    assert_int_equal(h->num_txns, want->num_txns);
    assert_int_equal(h->num_ops, want->num_ops);
    assert_int_equal(h->num_keys, want->num_keys);
    assert_int_equal(h->num_sessions, want->num_sessions);
    assert_memory_equal(h->op_kind, want->op_kind, want->num_ops);
    assert_memory_equal(h->op_key, want->op_key, want->num_ops * sizeof *want->op_key);
    for (uint32_t op = 0; op < want->num_ops; op++) {
        assert_true(history_op_value(h, op) == history_op_value(want, op));
        assert_int_equal(history_op_txn(h, op), history_op_txn(want, op));
    }
    for (uint32_t t = 0; t < want->num_txns; t++) assert_true(h->txns[t].ext_id == want->txns[t].ext_id);
    history_free(want);
}

/* follow_load of f (both parts present): the batch load's history, and f
 * as it was (nothing brought back into memory). */
static void assert_loads(follow_input *f, const char *b, size_t n) {
    size_t base = f->base, len = f->data.len;
    assert_true(base > 0 && len > 0);                /* a spilled part and a part in memory */
    ic_error err;
    ic_error_clear(&err);
    history *h = follow_load(f, FORMAT_AUTO, NULL, NULL, &err);
    assert_false(err.set);
    assert_same_as_batch(h, b, n);
    assert_int_equal(f->base, base);
    assert_int_equal(f->data.len, len);
    history_free(h);
}

static void test_load_from_temp_file(void **state) {
    (void)state;
    char dir[] = "/tmp/test_follow.XXXXXX";
    fresh_tmpdir(dir);
    size_t n;
    char *b = make_text(40000, &n), path[64];
    int rd = pipe_of(b, n, path, sizeof path);
    ic_error err;
    ic_error_clear(&err);
    follow_input f;
    assert_true(follow_open(&f, path, 0, 0.01, getenv("TMPDIR"), &err));
    read_spilling(&f, n, 1);
    assert_true(f.spill_fd >= 0 && f.spill_fd != f.fd);
    assert_loads(&f, b, n);
    assert_loads(&f, b, n);                          /* again: nothing was used up */
    /* a digit of the temporary file changed: still text, but not the bytes read */
    char c;
    assert_int_equal(pread(f.spill_fd, &c, 1, 2), 1);
    assert_true(c >= '0' && c <= '9');
    char d = c == '9' ? '8' : (char)(c + 1);
    assert_int_equal(pwrite(f.spill_fd, &d, 1, 2), 1);
    ic_error_clear(&err);
    assert_null(follow_load(&f, FORMAT_AUTO, NULL, NULL, &err));
    assert_non_null(strstr(err.msg, "cannot read back the input kept in a temporary file: it changed"));
    follow_close(&f);
    close(rd);
    assert_int_equal(rmdir(dir), 0);
    unsetenv("TMPDIR");
    free(b);
}

static void test_load_from_file_again(void **state) {
    (void)state;
    char path[] = "/tmp/test_follow_file.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n;
    char *b = make_text(3000000, &n);                 /* more than the parser reads before a first-line error */
    assert_int_equal(write(fd, b, n), (ssize_t)n);
    ic_error err;
    follow_input f;

    follow_file(&f, path, n);                         /* unchanged: the batch history */
    assert_loads(&f, b, n);
    follow_close(&f);

    follow_file(&f, path, n);                         /* a digit of the spilled part changed: it still parses */
    assert_true(f.base > 100);
    assert_true(b[2] >= '0' && b[2] <= '9');
    char d = b[2] == '9' ? '8' : (char)(b[2] + 1);
    assert_int_equal(pwrite(fd, &d, 1, 2), 1);
    ic_error_clear(&err);
    assert_null(follow_load(&f, FORMAT_AUTO, NULL, NULL, &err));
    assert_non_null(strstr(err.msg, "the file changed while it was followed"));
    follow_close(&f);
    assert_int_equal(pwrite(fd, b + 2, 1, 2), 1);

    /* a syntax error at the start, a change far after it: the change is the error */
    assert_int_equal(pwrite(fd, "x", 1, 0), 1);
    follow_file(&f, path, n);
    assert_true(f.base > 1500000);
    size_t at = f.base - 10;
    while (b[at] < '0' || b[at] > '9') at--;
    d = b[at] == '9' ? '8' : (char)(b[at] + 1);
    assert_int_equal(pwrite(fd, &d, 1, (off_t)at), 1);
    ic_error_clear(&err);
    assert_null(follow_load(&f, FORMAT_TEXT, NULL, NULL, &err));
    assert_non_null(strstr(err.msg, "the file changed while it was followed"));
    follow_close(&f);
    assert_int_equal(pwrite(fd, b + at, 1, (off_t)at), 1);

    /* the syntax error alone: the batch parser's message, line and file name */
    follow_file(&f, path, n);
    ic_error_clear(&err);
    assert_null(follow_load(&f, FORMAT_TEXT, NULL, NULL, &err));
    ic_error want;
    ic_error_clear(&want);
    memcpy(b, "x", 1);
    assert_null(load_history_mem(b, n, FORMAT_TEXT, path, &want));
    assert_true(err.set && want.set);
    assert_int_equal(err.line, want.line);
    assert_string_equal(err.msg, want.msg);
    assert_string_equal(err.file, want.file);
    follow_close(&f);

    close(fd);
    unlink(path);
    free(b);
}

/* A text transaction judged complete that grows later (the batch parser
 * reads it as one transaction): not an input error, whatever the chunks;
 * stopped says where, nothing more is completed (the final check decides). */
static void test_completed_transaction_grows(void **state) {
    (void)state;
    const char *all = "w(1,1,1,1)\nw(2,2,1,2)\nw(3,3,1,1)\nw(4,4,1,3)\n";
    size_t first = strlen("w(1,1,1,1)\nw(2,2,1,2)\n");
    follow_parse p;
    follow_parse_init(&p, FORMAT_AUTO);
    ic_error err;
    ic_error_clear(&err);
    history *h = NULL;
    assert_int_equal(follow_completed(&p, all, first, "t", 0, &h, &err), 1);
    assert_non_null(h);                                   /* txn 1 complete: its session went on */
    assert_int_equal(p.completed, 1);
    history_free(h);
    assert_string_equal(p.stopped, "");
    h = NULL;
    assert_int_equal(follow_completed(&p, all, strlen(all), "t", 0, &h, &err), 1);
    assert_null(h);
    assert_false(err.set);
    assert_non_null(strstr(p.stopped, "t:3: transaction 1 gets an operation after its session went on"));
    assert_int_equal(follow_completed(&p, all, strlen(all), "t", 1, &h, &err), 1);   /* and from then on */
    assert_null(h);
    follow_parse_free(&p);
    /* the same bytes at once: nothing grows, nothing stops */
    follow_parse_init(&p, FORMAT_AUTO);
    assert_int_equal(follow_completed(&p, all, strlen(all), "t", 0, &h, &err), 1);
    assert_non_null(h);
    assert_string_equal(p.stopped, "");
    history_free(h);
    follow_parse_free(&p);
}

/* Write b[0..n) to path, replacing what it held (O_TRUNC: the same file). */
static void rewrite(const char *path, const char *b, size_t n) {
    int fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b, n), (ssize_t)n);
    close(fd);
}

/* A followed file that does not only grow is an error at the next read or
 * poll, never a splice of old and new bytes: cut short (copy-and-truncate),
 * cut short and written past what was read, renamed away (a new file under
 * the name), and, at the end, bytes still in memory rewritten in place. */
static void test_file_must_only_grow(void **state) {
    (void)state;
    char dir[] = "/tmp/test_follow_grow.XXXXXX", path[128], moved[160];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/h.txt", dir);
    snprintf(moved, sizeof moved, "%s/h.txt.1", dir);
    const char *old = "w(1,1,1,1)\nw(2,2,1,2)\n", *new = "w(1,5,7,70)\nw(2,6,7,71)\nr(1,1,8,80)\nr(2,0,8,80)\n";
    for (int c = 0; c < 5; c++) {
        FILE *w = fopen(path, "w");
        assert_non_null(w);
        fputs(old, w);
        fclose(w);
        follow_input f;
        ic_error err;
        ic_error_clear(&err);
        assert_true(follow_open(&f, path, 0, 0.01, NULL, &err));
        assert_int_equal(follow_read(&f, &err), 1);
        assert_int_equal(follow_total(&f), strlen(old));
        const char *want;
        if (c == 0) { rewrite(path, old, 5); want = "it was cut short (22 bytes read, 5 now"; }
        else if (c == 1) { rewrite(path, new, strlen(new)); want = "the bytes before offset 22 are not those read"; }
        else if (c == 2) {                                /* renamed away, a new file under the name */
            assert_int_equal(rename(path, moved), 0);
            w = fopen(path, "w");
            assert_non_null(w);
            fputs(new, w);
            fclose(w);
            want = "the name now names another file";
        } else if (c == 3) { assert_int_equal(rename(path, moved), 0); want = "the name no longer exists"; }
        else want = NULL;
        if (want) {
            assert_int_equal(follow_read(&f, &err), -1);
            assert_true(err.set);
            if (!strstr(err.msg, want)) fail_msg("case %d: \"%s\" lacks \"%s\"", c, err.msg, want);
            assert_non_null(strstr(err.msg, "the file changed while it was followed"));
        } else {                                          /* the same length, other bytes: seen at the end */
            assert_int_equal(follow_read(&f, &err), 0);
            char *b = strdup(old);
            b[9] = '7';
            rewrite(path, b, strlen(b));
            free(b);
            assert_null(follow_load(&f, FORMAT_TEXT, NULL, NULL, &err));
            assert_non_null(strstr(err.msg, "its bytes from offset 0 are not those read"));
        }
        follow_close(&f);
        unlink(path);
        unlink(moved);
    }
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipe_spills_to_unlinked_temp),
        cmocka_unit_test(test_pipe_without_tmpdir_stays_in_memory),
        cmocka_unit_test(test_pipe_write_fails),
        cmocka_unit_test(test_file_read_again_or_refused),
        cmocka_unit_test(test_load_from_temp_file),
        cmocka_unit_test(test_load_from_file_again),
        cmocka_unit_test(test_completed_transaction_grows),
        cmocka_unit_test(test_file_must_only_grow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
