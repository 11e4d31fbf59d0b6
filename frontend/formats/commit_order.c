/* commit_order.c — the commit order reader (contract in commit_order.h):
 * the whole file in memory, then one pass over its tokens. */
#include "frontend/formats/commit_order.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/reader.h"
#include "frontend/history/u64map.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* The token [s, e) as an id: 1, or 0 with err. */
static int token_id(const commit_order_file *co, const char *s, const char *e, uint32_t line, int64_t *out,
                    ic_error *err) {
    char buf[32];
    size_t n = (size_t)(e - s);
    const char *d = s + (*s == '-' || *s == '+');
    int digits = d < e;
    for (const char *c = d; c < e; c++) digits &= *c >= '0' && *c <= '9';
    if (digits && n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = 0;
        errno = 0;
        char *end;
        long long v = strtoll(buf, &end, 10);
        if (!errno && *end == 0) { *out = v; return 1; }
    }
    ic_error_at(err, co->source, line, "expected a transaction id (a decimal integer), found '%.*s'",
                (int)(n > 40 ? 40 : n), s);
    return 0;
}

int commit_order_parse(const char *name, const char *data, size_t len, commit_order_file *co, ic_error *err) {
    memset(co, 0, sizeof *co);
    size_t nl = strlen(name);
    co->source = xmalloc(nl + 1);
    memcpy(co->source, name, nl + 1);
    if (memchr(data, 0, len)) {
        ic_error_at(err, co->source, 0, "a commit order is text (a NUL byte found)");
        return 0;
    }
    /* id -> its index in ids, to refuse an id listed twice */
    u64map seen;
    u64map_init(&seen);
    int ok = 1;
    uint32_t line = 1;
    const char *p = data, *end = data + len;
    while (p < end && ok) {
        if (*p == '\n') { line++; p++; continue; }
        if (is_blank(*p)) { p++; continue; }
        if (*p == '#') { while (p < end && *p != '\n') p++; continue; }
        const char *s = p;
        while (p < end && !is_blank(*p) && *p != '#') p++;
        co_entry e = { 0, line };
        if (!(ok = token_id(co, s, p, line, &e.id, err))) break;
        uint32_t first = u64map_put(&seen, (uint64_t)e.id, (uint32_t)co->ids.len);
        if (first != co->ids.len) {
            ic_error_at(err, co->source, line, "transaction %lld is listed twice (first at line %u)", (long long)e.id,
                        co->ids.data[first].line);
            ok = 0;
            break;
        }
        vec_push(co->ids, e);
    }
    u64map_free(&seen);
    return ok;
}

int commit_order_load(const char *path, commit_order_file *co, ic_error *err) {
    memset(co, 0, sizeof *co);
    char *data;
    size_t len;
    if (!reader_read_all(path, &data, &len, err)) return 0;
    int ok = commit_order_parse(path, data, len, co, err);
    free(data);
    return ok;
}

void commit_order_free(commit_order_file *co) {
    free(co->source);
    vec_free(co->ids);
    memset(co, 0, sizeof *co);
}
