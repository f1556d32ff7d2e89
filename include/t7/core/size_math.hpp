// Checked size arithmetic: the one place where element counts, stride extents
// and start + length are computed for constructors, views, factories and
// resizes. A tensor's invariant is that its element count and the storage
// extent its strides reach both fit in int64; whatever would break that throws
// ShapeError naming the operation and the sizes, before anything changes.
#pragma once

#include "error.hpp"
#include "shape.hpp"

#include <cstdint>

namespace t7::detail {

// a * b (both >= 0), or ShapeError: `op: <what> overflows int64`.
template <class... Context>
int64_t mul_size(int64_t a, int64_t b, const char* op, const Context&... what) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        fail<ShapeError>(op, ": ", what..., " (", a, " * ", b, ") overflows int64");
    return r;
}

// a + b (both >= 0), or ShapeError.
template <class... Context>
int64_t add_size(int64_t a, int64_t b, const char* op, const Context&... what) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        fail<ShapeError>(op, ": ", what..., " (", a, " + ", b, ") overflows int64");
    return r;
}

// Product of non-negative sizes; ShapeError when int64 cannot count them.
inline int64_t checked_numel(const Shape& sizes, const char* op) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 0) fail<ShapeError>(op, ": negative size ", s, " in ", sizes);
        if (__builtin_mul_overflow(n, s, &n))
            fail<ShapeError>(op, ": size ", sizes, " has more elements than int64 can count");
    }
    return n;
}

// A product's result sizes, checked before any tensor of them is made:
// ShapeError naming `op`, both operands' sizes and the result's.
inline void check_result_numel(const Shape& result, const Shape& a, const Shape& b,
                               const char* op) {
    int64_t n = 1;
    for (int64_t s : result)
        if (__builtin_mul_overflow(n, s, &n))
            fail<ShapeError>(op, ": the result of ", a, " and ", b, " would be of size ", result,
                             ", more elements than int64 can count");
}

// Elements a storage must hold past the offset for this layout (sizes and
// strides >= 0): 1 + sum (size - 1) * stride, 0 for an empty shape.
inline int64_t checked_extent(const Shape& sizes, const Shape& strides, const char* op) {
    if (sizes.empty()) return 0;
    for (int64_t s : sizes)
        if (s == 0) return 0; // no element: whatever the strides of the other dimensions
    int64_t last = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
        int64_t reach;
        if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &reach) ||
            __builtin_add_overflow(last, reach, &last))
            fail<ShapeError>(op, ": size ", sizes, " with stride ", strides,
                             " reaches past what int64 can index");
    }
    return add_size(last, 1, op, "extent of size ", sizes);
}

} // namespace t7::detail
