/* parse_elle.c — Jepsen/Elle histories in EDN, one operation map per line:
 *
 *   {:type :ok, :f :txn, :process 3, :index 12,
 *    :value [[:append 1 5] [:r 2 [1 4]] [:w 3 7] [:r 3 nil]]}
 *
 * A line may carry a record tag (#jepsen.history.Op{...}).
 * Only completions of :f :txn count (:invoke lines and other :f values are
 * checked for syntax and skipped): :ok is committed, :fail aborted, :info
 * indeterminate.  A completion carries the whole transaction; reads in
 * :fail and :info completions are dropped (they are the invocation's nil
 * placeholders), their writes kept.  The session is :process (an integer;
 * operations of keyword processes such as :nemesis are skipped); the
 * transaction id is :index, or the line number without one.
 *
 * Micro-ops: [:r k v] (v an integer or nil — the initial value) and
 * [:w k v] on registers ([:r k] without a value, as in invocations, is nil); [:append k v] and [:r k [v ...]] on lists, where
 * [:r k nil] or [:r k []] reads the empty list.  Keys are integers,
 * keywords or strings (interned as written).  A key is either a register
 * or a list, not both.  Values are 64-bit integers.  Other map keys and
 * their values (:time, :node, :error, ...) are skipped, any EDN. */
#include "frontend/parse.h"

#include <inttypes.h>
#include <string.h>

#include "vec.h"
#include "frontend/lex.h"
#include "frontend/u64map.h"

#define EDN_MAX_DEPTH 256

typedef struct elle_in {
    input *r;
    ic_error *err;
    const char *p;
} elle_in;

static int fail_at(elle_in *in, const char *expected) {
    char fb[48];
    ic_error_at(in->err, in->r->name, in->r->line, "expected %s, found %s", expected, lex_found(in->p, fb, sizeof fb));
    return 0;
}

static void ws(elle_in *in) {
    for (;;) {
        char c = *in->p;
        if (c == ' ' || c == ',' || c == '\t' || c == '\r' || c == '\f' || c == '\v') in->p++;
        else if (c == ';') { while (*in->p) in->p++; }
        else return;
    }
}

static int is_delim(char c) {
    return !c || c == ' ' || c == ',' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '[' || c == ']' ||
           c == '(' || c == ')' || c == '{' || c == '}' || c == '"' || c == ';';
}

/* An atom (number, keyword, symbol, nil): its extent. */
static size_t atom_len(const char *p) {
    size_t n = 0;
    while (!is_delim(p[n])) n++;
    return n;
}

static int atom_is(const char *p, const char *word) {
    size_t n = strlen(word);
    return !strncmp(p, word, n) && is_delim(p[n]);
}

static int skip_string(elle_in *in) {
    in->p++;
    while (*in->p && *in->p != '"') {
        if (*in->p == '\\' && in->p[1]) in->p++;
        in->p++;
    }
    if (*in->p != '"') return fail_at(in, "'\"' closing a string (strings may not span lines)");
    in->p++;
    return 1;
}

/* Skip one EDN value of any kind, nesting kept on an explicit stack. */
static int skip_value(elle_in *in) {
    char stack[EDN_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        ws(in);
        char c = *in->p;
        if (!c) return fail_at(in, depth ? "a closing bracket" : "a value");
        if (c == '[' || c == '(' || c == '{') {
            if (depth == EDN_MAX_DEPTH) return fail_at(in, "less nesting (at most 256 levels)");
            stack[depth++] = c == '[' ? ']' : c == '(' ? ')' : '}';
            in->p++;
            continue;
        }
        if (c == ']' || c == ')' || c == '}') {
            if (!depth || stack[depth - 1] != c) {
                char exp[32];
                if (depth) snprintf(exp, sizeof exp, "'%c'", stack[depth - 1]);
                else snprintf(exp, sizeof exp, "a value");
                return fail_at(in, exp);
            }
            in->p++;
            if (--depth == 0) return 1;
            continue;
        }
        if (c == '"') { if (!skip_string(in)) return 0; }
        else if (c == '#') {
            in->p++;
            if (*in->p == '{') {
                if (depth == EDN_MAX_DEPTH) return fail_at(in, "less nesting (at most 256 levels)");
                stack[depth++] = '}';
                in->p++;
                continue;
            }
            if (*in->p == '_') { in->p++; continue; }      /* discard: the next value is skipped anyway */
            size_t n = atom_len(in->p);                      /* a tag: the value follows */
            if (!n) return fail_at(in, "a tag after '#'");
            in->p += n;
            continue;
        } else if (c == '\\') {
            in->p++;
            if (!*in->p) return fail_at(in, "a character after '\\'");
            in->p++;
            in->p += atom_len(in->p);
        } else {
            size_t n = atom_len(in->p);
            if (!n) return fail_at(in, "a value");
            in->p += n;
        }
        if (depth == 0) return 1;
    }
}

static int parse_int(elle_in *in, int64_t *v, const char *what) {
    const char *start = in->p;
    int rc = lex_i64(&in->p, v);
    if (rc == 1 && is_delim(*in->p)) return 1;
    in->p = start;
    if (rc < 0) {
        ic_error_at(in->err, in->r->name, in->r->line, "%s out of range (64-bit signed integers)", what);
        return 0;
    }
    return fail_at(in, what);
}

typedef enum { KEY_UNUSED = 0, KEY_REGISTER = 1, KEY_LIST = 2 } key_use;

typedef struct elle_state {
    history_builder *b;
    VEC(uint8_t) key_use;
    vec_u32 nil_reads;        /* pairs (builder op, key): [:r k nil], list or register */
    const char *key_tok;      /* the last key as written, for messages */
    int key_tok_len;
    u64map txn_ids;
    VEC(int64_t) list;
} elle_state;

static int parse_key(elle_in *in, elle_state *st, uint32_t *key) {
    ws(in);
    st->key_tok = in->p;
    char c = *in->p;
    if (c == '"') {
        const char *s = in->p;
        if (!skip_string(in)) return 0;
        *key = hb_key_str(st->b, s, (size_t)(in->p - s));
    } else if (c == ':') {
        size_t n = atom_len(in->p);
        if (n < 2) return fail_at(in, "a key (integer, keyword or string)");
        *key = hb_key_str(st->b, in->p, n);
        in->p += n;
    } else {
        int64_t k;
        if (!parse_int(in, &k, "a key (integer, keyword or string)")) return 0;
        *key = hb_key(st->b, k);
    }
    st->key_tok_len = (int)(in->p - st->key_tok > 40 ? 40 : in->p - st->key_tok);
    while (st->key_use.len <= *key) vec_push(st->key_use, KEY_UNUSED);
    return 1;
}

static int use_key(elle_in *in, elle_state *st, uint32_t key, key_use use) {
    if (st->key_use.data[key] == KEY_UNUSED) st->key_use.data[key] = (uint8_t)use;
    if (st->key_use.data[key] == use) return 1;
    ic_error_at(in->err, in->r->name, in->r->line,
                "key %.*s is used both as a register ([:w k v], [:r k v]) and as a list ([:append k v], [:r k [...]])",
                st->key_tok_len, st->key_tok);
    return 0;
}

/* One micro-op; adds it to txn unless it is a read and keep_reads is 0. */
static int parse_micro_op(elle_in *in, elle_state *st, uint32_t txn, int keep_reads) {
    ws(in);
    if (*in->p != '[') return fail_at(in, "'[' starting a micro-op like [:r k v]");
    in->p++;
    ws(in);
    uint32_t line = (uint32_t)in->r->line;
    enum { M_READ, M_WRITE, M_APPEND } m;
    if (atom_is(in->p, ":r")) { m = M_READ; in->p += 2; }
    else if (atom_is(in->p, ":w")) { m = M_WRITE; in->p += 2; }
    else if (atom_is(in->p, ":append")) { m = M_APPEND; in->p += 7; }
    else return fail_at(in, "a micro-op :r, :w or :append");
    uint32_t key = 0;
    if (!parse_key(in, st, &key)) return 0;
    ws(in);
    int64_t v;
    if (m == M_READ) {
        if (atom_is(in->p, "nil") || *in->p == ']') {      /* invocations may write [:r k] */
            if (*in->p != ']') in->p += 3;
            if (keep_reads) {
                vec_push(st->nil_reads, hb_op(st->b, txn, OP_READ, key, VALUE_INIT, line));
                vec_push(st->nil_reads, key);
            }
        } else if (*in->p == '[') {
            in->p++;
            vec_clear(st->list);
            for (;;) {
                ws(in);
                if (*in->p == ']') { in->p++; break; }
                if (!parse_int(in, &v, "an integer list element or ']'")) return 0;
                vec_push(st->list, v);
            }
            if (st->list.len > UINT32_MAX / 2) return fail_at(in, "a shorter list");
            if (!use_key(in, st, key, KEY_LIST)) return 0;
            if (keep_reads) hb_list_read(st->b, txn, key, st->list.data, (uint32_t)st->list.len, line);
        } else {
            if (!parse_int(in, &v, "a read value (integer, nil or a list)")) return 0;
            if (v == VALUE_INIT) { ic_error_at(in->err, in->r->name, in->r->line, "value %" PRId64 " is reserved", v); return 0; }
            if (!use_key(in, st, key, KEY_REGISTER)) return 0;
            if (keep_reads) hb_op(st->b, txn, OP_READ, key, v, line);
        }
    } else {
        if (!parse_int(in, &v, m == M_WRITE ? "a written value (integer)" : "an appended value (integer)")) return 0;
        if (v == VALUE_INIT) { ic_error_at(in->err, in->r->name, in->r->line, "value %" PRId64 " is reserved", v); return 0; }
        if (!use_key(in, st, key, m == M_WRITE ? KEY_REGISTER : KEY_LIST)) return 0;
        hb_op(st->b, txn, m == M_WRITE ? OP_WRITE : OP_APPEND, key, v, line);
    }
    ws(in);
    if (*in->p != ']') return fail_at(in, "']' closing the micro-op");
    in->p++;
    return 1;
}

typedef enum { T_NONE, T_INVOKE, T_OK, T_FAIL, T_INFO } op_type;

/* One line: a map.  Reads the fields, then (for txn completions) parses
 * :value again into the builder. */
static int parse_line(elle_in *in, elle_state *st) {
    ws(in);
    if (*in->p == '#' && in->p[1] != '{') {               /* a record tag: #jepsen.history.Op{...} */
        in->p++;
        in->p += atom_len(in->p);
        ws(in);
    }
    if (*in->p != '{') return fail_at(in, "'{' starting an operation map");
    in->p++;
    op_type type = T_NONE;
    int is_txn = -1, process_ok = -1, has_index = 0;      /* process_ok: -1 absent, 0 keyword/nil, 1 integer */
    int64_t process = 0, index = 0;
    const char *value = NULL;
    for (;;) {
        ws(in);
        if (*in->p == '}') { in->p++; break; }
        if (*in->p != ':') return fail_at(in, "a keyword (like :type) or '}'");
        size_t n = atom_len(in->p);
        const char *k = in->p;
        in->p += n;
        ws(in);
        if (n == 5 && !strncmp(k, ":type", 5)) {
            if (atom_is(in->p, ":invoke")) type = T_INVOKE;
            else if (atom_is(in->p, ":ok")) type = T_OK;
            else if (atom_is(in->p, ":fail")) type = T_FAIL;
            else if (atom_is(in->p, ":info")) type = T_INFO;
            else return fail_at(in, ":invoke, :ok, :fail or :info after :type");
            in->p += atom_len(in->p);
        } else if (n == 2 && !strncmp(k, ":f", 2)) {
            is_txn = atom_is(in->p, ":txn");
            if (!skip_value(in)) return 0;
        } else if (n == 8 && !strncmp(k, ":process", 8)) {
            if (*in->p == ':' || atom_is(in->p, "nil")) { process_ok = 0; if (!skip_value(in)) return 0; }
            else { if (!parse_int(in, &process, "an integer or keyword :process")) return 0; process_ok = 1; }
        } else if (n == 6 && !strncmp(k, ":index", 6)) {
            if (!parse_int(in, &index, "an integer :index")) return 0;
            has_index = 1;
        } else if (n == 6 && !strncmp(k, ":value", 6)) {
            value = in->p;
            if (!skip_value(in)) return 0;
        } else {
            if (!skip_value(in)) return 0;
        }
    }
    ws(in);
    if (*in->p) return fail_at(in, "end of line after the map (one operation per line)");
    if (type == T_NONE) return fail_at(in, "an operation with :type");
    if (is_txn != 1 || type == T_INVOKE || process_ok == 0) return 1;
    if (process_ok < 0) { in->p = ""; return fail_at(in, "a :process in a :txn completion"); }
    if (!value) { in->p = ""; return fail_at(in, "a :value in a :txn completion"); }
    int64_t ext = has_index ? index : in->r->line;
    if (u64map_get(&st->txn_ids, (uint64_t)ext) != UINT32_MAX) {
        ic_error_at(in->err, in->r->name, in->r->line, "duplicate transaction id (:index %" PRId64 ")", ext);
        return 0;
    }
    uint32_t txn = hb_txn(st->b, hb_session(st->b, process, NULL), ext, (uint32_t)in->r->line);
    u64map_put(&st->txn_ids, (uint64_t)ext, txn);
    hb_txn_status(st->b, txn, type == T_OK ? TXN_COMMITTED : type == T_FAIL ? TXN_ABORTED : TXN_INDETERMINATE);
    in->p = value;
    ws(in);
    if (atom_is(in->p, "nil")) return 1;
    if (*in->p != '[') return fail_at(in, "a vector of micro-ops as :value");
    in->p++;
    for (;;) {
        ws(in);
        if (*in->p == ']') break;
        if (!parse_micro_op(in, st, txn, type == T_OK)) return 0;
    }
    return 1;
}

history *parse_elle(input *r, ic_error *err) {
    elle_state st;
    memset(&st, 0, sizeof st);
    st.b = hb_new(FORMAT_ELLE, LOC_LINE, r->name);
    u64map_init(&st.txn_ids);
    elle_in in = { r, err, NULL };
    size_t len;
    char *line;
    int ok = 1;
    while (ok && (line = input_line(r, &len))) {
        in.p = line;
        ws(&in);
        if (!*in.p) continue;
        if (len != strlen(line)) { ic_error_at(err, r->name, r->line, "expected text, found a NUL byte"); ok = 0; break; }
        ok = parse_line(&in, &st);
    }
    if (ok && r->io_error) { ic_error_at(err, r->name, 0, "read error: %s", input_error(r)); ok = 0; }
    if (ok)   /* [:r k nil] on a list key reads the empty list */
        for (size_t i = 0; i + 1 < st.nil_reads.len; i += 2)
            if (st.key_use.data[st.nil_reads.data[i + 1]] == KEY_LIST) hb_op_make_empty_list_read(st.b, st.nil_reads.data[i]);
    vec_free(st.key_use);
    vec_free(st.nil_reads);
    vec_free(st.list);
    u64map_free(&st.txn_ids);
    if (!ok) { hb_free(st.b); return NULL; }
    return hb_finish(st.b, err);
}
