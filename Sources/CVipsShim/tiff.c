#include "CVipsShim.h"
#include <tiffio.h>
#include <vips/vips.h>
#include <string.h>

/* The pages of a TIFF are the directories of its main chain that are not reduced-resolution images (TIFF 6.0,
 * NewSubfileType bit 0: the levels of a pyramid) nor transparency masks (bit 2). SubIFDs (a pyramid's levels
 * stored beside their page, libvips' tiffsave "subifd") are never in the main chain, so never pages either.
 * libvips' "n-pages" and "page" count every directory of the chain; libtiff reads each directory's tags,
 * no pixel. Errors and warnings go to no handler (the caller reports libvips' own message when a page fails). */

typedef struct {
    const unsigned char *data;
    tmsize_t size;
    toff_t offset;
} memory_input;

static tmsize_t memory_read(thandle_t handle, void *buffer, tmsize_t size) {
    memory_input *in = (memory_input *)handle;
    if (in->offset >= (toff_t)in->size) return 0;
    tmsize_t left = in->size - (tmsize_t)in->offset;
    tmsize_t n = size < left ? size : left;
    memcpy(buffer, in->data + in->offset, (size_t)n);
    in->offset += (toff_t)n;
    return n;
}

static tmsize_t memory_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle; (void)buffer; (void)size;
    return -1;
}

static toff_t memory_seek(thandle_t handle, toff_t offset, int whence) {
    memory_input *in = (memory_input *)handle;
    toff_t base = whence == SEEK_CUR ? in->offset : whence == SEEK_END ? (toff_t)in->size : 0;
    in->offset = base + offset;
    return in->offset;
}

static int memory_close(thandle_t handle) { (void)handle; return 0; }
static toff_t memory_size(thandle_t handle) { return (toff_t)((memory_input *)handle)->size; }
static int memory_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void memory_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int quiet(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;
}

/* Opens the input with libtiff, messages silenced; NULL if it cannot. */
static TIFF *open_tiff(kv_input input, memory_input *memory) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(options, quiet, NULL);
    TIFFOpenOptionsSetWarningHandlerExtR(options, quiet, NULL);
    TIFF *tif;
    if (input.path) {
        tif = TIFFOpenExt(input.path, "rm", options);
    } else {
        memory->data = input.data;
        memory->size = (tmsize_t)input.size;
        memory->offset = 0;
        tif = TIFFClientOpenExt("memory", "rm", (thandle_t)memory, memory_read, memory_write, memory_seek, memory_close,
                                memory_size, memory_map, memory_unmap, options);
    }
    TIFFOpenOptionsFree(options);
    return tif;
}

static int is_page(TIFF *tif) {
    uint32_t type = 0;
    if (!TIFFGetField(tif, TIFFTAG_SUBFILETYPE, &type)) return 1;
    return (type & (FILETYPE_REDUCEDIMAGE | FILETYPE_MASK)) == 0;
}

/* At most this many directories are walked: libtiff stops a chain that loops, this bounds a long one. */
enum { max_directories = 1 << 16 };

int kv_tiff_pages(kv_input input, int page, int *directory) {
    memory_input memory;
    TIFF *tif = open_tiff(input, &memory);
    if (!tif) return -1;
    int pages = 0, index = 0;
    if (directory) *directory = -1;
    do {
        if (is_page(tif)) {
            if (pages == page && directory) *directory = index;
            pages++;
        }
        index++;
    } while (index < max_directories && TIFFReadDirectory(tif));
    TIFFClose(tif);
    return pages;
}
