// CPU assignment: runs an expression tree into a destination in one pass.
// Plans the loop with the shared iteration core (operand 0 = destination,
// operands 1.. = the tree's leaves), splits it over threads above a grain, and
// runs each inner run through Eigen packets when the destination and every
// leaf are unit-stride or broadcast (stride 0) along it; a scalar loop otherwise.
#pragma once

#include "../../expr/cost.hpp"
#include "../../expr/traverse.hpp"
#include "../../iter/loop.hpp"
#include "../../iter/pack.hpp"
#include "../../iter/parallel.hpp"
#include "../../iter/tile.hpp"
#include "node_eval.hpp"
#include "stream_copy.hpp"

#include <array>
#include <cstring>

namespace t7 {

namespace cpu {

// Peel: first the elements before out's first packet-aligned address, as
// Eigen does: a packet store across two cache lines costs about two (user
// buffers from fromBlob or Storage::wrap are often only 16-byte aligned).
// Only for trees whose scalar form is cheap, and runs long enough to pay.
// The peeled head and the tail share one scalar loop: a second inlined copy of
// the tree's scalar form made each arithmetic expression 16 % slower to compile.
template <bool AllUnit, bool Peel, class T, class B>
T7_INLINE void packet_loop(T* T7_RESTRICT out, const B& b, int64_t n) {
    constexpr int P = packet_size<T>;
    int64_t i = 0, stop = 0; // the scalar loop's first pass: the head (none unpeeled)
    if constexpr (Peel) {
        constexpr uintptr_t bytes = P * sizeof(T);
        const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
        if (n >= 8 * P && addr % sizeof(T) == 0)
            stop = int64_t((bytes - addr % bytes) % bytes / sizeof(T));
    }
    for (;;) { // first pass: stop < n (a head is under a packet of n >= 8), or n == 0
        for (; i < stop; ++i) out[i] = scalar_at(b, i);
        if (stop == n) return;
        for (; i + P <= n; i += P) ei::pstoreu(out + i, packet_at<AllUnit>(b, i));
        stop = n;
    }
}

// A comparison into bytes, a packet of its operand type at a time.
template <bool AllUnit, class U, class B>
T7_INLINE void byte_compare_loop(uint8_t* T7_RESTRICT out, const B& b, int64_t n) {
    constexpr int P = packet_size<U>;
    int64_t i = 0;
    for (; i + P <= n; i += P) store_mask_bytes<U>(out + i, mask_packet_at<AllUnit, U>(b, i));
    for (; i < n; ++i) out[i] = scalar_at(b, i);
}

// How a run's leaves stride: packets need strides 1, 0 (broadcast) or -1
// (reversed), and a unit-stride destination; all-unit runs skip the test per packet.
enum class RunKind { scalar, packets, unit_packets };

// Evaluates n elements of the bound tree b (of node type E) into out[0],
// out[os], ... for one run.
template <class E, class T, class B>
T7_INLINE void assign_run(T* T7_RESTRICT out, int64_t os, const B& b, int64_t n, RunKind kind) {
    if constexpr (vectorizable_v<E, T>) {
        constexpr bool peel = expr_ops_cost<E> < 32; // no transcendental function
        if (kind == RunKind::unit_packets) return packet_loop<true, peel>(out, b, n);
        if (kind == RunKind::packets) return packet_loop<false, peel>(out, b, n);
    } else if constexpr (std::is_same_v<T, uint8_t> && byte_compare_vectorizable_v<E>) {
        using U = typename byte_compare<E>::operand;
        if (kind == RunKind::unit_packets) return byte_compare_loop<true, U>(out, b, n);
        if (kind == RunKind::packets) return byte_compare_loop<false, U>(out, b, n);
    }
    for (int64_t i = 0; i < n; ++i) out[i * os] = convert<T>(scalar_at(b, i));
}

// inner[k]: operand k's stride along a run; operands before first_leaf are
// outputs, unit-stride when `unit_out`.
template <size_t N>
RunKind run_kind(const std::array<int64_t, N>& inner, size_t first_leaf, bool unit_out) {
    bool unit = true, packets = unit_out;
    for (size_t k = first_leaf; k < N; ++k) {
        unit = unit && inner[k] == 1;
        packets = packets && inner[k] >= -1 && inner[k] <= 1; // -1: reversed packets
    }
    return !packets ? RunKind::scalar : (unit ? RunKind::unit_packets : RunKind::packets);
}

// Operand table of one evaluation: pointers and broadcast strides, operand 0
// being the destination (or nothing, for reductions that write no tensor).
template <size_t N>
struct Operands {
    std::array<const void*, N> base{};
    std::array<Shape, N> strides;
    std::array<int, N> elem_size{};
};

template <size_t First, class E, size_t N>
void collect_leaves(const E& e, const Shape& shape, Operands<N>& ops) {
    size_t k = First;
    for_each_leaf(e, [&](const auto& leaf) {
        const auto& t = leaf.tensor();
        ops.base[k] = t.data();
        detail::broadcast_strides_into(ops.strides[k], t.sizes(), t.strides(), shape);
        ops.elem_size[k] = int(sizeof(typename std::remove_cvref_t<decltype(leaf)>::value_type));
        ++k;
    });
}

// Reversed dimensions walked forwards (iter::walk_forwards), the operands'
// first elements moved to match: for evaluations in any order.
template <size_t N>
void walk_forwards(const Shape& shape, Operands<N>& ops) {
    std::array<int64_t, N> shift{};
    iter::walk_forwards(shape, ops.strides, shift);
    for (size_t k = 0; k < N; ++k)
        if (shift[k] != 0)
            ops.base[k] = static_cast<const char*>(ops.base[k]) + shift[k] * ops.elem_size[k];
}

template <size_t N>
iter::Loop<N> plan(const Shape& shape, const Operands<N>& ops) {
    std::array<const Shape*, N> st;
    for (size_t k = 0; k < N; ++k) st[k] = &ops.strides[k];
    return iter::make_loop<N>(shape, st);
}

// `rows` inner runs of an assignment: n elements into out[0], out[out_stride],
// ..., reading operand k at in[k] with stride in_stride[k]; run j starts
// j * row_bytes[0] bytes after out and j * row_bytes[k + 1] after in[k].
struct AssignRun {
    void* out;
    int64_t out_stride;
    const void* const* in;
    const int64_t* in_stride;
    int64_t n;
    RunKind kind;
    int64_t rows = 1;
    const int64_t* row_bytes = nullptr; // read only when rows > 1
};
using AssignKernel = void (*)(const void* expr, const AssignRun& run);

// The only part of an assignment compiled per expression: the tree's loops
// over one run (unit-stride packets, broadcast packets, scalars). Planning,
// threading and tiling around it (drive_assign) are compiled once per operand
// count, and reach it through assign_kernel's pointer.
template <class E, class T>
inline void assign_one_run(const void* expr, const AssignRun& r) {
    const auto b = bind<0>(*static_cast<const E*>(expr), RunArgs{r.in, r.in_stride});
    assign_run<E>(static_cast<T*>(r.out), r.out_stride, b, r.n, r.kind);
}

// The drivers' kernel: a block of r.rows runs (a 256 x 256 broadcast costs one
// call per block of rows, not one per row). The flat front calls
// assign_one_run itself, which the compiler inlines there when it is small,
// as it does here: one copy of the run loops in each place, as before blocks.
template <class E, class T>
void assign_kernel(const void* expr, const AssignRun& r) {
    auto b = bind<0>(*static_cast<const E*>(expr), RunArgs{r.in, r.in_stride});
    T* out = static_cast<T*>(r.out);
    for (int64_t j = 0;;) {
        assign_run<E>(out, r.out_stride, b, r.n, r.kind);
        if (++j >= r.rows) return;
        out = reinterpret_cast<T*>(reinterpret_cast<char*>(out) + r.row_bytes[0]);
        advance<0>(b, r.row_bytes + 1); // bound once: each row moves the pointers on
    }
}

// Elements [begin, end) of a flat assignment (drive_assign): one unit-stride
// run, or a memcpy for a plain copy.
template <size_t N>
T7_INLINE void flat_range(const LeafRef& dst, const LeafRef* leaves, AssignKernel kernel,
                          const void* expr, bool plain_copy, int64_t begin, int64_t end) {
    char* out = static_cast<char*>(const_cast<void*>(dst.data)) + begin * dst.elem_size;
    std::array<const void*, N> in;
    for (size_t k = 0; k + 1 < N; ++k)
        in[k] = static_cast<const char*>(leaves[k].data) + begin * leaves[k].elem_size;
    if constexpr (N == 2) {
        if (plain_copy) { // never overlapping: x = x is the one alias that gets here
            if (out != in[0]) std::memcpy(out, in[0], size_t(end - begin) * dst.elem_size);
            return;
        }
    }
    std::array<int64_t, N> ones;
    ones.fill(1);
    kernel(expr, AssignRun{out, 1, in.data(), ones.data(), end - begin, RunKind::unit_packets});
}

// Bytes from one row of each operand to the next (the second innermost loop
// dimension); zeros for a 1-D loop, whose blocks are single rows.
template <size_t N>
std::array<int64_t, N> row_bytes(const iter::Loop<N>& L, const Operands<N>& ops) {
    std::array<int64_t, N> b{};
    if (L.rank() >= 2)
        for (size_t k = 0; k < N; ++k) b[k] = L.strides[k][L.rank() - 2] * ops.elem_size[k];
    return b;
}

// One kernel call's worth of a planned loop: `rows` runs of n elements;
// operand k starts at at[k], strides inner[k] elements along a run and step[k]
// bytes from one run to the next.
struct RowBlock {
    const void* const* at;
    const int64_t* inner;
    const int64_t* step;
    int64_t n, rows;
    RunKind kind;
};

// The operands a tiled walk packs (iter/pack.hpp: the strided inputs, when the
// outputs are unit-stride), and every operand's strides once they are packed.
template <size_t N>
struct PackPlan {
    std::array<bool, N> packed{};
    std::array<int64_t, N> inner{}, step{};
    int64_t cols = 0; // a tile's columns (its rows: iter::pack_rows)
    RunKind kind = RunKind::scalar;
    bool any = false;
};

template <size_t N>
PackPlan<N> plan_packing(const Operands<N>& ops, size_t first_in,
                         const std::array<int64_t, N>& inner, const std::array<int64_t, N>& step) {
    PackPlan<N> p;
    p.inner = inner;
    p.step = step;
    for (size_t k = 0; k < first_in; ++k)
        if (inner[k] != 1) return p; // strided outputs: the square tiles
    int count = 0, widest = 1;
    for (size_t k = first_in; k < N && count < iter::max_packed; ++k) {
        if (inner[k] == 0 || inner[k] == 1) continue;
        p.packed[k] = true;
        ++count;
        widest = std::max(widest, ops.elem_size[k]);
    }
    if (count == 0) return p;
    p.any = true;
    p.cols = iter::packed_cols(count, widest);
    for (size_t k = 0; k < N; ++k) {
        if (!p.packed[k]) continue;
        p.inner[k] = 1;
        p.step[k] = p.cols * ops.elem_size[k];
    }
    p.kind = run_kind(p.inner, first_in, true);
    return p;
}

// Every run of a planned loop, split over the thread team, as calls
// run_block(RowBlock): whole rows in blocks, without the odometer between
// them; or, when a transposed input wants tiles (iter/tile.hpp), a block per
// tile, each strided input first packed unit-stride into a buffer on the stack
// (else, for strided outputs, square tiles a row at a time). Operands before
// first_in are outputs. Shared by the one- and the several-output drivers.
template <size_t N, class RunBlock>
void for_each_row_block_threaded(const iter::Loop<N>& L, const Operands<N>& ops, size_t first_in,
                                 int64_t grain, RunBlock&& run_block) {
    std::array<int64_t, N> inner;
    for (size_t k = 0; k < N; ++k) inner[k] = L.inner_stride(k);
    bool unit_out = true;
    for (size_t k = 0; k < first_in; ++k) unit_out = unit_out && inner[k] == 1;
    const RunKind kind = run_kind(inner, first_in, unit_out);
    const std::array<int64_t, N> step = row_bytes(L, ops);
    auto at_offsets = [&](const std::array<int64_t, N>& off) {
        std::array<const void*, N> at;
        for (size_t k = 0; k < N; ++k)
            at[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
        return at;
    };
    auto run_rows = [&](const std::array<int64_t, N>& off, int64_t n, int64_t rows) {
        const std::array<const void*, N> at = at_offsets(off);
        run_block(RowBlock{at.data(), inner.data(), step.data(), n, rows, kind});
    };
    if (!iter::wants_tiling(L)) {
        iter::parallel_ranges(L.numel, grain, [&](int64_t b, int64_t end, int64_t) {
            iter::for_each_run_rows(L, b, end, run_rows);
        });
        return;
    }
    const PackPlan<N> p = plan_packing(ops, first_in, inner, step);
    if (!p.any) {
        auto run = [&](const std::array<int64_t, N>& off, int64_t n) { run_rows(off, n, 1); };
        const int64_t tiles = std::max<int64_t>(
            1, grain / (iter::tiled_work_factor * iter::tile_size * iter::tile_size));
        iter::parallel_ranges(
            iter::tile_units(L, iter::tile_size, iter::tile_size), tiles,
            [&](int64_t b, int64_t end, int64_t) { iter::for_each_tiled_run(L, b, end, run); });
        return;
    }
    const int64_t rows = iter::pack_rows, ra = int64_t(L.rank()) - 2;
    const int64_t tiles = std::max<int64_t>(1, grain / (iter::tiled_work_factor * rows * p.cols));
    iter::parallel_ranges(
        iter::tile_units(L, rows, p.cols), tiles, [&](int64_t b, int64_t e, int64_t) {
            alignas(64) char buf[iter::pack_buffer_bytes];
            iter::for_each_tile(
                L, rows, p.cols, b, e,
                [&](const std::array<int64_t, N>& off, int64_t r, int64_t c) {
                    std::array<const void*, N> at = at_offsets(off);
                    char* slot = buf;
                    for (size_t k = 0; k < N; ++k) {
                        if (!p.packed[k]) continue;
                        iter::pack_tile(slot, at[k], ops.elem_size[k], r, c,
                                        L.strides[k][size_t(ra)], inner[k], p.cols);
                        at[k] = slot;
                        slot += rows * p.cols * ops.elem_size[k];
                    }
                    run_block(RowBlock{at.data(), p.inner.data(), p.step.data(), c, r, p.kind});
                });
        });
}

// A flat assignment above the thread grain: flat_range over the thread team
// (a plain copy of many megabytes: stream_copy's parts, at any thread count).
template <size_t N>
void drive_flat_threads(const LeafRef& dst, const LeafRef* leaves, AssignKernel kernel,
                        const void* expr, bool plain_copy, int64_t grain) {
    const int64_t numel = dst.sizes->numel();
    if constexpr (N == 2)
        if (plain_copy && numel * dst.elem_size >= detail::cpu_copy::stream_copy_bytes &&
            dst.data != leaves[0].data) {
            char* out = static_cast<char*>(const_cast<void*>(dst.data));
            const char* in = static_cast<const char*>(leaves[0].data);
            const int64_t es = dst.elem_size;
            return iter::parallel_ranges(numel, grain, [&](int64_t b, int64_t e, int64_t) {
                detail::cpu_copy::stream_copy(out + b * es, in + b * es, size_t((e - b) * es));
            });
        }
    iter::parallel_ranges(numel, grain, [&](int64_t b, int64_t e, int64_t) {
        flat_range<N>(dst, leaves, kernel, expr, plain_copy, b, e);
    });
}

// Any other layout: broadcast strides, a loop plan (coalesced, reordered),
// tiled when a transposed operand wants it, split over the thread team.
template <size_t N>
void drive_planned(const LeafRef& dst, const LeafRef* leaves, AssignKernel kernel, const void* expr,
                   int64_t grain) {
    const Shape& shape = *dst.sizes;
    Operands<N> ops;
    ops.base[0] = dst.data;
    ops.strides[0] = *dst.strides;
    ops.elem_size[0] = dst.elem_size;
    for (size_t k = 1; k < N; ++k) {
        ops.base[k] = leaves[k - 1].data;
        detail::broadcast_strides_into(ops.strides[k], *leaves[k - 1].sizes, *leaves[k - 1].strides,
                                       shape);
        ops.elem_size[k] = leaves[k - 1].elem_size;
    }
    walk_forwards(shape, ops);
    const iter::Loop<N> L = plan(shape, ops);
    for_each_row_block_threaded(L, ops, 1, grain, [&](const RowBlock& b) {
        kernel(expr, AssignRun{const_cast<void*>(b.at[0]), b.inner[0], b.at + 1, b.inner + 1, b.n,
                               b.kind, b.rows, b.step});
    });
}

// An assignment whose front found every leaf read by rows of the contiguous
// destination (detail::rows_and_separate): blocks of rows over the thread
// team, each one kernel call, with no loop plan. Compiled once per operand
// count.
template <size_t N>
void drive_rows(const detail::FastAssign& f, const LeafRef* leaves, AssignKernel kernel,
                const void* expr, int64_t grain) {
    const Shape& shape = *f.dst.sizes;
    const int64_t n = shape[shape.size() - 1], rows = shape.numel() / n;
    std::array<int64_t, N> step, inner; // operand 0: the destination
    step[0] = n * f.dst.elem_size;
    inner[0] = 1;
    for (size_t k = 1; k < N; ++k) {
        step[k] = f.step[k - 1] * leaves[k - 1].elem_size;
        inner[k] = f.inner[k - 1];
    }
    const RunKind kind = run_kind(inner, 1, true);
    iter::parallel_ranges(
        rows, std::max<int64_t>(1, grain / n), [&](int64_t r0, int64_t r1, int64_t) {
            std::array<const void*, N - 1> in;
            for (size_t k = 1; k < N; ++k)
                in[k - 1] = static_cast<const char*>(leaves[k - 1].data) + r0 * step[k];
            void* out = static_cast<char*>(const_cast<void*>(f.dst.data)) + r0 * step[0];
            kernel(expr,
                   AssignRun{out, 1, in.data(), inner.data() + 1, n, kind, r1 - r0, step.data()});
        });
}

// Operand 0 is the destination (non-empty, of the assignment's shape), 1..N-1
// the leaves, which broadcast to it and do not alias it harmfully.
// `plain_copy`: the tree is one leaf of the destination's type, so a flat
// assignment is a memcpy (glibc's streams large copies past the cache).
// Only this front is inline: a small flat assignment calls the kernel through
// a pointer the compiler knows (and may inline); the threaded and planned
// paths are compiled once per operand count (libtensor7).
// `one_run`: assign_one_run of the same expression, for the flat run below the
// thread grain (called where the compiler sees it, so it may inline it).
template <size_t N>
T7_INLINE void drive_assign(const LeafRef& dst, const LeafRef* leaves, AssignKernel kernel,
                            AssignKernel one_run, const void* expr, int64_t grain,
                            bool plain_copy = false, bool flat = false) {
    const Shape& shape = *dst.sizes;
    // Fast path (TensorIterator's "contiguous" case): every operand contiguous
    // with the destination's shape is one flat unit-stride run; below the
    // thread grain it is one kernel call, with no loop plan and no thread team.
    if (!flat) { // else the caller has checked
        flat = is_contiguous(shape, *dst.strides);
        for (size_t k = 0; k + 1 < N && flat; ++k)
            flat = *leaves[k].sizes == shape && is_contiguous(shape, *leaves[k].strides);
    }
    if (!flat) return drive_planned<N>(dst, leaves, kernel, expr, grain);
    const int64_t numel = shape.numel();
    if (numel >= 2 * grain)
        return drive_flat_threads<N>(dst, leaves, kernel, expr, plain_copy, grain);
    flat_range<N>(dst, leaves, one_run, expr, plain_copy, 0, numel);
}

// eval/cpu/product_blocks.hpp: an assignment consuming a pending product.
// `prod`: the recipe of the one leaf still pending.
template <size_t N>
void drive_product_blocks(const LeafRef& dst, const LeafRef* leaves,
                          const detail::PendingProducer& prod, AssignKernel kernel,
                          const void* expr, bool plain_copy);

// The rare path of run_assign: one leaf is a pending product (eval/pending.hpp).
template <class T, class E>
[[gnu::noinline]] void run_product_blocks(const Tensor<T, CPU>& dst, const E& e,
                                          const LeafRef* leaves) {
    size_t kp = 0;
    while (!leaves[kp].pending) ++kp;
    const auto pend = detail::gather_pending(e);
    drive_product_blocks<size_t(E::leaves) + 1>(leaf_ref(dst), leaves, *pend[kp].producer,
                                                &assign_kernel<E, T>, &e, LeafOf<E, T, CPU>);
}

struct AssignEvaluator {
    // dst has the final shape, e broadcasts to it, and they do not alias harmfully.
    template <class T, class E>
    static void run_assign(const Tensor<T, CPU>& dst, const E& e) {
        if (dst.nElement() == 0) return;
        const auto leaves = gather_leaves(e);
        run_assign(dst, e, leaves.data(), nullptr);
    }
    // The same with e's leaf table gathered by the caller; `fast`, when not
    // null: the layout assign_leaves found (flat: dst and the leaves contiguous
    // of one non-empty shape; else rows), none pending.
    template <class T, class E>
    static void run_assign(const Tensor<T, CPU>& dst, const E& e, const LeafRef* leaves,
                           const detail::FastAssign* fast) {
        constexpr size_t N = size_t(E::leaves) + 1;
        constexpr int64_t grain = iter::grain_for(expr_cost<E> + int(sizeof(T)));
        if (fast && fast->flat)
            return drive_assign<N>(fast->dst, leaves, &assign_kernel<E, T>, &assign_one_run<E, T>,
                                   &e, grain, LeafOf<E, T, CPU>, true);
        if constexpr (N > 1)
            if (fast) return drive_rows<N>(*fast, leaves, &assign_kernel<E, T>, &e, grain);
        if (dst.nElement() == 0) return;
        if (detail::has_pending(leaves, size_t(E::leaves))) [[unlikely]] // see eval/pending.hpp
            return run_product_blocks<T>(dst, e, leaves);
        drive_assign<N>(leaf_ref(dst), leaves, &assign_kernel<E, T>, &assign_one_run<E, T>, &e,
                        grain, LeafOf<E, T, CPU>);
    }
    // `y = x` of one type, flat (as run_assign's `flat`): a memcpy, no tree needed
    // (drive_assign's plain copy never calls the kernel).
    static void run_flat_copy(const LeafRef& dst, const LeafRef* leaves) {
        drive_assign<2>(dst, leaves, nullptr, nullptr, nullptr,
                        iter::grain_for(2 * int64_t(dst.elem_size)), true, true);
    }
};

} // namespace cpu
} // namespace t7
