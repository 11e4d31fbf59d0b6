/* fuzz_cert.c — libFuzzer target for the cert reader (see fuzz_cert_body.h). */
#include "tests/fuzz/fuzz_cert_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_cert_one(data, size);
    return 0;
}
