// Linear algebra of complex matrices (issue 42) but svd and eig (test_linalg_complex.cpp):
// gesv, inverse, qr, and the rest of Torch7's LAPACK interface: potrf potrs potri
// (Cholesky of a Hermitian positive-definite A: U^H U, L L^H), symeig (Hermitian:
// real ascending values, orthonormal complex vectors), gels (least squares / minimum
// norm), trtrs ('N', 'T', 'C'), pstrf (pivoted, U^H U), geqrf / orgqr / ormqr
// (LAPACK's complex Householder reflectors H = I - tau v v^H; ormqr's 'T' and 'C'
// apply Q^H). Each checked by what defines it (A x = b, U^H U = A, A v = lambda v,
// Q^H Q = I...) with naive loops over std::complex<double> on small hand-made
// matrices, and the errors the real functions throw. complex<double> only (one
// complex<float> case, trtrs, the cheapest): each Eigen decomposition instantiated
// costs compile time, and the library's side is one template for every element type.
#include "linalg_complex_util.hpp"

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

using namespace lc;
using Z = std::complex<double>;
using ZT = t7::ComplexDoubleTensor;

namespace {

// Hermitian, strictly diagonally dominant with a positive diagonal: positive definite.
ZT h3() { return matrix<Z>({{4., 1. + I, -I}, {1. - I, 5., 2.}, {I, 2., 6.}}); }
// Hermitian, eigenvalues -1 and 3: indefinite.
ZT indefinite() { return matrix<Z>({{1., 2. * I}, {-2. * I, 1.}}); }

// A copy of h with the triangle that uplo does not name, and the imaginary part of
// the diagonal, overwritten: what LAPACK's z routines do not read.
ZT scribble(const ZT& h, char uplo) {
    ZT r = h.clone();
    for (int64_t i = 0; i < r.size(0); ++i) {
        r(i, i) = r(i, i) + Z(0, 7);
        for (int64_t j = 0; j < r.size(1); ++j)
            if (uplo == 'U' ? j < i : j > i) r(i, j) = Z(100, -50);
    }
    return r;
}

bool upper_triangular(const ZT& u) {
    for (int64_t i = 0; i < u.size(0); ++i)
        for (int64_t j = 0; j < i; ++j)
            if (u(i, j) != Z(0)) return false;
    return true;
}

// Solves op(T) x = b by substitution, T n x n triangular (which triangle is read from
// the matrix itself after op: 't' transpose, 'c' conjugate transpose, 'n' as is).
ZT substitute(ZT t, const ZT& b, char op) {
    if (op != 'n') t = op == 'c' ? adjoint(t) : t.t().clone();
    const int64_t n = t.size(0);
    bool upper = true;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < i; ++j)
            if (t(i, j) != Z(0)) upper = false;
    ZT x(n, b.size(1));
    for (int64_t c = 0; c < b.size(1); ++c)
        for (int64_t s = 0; s < n; ++s) {
            const int64_t i = upper ? n - 1 - s : s;
            C acc = b(i, c);
            for (int64_t j = 0; j < n; ++j)
                if (j != i && (upper ? j > i : j < i)) acc -= C(t(i, j)) * C(x(j, c));
            x(i, c) = acc / C(t(i, i));
        }
    return x;
}

// The full Q (rows x rows) of geqrf's (m, tau) by LAPACK's definition:
// Q = H_0 ... H_{k-1}, H_i = I - tau_i v_i v_i^H, v_i(i) = 1, v_i(j < i) = 0, v_i(j > i) = m(j, i).
ZT explicit_q(const ZT& m, const ZT& tau) {
    const int64_t rows = m.size(0);
    ZT q = identity(rows);
    for (int64_t i = 0; i < tau.size(0); ++i) {
        ZT h = identity(rows);
        std::vector<C> v(size_t(rows), 0);
        v[size_t(i)] = 1;
        for (int64_t j = i + 1; j < rows; ++j) v[size_t(j)] = m(j, i);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < rows; ++c)
                h(r, c) = C(h(r, c)) - C(tau(i)) * v[size_t(r)] * std::conj(v[size_t(c)]);
        q = ref_mm(q, h);
    }
    return q;
}

} // namespace

TEST_CASE("linalg_complex2: gesv solves A x = b, vector and matrix right-hand sides") {
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

TEST_CASE("linalg_complex2: inverse gives A A^-1 = I") {
    const auto A = a3<Z>();
    const auto Ai = t7::inverse(A);
    CHECK(max_diff(ref_mm(A, Ai), identity(3)) < tol<Z>());
    CHECK(max_diff(ref_mm(Ai, A), identity(3)) < tol<Z>());
    // 2 x 2 by hand: [[1, i], [0, 2]]^-1 = [[1, -i/2], [0, 1/2]]
    const auto B = t7::inverse(matrix<Z>({{1., I}, {0., 2.}}));
    CHECK(max_diff(B, matrix<Z>({{1., -0.5 * I}, {0., 0.5}})) < tol<Z>());
}

TEST_CASE("linalg_complex2: qr gives Q^H Q = I, R upper, Q R = A") {
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

TEST_CASE("linalg_complex2: gesv, inverse and qr errors") {
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
}

TEST_CASE("linalg_complex2: potrf gives U^H U = A and L L^H = A, reading one triangle") {
    // 2 x 2 by hand: [[4, 2i], [-2i, 5]] = U^H U with U = [[2, i], [0, 2]]
    const ZT A2 = matrix<Z>({{4., 2. * I}, {-2. * I, 5.}});
    CHECK(max_diff(t7::potrf(A2), matrix<Z>({{2., I}, {0., 2.}})) < 1e-14);
    CHECK(max_diff(t7::potrf(A2, 'L'), matrix<Z>({{2., 0.}, {-I, 2.}})) < 1e-14);

    const ZT A = h3();
    const ZT U = t7::potrf(A), L = t7::potrf(A, 'L');
    static_assert(std::is_same_v<decltype(t7::potrf(A)), ZT>);
    REQUIRE(U.isSize({3, 3}));
    CHECK(upper_triangular(U));
    CHECK(upper_triangular(adjoint(L)));
    for (int64_t i = 0; i < 3; ++i) { // a real, positive diagonal, as LAPACK's zpotrf
        CHECK(C(U(i, i)).real() > 0);
        CHECK(C(U(i, i)).imag() == 0);
    }
    CHECK(max_diff(ref_mm(U, U, true), A) < 1e-12);
    CHECK(max_diff(ref_mm(L, adjoint(L)), A) < 1e-12);
    // only the uplo triangle and the diagonal's real part are read
    CHECK(max_diff(t7::potrf(scribble(A, 'U')), U) < 1e-14);
    CHECK(max_diff(t7::potrf(scribble(A, 'L'), 'L'), L) < 1e-14);
    // a transposed view of the conjugate, and an expression (evaluated once)
    const ZT Abar = t7::conj(A); // A^T = conj(A) for Hermitian A
    CHECK(max_diff(t7::potrf(Abar.t()), U) < 1e-14);
    CHECK(max_diff(t7::potrf(A * Z(4)), t7::eval(U * Z(2))) < 1e-12);
}

TEST_CASE("linalg_complex2: potrf's errors leave the input unchanged") {
    const ZT bad = indefinite(), bad0 = bad.clone();
    std::string msg;
    try {
        t7::potrf(bad);
    } catch (const t7::Error& e) {
        msg = e.what();
    }
    CHECK(msg.find("potrf") != std::string::npos);
    CHECK(msg.find("not positive definite") != std::string::npos);
    CHECK(t7::equal(bad, bad0));
    CHECK_THROWS_AS(t7::potrf(bad, 'L'), t7::Error);
    // a non-positive real part of the first pivot, whatever its imaginary part
    CHECK_THROWS_AS(t7::potrf(matrix<Z>({{-1. + 5. * I, 0.}, {0., 1.}})), t7::Error);
    ZT rect(2, 3);
    rect.zero();
    CHECK_THROWS_AS(t7::potrf(rect), t7::ShapeError);
    ZT nan = h3();
    nan(0, 1) = Z(std::numeric_limits<double>::quiet_NaN(), 0);
    CHECK_THROWS_AS(t7::potrf(nan), t7::Error);
    CHECK_THROWS_AS(t7::potrf(h3(), 'X'), t7::Error);
}

TEST_CASE("linalg_complex2: potrs solves A x = b and potri inverts from the factor") {
    const ZT A = h3();
    const ZT B = matrix<Z>({{1. + I, 2.}, {-I, 0.5}, {3., 1. - 2. * I}});
    for (char uplo : {'U', 'L'}) {
        CAPTURE(uplo);
        const ZT f = t7::potrf(A, uplo);
        const ZT x = t7::potrs(B, f, uplo);
        REQUIRE(x.isSize({3, 2}));
        CHECK(max_diff(ref_mm(A, x), B) < 1e-12);
        // a 1-D b gives a 1-D x
        const ZT x1 = t7::potrs(B.select(1, 1), f, uplo);
        REQUIRE(x1.dim() == 1);
        CHECK(max_diff(x1, x.select(1, 1).clone()) < 1e-12);
        const ZT Ai = t7::potri(f, uplo);
        CHECK(max_diff(ref_mm(Ai, A), identity(3)) < 1e-12);
        CHECK(max_diff(ref_mm(A, Ai), identity(3)) < 1e-12);
        CHECK(max_diff(Ai, adjoint(Ai)) < 1e-12); // Hermitian
    }
    // by hand: A2^-1 = [[5, -2i], [2i, 4]] / 16 for A2 = [[4, 2i], [-2i, 5]]
    const ZT f2 = t7::potrf(matrix<Z>({{4., 2. * I}, {-2. * I, 5.}}));
    CHECK(max_diff(t7::potri(f2), matrix<Z>({{5. / 16, -2. * I / 16.}, {2. * I / 16., 0.25}})) <
          1e-14);
    ZT b4(4);
    b4.zero();
    CHECK_THROWS_AS(t7::potrs(b4, f2), t7::ShapeError);
    CHECK_THROWS_AS(t7::potri(B), t7::ShapeError);
}

TEST_CASE("linalg_complex2: symeig of a Hermitian matrix, real ascending values") {
    // by hand: [[2, i], [-i, 2]] has eigenvalues 1 and 3
    const auto e2 = t7::symeig(matrix<Z>({{2., I}, {-I, 2.}}));
    static_assert(std::is_same_v<decltype(e2.values), t7::DoubleTensor>);
    static_assert(std::is_same_v<decltype(e2.vectors), ZT>);
    static_assert(std::is_same_v<decltype(e2), const t7::EigResult<Z, t7::CPU, double>>);
    // the real function's result type is unchanged (EigResult<T, D, real_t<T>> is EigResult<T>)
    static_assert(std::is_same_v<decltype(t7::symeig(t7::DoubleTensor())), t7::EigResult<double>>);
    REQUIRE(e2.values.isSize({2}));
    CHECK(e2.vectors.nElement() == 0);
    CHECK(std::abs(e2.values(0) - 1) < 1e-14);
    CHECK(std::abs(e2.values(1) - 3) < 1e-14);

    const ZT A = h3();
    for (char uplo : {'U', 'L'}) {
        CAPTURE(uplo);
        const auto [values, vectors] = t7::symeig(scribble(A, uplo), 'V', uplo);
        REQUIRE(values.isSize({3}));
        REQUIRE(vectors.isSize({3, 3}));
        for (int64_t j = 1; j < 3; ++j) CHECK(values(j - 1) <= values(j));
        CHECK(max_diff(ref_mm(vectors, vectors, true), identity(3)) < 1e-12);
        const ZT av = ref_mm(A, vectors);
        for (int64_t j = 0; j < 3; ++j)
            for (int64_t i = 0; i < 3; ++i)
                CHECK(std::abs(C(av(i, j)) - values(j) * C(vectors(i, j))) < 1e-12);
        // the sum of the eigenvalues is the trace, 15
        CHECK(std::abs(values(0) + values(1) + values(2) - 15) < 1e-12);
        const auto n = t7::symeig(scribble(A, uplo), 'N', uplo);
        CHECK(n.vectors.nElement() == 0);
        CHECK(t7::max(t7::abs(n.values - values)) < 1e-12);
    }
    // an expression (evaluated once): the values of 2 A are twice A's
    CHECK(t7::max(t7::abs(t7::symeig(A * Z(2)).values - t7::symeig(A).values * 2.)) < 1e-12);

    ZT rect(2, 3);
    rect.zero();
    CHECK_THROWS_AS(t7::symeig(rect), t7::ShapeError);
    CHECK_THROWS_AS(t7::symeig(A, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::symeig(A, 'V', 'X'), t7::Error);
    ZT nan = A.clone();
    nan(2, 2) = Z(0, std::numeric_limits<double>::infinity());
    CHECK_THROWS_AS(t7::symeig(nan), t7::Error);
}

TEST_CASE("linalg_complex2: gels, least squares and minimum norm") {
    // by hand: A = [1, i]^T, b = [1, 1]: x = A^H b / (A^H A) = (1 - i) / 2
    const ZT x0 = t7::gels(matrix<Z>({{1.}, {1.}}), matrix<Z>({{1.}, {I}}));
    REQUIRE(x0.isSize({1, 1}));
    CHECK(std::abs(C(x0(0, 0)) - (0.5 - 0.5 * I)) < 1e-14);

    // overdetermined 4 x 2: the residual is orthogonal to A's columns (A^H r = 0)
    const ZT A = matrix<Z>({{1. + I, 2.}, {-I, 1. - I}, {3., 0.5 * I}, {1., 1.}});
    const ZT B = matrix<Z>({{1., I}, {2. - I, 0.}, {0.5, 1.}, {-1., 3. * I}});
    const ZT x = t7::gels(B, A);
    REQUIRE(x.isSize({2, 2}));
    const ZT r = t7::eval(B - ref_mm(A, x));
    CHECK(max_diff(ref_mm(A, r, true), t7::zeros<Z>(2, 2)) < 1e-12);
    CHECK(max_diff(ref_mm(A, B, true), ref_mm(ref_mm(A, A, true), x)) < 1e-12); // normal equations
    const ZT x1 = t7::gels(B.select(1, 0), A);
    REQUIRE(x1.dim() == 1);
    CHECK(max_diff(x1, x.select(1, 0).clone()) < 1e-12);

    // underdetermined 2 x 3: A x = b exactly, x orthogonal to A's null space (spanned
    // by the cross product of A's rows: a_i . (a_1 x a_2) = 0 over any field)
    const ZT W = matrix<Z>({{1., I, 2. - I}, {2. * I, -1., 1.}});
    const ZT b = matrix<Z>({{1. + I}, {2.}});
    const ZT xw = t7::gels(b, W);
    REQUIRE(xw.isSize({3, 1}));
    CHECK(max_diff(ref_mm(W, xw), b) < 1e-12);
    const C w0[3] = {W(0, 0), W(0, 1), W(0, 2)}, w1[3] = {W(1, 0), W(1, 1), W(1, 2)};
    const ZT nul = matrix<Z>({{w0[1] * w1[2] - w0[2] * w1[1]},
                              {w0[2] * w1[0] - w0[0] * w1[2]},
                              {w0[0] * w1[1] - w0[1] * w1[0]}});
    REQUIRE(max_diff(ref_mm(W, nul), t7::zeros<Z>(2, 1)) < 1e-12);
    CHECK(std::abs(C(ref_mm(nul, xw, true)(0, 0))) < 1e-12);

    // rank deficient (column 2 = i column 1), mismatched B, NaN: the real function's errors
    const ZT bad = matrix<Z>({{1., I}, {2., 2. * I}, {-I, 1.}}), bad0 = bad.clone();
    CHECK_THROWS_AS(t7::gels(B.narrow(0, 0, 3), bad), t7::Error);
    CHECK(t7::equal(bad, bad0));
    CHECK_THROWS_AS(t7::gels(B, W), t7::ShapeError);
    ZT nan = A.clone();
    nan(3, 1) = Z(std::numeric_limits<double>::quiet_NaN(), 1);
    CHECK_THROWS_AS(t7::gels(B, nan), t7::Error);
}

TEST_CASE("linalg_complex2: trtrs with 'N', 'T' and 'C' against substitution") {
    const ZT T = matrix<Z>({{2. + I, 1. - I, 3.}, {0., -1. + 2. * I, I}, {0., 0., 4.}});
    const ZT B = matrix<Z>({{1., I}, {2. - I, 0.}, {0.5, 1. + I}});
    for (char uplo : {'U', 'L'}) {
        const ZT tri = uplo == 'U' ? T : adjoint(T);              // the triangle read
        const ZT a = scribble(tri, uplo) - Z(0, 7) * identity(3); // the other triangle: garbage
        for (char trans : {'N', 'T', 'C'}) {
            for (char diag : {'N', 'U'}) {
                CAPTURE(uplo);
                CAPTURE(trans);
                CAPTURE(diag);
                ZT t = tri.clone();
                if (diag == 'U')
                    for (int64_t i = 0; i < 3; ++i) t(i, i) = 1;
                const auto [x, a2] = t7::trtrs(B, a, uplo, trans, diag);
                CHECK(max_diff(x, substitute(t, B, char(trans + ('a' - 'A')))) < 1e-12);
                CHECK(t7::equal(a2, a));
            }
        }
    }
    // 'T' is the plain transpose, 'C' the conjugate one: by hand for [[i, 0], [0, 1]]
    const ZT D = matrix<Z>({{I, 1.}, {0., 1.}});
    const ZT one = matrix<Z>({{1.}, {0.}});
    CHECK(max_diff(t7::trtrs(one, D, 'U', 'T').solution, matrix<Z>({{-I}, {I}})) < 1e-14);
    CHECK(max_diff(t7::trtrs(one, D, 'U', 'C').solution, matrix<Z>({{I}, {-I}})) < 1e-14);

    ZT sing = T.clone(), sing0;
    sing(1, 1) = 0;
    sing0 = sing.clone();
    CHECK_THROWS_AS(t7::trtrs(B, sing), t7::Error);
    CHECK(t7::equal(sing, sing0));
    CHECK_THROWS_AS(t7::trtrs(B, T, 'U', 'X'), t7::Error);
    CHECK_THROWS_AS(t7::trtrs(B, T.narrow(0, 0, 2)), t7::ShapeError);
}

TEST_CASE("linalg_complex2: trtrs in complex<float>") {
    using F = std::complex<float>;
    const auto T = matrix<F>({{2. + I, 1. - I}, {0., -1. + 2. * I}});
    const auto b = matrix<F>({{1.}, {2. - I}});
    for (char trans : {'N', 'C'}) {
        CAPTURE(trans);
        const t7::Tensor<F> x = t7::trtrs(b, T, 'U', trans).solution;
        const auto lhs = trans == 'N' ? ref_mm(T, x) : ref_mm(T, x, true);
        CHECK(max_diff(lhs, b) < 1e-5);
    }
}

TEST_CASE("linalg_complex2: pstrf, pivoted U^H U of a Hermitian semi-definite matrix") {
    // by hand: [[1, i], [-i, 4]] pivots on 4: U = [[2, -i/2], [0, sqrt(3)/2]], piv = [1, 0]
    const auto [u2, p2] = t7::pstrf(matrix<Z>({{1., I}, {-I, 4.}}));
    CHECK(max_diff(u2, matrix<Z>({{2., -0.5 * I}, {0., std::sqrt(3.) / 2}})) < 1e-14);
    CHECK(p2(0) == 1);
    CHECK(p2(1) == 0);

    // rank 2 of order 4: A = G G^H, G 4 x 2
    const ZT G = matrix<Z>({{1. + I, 2.}, {-I, 1. - I}, {3., 0.5 * I}, {1., 1.}});
    const ZT psd = ref_mm(G, adjoint(G));
    for (const auto& [A, rank] : {std::pair{psd, int64_t(2)}, std::pair{h3(), int64_t(3)}}) {
        for (char uplo : {'U', 'L'}) {
            CAPTURE(uplo);
            CAPTURE(rank);
            const auto [f, piv] = t7::pstrf(scribble(A, uplo), uplo);
            const int64_t n = A.size(0);
            REQUIRE(piv.isSize({n}));
            const ZT u = uplo == 'U' ? f : adjoint(f);
            CHECK(upper_triangular(u));
            ZT pap(n, n);
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j) pap(i, j) = A(piv(i), piv(j));
            CHECK(max_diff(ref_mm(u, u, true), pap) < 1e-12);
            for (int64_t i = 0; i < n; ++i) {
                CHECK(C(u(i, i)).imag() == 0);
                if (i > 0) CHECK(C(u(i, i)).real() <= C(u(i - 1, i - 1)).real() + 1e-12);
                if (i >= rank)
                    for (int64_t j = 0; j < n; ++j) CHECK(u(i, j) == Z(0));
            }
        }
    }
    const ZT bad = indefinite(), bad0 = bad.clone();
    CHECK_THROWS_AS(t7::pstrf(bad), t7::Error);
    CHECK(t7::equal(bad, bad0));
    CHECK_THROWS_AS(t7::pstrf(G), t7::ShapeError);
    CHECK_THROWS_AS(t7::pstrf(h3(), 'U', std::numeric_limits<double>::quiet_NaN()), t7::Error);
}

TEST_CASE("linalg_complex2: geqrf and orgqr, LAPACK's complex reflectors") {
    // by hand (LAPACK's zlarfg): x = [i, 1]: beta = -sqrt(2), tau = 1 + i/sqrt(2),
    // v = [1, 1 / (i + sqrt(2))]
    const auto [m1, tau1] = t7::geqrf(matrix<Z>({{I}, {1.}}));
    const double s2 = std::sqrt(2.);
    CHECK(std::abs(C(m1(0, 0)) + s2) < 1e-14);
    CHECK(std::abs(C(m1(1, 0)) - 1. / (I + s2)) < 1e-14);
    REQUIRE(tau1.isSize({1}));
    CHECK(std::abs(C(tau1(0)) - (1. + I / s2)) < 1e-14);

    for (const ZT& A :
         {matrix<Z>({{1. + I, 2., -I}, {-I, 1. - I, 3.}, {3., 0.5 * I, 1.}, {1., 1., 2. * I}}),
          matrix<Z>({{1., I, 2. - I}, {2. * I, -1., 1.}})}) {
        CAPTURE(A.sizes());
        const int64_t rows = A.size(0), cols = A.size(1), k = std::min(rows, cols);
        const auto [m, tau] = t7::geqrf(A);
        REQUIRE(m.isSize({rows, cols}));
        REQUIRE(tau.isSize({k}));
        const ZT q = explicit_q(m, tau);
        CHECK(max_diff(ref_mm(q, q, true), identity(rows)) < 1e-12);
        // Q R = A with R = triu(m), its diagonal real (zgeqrf's beta)
        ZT r = m.clone();
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < std::min(i, cols); ++j) r(i, j) = 0;
        for (int64_t i = 0; i < k; ++i) CHECK(C(r(i, i)).imag() == 0);
        CHECK(max_diff(ref_mm(q, r), A) < 1e-12);
        // orgqr: the first min(rows, cols) columns of Q, qr's q
        const ZT oq = t7::orgqr(m, tau);
        REQUIRE(oq.isSize({rows, k}));
        CHECK(max_diff(oq, q.narrow(1, 0, k).clone()) < 1e-12);
        CHECK(max_diff(oq, t7::qr(A).q) < 1e-12);
        CHECK(max_diff(ref_mm(oq, oq, true), identity(k)) < 1e-12);
    }
    CHECK_THROWS_AS(t7::geqrf(ZT()), t7::ShapeError);
    ZT nan = h3();
    nan(1, 1) = Z(std::numeric_limits<double>::quiet_NaN(), 0);
    CHECK_THROWS_AS(t7::geqrf(nan), t7::Error);
    const auto [m3, tau3] = t7::geqrf(h3());
    ZT tau4(4);
    tau4.zero();
    CHECK_THROWS_AS(t7::orgqr(m3, tau4), t7::ShapeError);
}

TEST_CASE("linalg_complex2: ormqr against the explicit Q; 'T' and 'C' apply Q^H") {
    const ZT A =
        matrix<Z>({{1. + I, 2., -I}, {-I, 1. - I, 3.}, {3., 0.5 * I, 1.}, {1., 1., 2. * I}});
    const auto [m, tau] = t7::geqrf(A);
    const ZT q = explicit_q(m, tau), qh = adjoint(q);
    const ZT Cl = matrix<Z>({{1., I}, {2. - I, 0.}, {0.5, 1. + I}, {-1., 3. * I}}); // 4 x 2
    const ZT Cr = Cl.t().clone();                                                   // 2 x 4
    CHECK(max_diff(t7::ormqr(m, tau, Cl), ref_mm(q, Cl)) < 1e-12);
    CHECK(max_diff(t7::ormqr(m, tau, Cl, 'L', 'C'), ref_mm(qh, Cl)) < 1e-12);
    CHECK(max_diff(t7::ormqr(m, tau, Cl, 'L', 'T'), ref_mm(qh, Cl)) < 1e-12);
    CHECK(max_diff(t7::ormqr(m, tau, Cr, 'R'), ref_mm(Cr, q)) < 1e-12);
    CHECK(max_diff(t7::ormqr(m, tau, Cr, 'R', 'C'), ref_mm(Cr, qh)) < 1e-12);
    CHECK(max_diff(t7::ormqr(m, tau, Cr, 'R', 'T'), ref_mm(Cr, qh)) < 1e-12);
    // Q^H A = R: zero below the diagonal
    const ZT qa = t7::ormqr(m, tau, A, 'L', 'C');
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 3; ++j)
            CHECK(std::abs(C(qa(i, j)) - (j >= i ? C(m(i, j)) : C(0))) < 1e-12);
    // an expression operand (evaluated once)
    CHECK(max_diff(t7::ormqr(m, tau, Cl * Z(2)), t7::eval(ref_mm(q, Cl) * Z(2))) < 1e-12);

    const ZT c0 = Cl.clone();
    CHECK_THROWS_AS(t7::ormqr(m, tau, Cl, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::ormqr(m, tau, Cl, 'L', 'X'), t7::Error);
    CHECK_THROWS_AS(t7::ormqr(m, tau, Cl, 'R'), t7::ShapeError);
    CHECK(t7::equal(Cl, c0));
}
