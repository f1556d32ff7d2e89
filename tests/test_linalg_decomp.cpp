// Linear algebra (issue 6), decompositions: gesv inverse potrf potrs potri
// against hand-computed values and their invariants; every error. qr and gels:
// test_linalg_qr.cpp; svd: test_linalg_eig.cpp; symeig, eig: test_linalg_symeig.cpp.
#include "linalg_util.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <algorithm>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

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

// ---- the blocked factorisations on the pool (issue 43, eval/cpu/blocked_decomp.hpp) -----

namespace {

// The thread count, restored when a test case ends however it ends.
struct KeepThreads {
    int before = t7::getNumThreads();
    ~KeepThreads() { t7::setNumThreads(before); }
};
template <class T>
bool same_bits(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    const t7::Tensor<T> ca = a.contiguous(), cb = b.contiguous();
    return a.sizes() == b.sizes() &&
           std::memcmp(ca.data(), cb.data(), size_t(ca.nElement()) * sizeof(T)) == 0;
}

// The elements of a matrix in double precision (complex<double> for a complex T),
// row-major, for the reference loops.
template <class T>
using Wide = std::conditional_t<t7::is_complex_v<T>, std::complex<double>, double>;
template <class T>
std::vector<Wide<T>> wide(const t7::Tensor<T>& t) {
    const t7::Tensor<T> c = t.contiguous();
    return std::vector<Wide<T>>(c.data(), c.data() + c.nElement());
}
inline double conj_of(double x) { return x; }
inline std::complex<double> conj_of(std::complex<double> x) { return std::conj(x); }

// max |(op(a) b)(i, j) - c(i, j)| / max |c|: a m x k (or, conjugate-transposed when
// `ha`, k x m), b k x n, c m x n, all row-major; naive loops.
template <class W>
double rel_err(const std::vector<W>& a, bool ha, const std::vector<W>& b, const std::vector<W>& c,
               int64_t m, int64_t k, int64_t n) {
    double err = 0, big = 1e-300;
    std::vector<W> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), W(0));
        for (int64_t p = 0; p < k; ++p) {
            const W x = ha ? conj_of(a[size_t(p * m + i)]) : a[size_t(i * k + p)];
            for (int64_t j = 0; j < n; ++j) row[size_t(j)] += x * b[size_t(p * n + j)];
        }
        for (int64_t j = 0; j < n; ++j) {
            err = std::max(err, std::abs(row[size_t(j)] - c[size_t(i * n + j)]));
            big = std::max(big, std::abs(c[size_t(i * n + j)]));
        }
    }
    return err / big;
}

template <class T>
double eps_of() {
    return double(std::numeric_limits<t7::real_t<T>>::epsilon());
}

template <class T>
t7::Tensor<T> general(int64_t n, int64_t k) {
    if constexpr (t7::is_complex_v<T>)
        return t7::eval(
            t7::complex(random_matrix<t7::real_t<T>>(n, k), random_matrix<t7::real_t<T>>(n, k)));
    else
        return random_matrix<T>(n, k);
}

// A Hermitian (real: symmetric) positive-definite n x n matrix: M M^H + n I.
template <class T>
t7::Tensor<T> hpd(int64_t n) {
    const auto w = wide(general<T>(n, n));
    t7::Tensor<T> a(n, n);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) {
            Wide<T> s = i == j ? Wide<T>(double(n)) : Wide<T>(0);
            for (int64_t p = 0; p < n; ++p)
                s += w[size_t(i * n + p)] * conj_of(w[size_t(j * n + p)]);
            a(i, j) = T(s);
            a(j, i) = T(conj_of(s));
        }
    return a;
}

template <class T>
using EM = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
EM<T> eigen_of(const t7::Tensor<T>& t) {
    EM<T> r(t.size(0), t.dim() == 1 ? 1 : t.size(1));
    for (int64_t i = 0; i < r.rows(); ++i)
        for (int64_t j = 0; j < r.cols(); ++j) r(i, j) = t.dim() == 1 ? T(t(i)) : T(t(i, j));
    return r;
}
template <class T>
double max_diff_eigen(const t7::Tensor<T>& t, const EM<T>& e) {
    double d = 0;
    for (int64_t i = 0; i < e.rows(); ++i)
        for (int64_t j = 0; j < e.cols(); ++j)
            d = std::max(d, double(std::abs((t.dim() == 1 ? T(t(i)) : T(t(i, j))) - e(i, j))));
    return d;
}
template <class W>
double max_abs(const std::vector<W>& v) {
    double m = 0;
    for (const W& x : v) m = std::max(m, std::abs(x));
    return m;
}

// Sizes around the block sizes: Cholesky unblocked below 32, LU below 17; then
// blocks of n / 8 rounded down to 16 (at least 16 for Cholesky, 8 for LU; at most
// 128, LU 256), updates by parts of 64 columns, on the pool from about 200.
const std::vector<int64_t> blocked_sizes = {1,  2,  15,  16,  17,  31,  32,
                                            33, 53, 127, 128, 129, 261, 389};

} // namespace

TEST_CASE_TEMPLATE("potrf by blocks: U^H U and L L^H rebuild A, Eigen's values, same bits on 1 "
                   "and 2 threads",
                   T, float, double, std::complex<double>) {
    KeepThreads keep;
    t7::manualSeed(43);
    const double tol = 50 * eps_of<T>();
    for (int64_t n : blocked_sizes) {
        CAPTURE(n);
        const t7::Tensor<T> a = hpd<T>(n), a0 = a.clone();
        const auto wa = wide(a);
        for (char uplo : {'U', 'L'}) {
            CAPTURE(uplo);
            t7::setNumThreads(1);
            const t7::Tensor<T> f = t7::potrf(a, uplo);
            t7::setNumThreads(2);
            const uint64_t loops = t7::detail::threaded_loops();
            CHECK(same_bits(f, t7::potrf(a, uplo)));
            if (n >= 261) CHECK(t7::detail::threaded_loops() > loops); // on the pool
            const auto wf = wide(f);
            // U^H U = A; L L^H = A (L^H built by hand)
            if (uplo == 'U') {
                CHECK(rel_err(wf, true, wf, wa, n, n, n) < tol * double(n));
            } else {
                std::vector<Wide<T>> lh(wf.size());
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < n; ++j)
                        lh[size_t(j * n + i)] = conj_of(wf[size_t(i * n + j)]);
                CHECK(rel_err(wf, false, lh, wa, n, n, n) < tol * double(n));
            }
            bool triangular = true;
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j)
                    if ((uplo == 'U' ? j < i : j > i) && wf[size_t(i * n + j)] != Wide<T>(0))
                        triangular = false;
            CHECK(triangular);
            // what Eigen's LLT gave before (issue 43), to rounding: in double only (each
            // type's Eigen decompositions doubled this suite's compile time)
            if constexpr (std::is_same_v<T, double>) {
                const EM<T> ea = eigen_of(a);
                const EM<T> want = uplo == 'U'
                                       ? EM<T>(Eigen::LLT<EM<T>, Eigen::Upper>(ea).matrixU())
                                       : EM<T>(Eigen::LLT<EM<T>, Eigen::Lower>(ea).matrixL());
                CHECK(max_diff_eigen(f, want) < tol * std::sqrt(double(n)) * double(n));
            }
        }
        // one triangle read: garbage in the other changes no bit
        t7::Tensor<T> g = a.clone();
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < i; ++j) g(i, j) = T(1e3);
        CHECK(same_bits(t7::potrf(g, 'U'), t7::potrf(a, 'U')));
        CHECK(
            same_bits(t7::potrf(t7::Tensor<T>(g.t()), 'L'), t7::potrf(t7::Tensor<T>(a.t()), 'L')));
        CHECK(same_bits(a, a0));
    }
}

TEST_CASE_TEMPLATE("potrf by blocks: not positive definite at any step, the input unchanged", T,
                   float, double, std::complex<double>) {
    t7::manualSeed(44);
    for (int64_t n : {5, 40, 261}) {
        const t7::Tensor<T> good = hpd<T>(n);
        for (int64_t k : {int64_t(0), n / 2, int64_t(32), n - 1}) {
            if (k >= n) continue;
            CAPTURE(n);
            CAPTURE(k);
            t7::Tensor<T> a = good.clone();
            a(k, k) = T(-1);
            const t7::Tensor<T> a0 = a.clone();
            for (char uplo : {'U', 'L'}) {
                const auto msg = message_of<t7::Error>([&] { t7::potrf(a, uplo); });
                CHECK(msg.find("is not positive definite") != std::string::npos);
                CHECK(same_bits(a, a0));
            }
        }
    }
}

TEST_CASE_TEMPLATE("gesv and inverse by blocks: A X = B, Eigen's values, same bits on 1 and 2 "
                   "threads",
                   T, float, double, std::complex<double>) {
    KeepThreads keep;
    t7::manualSeed(45);
    const double tol = 100 * eps_of<T>();
    for (int64_t n : blocked_sizes) {
        CAPTURE(n);
        const t7::Tensor<T> a = general<T>(n, n), a0 = a.clone();
        const auto wa = wide(a);
        const double amax = max_abs(wa);
        for (int64_t k : {int64_t(0), int64_t(3), int64_t(70)}) {
            CAPTURE(k);
            const t7::Tensor<T> b = k == 0
                                        ? t7::Tensor<T>(general<T>(n, 1).select(1, 0).contiguous())
                                        : general<T>(n, k);
            t7::setNumThreads(1);
            const auto r = t7::gesv(b, a);
            t7::setNumThreads(2);
            const uint64_t loops = t7::detail::threaded_loops();
            const auto r2 = t7::gesv(b, a);
            if (n >= 261) CHECK(t7::detail::threaded_loops() > loops);
            CHECK(same_bits(r.solution, r2.solution));
            CHECK(same_bits(r.lu, r2.lu));
            CHECK(r.solution.sizes() == b.sizes());
            // the residual, relative to |A| |X|
            const auto wx = wide(r.solution), wb = wide(b);
            const double xmax = max_abs(wx), bmax = max_abs(wb);
            CHECK(rel_err(wa, false, wx, wb, n, n, std::max<int64_t>(k, 1)) * bmax <
                  tol * double(n) * amax * xmax);
            // Eigen's LU factors, and its solution (to the condition number), as before
            // issue 43: in double only, as potrf's
            if constexpr (std::is_same_v<T, double>) {
                const Eigen::PartialPivLU<EM<T>> lu(eigen_of(a));
                CHECK(max_diff_eigen(r.lu, lu.matrixLU()) < tol * double(n) * amax);
                const EM<T> x = lu.solve(eigen_of(b));
                CHECK(max_diff_eigen(r.solution, x) < tol * double(n) * xmax / double(lu.rcond()));
            }
        }
        t7::setNumThreads(1);
        const t7::Tensor<T> inv = t7::inverse(a);
        t7::setNumThreads(2);
        CHECK(same_bits(inv, t7::inverse(a)));
        std::vector<Wide<T>> id(size_t(n * n), Wide<T>(0));
        for (int64_t i = 0; i < n; ++i) id[size_t(i * n + i)] = 1;
        const auto wi = wide(inv);
        CHECK(rel_err(wa, false, wi, id, n, n, n) < tol * double(n) * amax * max_abs(wi));
        CHECK(same_bits(a, a0));
    }
}

TEST_CASE_TEMPLATE("potrs, potri and trtrs by parts of columns: A X = B, same bits on 1 and 2 "
                   "threads",
                   T, float, double, std::complex<double>) {
    KeepThreads keep;
    t7::manualSeed(47);
    const double tol = 100 * eps_of<T>();
    for (int64_t n : {int64_t(5), int64_t(261)}) {
        CAPTURE(n);
        const t7::Tensor<T> a = hpd<T>(n);
        const auto wa = wide(a);
        const double amax = max_abs(wa);
        t7::setNumThreads(1);
        const t7::Tensor<T> u = t7::potrf(a, 'U'), l = t7::potrf(a, 'L');
        // 1, 64 and 150 right-hand sides: one part, one whole part, three parts
        for (int64_t k : {int64_t(1), int64_t(64), int64_t(150)}) {
            CAPTURE(k);
            const t7::Tensor<T> b = general<T>(n, k), b0 = b.clone(), u0 = u.clone();
            const auto wb = wide(b);
            const double bmax = max_abs(wb);
            t7::setNumThreads(1);
            const t7::Tensor<T> xu = t7::potrs(b, u, 'U'), xl = t7::potrs(b, l, 'L');
            const auto tr = t7::trtrs(b, u, 'U', 'N', 'N');
            t7::setNumThreads(2);
            const uint64_t loops = t7::detail::threaded_loops();
            CHECK(same_bits(xu, t7::potrs(b, u, 'U')));
            CHECK(same_bits(xl, t7::potrs(b, l, 'L')));
            CHECK(same_bits(tr.solution, t7::trtrs(b, u, 'U', 'N', 'N').solution));
            if (n == 261 && k == 150) CHECK(t7::detail::threaded_loops() > loops); // on the pool
            CHECK(same_bits(b, b0));
            CHECK(same_bits(u, u0));
            // A X = B for both factors, U X = B for trtrs (relative to |A| |X|)
            for (const t7::Tensor<T>* x : {&xu, &xl}) {
                const auto wx = wide(*x);
                CHECK(rel_err(wa, false, wx, wb, n, n, k) * bmax <
                      tol * double(n) * amax * max_abs(wx));
            }
            const auto wu = wide(u), wt = wide(tr.solution);
            CHECK(rel_err(wu, false, wt, wb, n, n, k) * bmax <
                  tol * double(n) * max_abs(wu) * max_abs(wt));
        }
        t7::setNumThreads(1);
        const t7::Tensor<T> inv = t7::potri(u, 'U');
        t7::setNumThreads(2);
        CHECK(same_bits(inv, t7::potri(u, 'U')));
        std::vector<Wide<T>> id(size_t(n * n), Wide<T>(0));
        for (int64_t i = 0; i < n; ++i) id[size_t(i * n + i)] = 1;
        const auto wi = wide(inv);
        CHECK(rel_err(wa, false, wi, id, n, n, n) < tol * double(n) * amax * max_abs(wi));
    }
}

TEST_CASE_TEMPLATE("trtrs by blocks: each triangle, transpose and diagonal, op(A) X = B, same "
                   "bits on 1 and 2 threads",
                   T, float, double, std::complex<double>) {
    KeepThreads keep;
    t7::manualSeed(48);
    const double tol = 100 * eps_of<T>();
    const int64_t n = 300; // blocks of 128, 128 and 44 rows
    const t7::Tensor<T> g = general<T>(n, n);
    for (char uplo : {'U', 'L'})
        for (char trans : {'N', 'T', 'C'})
            for (char diag : {'N', 'U'}) {
                CAPTURE(uplo);
                CAPTURE(trans);
                CAPTURE(diag);
                const bool upper = uplo == 'U', unit = diag == 'U';
                // A: the uplo triangle of g / n and a diagonal in [1, 2]; 1e30 where
                // trtrs must not read (the other triangle, a unit diagonal). op: op(A)
                // as trtrs sees it, row-major, for the reference loops.
                t7::Tensor<T> a(n, n);
                std::vector<Wide<T>> op(size_t(n * n), Wide<T>(0));
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < n; ++j) {
                        const T gij = g(i, j);
                        const bool read = i == j ? !unit : upper == (j > i);
                        const T v = i == j ? T(1.5 + 0.5 * double(std::real(gij)))
                                           : T(gij / t7::real_t<T>(n));
                        a(i, j) = read ? v : T(1e30);
                        const Wide<T> m = read ? Wide<T>(v) : Wide<T>(i == j ? 1 : 0);
                        if (trans == 'N')
                            op[size_t(i * n + j)] = m;
                        else
                            op[size_t(j * n + i)] = trans == 'C' ? conj_of(m) : m;
                    }
                double opmax = 0;
                for (const Wide<T>& v : op) opmax = std::max(opmax, std::abs(v));
                // 20 right-hand sides: Eigen's TRSM by parts; 70: by blocks of rows
                for (int64_t k : {int64_t(20), int64_t(70)}) {
                    CAPTURE(k);
                    const t7::Tensor<T> b = general<T>(n, k), b0 = b.clone(), a0 = a.clone();
                    t7::setNumThreads(1);
                    const t7::Tensor<T> x = t7::trtrs(b, a, uplo, trans, diag).solution;
                    t7::setNumThreads(2);
                    const uint64_t loops = t7::detail::threaded_loops();
                    CHECK(same_bits(x, t7::trtrs(b, a, uplo, trans, diag).solution));
                    if (k == 70) CHECK(t7::detail::threaded_loops() > loops); // on the pool
                    CHECK(same_bits(a, a0));
                    CHECK(same_bits(b, b0));
                    const auto wx = wide(x), wb = wide(b);
                    CHECK(rel_err(op, false, wx, wb, n, n, k) * max_abs(wb) <
                          tol * double(n) * opmax * max_abs(wx));
                }
            }
}

TEST_CASE_TEMPLATE("trtrs by blocks: NaN, infinity and zero pivots where read, anything where "
                   "not; the inputs unchanged",
                   T, float, double) {
    const int64_t n = 300, k = 64; // by blocks of rows (Eigen's TRSM below 64 right-hand sides)
    t7::manualSeed(49);
    const t7::Tensor<T> g = general<T>(n, n), b = general<T>(n, k);
    t7::Tensor<T> lower(n, n); // a lower triangle, its diagonal in [1, 2], NaN above it
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            lower(i, j) = j > i    ? std::numeric_limits<T>::quiet_NaN()
                          : j == i ? T(1.5 + 0.5 * double(g(i, i)))
                                   : T(g(i, j) / T(n));
    const t7::Tensor<T> x = t7::trtrs(b, lower, 'L').solution; // NaN unread
    CHECK(std::all_of(x.data(), x.data() + x.nElement(), [](T v) { return std::isfinite(v); }));
    auto bad = [&](int64_t i, int64_t j, T v, char diag, const char* what) {
        CAPTURE(i);
        CAPTURE(j);
        CAPTURE(diag);
        t7::Tensor<T> a = lower.clone();
        a(i, j) = v;
        const t7::Tensor<T> a0 = a.clone(), b0 = b.clone();
        const auto msg = message_of<t7::Error>([&] { t7::trtrs(b, a, 'L', 'N', diag); });
        CHECK(msg.find(what) != std::string::npos);
        CHECK(same_bits(a, a0));
        CHECK(same_bits(b, b0));
    };
    bad(n - 1, 3, std::numeric_limits<T>::quiet_NaN(), 'N', "NaN or infinity");
    bad(200, 200, std::numeric_limits<T>::infinity(), 'N', "NaN or infinity");
    bad(200, 200, T(0), 'N', "is singular (A(200,200) is zero)");
    // a unit diagonal is not read: zero, infinity or NaN there changes nothing
    for (T v : {T(0), std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN()}) {
        t7::Tensor<T> a = lower.clone();
        a(7, 7) = v;
        t7::Tensor<T> ones = lower.clone();
        for (int64_t i = 0; i < n; ++i) ones(i, i) = T(1);
        CHECK(same_bits(t7::trtrs(b, a, 'L', 'N', 'U').solution,
                        t7::trtrs(b, ones, 'L', 'N', 'N').solution));
    }
    t7::Tensor<T> bn = b.clone();
    bn(5, 63) = std::numeric_limits<T>::quiet_NaN();
    const auto msg = message_of<t7::Error>([&] { t7::trtrs(bn, lower, 'L'); });
    CHECK(msg.find("trtrs: the matrix of size 300x64 contains NaN or infinity") !=
          std::string::npos);
}

TEST_CASE_TEMPLATE("gesv and inverse by blocks: singular matrices, the inputs unchanged", T, float,
                   double, std::complex<double>) {
    t7::manualSeed(46);
    for (int64_t n : {5, 40, 261}) {
        for (int64_t k : {int64_t(0), n / 2, int64_t(17), n - 1}) {
            if (k >= n) continue;
            CAPTURE(n);
            CAPTURE(k);
            // a zero column: an exactly zero pivot at or after step k
            t7::Tensor<T> a = general<T>(n, n);
            for (int64_t i = 0; i < n; ++i) a(i, k) = T(0);
            // column k repeated in another one: singular to working precision
            t7::Tensor<T> c = general<T>(n, n);
            const int64_t other = k == n - 1 ? 0 : n - 1;
            for (int64_t i = 0; i < n; ++i) c(i, other) = T(c(i, k));
            const t7::Tensor<T> b = general<T>(n, 2), a0 = a.clone(), b0 = b.clone(),
                                c0 = c.clone();
            for (const t7::Tensor<T>* m : {&a, &c}) {
                const auto msg = message_of<t7::Error>([&] { t7::gesv(b, *m); });
                CHECK(msg.find("singular") != std::string::npos);
                CHECK_THROWS_AS(t7::inverse(*m), t7::Error);
            }
            CHECK(same_bits(a, a0));
            CHECK(same_bits(b, b0));
            CHECK(same_bits(c, c0));
        }
    }
}

TEST_CASE_TEMPLATE("gesv, inverse, potrs and trtrs: strided, reversed, 1-D and empty right-hand "
                   "sides, solved in place of a copy",
                   T, float, double, std::complex<double>) {
    KeepThreads keep;
    t7::setNumThreads(1);
    t7::manualSeed(53);
    const double tol = 100 * eps_of<T>();
    // n 7 and 40: Eigen's TRSM on maps of the tensors' memory (both storage orders
    // of the triangle: the factor, and its transpose); 300 with 70 right-hand
    // sides: blocked_trsm for float and double.
    for (int64_t n : {int64_t(7), int64_t(40), int64_t(300)}) {
        const int64_t k = n == 300 ? 70 : 3;
        CAPTURE(n);
        const t7::Tensor<T> a = hpd<T>(n), u = t7::potrf(a, 'U'), l = t7::potrf(a, 'L');
        const t7::Tensor<T> bt = general<T>(k, n), b = bt.t(), bc = b.contiguous();
        const t7::Tensor<T> bf = t7::flip(bc, {0, 1}), bt0 = bt.clone();
        REQUIRE(b.stride(0) == 1);
        REQUIRE(bf.stride(0) < 0);
        const auto wa = wide(a), wb = wide(bc), wu = wide(u);
        const double amax = max_abs(wa);
        const t7::Tensor<T> x = t7::gesv(bc, a).solution;
        CHECK(x.sizes() == t7::Shape{n, k});
        const auto wx = wide(x);
        CHECK(rel_err(wa, false, wx, wb, n, n, k) < tol * double(n) * amax * max_abs(wx));
        CHECK(same_bits(t7::gesv(b, a).solution, x));
        CHECK(same_bits(t7::gesv(bf, a).solution, t7::gesv(bf.contiguous(), a).solution));
        const t7::Tensor<T> xu = t7::potrs(bc, u, 'U'), xl = t7::potrs(bc, l, 'L');
        for (const t7::Tensor<T>* xp : {&xu, &xl}) {
            const auto w = wide(*xp);
            CHECK(rel_err(wa, false, w, wb, n, n, k) < tol * double(n) * amax * max_abs(w));
        }
        CHECK(same_bits(t7::potrs(b, u, 'U'), xu));
        CHECK(same_bits(t7::potrs(bf, l, 'L'), t7::potrs(bf.contiguous(), l, 'L')));
        // U^H X = B ('C'), and U^T X = B ('T': conj(U)^H, the same for real U)
        const t7::Tensor<T> xh = t7::trtrs(b, u, 'U', 'C').solution;
        CHECK(rel_err(wu, true, wide(xh), wb, n, n, k) <
              tol * double(n) * max_abs(wu) * max_abs(wide(xh)));
        const t7::Tensor<T> xt = t7::trtrs(b, u, 'U', 'T').solution;
        CHECK(rel_err(wide(t7::Tensor<T>(t7::eval(t7::conj(u)))), true, wide(xt), wb, n, n, k) <
              tol * double(n) * max_abs(wu) * max_abs(wide(xt)));
        CHECK(same_bits(t7::trtrs(bc, u, 'U', 'C').solution, xh));
        // a 1-D right-hand side of stride k, and a reversed one
        const t7::Tensor<T> col = bc.select(1, k - 1), rev = t7::flip(col, {0});
        const t7::Tensor<T> x1 = t7::gesv(col, a).solution;
        CHECK(x1.sizes() == t7::Shape{n});
        CHECK(same_bits(x1, t7::gesv(col.contiguous(), a).solution));
        CHECK(same_bits(t7::gesv(rev, a).solution, t7::gesv(rev.contiguous(), a).solution));
        CHECK(same_bits(t7::potrs(rev, u), t7::potrs(rev.contiguous(), u)));
        // one right-hand side (Eigen's vector solve): U^H x = b, L L^H x = b
        const auto wc = wide(col.contiguous());
        const t7::Tensor<T> xc = t7::trtrs(col, u, 'U', 'C').solution, xp = t7::potrs(col, l, 'L');
        CHECK(rel_err(wu, true, wide(xc), wc, n, n, 1) <
              tol * double(n) * max_abs(wu) * max_abs(wide(xc)));
        CHECK(rel_err(wa, false, wide(xp), wc, n, n, 1) <
              tol * double(n) * amax * max_abs(wide(xp)));
        CHECK(rel_err(wa, false, wide(x1), wc, n, n, 1) <
              tol * double(n) * amax * max_abs(wide(x1)));
        // no right-hand side: an n x 0 solution
        const t7::Tensor<T> none(n, 0);
        CHECK(t7::gesv(none, a).solution.sizes() == t7::Shape{n, 0});
        CHECK(t7::potrs(none, u).sizes() == t7::Shape{n, 0});
        CHECK(t7::trtrs(none, u).solution.sizes() == t7::Shape{n, 0});
        // inverse(A) A = I
        const auto wi = wide(t7::inverse(a));
        std::vector<Wide<T>> id(size_t(n * n), Wide<T>(0));
        for (int64_t i = 0; i < n; ++i) id[size_t(i * n + i)] = 1;
        CHECK(rel_err(wa, false, wi, id, n, n, n) < tol * double(n) * amax * max_abs(wi));
        CHECK(same_bits(bt, bt0)); // the inputs unchanged
    }
}

TEST_CASE("the decompositions leave Eigen's and OpenMP's thread settings as they were") {
    const int eigen_threads = Eigen::nbThreads();
#if defined(_OPENMP)
    const int omp_threads = omp_get_max_threads();
#endif
    t7::manualSeed(47);
    const auto a = hpd<double>(300), b = general<double>(300, 2);
    CHECK(t7::potrf(a).size(0) == 300);
    CHECK(t7::gesv(b, a).solution.size(0) == 300);
    CHECK(t7::inverse(a).size(0) == 300);
    CHECK(t7::qr(a).q.size(0) == 300);
    CHECK(t7::svd(general<double>(80, 60)).s.size(0) == 60);
    CHECK(t7::symeig(a, 'V').values.size(0) == 300);
    CHECK(t7::eig(general<double>(60, 60), 'V').values.size(0) == 60);
    CHECK(t7::gels(b, a).size(0) == 300);
    CHECK(t7::geqrf(a).tau.size(0) == 300);
    CHECK(Eigen::nbThreads() == eigen_threads);
#if defined(_OPENMP)
    CHECK(omp_get_max_threads() == omp_threads);
#endif
}

TEST_CASE("the blocked factorisations hold the pool only when their largest step goes to it") {
    using t7::detail::eig::gemm_grain_work;
    using t7::detail::eig::parts_pooled;
    // one part, or less than two grains of work: every loop on the calling thread
    CHECK_FALSE(parts_pooled(1, 1e12));
    CHECK_FALSE(parts_pooled(8, double(gemm_grain_work)));
    CHECK(parts_pooled(2, 2.0 * double(gemm_grain_work)));
    // potrf's first update (n - bs rows of 64-column parts, (n - bs)^2 bs / 2
    // multiply-adds, bs = n / 8 rounded down to 16): n = 128 (bs 16) keeps it
    // on the calling thread, n = 256 (bs 32, 4 parts, 6 grains) and 1024 do not
    auto first_step = [](int64_t n) {
        const int64_t bs = std::clamp<int64_t>(n / 8 / 16 * 16, 8, 128), r = n - bs;
        return parts_pooled((r + 63) / 64, double(r) * double(r) * double(bs) / 2);
    };
    CHECK_FALSE(first_step(48));
    CHECK_FALSE(first_step(128));
    CHECK(first_step(256));
    CHECK(first_step(1024));
    // and whatever they held is let go when they return, or throw
    KeepThreads keep;
    t7::setNumThreads(2);
    t7::manualSeed(48);
    const int before = t7::detail::lingering();
    for (int64_t n : {48, 128, 256}) {
        const auto a = hpd<double>(n);
        CHECK(t7::potrf(a).size(0) == n);
        CHECK(t7::detail::lingering() == before);
        CHECK(t7::trtrs(general<double>(n, 3), t7::potrf(a, 'L'), 'L').solution.size(0) == n);
        CHECK(t7::detail::lingering() == before);
    }
    auto bad = hpd<double>(256);
    bad(200, 200) = -1.0;
    CHECK_THROWS_AS(t7::potrf(bad), t7::Error);
    CHECK(t7::detail::lingering() == before);
}
