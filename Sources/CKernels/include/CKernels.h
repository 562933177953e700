// Inner loops that Swift's generic SIMD types and generic min/max make slow in a debug build (a witness-table call
// per lane or per element there), so slow that they were most of a debug test run's CPU time. Semantics are
// documented with their Swift callers.
#ifndef KOTEN_KERNELS_H
#define KOTEN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// For each of `rows` rows of `classes` floats at `p` (row-major): the earliest class of the largest value
/// (`best`, its value `best_value`; class 0 when no value is larger than -inf) and the earliest class of the
/// largest value among the other classes (`second`, -1 with one class; `second_value`, -inf then). NaNs are
/// never the largest. Every output array holds `rows` elements.
void koten_top2_rows(const float *p, size_t rows, size_t classes,
                     intptr_t *best, float *best_value, intptr_t *second, float *second_value);

/// OpenCV's INTER_LINEAR horizontal pass of one 8-bit RGB row into Int32 sums (OpenCVBilinear.swift): for each
/// output x below `end`, p[s] × w0 + p[s+1] × w1 per channel with s = `start[x]` and the 11-bit weights
/// `weights[2x]`, `weights[2x+1]`; from `end` on, p[s] × 2048. `sums` holds `output_width` × 3 elements.
void koten_bilinear_horizontal(const uint8_t *row, const intptr_t *start, const int16_t *weights,
                               intptr_t output_width, intptr_t end, int32_t *sums);

/// OpenCV's INTER_LINEAR vertical pass of two summed rows `a`, `c` (`n` elements each) into 8-bit `out`: its
/// 128-bit vector arithmetic on the first `vector_end` elements, its scalar arithmetic on the rest
/// (OpenCVBilinear.swift says which is which).
void koten_bilinear_vertical(const int32_t *a, const int32_t *c, intptr_t n, intptr_t vector_end,
                             int16_t b0, int16_t b1, uint8_t *out);

#endif
