// How the CPU evaluates a tree over one inner run. The tree is first *bound*
// to the run: each Leaf becomes {pointer, inner stride}, each Scalar its value,
// into a small local value the compiler keeps in registers (a float store to
// the destination cannot alias it). `scalar_at` computes element i,
// `packet_at` a packet of elements starting at i; both inline into one loop.
#pragma once

#include "../../expr/nodes.hpp"
#include "complex_packets.hpp"
#include "complex_widened.hpp"
#include "packet_ops.hpp"

#include <array>
#include <cstdint>
#include <cstring>
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
    using Op = typename Node::op_type;
    if constexpr (sizeof...(C) == 1 && complex_part_packet<Op, std::tuple_element_t<0, Ops>>) {
        // abs, angle, ...: the packet form on a broadcast value (layout-independent)
        using CT = std::tuple_element_t<0, Ops>;
        const CT v = convert<CT>(scalar_at(std::get<0>(a.c), i));
        if constexpr (requires { part_op<Op, T>::scalar(v.real(), v.imag()); }) {
            return part_op<Op, T>::scalar(v.real(), v.imag()); // the packet's operations
        } else {
            const auto z = ei::pset1<packet_t<CT>>(v);
            return first_lane(run_part<Op>(z, z));
        }
    } else if constexpr (ScalarViaPacket<packet_op<typename Node::op_type, T>>) {
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
// where(mask, a, b) vectorises when a and b do and its mask is a comparison of
// two T operands (where(x > 0, x, 0): a packet compare) or a uint8 tensor
// (converted a packet at a time): a select per packet, the scalar path's exact values.
template <class Op>
inline constexpr bool is_compare_v =
    std::is_same_v<Op, op::lt> || std::is_same_v<Op, op::le> || std::is_same_v<Op, op::gt> ||
    std::is_same_v<Op, op::ge> || std::is_same_v<Op, op::eq> || std::is_same_v<Op, op::ne>;
template <class M, class T>
struct mask_vectorizable : std::false_type {};
template <class D, class T>
struct mask_vectorizable<Leaf<uint8_t, D>, T> : std::bool_constant<(packet_size<T> > 1)> {};
template <class Op, class X, class Y, class T>
requires(is_compare_v<Op>&&
             std::is_same_v<typename Apply<Op, X, Y>::operands,
                            std::tuple<T, T>>) struct mask_vectorizable<Apply<Op, X, Y>, T>
    : std::bool_constant<vectorizable<X, T>::value && vectorizable<Y, T>::value> {
};
template <class M, class A, class B, class T>
requires std::is_same_v<typename Apply<op::where, M, A, B>::value_type, T>
struct vectorizable<Apply<op::where, M, A, B>, T>
    : std::bool_constant<mask_vectorizable<M, T>::value && vectorizable<A, T>::value &&
                         vectorizable<B, T>::value> {
};

// A real result of complex values (abs, angle, real, imag): two packets of
// complex<T> make one of T.
template <class Op, class C, class T>
requires(
    complex_part_packet<Op, typename C::value_type>&&
        std::is_same_v<typename Apply<Op, C>::value_type, T>&&
            std::is_same_v<real_t<typename C::value_type>, T>) struct vectorizable<Apply<Op, C>, T>
    : std::bool_constant<vectorizable<C, typename C::value_type>::value> {
};

template <class E, class T>
inline constexpr bool vectorizable_v = vectorizable<E, T>::value;

// AllUnit: every leaf is known to be unit-stride along the run (no broadcast
// check per packet); otherwise a leaf of stride 0 broadcasts its element and
// one of stride -1 (a view reversed against the destination) is read as the
// packet ending at element i, reversed.
template <bool AllUnit = false, class T>
T7_INLINE packet_t<T> packet_at(const BoundLeaf<T>& l, int64_t i) {
    using P = packet_t<T>;
    if constexpr (AllUnit) {
        return ei::ploadu<P>(l.p + i);
    } else {
        if (l.s == 1) [[likely]]
            return ei::ploadu<P>(l.p + i);
        if (l.s == 0) return ei::pset1<P>(*l.p);
        return reverse_packet<T>(ei::ploadu<P>(l.p - i - (packet_size<T> - 1)));
    }
}
template <bool AllUnit = false, class T>
T7_INLINE packet_t<T> packet_at(const BoundScalar<T>& s, int64_t) {
    return ei::pset1<packet_t<T>>(s.v);
}
#if defined(EIGEN_VECTORIZE_AVX512)
// packet_size<T> bytes at p as a mask of T's lanes in registers (a complex value's
// byte covers its two lanes): through memory, a packet of 64 bytes loaded after
// eight or sixteen narrow stores stalls on store forwarding (where() on complex
// packets ran at a seventh of z * z + c).
template <class T>
T7_INLINE packet_t<T> byte_mask_avx512(const uint8_t* p) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) {
        __m128i b;
        if constexpr (is_complex_v<T>) {
            uint32_t w;
            std::memcpy(&w, p, 4);
            b = _mm_cvtsi32_si128(int(w));
            b = _mm_unpacklo_epi8(b, b); // b0 b0 b1 b1 ...: one byte per lane
        } else {
            b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        }
        const __m512i lanes = _mm512_cvtepu8_epi64(b);
        const __mmask8 k = _mm512_test_epi64_mask(lanes, lanes);
        return packet_t<T>(_mm512_castsi512_pd(_mm512_maskz_set1_epi64(k, -1)));
    } else {
        __m128i b;
        if constexpr (is_complex_v<T>) {
            b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
            b = _mm_unpacklo_epi8(b, b);
        } else {
            b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        }
        const __m512i lanes = _mm512_cvtepu8_epi32(b);
        const __mmask16 k = _mm512_test_epi32_mask(lanes, lanes);
        return packet_t<T>(_mm512_castsi512_ps(_mm512_maskz_set1_epi32(k, -1)));
    }
}
template <class T>
inline constexpr bool byte_mask_avx512_v =
    std::is_same_v<T, double> || std::is_same_v<T, float> ||
    std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::complex<float>>;
#endif

// A where's mask as a packet of all-ones / all-zeros lanes of T.
template <bool AllUnit, class T>
T7_INLINE packet_t<T> mask_packet_at(const BoundLeaf<uint8_t>& l, int64_t i) {
    using P = packet_t<T>;
    const P zero = ei::pzero(P());
    if (!AllUnit && l.s == 0) return *l.p ? ei::ptrue(zero) : zero;
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (byte_mask_avx512_v<T>)
        if (AllUnit || l.s == 1) return byte_mask_avx512<T>(l.p + i);
#endif
    alignas(64) T v[packet_size<T>];
    const int64_t s = AllUnit ? 1 : l.s; // 1 or -1 (reversed)
    for (int k = 0; k < packet_size<T>; ++k) v[k] = T(l.p[(i + k) * s]);
    return ei::pandnot(ei::ptrue(zero), ei::pcmp_eq(ei::pload<P>(v), zero));
}
template <bool AllUnit, class T, class Node, class X, class Y>
T7_INLINE packet_t<T> mask_packet_at(const BoundApply<Node, X, Y>& c, int64_t i) {
    using Op = typename Node::op_type;
    const packet_t<T> x = packet_at<AllUnit>(std::get<0>(c.c), i);
    const packet_t<T> y = packet_at<AllUnit>(std::get<1>(c.c), i);
    if constexpr (std::is_same_v<Op, op::lt>) return ei::pcmp_lt(x, y);
    if constexpr (std::is_same_v<Op, op::le>) return ei::pcmp_le(x, y);
    if constexpr (std::is_same_v<Op, op::gt>) return ei::pcmp_lt(y, x);
    if constexpr (std::is_same_v<Op, op::ge>) return ei::pcmp_le(y, x);
    if constexpr (std::is_same_v<Op, op::eq>) return ei::pcmp_eq(x, y);
    if constexpr (std::is_same_v<Op, op::ne>) return ei::pandnot(ei::ptrue(x), ei::pcmp_eq(x, y));
}

// A comparison of two U operands written as bytes (`mask = abs(z) < 2`): it
// vectorises in U when where() could use it as a mask.
template <class E>
struct byte_compare {
    using operand = void;
};
template <class Op, class X, class Y>
requires is_compare_v<Op>
struct byte_compare<Apply<Op, X, Y>> {
    using operand = std::tuple_element_t<0, typename Apply<Op, X, Y>::operands>;
};
template <class E>
inline constexpr bool byte_compare_vectorizable_v = [] {
    using U = typename byte_compare<E>::operand;
    if constexpr (std::is_void_v<U> || is_complex_v<U>) // (z == w: scalar)
        return false;
    else
        return mask_vectorizable<E, U>::value;
}();

// A packet mask (lanes all-ones or zero) as the bytes 1 or 0, in out[0, lanes).
template <class U>
T7_INLINE void store_mask_bytes(uint8_t* out, const packet_t<U>& m) {
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (std::is_same_v<U, double>) {
        const __mmask8 k = _mm512_cmp_pd_mask(m, _mm512_setzero_pd(), _CMP_NEQ_UQ);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(out),
                         _mm512_cvtepi64_epi8(_mm512_maskz_set1_epi64(k, 1)));
        return;
    } else if constexpr (std::is_same_v<U, float>) {
        const __mmask16 k = _mm512_cmp_ps_mask(m, _mm512_setzero_ps(), _CMP_NEQ_UQ);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                         _mm512_cvtepi32_epi8(_mm512_maskz_set1_epi32(k, 1)));
        return;
    }
#endif
    constexpr int P = packet_size<U>;
    alignas(64) U v[P];
    ei::pstore(v, ei::pand(m, ei::pset1<packet_t<U>>(U(1))));
    for (int k = 0; k < P; ++k) out[k] = uint8_t(v[k]);
}

template <bool AllUnit, class Node, class... C, size_t... J>
T7_INLINE auto packet_apply(const BoundApply<Node, C...>& a, int64_t i, std::index_sequence<J...>) {
    using T = typename Node::value_type;
    using Op = typename Node::op_type;
    if constexpr (sizeof...(C) == 1 &&
                  complex_part_packet<Op, std::tuple_element_t<0, typename Node::operands>>) {
        using CT = std::tuple_element_t<0, typename Node::operands>;
        constexpr int64_t half = packet_size<CT>;
        return run_part<Op>(packet_at<AllUnit>(std::get<0>(a.c), i),
                            packet_at<AllUnit>(std::get<0>(a.c), i + half));
    } else if constexpr (std::is_same_v<typename Node::op_type, op::where>)
        return ei::pselect(mask_packet_at<AllUnit, T>(std::get<0>(a.c), i),
                           packet_at<AllUnit>(std::get<1>(a.c), i),
                           packet_at<AllUnit>(std::get<2>(a.c), i));
    else
        return run_packet<packet_op<typename Node::op_type, T>>(
            a.op, packet_at<AllUnit>(std::get<J>(a.c), i)...);
}
template <bool AllUnit = false, class Node, class... C>
T7_INLINE auto packet_at(const BoundApply<Node, C...>& a, int64_t i) {
    return packet_apply<AllUnit>(a, i, std::index_sequence_for<C...>{});
}

} // namespace t7::cpu
