// The CTC recogniser's per-step best and runner-up classes (CKernels.h). Each row is read with 16-lane vector
// maxima (clang/GCC vector extensions: whole-vector instructions even unoptimised), then the first index holding
// that maximum is found with a scalar scan.
#include "CKernels.h"

#include <math.h>
#include <string.h>

typedef float lanes16 __attribute__((vector_size(64)));
typedef int32_t mask16 __attribute__((vector_size(64)));

/// The largest value of r[from..<to] (-inf for an empty range; NaNs never win).
static float largest(const float *r, size_t from, size_t to) {
    float result = -INFINITY;
    size_t i = from;
    if (to > from && to - from >= 16) {
        lanes16 acc;
        for (int k = 0; k < 16; k++) acc[k] = -INFINITY;
        for (; i + 16 <= to; i += 16) {
            lanes16 next;
            memcpy(&next, r + i, sizeof next);
            mask16 larger = next > acc;  // all bits set where next is larger (false for NaN)
            acc = (lanes16)(((mask16)next & larger) | ((mask16)acc & ~larger));
        }
        for (int k = 0; k < 16; k++) if (acc[k] > result) result = acc[k];
    }
    for (; i < to; i++) if (r[i] > result) result = r[i];
    return result;
}

/// The earliest index in [from, to) whose value equals `value`, or -1.
static intptr_t first_of(float value, const float *r, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) if (r[i] == value) return (intptr_t)i;
    return -1;
}

void koten_top2_rows(const float *p, size_t rows, size_t classes,
                     intptr_t *best, float *best_value, intptr_t *second, float *second_value) {
    for (size_t t = 0; t < rows; t++) {
        const float *row = p + t * classes;
        float top = largest(row, 0, classes);
        intptr_t b = first_of(top, row, 0, classes);
        if (b < 0) b = 0;
        best[t] = b;
        best_value[t] = classes > 0 ? row[b] : 0;
        second[t] = -1;
        second_value[t] = -INFINITY;
        if (classes < 2) continue;
        size_t ub = (size_t)b;
        float before = largest(row, 0, ub), after = largest(row, ub + 1, classes);
        float runner_up = before > after ? before : after;
        intptr_t s = first_of(runner_up, row, 0, ub);
        if (s < 0) s = first_of(runner_up, row, ub + 1, classes);
        second[t] = s;
        second_value[t] = s >= 0 ? row[s] : -INFINITY;
    }
}
