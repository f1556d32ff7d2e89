// Fused CPU assignment of a tree holding a pending matrix product (chosen by
// eval/pending.hpp: 2-D, of the destination's shape, not reading it). The
// product is computed by panels of rows, each into a per-thread buffer small
// enough to stay in L2 (Eigen's GEMM, single-threaded inside the thread's
// panel), and the assignment's own type-erased run kernel (assign.hpp) then
// runs over those rows of the destination with the product's leaf read from
// the buffer: the product never exists whole. `y = mm(a, b)` alone is one
// GEMM straight into y.
#pragma once

#include "assign.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <memory>

namespace t7::cpu {

// Bytes of one panel of product rows (at least one row). Eigen repacks the
// right operand for every panel, so panels should not be much smaller.
inline int64_t product_panel_bytes = int64_t(256) << 10;

// This thread's panel buffer, grown as needed and kept: after the first
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
void drive_product_blocks(const LeafRef& dst, const LeafRef* leaves, AssignKernel kernel,
                          const void* expr, bool plain_copy) {
    constexpr size_t L = N - 1;
    size_t kp = 0;
    while (!leaves[kp].pending) ++kp;
    const detail::PendingProducer& prod = *leaves[kp].pending;
    const Shape& shape = *dst.sizes;
    const int64_t m = shape[0], p = shape[1], ds0 = (*dst.strides)[0], ds1 = (*dst.strides)[1];
    char* out = static_cast<char*>(const_cast<void*>(dst.data));
    // Eigen's GEMM threads follow t7's, as in eval/cpu/blas.hpp (set outside the
    // region; inside it, where a panel's GEMM runs, Eigen stays single-threaded).
    if (Eigen::nbThreads() != getNumThreads()) Eigen::setNbThreads(getNumThreads());

    if (plain_copy && (ds1 == 1 || p == 1) && (ds0 >= p || m == 1))
        return prod.rows(0, m, out, m == 1 ? p : ds0); // y = mm(a, b): GEMM into y

    // Row and column strides of every operand at the destination's shape; the
    // product's leaf is read from the panel buffer (row-major, p per row).
    std::array<int64_t, L> rs, cs;
    std::array<const char*, L> base;
    Shape st;
    bool unit = true, packets = ds1 == 1, merge = ds1 == 1 && ds0 == p;
    for (size_t k = 0; k < L; ++k) {
        detail::broadcast_strides_into(st, *leaves[k].sizes, *leaves[k].strides, shape);
        rs[k] = k == kp ? p : st[0];
        cs[k] = k == kp ? 1 : st[1];
        base[k] = static_cast<const char*>(leaves[k].data);
        unit = unit && cs[k] == 1;
        packets = packets && (cs[k] == 0 || cs[k] == 1);
        merge = merge && rs[k] == p * cs[k]; // rows follow each other: one run per panel
    }
    const RunKind kind =
        !packets ? RunKind::scalar : (unit ? RunKind::unit_packets : RunKind::packets);
    const int esz = leaves[kp].elem_size;
    const int64_t rows = std::clamp<int64_t>(product_panel_bytes / (p * esz), 1, m);
    const int64_t panels = (m + rows - 1) / rows;

    iter::parallel_for(panels, 1, [&](int64_t first, int64_t last, int64_t) {
        char* buf = panel_buffer(size_t(rows * p * esz));
        std::array<const void*, L> in;
        for (int64_t q = first; q < last; ++q) {
            const int64_t r0 = q * rows, r1 = std::min(m, r0 + rows);
            prod.rows(r0, r1, buf, p);
            auto run = [&](int64_t i, int64_t n) {
                for (size_t k = 0; k < L; ++k)
                    in[k] = k == kp ? buf + (i - r0) * p * esz
                                    : base[k] + i * rs[k] * leaves[k].elem_size;
                kernel(expr, AssignRun{out + i * ds0 * dst.elem_size, ds1, in.data(), cs.data(), n,
                                       kind});
            };
            if (merge)
                run(r0, (r1 - r0) * p);
            else
                for (int64_t i = r0; i < r1; ++i) run(i, p);
        }
    });
}

} // namespace t7::cpu
