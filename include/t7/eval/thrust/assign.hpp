// Fused assignment on the device: one launch (for_each_item) over the destination's
// elements evaluates the whole bound tree per element. Operand 0 is the
// destination, operands 1.. the tree's leaves with broadcast strides; the loop
// is planned on the host (size-1 dimensions dropped, dimensions ordered by
// stride, contiguous ones merged). When every operand is then contiguous in one
// dimension the functor indexes plain pointers; otherwise an Indexer turns the
// linear index into per-operand offsets with fast divisions.
#pragma once

#include "../../expr/traverse.hpp"
#include "bound.hpp"
#include "indexer.hpp"
#include "system.hpp"

#include <array>

namespace t7::gpu {

// An element's value and where it goes (for_each_item loads several, then stores them).
template <class T>
struct Item {
    int64_t at;
    T v;
};

template <class T, class B>
struct AssignLinear {
    using item = Item<T>;
    T* out;
    B tree;
    T7_HOST_DEVICE item load(int64_t i) const { return {i, convert<T>(value(tree, LinearAt{i}))}; }
    T7_HOST_DEVICE void store(const item& x) const { out[x.at] = x.v; }
};

template <class T, class B, size_t N>
struct AssignStrided {
    using item = Item<T>;
    T* out;
    B tree;
    Indexer<N> ix;
    T7_HOST_DEVICE item load(int64_t i) const {
        OffsetsAt<N> o{};
        ix.add_offsets(i, o.off);
        return {o.off[0], convert<T>(value(tree, o))};
    }
    T7_HOST_DEVICE void store(const item& x) const { out[x.at] = x.v; }
};

// Broadcast strides of every leaf over `shape` into strides[First...].
template <size_t First, class E, size_t N>
void leaf_strides(const E& e, const Shape& shape, std::array<Shape, N>& strides) {
    size_t k = First;
    for_each_leaf(e, [&](const auto& leaf) {
        const auto& t = leaf.tensor();
        strides[k++] = detail::broadcast_strides(t.sizes(), t.strides(), shape);
    });
}

// dst has its final shape, e broadcasts to it, and they do not alias harmfully.
// Complex destinations are written as device_t (complex.hpp).
template <class T0, class E>
void fused_assign(const Tensor<T0, CUDA>& dst, const E& e) {
    using T = device_t<T0>;
    constexpr size_t N = size_t(E::leaves) + 1;
    const Shape& shape = dst.sizes();
    if (shape.empty() || dst.nElement() == 0) return;
    std::array<Shape, N> strides;
    strides[0] = dst.strides();
    leaf_strides<1>(e, shape, strides);
    const iter::Loop<N> L = plan_loop<N>(shape, strides);
    cuda::DeviceGuard guard(dst.getDevice());
    const auto b = bind<1>(e);
    using B = std::remove_const_t<decltype(b)>;
    // Loads in flight per thread: one or two leaves take four elements a thread
    // (y = a + s*b 86 -> 102 % of copy bandwidth on an H100), more leaves one
    // (a*b + c*d - a/(b+1): 102 % with one, 97 % with two, 56 % with four).
    constexpr int per_thread = E::leaves <= 2 ? 4 : 1;
    if (is_linear(L))
        for_each_item<per_thread>(L.numel, AssignLinear<T, B>{device_ptr(dst.data()), b}, "assign");
    else
        for_each_item<per_thread>(
            L.numel, AssignStrided<T, B, N>{device_ptr(dst.data()), b, make_indexer(L, "assign")},
            "assign");
}

} // namespace t7::gpu
