// Fused CPU assignment of a tree holding a pending matrix product (chosen by
// eval/pending.hpp: 2-D, or 3-D for bmm's batch, of the destination's shape,
// not reading it). The product is computed by blocks, each into a per-thread
// buffer small enough to stay in cache (a single-threaded GEMM inside the
// thread's block, never Eigen's OpenMP threads: eval/cpu/blas.hpp), and the
// assignment's own type-erased run kernel (assign.hpp) then runs over that block of the destination
// with the product's leaf read from the buffer: the product never exists whole. Blocks are
// near-square, not full-width panels: each block's GEMM packs its rows of a and
// its columns of b, and square blocks pack the least for a given buffer. The
// product alone (`y = mm(a, b)`, `y = bmm(a, b)`) goes straight into y: the
// whole product into a contiguous y, else one GEMM a matrix.
#pragma once

#include "assign.hpp"
#include "gemm_kernels.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

namespace t7::cpu {

// Bytes of one block of the product (at least one element): about the L2 of
// one core. Each block's GEMM packs its operands' rows and columns anew, so
// blocks much smaller cost more packing than the cache saves.
inline int64_t product_panel_bytes = int64_t(512) << 10;
// A product of a few blocks' worth of multiply-adds is still cut into up to
// product_min_blocks blocks of at least product_block_work each, so that the
// threads share it (sigmoid(mm(x, w) + bias), 256x512 @ 512x512: one 512 KiB
// block, one thread, before). By the shape alone: the same bits at any thread count.
inline constexpr int64_t product_min_blocks = 4;
inline constexpr int64_t product_block_work = int64_t(1) << 21;
// Multiply-adds of about 5 us on one thread (the pool's grain; eval/cpu/blas.hpp's
// gemm_grain_work): what wakes sleeping pool threads is counted in these.
inline constexpr int64_t product_grain_work = int64_t(1) << 17;

// This thread's block buffer, grown as needed and kept: after the first
// assignment of a given size, no allocation.
inline char* panel_buffer(size_t bytes) {
    thread_local std::unique_ptr<char[]> buf;
    thread_local size_t cap = 0;
    if (cap < bytes) {
        buf.reset(); // the old one first: peak memory is one buffer
        cap = 0;
        buf.reset(new char[bytes]);
        cap = bytes;
    }
    return buf.get();
}

template <size_t N>
void drive_product_blocks(const LeafRef& dst, const LeafRef* leaves,
                          const detail::PendingProducer& prod, AssignKernel kernel,
                          const void* expr, bool plain_copy) {
    constexpr size_t L = N - 1;
    size_t kp = 0;
    while (!leaves[kp].pending) ++kp;
    // The shape is (m, p), or (B, m, p) for a batch of products (eval/pending.hpp).
    const Shape& shape = *dst.sizes;
    const size_t r = shape.size();
    const int64_t batches = r == 3 ? shape[0] : 1, m = shape[r - 2], p = shape[r - 1];
    const int64_t db = r == 3 ? (*dst.strides)[0] : 0, ds0 = (*dst.strides)[r - 2],
                  ds1 = (*dst.strides)[r - 1];
    char* out = static_cast<char*>(const_cast<void*>(dst.data));

    // y = mm(a, b), y = bmm(a, b): straight into y (the whole product when y is
    // contiguous, else one GEMM a matrix when y's rows are).
    if (plain_copy && is_contiguous(shape, *dst.strides)) return prod.fill(out);
    if (plain_copy && (ds1 == 1 || p == 1) && (ds0 >= p || m == 1)) {
        for (int64_t q = 0; q < batches; ++q)
            prod.whole_rows(q, 0, m, out + q * db * dst.elem_size, m == 1 ? p : ds0);
        return;
    }

    // Batch, row and column strides of every operand at the destination's
    // shape; the product's leaf is read from the block buffer (row-major, `bc`
    // per row).
    std::array<int64_t, L> bs, rs, cs;
    std::array<const char*, L> base;
    Shape st;
    bool unit = true, packets = ds1 == 1;
    for (size_t k = 0; k < L; ++k) {
        detail::broadcast_strides_into(st, *leaves[k].sizes, *leaves[k].strides, shape);
        bs[k] = r == 3 ? st[0] : 0;
        rs[k] = st[r - 2];
        cs[k] = k == kp ? 1 : st[r - 1];
        base[k] = static_cast<const char*>(leaves[k].data);
        unit = unit && cs[k] == 1;
        packets = packets && (cs[k] == 0 || cs[k] == 1);
    }
    const RunKind kind =
        !packets ? RunKind::scalar : (unit ? RunKind::unit_packets : RunKind::packets);
    // Block shape br x bc: square-ish, columns a multiple of 16 (whole packets);
    // all the rows of a product of few (blas.hpp's skinny kernels, which read b
    // once, unpacked, and best in long runs of its rows), its columns as many as
    // fit (NPBench mlp's relu(mm(x, w) + bias), 8 x 30000 @ 30000 x 10000, one
    // thread: 202 ms by blocks of 8 x 352, 138 ms by 4 blocks of 8 x 2512).
    const int esz = leaves[kp].elem_size;
    const double work = double(batches) * double(m) * double(p) * double(prod.depth);
    const int64_t split = std::clamp<int64_t>(
        int64_t(std::min(work / double(product_block_work), 1e9)) / batches, 1, product_min_blocks);
    int64_t bc = 0, br = 0;
    auto block_shape = [&](int64_t elems) {
        const bool all_rows = m >= 1 && m <= detail::eig::skinny_max;
        bc = all_rows ? std::max<int64_t>(16, (elems / m + 15) / 16 * 16)
                      : std::max<int64_t>(16, int64_t(std::sqrt(double(elems))) / 16 * 16);
        if (bc >= p) bc = p;
        br = all_rows ? m : std::clamp<int64_t>(elems / bc, 1, m);
    };
    block_shape(std::max<int64_t>(1, product_panel_bytes / esz));
    if (((m + br - 1) / br) * ((p + bc - 1) / bc) < split) // too few: smaller blocks
        block_shape(std::max<int64_t>(1, m * p / split));
    const int64_t nbr = (m + br - 1) / br, nbc = (p + bc - 1) / bc;
    // Whole rows merge into one run when every operand's rows follow each other.
    bool merge = bc == p && ds1 == 1 && ds0 == p;
    for (size_t k = 0; k < L; ++k) merge = merge && (k == kp || rs[k] == p * cs[k]);

    // Units of work: the blocks of every matrix, matrix by matrix; the threads
    // they are worth, by their multiply-adds (a recipe of unknown depth: one a block).
    const int64_t units = batches * nbr * nbc;
    const int64_t grains =
        prod.depth > 0 ? int64_t(std::min(work / double(product_grain_work), 1e15)) : units;
    iter::parallel_split(units, grains, [&](int64_t first, int64_t last, int64_t) {
        char* buf = panel_buffer(size_t(br * bc * esz));
        std::array<const void*, L> in;
        for (int64_t u = first; u < last; ++u) {
            const int64_t q = u / (nbr * nbc), blk = u % (nbr * nbc);
            const int64_t r0 = blk / nbc * br, r1 = std::min(m, r0 + br);
            const int64_t c0 = blk % nbc * bc, c1 = std::min(p, c0 + bc);
            prod.block(q, r0, r1, c0, c1, buf, bc);
            auto run = [&](int64_t i, int64_t n) {
                for (size_t k = 0; k < L; ++k)
                    in[k] = k == kp ? buf + (i - r0) * bc * esz
                                    : base[k] + (q * bs[k] + i * rs[k] + c0 * cs[k]) *
                                                    leaves[k].elem_size;
                kernel(expr, AssignRun{out + (q * db + i * ds0 + c0 * ds1) * dst.elem_size, ds1,
                                       in.data(), cs.data(), n, kind});
            };
            if (merge)
                run(r0, (r1 - r0) * p);
            else
                for (int64_t i = r0; i < r1; ++i) run(i, c1 - c0);
        }
    });
}

} // namespace t7::cpu
