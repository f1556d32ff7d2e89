// Tiled traversal for operands that disagree on the fastest dimension (y = x.t()
// + x): the two innermost loop dimensions are walked in rows x cols blocks, so
// the operand that strides across rows touches each cache line it needs while
// the tile is in cache. Work is split into units of one tile each.
#pragma once

#include "loop.hpp"

namespace t7::iter {

// The edge of the square tiles walked a row at a time (for_each_tiled_run).
inline constexpr int64_t tile_size = 64;

// True when some operand is unit-stride on the second-innermost dimension but
// not on the innermost one: an untiled walk would touch a new line per element.
template <size_t N>
bool wants_tiling(const Loop<N>& L) {
    if (L.rank() < 2) return false;
    const size_t a = L.rank() - 2;
    for (size_t k = 0; k < N; ++k) {
        int64_t s = L.strides[k].back();
        if (L.strides[k][a] == 1 && s != 0 && s != 1) return true;
    }
    return false;
}

// Tiles of rows x cols elements covering the loop (rank >= 2).
template <size_t N>
int64_t tile_units(const Loop<N>& L, int64_t rows, int64_t cols) {
    const size_t r = L.rank();
    int64_t outer = 1;
    for (size_t d = 0; d + 2 < r; ++d) outer *= L.sizes[d];
    return outer * ((L.sizes[r - 2] + rows - 1) / rows) * ((L.sizes[r - 1] + cols - 1) / cols);
}

// Calls tile(offsets, rows, cols) for the tiles [begin, end) of rows x cols
// elements (fewer at the loop's edges); offsets[k] is operand k's element
// offset of the tile's first element.
template <size_t N, class Tile>
void for_each_tile(const Loop<N>& L, int64_t rows, int64_t cols, int64_t begin, int64_t end,
                   Tile&& tile) {
    const size_t r = L.rank();
    const int64_t A = L.sizes[r - 2], B = L.sizes[r - 1];
    const int64_t ta = (A + rows - 1) / rows, tb = (B + cols - 1) / cols;
    std::array<int64_t, N> off;
    for (int64_t u = begin; u < end; ++u) {
        // One division chain per tile, none per element.
        int64_t jb = u % tb, rest = u / tb;
        int64_t ib = rest % ta;
        rest /= ta;
        off.fill(0);
        for (size_t d = r - 2; d-- > 0;) {
            int64_t i = rest % L.sizes[d];
            rest /= L.sizes[d];
            for (size_t k = 0; k < N; ++k) off[k] += i * L.strides[k][d];
        }
        const int64_t a0 = ib * rows, b0 = jb * cols;
        for (size_t k = 0; k < N; ++k)
            off[k] += a0 * L.strides[k][r - 2] + b0 * L.strides[k][r - 1];
        tile(off, std::min(A - a0, rows), std::min(B - b0, cols));
    }
}

// Calls run(offsets, n) for every row segment of the square tiles [begin, end).
template <size_t N, class Run>
void for_each_tiled_run(const Loop<N>& L, int64_t begin, int64_t end, Run&& run) {
    const size_t a = L.rank() - 2;
    for_each_tile(L, tile_size, tile_size, begin, end,
                  [&](std::array<int64_t, N> off, int64_t rows, int64_t cols) {
                      for (int64_t i = 0; i < rows; ++i) {
                          run(off, cols);
                          for (size_t k = 0; k < N; ++k) off[k] += L.strides[k][a];
                      }
                  });
}

} // namespace t7::iter
