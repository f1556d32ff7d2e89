// The arithmetic of the convolutions (math/conv.hpp) on raw CPU memory. Every
// form is a valid cross-correlation over a contiguous (zero-padded for 'F')
// input, written one output row at a time as a sum of shifted input rows:
//   out[j] = sum_t w[t] * in[off[t] + j]      (j < row length, t < taps)
// where a tap t is one kernel element (its plane, depth, row and column folded
// into the offset off[t]). Two ways to compute it:
//   taps_row    the sum directly, vectorised with Eigen's packets for float and
//               double (four packets of output held in registers over all taps),
//               with wrapping arithmetic for integers;
//   gemm_rows   for many output planes sharing the taps (Torch7's conv2Dmv): the
//               taps of a block of rows copied into a scratch matrix (im2col),
//               then one matrix product, weights (planes x taps) times it
//               (tensor7's GEMM, gemm_packed.hpp, for float and double).
#pragma once

#include "../../core/config.hpp"
#include "gemm_kernels.hpp"
#include "gemm_packed.hpp"
#include "packet_ops.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

namespace t7::cpu {

// a + b * c, wrapping for integers as the element-wise arithmetic does.
template <class T>
T7_INLINE T conv_madd(T a, T b, T c) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
        return T(U(a) + U(b) * U(c));
    } else {
        return a + b * c;
    }
}

// out[j] = sum_t w[t] * in[off[t] + j] for j < n.
template <class T>
void taps_row(T* out, int64_t n, const T* in, const int64_t* off, const T* w, int64_t taps) {
    int64_t j = 0;
    if constexpr (std::is_floating_point_v<T>) {
        using P = packet_t<T>;
        constexpr int64_t S = packet_size<T>;
        for (; j + 4 * S <= n; j += 4 * S) {
            P a0 = ei::pset1<P>(T(0)), a1 = a0, a2 = a0, a3 = a0;
            for (int64_t t = 0; t < taps; ++t) {
                const P wt = ei::pset1<P>(w[t]);
                const T* p = in + off[t] + j;
                a0 = ei::pmadd(ei::ploadu<P>(p), wt, a0);
                a1 = ei::pmadd(ei::ploadu<P>(p + S), wt, a1);
                a2 = ei::pmadd(ei::ploadu<P>(p + 2 * S), wt, a2);
                a3 = ei::pmadd(ei::ploadu<P>(p + 3 * S), wt, a3);
            }
            ei::pstoreu(out + j, a0);
            ei::pstoreu(out + j + S, a1);
            ei::pstoreu(out + j + 2 * S, a2);
            ei::pstoreu(out + j + 3 * S, a3);
        }
        for (; j + S <= n; j += S) {
            P a = ei::pset1<P>(T(0));
            for (int64_t t = 0; t < taps; ++t)
                a = ei::pmadd(ei::ploadu<P>(in + off[t] + j), ei::pset1<P>(w[t]), a);
            ei::pstoreu(out + j, a);
        }
    }
    for (; j < n; ++j) {
        T a = T(0);
        for (int64_t t = 0; t < taps; ++t) a = conv_madd(a, in[off[t] + j], w[t]);
        out[j] = a;
    }
}

// Rows [r0, r1) of q output planes through one matrix product. Output row r of
// plane o (n elements) starts at out + o * out_plane + r * n and reads the
// input from in + base(r); weights is q x taps, row-major; col holds at least
// taps * (r1 - r0) * n elements. Floating types only.
template <class T, class Base>
void gemm_rows(T* out, int64_t out_plane, int64_t q, int64_t n, int64_t r0, int64_t r1, const T* in,
               Base&& base, const int64_t* off, const T* weights, int64_t taps, T* col) {
    const int64_t cols = (r1 - r0) * n;
    for (int64_t t = 0; t < taps; ++t) {
        T* dst = col + t * cols;
        for (int64_t r = r0; r < r1; ++r) {
            const T* src = in + base(r) + off[t];
            T* d = dst + (r - r0) * n;
            for (int64_t j = 0; j < n; ++j) d[j] = src[j];
        }
    }
    // Single-threaded: this runs in a chunk of the pool. tensor7's GEMM (as
    // float_gemm's, eval/cpu/blas.hpp) for float and double, else Eigen's.
#if !defined(EIGEN_USE_BLAS)
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        detail::eig::gemm_packed(q, cols, taps, T(1), weights, taps, int64_t(1), col, cols,
                                 int64_t(1), T(0), out + r0 * n, out_plane, false);
        return;
    }
#endif
    using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<M, Eigen::Unaligned, Eigen::OuterStride<>> R(out + r0 * n, q, cols,
                                                            Eigen::OuterStride<>(out_plane));
    R.setZero();
    if (taps > 0 && cols > 0)
        detail::eig::gemm_call<T, Eigen::RowMajor, Eigen::RowMajor>(
            q, cols, taps, T(1), weights, taps, col, cols, out + r0 * n, out_plane);
}

} // namespace t7::cpu
