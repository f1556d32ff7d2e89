// Reductions fused with their input: whole-tensor and along a dimension,
// against scalar reference loops, on contiguous, transposed and broadcast inputs.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace {

template <class T>
t7::Tensor<T> pattern(t7::Shape s, int mod = 7, int offset = 0) {
    t7::Tensor<T> t(s);
    int i = 0;
    t.apply([&] { return T((i++ * 5 + offset) % mod); });
    return t;
}

} // namespace

TEST_CASE_TEMPLATE("sum/prod/max/min/mean over all elements", T, uint8_t, int32_t, int64_t, float,
                   double) {
    for (t7::Shape s : {t7::Shape{1}, t7::Shape{7}, t7::Shape{300, 257}}) {
        auto a = pattern<T>(s);
        double sum = 0, mx = -1e300, mn = 1e300;
        a.apply([&](T v) {
            sum += double(v);
            mx = std::max(mx, double(v));
            mn = std::min(mn, double(v));
        });
        CHECK(double(t7::sum(a)) == doctest::Approx(sum));
        CHECK(double(t7::max(a)) == mx);
        CHECK(double(t7::min(a)) == mn);
        CHECK(t7::mean(a) == doctest::Approx(sum / double(a.nElement())));
    }
    t7::Tensor<T> small(2, 3);
    int k = 0;
    const int vals[] = {1, 2, 3, 4, 2, 1};
    small.apply([&] { return T(vals[k++]); });
    CHECK(double(t7::prod(small)) == 48);
    CHECK(double(t7::prod(small.t())) == 48);
}

TEST_CASE("sums of integer types do not overflow and have a wide result type") {
    t7::ByteTensor b(1000);
    b = 200;
    static_assert(std::is_same_v<decltype(t7::sum(b)), int64_t>);
    CHECK(t7::sum(b) == 200000);
    static_assert(std::is_same_v<decltype(t7::sum(b, 0))::value_type, int64_t>);
    CHECK(t7::sum(b, 0)(0) == 200000);
}

TEST_CASE("float sums are accurate: 4M copies of 0.1f") {
    t7::FloatTensor x(int64_t(1) << 22);
    x = 0.1f;
    double exact = double(0.1f) * double(int64_t(1) << 22);
    CHECK(std::abs(double(t7::sum(x)) - exact) / exact < 1e-4);
    t7::FloatTensor m(2048, 2048);
    m = 0.1f;
    auto cols = t7::sum(m, 0);
    CHECK(std::abs(double(cols(0, 5)) - 2048 * double(0.1f)) / (2048 * 0.1) < 1e-5);
}

TEST_CASE("reductions consume whole expressions without a temporary result") {
    auto a = pattern<float>({100, 60});
    auto b = pattern<float>({100, 60}, 5, 2);
    double ref = 0;
    for (int64_t i = 0; i < 100; ++i)
        for (int64_t j = 0; j < 60; ++j) ref += double(a(i, j)) * double(b(i, j));
    CHECK(double(t7::sum(a * b)) == doctest::Approx(ref));
    CHECK(t7::all(a >= 0.f));
    CHECK_FALSE(t7::all(a > 0.f));
    CHECK(t7::any(a == 6.f));
    CHECK_FALSE(t7::any(a > 6.f));
    // transposed and broadcast operands
    double reft = 0;
    for (int64_t i = 0; i < 100; ++i)
        for (int64_t j = 0; j < 60; ++j) reft += double(a(i, j)) * double(a(0, j));
    CHECK(double(t7::sum(a * a.narrow(0, 0, 1))) == doctest::Approx(reft));
    CHECK(double(t7::sum(a.t())) == doctest::Approx(double(t7::sum(a))));
}

TEST_CASE("norm") {
    t7::DoubleTensor v(3);
    v(0) = 3;
    v(1) = -4;
    v(2) = 0;
    CHECK(t7::norm(v) == doctest::Approx(5));
    CHECK(t7::norm(v, 1) == doctest::Approx(7));
    CHECK(t7::norm(v, 3) == doctest::Approx(std::cbrt(27.0 + 64.0)));
    auto n = t7::norm(v.view(1, 3), 2, 1);
    CHECK(n.sizes() == t7::Shape{1, 1});
    CHECK(n(0, 0) == doctest::Approx(5));
}

TEST_CASE_TEMPLATE("reductions along a dimension keep it with size 1", T, int32_t, float, double) {
    auto a = pattern<T>({6, 9, 4});
    for (int64_t d = 0; d < 3; ++d) {
        auto s = t7::sum(a, d);
        auto [mx, ix] = t7::max(a, d);
        auto [mn, in] = t7::min(a, d);
        t7::Shape keep = a.sizes();
        keep[size_t(d)] = 1;
        CHECK(s.sizes() == keep);
        CHECK(mx.sizes() == keep);
        CHECK(ix.sizes() == keep);
        for (int64_t i = 0; i < keep[0]; ++i)
            for (int64_t j = 0; j < keep[1]; ++j)
                for (int64_t k = 0; k < keep[2]; ++k) {
                    double ref = 0, best = -1e300, worst = 1e300;
                    int64_t bi = -1, wi = -1;
                    for (int64_t r = 0; r < a.size(d); ++r) {
                        int64_t idx[3] = {i, j, k};
                        idx[d] = r;
                        double v = double(a(idx[0], idx[1], idx[2]));
                        ref += v;
                        if (v > best) best = v, bi = r;
                        if (v < worst) worst = v, wi = r;
                    }
                    CHECK(double(s(i, j, k)) == doctest::Approx(ref));
                    CHECK(double(mx(i, j, k)) == best);
                    CHECK(ix(i, j, k) == bi); // first maximum, 0-based
                    CHECK(double(mn(i, j, k)) == worst);
                    CHECK(in(i, j, k) == wi);
                }
    }
    CHECK(t7::sum(a, -1).sizes() == t7::Shape{6, 9, 1});
}

TEST_CASE("row and column sums of a large matrix (threaded paths)") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        auto a = pattern<float>({1000, 700});
        auto rows = t7::sum(a, 1), cols = t7::sum(a, 0);
        for (int64_t i : {int64_t(0), int64_t(499), int64_t(999)}) {
            double r = 0;
            for (int64_t j = 0; j < 700; ++j) r += a(i, j);
            CHECK(double(rows(i, 0)) == doctest::Approx(r));
        }
        for (int64_t j : {int64_t(0), int64_t(350), int64_t(699)}) {
            double c = 0;
            for (int64_t i = 0; i < 1000; ++i) c += a(i, j);
            CHECK(double(cols(0, j)) == doctest::Approx(c));
        }
        CHECK(double(t7::sum(a)) == doctest::Approx(double(t7::sum(rows))));
    }
    t7::setNumThreads(2);
}

TEST_CASE("float column sums: every column, blocked accumulation, several rows of outputs") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        // widths with and without a packet tail; 3-D: the output row changes every 37 runs
        for (t7::Shape s : {t7::Shape{1000, 704}, t7::Shape{999, 701}, t7::Shape{3, 37, 20}}) {
            CAPTURE(s);
            auto a = pattern<float>(s, 11);
            const int64_t lead = s.size() == 3 ? s[0] : 1, rows = s[s.size() - 2],
                          cols = s[s.size() - 1];
            auto c = t7::sum(a, int64_t(s.size()) - 2);
            REQUIRE(c.dim() == int64_t(s.size()));
            CHECK(c.size(int64_t(s.size()) - 2) == 1);
            const float* p = a.data();
            const float* q = c.data();
            for (int64_t l = 0; l < lead; ++l)
                for (int64_t j = 0; j < cols; ++j) {
                    double want = 0;
                    for (int64_t i = 0; i < rows; ++i) want += p[(l * rows + i) * cols + j];
                    CHECK(double(q[l * cols + j]) == want); // small integers: exact
                }
        }
    }
    // 0.1f down 300000 rows: a float running sum drifts by ~1e-3 relative
    t7::FloatTensor x(300000, 16);
    x.fill(0.1f);
    auto c = t7::sum(x, 0);
    for (int64_t j = 0; j < 16; ++j)
        CHECK(double(c(0, j)) == doctest::Approx(300000 * double(0.1f)).epsilon(1e-6));
    t7::setNumThreads(2);
}

TEST_CASE_TEMPLATE("column sums of expressions: broadcast operands, odd row counts, wide rows", T,
                   float, double) {
    // Rows are combined in groups of four and staged up to 4096 wide: these
    // shapes leave 1-3 rows over, cross the 64-row fold and exceed the stage.
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        for (t7::Shape s : {t7::Shape{7, 33}, t7::Shape{131, 50}, t7::Shape{66, 5000}}) {
            CAPTURE(s);
            const int64_t rows = s[0], cols = s[1];
            auto a = pattern<T>(s, 13);
            auto col = pattern<T>({rows, 1}, 5, 1); // inner stride 0: broadcast per packet
            auto row = pattern<T>({1, cols}, 3, 2);
            auto got = t7::sum(a * col + row, 0);
            REQUIRE(got.sizes() == t7::Shape{1, cols});
            for (int64_t j = 0; j < cols; ++j) {
                double want = 0;
                for (int64_t i = 0; i < rows; ++i)
                    want += double(a(i, j)) * double(col(i, 0)) + double(row(0, j));
                CHECK(double(got(0, j)) == want); // small integers: exact
            }
        }
    }
    t7::setNumThreads(2);
}

TEST_CASE_TEMPLATE("row reductions of expressions: blocks of rows, strided and broadcast operands",
                   T, int32_t, float, double) {
    // Rows that each fold into one output come in blocks (one call per block):
    // a 3-D view keeps the walk 3-D (blocks end at each outer index), a column
    // operand is broadcast along the row (inner stride 0), a transposed operand
    // is strided, and rows of 1, 7 and 37 elements leave packet tails.
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        for (int64_t w : {int64_t(1), int64_t(7), int64_t(37), int64_t(300)}) {
            CAPTURE(w);
            auto big = pattern<T>({4, 11, w + 3}, 13);
            auto a = big.narrow(2, 1, w); // rows of w elements, not contiguous
            auto col = pattern<T>({4, 11, 1}, 5, 1);
            auto bt = pattern<T>({4, w, 11}, 3, 2).transpose(1, 2);
            auto s = t7::sum(a * col + bt, 2);
            auto p = t7::prod(a - bt + 1, 2); // checked where it stays small
            auto mx = t7::max(a + col, 2).values;
            REQUIRE(s.sizes() == t7::Shape{4, 11, 1});
            for (int64_t i = 0; i < 4; ++i)
                for (int64_t j = 0; j < 11; ++j) {
                    double want = 0, prod = 1, best = -1e300;
                    for (int64_t k = 0; k < w; ++k) {
                        const double x = double(a(i, j, k)), c = double(col(i, j, 0)),
                                     y = double(bt(i, j, k));
                        want += x * c + y;
                        prod *= x - y + 1;
                        best = std::max(best, x + c);
                    }
                    CHECK(double(s(i, j, 0)) == want); // small integers: exact
                    if (w <= 7) CHECK(double(p(i, j, 0)) == doctest::Approx(prod));
                    CHECK(double(mx(i, j, 0)) == best);
                }
        }
    }
    t7::setNumThreads(2);
}

TEST_CASE("max/min propagate NaN, like Torch7") {
    t7::DoubleTensor v(5);
    v = 1.0;
    v(3) = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(t7::max(v)));
    CHECK(std::isnan(t7::min(v)));
    auto [m, i] = t7::max(v.view(1, 5), 1);
    CHECK(std::isnan(m(0, 0)));
    CHECK(i(0, 0) == 3);
}

TEST_CASE("std, var, mean along a dimension and overall") {
    t7::DoubleTensor x(2, 4);
    double vals[] = {1, 2, 3, 4, 2, 4, 6, 8};
    int k = 0;
    x.apply([&] { return vals[k++]; });
    auto m = t7::mean(x, 1);
    CHECK(m(0, 0) == doctest::Approx(2.5));
    CHECK(m(1, 0) == doctest::Approx(5));
    auto v = t7::var(x, 1);
    CHECK(v(0, 0) == doctest::Approx(5.0 / 3));
    CHECK(v(1, 0) == doctest::Approx(20.0 / 3));
    auto vb = t7::var(x, 1, true);
    CHECK(vb(0, 0) == doctest::Approx(1.25));
    auto s = t7::std(x, 0);
    CHECK(s.sizes() == t7::Shape{1, 4});
    CHECK(s(0, 1) == doctest::Approx(std::sqrt(2.0)));
    CHECK(t7::var(x) ==
          doctest::Approx(37.5 / 7)); // unbiased: squared deviations from 3.75 sum to 37.5
    CHECK(t7::std(x) == doctest::Approx(std::sqrt(37.5 / 7)));
    t7::IntTensor xi(2, 2);
    xi = 3;
    static_assert(std::is_same_v<decltype(t7::mean(xi, 0))::value_type, double>);
}

TEST_CASE("cumsum and cumprod") {
    t7::DoubleTensor x(2, 3);
    int k = 1;
    x.apply([&] { return double(k++); });
    auto c1 = t7::cumsum(x, 1);
    CHECK(c1(0, 2) == 6);
    CHECK(c1(1, 2) == 15);
    auto c0 = t7::cumsum(x, 0);
    CHECK(c0(1, 0) == 5);
    CHECK(c0(0, 1) == 2);
    auto p = t7::cumprod(x.t(), 0); // transposed input
    CHECK(p.sizes() == t7::Shape{3, 2});
    CHECK(p(2, 0) == 6);
    CHECK(p(2, 1) == 120);
    t7::ByteTensor b(3);
    b = 200;
    auto cb = t7::cumsum(b, 0);
    static_assert(std::is_same_v<decltype(cb)::value_type, int64_t>);
    CHECK(cb(2) == 600);
}

TEST_CASE("reduction errors") {
    t7::FloatTensor a(3, 4), empty;
    a = 1.f;
    CHECK_THROWS_AS(t7::sum(a, 2), t7::IndexError);
    CHECK_THROWS_AS(t7::max(a, -3), t7::IndexError);
    CHECK_THROWS_AS(t7::max(empty), t7::ShapeError);
    CHECK(t7::sum(empty) == 0);
    try {
        t7::sum(a, 5);
        FAIL("no exception");
    } catch (const t7::IndexError& e) {
        CHECK(std::string(e.what()).find("sum") != std::string::npos);
        CHECK(std::string(e.what()).find("3x4") != std::string::npos);
    }
    t7::FloatTensor b(5);
    CHECK_THROWS_AS(t7::sum(a + b), t7::ShapeError);
}
