// CPU assignment: runs an expression tree into a destination in one pass.
// Plans the loop with the shared iteration core (operand 0 = destination,
// operands 1.. = the tree's leaves), splits it over threads above a grain, and
// runs each inner run through Eigen packets when the destination and every
// leaf are unit-stride or broadcast (stride 0) along it; a scalar loop otherwise.
#pragma once

#include "../../expr/traverse.hpp"
#include "../../iter/loop.hpp"
#include "../../iter/parallel.hpp"
#include "../../iter/tile.hpp"
#include "node_eval.hpp"

#include <array>

namespace t7 {

namespace cpu {

template <bool AllUnit, class T, class B>
T7_INLINE void packet_loop(T* T7_RESTRICT out, const B& b, int64_t n) {
    constexpr int P = packet_size<T>;
    int64_t i = 0;
    for (; i + P <= n; i += P) ei::pstoreu(out + i, packet_at<AllUnit>(b, i));
    for (; i < n; ++i) out[i] = scalar_at(b, i);
}

// How a run's leaves stride: packets need unit or zero strides (and a unit-
// stride destination); all-unit runs skip the broadcast test per packet.
enum class RunKind { scalar, packets, unit_packets };

// Evaluates n elements of the bound tree b (of node type E) into out[0],
// out[os], ... for one run.
template <class E, class T, class B>
T7_INLINE void assign_run(T* T7_RESTRICT out, int64_t os, const B& b, int64_t n, RunKind kind) {
    if constexpr (vectorizable_v<E, T>) {
        if (kind == RunKind::unit_packets) return packet_loop<true>(out, b, n);
        if (kind == RunKind::packets) return packet_loop<false>(out, b, n);
    }
    for (int64_t i = 0; i < n; ++i) out[i * os] = convert<T>(scalar_at(b, i));
}

template <size_t N>
RunKind run_kind(const iter::Loop<N>& L, size_t first_leaf, bool unit_out) {
    bool unit = true, packets = unit_out;
    for (size_t k = first_leaf; k < N; ++k) {
        unit = unit && L.inner_stride(k) == 1;
        packets = packets && (L.inner_stride(k) == 0 || L.inner_stride(k) == 1);
    }
    return !packets ? RunKind::scalar : (unit ? RunKind::unit_packets : RunKind::packets);
}

// Operand table of one evaluation: pointers and broadcast strides, operand 0
// being the destination (or nothing, for reductions that write no tensor).
template <size_t N>
struct Operands {
    std::array<const void*, N> base{};
    std::array<Shape, N> strides;
    std::array<int, N> elem_size{};
};

template <size_t First, class E, size_t N>
void collect_leaves(const E& e, const Shape& shape, Operands<N>& ops) {
    size_t k = First;
    for_each_leaf(e, [&](const auto& leaf) {
        const auto& t = leaf.tensor;
        ops.base[k] = t.data();
        detail::broadcast_strides_into(ops.strides[k], t.sizes(), t.strides(), shape);
        ops.elem_size[k] = int(sizeof(typename std::remove_cvref_t<decltype(leaf)>::value_type));
        ++k;
    });
}

template <size_t N>
iter::Loop<N> plan(const Shape& shape, const Operands<N>& ops) {
    std::array<const Shape*, N> st;
    for (size_t k = 0; k < N; ++k) st[k] = &ops.strides[k];
    return iter::make_loop<N>(shape, st);
}

// Fast path (TensorIterator's "contiguous" case): the destination and every
// leaf are contiguous with the destination's shape, so the whole assignment
// is one flat unit-stride run and needs no loop plan.
template <size_t N, class T, class E>
bool flat_operands(const Tensor<T, CPU>& dst, const E& e, std::array<const char*, N>& base,
                   std::array<int64_t, N>& elem_size) {
    if (!dst.isContiguous()) return false;
    bool flat = true;
    size_t k = 1;
    for_each_leaf(e, [&](const auto& leaf) {
        const auto& t = leaf.tensor;
        flat = flat && t.sizes() == dst.sizes() && t.isContiguous();
        base[k] = reinterpret_cast<const char*>(t.data());
        elem_size[k++] = int64_t(sizeof(*t.data()));
    });
    return flat;
}

struct AssignEvaluator {
    // dst has the final shape, e broadcasts to it, and they do not alias harmfully.
    template <class T, class E>
    static void run_assign(const Tensor<T, CPU>& dst, const E& e) {
        constexpr size_t N = size_t(E::leaves) + 1;
        if (dst.dim() == 0) return;
        T* out = dst.data();

        std::array<const char*, N> flat_base;
        std::array<int64_t, N> elem_size;
        if (flat_operands(dst, e, flat_base, elem_size)) {
            const std::array<int64_t, N> ones = [] {
                std::array<int64_t, N> a;
                a.fill(1);
                return a;
            }();
            iter::parallel_for(
                dst.nElement(), iter::parallel_grain, [&](int64_t begin, int64_t end, int64_t) {
                    std::array<const void*, N> ptr;
                    for (size_t k = 1; k < N; ++k) ptr[k] = flat_base[k] + begin * elem_size[k];
                    const auto b = bind<0>(e, RunArgs{ptr.data() + 1, ones.data() + 1});
                    assign_run<E>(out + begin, 1, b, end - begin, RunKind::unit_packets);
                });
            return;
        }

        const Shape& shape = dst.sizes();
        cpu::Operands<N> ops;
        ops.base[0] = dst.data();
        ops.strides[0] = dst.strides();
        ops.elem_size[0] = int(sizeof(T));
        cpu::collect_leaves<1>(e, shape, ops);
        const iter::Loop<N> L = cpu::plan(shape, ops);

        const RunKind kind = run_kind(L, 1, L.inner_stride(0) == 1);
        std::array<int64_t, N> inner;
        for (size_t k = 0; k < N; ++k) inner[k] = L.inner_stride(k);

        auto run = [&](const std::array<int64_t, N>& off, int64_t n) {
            std::array<const void*, N> ptr;
            for (size_t k = 1; k < N; ++k)
                ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
            const auto b = bind<0>(e, RunArgs{ptr.data() + 1, inner.data() + 1});
            assign_run<E>(out + off[0], inner[0], b, n, kind);
        };
        if (iter::wants_tiling(L)) {
            const int64_t units = iter::tile_units(L);
            const int64_t grain =
                std::max<int64_t>(1, iter::parallel_grain / (iter::tile_size * iter::tile_size));
            iter::parallel_for(units, grain, [&](int64_t b, int64_t end, int64_t) {
                iter::for_each_tiled_run(L, b, end, run);
            });
        } else {
            iter::parallel_for(L.numel, iter::parallel_grain, [&](int64_t b, int64_t end, int64_t) {
                iter::for_each_run(L, b, end, run);
            });
        }
    }
};

} // namespace cpu
} // namespace t7
