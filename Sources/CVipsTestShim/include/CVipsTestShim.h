#ifndef KOTEN_CVIPSTESTSHIM_H
#define KOTEN_CVIPSTESTSHIM_H
// Non-variadic wrappers around the libvips calls that make test and benchmark inputs (KotenOCRTestSupport's
// ImageWriter); the engine's own calls are in CVipsShim. Every function returns 0 on success and -1 on failure;
// CVipsShim's kv_last_error() then has the message. Images are released with CVipsShim's kv_unref().
#include <stdint.h>

typedef struct _VipsImage VipsImage;

/// Wraps 8-bit interleaved pixels (copied) as an image.
int kv_from_pixels(const uint8_t *pixels, int width, int height, int bands, VipsImage **out);
/// Saves by the file name's suffix (.jpg/.png/.tif/.webp). `quality` applies to JPEG/WebP.
/// `orientation` 2-8 writes that EXIF orientation tag (JPEG), 0 or 1 writes none.
int kv_save(VipsImage *in, const char *path, int quality, int orientation);

/// Saves as a lossless WebP (alpha kept; libwebp may rewrite the colour of fully transparent pixels).
int kv_save_webp_lossless(VipsImage *in, const char *path);
/// Saves RGB as a 16-bit PNG (each 8-bit value v becomes v × 257).
int kv_save_png16(VipsImage *in, const char *path);
/// Saves as an 8-bit palette PNG (colour type 3, quantised to at most 256 colours).
int kv_save_png_palette(VipsImage *in, const char *path);
/// Saves as a CMYK JPEG (converted from sRGB through libvips' built-in CMYK profile).
int kv_save_jpeg_cmyk(VipsImage *in, const char *path);
/// Saves as a 1-bit (bilevel) TIFF: grey values >= 128 become white.
int kv_save_tiff_1bit(VipsImage *in, const char *path);
/// Saves `n` images as the pages of one multi-page TIFF (stacked vertically, each page `page_height` rows;
/// every image must be that tall and as wide as the widest, narrower ones are padded with black).
int kv_save_tiff_pages(VipsImage **pages, int n, const char *path);
/// Saves `in` (upright) as a JPEG tagged with EXIF `orientation` 1-8 whose stored pixels a viewer turns upright
/// again: the upright image goes through the inverse of the orientation's transform.
int kv_save_oriented(VipsImage *in, const char *path, int quality, int orientation);
/// Saves a tiled (256×256) pyramid TIFF (libvips tiffsave `pyramid` + `tile`, deflate): the full-resolution page,
/// then each level half the size of the one before, marked as a reduced image (NewSubfileType 1) in the main
/// chain, or in SubIFDs of the page when `subifd` != 0.
int kv_save_tiff_pyramid(VipsImage *in, const char *path, int subifd);
/// Renders a grey page `width` × `height` (white, black text) with `n` texts (Pango markup allowed) in `font` at
/// `dpi`, each turned `degrees` clockwise about its centre (`centre_x`, `centre_y`, pixels), and saves it by the
/// suffix of `path`.
int kv_save_text_page(int width, int height, const char *const *texts, const double *centre_x, const double *centre_y,
                      const double *degrees, int n, const char *font, int dpi, const char *path);
#endif
