/* fuzz_gnf.c — libFuzzer target for the gnf reader (see fuzz_gnf_body.h). */
#include "tests/fuzz/fuzz_gnf_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_gnf_one(data, size);
    return 0;
}
