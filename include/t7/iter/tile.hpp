// Tiled traversal for operands that disagree on the fastest dimension (y = x.t()
// + x): the two innermost loop dimensions are walked in tile x tile blocks, so
// the operand that strides across rows reuses each cache line it touches
// before it is evicted. Work is split into units of one tile each.
#pragma once

#include "loop.hpp"

namespace t7::iter {

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

template <size_t N>
int64_t tile_units(const Loop<N>& L) {
    const size_t r = L.rank();
    int64_t outer = 1;
    for (size_t d = 0; d + 2 < r; ++d) outer *= L.sizes[d];
    int64_t ta = (L.sizes[r - 2] + tile_size - 1) / tile_size;
    int64_t tb = (L.sizes[r - 1] + tile_size - 1) / tile_size;
    return outer * ta * tb;
}

// Calls run(offsets, n) for every row segment of the tiles [begin, end).
template <size_t N, class Run>
void for_each_tiled_run(const Loop<N>& L, int64_t begin, int64_t end, Run&& run) {
    const size_t r = L.rank();
    const int64_t A = L.sizes[r - 2], B = L.sizes[r - 1];
    const int64_t ta = (A + tile_size - 1) / tile_size, tb = (B + tile_size - 1) / tile_size;
    std::array<int64_t, N> off;
    for (int64_t u = begin; u < end; ++u) {
        // One division chain per tile (tile_size^2 elements), none per element.
        int64_t jb = u % tb, rest = u / tb;
        int64_t ib = rest % ta;
        rest /= ta;
        std::array<int64_t, N> base{};
        for (size_t d = r - 2; d-- > 0;) {
            int64_t i = rest % L.sizes[d];
            rest /= L.sizes[d];
            for (size_t k = 0; k < N; ++k) base[k] += i * L.strides[k][d];
        }
        const int64_t a0 = ib * tile_size, a1 = std::min(A, a0 + tile_size);
        const int64_t b0 = jb * tile_size, n = std::min(B, b0 + tile_size) - b0;
        for (int64_t a = a0; a < a1; ++a) {
            for (size_t k = 0; k < N; ++k)
                off[k] = base[k] + a * L.strides[k][r - 2] + b0 * L.strides[k][r - 1];
            run(off, n);
        }
    }
}

} // namespace t7::iter
