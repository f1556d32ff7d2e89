// Linear algebra (issue 6), decompositions: gesv inverse potrf potrs potri
// against hand-computed values and their invariants; every error. qr and gels:
// test_linalg_qr.cpp; svd: test_linalg_eig.cpp; symeig, eig: test_linalg_symeig.cpp.
#include "linalg_util.hpp"

#include <algorithm>
#include <string>

using namespace linalg_util;

// ---- decompositions -------------------------------------------------------------------

TEST_CASE("gesv: values, several right-hand sides, the LU factors") {
    auto A = t7::tensor<double>({{2, 1}, {1, 3}});
    auto r = t7::gesv(t7::tensor<double>({3, 5}), A);
    check_close(values(r.solution), {0.8, 1.4});
    CHECK(r.solution.isSize({2}));
    auto r2 = t7::gesv(t7::tensor<double>({{3, 1}, {5, 0}}), A);
    CHECK(r2.solution.isSize({2, 2}));
    check_close(values(r2.solution), {0.8, 0.6, 1.4, -0.2});

    // P A = L U: the rows of L U are A's rows, permuted
    t7::manualSeed(5);
    auto M = well_conditioned<double>(6);
    auto lu = t7::gesv(t7::eye<double>(6), M).lu;
    auto L = t7::eval(t7::tril(lu, -1) + t7::eye<double>(6)), U = t7::triu(lu);
    auto LU = t7::mm(L, U);
    for (int64_t i = 0; i < 6; ++i) {
        bool found = false;
        for (int64_t j = 0; j < 6; ++j) found = found || max_diff(LU[i], M[j]) < 1e-12;
        CHECK(found);
    }
    // A X = B on a larger system, through a transposed A
    auto big = well_conditioned<float>(40), B = random_matrix<float>(40, 3);
    auto X = t7::gesv(B, big.t()).solution;
    CHECK(max_diff(t7::mm(big.t(), X), B) < 1e-4);
}

TEST_CASE("gesv and inverse reject singular matrices") {
    auto S = t7::tensor<double>({{1, 2}, {2, 4}});
    auto msg = message_of<t7::Error>([&] { t7::gesv(t7::tensor<double>({1, 2}), S); });
    CHECK(msg.find("gesv") != std::string::npos);
    CHECK(msg.find("singular") != std::string::npos);
    CHECK(msg.find("2x2") != std::string::npos);
    CHECK_THROWS_AS(t7::inverse(S), t7::Error);
    CHECK_THROWS_AS(t7::inverse(t7::zeros<float>(3, 3)), t7::Error);
    // singular to working precision: rank 2 in exact arithmetic, not exactly zero pivots
    auto R = t7::tensor<float>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    CHECK_THROWS_AS(t7::inverse(R), t7::Error);
    CHECK_THROWS_AS(t7::inverse(t7::tensor<double>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})), t7::Error);
    CHECK_THROWS_AS(t7::inverse(t7::tensor<double>({{1, NAN}, {0, 1}})), t7::Error);

    msg = message_of<t7::ShapeError>([] { t7::inverse(t7::zeros<double>(2, 3)); });
    CHECK(msg.find("inverse: the input must be a square matrix, got 2-D of size 2x3") !=
          std::string::npos);
    CHECK_THROWS_AS(t7::inverse(t7::zeros<double>(3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::gesv(t7::zeros<double>(3), t7::eye<double>(2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::gesv(t7::zeros<double>(2), t7::zeros<double>(2, 3)), t7::ShapeError);
}

TEST_CASE_TEMPLATE("inverse: hand values and A * inverse(A) = I", T, float, double) {
    auto A = t7::tensor<T>({{4, 7}, {2, 6}});
    check_close(values(t7::inverse(A)), {0.6, -0.7, -0.2, 0.4}, 1e-6);
    t7::manualSeed(6);
    const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-13;
    for (int64_t n : {1, 5, 30, 100}) {
        auto M = well_conditioned<T>(n);
        auto inv = t7::inverse(M);
        CHECK(max_diff(t7::mm(M, inv), t7::eye<T>(n)) < tol);
        CHECK(max_diff(t7::mm(inv, M), t7::eye<T>(n)) < tol);
        CHECK(max_diff(t7::inverse(M.t()), inv.t()) < tol);
    }
}

TEST_CASE("potrf, potrs, potri") {
    auto A = t7::tensor<double>({{4, 2}, {2, 3}});
    auto U = t7::potrf(A);
    check_close(values(U), {2, 1, 0, std::sqrt(2.0)});
    auto L = t7::potrf(A, 'L');
    check_close(values(L), {2, 0, 1, std::sqrt(2.0)});
    // only the named triangle is read
    auto garbage_low = t7::tensor<double>({{4, 2}, {99, 3}}),
         garbage_up = t7::tensor<double>({{4, 99}, {2, 3}});
    CHECK(max_diff(t7::potrf(garbage_low, 'U'), U) < 1e-15);
    CHECK(max_diff(t7::potrf(garbage_up, 'L'), L) < 1e-15);

    t7::manualSeed(7);
    for (int64_t n : {3, 50}) {
        auto M = random_matrix<double>(n, n);
        auto S = t7::eval(t7::mm(M, M.t()) + t7::eye<double>(n) * double(n)); // SPD
        auto l = t7::potrf(S, 'L'), u = t7::potrf(S, 'U');
        CHECK(max_diff(t7::mm(l, l.t()), S) < 1e-11);
        CHECK(max_diff(t7::mm(u.t(), u), S) < 1e-11);
        CHECK(max_diff(t7::tril(l), l) == 0);
        CHECK(max_diff(t7::triu(u), u) == 0);
        auto b = random_matrix<double>(n, 2);
        CHECK(max_diff(t7::mm(S, t7::potrs(b, u)), b) < 1e-11);
        CHECK(max_diff(t7::mm(S, t7::potrs(b, l, 'L')), b) < 1e-11);
        CHECK(max_diff(t7::mm(S, t7::potri(u)), t7::eye<double>(n)) < 1e-11);
        CHECK(max_diff(t7::mm(S, t7::potri(l, 'L')), t7::eye<double>(n)) < 1e-11);
        auto bv = random_matrix<double>(n, 1).select(1, 0);
        CHECK(t7::potrs(bv, u).isSize({n}));
    }

    auto msg = message_of<t7::Error>([] { t7::potrf(t7::tensor<double>({{1, 2}, {2, 1}})); });
    CHECK(msg.find("potrf: the matrix of size 2x2 is not positive definite") != std::string::npos);
    CHECK_THROWS_AS(t7::potrf(t7::tensor<float>({{-1}})), t7::Error);
    CHECK_THROWS_AS(t7::potrf(A, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::potrf(t7::zeros<double>(2, 3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::potrs(t7::zeros<double>(3), U), t7::ShapeError);
}

// ---- expressions and x[mask] as operands (issue 35, ops/expression_args.hpp) ------------

TEST_CASE("gesv, inverse, potrf, potrs, potri of expressions and selections") {
    auto A = t7::tensor<double>({{2, 1}, {1, 3}});
    auto B = t7::tensor<double>({{3, 1}, {5, 0}});
    const t7::DoubleTensor A0 = A.clone(), B0 = B.clone();
    const t7::DoubleTensor A2 = A * 2, B1 = B + 1;
    // (2A)^-1 = [[0.3, -0.1], [-0.1, 0.2]]; X = (2A)^-1 (B + 1)
    check_close(values(t7::inverse(A * 2)), {0.3, -0.1, -0.1, 0.2});
    CHECK(t7::equal(t7::inverse(A * 2), t7::inverse(A2)));
    auto g = t7::gesv(B + 1, A * 2);
    check_close(values(g.solution), {0.6, 0.5, 0.8, 0.0});
    CHECK(t7::equal(g.solution, t7::gesv(B1, A2).solution));
    CHECK(t7::equal(g.lu, t7::gesv(B1, A2).lu));
    CHECK(t7::equal(t7::gesv(B, A * 2).solution, t7::gesv(B, A2).solution)); // one operand

    const t7::DoubleTensor U = t7::potrf(A * 2);
    CHECK(t7::equal(U, t7::potrf(A2)));
    CHECK(t7::equal(t7::potrf(A * 2, 'L'), t7::potrf(A2, 'L')));
    CHECK(t7::equal(t7::potrs(B + 1, U * 1), t7::potrs(B1, U)));
    check_close(values(t7::potrs(B + 1, U)), {0.6, 0.5, 0.8, 0.0});
    CHECK(t7::equal(t7::potri(U * 1), t7::potri(U)));
    check_close(values(t7::potri(U + 0)), {0.3, -0.1, -0.1, 0.2});

    // a selection as the right-hand side: v[v > 2] = {3, 4}
    t7::DoubleTensor v = t7::range<double>(1, 4);
    const t7::DoubleTensor rhs = t7::tensor<double>({3, 4});
    auto gs = t7::gesv(v[v > 2], A);
    CHECK(gs.solution.isSize({2}));
    CHECK(t7::equal(gs.solution, t7::gesv(rhs, A).solution));
    CHECK(t7::equal(t7::potrs(v[v > 2], U), t7::potrs(rhs, U)));
    CHECK(t7::equal(A, A0));
    CHECK(t7::equal(B, B0));
}
