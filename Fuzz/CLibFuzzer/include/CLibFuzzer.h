#ifndef STAGEMIX_CLIBFUZZER_H
#define STAGEMIX_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// One fuzz input: libFuzzer's LLVMFuzzerTestOneInput signature.
typedef int (*cfz_test_one_input)(const uint8_t *data, size_t size);

/// The fuzz targets' main. Linked with `-sanitize=fuzzer`, it hands over to libFuzzer's driver
/// (every libFuzzer flag works). In a normal build, where libFuzzer is absent, it replays each
/// file argument (or every file in a directory argument) through `test` once, so a crash
/// reproducer can be run without the sanitizer build.
int cfz_main(int argc, char **argv, cfz_test_one_input test);

#endif
