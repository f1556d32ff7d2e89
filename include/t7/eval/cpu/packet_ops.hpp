// Maps the functor table to Eigen's packet math (SSE/AVX/AVX-512/NEON), so the
// CPU evaluator vectorises arithmetic and transcendentals alike. A functor
// without an entry here, or whose Eigen functor has no packet path for T,
// simply runs through the scalar loop.
#pragma once

#include "../../expr/functors.hpp"

#include <Eigen/Core>
#include <type_traits>

namespace t7::cpu {

namespace ei = Eigen::internal;

template <class T>
using packet_t = typename ei::packet_traits<T>::type;
template <class T>
inline constexpr int packet_size = ei::unpacket_traits<packet_t<T>>::size;

// Primary: no packet implementation.
template <class Op, class T>
struct packet_op {
    static constexpr bool ok = false;
};

// Use an Eigen functor when Eigen vectorises it for T.
template <class F>
struct via_eigen {
    static constexpr bool ok = ei::functor_traits<F>::PacketAccess;
    template <class... P>
    static T7_INLINE auto run(const P&... p) {
        return F().packetOp(p...);
    }
};

template <class T>
concept Floating = std::is_floating_point_v<T>;

// Arithmetic that wraps identically in SIMD and scalar form.
template <class T>
struct packet_op<op::add, T> : via_eigen<ei::scalar_sum_op<T, T>> {};
template <class T>
struct packet_op<op::sub, T> : via_eigen<ei::scalar_difference_op<T, T>> {};
template <class T>
struct packet_op<op::mul, T> : via_eigen<ei::scalar_product_op<T, T>> {};
template <class T>
struct packet_op<op::neg, T> : via_eigen<ei::scalar_opposite_op<T>> {};
template <class T>
struct packet_op<op::abs, T> : via_eigen<ei::scalar_abs_op<T>> {};
template <class T>
struct packet_op<op::cmax, T> : via_eigen<ei::scalar_max_op<T, T>> {};
template <class T>
struct packet_op<op::cmin, T> : via_eigen<ei::scalar_min_op<T, T>> {};
// Floating only: integer division must check for zero.
template <Floating T>
struct packet_op<op::div, T> : via_eigen<ei::scalar_quotient_op<T, T>> {};
template <Floating T>
struct packet_op<op::exp, T> : via_eigen<ei::scalar_exp_op<T>> {};
template <Floating T>
struct packet_op<op::log, T> : via_eigen<ei::scalar_log_op<T>> {};
template <Floating T>
struct packet_op<op::log1p, T> : via_eigen<ei::scalar_log1p_op<T>> {};
template <Floating T>
struct packet_op<op::sqrt, T> : via_eigen<ei::scalar_sqrt_op<T>> {};
template <Floating T>
struct packet_op<op::rsqrt, T> : via_eigen<ei::scalar_rsqrt_op<T>> {};
template <Floating T>
struct packet_op<op::sin, T> : via_eigen<ei::scalar_sin_op<T>> {};
template <Floating T>
struct packet_op<op::cos, T> : via_eigen<ei::scalar_cos_op<T>> {};
template <Floating T>
struct packet_op<op::tanh, T> : via_eigen<ei::scalar_tanh_op<T>> {};
template <Floating T>
struct packet_op<op::sigmoid, T> : via_eigen<ei::scalar_logistic_op<T>> {};
template <Floating T>
struct packet_op<op::floor, T> : via_eigen<ei::scalar_floor_op<T>> {};
template <Floating T>
struct packet_op<op::ceil, T> : via_eigen<ei::scalar_ceil_op<T>> {};
template <Floating T>
struct packet_op<op::round, T> : via_eigen<ei::scalar_round_op<T>> {};
template <Floating T>
struct packet_op<op::cinv, T> : via_eigen<ei::scalar_inverse_op<T>> {};

// Compositions of packet primitives.
template <Floating T>
struct packet_op<op::clamp, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& x, const P& lo, const P& hi) {
        return ei::pmin(ei::pmax(x, lo), hi);
    }
};
template <Floating T>
struct packet_op<op::lerp, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& a, const P& b, const P& w) {
        return ei::padd(a, ei::pmul(w, ei::psub(b, a)));
    }
};
template <Floating T>
struct packet_op<op::addcmul, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& a, const P& v, const P& b, const P& c) {
        return ei::padd(a, ei::pmul(v, ei::pmul(b, c)));
    }
};
template <Floating T>
struct packet_op<op::addcdiv, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& a, const P& v, const P& b, const P& c) {
        return ei::padd(a, ei::pmul(v, ei::pdiv(b, c)));
    }
};

} // namespace t7::cpu
