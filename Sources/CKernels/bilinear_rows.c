// OpenCV's INTER_LINEAR row passes for 8-bit RGB (CKernels.h; the arithmetic is explained in
// Sources/KotenOCRKit/ReferenceSemantics/OpenCV/OpenCVBilinear.swift).
#include "CKernels.h"

static inline int32_t saturate16(int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }
static inline uint8_t saturate8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void koten_bilinear_horizontal(const uint8_t *row, const intptr_t *start, const int16_t *weights,
                               intptr_t output_width, intptr_t end, int32_t *sums) {
    for (intptr_t x = 0; x < output_width; x++) {
        const uint8_t *p = row + start[x] * 3;
        int32_t *d = sums + x * 3;
        if (x < end) {
            int32_t a0 = weights[2 * x], a1 = weights[2 * x + 1];
            for (int c = 0; c < 3; c++) d[c] = (int32_t)p[c] * a0 + (int32_t)p[3 + c] * a1;
        } else {
            for (int c = 0; c < 3; c++) d[c] = (int32_t)p[c] * 2048;
        }
    }
}

void koten_bilinear_vertical(const int32_t *a, const int32_t *c, intptr_t n, intptr_t vector_end,
                             int16_t b0, int16_t b1, uint8_t *out) {
    int32_t w0 = b0, w1 = b1;
    for (intptr_t i = 0; i < vector_end; i++) {
        // The vector form: rows shifted right by 4 and saturated to 16 bits, multiplied keeping the high 16 bits,
        // added with saturation, rounded by 2 bits.
        int32_t x0 = saturate16(a[i] >> 4), x1 = saturate16(c[i] >> 4);
        int32_t sum = saturate16(((x0 * w0) >> 16) + ((x1 * w1) >> 16));
        out[i] = saturate8(saturate16(sum + 2) >> 2);
    }
    for (intptr_t i = vector_end; i < n; i++) {
        // The scalar form, in wrapping 32-bit arithmetic as OpenCV's.
        uint32_t t = (uint32_t)a[i] * (uint32_t)w0 + (uint32_t)c[i] * (uint32_t)w1 + (1u << 21);
        out[i] = saturate8((int32_t)t >> 22);
    }
}
