/* fuzz_follow.c — libFuzzer target: `check --follow` on the bytes fed in
 * pieces through a pipe against the batch check of them (see
 * fuzz_follow_body.h). */
#include "tests/fuzz/fuzz_follow_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    follow_one(data, size);
    return 0;
}
