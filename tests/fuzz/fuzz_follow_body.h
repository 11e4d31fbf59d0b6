/* fuzz_follow_body.h — `check --follow` against the batch check of the
 * same bytes (the fuzz target fuzz_follow.c, and the regression test
 * tests/test_follow_chunks.c over tests/data/fuzz-regress/follow-*).
 *
 * One input: its first two bytes seed how the rest is cut into pieces
 * (at most FOLLOW_PIECES); the rest is a history in any format --follow
 * reads (text, Elle EDN or JSON, detected).  In this process:
 *   - batch: `isocheck check --level all --threads 1 -` with the bytes as a
 *     regular file on standard input;
 *   - follow: `isocheck check --follow --level all --threads T -` with
 *     T = follow_threads (1 unless the caller sets "2": a reader thread
 *     parses while the checks run, frontend/online/follow_pipe.h), with
 *     standard input a pipe that a writer thread fills one piece at a time,
 *     the next only once the reader has taken the last one (and a moment
 *     more), so the pieces arrive apart.
 * Both run the program's own code (cli_check, cli_follow), standard output
 * captured, standard error discarded.  The answer must be the same: the
 * exit code; on a verdict (0 or 1) the final report, which follow prints
 * after its END line, byte for byte (unless a violation was printed
 * before and not withdrawn: then its anomalies are in the final list too,
 * found.h, and the list may differ from the batch's; a line withdrawing
 * it at the end, follow_repeat.h, may follow the report); and a violation
 * it printed before the end ("DETECTED") must not end in a PASS unless it
 * was withdrawn (repeated values) (bad input further on may still
 * end it in exit 2, as the batch check of the same bytes says).  Anything else prints both runs and
 * aborts: a finding.  Inputs --follow refuses by design (dbcop, Cobra,
 * gzip) are skipped.  A timing the writer cannot force (two pieces read
 * as one) only makes fewer pieces: still one input, one answer. */
#ifndef FUZZ_FOLLOW_BODY_H
#define FUZZ_FOLLOW_BODY_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "frontend/formats/parse.h"
#include "programs/cli.h"

#define FOLLOW_PIECES 12

typedef struct follow_feed {
    int fd;                      /* the pipe's write end */
    int rfd;                     /* its read end (to see what is left in it) */
    const uint8_t *data;
    size_t cut[FOLLOW_PIECES + 1];
    size_t pieces;
    volatile int stop;           /* the reader is done: write no more */
} follow_feed;

/* The follow run's --threads (the batch run's is 1). */
static char follow_threads[] = "1";

static void follow_nap(long us) {
    struct timespec ts = { 0, us * 1000 };
    nanosleep(&ts, NULL);
}

static void *follow_writer(void *arg) {
    follow_feed *f = arg;
    for (size_t i = 0; i < f->pieces && !f->stop; i++) {
        const uint8_t *p = f->data + f->cut[i];
        size_t n = f->cut[i + 1] - f->cut[i];
        while (n && !f->stop) {
            ssize_t w = write(f->fd, p, n);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) { f->stop = 1; break; }
            p += w;
            n -= (size_t)w;
        }
        /* the next piece once this one was taken, and the reader is past
         * its look for more (follow.c, drain) */
        for (int waited = 0; !f->stop && waited < 200000; waited++) {
            int left = 0;
            if (ioctl(f->rfd, FIONREAD, &left) != 0 || left == 0) break;
            follow_nap(50);
        }
        follow_nap(300);
    }
    close(f->fd);
    return NULL;
}

/* cli_check(argv) with standard input in_fd; its standard output into
 * *out (malloc'd, NUL-ended), standard error to /dev/null.  The exit code. */
static int follow_run_cli(char **argv, int argc, int in_fd, char **out) {
    fflush(stdout);
    fflush(stderr);
    int save_in = dup(0), save_out = dup(1), save_err = dup(2);
    FILE *cap = tmpfile();
    int null = open("/dev/null", O_WRONLY);
    if (save_in < 0 || save_out < 0 || save_err < 0 || !cap || null < 0) abort();
    dup2(in_fd, 0);
    dup2(fileno(cap), 1);
    dup2(null, 2);
    clearerr(stdin);
    int rc = cli_check(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save_in, 0);
    dup2(save_out, 1);
    dup2(save_err, 2);
    close(save_in); close(save_out); close(save_err); close(null);
    clearerr(stdin);
    long len = ftell(cap);
    if (len < 0) len = 0;
    *out = malloc((size_t)len + 1);
    if (!*out) abort();
    rewind(cap);
    size_t got = fread(*out, 1, (size_t)len, cap);
    (*out)[got] = 0;
    fclose(cap);
    return rc;
}

/* Cut n bytes into pieces from seed (xorshift): cut[0] = 0 ... cut[k] = n. */
static size_t follow_cuts(uint32_t seed, size_t n, size_t *cut) {
    uint32_t x = seed * 2654435761u + 1;
    size_t k = 1 + (seed >> 8) % FOLLOW_PIECES;
    if (k > n) k = n ? n : 1;
    cut[0] = 0;
    for (size_t i = 1; i < k; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        cut[i] = x % (n + 1);
    }
    cut[k] = n;
    for (size_t i = 1; i < k; i++)              /* sorted (insertion: k is small) */
        for (size_t j = i; j > 1 && cut[j - 1] > cut[j]; j--) { size_t t = cut[j]; cut[j] = cut[j - 1]; cut[j - 1] = t; }
    return k;
}

/* The final report after END (final) is the batch one, but for the line
 * that withdraws a violation at the end, which follows it. */
static int follow_same_final(const char *final, const char *batch) {
    size_t n = strlen(batch);
    if (strncmp(final, batch, n) != 0) return 0;
    return !final[n] || !strncmp(final + n, "WITHDRAWN: ", 11);
}

static void follow_one(const uint8_t *data, size_t size) {
    if (size < 3) return;
    uint32_t seed = (uint32_t)data[0] | (uint32_t)data[1] << 8;
    const uint8_t *h = data + 2;
    size_t n = size - 2;
    if (h[0] == 0x1f) return;                                   /* gzip: not followed, by design */
    history_format f = detect_format(h, n);
    if (f == FORMAT_DBCOP || f == FORMAT_COBRA) return;         /* not followed, by design */

    FILE *file = tmpfile();                                     /* the batch run's input */
    if (!file || fwrite(h, 1, n, file) != n || fflush(file) != 0) abort();
    rewind(file);
    char a0[] = "check", a1[] = "--level", a2[] = "all", a3[] = "--threads", a4[] = "1", a5[] = "-", a6[] = "--follow";
    char *batch_argv[] = { a0, a1, a2, a3, a4, a5, NULL };
    char *batch_out;
    int batch = follow_run_cli(batch_argv, 6, fileno(file), &batch_out);
    fclose(file);

    int p[2];
    if (pipe(p) != 0) abort();
    follow_feed feed;
    memset(&feed, 0, sizeof feed);
    feed.fd = p[1];
    feed.rfd = p[0];
    feed.data = h;
    feed.pieces = follow_cuts(seed, n, feed.cut);
    pthread_t writer;
    if (pthread_create(&writer, NULL, follow_writer, &feed) != 0) abort();
    char *follow_argv[] = { a0, a6, a1, a2, a3, follow_threads, a5, NULL };
    char *follow_out;
    int follow = follow_run_cli(follow_argv, 7, p[0], &follow_out);
    feed.stop = 1;
    pthread_join(writer, NULL);
    close(p[0]);

    const char *why = NULL;
    const char *end = strstr(follow_out, "END after ");
    const char *final = end ? strchr(end, '\n') : NULL;
    if (follow != batch) why = "the exit codes differ";
    else if (batch <= 1 && !final) why = "no final report";
    /* (after DETECTED the final list holds the anomalies printed too: frontend/online/found.h;
     * a violation withdrawn at the end says so after the final report: follow_repeat.h) */
    else if (batch <= 1 && (!strstr(follow_out, "DETECTED") || strstr(follow_out, "WITHDRAWN")) &&
             !follow_same_final(final + 1, batch_out))
        why = "the final reports differ";
    else if (strstr(follow_out, "DETECTED") && follow == 0 && !strstr(follow_out, "WITHDRAWN"))
        why = "a violation was printed, the verdict is PASS, and it was not withdrawn";
    if (why) {                   /* also to $FUZZ_FOLLOW_LOG: libFuzzer's fork mode drops a job's output */
        const char *log = getenv("FUZZ_FOLLOW_LOG");
        FILE *outs[2] = { stderr, log ? fopen(log, "a") : NULL };
        for (int o = 0; o < 2 && outs[o]; o++) {
            fprintf(outs[o], "fuzz_follow: %s (--threads %s, %zu pieces:", why, follow_threads, feed.pieces);
            for (size_t i = 1; i <= feed.pieces; i++) fprintf(outs[o], " %zu", feed.cut[i] - feed.cut[i - 1]);
            fprintf(outs[o], ")\n== batch, exit %d:\n%s== follow, exit %d:\n%s== input (after the two bytes):\n", batch,
                    batch_out, follow, follow_out);
            fwrite(h, 1, n, outs[o]);
            fputs("\n== end\n", outs[o]);
        }
        if (outs[1]) fclose(outs[1]);
        abort();
    }
    free(batch_out);
    free(follow_out);
}

#endif
