// Does a strided layout reach one memory element from two positions? Writing
// such a destination (an expanded or unfolded view) element by element gives an
// answer that depends on the order of the writes (and races between threads),
// so every write into a tensor refuses it up front, on every device. Fills with
// one value do not ask: any order gives the same answer.
#pragma once

#include "../core/error.hpp"
#include "../core/shape.hpp"

#include <cstddef>
#include <cstdint>

namespace t7 {
namespace iter {

// The general case of overlaps_itself below (a stride 0, or strides out of
// order: transposed views): the dimensions of size > 1 sorted by stride. Out
// of line, so that the fast path inlined into every assignment stays small.
// Without a stride 0 and without overlap, k such dimensions reach 2^k distinct
// elements of a storage (< 2^62): more than 62 of them always overlap.
[[gnu::noinline]] inline bool overlaps_sorted(const Shape& sizes, const Shape& strides) {
    constexpr size_t max_dims = 62;
    int64_t st[max_dims], sz[max_dims]; // uninitialised: no cost for what is not used
    size_t k = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == 0) return false; // no element at all
        if (sizes[i] == 1) continue;
        if (strides[i] == 0 || k == max_dims) return true;
        // A reversed dimension reaches the same elements as the forward one.
        const int64_t s = strides[i] < 0 ? -strides[i] : strides[i];
        size_t j = k++;
        for (; j > 0 && st[j - 1] > s; --j) { // insertion sort: a handful of dims
            st[j] = st[j - 1];
            sz[j] = sz[j - 1];
        }
        st[j] = s;
        sz[j] = sizes[i];
    }
    int64_t span = 0;
    for (size_t i = 0; i < k; ++i) {
        if (st[i] <= span) return true;
        span += (sz[i] - 1) * st[i];
    }
    return false;
}

// True when two positions of (sizes, strides) (strides of any sign) may share an
// element. A stride 0 on a dimension of size > 1 does; otherwise, with the
// dimensions taken by increasing stride, each stride must exceed the extent
// the smaller ones span. Exact for every view the library makes (contiguous,
// transposed, permuted, narrowed, selected, stepped, expanded, unfolded);
// conservative for layouts only set() builds, where a stride interleaves the
// gaps of another (sizes 2x3 with strides 4x3 reach 0 3 6 4 7 10, all distinct,
// and are reported as overlapping).
inline bool overlaps_itself(const Shape& sizes, const Shape& strides) {
    // Fast path, no sort: strides already increase from the last dimension
    // outwards (contiguous, narrowed, selected, stepped and unfolded views).
    int64_t span = 0; // extent reached by the dimensions inside, in elements
    for (size_t d = sizes.size(); d > 0; --d) {
        const int64_t n = sizes[d - 1], s = strides[d - 1];
        if (n == 1) continue;
        if (s <= span) return overlaps_sorted(sizes, strides); // also reversed or empty views
        span += (n - 1) * s;
    }
    return false;
}

} // namespace iter

namespace detail {

[[noreturn]] inline void fail_overlapping_write(const char* op, const Shape& sizes,
                                                const Shape& strides) {
    fail<ShapeError>(op, ": cannot write into a tensor of size ", sizes, " with strides ", strides,
                     ": some of its elements share memory (an expanded or unfolded view)");
}

// ShapeError naming `op` unless a tensor of (sizes, strides) can be written
// element by element.
inline void check_writable(const char* op, const Shape& sizes, const Shape& strides) {
    if (iter::overlaps_itself(sizes, strides)) fail_overlapping_write(op, sizes, strides);
}

// The same for a tensor (anything with sizes() and strides()).
template <class Tn>
void check_writable(const char* op, const Tn& t) {
    check_writable(op, t.sizes(), t.strides());
}

} // namespace detail
} // namespace t7
