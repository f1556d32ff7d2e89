// Random distributions as small functors from Philox words to values, shared by
// the CPU engine (math/random.hpp) and the GPU kernels (kernels/random.cu): the
// same code runs on both, so a seed gives the same tensor on every device.
//
// A distribution turns `words` 32-bit words into `group` values. `words` divides
// 4, so a group never straddles a Philox block (a draw starts on a block). Float
// and Half compute in float from 24-bit uniforms; double and the integer types
// compute in double from 53-bit uniforms.
#pragma once

#include "../core/config.hpp"
#include "../core/dtype.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <type_traits>

namespace t7::rng {

// [0, 1) from the top 24 bits of a word (exact in float).
T7_HOST_DEVICE inline float u24(uint32_t w) { return float(w >> 8) * 0x1p-24f; }
// [0, 1) from 53 bits of two words: v = (w0 << 21 | w1 >> 11), times 2^-53, exact.
// Built from its high 21 and low 32 bits (the low half through the 2^52 bit
// pattern) so that it vectorises without 64-bit integer conversions (AVX-512).
T7_HOST_DEVICE inline double u53(const uint32_t* w) {
    const int32_t hi = int32_t(w[0] >> 11);
    const uint64_t lo = (uint64_t(w[0] & 0x7ffu) << 21) | uint64_t(w[1] >> 11);
#if defined(__CUDA_ARCH__) // std::bit_cast is a host function for nvcc
    const double low = __longlong_as_double(int64_t(0x4330000000000000ull | lo)) - 0x1p52;
#else
    const double low = std::bit_cast<double>(0x4330000000000000ull | lo) - 0x1p52;
#endif
    return (double(hi) * 0x1p32 + low) * 0x1p-53;
}

// True when T's values are computed in float (float, and Half through float).
template <class T>
inline constexpr bool in_float = std::is_same_v<compute_t<T>, float>;

// a + (b - a) u. std::fma rounds once, identically in vector and scalar code, so a
// value never depends on where a chunk boundary fell.
template <class T>
struct Uniform {
    static constexpr bool f32 = in_float<T>;
    static constexpr int group = 1, words = f32 ? 1 : 2;
    double a, scale;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        if constexpr (f32)
            out[0] = convert<T>(std::fma(u24(w[0]), float(scale), float(a)));
        else
            out[0] = convert<T>(std::fma(u53(w), scale, a));
    }
};

// Bit casts that nvcc's device code accepts as well.
T7_HOST_DEVICE inline int32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
    return __float_as_int(x);
#else
    return std::bit_cast<int32_t>(x);
#endif
}
T7_HOST_DEVICE inline float bits_float(int32_t i) {
#if defined(__CUDA_ARCH__)
    return __int_as_float(i);
#else
    return std::bit_cast<float>(i);
#endif
}

// One Box-Muller pair in float from two words, branch-free and in plain float
// arithmetic (Cephes' minimax polynomials, every multiply-add an explicit fma), so
// that a loop over pairs vectorises and each lane gives exactly the scalar result:
//   r = sqrt(-2 log u1), u1 = (w0 / 2^8 + 1/2) / 2^24 in (0, 1);
//   (cos, sin)(2 pi u2), u2 = (w1 / 2^8) / 2^24, reduced exactly to a quadrant q and
//   x = 2 pi (u2 - q / 4) in [-pi/4, pi/4].
// Accuracy: log, sin and cos within about 2 ulp of the exact values.
T7_HOST_DEVICE T7_INLINE void box_muller_f32(uint32_t w0, uint32_t w1, float& z0, float& z1) {
    // log(u1): u1 = m 2^e with m in [sqrt(1/2), sqrt(2)), log(u1) = log(m) + e log 2
    const float u1 = (float(int32_t(w0 >> 8)) + 0.5f) * 0x1p-24f;
    const int32_t bits = float_bits(u1);
    const int32_t e = (bits - 0x3f3504f3) >> 23; // arithmetic shift: floor
    const float x = bits_float(bits - (e << 23)) - 1.0f;
    const float z = x * x;
    float p = 7.0376836292e-2f;
    p = std::fma(p, x, -1.1514610310e-1f);
    p = std::fma(p, x, 1.1676998740e-1f);
    p = std::fma(p, x, -1.2420140846e-1f);
    p = std::fma(p, x, 1.4249322787e-1f);
    p = std::fma(p, x, -1.6668057665e-1f);
    p = std::fma(p, x, 2.0000714765e-1f);
    p = std::fma(p, x, -2.4999993993e-1f);
    p = std::fma(p, x, 3.3333331174e-1f);
    const float fe = float(e);
    float y = std::fma(p * x, z, fe * -2.12194440e-4f);
    y = std::fma(-0.5f, z, y);
    const float lg = std::fma(fe, 0.693359375f, x + y); // log(u1) < 0
    // r = sqrt(-2 log(u1)) by Newton steps on 1/sqrt from the bit-trick estimate (the
    // library sqrt may set errno, which keeps compilers from vectorising the loop)
    // r2 is in [6e-8, 36], or a tiny negative value where the polynomial rounds
    // log(u1) up to a positive for u1 near 1: the estimate's subtraction wraps as
    // the vector code's does (unsigned: no overflow), and r comes out near 0.
    const float r2 = -2.0f * lg;
    float ri = bits_float(int32_t(0x5f375a86u - uint32_t(float_bits(r2) >> 1)));
    const float h = 0.5f * r2;
    ri = ri * std::fma(-h * ri, ri, 1.5f);
    ri = ri * std::fma(-h * ri, ri, 1.5f);
    float r = r2 * ri;
    r = std::fma(0.5f * ri, std::fma(-r, r, r2), r);
    // quadrant of u2 from its 24 bits k: q = round(4 k / 2^24), f = k - q 2^22
    const int32_t k = int32_t(w1 >> 8);
    const int32_t q = (k + (1 << 21)) >> 22;
    const float t = float(k - (q << 22)) * (2.0f * std::numbers::pi_v<float> * 0x1p-24f);
    const float t2 = t * t;
    float sp = -1.9515295891e-4f;
    sp = std::fma(sp, t2, 8.3321608736e-3f);
    sp = std::fma(sp, t2, -1.6666654611e-1f);
    const float sn = std::fma(sp * t2, t, t);
    float cp = 2.443315711809948e-5f;
    cp = std::fma(cp, t2, -1.388731625493765e-3f);
    cp = std::fma(cp, t2, 4.166664568298827e-2f);
    const float cs = std::fma(cp * t2, t2, std::fma(-0.5f, t2, 1.0f));
    // rotate by q quarter turns: (cos, sin)(x + q pi/2)
    // (bit selects rather than branches: odd q swaps, q = 1, 2 negate cos, q = 2, 3 sin)
    const int32_t swap = -(q & 1), sb = float_bits(sn), cb = float_bits(cs);
    const int32_t c0 = (sb & swap) | (cb & ~swap), s0 = (cb & swap) | (sb & ~swap);
    const int32_t cneg = ((q + 1) & 2) << 30, sneg = (q & 2) << 30;
    z0 = r * bits_float(c0 ^ cneg);
    z1 = r * bits_float(s0 ^ sneg);
}

// Box-Muller: one pair of uniforms gives two normal values. Float and Half use the
// branch-free float pair above (the CPU engine runs it over whole blocks through
// `bulk`, vectorised); double uses the C library's log, sqrt, sin and cos, whose
// last bits may differ between the host's libm and CUDA's.
template <class T>
struct Normal {
    static constexpr bool f32 = in_float<T>;
    static constexpr int group = 2, words = f32 ? 2 : 4;
    double mean, stdv;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        if constexpr (f32) {
            float z0, z1;
            box_muller_f32(w[0], w[1], z0, z1);
            out[0] = convert<T>(std::fma(z0, float(stdv), float(mean)));
            out[1] = convert<T>(std::fma(z1, float(stdv), float(mean)));
        } else {
            const double u1 = u53(w) + 0x1p-54;
            const double th = 2.0 * std::numbers::pi * u53(w + 2);
            const double r = std::sqrt(-2.0 * std::log(u1));
            out[0] = convert<T>(std::fma(r * std::cos(th), stdv, mean));
            out[1] = convert<T>(std::fma(r * std::sin(th), stdv, mean));
        }
    }
    // ng groups from w[0 .. 2 ng) into out[0 .. 2 ng) (float only): the same values
    // as operator(), in a loop the compiler vectorises.
    void bulk(const uint32_t* __restrict w, int64_t ng,
              float* __restrict out) const requires std::is_same_v<T, float> {
        const float sd = float(stdv), mu = float(mean);
        constexpr int L = 16; // pairs per step: split words, a lane-wise loop, merge
        int64_t g = 0;
        for (; g + L <= ng; g += L) {
            uint32_t a[L], b[L];
            float z0[L], z1[L];
            for (int j = 0; j < L; ++j) a[j] = w[2 * (g + j)], b[j] = w[2 * (g + j) + 1];
            for (int j = 0; j < L; ++j) box_muller_f32(a[j], b[j], z0[j], z1[j]);
            for (int j = 0; j < L; ++j) {
                out[2 * (g + j)] = std::fma(z0[j], sd, mu);
                out[2 * (g + j) + 1] = std::fma(z1[j], sd, mu);
            }
        }
        for (; g < ng; ++g) {
            float z0, z1;
            box_muller_f32(w[2 * g], w[2 * g + 1], z0, z1);
            out[2 * g] = std::fma(z0, sd, mu);
            out[2 * g + 1] = std::fma(z1, sd, mu);
        }
    }
};

// w / 2^32 in [0, 1), exact in double (what bernoulli compares with p).
struct Word01 {
    static constexpr int group = 1, words = 1;
    T7_HOST_DEVICE void operator()(const uint32_t* w, double* out) const {
        out[0] = double(w[0]) * 0x1p-32;
    }
};

// 1 with probability p: u < p with u = w / 2^32 (exact in double).
template <class T>
struct Bernoulli {
    static constexpr int group = 1, words = 1;
    double p;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        out[0] = convert<T>(double(w[0]) * 0x1p-32 < p ? 1 : 0);
    }
};

// Integers lo + [0, n) from two words (multiply-shift on 64 bits; bias below n / 2^64),
// as T. n >= 1.
template <class T>
struct RandomInt {
    static constexpr int group = 1, words = 2;
    int64_t lo;
    uint64_t n;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        const uint64_t x = (uint64_t(w[0]) << 32) | w[1];
#if defined(__CUDA_ARCH__)
        const uint64_t k = __umul64hi(x, n);
#else
        const uint64_t k = uint64_t((static_cast<unsigned __int128>(x) * n) >> 64);
#endif
        // in uint64 (lo + k overflows int64 for random(INT64_MIN, INT64_MAX)); the
        // sum is in [lo, lo + n), so it fits T
        out[0] = convert<T>(int64_t(uint64_t(lo) + k));
    }
};

// -log(1 - u) / lambda, u in [0, 1) from 53 bits (1 - u is in (0, 1]: finite).
template <class T>
struct Exponential {
    static constexpr int group = 1, words = 2;
    double lambda;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        out[0] = convert<T>(-std::log1p(-u53(w)) / lambda);
    }
};

// median + sigma tan(pi (u - 1/2)), u in (0, 1) (never the pole).
template <class T>
struct Cauchy {
    static constexpr int group = 1, words = 2;
    double median, sigma;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        const double u = u53(w) + 0x1p-54;
        out[0] = convert<T>(median + sigma * std::tan(std::numbers::pi * (u - 0.5)));
    }
};

// exp of Normal(mean, stdv) (mean and stdv of the logarithm, as Torch7's
// THRandom_logNormal and Tensor::logNormal): the same words and formula as Normal.
// Finite parameters give no NaN: a logarithm beyond the double range gives
// +inf or 0.
template <class T>
struct LogNormal {
    static constexpr int group = 2, words = 4;
    double mean, stdv;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        double v[2];
        Normal<double>{mean, stdv}(w, v);
        out[0] = convert<T>(std::exp(v[0]));
        out[1] = convert<T>(std::exp(v[1]));
    }
};

// Torch7's geometric law P(X = i) = (1 - p) p^(i-1), i >= 1:
// 1 + floor(log(1 - u) / log(p)), u in [0, 1). 0 < p < 1.
template <class T>
struct Geometric {
    static constexpr int group = 1, words = 2;
    double p;
    T7_HOST_DEVICE void operator()(const uint32_t* w, T* out) const {
        out[0] = convert<T>(1 + std::floor(std::log1p(-u53(w)) / std::log(p)));
    }
};

} // namespace t7::rng
