// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy
// as 1, 2, 3", SC'11), the counter-based generator of cuRAND and PyTorch. Block
// c of a stream with key k is philox(counter = {lo(c), hi(c), 0, 0}, key = {lo(k),
// hi(k)}): four 32-bit words that depend only on (k, c). Any thread (or a GPU)
// can produce any part of a stream, and the result never depends on who did.
#pragma once

#include "../core/config.hpp"

#include <array>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace t7::philox {

inline constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u; // round multipliers
inline constexpr uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u; // key schedule (Weyl)
inline constexpr int rounds = 10;

// The ten rounds on plain words, in place: x is the counter, (k0, k1) the key.
// Plain arrays rather than std::array, so that device code can call it (nvcc
// does not compile std::array's constexpr members for the device).
T7_HOST_DEVICE inline void rounds10(uint32_t* x, uint32_t k0, uint32_t k1) {
    for (int r = 0; r < rounds; ++r) {
        const uint64_t p0 = uint64_t(M0) * x[0], p1 = uint64_t(M1) * x[2];
        const uint32_t x1 = x[1], x3 = x[3];
        x[0] = uint32_t(p1 >> 32) ^ x1 ^ k0;
        x[1] = uint32_t(p1);
        x[2] = uint32_t(p0 >> 32) ^ x3 ^ k1;
        x[3] = uint32_t(p0);
        k0 += W0;
        k1 += W1;
    }
}

// Block `c` of the stream keyed by `key` into out[0 .. 4) (host and device code).
T7_HOST_DEVICE inline void block_words(uint64_t key, uint64_t c, uint32_t* out) {
    out[0] = uint32_t(c);
    out[1] = uint32_t(c >> 32);
    out[2] = 0u;
    out[3] = 0u;
    rounds10(out, uint32_t(key), uint32_t(key >> 32));
}

// The reference function (Random123's philox4x32 with 10 rounds).
inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> x, std::array<uint32_t, 2> k) {
    rounds10(x.data(), k[0], k[1]);
    return x;
}

// Block `c` of the stream keyed by `key`.
inline std::array<uint32_t, 4> block(uint64_t key, uint64_t c) {
    std::array<uint32_t, 4> w;
    block_words(key, c, w.data());
    return w;
}

#if defined(__AVX2__)
namespace avx2 {
// 32x32 -> 64-bit products of all eight lanes, split into high and low halves.
// The low halves by vpmulld: one instruction instead of a shift and a blend (the
// rounds are bound by instruction count: 12% faster on Zen 3).
T7_INLINE void mulhilo(__m256i x, __m256i m, __m256i& hi, __m256i& lo) {
    const __m256i pe = _mm256_mul_epu32(x, m);
    const __m256i po = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), m);
    lo = _mm256_mullo_epi32(x, m);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
}

// Blocks c0 .. c0 + 8K - 1 in registers: lane l of x0[q] .. x3[q] holds the four
// words of block c0 + 8q + l. K independent groups of eight hide the multiplier
// latency. Kept apart from the store so that a consumer (normal floats) can
// transform the words before they ever reach memory.
template <int K>
T7_INLINE void generate(uint64_t key, uint64_t c0, __m256i* x0, __m256i* x1, __m256i* x2,
                        __m256i* x3) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i sign = _mm256_set1_epi32(int(0x80000000u));
    for (int q = 0; q < K; ++q) {
        const uint64_t c = c0 + uint64_t(8 * q);
        const __m256i lo = _mm256_set1_epi32(int(uint32_t(c)));
        x0[q] = _mm256_add_epi32(lo, lanes);
        // a lane whose low word wrapped carries into the high word (unsigned compare)
        const __m256i carry =
            _mm256_cmpgt_epi32(_mm256_xor_si256(lo, sign), _mm256_xor_si256(x0[q], sign));
        x1[q] = _mm256_sub_epi32(_mm256_set1_epi32(int(uint32_t(c >> 32))), carry);
        x2[q] = _mm256_setzero_si256();
        x3[q] = _mm256_setzero_si256();
    }
    const __m256i m0 = _mm256_set1_epi32(int(M0)), m1 = _mm256_set1_epi32(int(M1));
    uint32_t ka = uint32_t(key), kb = uint32_t(key >> 32);
    for (int r = 0; r < rounds; ++r) {
        const __m256i vka = _mm256_set1_epi32(int(ka)), vkb = _mm256_set1_epi32(int(kb));
        for (int q = 0; q < K; ++q) {
            __m256i h0, l0, h1, l1;
            mulhilo(x0[q], m0, h0, l0);
            mulhilo(x2[q], m1, h1, l1);
            x0[q] = _mm256_xor_si256(_mm256_xor_si256(h1, x1[q]), vka);
            x2[q] = _mm256_xor_si256(_mm256_xor_si256(h0, x3[q]), vkb);
            x1[q] = l1;
            x3[q] = l0;
        }
        ka += W0;
        kb += W1;
    }
}

// Stores lane l of a, b, c, d as out[4l .. 4l + 4) (a 4x8 transpose): the stream
// order of eight blocks, or of the values computed lane-wise from them.
T7_INLINE void store_transposed(__m256i a, __m256i b, __m256i c, __m256i d, void* out) {
    const __m256i ab0 = _mm256_unpacklo_epi32(a, b), ab1 = _mm256_unpackhi_epi32(a, b);
    const __m256i cd0 = _mm256_unpacklo_epi32(c, d), cd1 = _mm256_unpackhi_epi32(c, d);
    const __m256i r0 = _mm256_unpacklo_epi64(ab0, cd0), r1 = _mm256_unpackhi_epi64(ab0, cd0);
    const __m256i r2 = _mm256_unpacklo_epi64(ab1, cd1), r3 = _mm256_unpackhi_epi64(ab1, cd1);
    __m256i* o = static_cast<__m256i*>(out);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(r0, r1, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(r2, r3, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(r0, r1, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(r2, r3, 0x31));
}

// Blocks c0 .. c0 + 8K - 1 into out[0 .. 32K) in stream order.
template <int K>
T7_INLINE void blocks(uint64_t key, uint64_t c0, uint32_t* out) {
    __m256i x0[K], x1[K], x2[K], x3[K];
    generate<K>(key, c0, x0, x1, x2, x3);
    for (int q = 0; q < K; ++q) store_transposed(x0[q], x1[q], x2[q], x3[q], out + 32 * q);
}
} // namespace avx2
#endif

// Blocks c0 .. c0 + n - 1 into out[0 .. 4n): the same bits on every path.
inline void blocks(uint64_t key, uint64_t c0, int64_t n, uint32_t* out) {
    uint64_t c = c0;
    const uint64_t end = c0 + uint64_t(n);
#if defined(__AVX2__)
    for (; end - c >= 32; c += 32, out += 128) avx2::blocks<4>(key, c, out);
#endif
    for (; c != end; ++c, out += 4) {
        const auto w = block(key, c);
        for (int l = 0; l < 4; ++l) out[l] = w[size_t(l)];
    }
}

// Words [w, w + n) of the stream (word w is lane w % 4 of block w / 4) into
// scratch, which must hold n + 8 words; returns where word w landed.
inline const uint32_t* words(uint64_t key, uint64_t w, int64_t n, uint32_t* scratch) {
    const uint64_t c0 = w / 4, skip = w % 4;
    blocks(key, c0, int64_t((skip + uint64_t(n) + 3) / 4), scratch);
    return scratch + skip;
}

} // namespace t7::philox
