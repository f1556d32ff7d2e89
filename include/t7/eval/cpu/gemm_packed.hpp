// tensor7's own GEMM for float and double: C = alpha A B + beta C, A and B of any
// strides, C of unit column stride, on the calling thread or split over the pool.
// The classic blocked scheme (Goto and van de Geijn, "Anatomy of high-performance
// matrix multiplication", 2008), written with Eigen's packets so that it serves
// every instruction set Eigen vectorises for:
//   for each block of gemm_nc columns of B
//     for each block of k (in order; equal blocks of at most gemm_kc rows):
//     pack B's block into panels of NR columns (split over the pool), then
//       for each block of rows of A (split over the pool): pack it into tiles
//       of MR rows, then for each panel, for each tile: the register tile
// The register tile keeps MR x NR elements of C in MR x NV packets (NR = NV
// packets): per step of k, NV packet loads of B and MR broadcasts of A feed
// MR x NV fused multiply-adds. With 32 vector registers (AVX-512): 12 x 2 packets,
// 24 accumulators; with 16 (AVX, SSE): 6 x 2.
// Why not Eigen's GEMM: its AVX-512 tile (3 packets x 4 columns, 12 accumulators)
// ran at 63-72 % of a Zen 5 core's FMA peak where OpenBLAS ran at 85-100 %, and
// on an AVX2 Zen 3 core at 45-70 % of OpenBLAS's rate (bench/RESULTS.md); each
// call allocates its packing buffers (fresh pages), and each part of a product
// packed all of B again.
// Here the buffers are each thread's own and reused, and B's packed block is
// shared by all the threads of a product.
// Bits: an element of C is, for each block of k in order, one chain of fused
// multiply-adds over the block, then C = alpha acc + C (+ beta C for the first):
// the same whatever the tile, the part or the thread that computes it (an edge
// tile runs the same packet arithmetic on a copy), so a product's bits do not
// depend on the thread count or on a partition of C.
#pragma once

#include "../../iter/parallel.hpp"
#include "gemm_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

// The register tile's loop over k unrolled 4 times (77 -> 84-94 GFLOP/s float
// on an AVX2 core: the loop's own instructions compete with the FMAs).
#if defined(__clang__)
#define T7_UNROLL_K _Pragma("unroll 4")
#elif defined(__GNUC__)
#define T7_UNROLL_K _Pragma("GCC unroll 4")
#else
#define T7_UNROLL_K
#endif

namespace t7::detail::eig {

// Register tile and blocks: a block of k of gemm_kc<T> keeps B's panel (kc x NR,
// gemm_panel_bytes) in the level-1 cache while A's tiles stream by (384 with AVX2:
// against OpenBLAS in the same run, 384 was ahead of 256 and 512); A's block,
// gemm_mc_bytes, in level 2 (128 KiB ahead of 256); B's block, up to
// gemm_nc_bytes, in level 3.
template <class T>
struct GemmTile {
    static constexpr int S = packet_size<T>;
    static constexpr int NV = 2;
    static constexpr int NR = NV * S;
    // (Eigen's count is an expression, (2 * sizeof(void*)) with SSE: not for #if.)
    static constexpr int MR = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 12 : 6;
};
inline constexpr int64_t gemm_panel_bytes = int64_t(24) << 10;
template <class T>
inline constexpr int64_t gemm_kc = gemm_panel_bytes / (GemmTile<T>::NR * int64_t(sizeof(T)));
inline constexpr int64_t gemm_mc_bytes = int64_t(128) << 10;
inline constexpr int64_t gemm_nc_bytes = int64_t(4) << 20;
// Multiply-adds of about 5 us on one thread (the pool's grain): a product of
// fewer than 8 of them wakes no sleeping pool thread. And elements packed in
// about that time.
inline constexpr int64_t gemm_grain_work = int64_t(1) << 17;
inline constexpr int64_t gemm_pack_grain = int64_t(1) << 14;

// A thread's packing buffer, grown on demand and kept (fresh pages cost ~9 us
// each on first touch: a product reuses what the last one touched). One for A's
// blocks, one for B's; 64-byte aligned.
struct GemmBuffer {
    void* data = nullptr;
    size_t bytes = 0;
    GemmBuffer() = default;
    GemmBuffer(const GemmBuffer&) = delete;
    GemmBuffer& operator=(const GemmBuffer&) = delete;
    ~GemmBuffer() { std::free(data); }
    template <class T>
    T* get(int64_t count) {
        const size_t need = (size_t(count) * sizeof(T) + 63) / 64 * 64;
        if (need > bytes) {
            void* p = std::aligned_alloc(64, need);
            if (p == nullptr) throw std::bad_alloc();
            std::free(data);
            data = p;
            bytes = need;
        }
        return static_cast<T*>(data);
    }
};
inline GemmBuffer& gemm_buffer_a() {
    thread_local GemmBuffer b;
    return b;
}
inline GemmBuffer& gemm_buffer_b() {
    thread_local GemmBuffer b;
    return b;
}

// One panel of B or tile of A in its packed layout, any strides: out[p * width +
// x] = src[p * step_k + x * step_x] for x < valid, zeros up to width; p < kc.
template <class T>
void gemm_pack_strided(const T* src, int64_t step_k, int64_t step_x, int64_t kc, int64_t valid,
                       int64_t width, T* out) {
    for (int64_t p = 0; p < kc; ++p) {
        for (int64_t x = 0; x < valid; ++x) out[p * width + x] = src[p * step_k + x * step_x];
        for (int64_t x = valid; x < width; ++x) out[p * width + x] = T(0);
    }
}

// B[p0 .. p0 + kc, j0 .. j0 + nc) into panels of NR columns (the last padded with
// zeros): panel q holds, for each p, NR consecutive values.
template <class T>
void gemm_pack_b(const T* b, int64_t rs, int64_t cs, int64_t kc, int64_t nc, T* out) {
    constexpr int NR = GemmTile<T>::NR;
    for (int64_t j0 = 0; j0 < nc; j0 += NR, out += kc * NR) {
        const int64_t w = std::min<int64_t>(NR, nc - j0);
        const T* src = b + j0 * cs;
        if (cs == 1 && w == NR) {
            using P = Packet<T>;
            constexpr int S = GemmTile<T>::S;
            for (int64_t p = 0; p < kc; ++p) {
                T7_UNROLL
                for (int v = 0; v < NR; v += S)
                    pk::pstore(out + p * NR + v, pk::ploadu<P>(src + p * rs + v));
            }
        } else {
            gemm_pack_strided(src, rs, cs, kc, w, NR, out);
        }
    }
}

// A[i0 .. i0 + mc, p0 .. p0 + kc) into tiles of MR rows (the last padded with
// zeros): tile t holds, for each p, MR consecutive values.
template <class T>
void gemm_pack_a(const T* a, int64_t rs, int64_t cs, int64_t mc, int64_t kc, T* out) {
    constexpr int MR = GemmTile<T>::MR;
    for (int64_t i0 = 0; i0 < mc; i0 += MR, out += kc * MR) {
        const int64_t h = std::min<int64_t>(MR, mc - i0);
        const T* src = a + i0 * rs;
        if (rs == 1 && h == MR) {
            for (int64_t p = 0; p < kc; ++p) std::copy_n(src + p * cs, MR, out + p * MR);
        } else if (h == MR) { // rows of unit (or any) stride: MR rows side by side
            for (int64_t p = 0; p < kc; ++p) {
                T7_UNROLL
                for (int i = 0; i < MR; ++i) out[p * MR + i] = src[i * rs + p * cs];
            }
        } else {
            gemm_pack_strided(src, cs, rs, kc, h, MR, out);
        }
    }
}

// How a tile's result meets C: C = alpha acc (beta 0, C unread), C = alpha acc +
// beta C, or C = alpha acc + C (every block of k after the first).
enum class GemmStore { overwrite, scale, add };

// C[0 .. rows, 0 .. cols) (row stride ldc, unit column stride) from one tile:
// the packed a (MR x kc) times the packed b (kc x NR).
template <class T>
[[gnu::noinline]] void gemm_tile(int64_t kc, const T* __restrict a, const T* __restrict b, T alpha,
                                 T beta, GemmStore mode, T* c, int64_t ldc, int64_t rows,
                                 int64_t cols) {
    using P = Packet<T>;
    using G = GemmTile<T>;
    constexpr int S = G::S, MR = G::MR, NV = G::NV, NR = G::NR;
    P acc[MR][NV];
    T7_UNROLL
    for (int i = 0; i < MR; ++i) {
        T7_UNROLL
        for (int v = 0; v < NV; ++v) acc[i][v] = pk::pset1<P>(T(0));
        // C's rows lie a row stride apart: not a stream the hardware prefetches.
        if (mode != GemmStore::overwrite && i < rows) {
            prefetch_at(c + i * ldc, 0);
            prefetch_at(c + i * ldc, int64_t(sizeof(T)) * (NR - 1));
        }
    }
    T7_UNROLL_K
    for (int64_t p = 0; p < kc; ++p) {
        P bv[NV];
        T7_UNROLL
        for (int v = 0; v < NV; ++v) bv[v] = pk::pload<P>(b + p * NR + v * S);
        T7_UNROLL
        for (int i = 0; i < MR; ++i) {
            const P ai = pk::pset1<P>(a[p * MR + i]);
            T7_UNROLL
            for (int v = 0; v < NV; ++v) acc[i][v] = pk::pmadd(ai, bv[v], acc[i][v]);
        }
    }
    // An edge tile: the same arithmetic on a copy of C's part.
    alignas(64) T edge[MR * NR];
    const bool full = rows == MR && cols == NR;
    T* out = c;
    int64_t ld = ldc;
    if (!full) {
        for (int64_t i = 0; i < rows && mode != GemmStore::overwrite; ++i)
            std::copy_n(c + i * ldc, cols, edge + i * NR);
        out = edge;
        ld = NR;
    }
    const P va = pk::pset1<P>(alpha), vb = pk::pset1<P>(beta);
    T7_UNROLL
    for (int i = 0; i < MR; ++i) {
        T7_UNROLL
        for (int v = 0; v < NV; ++v) {
            T* o = out + i * ld + v * S;
            if (!full && i >= rows) break;
            P r = pk::pmul(va, acc[i][v]);
            if (mode == GemmStore::add)
                r = pk::padd(r, pk::ploadu<P>(o));
            else if (mode == GemmStore::scale)
                r = pk::pmadd(vb, pk::ploadu<P>(o), r);
            pk::pstoreu(o, r);
        }
    }
    if (!full)
        for (int64_t i = 0; i < rows; ++i) std::copy_n(edge + i * NR, cols, c + i * ldc);
}

// C = alpha A B + beta C: A m x k (strides ars, acs), B k x n (brs, bcs), C m x n
// (row stride ldc, unit column stride); beta 0: C's values unread. Rows of C
// split over the pool when `threaded` (by tiles of MR rows: any split gives
// the same bits).
template <class T>
void gemm_packed(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t ars, int64_t acs,
                 const T* b, int64_t brs, int64_t bcs, T beta, T* c, int64_t ldc, bool threaded) {
    using G = GemmTile<T>;
    constexpr int64_t MR = G::MR, NR = G::NR;
    if (m <= 0 || n <= 0) return;
    if (k <= 0) { // C = beta C
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
                c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
        return;
    }
    // Blocks of k of equal depth (a short last block pays C's update for little
    // work, and leaves the threads little to share): 512 is 256 + 256, not 384 + 128.
    const int64_t kblocks = (k + gemm_kc<T> - 1) / gemm_kc<T>;
    const int64_t kc_max = (k + kblocks - 1) / kblocks;
    const int64_t nc_max =
        std::max<int64_t>(NR, gemm_nc_bytes / (kc_max * int64_t(sizeof(T))) / NR * NR);
    const int64_t mc_max =
        std::max<int64_t>(MR, gemm_mc_bytes / (kc_max * int64_t(sizeof(T))) / MR * MR);
    const int64_t tiles = (m + MR - 1) / MR;
    T* bp = gemm_buffer_b().get<T>(kc_max * ((std::min(n, nc_max) + NR - 1) / NR * NR));
    const iter::Linger linger(threaded); // two loops a block of k
    for (int64_t j0 = 0; j0 < n; j0 += nc_max) {
        const int64_t nc = std::min(nc_max, n - j0);
        for (int64_t p0 = 0; p0 < k; p0 += kc_max) {
            const int64_t kc = std::min(kc_max, k - p0);
            const GemmStore mode = p0 > 0         ? GemmStore::add
                                   : beta == T(0) ? GemmStore::overwrite
                                   : beta == T(1) ? GemmStore::add
                                                  : GemmStore::scale;
            // B's block, by panels: on the pool too (a serial pack would cost a
            // second thread a few per cent; grains of about the time of
            // gemm_grain_work multiply-adds).
            auto pack = [&](int64_t q0, int64_t q1, int64_t) {
                gemm_pack_b(b + p0 * brs + (j0 + q0 * NR) * bcs, brs, bcs, kc,
                            std::min(nc, q1 * NR) - q0 * NR, bp + q0 * NR * kc);
            };
            const int64_t panels = (nc + NR - 1) / NR;
            if (threaded)
                iter::parallel_split(panels, kc * nc / gemm_pack_grain, pack);
            else
                pack(0, panels, 0);
            auto rows = [&](int64_t t0, int64_t t1, int64_t) {
                T* ap = gemm_buffer_a().get<T>(std::min(mc_max, (t1 - t0) * MR) * kc);
                for (int64_t i0 = t0 * MR; i0 < std::min(m, t1 * MR); i0 += mc_max) {
                    const int64_t mc = std::min({mc_max, m - i0, t1 * MR - i0});
                    gemm_pack_a(a + i0 * ars + p0 * acs, ars, acs, mc, kc, ap);
                    for (int64_t jr = 0; jr < nc; jr += NR)
                        for (int64_t ir = 0; ir < mc; ir += MR)
                            gemm_tile(kc, ap + ir * kc, bp + jr * kc, alpha, beta, mode,
                                      c + (i0 + ir) * ldc + j0 + jr, ldc, std::min(MR, mc - ir),
                                      std::min(NR, nc - jr));
                }
            };
            const double macs = double(m) * double(nc) * double(kc);
            if (threaded)
                iter::parallel_split(tiles, int64_t(macs / double(gemm_grain_work)), rows);
            else
                rows(0, tiles, 0);
        }
    }
}

} // namespace t7::detail::eig
