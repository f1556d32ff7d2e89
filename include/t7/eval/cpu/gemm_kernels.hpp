// The single-threaded kernels of the CPU matrix products (eval/cpu/blas.hpp
// splits a product into parts and runs them on tensor7's pool, iter/parallel.hpp):
//   gemm_call    C += alpha A B through Eigen's GEMM entry point with no parallel
//                information: never an OpenMP team, whatever Eigen::nbThreads()
//                is (Eigen's public product starts one from any thread that is
//                not in an OpenMP region; that setting is the user's).
//   skinny_axpy  C = alpha A B + beta C for C of at most 16 rows and B of unit
//                column stride: B's rows are read once, straight from memory
//                (no packing), a strip of two packets of columns at a time,
//                each row of A broadcast against it.
//   skinny_dot   the same for B of unit row stride (a transposed matrix): every
//                element of C is a dot product of a row of A (unit stride) and a
//                column of B, in packets, three columns of B at a time.
// In both, an element's arithmetic (the order of its fused multiply-adds and
// sums) depends only on k, never on where a part starts: every partition of the
// columns gives the same bits. Floating types only.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>

namespace t7::detail::eig {

namespace pk = Eigen::internal;

// C (row-major, ldc) += alpha A B: A m x k of storage order LO (leading
// dimension lda), B k x n of order RO; m, n, k > 0.
template <class T, int LO, int RO>
void gemm_call(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
               int64_t ldb, T* c, int64_t ldc) {
    pk::gemm_blocking_space<Eigen::RowMajor, T, T, Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic,
                            1, false>
        blocking(m, n, k, 1, true);
    pk::general_matrix_matrix_product<Eigen::Index, T, LO, false, T, RO, false, Eigen::RowMajor,
                                      1>::run(m, n, k, a, lda, b, ldb, c, 1, ldc, alpha, blocking,
                                              nullptr);
}

template <class T>
using Packet = typename pk::packet_traits<T>::type;
template <class T>
inline constexpr int packet_size = pk::unpacket_traits<Packet<T>>::size;

// Rows of B a skinny kernel sums before adding its partial sums to its tile: a
// strip of B this tall stays in cache for the next group of rows of A.
inline constexpr int64_t skinny_depth = 256;
// Rows of C one register tile holds; and C's rows at most for the skinny kernels.
inline constexpr int skinny_rows = 8;
inline constexpr int64_t skinny_max = 16;

// acc[r] += sum over p in [0, kc) of A(r, p) * B(p, 0 .. 2S) for r < MR: A(r,
// p) at a[r * ars + p * acs], B's row p at b + p * ldb; tile row r at tile + r * 2S.
template <class T, int MR>
[[gnu::always_inline]] inline void axpy_tile(const T* a, int64_t ars, int64_t acs, const T* b,
                                             int64_t ldb, int64_t kc, T* tile) {
    using P = Packet<T>;
    constexpr int S = packet_size<T>;
    P acc0[MR], acc1[MR];
    for (int r = 0; r < MR; ++r) acc0[r] = acc1[r] = pk::pset1<P>(T(0));
    for (int64_t p = 0; p < kc; ++p) {
        const T* bp = b + p * ldb;
        __builtin_prefetch(bp + 24 * ldb);
        __builtin_prefetch(bp + 24 * ldb + S);
        const P b0 = pk::ploadu<P>(bp), b1 = pk::ploadu<P>(bp + S);
        for (int r = 0; r < MR; ++r) {
            const P av = pk::pset1<P>(a[r * ars + p * acs]);
            acc0[r] = pk::pmadd(av, b0, acc0[r]);
            acc1[r] = pk::pmadd(av, b1, acc1[r]);
        }
    }
    for (int r = 0; r < MR; ++r) {
        T* t = tile + r * 2 * S;
        pk::pstoreu(t, pk::padd(pk::ploadu<P>(t), acc0[r]));
        pk::pstoreu(t + S, pk::padd(pk::ploadu<P>(t + S), acc1[r]));
    }
}

// Rows [0, m) of the tile (m <= 16) from kc rows of B: groups of 8, 4, 2, 1 rows.
template <class T>
void axpy_rows(int64_t m, const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, int64_t kc,
               T* tile) {
    constexpr int W = 2 * packet_size<T>;
    int64_t r = 0;
    for (; r + 8 <= m; r += 8) axpy_tile<T, 8>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W);
    if (r + 4 <= m) axpy_tile<T, 4>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W), r += 4;
    if (r + 2 <= m) axpy_tile<T, 2>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W), r += 2;
    if (r < m) axpy_tile<T, 1>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W);
}

// Strips [s0, s1) of C = alpha A B + beta C (beta 0: C's values unread), a strip
// being 2S columns (the last one narrower): A m x k (any strides), B k x n
// (unit column stride), C m x n (any strides); m <= 16.
template <class T>
void skinny_axpy(int64_t s0, int64_t s1, T alpha, const T* a, int64_t ars, int64_t acs, const T* b,
                 int64_t ldb, int64_t m, int64_t n, int64_t k, T beta, T* c, int64_t crs,
                 int64_t ccs) {
    constexpr int W = 2 * packet_size<T>;
    alignas(64) T tile[skinny_max * W];
    alignas(64) T pad[skinny_depth * W]; // the last strip's rows, padded with zeros
    for (int64_t s = s0; s < s1; ++s) {
        const int64_t j0 = s * W, w = std::min<int64_t>(W, n - j0);
        std::fill(tile, tile + m * W, T(0));
        for (int64_t p0 = 0; p0 < k; p0 += skinny_depth) {
            const int64_t kc = std::min(skinny_depth, k - p0);
            const T* bs = b + p0 * ldb + j0;
            int64_t ld = ldb;
            if (w < W) {
                for (int64_t p = 0; p < kc; ++p) {
                    std::copy(bs + p * ldb, bs + p * ldb + w, pad + p * W);
                    std::fill(pad + p * W + w, pad + (p + 1) * W, T(0));
                }
                bs = pad;
                ld = W;
            }
            axpy_rows(m, a + p0 * acs, ars, acs, bs, ld, kc, tile);
        }
        for (int64_t r = 0; r < m; ++r)
            for (int64_t j = 0; j < w; ++j) {
                T& o = c[r * crs + (j0 + j) * ccs];
                o = beta == T(0) ? alpha * tile[r * W + j] : alpha * tile[r * W + j] + beta * o;
            }
    }
}

// out[r * NC + j] = sum over p of A(r, p) B(p, j) for r < MR, j < NC: A's row r
// at a + r * lda, B's column j at b + j * ldb, both of unit stride and kp
// elements, kp a multiple of S (the callers pad the last packet with zeros).
template <class T, int MR, int NC>
[[gnu::always_inline]] inline void dot_tile(const T* a, int64_t lda, const T* b, int64_t ldb,
                                            int64_t kp, T* out) {
    using P = Packet<T>;
    constexpr int S = packet_size<T>;
    P acc[MR][NC];
    for (int r = 0; r < MR; ++r)
        for (int j = 0; j < NC; ++j) acc[r][j] = pk::pset1<P>(T(0));
    for (int64_t p = 0; p < kp; p += S) {
        P bv[NC];
        for (int j = 0; j < NC; ++j) bv[j] = pk::ploadu<P>(b + j * ldb + p);
        for (int r = 0; r < MR; ++r) {
            const P av = pk::ploadu<P>(a + r * lda + p);
            for (int j = 0; j < NC; ++j) acc[r][j] = pk::pmadd(av, bv[j], acc[r][j]);
        }
    }
    for (int r = 0; r < MR; ++r)
        for (int j = 0; j < NC; ++j) out[r * NC + j] = pk::predux(acc[r][j]);
}

// Rows [0, m) of NC columns of B: groups of 8, 4, 2, 1 rows of A.
template <class T, int NC>
void dot_rows(int64_t m, const T* a, int64_t lda, const T* b, int64_t ldb, int64_t kp, T* out) {
    int64_t r = 0;
    for (; r + 8 <= m; r += 8) dot_tile<T, 8, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC);
    if (r + 4 <= m) dot_tile<T, 4, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC), r += 4;
    if (r + 2 <= m) dot_tile<T, 2, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC), r += 2;
    if (r < m) dot_tile<T, 1, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC);
}

// Column groups [g0, g1) of C = alpha A B + beta C (beta 0: C unread), a group
// being 3 columns (the last n % 3 columns one group each, after the others): A
// m x k with unit column stride, B k x n with unit row stride, C any strides;
// m <= 16. kp: k rounded up to a multiple of S; A's rows (lda apart) hold kp
// elements, zero-padded (the caller pads them); B's columns hold k.
template <class T>
void skinny_dot(int64_t g0, int64_t g1, T alpha, const T* a, int64_t lda, int64_t kp, const T* b,
                int64_t ldb, int64_t m, int64_t n, int64_t k, T beta, T* c, int64_t crs,
                int64_t ccs) {
    constexpr int S = packet_size<T>;
    const int64_t full = n / 3, kb = k / S * S;
    alignas(64) T out[skinny_max * 3];
    alignas(64) T tail[skinny_max * 3 + 3 * S];
    for (int64_t g = g0; g < g1; ++g) {
        const int64_t j0 = g < full ? 3 * g : 3 * full + (g - full);
        const int nc = g < full ? 3 : 1;
        const T* bj = b + j0 * ldb;
        // The whole packets of B's columns, then their last packet padded.
        if (nc == 3)
            dot_rows<T, 3>(m, a, lda, bj, ldb, kb, out);
        else
            dot_rows<T, 1>(m, a, lda, bj, ldb, kb, out);
        if (kb < kp) {
            T* pb = tail + skinny_max * 3;
            for (int j = 0; j < nc; ++j) {
                std::copy(bj + j * ldb + kb, bj + j * ldb + k, pb + j * S);
                std::fill(pb + j * S + (k - kb), pb + (j + 1) * S, T(0));
            }
            if (nc == 3)
                dot_rows<T, 3>(m, a + kb, lda, pb, S, S, tail);
            else
                dot_rows<T, 1>(m, a + kb, lda, pb, S, S, tail);
            for (int64_t i = 0; i < m * nc; ++i) out[i] += tail[i];
        }
        for (int64_t r = 0; r < m; ++r)
            for (int j = 0; j < nc; ++j) {
                T& o = c[r * crs + (j0 + j) * ccs];
                o = beta == T(0) ? alpha * out[r * nc + j] : alpha * out[r * nc + j] + beta * o;
            }
    }
}

} // namespace t7::detail::eig
