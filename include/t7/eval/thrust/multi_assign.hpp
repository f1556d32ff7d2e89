// Several outputs in one pass on the device: one launch over the common
// shape; per element every right side is computed, then every output stored.
// Operands 0..K-1 are the outputs, K.. the leaves of every right side (bound
// from K on, right side after right side), planned as one assignment is
// (eval/thrust/assign.hpp): plain indices when all are contiguous alike, an
// Indexer otherwise.
#pragma once

#include "../multi_assign.hpp"
#include "evaluator.hpp"

#include <array>
#include <utility>

#if defined(T7_THRUST_FUSED)
namespace t7::gpu {

template <size_t J, class H, class... R>
T7_HOST_DEVICE T7_INLINE auto& get_mut(Pack<H, R...>& p) {
    if constexpr (J == 0)
        return p.head;
    else
        return get_mut<J - 1>(p.tail);
}

// Element o of every right side, then the stores (out_at: where output J goes).
template <class... T, class... B, class O, class W, size_t... J>
T7_HOST_DEVICE T7_INLINE void multi_store(const Pack<T*...>& out, const Pack<B...>& tree,
                                          const O& o, const W& out_at, std::index_sequence<J...>) {
    Pack<T...> v;
    ((get_mut<J>(v) = convert<T>(value(get<J>(tree), o))), ...);
    ((get<J>(out)[out_at.template at<int(J)>()] = get<J>(v)), ...);
}

template <class OutP, class TreeP, size_t K>
struct MultiLinear {
    OutP out;
    TreeP tree;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        const LinearAt at{i};
        multi_store(out, tree, at, at, std::make_index_sequence<K>{});
    }
};

template <class OutP, class TreeP, size_t K, size_t N>
struct MultiStrided {
    OutP out;
    TreeP tree;
    Indexer<N> ix;
    T7_HOST_DEVICE void operator()(int64_t i) const {
        OffsetsAt<N> o{};
        ix.add_offsets(i, o.off);
        multi_store(out, tree, o, o, std::make_index_sequence<K>{});
    }
};

template <class... A, size_t... J>
void fused_multi_assign(const detail::MultiArgs& a, std::index_sequence<J...>) {
    constexpr size_t K = sizeof...(A);
    constexpr size_t L = (size_t(A::expr_type::leaves) + ... + 0);
    constexpr size_t N = K + L;
    const Shape& shape = *a.shape;
    if (shape.numel() == 0) return;
    std::array<Shape, N> strides;
    for (size_t k = 0; k < K; ++k) strides[k] = *a.targets[k].strides;
    for (size_t l = 0; l < L; ++l)
        strides[K + l] = detail::broadcast_strides(*a.leaves[l].sizes, *a.leaves[l].strides, shape);
    const iter::Loop<N> Lp = plan_loop<N>(shape, strides);
    cuda::DeviceGuard guard(a.device);
    constexpr auto off = leaf_offsets<typename A::expr_type...>();
    const auto out = make_pack(
        static_cast<device_t<typename A::value_type>*>(const_cast<void*>(a.targets[J].data))...);
    const auto tree =
        make_pack(bind<int(K) + off[J]>(*static_cast<const typename A::expr_type*>(a.exprs[J]))...);
    using OutP = std::remove_const_t<decltype(out)>;
    using TreeP = std::remove_const_t<decltype(tree)>;
    if (is_linear(Lp))
        for_each_index(Lp.numel, MultiLinear<OutP, TreeP, K>{out, tree}, "assign");
    else
        for_each_index(Lp.numel,
                       MultiStrided<OutP, TreeP, K, N>{out, tree, make_indexer(Lp, "assign")},
                       "assign");
}

} // namespace t7::gpu
#endif

namespace t7 {

template <>
struct MultiAssignEvaluator<CUDA> {
    // The targets have the common shape; leaves broadcast to it and alias no
    // target harmfully (eval/multi_assign.hpp decided).
    template <class... A>
    static void run(const detail::MultiArgs& a) {
#if defined(T7_THRUST_FUSED)
        gpu::fused_multi_assign<A...>(a, std::index_sequence_for<A...>{});
#else
        static_assert(gpu::dependent_false<detail::MultiArgs*(A * ...)>,
                      "t7: t7::assign on CUDA tensors runs as a fused Thrust kernel: compile "
                      "this translation unit with nvcc and include <t7/cuda.hpp>");
        (void)a;
#endif
    }
};

} // namespace t7
