// Blas<CPU>: the matrix products of math/blas.hpp on CPU tensors (the interface
// is documented there): float and double through tensor7's own GEMM
// (gemm_packed.hpp) and skinny kernels (gemm_kernels.hpp), the complex types
// (and every type with -Dblas=true) through Eigen's GEMM, vectors through GEMV.
// A strided operand is mapped as an Eigen matrix with the storage order that
// makes its unit stride the inner one (a transposed row-major matrix is a
// column-major map); it is copied only when neither of its strides is 1.
// Integer types are supported (dot accumulates in int64); Half throws TypeError
// (its products run on CUDA tensors).
// Included by <t7/t7.hpp>; not by <t7/cuda.hpp>, which keeps Eigen out of nvcc.
#pragma once

#include "../../core/error.hpp"
#include "../../iter/loop.hpp"
#include "../../iter/parallel.hpp"
#include "../../math/blas.hpp"
#include "gemm_kernels.hpp"
#include "gemm_packed.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <complex>
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

// Leading dimension of a matrix of order row or col, as Eigen maps it.
template <class T>
int64_t lead(const MatRef<T>& m) {
    if (order(m) == Order::row) return m.rows == 1 ? m.cols : m.rs;
    return m.cols == 1 ? m.rows : m.cs;
}

// C += alpha A B on the calling thread, never with an OpenMP team: C of order
// row, A and B of order row or col (not none); m, n, k > 0. A vector result or a
// tiny product through Eigen's expressions (GEMV and the coefficient loop,
// never threaded); any other through gemm_call (gemm_kernels.hpp).
template <class T>
void gemm_serial(T alpha, const MatRef<const T>& A, const MatRef<const T>& B, const MatRef<T>& C) {
    const int64_t m = C.rows, n = C.cols, k = A.cols;
    if (m == 1 || n == 1 || m + n + k < 20) {
        [[maybe_unused]] SerialBlas serial; // (GEMV: a BLAS call with EIGEN_USE_BLAS)
        auto c = row_map(C);
        with_map(A, [&](const auto& a) {
            with_map(B, [&](const auto& b) { c.noalias() += alpha * a * b; });
        });
        return;
    }
    constexpr int R = Eigen::RowMajor, K = Eigen::ColMajor;
    const bool ar = order(A) == Order::row, br = order(B) == Order::row;
    const int64_t la = lead(A), lb = lead(B), lc = m == 1 ? n : C.rs;
    if (ar && br)
        gemm_call<T, R, R>(m, n, k, alpha, A.data, la, B.data, lb, C.data, lc);
    else if (ar)
        gemm_call<T, R, K>(m, n, k, alpha, A.data, la, B.data, lb, C.data, lc);
    else if (br)
        gemm_call<T, K, R>(m, n, k, alpha, A.data, la, B.data, lb, C.data, lc);
    else
        gemm_call<T, K, K>(m, n, k, alpha, A.data, la, B.data, lb, C.data, lc);
}

// (The complex types, and -Dblas=true; float and double from the size of two
// parts up split gemm_packed's rows over the pool.)
// A product's work (multiply-adds) per part, and parts at most: a product of
// m n k multiply-adds is cut into parts of rows of C (columns when n > m), as
// many as fixed by its shape alone (so that its bits do not depend on the
// thread count), each one gemm_serial, which packs its own block of A (or B)
// and all of B (or A): few parts, each long enough for that repacking to cost
// little. Below gemm_part_work * 2 (about 128^3) one part: on the calling thread.
// Parts of at least 128 rows (64 before: 512^3 in 8 parts cost 1.07-1.11x one
// GEMM): 512^3 1.92-1.99 ms at one thread against 2.02-2.26, 1.08-1.25 ms at two
// against 1.23-1.43 (bench_products, quiet, 2026-11-30).
inline constexpr int64_t gemm_part_work = int64_t(1) << 21;
inline constexpr int64_t gemm_max_parts = 8;

inline int64_t gemm_parts(int64_t m, int64_t n, int64_t k) {
    const double work = double(m) * double(n) * double(k);
    const int64_t by_work = int64_t(std::min(work / double(gemm_part_work), 1e9));
    return std::clamp<int64_t>(std::min(by_work, std::max(m, n) / 128), 1, gemm_max_parts);
}

// cpu_gemm for C of at most 16 rows (A m x k small, B k x n large, of a unit
// stride; C of any strides): B streamed once through the skinny kernels,
// columns of C split over the pool when `threaded`.
template <class T>
void skinny(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C, bool threaded) {
    const int64_t m = C.rows, n = C.cols, k = A.cols;
    // Work: B's bytes, and the multiply-adds of more than a few rows of A.
    const int64_t grains = int64_t(double(n) * double(k) * double(sizeof(T)) *
                                   double(std::max<int64_t>(m, 8)) / 8 / double(iter::chunk_work));
    auto run = [&](int64_t units, auto&& f) {
        if (threaded)
            iter::parallel_split(units, grains, f);
        else
            f(int64_t(0), units, int64_t(0));
    };
    if (B.cs == 1) { // rows of B: strips of 2 packets
        constexpr int64_t W = 2 * packet_size<T>;
        const int64_t strips = (n + W - 1) / W;
        // Blocks of B's rows, each into its own partial C, when these stay
        // small: each block reads whole rows (a part of the columns reads
        // short runs of each row, which two threads read slower than one
        // reads all). Fixed by the shape: the same bits at any thread count.
        const int64_t blocks = std::min({k / skinny_k_block, skinny_k_blocks,
                                         skinny_partial_bytes / (m * n * int64_t(sizeof(T)))});
        if (blocks < 2)
            return run(strips, [&](int64_t s0, int64_t s1, int64_t) {
                skinny_axpy(s0, s1, alpha, A.data, A.rs, A.cs, B.data, B.rs, m, n, k, beta, C.data,
                            C.rs, C.cs);
            });
        std::vector<T> part(size_t(blocks * m * n));
        run(blocks, [&](int64_t q0, int64_t q1, int64_t) {
            for (int64_t q = q0; q < q1; ++q) {
                const int64_t p0 = k * q / blocks, p1 = k * (q + 1) / blocks;
                skinny_axpy(0, strips, T(1), A.data + p0 * A.cs, A.rs, A.cs, B.data + p0 * B.rs,
                            B.rs, m, n, p1 - p0, T(0), part.data() + q * m * n, n, 1);
            }
        });
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                T v = part[size_t(i * n + j)];
                for (int64_t q = 1; q < blocks; ++q) v += part[size_t((q * m + i) * n + j)];
                T& o = C.data[i * C.rs + j * C.cs];
                o = beta == T(0) ? alpha * v : alpha * v + beta * o;
            }
        return;
    }
    // Columns of B (unit row stride): A's rows copied, zero-padded to packets.
    constexpr int64_t S = packet_size<T>;
    const int64_t kp = (k + S - 1) / S * S;
    std::vector<T> pa(size_t(m * kp), T(0));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t p = 0; p < k; ++p) pa[size_t(i * kp + p)] = A.data[i * A.rs + p * A.cs];
    run(n / 3 + n % 3, [&](int64_t g0, int64_t g1, int64_t) {
        skinny_dot(g0, g1, alpha, pa.data(), kp, kp, B.data, B.cs, m, n, k, beta, C.data, C.rs,
                   C.cs);
    });
}

// M = beta M + alpha x y^T, defined below.
template <class T>
void ger_parts(T alpha, const T* x, const T* y, T beta, const MatRef<T>& M, bool threaded = true);

// cpu_gemm for floating types (apart: no Eigen kernel is instantiated for
// the integer types).
template <class T>
void float_gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C, bool threaded) {
    if (C.rows == 0 || C.cols == 0) return;
    const Order oc = order(C);
    if (oc == Order::col) // C^T = B^T A^T with C^T row-major
        return float_gemm(alpha, B.t(), A.t(), beta, C.t(), threaded);
    if (oc == Order::none) { // into a contiguous temporary, then back
        RowMatrix<T> tmp(C.rows, C.cols);
        for (int64_t i = 0; i < C.rows && beta != T(0); ++i)
            for (int64_t j = 0; j < C.cols; ++j) tmp(i, j) = C.data[i * C.rs + j * C.cs];
        float_gemm(alpha, A, B, beta, MatRef<T>{tmp.data(), C.rows, C.cols, C.cols, 1}, threaded);
        for (int64_t i = 0; i < C.rows; ++i)
            for (int64_t j = 0; j < C.cols; ++j) C.data[i * C.rs + j * C.cs] = tmp(i, j);
        return;
    }
    // An operand with no unit stride, copied into a row-major temporary for the
    // kernels that need one (the skinny ones and Eigen's; not the packed GEMM,
    // which packs any strides).
    RowMatrix<T> ta, tb;
    auto unit_stride = [&](bool of_a, bool of_b) {
        if (of_a && order(A) == Order::none) {
            ta = gather(A);
            A = eig::ref(ta);
        }
        if (of_b && order(B) == Order::none) {
            tb = gather(B);
            B = eig::ref(tb);
        }
    };
    const int64_t m = C.rows, n = C.cols, k = A.cols;
    // Depth 1 (addr, an outer product): one pass over C, not a GEMM's packing.
    // (A's column and B's row copied only when strided: each block of a fused
    // addr comes here.)
    if (k == 1 && m > 1 && n > 1) {
        Vector<T> tx, ty;
        if (A.rs != 1) tx = gather(VecRef<const T>{A.data, m, A.rs});
        if (B.cs != 1) ty = gather(VecRef<const T>{B.data, n, B.cs});
        return ger_parts(alpha, A.rs != 1 ? tx.data() : A.data, B.cs != 1 ? ty.data() : B.data,
                         beta, C, threaded);
    }
    // (A vector result: Eigen's GEMV a part, below; it beat the dot kernel
    // on one row, mv 2048^2: 0.25 ms against 0.29-0.33.)
    if constexpr (!is_complex_v<T>) { // (complex: Eigen's GEMM, whatever the shape)
        // The dot kernel (B of unit row stride; when C's columns are few, A of
        // unit column stride) pays a horizontal sum per element of C and a padded
        // tail per column: below skinny_dot_min_k, Eigen's GEMM (which packs it)
        // is faster (21632x25 @ 25x6, the im2col product of a 5x5 convolution:
        // 0.55 ms against 0.24 ms, one thread).
        if (k > 0 && std::min(m, n) <= skinny_max && std::min(m, n) > 1 && std::max(m, n) >= 32) {
            unit_stride(m > n, m <= n); // the large operand
            const bool dot = (m <= n ? B.cs : A.rs) != 1;
            if (!dot || k >= skinny_dot_min_k) {
                if (m <= n) return skinny(alpha, A, B, beta, C, threaded);
                return skinny(alpha, B.t(), A.t(), beta, C.t(), threaded);
            }
        }
    }
#if !defined(EIGEN_USE_BLAS)
    // tensor7's own GEMM (gemm_packed.hpp): B packed once for all the threads,
    // any split of C's rows the same bits. Threaded from the size at which a
    // product is more than one part (below, for the BLAS and complex types).
    if constexpr (!is_complex_v<T>)
        if (m > 1 && n > 1 && m + n + k >= 20)
            return gemm_packed(m, n, k, alpha, A.data, A.rs, A.cs, B.data, B.rs, B.cs, beta, C.data,
                               C.rs, threaded && gemm_parts(m, n, k) > 1);
#endif
    unit_stride(true, true);
    // Rows [e0, e1) of C (columns when n > m), bounds on multiples of 16.
    const bool by_rows = m >= n;
    const int64_t parts = gemm_parts(m, n, k), dim = by_rows ? m : n;
    auto part = [&](int64_t first, int64_t last, int64_t) {
        for (int64_t q = first; q < last; ++q) {
            const int64_t e0 = q == 0 ? 0 : dim * q / parts / 16 * 16;
            const int64_t e1 = q + 1 == parts ? dim : dim * (q + 1) / parts / 16 * 16;
            if (e1 <= e0) continue;
            MatRef<T> c = C;
            MatRef<const T> a = A, b = B;
            if (by_rows) {
                c = {C.data + e0 * C.rs, e1 - e0, n, C.rs, C.cs};
                a = {A.data + e0 * A.rs, e1 - e0, k, A.rs, A.cs};
            } else {
                c = {C.data + e0 * C.cs, m, e1 - e0, C.rs, C.cs};
                b = {B.data + e0 * B.cs, k, e1 - e0, B.rs, B.cs};
            }
            auto cm = row_map(c);
            if (beta == T(0))
                cm.setZero();
            else if (beta != T(1))
                cm *= beta;
            if (k > 0) gemm_serial(alpha, a, b, c);
        }
    };
    // A vector result (mv, addmv) stays on the calling thread: it reads A once at
    // memory speed, a second thread gains little quiet, and on a busy machine
    // waiting for it cost 2.4x (mv 2048^2, bench_products, two busy loops).
    if (threaded && parts > 1 && std::min(m, n) > 1)
        iter::parallel_split(
            parts, int64_t(double(m) * double(n) * double(k) / double(gemm_grain_work)), part);
    else
        part(0, parts, 0);
}

// Columns of M per part of an outer product's row (ger_parts): a row longer than
// this is cut into blocks of it, so that a few long rows still split.
inline constexpr int64_t ger_col_block = 8192;
// An M of at most this many bytes is updated on the calling thread: from the
// last-level cache one thread moves it as fast as two (M += x y^T, quiet: 1.00x
// at 1024^2 floats, 0.92x at 2048^2; 0.56x from memory at 2896^2), and on a busy
// machine a helper preempted inside its part held the caller (2048^2: 1.8-3.5x
// one thread's time, median; bench_products).
inline constexpr double ger_in_cache_bytes = double(16 << 20);

// M = beta M + alpha x y^T (x, y contiguous; M of row order or Order::none: any
// strides, each row walked with its own column stride), on the pool: parts of
// rows of M (blocks of ger_col_block columns of a long row), each a vectorised
// M[i, j0:j1] = beta M[i, j0:j1] + (alpha x[i]) y[j0:j1] (a loop when M's
// columns have no unit stride). The parts are fixed by
// the shape and each element's operations by its position, never by which
// thread runs it: the same bits at any thread count. beta == 0 writes
// (alpha x[i]) y[j] without reading M (its NaNs do not leak), beta == 1 adds.
template <class T>
void ger_parts(T alpha, const T* x, const T* y, T beta, const MatRef<T>& M, bool threaded) {
    using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
    const int64_t m = M.rows, n = M.cols;
    const int64_t blocks = (n + ger_col_block - 1) / ger_col_block;
    auto update = [&](auto&& r, const T a, const auto& yv) {
        if (beta == T(0))
            r = a * yv;
        else if (beta == T(1))
            r += a * yv;
        else
            r = beta * r + a * yv;
    };
    auto part = [&](int64_t u0, int64_t u1, int64_t) {
        for (int64_t u = u0; u < u1; ++u) {
            const int64_t i = u / blocks, j0 = u % blocks * ger_col_block;
            const int64_t len = std::min(n, j0 + ger_col_block) - j0;
            const T a = alpha * x[i];
            const Eigen::Map<const Arr> yv(y + j0, len);
            T* row = M.data + i * M.rs + j0 * M.cs;
            if (M.cs == 1 || n == 1) {
                update(Eigen::Map<Arr>(row, len), a, yv);
                continue;
            }
            // No unit stride, of either sign (an Eigen map's strides are not
            // negative): element by element.
            for (int64_t j = 0; j < len; ++j) {
                T& o = row[j * M.cs];
                o = beta == T(0) ? a * yv[j] : beta == T(1) ? o + a * yv[j] : beta * o + a * yv[j];
            }
        }
    };
    // Work: M's bytes written, and read unless beta == 0 (x and y stay in
    // cache), on the pool for an M larger than the cache.
    const double m_bytes = double(m) * double(n) * double(sizeof(T));
    if (!threaded || m_bytes <= ger_in_cache_bytes) return part(0, m * blocks, 0);
    const double bytes = m_bytes * (beta == T(0) ? 1 : 2);
    iter::parallel_split(m * blocks, int64_t(bytes / double(iter::chunk_work)), part);
}

// C = beta C + alpha A B (Blas<CPU>::gemm), its parts on the pool when `threaded` (else all on
// the calling thread): C normalised to row order, A and B to a unit stride;
// then the skinny kernels when C has 2 to 16 rows or columns, else for float
// and double tensor7's own GEMM (gemm_packed.hpp: its rows split over the pool),
// and for the complex types and with -Dblas=true the parts of eig::gemm_parts,
// each one single-threaded Eigen (or BLAS) GEMM.
template <class T>
void cpu_gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C, bool threaded) {
    if constexpr (std::is_integral_v<T>)
        eig::int_gemm(alpha, A, B, beta, C);
    else
        float_gemm(alpha, A, B, beta, C, threaded);
}

} // namespace eig

template <>
struct Blas<CPU> {
    // C = beta C + alpha A B (C is m x n, A m x k, B k x n). C must not overlap A or
    // B; beta == 0 ignores C's values (BLAS semantics: NaN there does not leak).
    // On tensor7's pool (eig::cpu_gemm), never with Eigen's OpenMP threads.
    template <class T>
    static void gemm(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        require_eigen_type<T>("matrix product");
        if constexpr (eigen_type<T>) eig::cpu_gemm(alpha, A, B, beta, C, true);
    }

    // gemm on the calling thread alone: for a part of a larger parallel loop
    // (a block of a pending product, eval/cpu/product_blocks.hpp).
    template <class T>
    static void gemm_here(T alpha, MatRef<const T> A, MatRef<const T> B, T beta, MatRef<T> C) {
        require_eigen_type<T>("matrix product");
        if constexpr (eigen_type<T>) eig::cpu_gemm(alpha, A, B, beta, C, false);
    }

    // y = beta y + alpha A x (A m x n): gemm's paths with x and y as one-column
    // matrices (the skinny kernels for a large A, on the pool).
    template <class T>
    static void gemv(T alpha, MatRef<const T> A, VecRef<const T> x, T beta, VecRef<T> y) {
        require_eigen_type<T>("matrix-vector product");
        if constexpr (eigen_type<T>)
            eig::cpu_gemm(alpha, A, MatRef<const T>{x.data, x.n, 1, x.inc, 1}, beta,
                          MatRef<T>{y.data, y.n, 1, y.inc, 1}, true);
    }

    // M = beta M + alpha x y^T (M m x n); beta == 0 ignores M's values. Floating
    // types: an M larger than 16 MiB on the pool (eig::ger_parts); integers wrap
    // (int_gemm, calling thread).
    template <class T>
    static void ger(T alpha, VecRef<const T> x, VecRef<const T> y, T beta, MatRef<T> M) {
        require_eigen_type<T>("outer product");
        if constexpr (int_type<T>) { // wrapping: x (m x 1) times y^T (1 x n)
            eig::int_gemm(alpha, MatRef<const T>{x.data, x.n, 1, x.inc, 1},
                          MatRef<const T>{y.data, 1, y.n, y.n * y.inc, y.inc}, beta, M);
        } else if constexpr (eigen_type<T>) {
            using namespace eig;
            if (M.rows == 0 || M.cols == 0) return;
            if (order(M) == Order::col) return ger(alpha, y, x, beta, M.t());
            const Vector<T> tx = gather(x), ty = gather(y);
            ger_parts(alpha, tx.data(), ty.data(), beta, M);
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
            const iter::Loop<3> L = iter::make_loop<3>(batch, {&sa, &sb, &sc}, false);
            // Small matrices: several per thread, each on one. Large ones (more than
            // one part, eig::gemm_parts): one after the other, each on the pool.
            const int64_t m = C.rows, n = C.cols, k = A.cols;
            const bool per_thread = eig::gemm_parts(m, n, k) == 1;
            auto body = [&](int64_t b, int64_t e, int64_t) {
                iter::for_each_run(L, b, e, [&](const std::array<int64_t, 3>& off, int64_t run) {
                    for (int64_t j = 0; j < run; ++j) {
                        MatRef<const T> a = A, bb = B;
                        MatRef<T> c = C;
                        a.data += off[0] + j * L.inner_stride(0);
                        bb.data += off[1] + j * L.inner_stride(1);
                        c.data += off[2] + j * L.inner_stride(2);
                        eig::cpu_gemm(alpha, a, bb, beta, c, !per_thread);
                    }
                });
            };
            if (per_thread)
                iter::parallel_split(L.numel,
                                     int64_t(double(L.numel) * double(m) * double(n) *
                                             double(k + 1) / double(eig::gemm_grain_work)),
                                     body);
            else
                body(0, L.numel, 0);
        }
    }

private:
    // Eigen computes the seven Torch7 types and the complex ones; Half is a CUDA type here.
    template <class T>
    static constexpr bool
        eigen_type = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || is_complex_v<T>;
    // Integer products wrap (eig::int_gemm), never through Eigen's signed arithmetic.
    template <class T>
    static constexpr bool int_type = std::is_integral_v<T> && !std::is_same_v<T, bool>;
    template <class T>
    static void require_eigen_type(const char* op) {
        if constexpr (!eigen_type<T>)
            fail<TypeError>(
                op, ": CPU matrix products take the seven Torch7 types and the complex ones, not ",
                torch_type_name<T, CPU>("Tensor"),
                " (Half products run on CUDA tensors; convert with to<float>())");
    }
};

} // namespace t7::detail

// The floating instantiations of eig::cpu_gemm (with Eigen's GEMM kernels behind
// them, ~4.5 s of g++'s time at -O1 per element type in every translation unit
// that multiplies matrices) compiled once, in a file built with the flags of the
// units that use it: a unit defining T7_EXTERN_PRODUCTS sees them as `extern
// template` and must link the objects of a unit that defined
// T7_EXTERN_PRODUCTS_BUILD (tensor7's own tests, examples and benchmarks link
// src/products.cpp, built with their -march). Not libtensor7's job: it is built
// without -march, and GEMM's speed is its SIMD width.
#if defined(T7_EXTERN_PRODUCTS_BUILD)
#define T7_PRODUCTS_INSTANTIATION template
#elif defined(T7_EXTERN_PRODUCTS) && !defined(__CUDACC__)
#define T7_PRODUCTS_INSTANTIATION extern template
#endif
#if defined(T7_PRODUCTS_INSTANTIATION)
namespace t7::detail::eig {
#define T7_CPU_GEMM(T)                                                                             \
    T7_PRODUCTS_INSTANTIATION void cpu_gemm<T>(T, MatRef<const T>, MatRef<const T>, T, MatRef<T>,  \
                                               bool);
T7_CPU_GEMM(float)
T7_CPU_GEMM(double)
T7_CPU_GEMM(std::complex<float>)
T7_CPU_GEMM(std::complex<double>)
#undef T7_CPU_GEMM
} // namespace t7::detail::eig
#undef T7_PRODUCTS_INSTANTIATION
#endif
