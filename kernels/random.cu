// Random fills (RandomEngine<CUDA>, cuda/random.hpp): value i of a draw into the
// i-th element, in row-major order, of a tensor of any layout, computed by the
// distribution functors the CPU engine uses (math/distributions.hpp), so the
// values equal the CPU's for the same seed and generator offset.
//
// One thread per Philox block of the draw: it computes the block's four words
// once and turns them into its 4 / words groups of values. A draw starts on a
// block and `words` divides 4, so no group straddles two blocks, and block b
// holds values [b * per_block, (b + 1) * per_block) of the draw.
//
// Complex tensors take the CPU's functors for std::complex<R> (math/random.hpp:
// every fill but normal writes the distribution's value, computed as for double,
// into the real part and 0 into the imaginary one), here instantiated on
// thrust::complex<R>, which has the same bytes, the same words per value and the
// same conversion (core/dtype.hpp's convert). Tensor::normal draws a complex
// tensor's parts through their real views, so a complex normal fill never reaches
// the library: a complex tag with it is a TypeError.
#include "backend.hpp"

#include <t7/eval/thrust/complex.hpp>
#include <t7/eval/thrust/system.hpp>
#include <t7/math/distributions.hpp>
#include <t7/math/philox.hpp>

#include <complex>
#include <type_traits>

namespace t7::cuda::rt {

namespace {

template <class T, class Dist>
struct RandomBlocks {
    static constexpr int G = Dist::group, W = Dist::words;
    static_assert(W == 1 || W == 2 || W == 4, "a group's words must not straddle Philox blocks");
    static constexpr int groups = 4 / W, per_block = groups * G;

    T* dst;
    Dist f;
    uint64_t seed, block0;
    int64_t n; // values in the draw
    gpu::Indexer<2> ix;
    bool linear;

    T7_HOST_DEVICE void store(int64_t i, T v) const { dst[dst_offset(ix, linear, i)] = v; }
    T7_HOST_DEVICE void operator()(int64_t b) const {
        uint32_t w[4];
        philox::block_words(seed, block0 + uint64_t(b), w);
        T v[per_block];
        for (int g = 0; g < groups; ++g) f(w + g * W, v + g * G);
        const int64_t i0 = b * per_block;
        const int64_t m = n - i0 < per_block ? n - i0 : per_block; // the last block may be short
        for (int64_t k = 0; k < m; ++k) store(i0 + k, v[k]);
    }
};

template <class T, class Dist>
void launch(void* dst, const Dist& f, const RandomDraw& d, const Strided2& s, const char* op) {
    using K = RandomBlocks<T, Dist>;
    const int64_t blocks = (s.numel + K::per_block - 1) / K::per_block;
    gpu::for_each_index(blocks,
                        K{static_cast<T*>(dst), f, d.seed, d.block, s.numel, gpu::make_indexer(s),
                          s.rank == 1 && s.stride[0][0] == 1},
                        op);
}

template <class T>
void random_as(void* dst, DType type, const RandomDraw& d, const Strided2& s) {
    switch (d.kind) {
    case RandomKind::uniform:
        return launch<T>(dst, rng::Uniform<T>{d.param[0], d.param[1]}, d, s, "uniform");
    case RandomKind::normal:
        if constexpr (is_complex_v<T>)
            detail::fail<TypeError>("random fill: a normal fill of a ", dtype_name(type),
                                    " tensor draws its parts as real tensors (Tensor::normal)");
        else
            return launch<T>(dst, rng::Normal<T>{d.param[0], d.param[1]}, d, s, "normal");
    case RandomKind::bernoulli:
        return launch<T>(dst, rng::Bernoulli<T>{d.param[0]}, d, s, "bernoulli");
    case RandomKind::integer:
        return launch<T>(dst, rng::RandomInt<T>{d.lo, d.n}, d, s, "random");
    case RandomKind::exponential:
        return launch<T>(dst, rng::Exponential<T>{d.param[0]}, d, s, "exponential");
    case RandomKind::cauchy:
        return launch<T>(dst, rng::Cauchy<T>{d.param[0], d.param[1]}, d, s, "cauchy");
    case RandomKind::lognormal:
        return launch<T>(dst, rng::LogNormal<T>{d.param[0], d.param[1]}, d, s, "logNormal");
    case RandomKind::geometric:
        return launch<T>(dst, rng::Geometric<T>{d.param[0]}, d, s, "geometric");
    case RandomKind::word01:
        if constexpr (std::is_same_v<T, double>)
            return launch<T>(dst, rng::Word01{}, d, s, "bernoulli");
        else
            detail::fail<TypeError>("random fill: the uniform words fill Double tensors, not ",
                                    dtype_name(type));
    }
    detail::fail<Error>("random fill: unknown distribution ", int(d.kind));
}

} // namespace

void random_fill(void* dst, DType type, const RandomDraw& draw, const Strided2& s, int device) {
    if (s.numel <= 0) return;
    require_device(device, "random fill");
    DeviceGuard guard(device);
    switch (type) {
    case DType::c64:
        return random_as<gpu::device_t<std::complex<float>>>(dst, type, draw, s);
    case DType::c128:
        return random_as<gpu::device_t<std::complex<double>>>(dst, type, draw, s);
    default:
        with_dtype(type, [&](auto v) { random_as<decltype(v)>(dst, type, draw, s); });
    }
}

} // namespace t7::cuda::rt
