// Random numbers (issue 6): the Philox4x32-10 stream against Random123's
// known-answer vectors, the stream layout of each distribution, reproducibility
// across seeds, runs, thread counts and layouts, distribution sanity on large
// samples, randperm, multinomial, and every error case.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

namespace {

template <class T>
std::vector<T> values(const t7::Tensor<T>& t) {
    std::vector<T> v;
    if (t.dim() == 0) return v;
    t7::Tensor<T> c = t.contiguous();
    v.assign(c.data(), c.data() + c.nElement());
    return v;
}

// Bitwise equality (NaN-safe, -0 != +0).
template <class T>
bool same_bits(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    auto x = values(a), y = values(b);
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

struct ThreadGuard { // restores the thread count at scope exit
    int saved = t7::getNumThreads();
    ~ThreadGuard() { t7::setNumThreads(saved); }
};

} // namespace

TEST_CASE("Philox4x32-10 matches Random123's known-answer vectors") {
    using A4 = std::array<uint32_t, 4>;
    CHECK(t7::philox::philox4x32_10({0, 0, 0, 0}, {0, 0}) ==
          A4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    CHECK(t7::philox::philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                                    {0xffffffff, 0xffffffff}) ==
          A4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    CHECK(t7::philox::philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                                    {0xa4093822, 0x299f31d0}) ==
          A4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("the bulk (SIMD) stream equals the reference block function") {
    // start just below 2^32 so the counter's low word wraps inside a vector
    const uint64_t key = 0x0123456789abcdefull, c0 = (uint64_t(1) << 32) - 37;
    std::vector<uint32_t> bulk(4 * 100);
    t7::philox::blocks(key, c0, 100, bulk.data());
    for (int b = 0; b < 100; ++b) {
        const auto w = t7::philox::block(key, c0 + uint64_t(b));
        for (int l = 0; l < 4; ++l) REQUIRE(bulk[size_t(4 * b + l)] == w[size_t(l)]);
    }
    std::vector<uint32_t> scratch(64 + 8);
    const uint32_t* w = t7::philox::words(key, 4 * c0 + 3, 64, scratch.data());
    for (int i = 0; i < 64; ++i) CHECK(w[i] == bulk[size_t(3 + i)]);
}

TEST_CASE("stream layout: the first values of seed 0 and the offsets each draw consumes") {
    t7::manualSeed(0);
    const auto w = t7::philox::block(0, 0); // 6627e8d5 e169c58d bc57ac4c 9b00dbd8
    auto f = t7::rand<float>(3);
    CHECK(f(0) == float(0x6627e8d5u >> 8) * 0x1p-24f);
    CHECK(f(1) == float(0xe169c58du >> 8) * 0x1p-24f);
    CHECK(f(2) == float(0xbc57ac4cu >> 8) * 0x1p-24f);
    CHECK(t7::getRNGState().offset == 1);

    t7::manualSeed(0);
    auto d = t7::rand<double>(1);
    CHECK(d(0) == double((uint64_t(w[0]) << 21) ^ (w[1] >> 11)) * 0x1p-53);

    t7::manualSeed(0);
    auto n = t7::randn<float>(2);
    const float u1 = (float(w[0] >> 8) + 0.5f) * 0x1p-24f, u2 = float(w[1] >> 8) * 0x1p-24f;
    const float r = std::sqrt(-2.0f * std::log(u1)), th = 2 * float(M_PI) * u2;
    CHECK(n(0) == doctest::Approx(r * std::cos(th)).epsilon(1e-6));
    CHECK(n(1) == doctest::Approx(r * std::sin(th)).epsilon(1e-6));

    // blocks of 4 words: ceil(words / 4) per draw
    t7::manualSeed(11);
    t7::rand<float>(5); // 5 words
    CHECK(t7::getRNGState().offset == 2);
    t7::rand<double>(5); // 10 words
    CHECK(t7::getRNGState().offset == 5);
    t7::randn<float>(5); // 3 pairs x 2 words
    CHECK(t7::getRNGState().offset == 7);
    t7::randn<double>(3); // 2 pairs x 4 words
    CHECK(t7::getRNGState().offset == 9);
    t7::ByteTensor(9).bernoulli(0.5); // 9 words
    CHECK(t7::getRNGState().offset == 12);
    t7::randperm(5); // 4 swaps x 2 words
    CHECK(t7::getRNGState().offset == 14);
    t7::multinomial(t7::tensor<double>({1, 1}), 3, true); // 3 samples x 2 words
    CHECK(t7::getRNGState().offset == 16);
    CHECK(t7::getRNGState().seed == 11);

    // draws that fill whole blocks concatenate
    t7::manualSeed(7);
    auto whole = t7::rand<float>(8);
    t7::manualSeed(7);
    auto a = values(t7::rand<float>(4)), b = values(t7::rand<float>(4));
    a.insert(a.end(), b.begin(), b.end());
    CHECK(values(whole) == a);
}

TEST_CASE("seeds: same seed same values, successive draws and other seeds differ") {
    t7::manualSeed(42);
    auto a = t7::rand<float>(1000);
    auto a2 = t7::rand<float>(1000);
    t7::manualSeed(42);
    auto b = t7::rand<float>(1000);
    CHECK(same_bits(a, b));
    CHECK(!same_bits(a, a2));
    t7::manualSeed(43);
    CHECK(!same_bits(a, t7::rand<float>(1000)));
    CHECK(t7::initialSeed() == 43);

    // saving and restoring the state replays a draw
    const t7::RNGState st = t7::getRNGState();
    auto c = t7::randn<double>(10);
    t7::setRNGState(st);
    CHECK(same_bits(c, t7::randn<double>(10)));

    const uint64_t s = t7::seed();
    CHECK(t7::initialSeed() == s);
    CHECK(t7::getRNGState().offset == 0);
    CHECK_THROWS_AS(t7::defaultGenerator<t7::CPU>(1), t7::DeviceError);
}

TEST_CASE("reproducible across thread counts: every distribution, odd chunk boundaries") {
    ThreadGuard guard;
    // 300003 elements split in 3 chunks at 100001 and 200002: pairs of normal
    // values straddle the boundaries
    const int64_t n = 300003;
    auto draw_all = [&](int threads) {
        t7::setNumThreads(threads);
        t7::manualSeed(2024);
        std::vector<t7::DoubleTensor> out;
        out.push_back(t7::rand<float>(n).toDouble());
        out.push_back(t7::rand<double>(n));
        out.push_back(t7::randn<float>(n).toDouble());
        out.push_back(t7::randn<double>(n));
        t7::FloatTensor u(n);
        out.push_back(u.uniform(-3, 7).toDouble());
        t7::IntTensor i(n);
        out.push_back(i.uniform(-100, 100).toDouble());
        t7::ByteTensor bern(n);
        out.push_back(bern.bernoulli(0.3).toDouble());
        t7::FloatTensor nt(3, n / 3);
        out.push_back(nt.t().normal(1, 2).toDouble()); // a transposed view
        return out;
    };
    const auto one = draw_all(1), two = draw_all(2), three = draw_all(3);
    for (size_t k = 0; k < one.size(); ++k) {
        CAPTURE(k);
        CHECK(same_bits(one[k], two[k]));
        CHECK(same_bits(one[k], three[k]));
    }
}

TEST_CASE("values follow the view's row-major order whatever its layout") {
    t7::manualSeed(5);
    t7::FloatTensor plain(501, 7);
    plain.normal();
    t7::manualSeed(5);
    t7::FloatTensor base(7, 501);
    t7::FloatTensor view = base.t(); // 501 x 7, strides (1, 501)
    view.normal();
    CHECK(same_bits(plain, view));

    // a strided narrow fills only its elements
    t7::manualSeed(9);
    t7::DoubleTensor ref(10);
    ref.uniform();
    t7::manualSeed(9);
    t7::DoubleTensor big = t7::zeros<double>(10, 3);
    big.select(1, 1).uniform();
    CHECK(same_bits(big.select(1, 1), ref));
    CHECK(t7::sum(big.select(1, 0)) == 0);
    CHECK(t7::sum(big.select(1, 2)) == 0);
}

TEST_CASE("distributions: mean and variance of large samples") {
    t7::manualSeed(123);
    const int64_t n = 1000000;
    auto u = t7::rand<float>(n);
    CHECK(t7::min(u) >= 0);
    CHECK(t7::max(u) < 1);
    CHECK(t7::mean(u) == doctest::Approx(0.5).epsilon(0.005));
    CHECK(t7::var(u) == doctest::Approx(1.0 / 12).epsilon(0.01));

    t7::DoubleTensor ab(n);
    ab.uniform(-2, 3);
    CHECK(t7::min(ab) >= -2);
    CHECK(t7::max(ab) < 3);
    CHECK(t7::mean(ab) == doctest::Approx(0.5).epsilon(0.02));
    CHECK(t7::var(ab) == doctest::Approx(25.0 / 12).epsilon(0.01));

    for (int k = 0; k < 2; ++k) {
        t7::DoubleTensor g = k == 0 ? t7::randn<float>(n).toDouble() : t7::randn<double>(n);
        CHECK(std::abs(t7::mean(g)) < 0.005);
        CHECK(t7::var(g) == doctest::Approx(1).epsilon(0.01));
        // tails: P(|x| > 3) = 0.0027
        CHECK(t7::mean(t7::cast<double>(t7::abs(g) > 3.0)) ==
              doctest::Approx(0.0027).epsilon(0.15));
        CHECK(t7::max(t7::abs(g)) < 7);
    }
    t7::FloatTensor g(n);
    g.normal(2, 3);
    CHECK(t7::mean(g) == doctest::Approx(2).epsilon(0.01));
    CHECK(t7::std(g) == doctest::Approx(3).epsilon(0.01));
    t7::DoubleTensor constant(10);
    CHECK(t7::max(t7::abs(constant.normal(4, 0) - 4.0)) == 0);

    t7::ByteTensor b(n);
    CHECK(t7::mean(b.bernoulli(0.3)) == doctest::Approx(0.3).epsilon(0.01));
    CHECK(t7::max(b) == 1);
    CHECK(t7::sum(b.bernoulli(0)) == 0);
    CHECK(t7::sum(b.bernoulli(1)) == n);
    CHECK(t7::mean(t7::bernoulli<float>({1000, 100}, 0.75)) == doctest::Approx(0.75).epsilon(0.02));

    // uniform on an integer tensor truncates toward zero: [0, 10) gives 0 .. 9
    t7::IntTensor i(n);
    i.uniform(0, 10);
    CHECK(t7::min(i) == 0);
    CHECK(t7::max(i) == 9);
}

TEST_CASE("bernoulli with a tensor of probabilities") {
    t7::manualSeed(3);
    auto p = t7::tensor<double>({0, 1, 0.25});
    t7::DoubleTensor x(100000, 3);
    x.bernoulli(p); // broadcast along rows
    auto m = t7::mean(x, 0);
    CHECK(m(0, 0) == 0);
    CHECK(m(0, 1) == 1);
    CHECK(m(0, 2) == doctest::Approx(0.25).epsilon(0.02));
    // the same stream as bernoulli(p) with a scalar p
    t7::manualSeed(4);
    t7::FloatTensor s(1000);
    s.bernoulli(0.4);
    t7::manualSeed(4);
    auto t = t7::bernoulli(t7::full<float>({1000}, 0.4));
    CHECK(same_bits(s, t));
    CHECK(t.type() == "torch.FloatTensor");
}

TEST_CASE("randperm") {
    t7::manualSeed(8);
    auto p = t7::randperm(1000);
    CHECK(p.type() == "torch.LongTensor");
    auto v = values(p);
    std::vector<int64_t> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> iota(1000);
    std::iota(iota.begin(), iota.end(), 0);
    CHECK(sorted == iota);
    CHECK(v != iota);
    t7::manualSeed(8);
    CHECK(same_bits(p, t7::randperm(1000)));
    CHECK(values(t7::randperm(1)) == std::vector<int64_t>{0});
    CHECK(t7::randperm(0).dim() == 0);
    CHECK_THROWS_AS(t7::randperm(-1), t7::ShapeError);

    // every position is uniform: element 0 lands at each of 4 places ~1/4 of the time
    std::vector<int> where(4);
    for (int k = 0; k < 4000; ++k) {
        auto q = values(t7::randperm(4));
        ++where[size_t(std::find(q.begin(), q.end(), 0) - q.begin())];
    }
    for (int c : where) CHECK(c == doctest::Approx(1000).epsilon(0.1));
}

TEST_CASE("multinomial") {
    t7::manualSeed(10);
    auto p = t7::tensor<double>({2, 0, 5, 3}); // weights need not sum to 1
    const int64_t n = 200000;
    auto s = t7::multinomial(p, n, true);
    CHECK(s.isSize({n}));
    CHECK(s.type() == "torch.LongTensor");
    std::vector<double> freq(4);
    for (int64_t v : values(s)) freq[size_t(v)] += 1.0 / double(n);
    CHECK(freq[0] == doctest::Approx(0.2).epsilon(0.02));
    CHECK(freq[1] == 0); // never a zero weight
    CHECK(freq[2] == doctest::Approx(0.5).epsilon(0.02));
    CHECK(freq[3] == doctest::Approx(0.3).epsilon(0.02));

    // without replacement: the three categories of positive weight, once each
    for (int k = 0; k < 20; ++k) {
        auto w = values(t7::multinomial(t7::tensor<float>({1, 0, 1, 1}), 3));
        std::sort(w.begin(), w.end());
        CHECK(w == std::vector<int64_t>{0, 2, 3});
    }
    // 2-D: one distribution per row
    auto rows = t7::multinomial(t7::tensor<double>({{0, 0, 1}, {1, 0, 0}}), 5, true);
    CHECK(rows.isSize({2, 5}));
    CHECK(values(rows) == std::vector<int64_t>{2, 2, 2, 2, 2, 0, 0, 0, 0, 0});
    // reproducible
    t7::manualSeed(1);
    auto a = t7::multinomial(p, 50, true);
    t7::manualSeed(1);
    CHECK(same_bits(a, t7::multinomial(p, 50, true)));

    CHECK_THROWS_AS(t7::multinomial(t7::tensor<double>({1, 0, 1}), 3), t7::Error);
    CHECK_THROWS_AS(t7::multinomial(t7::tensor<double>({1, -1}), 1), t7::Error);
    CHECK_THROWS_AS(t7::multinomial(t7::tensor<double>({0, 0}), 1, true), t7::Error);
    CHECK_THROWS_AS(t7::multinomial(t7::tensor<double>({1, NAN}), 1, true), t7::Error);
    CHECK_THROWS_AS(t7::multinomial(t7::zeros<double>(2, 2, 2), 1), t7::ShapeError);
    CHECK_THROWS_AS(t7::multinomial(p, 0), t7::ShapeError);
}

TEST_CASE("random errors name the operation") {
    t7::FloatTensor x(4);
    auto msg = [](auto&& f) {
        try {
            f();
        } catch (const t7::Error& e) {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    CHECK(msg([&] { x.uniform(1, 0); }).find("uniform: lower bound 1") != std::string::npos);
    CHECK(msg([&] { x.normal(0, -1); }).find("normal: standard deviation -1") != std::string::npos);
    CHECK(msg([&] { x.bernoulli(1.5); }).find("bernoulli: probability 1.5") != std::string::npos);
    CHECK_THROWS_AS(x.bernoulli(-0.1), t7::Error);
    CHECK_THROWS_AS(x.bernoulli(NAN), t7::Error);
    CHECK_THROWS_AS(x.bernoulli(t7::tensor<float>({0.5, 2})), t7::Error);
    CHECK_THROWS_AS(x.bernoulli(t7::tensor<float>({0.5, 0.5, 0.5})), t7::ShapeError);
    // an empty tensor draws nothing
    const auto before = t7::getRNGState();
    t7::FloatTensor e;
    e.uniform();
    CHECK(t7::getRNGState() == before);
}

// Complex normals (issue 42, PyTorch's rule): real and imaginary parts each
// N(mean, stdv^2 / 2), the real parts drawn first, then the imaginary ones.
TEST_CASE_TEMPLATE("randn and normal of complex tensors: parts N(0, 1/2), seeded", Z,
                   std::complex<float>, std::complex<double>) {
    const int64_t n = 1000000;
    t7::manualSeed(31);
    const t7::Tensor<Z> z = t7::randn<Z>(n);
    const t7::DoubleTensor re = t7::cast<double>(t7::real(z)), im = t7::cast<double>(t7::imag(z));
    // sample means: sd sqrt(0.5 / n) = 7.1e-4; variances: sd sqrt(2 * 0.25 / n) = 7.1e-4;
    // mean(re im): sd 5e-4. Tolerances of 7 sd or more.
    CHECK(std::abs(t7::mean(re)) < 0.005);
    CHECK(std::abs(t7::mean(im)) < 0.005);
    CHECK(std::abs(t7::var(re) - 0.5) < 0.005);
    CHECK(std::abs(t7::var(im) - 0.5) < 0.005);
    CHECK(std::abs(t7::mean(re * im)) < 0.005);
    CHECK(std::abs(t7::mean(t7::cast<double>(t7::abs(z)) * t7::cast<double>(t7::abs(z))) - 1) <
          0.01); // E|z|^2 = 1
    // the same seed, the same values; another draw differs
    t7::manualSeed(31);
    const t7::Tensor<Z> again = t7::randn<Z>(t7::Shape{n});
    CHECK(t7::equal(again, z));
    CHECK_FALSE(t7::equal(t7::randn<Z>(n), z));
    // a user's generator, and normal(mean, stdv) into an existing (strided) tensor
    t7::Generator g1(5), g2(5);
    const t7::Tensor<Z> a = t7::randn<Z>(g1, 3, 4), b = t7::randn<Z>(g2, t7::Shape{3, 4});
    CHECK(t7::equal(a, b));
    t7::Tensor<Z> big(2000, 1000), into = big.t();
    into.normal(2, 3);
    const t7::DoubleTensor r2 = t7::cast<double>(t7::real(into)),
                           i2 = t7::cast<double>(t7::imag(into));
    CHECK(std::abs(t7::mean(r2) - 2) < 0.02); // sd 3 / sqrt(2) / 1414 = 1.5e-3
    CHECK(std::abs(t7::mean(i2) - 2) < 0.02);
    CHECK(std::abs(t7::var(r2) - 4.5) < 0.05); // 9 / 2; sd 4.5 sqrt(2 / 2e6) = 4.5e-3
    CHECK(std::abs(t7::var(i2) - 4.5) < 0.05);
    CHECK_THROWS_AS(into.normal(0, -1), t7::Error);
}

TEST_CASE("complex normal: the real parts are the draws of a real normal(0, 1/sqrt 2)") {
    using Z = std::complex<double>;
    t7::manualSeed(77);
    const t7::Tensor<Z> z = t7::randn<Z>(101);
    t7::manualSeed(77);
    t7::DoubleTensor re(101), im(101);
    re.normal(0, 1 / std::numbers::sqrt2); // stdv / sqrt 2, as normal(0, 1) divides it
    im.normal(0, 1 / std::numbers::sqrt2);
    CHECK(same_bits(t7::real(z).contiguous(), re));
    CHECK(same_bits(t7::imag(z).contiguous(), im));
}
