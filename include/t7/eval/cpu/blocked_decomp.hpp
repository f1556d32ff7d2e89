// Blocked Cholesky and LU factorisations for potrf, gesv and inverse
// (math/linalg.hpp), their products on tensor7's pool (issue 43). Eigen's LLT and
// PartialPivLU run their trailing updates through Eigen's public products, which
// start an OpenMP team: on a busy machine each of its barriers waits out a parked
// thread's time slice. Here are the same right-looking algorithms, step for step
// (Eigen's block sizes, its unblocked kernels on the diagonal blocks and panels),
// with each step's update cut into parts of columns fixed by the shape alone, each
// part one single-threaded Eigen call (TRSM, GEMM through Eigen's kernel entry
// point, which never starts a team): the values are Eigen's to rounding, and
// the same bits at any thread count.
#pragma once

#include "../../iter/parallel.hpp"
#include "blas.hpp"
#include "gemm_packed.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace t7::detail::eig {

template <class T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using ColMap = Eigen::Map<ColMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

// Columns (rows of a TRSM on the right) per part of a step's update: each part
// repacks the step's panel (its cost over the part's multiply-adds: 1/64), and a
// two-thread loop has a few parts per thread, so that a helper the scheduler
// parks holds little of the step.
inline constexpr int64_t decomp_part = 64;

// The grains of a step's `work` multiply-adds: parallel_split's chunk count.
inline int64_t part_grains(double work) {
    return int64_t(std::min(work / double(gemm_grain_work), 1e9));
}
// Whether for_parts would split `parts` parts of `work` over the pool: what a
// factorisation's iter::Linger is conditioned on (its largest step's loop), so
// that a small one, all on the calling thread, holds no spinning helper.
inline bool parts_pooled(int64_t parts, double work) { return parts > 1 && part_grains(work) > 1; }

// f(p) for parts p of [0, parts), on the pool for `work` multiply-adds (the
// products' grain: a step of little work stays on the calling thread). A part's
// TRSM and GEMM are BLAS calls with EIGEN_USE_BLAS: single-threaded (SerialBlas).
template <class F>
void for_parts(int64_t parts, double work, F&& f) {
    iter::parallel_split(parts, part_grains(work), [&](int64_t p0, int64_t p1, int64_t) {
        [[maybe_unused]] SerialBlas serial;
        for (int64_t p = p0; p < p1; ++p) f(p);
    });
}

// C += alpha A op(B) on the calling thread (never an OpenMP team): C m x n and A
// m x k column-major (leading dimensions ldc, lda); B k x n of storage order RO
// (leading dimension ldb), conjugated when CB.
template <class T, int RO, bool CB>
void gemm_col(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
              int64_t ldb, T* c, int64_t ldc) {
    if (m <= 0 || n <= 0 || k <= 0) return;
    [[maybe_unused]] SerialBlas serial;
    pk::gemm_blocking_space<Eigen::ColMajor, T, T, Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic,
                            1, false>
        blocking(m, n, k, 1, true);
    pk::general_matrix_matrix_product<Eigen::Index, T, Eigen::ColMajor, false, T, RO, CB,
                                      Eigen::ColMajor, 1>::run(m, n, k, a, lda, b, ldb, c, 1, ldc,
                                                               alpha, blocking, nullptr);
}

// Cholesky factor L (A = L L^H) of the lower triangle of w (column-major, n x n,
// the real part of its diagonal), in place: Eigen's LLT<Lower> step for step.
// Returns -1, or the index of the pivot that is not positive (w is then partly
// overwritten). The strict upper triangle is left with garbage: callers read
// the lower one.
template <class T>
Eigen::Index blocked_llt(ColMatrix<T>& w) {
    using Llt = Eigen::internal::llt_inplace<T, Eigen::Lower>;
    const int64_t n = w.rows();
    if (n < 32) return Llt::unblocked(w);
    const int64_t bs = std::clamp<int64_t>(n / 8 / 16 * 16, 8, 128);
    T* d = w.data();
    const int64_t r0 = n - bs; // the first step's update: the largest
    const iter::Linger linger(parts_pooled((r0 + decomp_part - 1) / decomp_part,
                                           double(r0) * double(r0) * double(bs) / 2));
    for (int64_t k = 0; k < n; k += bs) {
        const int64_t b = std::min(bs, n - k), r = n - k - b;
        auto a11 = w.block(k, k, b, b);
        if (const Eigen::Index ret = Llt::unblocked(a11); ret >= 0) return k + ret;
        if (r == 0) break;
        const int64_t parts = (r + decomp_part - 1) / decomp_part;
        // L21 = A21 L11^-H: rows of it are independent.
        for_parts(parts, double(r) * double(b) * double(b) / 2, [&](int64_t p) {
            const int64_t i0 = p * decomp_part, i1 = std::min(r, i0 + decomp_part);
            auto a21 = w.block(k + b + i0, k, i1 - i0, b);
            a11.adjoint()
                .template triangularView<Eigen::Upper>()
                .template solveInPlace<Eigen::OnTheRight>(a21);
        });
        // A22 -= L21 L21^H on and below the diagonal, by columns [c0, c1): rows
        // [c0, r) of them (the part's square on the diagonal computed whole).
        for_parts(parts, double(r) * double(r) * double(b) / 2, [&](int64_t p) {
            const int64_t c0 = p * decomp_part, c1 = std::min(r, c0 + decomp_part);
            const T* l = d + (k + b + c0) + k * n;
            gemm_col<T, Eigen::RowMajor, is_complex_v<T>>(r - c0, c1 - c0, b, T(-1), l, n, l, n,
                                                          d + (k + b + c0) * (n + 1), n);
        });
    }
    return -1;
}

// P A = L U in place, with partial pivoting (column-major, rows >= cols, leading
// dimension ld): Eigen's partial_lu_impl::blocked_lu step for step (its block
// sizes, its panels of at most `max_block` columns factored recursively with
// blocks of 16, its unblocked_lu below 17 columns). A step's update of the
// columns right of its panel (row swaps, TRSM, GEMM) runs by parts of columns,
// on the pool when `threaded`. piv[i]: the row swapped with row i (absolute);
// swaps: how many of them differ from i. Returns -1, or the first exactly zero
// pivot's index (the factorisation goes on past it, as Eigen's).
template <class T>
Eigen::Index blocked_lu(int64_t rows, int64_t cols, T* lu, int64_t ld, int* piv, int& swaps,
                        int64_t max_block, bool threaded) {
    using Impl = Eigen::internal::partial_lu_impl<T, Eigen::ColMajor, int>;
    const int64_t size = std::min(rows, cols);
    if (size <= Impl::UnBlockedBound) {
        typename Impl::MatrixTypeRef ref =
            Impl::MatrixType::Map(lu, rows, cols, Eigen::OuterStride<>(ld));
        return Impl::unblocked_lu(ref, piv, swaps);
    }
    const int64_t bs = std::clamp<int64_t>(size / 8 / 16 * 16, 8, max_block);
    swaps = 0;
    const iter::Linger linger(threaded); // a loop a step
    Eigen::Index first_zero = -1;
    for (int64_t k = 0; k < size; k += bs) {
        const int64_t b = std::min(size - k, bs), trows = rows - k - b, tsize = size - k - b;
        int panel_swaps = 0;
        const Eigen::Index ret =
            blocked_lu(trows + b, b, lu + k + k * ld, ld, piv + k, panel_swaps, 16, false);
        if (ret >= 0 && first_zero == -1) first_zero = k + ret;
        swaps += panel_swaps;
        for (int64_t i = k; i < k + b; ++i) piv[i] += int(k);
        // The panel's swaps on the columns left of it, in order.
        for (int64_t j = 0; j < k; ++j)
            for (int64_t i = k; i < k + b; ++i) std::swap(lu[i + j * ld], lu[piv[i] + j * ld]);
        if (trows == 0 || tsize == 0) continue;
        const ColMap<T> a11(lu + k + k * ld, b, b, Eigen::OuterStride<>(ld));
        auto part = [&](int64_t p) {
            const int64_t c0 = k + b + p * decomp_part,
                          c1 = std::min(k + b + tsize, c0 + decomp_part);
            for (int64_t j = c0; j < c1; ++j)
                for (int64_t i = k; i < k + b; ++i) std::swap(lu[i + j * ld], lu[piv[i] + j * ld]);
            ColMap<T> a12(lu + k + c0 * ld, b, c1 - c0, Eigen::OuterStride<>(ld));
            a11.template triangularView<Eigen::UnitLower>().solveInPlace(a12);
            gemm_col<T, Eigen::ColMajor, false>(trows, c1 - c0, b, T(-1), lu + (k + b) + k * ld, ld,
                                                a12.data(), ld, lu + (k + b) + c0 * ld, ld);
        };
        const int64_t parts = (tsize + decomp_part - 1) / decomp_part;
        if (threaded)
            for_parts(parts, double(trows) * double(tsize) * double(b), part);
        else
            for (int64_t p = 0; p < parts; ++p) part(p);
    }
    return first_zero;
}

// Eigen's PartialPivLU of a square matrix factored by blocked_lu: its solve,
// rcond, inverse and matrixLU as Eigen's own (the members it fills are those
// of PartialPivLU::compute, protected for such derived classes).
template <class T>
class PoolPartialPivLU : public Eigen::PartialPivLU<ColMatrix<T>> {
    using Base = Eigen::PartialPivLU<ColMatrix<T>>;

public:
    explicit PoolPartialPivLU(ColMatrix<T> a) {
        using Real = typename Base::RealScalar;
        this->m_lu = std::move(a);
        const int64_t n = this->m_lu.rows();
        this->m_l1_norm = n > 0 ? this->m_lu.cwiseAbs().colwise().sum().maxCoeff() : Real(0);
        this->m_rowsTranspositions.resize(n);
        int swaps = 0;
        if (n > 0)
            blocked_lu(n, n, this->m_lu.data(), n, this->m_rowsTranspositions.indices().data(),
                       swaps, 256, true);
        this->m_det_p = swaps % 2 ? -1 : 1;
        this->m_p = this->m_rowsTranspositions;
        this->m_isInitialized = true;
    }

    // PartialPivLU::rcond's estimate (the same algorithm and values) without its
    // copies: Eigen's estimator solves through dec.adjoint(), a Transpose that
    // holds a copy of the whole decomposition (four of them: 60 ms at 1024^2
    // doubles, three times the factorisation).
    typename Base::RealScalar rcond() const {
        return Eigen::internal::rcond_estimate_helper(this->m_l1_norm, Solver{*this, false});
    }

private:
    // What the estimator asks of a decomposition: solves with A or A^H.
    struct Solver {
        using MatrixType = ColMatrix<T>;
        using Scalar = T;
        using RealScalar = typename Base::RealScalar;
        const Base& lu;
        bool adjoint_;
        Eigen::Index rows() const { return lu.rows(); }
        Eigen::Index cols() const { return lu.cols(); }
        Solver adjoint() const { return {lu, !adjoint_}; }
        template <class V>
        Eigen::Matrix<T, Eigen::Dynamic, 1> solve(const V& b) const {
            if (!adjoint_) return lu.solve(b);
            // A^H = U^H L^H P: as PartialPivLU::_solve_impl_transposed<true>
            Eigen::Matrix<T, Eigen::Dynamic, 1> x = b;
            const auto& f = lu.matrixLU();
            f.template triangularView<Eigen::Upper>().adjoint().solveInPlace(x);
            f.template triangularView<Eigen::UnitLower>().adjoint().solveInPlace(x);
            return lu.permutationP().transpose() * x;
        }
    };
};

// Rows of a diagonal block of blocked_trsm, and the fewest right-hand sides for
// which it beats Eigen's TRSM (Zen 3, doubles, n 512 and 1024, one thread: 0.5-0.8x
// below 16 right-hand sides, 0.9-1.0x at 16 and 32, at par at 64, 1.15-1.35x from
// 256; bench/RESULTS.md).
inline constexpr int64_t trsm_block = 128;
inline constexpr int64_t trsm_min_rhs = 64;

template <class T>
using RowMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
                          Eigen::Unaligned, Eigen::OuterStride<>>;

// X = T^-1 X for float and double: T n x n triangular (lower, or upper), read at t
// with strides (rs, cs) (A^T: A's strides swapped), its diagonal taken as ones
// when `unit`; X n x k row-major at x (a tensor's own layout, rows k apart).
// Left-looking by blocks of trsm_block rows (lower: from
// the top; upper: from the bottom): a block's rows first take the solved rows'
// part, one product over all the right-hand sides (tensor7's GEMM on the pool),
// then its own solve, Eigen's TRSM by parts of columns on a column-major copy of
// the diagonal block. Eigen's TRSM makes the same updates through its GEMM
// kernel in panels of the right-hand sides, each packing the triangle again: 47
// ms against 38 ms here for 1024^2 doubles and 1024 right-hand sides, one thread
// (57 against 25 on two; right-looking updates were as fast on one thread, 5-15
// % slower on two). The bits do not depend on the thread count (fixed blocks
// and parts, gemm_packed's own split).
template <class T>
void blocked_trsm(const T* t, int64_t rs, int64_t cs, bool lower, bool unit, int64_t n, T* x,
                  int64_t k) {
    ColMatrix<T> diag(std::min(n, trsm_block), std::min(n, trsm_block));
    const int64_t blocks = (n + trsm_block - 1) / trsm_block;
    // A product and a loop a step; the last step's product is the largest.
    const int64_t ib0 = std::min(n, trsm_block);
    const iter::Linger linger(gemm_parts(ib0, k, n - ib0) > 1 ||
                              parts_pooled((k + decomp_part - 1) / decomp_part,
                                           double(ib0) * double(ib0) * double(k) / 2));
    for (int64_t step = 0; step < blocks; ++step) {
        const int64_t b = lower ? step : blocks - 1 - step;
        const int64_t i0 = b * trsm_block, ib = std::min(trsm_block, n - i0);
        // X[block] -= T[block, solved] X[solved]
        const int64_t s0 = lower ? 0 : i0 + ib, solved = lower ? i0 : n - i0 - ib;
        const T* ts = t + i0 * rs + s0 * cs;
        if (solved > 0)
            gemm_packed(ib, k, solved, T(-1), ts, rs, cs, x + s0 * k, k, int64_t(1), T(1),
                        x + i0 * k, k, gemm_parts(ib, k, solved) > 1);
        auto d = diag.topLeftCorner(ib, ib);
        for (int64_t c = 0; c < ib; ++c)
            for (int64_t r = 0; r < ib; ++r) d(r, c) = t[(i0 + r) * rs + (i0 + c) * cs];
        if (unit) d.diagonal().setOnes();
        for_parts((k + decomp_part - 1) / decomp_part, double(ib) * double(ib) * double(k) / 2,
                  [&](int64_t p) {
                      const int64_t c0 = p * decomp_part, cols = std::min(k - c0, decomp_part);
                      RowMap<T> xp(x + i0 * k + c0, ib, cols, Eigen::OuterStride<>(k));
                      if (lower)
                          d.template triangularView<Eigen::Lower>().solveInPlace(xp);
                      else
                          d.template triangularView<Eigen::Upper>().solveInPlace(xp);
                  });
    }
}

// Whether blocked_trsm serves a solve of n unknowns with k right-hand sides (not
// with -Dblas=true: the BLAS's TRSM is called then).
template <class T>
constexpr bool blocked_trsm_fits(int64_t n, int64_t k) {
#if defined(EIGEN_USE_BLAS)
    return false;
#else
    return !is_complex_v<T> && n > 2 * trsm_block && k >= trsm_min_rhs;
#endif
}

template <class T>
using ConstRowMap =
    Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
               Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T>
using ConstColMap = Eigen::Map<const ColMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

// X = T^-1 X, or conj(T)^-1 X when `conj`, for every type and size, in place and
// without a copy: T n x n triangular (lower, or upper) read at t with strides
// (rs, cs), one of them 1 (a contiguous matrix; its transpose is the strides
// swapped), its diagonal taken as ones when `unit`; X n x k row-major at x (a
// tensor's own layout, rows k apart). By blocked_trsm where it fits, else Eigen's
// TRSM on maps of the memory, the right-hand sides in parts of decomp_part on the
// pool, or Eigen's vector solve for one. (Copying T and X column-major first took
// 3x Eigen's own solve at 32^2 and 256^2.) The bits do not depend on the thread
// count.
template <class T>
void solve_rows(const T* t, int64_t rs, int64_t cs, bool lower, bool unit,
                [[maybe_unused]] bool conj, int64_t n, T* x, int64_t k) {
    if (n == 0 || k == 0) return;
    if constexpr (!is_complex_v<T>)
        if (blocked_trsm_fits<T>(n, k)) return blocked_trsm(t, rs, cs, lower, unit, n, x, k);
    // conj(T) X = B is T conj(X) = conj(B): X conjugated before and after (a pass
    // over X, not Eigen's solve instantiated once more for each conjugated mode).
    auto flip = [&] {
        if constexpr (is_complex_v<T>)
            if (conj) {
                auto xs = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(x, n * k);
                xs = xs.conjugate();
            }
    };
    auto solve = [&](const auto& tm) {
        auto in_place = [&](auto&& xp) {
            if (lower && unit)
                tm.template triangularView<Eigen::UnitLower>().solveInPlace(xp);
            else if (lower)
                tm.template triangularView<Eigen::Lower>().solveInPlace(xp);
            else if (unit)
                tm.template triangularView<Eigen::UnitUpper>().solveInPlace(xp);
            else
                tm.template triangularView<Eigen::Upper>().solveInPlace(xp);
        };
        // One right-hand side: Eigen's vector solve, no packing (2.4-4x its TRSM
        // on one column at n 32-1024, Zen 3).
        if (k == 1) return in_place(Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(x, n));
        for_parts((k + decomp_part - 1) / decomp_part, double(n) * double(n) * double(k) / 2,
                  [&](int64_t p) {
                      const int64_t c0 = p * decomp_part, cols = std::min(k - c0, decomp_part);
                      in_place(RowMap<T>(x + c0, n, cols, Eigen::OuterStride<>(k)));
                  });
    };
    flip();
    if (cs == 1)
        solve(ConstRowMap<T>(t, n, n, Eigen::OuterStride<>(rs)));
    else
        solve(ConstColMap<T>(t, n, n, Eigen::OuterStride<>(cs)));
    flip();
}

} // namespace t7::detail::eig
