/* frontend/online/follow.c — the bytes of a growing input and its completed
 * transactions (contract in frontend/online/follow.h). */
#include "frontend/online/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "frontend/online/checker.h"
#include "frontend/formats/parse.h"

int follow_open(follow_input *f, const char *path, double idle, double poll, const char *tmp_dir, ic_error *err) {
    memset(f, 0, sizeof *f);
    f->spill_fd = -1;
    f->wake_fd = -1;
    f->name = xmalloc(strlen(path) + 1);
    strcpy(f->name, path);
    if (!tmp_dir || !*tmp_dir) tmp_dir = "/tmp";
    f->tmp_dir = xmalloc(strlen(tmp_dir) + 1);
    strcpy(f->tmp_dir, tmp_dir);
    f->idle = idle;
    f->poll = poll > 0 ? poll : 0.05;
    if (!strcmp(path, "-")) f->fd = 0;
    else if ((f->fd = open(path, O_RDONLY)) < 0) {
        ic_error_at(err, path, 0, "cannot open: %s", strerror(errno));
        free(f->name);
        free(f->tmp_dir);
        f->name = f->tmp_dir = NULL;
        return 0;
    }
    struct stat st;
    if (fstat(f->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ic_error_at(err, path, 0, "is a directory: --follow reads one file (text, Elle EDN or JSON), not Cobra logs");
        follow_close(f);
        return 0;
    }
    f->regular = fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (f->regular) {                    /* read again from where reading starts (stdin may be past 0) */
        off_t at = lseek(f->fd, 0, SEEK_CUR);
        if (at >= 0) { f->origin = (uint64_t)at; f->reread = 1; }
        f->dev = (uint64_t)st.st_dev;
        f->ino = (uint64_t)st.st_ino;
    }
    return 1;
}

/* ---- a regular file only grows ----------------------------------------- */

/* The file's name still names the file opened ("-": nothing to compare). */
static int same_name(const follow_input *f, ic_error *err) {
    struct stat st;
    if (!strcmp(f->name, "-")) return 1;
    int r = stat(f->name, &st);
    if (r == 0 && (uint64_t)st.st_dev == f->dev && (uint64_t)st.st_ino == f->ino) return 1;
    ic_error_at(err, f->name, 0, "the file changed while it was followed: %s (renamed, or removed and created "
                "again?): --follow reads the file it opened and needs one that only grows, not rotated by renaming",
                r != 0 ? "the name no longer exists" : "the name now names another file");
    return 0;
}

/* At a poll with no new bytes: the file is not shorter than what was read,
 * and still has its name. */
static int still_growing(const follow_input *f, ic_error *err) {
    struct stat st;
    uint64_t read_to = f->origin + follow_total(f);
    if (fstat(f->fd, &st) == 0 && (uint64_t)st.st_size < read_to) {
        ic_error_at(err, f->name, 0, "the file changed while it was followed: it was cut short (%llu bytes read, "
                    "%llu now; a copy-and-truncate rotation, or a test started again?): --follow needs a file that "
                    "only grows", (unsigned long long)(read_to - f->origin), (unsigned long long)st.st_size);
        return 0;
    }
    return same_name(f, err);
}

/* After bytes arrived from offset at (origin + what was read before): the
 * bytes kept from just before it are still there (a file cut short and
 * written again past that point would otherwise be read as one); then the
 * tail moves to the end of what was read. */
static int tail_still_there(follow_input *f, uint64_t at, ic_error *err) {
    if (f->tail_len) {
        char now[sizeof f->tail];
        ssize_t r;
        do r = pread(f->fd, now, f->tail_len, (off_t)(at - f->tail_len)); while (r < 0 && errno == EINTR);
        if (r != (ssize_t)f->tail_len || memcmp(now, f->tail, f->tail_len) != 0) {
            ic_error_at(err, f->name, 0, "the file changed while it was followed (the bytes before offset %llu are "
                        "not those read: cut short and written again?): --follow needs a file that only grows",
                        (unsigned long long)(at - f->origin));
            return 0;
        }
    }
    size_t n = f->data.len < sizeof f->tail ? f->data.len : sizeof f->tail;
    if (n < sizeof f->tail && f->tail_len) {            /* few bytes in memory: keep the older ones too */
        size_t keep = sizeof f->tail - n < f->tail_len ? sizeof f->tail - n : f->tail_len;
        memmove(f->tail, f->tail + f->tail_len - keep, keep);
        memcpy(f->tail + keep, f->data.data + f->data.len - n, n);
        f->tail_len = (unsigned)(keep + n);
    } else {
        memcpy(f->tail, f->data.data + f->data.len - n, n);
        f->tail_len = (unsigned)n;
    }
    return 1;
}

/* At the end: the bytes still in memory are those in the file now, and it
 * still has its name (the spilled ones are summed where they are read). */
static int memory_still_there(const follow_input *f, ic_error *err) {
    if (!f->regular) return 1;
    char buf[65536];
    for (size_t done = 0; done < f->data.len;) {
        size_t k = f->data.len - done < sizeof buf ? f->data.len - done : sizeof buf;
        uint64_t off = f->origin + f->base + done;
        ssize_t r;
        do r = pread(f->fd, buf, k, (off_t)off); while (r < 0 && errno == EINTR);
        if (r != (ssize_t)k || memcmp(buf, f->data.data + done, k) != 0) {
            ic_error_at(err, f->name, 0, "the file changed while it was followed (its bytes from offset %llu are "
                        "not those read): --follow needs a file that only grows", (unsigned long long)(f->base + done));
            return 0;
        }
        done += k;
    }
    return same_name(f, err);
}

void follow_close(follow_input *f) {
    if (f->name && f->fd > 0) close(f->fd);
    if (f->spill_fd >= 0 && f->spill_fd != f->fd) close(f->spill_fd);
    f->spill_fd = -1;
    free(f->name);
    free(f->tmp_dir);
    f->name = f->tmp_dir = NULL;
    vec_free(f->data);
}

/* A checksum of the bytes that left memory, fed in any slices: 8 bytes
 * at a time, a multiply and a rotation each (a few GB/s); it only has to
 * notice a file rewritten under us, not resist an adversary. */
static void sum_word(follow_sum *s, uint64_t w) {
    s->h = ((s->h ^ w) * 0x9e3779b97f4a7c15ULL);
    s->h = (s->h << 29) | (s->h >> 35);
}

static void sum_add(follow_sum *s, const char *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    s->len += n;
    while (n && s->fill) {                       /* finish a partial word */
        s->word |= (uint64_t)*b++ << (8 * s->fill);
        n--;
        if (++s->fill == 8) { sum_word(s, s->word); s->word = 0; s->fill = 0; }
    }
    for (; n >= 8; b += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, b, 8);
        sum_word(s, w);
    }
    for (; n; n--, b++) s->word |= (uint64_t)*b << (8 * s->fill++);
}

static uint64_t sum_value(const follow_sum *s) {
    follow_sum t = *s;
    if (t.fill) sum_word(&t, t.word);
    sum_word(&t, t.len);
    return t.h;
}

/* Write all of p[0..n) to fd: 1, or 0 with errno set. */
static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { if (w == 0) errno = EIO; return 0; }
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* Read n bytes at offset off of fd into p: 1, 0 at a short file (errno 0)
 * or an error (errno set). */
static int read_all_at(int fd, char *p, size_t n, uint64_t off) {
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { if (r == 0) errno = 0; return 0; }
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 1;
}

/* A temporary file in f->tmp_dir, unlinked at once: nothing is left
 * behind, even by a crash.  -1 with f->note set if it cannot be made. */
static int make_spill_file(follow_input *f) {
    const char *dir = f->tmp_dir;
    size_t n = strlen(dir) + 32;
    char *path = xmalloc(n);
    snprintf(path, n, "%s/isocheck-follow.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) snprintf(f->note, sizeof f->note, "cannot create a temporary file in %s (%s)", dir, strerror(errno));
    else if (unlink(path) != 0) {                /* never leave it behind: better in memory */
        snprintf(f->note, sizeof f->note, "cannot unlink the temporary file %s (%s)", path, strerror(errno));
        close(fd);
        fd = -1;
    }
    free(path);
    return fd;
}

/* The spilled bytes read again: 1 if they were (ok) and are those spilled
 * (s: their sum); else 0 with err set (e: errno of a failed read, 0 for a
 * file cut short). */
static int spilled_same(const follow_input *f, int ok, int e, const follow_sum *s, ic_error *err) {
    if (ok && s->len == f->base && sum_value(s) == sum_value(&f->sum)) return 1;
    if (f->spill_fd != f->fd)
        ic_error_at(err, f->name, 0, "cannot read back the input kept in a temporary file: %s",
                    ok || !e ? "it changed" : strerror(e));
    else if (!ok && e)
        ic_error_at(err, f->name, 0, "cannot read the file again: %s", strerror(e));
    else
        ic_error_at(err, f->name, 0, "the file changed while it was followed (its first %zu bytes are not those "
                    "read): --follow needs a file that only grows", f->base);
    return 0;
}

/* Where the spilled bytes start in spill_fd. */
static uint64_t spill_origin(const follow_input *f) { return f->spill_fd == f->fd ? f->origin : 0; }

int follow_all(follow_input *f, ic_error *err) {
    f->keep = 1;
    if (!f->base) return 1;
    size_t len = f->data.len, total = f->base + len;
    char *all = xmalloc(total + 1);
    follow_sum s = { 0, 0, 0, 0 };
    int ok = read_all_at(f->spill_fd, all, f->base, spill_origin(f));
    int e = errno;
    if (ok) sum_add(&s, all, f->base);
    if (!spilled_same(f, ok, e, &s, err)) {
        free(all);
        return 0;
    }
    if (len) memcpy(all + f->base, f->data.data, len);
    free(f->data.data);
    f->data.data = all;
    f->data.len = total;
    f->data.cap = total + 1;
    f->base = 0;
    if (f->spill_fd >= 0 && f->spill_fd != f->fd) close(f->spill_fd);
    f->spill_fd = -1;
    return 1;
}

/* follow_load's byte source: the spilled bytes from spill_fd (summed as
 * they go by), then those in f->data. */
typedef struct load_source {
    const follow_input *f;
    uint64_t at;                 /* bytes served */
    follow_sum sum;              /* of the spilled ones served */
    int failed, e;               /* a read of spill_fd failed (e: errno; 0: the file is shorter) */
} load_source;

static size_t load_read(void *ctx, void *dst, size_t n) {
    load_source *s = ctx;
    const follow_input *f = s->f;
    if (s->failed) return 0;
    if (s->at < f->base) {
        size_t k = f->base - s->at < n ? (size_t)(f->base - s->at) : n;
        ssize_t r;
        do r = pread(f->spill_fd, dst, k, (off_t)(spill_origin(f) + s->at)); while (r < 0 && errno == EINTR);
        if (r <= 0) { s->failed = 1; s->e = r < 0 ? errno : 0; return 0; }
        sum_add(&s->sum, dst, (size_t)r);
        s->at += (uint64_t)r;
        return (size_t)r;
    }
    size_t left = (size_t)(follow_total(f) - s->at), k = left < n ? left : n;
    if (k) memcpy(dst, f->data.data + (s->at - f->base), k);
    s->at += k;
    return k;
}

history *follow_load(follow_input *f, history_format fmt, const load_options *opt, load_report *rep, ic_error *err) {
    vec_fit(f->data);            /* reads of up to 16 MiB at a time left room the tail does not need */
    load_source src = { f, 0, { 0, 0, 0, 0 }, 0, 0 };
    input r;
    input_from_source(&r, load_read, &src, f->name);
    ic_error perr;
    ic_error_clear(&perr);
    history *h = load_history_input(&r, fmt, opt, rep, &perr);   /* repeated values too: follow_repeat.h */
    input_close(&r);
    /* the rest of the spilled bytes, if the parser stopped before them: all are summed */
    char scratch[65536];
    while (!src.failed && src.at < f->base) load_read(&src, scratch, sizeof scratch);
    if ((f->base && !spilled_same(f, !src.failed, src.e, &src.sum, err)) || !memory_still_there(f, err)) {
        if (h) history_free(h);
        return NULL;
    }
    if (!h) *err = perr;
    return h;
}

int follow_spill(follow_input *f, size_t upto, ic_error *err) {
    if (f->keep || upto <= f->base) return f->keep ? 0 : 1;
    size_t n = upto - f->base;
    if (n > f->data.len) n = f->data.len;
    if (f->spill_fd < 0) {
        if (f->reread) f->spill_fd = f->fd;     /* the file itself: read it again at the end */
        else if ((f->spill_fd = make_spill_file(f)) < 0) { f->keep = 1; return 0; }
    }
    if (f->spill_fd != f->fd && !write_all(f->spill_fd, f->data.data, n)) {
        snprintf(f->note, sizeof f->note, "cannot write the temporary file (%s)", strerror(errno));
        if (!f->base) {                          /* nothing in it yet */
            close(f->spill_fd);
            f->spill_fd = -1;
            f->keep = 1;
            return 0;
        }
        return follow_all(f, err) ? 0 : -1;     /* the part written, back into memory */
    }
    sum_add(&f->sum, f->data.data, n);
    memmove(f->data.data, f->data.data + n, f->data.len - n);
    f->data.len -= n;
    f->base += n;
    return 1;
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

/* The end line (FOLLOW_END_LINE, then blanks) in the complete lines that
 * arrived: if found, the bytes after its line are dropped and the input
 * ends there (f->marked).  Scans each byte once (f->scanned). */
static void find_end_line(follow_input *f) {
    static const char mark[] = FOLLOW_END_LINE;
    size_t total = follow_total(f), at = f->scanned;
    while (at < total) {
        const char *line = f->data.data + (at - f->base);
        const char *nl = memchr(line, '\n', total - at);
        if (!nl) return;                                  /* (scanned stays at the start of an incomplete line) */
        size_t len = (size_t)(nl - line);
        if (len >= sizeof mark - 1 && !memcmp(line, mark, sizeof mark - 1)) {
            size_t i = sizeof mark - 1;
            while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
            if (i == len) {
                f->data.len = (size_t)(nl + 1 - f->data.data);   /* nothing after it is part of the input */
                f->marked = 1;
                f->scanned = follow_total(f);
                return;
            }
        }
        at += len + 1;
        f->scanned = at;
    }
}

/* Whether the caller's stop flag is up. */
static int stop_asked(const follow_input *f) { return f->stop && f->stop(f->stop_ctx); }

/* Sleep s seconds, or less when a signal arrives (the caller looks again). */
static void nap(double s) {
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

int follow_read(follow_input *f, ic_error *err) {
    if (f->eof || f->marked) { f->eof = 1; return 0; }
    double quiet_since = f->woke ? f->quiet_since : monotonic_seconds();   /* (a wake-up is no byte) */
    f->woke = 0;
    for (;;) {
        if (stop_asked(f)) return FOLLOW_STOPPED;
        if (f->wake > 0 && monotonic_seconds() >= f->wake) {
            f->wake = 0;
            f->woke = 1;
            f->quiet_since = quiet_since;
            return FOLLOW_WAKE;
        }
        if (!f->regular && (f->stop || f->wake > 0)) {    /* a pipe: wait in poll, which a signal ends */
            struct pollfd pfd[2] = { { f->fd, POLLIN, 0 }, { f->wake_fd, POLLIN, 0 } };
            int pr = poll(pfd, f->wake_fd >= 0 ? 2 : 1, 250);
            if (pr == 0 || (pr < 0 && errno == EINTR)) continue;
            if (f->wake_fd >= 0 && pfd[1].revents && !(pfd[0].revents)) continue;   /* asked again at the top */
        }
        uint64_t at = f->origin + follow_total(f);
        vec_reserve(f->data, f->data.len + 65536);
        ssize_t got = read(f->fd, f->data.data + f->data.len, 65536);
        if (got > 0) {
            f->data.len += (size_t)got;
            drain(f);
            if (f->regular && !tail_still_there(f, at, err)) return -1;
            if (f->regular) find_end_line(f);
            return 1;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { ic_error_at(err, f->name, 0, "read error: %s", strerror(errno)); return -1; }
        if (f->regular && !still_growing(f, err)) return -1;
        if (!f->regular || (f->idle >= 0 && monotonic_seconds() - quiet_since >= f->idle)) { f->eof = 1; return 0; }   /* pipe EOF, or idle file */
        nap(f->poll);
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
    if (p->es.name) elle_stream_free(&p->es);
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ','; }

/* Parse data[0..n) in p->fmt; a prefix of a wrapped history (vector, list
 * or array) is retried closed where it stops.  NULL (err set) if neither
 * reads. */
static history *parse_prefix(follow_parse *p, const char *data, size_t n, const char *name, ic_error *err) {
    history *h = load_history_mem(data, n, p->fmt, name, err);
    if (p->fmt != FORMAT_ELLE && p->fmt != FORMAT_JSON) return h;   /* (repeated values too: the caller checks them in batch) */
    size_t i = 0;
    while (i < n && (blank(data[i]) || data[i] == ';')) {
        if (data[i] == ';') while (i < n && data[i] != '\n') i++;      /* (an EDN comment) */
        else i++;
    }
    int wrapped = i < n && (data[i] == '[' || data[i] == '(');
    if (h) {
        if (wrapped) p->closed = 1;                  /* read whole as it is: the vector/array closed */
        return h;
    }
    if (!wrapped) return NULL;
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

/* The text reader's question (frontend/online/text_stream.h), put to the checker the
 * completed transactions go to: its incremental state stores each one,
 * writes indexed, unless it was never started, left that path (from
 * scratch: it is gone), has a violation to explain, or reported one (then
 * no transaction is taken). */
static int checker_written(void *ctx, uint32_t key, int64_t value) {
    const online_checker *oc = ctx;
    if (oc->failed || oc->from_scratch || oc->explain_pending || !oc->incr) return -1;
    return incr_written(oc->incr, key, value);
}

int follow_delta(follow_parse *p, const char *data, size_t base, size_t n, const char *name, ic_error *err) {
    if (p->delta < 0 || p->stopped[0]) return 0;
    size_t m = n;
    while (m > 0 && data[m - 1] != '\n') m--;
    if (m == 0 && p->delta <= 0) return 0;           /* (once parsing: no new line, nothing completes) */
    if (p->fmt == FORMAT_AUTO) {                     /* nothing dropped before the format is known */
        ic_error e2;
        ic_error_clear(&e2);
        if (detect(p, data, m, name, 0, &e2) <= 0) return 0;   /* follow_completed says it again */
    }
    if (p->fmt == FORMAT_ELLE || p->fmt == FORMAT_JSON) {
        elle_stream *es = &p->es;
        if (!p->delta) {
            elle_stream_init(es, name, p->fmt);
            if (p->oc) elle_stream_set_written(es, checker_written, (void *)p->oc);
            p->delta = 2;
        }
        if (!elle_stream_feed(es, data, base, n)) { p->delta = -1; return 0; }
        p->read = p->completed = es->completed;
        p->closed |= es->closed;
        p->done = es->done.data;
        p->num_done = es->done.len;
        p->key_ext = es->key_ext.data;
        p->num_keys = (uint32_t)es->key_ext.len;
        p->consumed = es->consumed;
        return 1;
    }
    if (p->fmt != FORMAT_TEXT) { p->delta = -1; return 0; }
    if (!p->delta) {
        text_stream_init(&p->ts, name);
        if (p->oc) text_stream_set_written(&p->ts, checker_written, (void *)p->oc);
        p->delta = 1;
    }
    int r = text_stream_feed(&p->ts, data, base, m, err);
    if (r < 0) return -1;
    if (r == 0) { p->delta = -1; return 0; }                    /* the batch parser words it */
    p->read = text_stream_read(&p->ts);
    p->completed = p->ts.completed;
    p->done = p->ts.done.data;
    p->num_done = p->ts.done.len;
    p->key_ext = p->ts.key_ext.data;
    p->num_keys = (uint32_t)p->ts.key_ext.len;
    p->consumed = p->ts.consumed;
    return 1;
}

int follow_completed(follow_parse *p, const char *data, size_t n, const char *name, int at_end, history **out,
                     ic_error *err) {
    *out = NULL;
    if (p->stopped[0]) return 1;
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
            /* judged complete: by the reader in increments (while there was one), or here */
            uint32_t had = p->ts.name ? text_stream_done_ops(&p->ts, x->ext_id) : UINT32_MAX;
            if (had == UINT32_MAX) had = u64map_get(&p->text_ops, (uint64_t)x->ext_id);
            if (had != UINT32_MAX && had != x->num_ops) {
                /* judged complete, and it grew: the batch check of every
                 * byte decides, whatever the chunks were (follow.h) */
                uint32_t op = x->first_op + (had < x->num_ops ? had : 0);
                snprintf(p->stopped, sizeof p->stopped, "%s:%lu: transaction %lld gets an operation after its "
                         "session went on to another transaction", name, (unsigned long)history_op_line(h, op),
                         (long long)x->ext_id);
                free(done);
                history_free(h);
                return 1;
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
