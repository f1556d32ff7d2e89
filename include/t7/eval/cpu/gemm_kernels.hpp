// The single-threaded kernels of the CPU matrix products (eval/cpu/blas.hpp
// splits a product into parts and runs them on tensor7's pool, iter/parallel.hpp):
//   gemm_call    C += alpha A B through Eigen's GEMM entry point with no parallel
//                information: never an OpenMP team, whatever Eigen::nbThreads()
//                is (Eigen's public product starts one from any thread that is
//                not in an OpenMP region; that setting is the user's): the
//                complex types, -Dblas=true and the convolutions' products
//                (float and double GEMMs are gemm_packed.hpp's).
//   skinny_axpy  C = alpha A B + beta C for C of at most 16 rows and B of unit
//                column stride: B is read once, straight from memory (no
//                packing), 16 rows at a time across its columns, a strip of two
//                packets of columns against each row of A broadcast.
//   skinny_dot   the same for B of unit row stride (a transposed matrix): every
//                element of C is a dot product of a row of A (unit stride) and a
//                column of B, in packets, three columns of B at a time, by blocks
//                of k that keep A's block in cache.
// In both, an element's arithmetic (the order of its fused multiply-adds and
// sums) depends only on k, never on where a part starts: every partition of the
// columns gives the same bits. Floating types only.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(EIGEN_USE_BLAS) && __has_include(<dlfcn.h>)
#include <dlfcn.h>
#endif

// Full unrolling of a register tile's loops over its rows and columns (at -O2
// GCC keeps the loops, and the accumulators in memory: 2x slower).
#if defined(__clang__)
#define T7_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define T7_UNROLL _Pragma("GCC unroll 16")
#else
#define T7_UNROLL
#endif

namespace t7::detail::eig {

namespace pk = Eigen::internal;

#if defined(EIGEN_USE_BLAS) && __has_include(<dlfcn.h>)
// With EIGEN_USE_BLAS each part of a product is a BLAS call from one of the
// pool's threads: the BLAS must not thread it again (2 pool threads x N BLAS
// threads). OpenBLAS is found at run time (dlsym, whatever variant
// update-alternatives or the link chose; another BLAS has no such controls):
// * pthreads build: openblas_set_num_threads(1), once per process (its thread
//   count is global; its server threads, started when the library loads, sleep);
// * OpenMP build (openblas_get_parallel() == 2): it takes each call's thread
//   count from the calling thread's omp_get_max_threads(), so SerialBlas sets
//   that to 1 for the call and restores it (the user's setting on their thread);
// * serial build: nothing to do.
struct BlasThreads {
    int (*omp_get)() = nullptr;
    void (*omp_set)(int) = nullptr;
    BlasThreads() {
        auto set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
        auto parallel = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_parallel"));
        if (set == nullptr) return;
        if (parallel != nullptr && parallel() == 2) {
            omp_get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
            omp_set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
            if (omp_get == nullptr || omp_set == nullptr) omp_get = nullptr;
        } else {
            set(1);
        }
    }
    static const BlasThreads& get() {
        static const BlasThreads b;
        return b;
    }
};
// The scope of one single-threaded BLAS call (see BlasThreads).
class SerialBlas {
    int saved_ = 1;

public:
    SerialBlas() {
        const BlasThreads& b = BlasThreads::get();
        if (b.omp_get != nullptr && (saved_ = b.omp_get()) != 1) b.omp_set(1);
    }
    ~SerialBlas() {
        if (saved_ != 1) BlasThreads::get().omp_set(saved_);
    }
    SerialBlas(const SerialBlas&) = delete;
    SerialBlas& operator=(const SerialBlas&) = delete;
};
#else
// Eigen's own kernels: no BLAS, nothing to set.
struct SerialBlas {};
#endif

// C (row-major, ldc) += alpha A B: A m x k of storage order LO (leading
// dimension lda), B k x n of order RO; m, n, k > 0. With EIGEN_USE_BLAS, Eigen's
// entry point is its BLAS GEMM call, single-threaded (SerialBlas).
template <class T, int LO, int RO>
void gemm_call(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
               int64_t ldb, T* c, int64_t ldc) {
    [[maybe_unused]] SerialBlas serial;
    pk::gemm_blocking_space<Eigen::RowMajor, T, T, Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic,
                            1, false>
        blocking(m, n, k, 1, true);
    pk::general_matrix_matrix_product<Eigen::Index, T, LO, false, T, RO, false, Eigen::RowMajor,
                                      1>::run(m, n, k, a, lda, b, ldb, c, 1, ldc, alpha, blocking,
                                              nullptr);
}

template <class T>
using Packet = typename pk::packet_traits<T>::type;

// A hint to bring the line `bytes` after p into cache (an address in integers:
// it may lie past the end of p's array, which a hint never reads).
[[gnu::always_inline]] inline void prefetch_at(const void* p, int64_t bytes) {
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + bytes));
}
template <class T>
inline constexpr int packet_size = pk::unpacket_traits<Packet<T>>::size;

// Rows of B the axpy kernel takes at a time across all its columns, before the
// next rows: few enough that it reads them as that many sequential streams
// (a strip walked down all of k would touch a new page at every row).
inline constexpr int64_t skinny_depth = 16;
// The axpy kernel's register tiles kept between rows of B: at most
// skinny_acc_bytes of them (with B's rows in flight, in L1 and L2), but no fewer
// than skinny_min_strips strips (runs of 4 KiB of each row of B, a page). Wider
// products are done a chunk of columns at a time: the tiles of all 10000 columns
// of NPBench mlp's 8 x 30000 @ 30000 x 10000 (320 KiB) read at 5.5-6.0 GB/s, by
// chunks of 8-32 KiB at 7.7-9.8 (8 x 8000 @ 8000 x 10000, one thread). Runs of
// 4 KiB, not 2: 8 x 30000 @ 30000 x 1000 (whole rows then) 9.2-9.5 -> 11.8-12.5
// GB/s, 8 x 8000 @ 8000 x 10000 8.9 -> 9.9, against a sum's 14-16 (Zen 3).
inline constexpr int64_t skinny_acc_bytes = int64_t(16) << 10;
inline constexpr int64_t skinny_min_strips = 64;
// Bytes of each row of A and column of B the dot kernel takes at a time (a
// block of A's rows that stays in cache for all the columns of B), and how far
// ahead in a column of B it prefetches (the hardware's prefetch restarts at
// each page: measured 8x30000 @ (1000x30000)^T, 15 ms without, 10 ms with).
inline constexpr int64_t skinny_dot_bytes = 16384;
inline constexpr int64_t skinny_dot_prefetch = 1024;
// The axpy kernel's blocks of rows of B when B is split by rows (blas.hpp):
// at least skinny_k_block rows each, at most skinny_k_blocks of them, and
// their partial results (m x n each) at most skinny_partial_bytes in all.
inline constexpr int64_t skinny_k_block = 256;
inline constexpr int64_t skinny_k_blocks = 16;
inline constexpr int64_t skinny_partial_bytes = int64_t(4) << 20;
// C's rows at most for the skinny kernels (register tiles of 8 or 4, then 2, 1 rows).
inline constexpr int64_t skinny_max = 16;
// The rows of A in the kernels' widest register tile: its accumulators (rows x 2
// packets in the axpy kernel, rows x 3 in the dot kernel) and the packets of B
// and A in flight must fit in the vector registers. 8 rows with AVX-512's 32; 4
// with AVX2's 16, where 8-row tiles spilled accumulators to the stack (3 in the
// axpy kernel, a store and a load in each of their chains of multiply-adds: 35
// against 50-64 GFLOP/s with B in cache, one Zen 3 core, peak 94).
inline constexpr int skinny_tile_rows = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 8 : 4;
// The dot kernel's shortest k (blas.hpp takes Eigen's GEMM below it): measured
// one thread, 20000 x k @ k x 8 (the dot kernel on A's rows) against Eigen's GEMM,
// float: k = 64 0.40 / 0.38 ms, k = 256 1.5 / 2.2 ms; double: k = 128 1.4 / 1.3 ms,
// k = 256 2.7 / 3.2 ms; and with 16 columns Eigen's is ahead up to k = 150.
inline constexpr int64_t skinny_dot_min_k = 256;

// Keeps the compiler from folding a load of v into each of its uses (one load
// then, not one a use: both kernels are bound by their loads otherwise).
template <class P>
[[gnu::always_inline]] inline void keep_in_register(P& v) {
#if defined(__GNUC__) && defined(__AVX__)
    asm("" : "+v"(v));
#else
    (void)v;
#endif
}

// tile[r] += sum over p in [0, kc) of A(r, p) * B(p, 0 .. NV S) for r < MR, one
// fused multiply-add after the other: A(r, p) at a[r * ars + p * acs], B's row p
// at b + p * ldb; tile row r at tile + r * 2S (NV = 1: a strip's first packet).
template <class T, int MR, int NV>
[[gnu::always_inline]] inline void axpy_tile(const T* a, int64_t ars, int64_t acs, const T* b,
                                             int64_t ldb, int64_t kc, T* tile) {
    using P = Packet<T>;
    constexpr int S = packet_size<T>;
    P acc[NV][MR];
    T7_UNROLL
    for (int r = 0; r < MR; ++r) {
        T7_UNROLL
        for (int v = 0; v < NV; ++v) acc[v][r] = pk::ploadu<P>(tile + r * 2 * S + v * S);
    }
    for (int64_t p = 0; p < kc; ++p) {
        const T* bp = b + p * ldb;
        P bv[NV];
        T7_UNROLL
        for (int v = 0; v < NV; ++v) {
            bv[v] = pk::ploadu<P>(bp + v * S);
            keep_in_register(bv[v]); // one load each, not one in every multiply-add
        }
        T7_UNROLL
        for (int r = 0; r < MR; ++r) {
            const P av = pk::pset1<P>(a[r * ars + p * acs]);
            T7_UNROLL
            for (int v = 0; v < NV; ++v) acc[v][r] = pk::pmadd(av, bv[v], acc[v][r]);
        }
    }
    T7_UNROLL
    for (int r = 0; r < MR; ++r) {
        T7_UNROLL
        for (int v = 0; v < NV; ++v) pk::pstoreu(tile + r * 2 * S + v * S, acc[v][r]);
    }
}

// Rows [0, m) of the tile (m <= 16) from kc rows of B, NV packets of each:
// groups of skinny_tile_rows, then 4, 2, 1 rows.
template <class T, int NV>
void axpy_rows(int64_t m, const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, int64_t kc,
               T* tile) {
    constexpr int W = 2 * packet_size<T>, R = skinny_tile_rows;
    int64_t r = 0;
    for (; r + R <= m; r += R) axpy_tile<T, R, NV>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W);
    if (R > 4 && r + 4 <= m)
        axpy_tile<T, 4, NV>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W), r += 4;
    if (r + 2 <= m) axpy_tile<T, 2, NV>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W), r += 2;
    if (r < m) axpy_tile<T, 1, NV>(a + r * ars, ars, acs, b, ldb, kc, tile + r * W);
}

// Strips [s0, s1) of C = alpha A B + beta C (beta 0: C's values unread), a strip
// being 2S columns (the last one narrower): A m x k (any strides), B k x n
// (unit column stride), C m x n (any strides); m <= 16. B is read skinny_depth
// rows at a time across the strips of a chunk, each strip's tile kept in `acc`;
// the chunks' strips (at most skinny_acc_bytes of tiles) one chunk after the other.
template <class T>
void skinny_axpy(int64_t s0, int64_t s1, T alpha, const T* a, int64_t ars, int64_t acs, const T* b,
                 int64_t ldb, int64_t m, int64_t n, int64_t k, T beta, T* c, int64_t crs,
                 int64_t ccs) {
    constexpr int S = packet_size<T>, W = 2 * S;
    const int64_t tile = m * W,
                  chunk = std::max<int64_t>(skinny_min_strips,
                                            skinny_acc_bytes / int64_t(sizeof(T)) / tile);
    std::vector<T> acc(size_t(std::min(s1 - s0, chunk) * tile));
    alignas(64) T pad[skinny_depth * W]; // the last strip's rows, padded with zeros
    for (int64_t c0 = s0; c0 < s1; c0 += chunk) {
        const int64_t c1 = std::min(s1, c0 + chunk);
        std::fill(acc.begin(), acc.end(), T(0));
        for (int64_t p0 = 0; p0 < k; p0 += skinny_depth) {
            const int64_t kc = std::min(skinny_depth, k - p0);
            for (int64_t s = c0; s < c1; ++s) {
                const int64_t j0 = s * W, w = std::min<int64_t>(W, n - j0);
                const T* bs = b + p0 * ldb + j0;
                int64_t ld = ldb;
                // The last strip, narrower: one packet read in place when that is
                // all of it (n = 120, 1000), else its rows copied, padded with zeros
                // (8 x 1936 @ 1936 x 120 took 79-82 us with the copy, by calls of
                // runtime lengths, 64-70 us without).
                if (w < W && w != S) {
                    for (int64_t p = 0; p < kc; ++p)
                        for (int64_t j = 0; j < W; ++j)
                            pad[p * W + j] = j < w ? bs[p * ldb + j] : T(0);
                    bs = pad;
                    ld = W;
                }
                // This strip of the next rows: the hardware's prefetch loses track
                // of 16 interleaved streams (8x30000 @ 30000x1000: 8-10 ms without,
                // 4.6 ms with); and the next strip's line (a float strip is one
                // line): 8.0 GB/s of B with the strip's line alone, 9.2 with both.
                for (int64_t p = p0 + skinny_depth; p < std::min(k, p0 + 2 * skinny_depth); ++p) {
                    prefetch_at(b + p * ldb + j0, 0);
                    prefetch_at(b + p * ldb + j0, 64);
                }
                T* t = acc.data() + (s - c0) * tile;
                if (w <= S)
                    axpy_rows<T, 1>(m, a + p0 * acs, ars, acs, bs, ld, kc, t);
                else
                    axpy_rows<T, 2>(m, a + p0 * acs, ars, acs, bs, ld, kc, t);
            }
        }
        for (int64_t s = c0; s < c1; ++s) {
            const T* t = acc.data() + (s - c0) * tile;
            const int64_t j0 = s * W, w = std::min<int64_t>(W, n - j0);
            for (int64_t r = 0; r < m; ++r)
                for (int64_t j = 0; j < w; ++j) {
                    T& o = c[r * crs + (j0 + j) * ccs];
                    o = beta == T(0) ? alpha * t[r * W + j] : alpha * t[r * W + j] + beta * o;
                }
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
    T7_UNROLL
    for (int r = 0; r < MR; ++r) {
        T7_UNROLL
        for (int j = 0; j < NC; ++j) acc[r][j] = pk::pset1<P>(T(0));
    }
    for (int64_t p = 0; p < kp; p += S) {
        P bv[NC];
        T7_UNROLL
        for (int j = 0; j < NC; ++j) {
            bv[j] = pk::ploadu<P>(b + j * ldb + p);
            prefetch_at(b + j * ldb + p, skinny_dot_prefetch);
        }
        T7_UNROLL
        for (int r = 0; r < MR; ++r) {
            P av = pk::ploadu<P>(a + r * lda + p);
            keep_in_register(av);
            T7_UNROLL
            for (int j = 0; j < NC; ++j) acc[r][j] = pk::pmadd(av, bv[j], acc[r][j]);
        }
    }
    T7_UNROLL
    for (int r = 0; r < MR; ++r) {
        T7_UNROLL
        for (int j = 0; j < NC; ++j) out[r * NC + j] = pk::predux(acc[r][j]);
    }
}

// Rows [0, m) of NC columns of B: groups of skinny_tile_rows, then 4, 2, 1 rows of A.
template <class T, int NC>
void dot_rows(int64_t m, const T* a, int64_t lda, const T* b, int64_t ldb, int64_t kp, T* out) {
    constexpr int R = skinny_tile_rows;
    int64_t r = 0;
    for (; r + R <= m; r += R) dot_tile<T, R, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC);
    if (R > 4 && r + 4 <= m) dot_tile<T, 4, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC), r += 4;
    if (r + 2 <= m) dot_tile<T, 2, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC), r += 2;
    if (r < m) dot_tile<T, 1, NC>(a + r * lda, lda, b, ldb, kp, out + r * NC);
}

// Column groups [g0, g1) of C = alpha A B + beta C (beta 0: C unread), a group
// being 3 columns (the last n % 3 columns one group each, after the others): A
// m x k with unit column stride, B k x n with unit row stride, C any strides;
// m <= 16. kp: k rounded up to a multiple of S; A's rows (lda apart) hold kp
// elements, zero-padded (the caller pads them); B's columns hold k. Each
// element: the sums of blocks of skinny_dot_bytes of k, in order, then that of
// the last packet (padded).
template <class T>
void skinny_dot(int64_t g0, int64_t g1, T alpha, const T* a, int64_t lda, int64_t kp, const T* b,
                int64_t ldb, int64_t m, int64_t n, int64_t k, T beta, T* c, int64_t crs,
                int64_t ccs) {
    constexpr int S = packet_size<T>;
    constexpr int64_t kc = skinny_dot_bytes / int64_t(sizeof(T));
    const int64_t full = n / 3, kb = k / S * S;
    auto first = [&](int64_t g) { return g < full ? 3 * g : 3 * full + (g - full); };
    auto width = [&](int64_t g) { return g < full ? 3 : 1; };
    const int64_t j0 = first(g0), cols = first(g1) - j0;
    std::vector<T> sum(size_t(m * cols), T(0)); // sum[r * cols + j - j0]
    alignas(64) T out[skinny_max * 3];
    alignas(64) T pb[3 * S];
    auto add = [&](int64_t g, int nc) {
        for (int64_t r = 0; r < m; ++r)
            for (int j = 0; j < nc; ++j)
                sum[size_t(r * cols + first(g) - j0 + j)] += out[r * nc + j];
    };
    for (int64_t p0 = 0; p0 < kb; p0 += kc) {
        const int64_t len = std::min(kc, kb - p0);
        for (int64_t g = g0; g < g1; ++g) {
            const T* bj = b + first(g) * ldb + p0;
            if (width(g) == 3)
                dot_rows<T, 3>(m, a + p0, lda, bj, ldb, len, out);
            else
                dot_rows<T, 1>(m, a + p0, lda, bj, ldb, len, out);
            add(g, width(g));
        }
    }
    if (kb < kp) // the last packet of B's columns, padded with zeros
        for (int64_t g = g0; g < g1; ++g) {
            const int nc = width(g);
            const T* bj = b + first(g) * ldb;
            for (int j = 0; j < nc; ++j) {
                std::copy(bj + j * ldb + kb, bj + j * ldb + k, pb + j * S);
                std::fill(pb + j * S + (k - kb), pb + (j + 1) * S, T(0));
            }
            if (nc == 3)
                dot_rows<T, 3>(m, a + kb, lda, pb, S, S, out);
            else
                dot_rows<T, 1>(m, a + kb, lda, pb, S, S, out);
            add(g, nc);
        }
    for (int64_t r = 0; r < m; ++r)
        for (int64_t j = 0; j < cols; ++j) {
            T& o = c[r * crs + (j0 + j) * ccs];
            const T v = sum[size_t(r * cols + j)];
            o = beta == T(0) ? alpha * v : alpha * v + beta * o;
        }
}

} // namespace t7::detail::eig
