// Clean library pages unmapped through the dynamic loader's own list of loaded objects (MappedLibraryPages.swift).
#define _GNU_SOURCE
#include "CAllocator.h"
#include <stdlib.h>  // defines __GLIBC__ where glibc is the C library
#if defined(__GLIBC__)
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct release_state {
    uintptr_t page;
    size_t objects;
    long long bytes;
};

/// Whether the object's text is relocated in place (DT_TEXTREL, DF_TEXTREL): its read-only segments are then
/// written by the loader and hold more than the file's bytes.
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr); d->d_tag != DT_NULL; d++) {
            if (d->d_tag == DT_TEXTREL) return 1;
            if (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

/// Called by dl_iterate_phdr with the loader's lock held: no object is unmapped while its segments are released.
static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct release_state *state = data;
    int program = state->objects++ == 0;  // the first object is the program itself (no name)
    // Objects loaded from files only: not the vDSO, which the kernel maps.
    if (!program && (info->dlpi_name == NULL || info->dlpi_name[0] != '/')) return 0;
    if (has_text_relocations(info)) return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        // Segments the loader never writes: loaded, not writable (relocated data, RELRO included, lies in the
        // writable segment), their file-backed bytes only; whole pages inside them.
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || ph->p_filesz == 0) continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_filesz;
        uintptr_t first = (start + state->page - 1) & ~(state->page - 1), last = end & ~(state->page - 1);
        if (last <= first) continue;
        if (madvise((void *)first, last - first, MADV_DONTNEED) == 0) state->bytes += (long long)(last - first);
    }
    return 0;
}

long long koten_release_library_pages(void) {
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return 0;
    struct release_state state = {(uintptr_t)page, 0, 0};
    dl_iterate_phdr(release_object, &state);
    return state.bytes;
}
#else
long long koten_release_library_pages(void) { return 0; }
#endif
