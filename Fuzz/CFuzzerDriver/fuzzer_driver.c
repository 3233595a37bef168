// The declaration in include/fuzzer_driver.h is all this target provides; libFuzzer itself
// is linked by -sanitize=fuzzer when scripts/fuzz builds the runner.
#include "fuzzer_driver.h"
