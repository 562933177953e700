#include "CVipsTestShim.h"
#include <vips/vips.h>
#include <string.h>

int kv_from_pixels(const uint8_t *pixels, int width, int height, int bands, VipsImage **out) {
    *out = vips_image_new_from_memory_copy(pixels, (size_t)width * height * bands, width, height, bands,
                                           VIPS_FORMAT_UCHAR);
    if (!*out) return -1;
    if (bands >= 3) (*out)->Type = VIPS_INTERPRETATION_sRGB;
    else (*out)->Type = VIPS_INTERPRETATION_B_W;
    return 0;
}

int kv_save(VipsImage *in, const char *path, int quality, int orientation) {
    VipsImage *copy = NULL;
    if (vips_copy(in, &copy, NULL)) return -1;
    if (orientation >= 2 && orientation <= 8) vips_image_set_int(copy, VIPS_META_ORIENTATION, orientation);
    else vips_image_remove(copy, VIPS_META_ORIENTATION);
    const char *dot = strrchr(path, '.');
    int rc;
    if (dot && (!g_ascii_strcasecmp(dot, ".jpg") || !g_ascii_strcasecmp(dot, ".jpeg")))
        rc = vips_jpegsave(copy, path, "Q", quality > 0 ? quality : 90, NULL);
    else if (dot && !g_ascii_strcasecmp(dot, ".webp"))
        rc = vips_webpsave(copy, path, "Q", quality > 0 ? quality : 90, NULL);
    else
        rc = vips_image_write_to_file(copy, path, NULL);
    g_object_unref(copy);
    return rc;
}

int kv_save_webp_lossless(VipsImage *in, const char *path) {
    return vips_webpsave(in, path, "lossless", TRUE, NULL);
}

int kv_save_png16(VipsImage *in, const char *path) {
    VipsImage *wide = NULL, *tagged = NULL;
    int rc = -1;
    if (vips_cast(in, &wide, VIPS_FORMAT_USHORT, "shift", TRUE, NULL)) return -1;
    if (!vips_copy(wide, &tagged, "interpretation", VIPS_INTERPRETATION_RGB16, NULL))
        rc = vips_pngsave(tagged, path, "bitdepth", 16, NULL);
    g_object_unref(wide);
    if (tagged) g_object_unref(tagged);
    return rc;
}

int kv_save_png_palette(VipsImage *in, const char *path) {
    return vips_pngsave(in, path, "palette", TRUE, "bitdepth", 8, NULL);
}

int kv_save_jpeg_cmyk(VipsImage *in, const char *path) {
    VipsImage *cmyk = NULL;
    if (vips_colourspace(in, &cmyk, VIPS_INTERPRETATION_CMYK, NULL)) return -1;
    int rc = vips_jpegsave(cmyk, path, "Q", 95, NULL);
    g_object_unref(cmyk);
    return rc;
}

int kv_save_tiff_1bit(VipsImage *in, const char *path) {
    VipsImage *grey = NULL;
    if (vips_colourspace(in, &grey, VIPS_INTERPRETATION_B_W, NULL)) return -1;
    int rc = vips_tiffsave(grey, path, "bitdepth", 1, NULL);
    g_object_unref(grey);
    return rc;
}

int kv_save_tiff_pages(VipsImage **pages, int n, const char *path) {
    if (n < 1) { vips_error("kv_save_tiff_pages", "no pages"); return -1; }
    int page_height = vips_image_get_height(pages[0]);
    VipsImage *joined = NULL, *tagged = NULL;
    if (vips_arrayjoin(pages, &joined, n, "across", 1, NULL)) return -1;
    int rc = -1;
    if (!vips_copy(joined, &tagged, NULL)) {
        vips_image_set_int(tagged, VIPS_META_PAGE_HEIGHT, page_height);
        rc = vips_tiffsave(tagged, path, "page_height", page_height, NULL);
    }
    g_object_unref(joined);
    if (tagged) g_object_unref(tagged);
    return rc;
}

int kv_save_oriented(VipsImage *in, const char *path, int quality, int orientation) {
    /* Every EXIF orientation's transform is its own inverse but 6 and 8, which undo each other: store the upright
     * image transformed by the inverse, tagged `orientation`, and a viewer shows it upright again. */
    int inverse = orientation == 6 ? 8 : orientation == 8 ? 6 : orientation;
    VipsImage *tagged = NULL, *stored = NULL;
    if (vips_copy(in, &tagged, NULL)) return -1;
    vips_image_set_int(tagged, VIPS_META_ORIENTATION, inverse);
    int rc = vips_autorot(tagged, &stored, NULL);
    g_object_unref(tagged);
    if (rc) return -1;
    VipsImage *out = NULL;
    rc = vips_copy(stored, &out, NULL);
    g_object_unref(stored);
    if (rc) return -1;
    if (orientation >= 2 && orientation <= 8) vips_image_set_int(out, VIPS_META_ORIENTATION, orientation);
    else vips_image_remove(out, VIPS_META_ORIENTATION);
    rc = vips_jpegsave(out, path, "Q", quality > 0 ? quality : 90, NULL);
    g_object_unref(out);
    return rc;
}

int kv_save_tiff_pyramid(VipsImage *in, const char *path, int subifd) {
    return vips_tiffsave(in, path, "tile", TRUE, "tile_width", 256, "tile_height", 256, "pyramid", TRUE,
                         "subifd", subifd ? TRUE : FALSE, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
}

int kv_save_text_page(int width, int height, const char *const *texts, const double *centre_x, const double *centre_y,
                      const double *degrees, int n, const char *font, int dpi, const char *path) {
    VipsImage *black = NULL;
    if (vips_black(&black, width, height, NULL)) return -1;
    VipsImage *ink = NULL;
    int rc = vips_cast(black, &ink, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(black);
    if (rc) return -1;
    VipsImage *canvas = vips_image_copy_memory(ink);
    g_object_unref(ink);
    if (!canvas) return -1;
    rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        VipsImage *mask = NULL, *turned = NULL;
        if (vips_text(&mask, texts[i], "font", font, "dpi", dpi, NULL)) { rc = -1; break; }
        /* vips_rotate turns clockwise (y down) about the centre, which stays the centre of its larger output. */
        rc = vips_rotate(mask, &turned, degrees[i], NULL);
        g_object_unref(mask);
        if (rc) break;
        double full = 255;
        int x = (int)(centre_x[i] - turned->Xsize / 2.0 + 0.5), y = (int)(centre_y[i] - turned->Ysize / 2.0 + 0.5);
        VipsImage *coverage = NULL;
        rc = vips_cast(turned, &coverage, VIPS_FORMAT_UCHAR, NULL);
        g_object_unref(turned);
        if (rc) break;
        rc = vips_draw_mask(canvas, &full, 1, coverage, x, y, NULL);
        g_object_unref(coverage);
    }
    if (rc == 0) {
        VipsImage *page = NULL;
        rc = vips_invert(canvas, &page, NULL);
        if (rc == 0) {
            VipsImage *bytes = NULL;
            rc = vips_cast(page, &bytes, VIPS_FORMAT_UCHAR, NULL);
            g_object_unref(page);
            if (rc == 0) {
                rc = vips_image_write_to_file(bytes, path, NULL);
                g_object_unref(bytes);
            }
        }
    }
    g_object_unref(canvas);
    return rc;
}
