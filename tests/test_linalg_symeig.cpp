// Linear algebra (issue 6), eigenvalues: symeig and eig against hand-computed
// values and their invariants; every error. (Apart from test_linalg_eig.cpp, the
// SVD, so that neither file takes over a minute to compile.)
#include "linalg_util.hpp"

#include <algorithm>
#include <string>

using namespace linalg_util;

TEST_CASE("symeig") {
    auto A = t7::tensor<double>({{2, 1}, {1, 2}});
    auto e = t7::symeig(A);
    check_close(values(e.values), {1, 3});
    CHECK(e.vectors.dim() == 0);
    auto ev = t7::symeig(A, 'V');
    auto V = ev.vectors;
    CHECK(max_diff(t7::mm(A, V), t7::mm(V, t7::diag(ev.values))) < 1e-13);
    CHECK(std::abs(V(0, 1)) == doctest::Approx(std::sqrt(0.5)));
    // one triangle only
    check_close(values(t7::symeig(t7::tensor<double>({{2, 1}, {-7, 2}}), 'N', 'U').values), {1, 3});
    check_close(values(t7::symeig(t7::tensor<double>({{2, -7}, {1, 2}}), 'N', 'L').values), {1, 3});

    t7::manualSeed(10);
    auto M = random_matrix<float>(30, 30);
    auto S = t7::eval(M + M.t());
    auto r = t7::symeig(S, 'V');
    CHECK(max_diff(t7::mm(S, r.vectors), t7::mm(r.vectors, t7::diag(r.values))) < 1e-4);
    CHECK(max_diff(t7::mm(r.vectors.t(), r.vectors), t7::eye<float>(30)) < 1e-5);
    for (int64_t i = 0; i + 1 < 30; ++i) CHECK(r.values(i) <= r.values(i + 1));

    CHECK_THROWS_AS(t7::symeig(t7::zeros<double>(2, 3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::symeig(A, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::symeig(A, 'V', 'Q'), t7::Error);
}

TEST_CASE("eig: real and complex eigenvalues") {
    auto D = t7::tensor<double>({{2, 0}, {0, 3}});
    auto d = t7::eig(D, 'V');
    CHECK(d.values.isSize({2, 2}));
    auto re = values(d.values.select(1, 0));
    std::sort(re.begin(), re.end());
    check_close(re, {2, 3});
    CHECK(max_diff(d.values.select(1, 1), t7::zeros<double>(2)) == 0);

    // a rotation by 90 degrees: eigenvalues +i, -i (positive imaginary part first)
    auto rot = t7::tensor<double>({{0, -1}, {1, 0}});
    auto r = t7::eig(rot, 'V');
    check_close(values(r.values), {0, 1, 0, -1}, 1e-12);
    // vector x + iy of eigenvalue a + bi: A x = a x - b y, A y = b x + a y
    auto x = r.vectors.select(1, 0), y = r.vectors.select(1, 1);
    CHECK(max_diff(t7::mv(rot, x), t7::eval(y * -1.0)) < 1e-12);
    CHECK(max_diff(t7::mv(rot, y), x) < 1e-12);
    CHECK(double(t7::sum(x * x) + t7::sum(y * y)) == doctest::Approx(1));

    // a general matrix: A V = V D with D the real block-diagonal form
    t7::manualSeed(11);
    auto A = random_matrix<double>(8, 8);
    auto g = t7::eig(A, 'V');
    auto Dm = t7::zeros<double>(8, 8);
    for (int64_t j = 0; j < 8; ++j) {
        Dm(j, j) = g.values(j, 0);
        if (g.values(j, 1) > 0) {
            Dm(j, j + 1) = g.values(j, 1);
            Dm(j + 1, j) = -g.values(j, 1);
        }
    }
    CHECK(max_diff(t7::mm(A, g.vectors), t7::mm(g.vectors, Dm)) < 1e-10);
    CHECK(t7::eig(A).vectors.dim() == 0);

    CHECK_THROWS_AS(t7::eig(t7::zeros<double>(2, 3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::eig(D, 'X'), t7::Error);
}

// ---- expressions and x[mask] as operands (issue 35, ops/expression_args.hpp) ------------

TEST_CASE("symeig and eig of expressions") {
    auto A = t7::tensor<double>({{2, 1}, {1, 2}});
    const t7::DoubleTensor A0 = A.clone(), A3 = A * 3;
    auto se = t7::symeig(A * 3, 'V');
    check_close(values(se.values), {3, 9});
    CHECK(t7::equal(se.values, t7::symeig(A3, 'V').values));
    CHECK(t7::equal(se.vectors, t7::symeig(A3, 'V').vectors));
    auto e = t7::eig(A * 3, 'V');
    CHECK(t7::equal(e.values, t7::eig(A3, 'V').values));
    CHECK(e.values.isSize({2, 2}));
    CHECK(t7::equal(A, A0));
}

// The workspace check of issue 34 (test_linalg2.cpp has the other decompositions'):
// 2^24 x 2^24 doubles (2 PiB) from a one-element storage, refused before Eigen runs.
TEST_CASE("symeig and eig refuse a workspace that cannot be had, before Eigen") {
    const int64_t n = int64_t(1) << 24;
    const t7::DoubleTensor A = t7::ones<double>(1, 1).expand(n, n);
    CHECK_THROWS_AS(t7::eig(A), t7::MemoryError);
    CHECK_THROWS_AS(t7::eig(A, 'V'), t7::MemoryError);
    CHECK_THROWS_AS(t7::symeig(A), t7::MemoryError);
    CHECK(A.storage().size() == 1);
    CHECK(A.data()[0] == 1);
}
