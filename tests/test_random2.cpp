// Issue 14: random integers, logNormal / exponential / cauchy / geometric, user
// generators and their ByteTensor states, Walker's alias method.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<double> values(const t7::DoubleTensor& t) {
    const t7::DoubleTensor c = t.contiguous();
    return std::vector<double>(c.data(), c.data() + c.nElement());
}

bool same(const t7::DoubleTensor& a, const t7::DoubleTensor& b) {
    const auto x = values(a), y = values(b);
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

struct Moments {
    double mean = 0, var = 0;
};
Moments moments(const t7::DoubleTensor& t) {
    const auto v = values(t);
    Moments m;
    for (double x : v) m.mean += x;
    m.mean /= double(v.size());
    for (double x : v) m.var += (x - m.mean) * (x - m.mean);
    m.var /= double(v.size() - 1);
    return m;
}

double quantile(const t7::DoubleTensor& t, double p) {
    auto v = values(t);
    std::sort(v.begin(), v.end());
    return v[size_t(p * double(v.size() - 1))];
}

struct ThreadGuard {
    int saved = t7::getNumThreads();
    ~ThreadGuard() { t7::setNumThreads(saved); }
};

constexpr int64_t N = 400000;

} // namespace

TEST_CASE("random(): Torch7's whole range per type") {
    t7::manualSeed(1);
    t7::ByteTensor b(100000);
    b.random();
    CHECK(t7::min(b) == 0);
    CHECK(t7::max(b) == 255);
    t7::FloatTensor f(N);
    f.random();
    CHECK(t7::min(f) >= 0);
    CHECK(t7::max(f) <= 16777216.0f);
    CHECK(t7::max(f) > 16000000.0f);
    CHECK(double(t7::sum(t7::abs(f - t7::floor(f)))) == 0);
    t7::DoubleTensor d(N);
    d.random();
    CHECK(t7::min(d) >= 0);
    CHECK(t7::max(d) <= 9007199254740992.0);
    CHECK(t7::max(d) > 0.99 * 9007199254740992.0);
    CHECK(double(t7::sum(t7::abs(d - t7::floor(d)))) == 0);
    t7::CharTensor c(100000);
    c.random();
    CHECK(t7::min(c) == 0);
    CHECK(t7::max(c) == 127);
    // complex: the real parts over the parts' range (2^24 for complex<float>), imaginary 0
    t7::ComplexFloatTensor z(N);
    z.random();
    const t7::FloatTensor re = t7::real(z);
    CHECK(t7::min(re) >= 0);
    CHECK(t7::max(re) <= 16777216.0f);
    CHECK(t7::max(re) > 16000000.0f);
    CHECK(t7::max(t7::abs(t7::imag(z))) == 0.0f);
}

TEST_CASE("random(b) and random(a, b): exact ranges, every value hit, uniform") {
    t7::manualSeed(2);
    t7::LongTensor x(N);
    x.random(10);
    CHECK(t7::min(x) == 0);
    CHECK(t7::max(x) == 9);
    for (int64_t k = 0; k < 10; ++k) {
        const double share = double(t7::sum(t7::eq(x, k))) / double(N);
        CHECK(std::abs(share - 0.1) < 0.005);
    }
    t7::IntTensor y(N);
    y.random(-3, 4);
    CHECK(t7::min(y) == -3);
    CHECK(t7::max(y) == 3);
    t7::DoubleTensor z(N);
    z.random(1000, 1002);
    CHECK(t7::min(z) == 1000);
    CHECK(t7::max(z) == 1001);
    t7::ByteTensor b(10000);
    b.random(0, 256);
    CHECK(t7::max(b) == 255);
    t7::FloatTensor view(200, 300);
    view.t().random(5, 6); // a transposed view
    CHECK(t7::min(view) == 5);
    CHECK(t7::max(view) == 5);
}

TEST_CASE("exponential, logNormal, cauchy, geometric follow their laws") {
    t7::manualSeed(3);
    SUBCASE("exponential") {
        t7::DoubleTensor x(N);
        x.exponential(2);
        const auto m = moments(x);
        CHECK(t7::min(x) >= 0);
        CHECK(m.mean == doctest::Approx(0.5).epsilon(0.01));
        CHECK(m.var == doctest::Approx(0.25).epsilon(0.03));
        t7::FloatTensor f(N);
        f.exponential(); // lambda = 1
        CHECK(moments(f.toDouble()).mean == doctest::Approx(1).epsilon(0.01));
    }
    SUBCASE("logNormal(mean, stdv): exp(normal(mean, stdv)), as Torch7's C code") {
        t7::DoubleTensor x(N);
        x.logNormal(1.5, 0.4);
        CHECK(t7::min(x) > 0);
        const auto ml = moments(t7::eval(t7::log(x)));
        CHECK(ml.mean == doctest::Approx(1.5).epsilon(0.01));
        CHECK(std::sqrt(ml.var) == doctest::Approx(0.4).epsilon(0.02));
        // the values' mean is exp(mu + sigma^2 / 2)
        CHECK(moments(x).mean == doctest::Approx(std::exp(1.5 + 0.08)).epsilon(0.01));
        // exp of a normal draw of the same words with the same parameters
        t7::Generator g1(9), g2(9);
        t7::DoubleTensor a(1001), b(1001);
        a.logNormal(g1, 1, 2);
        b.normal(g2, 1, 2);
        CHECK(double(t7::max(t7::abs(t7::log(a) - b))) < 1e-12);
    }
    SUBCASE("cauchy: median and quartiles") {
        t7::DoubleTensor x(N);
        x.cauchy(3, 2);
        CHECK(quantile(x, 0.5) == doctest::Approx(3).epsilon(0.01));
        CHECK(quantile(x, 0.25) == doctest::Approx(1).epsilon(0.02));
        CHECK(quantile(x, 0.75) == doctest::Approx(5).epsilon(0.01));
        const auto v = values(x);
        CHECK(std::all_of(v.begin(), v.end(), [](double e) { return std::isfinite(e); }));
    }
    SUBCASE("geometric: P(X = i) = (1 - p) p^(i-1), i >= 1") {
        const double p = 0.3;
        t7::LongTensor x(N);
        x.geometric(p);
        CHECK(t7::min(x) == 1);
        for (int64_t i = 1; i <= 4; ++i) {
            const double share = double(t7::sum(t7::eq(x, i))) / double(N);
            CHECK(share == doctest::Approx((1 - p) * std::pow(p, double(i - 1))).epsilon(0.03));
        }
        const auto m = moments(x.toDouble());
        CHECK(m.mean == doctest::Approx(1 / (1 - p)).epsilon(0.01));
        CHECK(m.var == doctest::Approx(p / ((1 - p) * (1 - p))).epsilon(0.03));
    }
}

TEST_CASE("user generators: same seed same values, default generator untouched") {
    t7::manualSeed(5);
    const t7::RNGState before = t7::getRNGState();
    t7::Generator g1(77), g2(77), g3(78);
    std::vector<t7::DoubleTensor> a, b, c;
    auto draw = [](t7::Generator& g, std::vector<t7::DoubleTensor>& out) {
        t7::DoubleTensor x(1000);
        out.push_back(x.uniform(g, -1, 1).clone());
        out.push_back(x.normal(g, 2, 3).clone());
        out.push_back(x.bernoulli(g, 0.25).clone());
        out.push_back(x.random(g).clone());
        out.push_back(x.random(g, 7).clone());
        out.push_back(x.random(g, -5, 5).clone());
        out.push_back(x.logNormal(g, 1, 1).clone());
        out.push_back(x.exponential(g, 3).clone());
        out.push_back(x.cauchy(g, 0, 1).clone());
        out.push_back(x.geometric(g, 0.5).clone());
        out.push_back(t7::rand<double>(g, 10, 100).view(1000));
        out.push_back(t7::randn<float>(g, t7::Shape{1000}).toDouble());
        out.push_back(t7::randperm(g, 1000).toDouble());
        out.push_back(t7::multinomial(g, t7::range<double>(1, 10), 1000, true).toDouble());
    };
    draw(g1, a);
    draw(g2, b);
    draw(g3, c);
    CHECK(t7::getRNGState() == before);
    for (size_t k = 0; k < a.size(); ++k) {
        CAPTURE(k);
        CHECK(same(a[k], b[k]));
        CHECK(!same(a[k], c[k]));
    }
    // a Generator seeded like the default one gives the default one's values
    t7::manualSeed(123);
    t7::Generator g(123);
    t7::FloatTensor x(777), y(777);
    x.normal();
    y.normal(g);
    CHECK(same(x.toDouble(), y.toDouble()));
    CHECK(g.state() == t7::getRNGState());
    // manualSeed reseeds the default generators only
    t7::manualSeed(1);
    CHECK(g.initialSeed() == 123);
}

TEST_CASE("getState / setState: a ByteTensor snapshot, through t7::save / t7::load") {
    t7::Generator g(42);
    t7::DoubleTensor skip(33);
    skip.normal(g);
    const t7::ByteTensor st = g.getState();
    CHECK(st.nElement() == t7::Generator::state_bytes);
    t7::DoubleTensor first(500);
    first.uniform(g);
    // another generator takes the snapshot and continues the same stream
    t7::Generator h;
    h.setState(st);
    t7::DoubleTensor again(500);
    again.uniform(h);
    CHECK(same(first, again));
    // the snapshot is a copy: drawing after getState does not change it
    CHECK(t7::equal(st, g.getState()) == false);
    // written and read back with Torch7's format
    const std::string path = "test_random2_state.t7";
    t7::save(path, st);
    const t7::ByteTensor loaded = t7::load<uint8_t>(path);
    std::remove(path.c_str());
    t7::Generator k(1);
    k.setState(loaded);
    t7::DoubleTensor third(500);
    third.uniform(k);
    CHECK(same(first, third));
    // the default generator's state as well
    t7::manualSeed(8);
    const t7::ByteTensor ds = t7::defaultGenerator().getState();
    t7::FloatTensor u(10), v(10);
    u.uniform();
    t7::defaultGenerator().setState(ds);
    v.uniform();
    CHECK(same(u.toDouble(), v.toDouble()));
}

TEST_CASE("thread-count independence of the new draws") {
    ThreadGuard guard;
    const int64_t n = 300003;
    auto draw_all = [&](int threads) {
        t7::setNumThreads(threads);
        t7::manualSeed(2024);
        std::vector<t7::DoubleTensor> out;
        t7::DoubleTensor x(n);
        out.push_back(x.random().clone());
        out.push_back(x.random(-9, 1000).clone());
        out.push_back(x.logNormal(1, 1).clone());
        out.push_back(x.exponential(2).clone());
        out.push_back(x.cauchy(1, 2).clone());
        out.push_back(x.geometric(0.2).clone());
        t7::FloatTensor f(3, n / 3);
        out.push_back(f.t().logNormal(1, 0.5).toDouble());
        const auto [J, q] = t7::multinomialAliasSetup(t7::range<double>(1, 50));
        out.push_back(t7::multinomialAlias(n, J, q).toDouble());
        return out;
    };
    const auto one = draw_all(1), two = draw_all(2);
    for (size_t k = 0; k < one.size(); ++k) {
        CAPTURE(k);
        CHECK(same(one[k], two[k]));
    }
}

TEST_CASE("multinomialAliasSetup / multinomialAlias (Walker's alias method)") {
    t7::manualSeed(11);
    t7::DoubleTensor probs(5);
    const double w[5] = {0.1, 0.4, 0.0, 0.3, 0.2};
    std::copy(w, w + 5, probs.data());
    const auto [J, q] = t7::multinomialAliasSetup(probs);
    CHECK(J.sizes() == t7::Shape{5});
    CHECK(q.sizes() == t7::Shape{5});
    CHECK(t7::min(J) >= 0);
    CHECK(t7::max(J) <= 4);
    // the table reproduces the law exactly: P(k) = (q[k] + sum over j with J[j] = k of (1 - q[j]))
    // / K
    for (int64_t k = 0; k < 5; ++k) {
        double pk = q.data()[k];
        for (int64_t j = 0; j < 5; ++j)
            if (J.data()[j] == k && j != k) pk += 1 - q.data()[j];
        CHECK(pk / 5 == doctest::Approx(w[k]).epsilon(1e-12));
    }
    const t7::LongTensor s = t7::multinomialAlias(N, J, q);
    CHECK(s.sizes() == t7::Shape{N});
    CHECK(t7::sum(t7::eq(s, int64_t(2))) == 0);
    for (int64_t k = 0; k < 5; ++k)
        CHECK(double(t7::sum(t7::eq(s, k))) / double(N) == doctest::Approx(w[k]).epsilon(0.03));
    // unnormalised weights and float tables
    t7::FloatTensor fw(3);
    fw.fill(2);
    const auto fa = t7::multinomialAliasSetup(fw);
    CHECK(t7::min(fa.q) == 1.0f);
    // a given generator: same seed, same samples; default generator untouched
    const t7::RNGState before = t7::getRNGState();
    t7::Generator g1(4), g2(4);
    const t7::LongTensor a = t7::multinomialAlias(g1, 1000, J, q);
    const t7::LongTensor b = t7::multinomialAlias(g2, 1000, J, q);
    CHECK(t7::equal(a, b));
    CHECK(t7::getRNGState() == before);
    CHECK(t7::multinomialAlias(0, J, q).nElement() == 0);
}

TEST_CASE("bad parameters throw the documented error, nothing written or drawn") {
    t7::manualSeed(6);
    const t7::RNGState before = t7::getRNGState();
    t7::DoubleTensor x(10);
    x.fill(7);
    t7::Generator g(1);
    const t7::RNGState gbefore = g.state();
    const double nan = std::nan("");
    CHECK_THROWS_AS(x.random(0), t7::Error);
    CHECK_THROWS_AS(x.random(-4), t7::Error);
    CHECK_THROWS_AS(x.random(5, 5), t7::Error);
    CHECK_THROWS_AS(x.random(6, 5), t7::Error);
    CHECK_THROWS_AS(x.random(g, 0), t7::Error);
    t7::ByteTensor b(4);
    CHECK_THROWS_AS(b.random(0, 257), t7::Error);
    CHECK_THROWS_AS(b.random(-1, 3), t7::Error);
    CHECK_THROWS_AS(x.geometric(0), t7::Error);
    CHECK_THROWS_AS(x.geometric(1), t7::Error);
    CHECK_THROWS_AS(x.geometric(nan), t7::Error);
    CHECK_THROWS_AS(x.geometric(g, 1.5), t7::Error);
    CHECK_THROWS_AS(x.exponential(0), t7::Error);
    CHECK_THROWS_AS(x.exponential(-1), t7::Error);
    CHECK_THROWS_AS(x.exponential(g, nan), t7::Error);
    CHECK_THROWS_AS(x.cauchy(0, 0), t7::Error);
    CHECK_THROWS_AS(x.cauchy(g, 0, -1), t7::Error);
    CHECK_THROWS_AS(x.logNormal(1, -1), t7::Error);
    CHECK_THROWS_AS(x.logNormal(g, 1, nan), t7::Error);
    CHECK_THROWS_AS(x.logNormal(1, 0), t7::Error); // stdv of the logarithm: > 0
    CHECK_THROWS_AS(x.logNormal(g, nan, 1), t7::Error);
    CHECK_THROWS_AS(x.normal(g, 0, -1), t7::Error);
    CHECK_THROWS_AS(x.uniform(g, 2, 1), t7::Error);
    CHECK_THROWS_AS(x.bernoulli(g, 2), t7::Error);
    CHECK(t7::min(x) == 7);
    CHECK(t7::max(x) == 7);
    CHECK(t7::getRNGState() == before);
    CHECK(g.state() == gbefore);
    // states
    t7::ByteTensor bad(24);
    bad.fill(0);
    CHECK_THROWS_AS(g.setState(bad), t7::Error);
    CHECK_THROWS_AS(g.setState(t7::ByteTensor(3)), t7::Error);
    CHECK_THROWS_AS(g.setState(t7::FloatTensor(24)), t7::TypeError);
    CHECK(g.state() == gbefore);
    // alias tables
    t7::DoubleTensor p(3);
    p.fill(1);
    p.data()[1] = -0.5;
    CHECK_THROWS_AS(t7::multinomialAliasSetup(p), t7::Error);
    p.data()[1] = nan;
    CHECK_THROWS_AS(t7::multinomialAliasSetup(p), t7::Error);
    p.fill(0);
    CHECK_THROWS_AS(t7::multinomialAliasSetup(p), t7::Error);
    CHECK_THROWS_AS(t7::multinomialAliasSetup(t7::DoubleTensor()), t7::ShapeError);
    CHECK_THROWS_AS(t7::multinomialAliasSetup(t7::DoubleTensor(2, 2)), t7::ShapeError);
    p.fill(1);
    auto [J, q] = t7::multinomialAliasSetup(p);
    CHECK_THROWS_AS(t7::multinomialAlias(-1, J, q), t7::ShapeError);
    CHECK_THROWS_AS(t7::multinomialAlias(3, J, t7::DoubleTensor(4)), t7::ShapeError);
    J.data()[0] = 3;
    CHECK_THROWS_AS(t7::multinomialAlias(3, J, q), t7::IndexError);
    CHECK(t7::getRNGState() == before);
}

TEST_CASE("normal (float): the vectorised pairs equal the scalar ones and libm's Box-Muller") {
    // contiguous (vectorised bulk) and a strided view (one pair at a time) of the same draw
    t7::manualSeed(21);
    t7::FloatTensor plain(100003);
    plain.normal(1, 2);
    t7::manualSeed(21);
    t7::FloatTensor wide(100003, 2);
    t7::FloatTensor col = wide.select(1, 0);
    col.normal(1, 2);
    CHECK(same(plain.toDouble(), col.toDouble()));
    // against the formula in double with the C library, word by word
    const int64_t pairs = 50000;
    std::vector<uint32_t> w(size_t(2 * pairs));
    t7::philox::blocks(99, 0, pairs / 2, w.data());
    t7::Generator g(99);
    t7::FloatTensor z(2 * pairs);
    z.normal(g);
    double worst = 0;
    for (int64_t i = 0; i < pairs; ++i) {
        // u1 as the float code rounds it (k + 1/2 has 25 bits)
        const double u1 = double((float(w[size_t(2 * i)] >> 8) + 0.5f) * 0x1p-24f);
        const double u2 = double(w[size_t(2 * i + 1)] >> 8) * 0x1p-24;
        const double r = std::sqrt(-2 * std::log(u1)), th = 2 * M_PI * u2;
        worst = std::max({worst, std::abs(z.data()[2 * i] - r * std::cos(th)) / std::max(1.0, r),
                          std::abs(z.data()[2 * i + 1] - r * std::sin(th)) / std::max(1.0, r)});
    }
    CHECK(worst < 2e-6);
    const auto m = moments(z.toDouble());
    CHECK(std::abs(m.mean) < 0.01);
    CHECK(m.var == doctest::Approx(1).epsilon(0.01));
}
