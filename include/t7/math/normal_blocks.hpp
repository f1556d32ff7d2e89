// Normal floats straight from Philox blocks in AVX2 registers (CPU only): the words
// of eight blocks never reach memory; Box-Muller runs on them lane-wise and the
// values are stored once, in stream order. Every lane repeats box_muller_f32
// (distributions.hpp) operation by operation (the same IEEE operations in the
// same order, each fma a single vfmadd), so the values are the same bits as the
// scalar pair, the strided path and the GPU kernels; tests/test_normal_bulk.cpp
// compares them over all 2^24 uniforms of each word.
#pragma once

#include "distributions.hpp"
#include "philox.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numbers>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

namespace t7::rng::avx2 {

T7_INLINE __m256 splat(float v) { return _mm256_set1_ps(v); }
T7_INLINE __m256i splat_i(int32_t v) { return _mm256_set1_epi32(v); }
T7_INLINE __m256 fma(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
T7_INLINE __m256 as_float(__m256i v) { return _mm256_castsi256_ps(v); }
T7_INLINE __m256i as_int(__m256 v) { return _mm256_castps_si256(v); }

// N registers computed by one statement: fn(0) .. fn(N - 1) in turn. Each step of
// the formula below runs on all N registers before the next step, so N independent
// dependency chains are interleaved in the instruction stream (one Box-Muller is a
// chain of about 60 dependent operations: alone it is latency-bound, and GCC does
// not reorder instructions on x86).
template <int N, class Fn>
T7_INLINE auto each(Fn fn) {
    std::array<decltype(fn(0)), N> r;
    for (int j = 0; j < N; ++j) r[size_t(j)] = fn(j);
    return r;
}

// box_muller_f32 on the 8N pairs (w0[j][l], w1[j][l]); see there for the formula.
template <int N>
T7_INLINE void box_muller(const __m256i* w0, const __m256i* w1, __m256* z0, __m256* z1) {
    // log(u1)
    const auto u1 = each<N>([&](int j) {
        return _mm256_mul_ps(
            _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(w0[j], 8)), splat(0.5f)),
            splat(0x1p-24f));
    });
    const auto e = each<N>([&](int j) {
        return _mm256_srai_epi32(_mm256_sub_epi32(as_int(u1[j]), splat_i(0x3f3504f3)), 23);
    });
    const auto x = each<N>([&](int j) {
        return _mm256_sub_ps(as_float(_mm256_sub_epi32(as_int(u1[j]), _mm256_slli_epi32(e[j], 23))),
                             splat(1.0f));
    });
    const auto z = each<N>([&](int j) { return _mm256_mul_ps(x[j], x[j]); });
    auto p = each<N>([&](int) { return splat(7.0376836292e-2f); });
    for (const float c : {-1.1514610310e-1f, 1.1676998740e-1f, -1.2420140846e-1f, 1.4249322787e-1f,
                          -1.6668057665e-1f, 2.0000714765e-1f, -2.4999993993e-1f, 3.3333331174e-1f})
        for (int j = 0; j < N; ++j) p[j] = fma(p[j], x[j], splat(c));
    const auto fe = each<N>([&](int j) { return _mm256_cvtepi32_ps(e[j]); });
    auto y = each<N>([&](int j) {
        return fma(_mm256_mul_ps(p[j], x[j]), z[j], _mm256_mul_ps(fe[j], splat(-2.12194440e-4f)));
    });
    for (int j = 0; j < N; ++j) y[j] = fma(splat(-0.5f), z[j], y[j]);
    // r = sqrt(-2 log u1): the same Newton steps (fnmadd(a, b, c) = fma(-a, b, c)
    // exactly: negation is exact and rounding symmetric)
    const auto r2 = each<N>([&](int j) {
        const __m256 lg = fma(fe[j], splat(0.693359375f), _mm256_add_ps(x[j], y[j]));
        return _mm256_mul_ps(splat(-2.0f), lg);
    });
    auto ri = each<N>([&](int j) {
        return as_float(_mm256_sub_epi32(splat_i(0x5f375a86), _mm256_srai_epi32(as_int(r2[j]), 1)));
    });
    const auto h = each<N>([&](int j) { return _mm256_mul_ps(splat(0.5f), r2[j]); });
    for (int step = 0; step < 2; ++step)
        for (int j = 0; j < N; ++j)
            ri[j] = _mm256_mul_ps(ri[j],
                                  _mm256_fnmadd_ps(_mm256_mul_ps(h[j], ri[j]), ri[j], splat(1.5f)));
    const auto r = each<N>([&](int j) {
        const __m256 r0 = _mm256_mul_ps(r2[j], ri[j]);
        return fma(_mm256_mul_ps(splat(0.5f), ri[j]), _mm256_fnmadd_ps(r0, r0, r2[j]), r0);
    });
    // quadrant q and the reduced angle t
    const auto q = each<N>([&](int j) {
        const __m256i k = _mm256_srli_epi32(w1[j], 8);
        return _mm256_srai_epi32(_mm256_add_epi32(k, splat_i(1 << 21)), 22);
    });
    const auto t = each<N>([&](int j) {
        const __m256i k = _mm256_srli_epi32(w1[j], 8);
        return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(k, _mm256_slli_epi32(q[j], 22))),
                             splat(2.0f * std::numbers::pi_v<float> * 0x1p-24f));
    });
    const auto t2 = each<N>([&](int j) { return _mm256_mul_ps(t[j], t[j]); });
    auto sp = each<N>(
        [&](int j) { return fma(splat(-1.9515295891e-4f), t2[j], splat(8.3321608736e-3f)); });
    auto cp = each<N>([&](int j) {
        return fma(splat(2.443315711809948e-5f), t2[j], splat(-1.388731625493765e-3f));
    });
    for (int j = 0; j < N; ++j) {
        sp[j] = fma(sp[j], t2[j], splat(-1.6666654611e-1f));
        cp[j] = fma(cp[j], t2[j], splat(4.166664568298827e-2f));
    }
    for (int j = 0; j < N; ++j) {
        const __m256 sn = fma(_mm256_mul_ps(sp[j], t2[j]), t[j], t[j]);
        const __m256 cs =
            fma(_mm256_mul_ps(cp[j], t2[j]), t2[j], fma(splat(-0.5f), t2[j], splat(1.0f)));
        // rotate by q quarter turns: odd q swaps, q = 1, 2 negate cos, q = 2, 3 sin
        const __m256 swap = as_float(_mm256_slli_epi32(q[j], 31)); // sign bit: q & 1
        const __m256 c0 = _mm256_blendv_ps(cs, sn, swap), s0 = _mm256_blendv_ps(sn, cs, swap);
        const __m256i two = splat_i(2);
        const __m256i cneg =
            _mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(q[j], splat_i(1)), two), 30);
        const __m256i sneg = _mm256_slli_epi32(_mm256_and_si256(q[j], two), 30);
        z0[j] = _mm256_mul_ps(r[j], _mm256_xor_ps(c0, as_float(cneg)));
        z1[j] = _mm256_mul_ps(r[j], _mm256_xor_ps(s0, as_float(sneg)));
    }
}

// mu + sd z for the values of blocks c0 .. c0 + 8K - 1 (four per block: the pairs
// of words 0, 1 and 2, 3) into out[0 .. 32K), in stream order.
template <int K>
T7_INLINE void normal_blocks(uint64_t key, uint64_t c0, __m256 sd, __m256 mu, float* out) {
    __m256i x[4][K];
    philox::avx2::generate<K>(key, c0, x[0], x[1], x[2], x[3]);
    // both pairs of every block: 2K independent chains
    __m256i w0[2 * K], w1[2 * K];
    for (int q = 0; q < K; ++q)
        w0[q] = x[0][q], w1[q] = x[1][q], w0[K + q] = x[2][q], w1[K + q] = x[3][q];
    __m256 z0[2 * K], z1[2 * K];
    box_muller<2 * K>(w0, w1, z0, z1);
    for (int q = 0; q < K; ++q)
        philox::avx2::store_transposed(as_int(fma(z0[q], sd, mu)), as_int(fma(z1[q], sd, mu)),
                                       as_int(fma(z0[K + q], sd, mu)),
                                       as_int(fma(z1[K + q], sd, mu)), out + 32 * q);
}

} // namespace t7::rng::avx2
#endif

namespace t7::rng {

// The values of nb whole Philox blocks from block c0 into out[0 .. 4 nb) (two
// pairs per block): what Normal<float> gives for those words, without storing the
// words. The CPU engine (random.hpp) calls a distribution's `from_blocks` wherever
// a contiguous run starts on a block.
inline void from_blocks(const Normal<float>& f, uint64_t key, uint64_t c0, int64_t nb, float* out) {
    uint64_t c = c0;
    const uint64_t end = c0 + uint64_t(nb);
#if defined(__AVX2__) && defined(__FMA__)
    const __m256 sd = _mm256_set1_ps(float(f.stdv)), mu = _mm256_set1_ps(float(f.mean));
    for (; end - c >= 32; c += 32, out += 128) avx2::normal_blocks<4>(key, c, sd, mu, out);
    for (; end - c >= 8; c += 8, out += 32) avx2::normal_blocks<1>(key, c, sd, mu, out);
#endif
    // the rest through the words in memory and the pair loop (vectorised by the
    // compiler where there is no AVX2 code above)
    uint32_t w[4 * 16 + 8];
    for (; c != end;) {
        const int64_t n = std::min<int64_t>(16, int64_t(end - c));
        philox::blocks(key, c, n, w);
        f.bulk(w, 2 * n, out);
        c += uint64_t(n), out += 4 * n;
    }
}

} // namespace t7::rng
