// NumPy conveniences (third round, issue 35): reductions of empty inputs and of
// selections, t7::newaxis, diagonal views, reductions over several dimensions,
// outer and tensordot. Values are hand-computed or from naive loops.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace t7;
using namespace test_util;

// ---- empty inputs and selections --------------------------------------------------------

TEST_CASE("mean, var, std of nothing are NaN; max, min of nothing throw") {
    DoubleTensor e;
    CHECK(std::isnan(t7::mean(e)));
    CHECK(std::isnan(t7::var(e)));
    CHECK(std::isnan(t7::std(e)));
    CHECK(std::isnan(t7::mean(e * 2)));
    CHECK(t7::sum(e) == 0);
    CHECK_THROWS_AS(t7::max(e), ShapeError);
    CHECK_THROWS_AS(t7::min(e), ShapeError);
    // an empty selection
    DoubleTensor x = seq({4}); // 1 2 3 4
    CHECK(std::isnan(t7::mean(x[x > 10])));
    CHECK(std::isnan(t7::var(x[x > 10])));
    CHECK(std::isnan(t7::std(x[x > 10])));
    CHECK_THROWS_AS(t7::max(x[x > 10]), ShapeError);
    CHECK_THROWS_AS(t7::min(x[x > 10]), ShapeError);
    IntTensor i;
    CHECK(std::isnan(t7::mean(i)));
}

TEST_CASE("reductions of a selection x[mask]") {
    DoubleTensor x = seq({2, 3}); // 1..6
    CHECK(t7::sum(x[x > 3]) == 15);
    CHECK(t7::prod(x[x > 3]) == 120);
    CHECK(t7::mean(x[x > 3]) == 5);
    CHECK(t7::var(x[x > 3]) == doctest::Approx(1.0));
    CHECK(t7::std(x[x > 3]) == doctest::Approx(1.0));
    CHECK(t7::max(x[x < 3]) == 2);
    CHECK(t7::min(x[x > 3]) == 4);
    CHECK(t7::norm(x[x > 4]) == doctest::Approx(std::sqrt(61.0)));
    CHECK(t7::any(x[x > 5]));
    CHECK_FALSE(t7::any(x[x > 6]));
}

// ---- newaxis ------------------------------------------------------------------------------

TEST_CASE("x(..., t7::newaxis, ...) inserts a dimension of size 1, a view") {
    DoubleTensor x = seq({2, 3});
    SUBCASE("first, middle, last, and several") {
        DoubleTensor a = x(newaxis);
        CHECK(a.sizes() == Shape{1, 2, 3});
        check_shares(a, x);
        DoubleTensor b = x(all, newaxis);
        CHECK(b.sizes() == Shape{2, 1, 3});
        CHECK(b.strides() == Shape{3, 3, 1});
        CHECK(b.isContiguous());
        DoubleTensor c = x(all, all, newaxis);
        CHECK(c.sizes() == Shape{2, 3, 1});
        CHECK(values(c) == values(x));
        DoubleTensor d = x(newaxis, all, newaxis, all, newaxis);
        CHECK(d.sizes() == Shape{1, 2, 1, 3, 1});
        CHECK(values(d) == values(x));
        CHECK(x(newaxis).sizes() == x.unsqueeze(0).sizes());
    }
    SUBCASE("with integers and slices") {
        DoubleTensor r = x(1, newaxis); // row 1 as 1x3
        CHECK(r.sizes() == Shape{1, 3});
        CHECK(values(r) == Values{4, 5, 6});
        DoubleTensor s = x(newaxis, all, slice(1, 3));
        CHECK(s.sizes() == Shape{1, 2, 2});
        CHECK(values(s) == Values{2, 3, 5, 6});
        DoubleTensor col = x(all, 2, newaxis); // column 2 as 2x1
        CHECK(col.sizes() == Shape{2, 1});
        CHECK(values(col) == Values{3, 6});
        col.fill(0); // a view: writes land in x
        CHECK(values(x) == Values{1, 2, 0, 4, 5, 0});
    }
    SUBCASE("broadcasting with it: an outer sum") {
        DoubleTensor u = seq({3}), v = seq({2}, 10);
        DoubleTensor o = t7::eval(u(all, newaxis) + v(newaxis, all));
        CHECK(o.sizes() == Shape{3, 2});
        CHECK(values(o) == Values{11, 12, 12, 13, 13, 14});
    }
    SUBCASE("newaxis does not count against the dimensions; errors") {
        CHECK(x(newaxis, 0, 1, newaxis).sizes() == Shape{1, 1});
        CHECK(x(newaxis, 0, 1, newaxis).data()[0] == 2);
        CHECK_THROWS_AS(x(newaxis, 0, 0, 0), IndexError);
        CHECK_THROWS_AS(DoubleTensor()(newaxis), ShapeError);
    }
}

// ---- diagonal -----------------------------------------------------------------------------

TEST_CASE("x.diagonal(offset, d1, d2): a view") {
    DoubleTensor x = seq({3, 4}); // 1 2 3 4 / 5 6 7 8 / 9 10 11 12
    SUBCASE("main, above, below, past the edge") {
        DoubleTensor d = x.diagonal();
        CHECK(d.sizes() == Shape{3});
        CHECK(d.strides() == Shape{5});
        CHECK(values(d) == Values{1, 6, 11});
        check_shares(d, x);
        CHECK(values(x.diagonal(1)) == Values{2, 7, 12});
        CHECK(values(x.diagonal(2)) == Values{3, 8});
        CHECK(values(x.diagonal(3)) == Values{4});
        CHECK(x.diagonal(4).dim() == 0);
        CHECK(values(x.diagonal(-1)) == Values{5, 10});
        CHECK(values(x.diagonal(-2)) == Values{9});
        CHECK(x.diagonal(-3).dim() == 0);
        CHECK(x.diagonal(std::numeric_limits<int64_t>::min()).dim() == 0);
    }
    SUBCASE("writes through the view; swapped dims; negative dims") {
        DoubleTensor d = x.diagonal(-1);
        d.fill(0);
        CHECK(values(x) == Values{1, 2, 3, 4, 0, 6, 7, 8, 9, 0, 11, 12});
        CHECK(values(x.diagonal(1, 1, 0)) == values(x.diagonal(-1)));
        CHECK(values(x.diagonal(0, -1, -2)) == Values{1, 6, 11});
        CHECK(values(x.t().diagonal(2)) == Values{9}); // x.t() is 4x3
    }
    SUBCASE("3-D: the diagonal goes last") {
        DoubleTensor y = seq({2, 3, 3}); // y[b][i][j] = 1 + 9b + 3i + j
        DoubleTensor d = y.diagonal(0, 1, 2);
        CHECK(d.sizes() == Shape{2, 3});
        CHECK(values(d) == Values{1, 5, 9, 10, 14, 18});
        check_shares(d, y);
        DoubleTensor e = y.diagonal(1, 0, 2); // (b, i, b + 1): kept dim i first
        CHECK(e.sizes() == Shape{3, 2});
        // e[i][k] = y[k][i][k + 1]
        CHECK(values(e) == Values{2, 12, 5, 15, 8, 18});
    }
    SUBCASE("errors") {
        CHECK_THROWS_AS(seq({3}).diagonal(), ShapeError);
        CHECK_THROWS_AS(x.diagonal(0, 0, 0), IndexError);
        CHECK_THROWS_AS(x.diagonal(0, 0, 2), IndexError);
        CHECK_THROWS_AS(x.diagonal(0, -3, 1), IndexError);
    }
}

// ---- reductions over several dimensions ---------------------------------------------------

namespace {
// x[i][j][k] of a 3-D tensor by sizes and strides.
double at3(const DoubleTensor& x, int64_t i, int64_t j, int64_t k) {
    return x.data()[i * x.stride(0) + j * x.stride(1) + k * x.stride(2)];
}

// Naive reduction of a 3-D tensor over the dims flagged in r: f(values) per
// kept position, in the kept shape's layout order.
template <class F>
Values naive3(const DoubleTensor& x, std::array<bool, 3> r, F&& f) {
    Values out;
    const int64_t n0 = x.size(0), n1 = x.size(1), n2 = x.size(2);
    for (int64_t i = 0; i < (r[0] ? 1 : n0); ++i)
        for (int64_t j = 0; j < (r[1] ? 1 : n1); ++j)
            for (int64_t k = 0; k < (r[2] ? 1 : n2); ++k) {
                Values v;
                for (int64_t a = 0; a < n0; ++a)
                    for (int64_t b = 0; b < n1; ++b)
                        for (int64_t c = 0; c < n2; ++c)
                            if ((r[0] || a == i) && (r[1] || b == j) && (r[2] || c == k))
                                v.push_back(at3(x, a, b, c));
                out.push_back(f(v));
            }
    return out;
}
double vsum(const Values& v) {
    double s = 0;
    for (double a : v) s += a;
    return s;
}
double vmean(const Values& v) { return vsum(v) / double(v.size()); }
double vvar(const Values& v) {
    const double m = vmean(v);
    double s = 0;
    for (double a : v) s += (a - m) * (a - m);
    return s / double(v.size() - 1);
}
bool near(const Values& a, const Values& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > 1e-9 * (1 + std::abs(b[i]))) return false;
    return true;
}
Shape kept(const Shape& s, std::array<bool, 3> r) {
    Shape k = s;
    for (size_t d = 0; d < 3; ++d)
        if (r[d]) k[d] = 1;
    return k;
}
} // namespace

TEST_CASE("t7::sum(x, {dims}) and the rest against naive loops") {
    DoubleTensor base = seq({3, 4, 5});
    base.apply([](double& v) { v = std::fmod(v * 7.3, 11.0) - 5; });
    // inputs: contiguous, a transposed view, a permuted view (neither chains always)
    const std::vector<DoubleTensor> inputs = {base, base.transpose(0, 2).clone().transpose(0, 2),
                                              base.permute(1, 2, 0).clone().permute(2, 0, 1)};
    for (const DoubleTensor& x : inputs) {
        REQUIRE(values(x) == values(base));
        auto check = [&](std::initializer_list<int64_t> dims, std::array<bool, 3> r) {
            CAPTURE(r[0]);
            CAPTURE(r[1]);
            CAPTURE(r[2]);
            const Shape k = kept(x.sizes(), r);
            DoubleTensor s = t7::sum(x, dims);
            CHECK(s.sizes() == k);
            CHECK(near(values(s), naive3(x, r, vsum)));
            CHECK(near(values(t7::mean(x, dims)), naive3(x, r, vmean)));
            CHECK(near(values(t7::var(x, dims)), naive3(x, r, vvar)));
            CHECK(near(values(t7::std(x, dims)),
                       naive3(x, r, [](const Values& v) { return std::sqrt(vvar(v)); })));
            CHECK(near(values(t7::max(x, dims)), naive3(x, r, [](const Values& v) {
                           return *std::max_element(v.begin(), v.end());
                       })));
            CHECK(near(values(t7::min(x, dims)), naive3(x, r, [](const Values& v) {
                           return *std::min_element(v.begin(), v.end());
                       })));
            CHECK(near(values(t7::norm(x, 2, dims)), naive3(x, r, [](const Values& v) {
                           double s2 = 0;
                           for (double a : v) s2 += a * a;
                           return std::sqrt(s2);
                       })));
            CHECK(near(values(t7::prod(x * 0.1 + 1, dims)), naive3(x, r, [](const Values& v) {
                           double p = 1;
                           for (double a : v) p *= a * 0.1 + 1;
                           return p;
                       })));
            ByteTensor an = t7::any(x > 4.5, dims), al = t7::all(x > -4.5, dims);
            CHECK(an.sizes() == k);
            CHECK(values(an) == naive3(x, r, [](const Values& v) {
                      return double(
                          std::any_of(v.begin(), v.end(), [](double a) { return a > 4.5; }));
                  }));
            CHECK(values(al) == naive3(x, r, [](const Values& v) {
                      return double(
                          std::all_of(v.begin(), v.end(), [](double a) { return a > -4.5; }));
                  }));
            // into an existing result: resized once, then written in place
            DoubleTensor out(7);
            t7::sum(out, x, dims);
            CHECK(out.sizes() == k);
            CHECK(near(values(out), naive3(x, r, vsum)));
            const double* p = out.data();
            t7::max(out, x, dims);
            CHECK(out.data() == p);
            CHECK(near(values(out), values(t7::max(x, dims))));
            t7::var(out, x, dims);
            CHECK(near(values(out), naive3(x, r, vvar)));
            t7::mean(out, x * 2, dims);
            CHECK(out.data() == p);
            CHECK(near(values(out), naive3(x, r, [](const Values& v) { return 2 * vmean(v); })));
        };
        check({0, 2}, {true, false, true});
        check({1, 2}, {false, true, true});
        check({2, 1}, {false, true, true});
        check({0, 1}, {true, true, false});
        check({-1, 0}, {true, false, true});
        check({0, 1, 2}, {true, true, true});
        check({1}, {false, true, false});
    }
}

TEST_CASE("reductions over several dimensions: views, expressions, size-1 dims, errors") {
    DoubleTensor x = seq({2, 3, 4});
    SUBCASE("adjacent dims of a contiguous tensor are reduced as a view (no copy of x)") {
        DoubleTensor s = t7::sum(x, {1, 2});
        CHECK(s.sizes() == Shape{2, 1, 1});
        CHECK(values(s) == Values{78, 222});
        CHECK(t7::sum(x, {0, 1, 2}).sizes() == Shape{1, 1, 1});
        CHECK(values(t7::sum(x, {0, 1, 2})) == Values{300});
    }
    SUBCASE("an expression, and a masked selection's reduction over all") {
        CHECK(values(t7::sum(x * 2, {0, 2})) == values(DoubleTensor(t7::sum(x, {0, 2}) * 2)));
        CHECK(values(t7::max(x - 30, {0, 1})) == Values{-9, -8, -7, -6});
    }
    SUBCASE("size-1 dims and an out of a kept shape with strides") {
        DoubleTensor y = seq({1, 3, 1});
        CHECK(values(t7::sum(y, {0, 2})) == Values{1, 2, 3});
        DoubleTensor big = DoubleTensor(2, 2).zero();
        DoubleTensor out = big(all, slice(0, 1)); // 2x1, stride 2
        t7::sum(out, seq({2, 3}), {1});
        CHECK(values(big) == Values{6, 0, 15, 0});
    }
    SUBCASE("no copy of the input when the reduced dims chain; a copy when they do not") {
        DoubleTensor big = seq({16, 64, 128});
        // the one-dimension input the reductions run over (detail: what they are given)
        const auto m12 = t7::detail::merge_dims(big, {1, 2}, "sum");
        CHECK(m12.flat.sizes() == Shape{16, 64 * 128});
        CHECK(m12.flat.storage() == big.storage());
        const auto mt = t7::detail::merge_dims(big.transpose(1, 2), {1, 2}, "sum");
        CHECK(mt.flat.storage() == big.storage()); // memory order: still one run
        const auto m02 = t7::detail::merge_dims(big, {0, 2}, "sum");
        CHECK(m02.flat.sizes() == Shape{64, 16 * 128});
        CHECK_FALSE(m02.flat.storage() == big.storage()); // 0 and 2 do not chain: a copy
        const auto mall = t7::detail::merge_dims(big.permute(2, 0, 1), {0, 1, 2}, "sum");
        CHECK(mall.flat.storage() == big.storage());
        DoubleTensor r1 = t7::sum(big, {1, 2});
        CHECK(values(t7::sum(big.transpose(1, 2), {1, 2})) == values(r1));
        CHECK(values(t7::sum(big, {0, 2})) == values(t7::sum(t7::sum(big, 2), 0)));
    }
    SUBCASE("into the input itself") {
        DoubleTensor y = seq({2, 3, 4});
        t7::sum(y, y, {1, 2});
        CHECK(y.sizes() == Shape{2, 1, 1});
        CHECK(values(y) == Values{78, 222});
        DoubleTensor z = seq({2, 3, 4});
        t7::max(z, z.transpose(0, 2), {0, 1}); // 4x3x2: the maximum of each z[b]
        CHECK(z.sizes() == Shape{1, 1, 2});
        CHECK(values(z) == Values{12, 24});
    }
    SUBCASE("errors") {
        CHECK_THROWS_AS(t7::sum(x, {0, 0}), IndexError);
        CHECK_THROWS_AS(t7::sum(x, {0, -3}), IndexError);
        CHECK_THROWS_AS(t7::sum(x, {3}), IndexError);
        CHECK_THROWS_AS(t7::mean(x, {1, -4}), IndexError);
        CHECK_THROWS_AS(t7::sum(x, {}), IndexError);
        CHECK_THROWS_AS(t7::sum(DoubleTensor(), {0}), ShapeError);
        DoubleTensor out = seq({2});
        CHECK_THROWS_AS(t7::sum(out, x, {1, 1}), IndexError);
        CHECK(values(out) == Values{1, 2});
    }
}

// ---- outer and tensordot ------------------------------------------------------------------

TEST_CASE("t7::outer: a lazy broadcast expression") {
    DoubleTensor u = seq({3}), v = seq({2}, 10); // 1 2 3, 10 11
    auto e = t7::outer(u, v);
    static_assert(!is_tensor_v<decltype(e)>);
    DoubleTensor o = e;
    CHECK(o.sizes() == Shape{3, 2});
    CHECK(values(o) == Values{10, 11, 20, 22, 30, 33});
    // fused with more: into an existing result
    DoubleTensor r(3, 2);
    const double* p = r.data();
    r = t7::outer(u, v) + 1;
    CHECK(r.data() == p);
    CHECK(values(r) == Values{11, 12, 21, 23, 31, 34});
    // expressions as operands, another type
    CHECK(values(DoubleTensor(t7::outer(u * 2, t7::cast<double>(seq<float>({2}))))) ==
          Values{2, 4, 4, 8, 6, 12});
    CHECK_THROWS_AS(t7::outer(seq({2, 2}), v), ShapeError);
}

TEST_CASE("t7::tensordot against naive loops") {
    DoubleTensor a = seq({2, 3, 4});
    a.apply([](double& x) { x = std::fmod(x * 3.7, 5.0) - 2; });
    SUBCASE("k = 1: a's last with b's first") {
        DoubleTensor b = seq({4, 5});
        DoubleTensor r = t7::tensordot(a, b, 1);
        REQUIRE(r.sizes() == Shape{2, 3, 5});
        Values want;
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 3; ++j)
                for (int64_t n = 0; n < 5; ++n) {
                    double s = 0;
                    for (int64_t k = 0; k < 4; ++k) s += a(i, j, k) * b(k, n);
                    want.push_back(s);
                }
        CHECK(near(values(r), want));
        // b transposed (a view: no copy needed) gives the same
        DoubleTensor bt = b.t().clone().t();
        CHECK(near(values(t7::tensordot(a, bt, 1)), want));
    }
    SUBCASE("k = 2, k = 0, and all dims") {
        DoubleTensor b = seq({3, 4, 2});
        DoubleTensor r = t7::tensordot(a, b, 2);
        REQUIRE(r.sizes() == Shape{2, 2});
        Values want;
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t n = 0; n < 2; ++n) {
                double s = 0;
                for (int64_t j = 0; j < 3; ++j)
                    for (int64_t k = 0; k < 4; ++k) s += a(i, j, k) * b(j, k, n);
                want.push_back(s);
            }
        CHECK(near(values(r), want));
        DoubleTensor u = seq({2}), v = seq({3});
        DoubleTensor o = t7::tensordot(u, v, 0);
        CHECK(o.sizes() == Shape{2, 3});
        CHECK(values(o) == Values{1, 2, 3, 2, 4, 6});
        DoubleTensor d = t7::tensordot(u, seq({2}, 3), 1); // a dot product: [1]
        CHECK(d.sizes() == Shape{1});
        CHECK(values(d) == Values{1 * 3 + 2 * 4});
    }
    SUBCASE("two lists of dims, in any order, with a permuted (copied) operand") {
        DoubleTensor b = seq({4, 5, 3});
        // contract a's (1, 2) with b's (2, 0): r[i][n] = sum_jk a[i][j][k] b[k][n][j]
        DoubleTensor r = t7::tensordot(a, b, {{1, 2}, {2, 0}});
        REQUIRE(r.sizes() == Shape{2, 5});
        Values want;
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t n = 0; n < 5; ++n) {
                double s = 0;
                for (int64_t j = 0; j < 3; ++j)
                    for (int64_t k = 0; k < 4; ++k) s += a(i, j, k) * b(k, n, j);
                want.push_back(s);
            }
        CHECK(near(values(r), want));
        CHECK(near(values(t7::tensordot(a, b, {{2, 1}, {0, 2}})), want));
        // an expression operand, evaluated once
        CHECK(near(values(t7::tensordot(a * 1.0, b, {{1, 2}, {2, 0}})), want));
    }
    SUBCASE("operands become matrices without a copy when their layouts allow") {
        // (detail: the matrices handed to t7::mm)
        const DoubleTensor ma = t7::detail::as_matrix(a, Shape{0, 1, 2}, 2);
        CHECK(ma.sizes() == Shape{6, 4});
        CHECK(ma.storage() == a.storage());
        const DoubleTensor bt = seq({4, 5}).t().clone().t(); // column-major 4x5
        const DoubleTensor mb = t7::detail::as_matrix(bt, Shape{0, 1}, 1);
        CHECK(mb.storage() == bt.storage());
        CHECK(mb.strides() == Shape{1, 4});
        // a's dims (1, 2) against the free dim 0: a transposed view, still no copy
        const DoubleTensor mt = t7::detail::as_matrix(a, Shape{1, 2, 0}, 2);
        CHECK(mt.storage() == a.storage());
        CHECK(mt.sizes() == Shape{12, 2});
        // dims 0 and 2 as the rows do not chain: a copy
        const DoubleTensor mc = t7::detail::as_matrix(a, Shape{0, 2, 1}, 2);
        CHECK_FALSE(mc.storage() == a.storage());
        CHECK(values(mc) == values(a.permute(0, 2, 1).contiguous()));
    }
    SUBCASE("errors") {
        DoubleTensor b = seq({4, 5});
        CHECK_THROWS_AS(t7::tensordot(a, b, 2), ShapeError); // 3x4 against 4x5
        CHECK_THROWS_AS(t7::tensordot(a, b, 3), IndexError); // b has 2 dims
        CHECK_THROWS_AS(t7::tensordot(a, b, {{2, 2}, {0, 1}}), IndexError);
        CHECK_THROWS_AS(t7::tensordot(a, b, {{2}, {0, 1}}), ShapeError);
        CHECK_THROWS_AS(t7::tensordot(a, b, {{5}, {0}}), IndexError);
        CHECK_THROWS_AS(t7::tensordot(a, b, {{0}, {0}}), ShapeError); // 2 against 4
    }
}
