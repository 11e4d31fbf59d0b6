/* parse_elle.c — Jepsen/Elle histories in EDN:
 *
 *   {:type :ok, :f :txn, :process 3, :index 12,
 *    :value [[:append 1 5] [:r 2 [1 4]] [:w 3 7] [:r 3 nil]]}
 *
 * The input is a sequence of operation maps, or one vector or list that
 * holds them (elle-cli's two shapes).  A map may span lines and a line may
 * hold several maps.  EDN as Clojure reads it: ';' comments anywhere,
 * '#_' discards the next form, tags (#jepsen.history.Op{...}, #inst "...")
 * are dropped keeping the tagged value, sets #{...}, strings that span
 * lines, characters, big integers (123N).  Nesting is limited to 256
 * levels.  A map with a repeated key and a NUL byte anywhere are errors.
 *
 * This file is only the syntax; what the operations mean is
 * jepsen_ops.c's (shared with the JSON reader).  Three ways in, the first
 * that takes a map: the usual completion map on one line is decoded
 * without a tree into jr_plain_op (plain_map); a map of keywords,
 * integers, nil, vectors and maps on one line is lexed in one pass into
 * the tree (fast_form); anything else by the general reader (read_form),
 * from the map's start, which words every error. */
#include "frontend/formats/parse.h"

#include <string.h>

#include "vec.h"
#include "frontend/formats/jepsen_ops.h"
#include "frontend/formats/optree.h"
#include "frontend/formats/text_cursor.h"

typedef struct edn { tcur c; optree t; vec_char buf; VEC(jr_plain_mop) pm; } edn;

/* Character classes, one table lookup each (the lexer's inner loops):
 * 1 blank (comma included), 2 ends an atom (blanks, brackets, '"', ';', NUL). */
enum { C_WS = 1, C_DELIM = 2 };
static const unsigned char cclass[256] = {
    [0] = C_DELIM, [' '] = C_WS | C_DELIM, [','] = C_WS | C_DELIM, ['\t'] = C_WS | C_DELIM,
    ['\r'] = C_WS | C_DELIM, ['\f'] = C_WS | C_DELIM, ['\v'] = C_WS | C_DELIM,
    ['['] = C_DELIM, [']'] = C_DELIM, ['('] = C_DELIM, [')'] = C_DELIM, ['{'] = C_DELIM, ['}'] = C_DELIM,
    ['"'] = C_DELIM, [';'] = C_DELIM,
};

static int is_ws(char ch) { return cclass[(unsigned char)ch] & C_WS; }
static int is_delim(char ch) { return cclass[(unsigned char)ch] & C_DELIM; }

/* Skip blanks, commas, comments and line ends; 1 at a form's first
 * character, 0 at the end of the input (or on an error). */
static int ws(edn *e) {
    for (;;) {
        char ch = *e->c.p;
        if (is_ws(ch)) e->c.p++;
        else if (ch == ';' || !ch) { if (!tcur_next_line(&e->c)) return 0; }
        else return 1;
    }
}

static uint32_t read_form(edn *e, int depth);

/* ws() that also drops '#_' forms; 1 at a form (or closing bracket). */
static int ws_discard(edn *e, int depth) {
    while (ws(e)) {
        if (e->c.p[0] != '#' || e->c.p[1] != '_') return 1;
        e->c.p += 2;
        if (read_form(e, depth + 1) == OV_NONE) return 0;   /* the discarded form */
    }
    return 0;
}

static size_t atom_len(const char *p) {
    size_t n = 0;
    while (!is_delim(p[n])) n++;
    return n;
}

/* A string at '"'; its content decoded into a node.  May span lines. */
static uint32_t read_string(edn *e) {
    uint32_t line = (uint32_t)e->c.line;
    vec_clear(e->buf);
    e->c.p++;
    for (;;) {
        char ch = *e->c.p;
        if (!ch) {                                     /* the string goes on on the next line */
            if (!tcur_next_line(&e->c)) {
                if (!e->c.failed) tcur_error(&e->c, line, "expected '\"' closing the string that starts here, found end of file");
                return OV_NONE;
            }
            vec_push(e->buf, '\n');
            continue;
        }
        e->c.p++;
        if (ch == '"') break;
        if (ch != '\\') { vec_push(e->buf, ch); continue; }
        if (!tcur_escape(&e->c, &e->buf, 0)) return OV_NONE;
    }
    return ot_atom(&e->t, OV_STRING, line, e->buf.data ? e->buf.data : "", e->buf.len);
}

static uint32_t read_atom(edn *e) {
    uint32_t line = (uint32_t)e->c.line;
    const char *p = e->c.p;
    if (*p == '\\') {                                  /* a character: \a, \newline, \( ... */
        size_t n = p[1] ? 1 + (is_delim(p[2]) ? 1 : atom_len(p + 1)) : 0;
        if (!n) { tcur_fail(&e->c, "a character after '\\'"); return OV_NONE; }
        e->c.p += n;
        return ot_atom(&e->t, OV_CHAR, line, p, n);
    }
    size_t n = atom_len(p);
    if (!n) { tcur_fail(&e->c, "a value"); return OV_NONE; }
    e->c.p += n;
    if (*p == ':') {
        if (n < 2) { e->c.p -= n; tcur_fail(&e->c, "a keyword name after ':'"); return OV_NONE; }
        return ot_atom(&e->t, OV_KEYWORD, line, p, n);
    }
    int numeric = (*p >= '0' && *p <= '9') || ((*p == '-' || *p == '+') && n > 1 && p[1] >= '0' && p[1] <= '9');
    if (numeric) {
        uint32_t node = ot_integer(&e->t, line, p, n);
        return node != OV_NONE ? node : ot_atom(&e->t, OV_NUMBER, line, p, n);
    }
    if (n == 3 && !strncmp(p, "nil", 3)) return ot_atom(&e->t, OV_NIL, line, p, n);
    if ((n == 4 && !strncmp(p, "true", 4)) || (n == 5 && !strncmp(p, "false", 5))) return ot_atom(&e->t, OV_BOOL, line, p, n);
    return ot_atom(&e->t, OV_SYMBOL, line, p, n);
}

/* Elements up to `close`, as children of node. */
static uint32_t read_elements(edn *e, uint32_t node, char close, int depth) {
    uint32_t last = OV_NONE;
    for (;;) {
        if (!ws_discard(e, depth)) {
            if (!e->c.failed) {
                char exp[32];
                snprintf(exp, sizeof exp, "'%c'", close);
                tcur_fail(&e->c, exp);
            }
            return OV_NONE;
        }
        char ch = *e->c.p;
        if (ch == close) { e->c.p++; return node; }
        if (ch == ']' || ch == ')' || ch == '}') {
            char exp[32];
            snprintf(exp, sizeof exp, "'%c'", close);
            tcur_fail(&e->c, exp);
            return OV_NONE;
        }
        uint32_t child = read_form(e, depth);
        if (child == OV_NONE) return OV_NONE;
        ot_append(&e->t, node, &last, child);
    }
}

static uint32_t read_form(edn *e, int depth) {
    if (depth >= OT_MAX_DEPTH) { tcur_fail(&e->c, "less nesting (at most 256 levels)"); return OV_NONE; }
    if (!ws_discard(e, depth)) {
        if (!e->c.failed) tcur_fail(&e->c, "a value");
        return OV_NONE;
    }
    uint32_t line = (uint32_t)e->c.line;
    char ch = *e->c.p;
    switch (ch) {
    case '[': e->c.p++; return read_elements(e, ot_container(&e->t, OV_VECTOR, line), ']', depth + 1);
    case '(': e->c.p++; return read_elements(e, ot_container(&e->t, OV_LIST, line), ')', depth + 1);
    case '{': {
        e->c.p++;
        uint32_t m = read_elements(e, ot_container(&e->t, OV_MAP, line), '}', depth + 1);
        if (m == OV_NONE) return OV_NONE;
        if (ot_node(&e->t, m)->count & 1) {
            tcur_error(&e->c, e->c.line, "a map (from line %u) has a key without a value", line);
            return OV_NONE;
        }
        uint32_t dup = ot_duplicate_key(&e->t, m);
        if (dup != OV_NONE) {
            char kb[64];
            tcur_error(&e->c, ot_node(&e->t, dup)->line, "key %s appears twice in one map (EDN forbids it)",
                       ot_render(&e->t, dup, kb, sizeof kb));
            return OV_NONE;
        }
        return m;
    }
    case ']': case ')': case '}':
        tcur_fail(&e->c, "a value");
        return OV_NONE;
    case '"':
        return read_string(e);
    case '#': {
        char next = e->c.p[1];
        if (next == '{') { e->c.p += 2; return read_elements(e, ot_container(&e->t, OV_SET, line), '}', depth + 1); }
        if (next == '#') return read_atom(e);                  /* ##Inf, ##NaN: a symbol, as written */
        if (next == '"') { e->c.p++; return read_string(e); }    /* a regex: its text */
        e->c.p++;
        size_t n = atom_len(e->c.p);                             /* a tag: the tagged value follows */
        if (!n) { tcur_fail(&e->c, "a tag after '#'"); return OV_NONE; }
        e->c.p += n;
        return read_form(e, depth + 1);
    }
    default:
        return read_atom(e);
    }
}

/* ---- the usual operation map, lexed in one pass -------------------------
 * Jepsen writes one operation map a line, of keywords, integers, nil and
 * vectors of them ({:type :ok, :f :txn, :process 3, :index 12, :value
 * [[:r 1 nil] [:w 2 5]]}).  fast_form lexes exactly that subset, on the
 * current line, into the same nodes read_form builds (kinds, canonical
 * texts, lines), with none of the general reader's per-character
 * dispatch; anything else — a string, a comment, a tag, a nested map, a
 * symbol, a number that is not a canonical integer, a line end inside the
 * map, a map that read_form would reject — returns OV_NONE, and the caller
 * reads the form again with read_form from where it started. */

static const char *fast_sep(const char *p) {
    while (*p == ' ' || *p == ',') p++;
    return p;
}

static uint32_t fast_form(edn *e, const char **pp, int depth) {
    const char *p = *pp;
    uint32_t line = (uint32_t)e->c.line, node;
    if (*p == '[' || *p == '{') {
        if (depth >= 4) return OV_NONE;
        char close = *p == '[' ? ']' : '}';
        node = ot_container(&e->t, close == ']' ? OV_VECTOR : OV_MAP, line);
        uint32_t last = OV_NONE;
        for (p = fast_sep(p + 1); *p != close; p = fast_sep(p)) {
            uint32_t child = fast_form(e, &p, depth + 1);
            if (child == OV_NONE) return OV_NONE;
            ot_append(&e->t, node, &last, child);
        }
        *pp = p + 1;
        if (close == '}' && ((ot_node(&e->t, node)->count & 1) || ot_duplicate_key(&e->t, node) != OV_NONE))
            return OV_NONE;                            /* (read_form words the error) */
        return node;
    }
    size_t n = atom_len(p);
    if (!n) return OV_NONE;
    if (*p == ':' && n >= 2) node = ot_atom(&e->t, OV_KEYWORD, line, p, n);
    else if (n == 3 && !memcmp(p, "nil", 3)) node = ot_atom(&e->t, OV_NIL, line, p, n);
    else if ((*p >= '0' && *p <= '9') || (*p == '-' && n > 1)) node = ot_integer(&e->t, line, p, n);
    else return OV_NONE;
    if (node == OV_NONE || (p[n] && p[n] != ' ' && p[n] != ',' && p[n] != ']' && p[n] != '}')) return OV_NONE;
    *pp = p + n;
    return node;
}

/* ---- the usual completion, without a tree -------------------------------
 * {:type :ok|:fail|:info, :f :txn, :process P, :index I, :value [[:r K V]
 * [:r K nil] [:w K V] [:append K V] ...]} on one line, its five keys in any
 * order, maybe with `:isocheck/reads :observed` (what convert writes on an
 * aborted transaction) and `:time T` (Jepsen's), every number a canonical
 * integer of at most 18 digits: decoded straight into jr_plain
 * (jepsen_ops.h), which reads it as jr_op reads the map.  Anything else
 * (another key, a string, a line end inside, ...) is 0, and the map is
 * read by fast_form or read_form from its start. */

/* The number of decimal digits that start p, if fewer than 8, else 8; *w
 * gets the 8 bytes at p.  One load and a few word operations instead of a
 * test and a branch per digit: p may be anywhere in a line that
 * input_line gave (INPUT_SLACK bytes can be read after its end).  A byte
 * is a digit when its high nibble is 3 both as it is and plus 6; a carry
 * out of a byte only reaches the bytes after it, so the first non-digit is
 * found exactly whatever follows it. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define ELLE_SWAR 1
static inline unsigned lead_digits(const char *p, uint64_t *w) {
    const uint64_t ones = 0x0101010101010101ULL, hi = 0xF0F0F0F0F0F0F0F0ULL, three = 0x3030303030303030ULL;
    uint64_t x;
    memcpy(&x, p, 8);
    *w = x;
    uint64_t bad = ((x ^ three) | ((x + 6 * ones) ^ three)) & hi;   /* set bits only in the non-digits' bytes */
    return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* The value of the n (1..7) digits in the low bytes of w (first digit lowest). */
static inline uint64_t digits_value(uint64_t w, unsigned n) {
    uint64_t x = (w - 0x3030303030303030ULL) << (64 - 8 * n);   /* as 8 digits with leading zeros */
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;                /* pairs */
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;              /* fours */
    return (x * 10000 + (x >> 32)) & 0xFFFFFFFFULL;
}
#endif

/* A canonical integer (no leading 0, no -0) of at most 18 digits, ending
 * an atom: 1 with *v set and *pp past it, else 0.  The digit loop; the
 * usual integer (under 8 digits) is plain_int's. */
static int plain_int_loop(const char **pp, int64_t *v) {
    const char *p = *pp, *d = p + (*p == '-'), *s = d;
    uint64_t x = 0;
    while ((unsigned)(*s - '0') < 10u) x = x * 10 + (unsigned)(*s++ - '0');   /* (wraps past 18 digits: refused) */
    size_t n = (size_t)(s - d);
    if (!n || n > 18 || (*d == '0' && (n > 1 || d != p)) || !is_delim(*s)) return 0;
    *v = d != p ? -(int64_t)x : (int64_t)x;
    *pp = s;
    return 1;
}

#ifdef ELLE_SWAR
/* plain_int_loop's contract, the digits read as one word (inlined: it
 * runs twice a micro-op). */
static inline __attribute__((always_inline)) int plain_int(const char **pp, int64_t *v) {
    const char *p = *pp, *d = p + (*p == '-');
    uint64_t w;
    unsigned k = lead_digits(d, &w);
    if (k == 8) return plain_int_loop(pp, v);
    if (!k || ((char)w == '0' && (k > 1 || d != p)) || !is_delim(d[k])) return 0;
    uint64_t x = digits_value(w, k);
    *v = d != p ? -(int64_t)x : (int64_t)x;
    *pp = d + k;
    return 1;
}
#else
#define plain_int plain_int_loop
#endif

static inline int is_word(const char *p, size_t n, const char *w) { return strlen(w) == n && !memcmp(p, w, n); }

/* Which of the keys p[0..n) is (0 :type, 1 :f, 2 :process, 3 :index, 4 :value,
 * 5 :isocheck/reads, 6 :time), else 7. */
static int plain_key(const char *p, size_t n) {
    switch (n) {
    case 2: return is_word(p, n, ":f") ? 1 : 7;
    case 5: return is_word(p, n, ":type") ? 0 : is_word(p, n, ":time") ? 6 : 7;
    case 6: return is_word(p, n, ":index") ? 3 : is_word(p, n, ":value") ? 4 : 7;
    case 8: return is_word(p, n, ":process") ? 2 : 7;
    case 15: return is_word(p, n, ":isocheck/reads") ? 5 : 7;
    default: return 7;
    }
}

static int plain_mops(edn *e, const char **pp) {
    const char *p = *pp;
    if (*p != '[') return 0;
    for (p = fast_sep(p + 1); *p != ']'; p = fast_sep(p)) {
        if (*p != '[') return 0;
        p = fast_sep(p + 1);
        jr_plain_mop m = { 0, 0, 0, 0 };             /* :r, :w, :append (no atom_len: one look each) */
        if (p[0] != ':') return 0;
        if ((p[1] == 'r' || p[1] == 'w') && is_delim(p[2])) { m.kind = p[1]; p += 2; }
        else if (!strncmp(p, ":append", 7) && is_delim(p[7])) { m.kind = 'a'; p += 7; }   /* (stops at a NUL) */
        else return 0;
        p = fast_sep(p);
        if (!plain_int(&p, &m.key)) return 0;
        p = fast_sep(p);
        if (p[0] == 'n' && p[1] == 'i' && p[2] == 'l' && is_delim(p[3])) { m.nil = 1; p += 3; }
        else if (!plain_int(&p, &m.value)) return 0;
        p = fast_sep(p);
        if (*p++ != ']') return 0;
        vec_push(e->pm, m);
    }
    *pp = p + 1;
    return 1;
}

static int plain_map(edn *e, const char **pp, jr_plain *pl) {
    const char *p = fast_sep(*pp + 1);
    unsigned seen = 0;
    vec_clear(e->pm);
    while (*p != '}') {
        size_t n = atom_len(p);
        int k = plain_key(p, n);
        if (k == 7 || (seen >> k & 1u)) return 0;
        seen |= 1u << k;
        p = fast_sep(p + n);
        n = atom_len(p);
        if (k == 0) {
            pl->type = is_word(p, n, ":ok") ? 'o' : is_word(p, n, ":fail") ? 'f' : is_word(p, n, ":info") ? 'i' : 0;
            if (!pl->type) return 0;
            p += n;
        } else if (k == 1 || k == 5) {
            if (!is_word(p, n, k == 1 ? ":txn" : ":observed")) return 0;
            p += n;
        } else if (!(k == 2 ? plain_int(&p, &pl->process) : k == 3 ? plain_int(&p, &pl->index)
                     : k == 6 ? plain_int(&p, &pl->time) : plain_mops(e, &p))) {
            return 0;
        }
        if (*p != ' ' && *p != ',' && *p != '}') return 0;
        p = fast_sep(p);
    }
    if ((seen & 31) != 31) return 0;
    pl->observed = (uint8_t)(seen >> 5 & 1u);
    pl->has_time = (uint8_t)(seen >> 6 & 1u);
    pl->line = (uint32_t)e->c.line;
    pl->mops = e->pm.data;
    pl->n = e->pm.len;
    *pp = p + 1;
    return 1;
}

history *parse_elle(input *r, const load_options *opt, load_report *rep, ic_error *err) {
    (void)opt;
    edn e;
    memset(&e, 0, sizeof e);
    ot_init(&e.t, 0);
    jepsen_reader *jr = jr_new(FORMAT_ELLE, r->name, rep);
    int ok = tcur_init(&e.c, r, err), wrapped = 0, forms = 0;
    char close = 0;
    while (ok && ws_discard(&e, 0)) {
        char ch = *e.c.p;
        if (wrapped == 1) {                      /* inside the vector/list holding the history */
            if (ch == close) { e.c.p++; wrapped = 2; continue; }
        } else if (wrapped == 2) {
            ok = tcur_fail(&e.c, "end of file after the vector holding the history");
            break;
        } else if ((ch == '[' || ch == '(') && forms == 0) {
            e.c.p++;
            wrapped = 1;
            close = ch == '[' ? ']' : ')';
            continue;
        }
        const char *at = e.c.p;
        jr_plain pl;
        if (*at == '{' && plain_map(&e, &at, &pl)) {            /* the usual completion: no tree */
            int taken = jr_plain_op(jr, &pl, err);
            if (taken >= 0) {
                forms++;
                e.c.p = at;
                if (!(ok = taken)) break;
                continue;
            }
            at = e.c.p;
        }
        ot_reset(&e.t);
        uint32_t root = *at == '{' ? fast_form(&e, &at, 0) : OV_NONE;
        if (root != OV_NONE) e.c.p = at;
        else {                                   /* the general reader, from the form's start */
            ot_reset(&e.t);
            root = read_form(&e, wrapped);
        }
        if (root == OV_NONE) { ok = 0; break; }
        forms++;
        ok = jr_op(jr, &e.t, root, err);
    }
    if (ok && e.c.failed) ok = 0;
    if (ok && wrapped == 1) ok = tcur_fail(&e.c, close == ']' ? "']' closing the vector holding the history"
                                                              : "')' closing the list holding the history");
    ot_free(&e.t);
    vec_free(e.buf);
    vec_free(e.pm);
    if (!ok) { jr_free(jr); return NULL; }
    return jr_finish(jr, err);
}
