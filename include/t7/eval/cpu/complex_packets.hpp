// Complex numbers in packets. Eigen's complex packets (Packet4cf, Packet2cd, ...)
// hold interleaved (re, im) lanes in one real packet `.v`; the functions here work
// on those lanes with Eigen's real packet math and SLEEF:
// * the product (Eigen's), the quotient (Smith's algorithm, NumPy's), exp sin cos
//   sinh cosh log and sqrt (the C library's formulas on SLEEF's functions of the
//   parts) of complex packets;
// * the real results of complex values (abs, real, imag, angle) from two complex
//   packets, de-interleaved into one real packet of each part (abs scaled by the
//   larger part, as NumPy's SIMD loops: within 2 ulp).
// Each computes every element the same way in a packet, a tail or a strided run
// (scalar_via_packet), so a value never depends on the layout. Lanes the packet
// formula would get wrong (exp's overflow, infinities and NaN: C99's Annex G
// cases) are computed again by the C library's function.
#pragma once

#include "../../expr/functors.hpp"
#include "packet_ops.hpp"
#include "sleef_ops.hpp"

#include <Eigen/Core>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace t7::cpu {

namespace ei = Eigen::internal;

namespace cplx {

template <class CP>
using real_packet_t = typename ei::unpacket_traits<CP>::as_real;
template <class CP>
using real_scalar_t = typename ei::unpacket_traits<CP>::type::value_type;
template <class CP>
inline constexpr int lanes = 2 * ei::unpacket_traits<CP>::size;

// All-ones in the even (real part) lanes (the argument gives the type).
template <class RP>
T7_INLINE RP even_lanes(const RP&) {
    using R = typename ei::unpacket_traits<RP>::type;
    constexpr int n = ei::unpacket_traits<RP>::size;
    using U = std::conditional_t<sizeof(R) == 4, uint32_t, uint64_t>;
    alignas(64) R m[n];
    for (int k = 0; k < n; ++k) {
        const U bits = k % 2 == 0 ? ~U(0) : U(0);
        std::memcpy(&m[k], &bits, sizeof(R));
    }
    return ei::pload<RP>(m);
}
// (re, im) -> (im, re) in every pair.
template <class CP>
T7_INLINE real_packet_t<CP> swap_pairs(const real_packet_t<CP>& v) {
    return ei::pcplxflip(CP(v)).v;
}

// The two parts of the complex values of lo and hi (lo's elements first).
template <class CP>
T7_INLINE void deinterleave(const CP& lo, const CP& hi, real_packet_t<CP>& re,
                            real_packet_t<CP>& im) {
    using RP = real_packet_t<CP>;
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (std::is_same_v<CP, ei::Packet8cf>) {
        const __m512i ev =
            _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        const __m512i od =
            _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
        re = _mm512_permutex2var_ps(lo.v, ev, hi.v);
        im = _mm512_permutex2var_ps(lo.v, od, hi.v);
        return;
    } else if constexpr (std::is_same_v<CP, ei::Packet4cd>) {
        const __m512i ev = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
        const __m512i od = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
        re = _mm512_permutex2var_pd(lo.v, ev, hi.v);
        im = _mm512_permutex2var_pd(lo.v, od, hi.v);
        return;
    }
#endif
    using R = real_scalar_t<CP>;
    constexpr int n = lanes<CP>;
    alignas(64) R buf[2 * n], r[n], m[n];
    ei::pstore(buf, lo.v);
    ei::pstore(buf + n, hi.v);
    for (int k = 0; k < n; ++k) {
        r[k] = buf[2 * k];
        m[k] = buf[2 * k + 1];
    }
    re = ei::pload<RP>(r);
    im = ei::pload<RP>(m);
}

// x as it is, but opaque to the optimiser: a product passed through it is rounded
// before the sum that uses it (g++ -O2 would otherwise fuse a * b + c into one
// FMA, whose single rounding changes results: z / z would not be 1 + 0i exactly).
template <class RP>
T7_INLINE RP rounded(RP x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    asm("" : "+v"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
    asm("" : "+w"(x));
#endif
    return x;
}

// Elements of p whose lanes `redo` marks are recomputed by f, the C library's.
template <class CP, class F>
[[gnu::noinline]] CP redo_lanes(const CP& p, const CP& in, const real_packet_t<CP>& redo, F f) {
    using C = typename ei::unpacket_traits<CP>::type;
    using R = typename C::value_type;
    constexpr int n = ei::unpacket_traits<CP>::size;
    alignas(64) C out[n], x[n];
    alignas(64) R mask[2 * n];
    ei::pstore(out, p);
    ei::pstore(x, in);
    ei::pstore(mask, redo);
    for (int k = 0; k < n; ++k) {
        R a = mask[2 * k], b = mask[2 * k + 1];
        uint64_t bits = 0, bits2 = 0;
        std::memcpy(&bits, &a, sizeof(R));
        std::memcpy(&bits2, &b, sizeof(R));
        if (bits | bits2) out[k] = f(x[k]);
    }
    return ei::pload<CP>(out);
}

// The largest |re| at which exp(re) (cos im, sin im) is a normal, finite number
// computed without overflow (beyond: the C library's cexp, which scales).
template <class R>
inline constexpr R exp_safe = sizeof(R) == 4 ? R(80) : R(700);

// Each value's real part in both of its lanes, and its imaginary part in both:
// a function of one part then runs on whole packets, and select(even, ., .)
// picks what each lane of the result needs.
template <class CP>
struct Parts {
    real_packet_t<CP> even, re, im;
    explicit T7_INLINE Parts(const CP& z) {
        even = even_lanes(z.v);
        const real_packet_t<CP> v = z.v, s = swap_pairs<CP>(z.v);
        re = ei::pselect(even, v, s);
        im = ei::pselect(even, s, v);
    }
};

// -a with the sign of zero flipped too (Eigen's pnegate is 0 - a on some targets).
template <class RP>
T7_INLINE RP flip_sign(const RP& a) {
    using R = typename ei::unpacket_traits<RP>::type;
    return ei::pxor(a, ei::pset1<RP>(R(-0.0)));
}

// Lanes where |a| < limit (NaN: no).
template <class RP, class R>
T7_INLINE RP below(const RP& a, R limit) {
    return ei::pcmp_lt(ei::pabs(a), ei::pset1<RP>(limit));
}
template <class RP>
T7_INLINE RP lanes_not(const RP& m) {
    return ei::pandnot(ei::ptrue(m), m);
}

} // namespace cplx

template <class T>
concept ComplexElement = is_complex_v<T>;

// a * b: Eigen's schoolbook product (re = ar br - ai bi, im = ar bi + ai br: NumPy's).
template <ComplexElement T>
requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::mul, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& a, const P& b) {
        return ei::pmul(a, b);
    }
};
template <ComplexElement T>
requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::square, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& a) {
        return ei::pmul(a, a);
    }
};
template <ComplexElement T>
requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::conj, T> {
    static constexpr bool ok = true;
    template <class P>
    static T7_INLINE P run(const P& a) {
        return ei::pconj(a);
    }
};

// a / b by Smith's algorithm, as op::div computes it (detail::complex_div): the
// larger part of b divides, so |b| up to the largest finite value does not overflow.
template <ComplexElement T>
requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::div, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& a, const P& b) {
        using RP = cplx::real_packet_t<P>;
        using R = cplx::real_scalar_t<P>;
        const RP even = cplx::even_lanes(b.v);
        const RP bv = b.v, bs = cplx::swap_pairs<P>(b.v);
        const RP br = ei::pselect(even, bv, bs), bi = ei::pselect(even, bs, bv); // dup'd parts
        const RP abr = ei::pabs(br), abi = ei::pabs(bi);
        const RP real_big = ei::pcmp_le(abi, abr); // |br| >= |bi| (NaN: the other way)
        const RP p = ei::pselect(real_big, br, bi), q = ei::pselect(real_big, bi, br);
        const RP rat = ei::pdiv(q, p);
        const RP scl = ei::pdiv(ei::pset1<RP>(R(1)), ei::padd(p, cplx::rounded(ei::pmul(q, rat))));
        const RP av = a.v, as = cplx::swap_pairs<P>(a.v);
        // (+, -) on (re, im) lanes: real_big: (ar + ai rat, ai - ar rat)
        //                           else:     (ar rat + ai, ai rat - ar)
        // each product rounded before its sum, as NumPy's (unfused) quotient
        const RP t = cplx::rounded(ei::pmul(as, rat)), u = cplx::rounded(ei::pmul(av, rat));
        const RP big = ei::pselect(even, ei::padd(av, t), ei::psub(av, t));
        const RP small = ei::pselect(even, ei::padd(u, as), ei::psub(u, as));
        RP r = ei::pmul(ei::pselect(real_big, big, small), scl);
        // b == 0: a / |br|, as the scalar quotient (inf or NaN)
        const RP zero = ei::pzero(br);
        const RP both_zero = ei::pand(ei::pcmp_eq(br, zero), ei::pcmp_eq(bi, zero));
        if (EIGEN_PREDICT_FALSE(any_lane(both_zero)))
            r = ei::pselect(both_zero, ei::pdiv(av, abr), r);
        return P(r);
    }
};
template <ComplexElement T>
requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::cinv, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& b) {
        return packet_op<op::div, T>::run(ei::pset1<P>(T(1)), b);
    }
};

// q * q + 1 rounded as the packet form rounds it: fused where the machine has FMA
// (Eigen's pmadd is then one instruction), else a product and a sum, which the
// compiler cannot fuse either.
template <class R>
T7_INLINE R square_plus_one(R q) {
#if defined(__FMA__)
    return std::fma(q, q, R(1));
#else
    return q * q + R(1);
#endif
}
template <class RP>
T7_INLINE RP square_plus_one_packet(const RP& q, const RP& one) {
#if defined(__FMA__)
    return ei::pmadd(q, q, one);
#else
    return ei::padd(ei::pmul(q, q), one);
#endif
}

// The magnitudes a and b of a value's parts, the larger h and the smaller l, and
// |z| = h sqrt(1 + (l / h)^2) as NumPy's SIMD abs computes it (within 2 ulp; no
// overflow or underflow for normal parts; NaN lanes are the callers' to redo).
template <class CP> // the complex packet: a real packet type as a template argument
struct Magnitudes { // would lose its vector attributes (g++'s -Wignored-attributes)
    using RP = cplx::real_packet_t<CP>;
    RP a, b, h, l, mod;
    explicit T7_INLINE Magnitudes(const cplx::Parts<CP>& x) {
        using R = cplx::real_scalar_t<CP>;
        a = ei::pabs(x.re), b = ei::pabs(x.im);
        h = ei::pmax(a, b), l = ei::pmin(a, b);
        mod = ei::pmul(h, exact_sqrt(square_plus_one_packet(ei::pdiv(l, h), ei::pset1<RP>(R(1)))));
    }
};

#if T7_VMATH
// exp, sin, cos, sinh and cosh as the C library computes them: each part a product
// of a circular and a hyperbolic (or exponential) function of one part (exp(x + iy)
// = exp x (cos y + i sin y), sin(x + iy) = sin x cosh y + i cos x sinh y, ...), each
// factor to 1 ulp (SLEEF's u10). A hyperbolic argument beyond exp_safe, infinities
// and NaN: the C library's function (it scales, and follows Annex G).
template <class Op, class T>
struct circular_hyperbolic_op {
    static constexpr bool hyperbolic_in_imag =
        std::is_same_v<Op, op::sin> || std::is_same_v<Op, op::cos>;
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& z) {
        using RP = cplx::real_packet_t<P>;
        using R = cplx::real_scalar_t<P>;
        const cplx::Parts<P> x(z);
        const RP& hyp = hyperbolic_in_imag ? x.im : x.re;
        const RP& circ = hyperbolic_in_imag ? x.re : x.im;
        const RP sc = vmath::sin_u10(circ), cc = vmath::cos_u10(circ);
        // (re, im) = (a0 b0, a1 b1)
        auto pair = [&](const RP& re, const RP& im) { return ei::pselect(x.even, re, im); };
        RP a, b;
        if constexpr (std::is_same_v<Op, op::exp>) {
            a = vmath::exp(hyp), b = pair(cc, sc); // exp x (cos y, sin y)
        } else {
            const RP sh = vmath::sinh_u10(hyp), ch = vmath::cosh_u10(hyp);
            if constexpr (std::is_same_v<Op, op::sin>) // (sin x cosh y, cos x sinh y)
                a = pair(sc, cc), b = pair(ch, sh);
            else if constexpr (std::is_same_v<Op, op::cos>) // (cos x cosh y, -sin x sinh y)
                a = pair(cc, cplx::flip_sign(sc)), b = pair(ch, sh);
            else if constexpr (std::is_same_v<Op, op::sinh>) // (sinh x cos y, cosh x sin y)
                a = pair(sh, ch), b = pair(cc, sc);
            else // cosh: (cosh x cos y, sinh x sin y)
                a = pair(ch, sh), b = pair(cc, sc);
        }
        const P r(ei::pmul(a, b));
        const RP redo = cplx::lanes_not(
            ei::pand(cplx::below(hyp, cplx::exp_safe<R>), cplx::below(circ, R(INFINITY))));
        if (EIGEN_PREDICT_FALSE(any_lane(redo)))
            return cplx::redo_lanes(r, z, redo, [](T v) { return Op{}(v); });
        return r;
    }
};

#define T7_COMPLEX_PACKET_OP(OP, IMPL)                                                             \
    template <ComplexElement T>                                                                    \
    requires(bool(ei::packet_traits<T>::Vectorizable)) struct packet_op<op::OP, T>                 \
        : IMPL<op::OP, T> {};
T7_COMPLEX_PACKET_OP(exp, circular_hyperbolic_op)
T7_COMPLEX_PACKET_OP(sin, circular_hyperbolic_op)
T7_COMPLEX_PACKET_OP(cos, circular_hyperbolic_op)
T7_COMPLEX_PACKET_OP(sinh, circular_hyperbolic_op)
T7_COMPLEX_PACKET_OP(cosh, circular_hyperbolic_op)

// sqrt(z) as the C library's csqrt computes it (glibc's, NumPy's on Linux): with
// d = |z| (as abs: within 2 ulp; SLEEF's 0.5-ulp hypot took 2.8x as long for 1 ulp
// less) and t = sqrt((d + |x|) / 2), sqrt(x + iy) is (t, y / 2t) for x > 0 and
// (|y / 2t|, t with y's sign) for x < 0: no cancellation, within 3 ulp per part. Zeros, infinities
// and NaN (Annex G), parts beyond MAX / 4 (d + |x| would overflow) and below 2^-p MIN (y / 2t would
// be subnormal): the C library's csqrt, which scales.
template <class Op, class T>
struct sqrt_op {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& z) {
        using RP = cplx::real_packet_t<P>;
        using R = cplx::real_scalar_t<P>;
        const cplx::Parts<P> x(z);
        const Magnitudes<P> m(x);
        const RP &a = m.a, &b = m.b, half = ei::pset1<RP>(R(0.5));
        const RP t = exact_sqrt(ei::pmul(half, ei::padd(m.mod, a)));
        const RP u = ei::pmul(half, ei::pdiv(x.im, t)); // y / 2t, with y's sign
        const RP t_signed = ei::por(t, ei::pand(x.im, ei::pset1<RP>(R(-0.0))));
        const RP positive = ei::pcmp_lt(ei::pzero(a), x.re);
        const P r(ei::pselect(x.even, ei::pselect(positive, t, ei::pabs(u)),
                              ei::pselect(positive, u, t_signed)));
        const R tiny = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
        const R huge = std::numeric_limits<R>::max() / R(4);
        const RP ordinary = ei::pand(
            ei::pand(ei::pcmp_le(ei::pset1<RP>(tiny), a), ei::pcmp_le(ei::pset1<RP>(tiny), b)),
            ei::pand(cplx::below(a, huge), cplx::below(b, huge)));
        const RP redo = cplx::lanes_not(ordinary);
        if (EIGEN_PREDICT_FALSE(any_lane(redo)))
            return cplx::redo_lanes(r, z, redo, [](T v) { return Op{}(v); });
        return r;
    }
};
T7_COMPLEX_PACKET_OP(sqrt, sqrt_op)

// complex<double> tan and tanh stay the C library's, element by element (as do
// log10, pow, asin, acos and atan): the same formula on SLEEF's parts ((sinh x cosh
// x + i sin y cos y) / (sinh^2 x + cos^2 y)) was up to 7 ulp from it (five roundings
// of 1-ulp factors), over the 4 ulp issue 42 allows. complex<float>'s tan, tanh and
// log10 run in double (complex_widened.hpp).

// h^2 + l^2 - 1 for 1/2 <= h <= 2, l <= h, to about an ulp of the result (the C
// library's __x2y2m1 computes it exactly): the squares as a rounded value and its
// exact error, the sums by Knuth's two-sum, the errors added last.
template <class RP>
T7_INLINE RP two_sum_error(const RP& a, const RP& b, const RP& s) {
    const RP bb = ei::psub(s, a);
    return ei::padd(ei::psub(a, ei::psub(s, bb)), ei::psub(b, bb));
}
// a * a - p exactly, for p = a * a rounded (|a| <= 2): one fused multiply-add, or
// without FMA Dekker's product of a's halves (Veltkamp's split).
template <class RP>
T7_INLINE RP square_error(const RP& a, const RP& p) {
#if defined(__FMA__)
    return ei::pmadd(a, a, cplx::flip_sign(p));
#else
    using R = typename ei::unpacket_traits<RP>::type;
    const RP c = ei::pmul(ei::pset1<RP>(sizeof(R) == 4 ? R(4097) : R(134217729)), a);
    const RP hi = ei::psub(c, ei::psub(c, a)), lo = ei::psub(a, hi);
    const RP e = ei::padd(ei::psub(ei::pmul(hi, hi), p), ei::pmul(ei::padd(hi, hi), lo));
    return ei::padd(e, ei::pmul(lo, lo));
#endif
}
template <class RP>
T7_INLINE RP x2y2m1(const RP& h, const RP& l) {
    using R = typename ei::unpacket_traits<RP>::type;
    const RP hh = ei::pmul(h, h), ll = ei::pmul(l, l), m1 = ei::pset1<RP>(R(-1));
    const RP s = ei::padd(hh, m1), t = ei::padd(s, ll);
    const RP err = ei::padd(ei::padd(two_sum_error(hh, m1, s), two_sum_error(s, ll, t)),
                            ei::padd(square_error(h, hh), square_error(l, ll)));
    return ei::padd(t, err);
}

// log(z) = log|z| + i atan2(y, x), within 4 ulp of the C library's clog (log10 is
// not vectorised: log10 of SLEEF's hypot, or log1p(t) log10(e) / 2, were 5-6 ulp
// from glibc's clog10 at |z| near 0.6, whose log10 is itself up to 2 ulp off). Where
// |z| is near 1 (1/2 <= |z|^2, h <= 2: as the C library), log|z| = log1p(t) / 2 with
// t = h^2 + l^2 - 1 (h >= l the magnitudes of the parts) from the squares' exact
// errors (x2y2m1): no cancellation in the log. Lanes where t itself cancels (|t| <
// l^2 / 2: |z| within a few ulps of the unit circle), zeros, subnormal parts, parts
// beyond MAX / 2 (|z| could overflow), infinities and NaN: the C library's clog,
// which computes x^2 + y^2 - 1 exactly and scales.
template <class Op, class T>
struct log_op {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    // narrow_parts: the parts are complex<float>'s, widened (complex_widened.hpp):
    // their squares are exact in double, so t never cancels.
    template <class P, bool narrow_parts = false>
    static T7_INLINE P run(const P& z) {
        using RP = cplx::real_packet_t<P>;
        using R = cplx::real_scalar_t<P>;
        const cplx::Parts<P> x(z);
        const Magnitudes<P> m(x);
        const RP &a = m.a, &b = m.b, &h = m.h, &l = m.l, half = ei::pset1<RP>(R(0.5));
        const RP far = vmath::log_u10(m.mod);
        const RP l2 = ei::pmul(l, l);
        const RP t = x2y2m1(h, l);
        const RP near = ei::pmul(half, vmath::log1p(t));
        const RP is_near =
            ei::pand(ei::pand(ei::pcmp_le(half, h), ei::pcmp_le(h, ei::pset1<RP>(R(2)))),
                     ei::pcmp_le(ei::pset1<RP>(R(-0.5)), t));
        const RP mod = ei::pselect(is_near, near, far);
        const P r(ei::pselect(x.even, mod, vmath::atan2_u10(x.im, x.re)));
        const RP cancels = narrow_parts
                               ? ei::pzero(t)
                               : ei::pand(is_near, ei::pcmp_lt(ei::pabs(t), ei::pmul(half, l2)));
        const RP numbers = ei::pand(ei::pcmp_eq(a, a), ei::pcmp_eq(b, b));
        const RP normal = ei::pand(ei::pcmp_le(ei::pset1<RP>(std::numeric_limits<R>::min()), h),
                                   cplx::below(h, std::numeric_limits<R>::max() / R(2)));
        const RP ordinary = ei::pand(numbers, normal);
        const RP redo = ei::por(cancels, cplx::lanes_not(ordinary));
        if (EIGEN_PREDICT_FALSE(any_lane(redo)))
            return cplx::redo_lanes(r, z, redo, [](T v) { return Op{}(v); });
        return r;
    }
};
T7_COMPLEX_PACKET_OP(log, log_op)
#undef T7_COMPLEX_PACKET_OP
#endif

// ---- real results of complex values: two complex packets make one real packet

// The operations that take a complex value to a real one, and their packet forms
// on the de-interleaved parts.
template <class Op, class R>
struct part_op {
    static constexpr bool ok = false;
};
template <class R>
struct part_op<op::real_part, R> {
    static constexpr bool ok = true;
    static T7_INLINE R scalar(R re, R) { return re; }
    template <class RP>
    static T7_INLINE RP run(const RP& re, const RP&) {
        return re;
    }
};
template <class R>
struct part_op<op::imag_part, R> {
    static constexpr bool ok = true;
    static T7_INLINE R scalar(R, R im) { return im; }
    template <class RP>
    static T7_INLINE RP run(const RP&, const RP& im) {
        return im;
    }
};
template <class R>
struct part_op<op::abs, R> { // C99's cabs, as NumPy's SIMD loops compute it
    static constexpr bool ok = true;
    // hi sqrt(1 + (lo / hi)^2) with hi, lo the larger and smaller magnitude: no
    // overflow or underflow, within 2 ulp; |inf| = inf even beside NaN (Annex G).
    // The scalar form does the same operations: every element gets the same bits
    // in a packet, a tail or a strided run.
    template <class RP>
    static T7_INLINE RP run(const RP& re, const RP& im) {
        const RP a = ei::pabs(re), b = ei::pabs(im);
        const RP hi = ei::pmax<Eigen::PropagateNumbers>(a, b);
        const RP lo = ei::pmin<Eigen::PropagateNumbers>(a, b);
        const RP q = ei::pdiv(lo, hi);
        RP r = ei::pmul(hi, exact_sqrt(square_plus_one_packet(q, ei::pset1<RP>(R(1)))));
        const RP inf = ei::pset1<RP>(R(INFINITY));
        const RP zero = ei::pzero(hi);
        const RP nan_lane =
            ei::pandnot(ei::ptrue(a), ei::pand(ei::pcmp_eq(a, a), ei::pcmp_eq(b, b)));
        const RP special = ei::por(ei::por(ei::pcmp_eq(hi, zero), ei::pcmp_eq(hi, inf)), nan_lane);
        if (EIGEN_PREDICT_FALSE(any_lane(special))) {
            r = ei::pselect(ei::pcmp_eq(hi, zero), zero, r);
            r = ei::pselect(nan_lane, ei::padd(a, b), r); // NaN
            r = ei::pselect(ei::por(ei::pcmp_eq(a, inf), ei::pcmp_eq(b, inf)), inf, r);
        }
        return r;
    }
    static T7_INLINE R scalar(R re, R im) {
        const R a = std::fabs(re), b = std::fabs(im);
        if (a == R(INFINITY) || b == R(INFINITY)) return R(INFINITY);
        if (a != a || b != b) return a + b;
        const R hi = std::fmax(a, b), lo = std::fmin(a, b);
        if (hi == R(0)) return R(0);
        return hi * std::sqrt(square_plus_one(lo / hi));
    }
};
#if T7_VMATH
template <class R>
struct part_op<op::angle, R> { // atan2(im, re), to 1 ulp
    static constexpr bool ok = true;
    template <class RP>
    static T7_INLINE RP run(const RP& re, const RP& im) {
        return vmath::atan2_u10(im, re);
    }
};
#endif

// Whether a packet of R lanes is two complex packets of complex<R>.
template <class R>
inline constexpr bool pairs_of_complex =
    bool(ei::packet_traits<std::complex<R>>::Vectorizable) &&
    2 * ei::unpacket_traits<typename ei::packet_traits<std::complex<R>>::type>::size
        == ei::unpacket_traits<typename ei::packet_traits<R>::type>::size;

template <class Op, class C>
inline constexpr bool complex_part_packet =
    is_complex_v<C>&& part_op<Op, real_t<C>>::ok&& pairs_of_complex<real_t<C>>;

// Op of the complex values in lo and hi, one real packet.
template <class Op, class CP>
T7_INLINE auto run_part(const CP& lo, const CP& hi) {
    using R = cplx::real_scalar_t<CP>;
    cplx::real_packet_t<CP> re, im;
    cplx::deinterleave(lo, hi, re, im);
    return part_op<Op, R>::run(re, im);
}

} // namespace t7::cpu
