// Linear algebra, second round (issue 14): addbmm against a loop of mm; trtrs,
// pstrf, geqrf, orgqr, ormqr against their defining identities (every uplo /
// trans / diag / side); bhistc against Torch7's documented example; every error.
// Float and double only where Eigen's decompositions are instantiated.
#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#if defined(__linux__)
#include <sys/sysinfo.h>
#endif

namespace {

template <class T>
double tol() {
    return std::is_same_v<T, float> ? 2e-4 : 1e-10;
}

// Largest |a - b| (same shapes).
template <class T>
double max_diff(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    REQUIRE(a.sizes() == b.sizes());
    return double(t7::max(t7::abs(t7::cast<double>(a) - t7::cast<double>(b))));
}

// A well-conditioned random matrix (diagonally dominated).
template <class T>
t7::Tensor<T> dominant(int64_t n) {
    return t7::eval(t7::randn<T>(n, n) + t7::eye<T>(n) * T(2 * n));
}

} // namespace

// The decompositions' cases in one type in the sanitized build (tests/meson.build
// defines T7_TEST_SANITIZED): the library's code around Eigen's is one template for
// float and double, and each type is Eigen's decomposition compiled again.
#if defined(T7_TEST_SANITIZED)
#define T7_DECOMP_TYPES double
#else
#define T7_DECOMP_TYPES float, double
#endif

TEST_CASE_TEMPLATE("addbmm: beta m + alpha sum_i b1[i] b2[i]", T, float, double) {
    t7::manualSeed(1);
    auto m = t7::randn<T>(4, 6), b1 = t7::randn<T>(5, 4, 3);
    auto b2 = t7::randn<T>(5, 6, 3).transpose(1, 2); // strided operand
    t7::Tensor<T> want = t7::eval(m * T(0.5));
    for (int64_t i = 0; i < 5; ++i)
        want = t7::eval(want + t7::mm(b1.select(0, i), b2.select(0, i)) * T(2));
    const auto got = t7::addbmm(0.5, m, 2.0, b1, b2);
    CHECK(got.sizes() == t7::Shape{4, 6});
    CHECK(max_diff(got, want) < 10 * tol<T>());
    // the short form, beta = alpha = 1; m is not written
    const auto m0 = m.clone();
    t7::Tensor<T> sum = m.clone();
    for (int64_t i = 0; i < 5; ++i) sum = t7::eval(sum + t7::mm(b1.select(0, i), b2.select(0, i)));
    CHECK(max_diff(t7::addbmm(m, b1, b2), sum) < 10 * tol<T>());
    CHECK(max_diff(m, m0) == 0);
    // beta 0 ignores m (even a NaN one); a broadcast m; an empty batch
    auto nan = t7::Tensor<T>(4, 6);
    nan.fill(std::numeric_limits<T>::quiet_NaN());
    CHECK(max_diff(t7::addbmm(0.0, nan, 1.0, b1, b2), t7::eval(sum - m)) < 10 * tol<T>());
    auto row = t7::randn<T>(6);
    CHECK(max_diff(t7::addbmm(1.0, row, 1.0, b1, b2),
                   t7::eval(sum - m + row.view(1, 6).expand(4, 6))) < 10 * tol<T>());
}

TEST_CASE("addbmm: errors") {
    auto m = t7::zeros<double>(4, 6);
    CHECK_THROWS_OP(t7::addbmm(1.0, m, 1.0, t7::zeros<double>(4, 3), t7::zeros<double>(3, 6)),
                    t7::ShapeError, "addbmm");
    CHECK_THROWS_OP(t7::addbmm(1.0, m, 1.0, t7::zeros<double>(2, 4, 3), t7::zeros<double>(3, 3, 6)),
                    t7::ShapeError, "batch sizes");
    CHECK_THROWS_OP(t7::addbmm(1.0, m, 1.0, t7::zeros<double>(2, 4, 3), t7::zeros<double>(2, 2, 6)),
                    t7::ShapeError, "inner");
    CHECK_THROWS_OP(t7::addbmm(1.0, t7::zeros<double>(3, 6), 1.0, t7::zeros<double>(2, 4, 3),
                               t7::zeros<double>(2, 3, 6)),
                    t7::ShapeError, "broadcast");
    CHECK_THROWS_OP(t7::addbmm(1.0, m, 1.0, t7::Tensor<double>(), t7::zeros<double>(2, 3, 6)),
                    t7::ShapeError, "addbmm");
}

TEST_CASE_TEMPLATE("trtrs solves op(A) X = B for every uplo, trans and diag", T, T7_DECOMP_TYPES) {
    t7::manualSeed(2);
    const int64_t n = 5;
    const auto a = dominant<T>(n), b = t7::randn<T>(n, 3);
    const auto a0 = a.clone();
    for (char uplo : {'U', 'L'})
        for (char trans : {'N', 'T'})
            for (char diag : {'N', 'U'}) {
                CAPTURE(uplo);
                CAPTURE(trans);
                CAPTURE(diag);
                t7::Tensor<T> tri = uplo == 'U' ? t7::triu(a) : t7::tril(a);
                if (diag == 'U') tri = t7::eval(tri - t7::diag(t7::diag(tri)) + t7::eye<T>(n));
                const t7::Tensor<T> op = trans == 'T' ? tri.t().contiguous() : tri;
                auto [x, a2] = t7::trtrs(b, a, uplo, trans, diag);
                CHECK(x.sizes() == t7::Shape{n, 3});
                CHECK(max_diff(t7::mm(op, x), b) < 10 * tol<T>());
                CHECK(max_diff(a2, a0) == 0);
                // a 1-D right-hand side, and a transposed (strided) A
                const auto x1 = t7::trtrs(b.select(1, 0), a, uplo, trans, diag).solution;
                CHECK(x1.dim() == 1);
                CHECK(max_diff(x1, x.select(1, 0).contiguous()) < 10 * tol<T>());
                const char other = uplo == 'U' ? 'L' : 'U';
                const auto xt = t7::trtrs(b, a.t(), other, trans == 'T' ? 'N' : 'T', diag).solution;
                CHECK(max_diff(xt, x) < 10 * tol<T>());
            }
    CHECK(max_diff(a, a0) == 0);
}

TEST_CASE("trtrs: Torch7's defaults and errors") {
    // upper, non-transposed, non-unit by default
    auto a = t7::tensor<double>({{2, 1}, {0, 4}}), b = t7::tensor<double>({{4}, {8}});
    auto r = t7::trtrs(b, a);
    CHECK(max_diff(r.solution, t7::tensor<double>({{1}, {2}})) < 1e-15);
    // the lower triangle is not read
    auto junk = t7::tensor<double>({{2, 1}, {std::nan(""), 4}});
    CHECK(max_diff(t7::trtrs(b, junk).solution, r.solution) < 1e-15);
    CHECK_THROWS_OP(t7::trtrs(b, t7::zeros<double>(2, 3)), t7::ShapeError, "trtrs");
    CHECK_THROWS_OP(t7::trtrs(b, t7::zeros<double>(2)), t7::ShapeError, "trtrs");
    CHECK_THROWS_OP(t7::trtrs(t7::zeros<double>(3, 1), a), t7::ShapeError, "size");
    CHECK_THROWS_OP(t7::trtrs(t7::zeros<double>(2, 1, 1), a), t7::ShapeError, "trtrs");
    CHECK_THROWS_OP(t7::trtrs(b, t7::Tensor<double>()), t7::ShapeError, "trtrs");
    CHECK_THROWS_OP(t7::trtrs(b, a, 'X'), t7::Error, "uplo");
    CHECK_THROWS_OP(t7::trtrs(b, a, 'U', 'X'), t7::Error, "trans");
    CHECK_THROWS_OP(t7::trtrs(b, a, 'U', 'N', 'X'), t7::Error, "diag");
    auto sing = t7::tensor<double>({{2, 1}, {0, 0}});
    CHECK_THROWS_OP(t7::trtrs(b, sing), t7::Error, "singular");
    CHECK_NOTHROW(t7::trtrs(b, sing, 'U', 'N', 'U')); // unit diagonal: not read
    auto inf = t7::tensor<double>({{2, INFINITY}, {0, 4}});
    CHECK_THROWS_OP(t7::trtrs(b, inf), t7::Error, "NaN or infinity");
    CHECK_THROWS_OP(t7::trtrs(t7::tensor<double>({{NAN}, {1}}), a), t7::Error, "NaN");
}

TEST_CASE_TEMPLATE("pstrf: A[piv][:, piv] = U^T U, full rank and rank deficient", T,
                   T7_DECOMP_TYPES) {
    t7::manualSeed(3);
    const int64_t n = 5;
    const auto g = t7::randn<T>(n, n);
    const auto full = t7::eval(t7::mm(g, g.t()) + t7::eye<T>(n));
    const auto g2 = t7::randn<T>(n, 2);
    const auto low = t7::mm(g2, g2.t()); // rank 2
    for (const auto& a : {full, low}) {
        const double scale = double(t7::max(t7::abs(a)));
        for (char uplo : {'U', 'L'}) {
            CAPTURE(uplo);
            auto [u, piv] = t7::pstrf(a, uplo);
            REQUIRE(piv.sizes() == t7::Shape{n});
            std::vector<int64_t> p(piv.data(), piv.data() + n);
            std::sort(p.begin(), p.end());
            for (int64_t i = 0; i < n; ++i) CHECK(p[size_t(i)] == i);
            const auto pa = a.index(0, piv).index(1, piv);
            const auto rec = uplo == 'U' ? t7::mm(u.t(), u) : t7::mm(u, u.t());
            CHECK(max_diff(rec, pa) < 10 * scale * tol<T>());
            CHECK(max_diff(uplo == 'U' ? t7::triu(u) : t7::tril(u), u) == 0);
            // the pivot is the largest diagonal element: |u| decreasing on the diagonal
            const auto d = t7::diag(u);
            for (int64_t i = 1; i < n; ++i) CHECK(d.data()[i] <= d.data()[i - 1] + T(1e-6));
            if (a.data() == low.data()) { // rows 2.. of U are zero
                const auto tail = uplo == 'U' ? u.narrow(0, 2, 3) : u.narrow(1, 2, 3);
                CHECK(max_diff(tail.contiguous(), t7::zeros<T>(tail.sizes())) == 0);
            }
        }
    }
    // a large tol stops early: here after the first step
    const auto u1 = t7::pstrf(full, 'U', 1e6).u;
    CHECK(max_diff(u1.narrow(0, 0, 1).contiguous(), t7::zeros<T>(1, n)) == 0);
}

TEST_CASE("pstrf: a small example and errors") {
    // diag(1, 4): the pivot picks 4 first
    auto a = t7::tensor<double>({{1, 0}, {0, 4}});
    auto [u, piv] = t7::pstrf(a);
    CHECK(piv.data()[0] == 1);
    CHECK(piv.data()[1] == 0);
    CHECK(max_diff(u, t7::tensor<double>({{2, 0}, {0, 1}})) == 0);
    CHECK(max_diff(t7::pstrf(t7::zeros<double>(3, 3)).u, t7::zeros<double>(3, 3)) == 0);
    CHECK_THROWS_OP(t7::pstrf(t7::zeros<double>(2, 3)), t7::ShapeError, "pstrf");
    CHECK_THROWS_OP(t7::pstrf(t7::zeros<double>(2, 2, 2)), t7::ShapeError, "pstrf");
    CHECK_THROWS_OP(t7::pstrf(t7::Tensor<double>()), t7::ShapeError, "pstrf");
    CHECK_THROWS_OP(t7::pstrf(a, 'X'), t7::Error, "uplo");
    CHECK_THROWS_OP(t7::pstrf(a, 'U', NAN), t7::Error, "tol");
    CHECK_THROWS_OP(t7::pstrf(t7::tensor<double>({{1, 0}, {0, -1}})), t7::Error,
                    "not positive semi-definite");
    CHECK_THROWS_OP(t7::pstrf(t7::tensor<double>({{1, NAN}, {NAN, 1}})), t7::Error, "NaN");
    // only the uplo triangle is read
    auto junk = t7::tensor<double>({{4, 2}, {NAN, 5}});
    CHECK_NOTHROW(t7::pstrf(junk, 'U'));
}

TEST_CASE_TEMPLATE("geqrf / orgqr / ormqr", T, T7_DECOMP_TYPES) {
    t7::manualSeed(4);
    for (auto sz : {t7::Shape{6, 4}, t7::Shape{4, 4}, t7::Shape{3, 5}}) {
        CAPTURE(sz);
        const int64_t m = sz[0], n = sz[1], k = std::min(m, n);
        const auto a = t7::randn<T>(n, m).t(); // a transposed view
        auto [f, tau] = t7::geqrf(a);
        REQUIRE(f.sizes() == sz);
        REQUIRE(tau.sizes() == t7::Shape{k});
        const auto q = t7::orgqr(f, tau);
        REQUIRE(q.sizes() == t7::Shape{m, k});
        const auto r = t7::triu(f.narrow(0, 0, k));
        CHECK(max_diff(t7::mm(q.t(), q), t7::eye<T>(k)) < 10 * tol<T>());
        CHECK(max_diff(t7::mm(q, r), a.contiguous()) < 10 * tol<T>());
        const auto ref = t7::qr(a);
        CHECK(max_diff(q, ref.q) < 10 * tol<T>());
        CHECK(max_diff(r.contiguous(), ref.r) < 10 * tol<T>());
        // the full Q from the reflectors by hand: H_0 ... H_{k-1}, H_i = I - tau_i v v^T
        t7::Tensor<T> full = t7::eye<T>(m);
        for (int64_t i = 0; i < k; ++i) {
            t7::Tensor<T> v = t7::zeros<T>(m);
            v.data()[i] = T(1);
            for (int64_t j = i + 1; j < m; ++j) v.data()[j] = f.data()[j * n + i];
            full = t7::mm(full, t7::eval(t7::eye<T>(m) - t7::ger(v, v) * tau.data()[i]));
        }
        CHECK(max_diff(full.narrow(1, 0, k).contiguous(), q) < 10 * tol<T>());
        const auto cl = t7::randn<T>(m, 3), cr = t7::randn<T>(3, m);
        CHECK(max_diff(t7::ormqr(f, tau, cl), t7::mm(full, cl)) < 10 * tol<T>());
        CHECK(max_diff(t7::ormqr(f, tau, cl, 'L', 'T'), t7::mm(full.t(), cl)) < 10 * tol<T>());
        CHECK(max_diff(t7::ormqr(f, tau, cr, 'R', 'N'), t7::mm(cr, full)) < 10 * tol<T>());
        CHECK(max_diff(t7::ormqr(f, tau, cr, 'R', 'T'), t7::mm(cr, full.t())) < 10 * tol<T>());
        // Q^T A = R (LAPACK's use of ormqr)
        CHECK(max_diff(t7::ormqr(f, tau, a, 'L', 'T').narrow(0, 0, k).contiguous(),
                       r.contiguous()) < 10 * tol<T>());
    }
}

TEST_CASE("geqrf / orgqr / ormqr: errors") {
    auto a = t7::tensor<double>({{1, 2}, {3, 4}, {5, 6}});
    auto [f, tau] = t7::geqrf(a);
    CHECK_THROWS_OP(t7::geqrf(t7::zeros<double>(3)), t7::ShapeError, "geqrf");
    CHECK_THROWS_OP(t7::geqrf(t7::Tensor<double>()), t7::ShapeError, "geqrf");
    CHECK_THROWS_OP(t7::geqrf(t7::tensor<double>({{1, NAN}})), t7::Error, "NaN");
    CHECK_THROWS_OP(t7::orgqr(f, t7::zeros<double>(3)), t7::ShapeError, "tau");
    CHECK_THROWS_OP(t7::orgqr(f, t7::zeros<double>(2, 1)), t7::ShapeError, "orgqr");
    CHECK_THROWS_OP(t7::orgqr(t7::zeros<double>(3), tau), t7::ShapeError, "orgqr");
    CHECK_THROWS_OP(t7::orgqr(f, t7::tensor<double>({NAN, 1})), t7::Error, "NaN");
    auto c = t7::zeros<double>(3, 2);
    CHECK_THROWS_OP(t7::ormqr(f, tau, c, 'R'), t7::ShapeError, "side");
    CHECK_THROWS_OP(t7::ormqr(f, tau, t7::zeros<double>(2, 3)), t7::ShapeError, "ormqr");
    CHECK_THROWS_OP(t7::ormqr(f, tau, t7::zeros<double>(3)), t7::ShapeError, "ormqr");
    CHECK_THROWS_OP(t7::ormqr(f, tau, c, 'X'), t7::Error, "side");
    CHECK_THROWS_OP(t7::ormqr(f, tau, c, 'L', 'X'), t7::Error, "trans");
    CHECK_THROWS_OP(t7::ormqr(f, t7::zeros<double>(4), c), t7::ShapeError, "tau");
    CHECK_THROWS_OP(t7::ormqr(f, tau, t7::tensor<double>({{NAN, 1}, {1, 1}, {1, 1}})), t7::Error,
                    "NaN");
}

TEST_CASE("bhistc: Torch7's example, the whole tensor's range, errors") {
    auto x = t7::tensor<double>({{2, 4, 2, 2, 5, 4}, {3, 5, 1, 5, 3, 5}, {3, 4, 2, 5, 5, 1}});
    CHECK(max_diff(t7::bhistc(x, 5, 1, 5),
                   t7::tensor<double>({{0, 3, 0, 2, 1}, {1, 0, 2, 0, 3}, {1, 1, 1, 1, 2}})) == 0);
    // a strided x and float
    t7::Tensor<float> xf = t7::eval(t7::cast<float>(x.t())).t();
    CHECK(max_diff(t7::bhistc(xf, 5, 1, 5),
                   t7::tensor<float>({{0, 3, 0, 2, 1}, {1, 0, 2, 0, 3}, {1, 1, 1, 1, 2}})) == 0);
    // min == max: the range of the whole tensor (Torch7's minall / maxall), not the row's
    auto y = t7::tensor<double>({{0, 1}, {10, 10}});
    CHECK(max_diff(t7::bhistc(y, 2), t7::tensor<double>({{2, 0}, {0, 2}})) == 0);
    // values outside [min, max] and NaN are ignored; a single value widens by 1
    auto z = t7::tensor<double>({{-1, 0.5, NAN, 7}});
    CHECK(max_diff(t7::bhistc(z, 2, 0, 1), t7::tensor<double>({{0, 1}})) == 0);
    CHECK(max_diff(t7::bhistc(t7::tensor<double>({{3, 3}}), 2), t7::tensor<double>({{0, 2}})) == 0);
    CHECK(t7::bhistc(t7::tensor<int>({{1, 2, 3}}), 3).sizes() == t7::Shape{1, 3});
    CHECK_THROWS_OP(t7::bhistc(t7::tensor<double>({1, 2}), 2), t7::ShapeError, "2-D");
    CHECK_THROWS_OP(t7::bhistc(t7::zeros<double>(2, 2, 2), 2), t7::ShapeError, "2-D");
    CHECK_THROWS_OP(t7::bhistc(x, 0), t7::ShapeError, "bins");
    CHECK_THROWS_OP(t7::bhistc(x, 2, 3, 1), t7::Error, "greater");
    CHECK_THROWS_OP(t7::bhistc(x, 2, 0, INFINITY), t7::Error, "finite");
    CHECK_THROWS_OP(t7::bhistc(t7::Tensor<double>(), 2), t7::ShapeError, "bhistc");
}

// ---- expressions and x[mask] as operands (issue 35, ops/expression_args.hpp) ------------

TEST_CASE("trtrs, pstrf, geqrf, orgqr, ormqr of expressions") {
    auto a = t7::tensor<double>({{4, 1, 2}, {1, 5, 0}, {2, 0, 6}});
    auto b = t7::tensor<double>({{1, 2}, {0, -1}, {3, 1}});
    const t7::DoubleTensor a0 = a.clone(), b0 = b.clone();
    const t7::DoubleTensor a2 = a * 2, b1 = b + 1;
    auto tr = t7::trtrs(b + 1, a * 2, 'L', 'T');
    CHECK(t7::equal(tr.solution, t7::trtrs(b1, a2, 'L', 'T').solution));
    CHECK(t7::equal(tr.a, a2));
    CHECK(t7::equal(t7::trtrs(b, a * 2).solution, t7::trtrs(b, a2).solution));
    auto ps = t7::pstrf(a * 2, 'L');
    CHECK(t7::equal(ps.u, t7::pstrf(a2, 'L').u));
    CHECK(t7::equal(ps.piv, t7::pstrf(a2, 'L').piv));
    auto g = t7::geqrf(a - 1);
    auto gref = t7::geqrf(t7::DoubleTensor(a - 1));
    CHECK(t7::equal(g.m, gref.m));
    CHECK(t7::equal(g.tau, gref.tau));
    CHECK(t7::equal(t7::orgqr(g.m * 1, g.tau), t7::orgqr(g.m, g.tau)));
    CHECK(t7::equal(t7::ormqr(g.m * 1, g.tau * 1, b + 1, 'L', 'T'),
                    t7::ormqr(g.m, g.tau, b1, 'L', 'T')));
    CHECK(t7::ormqr(g.m, g.tau, b + 1).isSize({3, 2}));
    auto q = t7::qr(a - 1);
    CHECK(t7::equal(q.q, t7::qr(t7::DoubleTensor(a - 1)).q));
    CHECK(t7::equal(a, a0));
    CHECK(t7::equal(b, b0));
}

// ---- memory (issue 34) ----------------------------------------------------------------
// Here rather than in the misuse suite, whose UBSan build would compile Eigen's
// decompositions again (they cost that file 187 s in the sanitized build); in double,
// the type the rest of this file instantiates them for (in float they cost this file
// another ~80 s of CPU in each build). The check is the same template for every type.
// svd, eig and symeig are checked where their decompositions are compiled anyway
// (test_linalg_eig.cpp, test_linalg_symeig.cpp): here they made this file the
// longest compile of CI (~190 s of CPU in each build).

TEST_CASE("linear algebra refuses a workspace that cannot be had, before Eigen") {
    // 2^24 x 2^24 doubles (2 PiB) from a one-element storage: no machine has it
    const int64_t n = int64_t(1) << 24;
    const t7::DoubleTensor A = t7::ones<double>(1, 1).expand(n, n);
    const t7::DoubleTensor B = t7::ones<double>(1, 1).expand(n, 1);
    CHECK_THROWS_OP(t7::gesv(B, A), t7::MemoryError, "gesv");
    CHECK_THROWS_OP(t7::inverse(A), t7::MemoryError, "inverse");
    CHECK_THROWS_OP(t7::potrf(A), t7::MemoryError, "potrf");
    CHECK_THROWS_OP(t7::potrs(B, A), t7::MemoryError, "potrs");
    CHECK_THROWS_OP(t7::qr(A), t7::MemoryError, "qr");
    CHECK_THROWS_OP(t7::geqrf(A), t7::MemoryError, "geqrf");
    CHECK_THROWS_OP(t7::pstrf(A), t7::MemoryError, "pstrf");
    CHECK_THROWS_OP(t7::trtrs(B, A), t7::MemoryError, "trtrs");
    CHECK_THROWS_OP(t7::gels(B, A), t7::MemoryError, "gels");
    const t7::DoubleTensor tau = t7::ones<double>(1).expand(n);
    CHECK_THROWS_OP(t7::orgqr(A, tau), t7::MemoryError, "orgqr");
    CHECK_THROWS_OP(t7::ormqr(A, tau, A), t7::MemoryError, "ormqr");
    // the message names the workspace and its size
    const std::string m = test_util::message_of<t7::MemoryError>([&] { t7::gesv(B, A); });
    CHECK(m.find("workspace") != std::string::npos);
    CHECK(A.storage().size() == 1); // the inputs are as they were
    CHECK(A.data()[0] == 1);
    // The 2^17 x 2^17 (128 GiB per copy of doubles) where this machine cannot
    // hold it.
    const int64_t s = int64_t(1) << 17;
    const uint64_t sys = t7::detail::system_memory_bytes();
    if (sys != 0 && sys < (uint64_t(1) << 37)) {
        const t7::DoubleTensor a = t7::ones<double>(1, 1).expand(s, s);
        const t7::DoubleTensor b = t7::ones<double>(1, 1).expand(s, 1);
        CHECK_THROWS_OP(t7::gesv(b, a), t7::MemoryError, "gesv");
        CHECK_THROWS_OP(t7::potrf(a), t7::MemoryError, "potrf");
        CHECK_THROWS_OP(t7::geqrf(a), t7::MemoryError, "geqrf");
        CHECK_THROWS_OP(t7::pstrf(a), t7::MemoryError, "pstrf");
        CHECK_THROWS_OP(t7::trtrs(b, a), t7::MemoryError, "trtrs");
    }
    // small problems still run
    t7::DoubleTensor sq(2, 2);
    test_util::fill_values(sq, {4, 1, 1, 3});
    CHECK(t7::potrf(sq).nElement() == 4);
}

#if defined(__linux__)
TEST_CASE("system_memory_bytes: memory and swap, or the control group's limit, as the system "
          "says") {
    struct sysinfo si {};
    REQUIRE(sysinfo(&si) == 0);
    uint64_t want = (uint64_t(si.totalram) + uint64_t(si.totalswap)) * si.mem_unit;
    if (std::FILE* f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {
        unsigned long long x = 0;
        if (std::fscanf(f, "%llu", &x) == 1 && x < want) want = x;
        std::fclose(f);
    }
    // the first call asks the system, the next ones (within a second) its answer
    const uint64_t first = t7::detail::system_memory_bytes();
    CHECK(first == want);
    for (int i = 0; i < 1000; ++i) REQUIRE(t7::detail::system_memory_bytes() == want);
}
#endif
