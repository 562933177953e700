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
/// Unmaps (madvise MADV_DONTNEED) the resident pages of the loaded objects' read-only segments (code and read-only
/// data of the program and its shared libraries): clean copies of their files, which come back on first touch.
/// Walks the dynamic loader's list (dl_iterate_phdr) with its lock held, so no object is unmapped meanwhile, and
/// takes only segments the loader never writes (not writable; objects with text relocations left out). Returns the
/// bytes of the ranges unmapped (resident or not); 0 where unavailable (non-glibc platforms).
long long koten_release_library_pages(void);
/// The detector's tensor allocator (tensor_cache.c): an allocator ONNX Runtime calls through `OrtAllocator`'s
/// layout (version 18), handing out page-sized blocks as their own mappings and keeping freed ones, newest first,
/// up to `limit` bytes, to hand a later request the smallest kept block that holds it and is at most a quarter
/// larger: the same pages, already resident (no unmap, no new faults). Blocks under 128 KiB come from malloc.
/// What is kept is also bounded by the requests' high-water mark since the bound was last 0: the blocks handed out
/// and kept together never exceed the most the requests needed at once, so keeping never raises the peak.
/// `memory_info` is the `OrtMemoryInfo` it reports; it must outlive the cache.
typedef struct koten_tensor_cache koten_tensor_cache;
koten_tensor_cache *koten_tensor_cache_create(const void *memory_info, size_t limit);
/// The cache as an `OrtAllocator *` (for `RegisterAllocator`).
void *koten_tensor_cache_allocator(koten_tensor_cache *cache);
/// A new bound (0: keep nothing, return what is kept, and count the requests' high-water mark afresh).
void koten_tensor_cache_set_limit(koten_tensor_cache *cache, size_t limit);
/// A block of at least `size` bytes from the cache, as ONNX Runtime's Alloc would get it (NULL if none can be
/// mapped), and its return, as its Free: for callers and tests outside ONNX Runtime.
void *koten_tensor_cache_alloc(koten_tensor_cache *cache, size_t size);
void koten_tensor_cache_free(koten_tensor_cache *cache, void *block);
/// Bytes of the mapped blocks handed out now, of the blocks kept, and the most the requests needed at once since the
/// bound was last 0 (the high-water mark that `live + kept` stays within).
void koten_tensor_cache_counts(koten_tensor_cache *cache, size_t *live, size_t *kept, size_t *high);
/// Returns what is kept and frees the cache (every block handed out must have been returned).
void koten_tensor_cache_destroy(koten_tensor_cache *cache);
/// Mappings made, and requests served from the kept blocks.
void koten_tensor_cache_stats(koten_tensor_cache *cache, unsigned long long *maps, unsigned long long *reuses);
#endif
