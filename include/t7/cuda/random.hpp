// Random fills of CUDA tensors: RandomEngine<CUDA> reserves the generator range the
// CPU engine would reserve for the same draw and hands (seed, first block, layout)
// to the library (kernels/random.cu), whose kernel runs the very functors of
// math/distributions.hpp. After t7::manualSeed(s), the same sequence of fills
// gives the same values on the CPU and on every GPU: bit for bit for uniform and
// bernoulli; float normal runs the same branch-free float formula on both (nvcc
// may still fuse a multiply and an add the host rounds twice: the last bits), double
// normal goes through log/sqrt/sin/cos, whose last bits may differ between the
// host's libm and CUDA's (a few units in the last place).
//
// Only declarations of the library are needed here (no CUDA header): host code
// compiled by g++ fills CUDA tensors as well.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../eval/thrust/indexer.hpp"
#include "../math/random.hpp"

#include <concepts>
#include <type_traits>

namespace t7::detail {

// The library's name and parameters of a distribution functor; defined for the
// distributions the library has kernels for.
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Uniform<T>& f) {
    return {cuda::rt::RandomKind::uniform, {f.a, f.scale}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Normal<T>& f) {
    return {cuda::rt::RandomKind::normal, {f.mean, f.stdv}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Bernoulli<T>& f) {
    return {cuda::rt::RandomKind::bernoulli, {f.p, 0}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::RandomInt<T>& f) {
    cuda::rt::RandomDraw d{cuda::rt::RandomKind::integer, {0, 0}};
    d.lo = f.lo;
    d.n = f.n;
    return d;
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Exponential<T>& f) {
    return {cuda::rt::RandomKind::exponential, {f.lambda, 0}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Cauchy<T>& f) {
    return {cuda::rt::RandomKind::cauchy, {f.median, f.sigma}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::LogNormal<T>& f) {
    return {cuda::rt::RandomKind::lognormal, {f.mean, f.stdv}};
}
template <class T>
cuda::rt::RandomDraw erased_draw(const rng::Geometric<T>& f) {
    return {cuda::rt::RandomKind::geometric, {f.p, 0}};
}
inline cuda::rt::RandomDraw erased_draw(const rng::Word01&) {
    return {cuda::rt::RandomKind::word01, {0, 0}};
}

// A distribution the GPU library can draw from.
template <class Dist>
concept CudaDistribution = requires(const Dist& f) {
    { erased_draw(f) } -> std::same_as<cuda::rt::RandomDraw>;
};

template <>
struct RandomEngine<CUDA> {
    // Fills x (any layout) in its row-major order: value i goes to the i-th element.
    template <class T, CudaDistribution Dist>
    static void fill(const Tensor<T, CUDA>& x, const Dist& f, Generator& gen) {
        const int64_t n = x.nElement();
        if (n == 0) return;
        // Planned before the generator advances: a layout the GPU cannot index throws first.
        const Shape unused(x.sizes().size(), 0);
        const cuda::rt::Strided2 s =
            gpu::plan_strided2(x.sizes(), x.strides(), unused, "random fill", false);
        cuda::rt::RandomDraw draw = erased_draw(f);
        const RNGState st = gen.reserve(draw_blocks<Dist>(n));
        draw.seed = st.seed;
        draw.block = st.offset;
        cuda::rt::random_fill(x.data(), dtype_of<T>(), draw, s, x.getDevice());
    }
};

} // namespace t7::detail
