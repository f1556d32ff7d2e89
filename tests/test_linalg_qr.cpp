// Linear algebra (issue 6), orthogonal decompositions: qr and gels against
// hand-computed values and their invariants; every error. (Apart from
// test_linalg_decomp.cpp so that neither file takes over a minute to compile.)
#include "linalg_util.hpp"

#include <algorithm>
#include <string>

using namespace linalg_util;

TEST_CASE_TEMPLATE("qr: Q R = A, orthonormal Q, triangular R", T, float, double) {
    const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-13;
    t7::manualSeed(8);
    for (auto mn : {std::pair<int64_t, int64_t>{5, 3}, {3, 5}, {4, 4}, {60, 40}}) {
        const int64_t m = mn.first, n = mn.second;
        CAPTURE(m);
        CAPTURE(n);
        auto A = random_matrix<T>(m, n);
        auto f = t7::qr(A);
        auto Q = f.q, R = f.r;
        const int64_t k = std::min(m, n);
        CHECK(Q.isSize({m, k}));
        CHECK(R.isSize({k, n}));
        CHECK(max_diff(t7::mm(Q, R), A) < tol * 10);
        CHECK(max_diff(t7::mm(Q.t(), Q), t7::eye<T>(k)) < tol * 10);
        CHECK(max_diff(t7::triu(R), R) == 0);
    }
    // hand: a 2x2 whose first column is (3, 4): |R(0,0)| = 5
    auto R = t7::qr(t7::tensor<T>({{3, 1}, {4, 2}})).r;
    CHECK(std::abs(double(R(0, 0))) == doctest::Approx(5));
    CHECK(std::abs(double(R(1, 1))) == doctest::Approx(2.0 / 5)); // |det| / 5
    CHECK_THROWS_AS(t7::qr(t7::zeros<T>(3)), t7::ShapeError);
}

TEST_CASE("gels: least squares and minimum norm") {
    // fit y = x0 + x1 t through (1, 1), (2, 2), (3, 2): x = (2/3, 1/2)
    auto A = t7::tensor<double>({{1, 1}, {1, 2}, {1, 3}});
    auto x = t7::gels(t7::tensor<double>({1, 2, 2}), A);
    CHECK(x.isSize({2}));
    check_close(values(x), {2.0 / 3, 0.5}, 1e-12);
    auto X = t7::gels(t7::tensor<double>({{1, 0}, {2, 0}, {2, 0}}), A);
    CHECK(X.isSize({2, 2}));
    check_close(values(X), {2.0 / 3, 0, 0.5, 0}, 1e-12);
    // underdetermined: the smallest x with x0 + x1 = 2
    check_close(values(t7::gels(t7::tensor<double>({2}), t7::tensor<double>({{1, 1}}))), {1, 1},
                1e-12);
    // square: the solution
    check_close(values(t7::gels(t7::tensor<float>({3, 5}), t7::tensor<float>({{2, 1}, {1, 3}}))),
                {0.8, 1.4}, 1e-5);

    auto msg = message_of<t7::Error>([] {
        t7::gels(t7::tensor<double>({1, 2, 3}), t7::tensor<double>({{1, 2}, {2, 4}, {3, 6}}));
    });
    CHECK(msg.find("gels") != std::string::npos);
    CHECK(msg.find("full rank") != std::string::npos);
    CHECK_THROWS_AS(t7::gels(t7::zeros<double>(2), A), t7::ShapeError);
    CHECK_THROWS_AS(t7::gels(t7::zeros<double>(3), t7::zeros<double>(3)), t7::ShapeError);
}

// ---- expressions and x[mask] as operands (issue 35, ops/expression_args.hpp) ------------

TEST_CASE("qr and gels of expressions and selections") {
    auto A = t7::tensor<double>({{1, 1}, {1, 2}, {1, 3}});
    auto B = t7::tensor<double>({{1, 0}, {2, 1}, {2, 5}});
    const t7::DoubleTensor A0 = A.clone(), A2 = A * 2, B1 = B + 1;
    auto q = t7::qr(A * 2);
    CHECK(q.q.isSize({3, 2}));
    CHECK(t7::equal(q.q, t7::qr(A2).q));
    CHECK(t7::equal(q.r, t7::qr(A2).r));
    CHECK(t7::equal(t7::gels(B + 1, A * 2), t7::gels(B1, A2)));
    // least squares of 1 2 2 on the columns 1, x: intercept 2/3, slope 1/2; (2A): halved
    t7::DoubleTensor v = t7::tensor<double>({0, 1, 2, 2});
    auto x = t7::gels(v[v > 0], A * 2);
    CHECK(x.isSize({2}));
    check_close(values(x), {1.0 / 3, 0.25});
    CHECK(t7::equal(A, A0));
}
