// How the CPU evaluates a tree over one inner run. The tree is first *bound*
// to the run: each Leaf becomes {pointer, inner stride}, each Scalar its value,
// into a small local value the compiler keeps in registers (a float store to
// the destination cannot alias it). `scalar_at` computes element i,
// `packet_at` a packet of elements starting at i; both inline into one loop.
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

template <class T>
struct BoundLeaf {
    const T* p;
    int64_t s;
};
template <class T>
struct BoundScalar {
    T v;
};
template <class Node, class... C>
struct BoundApply {
    typename Node::op_type op;
    std::tuple<C...> c;
};

template <class... C>
constexpr std::array<int, sizeof...(C)> leaf_offsets() {
    std::array<int, sizeof...(C)> off{};
    int acc = 0, j = 0;
    ((off[j++] = acc, acc += C::leaves), ...);
    return off;
}

// Leaf K of the tree reads operand K of the run.
template <int K, class T, class D>
T7_INLINE BoundLeaf<T> bind(const Leaf<T, D>&, const RunArgs& r) {
    return {static_cast<const T*>(r.ptr[K]), r.stride[K]};
}
template <int K, class T>
T7_INLINE BoundScalar<T> bind(const Scalar<T>& s, const RunArgs&) {
    return {s.value};
}
template <int K, class Op, class... C, size_t... J>
T7_INLINE auto bind_apply(const Apply<Op, C...>& a, const RunArgs& r, std::index_sequence<J...>) {
    constexpr auto off = leaf_offsets<C...>();
    using B =
        BoundApply<Apply<Op, C...>, decltype(bind<K + off[J]>(std::get<J>(a.children), r))...>;
    return B{a.op, {bind<K + off[J]>(std::get<J>(a.children), r)...}};
}
template <int K, class Op, class... C>
T7_INLINE auto bind(const Apply<Op, C...>& a, const RunArgs& r) {
    return bind_apply<K>(a, r, std::index_sequence_for<C...>{});
}
template <class E>
using bound_t = decltype(bind<0>(std::declval<const E&>(), std::declval<const RunArgs&>()));

// Moves every leaf of a bound tree on by its operand's bytes[K] (leaf K reads
// operand K): from one row of a block to the next without binding again.
template <class Children>
struct children_offsets;
template <class... C>
struct children_offsets<std::tuple<C...>> {
    static constexpr std::array<int, sizeof...(C)> value = leaf_offsets<C...>();
};

template <int K, class T>
T7_INLINE void advance(BoundLeaf<T>& l, const int64_t* bytes) {
    l.p = reinterpret_cast<const T*>(reinterpret_cast<const char*>(l.p) + bytes[K]);
}
template <int K, class T>
T7_INLINE void advance(BoundScalar<T>&, const int64_t*) {}
template <int K, class Node, class... C, size_t... J>
T7_INLINE void advance_apply(BoundApply<Node, C...>& a, const int64_t* bytes,
                             std::index_sequence<J...>) {
    constexpr auto off = children_offsets<decltype(Node::children)>::value;
    (advance<K + off[J]>(std::get<J>(a.c), bytes), ...);
}
template <int K, class Node, class... C>
T7_INLINE void advance(BoundApply<Node, C...>& a, const int64_t* bytes) {
    advance_apply<K>(a, bytes, std::index_sequence_for<C...>{});
}

// ---- scalar evaluation -------------------------------------------------------
template <class T>
T7_INLINE T scalar_at(const BoundLeaf<T>& l, int64_t i) {
    return l.p[i * l.s];
}
template <class T>
T7_INLINE T scalar_at(const BoundScalar<T>& s, int64_t) {
    return s.v;
}
// A packet op's run, given the functor when it holds state (pow_scalar's exponent).
template <class PO, class Op, class... P>
T7_INLINE auto run_packet(const Op& op, const P&... p) {
    if constexpr (requires { requires PO::takes_functor; })
        return PO::run(op, p...);
    else
        return PO::run(p...);
}

template <class Node, class... C, size_t... J>
T7_INLINE auto scalar_apply(const BoundApply<Node, C...>& a, int64_t i, std::index_sequence<J...>) {
    using Ops = typename Node::operands;
    using T = typename Node::value_type;
    if constexpr (ScalarViaPacket<packet_op<typename Node::op_type, T>>) {
        using PO = packet_op<typename Node::op_type, T>;
        static_assert((std::is_same_v<std::tuple_element_t<J, Ops>, T> && ...));
        return first_lane(run_packet<PO>(
            a.op, ei::pset1<packet_t<T>>(convert<T>(scalar_at(std::get<J>(a.c), i)))...));
    } else {
        return a.op(convert<std::tuple_element_t<J, Ops>>(scalar_at(std::get<J>(a.c), i))...);
    }
}
template <class Node, class... C>
T7_INLINE auto scalar_at(const BoundApply<Node, C...>& a, int64_t i) {
    return scalar_apply(a, i, std::index_sequence_for<C...>{});
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

// AllUnit: every leaf is known to be unit-stride along the run (no broadcast
// check per packet); otherwise a leaf of stride 0 broadcasts its element.
template <bool AllUnit = false, class T>
T7_INLINE packet_t<T> packet_at(const BoundLeaf<T>& l, int64_t i) {
    if constexpr (AllUnit)
        return ei::ploadu<packet_t<T>>(l.p + i);
    else
        return l.s == 0 ? ei::pset1<packet_t<T>>(*l.p) : ei::ploadu<packet_t<T>>(l.p + i);
}
template <bool AllUnit = false, class T>
T7_INLINE packet_t<T> packet_at(const BoundScalar<T>& s, int64_t) {
    return ei::pset1<packet_t<T>>(s.v);
}
template <bool AllUnit, class Node, class... C, size_t... J>
T7_INLINE auto packet_apply(const BoundApply<Node, C...>& a, int64_t i, std::index_sequence<J...>) {
    using T = typename Node::value_type;
    return run_packet<packet_op<typename Node::op_type, T>>(
        a.op, packet_at<AllUnit>(std::get<J>(a.c), i)...);
}
template <bool AllUnit = false, class Node, class... C>
T7_INLINE auto packet_at(const BoundApply<Node, C...>& a, int64_t i) {
    return packet_apply<AllUnit>(a, i, std::index_sequence_for<C...>{});
}

} // namespace t7::cpu
