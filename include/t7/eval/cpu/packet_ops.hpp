// Maps the functor table to Eigen's packet math (SSE/AVX/AVX-512/NEON), so the
// CPU evaluator vectorises arithmetic and transcendentals alike. A functor
// without an entry here, or whose Eigen functor has no packet path for T,
// simply runs through the scalar loop.
#pragma once

#include "../../expr/functors.hpp"
#include "pow_packets.hpp"
#include "sleef_ops.hpp"

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace t7::cpu {

namespace ei = Eigen::internal;

template <class T>
using packet_t = typename ei::packet_traits<T>::type;
template <class T>
inline constexpr int packet_size = ei::unpacket_traits<packet_t<T>>::size;

// The lanes of p in reverse order. Eigen specialises preverse for its float
// and double packets on every instruction set; its generic preverse returns
// the packet unchanged, so every other type goes through memory.
// On AVX-512 Eigen's preverse is _mm512_permutexvar_*, whose GCC 12 header
// permutes into a self-initialised `undefined` vector: thousands of false
// -Wmaybe-uninitialized per build. The zero-masked form is the same instruction.
template <class T>
T7_INLINE packet_t<T> reverse_packet(const packet_t<T>& p) {
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (std::is_same_v<T, double>)
        return _mm512_maskz_permutexvar_pd(__mmask8(0xFF), _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                           p);
    if constexpr (std::is_same_v<T, float>)
        return _mm512_maskz_permutexvar_ps(
            __mmask16(0xFFFF),
            _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), p);
#endif
    if constexpr (std::is_floating_point_v<T>) {
        return ei::preverse(p);
    } else {
        alignas(64) T v[packet_size<T>];
        ei::pstore(v, p);
        for (int k = 0; k < packet_size<T> / 2; ++k) std::swap(v[k], v[packet_size<T> - 1 - k]);
        return ei::pload<packet_t<T>>(v);
    }
}

// Primary: no packet implementation.
template <class Op, class T>
struct packet_op {
    static constexpr bool ok = false;
};

// Whether the scalar loop computes Op through its packet form on a broadcast
// packet (one lane kept): for the functions whose packet form is a library's
// own approximation, so that an element's value never depends on whether it
// sat in a packet, a tail or a strided run. Exact operations (+, *, sqrt, ...)
// give the same bits either way and keep the scalar functor.
template <class PO>
concept ScalarViaPacket = PO::ok && requires {
    requires PO::scalar_via_packet;
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

// Whether any lane of a comparison's result is set. Eigen's predux_any of
// AVX-512 packets goes through _mm512_extractf64x4_pd, which makes g++ 12 warn
// (-Wmaybe-uninitialized, inside its own intrinsics header) in users' code.
#if defined(EIGEN_VECTORIZE_AVX512)
T7_INLINE bool any_lane(const __m512d& m) {
    const __m512i i = _mm512_castpd_si512(m);
    return _mm512_test_epi64_mask(i, i) != 0;
}
T7_INLINE bool any_lane(const __m512& m) {
    const __m512i i = _mm512_castps_si512(m);
    return _mm512_test_epi32_mask(i, i) != 0;
}
#endif
#if defined(EIGEN_VECTORIZE_AVX)
T7_INLINE bool any_lane(const __m256d& m) { return _mm256_movemask_pd(m) != 0; }
T7_INLINE bool any_lane(const __m256& m) { return _mm256_movemask_ps(m) != 0; }
#endif
#if defined(EIGEN_VECTORIZE_SSE2)
T7_INLINE bool any_lane(const __m128d& m) { return _mm_movemask_pd(m) != 0; }
T7_INLINE bool any_lane(const __m128& m) { return _mm_movemask_ps(m) != 0; }
#endif
// Lane 0 of a packet (Eigen's pfirst of AVX-512 packets warns as above).
#if defined(EIGEN_VECTORIZE_AVX512)
T7_INLINE double first_lane(const __m512d& p) { return _mm512_cvtsd_f64(p); }
T7_INLINE float first_lane(const __m512& p) { return _mm512_cvtss_f32(p); }
#endif
template <class P>
T7_INLINE auto first_lane(const P& p) {
    return ei::pfirst(p);
}
// A full packet folded to its lower half with op (lanes i and i + n/2), then
// by Eigen's own fold of the half packet: the order Eigen's predux of AVX-512
// packets uses, without its _mm512_extract* (which warns as above).
#if defined(EIGEN_VECTORIZE_AVX512)
template <class Op>
T7_INLINE __m256d fold_halves(const __m512d& p, Op op) {
    return op(_mm512_castpd512_pd256(p), _mm512_maskz_extractf64x4_pd(0xF, p, 1));
}
#if defined(EIGEN_VECTORIZE_AVX512DQ)
template <class Op>
T7_INLINE __m256 fold_halves(const __m512& p, Op op) {
    return op(_mm512_castps512_ps256(p), _mm512_maskz_extractf32x8_ps(0xFF, p, 1));
}
#endif
#endif
template <class P, class Op>
T7_INLINE const P& fold_halves(const P& p, Op) { // other packets: as they are
    return p;
}
template <class P>
T7_INLINE bool any_lane(const P& m) { // other ISAs
    return ei::predux_any(m);
}

// Arithmetic that wraps identically in SIMD and scalar form.
template <class T>
struct packet_op<op::add, T> : via_eigen<ei::scalar_sum_op<T, T>> {};
template <class T>
struct packet_op<op::sub, T> : via_eigen<ei::scalar_difference_op<T, T>> {};
template <class T>
struct packet_op<op::mul, T> : via_eigen<ei::scalar_product_op<T, T>> {};
template <class T>
struct packet_op<op::neg, T> : via_eigen<ei::scalar_opposite_op<T>> {};
// (abs of a complex value is real, and complex numbers have no max: complex_ops.hpp)
template <class T>
requires(!is_complex_v<T>) struct packet_op<op::abs, T> : via_eigen<ei::scalar_abs_op<T>> {
};
template <class T>
requires(!is_complex_v<T>) struct packet_op<op::cmax, T> : via_eigen<ei::scalar_max_op<T, T>> {
};
template <class T>
requires(!is_complex_v<T>) struct packet_op<op::cmin, T> : via_eigen<ei::scalar_min_op<T, T>> {
};
// Floating only: integer division must check for zero.
template <Floating T>
struct packet_op<op::div, T> : via_eigen<ei::scalar_quotient_op<T, T>> {};
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
#if defined(EIGEN_VECTORIZE_AVX512) // maskz: g++ 12's unmasked forms warn in users' code
T7_INLINE __m512 exact_sqrt(const __m512& x) { return _mm512_maskz_sqrt_ps(0xFFFF, x); }
T7_INLINE __m512d exact_sqrt(const __m512d& x) { return _mm512_maskz_sqrt_pd(0xFF, x); }
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
    if (EIGEN_PREDICT_FALSE(any_lane(below))) {
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
#if !T7_VMATH // else SLEEF's exp (below)
template <Floating T>
struct packet_op<op::sigmoid, T> { // far left sigmoid(x) = exp(x) to the last bit
    static constexpr bool ok = ei::packet_traits<T>::HasExp;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& x) {
        const P y = ei::scalar_logistic_op<T>().packetOp(x);
        const P below = ei::pcmp_lt(x, ei::pset1<P>(exp_normal_lo<T>));
        if (EIGEN_PREDICT_FALSE(any_lane(below)))
            return ei::pselect(below, exp_full_range<T>(x), y);
        return y;
    }
};
#endif

// ---- SLEEF's functions (sleef_ops.hpp) -----------------------------------------

#if T7_VMATH
template <class T>
struct vmath_op {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
};
#define T7_VMATH_OP(OP)                                                                            \
    template <Floating T>                                                                          \
    struct packet_op<op::OP, T> : vmath_op<T> {                                                    \
        template <class... P>                                                                      \
        static T7_INLINE auto run(const P&... p) {                                                 \
            return vmath::OP(p...);                                                                \
        }                                                                                          \
    };
T7_VMATH_OP(asin)
T7_VMATH_OP(acos)
T7_VMATH_OP(atan)
T7_VMATH_OP(sinh)
T7_VMATH_OP(cosh)
T7_VMATH_OP(tanh)
T7_VMATH_OP(exp)
T7_VMATH_OP(exp2)
T7_VMATH_OP(expm1)
T7_VMATH_OP(log)
T7_VMATH_OP(log2)
T7_VMATH_OP(log10)
T7_VMATH_OP(cbrt)
T7_VMATH_OP(erf)
T7_VMATH_OP(erfc)
T7_VMATH_OP(atan2)
#undef T7_VMATH_OP

// pow with std::pow's special values. SLEEF's pow differs from them near the
// largest values (pow(DBL_MAX, 1) and pow(-DBL_MAX, 1) are inf and -inf) and for
// some negative bases (pow(-150, -1) an ulp off), so the lanes with x <= 0, x = inf
// or NaN, y = inf or NaN, or an infinite result are std::pow's, element by element
// (vmath::pow of AVX-512 float packets does the same itself; the AVX2 one
// computes the usual lanes and leaves the rest to this).
template <class T, class P>
[[gnu::noinline]] P pow_special_lanes(P r, P x, P y, P special) {
    alignas(64) T rs[packet_size<T>], xs[packet_size<T>], ys[packet_size<T>], ss[packet_size<T>];
    ei::pstore(rs, r);
    ei::pstore(xs, x);
    ei::pstore(ys, y);
    ei::pstore(ss, special);
    for (int i = 0; i < packet_size<T>; ++i)
        if (std::signbit(ss[i])) rs[i] = std::pow(xs[i], ys[i]); // all bits set: NaN, sign set
    return ei::pload<P>(rs);
}
template <class T, class P>
T7_INLINE P pow_ieee(const P& x, const P& y) {
    const P r = vmath::pow(x, y);
    if constexpr (std::is_same_v<T, float> ? vmath::own_float_pow : vmath::own_double_pow) {
        return r;
    } else {
        const P inf = ei::pset1<P>(std::numeric_limits<T>::infinity());
        const P usual = ei::pand(ei::pand(ei::pcmp_lt(ei::pzero(x), x), ei::pcmp_lt(x, inf)),
                                 ei::pand(ei::pcmp_lt(ei::pabs(y), inf), ei::pcmp_lt(r, inf)));
        const P special = ei::pandnot(ei::ptrue(x), usual);
        if (EIGEN_PREDICT_FALSE(any_lane(special))) return pow_special_lanes<T>(r, x, y, special);
        return r;
    }
}
// Called, not inlined, from pow_scalar's switch: inlined there, the kernel's forty
// constants competed with the switch's for registers (double pow(x, 2.7): 3.7 ms at
// 2^20 against 1.8 for pow(x, b)).
template <class T, class P>
[[gnu::noinline]] P pow_ieee_call(P x, P y) {
    return pow_ieee<T>(x, y);
}
template <Floating T>
struct packet_op<op::pow, T> : vmath_op<T> {
    template <class P>
    static T7_INLINE P run(const P& x, const P& y) {
        return pow_ieee<T>(x, y);
    }
};

// SLEEF's log1p is +inf above 1e307 (float: 1e38); there log1p(x) rounds as
// log(x) does (their difference is below 1e-307 of the result).
template <Floating T>
struct packet_op<op::log1p, T> : vmath_op<T> {
    template <class P>
    static T7_INLINE P run(const P& x) {
        const P r = vmath::log1p(x);
        const P far = ei::pcmp_lt(ei::pset1<P>(std::is_same_v<T, float> ? T(1e38) : T(1e307)), x);
        if (EIGEN_PREDICT_FALSE(any_lane(far))) return ei::pselect(far, vmath::log_u10(x), r);
        return r;
    }
};
// 1 / (1 + exp(-x)) through exp(-|x|), which cannot overflow: far left it is
// exp(x) / (1 + exp(x)), down to the denormals.
template <Floating T>
struct packet_op<op::sigmoid, T> : vmath_op<T> {
    template <class P>
    static T7_INLINE P run(const P& x) {
        const P one = ei::pset1<P>(T(1));
        const P e = vmath::exp(ei::pnegate(ei::pabs(x)));
        const P d = ei::padd(one, e);
        return ei::pselect(ei::pcmp_lt(x, ei::pzero(x)), ei::pdiv(e, d), ei::pdiv(one, d));
    }
};

// SLEEF's sin, cos and tan reduce their argument in two or three ways, by
// magnitude, and a packet takes the way its largest lane needs: a small
// argument beside a huge one is reduced the long way and may come out an ulp
// apart from the same argument alone. Lanes are computed again, class by
// class, with the larger ones zeroed, so that each gets what it would get
// alone (bench: only packets mixing classes pay, once per class present).
// The bounds are SLEEF 3.5's for the u35 variants (TRIGRANGEMAX and friends).
template <class Op, class T>
struct trig_ranges;
template <>
struct trig_ranges<op::sin, double> {
    static constexpr double bound[] = {15, 1e14};
};
template <>
struct trig_ranges<op::cos, double> : trig_ranges<op::sin, double> {};
template <>
struct trig_ranges<op::tan, double> {
    static constexpr double bound[] = {15, 1e6, 1e14};
};
template <>
struct trig_ranges<op::sin, float> {
    static constexpr float bound[] = {125, 39000};
};
template <>
struct trig_ranges<op::cos, float> : trig_ranges<op::sin, float> {};
template <>
struct trig_ranges<op::tan, float> {
    static constexpr float bound[] = {62.5f, 39000};
};

template <class Op, class T, class F, class P>
[[gnu::noinline]] P by_class(F f, const P& x, const P& ax, const P& all, P r) {
    P below = ei::pzero(x); // lanes of the classes done
    for (const T b : trig_ranges<Op, T>::bound) {
        const P up = ei::pcmp_lt(ax, ei::pset1<P>(b)); // this class and the ones below
        const P cls = ei::pandnot(up, below);
        below = up;
        if (!any_lane(ei::pandnot(all, up))) break; // no larger lane: r is right
        if (any_lane(cls)) r = ei::pselect(cls, f(ei::pand(x, up)), r);
    }
    return r;
}
template <class Op, class T, class F, class P>
T7_INLINE P by_range(F f, const P& x) {
    const P r = f(x);
    const P ax = ei::pabs(x);
    const P all = ei::ptrue(x);
    if (EIGEN_PREDICT_TRUE(!any_lane(
            ei::pandnot(all, ei::pcmp_lt(ax, ei::pset1<P>(trig_ranges<Op, T>::bound[0]))))))
        return r; // every lane in the first class
    return by_class<Op, T>(f, x, ax, all, r);
}
#define T7_VMATH_TRIG(OP)                                                                          \
    template <Floating T>                                                                          \
    struct packet_op<op::OP, T> : vmath_op<T> {                                                    \
        template <class P>                                                                         \
        static T7_INLINE P run(const P& x) {                                                       \
            return by_range<op::OP, T>([](const P& y) { return vmath::OP(y); }, x);                \
        }                                                                                          \
    };
T7_VMATH_TRIG(sin)
T7_VMATH_TRIG(cos)
T7_VMATH_TRIG(tan)
#undef T7_VMATH_TRIG
#endif

// pow(x, constant): the forms of op::pow_scalar on packets, pow itself otherwise.
template <Floating T>
struct packet_op<op::pow_scalar, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    static constexpr bool takes_functor = true; // run(functor, x): the exponent
    using Form = op::pow_scalar::Form;
    template <class P>
    static T7_INLINE P unsigned_arg(const P& x) {
        const P y = ei::padd(x, ei::pzero(x));
        const P inf = ei::pset1<P>(std::numeric_limits<T>::infinity());
        return ei::pselect(ei::pcmp_eq(y, ei::pnegate(inf)), inf, y);
    }
    // as op::pow_scalar::inverse_power: 1 / x^n where x^n is normal, else (1/x)^n
    template <class P>
    static T7_INLINE P inverse_power(const P& p, const P& r_n) {
        const P a = ei::pabs(p);
        const P normal = ei::pand(ei::pcmp_le(ei::pset1<P>(std::numeric_limits<T>::min()), a),
                                  ei::pcmp_le(a, ei::pset1<P>(std::numeric_limits<T>::max())));
        return ei::pselect(normal, ei::pdiv(ei::pset1<P>(T(1)), p), r_n);
    }
    template <class P>
    static T7_INLINE P run(const op::pow_scalar& f, const P& x) {
        const P one = ei::pset1<P>(T(1));
        switch (f.form) {
        case Form::zero:
            return one;
        case Form::one:
            return x;
        case Form::two:
            return ei::pmul(x, x);
        case Form::three:
            return ei::pmul(ei::pmul(x, x), x);
        case Form::four:
            return ei::pmul(ei::pmul(x, x), ei::pmul(x, x));
        case Form::half:
            return exact_sqrt(unsigned_arg(x));
        case Form::neg_half:
            return ei::pdiv(one, exact_sqrt(unsigned_arg(x)));
        case Form::one_half: {
            const P y = unsigned_arg(x);
            return ei::pmul(y, exact_sqrt(y));
        }
        case Form::neg_one:
            return ei::pdiv(one, x);
        case Form::neg_one_half: {
            const P r = ei::pdiv(one, unsigned_arg(x));
            return ei::pmul(r, exact_sqrt(r));
        }
        case Form::neg_two: {
            const P r = ei::pdiv(one, x);
            return ei::pmul(r, r);
        }
        case Form::neg_three: {
            const P r = ei::pdiv(one, x);
            return inverse_power(ei::pmul(ei::pmul(x, x), x), ei::pmul(ei::pmul(r, r), r));
        }
        case Form::neg_four: {
            const P r = ei::pdiv(one, x), x2 = ei::pmul(x, x), r2 = ei::pmul(r, r);
            return inverse_power(ei::pmul(x2, x2), ei::pmul(r2, r2));
        }
        default:
#if T7_VMATH
            return pow_ieee_call<T>(x, ei::pset1<P>(T(f.e)));
#else
            return pow_fallback(f, x);
#endif
        }
    }
#if !T7_VMATH
    template <class P> // no vector pow: element by element (scalar_via_packet keeps it one path)
    static P pow_fallback(const op::pow_scalar& f, const P& x) {
        alignas(64) T v[packet_size<T>];
        ei::pstoreu(v, x);
        for (T& e : v) e = std::pow(e, T(f.e));
        return ei::ploadu<P>(v);
    }
#endif
};
// square: x * x for every type (integers wrap as mul does).
template <class T>
struct packet_op<op::square, T> {
    static constexpr bool ok = ei::functor_traits<ei::scalar_product_op<T, T>>::PacketAccess;
    template <class P>
    static T7_INLINE P run(const P& x) {
        return ei::pmul(x, x);
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
