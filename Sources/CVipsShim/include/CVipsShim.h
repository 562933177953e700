#ifndef KOTEN_CVIPSSHIM_H
#define KOTEN_CVIPSSHIM_H
// Non-variadic wrappers around the libvips calls KotenOCR uses (Swift cannot call C variadic functions).
// Every function returning int returns 0 on success and -1 on failure; kv_last_error() then has the message.
#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

/// Starts libvips once per process: operation cache off, `concurrency` worker threads (>= 1).
int kv_init(const char *argv0, int concurrency);
/// Copies and clears libvips' error buffer into `buf` (always NUL-terminated). Returns the length.
size_t kv_last_error(char *buf, size_t size);
/* The warnings libvips logged since the previous call, one a line (empty if none), then forgotten; size 0 only forgets. */
size_t kv_take_warning(char *buf, size_t size);

/// What to open: a file (`path`), or encoded image bytes in memory (`path` NULL, `data`, `size`), which must stay
/// alive and unchanged as long as any image opened from them.
typedef struct kv_input {
    const char *path;
    const void *data;
    size_t size;
} kv_input;

/// Name of the loader libvips picks for the input ("VipsForeignLoadJpegFile", "VipsForeignLoadPngBuffer", ...),
/// or NULL if it cannot read it.
const char *kv_loader(kv_input input);
/// 1 if the loader reads a file of several pages whose `page` option selects one (TIFF, PDF, GIF, HEIF, WebP),
/// else 0. (JPEG 2000's "n-pages" counts resolution levels, not pages.)
int kv_loader_is_paged(const char *loader);
/// Width and height a BMP declares in its header (BITMAPCOREHEADER or later), read without decoding:
/// libvips reads BMP through ImageMagick, which decodes the whole image while reading the header.
/// Returns 0 and sets `width`/`height` for a BMP, -1 for any other input.
int kv_bmp_size(kv_input input, int64_t *width, int64_t *height);

/// Opens the input lazily for top-to-bottom reading; nothing is decoded yet. Truncation is always an error;
/// `strict` != 0 makes any decoder warning one too (damaged data, a header promising more than the input
/// holds), 0 fails only on truncation. The choice is per image: nothing process-wide.
/// `page` selects a page of multi-page formats (0-based). `shrink` (1, 2, 4, 8) decodes JPEG/WebP at
/// reduced size (shrink-on-load); it is ignored for other formats. `dpi` > 0 renders PDF pages at that DPI.
/// `random_access` != 0 opens for random access (needed for crops in any order).
int kv_open(kv_input input, int page, int shrink, double dpi, int random_access, int strict, VipsImage **out);
/// Opens every page of a PDF at once, header only (`n` = -1 at 72 dpi): libvips' pdfload then looks up each page
/// and its size through poppler, the whole page tree, and renders nothing. -1 for anything but a PDF, or failure.
int kv_open_pdf_pages(kv_input input, VipsImage **out);

/// Page `page` (a TIFF directory, a PDF page; ignored for other formats) scaled down to fit `width` × `height`
/// (never up), through libvips' thumbnail operation: shrink-on-load where the format has it (JPEG's DCT scaling,
/// a PDF rendered at the small size, WebP, a TIFF's pyramid), the rest decoded top to bottom in strips, so the page
/// is never held whole at full size; EXIF orientation applied. For page thumbnails (the server's page list).
int kv_thumbnail(kv_input input, int page, int width, int height, VipsImage **out);
/// Wraps 8-bit pixels in memory (`height` rows of `width` × `bands` bytes, no padding; `bands` 1 grey, 3 RGB,
/// 4 RGBA) as an image, without copying them: they must stay alive and unchanged as long as the image.
int kv_open_pixels(const void *data, size_t size, int width, int height, int bands, VipsImage **out);

/// Header facts (no pixel decoding).
int kv_width(VipsImage *image);
int kv_height(VipsImage *image);
int kv_bands(VipsImage *image);
/// EXIF orientation 1-8 (1 when absent).
int kv_orientation(VipsImage *image);
/// Number of pages of a multi-page source (1 when absent).
int kv_n_pages(VipsImage *image);
/// The pages of a TIFF (libtiff, tags only): the directories of its main chain that are neither reduced-resolution
/// images nor masks (NewSubfileType bits 0 and 2: a pyramid's levels); SubIFDs are never pages. Returns how many
/// there are and sets `directory` (if not NULL) to the main-chain index of page `page` (0-based; -1 past the end):
/// what libvips' tiffload takes as its `page`. -1 when libtiff cannot open the input.
int kv_tiff_pages(kv_input input, int page, int *directory);

/// Whether a decode of an image with EXIF `orientation` gives its rows bottom to top (3 and 4: the vertical flip
/// is left to the caller, as a top-to-bottom decode cannot read the last row first).
int kv_needs_row_reversal(int orientation);
/// For an image with an alpha channel: the alpha-weighted mean of its colour (the mean of the colour bands,
/// 0-255 after conversion to 8-bit sRGB) in `ink`, and the smallest and largest alpha (0-255). One pass over the
/// pixels. Returns 1 (nothing set) for an image without alpha, -1 on failure.
int kv_alpha_ink(VipsImage *in, double *ink, double *alpha_min, double *alpha_max);
/// With `autorotate`, applies the EXIF orientation except a vertical flip (see kv_needs_row_reversal); converts
/// to 8-bit sRGB with exactly three bands: grey is replicated, 16-bit is scaled down, CMYK is converted; an alpha
/// channel is composited onto the grey level `background` (0-255), or dropped without compositing when
/// `background` < 0.
int kv_to_rgb8(VipsImage *in, int autorotate, int background, VipsImage **out);
/// Resizes by independent horizontal and vertical scale factors (kernel: 0 nearest, 1 linear, 2 cubic, 3 lanczos3).
int kv_resize(VipsImage *in, double hscale, double vscale, int kernel, VipsImage **out);
/// Extracts the rectangle (left, top, width, height), which must lie inside the image.
int kv_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out);
/// Decodes the image into `dst` (width × height × bands bytes of 8-bit pixels), in strips of rows,
/// so no second whole-image buffer exists.
int kv_read_pixels(VipsImage *in, uint8_t *dst, size_t dst_size);

void kv_unref(VipsImage *image);

/// Rows read one strip after another, top to bottom, without the image ever existing whole (the region crops of
/// `ImageSource.decodeRegions`). `kv_rows_new` prepares reading `in` (8-bit); `kv_rows_read` decodes rows
/// [top, top + height) into `dst` (width × height × bands bytes); `kv_rows_free` releases the reader.
typedef struct kv_rows kv_rows;
kv_rows *kv_rows_new(VipsImage *in);
int kv_rows_read(kv_rows *rows, int top, int height, uint8_t *dst, size_t dst_size);
void kv_rows_free(kv_rows *rows);

/// SHA-256 through GLib's GChecksum (linked with libvips; there is no CryptoKit on Linux).
/// One-shot: writes the lowercase hex digest (64 characters + NUL) of `size` bytes at `data` into `out`.
/// `data` may be NULL when `size` is 0.
void kv_sha256_hex(const void *data, size_t size, char out[65]);
/// Streaming: new -> update* -> finish (writes the hex digest; the state is then closed) -> free.
typedef struct kv_sha256 kv_sha256;
kv_sha256 *kv_sha256_new(void);
void kv_sha256_update(kv_sha256 *state, const void *data, size_t size);
void kv_sha256_finish(kv_sha256 *state, char out[65]);
void kv_sha256_free(kv_sha256 *state);

// The write stage's calls (page as people see it, encoding, drawing).
#include "CVipsShimOutput.h"
#endif
