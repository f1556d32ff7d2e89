// Linear algebra of complex matrices (issue 42): svd and eig, Eigen's SVD and
// eigensolver for general matrices, checked by what defines them (U S V^H = A with
// orthonormal U, V; A v = lambda v) with naive loops over std::complex, on small
// hand-made matrices; and their errors. complex<double> only: Eigen's SVD and
// eigensolver, instantiated for both types, made this file take ~4 minutes of CPU to
// compile (the library's side is one template for every element type). gesv,
// inverse, qr and the rest of the LAPACK interface: test_linalg_complex2.cpp (apart,
// so that the two files compile in parallel: ~60 s and ~36 s of CPU at -O1, g++ 12,
// against ~105 s for this file alone before, with complex<float> gesv inverse qr).
#include "linalg_complex_util.hpp"

#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

using namespace lc;

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

TEST_CASE_TEMPLATE("linalg_complex: svd and eig errors", Z, std::complex<double>) {
    auto N = matrix<Z>({{1., 0.}, {0., 1.}});
    N(0, 1) = Z(std::numeric_limits<R<Z>>::quiet_NaN(), 0);
    t7::Tensor<Z> rect(2, 3);
    rect.zero();
    CHECK_THROWS_AS(t7::eig(N), t7::Error);
    CHECK_THROWS_AS(t7::svd(N), t7::Error);
    CHECK_THROWS_AS(t7::eig(rect), t7::ShapeError);
    CHECK_THROWS_AS(t7::svd(rect, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::eig(a3<Z>(), 'X'), t7::Error);
}
