#ifndef JUNCTION_BENCH_MALLOC_STATS_H
#define JUNCTION_BENCH_MALLOC_STATS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not had back, every arena and every mmap'd
/// block counted (glibc's mallinfo2: uordblks + hblkhd); 0 where the allocator cannot say.
size_t jb_allocated_bytes(void);

#endif
