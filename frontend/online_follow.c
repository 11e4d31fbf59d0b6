/* online_follow.c — the bytes of a growing input and its completed
 * transactions (contract in online_follow.h). */
#include "frontend/online_follow.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend/online_check.h"
#include "frontend/formats/parse.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int follow_open(follow_input *f, const char *path, double idle, double poll, ic_error *err) {
    memset(f, 0, sizeof *f);
    f->name = xmalloc(strlen(path) + 1);
    strcpy(f->name, path);
    f->idle = idle;
    f->poll = poll > 0 ? poll : 0.05;
    if (!strcmp(path, "-")) f->fd = 0;
    else if ((f->fd = open(path, O_RDONLY)) < 0) {
        ic_error_at(err, path, 0, "cannot open: %s", strerror(errno));
        free(f->name);
        f->name = NULL;
        return 0;
    }
    struct stat st;
    if (fstat(f->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ic_error_at(err, path, 0, "is a directory: --follow reads one file (text, Elle EDN or JSON), not Cobra logs");
        follow_close(f);
        return 0;
    }
    f->regular = fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode);
    return 1;
}

void follow_close(follow_input *f) {
    if (f->name && f->fd > 0) close(f->fd);
    free(f->name);
    f->name = NULL;
    vec_free(f->data);
}

/* After a read that got bytes: take whatever else is already there (a
 * pipe with more waiting, a file grown further), up to FOLLOW_DRAIN bytes,
 * so that one check covers what arrived together instead of one per 64 KiB. */
#define FOLLOW_DRAIN ((size_t)16 << 20)
static void drain(follow_input *f) {
    for (size_t taken = 0; taken < FOLLOW_DRAIN;) {
        if (!f->regular) {
            struct pollfd pfd = { f->fd, POLLIN, 0 };
            if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN)) return;
        }
        vec_reserve(f->data, f->data.len + 65536);
        ssize_t got = read(f->fd, f->data.data + f->data.len, 65536);
        if (got <= 0) return;                        /* EOF, nothing more yet, or an error: the next read says */
        f->data.len += (size_t)got;
        taken += (size_t)got;
    }
}

int follow_read(follow_input *f, ic_error *err) {
    if (f->eof) return 0;
    double quiet_since = now();
    for (;;) {
        vec_reserve(f->data, f->data.len + 65536);
        ssize_t got = read(f->fd, f->data.data + f->data.len, 65536);
        if (got > 0) { f->data.len += (size_t)got; drain(f); return 1; }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { ic_error_at(err, f->name, 0, "read error: %s", strerror(errno)); return -1; }
        if (!f->regular || now() - quiet_since >= f->idle) { f->eof = 1; return 0; }   /* pipe EOF, or idle file */
        struct timespec ts = { (time_t)f->poll, (long)((f->poll - (double)(time_t)f->poll) * 1e9) };
        nanosleep(&ts, NULL);
    }
}

void follow_parse_init(follow_parse *p, history_format fmt) {
    memset(p, 0, sizeof *p);
    p->fmt = fmt;
    u64map_init(&p->text_ops);
}

void follow_parse_free(follow_parse *p) {
    u64map_free(&p->text_ops);
    if (p->delta) text_stream_free(&p->ts);
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ','; }

/* Parse data[0..n) in p->fmt; a prefix of a wrapped history (vector, list
 * or array) is retried closed where it stops.  NULL (err set) if neither
 * reads. */
static history *parse_prefix(const follow_parse *p, const char *data, size_t n, const char *name, ic_error *err) {
    history *h = load_history_mem(data, n, p->fmt, name, err);
    if (h || (p->fmt != FORMAT_ELLE && p->fmt != FORMAT_JSON)) return h;
    size_t i = 0;
    while (i < n && blank(data[i])) i++;
    if (i >= n || (data[i] != '[' && data[i] != '(')) return NULL;
    size_t end = n;
    while (end > i + 1 && blank(data[end - 1])) end--;
    char *closed = xmalloc(end + 2);
    memcpy(closed, data, end);
    closed[end] = data[i] == '[' ? ']' : ')';
    closed[end + 1] = '\n';
    ic_error e2;
    ic_error_clear(&e2);
    h = load_history_mem(closed, end + 2, p->fmt, name, &e2);
    free(closed);
    return h;
}

/* Detect the format of data[0..n) (complete lines) once: 1 known, 0 not
 * yet, -1 refused (err set). */
static int detect(follow_parse *p, const char *data, size_t n, const char *name, int at_end, ic_error *err) {
    if (p->fmt != FORMAT_AUTO) return 1;
    if ((unsigned char)data[0] == 0x1f && n > 1 && (unsigned char)data[1] == 0x8b) {
        ic_error_at(err, name, 0, "gzip-compressed input cannot be followed (--follow reads text, Elle EDN or JSON as it is written)");
        return -1;
    }
    history_format f = detect_format((const unsigned char *)data, n);
    if (f == FORMAT_AUTO) return at_end ? -1 : 0;
    p->fmt = f;
    return 1;
}

int follow_delta(follow_parse *p, const char *data, size_t n, const char *name, ic_error *err) {
    if (p->delta < 0) return 0;
    size_t m = n;
    while (m > 0 && data[m - 1] != '\n') m--;
    if (m == 0) return 0;
    if (p->fmt == FORMAT_AUTO) {
        ic_error e2;
        ic_error_clear(&e2);
        if (detect(p, data, m, name, 0, &e2) <= 0) return 0;   /* follow_completed says it again */
    }
    if (p->fmt != FORMAT_TEXT) { p->delta = -1; return 0; }
    if (!p->delta) { text_stream_init(&p->ts, name); p->delta = 1; }
    int r = text_stream_feed(&p->ts, data, m, err);
    if (r < 0) return -1;
    if (r == 0) { p->delta = -1; return 0; }                    /* the batch parser words it */
    vec_foreach(const incr_txn, t, p->ts.done) u64map_put(&p->text_ops, (uint64_t)t->ext_id, t->num_ops);
    p->read = text_stream_read(&p->ts);
    p->completed = p->ts.completed;
    return 1;
}

int follow_completed(follow_parse *p, const char *data, size_t n, const char *name, int at_end, history **out,
                     ic_error *err) {
    *out = NULL;
    if (!at_end) {                                   /* complete lines only */
        while (n > 0 && data[n - 1] != '\n') n--;
    }
    if (n == 0) return 1;
    int d = detect(p, data, n, name, at_end, err);
    if (d <= 0) return d;
    if (p->fmt == FORMAT_DBCOP || p->fmt == FORMAT_COBRA) {
        ic_error_at(err, name, 0, "--follow reads text, Elle EDN or JSON histories; %s histories are checked once "
                    "complete (without --follow)", history_format_name(p->fmt));
        return -1;
    }
    ic_error perr;
    ic_error_clear(&perr);
    history *h = parse_prefix(p, data, n, name, &perr);
    if (!h) {
        if (p->fmt == FORMAT_TEXT || at_end) { *err = perr; return -1; }   /* a text line never gets better */
        return 0;                                    /* a form cut between lines: wait */
    }
    uint8_t *done = xmalloc(h->num_txns);
    memset(done, 1, h->num_txns);
    if (p->fmt == FORMAT_TEXT && !at_end)            /* no completion marker: each session's last one waits */
        for (uint32_t s = 0; s < h->num_sessions; s++)
            if (h->sessions[s].num_txns) done[h->sessions[s].first_txn + h->sessions[s].num_txns - 1] = 0;
    if (p->fmt == FORMAT_TEXT) {                     /* a completed transaction must not grow */
        for (uint32_t t = 1; t < h->num_txns; t++) {
            const history_txn *x = &h->txns[t];
            uint32_t had = u64map_get(&p->text_ops, (uint64_t)x->ext_id);
            if (had != UINT32_MAX && had != x->num_ops) {
                uint32_t op = x->first_op + (had < x->num_ops ? had : 0);
                ic_error_at(err, name, (long)history_op_line(h, op),
                            "transaction %lld gets an operation after its session went on to another transaction; "
                            "--follow needs each transaction's lines before its session's next transaction",
                            (long long)x->ext_id);
                free(done);
                history_free(h);
                return -1;
            }
            if (had == UINT32_MAX && done[t]) u64map_put(&p->text_ops, (uint64_t)x->ext_id, x->num_ops);
        }
    }
    uint32_t count = 0;
    for (uint32_t t = 1; t < h->num_txns; t++) count += done[t];
    p->read = h->num_txns - 1;
    p->completed = count;
    if (count == h->num_txns - 1) *out = h;
    else {
        *out = count ? history_subset(h, done, err) : NULL;
        history_free(h);
        if (count && !*out) { free(done); return -1; }
    }
    free(done);
    return 1;
}
