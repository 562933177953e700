#ifndef KOTEN_CVIPSSHIM_OUTPUT_H
#define KOTEN_CVIPSSHIM_OUTPUT_H
// libvips calls of the write stage (searchable PDF, viz, html): the page as people see it, encoding into memory,
// and drawing. Same conventions as CVipsShim.h: 0 on success, -1 on failure with kv_last_error() set.
#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

/// The resolution the image declares, in pixels per millimetre (libvips' xres/yres: a PDF page rendered at `dpi`
/// gives dpi / 25.4; a file that declares none gives libvips' default of 1.0).
void kv_resolution(VipsImage *image, double *xres, double *yres);

/// The page as people see it: EXIF orientation applied, 16-bit scaled to 8, CMYK converted to sRGB, alpha
/// flattened onto white; one band for a grey source, three (sRGB) otherwise.
int kv_to_display8(VipsImage *in, VipsImage **out);

/// Encodes as PNG (`compression` 0-9, every row filter tried, not interlaced, no metadata) into a buffer that
/// GLib allocates: release it with kv_free.
int kv_save_png_buffer(VipsImage *in, int compression, void **buf, size_t *size);
/// Encodes as a baseline JPEG of `quality` (1-100), no metadata, into a GLib buffer (kv_free).
int kv_save_jpeg_buffer(VipsImage *in, int quality, void **buf, size_t *size);
void kv_free(void *pointer);

/// A writable copy of the image in memory, for the kv_draw_* calls (which change it in place).
int kv_memory_copy(VipsImage *in, VipsImage **out);
/// A one-pixel line from (x1, y1) to (x2, y2) in colour `ink` (one value per band), clipped to the image.
int kv_draw_line(VipsImage *image, const double *ink, int bands, int x1, int y1, int x2, int y2);
/// A rectangle, filled when `fill` != 0, clipped to the image.
int kv_draw_rect(VipsImage *image, const double *ink, int bands, int left, int top, int width, int height, int fill);
/// `text` rendered by Pango in `font` (e.g. "sans bold 12") at `dpi`, as an 8-bit coverage mask.
int kv_text(const char *text, const char *font, int dpi, VipsImage **out);
/// Paints `ink` through the coverage `mask` with its top-left at (x, y), clipped to the image.
int kv_draw_mask(VipsImage *image, const double *ink, int bands, VipsImage *mask, int x, int y);
#endif
