#include "malloc_stats.h"

#include <stdlib.h>  // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>

size_t jb_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t jb_allocated_bytes(void) { return 0; }
#endif
