#include "CAllocator.h"
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>

int koten_allocator_tune(size_t mmap_threshold, size_t trim_threshold, int max_arenas) {
    int ok = mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
    if (max_arenas > 0) ok &= mallopt(M_ARENA_MAX, max_arenas);
    return ok ? 1 : 0;
}

int koten_allocator_trim(void) { return malloc_trim(0); }

long long koten_allocator_in_use(void) {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd);
#else
    return -1;
#endif
}
#else
int koten_allocator_tune(size_t mmap_threshold, size_t trim_threshold, int max_arenas) {
    (void)mmap_threshold; (void)trim_threshold; (void)max_arenas;
    return 0;
}
int koten_allocator_trim(void) { return 0; }
long long koten_allocator_in_use(void) { return -1; }
#endif
