// The expression tree bound for the device, as eval/cpu/node_eval.hpp binds it
// for the CPU: each Leaf becomes a plain pointer to its first element, each
// Scalar its value, each Apply its functor and bound children. The result is a
// small trivially copyable value that a Thrust functor carries to the device.
// Leaf K reads operand K of the evaluation (operand 0 is the destination or
// the reduction's output), so one offset computation serves every leaf.
// Operands are converted per Apply::operands with t7::convert (Half computes
// in float), exactly as on the CPU. Complex values are bound and computed as
// device_t (thrust::complex, complex.hpp), the same bytes as the tensors' std::complex.
#pragma once

#include "../../core/config.hpp"
#include "../../expr/nodes.hpp"
#include "complex.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace t7::gpu {

// A tuple usable in device code (std::tuple's members are not __device__).
template <class... C>
struct Pack;
template <>
struct Pack<> {};
template <class H, class... R>
struct Pack<H, R...> {
    H head;
    Pack<R...> tail;
};
template <size_t J, class H, class... R>
T7_HOST_DEVICE T7_INLINE const auto& get(const Pack<H, R...>& p) {
    if constexpr (J == 0)
        return p.head;
    else
        return get<J - 1>(p.tail);
}
inline Pack<> make_pack() { return {}; }
template <class H, class... R>
Pack<H, R...> make_pack(H h, R... r) {
    return Pack<H, R...>{h, make_pack(r...)};
}

template <class T, int K>
struct BoundLeaf {
    const T* p;
};
template <class T>
struct BoundScalar {
    T v;
};
template <class Node, class... C>
struct BoundApply {
    device_op_t<typename Node::op_type> op;
    Pack<C...> c;
};

// ---- where operands are for one element ---------------------------------------
// Every operand contiguous and walked in the same order: element i is at i.
struct LinearAt {
    int64_t i;
    template <int K>
    T7_HOST_DEVICE T7_INLINE int64_t at() const {
        return i;
    }
};
// Offsets computed by an Indexer, one per operand.
template <size_t N>
struct OffsetsAt {
    int64_t off[N];
    template <int K>
    T7_HOST_DEVICE T7_INLINE int64_t at() const {
        return off[K];
    }
};

// ---- binding (host) -------------------------------------------------------------
template <class... C>
constexpr std::array<int, sizeof...(C)> leaf_offsets() {
    std::array<int, sizeof...(C)> off{};
    int acc = 0, j = 0;
    ((off[j++] = acc, acc += C::leaves), ...);
    return off;
}

template <int K, class T, class D>
BoundLeaf<device_t<T>, K> bind(const Leaf<T, D>& l) {
    return {device_ptr(l.tensor().data())};
}
template <int K, class T>
BoundScalar<device_t<T>> bind(const Scalar<T>& s) {
    return {to_device(s.value)};
}
template <int K, class Op, class... C>
auto bind(const Apply<Op, C...>& a);
template <int K, class Op, class... C, size_t... J>
auto bind_apply(const Apply<Op, C...>& a, std::index_sequence<J...>) {
    constexpr auto off = leaf_offsets<C...>();
    using B = BoundApply<Apply<Op, C...>, decltype(bind<K + off[J]>(std::get<J>(a.children)))...>;
    return B{to_device_op(a.op), make_pack(bind<K + off[J]>(std::get<J>(a.children))...)};
}
template <int K, class Op, class... C>
auto bind(const Apply<Op, C...>& a) {
    return bind_apply<K>(a, std::index_sequence_for<C...>{});
}
// Leaves numbered from 1: operand 0 is the output.
template <class E>
using bound_t = decltype(bind<1>(std::declval<const E&>()));

// ---- evaluation of one element (host or device) ----------------------------------
template <class T, int K, class O>
T7_HOST_DEVICE T7_INLINE T value(const BoundLeaf<T, K>& l, const O& o) {
    return l.p[o.template at<K>()];
}
template <class T, class O>
T7_HOST_DEVICE T7_INLINE T value(const BoundScalar<T>& s, const O&) {
    return s.v;
}
template <class Node, class... C, class O, size_t... J>
T7_HOST_DEVICE T7_INLINE auto value_apply(const BoundApply<Node, C...>& a, const O& o,
                                          std::index_sequence<J...>);
template <class Node, class... C, class O>
T7_HOST_DEVICE T7_INLINE auto value(const BoundApply<Node, C...>& a, const O& o) {
    return value_apply(a, o, std::index_sequence_for<C...>{});
}
template <class Node, class... C, class O, size_t... J>
T7_HOST_DEVICE T7_INLINE auto value_apply(const BoundApply<Node, C...>& a, const O& o,
                                          std::index_sequence<J...>) {
    using Ops = typename Node::operands;
    return a.op(convert<device_t<std::tuple_element_t<J, Ops>>>(value(get<J>(a.c), o))...);
}

} // namespace t7::gpu
