// Packing a tile of a strided operand into a small contiguous buffer. A tiled
// assignment (y = x.t() + x) copies each tile of the transposed operand into
// this thread's buffer once, so the kernel reads every operand unit-stride and
// runs vectorised, instead of gathering one element per cache line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "../core/dtype.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace t7::iter {

// A packed tile: pack_rows rows of at most pack_cols elements per operand,
// fewer columns when several wide operands share the buffer. 64 x 64 floats
// measured best at 256^2 and 4096^2 (2^24 y = x.t() + x: 17 ms, against 25 ms
// for 16 x 128 and 32 x 128 tiles); the buffer (32 KiB) stays in L1.
inline constexpr int64_t pack_rows = 64;
inline constexpr int64_t pack_cols = 64;
inline constexpr int64_t pack_buffer_bytes = 32768;
inline constexpr int max_packed = 4; // operands packed per tile; others stay strided

// Columns of a tile when `count` operands of at most `widest` bytes each share
// the buffer (a buffer of pack_buffer_bytes on the packing thread's stack: each
// call has its own, so an assignment started inside a kernel, a t7::map
// functor, packs into its own).
inline int64_t packed_cols(int64_t count, int64_t widest) {
    return std::min(pack_cols, pack_buffer_bytes / (count * pack_rows * widest));
}

namespace detail {

#if defined(__SSE2__)
// Four columns of four contiguous elements each become four rows (bit copies:
// NaN payloads survive).
inline void transpose4x4(uint32_t* d, int64_t dst_row, const uint32_t* s, int64_t s_col) {
    __m128 c0 = _mm_loadu_ps(reinterpret_cast<const float*>(s));
    __m128 c1 = _mm_loadu_ps(reinterpret_cast<const float*>(s + s_col));
    __m128 c2 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 2 * s_col));
    __m128 c3 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 3 * s_col));
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    _mm_storeu_ps(reinterpret_cast<float*>(d), c0);
    _mm_storeu_ps(reinterpret_cast<float*>(d + dst_row), c1);
    _mm_storeu_ps(reinterpret_cast<float*>(d + 2 * dst_row), c2);
    _mm_storeu_ps(reinterpret_cast<float*>(d + 3 * dst_row), c3);
}
inline void transpose2x2(uint64_t* d, int64_t dst_row, const uint64_t* s, int64_t s_col) {
    __m128i c0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    __m128i c1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + s_col));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_unpacklo_epi64(c0, c1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + dst_row), _mm_unpackhi_epi64(c0, c1));
}
#endif

// Element (i, j) of the tile is s[i * s_row + j * s_col]; d is row-major with
// rows dst_row elements apart. Aligned to a cache line: where the linker happens
// to place its transposing loop otherwise moved sum(x.t() * x) at 256^2 between
// 15 and 19 us from one build of a program to the next (bench/RESULTS.md).
template <class U>
[[gnu::aligned(64)]] void pack_typed(U* d, const U* s, int64_t rows, int64_t cols, int64_t s_row,
                                     int64_t s_col, int64_t dst_row) {
    if (s_row != 1) { // rows of the source are what it reads best, or neither is
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) d[i * dst_row + j] = s[i * s_row + j * s_col];
        return;
    }
    // The tile's columns are contiguous in the source: read them whole, in
    // blocks transposed in registers where the element size allows.
    int64_t j = 0;
#if defined(__SSE2__)
    constexpr int64_t B = sizeof(U) == 4 ? 4 : sizeof(U) == 8 ? 2 : 0;
    if constexpr (B > 0) {
        for (; j + B <= cols; j += B) {
            int64_t i = 0;
            for (; i + B <= rows; i += B) {
                if constexpr (B == 4)
                    transpose4x4(d + i * dst_row + j, dst_row, s + i + j * s_col, s_col);
                else
                    transpose2x2(d + i * dst_row + j, dst_row, s + i + j * s_col, s_col);
            }
            for (; i < rows; ++i)
                for (int64_t jj = j; jj < j + B; ++jj) d[i * dst_row + jj] = s[i + jj * s_col];
        }
    }
#endif
    for (; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) d[i * dst_row + j] = s[i + j * s_col];
}

} // namespace detail

// Copies a rows x cols tile of elements of esz bytes (1, 2, 4 or 8), element
// (i, j) at src + (i * s_row + j * s_col) * esz, into dst, row-major with rows
// dst_row elements apart. Compiled once per element size, not per expression.
inline void pack_tile(void* dst, const void* src, int esz, int64_t rows, int64_t cols,
                      int64_t s_row, int64_t s_col, int64_t dst_row) {
    t7::detail::with_word(esz, [&](auto word) {
        using W = decltype(word);
        detail::pack_typed(static_cast<W*>(dst), static_cast<const W*>(src), rows, cols, s_row,
                           s_col, dst_row);
    });
}

} // namespace t7::iter
