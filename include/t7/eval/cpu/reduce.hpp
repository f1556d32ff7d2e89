// CPU reductions fused with the expression they consume: the tree is evaluated
// on the fly inside the reduction loop (sum(a * b) materialises nothing).
// Whole-tensor reductions accumulate each run in packets over blocks of 1024
// elements and fold the blocks into a wide accumulator (double for floats):
// vector speed with near-pairwise accuracy. Along a dimension, operand 0 is
// the accumulator with stride 0 on the reduced dimension, so row reductions
// reduce runs and column reductions combine whole rows element-wise (up to 64
// at a time, strip by strip in registers: see RowStage).
// Results do not depend on the thread count: see reduce_blocks.hpp.
#pragma once

#include "../../expr/cost.hpp"
#include "../../expr/reducers.hpp"
#include "assign.hpp"
#include "reduce_blocks.hpp"

#include <memory>

namespace t7::cpu {

template <class R>
struct packet_red {
    static constexpr bool ok = false;
};
template <>
struct packet_red<red::sum> {
    static constexpr bool ok = true;
    template <class P>
    static P identity() {
        return ei::pset1<P>(0);
    }
    template <class P>
    static P step(const P& a, const P& b) {
        return ei::padd(a, b);
    }
    template <class P>
    static auto fold(const P& p) {
        return ei::predux(
            fold_halves(p, [](const auto& a, const auto& b) { return ei::padd(a, b); }));
    }
};
template <>
struct packet_red<red::max> {
    static constexpr bool ok = true;
    template <class P>
    static P identity() {
        return ei::pset1<P>(
            -std::numeric_limits<typename ei::unpacket_traits<P>::type>::infinity());
    }
    template <class P>
    static P step(const P& a, const P& b) {
        return ei::pmax<Eigen::PropagateNaN>(a, b);
    }
    template <class P>
    static auto fold(const P& p) {
        return ei::predux_max<Eigen::PropagateNaN>(fold_halves(
            p, [](const auto& a, const auto& b) { return ei::pmax<Eigen::PropagateNaN>(a, b); }));
    }
};
template <>
struct packet_red<red::min> {
    static constexpr bool ok = true;
    template <class P>
    static P identity() {
        return ei::pset1<P>(std::numeric_limits<typename ei::unpacket_traits<P>::type>::infinity());
    }
    template <class P>
    static P step(const P& a, const P& b) {
        return ei::pmin<Eigen::PropagateNaN>(a, b);
    }
    template <class P>
    static auto fold(const P& p) {
        return ei::predux_min<Eigen::PropagateNaN>(fold_halves(
            p, [](const auto& a, const auto& b) { return ei::pmin<Eigen::PropagateNaN>(a, b); }));
    }
};

template <class R, class E>
inline constexpr bool packet_reducible = packet_red<R>::ok&&
    std::is_floating_point_v<typename E::value_type>&& vectorizable_v<E, typename E::value_type>;

// Folds n elements of one run into `acc`. AllUnit: every operand is unit-stride
// along the run (no per-packet broadcast test). TailPackets: whole packets past
// the last block of four fold in one accumulator before the scalar tail, for
// row reductions of unit-stride operands, whose short rows (16 or 32 floats)
// would otherwise be all tail; whole reductions have one tail per 32768-element
// block and keep the shorter loop (measured: the extra loop cost sum(x.t() * x)
// 25 % at 256^2), as do rows with a broadcast operand (less code to compile).
template <class R, class E, bool AllUnit = false, bool TailPackets = false, class A, class B>
T7_INLINE A reduce_run(const B& b, int64_t n, bool packets, A acc) {
    using V = typename E::value_type;
    int64_t i = 0;
    if constexpr (packet_reducible<R, E>) {
        if (packets) {
            using PR = packet_red<R>;
            using P = packet_t<V>;
            constexpr int64_t W = 4 * packet_size<V>; // four independent accumulators
            constexpr int64_t block = 1024;
            while (n - i >= W) {
                int64_t stop = i + std::min<int64_t>(block, (n - i) / W * W);
                P a0 = PR::template identity<P>(), a1 = a0, a2 = a0, a3 = a0;
                for (; i < stop; i += W) {
                    a0 = PR::step(a0, packet_at<AllUnit>(b, i));
                    a1 = PR::step(a1, packet_at<AllUnit>(b, i + W / 4));
                    a2 = PR::step(a2, packet_at<AllUnit>(b, i + W / 2));
                    a3 = PR::step(a3, packet_at<AllUnit>(b, i + 3 * W / 4));
                }
                acc = R::merge(acc, A(PR::fold(PR::step(PR::step(a0, a1), PR::step(a2, a3)))));
            }
            if (TailPackets && n - i >= W / 4) { // whole packets left: one accumulator
                P a0 = PR::template identity<P>();
                for (; n - i >= W / 4; i += W / 4) a0 = PR::step(a0, packet_at<AllUnit>(b, i));
                acc = R::merge(acc, A(PR::fold(a0)));
            }
        }
    }
    for (; i < n; ++i) acc = R::step(acc, scalar_at(b, i)); // the tail, or every element
    return acc;
}

// out[i * os] = step(out[i * os], e[i]) for one run (the non-reduced dimension
// is innermost), for reductions without a packet form (prod, integer sums) or
// runs too long to stage: e computed in packets into a small buffer, folded in A.
template <class R, class E, class A, class B>
T7_INLINE void accumulate_run(A* out, int64_t os, const B& b, int64_t n, bool packets) {
    using V = typename E::value_type;
    int64_t i = 0;
    if constexpr (vectorizable_v<E, V>) {
        if (packets && os == 1) {
            constexpr int64_t chunk = 64;
            alignas(64) V tmp[chunk];
            for (; i + chunk <= n; i += chunk) {
                for (int64_t j = 0; j < chunk; j += packet_size<V>)
                    ei::pstore(tmp + j, packet_at(b, i + j));
                for (int64_t j = 0; j < chunk; ++j) out[i + j] = R::step(out[i + j], tmp[j]);
            }
        }
    }
    for (; i < n; ++i) out[i * os] = R::step(out[i * os], scalar_at(b, i)); // tail, or all
}

template <size_t N>
bool unit_or_broadcast(const iter::Loop<N>& L, size_t first) {
    bool ok = true;
    for (size_t k = first; k < N; ++k)
        ok = ok && L.inner_stride(k) >= -1 && L.inner_stride(k) <= 1; // -1: reversed packets
    return ok;
}

// The only part of a whole-tensor reduction compiled per expression: folds one
// run of n elements into *acc (an A). drive_reduce_all around it is compiled
// once per reducer, accumulator type and operand count.
using ReduceKernel = void (*)(const void* expr, const void* const* in, const int64_t* stride,
                              int64_t n, bool packets, void* acc);

template <class R, class E, class A>
void reduce_kernel(const void* expr, const void* const* in, const int64_t* stride, int64_t n,
                   bool packets, void* acc) {
    const auto b = bind<0>(*static_cast<const E*>(expr), RunArgs{in, stride});
    A& a = *static_cast<A*>(acc);
    a = reduce_run<R, E>(b, n, packets, a);
}

// What a reduction along a dimension does with its expression, compiled per
// expression; everything around it (the loop plan, the walk, the row stage,
// the threads, the column blocks: drive_reduce_into, drive_reduce_rows) is
// compiled once per reducer, element types and operand count.
struct DimFold {
    const void* expr;
    // Folds `rows` runs of n elements each into o[j * os] (an A): run j's
    // operand k at ptr[k] + j * step[k] bytes, its elements stride[k] apart.
    void (*fold_rows)(const void* expr, const void* const* ptr, const int64_t* stride,
                      const int64_t* step, int64_t n, int64_t rows, bool packets, bool all_unit,
                      void* o, int64_t os);
    // o[i * os] = step(o[i * os], e[i]) over one run of n elements.
    void (*accumulate)(const void* expr, const void* const* ptr, const int64_t* stride, int64_t n,
                       bool packets, void* o, int64_t os);
    // Folds n unit-stride runs of len elements (run i's operand k at first[k]
    // + i * step[k] bytes) element-wise into o[0, len) (an A): blocks of
    // RowStage::rows runs, each in groups of RowStage::group summed in V and
    // merged into o once, when R has a packet form for the expression; else
    // run by run as accumulate does. scratch: null, or RowStage::scratch_bytes
    // for long runs (cols_kernel).
    void (*fold_cols)(const void* expr, const void* const* first, const int64_t* step, int64_t n,
                      int64_t len, void* o, void* scratch);
    // Elements per thread's chunk (iter::grain_for of the expression's cost).
    int64_t grain;
};

// Column reductions: consecutive runs combine element-wise into one contiguous
// output row. The stage holds up to `rows` evenly spaced runs of one output
// row (as the first run's operand pointers and the step between runs) and
// hands them to DimFold::fold_cols in one call: groups of `group` runs summed
// in V, the groups summed in V, the block merged into the A-typed output once.
// For float sums that is blocked summation: at most `rows` float additions
// per partial. Short runs fold strip by strip in registers, long ones group by
// group through a V buffer (same bits). Compiled once per accumulator type
// and operand count, not per expression.
template <class A, size_t L>
struct RowStage {
    static constexpr int rows = 64;
    static constexpr int group = 4;
    // Runs longer than this many elements fold group by group through a
    // buffer (cols_kernel): the strips of 64 long runs are 64 memory streams
    // (measured on float column sums, one thread: 4096^2 1.8x slower in
    // registers; through the buffer 256^2 as fast and 1024^2 10 % faster than
    // the per-expression stage this replaced).
    static constexpr int64_t long_run = 64;
    static constexpr size_t scratch_bytes = 16384;

    std::array<const void*, L> first;
    std::array<int64_t, L> step{};
    int held = 0; // runs taken since the last flush
    A* out = nullptr;
    int64_t n = 0;
    const DimFold& f;

    explicit RowStage(const DimFold& fold) : f(fold) {}

    // Takes the run (len elements, operands at ptr) into the stage.
    T7_INLINE void add(A* dst, const void* const* ptr, int64_t len) {
        if (held > 0 && !(dst == out && len == n && follows(ptr))) flush();
        if (held == 0) {
            out = dst, n = len;
            std::copy(ptr, ptr + L, first.begin());
        }
        if (++held == rows) flush();
    }
    // Everything taken so far reaches the output.
    void flush() {
        if (held == 0) return;
        if (n > long_run) {
            alignas(64) char scratch[scratch_bytes];
            f.fold_cols(f.expr, first.data(), step.data(), held, n, out, scratch);
        } else {
            f.fold_cols(f.expr, first.data(), step.data(), held, n, out, nullptr);
        }
        held = 0;
    }

private:
    static const char* at(const void* p) { return static_cast<const char*>(p); }
    // Whether the run at ptr comes `step` after the last one held (the second
    // run taken sets the step).
    bool follows(const void* const* ptr) {
        if (held == 1) {
            for (size_t k = 0; k < L; ++k) step[k] = at(ptr[k]) - at(first[k]);
            return true;
        }
        for (size_t k = 0; k < L; ++k)
            if (at(ptr[k]) != at(first[k]) + held * step[k]) return false;
        return true;
    }
};

template <class R, class E, class A>
void fold_rows_kernel(const void* expr, const void* const* in, const int64_t* stride,
                      const int64_t* step, int64_t n, int64_t rows, bool packets, bool all_unit,
                      void* out, int64_t os) {
    A* const o = static_cast<A*>(out);
    auto fold = [&]<bool AllUnit>() {
        auto b = bind<0>(*static_cast<const E*>(expr), RunArgs{in, stride});
        for (int64_t j = 0;;) {
            const A r =
                reduce_run<R, E, AllUnit, AllUnit>(b, n, packets, R::template identity<A>());
            o[j * os] = R::merge(o[j * os], r);
            if (++j == rows) return;
            advance<0>(b, step); // bound once: each row moves the pointers on
        }
    };
    if (all_unit)
        fold.template operator()<true>();
    else
        fold.template operator()<false>();
}

template <class R, class E, class A>
void accumulate_kernel(const void* expr, const void* const* in, const int64_t* stride, int64_t n,
                       bool packets, void* out, int64_t os) {
    const auto b = bind<0>(*static_cast<const E*>(expr), RunArgs{in, stride});
    accumulate_run<R, E>(static_cast<A*>(out), os, b, n, packets);
}

// Bytes from one row to the next of a leaf of a row reduction along d (the
// innermost dimension that is not 1): n * elem_size when the leaf is contiguous
// with the input's shape, 0 when it is one unit-stride row read by every output
// (`t7::sum(out, x * w, 1)` with w of size n or 1 x n); -1 for any other layout.
inline int64_t row_step(const LeafRef& leaf, const Shape& shape, size_t d) {
    const Shape &s = *leaf.sizes, &st = *leaf.strides;
    const int64_t n = shape[d];
    if (s == shape) return is_contiguous(s, st) ? n * leaf.elem_size : -1;
    const size_t off = shape.size() - s.size(); // broadcasting aligns trailing dimensions
    if (s.size() > shape.size() || d < off) return -1;
    for (size_t i = 0; i < s.size(); ++i)
        if (off + i == d ? s[i] != n || (n > 1 && st[i] != 1) : s[i] != 1) return -1;
    return 0;
}

// Row reductions in the common layout, with no loop plan, no accumulator
// tensor and no conversion pass: the reduced dimension d innermost (every later
// size 1), every leaf contiguous with the input's shape or one row (row_step).
// Each output is one run folded by one thread (DimFold::fold_rows, 64 rows a
// call) and written as T: the value reduce_into's accumulator would hold,
// converted as a copy would. False, with nothing written, for another layout.
template <class R, class A, class T, size_t N>
bool drive_reduce_rows(T* out, const Shape& shape, int64_t d, const LeafRef* leaves,
                       const DimFold& f) {
    for (size_t k = size_t(d) + 1; k < shape.size(); ++k)
        if (shape[k] != 1) return false;
    std::array<int64_t, N> row_bytes, ones;
    for (size_t k = 0; k < N; ++k)
        if ((row_bytes[k] = row_step(leaves[k], shape, size_t(d))) < 0) return false;
    ones.fill(1);
    const int64_t n = shape[size_t(d)];
    int64_t rows = 1;
    for (size_t k = 0; k < size_t(d); ++k) rows *= shape[k];
    if (n == 0 || rows == 0) return false;
    iter::parallel_for(
        rows, std::max<int64_t>(1, f.grain / n), [&](int64_t r0, int64_t r1, int64_t) {
            constexpr int64_t chunk = 64; // rows per kernel call
            A part[chunk];
            std::array<const void*, N> in;
            for (int64_t r = r0; r < r1; r += chunk) {
                const int64_t m = std::min(chunk, r1 - r);
                for (size_t k = 0; k < N; ++k)
                    in[k] = static_cast<const char*>(leaves[k].data) + r * row_bytes[k];
                std::fill(part, part + m, R::template identity<A>());
                f.fold_rows(f.expr, in.data(), ones.data(), row_bytes.data(), n, m, true, true,
                            part, 1);
                for (int64_t j = 0; j < m; ++j) out[r + j] = convert<T>(part[j]);
            }
        });
    return true;
}

// A strip of S packets (S = 0: one element) of the outputs [j, j + max(S, 1)
// packets) folded over n runs: groups of G runs summed, the groups summed in
// V, held in registers. Without buf, the sum is merged into out (in A); with
// buf, it is stored there (V), added to what buf holds if `add`.
template <class R, class V, class A, int S, int G, class RowAt>
T7_INLINE void fold_strip(A* out, V* buf, bool add, int64_t j, int64_t n, const RowAt& row_at) {
    using PR = packet_red<R>;
    constexpr int W = packet_size<V>;
    constexpr int L = S > 0 ? S : 1;
    auto load = [&](const auto& b, int s) {
        if constexpr (S > 0)
            return packet_at<true>(b, j + s * W);
        else
            return V(scalar_at(b, j));
    };
    auto step = [](const auto& x, const auto& y) {
        if constexpr (S > 0)
            return PR::step(x, y);
        else
            return V(R::step(x, y));
    };
    using X = decltype(load(row_at(0), 0)); // a packet, or one element
    X acc[L]{};                             // set by the first group
    for (int64_t i = 0; i < n; i += G) {
        const int64_t k1 = std::min<int64_t>(n, i + G);
        X x[L];
        const auto b0 = row_at(i);
        for (int s = 0; s < L; ++s) x[s] = load(b0, s);
        for (int64_t k = i + 1; k < k1; ++k) {
            const auto b = row_at(k);
            for (int s = 0; s < L; ++s) x[s] = step(x[s], load(b, s));
        }
        for (int s = 0; s < L; ++s) acc[s] = i == 0 ? x[s] : step(acc[s], x[s]);
    }
    if (buf) { // packets into the V buffer (a scalar loop here cost long runs 40 %)
        if constexpr (S > 0) {
            for (int s = 0; s < L; ++s) {
                V* const p = buf + j + s * W;
                ei::pstoreu(p, add ? PR::step(ei::ploadu<X>(p), acc[s]) : acc[s]);
            }
        } else {
            buf[j] = add ? V(R::step(buf[j], acc[0])) : acc[0];
        }
        return;
    }
    if constexpr (S > 0) {
        alignas(64) V v[L * W];
        for (int s = 0; s < L; ++s) ei::pstore(v + s * W, acc[s]);
        for (int t = 0; t < L * W; ++t) out[j + t] = R::merge(out[j + t], A(v[t]));
    } else {
        out[j] = R::merge(out[j], A(acc[0]));
    }
}

// G whole runs (row_at(i) to row_at(i + G - 1)) summed element by
// element over [j0, j1) and stored into buf, added to what it holds if `add`:
// fold_strip's order (the same bits), with the runs bound once and the G loads
// of a packet independent (fold_strip's strips cost long runs 25 %).
template <class R, class V, int G, class RowAt>
T7_INLINE void fold_group(int64_t i, const RowAt& row_at, int64_t j0, int64_t j1, bool add,
                          V* buf) {
    using P = packet_t<V>;
    using PR = packet_red<R>;
    constexpr int W = packet_size<V>;
    [&]<int... K>(std::integer_sequence<int, K...>) {
        const decltype(row_at(0)) b[] = {row_at(i + K)...};
        int64_t j = j0;
        for (; j + W <= j1; j += W) {
            P x = packet_at<true>(b[0], j);
            ((x = K > 0 ? PR::step(x, packet_at<true>(b[K], j)) : x), ...);
            ei::pstoreu(buf + j, add ? PR::step(ei::ploadu<P>(buf + j), x) : x);
        }
        for (; j < j1; ++j) {
            V x = V(scalar_at(b[0], j));
            ((x = K > 0 ? V(R::step(x, scalar_at(b[K], j))) : x), ...);
            buf[j] = add ? V(R::step(buf[j], x)) : x;
        }
    }
    (std::make_integer_sequence<int, G>{});
}

// DimFold::fold_cols, block by block of RowStage::rows runs. Without
// scratch, strip by strip over the block's runs (their strips stay in
// registers); with scratch (RowStage::scratch_bytes), for long runs, windows
// of the runs group by group into a V buffer merged into o once per window:
// G + 1 streams at a time instead of a block's. The same bits either way.
template <class R, class E, class A>
void cols_kernel(const void* expr, const void* const* first, const int64_t* step, int64_t n,
                 int64_t len, void* o, void* scratch) {
    constexpr size_t N = size_t(E::leaves);
    using V = typename E::value_type;
    const E& e = *static_cast<const E*>(expr);
    std::array<int64_t, N> ones;
    ones.fill(1);
    A* const out = static_cast<A*>(o);
    auto row_at = [&](int64_t i) {
        std::array<const void*, N> ptr;
        for (size_t k = 0; k < N; ++k) ptr[k] = static_cast<const char*>(first[k]) + i * step[k];
        return bind<0>(e, RunArgs{ptr.data(), ones.data()});
    };
    if constexpr (packet_reducible<R, E>) {
        using Stage = RowStage<A, N>;
        constexpr int G = Stage::group, W = packet_size<V>;
        V* const buf = static_cast<V*>(scratch);
        const int64_t window = buf ? int64_t(Stage::scratch_bytes / sizeof(V)) : len;
        for (int64_t b0 = 0; b0 < n; b0 += Stage::rows) {
            const int64_t b1 = std::min<int64_t>(n, b0 + Stage::rows);
            const int64_t span = buf ? G : b1 - b0; // runs per pass over a window
            for (int64_t w0 = 0; w0 < len; w0 += window) {
                const int64_t w1 = std::min(len, w0 + window);
                V* const wb = buf ? buf - w0 : nullptr; // indexed as the run
                for (int64_t g = b0; g < b1; g += span) {
                    const bool add = g > b0;
                    const int64_t m = std::min(span, b1 - g);
                    if (buf && m == G) {
                        fold_group<R, V, G>(g, row_at, w0, w1, add, wb);
                        continue;
                    }
                    auto rows_at = [&](int64_t i) { return row_at(g + i); };
                    int64_t j = w0;
                    for (; j + 4 * W <= w1; j += 4 * W)
                        fold_strip<R, V, A, 4, G>(out, wb, add, j, m, rows_at);
                    for (; j + W <= w1; j += W)
                        fold_strip<R, V, A, 1, G>(out, wb, add, j, m, rows_at);
                    for (; j < w1; ++j) fold_strip<R, V, A, 0, G>(out, wb, add, j, m, rows_at);
                }
                if (buf)
                    for (int64_t j = w0; j < w1; ++j) out[j] = R::merge(out[j], A(wb[j]));
            }
        }
    } else {
        for (int64_t i = 0; i < n; ++i) accumulate_run<R, E>(out, 1, row_at(i), len, true);
    }
}

template <class R, class E, class A>
DimFold dim_fold(const E& e) {
    return {&e, &fold_rows_kernel<R, E, A>, &accumulate_kernel<R, E, A>, &cols_kernel<R, E, A>,
            iter::grain_for(expr_cost<E> + 1)};
}

// Column reductions of small contiguous inputs (below the thread grain: one
// thread, whatever the thread count), with no loop plan and no accumulator
// tensor: for each index of the dimensions before d, tiles of at most 512
// outputs folded by DimFold::fold_cols into a buffer and written converted. For d > 0
// the general walk's bits; for d = 0 the rows are one block (the general walk,
// which larger inputs take, cuts them into blocks). False, with nothing
// written, for another layout.
template <class R, class A, class T, size_t N>
bool drive_reduce_cols(T* out, const Shape& shape, int64_t d, const LeafRef* leaves,
                       const DimFold& f) {
    const int64_t numel = shape.numel();
    if (numel == 0 || numel >= iter::parallel_grain) return false;
    for (size_t k = 0; k < N; ++k)
        if (!(*leaves[k].sizes == shape) || !is_contiguous(shape, *leaves[k].strides)) return false;
    const int64_t n = shape[size_t(d)];
    int64_t inner = 1;
    for (size_t k = size_t(d) + 1; k < shape.size(); ++k) inner *= shape[k];
    if (inner == 1) return false; // rows
    const int64_t outer = numel / (n * inner);
    constexpr int64_t tile = 512;
    A part[tile];
    std::array<const void*, N> in;
    std::array<int64_t, N> row_bytes;
    for (size_t k = 0; k < N; ++k) row_bytes[k] = inner * leaves[k].elem_size;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j0 = 0; j0 < inner; j0 += tile) {
            const int64_t len = std::min(tile, inner - j0);
            std::fill(part, part + len, R::template identity<A>());
            for (size_t k = 0; k < N; ++k)
                in[k] = static_cast<const char*>(leaves[k].data) +
                        (o * n * inner + j0) * leaves[k].elem_size;
            f.fold_cols(f.expr, in.data(), row_bytes.data(), n, len, part, nullptr);
            for (int64_t j = 0; j < len; ++j) out[o * inner + j0 + j] = convert<T>(part[j]);
        }
    return true;
}

// drive_reduce_blocks when an operand is transposed against the first (sum(a.t()
// * b)): tiles of the two innermost dimensions (iter/tile.hpp), every operand's
// tile packed contiguous into a buffer on the thread's stack (iter/pack.hpp),
// then folded as one unit-stride run into the tile's own partial; partials
// merge in tile order. The tiles are fixed by the shape: the same bits for any
// thread count. Up to iter::max_packed operands.
template <class R, class A, size_t N>
A reduce_tiles(const iter::Loop<N>& L, const Operands<N>& ops, ReduceKernel kernel,
               const void* expr, int64_t grain) {
    int widest = 1;
    for (size_t k = 0; k < N; ++k) widest = std::max(widest, ops.elem_size[k]);
    const int64_t rows = iter::pack_rows;
    const int64_t cols = iter::packed_cols(int64_t(N), widest);
    const size_t ra = L.rank() - 2;
    const int64_t nt = iter::tile_units(L, rows, cols);
    BlockPartials<A> partial(nt);
    iter::parallel_split(
        nt, L.numel * iter::tiled_work_factor / grain, [&](int64_t t0, int64_t t1, int64_t) {
            alignas(64) char buf[iter::pack_buffer_bytes];
            std::array<const void*, N> at;
            std::array<int64_t, N> ones;
            ones.fill(1);
            int64_t t = t0;
            iter::for_each_tile(
                L, rows, cols, t0, t1,
                [&](const std::array<int64_t, N>& off, int64_t r, int64_t c) {
                    char* slot = buf;
                    for (size_t k = 0; k < N; ++k) {
                        const int e = ops.elem_size[k];
                        iter::pack_tile(slot, static_cast<const char*>(ops.base[k]) + off[k] * e, e,
                                        r, c, L.strides[k][ra], L.inner_stride(k), c);
                        at[k] = slot;
                        slot += r * c * e;
                    }
                    A acc = R::template identity<A>();
                    kernel(expr, at.data(), ones.data(), r * c, true, &acc);
                    partial[t++] = acc;
                });
        });
    A result = partial[0];
    for (int64_t t = 1; t < nt; ++t) result = R::merge(result, partial[t]);
    return result;
}

// The general path: blocks of reduce_block elements in loop order, each into
// its own partial, merged in block order. Apart (not inlined) so that the
// small tensors' path (drive_reduce_all) keeps a small stack frame.
template <class R, class A, size_t N>
[[gnu::noinline]] A drive_reduce_blocks(const Shape& shape, const LeafRef* leaves,
                                        ReduceKernel kernel, const void* expr, int64_t grain) {
    Operands<N> ops;
    for (size_t k = 0; k < N; ++k) {
        ops.base[k] = leaves[k].data;
        detail::broadcast_strides_into(ops.strides[k], *leaves[k].sizes, *leaves[k].strides, shape);
        ops.elem_size[k] = leaves[k].elem_size;
    }
    walk_forwards(shape, ops);
    const iter::Loop<N> L = plan(shape, ops);
    if (N <= size_t(iter::max_packed) && iter::wants_tiling(L))
        return reduce_tiles<R, A, N>(L, ops, kernel, expr, grain);
    const bool packets = unit_or_broadcast(L, 0);
    std::array<int64_t, N> inner;
    for (size_t k = 0; k < N; ++k) inner[k] = L.inner_stride(k);
    const int64_t nb = (L.numel + reduce_block - 1) / reduce_block;
    BlockPartials<A> partial(nb);
    iter::parallel_split(nb, L.numel / grain, [&](int64_t b0, int64_t b1, int64_t) {
        std::array<const void*, N> ptr;
        for (int64_t blk = b0; blk < b1; ++blk) {
            A acc = R::template identity<A>();
            const int64_t begin = blk * reduce_block;
            const int64_t end = std::min(L.numel, begin + reduce_block);
            iter::for_each_run(L, begin, end, [&](const std::array<int64_t, N>& off, int64_t n) {
                for (size_t k = 0; k < N; ++k)
                    ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
                kernel(expr, ptr.data(), inner.data(), n, packets, &acc);
            });
            partial[blk] = acc;
        }
    });
    A result = partial[0]; // one block: what the flat path gives
    for (int64_t blk = 1; blk < nb; ++blk) result = R::merge(result, partial[blk]);
    return result;
}

// The element count of a reduction whose n leaves are all contiguous with one
// shape of 1 to grain elements (one flat run on this thread), else -1.
inline int64_t flat_reduction_numel(const LeafRef* leaves, size_t n) {
    const Shape& shape = *leaves[0].sizes;
    if (shape.empty()) return -1;
    const int64_t numel = shape.numel();
    if (numel >= iter::parallel_grain || numel == 0) return -1; // none: the checks decide
    for (size_t k = 0; k < n; ++k)
        if ((k > 0 && !(*leaves[k].sizes == shape)) || !is_contiguous(shape, *leaves[k].strides))
            return -1;
    return numel;
}

// Folds the flat run of numel elements (flat_reduction_numel) with kernel.
template <class R, class A, size_t N, class Kernel>
T7_INLINE A reduce_flat(const LeafRef* leaves, int64_t numel, Kernel kernel, const void* expr) {
    std::array<const void*, N> in;
    std::array<int64_t, N> ones;
    for (size_t k = 0; k < N; ++k) in[k] = leaves[k].data;
    ones.fill(1);
    A acc = R::template identity<A>();
    kernel(expr, in.data(), ones.data(), numel, true, &acc);
    return acc;
}

template <class R, class A, size_t N>
A drive_reduce_all(const Shape& shape, const LeafRef* leaves, ReduceKernel kernel, const void* expr,
                   int64_t grain) {
    // Fast path (also taken before, by ReduceEvaluator's front, in programs that
    // reduce through t7::sum and the like): one kernel call over one unit-stride run.
    if (const int64_t n = flat_reduction_numel(leaves, N); n >= 0)
        return reduce_flat<R, A, N>(leaves, n, kernel, expr);
    const int64_t numel = shape.numel();
    // Contiguous on one thread: the same blocks as drive_reduce_blocks (so the
    // same bits), as flat runs merged in order, without its loop plan and partials.
    bool contiguous = getNumThreads() == 1 || numel < 2 * grain;
    for (size_t k = 0; k < N && contiguous; ++k)
        contiguous = *leaves[k].sizes == shape && is_contiguous(shape, *leaves[k].strides);
    if (contiguous) {
        std::array<const void*, N> in;
        std::array<int64_t, N> ones;
        ones.fill(1);
        A result = R::template identity<A>();
        for (int64_t begin = 0; begin < numel; begin += reduce_block) {
            for (size_t k = 0; k < N; ++k)
                in[k] = static_cast<const char*>(leaves[k].data) + begin * leaves[k].elem_size;
            A acc = R::template identity<A>();
            kernel(expr, in.data(), ones.data(), std::min(reduce_block, numel - begin), true, &acc);
            result = begin == 0 ? acc : R::merge(result, acc);
        }
        return result;
    }
    return drive_reduce_blocks<R, A, N>(shape, leaves, kernel, expr, grain);
}

// acc (contiguous, the input's shape with size 1 at the reduced dimensions,
// already holding R's identity; operand 0 of ops) accumulates every element of
// the expression behind f (operands 1..N-1). Rows (the outermost dimension
// kept) are split over threads; column reductions (the outermost dimension
// reduced) run in fixed row blocks and tiles (ColumnBlocks), partial rows
// merged in block order.
template <class R, class A, size_t N>
void drive_reduce_into(A* acc, const Shape& shape, const Operands<N>& ops, const DimFold& f) {
    const iter::Loop<N> L = plan(shape, ops);
    const bool packets = unit_or_broadcast(L, 1);
    std::array<int64_t, N> inner;
    for (size_t k = 0; k < N; ++k) inner[k] = L.inner_stride(k);
    bool all_unit = true;
    for (size_t k = 1; k < N; ++k) all_unit = all_unit && inner[k] == 1;
    // Runs into a contiguous row of outputs, every operand unit-stride: staged.
    const bool staged = all_unit && inner[0] == 1;

    const int64_t outer = L.sizes[0];
    const int64_t per_row = L.numel / outer; // elements per outermost index
    // Folds rows [r0, r1) (outermost indices) x positions [j0, j1) of each row
    // (in loop order) into out.
    auto walk = [&](A* out, int64_t r0, int64_t r1, int64_t j0, int64_t j1) {
        std::array<const void*, N> ptr;
        RowStage<A, N - 1> stage(f);
        std::array<int64_t, N> step{}; // bytes from one row of a block to the next
        auto run = [&](const std::array<int64_t, N>& off, int64_t n) {
            for (size_t k = 1; k < N; ++k)
                ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
            if (inner[0] == 0)
                return f.fold_rows(f.expr, ptr.data() + 1, inner.data() + 1, step.data() + 1, n, 1,
                                   packets, all_unit, out + off[0], 0);
            if (staged) return stage.add(out + off[0], ptr.data() + 1, n);
            f.accumulate(f.expr, ptr.data() + 1, inner.data() + 1, n, packets, out + off[0],
                         inner[0]);
        };
        // Whole rows come in blocks (one call, no odometer step per row): a
        // short-row reduction such as row sums of a 256 x 256 matrix is
        // otherwise dominated by the walk, not the additions.
        auto rows_run = [&](const std::array<int64_t, N>& off, int64_t n, int64_t rows) {
            if (rows == 1) return run(off, n); // also every run of a 1-D loop
            const size_t rd = L.rank() - 2;
            for (size_t k = 0; k < N; ++k) {
                step[k] = L.strides[k][rd] * ops.elem_size[k];
                ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
            }
            A* const o = out + off[0];
            const int64_t os = L.strides[0][rd];
            if (inner[0] == 0) // a row per output
                return f.fold_rows(f.expr, ptr.data() + 1, inner.data() + 1, step.data() + 1, n,
                                   rows, packets, all_unit, o, os);
            if (staged) {
                // each row joins the stage of a row of outputs
                for (int64_t j = 0; j < rows; ++j) {
                    stage.add(o + j * os, ptr.data() + 1, n);
                    for (size_t k = 1; k < N; ++k)
                        ptr[k] = static_cast<const char*>(ptr[k]) + step[k];
                }
                return;
            }
            std::array<int64_t, N> at = off;
            for (int64_t j = 0; j < rows; ++j) {
                run(at, n);
                for (size_t k = 0; k < N; ++k) at[k] += L.strides[k][rd];
            }
        };
        if (j0 == 0 && j1 == per_row)
            iter::for_each_run_rows(L, r0 * per_row, r1 * per_row, rows_run);
        else
            for (int64_t r = r0; r < r1; ++r)
                iter::for_each_run(L, r * per_row + j0, r * per_row + j1, run);
        stage.flush();
    };

    if (L.strides[0][0] != 0) {
        // The outermost dimension is kept: chunks of it write distinct
        // outputs, each reduced whole by one thread in loop order.
        iter::parallel_for(outer, std::max<int64_t>(1, f.grain / per_row),
                           [&](int64_t b, int64_t end, int64_t) { walk(acc, b, end, 0, per_row); });
        return;
    }
    // The outermost dimension is reduced (column sums): fixed row blocks
    // and tiles (ColumnBlocks), partial rows merged in block order.
    const ColumnBlocks cb(outer, per_row, sizeof(A));
    PartialRows<A> rows(size_t((cb.nb - 1) * cb.m));
    A* const priv = rows.data();
    if (cb.nt > 1 && cb.nb > 1)
        std::fill(priv, priv + (cb.nb - 1) * cb.m, R::template identity<A>());
    iter::parallel_split(cb.items(), L.numel / f.grain, [&](int64_t i0, int64_t i1, int64_t) {
        for (int64_t i = i0; i < i1; ++i) {
            const int64_t blk = i / cb.nt, t = i % cb.nt;
            A* dst = blk == 0 ? acc : priv + (blk - 1) * cb.m;
            if (blk > 0 && cb.nt == 1) std::fill(dst, dst + cb.m, R::template identity<A>());
            walk(dst, blk * cb.rb, std::min(cb.rows, (blk + 1) * cb.rb), t * cb.tile,
                 std::min(cb.m, (t + 1) * cb.tile));
        }
    });
    if (cb.nb == 1) return;
    // Each output merges its partials in block order, whichever thread does it.
    iter::parallel_for(cb.m, std::max<int64_t>(1, iter::parallel_grain / (cb.nb - 1)),
                       [&](int64_t j0, int64_t j1, int64_t) {
                           for (int64_t blk = 1; blk < cb.nb; ++blk) {
                               const A* p = priv + (blk - 1) * cb.m;
                               for (int64_t j = j0; j < j1; ++j) acc[j] = R::merge(acc[j], p[j]);
                           }
                       });
}

struct ReduceEvaluator {
    // The common whole reduction, decided before a Shape is built: every leaf
    // contiguous of one non-empty shape below the thread grain (numel >= 0, from
    // reduce_all_flat_numel). The kernel is called where the compiler sees it (and
    // may inline it), as the assignment's flat front does.
    static int64_t reduce_all_flat_numel(const LeafRef* leaves, size_t n) {
        return flat_reduction_numel(leaves, n);
    }
    template <class R, class E>
    static auto reduce_all_flat(const E& e, const LeafRef* leaves, int64_t numel) {
        using A = typename R::template acc<typename E::value_type>;
        return reduce_flat<R, A, size_t(E::leaves)>(leaves, numel, &reduce_kernel<R, E, A>, &e);
    }
    // Reduces every element of e (shape `shape`, non-empty) with R.
    template <class R, class E>
    static auto reduce_all(const E& e, const Shape& shape) {
        const auto leaves = gather_leaves(e);
        return reduce_all<R>(e, shape, leaves.data());
    }
    // The same with e's leaf table gathered by the caller.
    template <class R, class E>
    static auto reduce_all(const E& e, const Shape& shape, const LeafRef* leaves) {
        using V = typename E::value_type;
        using A = typename R::template acc<V>;
        constexpr size_t N = size_t(E::leaves);
        if constexpr (N == 0) {
            const auto b = bind<0>(e, RunArgs{nullptr, nullptr});
            return R::step(R::template identity<A>(), scalar_at(b, 0));
        } else {
            return drive_reduce_all<R, A, N>(shape, leaves, &reduce_kernel<R, E, A>, &e,
                                             iter::grain_for(expr_cost<E> + 1));
        }
    }

    // out (contiguous, e's shape with size 1 at dim d) = R along d of e, for the
    // common layouts (drive_reduce_rows, drive_reduce_cols); false, nothing
    // written, for the others.
    template <class R, class T, class E>
    static bool reduce_direct(const Tensor<T, CPU>& out, const E& e, const Shape& shape,
                              int64_t d) {
        using A = typename R::template acc<typename E::value_type>;
        constexpr size_t N = size_t(E::leaves);
        if constexpr (N == 0) {
            return false;
        } else {
            const auto leaves = gather_leaves(e);
            const DimFold f = dim_fold<R, E, A>(e);
            return drive_reduce_rows<R, A, T, N>(out.data(), shape, d, leaves.data(), f) ||
                   drive_reduce_cols<R, A, T, N>(out.data(), shape, d, leaves.data(), f);
        }
    }

    // acc (contiguous, e's shape with size 1 at the reduced dims, already holding
    // R's identity) accumulates every element of e.
    template <class R, class A, class E>
    static void reduce_into(const Tensor<A, CPU>& acc, const E& e, const Shape& shape) {
        constexpr size_t N = size_t(E::leaves) + 1;
        Operands<N> ops;
        ops.base[0] = acc.data();
        ops.strides[0] = detail::broadcast_strides(acc.sizes(), acc.strides(), shape);
        ops.elem_size[0] = int(sizeof(A));
        collect_leaves<1>(e, shape, ops);
        drive_reduce_into<R, A, N>(acc.data(), shape, ops, dim_fold<R, E, A>(e));
    }

    // Along one dimension with positions (max/min with indices): operand 1 is a
    // virtual operand whose offset is the position along the reduced dimension.
    // vals holds R's identity; idx receives 0-based positions. First extreme wins.
    template <class R, class V, class E>
    static void arg_reduce_into(const Tensor<V, CPU>& vals, const Tensor<int64_t, CPU>& idx,
                                const E& e, const Shape& shape, int64_t dim) {
        constexpr size_t N = size_t(E::leaves) + 3;
        Operands<N> ops;
        ops.base[0] = vals.data();
        ops.strides[0] = detail::broadcast_strides(vals.sizes(), vals.strides(), shape);
        ops.base[1] = idx.data();
        ops.strides[1] = ops.strides[0];
        ops.base[2] = nullptr;
        ops.strides[2] = Shape(shape.size(), 0);
        ops.strides[2][size_t(dim)] = 1;
        collect_leaves<3>(e, shape, ops);
        const iter::Loop<N> L = plan(shape, ops);
        std::array<int64_t, N> inner;
        for (size_t k = 0; k < N; ++k) inner[k] = L.inner_stride(k);
        V* v = vals.data();
        int64_t* ix = idx.data();
        std::array<const void*, N> ptr;
        iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, N>& off, int64_t n) {
            for (size_t k = 3; k < N; ++k)
                ptr[k] = static_cast<const char*>(ops.base[k]) + off[k] * ops.elem_size[k];
            const auto b = bind<0>(e, RunArgs{ptr.data() + 3, inner.data() + 3});
            for (int64_t i = 0; i < n; ++i) {
                V& best = v[off[0] + i * inner[0]];
                V x = convert<V>(scalar_at(b, i));
                bool first = off[2] + i * inner[2] == 0;
                if (first || (best == best && R::step(best, x) != best) ||
                    (x != x && best == best)) {
                    best = x;
                    ix[off[1] + i * inner[1]] = off[2] + i * inner[2];
                }
            }
        });
    }
};

} // namespace t7::cpu
