#ifndef JUNCTION_FUZZER_DRIVER_H
#define JUNCTION_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt), present when the runner is linked with
/// -sanitize=fuzzer: parses libFuzzer's flags from argv and calls `callback` with each
/// input. Declared here because no system header declares it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
