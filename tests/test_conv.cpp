// Convolutions (issue 14): conv2 xcorr2 conv3 xcorr3 against reference loops
// written here in Torch7's own terms (valid: a gather over the kernel; full: the
// scatter of THTensorConv's fullConv2Dptr / fullXCorr2Dptr), every form, both
// modes, strided inputs and kernels, the threaded and matrix-product paths,
// Torch7's documented sizes, hand values, integers, and every error.
#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

using test_util::message_of;
using test_util::Values;

// One map: x (depth x rows x cols) with kernel k (kt x ki x kj), Torch7's loops.
// conv flips the kernel (valid) / scatters it unflipped (full); xcorr the reverse.
Values ref_map(const double* x, const int64_t in[3], const double* k, const int64_t ks[3],
               bool conv, bool full) {
    int64_t out[3];
    for (int d = 0; d < 3; ++d) out[d] = full ? in[d] + ks[d] - 1 : in[d] - ks[d] + 1;
    Values r(size_t(out[0] * out[1] * out[2]), 0.0);
    auto K = [&](int64_t a, int64_t b, int64_t c, bool flip) {
        if (flip) a = ks[0] - 1 - a, b = ks[1] - 1 - b, c = ks[2] - 1 - c;
        return k[(a * ks[1] + b) * ks[2] + c];
    };
    if (!full) {
        for (int64_t t = 0; t < out[0]; ++t)
            for (int64_t i = 0; i < out[1]; ++i)
                for (int64_t j = 0; j < out[2]; ++j) {
                    double s = 0;
                    for (int64_t a = 0; a < ks[0]; ++a)
                        for (int64_t b = 0; b < ks[1]; ++b)
                            for (int64_t c = 0; c < ks[2]; ++c)
                                s +=
                                    x[((t + a) * in[1] + i + b) * in[2] + j + c] * K(a, b, c, conv);
                    r[size_t((t * out[1] + i) * out[2] + j)] = s;
                }
    } else {
        for (int64_t t = 0; t < in[0]; ++t)
            for (int64_t i = 0; i < in[1]; ++i)
                for (int64_t j = 0; j < in[2]; ++j)
                    for (int64_t a = 0; a < ks[0]; ++a)
                        for (int64_t b = 0; b < ks[1]; ++b)
                            for (int64_t c = 0; c < ks[2]; ++c)
                                r[size_t(((t + a) * out[1] + i + b) * out[2] + j + c)] +=
                                    x[(t * in[1] + i) * in[2] + j] * K(a, b, c, !conv);
    }
    return r;
}

// Every form: S spatial dimensions; x and k any layout.
template <class T>
Values reference(int S, const t7::Tensor<T>& x, const t7::Tensor<T>& k, bool conv, char mode) {
    const Values xv = test_util::values(x), kv = test_util::values(k);
    int64_t in[3] = {1, 1, 1}, ks[3] = {1, 1, 1};
    for (int d = 0; d < S; ++d) {
        in[3 - S + d] = x.size(x.dim() - S + d);
        ks[3 - S + d] = k.size(k.dim() - S + d);
    }
    const int64_t isz = in[0] * in[1] * in[2], ksz = ks[0] * ks[1] * ks[2];
    const bool full = mode == 'F';
    if (x.dim() == S) return ref_map(xv.data(), in, kv.data(), ks, conv, full);
    const int64_t p = x.size(0);
    Values r;
    if (k.dim() == S + 1) { // plane by plane
        for (int64_t c = 0; c < p; ++c) {
            Values m = ref_map(xv.data() + c * isz, in, kv.data() + c * ksz, ks, conv, full);
            r.insert(r.end(), m.begin(), m.end());
        }
        return r;
    }
    for (int64_t o = 0; o < k.size(0); ++o) { // each map summed over the planes
        Values acc;
        for (int64_t c = 0; c < p; ++c) {
            Values m =
                ref_map(xv.data() + c * isz, in, kv.data() + (o * p + c) * ksz, ks, conv, full);
            if (acc.empty())
                acc = m;
            else
                for (size_t i = 0; i < m.size(); ++i) acc[i] += m[i];
        }
        r.insert(r.end(), acc.begin(), acc.end());
    }
    return r;
}

template <class T>
t7::Tensor<T> random(const t7::Shape& s) {
    t7::Tensor<T> x(s);
    return x.uniform(-1, 1);
}

template <class T>
double tolerance() {
    return std::is_same_v<T, float> ? 2e-4 : 1e-11;
}

// f(x, k, mode) against the reference: sizes and every value.
template <class T>
void check_against(int S, bool conv, const t7::Tensor<T>& x, const t7::Tensor<T>& k, char mode) {
    CAPTURE(S);
    CAPTURE(conv);
    CAPTURE(mode);
    CAPTURE(x.sizes());
    CAPTURE(k.sizes());
    t7::Tensor<T> r = S == 2 ? (conv ? t7::conv2(x, k, mode) : t7::xcorr2(x, k, mode))
                             : (conv ? t7::conv3(x, k, mode) : t7::xcorr3(x, k, mode));
    t7::Shape want;
    if (x.dim() > S) want.push_back(k.dim() == S + 2 ? k.size(0) : x.size(0));
    for (int d = 0; d < S; ++d) {
        const int64_t m = x.size(x.dim() - S + d), ki = k.size(k.dim() - S + d);
        want.push_back(mode == 'F' ? m + ki - 1 : m - ki + 1);
    }
    REQUIRE(r.sizes() == want);
    CHECK(r.isContiguous());
    const Values got = test_util::values(r), ref = reference(S, x, k, conv, mode);
    REQUIRE(got.size() == ref.size());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - ref[i]) / (1 + std::abs(ref[i])));
    CHECK(worst <= tolerance<T>());
}

template <class T>
void check_all(int S, const t7::Tensor<T>& x, const t7::Tensor<T>& k) {
    for (bool conv : {true, false})
        for (char mode : {'V', 'F'}) check_against(S, conv, x, k, mode);
}

// The kernel reversed along its last S dimensions (a new contiguous tensor).
template <class T>
t7::Tensor<T> flipped(const t7::Tensor<T>& k, int S) {
    t7::Tensor<T> r = k.contiguous().clone();
    const Values v = test_util::values(k);
    int64_t sp = 1;
    for (int d = 0; d < S; ++d) sp *= k.size(k.dim() - 1 - d);
    Values f(v.size());
    for (size_t b = 0; b < v.size(); b += size_t(sp))
        for (int64_t s = 0; s < sp; ++s) f[b + size_t(s)] = v[b + size_t(sp - 1 - s)];
    test_util::fill_values(r, f);
    return r;
}

} // namespace

TEST_CASE("conv2, xcorr2: hand values (3x3 by 2x2)") {
    auto x = t7::tensor<double>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    auto k = t7::tensor<double>({{1, 2}, {3, 4}});
    CHECK(test_util::values(t7::xcorr2(x, k)) == Values{37, 47, 67, 77});
    CHECK(test_util::values(t7::conv2(x, k)) == Values{23, 33, 53, 63});
    // full convolution: the sum of x[y][x] k placed at (y, x)
    CHECK(test_util::values(t7::conv2(x, k, 'F')) ==
          Values{1, 4, 7, 6, 7, 23, 33, 24, 19, 53, 63, 42, 21, 52, 59, 36});
    // full cross-correlation: the flipped kernel placed at (y, x)
    CHECK(test_util::values(t7::xcorr2(x, k, 'F')) ==
          Values{4, 11, 18, 9, 18, 37, 47, 21, 36, 67, 77, 33, 14, 23, 26, 9});
}

TEST_CASE("conv2, conv3: Torch7's documented sizes") {
    // torch.conv2(torch.rand(100, 100), torch.rand(10, 10)) is 91x91, 'F' 109x109
    auto x = random<double>({100, 100}), k = random<double>({10, 10});
    CHECK(t7::conv2(x, k).sizes() == t7::Shape{91, 91});
    CHECK(t7::conv2(x, k, 'F').sizes() == t7::Shape{109, 109});
    CHECK(t7::xcorr2(x, k).sizes() == t7::Shape{91, 91});
    // conv3 likewise (smaller than the manual's 100^3 by 10^3)
    auto x3 = random<double>({20, 20, 20}), k3 = random<double>({5, 5, 5});
    CHECK(t7::conv3(x3, k3).sizes() == t7::Shape{16, 16, 16});
    CHECK(t7::conv3(x3, k3, 'F').sizes() == t7::Shape{24, 24, 24});
    CHECK(t7::xcorr3(x3, k3, 'F').sizes() == t7::Shape{24, 24, 24});
}

TEST_CASE_TEMPLATE("conv2, xcorr2: every form and mode against reference loops", T, float, double) {
    t7::manualSeed(7);
    SUBCASE("one map, widths across the vector blocks and their tails") {
        for (int64_t w : {1, 3, 9, 40, 75})
            for (int64_t kw : {1, 2, 5}) {
                if (kw > w) continue;
                check_all<T>(2, random<T>({6, w}), random<T>({3, kw}));
            }
        check_all<T>(2, random<T>({4, 4}), random<T>({4, 4})); // kernel as large as the input
    }
    SUBCASE("plane by plane (3-D with 3-D)") {
        check_all<T>(2, random<T>({3, 7, 50}), random<T>({3, 3, 4}));
    }
    SUBCASE("maps summed over the planes (3-D with 4-D): direct and matrix product") {
        check_all<T>(2, random<T>({3, 7, 20}), random<T>({2, 3, 3, 2})); // 2 maps: direct
        check_all<T>(2, random<T>({4, 9, 21}), random<T>({5, 4, 3, 3})); // 5 maps: GEMM
        check_all<T>(2, random<T>({2, 5, 5}), random<T>({6, 2, 5, 1}));
    }
}

TEST_CASE_TEMPLATE("conv3, xcorr3: every form and mode against reference loops", T, float, double) {
    t7::manualSeed(8);
    check_all<T>(3, random<T>({5, 6, 37}), random<T>({2, 3, 4}));
    check_all<T>(3, random<T>({3, 4, 5, 11}), random<T>({3, 2, 2, 3}));
    check_all<T>(3, random<T>({2, 4, 5, 11}), random<T>({3, 2, 2, 2, 3})); // direct
    check_all<T>(3, random<T>({3, 4, 6, 10}), random<T>({4, 3, 3, 2, 2})); // GEMM
}

TEST_CASE_TEMPLATE("conv2, conv3: strided inputs and kernels", T, float, double) {
    t7::manualSeed(9);
    SUBCASE("transposed and narrowed 2-D") {
        auto big = random<T>({30, 40});
        auto xt = big.t();                               // 40 x 30, strides 1, 40
        auto xn = big.narrow(0, 3, 20).narrow(1, 5, 30); // 20 x 30 inside 30 x 40
        auto kb = random<T>({4, 6});
        auto kt = kb.t(); // 6 x 4 transposed kernel
        check_all<T>(2, xt, kt);
        check_all<T>(2, xn, kb.narrow(1, 1, 3));
        check_all<T>(2, big.select(1, 2).unfold(0, 5, 4), kt); // 7 x 5 overlapping windows
    }
    SUBCASE("multi-plane views") {
        auto xp = random<T>({12, 14, 4}).transpose(0, 2);             // 4 x 14 x 12
        check_all<T>(2, xp, random<T>({4, 2, 3}).transpose(1, 2));    // 4 x 3 x 2
        check_all<T>(2, xp, random<T>({4, 6, 3, 2}).transpose(0, 1)); // 6 x 4 x 3 x 2 (GEMM)
        check_all<T>(2, xp.narrow(0, 1, 2), random<T>({2, 2, 3, 2}).transpose(0, 1)); // direct
    }
    SUBCASE("3-D views") {
        auto x = random<T>({9, 8, 7});
        check_all<T>(3, x.transpose(0, 2), random<T>({3, 3, 2}).transpose(1, 2));
        check_all<T>(3, x.narrow(1, 1, 5).unsqueeze(0).expand(2, 9, 5, 7), random<T>({2, 2, 2, 2}));
    }
}

TEST_CASE_TEMPLATE("conv = xcorr with the kernel flipped, in both modes", T, float, double) {
    t7::manualSeed(10);
    auto x = random<T>({3, 11, 13});
    for (const t7::Tensor<T>& k : {random<T>({3, 3, 4}), random<T>({5, 3, 3, 4})})
        for (char mode : {'V', 'F'}) {
            auto a = t7::conv2(x, k, mode), b = t7::xcorr2(x, flipped(k, 2), mode);
            CHECK(double(t7::max(t7::abs(a - b))) <= tolerance<T>());
        }
    auto x3 = random<T>({6, 7, 8}), k3 = random<T>({2, 3, 4});
    for (char mode : {'V', 'F'}) {
        auto a = t7::conv3(x3, k3, mode), b = t7::xcorr3(x3, flipped(k3, 3), mode);
        CHECK(double(t7::max(t7::abs(a - b))) <= tolerance<T>());
    }
}

TEST_CASE("conv2: threaded paths give the one-thread answer") {
    t7::manualSeed(11);
    const int saved = t7::getNumThreads();
    auto x = random<float>({200, 203}), k = random<float>({5, 5});
    auto xm = random<float>({16, 40, 41}), km = random<float>({8, 16, 3, 3});
    t7::setNumThreads(1);
    auto r1 = t7::conv2(x, k), m1 = t7::xcorr2(xm, km);
    t7::setNumThreads(4);
    auto r4 = t7::conv2(x, k), m4 = t7::xcorr2(xm, km);
    t7::setNumThreads(saved);
    CHECK(double(t7::max(t7::abs(r1 - r4))) ==
          0); // one row at a time: the same arithmetic on any thread
    CHECK(double(t7::max(t7::abs(m1 - m4))) <= 1e-4);
    check_against<float>(2, false, xm, km, 'V');
    check_against<float>(2, true, x, k, 'F');
}

TEST_CASE("conv2, conv3: integer tensors (exact, wrapping)") {
    auto x = t7::tensor<int>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    auto k = t7::tensor<int>({{1, 2}, {3, 4}});
    CHECK(test_util::values(t7::conv2(x, k)) == Values{23, 33, 53, 63});
    CHECK(test_util::values(t7::xcorr2(x, k, 'F')) ==
          Values{4, 11, 18, 9, 18, 37, 47, 21, 36, 67, 77, 33, 14, 23, 26, 9});
    auto x3 = t7::tensor<int>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
    CHECK(test_util::values(t7::conv3(x3, x3)) ==
          Values{1 * 8 + 2 * 7 + 3 * 6 + 4 * 5 + 5 * 4 + 6 * 3 + 7 * 2 + 8 * 1});
    CHECK(test_util::values(t7::xcorr3(x3, x3)) == Values{204});
    // one map summed over two planes: [1 2 3] by [1 1] plus [4 5 6] by [1 -1]
    auto xs = t7::tensor<int>({{{1, 2, 3}}, {{4, 5, 6}}}); // 2 x 1 x 3
    auto ks = t7::tensor<int>({{{{1, 1}}, {{1, -1}}}});    // 1 x 2 x 1 x 2
    CHECK(test_util::values(t7::xcorr2(xs, ks)) == Values{2, 4});
    // wraps modulo 2^32 instead of overflowing
    auto big = t7::tensor<int>({{2147483647, 1}});
    auto one = t7::tensor<int>({{1, 1}});
    CHECK(test_util::values(t7::xcorr2(big, one)) == Values{-2147483648.0});
    // Byte and Long as well (Torch7 has the functions for its seven types)
    auto b = t7::tensor<uint8_t>({{200, 100, 7}});
    CHECK(test_util::values(t7::xcorr2(b, t7::tensor<uint8_t>({{1, 1}}))) == Values{44, 107});
    auto l = t7::tensor<int64_t>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
    CHECK(test_util::values(t7::conv3(l, l, 'F')).size() == 27);
    CHECK(test_util::values(t7::conv3(l, l, 'F'))[13] == 120);  // the centre: full overlap,
    CHECK(test_util::values(t7::xcorr3(l, l, 'F'))[13] == 204); // as conv3 and xcorr3 in 'V'
}

TEST_CASE("conv2, conv3: errors name the operation and the sizes") {
    auto x = t7::zeros<float>(5, 6), k = t7::zeros<float>(2, 3);
    // bad mode: Error
    auto msg = message_of<t7::Error>([&] { t7::conv2(x, k, 'v'); });
    CHECK(msg.find("conv2: mode must be 'V' (valid) or 'F' (full), got 'v'") != std::string::npos);
    CHECK_THROWS_AS(t7::xcorr3(t7::zeros<float>(3, 3, 3), t7::zeros<float>(2, 2, 2), 'X'),
                    t7::Error);
    // ranks
    msg = message_of<t7::ShapeError>([&] { t7::conv2(x, t7::zeros<float>(1, 2, 3)); });
    CHECK(msg.find("conv2:") == 0);
    CHECK(msg.find("2-D input of size 5x6") != std::string::npos);
    CHECK(msg.find("3-D kernel of size 1x2x3") != std::string::npos);
    CHECK_THROWS_AS(t7::conv2(t7::zeros<float>(5), t7::zeros<float>(2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::conv2(t7::zeros<float>(2, 3, 4, 5), t7::zeros<float>(2, 3, 4, 5)),
                    t7::ShapeError);
    CHECK_THROWS_AS(t7::conv2(t7::zeros<float>(2, 3, 4), t7::zeros<float>(2, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::conv3(x, k), t7::ShapeError);
    CHECK_THROWS_AS(t7::conv3(t7::zeros<float>(2, 3, 4), t7::zeros<float>(1, 2, 2, 2, 2)),
                    t7::ShapeError);
    CHECK_THROWS_AS(t7::xcorr3(t7::zeros<float>(2, 3, 4, 5), t7::zeros<float>(2, 3, 4)),
                    t7::ShapeError);
    // kernel larger than the input in 'V' mode (allowed in 'F')
    msg = message_of<t7::ShapeError>([&] { t7::xcorr2(k, x); });
    CHECK(msg.find("xcorr2: kernel of size 5x6 is larger than input of size 2x3 in 'V' mode") !=
          std::string::npos);
    CHECK(t7::xcorr2(k, x, 'F').sizes() == t7::Shape{6, 8});
    CHECK_THROWS_AS(t7::conv3(t7::zeros<float>(3, 3, 3), t7::zeros<float>(2, 4, 2)),
                    t7::ShapeError);
    // plane counts
    msg = message_of<t7::ShapeError>(
        [&] { t7::conv2(t7::zeros<float>(3, 5, 5), t7::zeros<float>(2, 2, 2)); });
    CHECK(msg.find("conv2: the kernel of size 2x2x2 has 2 planes, the input of size 3x5x5 has 3") ==
          0);
    msg = message_of<t7::ShapeError>(
        [&] { t7::xcorr2(t7::zeros<float>(3, 5, 5), t7::zeros<float>(4, 2, 2, 2)); });
    CHECK(msg.find("4x2x2x2 has 2 planes") != std::string::npos);
    CHECK_THROWS_AS(t7::conv3(t7::zeros<float>(3, 5, 5, 5), t7::zeros<float>(2, 2, 2, 2, 2)),
                    t7::ShapeError);
    // empty tensors
    msg = message_of<t7::ShapeError>([&] { t7::conv2(t7::FloatTensor(), k); });
    CHECK(msg.find("conv2: empty input") == 0);
    msg = message_of<t7::ShapeError>(
        [&] { t7::xcorr3(t7::zeros<float>(2, 2, 2), t7::FloatTensor()); });
    CHECK(msg.find("xcorr3: empty kernel") == 0);
}
