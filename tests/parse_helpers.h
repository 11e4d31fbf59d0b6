/* parse_helpers.h — shared by the parser tests: load from memory and
 * assert on the error message. */
#ifndef TESTS_PARSE_HELPERS_H
#define TESTS_PARSE_HELPERS_H

#include <string.h>

#include "frontend/formats/parse.h"

static inline history *load_str(history_format fmt, const char *s, ic_error *err) {
    ic_error_clear(err);
    return load_history_mem(s, strlen(s), fmt, "t", err);
}

/* A text history from memory (file name "t.txt"); the test fails, with
 * the loader's message, when it is refused.  Include after <cmocka.h>. */
static inline history *load_text(const char *s) {
    ic_error err; ic_error_clear(&err);
    history *h = load_history_mem(s, strlen(s), FORMAT_TEXT, "t.txt", &err);
    if (!h) fail_msg("t.txt refused: %s", err.msg);
    return h;
}

/* Loading must fail at `line` (0: any/none) with exactly `msg`. */
#define assert_load_error(fmt, text, line_, want_) do {                      \
        ic_error e_;                                                       \
        history *h_ = load_str((fmt), (text), &e_);                        \
        if (h_) history_free(h_);                                          \
        assert_null(h_);                                                   \
        assert_true(e_.set);                                               \
        assert_string_equal(e_.msg, (want_));                                \
        if ((line_) > 0) assert_int_equal(e_.line, (line_));               \
    } while (0)

/* Loading succeeds, with a value written twice, and history_refuse_repeated
 * (what check --follow applies) refuses it at `line` with exactly `msg`. */
#define assert_repeat_refused(fmt, text, line_, want_) do {                  \
        ic_error e_;                                                       \
        history *h_ = load_str((fmt), (text), &e_);                        \
        assert_non_null(h_);                                               \
        assert_true(h_->num_repeated >= 2);                                \
        h_ = history_refuse_repeated(h_, &e_);                             \
        assert_null(h_);                                                   \
        assert_string_equal(e_.msg, (want_));                                \
        if ((line_) > 0) assert_int_equal(e_.line, (line_));               \
    } while (0)

/* The op index of the i-th op of transaction t. */
static inline uint32_t op_of(const history *h, uint32_t t, uint32_t i) { return h->txns[t].first_op + i; }

#endif
