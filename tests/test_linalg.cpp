// Linear algebra (issue 6): products (dot mv mm bmm addmm addmv addr ger baddbmm
// matmul) on contiguous, transposed and strided operands against reference
// loops, and the decompositions (gesv inverse potrf potrs potri qr svd symeig
// eig gels) against hand-computed values and their invariants; every error.
#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

template <class T>
std::vector<double> values(const t7::Tensor<T>& t) {
    std::vector<double> v;
    if (t.dim() == 0) return v;
    t7::Tensor<T> c = t.contiguous();
    for (int64_t i = 0; i < c.nElement(); ++i) v.push_back(double(c.data()[i]));
    return v;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want,
                 double tol = 1e-9) {
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
    }
}

// Largest |a - b| over all elements (same shapes).
template <class A, class B>
double max_diff(const t7::Tensor<A>& a, const t7::Tensor<B>& b) {
    REQUIRE(a.sizes() == b.sizes());
    return double(t7::max(t7::abs(t7::cast<double>(a) - t7::cast<double>(b))));
}

// Reference product by loops over element access (any layout).
template <class T>
t7::DoubleTensor ref_mm(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    t7::DoubleTensor r = t7::zeros<double>(a.size(0), b.size(1));
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            double s = 0;
            for (int64_t k = 0; k < a.size(1); ++k) s += double(a(i, k)) * double(b(k, j));
            r(i, j) = s;
        }
    return r;
}

template <class T>
t7::Tensor<T> random_matrix(int64_t m, int64_t n) {
    t7::Tensor<T> x(m, n);
    return x.uniform(-1, 1);
}

// A well-conditioned n x n matrix (diagonally dominant).
template <class T>
t7::Tensor<T> well_conditioned(int64_t n) {
    t7::Tensor<T> a = random_matrix<T>(n, n);
    return t7::eval(a + t7::eye<T>(n) * T(n));
}

using test_util::message_of;

} // namespace

// ---- products -----------------------------------------------------------------------

TEST_CASE("dot") {
    auto a = t7::tensor<float>({1, 2, 3}), b = t7::tensor<float>({4, 5, 6});
    CHECK(t7::dot(a, b) == 32);
    static_assert(std::is_same_v<decltype(t7::dot(a, b)), float>);
    // strided operands, and equal element counts of different shapes (Torch7)
    auto m = t7::tensor<double>({{1, 2}, {3, 4}});
    CHECK(t7::dot(m.select(1, 0), m.select(1, 1)) == 1 * 2 + 3 * 4);
    CHECK(t7::dot(m, t7::tensor<double>({1, 1, 1, 1})) == 10);
    CHECK(t7::dot(m.t(), m) == 1 * 1 + 3 * 2 + 2 * 3 + 4 * 4);
    // integer types accumulate in int64
    auto i = t7::tensor<uint8_t>({200, 200}), j = t7::tensor<uint8_t>({200, 100});
    static_assert(std::is_same_v<decltype(t7::dot(i, j)), int64_t>);
    CHECK(t7::dot(i, j) == 60000);
    CHECK(t7::dot(t7::tensor<int32_t>({{1, 2}}), t7::tensor<int32_t>({3, 4})) == 11);

    auto msg = message_of<t7::ShapeError>([&] { t7::dot(a, t7::tensor<float>({1, 2})); });
    CHECK(msg.find("dot: inconsistent tensor sizes 3 and 2") != std::string::npos);
}

TEST_CASE("mv and addmv") {
    auto m = t7::tensor<double>({{1, 2, 3}, {4, 5, 6}});
    auto v = t7::tensor<double>({1, 0, -1});
    CHECK(values(t7::mv(m, v)) == std::vector<double>{-2, -2});
    CHECK(values(t7::mv(m.t(), t7::tensor<double>({1, 1}))) == std::vector<double>{5, 7, 9});
    // a strided vector (a column of a matrix)
    auto cols = t7::tensor<double>({{1, 9}, {0, 9}, {-1, 9}});
    CHECK(values(t7::mv(m, cols.select(1, 0))) == std::vector<double>{-2, -2});
    // beta y + alpha m v, y broadcast
    CHECK(values(t7::addmv(2, t7::tensor<double>({1, 1}), 3, m, v)) == std::vector<double>{-4, -4});
    CHECK(values(t7::addmv(t7::tensor<double>({10}), m, v)) == std::vector<double>{8, 8});
    CHECK(values(t7::mv(t7::tensor<int32_t>({{1, 2}, {3, 4}}), t7::tensor<int32_t>({1, 1}))) ==
          std::vector<double>{3, 7});

    CHECK_THROWS_AS(t7::mv(m, m), t7::ShapeError);
    CHECK_THROWS_AS(t7::mv(v, v), t7::ShapeError);
    auto msg = message_of<t7::ShapeError>([&] { t7::mv(m, t7::tensor<double>({1, 2})); });
    CHECK(msg.find("size mismatch: matrix 2x3 times vector 2") != std::string::npos);
    CHECK_THROWS_AS(t7::addmv(1, t7::tensor<double>({1, 2, 3}), 1, m, v), t7::ShapeError);
}

TEST_CASE("ger and addr") {
    auto a = t7::tensor<float>({1, 2}), b = t7::tensor<float>({3, 4, 5});
    CHECK(values(t7::ger(a, b)) == std::vector<double>{3, 4, 5, 6, 8, 10});
    auto M = t7::ones<float>(2, 3);
    CHECK(values(t7::addr(2, M, -1, a, b)) == std::vector<double>{-1, -2, -3, -4, -6, -8});
    CHECK(values(t7::addr(M, a, b)) == std::vector<double>{4, 5, 6, 7, 9, 11});
    // strided vectors
    auto m = t7::tensor<float>({{1, 3}, {2, 4}});
    CHECK(values(t7::ger(m.select(1, 0), m.select(0, 1))) == std::vector<double>{2, 4, 4, 8});
    CHECK_THROWS_AS(t7::ger(m, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::addr(1, t7::ones<float>(3, 3), 1, a, b), t7::ShapeError);
    // beta scales M whatever its layout (transposed, stepped); beta 0 ignores it, NaN included
    auto Mt = t7::tensor<double>({{1, 2}, {3, 4}, {5, 6}}).t();
    auto ad = t7::tensor<double>({1, 2}), bd = t7::tensor<double>({3, 4, 5});
    CHECK(values(t7::addr(0.5, Mt, 2, ad, bd)) == std::vector<double>{6.5, 9.5, 12.5, 13, 18, 23});
    auto wide = t7::tensor<double>({{1, 0, 2, 0, 3}, {4, 0, 5, 0, 6}});
    auto stepped = wide(t7::all, t7::slice(0, 5, 2));
    CHECK(values(t7::addr(-1, stepped, 1, ad, bd)) == std::vector<double>{2, 2, 2, 2, 3, 4});
    auto nan = t7::full<double>({2, 3}, std::nan(""));
    CHECK(values(t7::addr(0, nan, 1, ad, bd)) == std::vector<double>{3, 4, 5, 6, 8, 10});
}

TEST_CASE("Half products run on CUDA tensors only: TypeError on the CPU") {
    t7::Tensor<t7::Half> h(2, 2), v(2);
    h.fill(t7::Half(1.f));
    v.fill(t7::Half(1.f));
    CHECK_THROWS_AS(t7::mm(h, h), t7::TypeError);
    CHECK_THROWS_AS(t7::mv(h, v), t7::TypeError);
    CHECK_THROWS_AS(t7::dot(v, v), t7::TypeError);
    CHECK_THROWS_AS(t7::ger(v, v), t7::TypeError);
    CHECK_THROWS_AS(t7::bmm(h.view(1, 2, 2), h.view(1, 2, 2)), t7::TypeError);
    CHECK_THROWS_AS(t7::matmul(h, v), t7::TypeError);
}

TEST_CASE_TEMPLATE("mm: hand values, every transposition, strided and integer operands", T, float,
                   double) {
    auto a = t7::tensor<T>({{1, 2, 3}, {4, 5, 6}});
    auto b = t7::tensor<T>({{7, 8}, {9, 10}, {11, 12}});
    auto c = t7::mm(a, b);
    CHECK(c.isSize({2, 2}));
    CHECK(c.isContiguous());
    CHECK(values(c) == std::vector<double>{58, 64, 139, 154});
    CHECK(values(t7::mm(b.t(), a.t())) == std::vector<double>{58, 139, 64, 154});

    // sizes large enough for Eigen's blocked GEMM; operands row-major, column-major
    // (transposed views) and neither (every other row and column)
    t7::manualSeed(1);
    const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
    auto A = random_matrix<T>(67, 129), B = random_matrix<T>(129, 45);
    auto At = random_matrix<T>(129, 67).t(), Bt = random_matrix<T>(45, 129).t();
    auto big = random_matrix<T>(134, 258);
    auto As = big(t7::slice(0, 134, 2), t7::slice(0, 258, 2)); // strides (516, 2)
    for (auto* x : {&A, &At, &As})
        for (auto* y : {&B, &Bt}) {
            const double err = max_diff(t7::mm(*x, *y), ref_mm(*x, *y));
            CHECK(err < tol * 129);
        }
    // a row vector and a column vector as matrices
    CHECK(max_diff(t7::mm(A.narrow(0, 3, 1), B), ref_mm(A.narrow(0, 3, 1), B)) < tol * 129);
    CHECK(max_diff(t7::mm(A, B.narrow(1, 5, 1)), ref_mm(A, B.narrow(1, 5, 1))) < tol * 129);
}

TEST_CASE("mm on integer types and its errors") {
    auto a = t7::tensor<int32_t>({{1, 2}, {3, 4}});
    CHECK(values(t7::mm(a, a)) == std::vector<double>{7, 10, 15, 22});
    CHECK(values(t7::mm(a.t(), a)) == std::vector<double>{10, 14, 14, 20});
    auto l = t7::tensor<int64_t>({{100000, 0}, {0, 1}});
    CHECK(values(t7::mm(l, l)) == std::vector<double>{1e10, 0, 0, 1});
    CHECK(t7::mm(t7::tensor<uint8_t>({{2}}), t7::tensor<uint8_t>({{3}}))(0, 0) == 6);

    auto x = t7::zeros<float>(2, 3), y = t7::zeros<float>(4, 5);
    auto msg = message_of<t7::ShapeError>([&] { t7::mm(x, y); });
    CHECK(msg.find("mm: inner dimensions do not match: 2x3 times 4x5") != std::string::npos);
    msg = message_of<t7::ShapeError>([&] { t7::mm(t7::zeros<float>(3), y); });
    CHECK(msg.find("mm: expected 2-D matrices, got 1-D (size 3)") != std::string::npos);
    CHECK_THROWS_AS(t7::mm(t7::zeros<float>(2, 2, 2), x), t7::ShapeError);
}

TEST_CASE("addmm") {
    auto a = t7::tensor<double>({{1, 2}, {3, 4}}), b = t7::tensor<double>({{1, 0}, {0, 1}});
    auto c = t7::tensor<double>({{1, 1}, {1, 1}});
    CHECK(values(t7::addmm(2, c, 3, a, b)) == std::vector<double>{5, 8, 11, 14});
    CHECK(values(t7::addmm(c, a, b)) == std::vector<double>{2, 3, 4, 5});
    // c broadcasts (a bias row)
    CHECK(values(t7::addmm(1, t7::tensor<double>({10, 20}), 1, a, b)) ==
          std::vector<double>{11, 22, 13, 24});
    // beta = 0 ignores c, even NaN (BLAS semantics)
    auto nan = t7::full<double>({2, 2}, NAN);
    CHECK(values(t7::addmm(0, nan, 1, a, b)) == std::vector<double>{1, 2, 3, 4});
    // transposed operands and a transposed c
    CHECK(values(t7::addmm(1, a.t(), 1, a.t(), b.t())) == std::vector<double>{2, 6, 4, 8});

    auto msg = message_of<t7::ShapeError>([&] { t7::addmm(1, t7::zeros<double>(3, 3), 1, a, b); });
    CHECK(msg.find("addmm") != std::string::npos);
    CHECK(msg.find("3x3") != std::string::npos);
    CHECK_THROWS_AS(t7::addmm(c, a, t7::zeros<double>(3, 2)), t7::ShapeError);
}

TEST_CASE("bmm and baddbmm") {
    t7::manualSeed(2);
    auto a = t7::randn<double>(5, 4, 3), b = t7::randn<double>(5, 3, 6);
    auto c = t7::bmm(a, b);
    CHECK(c.isSize({5, 4, 6}));
    for (int64_t i = 0; i < 5; ++i) CHECK(max_diff(c[i], ref_mm(a[i], b[i])) < 1e-12);
    // transposed matrices inside the batch, and a permuted batch dimension
    auto at = t7::randn<double>(5, 3, 4).transpose(1, 2);
    auto bp = t7::randn<double>(3, 5, 6).transpose(0, 1);
    auto c2 = t7::bmm(at, bp);
    for (int64_t i = 0; i < 5; ++i) CHECK(max_diff(c2[i], ref_mm(at[i], bp[i])) < 1e-12);
    // large matrices: each product threaded by Eigen
    auto A = t7::randn<float>(2, 100, 100), B = t7::randn<float>(2, 100, 100);
    auto C = t7::bmm(A, B);
    for (int64_t i = 0; i < 2; ++i) CHECK(max_diff(C[i], ref_mm(A[i], B[i])) < 1e-3);

    auto base = t7::ones<double>(5, 4, 6);
    auto d = t7::baddbmm(0.5, base, 2, a, b);
    for (int64_t i = 0; i < 5; ++i)
        CHECK(max_diff(d[i], t7::eval(ref_mm(a[i], b[i]) * 2.0 + 0.5)) < 1e-12);
    auto e = t7::baddbmm(t7::ones<double>(6), a, b); // broadcast c
    for (int64_t i = 0; i < 5; ++i)
        CHECK(max_diff(e[i], t7::eval(ref_mm(a[i], b[i]) + 1.0)) < 1e-12);

    auto msg = message_of<t7::ShapeError>([&] { t7::bmm(a, t7::zeros<double>(4, 3, 6)); });
    CHECK(msg.find("bmm: batch sizes differ: 5x4x3 and 4x3x6") != std::string::npos);
    CHECK_THROWS_AS(t7::bmm(a, t7::zeros<double>(5, 4, 6)), t7::ShapeError);
    CHECK_THROWS_AS(t7::bmm(a[0], b[0]), t7::ShapeError);
    CHECK_THROWS_AS(t7::baddbmm(1, t7::zeros<double>(5, 4, 5), 1, a, b), t7::ShapeError);
}

TEST_CASE("matmul follows NumPy's rules") {
    auto v = t7::tensor<float>({1, 2}), w = t7::tensor<float>({3, 4});
    auto m = t7::tensor<float>({{1, 2}, {3, 4}});
    auto d = t7::matmul(v, w);
    CHECK(d.isSize({1}));
    CHECK(d(0) == 11);
    CHECK(values(t7::matmul(m, v)) == std::vector<double>{5, 11});
    CHECK(values(t7::matmul(v, m)) == std::vector<double>{7, 10});
    CHECK(values(t7::matmul(m, m)) == std::vector<double>{7, 10, 15, 22});

    t7::manualSeed(3);
    auto a = t7::randn<double>(3, 4, 5), b = t7::randn<double>(5, 2);
    auto ab = t7::matmul(a, b); // contiguous: one GEMM over the stacked rows
    CHECK(ab.isSize({3, 4, 2}));
    for (int64_t i = 0; i < 3; ++i) CHECK(max_diff(ab[i], ref_mm(a[i], b)) < 1e-12);
    auto at = a.transpose(1, 2).contiguous().transpose(1, 2); // not contiguous
    auto atb = t7::matmul(at, b);
    for (int64_t i = 0; i < 3; ++i) CHECK(max_diff(atb[i], ref_mm(at[i], b)) < 1e-12);
    // batch broadcasting: (2, 1, 4, 5) x (3, 5, 2) -> (2, 3, 4, 2)
    auto p = t7::randn<double>(2, 1, 4, 5), q = t7::randn<double>(3, 5, 2);
    auto pq = t7::matmul(p, q);
    CHECK(pq.isSize({2, 3, 4, 2}));
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(max_diff(pq[i][j], ref_mm(p[i][0], q[j])) < 1e-12);
    // a vector on either side of a batch
    auto x = t7::randn<double>(5);
    auto ax = t7::matmul(a, x);
    CHECK(ax.isSize({3, 4}));
    CHECK(max_diff(ax[1], t7::mv(a[1], x)) < 1e-12);
    auto y = t7::randn<double>(4);
    auto ya = t7::matmul(y, a);
    CHECK(ya.isSize({3, 5}));
    CHECK(max_diff(ya[2], t7::mv(a[2].t(), y)) < 1e-12);

    CHECK_THROWS_AS(t7::matmul(v, t7::tensor<float>({1, 2, 3})), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(a, t7::zeros<double>(4, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(a, t7::zeros<double>(2, 5, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(t7::FloatTensor(), v), t7::ShapeError);
}

TEST_CASE("products give the same values on 1 and 2 threads") {
    const int saved = t7::getNumThreads();
    t7::manualSeed(4);
    auto a = t7::randn<double>(300, 200), b = t7::randn<double>(200, 250);
    t7::setNumThreads(1);
    auto one = t7::mm(a, b);
    t7::setNumThreads(2);
    auto two = t7::mm(a, b);
    t7::setNumThreads(saved);
    CHECK(max_diff(one, two) < 1e-10);
}

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

TEST_CASE_TEMPLATE("svd: U diag(S) V^T = A", T, float, double) {
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
