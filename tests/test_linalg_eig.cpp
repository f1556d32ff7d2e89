// Linear algebra (issue 6), the singular value decomposition in double
// (tests/linalg_svd_cases.hpp; float: test_linalg_svd_float.cpp, symeig and eig:
// test_linalg_symeig.cpp), apart so that no file takes over a minute to compile.
#include "linalg_svd_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(svd_cases, double);

// svd of an expression (issue 35, ops/expression_args.hpp): evaluated once.
TEST_CASE("svd of an expression") {
    auto A = t7::tensor<double>({{3, 0}, {0, -2}, {0, 0}});
    const t7::DoubleTensor A0 = A.clone(), A2 = A * 2;
    auto r = t7::svd(A * 2, 'A');
    CHECK(r.u.isSize({3, 3}));
    CHECK(r.s(0) == doctest::Approx(6));
    CHECK(r.s(1) == doctest::Approx(4));
    CHECK(t7::equal(r.s, t7::svd(A2, 'A').s));
    CHECK(t7::equal(r.v, t7::svd(A2, 'A').v));
    CHECK(t7::equal(A, A0));
}

// The workspace check of issue 34 (test_linalg2.cpp has the other decompositions'):
// 2^24 x 2^24 doubles (2 PiB) from a one-element storage, refused before Eigen runs.
TEST_CASE("svd refuses a workspace that cannot be had, before Eigen") {
    const int64_t n = int64_t(1) << 24;
    const t7::DoubleTensor A = t7::ones<double>(1, 1).expand(n, n);
    CHECK_THROWS_AS(t7::svd(A), t7::MemoryError);
    CHECK_THROWS_AS(t7::svd(A, 'A'), t7::MemoryError);
    const t7::DoubleTensor tall = t7::ones<double>(1, 1).expand(n, 3);
    CHECK_THROWS_AS(t7::svd(tall, 'A'), t7::MemoryError); // U alone is n x n
    CHECK(A.storage().size() == 1);
}
