// Linear algebra through Eigen's decompositions (Torch7's LAPACK interface):
// gesv, inverse, potrf, potrs, potri, qr, svd, symeig, eig, gels. potrf, gesv and
// inverse factor by blocks, their products on tensor7's pool
// (eval/cpu/blocked_decomp.hpp); the others run whole on the calling thread
// (eval/cpu/serial_eigen.hpp): never an OpenMP team. Float, double,
// complex<float> and complex<double> (Eigen's decompositions are the same templates
// for all four; for a complex matrix a transpose is the conjugate transpose, as in
// LAPACK's z routines: potrf's A = U^H U, symeig of a Hermitian A). Inputs of any layout;
// results are new contiguous tensors. Singular or non-positive-definite inputs
// throw t7::Error, never return garbage.
#pragma once

#include "../core/error.hpp"
#include "../eval/cpu/blas.hpp"
#include "../eval/cpu/blocked_decomp.hpp"
#include "../eval/cpu/serial_eigen.hpp"
#include "../tensor/copy.hpp"
#include "blas.hpp"
#include "factories.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <utility>

namespace t7 {

template <class T, class D = CPU>
struct GesvResult {
    Tensor<T, D> solution; // X with A X = B
    Tensor<T, D> lu;       // LU factors of P A (unit lower L below the diagonal, U on and above)
};
template <class T, class D = CPU>
struct QRResult {
    Tensor<T, D> q; // m x k, orthonormal columns (k = min(m, n))
    Tensor<T, D> r; // k x n, upper triangular
};
template <class T, class D = CPU>
struct SVDResult {
    Tensor<T, D> u;         // m x k (some) or m x m (all)
    Tensor<real_t<T>, D> s; // k singular values, descending (real for a complex A)
    Tensor<T, D> v;         // n x k (some) or n x n (all): A = U diag(S) V^H
};
// V: the values' element type, T but for symeig of a complex A (EigResult<T, D,
// real_t<T>>: a Hermitian matrix's eigenvalues are real, as numpy.linalg.eigh's).
template <class T, class D = CPU, class V = T>
struct EigResult {
    Tensor<V, D> values;  // symeig: n, ascending (real); eig: n x 2 (real, imaginary
                          // parts), or n complex values for a complex A
    Tensor<T, D> vectors; // eigenvectors as columns; empty unless requested
};

namespace detail {

// The element types of the linear algebra (every function here and in linalg_extra.hpp).
template <class T>
concept LinalgScalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

template <class T>
using EMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

template <class T, class D>
uint64_t ws_of(uint64_t copies, const Tensor<T, D>& t) {
    return ws_mul(copies, uint64_t(t.nElement()));
}

// The Eigen matrices a linear algebra function will hold at once (copies of its
// operands, factors, results; `elements` scalars of T), checked by the library's
// one memory check before Eigen is asked: MemoryError when they cannot be had,
// e.g. for a 2^17 x 2^17 expanded view whose storage is one element.
template <class T>
void require_workspace(const char* op, uint64_t elements) {
    require_memory(op, elements, sizeof(T), "the workspace");
}

// dst[i drs + j dcs] = src[i rs + j cs] for a rows x cols matrix (drs or dcs 1),
// by tiles of 32 x 32, the inner loop along dst's unit stride: a transposing
// copy element by element (a row-major tensor into a column-major Eigen
// matrix, or back) walks one side a page per element (1024^2 doubles: 4-5 ms),
// and along src's unit stride GCC vectorises the stores as scatters (10 ms);
// this way 1.2 ms.
template <class T>
void tiled_copy(int64_t rows, int64_t cols, const T* src, int64_t rs, int64_t cs, T* dst,
                int64_t drs, int64_t dcs) {
    if (drs != 1) {
        std::swap(rows, cols);
        std::swap(rs, cs);
        std::swap(drs, dcs);
    }
    constexpr int64_t B = 32;
    for (int64_t j0 = 0; j0 < cols; j0 += B)
        for (int64_t i0 = 0; i0 < rows; i0 += B)
            for (int64_t j = j0; j < std::min(cols, j0 + B); ++j)
                for (int64_t i = i0; i < std::min(rows, i0 + B); ++i)
                    dst[i + j * dcs] = src[i * rs + j * cs];
}

// A matrix as an Eigen matrix (a copy).
template <class T>
EMatrix<T> to_eigen(const MatRef<const T>& m) {
    if (eig::order(m) == eig::Order::none) return eig::gather(m);
    if (eig::order(m) == eig::Order::row && m.rows > 1 && m.cols > 1) {
        EMatrix<T> r(m.rows, m.cols);
        tiled_copy(m.rows, m.cols, m.data, m.rs, m.cs, r.data(), int64_t(1), m.rows);
        return r;
    }
    return eig::with_map(m, [](const auto& map) { return EMatrix<T>(map); });
}

// A 2-D (or 1-D, as a column) tensor as an Eigen matrix (a copy).
template <class T, class D>
EMatrix<T> to_eigen(const Tensor<T, D>& t) {
    static_assert(std::is_same_v<D, CPU>, "linear algebra on a GPU belongs to the GPU backend");
    return to_eigen(t.dim() == 1 ? MatRef<const T>{t.data(), t.size(0), 1, t.stride(0), 1}
                                 : cmat_ref(t));
}

template <class T, class Derived>
Tensor<T> matrix_tensor(const Eigen::MatrixBase<Derived>& m) {
    Tensor<T> r(m.rows(), m.cols());
    eig::row_map(MatRef<T>{r.data(), m.rows(), m.cols(), m.cols(), 1}) = m;
    return r;
}
template <class T>
Tensor<T> matrix_tensor(const EMatrix<T>& m) {
    Tensor<T> r(m.rows(), m.cols());
    tiled_copy(int64_t(m.rows()), int64_t(m.cols()), m.data(), int64_t(1), int64_t(m.rows()),
               r.data(), int64_t(m.cols()), int64_t(1));
    return r;
}
template <class T, class Derived>
Tensor<T> vector_tensor(const Eigen::MatrixBase<Derived>& v) {
    Tensor<T> r(v.size());
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(r.data(), v.size()) = v;
    return r;
}

template <class T, class D>
void require_square(const Tensor<T, D>& a, const char* op, const char* name) {
    if (a.dim() != 2 || a.size(0) != a.size(1))
        fail<ShapeError>(op, ": ", name, " must be a square matrix, got ", a.dim(), "-D of size ",
                         a.sizes());
}
// x - x is 0 for every finite x and NaN for NaN and infinity: one vectorised sum
// (Eigen's allFinite tests element by element: 40 % of trtrs at 256^2).
template <class T, class D>
void require_finite(const T* p, int64_t count, const char* op, const Tensor<T, D>& t) {
    const auto a = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, count);
    if (!((a - a).sum() == T(0)))
        fail<Error>(op, ": the matrix of size ", t.sizes(), " contains NaN or infinity");
}
template <class T, class D>
void require_finite(const EMatrix<T>& m, const char* op, const Tensor<T, D>& t) {
    require_finite(m.data(), int64_t(m.size()), op, t);
}

// LU with partial pivoting, rejecting matrices singular to working precision: a
// zero pivot, or a reciprocal condition number (1-norm estimate) below epsilon.
template <class T, class D>
eig::PoolPartialPivLU<T> checked_lu(const Tensor<T, D>& a, const char* op) {
    EMatrix<T> m = to_eigen(a);
    require_finite(m, op, a);
    eig::PoolPartialPivLU<T> lu(std::move(m));
    const auto& f = lu.matrixLU();
    for (Eigen::Index i = 0; i < f.rows(); ++i)
        if (f(i, i) == T(0))
            fail<Error>(op, ": the matrix of size ", a.sizes(), " is singular (U(", i, ",", i,
                        ") is zero)");
    const real_t<T> rc = lu.rcond();
    if (!(rc >= std::numeric_limits<real_t<T>>::epsilon()))
        fail<Error>(op, ": the matrix of size ", a.sizes(),
                    " is singular to working precision (reciprocal condition number ", rc, ")");
    return lu;
}

// In place: X holds P B (n x k, row-major, rows k apart) and
// becomes A^-1 B, the LU factors read where they are (column-major: the strides
// (1, n)), no copy of either.
template <class T>
void lu_solve_in_place(const eig::PoolPartialPivLU<T>& lu, T* x, int64_t k) {
    const int64_t n = lu.rows();
    const T* f = lu.matrixLU().data();
    eig::solve_rows(f, int64_t(1), n, true, true, false, n, x, k);
    eig::solve_rows(f, int64_t(1), n, false, false, false, n, x, k);
}

// A^-1 B from A's LU (B n x k, or n giving a 1-D X).
template <class T, class D>
Tensor<T, D> lu_solve(const eig::PoolPartialPivLU<T>& lu, const Tensor<T, D>& B) {
    const int64_t n = lu.rows(), k = B.dim() == 1 ? 1 : B.size(1);
    const int64_t rs = B.stride(0), cs = B.dim() == 1 ? 1 : B.stride(1);
    Tensor<T, D> x = B.dim() == 1 ? Tensor<T, D>(n) : Tensor<T, D>(n, k);
    const auto& to = lu.permutationP().indices(); // P B's row to[i] is B's row i
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j) x.data()[to[i] * k + j] = B.data()[i * rs + j * cs];
    lu_solve_in_place(lu, x.data(), k);
    return x;
}

// A^-1 from A's LU.
template <class T, class D>
Tensor<T, D> lu_inverse(const eig::PoolPartialPivLU<T>& lu) {
    const int64_t n = lu.rows();
    Tensor<T, D> x(n, n);
    std::fill_n(x.data(), n * n, T(0));
    const auto& to = lu.permutationP().indices(); // P I
    for (int64_t i = 0; i < n; ++i) x.data()[to[i] * n + i] = T(1);
    lu_solve_in_place(lu, x.data(), n);
    return x;
}

inline bool upper_of(char uplo, const char* op) {
    if (uplo == 'U' || uplo == 'u') return true;
    if (uplo == 'L' || uplo == 'l') return false;
    fail<Error>(op, ": uplo must be 'U' or 'L', got '", uplo, "'");
}

} // namespace detail

// Solves A X = B (A: n x n; B: n x k, or n giving a 1-D X). Returns X and the LU
// factors of A (Torch7's torch.gesv(B, A): the right-hand side comes first).
template <detail::LinalgScalar T, class D>
GesvResult<T, D> gesv(const Tensor<T, D>& B, const Tensor<T, D>& A) {
    detail::require_square(A, "gesv", "A");
    if ((B.dim() != 1 && B.dim() != 2) || B.size(0) != A.size(0))
        detail::fail<ShapeError>("gesv: B of size ", B.sizes(), " does not match A of size ",
                                 A.sizes(), " (B must be n or n x k with n = ", A.size(0), ")");
    detail::require_workspace<T>("gesv", detail::ws_add(detail::ws_of(2, A), detail::ws_of(3, B)));
    const auto lu = detail::checked_lu(A, "gesv");
    return {detail::lu_solve(lu, B), detail::matrix_tensor<T>(lu.matrixLU())};
}

// The inverse of a square, non-singular matrix.
template <detail::LinalgScalar T, class D>
Tensor<T, D> inverse(const Tensor<T, D>& A) {
    detail::require_square(A, "inverse", "the input");
    detail::require_workspace<T>("inverse", detail::ws_of(3, A));
    return detail::lu_inverse<T, D>(detail::checked_lu(A, "inverse"));
}

// Cholesky factor of a Hermitian (real: symmetric) positive-definite matrix, reading
// only the uplo triangle of A and the real part of its diagonal (as LAPACK's zpotrf):
// 'U' gives upper U with A = U^H U, 'L' lower L with A = L L^H (U^T U, L L^T if real).
template <detail::LinalgScalar T, class D>
Tensor<T, D> potrf(const Tensor<T, D>& A, char uplo = 'U') {
    detail::require_square(A, "potrf", "A");
    const bool upper = detail::upper_of(uplo, "potrf");
    detail::require_workspace<T>("potrf", detail::ws_of(3, A));
    // Eigen's LLT<Upper> factors A^T's lower triangle (A's upper one, not
    // conjugated) as L L^H and gives U = L^T: the same here, so that the values
    // are Eigen's to rounding. A^T and U are read and written as the transposes
    // of column-major matrices (a row-major A: plain copies; a transposing copy
    // of 1024^2 doubles took 60 ms).
    detail::EMatrix<T> w = detail::to_eigen(upper ? detail::cmat_ref(A).t() : detail::cmat_ref(A));
    detail::require_finite(w, "potrf", A);
    if (detail::eig::blocked_llt(w) >= 0)
        detail::fail<Error>("potrf: the matrix of size ", A.sizes(), " is not positive definite");
    w.template triangularView<Eigen::StrictlyUpper>().setZero();
    return upper ? detail::matrix_tensor<T>(w.transpose()) : detail::matrix_tensor<T>(w);
}

// Solves A X = B given potrf's factor of A (same uplo).
template <detail::LinalgScalar T, class D>
Tensor<T, D> potrs(const Tensor<T, D>& B, const Tensor<T, D>& chol, char uplo = 'U') {
    detail::require_square(chol, "potrs", "the Cholesky factor");
    if ((B.dim() != 1 && B.dim() != 2) || B.size(0) != chol.size(0))
        detail::fail<ShapeError>("potrs: B of size ", B.sizes(),
                                 " does not match the factor of size ", chol.sizes());
    const bool upper = detail::upper_of(uplo, "potrs");
    detail::require_workspace<T>("potrs",
                                 detail::ws_add(detail::ws_of(1, chol), detail::ws_of(1, B)));
    // U^H U X = B ('U'; U^T U for real U) or L L^H X = B: B's copy solved in place,
    // the factor read where it is (U^T and L^T are U's and L's triangles with the
    // strides swapped; conjugated for U^H and L^H).
    const Tensor<T, D> c = chol.contiguous();
    Tensor<T, D> x = B.clone();
    const int64_t n = c.size(0), k = B.dim() == 1 ? 1 : B.size(1);
    const int64_t lower_rs = upper ? 1 : n, lower_cs = upper ? n : 1; // U^T or L
    const bool cj = is_complex_v<T>;
    detail::eig::solve_rows(c.data(), lower_rs, lower_cs, true, false, upper && cj, n, x.data(), k);
    detail::eig::solve_rows(c.data(), lower_cs, lower_rs, false, false, !upper && cj, n, x.data(),
                            k);
    return x;
}

// The inverse of A given potrf's factor of A (same uplo).
template <detail::LinalgScalar T, class D>
Tensor<T, D> potri(const Tensor<T, D>& chol, char uplo = 'U') {
    detail::require_square(chol, "potri", "the Cholesky factor");
    return potrs(eye<T, D>(chol.size(0)), chol, uplo);
}

// Reduced QR: A (m x n) = Q R with Q m x k (orthonormal columns: Q^H Q = I), R k x n
// upper triangular, k = min(m, n) (Householder, as LAPACK's geqrf: signs unnormalised).
template <detail::LinalgScalar T, class D>
QRResult<T, D> qr(const Tensor<T, D>& A) {
    detail::require_dim(A, 2, "qr", "a matrix");
    detail::require_workspace<T>("qr", detail::ws_of(4, A));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "qr", A);
    const detail::eig::SerialEigen serial;
    const Eigen::Index rows = m.rows(), cols = m.cols(), k = std::min(rows, cols);
    Eigen::HouseholderQR<detail::EMatrix<T>> h(m);
    const detail::EMatrix<T> q = h.householderQ() * detail::EMatrix<T>::Identity(rows, k);
    const detail::EMatrix<T> r = h.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
    return {detail::matrix_tensor<T>(q), detail::matrix_tensor<T>(r)};
}

// Singular value decomposition A = U diag(S) V^H (V^T for real A; S is real either
// way). some = 'S': reduced (k = min(m, n) columns); 'A': U m x m and V n x n.
template <detail::LinalgScalar T, class D>
SVDResult<T, D> svd(const Tensor<T, D>& A, char some = 'S') {
    detail::require_dim(A, 2, "svd", "a matrix");
    if (some != 'S' && some != 'A')
        detail::fail<Error>("svd: mode must be 'S' (reduced) or 'A' (all), got '", some, "'");
    {
        const uint64_t r = uint64_t(A.size(0)), c = uint64_t(A.size(1)), k = std::min(r, c);
        const uint64_t uv = some == 'S'
                                ? detail::ws_mul(detail::ws_add(r, c), k)
                                : detail::ws_add(detail::ws_mul(r, r), detail::ws_mul(c, c));
        detail::require_workspace<T>("svd",
                                     detail::ws_add(detail::ws_of(3, A), detail::ws_mul(2, uv)));
    }
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "svd", A);
    const detail::eig::SerialEigen serial;
    const unsigned opts = some == 'S' ? Eigen::ComputeThinU | Eigen::ComputeThinV
                                      : Eigen::ComputeFullU | Eigen::ComputeFullV;
    Eigen::BDCSVD<detail::EMatrix<T>> s(m, opts);
    return {detail::matrix_tensor<T>(s.matrixU()),
            detail::vector_tensor<real_t<T>>(s.singularValues()),
            detail::matrix_tensor<T>(s.matrixV())};
}

// Eigenvalues (ascending) and, with jobz = 'V', orthonormal eigenvectors (columns)
// of a symmetric or, complex, Hermitian matrix, reading only its uplo triangle and
// the real part of its diagonal (LAPACK's zheev, numpy.linalg.eigh): the values are
// real, a Tensor<real_t<T>> (DoubleTensor for a ComplexDoubleTensor); the vectors T.
template <detail::LinalgScalar T, class D>
EigResult<T, D, real_t<T>> symeig(const Tensor<T, D>& A, char jobz = 'N', char uplo = 'U') {
    detail::require_square(A, "symeig", "A");
    if (jobz != 'N' && jobz != 'V')
        detail::fail<Error>("symeig: jobz must be 'N' or 'V', got '", jobz, "'");
    const bool upper = detail::upper_of(uplo, "symeig");
    detail::require_workspace<T>("symeig", detail::ws_of(5, A));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "symeig", A);
    const detail::eig::SerialEigen serial;
    detail::EMatrix<T> s = upper ? detail::EMatrix<T>(m.template selfadjointView<Eigen::Upper>())
                                 : detail::EMatrix<T>(m.template selfadjointView<Eigen::Lower>());
    Eigen::SelfAdjointEigenSolver<detail::EMatrix<T>> es(s, jobz == 'V' ? Eigen::ComputeEigenvectors
                                                                        : Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success)
        detail::fail<Error>("symeig: the eigenvalue iteration did not converge for size ",
                            A.sizes());
    EigResult<T, D, real_t<T>> r{detail::vector_tensor<real_t<T>>(es.eigenvalues()),
                                 Tensor<T, D>()};
    if (jobz == 'V') r.vectors = detail::matrix_tensor<T>(es.eigenvectors());
    return r;
}

// Eigenvalues of a general square matrix as n x 2 (real, imaginary); with jobvr =
// 'V' also the eigenvectors as LAPACK's geev gives them: a real eigenvalue's vector
// is a column; for a complex pair (imaginary part > 0 first) columns j and j+1 hold
// the real and imaginary parts of the first one's vector. Each is of unit norm.
// A complex A gives its n eigenvalues as a complex vector and, with 'V', the unit
// eigenvectors as complex columns (Eigen's ComplexEigenSolver; LAPACK's zgeev).
template <detail::LinalgScalar T, class D>
EigResult<T, D> eig(const Tensor<T, D>& A, char jobvr = 'N') {
    detail::require_square(A, "eig", "A");
    if (jobvr != 'N' && jobvr != 'V')
        detail::fail<Error>("eig: jobvr must be 'N' or 'V', got '", jobvr, "'");
    detail::require_workspace<T>("eig", detail::ws_of(8, A));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "eig", A);
    const detail::eig::SerialEigen serial;
    if constexpr (is_complex_v<T>) {
        Eigen::ComplexEigenSolver<detail::EMatrix<T>> es(m, jobvr == 'V');
        if (es.info() != Eigen::Success)
            detail::fail<Error>("eig: the QR iteration did not converge for size ", A.sizes());
        EigResult<T, D> r{detail::vector_tensor<T>(es.eigenvalues()), Tensor<T, D>()};
        if (jobvr == 'V') r.vectors = detail::matrix_tensor<T>(es.eigenvectors());
        return r;
    } else {
        Eigen::EigenSolver<detail::EMatrix<T>> es(m, jobvr == 'V');
        if (es.info() != Eigen::Success)
            detail::fail<Error>("eig: the QR iteration did not converge for size ", A.sizes());
        const auto& ev = es.eigenvalues();
        const Eigen::Index n = ev.size();
        detail::EMatrix<T> vals(n, 2);
        for (Eigen::Index i = 0; i < n; ++i) vals.row(i) << ev(i).real(), ev(i).imag();
        EigResult<T, D> r{detail::matrix_tensor<T>(vals), Tensor<T, D>()};
        if (jobvr == 'V') {
            detail::EMatrix<T> v = es.pseudoEigenvectors();
            for (Eigen::Index j = 0; j < n; ++j) {
                if (ev(j).imag() != T(0) && j + 1 < n) { // a complex pair: normalise x + iy
                    const T nrm = std::sqrt(v.col(j).squaredNorm() + v.col(j + 1).squaredNorm());
                    v.col(j) /= nrm;
                    v.col(j + 1) /= nrm;
                    ++j;
                } else {
                    v.col(j).normalize();
                }
            }
            r.vectors = detail::matrix_tensor<T>(v);
        }
        return r;
    }
}

// Least squares (m >= n: minimises ||A X - B||) or minimum norm (m < n: the
// smallest X with A X = B) for A (real or complex) of full rank m x n; B is m x k
// or m. Returns X, n x k (or n). Rank-deficient A throws (as LAPACK's gels reports).
template <detail::LinalgScalar T, class D>
Tensor<T, D> gels(const Tensor<T, D>& B, const Tensor<T, D>& A) {
    detail::require_dim(A, 2, "gels", "a matrix A");
    if ((B.dim() != 1 && B.dim() != 2) || B.size(0) != A.size(0))
        detail::fail<ShapeError>("gels: B of size ", B.sizes(), " does not match A of size ",
                                 A.sizes(), " (B must have ", A.size(0), " rows)");
    detail::require_workspace<T>("gels", detail::ws_add(detail::ws_of(4, A), detail::ws_of(3, B)));
    const detail::EMatrix<T> m = detail::to_eigen(A);
    detail::require_finite(m, "gels", A);
    const detail::eig::SerialEigen serial;
    Eigen::CompleteOrthogonalDecomposition<detail::EMatrix<T>> cod(m);
    const Eigen::Index full = std::min(m.rows(), m.cols());
    if (cod.rank() < full)
        detail::fail<Error>("gels: A of size ", A.sizes(), " does not have full rank (rank ",
                            cod.rank(), " < ", full, ")");
    const detail::EMatrix<T> x = cod.solve(detail::to_eigen(B));
    return B.dim() == 1 ? detail::vector_tensor<T>(x.col(0)) : detail::matrix_tensor<T>(x);
}

} // namespace t7
