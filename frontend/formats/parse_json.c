/* parse_json.c — Jepsen/Elle histories in JSON, as elle-cli reads them:
 *
 *   [{"type": "ok", "f": "txn", "process": 0, "index": 4,
 *     "value": [["append", "x", 1], ["r", "y", [1, 2]], ["r", "z", null]]}, ...]
 *
 * Either one array holding the operation objects, or a sequence of them
 * (JSON lines: one object per line, or any blank-separated sequence).
 * Strict JSON otherwise (RFC 8259): no comments, no trailing commas, a
 * repeated key in an object and a NUL byte anywhere are errors; nesting
 * is limited to 256 levels.  What the operations mean is jepsen_ops.c's,
 * shared with the EDN reader: "f", "type" and micro-op names are strings,
 * keys and values are as written ("x" and 1 are different keys).
 *
 * TimeKiller's histories (an array of transactions with "ops", "sts" and
 * "cts": timekiller.h) are JSON too: the first object says which one the
 * file is, and every later one must be of the same kind. */
#include "frontend/formats/parse.h"

#include <string.h>

#include "vec.h"
#include "frontend/formats/jepsen_ops.h"
#include "frontend/formats/optree.h"
#include "frontend/formats/timekiller.h"
#include "frontend/formats/text_cursor.h"

typedef struct jin { tcur c; optree t; vec_char buf; } jin;

/* Skip JSON blanks across lines: 1 at a token, 0 at the end (or error). */
static int ws(jin *j) {
    for (;;) {
        char ch = *j->c.p;
        if (ch == ' ' || ch == '\t' || ch == '\r') j->c.p++;
        else if (!ch) { if (!tcur_next_line(&j->c)) return 0; }
        else return 1;
    }
}

static int expect_more(jin *j, const char *what) {
    if (ws(j)) return 1;
    if (!j->c.failed) tcur_fail(&j->c, what);
    return 0;
}

/* A string at '"' (on one line, as JSON requires), decoded. */
static uint32_t read_string(jin *j) {
    uint32_t line = (uint32_t)j->c.line;
    vec_clear(j->buf);
    j->c.p++;
    for (;;) {
        unsigned char ch = (unsigned char)*j->c.p;
        if (!ch) { tcur_fail(&j->c, "'\"' closing the string (JSON strings do not span lines)"); return OV_NONE; }
        if (ch < 0x20) { tcur_fail(&j->c, "an escaped control character in a string"); return OV_NONE; }
        j->c.p++;
        if (ch == '"') break;
        if (ch != '\\') { vec_push(j->buf, (char)ch); continue; }
        if (!tcur_escape(&j->c, &j->buf, 1)) return OV_NONE;
    }
    return ot_atom(&j->t, OV_STRING, line, j->buf.data ? j->buf.data : "", j->buf.len);
}

static size_t digits(const char *p) {
    size_t n = 0;
    while (p[n] >= '0' && p[n] <= '9') n++;
    return n;
}

static uint32_t read_number(jin *j) {
    uint32_t line = (uint32_t)j->c.line;
    const char *s = j->c.p, *p = s;
    if (*p == '-') p++;
    size_t n = digits(p);
    if (!n || (n > 1 && *p == '0')) { tcur_fail(&j->c, "a JSON number"); return OV_NONE; }
    p += n;
    int integer = 1;
    if (*p == '.') {
        integer = 0;
        if (!(n = digits(p + 1))) { j->c.p = p + 1; tcur_fail(&j->c, "digits after '.'"); return OV_NONE; }
        p += 1 + n;
    }
    if (*p == 'e' || *p == 'E') {
        integer = 0;
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(n = digits(p))) { j->c.p = p; tcur_fail(&j->c, "digits in the exponent"); return OV_NONE; }
        p += n;
    }
    j->c.p = p;
    if (integer) return ot_integer(&j->t, line, s, (size_t)(p - s));
    return ot_atom(&j->t, OV_NUMBER, line, s, (size_t)(p - s));
}

static uint32_t read_value(jin *j, int depth);

/* Elements of an array or members of an object, after its opening bracket. */
static uint32_t read_container(jin *j, ov_kind kind, int depth) {
    uint32_t line = (uint32_t)j->c.line;
    char close = kind == OV_MAP ? '}' : ']';
    uint32_t node = ot_container(&j->t, kind, line), last = OV_NONE;
    j->c.p++;
    if (!expect_more(j, kind == OV_MAP ? "'\"' starting a key or '}'" : "a value or ']'")) return OV_NONE;
    if (*j->c.p == close) { j->c.p++; return node; }
    for (;;) {
        if (kind == OV_MAP) {
            if (!expect_more(j, "'\"' starting a key")) return OV_NONE;
            if (*j->c.p != '"') { tcur_fail(&j->c, "'\"' starting a key (JSON keys are strings)"); return OV_NONE; }
            uint32_t key = read_string(j);
            if (key == OV_NONE) return OV_NONE;
            ot_append(&j->t, node, &last, key);
            if (!expect_more(j, "':' after the key")) return OV_NONE;
            if (*j->c.p != ':') { tcur_fail(&j->c, "':' after the key"); return OV_NONE; }
            j->c.p++;
        }
        uint32_t v = read_value(j, depth + 1);
        if (v == OV_NONE) return OV_NONE;
        ot_append(&j->t, node, &last, v);
        char exp[32];
        snprintf(exp, sizeof exp, "',' or '%c'", close);
        if (!expect_more(j, exp)) return OV_NONE;
        if (*j->c.p == ',') { j->c.p++; continue; }
        if (*j->c.p == close) { j->c.p++; break; }
        tcur_fail(&j->c, exp);
        return OV_NONE;
    }
    if (kind == OV_MAP) {
        uint32_t dup = ot_duplicate_key(&j->t, node);
        if (dup != OV_NONE) {
            char kb[64];
            tcur_error(&j->c, ot_node(&j->t, dup)->line, "key %s appears twice in one object",
                       ot_render(&j->t, dup, kb, sizeof kb));
            return OV_NONE;
        }
    }
    return node;
}

static uint32_t read_value(jin *j, int depth) {
    if (depth >= OT_MAX_DEPTH) { tcur_fail(&j->c, "less nesting (at most 256 levels)"); return OV_NONE; }
    if (!expect_more(j, "a value")) return OV_NONE;
    uint32_t line = (uint32_t)j->c.line;
    const char *p = j->c.p;
    switch (*p) {
    case '{': return read_container(j, OV_MAP, depth);
    case '[': return read_container(j, OV_VECTOR, depth);
    case '"': return read_string(j);
    case 'n': if (!strncmp(p, "null", 4)) { j->c.p += 4; return ot_atom(&j->t, OV_NIL, line, p, 4); } break;
    case 't': if (!strncmp(p, "true", 4)) { j->c.p += 4; return ot_atom(&j->t, OV_BOOL, line, p, 4); } break;
    case 'f': if (!strncmp(p, "false", 5)) { j->c.p += 5; return ot_atom(&j->t, OV_BOOL, line, p, 5); } break;
    default:
        if (*p == '-' || (*p >= '0' && *p <= '9')) return read_number(j);
    }
    tcur_fail(&j->c, "a JSON value");
    return OV_NONE;
}

history *parse_json(input *r, const load_options *opt, load_report *rep, ic_error *err) {
    (void)opt;
    jin j;
    memset(&j, 0, sizeof j);
    ot_init(&j.t, 1);
    jepsen_reader *jr = NULL;
    tk_reader *tk = NULL;
    int ok = tcur_init(&j.c, r, err), wrapped = 0, forms = 0;
    while (ok && ws(&j)) {
        char ch = *j.c.p;
        if (wrapped == 1) {                          /* inside the array holding the history */
            if (ch == ']') { j.c.p++; wrapped = 2; continue; }
            if (forms > 0) {
                if (ch != ',') { ok = tcur_fail(&j.c, "',' or ']'"); break; }
                j.c.p++;
            }
        } else if (wrapped == 2) {
            ok = tcur_fail(&j.c, "end of file after the array holding the history");
            break;
        } else if (ch == '[' && forms == 0) {
            j.c.p++;
            wrapped = 1;
            continue;
        }
        ot_reset(&j.t);
        uint32_t root = read_value(&j, wrapped);
        if (root == OV_NONE) { ok = 0; break; }
        if (!forms++) {
            if (tk_is_txn(&j.t, root)) tk = tk_new(r->name, rep);
            else jr = jr_new(FORMAT_JSON, r->name, rep);
        }
        ok = tk ? tk_txn(tk, &j.t, root, err) : jr_op(jr, &j.t, root, err);
    }
    if (ok && j.c.failed) ok = 0;
    if (ok && wrapped == 1) ok = tcur_fail(&j.c, "']' closing the array holding the history");
    ot_free(&j.t);
    vec_free(j.buf);
    if (!ok) { jr_free(jr); tk_free(tk); return NULL; }
    if (tk) return tk_finish(tk, err);
    if (!jr) jr = jr_new(FORMAT_JSON, r->name, rep);      /* no operation at all: the usual error */
    return jr_finish(jr, err);
}
