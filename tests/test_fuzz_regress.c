/* test_fuzz_regress.c — replay every input the fuzzers ever broke
 * (tests/data/fuzz-regress/<format>-<sha1>) through the fuzz body, plus a
 * few hand-picked nasty inputs.  Passing means: no crash, no leak, and a
 * failure always carries a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <string.h>

#include "tests/fuzz/fuzz_body.h"

static void replay_regressions(void **state) {
    (void)state;
    const char *dir = "tests/data/fuzz-regress";
    DIR *d = opendir(dir);
    if (!d) { fprintf(stderr, "%s absent (run from the repository root)\n", dir); fail(); }
    static const struct { const char *prefix; history_format fmt; } kinds[] = {
        { "text-", FORMAT_TEXT }, { "dbcop-", FORMAT_DBCOP }, { "cobra-", FORMAT_COBRA }, { "elle-", FORMAT_ELLE },
        { "json-", FORMAT_JSON },
    };
    struct dirent *e;
    int replayed = 0;
    while ((e = readdir(d))) {
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            if (strncmp(e->d_name, kinds[k].prefix, strlen(kinds[k].prefix))) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            static uint8_t buf[1 << 16];
            size_t n = fread(buf, 1, sizeof buf, f);
            fclose(f);
            fuzz_one(buf, n, kinds[k].fmt);
            replayed++;
        }
    }
    closedir(d);
    fprintf(stderr, "replayed %d regression inputs\n", replayed);
}

static void nasty_inputs(void **state) {
    (void)state;
    static const char *text[] = { "", "\n\n", "r(", "w(1,1,1,1", "r(1,0,1,1)", "w(1,1,1,1)\nr(1,1,1,1)\n",
                                  "w(9223372036854775807,-9223372036854775807,0,0)" };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) {
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_TEXT);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_ELLE);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_DBCOP);
        fuzz_one((const uint8_t *)text[i], strlen(text[i]), FORMAT_COBRA);
    }
    static const char *elle[] = { "{", "{:type", "{:type :ok :f :txn :process 0 :value [[:r 1 [", "#{", "#", "\\",
                                  "{:type :ok, :f :txn, :process 0, :value [[:r 1 [1]] [:r 1 nil]]}" };
    for (size_t i = 0; i < sizeof elle / sizeof *elle; i++) fuzz_one((const uint8_t *)elle[i], strlen(elle[i]), FORMAT_ELLE);
    static const char *json[] = { "[", "{\"", "[{\"type\":\"ok\",\"value\":[[\"r\",1,[", "\"\\ud800", "-", "1e",
                                  "[{\"type\":\"ok\",\"process\":\"p\",\"value\":[[\"w\",\"k\",\"v\"],[\"r\",\"k\",null]]}]" };
    for (size_t i = 0; i < sizeof json / sizeof *json; i++) fuzz_one((const uint8_t *)json[i], strlen(json[i]), FORMAT_JSON);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_regressions),
        cmocka_unit_test(nasty_inputs),
    };
    return cmocka_run_group_tests_name("fuzz_regress", tests, NULL, NULL);
}
