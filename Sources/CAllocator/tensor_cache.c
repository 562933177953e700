// The detector's tensor allocator: reuse of freed page-sized blocks within a bound (docs/performance.md,
// "The detector's buffers"; docs/memory-design.md, "Kept blocks never raise the peak"). Written for this project; the struct's first members follow ONNX Runtime's
// OrtAllocator (version 18 layout: version, Alloc, Free, Info, Reserve), so ORT can call it as its allocator.
#include "CAllocator.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define KOTEN_HEADER 64u          /* bytes before every block handed out: keeps ORT's 64-byte alignment */
#define KOTEN_PAGE 4096u
#define KOTEN_SMALL (128u << 10)  /* below this a block comes from malloc, never cached (glibc's own mmap threshold here) */

typedef struct koten_block {
    size_t bytes;                 /* the whole mapping (header included); 0 for a malloc'd block */
    size_t asked;                 /* while handed out: the pages its request needed (≤ bytes) */
    struct koten_block *newer, *older;
} koten_block;

struct koten_tensor_cache {
    /* OrtAllocator's layout (ORT reads these through its own struct type). */
    uint32_t version;
    void *(*alloc)(struct koten_tensor_cache *, size_t);
    void (*free_fn)(struct koten_tensor_cache *, void *);
    const void *(*info)(const struct koten_tensor_cache *);
    void *(*reserve)(struct koten_tensor_cache *, size_t);
    /* Ours. */
    const void *memory_info;
    pthread_mutex_t lock;
    size_t limit, cached;
    /* The mappings handed out now; the pages their requests needed; the most those needed at once since the count
     * began (the last time the bound was 0). Kept blocks are held only while live + cached ≤ high: the blocks
     * handed out and kept together never take more than the requests alone needed at their most, so keeping
     * never raises a run's peak above what it is with every block unmapped on free. */
    size_t live, asked, high;
    koten_block *newest, *oldest;  /* freed mappings kept for reuse, newest first */
    unsigned long long maps, reuses;
};

static void unlink_block(koten_tensor_cache *c, koten_block *b) {
    if (b->newer) b->newer->older = b->older; else c->newest = b->older;
    if (b->older) b->older->newer = b->newer; else c->oldest = b->newer;
    b->newer = b->older = NULL;
    c->cached -= b->bytes;
}

/* Takes kept blocks, oldest first, off the list while more is kept than the bound or than the requests' high-water
 * mark leaves room for; returns them linked through `older`, to be unmapped outside the lock. */
static koten_block *evict(koten_tensor_cache *c) {
    koten_block *evicted = NULL;
    while (c->oldest && (c->cached > c->limit || c->live + c->cached > c->high)) {
        koten_block *old = c->oldest;
        unlink_block(c, old);
        old->older = evicted;
        evicted = old;
    }
    return evicted;
}

static void unmap_list(koten_block *list) {
    while (list) {
        koten_block *next = list->older;
        munmap(list, list->bytes);
        list = next;
    }
}

static void *cache_alloc(koten_tensor_cache *c, size_t size) {
    if (size < KOTEN_SMALL) {
        void *p = NULL;
        if (posix_memalign(&p, KOTEN_HEADER, size + KOTEN_HEADER) != 0) return NULL;
        ((koten_block *)p)->bytes = 0;
        return (char *)p + KOTEN_HEADER;
    }
    if (size > ((size_t)1 << 40)) return NULL;
    size_t bytes = (size + KOTEN_HEADER + KOTEN_PAGE - 1) / KOTEN_PAGE * KOTEN_PAGE;
    pthread_mutex_lock(&c->lock);
    c->asked += bytes;
    if (c->asked > c->high) c->high = c->asked;
    /* The smallest kept block that holds the request and is at most a quarter larger (its pages are resident). */
    koten_block *fit = NULL;
    for (koten_block *b = c->newest; b; b = b->older) {
        if (b->bytes >= bytes && b->bytes - bytes <= bytes / 4 && (!fit || b->bytes < fit->bytes)) fit = b;
    }
    if (fit) {
        unlink_block(c, fit);
        c->reuses++;
        c->live += fit->bytes;
        fit->asked = bytes;
        koten_block *evicted = evict(c);  /* a larger block than asked may leave less room for the others */
        pthread_mutex_unlock(&c->lock);
        unmap_list(evicted);
        return (char *)fit + KOTEN_HEADER;
    }
    c->maps++;
    c->live += bytes;
    koten_block *evicted = evict(c);  /* before the new mapping, so the two never exist at once */
    pthread_mutex_unlock(&c->lock);
    unmap_list(evicted);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        pthread_mutex_lock(&c->lock);
        c->live -= bytes;
        c->asked -= bytes;
        pthread_mutex_unlock(&c->lock);
        return NULL;
    }
    koten_block *b = p;
    b->bytes = bytes;
    b->asked = bytes;
    b->newer = b->older = NULL;
    return (char *)p + KOTEN_HEADER;
}

static void cache_free(koten_tensor_cache *c, void *p) {
    if (!p) return;
    koten_block *b = (koten_block *)((char *)p - KOTEN_HEADER);
    if (b->bytes == 0) { free(b); return; }
    koten_block *evicted = NULL;
    pthread_mutex_lock(&c->lock);
    c->live -= b->bytes;
    c->asked -= b->asked;
    if (b->bytes <= c->limit) {
        /* Newest first; the oldest go back to the system while the cache is past its bound or its room. */
        b->older = c->newest;
        b->newer = NULL;
        if (c->newest) c->newest->newer = b; else c->oldest = b;
        c->newest = b;
        c->cached += b->bytes;
        evicted = evict(c);
    } else {
        b->older = NULL;
        evicted = b;
    }
    pthread_mutex_unlock(&c->lock);
    unmap_list(evicted);
}

static const void *cache_info(const koten_tensor_cache *c) { return c->memory_info; }

koten_tensor_cache *koten_tensor_cache_create(const void *memory_info, size_t limit) {
    koten_tensor_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->version = 18;
    c->alloc = cache_alloc;
    c->free_fn = cache_free;
    c->info = cache_info;
    c->reserve = cache_alloc;
    c->memory_info = memory_info;
    c->limit = limit;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void *koten_tensor_cache_allocator(koten_tensor_cache *c) { return c; }

/* Returns every kept block to the system. */
static void drain(koten_tensor_cache *c) {
    pthread_mutex_lock(&c->lock);
    koten_block *list = c->newest;
    c->newest = c->oldest = NULL;
    c->cached = 0;
    pthread_mutex_unlock(&c->lock);
    unmap_list(list);
}

void koten_tensor_cache_set_limit(koten_tensor_cache *c, size_t limit) {
    pthread_mutex_lock(&c->lock);
    c->limit = limit;
    if (limit == 0) c->high = c->asked;  /* the next run's high-water mark counts from what is handed out now */
    pthread_mutex_unlock(&c->lock);
    if (limit == 0) drain(c);
}

void *koten_tensor_cache_alloc(koten_tensor_cache *c, size_t size) { return cache_alloc(c, size); }

void koten_tensor_cache_free(koten_tensor_cache *c, void *block) { cache_free(c, block); }

void koten_tensor_cache_counts(koten_tensor_cache *c, size_t *live, size_t *kept, size_t *high) {
    pthread_mutex_lock(&c->lock);
    *live = c->live;
    *kept = c->cached;
    *high = c->high;
    pthread_mutex_unlock(&c->lock);
}

void koten_tensor_cache_destroy(koten_tensor_cache *c) {
    if (!c) return;
    drain(c);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void koten_tensor_cache_stats(koten_tensor_cache *c, unsigned long long *maps, unsigned long long *reuses) {
    pthread_mutex_lock(&c->lock);
    *maps = c->maps;
    *reuses = c->reuses;
    pthread_mutex_unlock(&c->lock);
}
