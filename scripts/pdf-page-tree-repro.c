/* Which call loops on the fuzz crash PDF (docs/reliability.md, "PDFs: opened under a limit"): one step per run,
 * to be run under timeout and ulimit -d.
 *   cc -O1 -o /tmp/pdf-repro scripts/pdf-page-tree-repro.c $(pkg-config --cflags --libs poppler-glib vips cairo)
 *   (ulimit -d 1048576; timeout 20 /tmp/pdf-repro cached-getpage Tests/Fixtures/fuzz/crashes/pdf-timeout-7bdceb59.pdf 1)
 *   repro STEP FILE [PAGE]
 * poppler-glib steps (the calls libvips' pdfload makes): open, count, getpage, size, render; cached-STEP: the same
 *   through a stream poppler-glib reads with its CachedFile (as libvips' is)
 * libvips steps: vips-header (vips_image_new_from_buffer, page PAGE), vips-render (and vips_image_write_to_memory),
 *   vips-all (the header of every page: n = -1) */
#include <poppler.h>
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(const char *what) { printf("%s\n", what); fflush(stdout); }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: repro STEP FILE [PAGE]\n"); return 2; }
    const char *step = argv[1], *file = argv[2];
    int which = argc > 3 ? atoi(argv[3]) : 0;
    gchar *data; gsize size; GError *err = NULL;
    if (!g_file_get_contents(file, &data, &size, &err)) { fprintf(stderr, "%s\n", err->message); return 2; }
    if (!strncmp(step, "vips", 4)) {
        if (VIPS_INIT(argv[0])) return 2;
        /* vips-all: every page at once (n = -1), which makes pdfload find each page's size */
        VipsImage *im = !strcmp(step, "vips-all")
            ? vips_image_new_from_buffer(data, size, "", "access", VIPS_ACCESS_SEQUENTIAL, "n", -1, "dpi", 18.0, NULL)
            : vips_image_new_from_buffer(data, size, "", "access", VIPS_ACCESS_SEQUENTIAL, "page", which, "dpi", 18.0, NULL);
        if (!im) { printf("vips failed: %s\n", vips_error_buffer()); return 1; }
        printf("header %dx%d\n", im->Xsize, im->Ysize); fflush(stdout);
        if (!strcmp(step, "vips-render")) {
            size_t n;
            void *pixels = vips_image_write_to_memory(im, &n);
            if (!pixels) { printf("render failed: %s\n", vips_error_buffer()); return 1; }
            printf("rendered %zu bytes\n", n);
        }
        return 0;
    }
    GInputStream *in = g_memory_input_stream_new_from_data(data, size, NULL);
    /* "cached-": wrapped, so poppler-glib no longer sees a memory stream and reads it through its CachedFile, as it
     * does libvips' own stream (vips_g_input_stream_new_from_source). */
    if (!strncmp(step, "cached-", 7)) { in = g_buffered_input_stream_new(in); step += 7; }
    PopplerDocument *doc = poppler_document_new_from_stream(in, size, NULL, NULL, &err);
    if (!doc) { printf("open failed: %s\n", err ? err->message : "?"); return 1; }
    say("opened");
    if (!strcmp(step, "open")) return 0;
    printf("n_pages %d\n", poppler_document_get_n_pages(doc)); fflush(stdout);
    if (!strcmp(step, "count")) return 0;
    PopplerPage *page = poppler_document_get_page(doc, which);
    printf("page %d: %s\n", which, page ? "found" : "none"); fflush(stdout);
    if (!page || !strcmp(step, "getpage")) return 0;
    double w, h;
    poppler_page_get_size(page, &w, &h);
    printf("size %gx%g\n", w, h); fflush(stdout);
    if (!strcmp(step, "size")) return 0;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w + 1, (int)h + 1);
    cairo_t *cr = cairo_create(s);
    poppler_page_render(page, cr);
    cairo_surface_flush(s);
    say("rendered");
    return 0;
}
