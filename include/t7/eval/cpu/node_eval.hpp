// How the CPU evaluates a tree over one inner run: `scalar_at` computes element
// i, `packet_at` a packet of elements starting at i. Leaf K reads operand K of
// the run (its pointer and inner stride); scalars and functors come from the
// tree itself. Both recursions are fully inlined into one loop body.
#pragma once

#include "../../expr/nodes.hpp"
#include "packet_ops.hpp"

#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

namespace t7::cpu {

// Operand pointers (already advanced to the run's start) and inner strides.
struct RunArgs {
    const void* const* ptr;
    const int64_t* stride;
};

template <class... C>
constexpr std::array<int, sizeof...(C)> leaf_offsets() {
    std::array<int, sizeof...(C)> off{};
    int acc = 0, j = 0;
    ((off[j++] = acc, acc += C::leaves), ...);
    return off;
}

// ---- scalar evaluation -------------------------------------------------------
template <int K, class T, class D>
T7_INLINE T scalar_at(const Leaf<T, D>&, const RunArgs& r, int64_t i) {
    return static_cast<const T*>(r.ptr[K])[i * r.stride[K]];
}
template <int K, class T>
T7_INLINE T scalar_at(const Scalar<T>& s, const RunArgs&, int64_t) {
    return s.value;
}
template <int K, class Op, class... C, size_t... J>
T7_INLINE auto scalar_apply(const Apply<Op, C...>& a, const RunArgs& r, int64_t i,
                            std::index_sequence<J...>) {
    using Ops = typename Apply<Op, C...>::operands;
    constexpr auto off = leaf_offsets<C...>();
    return a.op(convert<std::tuple_element_t<J, Ops>>(
        scalar_at<K + off[J]>(std::get<J>(a.children), r, i))...);
}
template <int K, class Op, class... C>
T7_INLINE auto scalar_at(const Apply<Op, C...>& a, const RunArgs& r, int64_t i) {
    return scalar_apply<K>(a, r, i, std::index_sequence_for<C...>{});
}

// ---- packet evaluation --------------------------------------------------------
// A tree vectorises for T when every node computes in T and has a packet path.
template <class E, class T>
struct vectorizable : std::false_type {};
template <class T, class D>
struct vectorizable<Leaf<T, D>, T> : std::bool_constant<(packet_size<T> > 1)> {};
template <class T>
struct vectorizable<Scalar<T>, T> : std::bool_constant<(packet_size<T> > 1)> {};
template <class Op, class... C, class T>
requires std::is_same_v<typename Apply<Op, C...>::value_type, T>
struct vectorizable<Apply<Op, C...>, T>
    : std::bool_constant<packet_op<Op, T>::ok && (vectorizable<C, T>::value && ...)> {
};
template <class E, class T>
inline constexpr bool vectorizable_v = vectorizable<E, T>::value;

template <int K, class T, class D>
T7_INLINE packet_t<T> packet_at(const Leaf<T, D>&, const RunArgs& r, int64_t i) {
    const T* p = static_cast<const T*>(r.ptr[K]);
    return r.stride[K] == 0 ? ei::pset1<packet_t<T>>(*p) : ei::ploadu<packet_t<T>>(p + i);
}
template <int K, class T>
T7_INLINE packet_t<T> packet_at(const Scalar<T>& s, const RunArgs&, int64_t) {
    return ei::pset1<packet_t<T>>(s.value);
}
template <int K, class Op, class... C, size_t... J>
T7_INLINE auto packet_apply(const Apply<Op, C...>& a, const RunArgs& r, int64_t i,
                            std::index_sequence<J...>) {
    using T = typename Apply<Op, C...>::value_type;
    constexpr auto off = leaf_offsets<C...>();
    return packet_op<Op, T>::run(packet_at<K + off[J]>(std::get<J>(a.children), r, i)...);
}
template <int K, class Op, class... C>
T7_INLINE auto packet_at(const Apply<Op, C...>& a, const RunArgs& r, int64_t i) {
    return packet_apply<K>(a, r, i, std::index_sequence_for<C...>{});
}

} // namespace t7::cpu
