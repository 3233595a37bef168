// The system zlib (Debian: zlib1g-dev; every Apple SDK has it): the device compresses its
// decision-log uploads; the CLI reads gzip corpora and writes `junction logs serve`'s files.
#ifndef JUNCTION_CZLIB_SHIM_H
#define JUNCTION_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and the stream's size): one shim for it.
static inline int jz_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

// deflateInit2 is a macro too: one shim for it, with zlib's default memory level and strategy.
static inline int jz_deflateInit2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif
