// apply / map / map2: Torch7's examples (shared/torch7/tensor_apply_split.txt and
// tensor_constructors.txt) translated to C++ lambdas. The callable sees the
// elements of self (and of the other tensors) in layout order, each tensor in its
// own row-major order; a returned value is stored into self (converted to its
// element type, truncating like Torch7), a void callable stores nothing.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;

// ---------------------------------------------------------------------------------
// apply
// ---------------------------------------------------------------------------------

TEST_CASE("apply with a counter fills the tensor in layout order") {
    // i = 0; z = torch.Tensor(3,3); z:apply(function(x) i = i + 1; return i end)
    int i = 0;
    DoubleTensor z(3, 3);
    DoubleTensor& r = z.apply([&](double) { return ++i; });
    CHECK(&r == &z);
    CHECK(i == 9);
    CHECK(values(z) == iota(1, 9));
    // x = torch.Tensor(4,5); x:apply(function() i = i + 1; return i end)
    i = 0;
    DoubleTensor x(4, 5);
    x.apply([&] { return ++i; });
    CHECK(values(x) == iota(1, 20));
    CHECK(x.strides() == Shape{5, 1});
    // x = torch.Tensor(5):apply(...)
    i = 0;
    DoubleTensor v = DoubleTensor(5).apply([&] { return ++i; });
    CHECK(values(v) == Values{1, 2, 3, 4, 5});
}

TEST_CASE("apply a function, and apply to accumulate without storing") {
    DoubleTensor z = seq({3, 3});
    // z:apply(math.sin)
    z.apply(static_cast<double (*)(double)>(std::sin));
    for (int k = 0; k < 9; ++k) CHECK(z.storage()[k] == std::sin(double(k + 1)));
    const double printed[] = {0.8415,  0.9093, 0.1411, -0.7568, -0.9589,
                              -0.2794, 0.6570, 0.9894, 0.4121};
    for (int k = 0; k < 9; ++k) CHECK(std::abs(z.storage()[k] - printed[k]) <= 5e-5);
    // sum = 0; z:apply(function(x) sum = sum + x end)
    const Values before = values(z);
    double sum = 0;
    z.apply([&](double x) { sum += x; });
    CHECK(sum == doctest::Approx(1.9552094821073802).epsilon(1e-14));
    CHECK(values(z) == before); // a void function stores nothing
    // a lambda returning a value through a generic parameter
    z.apply([](auto x) { return x * 2; });
    CHECK(z(0, 0) == 2 * std::sin(1.0));
}

TEST_CASE("apply on a transposed view visits the view's own row-major order") {
    // x = torch.zeros(3,4); i = 0; x:t():apply(function() i = i + 1; return i end)
    DoubleTensor x(3, 4);
    x.zero();
    int i = 0;
    x.t().apply([&] { return ++i; });
    CHECK(values(x) == Values{1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12});
    // order = {}; torch.range(1,6):view(2,3):t():apply(function(v) table.insert(order, v) end)
    std::vector<double> order;
    seq({2, 3}).t().apply([&](double v) { order.push_back(v); });
    CHECK(order == std::vector<double>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("apply stores with the element type's truncation") {
    // torch.IntTensor({1,2,3}):apply(function(v) return v * 2.7 end)
    IntTensor t = seq<int32_t>({3});
    t.apply([](int32_t v) { return v * 2.7; });
    CHECK(values(t) == Values{2, 5, 8});
    // negative values truncate toward zero, bytes wrap
    IntTensor n = seq<int32_t>({3});
    n.apply([](int32_t v) { return -v * 1.5; });
    CHECK(values(n) == Values{-1, -3, -4});
    ByteTensor b = seq<uint8_t>({2});
    b.apply([](uint8_t v) { return v * -2.7; });
    CHECK(values(b) == Values{254, 251});
    // a bool result is stored as 0 / 1
    DoubleTensor d = seq({4});
    d.apply([](double v) { return v > 2; });
    CHECK(values(d) == Values{0, 0, 1, 1});
}

TEST_CASE("apply with a reference parameter modifies in place") {
    FloatTensor f = seq<float>({2, 2});
    f.apply([](float& v) { v *= 10; });
    CHECK(values(f) == Values{10, 20, 30, 40});
    // chained
    f.apply([](float v) { return v + 1; }).apply([](float& v) { v = -v; });
    CHECK(values(f) == Values{-11, -21, -31, -41});
}

TEST_CASE("apply touches only the view's elements") {
    DoubleTensor m(4, 5);
    m.zero();
    int i = 0;
    m.narrow(0, 1, 2).narrow(1, 1, 3).apply([&] { return ++i; });
    CHECK(values(m) == Values{0, 0, 0, 0, 0, //
                              0, 1, 2, 3, 0, //
                              0, 4, 5, 6, 0, //
                              0, 0, 0, 0, 0});
    // a stepped column
    m(slice(0, 4, 2), 4).apply([] { return 9; });
    CHECK(m(0, 4) == 9);
    CHECK(m(1, 4) == 0);
    CHECK(m(2, 4) == 9);
    // 3-D permuted view
    DoubleTensor c(2, 3, 4);
    i = 0;
    c.permute(2, 0, 1).apply([&] { return ++i; }); // 4x2x3 view
    CHECK(c(0, 0, 0) == 1);
    CHECK(c(0, 1, 0) == 2);
    CHECK(c(1, 0, 0) == 4);
    CHECK(c(0, 0, 1) == 7);
    CHECK(c(1, 2, 3) == 24);
    // an empty tensor calls nothing
    int calls = 0;
    DoubleTensor().apply([&] {
        ++calls;
        return 0;
    });
    CHECK(calls == 0);
}

// ---------------------------------------------------------------------------------
// map and map2
// ---------------------------------------------------------------------------------

TEST_CASE("map: element-wise with another tensor of the same count") {
    // x = 3x3 of 1..9, y = 9 of 1..9; x:map(y, function(xx, yy) return xx*yy end)
    DoubleTensor x = seq({3, 3});
    DoubleTensor y = seq({9});
    DoubleTensor& r = x.map(y, [](double xx, double yy) { return xx * yy; });
    CHECK(&r == &x);
    CHECK(values(x) == Values{1, 4, 9, 16, 25, 36, 49, 64, 81});
    CHECK(values(y) == iota(1, 9)); // the other tensor is only read
    CHECK(x.sizes() == Shape{3, 3});
}

TEST_CASE("map2: element-wise with two other tensors") {
    // x(i) = cos(i)^2, y = 1..9, z = 3x3 of 1..9; x:map2(y, z, xx + yy*zz)
    DoubleTensor x(3, 3), y(9), z(3, 3);
    int i = 0;
    x.apply([&] {
        ++i;
        return std::cos(i) * std::cos(i);
    });
    const Values printed_x{0.2919, 0.1732, 0.9801, 0.4272, 0.0805, 0.9219, 0.5684, 0.0212, 0.8302};
    for (size_t k = 0; k < 9; ++k) CHECK(std::abs(values(x)[k] - printed_x[k]) <= 5e-5);
    i = 0;
    y.apply([&] { return ++i; });
    i = 0;
    z.apply([&] { return ++i; });
    x.map2(y, z, [](double xx, double yy, double zz) { return xx + yy * zz; });
    const Values printed{1.2919,  4.1732,  9.9801,  16.4272, 25.0805,
                         36.9219, 49.5684, 64.0212, 81.8302};
    for (int k = 0; k < 9; ++k) {
        double c = std::cos(double(k + 1));
        CHECK(x.storage()[k] == c * c + double((k + 1) * (k + 1)));
        CHECK(std::abs(x.storage()[k] - printed[size_t(k)]) <= 5e-5); // 4 printed decimals
    }
}

TEST_CASE("map and map2 pair elements in each tensor's own layout order") {
    DoubleTensor y = seq({2, 3}); // layout of y.t(): 1 4 2 5 3 6
    // a transposed other
    DoubleTensor a(6);
    a.zero();
    a.map(y.t(), [](double, double v) { return v; });
    CHECK(values(a) == Values{1, 4, 2, 5, 3, 6});
    // a transposed self
    DoubleTensor b(2, 3);
    b.zero();
    b.t().map(seq({6}), [](double, double v) { return v; });
    CHECK(values(b) == Values{1, 3, 5, 2, 4, 6});
    // other element types, other shapes
    DoubleTensor c(3, 2);
    c.fill(0.5);
    c.map2(seq<int32_t>({6}), seq<uint8_t>({2, 3}).t(),
           [](double s, int32_t p, uint8_t q) { return s + p * 10 + q; });
    CHECK(values(c) == Values{11.5, 24.5, 32.5, 45.5, 53.5, 66.5});
    // a void callable reads pairs without storing
    double dot = 0;
    DoubleTensor u = seq({4});
    u.map(seq<float>({2, 2}), [&](double p, float q) { dot += p * q; });
    CHECK(dot == 30);
    CHECK(values(u) == iota(1, 4));
    // a reference to self's element
    u.map(seq({4}), [](double& p, double q) { p -= q; });
    CHECK(values(u) == Values(4, 0.0));
    // an expanded other
    DoubleTensor w(2, 3);
    w.zero();
    w.map(seq({1, 3}).expand(2, 3), [](double, double v) { return v; });
    CHECK(values(w) == Values{1, 2, 3, 1, 2, 3});
    // self mapped with itself
    DoubleTensor s = seq({3});
    s.map(s, [](double p, double q) { return p * q; });
    CHECK(values(s) == Values{1, 4, 9});
    // integer truncation on store
    IntTensor it(3);
    it.zero();
    it.map(seq({3}), [](int32_t, double v) { return v * 1.9; });
    CHECK(values(it) == Values{1, 3, 5});
}

TEST_CASE("map and map2 need equal element counts") {
    DoubleTensor x(3, 3);
    x.zero();
    CHECK_THROWS_OP(x.map(DoubleTensor(8), [](double a, double) { return a; }), ShapeError, "map");
    CHECK_THROWS_OP(x.map(DoubleTensor(), [](double a, double) { return a; }), ShapeError, "map");
    CHECK_THROWS_OP(
        x.map2(DoubleTensor(9), DoubleTensor(10), [](double a, double, double) { return a; }),
        ShapeError, "map2");
    CHECK_THROWS_OP(
        x.map2(DoubleTensor(2, 4), DoubleTensor(9), [](double a, double, double) { return a; }),
        ShapeError, "map2");
    // the message names the sizes
    CHECK_THROWS_WITH_AS(x.map(DoubleTensor(8), [](double a, double) { return a; }),
                         doctest::Contains("8"), ShapeError);
    CHECK(values(x) == Values(9, 0.0)); // nothing written
    // two empty tensors: nothing to do
    int calls = 0;
    DoubleTensor().map(DoubleTensor(), [&](double, double) { ++calls; });
    CHECK(calls == 0);
}

// ---------------------------------------------------------------------------------
// Over element types and layouts
// ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("apply / map / map2 on every type and layout", T, uint8_t, int8_t, int16_t,
                   int32_t, int64_t, float, double) {
    Tensor<T> base(5, 7);
    base.fill(T(0));
    Tensor<T> x;
    SUBCASE("contiguous") {
        x.set(Tensor<T>(3, 4));
        REQUIRE(x.isContiguous());
    }
    SUBCASE("transposed") {
        x.set(Tensor<T>(4, 3).t());
        REQUIRE_FALSE(x.isContiguous());
    }
    SUBCASE("narrowed") {
        x.set(base.narrow(0, 1, 3).narrow(1, 2, 4));
        REQUIRE_FALSE(x.isContiguous());
    }
    SUBCASE("stepped") {
        x.set(Tensor<T>(3, 8)(all, slice(1, 8, 2)));
        REQUIRE_FALSE(x.isContiguous());
    }
    REQUIRE(x.sizes() == Shape{3, 4});

    int i = 0;
    x.apply([&] { return ++i; });
    CHECK(values(x) == iota(1, 12));
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 4; ++c) CHECK(double(x(r, c)) == double(r * 4 + c + 1));

    std::vector<double> seen;
    x.apply([&](T v) { seen.push_back(double(v)); });
    CHECK(seen == iota(1, 12));

    x.map(seq<T>({12}), [](T a, T b) { return a + b; });
    CHECK(values(x) == [] {
        Values v;
        for (int k = 1; k <= 12; ++k) v.push_back(2 * k);
        return v;
    }());

    x.map2(seq<T>({4, 3}).t(), seq<double>({2, 6}),
           [](T, T b, double c) { return double(b) + c / 2; });
    // seq(4,3).t() in layout order: 1 4 7 10 2 5 8 11 3 6 9 12; plus (1..12)/2
    Values expect;
    const double bt[] = {1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12};
    for (int k = 0; k < 12; ++k) {
        double v = bt[k] + double(k + 1) / 2;
        expect.push_back(std::is_integral_v<T> ? std::trunc(v) : v);
    }
    CHECK(values(x) == expect);

    if (x.storage() == base.storage()) { // nothing outside the view changed
        CHECK(base(0, 0) == T(0));
        CHECK(base(1, 1) == T(0));
        CHECK(base(1, 6) == T(0));
        CHECK(base(4, 6) == T(0));
    }
}
