// Several outputs in one pass on the CPU. Planned as one assignment is
// (eval/cpu/assign.hpp), with operands 0..K-1 the outputs and K.. every right
// side's leaves; the threads, tiling and packet choice are the same. Only the
// innermost kernel (multi_kernel) is compiled per set of right sides: per
// element (or packet) it computes every right side, then stores every output,
// so a right side that reads an output with the output's own indexing sees
// the old value.
#pragma once

#include "../multi_assign.hpp"
#include "assign.hpp"

#include <array>
#include <tuple>
#include <utility>

namespace t7 {
namespace cpu {

// `rows` inner runs of the pass: n elements; output k at out[k] with stride
// out_stride[k], leaf l read at in[l] with stride in_stride[l]; run j starts
// j * row_bytes[k] bytes after out[k] and j * row_bytes[K + l] after in[l].
struct MultiRun {
    void* const* out;
    const int64_t* out_stride;
    const void* const* in;
    const int64_t* in_stride;
    int64_t n;
    RunKind kind;
    int64_t rows = 1;
    const int64_t* row_bytes = nullptr; // read only when rows > 1
};
using MultiKernel = void (*)(const void* const* exprs, const MultiRun& run);

template <class... T, class... B, size_t... J>
T7_INLINE void multi_scalar_at(const std::tuple<T*...>& out, const int64_t* os,
                               const std::tuple<B...>& b, int64_t i, std::index_sequence<J...>) {
    const std::tuple<T...> v{convert<T>(scalar_at(std::get<J>(b), i))...}; // all, then stores
    ((std::get<J>(out)[i * os[J]] = std::get<J>(v)), ...);
}

// No restrict on the outputs: they may be leaves too (read before written).
// The packets of every right side are held in a tuple until stored (g++ warns
// that a tuple of __m256 drops the type's alignment attribute: harmless here,
// the tuple is a register-allocated local).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
template <bool AllUnit, class... T, class... B, size_t... J>
T7_INLINE void multi_packet_loop(const std::tuple<T*...>& out, const std::tuple<B...>& b, int64_t n,
                                 std::index_sequence<J...> seq) {
    constexpr int P = packet_size<std::tuple_element_t<0, std::tuple<T...>>>;
    const int64_t ones[sizeof...(T)] = {(void(J), int64_t(1))...};
    int64_t i = 0;
    for (; i + P <= n; i += P) {
        const std::tuple<packet_t<T>...> v{packet_at<AllUnit>(std::get<J>(b), i)...};
        (ei::pstoreu(std::get<J>(out) + i, std::get<J>(v)), ...);
    }
    for (; i < n; ++i) multi_scalar_at(out, ones, b, i, seq);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// Packets when every right side vectorises in its output's type, with one
// packet width for all.
template <class... A>
inline constexpr bool multi_vectorizable_v =
    (vectorizable_v<typename A::expr_type, typename A::value_type> && ...) &&
    ((packet_size<typename A::value_type> ==
      packet_size<typename std::tuple_element_t<0, std::tuple<A...>>::value_type>)&&...);

// The only part compiled per set of right sides (A: their OutputAssignment
// types): binds every tree once, then runs a block of rows, moving the outputs
// and the bound leaves on by their row steps (as assign_kernel does).
template <class... A, size_t... J>
T7_INLINE void multi_rows(const void* const* exprs, const MultiRun& r,
                          std::index_sequence<J...> seq) {
    constexpr size_t K = sizeof...(A);
    constexpr auto off = leaf_offsets<typename A::expr_type...>();
    std::tuple<bound_t<typename A::expr_type>...> b{
        bind<0>(*static_cast<const typename A::expr_type*>(exprs[J]),
                RunArgs{r.in + off[J], r.in_stride + off[J]})...};
    std::tuple<typename A::value_type*...> out{static_cast<typename A::value_type*>(r.out[J])...};
    auto run = [&] {
        if constexpr (multi_vectorizable_v<A...>) {
            if (r.kind == RunKind::unit_packets) return multi_packet_loop<true>(out, b, r.n, seq);
            if (r.kind == RunKind::packets) return multi_packet_loop<false>(out, b, r.n, seq);
        }
        for (int64_t i = 0; i < r.n; ++i) multi_scalar_at(out, r.out_stride, b, i, seq);
    };
    for (int64_t j = 0;;) {
        run();
        if (++j >= r.rows) return;
        ((std::get<J>(out) = reinterpret_cast<typename A::value_type*>(
              reinterpret_cast<char*>(std::get<J>(out)) + r.row_bytes[J])),
         ...);
        (advance<0>(std::get<J>(b), r.row_bytes + K + off[J]), ...);
    }
}

template <class... A>
void multi_kernel(const void* const* exprs, const MultiRun& r) {
    multi_rows<A...>(exprs, r, std::index_sequence_for<A...>{});
}

// K outputs, N - K leaves; compiled once per pair of counts.
template <size_t K, size_t N>
void drive_multi(const detail::MultiArgs& a, MultiKernel kernel, int64_t grain) {
    constexpr size_t L = N - K;
    constexpr size_t LA = L > 0 ? L : 1;
    const Shape& shape = *a.shape;

    // Every operand contiguous of the common shape: one flat unit-stride run;
    // below the thread grain one kernel call, with no loop plan.
    bool flat = true;
    for (size_t k = 0; k < K && flat && !a.flat; ++k)
        flat = is_contiguous(shape, *a.targets[k].strides);
    for (size_t l = 0; l < L && flat && !a.flat; ++l)
        flat = *a.leaves[l].sizes == shape && is_contiguous(shape, *a.leaves[l].strides);
    if (flat) {
        std::array<int64_t, N> ones;
        ones.fill(1);
        auto range = [&](int64_t begin, int64_t end) {
            std::array<void*, K> o;
            std::array<const void*, LA> i{};
            for (size_t k = 0; k < K; ++k)
                o[k] = static_cast<char*>(const_cast<void*>(a.targets[k].data)) +
                       begin * a.targets[k].elem_size;
            for (size_t l = 0; l < L; ++l)
                i[l] = static_cast<const char*>(a.leaves[l].data) + begin * a.leaves[l].elem_size;
            kernel(a.exprs, MultiRun{o.data(), ones.data(), i.data(), ones.data() + K, end - begin,
                                     RunKind::unit_packets});
        };
        const int64_t numel = shape.numel();
        if (numel < 2 * grain)
            range(0, numel);
        else
            iter::parallel_ranges(numel, grain,
                                  [&](int64_t b, int64_t e, int64_t) { range(b, e); });
        return;
    }

    Operands<N> ops;
    for (size_t k = 0; k < K; ++k) {
        ops.base[k] = a.targets[k].data;
        ops.strides[k] = *a.targets[k].strides;
        ops.elem_size[k] = a.targets[k].elem_size;
    }
    for (size_t l = 0; l < L; ++l) {
        ops.base[K + l] = a.leaves[l].data;
        detail::broadcast_strides_into(ops.strides[K + l], *a.leaves[l].sizes, *a.leaves[l].strides,
                                       shape);
        ops.elem_size[K + l] = a.leaves[l].elem_size;
    }
    const iter::Loop<N> Lp = plan(shape, ops);
    for_each_row_block_threaded(Lp, ops, K, grain, [&](const RowBlock& b) {
        std::array<void*, K> o;
        for (size_t k = 0; k < K; ++k) o[k] = const_cast<void*>(b.at[k]);
        kernel(a.exprs,
               MultiRun{o.data(), b.inner, b.at + K, b.inner + K, b.n, b.kind, b.rows, b.step});
    });
}

} // namespace cpu

template <>
struct MultiAssignEvaluator<CPU> {
    // The targets have the common shape; leaves broadcast to it and alias no
    // target harmfully (eval/multi_assign.hpp decided).
    template <class... A>
    static void run(const detail::MultiArgs& a) {
        constexpr size_t K = sizeof...(A);
        constexpr size_t L = (size_t(A::expr_type::leaves) + ... + 0);
        // every tree's cost and every output's bytes: one pass does all of it
        constexpr int64_t cost =
            (0 + ... + (expr_cost<typename A::expr_type> + int(sizeof(typename A::value_type))));
        cpu::drive_multi<K, K + L>(a, &cpu::multi_kernel<A...>, iter::grain_for(cost));
    }
};

} // namespace t7
