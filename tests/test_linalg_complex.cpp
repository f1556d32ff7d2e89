// Linear algebra of complex matrices (issue 42): gesv, inverse, qr, svd, eig through
// Eigen's decompositions, checked by what defines them (A x = b, A A^-1 = I,
// Q^H Q = I and Q R = A, U S V^H = A, A v = lambda v) with naive loops over
// std::complex, on small hand-made matrices; and the real functions' errors. svd and
// eig in complex<double> only: Eigen's SVD and eigensolver, instantiated for both
// types, made this file take ~4 minutes of CPU to compile (the library's side is
// one template for both).
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class Z>
using R = typename Z::value_type;

// Tolerance on a result of order 1: float's and double's.
template <class Z>
double tol() {
    return std::is_same_v<Z, std::complex<float>> ? 1e-4 : 1e-10;
}

// A tensor from rows of complex values.
template <class Z>
t7::Tensor<Z> matrix(const std::vector<std::vector<std::complex<double>>>& rows) {
    t7::Tensor<Z> a(int64_t(rows.size()), int64_t(rows[0].size()));
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j) a(i, j) = Z(rows[size_t(i)][size_t(j)]);
    return a;
}

// Naive product in double, the first operand conjugate-transposed when asked.
template <class Z>
t7::ComplexDoubleTensor ref_mm(const t7::Tensor<Z>& a, const t7::Tensor<Z>& b,
                               bool adjoint_a = false) {
    const int64_t m = adjoint_a ? a.size(1) : a.size(0), k = adjoint_a ? a.size(0) : a.size(1);
    REQUIRE(b.size(0) == k);
    t7::ComplexDoubleTensor r(m, b.size(1));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            std::complex<double> s = 0;
            for (int64_t l = 0; l < k; ++l) {
                const std::complex<double> x = adjoint_a ? std::conj(std::complex<double>(a(l, i)))
                                                         : std::complex<double>(a(i, l));
                s += x * std::complex<double>(b(l, j));
            }
            r(i, j) = s;
        }
    return r;
}

// Largest |a - b| over elements (same sizes, any complex types).
template <class A, class B>
double max_diff(const t7::Tensor<A>& a, const t7::Tensor<B>& b) {
    REQUIRE(a.sizes() == b.sizes());
    double d = 0;
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j)
            d = std::max(d,
                         std::abs(std::complex<double>(a(i, j)) - std::complex<double>(b(i, j))));
    return d;
}

t7::ComplexDoubleTensor identity(int64_t n) {
    t7::ComplexDoubleTensor e(n, n);
    e.zero();
    for (int64_t i = 0; i < n; ++i) e(i, i) = 1;
    return e;
}

using C = std::complex<double>;
const C I(0, 1);

// Non-Hermitian, diagonally dominant (well conditioned).
template <class Z>
t7::Tensor<Z> a3() {
    return matrix<Z>({{4. + I, 1., -I}, {2. * I, 3., 1. - I}, {1., -1. + I, 5.}});
}

} // namespace

TEST_CASE_TEMPLATE("linalg_complex: gesv solves A x = b, vector and matrix right-hand sides", Z,
                   std::complex<float>, std::complex<double>) {
    const auto A = a3<Z>();
    const auto b = matrix<Z>({{1. + I, 2.}, {-I, 0.5}, {3., 1. - 2. * I}});
    const auto r = t7::gesv(b, A);
    static_assert(std::is_same_v<decltype(r.solution), t7::Tensor<Z>>);
    CHECK(r.solution.isSize({3, 2}));
    CHECK(max_diff(ref_mm(A, r.solution), b) < tol<Z>());
    CHECK(r.lu.isSize({3, 3}));
    // a 1-D b gives a 1-D x; a transposed view of A is read as that view
    t7::Tensor<Z> b1 = b.select(1, 0).clone();
    const auto x1 = t7::gesv(b1, A.t()).solution;
    REQUIRE(x1.dim() == 1);
    const auto At = A.t().clone();
    for (int64_t i = 0; i < 3; ++i) {
        std::complex<double> s = 0;
        for (int64_t j = 0; j < 3; ++j) s += C(At(i, j)) * C(x1(j));
        CHECK(std::abs(s - C(b1(i))) < tol<Z>());
    }
    // an expression is evaluated once (ops/expression_args.hpp)
    CHECK(max_diff(t7::gesv(b, A * Z(2)).solution, t7::eval(r.solution * Z(0.5))) < tol<Z>());
}

TEST_CASE_TEMPLATE("linalg_complex: inverse gives A A^-1 = I", Z, std::complex<float>,
                   std::complex<double>) {
    const auto A = a3<Z>();
    const auto Ai = t7::inverse(A);
    CHECK(max_diff(ref_mm(A, Ai), identity(3)) < tol<Z>());
    CHECK(max_diff(ref_mm(Ai, A), identity(3)) < tol<Z>());
    // 2 x 2 by hand: [[1, i], [0, 2]]^-1 = [[1, -i/2], [0, 1/2]]
    const auto B = t7::inverse(matrix<Z>({{1., I}, {0., 2.}}));
    CHECK(max_diff(B, matrix<Z>({{1., -0.5 * I}, {0., 0.5}})) < tol<Z>());
}

TEST_CASE_TEMPLATE("linalg_complex: qr gives Q^H Q = I, R upper, Q R = A", Z, std::complex<float>,
                   std::complex<double>) {
    for (const auto& A : {matrix<Z>({{1. + I, 2.}, {-I, 1. - I}, {3., 0.5 * I}}), // 3 x 2
                          matrix<Z>({{1., I, 2. - I}, {2. * I, -1., 1.}})}) {     // 2 x 3
        CAPTURE(A.sizes());
        const auto [q, r] = t7::qr(A);
        const int64_t k = std::min(A.size(0), A.size(1));
        CHECK(q.isSize({A.size(0), k}));
        CHECK(r.isSize({k, A.size(1)}));
        CHECK(max_diff(ref_mm(q, q, true), identity(k)) < tol<Z>());
        CHECK(max_diff(ref_mm(q, r), A) < tol<Z>());
        for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < i; ++j) CHECK(r(i, j) == Z(0));
    }
}

TEST_CASE_TEMPLATE("linalg_complex: svd gives real descending S, U S V^H = A", Z,
                   std::complex<double>) {
    // 3 x 2 by hand: A = [[2i, 0], [0, -1], [0, 0]] has singular values 2 and 1
    const auto d = t7::svd(matrix<Z>({{2. * I, 0.}, {0., -1.}, {0., 0.}}));
    static_assert(std::is_same_v<decltype(d.s), t7::Tensor<R<Z>>>);
    REQUIRE(d.s.isSize({2}));
    CHECK(std::abs(d.s(0) - 2) < tol<Z>());
    CHECK(std::abs(d.s(1) - 1) < tol<Z>());

    // every mode and shape, and one past Eigen's switch to divide and conquer (16 columns)
    t7::Tensor<Z> big(18, 17);
    t7::real(big).uniform(-1, 1);
    t7::imag(big).uniform(-1, 1);
    for (const auto& A : {matrix<Z>({{1. + I, 2.}, {-I, 1. - I}, {3., 0.5 * I}}),
                          matrix<Z>({{1., I, 2. - I}, {2. * I, -1., 1.}}), big}) {
        for (char mode : {'S', 'A'}) {
            CAPTURE(A.sizes());
            CAPTURE(mode);
            const auto [u, s, v] = t7::svd(A, mode);
            const int64_t m = A.size(0), n = A.size(1), k = std::min(m, n);
            CHECK(u.isSize({m, mode == 'S' ? k : m}));
            CHECK(v.isSize({n, mode == 'S' ? k : n}));
            REQUIRE(s.isSize({k}));
            for (int64_t i = 0; i < k; ++i) {
                CHECK(s(i) >= 0);
                if (i > 0) CHECK(s(i) <= s(i - 1));
            }
            CHECK(max_diff(ref_mm(u, u, true), identity(u.size(1))) < tol<Z>() * 10);
            CHECK(max_diff(ref_mm(v, v, true), identity(v.size(1))) < tol<Z>() * 10);
            // U[:, :k] diag(S) V[:, :k]^H
            t7::Tensor<Z> us = u.narrow(1, 0, k).clone();
            for (int64_t j = 0; j < k; ++j)
                for (int64_t i = 0; i < m; ++i) us(i, j) *= s(j);
            const t7::Tensor<Z> vk = v.narrow(1, 0, k).clone();
            t7::ComplexDoubleTensor usvh(m, n);
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) {
                    std::complex<double> acc = 0;
                    for (int64_t l = 0; l < k; ++l) acc += C(us(i, l)) * std::conj(C(vk(j, l)));
                    usvh(i, j) = acc;
                }
            CHECK(max_diff(usvh, A) < tol<Z>() * 10);
        }
    }
}

TEST_CASE_TEMPLATE("linalg_complex: eig gives complex values and unit vectors, A v = lambda v", Z,
                   std::complex<double>) {
    // triangular: the values are the diagonal, 1 + i and 3 - i, in some order
    const auto T = matrix<Z>({{1. + I, 2.}, {0., 3. - I}});
    const auto e = t7::eig(T);
    static_assert(std::is_same_v<decltype(e.values), t7::Tensor<Z>>);
    REQUIRE(e.values.isSize({2}));
    CHECK(e.vectors.nElement() == 0);
    std::vector<C> got = {C(e.values(0)), C(e.values(1))};
    if (got[0].real() > got[1].real()) std::swap(got[0], got[1]);
    CHECK(std::abs(got[0] - (1. + I)) < tol<Z>());
    CHECK(std::abs(got[1] - (3. - I)) < tol<Z>());

    // Hermitian [[2, i], [-i, 2]]: real values 1 and 3
    const auto H = t7::eig(matrix<Z>({{2., I}, {-I, 2.}}));
    std::vector<double> hv = {C(H.values(0)).real(), C(H.values(1)).real()};
    std::sort(hv.begin(), hv.end());
    CHECK(std::abs(hv[0] - 1) < tol<Z>());
    CHECK(std::abs(hv[1] - 3) < tol<Z>());
    CHECK(std::abs(C(H.values(0)).imag()) < tol<Z>());

    for (const auto& A : {T, a3<Z>()}) {
        const auto [values, vectors] = t7::eig(A, 'V');
        const int64_t n = A.size(0);
        REQUIRE(vectors.isSize({n, n}));
        const auto av = ref_mm(A, vectors);
        for (int64_t j = 0; j < n; ++j) {
            double norm2 = 0;
            for (int64_t i = 0; i < n; ++i) {
                norm2 += std::norm(C(vectors(i, j)));
                CHECK(std::abs(C(av(i, j)) - C(values(j)) * C(vectors(i, j))) < tol<Z>() * 10);
            }
            CHECK(std::abs(norm2 - 1) < tol<Z>());
        }
    }
}

TEST_CASE_TEMPLATE("linalg_complex: the real functions' errors", Z, std::complex<float>,
                   std::complex<double>) {
    // [[1, i], [i, -1]]: det = -1 - i^2 = 0, the pivot U(1,1) is exactly zero
    const auto S = matrix<Z>({{1., I}, {I, -1.}});
    t7::Tensor<Z> b(2);
    b.fill(Z(1));
    const t7::Tensor<Z> b0 = b.clone();
    std::string msg;
    try {
        t7::gesv(b, S);
    } catch (const t7::Error& e) {
        msg = e.what();
    }
    CHECK(msg.find("gesv") != std::string::npos);
    CHECK(msg.find("singular") != std::string::npos);
    CHECK(t7::equal(b, b0));
    CHECK_THROWS_AS(t7::inverse(S), t7::Error);
    t7::Tensor<Z> zero(3, 3);
    zero.zero();
    CHECK_THROWS_AS(t7::inverse(zero), t7::Error);
    // singular to working precision: row 3 = 2 row 2 - row 1, pivots not exactly zero
    CHECK_THROWS_AS(
        t7::inverse(matrix<Z>(
            {{1. + I, 2., 3.}, {4., 5. + I, 6. + 2. * I}, {7. - I, 8. + 2. * I, 9. + 4. * I}})),
        t7::Error);
    auto N = matrix<Z>({{1., 0.}, {0., 1.}});
    N(0, 1) = Z(std::numeric_limits<R<Z>>::quiet_NaN(), 0);
    CHECK_THROWS_AS(t7::inverse(N), t7::Error);
    CHECK_THROWS_AS(t7::qr(N), t7::Error);
    t7::Tensor<Z> rect(2, 3);
    rect.zero();
    CHECK_THROWS_AS(t7::inverse(rect), t7::ShapeError);
    CHECK_THROWS_AS(t7::gesv(b, rect), t7::ShapeError);
    if constexpr (std::is_same_v<Z, std::complex<double>>) { // (Eigen's SVD and eigensolver
        CHECK_THROWS_AS(t7::eig(N), t7::Error);              // in one type: compile time)
        CHECK_THROWS_AS(t7::svd(N), t7::Error);
        CHECK_THROWS_AS(t7::eig(rect), t7::ShapeError);
        CHECK_THROWS_AS(t7::svd(rect, 'X'), t7::Error);
        CHECK_THROWS_AS(t7::eig(S, 'X'), t7::Error);
    }
}
