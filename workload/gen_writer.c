/* gen_writer.c — streaming text and dbcop writers for generated histories
 * (see gen_writer.h). */
#include "workload/gen_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"
#include "io/output.h"
#include "io/path.h"
#include "frontend/history/dbcop_layout.h"
#include "frontend/history/u64map.h"
#include "workload/spool.h"

struct gen_writer {
    history_format fmt;
    FILE *out;                   /* o.f */
    output o;                    /* io/output.h: a temporary file renamed on success */
    char *path;
    /* dbcop */
    spool *sp;
    uint32_t sessions;
    uint64_t *session_txns;
    uint64_t txns, events;
    u64map keys_seen;
    unsigned char *buf;          /* one transaction's bytes */
    size_t buf_cap;
    int times;                   /* gen_writer_times() */
    sim_times last;              /* the times of the transaction about to come */
};

gen_writer *gen_writer_open(history_format fmt, const char *path, const workload_params *p, const char *temp_dir,
                            ic_error *err) {
    if (fmt != FORMAT_TEXT && fmt != FORMAT_DBCOP) { ic_error_at(err, path, 0, "no streaming writer for this format"); return NULL; }
    gen_writer *w = xcalloc(1, sizeof *w);
    w->fmt = fmt;
    w->path = strcpy(xmalloc(strlen(path) + 1), path);
    struct stat st;
    int special = !strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
    if (!strcmp(path, "-") && fmt != FORMAT_TEXT) {
        ic_error_at(err, "", 0, "dbcop output is binary: give -o FILE");
        free(w->path); free(w);
        return NULL;
    }
    if (!output_open(&w->o, path, 0, err)) { free(w->path); free(w); return NULL; }
    w->out = w->o.f;
    if (w->o.tmp) setvbuf(w->out, NULL, _IOFBF, 1u << 20);
    if (fmt == FORMAT_DBCOP) {
        if (!temp_dir) temp_dir = "/tmp";
        char *dir = special ? strcpy(xmalloc(strlen(temp_dir) + 1), temp_dir) : path_dir(path);
        w->sp = spool_new(p->sessions, dir, 0, err);
        free(dir);
        if (!w->sp) { gen_writer_close(w, 0, NULL); return NULL; }     /* removes the temporary file */
        w->sessions = p->sessions;
        w->session_txns = xcalloc(p->sessions, sizeof *w->session_txns);
        u64map_init(&w->keys_seen);
    }
    return w;
}

/* Decimal without printf: the text writer's inner loop. */
static char *put_i64(char *p, int64_t v) {
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do { tmp[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) *p++ = '-';
    while (n) *p++ = tmp[--n];
    return p;
}

static int write_txn(void *ctx, uint32_t session, uint32_t pos, int64_t txn_id, int committed,
                     const sim_op *ops, uint32_t n, ic_error *err) {
    gen_writer *w = ctx;
    (void)pos;
    if (w->fmt == FORMAT_TEXT) {
        if (!committed) return 1;
        char line[192];
        for (uint32_t i = 0; i < n; i++) {
            char *q = line;
            *q++ = ops[i].write ? 'w' : 'r'; *q++ = '(';
            q = put_i64(q, ops[i].key); *q++ = ',';
            q = put_i64(q, ops[i].value); *q++ = ',';
            q = put_i64(q, (int64_t)session + 1); *q++ = ',';
            q = put_i64(q, txn_id); *q++ = ')'; *q++ = '\n';
            fwrite(line, 1, (size_t)(q - line), w->out);
        }
        if (w->times && n) {         /* the text format's annotation (frontend/formats/text_times.h) */
            char *q = line;
            memcpy(q, "#@time ", 7); q += 7;
            q = put_i64(q, txn_id);
            memcpy(q, " invoke=", 8); q = put_i64(q + 8, w->last.invoke);
            memcpy(q, " complete=", 10); q = put_i64(q + 10, w->last.complete);
            memcpy(q, " start=", 7); q = put_i64(q + 7, w->last.start);
            memcpy(q, " commit=", 8); q = put_i64(q + 8, w->last.commit);
            *q++ = '\n';
            fwrite(line, 1, (size_t)(q - line), w->out);
        }
    } else {
        size_t need = DBCOP_TXN_BYTES(n);
        if (need > w->buf_cap) { w->buf_cap = need * 2; w->buf = xrealloc(w->buf, w->buf_cap); }
        unsigned char *b = dbcop_txn_begin(w->buf, n);
        for (uint32_t i = 0; i < n; i++) {
            b = dbcop_txn_event(b, ops[i].write, (uint64_t)ops[i].key, (uint64_t)ops[i].value, 1);
            u64map_put(&w->keys_seen, (uint64_t)ops[i].key, 0);
        }
        b = dbcop_txn_end(b, committed);
        spool_write(w->sp, session, w->buf, (size_t)(b - w->buf));
        w->session_txns[session]++;
        w->txns++;
        w->events += n;
    }
    if (ferror(w->out) || (w->sp && !spool_ok(w->sp))) {
        ic_error_at(err, w->path, 0, "write error: %s", strerror(errno));
        return 0;
    }
    return 1;
}

static void writer_times(void *ctx, const sim_times *tm) { ((gen_writer *)ctx)->last = *tm; }

sim_times_sink gen_writer_times(gen_writer *w) {
    w->times = 1;
    sim_times_sink s = { w, writer_times };
    return s;
}

sim_sink gen_writer_sink(gen_writer *w) { sim_sink s = { w, write_txn }; return s; }

/* dbcop: the header (counts known only now), then each session's spool. */
static int finish_dbcop(gen_writer *w) {
    dbcop_put_header(w->out, w->sessions, w->keys_seen.len, w->txns, w->events);
    for (uint32_t s = 0; s < w->sessions; s++) {
        dbcop_put_u64(w->out, w->session_txns[s]);
        if (!spool_copy(w->sp, s, w->out)) return 0;
    }
    return 1;
}

int gen_writer_close(gen_writer *w, int ok, ic_error *err) {
    if (ok && w->fmt == FORMAT_DBCOP && !finish_dbcop(w)) {
        ic_error_at(err, w->path, 0, "write error (temporary spool or output): %s", strerror(errno));
        ok = 0;
    }
    if (ok) ok = output_commit(&w->o, err);
    else output_discard(&w->o);          /* a failed run leaves the target as it was */
    if (w->sp) { spool_free(w->sp); u64map_free(&w->keys_seen); }
    free(w->session_txns);
    free(w->buf);
    free(w->path);
    free(w);
    return ok;
}
