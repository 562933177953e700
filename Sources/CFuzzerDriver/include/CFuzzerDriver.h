#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the sanitizer runtime that `-sanitize=fuzzer` links): parses libFuzzer's options from
/// argv and runs `callback` on each input. Declared here so that koten-ocr-fuzz calls it by a static reference the
/// linker keeps (a `dlsym` lookup finds nothing: the runtime's symbols are not exported and `--gc-sections`
/// drops an unreferenced driver). Only referenced in a `-DFUZZING` build; a plain build never links it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
