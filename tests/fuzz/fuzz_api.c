/* fuzz_api.c — libFuzzer target for API misuse of gsat.h and ipasir.h
 * (see fuzz_api_body.h).  Allocation is capped (bench/fuzz.sh sets
 * ASAN_OPTIONS for it) so that huge sizes fail as out of memory, which the
 * library must return as an error. */
#include "tests/fuzz/fuzz_api_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_api_one(data, size);
    return 0;
}
