/* proof_out.c — a DRAT proof file through its own buffer (contract:
 * io/proof_out.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/proof_out.h"
#include "vec.h"

enum { PROOF_BUF = 1 << 16, PROOF_STEP_MAX = 16 };   /* a literal takes at most 12 bytes (text), 5 (binary) */

int proof_out_open(proof_out *p, const char *path, int binary, unsigned flags, ic_error *err) {
    memset(p, 0, sizeof *p);
    if (!output_open(&p->o, path, flags, err)) return 0;
    p->buf = xmalloc(PROOF_BUF);
    p->binary = binary;
    return 1;
}

static void drain(proof_out *p) {
    if (!p->failed && p->len) {
        errno = 0;
        if (fwrite(p->buf, 1, p->len, p->o.f) != p->len) p->failed = errno ? errno : -1;
    }
    p->len = 0;
}

static void put_text_int(proof_out *p, int x) {
    char tmp[12];
    size_t n = 0;
    uint32_t u = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    do tmp[n++] = (char)('0' + u % 10); while ((u /= 10) != 0);
    if (x < 0) tmp[n++] = '-';
    while (n) p->buf[p->len++] = tmp[--n];
}

static void put_binary_lit(proof_out *p, int x) {
    uint32_t u = x < 0 ? 2u * (0u - (uint32_t)x) + 1u : 2u * (uint32_t)x;
    while (u > 127) { p->buf[p->len++] = (char)(0x80 | (u & 127)); u >>= 7; }
    p->buf[p->len++] = (char)u;
}

void proof_out_step(proof_out *p, int add, const int *lits, int n) {
    if (add) p->added++; else p->deleted++;
    if (p->failed) return;
    if (p->len + 3 > PROOF_BUF) drain(p);
    if (p->binary) p->buf[p->len++] = add ? 'a' : 'd';
    else if (!add) { p->buf[p->len++] = 'd'; p->buf[p->len++] = ' '; }
    for (int i = 0; i < n; i++) {
        if (p->len + PROOF_STEP_MAX > PROOF_BUF) drain(p);
        if (p->binary) put_binary_lit(p, lits[i]);
        else { put_text_int(p, lits[i]); p->buf[p->len++] = ' '; }
    }
    if (p->len + 3 > PROOF_BUF) drain(p);
    if (p->binary) p->buf[p->len++] = 0;
    else { p->buf[p->len++] = '0'; p->buf[p->len++] = '\n'; }
}

int proof_out_commit(proof_out *p, ic_error *err) {
    drain(p);
    free(p->buf);
    p->buf = NULL;
    if (p->failed) {
        ic_error_at(err, p->o.path, 0, "error writing the proof%s%s", p->failed > 0 ? ": " : "",
                    p->failed > 0 ? strerror(p->failed) : "");
        output_discard(&p->o);
        return 0;
    }
    return output_commit(&p->o, err);
}

void proof_out_discard(proof_out *p) {
    free(p->buf);
    p->buf = NULL;
    output_discard(&p->o);
}
