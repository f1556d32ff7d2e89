// Issue 14: normal floats straight from Philox blocks (math/normal_blocks.hpp)
// must be the bits of the scalar pair box_muller_f32, which the strided path and
// the GPU kernels compute: the AVX2 lanes over every 24-bit uniform of each word
// and the extreme words, then whole fills (every offset, length, thread count and
// the streaming path) against the per-pair functor over the same Philox words.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <bit>
#include <cstring>
#include <vector>

namespace {

using t7::rng::box_muller_f32;

struct ThreadGuard { // restores the thread count at scope exit
    int saved = t7::getNumThreads();
    ~ThreadGuard() { t7::setNumThreads(saved); }
};

// The values Normal<float>{mean, stdv} gives, pair by pair, for n values of the
// stream of `key` from block c0 (the reference of every fill below).
std::vector<float> reference(uint64_t key, uint64_t c0, int64_t n, double mean, double stdv) {
    std::vector<uint32_t> w(size_t(n + 8));
    t7::philox::blocks(key, c0, (n + 3) / 4, w.data());
    std::vector<float> v(size_t(n + 1));
    const t7::rng::Normal<float> f{mean, stdv};
    for (int64_t i = 0; i < n; i += 2) f(&w[size_t(i)], &v[size_t(i)]);
    v.resize(size_t(n));
    return v;
}

bool same_bits(const float* a, const float* b, int64_t n) {
    return std::memcmp(a, b, size_t(n) * sizeof(float)) == 0;
}

#if defined(__AVX2__) && defined(__FMA__)
// Runs the AVX2 pairs on w0[0 .. n), w1[0 .. n) (n a multiple of 32) and counts
// the pairs whose bits differ from box_muller_f32's.
int64_t mismatches(const std::vector<uint32_t>& w0, const std::vector<uint32_t>& w1) {
    int64_t bad = 0;
    for (size_t i = 0; i < w0.size(); i += 32) {
        __m256i a[4], b[4];
        __m256 z0[4], z1[4];
        for (int j = 0; j < 4; ++j) {
            a[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&w0[i + 8 * size_t(j)]));
            b[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&w1[i + 8 * size_t(j)]));
        }
        t7::rng::avx2::box_muller<4>(a, b, z0, z1);
        float v0[32], v1[32];
        for (int j = 0; j < 4; ++j)
            _mm256_storeu_ps(v0 + 8 * j, z0[j]), _mm256_storeu_ps(v1 + 8 * j, z1[j]);
        for (size_t l = 0; l < 32; ++l) {
            float s0, s1;
            box_muller_f32(w0[i + l], w1[i + l], s0, s1);
            if (std::memcmp(&s0, &v0[l], 4) != 0 || std::memcmp(&s1, &v1[l], 4) != 0) {
                if (bad < 5)
                    MESSAGE("words ", w0[i + l], ", ", w1[i + l], ": scalar bits ",
                            std::bit_cast<uint32_t>(s0), ", ", std::bit_cast<uint32_t>(s1),
                            ", vector bits ", std::bit_cast<uint32_t>(v0[l]), ", ",
                            std::bit_cast<uint32_t>(v1[l]));
                ++bad;
            }
        }
    }
    return bad;
}
#endif

} // namespace

#if defined(__AVX2__) && defined(__FMA__)
TEST_CASE("normal (float): the AVX2 pairs are the scalar pair's bits for every uniform") {
    // r depends only on w0 >> 8 and (cos, sin) only on w1 >> 8, and the values are
    // their products (one rounding): every 24-bit uniform of both words, the low
    // bytes varied, covers every r and every angle. k -> k * odd mod 2^24 is a
    // permutation, so w1 takes every angle paired with other radii.
#if defined(T7_TEST_SANITIZED)
    const uint32_t step = 61; // the -O0 sanitized build: a spread sample
#else
    const uint32_t step = 1;
#endif
    std::vector<uint32_t> w0, w1;
    for (uint32_t k = 0; k < (1u << 24); k += step) {
        w0.push_back(k << 8 | (k & 0xffu));
        w1.push_back(((k * 0x9E3779B1u) & 0xffffffu) << 8 | ((k >> 5) & 0xffu));
    }
    // the extremes and the edges: words 0 and 0xffffffff, quadrant edges (k = q 2^22)
    // and rounding edges (k = q 2^22 + 2^21) of the angle, the radius around u1 = 1/2
    // and sqrt(1/2) (where the exponent of the log's reduction steps)
    std::vector<uint32_t> edges = {0u,          1u,          0xffu,       0x100u,      0xffffffffu,
                                   0xffffff00u, 0xfffffeffu, 0x80000000u, 0x7fffffffu, 0x7fffff00u,
                                   0xb504f300u, 0xb504f400u, 0xb504f200u};
    for (uint32_t q = 0; q <= 4; ++q)
        for (int32_t d = -2; d <= 2; ++d) {
            edges.push_back(uint32_t((int64_t(q) << 22) + d) << 8 & 0xffffff00u);
            edges.push_back(uint32_t((int64_t(q) << 22) + (1 << 21) + d) << 8 & 0xffffff00u);
        }
    for (uint32_t a : edges)
        for (uint32_t b : edges) w0.push_back(a), w1.push_back(b);
    while (w0.size() % 32 != 0) w0.push_back(0xffffffffu), w1.push_back(0u);
    CHECK(mismatches(w0, w1) == 0);
    // the extremes give finite values of the expected size: u1 = 2^-25 gives the
    // largest radius, sqrt(50 log 2) = 5.887
    float z0, z1;
    box_muller_f32(0u, 0u, z0, z1);
    CHECK(z0 == doctest::Approx(5.887).epsilon(1e-3));
    CHECK(z1 == 0.0f);
    box_muller_f32(0xffffffffu, 0xffffffffu, z0, z1);
    CHECK(std::abs(z0) < 1e-3f);
}
#endif

TEST_CASE("normal (float): fills from whole blocks equal the per-pair functor") {
    ThreadGuard guard;
    const uint64_t seed = 77;
    // lengths below, at and past the 8- and 32-block steps of the fused kernel, odd
    // lengths (a last half pair), and generator offsets that start mid-stream
    for (int threads : {1, 2, 3}) {
        t7::setNumThreads(threads);
        for (int64_t n : {1, 2, 3, 31, 32, 33, 127, 128, 129, 4095, 4097, 100003}) {
            for (uint64_t offset : {0u, 1u, 5u}) {
                CAPTURE(threads);
                CAPTURE(n);
                CAPTURE(offset);
                t7::Generator g(seed);
                g.setState(t7::RNGState{seed, offset});
                t7::FloatTensor x(n);
                x.normal(g, 0.25, 3);
                const auto ref = reference(seed, offset, n, 0.25, 3);
                CHECK(same_bits(x.data(), ref.data(), n));
            }
        }
    }
    // runs that start inside a block: the rows of a narrow (37 of 40 columns) are
    // runs of 37 values, so most start on an odd pair or an odd value (the partial
    // pair, one pair by itself, then whole blocks)
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        t7::Generator g(seed);
        t7::FloatTensor big = t7::zeros<float>(50, 40);
        t7::FloatTensor x = big.narrow(1, 0, 37);
        x.normal(g);
        const auto ref = reference(seed, 0, 50 * 37, 0, 1);
        bool same = true;
        for (int64_t r = 0; r < 50; ++r) {
            same = same && same_bits(big.data() + 40 * r, &ref[size_t(37 * r)], 37);
            for (int64_t c = 37; c < 40; ++c) same = same && big.data()[40 * r + c] == 0.0f;
        }
        CHECK(same);
    }
}

TEST_CASE("normal (float): a streaming fill (>= 16 MiB) over threads equals the functor") {
    ThreadGuard guard;
    const int64_t n = (int64_t(1) << 22) + 7; // 16 MiB + 28 bytes: non-temporal stores
    const auto ref = reference(5, 3, n, -1, 0.5);
    for (int threads : {1, 2, 3}) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        t7::Generator g(5);
        g.setState(t7::RNGState{5, 3});
        t7::FloatTensor x(n);
        x.normal(g, -1, 0.5);
        CHECK(same_bits(x.data(), ref.data(), n));
        CHECK(g.state().offset == 3 + (uint64_t(n + 1) / 2 * 2 + 3) / 4); // 2 words a pair
    }
}
