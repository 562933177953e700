#include "CVipsShim.h"
#include <vips/vips.h>
#include <pthread.h>
#include <string.h>

/* libvips reports per-tile warnings through GLib logging; failures reach us through the error buffer, so
 * the warnings would only add unreadable lines to stderr. They are kept instead (as many as fit): some
 * decoders give their real cause only as a warning (libpng's "IDAT: CRC error" before vipspng's generic
 * "libpng read error"), and kv_take_warning() adds them to the message of the failure that follows. */
/* A POSIX mutex, not GLib's GMutex: GLib's is built on futexes in an uninstrumented library, so ThreadSanitizer
 * cannot see it order the buffer's readers and writers and reports each concurrent take as a data race. */
static pthread_mutex_t kv_warning_lock = PTHREAD_MUTEX_INITIALIZER;
static char kv_warning[512];

static void kv_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)data;
    /* Only warnings; libvips' "error in tile x y" only says where, never why. */
    if (!(level & G_LOG_LEVEL_WARNING) || !message || !*message || strncmp(message, "error in tile", 13) == 0) return;
    pthread_mutex_lock(&kv_warning_lock);
    size_t used = strlen(kv_warning), length = strlen(message);
    if (used + length + 2 <= sizeof kv_warning) {  /* the first warnings are kept: they name the cause */
        if (used) kv_warning[used++] = '\n';
        memcpy(kv_warning + used, message, length + 1);
    }
    pthread_mutex_unlock(&kv_warning_lock);
}

size_t kv_take_warning(char *buf, size_t size) {
    pthread_mutex_lock(&kv_warning_lock);
    size_t n = strlen(kv_warning);
    if (size > 0) {
        if (n >= size) n = size - 1;
        memcpy(buf, kv_warning, n);
        buf[n] = 0;
    }
    kv_warning[0] = 0;
    pthread_mutex_unlock(&kv_warning_lock);
    return n;
}

int kv_init(const char *argv0, int concurrency) {
    if (VIPS_INIT(argv0 ? argv0 : "koten-ocr")) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                      kv_quiet_log, NULL);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_concurrency_set(concurrency < 1 ? 1 : concurrency);
    return 0;
}


size_t kv_last_error(char *buf, size_t size) {
    const char *msg = vips_error_buffer();
    size_t n = msg ? strlen(msg) : 0;
    if (size == 0) { vips_error_clear(); return n; }
    if (n >= size) n = size - 1;
    if (n) memcpy(buf, msg, n);
    buf[n] = 0;
    vips_error_clear();
    return n;
}

const char *kv_loader(kv_input input) {
    return input.path ? vips_foreign_find_load(input.path) : vips_foreign_find_load_buffer(input.data, input.size);
}

/* vips_foreign_find_load() names the loader class, e.g. "VipsForeignLoadJpegFile": match its format part. */
static int loader_is(const char *loader, const char *format) {
    static const char class_prefix[] = "VipsForeignLoad";
    if (!loader) return 0;
    if (strncmp(loader, class_prefix, sizeof class_prefix - 1) == 0) loader += sizeof class_prefix - 1;
    return g_ascii_strncasecmp(loader, format, strlen(format)) == 0;
}

/* Loaders whose pages are pages of a document. GIF and WebP are not among them: their frames are an
 * animation, and the first frame (libvips' default) is the page. */
int kv_loader_is_paged(const char *loader) {
    return loader_is(loader, "tiff") || loader_is(loader, "pdf") || loader_is(loader, "heif");
}

static int64_t le32(const unsigned char *p) {
    return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24));
}

int kv_bmp_size(kv_input input, int64_t *width, int64_t *height) {
    unsigned char h[26];
    size_t n = 0;
    if (input.path) {
        FILE *f = fopen(input.path, "rb");
        if (!f) return -1;
        n = fread(h, 1, sizeof h, f);
        fclose(f);
    } else if (input.data) {
        n = input.size < sizeof h ? input.size : sizeof h;
        memcpy(h, input.data, n);
    }
    if (n < 26 || h[0] != 'B' || h[1] != 'M') return -1;
    int64_t header_size = le32(h + 14);
    if (header_size == 12) {            /* BITMAPCOREHEADER: 16-bit sizes */
        *width = h[18] | (h[19] << 8);
        *height = h[20] | (h[21] << 8);
    } else {                            /* BITMAPINFOHEADER and later: 32-bit, height < 0 = top-down */
        *width = le32(h + 18);
        *height = le32(h + 22);
    }
    if (*width < 0) *width = -*width;
    if (*height < 0) *height = -*height;
    return 0;
}

int kv_open(kv_input input, int page, int shrink, double dpi, int random_access, int strict, VipsImage **out) {
    const char *loader = kv_loader(input);
    if (!loader) return -1;
    VipsAccess access = random_access ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL;
    VipsFailOn fail_on = strict ? VIPS_FAIL_ON_WARNING : VIPS_FAIL_ON_TRUNCATED;
    if (shrink < 1) shrink = 1;
    if (dpi <= 0) dpi = 72;
    /* The same options from a file or from memory. */
#define KV_NEW(...) (input.path ? vips_image_new_from_file(input.path, __VA_ARGS__) \
                                : vips_image_new_from_buffer(input.data, input.size, "", __VA_ARGS__))
    /* Each loader accepts only its own options: PDF takes page and dpi, paged formats page, JPEG shrink. */
    if (loader_is(loader, "pdf"))
        *out = KV_NEW("access", access, "fail_on", fail_on, "page", page, "dpi", dpi, NULL);
    else if (kv_loader_is_paged(loader))
        *out = KV_NEW("access", access, "fail_on", fail_on, "page", page, NULL);
    else if (loader_is(loader, "jpeg"))
        *out = KV_NEW("access", access, "fail_on", fail_on, "shrink", shrink, NULL);
    else
        *out = KV_NEW("access", access, "fail_on", fail_on, NULL);
#undef KV_NEW
    return *out ? 0 : -1;
}

int kv_open_pdf_pages(kv_input input, VipsImage **out) {
    const char *loader = kv_loader(input);
    if (!loader) return -1;
    if (!loader_is(loader, "pdf")) { vips_error("kv_open_pdf_pages", "not a PDF"); return -1; }
    /* n = -1: pdfload looks up every page (poppler_document_get_page) for its size, walking the whole page tree. */
    *out = input.path ? vips_image_new_from_file(input.path, "n", -1, "dpi", 72.0, NULL)
                      : vips_image_new_from_buffer(input.data, input.size, "", "n", -1, "dpi", 72.0, NULL);
    return *out ? 0 : -1;
}

int kv_open_pixels(const void *data, size_t size, int width, int height, int bands, VipsImage **out) {
    if (!data || width < 1 || height < 1 || (bands != 1 && bands != 3 && bands != 4) ||
        size < (size_t)width * (size_t)height * (size_t)bands) {
        vips_error("kv_open_pixels", "pixel buffer does not match its size");
        return -1;
    }
    VipsImage *raw = vips_image_new_from_memory(data, size, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!raw) return -1;
    int rc = vips_copy(raw, out, "interpretation", bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(raw);
    return rc;
}

int kv_width(VipsImage *image) { return vips_image_get_width(image); }
int kv_height(VipsImage *image) { return vips_image_get_height(image); }
int kv_bands(VipsImage *image) { return vips_image_get_bands(image); }

int kv_orientation(VipsImage *image) {
    int o = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) && !vips_image_get_int(image, VIPS_META_ORIENTATION, &o))
        return (o >= 1 && o <= 8) ? o : 1;
    return 1;
}

int kv_n_pages(VipsImage *image) {
    int n = 1;
    if (vips_image_get_typeof(image, VIPS_META_N_PAGES) && !vips_image_get_int(image, VIPS_META_N_PAGES, &n))
        return n >= 1 ? n : 1;
    return 1;
}

int kv_needs_row_reversal(int orientation) { return orientation == 3 || orientation == 4; }

/* The EXIF orientation as far as a top-to-bottom decode allows: a vertical flip (orientations 3 and 4) would
 * ask for the last row first, which a sequential loader refuses ("out of order read"), so 3 becomes a
 * horizontal flip only and 4 nothing; the caller reverses the rows afterwards (kv_needs_row_reversal). */
static int upright_but_rows(VipsImage *in, VipsImage **out) {
    int o = kv_orientation(in);
    VipsImage *t = NULL;
    if (o == 3) {
        if (vips_flip(in, &t, VIPS_DIRECTION_HORIZONTAL, NULL)) return -1;
    } else if (o == 4) {
        if (vips_copy(in, &t, NULL)) return -1;
    } else {
        return vips_autorot(in, out, NULL);
    }
    /* The copy must not carry the tag on: it is applied (as far as it goes here). */
    if (vips_copy(t, out, NULL)) { g_object_unref(t); return -1; }
    g_object_unref(t);
    vips_image_remove(*out, VIPS_META_ORIENTATION);
    return 0;
}

/* CMYK to sRGB and any sample format to 8 bits (16-bit shifted down, others clipped), alpha kept. */
static int to_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *cur = in, *t = NULL;
    g_object_ref(cur);
    if (vips_image_get_interpretation(cur) == VIPS_INTERPRETATION_CMYK && vips_image_get_bands(cur) >= 4) {
        if (vips_colourspace(cur, &t, VIPS_INTERPRETATION_sRGB, NULL)) { g_object_unref(cur); return -1; }
        g_object_unref(cur); cur = t;
    }
    if (vips_image_get_format(cur) != VIPS_FORMAT_UCHAR) {
        int shift = vips_image_get_format(cur) == VIPS_FORMAT_USHORT;
        if (vips_cast(cur, &t, VIPS_FORMAT_UCHAR, "shift", shift, NULL)) { g_object_unref(cur); return -1; }
        g_object_unref(cur); cur = t;
    }
    *out = cur;
    return 0;
}

int kv_alpha_ink(VipsImage *in, double *ink, double *alpha_min, double *alpha_max) {
    if (!vips_image_hasalpha(in)) return 1;
    /* 8-bit sRGB, its colour bands, alpha, the colour's band mean, mean × alpha, [mean × alpha, alpha], stats */
    VipsImage *t[7] = {0};
    int rc = -1;
    if (to_srgb8(in, &t[0])) return -1;
    int bands = vips_image_get_bands(t[0]);
    if (vips_extract_band(t[0], &t[1], 0, "n", bands - 1, NULL)) goto done;
    if (vips_extract_band(t[0], &t[2], bands - 1, NULL)) goto done;
    if (vips_bandmean(t[1], &t[3], NULL)) goto done;
    if (vips_multiply(t[3], t[2], &t[4], NULL)) goto done;
    VipsImage *both[2] = {t[4], t[2]};
    if (vips_bandjoin(both, &t[5], 2, NULL)) goto done;
    /* One pass over the pixels; row 1 of the matrix is band 0, row 2 band 1; columns min, max, sum, ... */
    if (vips_stats(t[5], &t[6], NULL)) goto done;
    double weighted_sum = *VIPS_MATRIX(t[6], 2, 1), alpha_sum = *VIPS_MATRIX(t[6], 2, 2);
    *alpha_min = *VIPS_MATRIX(t[6], 0, 2);
    *alpha_max = *VIPS_MATRIX(t[6], 1, 2);
    *ink = alpha_sum > 0 ? weighted_sum / alpha_sum : 0;
    rc = 0;
done:
    for (int i = 0; i < 7; i++) if (t[i]) g_object_unref(t[i]);
    return rc;
}

int kv_to_rgb8(VipsImage *in, int autorotate, int background, VipsImage **out) {
    VipsImage *t[4] = {0};
    VipsImage *cur = in;
    int rc = -1;
    g_object_ref(cur);
    if (autorotate) {
        if (upright_but_rows(cur, &t[0])) goto done;
        g_object_unref(cur); cur = t[0]; t[0] = NULL;
    }
    if (to_srgb8(cur, &t[1])) goto done;
    g_object_unref(cur); cur = t[1]; t[1] = NULL;
    int bands = vips_image_get_bands(cur);
    if (background >= 0 && vips_image_hasalpha(cur)) {
        VipsArrayDouble *bg = vips_array_double_newv(1, (double)background);
        int r = vips_flatten(cur, &t[2], "background", bg, "max_alpha", 255.0, NULL);
        vips_area_unref(VIPS_AREA(bg));
        if (r) goto done;
        g_object_unref(cur); cur = t[2]; t[2] = NULL;
        bands = vips_image_get_bands(cur);
    }
    if (bands == 1 || bands == 2) {
        VipsImage *grey = NULL;
        if (vips_extract_band(cur, &grey, 0, NULL)) goto done;
        VipsImage *planes[3] = {grey, grey, grey};
        int r = vips_bandjoin(planes, &t[3], 3, NULL);
        g_object_unref(grey);
        if (r) goto done;
        g_object_unref(cur); cur = t[3]; t[3] = NULL;
    } else if (bands > 3) {
        if (vips_extract_band(cur, &t[3], 0, "n", 3, NULL)) goto done;
        g_object_unref(cur); cur = t[3]; t[3] = NULL;
    }
    *out = cur; cur = NULL; rc = 0;
done:
    if (cur) g_object_unref(cur);
    for (int i = 0; i < 4; i++) if (t[i]) g_object_unref(t[i]);
    return rc;
}

int kv_resize(VipsImage *in, double hscale, double vscale, int kernel, VipsImage **out) {
    VipsKernel k = kernel == 0 ? VIPS_KERNEL_NEAREST : kernel == 1 ? VIPS_KERNEL_LINEAR
                 : kernel == 2 ? VIPS_KERNEL_CUBIC : VIPS_KERNEL_LANCZOS3;
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", k, NULL);
}

int kv_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

int kv_read_pixels(VipsImage *in, uint8_t *dst, size_t dst_size) {
    int w = vips_image_get_width(in), h = vips_image_get_height(in), b = vips_image_get_bands(in);
    size_t row = (size_t)w * (size_t)b;
    if (vips_image_get_format(in) != VIPS_FORMAT_UCHAR) { vips_error("kv_read_pixels", "not 8-bit"); return -1; }
    if (dst_size < row * (size_t)h) { vips_error("kv_read_pixels", "buffer too small"); return -1; }
    VipsRegion *region = vips_region_new(in);
    if (!region) return -1;
    const int strip = 64;
    for (int y = 0; y < h; y += strip) {
        VipsRect r = {0, y, w, (h - y < strip) ? h - y : strip};
        if (vips_region_prepare(region, &r)) { g_object_unref(region); return -1; }
        for (int yy = 0; yy < r.height; yy++)
            memcpy(dst + (size_t)(y + yy) * row, VIPS_REGION_ADDR(region, 0, y + yy), row);
    }
    g_object_unref(region);
    return 0;
}

void kv_unref(VipsImage *image) { if (image) g_object_unref(image); }

/* SHA-256 (GLib GChecksum). GChecksum takes a gssize length, so large buffers are fed in slices. */
static void copy_digest(const gchar *hex, char out[65]) {
    size_t n = hex ? strlen(hex) : 0;
    if (n > 64) n = 64;
    if (n) memcpy(out, hex, n);
    out[n] = 0;
}

kv_sha256 *kv_sha256_new(void) { return (kv_sha256 *)g_checksum_new(G_CHECKSUM_SHA256); }

void kv_sha256_update(kv_sha256 *state, const void *data, size_t size) {
    const guchar *p = data;
    const size_t slice = (size_t)1 << 30;
    while (state && p && size > 0) {
        size_t n = size < slice ? size : slice;
        g_checksum_update((GChecksum *)state, p, (gssize)n);
        p += n;
        size -= n;
    }
}

void kv_sha256_finish(kv_sha256 *state, char out[65]) {
    copy_digest(state ? g_checksum_get_string((GChecksum *)state) : NULL, out);
}

void kv_sha256_free(kv_sha256 *state) { if (state) g_checksum_free((GChecksum *)state); }

void kv_sha256_hex(const void *data, size_t size, char out[65]) {
    kv_sha256 *state = kv_sha256_new();
    kv_sha256_update(state, data, size);
    kv_sha256_finish(state, out);
    kv_sha256_free(state);
}

/* Strip-by-strip reading for region crops: a VipsRegion over the (sequential) image, asked for successive rows. */
struct kv_rows { VipsRegion *region; int width, height, bands; };

kv_rows *kv_rows_new(VipsImage *in) {
    if (vips_image_get_format(in) != VIPS_FORMAT_UCHAR) { vips_error("kv_rows_new", "not 8-bit"); return NULL; }
    VipsRegion *region = vips_region_new(in);
    if (!region) return NULL;
    kv_rows *rows = g_new0(kv_rows, 1);
    rows->region = region;
    rows->width = vips_image_get_width(in);
    rows->height = vips_image_get_height(in);
    rows->bands = vips_image_get_bands(in);
    return rows;
}

int kv_rows_read(kv_rows *rows, int top, int height, uint8_t *dst, size_t dst_size) {
    size_t row = (size_t)rows->width * (size_t)rows->bands;
    if (top < 0 || height < 1 || top + height > rows->height) { vips_error("kv_rows_read", "rows outside the image"); return -1; }
    if (dst_size < row * (size_t)height) { vips_error("kv_rows_read", "buffer too small"); return -1; }
    VipsRect r = {0, top, rows->width, height};
    if (vips_region_prepare(rows->region, &r)) return -1;
    for (int y = 0; y < height; y++) memcpy(dst + (size_t)y * row, VIPS_REGION_ADDR(rows->region, 0, top + y), row);
    return 0;
}

void kv_rows_free(kv_rows *rows) {
    if (!rows) return;
    g_object_unref(rows->region);
    g_free(rows);
}
