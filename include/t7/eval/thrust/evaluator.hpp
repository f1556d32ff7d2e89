// The CUDA backend: Evaluator<CUDA>, the same role as Evaluator<CPU> for the
// same expression nodes, functors and reducers.
//
// * Copies, conversions and fills (a Leaf, cast<T>(Leaf) or a Scalar assigned
//   to a tensor) go to the precompiled library (kernels/): they work from any
//   translation unit, including host code compiled by g++.
// * Every other tree is fused into one launch (assign.hpp, reduce.hpp).
//   Expressions are header templates, so the translation unit that evaluates
//   them must be compiled by nvcc (or by a host compiler with a non-CUDA Thrust
//   device system, as the Thrust host tests are); elsewhere using one is a
//   compile-time error saying so.
#pragma once

#include "../../core/device_kernels.hpp"
#include "../../expr/nodes.hpp"
#include "../../expr/traverse.hpp"
#include "indexer.hpp"

#include <cstring>
#include <type_traits>

// Fused evaluation needs a compiler for the Thrust device system: nvcc, or a
// host compiler when the system is not CUDA (T7_GPU_EMULATED).
#if defined(__CUDACC__) || defined(THRUST_DEVICE_SYSTEM)
#include "config.hpp"
#if defined(__CUDACC__) || T7_GPU_EMULATED
#define T7_THRUST_FUSED 1
#endif
#endif

#if defined(T7_THRUST_FUSED)
#include "assign.hpp"
#include "reduce.hpp"
#endif

namespace t7 {

namespace gpu {

template <class E, class T>
struct erased_kind {
    static constexpr int value = 0; // fused
};
template <class S, class T>
struct erased_kind<Scalar<S>, T> {
    static constexpr int value = 1; // fill
};
template <class U, class T>
struct erased_kind<Leaf<U, CUDA>, T> {
    static constexpr int value = 2; // copy / convert
};
template <class U, class T>
struct erased_kind<Apply<op::cast<T>, Leaf<U, CUDA>>, T> {
    static constexpr int value = 3; // convert
};

template <class T, class U>
void copy_convert(const Tensor<T, CUDA>& dst, const Tensor<U, CUDA>& src) {
    const Shape sst = detail::broadcast_strides(src.sizes(), src.strides(), dst.sizes());
    const cuda::rt::Strided2 s = plan_strided2(dst.sizes(), dst.strides(), sst, "copy");
    cuda::rt::strided_copy(dst.data(), dtype_of<T>(), src.data(), dtype_of<U>(), s,
                           dst.getDevice());
}

template <class T>
void fill(const Tensor<T, CUDA>& dst, T v) {
    const Shape zero(dst.sizes().size(), 0);
    const cuda::rt::Strided2 s = plan_strided2(dst.sizes(), dst.strides(), zero, "fill");
    cuda::rt::fill(dst.data(), int(sizeof(T)), &v, s, dst.getDevice());
}

template <class E>
inline constexpr bool dependent_false = false;

} // namespace gpu

template <>
struct Evaluator<CUDA> {
    // dst has the final shape, e broadcasts to it, and they do not alias harmfully.
    template <class T, class E>
    static void run_assign(const Tensor<T, CUDA>& dst, const E& e) {
        if (dst.dim() == 0 || dst.nElement() == 0) return;
        constexpr int kind = gpu::erased_kind<E, T>::value;
        if constexpr (kind == 1) {
            gpu::fill(dst, convert<T>(e.value));
        } else if constexpr (kind == 2) {
            gpu::copy_convert(dst, e.tensor());
        } else if constexpr (kind == 3) {
            gpu::copy_convert(dst, std::get<0>(e.children).tensor());
        } else {
#if defined(T7_THRUST_FUSED)
            gpu::fused_assign(dst, e);
#else
            static_assert(gpu::dependent_false<E>,
                          "t7: this expression on CUDA tensors runs as a fused Thrust kernel: "
                          "compile this translation unit with nvcc and include <t7/cuda.hpp> "
                          "(host code may only copy, convert and fill CUDA tensors)");
#endif
        }
    }

    // In place along dim: x[i] = op(x[i - 1], x[i]) (cumsum, cumprod).
    template <class T, class Op>
    static void scan(const Tensor<T, CUDA>& x, int64_t dim, Op) {
        static_assert(std::is_same_v<Op, op::add> || std::is_same_v<Op, op::mul>);
        Shape outer = x.sizes();
        outer[size_t(dim)] = 1;
        const Shape unused(outer.size(), 0);
        const cuda::rt::Strided2 lines = gpu::plan_strided2(outer, x.strides(), unused, "scan");
        cuda::rt::scan(dtype_of<T>(), std::is_same_v<Op, op::mul>, x.data(), lines, x.size(dim),
                       x.stride(dim), x.getDevice());
    }

#if defined(T7_THRUST_FUSED)
    template <class R, class E>
    static auto reduce_all(const E& e, const Shape& shape) {
        return gpu::fused_reduce_all<R>(e, shape);
    }
    template <class R, class A, class E>
    static void reduce_into(const Tensor<A, CUDA>& acc, const E& e, const Shape& shape) {
        gpu::fused_reduce_into<R>(acc, e, shape);
    }
    template <class R, class V, class E>
    static void arg_reduce_into(const Tensor<V, CUDA>& vals, const Tensor<int64_t, CUDA>& idx,
                                const E& e, const Shape& shape, int64_t dim) {
        gpu::fused_arg_reduce_into<R>(vals, idx, e, shape, dim);
    }
#else
    template <class R, class E>
    static auto reduce_all(const E&, const Shape&) {
        static_assert(gpu::dependent_false<E>,
                      "t7: reductions of CUDA tensors run as Thrust kernels: compile this "
                      "translation unit with nvcc and include <t7/cuda.hpp>");
        return 0;
    }
    template <class R, class A, class E>
    static void reduce_into(const Tensor<A, CUDA>&, const E&, const Shape&) {
        static_assert(gpu::dependent_false<E>,
                      "t7: reductions of CUDA tensors run as Thrust kernels: compile this "
                      "translation unit with nvcc and include <t7/cuda.hpp>");
    }
    template <class R, class V, class E>
    static void arg_reduce_into(const Tensor<V, CUDA>&, const Tensor<int64_t, CUDA>&, const E&,
                                const Shape&, int64_t) {
        static_assert(gpu::dependent_false<E>,
                      "t7: reductions of CUDA tensors run as Thrust kernels: compile this "
                      "translation unit with nvcc and include <t7/cuda.hpp>");
    }
#endif
};

} // namespace t7
