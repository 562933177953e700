#ifndef KOTEN_CALLOCATOR_H
#define KOTEN_CALLOCATOR_H
#include <stddef.h>
/// glibc allocator policy for a long-running, memory-bounded process. Returns 1 where applied, 0 where the C
/// library has no such control (non-glibc platforms).
///
/// glibc raises its mmap threshold after a large block is freed (up to 32 MiB), after which freed
/// activation buffers stay in the heap and keep resident memory high. A fixed threshold keeps large buffers
/// in mmap (returned on free), a low trim threshold returns the heap top, and two arenas bound per-thread heaps.
int koten_allocator_tune(size_t mmap_threshold, size_t trim_threshold, int max_arenas);
/// Returns free heap memory to the system (glibc `malloc_trim(0)`). Returns 1 if memory was released.
int koten_allocator_trim(void);
/// Bytes currently allocated by malloc (in-use heap chunks plus mmapped blocks); -1 where unavailable.
long long koten_allocator_in_use(void);
#endif
