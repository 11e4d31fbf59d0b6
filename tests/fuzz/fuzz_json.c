/* fuzz_json.c — libFuzzer target for the JSON parser (see fuzz_body.h). */
#include "tests/fuzz/fuzz_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_one(data, size, FORMAT_JSON);
    return 0;
}
