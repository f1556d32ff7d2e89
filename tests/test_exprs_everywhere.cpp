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
