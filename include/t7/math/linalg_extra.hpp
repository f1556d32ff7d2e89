// More of Torch7's LAPACK interface (issue 14): trtrs (triangular solve), pstrf
// (pivoted Cholesky), geqrf / orgqr / ormqr (LAPACK's compact QR and its Q).
// Float, double, complex<float> and complex<double> CPU tensors of any layout (for
// complex ones the z routines' semantics: Hermitian for symmetric, conjugate
// transposes); results are new contiguous tensors; every check runs before anything
// is computed.
#pragma once

#include "linalg.hpp"

#include <Eigen/Householder>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace t7 {

template <class T, class D = CPU>
struct TrtrsResult {
    Tensor<T, D> solution; // X with op(A) X = B
    Tensor<T, D> a;        // A, unchanged (a copy, as Torch7 returns it)
};
template <class T, class D = CPU>
struct PstrfResult {
    Tensor<T, D> u;         // 'U': upper U with A[piv][:, piv] = U^H U; 'L': lower L, = L L^H
    Tensor<int64_t, D> piv; // 0-based permutation
};
template <class T, class D = CPU>
struct GeqrfResult {
    Tensor<T, D> m;   // R on and above the diagonal, Householder vectors below (LAPACK's geqrf)
    Tensor<T, D> tau; // the k = min(rows, cols) Householder coefficients
};

namespace detail {

// LAPACK's trans argument: 'N' (A), 'T' (A^T) or 'C' (A^H; for real A the same as 'T').
enum class TransOp { none, transpose, adjoint };
inline TransOp trans_of(char c, const char* op, const char* what) {
    if (c == 'N' || c == 'n') return TransOp::none;
    if (c == 'T' || c == 't') return TransOp::transpose;
    if (c == 'C' || c == 'c') return TransOp::adjoint;
    fail<Error>(op, ": ", what, " must be 'N', 'T' or 'C', got '", c, "'");
}

template <class T, class D>
void require_nonempty(const Tensor<T, D>& t, const char* op, const char* name) {
    if (t.nElement() == 0) fail<ShapeError>(op, ": ", name, " is empty (size ", t.sizes(), ")");
}

// The Householder sequence Q = H_0 ... H_{k-1}, H_i = I - tau_i v_i v_i^H, of geqrf's m
// (nq x >= k) and tau (k), LAPACK's convention (Eigen's HouseholderQR keeps conj(tau)).
template <class T>
struct Reflectors {
    EMatrix<T> v;
    Eigen::Matrix<T, Eigen::Dynamic, 1> tau;
    auto seq() const { return Eigen::householderSequence(v, tau); }
};

template <class T, class D>
Reflectors<T> reflectors(const Tensor<T, D>& m, const Tensor<T, D>& tau, const char* op) {
    require_dim(m, 2, op, "a matrix (geqrf's first result)");
    require_dim(tau, 1, op, "a vector (geqrf's tau)");
    const int64_t k = tau.size(0);
    if (k > m.size(0) || k > m.size(1))
        fail<ShapeError>(op, ": tau of size ", tau.sizes(), " has more coefficients than the ",
                         m.sizes(), " matrix has columns or rows");
    require_workspace<T>(op, ws_add(ws_of(2, m), ws_of(1, tau)));
    Reflectors<T> r{to_eigen(m).leftCols(k), to_eigen(tau).col(0)};
    if (!r.v.allFinite() || !r.tau.allFinite())
        fail<Error>(op, ": the reflectors (size ", m.sizes(), ", tau ", tau.sizes(),
                    ") contain NaN or infinity");
    return r;
}

} // namespace detail

// Solves op(A) X = B for triangular A (n x n; B n x k, or n giving a 1-D X):
// uplo 'U'/'L' says which triangle of A is read, trans 'N' (A X = B), 'T'
// (A^T X = B) or 'C' (A^H X = B; the same as 'T' for real A: LAPACK's ?trtrs), diag
// 'N' or 'U' (unit diagonal, not read). Torch7's torch.trtrs(b, a):
// returns X and A unchanged. A zero on a non-unit diagonal throws Error.
template <detail::LinalgScalar T, class D>
TrtrsResult<T, D> trtrs(const Tensor<T, D>& B, const Tensor<T, D>& A, char uplo = 'U',
                        char trans = 'N', char diag = 'N') {
    detail::require_square(A, "trtrs", "A");
    detail::require_nonempty(A, "trtrs", "A");
    if ((B.dim() != 1 && B.dim() != 2) || B.size(0) != A.size(0))
        detail::fail<ShapeError>("trtrs: B of size ", B.sizes(), " does not match A of size ",
                                 A.sizes(), " (B must be n or n x k with n = ", A.size(0), ")");
    const bool upper = detail::upper_of(uplo, "trtrs");
    const detail::TransOp op = detail::trans_of(trans, "trtrs", "trans");
    const bool tr = op != detail::TransOp::none;
    bool unit = false;
    if (diag == 'U' || diag == 'u')
        unit = true;
    else if (diag != 'N' && diag != 'n')
        detail::fail<Error>("trtrs: diag must be 'N' or 'U', got '", diag, "'");
    detail::require_workspace<T>("trtrs", detail::ws_add(detail::ws_of(2, A), detail::ws_of(2, B)));
    // The copy of A that trtrs returns is the one the solve reads (only its uplo
    // triangle, and its diagonal unless unit: those are checked), and B's copy is
    // solved in place; no other copy.
    Tensor<T, D> a = A.clone();
    const int64_t n = a.size(0), k = B.dim() == 1 ? 1 : B.size(1);
    const T* p = a.data();
    for (int64_t i = 0; i < n; ++i) { // the elements read: row i's part of the triangle
        const int64_t j0 = upper ? i + int64_t(unit) : 0, j1 = upper ? n : i + 1 - int64_t(unit);
        detail::require_finite(p + i * n + j0, j1 - j0, "trtrs", A);
    }
    for (int64_t i = 0; i < n && !unit; ++i)
        if (p[i * n + i] == T(0))
            detail::fail<Error>("trtrs: the triangular matrix of size ", A.sizes(),
                                " is singular (A(", i, ",", i, ") is zero)");
    Tensor<T, D> x = B.clone();
    detail::require_finite(x.data(), x.nElement(), "trtrs", B);
    // op(A) lower: A lower, or A^T of an upper A (A's strides swapped); A^H is
    // conj(A^T).
    detail::eig::solve_rows(p, tr ? 1 : n, tr ? n : 1, upper == tr, unit,
                            is_complex_v<T> && op == detail::TransOp::adjoint, n, x.data(), k);
    return {x, a};
}

// Pivoted Cholesky of a symmetric (complex: Hermitian) positive semi-definite matrix
// (LAPACK's pstrf, reading only the uplo triangle and the real part of the diagonal):
// P^T A P = U^H U ('U') or L L^H ('L'), where P(piv[k], k) = 1, i.e.
// A.index(0, piv).index(1, piv) == U^H U (U^T U for real A). The pivot is the
// largest remaining diagonal element; the factorisation stops at rank r when it is
// <= tol (tol < 0: n * eps * max(diag(A)), as LAPACK), and rows (columns for 'L')
// r.. of the factor are zero. A diagonal element left below -max(tol, n eps max
// diag) (an indefinite matrix) throws Error.
template <detail::LinalgScalar T, class D>
PstrfResult<T, D> pstrf(const Tensor<T, D>& A, char uplo = 'U', double tol = -1) {
    detail::require_square(A, "pstrf", "A");
    detail::require_nonempty(A, "pstrf", "A");
    const bool upper = detail::upper_of(uplo, "pstrf");
    if (std::isnan(tol)) detail::fail<Error>("pstrf: tol is NaN");
    detail::require_workspace<T>("pstrf", detail::ws_of(5, A));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::EMatrix<T> s = upper ? detail::EMatrix<T>(m.template selfadjointView<Eigen::Upper>())
                                 : detail::EMatrix<T>(m.template selfadjointView<Eigen::Lower>());
    detail::require_finite(s, "pstrf", A);
    using Real = real_t<T>;
    const Eigen::Index n = s.rows();
    // the diagonal is real (its imaginary part is not read); so are the pivots
    s.diagonal() = s.diagonal().real().template cast<T>();
    const double eps = std::numeric_limits<Real>::epsilon();
    const double maxdiag = double(s.diagonal().real().maxCoeff());
    const double stop = tol < 0 ? double(n) * eps * std::max(maxdiag, 0.0) : tol;
    const double floor = -std::max(stop, double(n) * eps * std::max(maxdiag, 0.0));
    std::vector<int64_t> piv(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) piv[size_t(i)] = i;
    detail::EMatrix<T> u = detail::EMatrix<T>::Zero(n, n);
    Eigen::Index rank = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
        Eigen::Index j;
        const Real big = s.diagonal().tail(n - k).real().maxCoeff(&j);
        j += k;
        if (!(double(big) > stop)) break;
        if (j != k) {
            s.row(k).swap(s.row(j));
            s.col(k).swap(s.col(j));
            u.col(k).head(k).swap(u.col(j).head(k));
            std::swap(piv[size_t(k)], piv[size_t(j)]);
        }
        const Real d = std::sqrt(big);
        u(k, k) = d;
        const Eigen::Index rest = n - k - 1;
        u.row(k).tail(rest) = s.row(k).tail(rest) / d;
        s.bottomRightCorner(rest, rest).noalias() -=
            u.row(k).tail(rest).adjoint() * u.row(k).tail(rest);
        rank = k + 1;
    }
    for (Eigen::Index i = rank; i < n; ++i)
        if (double(std::real(s(i, i))) < floor)
            detail::fail<Error>("pstrf: the matrix of size ", A.sizes(),
                                " is not positive semi-definite (a remaining diagonal element is ",
                                std::real(s(i, i)), " after ", rank, " steps)");
    Tensor<int64_t, D> p(n);
    std::copy(piv.begin(), piv.end(), p.data());
    if (upper) return {detail::matrix_tensor<T>(u), std::move(p)};
    return {detail::matrix_tensor<T>(u.adjoint()), std::move(p)};
}

// LAPACK's geqrf: A (m x n) = Q R in compact form. The result m holds R on and
// above the diagonal and the Householder vectors v_i (v_i(i) = 1 implied) below
// it; tau (k = min(m, n)) the coefficients: Q = H_0 ... H_{k-1}, H_i = I - tau_i
// v_i v_i^H (v_i^T if real), LAPACK's tau (zgeqrf's for complex A).
template <detail::LinalgScalar T, class D>
GeqrfResult<T, D> geqrf(const Tensor<T, D>& A) {
    detail::require_dim(A, 2, "geqrf", "a matrix");
    detail::require_nonempty(A, "geqrf", "A");
    detail::require_workspace<T>("geqrf", detail::ws_of(4, A));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "geqrf", A);
    const detail::eig::SerialEigen serial;
    Eigen::HouseholderQR<detail::EMatrix<T>> h(m);
    // Eigen keeps conj(tau): its householderQ() is householderSequence(qr, hCoeffs().conjugate())
    return {detail::matrix_tensor<T>(h.matrixQR()),
            detail::vector_tensor<T>(h.hCoeffs().conjugate())};
}

// The explicit Q of geqrf's (m, tau): the first min(rows, cols) columns of
// H_0 ... H_{k-1} (k = tau's size), rows x min(rows, cols) (LAPACK's orgqr when
// rows >= cols; so geqrf + orgqr gives qr's Q).
template <detail::LinalgScalar T, class D>
Tensor<T, D> orgqr(const Tensor<T, D>& m, const Tensor<T, D>& tau) {
    if (m.dim() == 2) // the reflectors' copy of m is checked there
        detail::require_workspace<T>("orgqr", detail::ws_of(1, m));
    const auto r = detail::reflectors(m, tau, "orgqr");
    const detail::eig::SerialEigen serial;
    const Eigen::Index rows = m.size(0), cols = std::min(m.size(0), m.size(1));
    detail::EMatrix<T> q = detail::EMatrix<T>::Identity(rows, cols);
    r.seq().applyThisOnTheLeft(q);
    return detail::matrix_tensor<T>(q);
}

// Multiplies C by geqrf's Q (rows x rows, from (m, tau)) as LAPACK's ormqr / unmqr:
// side 'L' gives Q C (trans 'N') or Q^H C ('T' or 'C'; Q^T C for real Q), C with m's
// row count of rows; side 'R' gives C Q or C Q^H, C with that many columns. For a
// complex Q, 'T' is the conjugate transpose too (zunmqr has no plain transpose;
// torch.ormqr's transpose=True): ormqr(m, tau, A, 'L', 'T') is R for any element type.
template <detail::LinalgScalar T, class D>
Tensor<T, D> ormqr(const Tensor<T, D>& m, const Tensor<T, D>& tau, const Tensor<T, D>& C,
                   char side = 'L', char trans = 'N') {
    bool left = true;
    if (side == 'R' || side == 'r')
        left = false;
    else if (side != 'L' && side != 'l')
        detail::fail<Error>("ormqr: side must be 'L' or 'R', got '", side, "'");
    const bool tr = detail::trans_of(trans, "ormqr", "trans") != detail::TransOp::none;
    detail::require_dim(C, 2, "ormqr", "a matrix C");
    detail::require_dim(m, 2, "ormqr", "a matrix (geqrf's first result)");
    if (C.size(left ? 0 : 1) != m.size(0))
        detail::fail<ShapeError>("ormqr: C of size ", C.sizes(), " does not match Q of order ",
                                 m.size(0), " (from m of size ", m.sizes(), ") on side '", side,
                                 "'");
    detail::require_workspace<T>("ormqr", detail::ws_of(2, C));
    const auto r = detail::reflectors(m, tau, "ormqr");
    detail::EMatrix<T> c = detail::to_eigen(C);
    detail::require_finite(c, "ormqr", C);
    const detail::eig::SerialEigen serial;
    // Q C, Q^H C directly; C Q = (Q^H C^H)^H, C Q^H = (Q C^H)^H (^T for real)
    if (!left) c.adjointInPlace();
    const bool apply_qh = left ? tr : !tr;
    if (apply_qh)
        r.seq().adjoint().applyThisOnTheLeft(c);
    else
        r.seq().applyThisOnTheLeft(c);
    if (!left) c.adjointInPlace();
    return detail::matrix_tensor<T>(c);
}

} // namespace t7
