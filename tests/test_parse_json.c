/* test_parse_json.c — Elle histories in JSON (elle-cli's shape) and JSON
 * lines: the same model as the EDN form, detection, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>

#include "frontend/checking/axioms.h"
#include "frontend/checking/check.h"
#include "parse_helpers.h"
#include "model_text.h"
#include "batch_verdict.h"

/* The EDN twin: JSON strings are EDN strings ("x" is not :x). */
static const char edn[] =
    "{:type :invoke, :f :txn, :process 1, :index 0, :value [[:r \"x\" nil] [:w \"x\" 10]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 2, :value [[:r \"x\" nil] [:w \"x\" 10]]}\n"
    "{:type :ok, :f :txn, :process 2, :index 3, :value [[:r \"x\" nil] [:w \"x\" 20] [:append \"l\" \"a\"]]}\n"
    "{:type :fail, :f :txn, :process 3, :index 4, :value [[:w \"y\" 1.5]]}\n"
    "{:type :ok, :f :txn, :process 1, :index 5, :value [[:r \"x\" 20] [:r \"l\" [\"a\"]] [:r \"y\" nil]]}\n";

static void assert_same_as_edn(const char *json, history_format fmt) {
    ic_error err;
    history *want = load_str(FORMAT_ELLE, edn, &err);
    assert_non_null(want);
    history *got = load_str(fmt, json, &err);
    if (!got) fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
    assert_non_null(got);
    assert_int_equal(got->format, FORMAT_JSON);
    char *a = model_text(want), *b = model_text(got);
    if (strcmp(a, b)) fprintf(stderr, "want:\n%s\ngot:\n%s\n", a, b);
    assert_string_equal(a, b);
    free(a); free(b);
    history_free(want);
    history_free(got);
}

static void array_and_lines_read_like_edn(void **state) {
    (void)state;
    assert_same_as_edn(                                  /* elle-cli: one array */
        "[{\"type\":\"invoke\",\"f\":\"txn\",\"process\":1,\"index\":0,\"value\":[[\"r\",\"x\",null],[\"w\",\"x\",10]]},\n"
        "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"index\":2,\"value\":[[\"r\",\"x\",null],[\"w\",\"x\",10]]},\n"
        "{\"type\":\"ok\",\"f\":\"txn\",\"process\":2,\"index\":3,\"value\":[[\"r\",\"x\",null],[\"w\",\"x\",20],[\"append\",\"l\",\"a\"]]},\n"
        "{\"type\":\"fail\",\"f\":\"txn\",\"process\":3,\"index\":4,\"value\":[[\"w\",\"y\",1.5]]},\n"
        "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"index\":5,\"value\":[[\"r\",\"x\",20],[\"r\",\"l\",[\"a\"]],[\"r\",\"y\",null]]}]\n",
        FORMAT_AUTO);
    assert_same_as_edn(                                  /* JSON lines, blank lines, escapes, extra fields */
        "\xEF\xBB\xBF{\"type\": \"invoke\", \"f\": \"txn\", \"process\": \"1\", \"index\": 0, \"value\": [[\"r\", \"x\", null], [\"w\", \"x\", 10]]}\n"
        "\n"
        "{\"type\": \"ok\", \"f\": \"txn\", \"process\": 1, \"index\": 2, \"time\": 1.5e9, \"value\": [[\"r\", \"\\u0078\", null], [\"w\", \"x\", 10]]}\r\n"
        "{\"type\": \"ok\", \"process\": 2, \"index\": 3, \"error\": {\"a\": [true, false, {}]},\n"
        "  \"value\": [[\"r\", \"x\", null], [\"w\", \"x\", 20], [\"append\", \"l\", \"a\"]]}"
        " {\"type\": \"fail\", \"f\": \"txn\", \"process\": 3, \"index\": 4, \"value\": [[\"w\", \"y\", 1.5]]}\n"
        "{\"type\": \"ok\", \"f\": \"txn\", \"process\": 1, \"index\": 5, \"value\": [[\"r\", \"x\", 20], [\"r\", \"l\", [\"a\"]], [\"r\", \"y\", null]]}\n",
        FORMAT_AUTO);
}

/* Regression (issue 30): Jepsen's nemesis, :process :nemesis in EDN, is
 * "process": "nemesis" in JSON; the JSON twin was refused ("expected a
 * transaction") while the EDN loaded.  Both twins in tests/data/formats/
 * load to the same model, load report and verdicts. */
static history *load_file(const char *path, load_report *rep) {
    ic_error err;
    ic_error_clear(&err);
    load_report_init(rep);
    history *h = load_history_ex(path, FORMAT_AUTO, NULL, rep, &err);
    if (!h) fail_msg("%s:%ld: %s", err.file, err.line, err.msg);
    return h;
}

static void nemesis_twins_load_alike(void **state) {
    (void)state;
    load_report re, rj;
    history *e = load_file("tests/data/formats/nemesis.edn", &re), *j = load_file("tests/data/formats/nemesis.json", &rj);
    assert_int_equal(e->format, FORMAT_ELLE);
    assert_int_equal(j->format, FORMAT_JSON);
    char *a = model_text(e), *b = model_text(j);
    assert_string_equal(a, b);
    free(a); free(b);
    assert_int_equal(re.nemesis, 4);
    assert_int_equal(rj.nemesis, 4);
    assert_int_equal(re.records, rj.records);
    assert_int_equal(re.invocations, rj.invocations);
    for (int lv = LEVEL_SI; lv <= LEVEL_SER; lv++) {
        assert_int_equal(batch_fails(e, (check_level_id)lv), 1);   /* a lost update */
        assert_int_equal(batch_fails(j, (check_level_id)lv), 1);
    }
    history_free(e); history_free(j);
    load_report_free(&re); load_report_free(&rj);
}

/* One escape routine for both readers (text_cursor.c): the same escapes,
 * surrogate pairs included, decode to the same keys and values. */
static void escapes_decode_alike(void **state) {
    (void)state;
    ic_error err;
    history *e = load_str(FORMAT_ELLE, "{:type :ok, :process 1, :value [[:w \"\\ud83d\\ude00\\n\\/\" \"\\u00e9\\t\"]]}\n", &err);
    history *j = load_str(FORMAT_JSON, "{\"type\": \"ok\", \"process\": 1, \"value\": [[\"w\", \"\\ud83d\\ude00\\n\\/\", \"\\u00e9\\t\"]]}\n", &err);
    assert_non_null(e); assert_non_null(j);
    char *a = model_text(e), *b = model_text(j);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"\xF0\x9F\x98\x80\\n/\""));      /* one 4-byte code point */
    free(a); free(b);
    history_free(e); history_free(j);
    assert_load_error(FORMAT_JSON, "{\"type\": \"ok\", \"x\": \"\\ud83d\"}\n", 1,
                      "expected the low half of a UTF-16 surrogate pair (\\uDC00-\\uDFFF), found 'd\"}'");
}

/* The format a command line names name (history_format_list), or -1. */
static int format_named(const char *name) {
    const char *names[16];
    history_format fmts[16];
    int n = history_format_list(0, names, fmts, 16);
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return (int)fmts[i];
    return -1;
}

static void detection(void **state) {
    (void)state;
    static const char *const json[] = { "{\"type\":\"ok\"}", "  [ {\"type\":1}]", "[\n\n  {\n \"a\": 1}]" };
    static const char *const edn_[] = { "{:type :ok}", "[{:type :ok}]", "({\"a\" 1})", "; c\n{:a 1}", "#_ x {:a 1}",
                                        "#jepsen.history.Op{:type :ok}", "[\n#jepsen.history.Op{}]", "{}" };
    for (size_t i = 0; i < sizeof json / sizeof *json; i++)
        assert_int_equal(detect_format((const unsigned char *)json[i], strlen(json[i])), FORMAT_JSON);
    for (size_t i = 0; i < sizeof edn_ / sizeof *edn_; i++)
        assert_int_equal(detect_format((const unsigned char *)edn_[i], strlen(edn_[i])), FORMAT_ELLE);
    assert_int_equal(format_named("json"), FORMAT_JSON);
    assert_int_equal(format_named("synthetic"), -1);
}

/* Regression (issue 14, JSON side): a repeated key is bad input. */
static void repeated_keys_and_nul_are_errors(void **state) {
    (void)state;
    assert_load_error(FORMAT_AUTO,
        "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"value\":[[\"r\",\"x\",null],[\"w\",\"x\",10]]}\n"
        "{\"type\":\"ok\",\"f\":\"txn\",\"process\":2,\"value\":[[\"r\",\"x\",null],[\"w\",\"x\",20]],\"type\":\"fail\"}\n",
        2, "key \"type\" appears twice in one object");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"value\":[],\"x\":{\"a\":1,\"\\u0061\":2}}\n", 1,
                      "key \"a\" appears twice in one object");
    static const char nul[] = "{\"type\":\"ok\",\"f\":\"txn\",\"process\":1,\"value\":[[\"w\",\"x\",1]]}\n\0\n";
    ic_error err;
    ic_error_clear(&err);
    history *h = load_history_mem(nul, sizeof nul - 1, FORMAT_AUTO, "t", &err);
    assert_null(h);
    assert_string_equal(err.msg, "expected text, found a NUL byte");
    assert_int_equal(err.line, 2);
}

static void every_error(void **state) {
    (void)state;
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",}\n", 1, "expected '\"' starting a key (JSON keys are strings), found '}'");
    assert_load_error(FORMAT_JSON, "{\"type\" \"ok\"}\n", 1, "expected ':' after the key, found '\"ok\"}'");
    assert_load_error(FORMAT_JSON, "{type:\"ok\"}\n", 1, "expected '\"' starting a key (JSON keys are strings), found 'type:\"ok\"}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\" \"f\":1}\n", 1, "expected ',' or '}', found '\"f\":1}'");
    assert_load_error(FORMAT_JSON, "[{\"type\":\"ok\",\"value\":[1,]}]\n", 1, "expected a JSON value, found ']}]'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"value\":nil}\n", 1, "expected a JSON value, found 'nil}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":01}\n", 1, "expected a JSON number, found '01}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":1.}\n", 1, "expected digits after '.', found '}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":1e}\n", 1, "expected digits in the exponent, found '}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":\"ab\n\"}\n", 1,
                      "expected '\"' closing the string (JSON strings do not span lines), found end of line");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":\"a\\x\"}\n", 1,
                      "expected an escape \\n, \\t, \\r, \\b, \\f, \\/, \\\", \\\\ or \\uXXXX, found '\\x\"}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":\"\\u00\"}\n", 1, "expected 4 hex digits (not 0000) after \\u, found 'u00\"}'");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"v\":\"\\ud800x\"}\n", 1,
                      "expected the low half of a UTF-16 surrogate pair (\\uDC00-\\uDFFF), found '0x\"}'");
    assert_load_error(FORMAT_JSON, "// c\n{\"type\":\"ok\"}\n", 1, "expected a JSON value, found '// c'");
    assert_load_error(FORMAT_JSON, "[{\"type\":\"ok\",\"f\":\"txn\",\"process\":0,\"value\":[[\"w\",1,1]]}\n", 1,
                      "expected ']' closing the array holding the history, found end of file");
    assert_load_error(FORMAT_JSON, "[{\"type\":\"ok\",\"f\":\"txn\",\"process\":0,\"value\":[[\"w\",1,1]]}] []\n", 1,
                      "expected end of file after the array holding the history, found '[]'");
    assert_load_error(FORMAT_JSON, "[1]\n", 1, "expected an operation object ({\"type\": ..., \"value\": ...}), found 1");
    assert_load_error(FORMAT_JSON, "{\"type\":\"weird\"}\n", 1, "expected \"invoke\", \"ok\", \"fail\" or \"info\" as \"type\", found \"weird\"");
    assert_load_error(FORMAT_JSON, "{\"f\":\"txn\"}\n", 1, "expected an operation with \"type\", found none");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"f\":\"add\",\"process\":0,\"value\":1}\n", 1,
        "expected a transaction (a \"value\" of micro-ops like [[:r k v] [:w k v] [:append k v]]), found an operation "
        "with \"f\" \"add\" and \"value\" 1: isocheck checks transactional histories (Elle's rw-register and list-append), "
        "not Knossos/Jepsen single-object ones (register, cas, set, bank, counter)");
    assert_load_error(FORMAT_JSON, "{\"type\":\"ok\",\"f\":\"txn\",\"process\":0,\"value\":[[\"w\",\"x\",[1]]]}\n", 1,
                      "expected a written value (integer, string or keyword), found [1]");
    char deep[700];
    size_t at = (size_t)snprintf(deep, sizeof deep, "{\"type\":\"ok\",\"x\":");
    for (int i = 0; i < 300; i++) deep[at++] = '[';
    deep[at++] = '\n'; deep[at] = 0;
    assert_load_error(FORMAT_JSON, deep, 1, "expected less nesting (at most 256 levels), found '[[[[[[[[[[[[[[[[[[[[[[[...'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(array_and_lines_read_like_edn),
        cmocka_unit_test(detection),
        cmocka_unit_test(nemesis_twins_load_alike),
        cmocka_unit_test(escapes_decode_alike),
        cmocka_unit_test(repeated_keys_and_nul_are_errors),
        cmocka_unit_test(every_error),
    };
    return cmocka_run_group_tests_name("parse_json", tests, NULL, NULL);
}
