// The strided iteration core shared by copy, fill, expression assignment and
// reductions. A Loop over N operands (operand 0 is the output by convention):
//   1. drops size-1 dimensions,
//   2. orders dimensions by stride so the fastest-varying one (the output's
//      unit stride, else the first operand that decides) is innermost,
//   3. coalesces neighbours that are contiguous in every operand,
// and then walks any sub-range of the elements as inner runs, advancing
// per-operand offsets with an odometer: one division per range, none per element.
#pragma once

#include "../core/shape.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace t7::iter {

template <size_t N>
struct Loop {
    Shape sizes;                  // outermost first, innermost last; never empty
    std::array<Shape, N> strides; // element strides per operand, aligned with sizes
    int64_t numel = 0;

    int64_t inner_size() const { return sizes.back(); }
    int64_t inner_stride(size_t k) const { return strides[k].back(); }
    size_t rank() const { return sizes.size(); }
};

namespace detail {
// Is dimension a (currently placed outer) correctly outside dimension b? The
// first operand with non-zero strides in both decides; ties keep the order.
template <size_t N>
int compare_dims(const std::array<Shape, N>& st, size_t a, size_t b) {
    for (size_t k = 0; k < N; ++k) {
        int64_t sa = st[k][a], sb = st[k][b];
        if (sa == 0 || sb == 0) continue;
        if (sa < sb) return -1; // a is faster: belongs inside b
        if (sa > sb) return 1;
    }
    return 0;
}
} // namespace detail

// `sizes` is the iteration shape; strides[k] are operand k's strides for it
// (0 where the operand is broadcast). Every stride Shape has sizes.size() entries.
// With `reorder` false the dimension order is kept (row-major visiting order,
// as Torch7's apply requires); coalescing never changes the visiting order.
template <size_t N>
Loop<N> make_loop(const Shape& sizes, const std::array<const Shape*, N>& strides,
                  bool reorder = true) {
    Loop<N> L;
    L.numel = sizes.numel();
    // 1. keep the dimensions that iterate (sized once: no growth checks)
    size_t r = 0;
    L.sizes.resize(std::max<size_t>(sizes.size(), 1));
    for (size_t k = 0; k < N; ++k) L.strides[k].resize(L.sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == 1) continue;
        L.sizes[r] = sizes[d];
        for (size_t k = 0; k < N; ++k) L.strides[k][r] = (*strides[k])[d];
        ++r;
    }
    if (r == 0) {
        L.sizes.resize(1);
        L.sizes[0] = 1;
        for (size_t k = 0; k < N; ++k) {
            L.strides[k].resize(1);
            L.strides[k][0] = 0;
        }
        return L;
    }
    // 2. insertion sort, outermost first (ranks are small; this is stable)
    for (size_t i = 1; i < r && reorder; ++i) {
        for (size_t j = i; j > 0 && detail::compare_dims(L.strides, j - 1, j) < 0; --j) {
            std::swap(L.sizes[j - 1], L.sizes[j]);
            for (size_t k = 0; k < N; ++k) std::swap(L.strides[k][j - 1], L.strides[k][j]);
        }
    }
    // 3. coalesce in place, from the innermost dimension outwards: dimension d
    //    folds into the current inner block w when contiguous in every operand.
    size_t w = r - 1;
    for (size_t d = r - 1; d-- > 0;) {
        bool merge = true;
        for (size_t k = 0; k < N && merge; ++k)
            merge = L.strides[k][d] == L.strides[k][w] * L.sizes[w];
        if (merge) {
            L.sizes[w] *= L.sizes[d];
        } else {
            --w;
            L.sizes[w] = L.sizes[d];
            for (size_t k = 0; k < N; ++k) L.strides[k][w] = L.strides[k][d];
        }
    }
    const size_t m = r - w; // dimensions left, stored at [w, r)
    for (size_t d = 0; d < m; ++d) {
        L.sizes[d] = L.sizes[w + d];
        for (size_t k = 0; k < N; ++k) L.strides[k][d] = L.strides[k][w + d];
    }
    L.sizes.resize(m);
    for (size_t k = 0; k < N; ++k) L.strides[k].resize(m);
    return L;
}

// For work that may visit elements in any order (element-wise assignment,
// whole-tensor reductions): each dimension that the deciding operand (the
// first with a non-zero stride there; the destination, for an assignment)
// walks backwards is walked forwards instead, every operand's start moved by
// shift[k] elements to its last element along it. A reversed view then
// coalesces and vectorises as the forward one does; an operand reversed
// against the destination keeps a negative stride (read in reversed packets).
template <size_t N>
void walk_forwards(const Shape& sizes, std::array<Shape, N>& strides,
                   std::array<int64_t, N>& shift) {
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] <= 1) continue;
        size_t k = 0;
        while (k < N && strides[k][d] == 0) ++k;
        if (k == N || strides[k][d] > 0) continue;
        for (size_t j = 0; j < N; ++j) {
            shift[j] += (sizes[d] - 1) * strides[j][d];
            strides[j][d] = -strides[j][d];
        }
    }
}

// Calls run(offsets, n) for each inner run covering elements [begin, end) in
// loop order; offsets[k] is operand k's element offset of the run's first element.
template <size_t N, class Run>
void for_each_run(const Loop<N>& L, int64_t begin, int64_t end, Run&& run) {
    if (begin >= end) return;
    const size_t r = L.rank();
    const int64_t inner = L.inner_size();
    std::array<int64_t, N> in_st;
    for (size_t k = 0; k < N; ++k) in_st[k] = L.inner_stride(k);

    // Position of `begin`: the only divisions of the whole walk.
    int64_t row = begin / inner, col = begin % inner;
    Shape idx(r - 1, 0);
    std::array<int64_t, N> base{};
    for (size_t d = r - 1; d-- > 0;) {
        idx[d] = row % L.sizes[d];
        row /= L.sizes[d];
        for (size_t k = 0; k < N; ++k) base[k] += idx[d] * L.strides[k][d];
    }
    int64_t pos = begin;
    while (true) {
        int64_t n = std::min(inner - col, end - pos);
        std::array<int64_t, N> off;
        for (size_t k = 0; k < N; ++k) off[k] = base[k] + col * in_st[k];
        run(off, n);
        pos += n;
        if (pos >= end) return;
        col = 0;
        // odometer over the outer dimensions
        for (size_t d = r - 1; d-- > 0;) {
            if (++idx[d] < L.sizes[d]) {
                for (size_t k = 0; k < N; ++k) base[k] += L.strides[k][d];
                break;
            }
            for (size_t k = 0; k < N; ++k) base[k] -= (L.sizes[d] - 1) * L.strides[k][d];
            idx[d] = 0;
        }
    }
}

// As for_each_run, but whole inner runs that follow each other along the
// second innermost dimension come as one call run(offsets, n, rows): `rows`
// runs of n elements, run j starting at offsets[k] + j * strides[k][rank - 2]
// (a short-row 2-D loop costs one call per block of rows, not one per row).
template <size_t N, class Run>
void for_each_run_rows(const Loop<N>& L, int64_t begin, int64_t end, Run&& run) {
    auto one_row = [&](const std::array<int64_t, N>& off, int64_t n) { run(off, n, int64_t(1)); };
    const size_t r = L.rank();
    const int64_t inner = L.inner_size();
    if (r < 2 || begin >= end) return for_each_run(L, begin, end, one_row);
    // A partial first row, then blocks of whole rows (each within one index of
    // the dimensions outside the row dimension), then a partial last row.
    int64_t pos = begin;
    if (pos % inner != 0) {
        const int64_t stop = std::min(end, (pos / inner + 1) * inner);
        for_each_run(L, pos, stop, one_row);
        pos = stop;
    }
    const size_t rd = r - 2; // the row dimension
    const int64_t row_count = L.sizes[rd];
    while (end - pos >= inner) {
        const int64_t row = pos / inner; // divisions once per block of rows
        const int64_t at = row % row_count;
        const int64_t rows = std::min(row_count - at, (end - pos) / inner);
        std::array<int64_t, N> off{};
        int64_t rest = row;
        for (size_t d = r - 1; d-- > 0;) {
            const int64_t i = rest % L.sizes[d];
            rest /= L.sizes[d];
            for (size_t k = 0; k < N; ++k) off[k] += i * L.strides[k][d];
        }
        run(off, inner, rows);
        pos += rows * inner;
    }
    if (pos < end) for_each_run(L, pos, end, one_row);
}

} // namespace t7::iter
