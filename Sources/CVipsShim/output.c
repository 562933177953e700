#include "CVipsShim.h"
#include <vips/vips.h>

void kv_resolution(VipsImage *image, double *xres, double *yres) {
    *xres = vips_image_get_xres(image);
    *yres = vips_image_get_yres(image);
}

/* Replaces *cur with *next, the result of an operation that returned rc (0: success); returns rc. `next` is
 * read here, after the operation (an argument of this call) has set it. */
static int step(VipsImage **cur, VipsImage **next, int rc) {
    if (rc) return rc;
    g_object_unref(*cur);
    *cur = *next;
    *next = NULL;
    return 0;
}

int kv_to_display8(VipsImage *in, VipsImage **out) {
    VipsImage *cur = in, *next = NULL;
    g_object_ref(cur);
    if (step(&cur, &next, vips_autorot(cur, &next, NULL))) goto fail;
    if (vips_image_get_interpretation(cur) == VIPS_INTERPRETATION_CMYK && vips_image_get_bands(cur) >= 4)
        if (step(&cur, &next, vips_colourspace(cur, &next, VIPS_INTERPRETATION_sRGB, NULL))) goto fail;
    if (vips_image_get_format(cur) != VIPS_FORMAT_UCHAR) {
        int shift = vips_image_get_format(cur) == VIPS_FORMAT_USHORT;
        if (step(&cur, &next, vips_cast(cur, &next, VIPS_FORMAT_UCHAR, "shift", shift, NULL))) goto fail;
    }
    int bands = vips_image_get_bands(cur);
    if (bands == 2 || bands == 4) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int rc = vips_flatten(cur, &next, "background", white, "max_alpha", 255.0, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (step(&cur, &next, rc)) goto fail;
    } else if (bands > 4) {
        if (step(&cur, &next, vips_extract_band(cur, &next, 0, "n", 3, NULL))) goto fail;
    }
    bands = vips_image_get_bands(cur);
    VipsInterpretation tag = bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    if (step(&cur, &next, vips_copy(cur, &next, "interpretation", tag, NULL))) goto fail;
    *out = cur;
    return 0;
fail:
    g_object_unref(cur);
    return -1;
}

int kv_rotate_quarters(VipsImage *in, int quarter_turns, VipsImage **out) {
    static const VipsAngle angles[4] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    return vips_rot(in, out, angles[((quarter_turns % 4) + 4) % 4], NULL);
}

int kv_save_png_buffer(VipsImage *in, int compression, void **buf, size_t *size) {
    return vips_pngsave_buffer(in, buf, size, "compression", compression, "interlace", FALSE,
                               "filter", VIPS_FOREIGN_PNG_FILTER_ALL, "strip", TRUE, NULL);
}

int kv_save_jpeg_buffer(VipsImage *in, int quality, void **buf, size_t *size) {
    return vips_jpegsave_buffer(in, buf, size, "Q", quality, "strip", TRUE, "interlace", FALSE, NULL);
}

void kv_free(void *pointer) { g_free(pointer); }

int kv_memory_copy(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

int kv_draw_line(VipsImage *image, const double *ink, int bands, int x1, int y1, int x2, int y2) {
    return vips_draw_line(image, (double *)ink, bands, x1, y1, x2, y2, NULL);
}

int kv_draw_rect(VipsImage *image, const double *ink, int bands, int left, int top, int width, int height, int fill) {
    return vips_draw_rect(image, (double *)ink, bands, left, top, width, height, "fill", fill ? TRUE : FALSE, NULL);
}

int kv_text(const char *text, const char *font, int dpi, VipsImage **out) {
    return vips_text(out, text, "font", font, "dpi", dpi, NULL);
}

int kv_draw_mask(VipsImage *image, const double *ink, int bands, VipsImage *mask, int x, int y) {
    return vips_draw_mask(image, (double *)ink, bands, mask, x, y, NULL);
}

int kv_thumbnail(kv_input input, int page, int width, int height, VipsImage **out) {
    const char *loader = kv_loader(input);
    if (!loader) return -1;
    char options[32] = "";
    if (kv_loader_is_paged(loader) && page > 0) g_snprintf(options, sizeof options, "page=%d", page);
    if (width < 1) width = 1;
    if (height < 1) height = 1;
    if (input.path) {
        VipsSource *source = vips_source_new_from_file(input.path);
        if (!source) return -1;
        int rc = vips_thumbnail_source(source, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                       "option_string", options, NULL);
        g_object_unref(source);
        return rc;
    }
    return vips_thumbnail_buffer((void *)input.data, input.size, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                 "option_string", options, NULL);
}
