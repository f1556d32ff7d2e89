// Every function that takes a tensor also takes an expression or a masked
// selection x[mask], evaluated once (issue 35, ops/expression_args.hpp); and a
// temporary assigned to an empty handle is adopted, not copied. Each result is
// checked against a naive loop or against the tensor overload on eval(e).
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "alloc_counter.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace t7;

namespace {

// 0.5, -1.25, 2, ... : mixed signs, no ties.
DoubleTensor sample(int64_t r, int64_t c, double shift = 0) {
    DoubleTensor x(r, c);
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j) x(i, j) = std::sin(double(i * c + j) * 1.7 + shift) * 3;
    return x;
}

std::vector<double> selected(const DoubleTensor& x, bool (*keep)(double)) {
    std::vector<double> v;
    for (int64_t i = 0; i < x.size(0); ++i)
        for (int64_t j = 0; j < x.size(1); ++j)
            if (keep(x(i, j))) v.push_back(x(i, j));
    return v;
}

bool positive(double v) { return v > 0; }

} // namespace

// ---- x[mask] as an operand -----------------------------------------------------------

TEST_CASE("x[mask] is an operand of element-wise functions and operators") {
    DoubleTensor x = sample(4, 5);
    const std::vector<double> pos = selected(x, positive);
    REQUIRE(!pos.empty());

    DoubleTensor p = t7::pow(x[x > 0], -1.5);
    DoubleTensor s = x[x > 0] * 2 + 1;
    DoubleTensor a = t7::abs(-x[x > 0]);
    DoubleTensor w = t7::sqrt(x[x > 0]) + x[x > 0];
    REQUIRE(p.nElement() == int64_t(pos.size()));
    for (size_t i = 0; i < pos.size(); ++i) {
        CHECK(p(int64_t(i)) == doctest::Approx(std::pow(pos[i], -1.5)));
        CHECK(s(int64_t(i)) == doctest::Approx(pos[i] * 2 + 1));
        CHECK(a(int64_t(i)) == pos[i]);
        CHECK(w(int64_t(i)) == doctest::Approx(std::sqrt(pos[i]) + pos[i]));
    }
    // the selection is read once, when the tree is built
    auto e = x[x > 0] * 10;
    x.fill(0);
    DoubleTensor later = e;
    CHECK(later(0) == doctest::Approx(pos[0] * 10));
}

TEST_CASE("reductions of x[mask]") {
    DoubleTensor x = sample(3, 7);
    const std::vector<double> pos = selected(x, positive);
    double sum = 0;
    for (double v : pos) sum += v;
    CHECK(t7::sum(x[x > 0]) == doctest::Approx(sum));
    CHECK(t7::mean(x[x > 0]) == doctest::Approx(sum / double(pos.size())));
    CHECK(t7::max(x[x > 0]) == *std::max_element(pos.begin(), pos.end()));
    DoubleTensor c = t7::cumsum(x[x > 0], 0);
    double run = 0;
    for (size_t i = 0; i < pos.size(); ++i) {
        run += pos[i];
        CHECK(c(int64_t(i)) == doctest::Approx(run));
    }
    CHECK(t7::nonzero(x[x > 0]).size(0) == int64_t(pos.size()));
    CHECK(t7::all(x[x > 0]));
    CHECK(!t7::all(x[x != 0] > 0));
    CHECK(t7::equal(x[x > 0], DoubleTensor(t7::eval(x[x > 0]))));
    CHECK(t7::dist(x[x > 0], x[x > 0] * 2) == doctest::Approx(t7::norm(x[x > 0])));
}

// ---- functions that take tensors, given expressions -----------------------------------

TEST_CASE("triu, tril, diag, trace of an expression") {
    DoubleTensor a = sample(4, 4), b = sample(4, 4, 1);
    DoubleTensor u = t7::triu(a + b, 1), l = t7::tril(a + b), d = t7::diag(a + b);
    double tr = 0;
    for (int64_t i = 0; i < 4; ++i) {
        tr += a(i, i) + b(i, i);
        CHECK(d(i) == a(i, i) + b(i, i));
        for (int64_t j = 0; j < 4; ++j) {
            CHECK(u(i, j) == (j >= i + 1 ? a(i, j) + b(i, j) : 0.0));
            CHECK(l(i, j) == (j <= i ? a(i, j) + b(i, j) : 0.0));
        }
    }
    CHECK(t7::trace(a + b) == doctest::Approx(tr));
    DoubleTensor dv = t7::diag(a[a > 0]); // a vector: a diagonal matrix
    CHECK(dv.dim() == 2);
    CHECK(dv(0, 0) == selected(a, positive)[0]);
}

TEST_CASE("sort, topk, median of an expression and of a selection") {
    DoubleTensor x = sample(3, 6);
    auto sv = t7::sort(x * -1, 1);
    auto ref = t7::sort(DoubleTensor(x * -1), 1);
    CHECK(t7::equal(sv.values, ref.values));
    CHECK(t7::equal(sv.indices, ref.indices));

    std::vector<double> pos = selected(x, positive);
    std::sort(pos.begin(), pos.end());
    auto s = t7::sort(x[x > 0]);
    for (size_t i = 0; i < pos.size(); ++i) CHECK(s.values(int64_t(i)) == pos[i]);
    auto t = t7::topk(x[x > 0], 2);
    CHECK(t.values(0) == pos.back());
    CHECK(t.values(1) == pos[pos.size() - 2]);
    CHECK(t7::median(x + 0).values.nElement() == 3);
}

TEST_CASE("cat, cumsum, histc, renorm of expressions") {
    DoubleTensor a = sample(2, 3), b = sample(2, 3, 2);
    DoubleTensor c = t7::cat({a * 2, b * 2}, 0);
    REQUIRE(c.sizes() == Shape{4, 3});
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) {
            CHECK(c(i, j) == a(i, j) * 2);
            CHECK(c(i + 2, j) == b(i, j) * 2);
        }
    DoubleTensor c2 = t7::cat(a, b + 1, 1);
    CHECK(c2.sizes() == Shape{2, 6});
    CHECK(c2(1, 4) == b(1, 1) + 1);

    DoubleTensor cs = t7::cumsum(a + b, 1);
    for (int64_t i = 0; i < 2; ++i) {
        double run = 0;
        for (int64_t j = 0; j < 3; ++j) {
            run += a(i, j) + b(i, j);
            CHECK(cs(i, j) == doctest::Approx(run));
        }
    }

    DoubleTensor h = t7::histc(a + b, 4, -6, 6);
    std::vector<double> bins(4, 0);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) {
            const double v = a(i, j) + b(i, j);
            bins[std::min<size_t>(3, size_t((v + 6) / 3))] += 1;
        }
    for (int64_t k = 0; k < 4; ++k) CHECK(h(k) == bins[size_t(k)]);

    static_assert(FloatingExpressionOrSelection<decltype(a * 3)>);
    static_assert(!FloatingExpressionOrSelection<decltype(LongTensor(2) * 3)>);
    static_assert(!FloatingExpressionOrSelection<int>);
    DoubleTensor r = t7::renorm(a * 3, 2, 0, 1);
    CHECK(t7::equal(r, t7::renorm(DoubleTensor(a * 3), 2, 0, 1)));
}

TEST_CASE("products, cross, dot, gather and index of expressions") {
    DoubleTensor a = sample(3, 3), b = sample(3, 3, 1), c = sample(3, 3, 2);
    DoubleTensor m = t7::mm(a + b, c);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j) {
            double acc = 0;
            for (int64_t k = 0; k < 3; ++k) acc += (a(i, k) + b(i, k)) * c(k, j);
            CHECK(m(i, j) == doctest::Approx(acc));
        }
    double dot = 0;
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j) dot += (a(i, j) * 2) * b(i, j);
    CHECK(t7::dot(a * 2, b) == doctest::Approx(dot));
    CHECK(t7::equal(t7::matmul(a - b, c), t7::matmul(DoubleTensor(a - b), c)));
    DoubleTensor v = t7::range<double>(1, 3);
    CHECK(t7::equal(t7::addmv(v * 2, a + 1, v),
                    t7::addmv(DoubleTensor(v * 2), DoubleTensor(a + 1), v)));
    CHECK(t7::equal(t7::addr(a * 2, v, v + 1),
                    t7::addr(DoubleTensor(a * 2), v, DoubleTensor(v + 1))));
    CHECK(t7::equal(t7::ger(v, v * 3), t7::ger(v, DoubleTensor(v * 3))));
    DoubleTensor ab = a.view(1, 3, 3), bb = b.view(1, 3, 3);
    DoubleTensor bad = t7::baddbmm(ab * 0.5, ab, bb + 1);
    CHECK(t7::equal(bad, t7::baddbmm(DoubleTensor(ab * 0.5), ab, DoubleTensor(bb + 1))));
    DoubleTensor abm = t7::addbmm(c * 2, ab - 1, bb);
    CHECK(t7::equal(abm, t7::addbmm(DoubleTensor(c * 2), DoubleTensor(ab - 1), bb)));

    DoubleTensor x = t7::cross(a + 1, b, 1);
    for (int64_t i = 0; i < 3; ++i) {
        const double p0 = a(i, 0) + 1, p1 = a(i, 1) + 1, p2 = a(i, 2) + 1;
        CHECK(x(i, 0) == doctest::Approx(p1 * b(i, 2) - p2 * b(i, 1)));
        CHECK(x(i, 1) == doctest::Approx(p2 * b(i, 0) - p0 * b(i, 2)));
        CHECK(x(i, 2) == doctest::Approx(p0 * b(i, 1) - p1 * b(i, 0)));
    }

    LongTensor idx(3, 1);
    for (int64_t i = 0; i < 3; ++i) idx(i, 0) = 2 - i;
    DoubleTensor g = t7::gather(a * 2, 1, idx);
    for (int64_t i = 0; i < 3; ++i) CHECK(g(i, 0) == a(i, 2 - i) * 2);
    LongTensor rows(2);
    rows(0) = 2;
    rows(1) = 0;
    DoubleTensor ix = t7::index(a - 1, 0, rows);
    CHECK(ix(0, 1) == a(2, 1) - 1);
    CHECK(ix(1, 2) == a(0, 2) - 1);
    CHECK(t7::reshape(a + 1, 9)(4) == a(1, 1) + 1);

    // selections in cat, outer, and the bitwise operators of integer tensors
    const std::vector<double> pa = selected(a, positive), pb = selected(b, positive);
    DoubleTensor cs = t7::cat({a[a > 0], b[b > 0]}, 0); // one MaskedRef type
    REQUIRE(cs.nElement() == int64_t(pa.size() + pb.size()));
    CHECK(cs(0) == pa[0]);
    CHECK(cs(int64_t(pa.size())) == pb[0]);
    DoubleTensor o = t7::outer(a[a > 0], b[b > 0]);
    CHECK(o.sizes() == Shape{int64_t(pa.size()), int64_t(pb.size())});
    CHECK(o(0, 1) == pa[0] * pb[1]);
    IntTensor n = t7::tensor<int>({1, 6, 3, 12});
    IntTensor bits = (n[n > 2] & 5) | 16;
    CHECK(bits(0) == ((6 & 5) | 16));
    CHECK(bits(2) == ((12 & 5) | 16));
}

TEST_CASE("per-dimension reductions of x[mask], and into results") {
    DoubleTensor x = sample(4, 5);
    const DoubleTensor x0 = x.clone();
    const std::vector<double> pos = selected(x, positive);
    const DoubleTensor s = t7::eval(x[x > 0]); // the same values, as a tensor
    const int64_t n = int64_t(pos.size());
    double sum = 0, prod = 1, l1 = 0;
    for (double v : pos) sum += v, prod *= v, l1 += std::abs(v);
    DoubleTensor rs = t7::sum(x[x > 0], 0);
    CHECK(rs.sizes() == Shape{1});
    CHECK(rs(0) == doctest::Approx(sum));
    CHECK(t7::prod(x[x > 0], 0)(0) == doctest::Approx(prod));
    CHECK(t7::mean(x[x > 0], 0)(0) == doctest::Approx(sum / double(n)));
    CHECK(t7::norm(x[x > 0], 1, 0)(0) == doctest::Approx(l1));
    CHECK(t7::equal(t7::var(x[x > 0], 0), t7::var(s, 0)));
    CHECK(t7::equal(t7::std(x[x > 0], 0, true), t7::std(s, 0, true)));
    auto mx = t7::max(x[x > 0], 0), mn = t7::min(x[x > 0], 0);
    CHECK(mx.values(0) == *std::max_element(pos.begin(), pos.end()));
    CHECK(pos[size_t(mx.indices(0))] == mx.values(0));
    CHECK(mn.values(0) == *std::min_element(pos.begin(), pos.end()));
    CHECK(t7::any(x[x > 0], 0)(0) == 1);
    CHECK(t7::all(x[x > 0], 0)(0) == 1);
    CHECK(t7::all(x[x != 0] > 0, 0)(0) == 0);
    CHECK(t7::equal(t7::cumprod(x[x > 0], 0), t7::cumprod(s, 0)));
    // whole-selection forms still pick ops/members.hpp's overloads
    CHECK(t7::norm(x[x > 0], 2.0) == doctest::Approx(t7::norm(s)));
    CHECK(t7::norm(x[x > 0], 1) == doctest::Approx(l1));

    DoubleTensor out(7, 7); // resized
    t7::sum(out, x[x > 0], 0);
    CHECK(out.sizes() == Shape{1});
    CHECK(out(0) == doctest::Approx(sum));
    t7::prod(out, x[x > 0], 0);
    CHECK(out(0) == doctest::Approx(prod));
    t7::mean(out, x[x > 0], 0);
    CHECK(out(0) == doctest::Approx(sum / double(n)));
    t7::norm(out, x[x > 0], 1, 0);
    CHECK(out(0) == doctest::Approx(l1));
    t7::var(out, x[x > 0], 0);
    CHECK(t7::equal(out, t7::var(s, 0)));
    t7::std(out, x[x > 0], 0);
    CHECK(t7::equal(out, t7::std(s, 0)));
    t7::max(out, x[x > 0], 0);
    CHECK(out(0) == mx.values(0));
    t7::min(out, x[x > 0], 0);
    CHECK(out(0) == mn.values(0));
    LongTensor idx;
    t7::max(out, idx, x[x > 0], 0);
    CHECK(idx(0) == mx.indices(0));
    t7::min(out, idx, x[x > 0], 0);
    CHECK(idx(0) == mn.indices(0));
    t7::cumsum(out, x[x > 0], 0);
    REQUIRE(out.sizes() == Shape{n});
    double run = 0;
    for (int64_t i = 0; i < n; ++i) {
        run += pos[size_t(i)];
        CHECK(out(i) == doctest::Approx(run));
    }
    t7::cumprod(out, x[x > 0], 0);
    CHECK(t7::equal(out, t7::cumprod(s, 0)));
    CHECK(t7::equal(x, x0)); // the operand is unchanged
}

TEST_CASE("reductions of x[mask] over a list of dimensions, and into results") {
    DoubleTensor x = sample(4, 5);
    const DoubleTensor x0 = x.clone();
    const std::vector<double> pos = selected(x, positive);
    const DoubleTensor s = t7::eval(x[x > 0]);
    double sum = 0, prod = 1, l1 = 0;
    for (double v : pos) sum += v, prod *= v, l1 += std::abs(v);
    DoubleTensor r = t7::sum(x[x > 0], {0});
    CHECK(r.sizes() == Shape{1});
    CHECK(r(0) == doctest::Approx(sum));
    CHECK(t7::prod(x[x > 0], {0})(0) == doctest::Approx(prod));
    CHECK(t7::mean(x[x > 0], {-1})(0) == doctest::Approx(sum / double(pos.size())));
    CHECK(t7::max(x[x > 0], {0})(0) == *std::max_element(pos.begin(), pos.end()));
    CHECK(t7::min(x[x > 0], {0})(0) == *std::min_element(pos.begin(), pos.end()));
    CHECK(t7::norm(x[x > 0], 1, {0})(0) == doctest::Approx(l1));
    CHECK(t7::equal(t7::var(x[x > 0], {0}), t7::var(s, 0)));
    CHECK(t7::equal(t7::std(x[x > 0], {0}, true), t7::std(s, 0, true)));
    CHECK(t7::any(x[x > 0], {0})(0) == 1);
    CHECK(t7::all(x[x > 0], {0})(0) == 1);
    CHECK(t7::all(x[x != 0] > 0, {0})(0) == 0);
    CHECK_THROWS_AS(t7::sum(x[x > 0], {1}), t7::IndexError); // a selection is 1-D

    DoubleTensor out(3, 3); // resized to the kept shape
    t7::sum(out, x[x > 0], {0});
    CHECK(out.sizes() == Shape{1});
    CHECK(out(0) == doctest::Approx(sum));
    t7::prod(out, x[x > 0], {0});
    CHECK(out(0) == doctest::Approx(prod));
    t7::max(out, x[x > 0], {0});
    CHECK(out(0) == *std::max_element(pos.begin(), pos.end()));
    t7::norm(out, x[x > 0], 1, {0});
    CHECK(out(0) == doctest::Approx(l1));
    t7::var(out, x[x > 0], {0});
    CHECK(t7::equal(out, t7::var(s, 0)));
    CHECK(t7::equal(x, x0));
}

TEST_CASE("sort, topk, kthvalue, median, mode, nonzero and cat into results") {
    DoubleTensor x = sample(3, 6), y = sample(3, 6, 1);
    const DoubleTensor x0 = x.clone(), y0 = y.clone();
    const DoubleTensor xy = x - y, sel = t7::eval(x[x > 0]);
    DoubleTensor v;
    LongTensor i;
    t7::sort(v, i, x - y, 1, true);
    auto ref = t7::sort(xy, 1, true);
    CHECK(t7::equal(v, ref.values));
    CHECK(t7::equal(i, ref.indices));
    ValuesIndices<double> r;
    t7::sort(r, x[x > 0]);
    CHECK(t7::equal(r.values, t7::sort(sel).values));
    for (int64_t k = 1; k < r.values.nElement(); ++k) CHECK(r.values(k - 1) <= r.values(k));
    t7::topk(r, x - y, 2);
    CHECK(t7::equal(r.values, t7::topk(xy, 2).values));
    CHECK(r.values.sizes() == Shape{3, 2});
    t7::topk(v, i, x[x > 0], 2, 0, false);
    CHECK(t7::equal(v, t7::topk(sel, 2, 0, false).values));
    t7::kthvalue(r, x - y, 2);
    CHECK(t7::equal(r.indices, t7::kthvalue(xy, 2).indices));
    t7::kthvalue(v, i, x[x > 0], 1);
    CHECK(v(0) == t7::min(x[x > 0]));
    t7::median(r, x - y, 0);
    CHECK(t7::equal(r.values, t7::median(xy, 0).values));
    t7::median(v, i, x[x > 0]);
    CHECK(t7::equal(v, t7::median(sel).values));
    t7::mode(r, t7::floor(x), 1);
    CHECK(t7::equal(r.values, t7::mode(DoubleTensor(t7::floor(x)), 1).values));
    t7::mode(v, i, t7::floor(x[x > 0]));
    CHECK(t7::equal(i, t7::mode(DoubleTensor(t7::floor(x[x > 0]))).indices));

    LongTensor nz;
    t7::nonzero(nz, x > y);
    CHECK(t7::equal(nz, t7::nonzero(DoubleTensor(t7::cast<double>(x > y)))));
    t7::nonzero(nz, x[x > 0]);
    CHECK(nz.size(0) == sel.nElement());

    DoubleTensor c(1); // resized
    t7::cat(c, {x * 2, y * 2}, 0);
    REQUIRE(c.sizes() == Shape{6, 6});
    for (int64_t a = 0; a < 3; ++a)
        for (int64_t b = 0; b < 6; ++b) {
            CHECK(c(a, b) == x(a, b) * 2);
            CHECK(c(a + 3, b) == y(a, b) * 2);
        }
    t7::cat(c, {x[x > 0], y[y > 0]});
    CHECK(t7::equal(c, t7::cat(sel, DoubleTensor(t7::eval(y[y > 0])))));
    CHECK(t7::equal(x, x0));
    CHECK(t7::equal(y, y0));
}

// The linear algebra of expressions is checked in the suites that instantiate
// Eigen's decompositions already (test_linalg_decomp, test_linalg2, test_linalg_qr,
// test_linalg_symeig, test_linalg_eig): here it would triple this file's compile time.

TEST_CASE("conv2, xcorr2, conv3, xcorr3 of expressions") {
    DoubleTensor x = sample(5, 6), k = sample(3, 2, 1);
    const DoubleTensor x0 = x.clone(), k0 = k.clone();
    DoubleTensor c = t7::xcorr2(x + 1, k * 2);
    REQUIRE(c.sizes() == Shape{3, 5});
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 5; ++j) {
            double acc = 0;
            for (int64_t p = 0; p < 3; ++p)
                for (int64_t q = 0; q < 2; ++q) acc += (x(i + p, j + q) + 1) * (k(p, q) * 2);
            CHECK(c(i, j) == doctest::Approx(acc));
        }
    DoubleTensor cv = t7::conv2(x + 1, k, 'F');
    CHECK(cv.sizes() == Shape{7, 7});
    CHECK(t7::equal(cv, t7::conv2(DoubleTensor(x + 1), k, 'F')));
    DoubleTensor x3 = x.view(1, 5, 6), k3 = k.view(1, 3, 2);
    CHECK(t7::equal(t7::conv3(x3 - 1, k3), t7::conv3(DoubleTensor(x3 - 1), k3)));
    CHECK(t7::equal(t7::xcorr3(x3, k3 * 3, 'F'), t7::xcorr3(x3, DoubleTensor(k3 * 3), 'F')));
    CHECK(t7::equal(x, x0));
    CHECK(t7::equal(k, k0));
}

TEST_CASE("bernoulli, multinomial, multinomialAlias of expressions") {
    DoubleTensor a = sample(3, 4);
    const DoubleTensor a0 = a.clone();
    auto p = t7::abs(t7::sin(a)); // in [0, 1]
    const DoubleTensor pt = p;
    t7::manualSeed(5);
    DoubleTensor be = t7::bernoulli(p);
    t7::manualSeed(5);
    CHECK(t7::equal(be, t7::bernoulli(pt)));
    CHECK(be.sizes() == Shape{3, 4});
    DoubleTensor m(3, 4);
    t7::manualSeed(5);
    m.bernoulli(p);
    CHECK(t7::equal(m, be));
    const DoubleTensor ps = t7::eval(pt[pt > 0.5]);
    t7::manualSeed(6);
    DoubleTensor bs = t7::bernoulli(pt[pt > 0.5]);
    t7::manualSeed(6);
    CHECK(t7::equal(bs, t7::bernoulli(ps)));

    Generator g1(7), g2(7);
    LongTensor mu = t7::multinomial(g1, p + 0.1, 3);
    CHECK(mu.sizes() == Shape{3, 3});
    CHECK(t7::equal(mu, t7::multinomial(g2, DoubleTensor(p + 0.1), 3)));
    t7::manualSeed(8);
    LongTensor m2 = t7::multinomial(pt[pt > 0.2], 4, true);
    t7::manualSeed(8);
    CHECK(t7::equal(m2, t7::multinomial(DoubleTensor(t7::eval(pt[pt > 0.2])), 4, true)));

    const DoubleTensor w = pt.view(12);
    auto tab = t7::multinomialAliasSetup(w + 1);
    auto tref = t7::multinomialAliasSetup(DoubleTensor(w + 1));
    CHECK(t7::equal(tab.J, tref.J));
    CHECK(t7::equal(tab.q, tref.q));
    LongTensor al = t7::multinomialAlias(g1, 20, tab.J, tab.q * 1);
    CHECK(al.sizes() == Shape{20});
    CHECK(t7::equal(al, t7::multinomialAlias(g2, 20, tab.J, tab.q)));
    t7::manualSeed(9);
    LongTensor al2 = t7::multinomialAlias(5, tab.J, tab.q * 1);
    t7::manualSeed(9);
    CHECK(t7::equal(al2, t7::multinomialAlias(5, tab.J, tab.q)));
    CHECK(t7::equal(a, a0));
}

// ---- adopting a temporary --------------------------------------------------------------

TEST_CASE("a temporary assigned to an empty handle is adopted") {
    DoubleTensor a = sample(8, 8);
    DoubleTensor b;
    DoubleTensor tmp = a.clone();
    const double* p = tmp.data();
    b = std::move(tmp);
    CHECK(b.data() == p);
    CHECK(t7::equal(b, a));

    DoubleTensor c;
    const long allocs = allocations([&] { c = a.clone(); });
    CHECK(allocs == 1); // the clone's memory, not a second copy
    CHECK(t7::equal(c, a));
    c(0, 0) = 99;
    CHECK(a(0, 0) != 99); // its own memory

    // a view of a tensor that stays is copied: c2 must not alias a
    DoubleTensor c2;
    c2 = a.t();
    c2(0, 1) = 123;
    CHECK(a(1, 0) != 123);
    CHECK(c2.isContiguous());
}

TEST_CASE("assigning into a non-empty tensor writes into its memory") {
    DoubleTensor a = sample(4, 4);
    DoubleTensor b(4, 4);
    const double* p = b.data();
    b = a.clone();
    CHECK(b.data() == p);
    CHECK(t7::equal(b, a));
    DoubleTensor x = sample(4, 4, 1);
    b = x;
    CHECK(b.data() == p);
    CHECK(t7::equal(b, x));
    b(0, 0) = 42;
    CHECK(x(0, 0) != 42);
}
