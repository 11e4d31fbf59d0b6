/* fuzz_verdict.c — libFuzzer target: verdicts survive writing in every
 * format and reading back (see fuzz_verdict_body.h). */
#include "tests/fuzz/fuzz_verdict_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_verdict_one(data, size);
    return 0;
}
