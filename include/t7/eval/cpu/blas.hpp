// Blas<CPU>: the matrix products of math/blas.hpp on CPU tensors, through Eigen's
// GEMM/GEMV (the interface is documented there). A strided operand is mapped as an
// Eigen matrix with the storage order that makes its unit stride the inner one (a
// transposed row-major matrix is a column-major map); it is copied only when
// neither of its strides is 1. Integer types are supported (dot accumulates in
// int64); Half throws TypeError (its products run on CUDA tensors).
// Included by <t7/t7.hpp>; not by <t7/cuda.hpp>, which keeps Eigen out of nvcc.
#pragma once

#include "../../core/error.hpp"
#include "../../iter/loop.hpp"
#include "../../iter/parallel.hpp"
#include "../../math/blas.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace t7::detail {

namespace eig {

enum class Order { row, col, none };

// Storage order in which m is a plain Eigen map (unit inner stride, rows that
// do not overlap), or none.
template <class T>
Order order(const MatRef<T>& m) {
    if ((m.cs == 1 || m.cols == 1) && (m.rows == 1 || m.rs >= m.cols)) return Order::row;
    if ((m.rs == 1 || m.rows == 1) && (m.cols == 1 || m.cs >= m.rows)) return Order::col;
    return Order::none;
}

template <class T, int O>
using Map = Eigen::Map<Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic, Eigen::Dynamic, O>,
                       Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T, int O>
using CMap =
    Eigen::Map<const Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic, Eigen::Dynamic, O>,
               Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// f(map) with m as an Eigen map of its own order (m must not be Order::none).
template <class T, class F>
decltype(auto) with_map(const MatRef<const T>& m, F&& f) {
    if (order(m) == Order::row)
        return f(CMap<T, Eigen::RowMajor>(m.data, m.rows, m.cols,
                                          Eigen::OuterStride<>(m.rows == 1 ? m.cols : m.rs)));
    return f(CMap<T, Eigen::ColMajor>(m.data, m.rows, m.cols,
                                      Eigen::OuterStride<>(m.cols == 1 ? m.rows : m.cs)));
}
template <class T>
Map<T, Eigen::RowMajor> row_map(const MatRef<T>& m) {
    return Map<T, Eigen::RowMajor>(m.data, m.rows, m.cols,
                                   Eigen::OuterStride<>(m.rows == 1 ? m.cols : m.rs));
}

// A contiguous copy of a matrix whose strides Eigen cannot express.
template <class T>
RowMatrix<T> gather(const MatRef<const T>& m) {
    RowMatrix<T> r(m.rows, m.cols);
    for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = 0; j < m.cols; ++j) r(i, j) = m.data[i * m.rs + j * m.cs];
    return r;
}
template <class T>
MatRef<const T> ref(const RowMatrix<T>& m) {
    return {m.data(), m.rows(), m.cols(), m.cols(), 1};
}

template <class T>
Vector<T> gather(const VecRef<const T>& v) {
    Vector<T> r(v.n);
    for (int64_t i = 0; i < v.n; ++i) r(i) = v.data[i * v.inc];
    return r;
}

// C = beta C + alpha A B for integer types, in the unsigned type of the same
// width (at least 32 bits): products and sums wrap modulo 2^N as the
// element-wise arithmetic does (Eigen's products of signed integers overflow,
// undefined behaviour). Any strides; beta == 0 ignores C's values.
template <class T>
void int_gemm(T alpha, const MatRef<const T>& A, const MatRef<const T>& B, T beta,
              const MatRef<T>& C) {
    using U = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
    const int64_t m = C.rows, n = C.cols, k = A.cols;
    std::vector<U> acc(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
        std::fill(acc.begin(), acc.end(), U(0));
        for (int64_t p = 0; p < k; ++p) {
            const U a = U(A.data[i * A.rs + p * A.cs]);
            const T* b = B.data + p * B.rs;
            for (int64_t j = 0; j < n; ++j) acc[size_t(j)] += a * U(b[j * B.cs]);
        }
        T* c = C.data + i * C.rs;
        for (int64_t j = 0; j < n; ++j) {
            const U prev = beta == T(0) ? U(0) : U(beta) * U(c[j * C.cs]);
            c[j * C.cs] = T(prev + U(alpha) * acc[size_t(j)]);
        }
    }
}

// Eigen's GEMM threads follow t7::setNumThreads (called outside parallel regions).
inline void sync_threads() {
    const int n = getNumThreads();
    if (Eigen::nbThreads() != n) Eigen::setNbThreads(n);
}

} // namespace eig

template <>
struct Blas<CPU> {
    // C = beta C + alpha A B (C is m x n, A m x k, B k x n). C must not overlap A or
    // B; beta == 0 ignores C's values (BLAS semantics: NaN there does not leak).
    template <class T>
    static void gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        require_eigen_type<T>("matrix product");
        if constexpr (eigen_type<T>) {
            eig::sync_threads();
            gemm_impl(alpha, A, B, beta, C);
        }
    }

    // gemm leaving Eigen's thread count as it is: for a caller that has set it
    // (Eigen stays single-threaded inside a parallel region, e.g. a panel of a
    // pending product, eval/cpu/product_blocks.hpp).
    template <class T>
    static void gemm_unsynced(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        require_eigen_type<T>("matrix product");
        if constexpr (eigen_type<T>) gemm_impl(alpha, A, B, beta, C);
    }

    // y = beta y + alpha A x (A m x n).
    template <class T>
    static void gemv(T alpha, MatRef<const T> A, VecRef<const T> x, T beta, VecRef<T> y) {
        require_eigen_type<T>("matrix-vector product");
        if constexpr (int_type<T>) { // wrapping, y as an n x 1 matrix
            eig::int_gemm(alpha, A, MatRef<const T>{x.data, x.n, 1, x.inc, 1}, beta,
                          MatRef<T>{y.data, y.n, 1, y.inc, 1});
        } else if constexpr (eigen_type<T>) {
            using namespace eig;
            sync_threads();
            RowMatrix<T> ta;
            if (order(A) == Order::none) {
                ta = gather(A);
                A = ref(ta);
            }
            Vector<T> tx;
            if (x.inc != 1 && x.n > 1) {
                tx = gather(x);
                x = {tx.data(), x.n, 1};
            }
            Vector<T> ty;
            VecRef<T> out = y;
            if (y.inc != 1 && y.n > 1) {
                ty = Vector<T>(y.n);
                for (int64_t i = 0; i < y.n && beta != T(0); ++i) ty(i) = y.data[i * y.inc];
                out = {ty.data(), y.n, 1};
            }
            Eigen::Map<const Vector<T>> xm(x.data, x.n);
            Eigen::Map<Vector<T>> ym(out.data, out.n);
            if (beta == T(0))
                ym.setZero();
            else if (beta != T(1))
                ym *= beta;
            with_map(A, [&](const auto& a) { ym.noalias() += alpha * a * xm; });
            if (out.data != y.data)
                for (int64_t i = 0; i < y.n; ++i) y.data[i * y.inc] = ty(i);
        }
    }

    // M = beta M + alpha x y^T (M m x n); beta == 0 ignores M's values.
    template <class T>
    static void ger(T alpha, VecRef<const T> x, VecRef<const T> y, T beta, MatRef<T> M) {
        require_eigen_type<T>("outer product");
        if constexpr (int_type<T>) { // wrapping: x (m x 1) times y^T (1 x n)
            eig::int_gemm(alpha, MatRef<const T>{x.data, x.n, 1, x.inc, 1},
                          MatRef<const T>{y.data, 1, y.n, y.n * y.inc, y.inc}, beta, M);
        } else if constexpr (eigen_type<T>) {
            using namespace eig;
            if (order(M) == Order::col) return ger(alpha, y, x, beta, M.t());
            Vector<T> tx = gather(x), ty = gather(y);
            auto update = [&](auto&& m) {
                if (beta == T(0))
                    m.setZero();
                else if (beta != T(1))
                    m *= beta;
                m.noalias() += alpha * tx * ty.transpose();
            };
            if (order(M) == Order::none) {
                RowMatrix<T> tmp =
                    beta == T(0) ? RowMatrix<T>(M.rows, M.cols)
                                 : gather(MatRef<const T>{M.data, M.rows, M.cols, M.rs, M.cs});
                update(tmp);
                for (int64_t i = 0; i < M.rows; ++i)
                    for (int64_t j = 0; j < M.cols; ++j) M.data[i * M.rs + j * M.cs] = tmp(i, j);
                return;
            }
            update(row_map(M));
        }
    }

    // Sum of x[i] y[i]: T for floating types, accumulated in int64 for integers.
    template <class T>
    static dot_result_t<T> dot(VecRef<const T> x, VecRef<const T> y) {
        require_eigen_type<T>("dot");
        if constexpr (std::is_integral_v<T>) {
            uint64_t s = 0; // wraps modulo 2^64, never overflows
            for (int64_t i = 0; i < x.n; ++i)
                s += uint64_t(int64_t(x.data[i * x.inc])) * uint64_t(int64_t(y.data[i * y.inc]));
            return int64_t(s);
        } else if constexpr (eigen_type<T>) {
            using namespace eig;
            if (x.inc == 1 && y.inc == 1)
                return Eigen::Map<const Vector<T>>(x.data, x.n)
                    .dot(Eigen::Map<const Vector<T>>(y.data, y.n));
            using S = Eigen::Map<const Vector<T>, 0, Eigen::InnerStride<>>;
            return S(x.data, x.n, Eigen::InnerStride<>(x.inc))
                .dot(S(y.data, y.n, Eigen::InnerStride<>(y.inc)));
        } else {
            return {};
        }
    }

    // C[b] = beta C[b] + alpha A[b] B[b] for every index b of `batch`; the k-th
    // operand's matrix b starts at its base + (offsets along `batch` strides).
    template <class T>
    static void batched_gemm(T alpha, const Shape& batch, MatRef<const T> A, const Shape& sa,
                             MatRef<const T> B, const Shape& sb, T beta, MatRef<T> C,
                             const Shape& sc) {
        require_eigen_type<T>("batched matrix product");
        if constexpr (eigen_type<T>) {
            eig::sync_threads();
            const iter::Loop<3> L = iter::make_loop<3>(batch, {&sa, &sb, &sc}, false);
            // Small matrices: one per thread. Large ones: Eigen threads each product.
            const bool per_thread = L.numel > 1 && A.rows * A.cols * B.cols < 96 * 96 * 96;
            auto body = [&](int64_t b, int64_t e, int64_t) {
                iter::for_each_run(L, b, e, [&](const std::array<int64_t, 3>& off, int64_t n) {
                    for (int64_t j = 0; j < n; ++j) {
                        MatRef<const T> a = A, bb = B;
                        MatRef<T> c = C;
                        a.data += off[0] + j * L.inner_stride(0);
                        bb.data += off[1] + j * L.inner_stride(1);
                        c.data += off[2] + j * L.inner_stride(2);
                        gemm_impl(alpha, a, bb, beta, c);
                    }
                });
            };
            if (per_thread)
                iter::parallel_for(L.numel, 1, body);
            else
                body(0, L.numel, 0);
        }
    }

private:
    // Eigen computes the seven Torch7 types; Half is a CUDA type here.
    template <class T>
    static constexpr bool eigen_type = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
    // Integer products wrap (eig::int_gemm), never through Eigen's signed arithmetic.
    template <class T>
    static constexpr bool int_type = std::is_integral_v<T> && !std::is_same_v<T, bool>;
    template <class T>
    static void require_eigen_type(const char* op) {
        if constexpr (!eigen_type<T>)
            fail<TypeError>(op, ": CPU matrix products take the seven Torch7 types, not ",
                            torch_type_name<T, CPU>("Tensor"),
                            " (Half products run on CUDA tensors; convert with to<float>())");
    }

    // gemm without syncing Eigen's thread count (batched_gemm calls it from its threads).
    template <class T>
    static void gemm_impl(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        using namespace eig;
        if constexpr (int_type<T>) {
            int_gemm(alpha, A, B, beta, C);
            return;
        }
        const Order oc = order(C);
        if (oc == Order::col) // C^T = B^T A^T with C^T row-major
            return gemm_impl(alpha, B.t(), A.t(), beta, C.t());
        if (oc == Order::none) { // into a contiguous temporary, then back
            RowMatrix<T> tmp(C.rows, C.cols);
            for (int64_t i = 0; i < C.rows && beta != T(0); ++i)
                for (int64_t j = 0; j < C.cols; ++j) tmp(i, j) = C.data[i * C.rs + j * C.cs];
            gemm_impl(alpha, A, B, beta, MatRef<T>{tmp.data(), C.rows, C.cols, C.cols, 1});
            for (int64_t i = 0; i < C.rows; ++i)
                for (int64_t j = 0; j < C.cols; ++j) C.data[i * C.rs + j * C.cs] = tmp(i, j);
            return;
        }
        RowMatrix<T> ta, tb;
        if (order(A) == Order::none) {
            ta = gather(A);
            A = ref(ta);
        }
        if (order(B) == Order::none) {
            tb = gather(B);
            B = ref(tb);
        }
        auto c = row_map(C);
        if (beta == T(0))
            c.setZero();
        else if (beta != T(1))
            c *= beta;
        with_map(A, [&](const auto& a) {
            with_map(B, [&](const auto& b) { c.noalias() += alpha * a * b; });
        });
    }
};

} // namespace t7::detail
