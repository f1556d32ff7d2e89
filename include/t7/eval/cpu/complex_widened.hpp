// complex<float> functions computed in packets in double precision: each packet's
// parts widened to two complex<double> packets, the function's formula run there
// on SLEEF's double functions, the result rounded once to float. For tan, tanh and
// log10, whose formulas on SLEEF's parts in the element's own precision were 5-7
// ulp from the C library's (complex_packets.hpp), a few double ulps of formula
// error vanish in that rounding: each part within an ulp of the exact value, so
// within the 4 ulp of glibc's ctanf/ctanhf/clog10f that issue 42 allows.
// complex<double> keeps the C library's functions, element by element (no wider
// type runs in packets). Lanes whose parts the formula cannot take (infinities,
// NaN, hyperbolic arguments that would overflow) are the C library's (Annex G).
#pragma once

#include "complex_packets.hpp"

#include <complex>

namespace t7::cpu {

#if T7_VMATH
namespace cplx {

using WidePacket = ei::packet_traits<std::complex<double>>::type;

// Whether complex<float> packets widen into two complex<double> packets.
inline constexpr bool widens =
    bool(ei::packet_traits<std::complex<float>>::Vectorizable) &&
    bool(ei::packet_traits<std::complex<double>>::Vectorizable) &&
    2 * ei::unpacket_traits<WidePacket>::size ==
        ei::unpacket_traits<ei::packet_traits<std::complex<float>>::type>::size;

// f (complex<double> packet -> complex<double> packet) of z's values, rounded
// once to float.
template <class CP, class F>
T7_INLINE CP widened(const CP& z, F f) {
    using CD = std::complex<double>;
    constexpr int n = lanes<CP>; // floats in z
    alignas(64) float part[n];
    alignas(64) double wide[n];
    ei::pstore(part, z.v);
    for (int k = 0; k < n; ++k) wide[k] = double(part[k]);
    auto* values = reinterpret_cast<CD*>(wide); // std::complex's array access
    ei::pstore(values, f(ei::pload<WidePacket>(values)));
    ei::pstore(values + n / 4, f(ei::pload<WidePacket>(values + n / 4)));
    for (int k = 0; k < n; ++k) part[k] = float(wide[k]);
    return CP(ei::pload<real_packet_t<CP>>(part));
}

// tanh(x + iy) by Kahan's formula, as the C library: with t = tan y, s = sinh x,
// beta = 1 + t^2 and rho = sqrt(1 + s^2), (beta rho s + i t) / (1 + beta s^2):
// products and sums of positive terms, no cancellation.
T7_INLINE WidePacket tanh_wide(const WidePacket& w) {
    using RP = real_packet_t<WidePacket>;
    const Parts<WidePacket> x(w);
    const RP one = ei::pset1<RP>(1.0);
    // tan through the real packet form (packet_ops.hpp): each lane reduced as it
    // would be alone, so a value never depends on its neighbours
    const RP t = packet_op<op::tan, double>::run(x.im), s = vmath::sinh(x.re);
    const RP beta = ei::pmadd(t, t, one), s2 = ei::pmul(s, s);
    const RP rho = ei::psqrt(ei::padd(one, s2));
    const RP num = ei::pselect(x.even, ei::pmul(ei::pmul(beta, rho), s), t);
    return WidePacket(ei::pdiv(num, ei::pmadd(beta, s2, one)));
}

// (re, im) -> (-im, re) and (im, -re): products by i and by -i.
T7_INLINE WidePacket times_i(const WidePacket& w) {
    const Parts<WidePacket> x(w);
    return WidePacket(ei::pselect(x.even, flip_sign(x.im), x.re));
}
T7_INLINE WidePacket times_minus_i(const WidePacket& w) {
    const Parts<WidePacket> x(w);
    return WidePacket(ei::pselect(x.even, x.im, flip_sign(x.re)));
}

// The lanes of z (complex<float>) whose parts are all finite and whose real part
// (imaginary part if `imag`) is below `limit` in magnitude.
template <class CP>
T7_INLINE real_packet_t<CP> finite_and_below(const CP& z, bool imag, float limit) {
    const Parts<CP> x(z);
    const auto finite = ei::pand(below(x.re, INFINITY), below(x.im, INFINITY));
    return ei::pand(finite, below(imag ? x.im : x.re, limit));
}

} // namespace cplx

template <class T>
concept WidenedComplex = std::is_same_v<T, std::complex<float>> && cplx::widens;

// sinh x overflows double's range near |x| = 710 and s^2 near 355: beyond 300 the
// C library's function (tanh is +-1 in float from |x| = 9 on).
template <class Op, class T>
struct widened_tanh_op {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    static constexpr bool is_tan = std::is_same_v<Op, op::tan>; // tan z = -i tanh(iz)
    template <class P>
    static T7_INLINE P run(const P& z) {
        const P r = cplx::widened(z, [](const cplx::WidePacket& w) {
            if constexpr (is_tan)
                return cplx::times_minus_i(cplx::tanh_wide(cplx::times_i(w)));
            else
                return cplx::tanh_wide(w);
        });
        const auto redo = cplx::lanes_not(cplx::finite_and_below(z, is_tan, 300.0f));
        if (EIGEN_PREDICT_FALSE(any_lane(redo)))
            return cplx::redo_lanes(r, z, redo, [](T v) { return Op{}(v); });
        return r;
    }
};
template <WidenedComplex T>
struct packet_op<op::tanh, T> : widened_tanh_op<op::tanh, T> {};
template <WidenedComplex T>
struct packet_op<op::tan, T> : widened_tanh_op<op::tan, T> {};

// log10 z = log z / ln 10: complex<double>'s packet log (within 4 double ulps; the
// C library's lanes for zeros, infinities and NaN; near the unit circle, h^2 + l^2 - 1
// of float parts is exact in double) times log10(e) in double.
template <WidenedComplex T>
struct packet_op<op::log10, T> {
    static constexpr bool ok = true;
    static constexpr bool scalar_via_packet = true;
    template <class P>
    static T7_INLINE P run(const P& z) {
        using RP = cplx::real_packet_t<cplx::WidePacket>;
        return cplx::widened(z, [](const cplx::WidePacket& w) {
            const cplx::WidePacket l =
                log_op<op::log, std::complex<double>>::run<cplx::WidePacket, true>(w);
            return cplx::WidePacket(ei::pmul(l.v, ei::pset1<RP>(0.43429448190325182765)));
        });
    }
};

#endif

} // namespace t7::cpu
