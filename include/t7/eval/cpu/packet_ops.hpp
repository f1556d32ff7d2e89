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
struct packet_op<op::log, T> : via_eigen<ei::scalar_log_op<T>> {};
template <Floating T>
struct packet_op<op::log1p, T> : via_eigen<ei::scalar_log1p_op<T>> {};
template <Floating T>
struct packet_op<op::sin, T> : via_eigen<ei::scalar_sin_op<T>> {};
template <Floating T>
struct packet_op<op::cos, T> : via_eigen<ei::scalar_cos_op<T>> {};
template <Floating T>
struct packet_op<op::tanh, T> : via_eigen<ei::scalar_tanh_op<T>> {};
template <Floating T>
struct packet_op<op::floor, T> : via_eigen<ei::scalar_floor_op<T>> {};
template <Floating T>
struct packet_op<op::ceil, T> : via_eigen<ei::scalar_ceil_op<T>> {};
template <Floating T>
struct packet_op<op::round, T> : via_eigen<ei::scalar_round_op<T>> {};
template <Floating T>
struct packet_op<op::cinv, T> : via_eigen<ei::scalar_inverse_op<T>> {};

// ---- where Eigen's packet math answers differently from the scalar functor,
// so that the result would depend on the layout (packets run on contiguous
// runs only): these keep the scalar functor's IEEE answers.

// The correctly rounded square root instruction. With EIGEN_FAST_MATH (its
// default) Eigen's psqrt is rsqrt plus Newton steps: sqrt(+inf) is NaN, and
// finite results may be off by an ulp.
#if defined(EIGEN_VECTORIZE_AVX512)
T7_INLINE __m512 exact_sqrt(const __m512& x) { return _mm512_sqrt_ps(x); }
T7_INLINE __m512d exact_sqrt(const __m512d& x) { return _mm512_sqrt_pd(x); }
#endif
#if defined(EIGEN_VECTORIZE_AVX)
T7_INLINE __m256 exact_sqrt(const __m256& x) { return _mm256_sqrt_ps(x); }
T7_INLINE __m256d exact_sqrt(const __m256d& x) { return _mm256_sqrt_pd(x); }
#endif
#if defined(EIGEN_VECTORIZE_SSE2)
T7_INLINE __m128 exact_sqrt(const __m128& x) { return _mm_sqrt_ps(x); }
T7_INLINE __m128d exact_sqrt(const __m128d& x) { return _mm_sqrt_pd(x); }
#endif
template <class P>
T7_INLINE P exact_sqrt(const P& x) { // other ISAs: Eigen's own (exact on NEON)
    return ei::psqrt(x);
}

// Eigen's pexp is right only where exp(x) is a normal number: below that it
// clamps its argument (exp(-inf) would be the smallest normal number) and does
// not round into the denormals, where the scalar exp underflows gradually to 0.
// There exp(x) = exp(x / 2)^2, which does.
template <class T>
inline constexpr T exp_normal_lo = std::is_same_v<T, float> ? T(-87.33654475)      // log(FLT_MIN)
                                                            : T(-708.39641853226); // log(DBL_MIN)
template <class T, class P>
T7_INLINE P exp_full_range(const P& x) {
    const P y = ei::pexp(x);
    const P below = ei::pcmp_lt(x, ei::pset1<P>(exp_normal_lo<T>));
    if (EIGEN_PREDICT_FALSE(ei::predux_any(below))) {
        const P h = ei::pexp(ei::pmul(x, ei::pset1<P>(T(0.5))));
        return ei::pselect(below, ei::pmul(h, h), y);
    }
    return y;
}

template <Floating T>
struct packet_op<op::sqrt, T> {
    static constexpr bool ok = ei::packet_traits<T>::HasSqrt;
    template <class P>
    static T7_INLINE P run(const P& x) {
        return exact_sqrt(x);
    }
};
template <Floating T>
struct packet_op<op::rsqrt, T> { // 1 / sqrt(x), as the scalar functor: rsqrt(+inf) = 0
    static constexpr bool ok = ei::packet_traits<T>::HasSqrt;
    template <class P>
    static T7_INLINE P run(const P& x) {
        return ei::pdiv(ei::pset1<P>(T(1)), exact_sqrt(x));
    }
};
template <Floating T>
struct packet_op<op::exp, T> {
    static constexpr bool ok = ei::packet_traits<T>::HasExp;
    template <class P>
    static T7_INLINE P run(const P& x) {
        return exp_full_range<T>(x);
    }
};
template <Floating T>
struct packet_op<op::sigmoid, T> { // far left sigmoid(x) = exp(x) to the last bit
    static constexpr bool ok = ei::packet_traits<T>::HasExp;
    template <class P>
    static T7_INLINE P run(const P& x) {
        const P y = ei::scalar_logistic_op<T>().packetOp(x);
        const P below = ei::pcmp_lt(x, ei::pset1<P>(exp_normal_lo<T>));
        if (EIGEN_PREDICT_FALSE(ei::predux_any(below)))
            return ei::pselect(below, exp_full_range<T>(x), y);
        return y;
    }
};

// ---- compositions of packet primitives

// Torch7's rule, x < lo ? lo : (x > hi ? hi : x), also when lo > hi.
template <Floating T>
struct packet_op<op::clamp, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& x, const P& lo, const P& hi) {
        return ei::pselect(ei::pcmp_lt(x, lo), lo, ei::pselect(ei::pcmp_lt(hi, x), hi, x));
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
