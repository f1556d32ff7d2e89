// The SVD cases (svd against its invariants and hand values; every error),
// defined once and instantiated per element type by test_linalg_eig.cpp (double)
// and test_linalg_svd_float.cpp (float): Eigen's BDCSVD for one type is most of a
// file's compile time.
#pragma once

#include "linalg_util.hpp"

#include <algorithm>
#include <string>

using namespace linalg_util; // a test header, included by the two suites only

TEST_CASE_TEMPLATE_DEFINE("svd: U diag(S) V^T = A", T, svd_cases) {
    const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;
    t7::manualSeed(9);
    for (auto mn : {std::pair<int64_t, int64_t>{5, 3}, {3, 5}, {40, 40}}) {
        const int64_t m = mn.first, n = mn.second;
        CAPTURE(m);
        auto A = random_matrix<T>(m, n);
        auto f = t7::svd(A);
        auto U = f.u, S = f.s, V = f.v;
        const int64_t k = std::min(m, n);
        CHECK(U.isSize({m, k}));
        CHECK(S.isSize({k}));
        CHECK(V.isSize({n, k}));
        CHECK(max_diff(t7::mm(t7::mm(U, t7::diag(S)), V.t()), A) < tol * 10);
        CHECK(max_diff(t7::mm(U.t(), U), t7::eye<T>(k)) < tol * 10);
        CHECK(max_diff(t7::mm(V.t(), V), t7::eye<T>(k)) < tol * 10);
        for (int64_t i = 0; i + 1 < k; ++i) CHECK(S(i) >= S(i + 1));
        CHECK(S(k - 1) >= 0);
        // full: square U and V
        auto full = t7::svd(A, 'A');
        CHECK(full.u.isSize({m, m}));
        CHECK(full.v.isSize({n, n}));
        CHECK(max_diff(t7::mm(full.u.t(), full.u), t7::eye<T>(m)) < tol * 10);
        CHECK(max_diff(full.s, S) < tol * 10);
    }
    auto d = t7::svd(t7::tensor<T>({{3, 0}, {0, -2}}));
    check_close(values(d.s), {3, 2}, 1e-6);
    CHECK_THROWS_AS(t7::svd(t7::zeros<T>(3), 'S'), t7::ShapeError);
    CHECK_THROWS_AS(t7::svd(t7::zeros<T>(3, 3), 'X'), t7::Error);
}
