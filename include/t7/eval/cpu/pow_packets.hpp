// tensor7's own vectorised pow and tanh where they beat SLEEF's (issue 43):
// float tanh on every instruction set, float and double pow on AVX-512 (double:
// with AVX512DQ), float pow on AVX2 (without tables: below, "float pow, AVX2").
// Every other type and instruction set keeps SLEEF's function
// (sleef_ops.hpp). Plain functions of the packet types: nothing here is
// instantiated per expression. Coefficients: Chebyshev fits (mpmath.chebyfit) or
// Taylor's; tables: 2^(j/16), 1/c and log c rounded from 50-digit values
// (docs/perf-history.md, "Issue 43"). Measured: tests/test_pow.cpp, 2^20 random
// points per range against long double.
//
// float tanh (SLEEF's 3.5-ulp family; measured 2.3 ulp):
//   tanh|x| = E / (E + 2), E = expm1(2|x|) = 2^n expm1(r) + (2^n - 1),
//   n = round(2|x| / ln 2), r = 2|x| - n ln 2 (|r| <= ln2 / 2), expm1(r) =
//   r + r^2 p(r) (degree 5, 2^-30.8 relative); 2|x| is clamped to 19, where tanh
//   rounds to 1 in float, and x's sign is copied back (tanh(-0) = -0; NaN stays
//   NaN through the clamp and the arithmetic).
// float pow (SLEEF's 1-ulp family; measured 0.56 ulp), computed in double and
//   rounded once: x = 2^e m, m in [0.75, 1.5) (getexp/getmant of the float),
//   c = round(16 m) / 16 (13 entries in two registers, c = 1 exact),
//   log2 x = e + log2 c + log2(1 + r), r = m (1/c) - 1 (one FMA, |r| <= 1/24),
//   log2(1 + r) = r q(r) (degree 5, 2^-34.6 relative: y log2 x is within 2^-30
//   of its value wherever pow is a finite nonzero float); t = y log2 x clamped
//   to [-200, 200], 2^t = 2^floor(k) 2^(j/16) 2^f, k = round(16 t) / 16,
//   |f| <= 1/32, 2^f = 1 + f s(f) (degree 2, 2^-28.7). The double is within
//   2^-28 of pow(x, y), and its conversion to float rounds into inf, the
//   denormals and 0 as pow does. Lanes with x <= 0, x = inf or NaN, or y = inf
//   or NaN are computed again by std::pow (its special values, exactly).
// double pow (SLEEF's 1-ulp family; measured 0.56 ulp, 0.75 for denormal
//   results), exp(y log x) with log x in double-double: x = 2^e z, z in [0.75, 1.5),
//   two reductions by 16-entry tables (c1 = k/16, c2 = 1 + j/128) leave
//   log1p(r), |r| <= 2^-7.9, as r - r^2/2 + r^3 P(r) with every rounding error
//   carried (log x within ~2^-66 relative); t = y log x as th + tl; exp(t) =
//   2^floor(k/16) 2^((k mod 16)/16) (hi + lo table) exp(rr), |rr| <= ln2/32,
//   expm1(rr) to degree 8. Lanes with x below DBL_MIN (0, negative, denormal),
//   x = inf or NaN, y = inf or NaN, or an infinite result are std::pow's.
#pragma once

#include "sleef_ops.hpp"

#include <Eigen/Core>
#include <cmath>

namespace t7::cpu::vmath {

#if T7_VMATH

namespace pe = Eigen::internal;

// ---- float tanh, any instruction set -------------------------------------------
template <class P>
T7_INLINE P tanh_float(const P& x) {
    using PI = typename pe::unpacket_traits<P>::integer_packet;
    const P ax = pe::pabs(x);
    const P z = pe::pmin(pe::padd(ax, ax), pe::pset1<P>(19.0f)); // NaN stays NaN
    // n = round(z / ln 2) in the low bits of nm (1.5 2^23 + n)
    const P magic = pe::pset1<P>(0x1.8p23f);
    const P nm = pe::pmadd(z, pe::pset1<P>(0x1.715476p+0f), magic);
    const P n = pe::psub(nm, magic);
    // ln 2 to float precision: the error it leaves in E is n 2^-28 relative, and
    // tanh's is 2 / (E + 2) times that (below 2^-28 for every n)
    const P r = pe::pmadd(n, pe::pset1<P>(-0x1.62e430p-1f), z);
    P p = pe::pset1<P>(0x1.a124e4p-13f);
    p = pe::pmadd(p, r, pe::pset1<P>(0x1.6d4316p-10f));
    p = pe::pmadd(p, r, pe::pset1<P>(0x1.1110e2p-7f));
    p = pe::pmadd(p, r, pe::pset1<P>(0x1.5554eap-5f));
    p = pe::pmadd(p, r, pe::pset1<P>(0x1.55555ap-3f));
    p = pe::pmadd(p, r, pe::pset1<P>(0x1p-1f));
    const P em1 = pe::pmadd(pe::pmul(r, r), p, r);
    // 2^n: (1.5 2^23 + n) << 23 is n << 23 modulo 2^32; plus the bias
    const PI bits = pe::plogical_shift_left<23>(pe::preinterpret<PI>(nm));
    const P two_n = pe::preinterpret<P>(pe::padd(bits, pe::pset1<PI>(127 << 23)));
    const P e = pe::pmadd(two_n, em1, pe::psub(two_n, pe::pset1<P>(1.0f)));
    const P t = pe::pdiv(e, pe::padd(e, pe::pset1<P>(2.0f)));
    return pe::por(t, pe::pand(x, pe::pset1<P>(-0.0f)));
}

// ---- float pow, AVX-512 ---------------------------------------------------------
#if defined(EIGEN_VECTORIZE_AVX512)
// c = i / 16 for i = 12..24 (m in [0.75, 1.5)), in slot i & 15: 1/c rounded, and
// -log2 of it (log2 c to the last bit for the 1/c used); c = 1 exactly, so that
// log2 x = r q(r) on both sides of x = 1
// clang-format off
alignas(64) inline constexpr double powf_invc[16] = {
    0x1.0000000000000p+0, 0x1.e1e1e1e1e1e1ep-1, 0x1.c71c71c71c71cp-1, 0x1.af286bca1af28p-1,
    0x1.999999999999ap-1, 0x1.8618618618618p-1, 0x1.745d1745d1746p-1, 0x1.642c8590b2164p-1,
    0x1.5555555555555p-1, 0,                    0,                    0,
    0x1.5555555555555p+0, 0x1.3b13b13b13b14p+0, 0x1.2492492492492p+0, 0x1.1111111111111p+0};
alignas(64) inline constexpr double powf_log2c[16] = {
    0,                     0x1.663f6fac91318p-4,  0x1.5c01a39fbd68bp-3,  0x1.fbc16b902680dp-3,
    0x1.49a784bcd1b8ap-2,  0x1.91bba891f170ap-2,  0x1.d6753e032ea0ep-2,  0x1.0c10500d63aa7p-1,
    0x1.2b803473f7ad2p-1,  0,                     0,                     0,
    -0x1.a8ff971810a5dp-2, -0x1.32bfee370ee6ap-2, -0x1.8a8980abfbd30p-3, -0x1.7d60496cfbb4bp-4};
// 2^(j/16), j = 0..15
alignas(64) inline constexpr double powf_exp2j[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
// clang-format on

T7_INLINE __m512d table16(const double* tab, const __m512i& slot) {
    return _mm512_permutex2var_pd(_mm512_load_pd(tab), slot, _mm512_load_pd(tab + 8));
}

// pow(x, y) from x = 2^e m (m in [0.75, 1.5)), y, widened: the double to round.
T7_INLINE __m512d powf_in_double(const __m512d& m, const __m512d& e, const __m512d& y) {
    // v + 1.5 2^48 rounds v to a multiple of 1/16, whose sixteenths are the low
    // bits of its significand: i = round(16 m), the log tables' slot i & 15
    const __m512d round16 = _mm512_set1_pd(0x1.8p48);
    const __m512i i = _mm512_castpd_si512(_mm512_add_pd(m, round16));
    const __m512d r = _mm512_fmsub_pd(m, table16(powf_invc, i), _mm512_set1_pd(1.0)); // |r| <= 1/24
    __m512d q = _mm512_set1_pd(-0x1.ed6b30741030cp-3);
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(0x1.2805f2b10b8bep-2));
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(-0x1.71546118d75bfp-2));
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(0x1.ec708581d4ce8p-2));
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(-0x1.71547652fc5aep-1));
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(0x1.71547652df235p+0));
    __m512d t = _mm512_mul_pd(y, _mm512_fmadd_pd(r, q, _mm512_add_pd(e, table16(powf_log2c, i))));
#if defined(EIGEN_VECTORIZE_AVX512DQ) // t = clamp(t, -200, 200): the one of t, 200 of least
    t = _mm512_range_pd(t, _mm512_set1_pd(200.0), 0x2); // magnitude, with t's sign
#else
    t = _mm512_min_pd(_mm512_max_pd(t, _mm512_set1_pd(-200.0)), _mm512_set1_pd(200.0));
#endif
    // 2^t = 2^floor(k) 2^(j/16) 2^f, k = round(16 t) / 16, j = 16 (k - floor(k)), |f| <= 1/32:
    // t + 1.5 2^48 rounds t to a multiple of 1/16, whose sixteenths are the low bits
    // of its significand (j, the slot)
    const __m512d km = _mm512_add_pd(t, round16);
    const __m512d k = _mm512_sub_pd(km, round16);
    const __m512d f = _mm512_sub_pd(t, k);
    __m512d s = _mm512_fmadd_pd(_mm512_set1_pd(0x1.c6b299bd67a41p-5), f,
                                _mm512_set1_pd(0x1.ebff917b28217p-3));
    s = _mm512_fmadd_pd(s, f, _mm512_set1_pd(0x1.62e42fefa39efp-1));
    const __m512d tj = table16(powf_exp2j, _mm512_castpd_si512(km));
    return _mm512_scalef_pd(_mm512_fmadd_pd(tj, _mm512_mul_pd(f, s), tj), k); // scalef: floor(k)
}

// The lanes of mask `special` again, through std::pow.
[[gnu::noinline]] inline __m512 powf_special(__m512 r, __m512 x, __m512 y, __mmask16 special) {
    alignas(64) float xs[16], ys[16], rs[16];
    _mm512_store_ps(xs, x);
    _mm512_store_ps(ys, y);
    _mm512_store_ps(rs, r);
    for (int i = 0; i < 16; ++i)
        if (special >> i & 1) rs[i] = std::pow(xs[i], ys[i]);
    return _mm512_load_ps(rs);
}

T7_INLINE __m512 pow(const __m512& x, const __m512& y) {
    const __m512 inf = _mm512_set1_ps(__builtin_inff());
    __mmask16 fast = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
    fast = _mm512_mask_cmp_ps_mask(fast, x, inf, _CMP_LT_OQ);
    fast = _mm512_mask_cmp_ps_mask(fast, _mm512_abs_ps(y), inf, _CMP_LT_OQ);
    // x = 2^e m on the float lanes (denormals included), then each half in double
    const __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_zero);
    const __m512 e = _mm512_sub_ps(_mm512_getexp_ps(x), _mm512_getexp_ps(m));
    const auto half = [](const __m512& v) { // the upper 8 lanes
        return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 1));
    };
    const __m256 lo = _mm512_cvtpd_ps(powf_in_double(_mm512_cvtps_pd(_mm512_castps512_ps256(m)),
                                                     _mm512_cvtps_pd(_mm512_castps512_ps256(e)),
                                                     _mm512_cvtps_pd(_mm512_castps512_ps256(y))));
    const __m256 hi = _mm512_cvtpd_ps(powf_in_double(
        _mm512_cvtps_pd(half(m)), _mm512_cvtps_pd(half(e)), _mm512_cvtps_pd(half(y))));
    const __m512 r = _mm512_castpd_ps(
        _mm512_insertf64x4(_mm512_zextpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
    if (EIGEN_PREDICT_FALSE(fast != __mmask16(0xFFFF)))
        return powf_special(r, x, y, __mmask16(~fast));
    return r;
}
#endif

// ---- float pow, AVX2 (without AVX-512) -------------------------------------------
// In double and rounded once, as on AVX-512, but without tables (AVX2's gathers
// cost more than the arithmetic they save): x = 2^e m, m in [0.75, 1.5) (a denormal
// x scaled by 2^24 first), log2 m = 2/ln2 atanh(s), s = (m - 1) / (m + 1) (|s| <=
// 1/5), atanh's series to s^13 (relative 2^-36); t = y (e + log2 m) clamped to
// [-200, 200], 2^t = 2^n 2^f, n = round(t), |f| <= 1/2, 2^f by Taylor to degree 9
// (2^-37). The lanes of special values (x <= 0, x = inf or NaN, y = inf or NaN, an
// infinite result) are std::pow's, patched by the caller (packet_ops.hpp).
#if !defined(EIGEN_VECTORIZE_AVX512) && defined(EIGEN_VECTORIZE_AVX) && defined(__AVX2__) &&       \
    defined(__FMA__)
#define T7_OWN_FLOAT_POW_AVX2 1
// pow(x, y) from x = 2^e m (m in [0.75, 1.5)), y, widened: the double to round.
T7_INLINE __m256d powf_in_double(const __m256d& m, const __m256d& e, const __m256d& y) {
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d s = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one)); // m - 1 exact
    const __m256d s2 = _mm256_mul_pd(s, s);
    // log2 m = s p(s^2), p = 2/ln2 (1 + s^2/3 + s^4/5 + ... + s^12/13), by Estrin's
    // scheme (a shorter chain of dependent operations than Horner's)
    const __m256d s4 = _mm256_mul_pd(s2, s2);
    const __m256d p01 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.ec709dc3a03fdp-1), s2,
                                        _mm256_set1_pd(0x1.71547652b82fep+1));
    const __m256d p23 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.a61762a7aded9p-2), s2,
                                        _mm256_set1_pd(0x1.2776c50ef9bffp-1));
    const __m256d p45 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.0c9a84994022dp-2), s2,
                                        _mm256_set1_pd(0x1.484b13d7c02a9p-2));
    const __m256d p46 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.c68f568d31761p-3), s4, p45);
    const __m256d p = _mm256_fmadd_pd(_mm256_fmadd_pd(p46, s4, p23), s4, p01);
    __m256d t = _mm256_mul_pd(y, _mm256_fmadd_pd(s, p, e));
    t = _mm256_min_pd(_mm256_max_pd(t, _mm256_set1_pd(-200.0)), _mm256_set1_pd(200.0));
    // n = round(t): t + 1.5 2^52 has n in its significand's low bits
    const __m256d shift = _mm256_set1_pd(0x1.8p52);
    const __m256d nm = _mm256_add_pd(t, shift);
    const __m256d f = _mm256_sub_pd(t, _mm256_sub_pd(nm, shift));
    // 2^f = sum over k = 0..9 of (ln2)^k / k! f^k, by Estrin's scheme
    const __m256d f2 = _mm256_mul_pd(f, f), f4 = _mm256_mul_pd(f2, f2);
    const __m256d c01 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.62e42fefa39efp-1), f, one);
    const __m256d c23 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.c6b08d704a0bfp-5), f,
                                        _mm256_set1_pd(0x1.ebfbdff82c58ep-3));
    const __m256d c45 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.5d87fe78a6730p-10), f,
                                        _mm256_set1_pd(0x1.3b2ab6fba4e77p-7));
    const __m256d c67 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.ffcbfc588b0c5p-17), f,
                                        _mm256_set1_pd(0x1.430912f86c786p-13));
    const __m256d c89 = _mm256_fmadd_pd(_mm256_set1_pd(0x1.b5253d395e7c1p-24), f,
                                        _mm256_set1_pd(0x1.62c0223a5c822p-20));
    const __m256d c03 = _mm256_fmadd_pd(c23, f2, c01);
    const __m256d c47 = _mm256_fmadd_pd(c67, f2, c45);
    const __m256d two_f = _mm256_fmadd_pd(_mm256_fmadd_pd(c89, f4, c47), f4, c03);
    // 2^n: n + 1023 in the exponent field (n in [-200, 200])
    const __m256i n = _mm256_sub_epi64(_mm256_castpd_si256(nm), _mm256_castpd_si256(shift));
    const __m256i bits = _mm256_slli_epi64(_mm256_add_epi64(n, _mm256_set1_epi64x(1023)), 52);
    return _mm256_mul_pd(two_f, _mm256_castsi256_pd(bits));
}

T7_INLINE __m256 pow(const __m256& x, const __m256& y) {
    // x = 2^e m, m in [0.75, 1.5), for positive finite x (a denormal scaled by 2^24)
    const __m256 tiny = _mm256_cmp_ps(x, _mm256_set1_ps(0x1p-126f), _CMP_LT_OQ);
    const __m256 xs = _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_set1_ps(0x1p24f)), tiny);
    const __m256i xb = _mm256_castps_si256(xs);
    const __m256i ei = _mm256_srai_epi32(_mm256_sub_epi32(xb, _mm256_set1_epi32(0x3F400000)), 23);
    const __m256 m = _mm256_castsi256_ps(_mm256_sub_epi32(xb, _mm256_slli_epi32(ei, 23)));
    const __m256 e =
        _mm256_sub_ps(_mm256_cvtepi32_ps(ei), _mm256_and_ps(tiny, _mm256_set1_ps(24.0f)));
    const auto half = [&](const __m256& v, auto upper) {
        return _mm256_cvtps_pd(upper ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v));
    };
    const __m128 lo = _mm256_cvtpd_ps(powf_in_double(
        half(m, std::false_type{}), half(e, std::false_type{}), half(y, std::false_type{})));
    const __m128 hi = _mm256_cvtpd_ps(powf_in_double(
        half(m, std::true_type{}), half(e, std::true_type{}), half(y, std::true_type{})));
    return _mm256_set_m128(hi, lo);
}
#else
#define T7_OWN_FLOAT_POW_AVX2 0
#endif

// ---- double pow, AVX-512 (with AVX512DQ) ----------------------------------------
#if defined(EIGEN_VECTORIZE_AVX512) && defined(EIGEN_VECTORIZE_AVX512DQ)
#define T7_OWN_DOUBLE_POW 1
// log: c = i / 128 for i = 96..192 (z in [0.75, 1.5)), index i - 96: 1/c rounded,
// and -log of it split in hi (a multiple of 2^-43, so that e ln2_hi + hi is exact)
// and lo; exp: 2^(j/128), j = 0..127, as hi + lo
// clang-format off
alignas(64) inline constexpr double powd_lc1_hi[16] = {
    0.0, 0x1.f0a30c0118000p-5, 0x1.e27076e2b0000p-4, 0x1.5ff3070a79000p-3,
    0x1.c8ff7c79aa000p-3, 0x1.1675cababa800p-2, 0x1.4618bc21c6000p-2, 0x1.739d7f6bbd000p-2,
    0x1.9f323ecbf9800p-2, 0.0, 0.0, 0.0,
    -0x1.269621134d800p-2, -0x1.a93ed3c8ae000p-3, -0x1.1178e8227e000p-3, -0x1.08598b59e4000p-4,
};
alignas(64) inline constexpr double powd_lc1_lo[16] = {
    0.0, -0x1.d579e83368e91p-45, -0x1.a2c2c2af0003cp-45, 0x1.eae439f105039p-46,
    -0x1.7814f689f8434p-45, -0x1.f0fc63382a8f0p-46, -0x1.3e02f484c84ccp-46, 0x1.c7389314feb50p-52,
    0x1.33cada35d9bd0p-48, 0.0, 0.0, 0.0,
    -0x1.c8bc1df5bb3b6p-45, 0x1.86a4350562169p-45, -0x1.1e778ce2d07f2p-45, 0x1.7e9dd7009902cp-46,
};
alignas(64) inline constexpr double powd_invc2[16] = {
    0x1.0000000000000p+0, 0x1.fc07f01fc07f0p-1, 0x1.f81f81f81f820p-1, 0x1.f44659e4a4271p-1,
    0x1.f07c1f07c1f08p-1, 0x1.ecc07b301ecc0p-1, 0x1.e9131abf0b767p-1, 0.0,
    0.0, 0.0, 0x1.0c9714fbcda3bp+0, 0x1.0a6810a6810a7p+0,
    0x1.0842108421084p+0, 0x1.0624dd2f1a9fcp+0, 0x1.0410410410410p+0, 0x1.0204081020408p+0,
};
alignas(64) inline constexpr double powd_lc2_hi[16] = {
    0.0, 0x1.fe02a6b100000p-8, 0x1.fc0a8b0fc0000p-7, 0x1.7b91b07d58000p-6,
    0x1.f829b0e780000p-6, 0x1.39e87b9fec000p-5, 0x1.77458f632c000p-5, 0.0,
    0.0, 0.0, -0x1.894aa149fc000p-5, -0x1.466aed42e0000p-5,
    -0x1.0415d89e74000p-5, -0x1.8492528c90000p-6, -0x1.0205658938000p-6, -0x1.0101575890000p-7,
};
alignas(64) inline constexpr double powd_lc2_lo[16] = {
    0.0, 0x1.9e63f0dda40e4p-46, 0x1.e1e7cf6d3a69cp-50, 0x1.892f493faa639p-45,
    0x1.97c267c7e09e4p-45, -0x1.4c2b7f526feaap-48, 0x1.cff0634f2a1eep-45, 0.0,
    0.0, 0.0, 0x1.96a95d05a267dp-46, 0x1.c073375bdfd28p-45,
    -0x1.101c05cf1d753p-47, 0x1.a9dba325a0c34p-45, 0x1.3e45b06e2f7d2p-45, 0x1.0cb6b999d2be8p-46,
};
alignas(64) inline constexpr double powd_exp16_hi[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0,
};
alignas(64) inline constexpr double powd_exp16_lo[16] = {
    0x0.0p+0, 0x1.8a62e4adc610bp-54, -0x1.19041b9d78a76p-55, 0x1.9b07eb6c70573p-54,
    0x1.6f46ad23182e4p-55, 0x1.ada0911f09ebcp-55, 0x1.d4397afec42e2p-56, 0x1.6324c054647adp-54,
    -0x1.bdd3413b26456p-54, -0x1.41577ee04992fp-55, 0x1.6e9f156864b27p-54, 0x1.c7c46b071f2bep-56,
    0x1.7a1cd345dcc81p-54, 0x1.11065895048ddp-55, 0x1.2ed02d75b3707p-55, -0x1.e9c23179c2893p-54,
};
// clang-format on

// pow(x, y) for normal positive x and finite y: exp(y log x), log x as s + lo
// (double-double, ~2^-66 relative), then exp of y s + y lo with k = round(128 t / ln 2).
T7_INLINE __m512d powd_core(const __m512d& x, const __m512d& y) {
    const __m512i xb = _mm512_castpd_si512(x);
    // x = 2^e z, z in [0.75, 1.5): e = (bits - bits(0.75)) >> 52 (normal x)
    const __m512i ei =
        _mm512_srai_epi64(_mm512_sub_epi64(xb, _mm512_set1_epi64(0x3FE8000000000000)), 52);
    const __m512d z = _mm512_castsi512_pd(_mm512_sub_epi64(xb, _mm512_slli_epi64(ei, 52)));
    const __m512d e = _mm512_cvtepi64_pd(ei);
    // two steps, each by a table of 16 in two registers: z (1/c1) = p1 + d1 exactly,
    // c1 = round(16 z) / 16 (the float tables' 1/c1); then p1 (1/c2) = p2 + d2,
    // c2 = 1 + round(128 (p1 - 1)) / 128 (|p1 - 1| <= 1/24: 13 entries), and
    // z / (c1 c2) - 1 = rh + d, |rh| <= 2^-7.9
    const __m512d round16 = _mm512_set1_pd(0x1.8p48);  // v + it: v to a multiple of 1/16
    const __m512d round128 = _mm512_set1_pd(0x1.8p45); // of 1/128
    const __m512i i1 = _mm512_castpd_si512(_mm512_add_pd(z, round16));
    const __m512d invc1 = table16(powf_invc, i1);
    const __m512d p1 = _mm512_mul_pd(z, invc1);
    const __m512d d1 = _mm512_fmsub_pd(z, invc1, p1);
    const __m512i i2 = _mm512_castpd_si512(_mm512_add_pd(p1, round128));
    const __m512d invc2 = table16(powd_invc2, i2);
    const __m512d p2 = _mm512_mul_pd(p1, invc2);
    const __m512d d = _mm512_fmadd_pd(d1, invc2, _mm512_fmsub_pd(p1, invc2, p2));
    const __m512d rh = _mm512_sub_pd(p2, _mm512_set1_pd(1.0));
    // e ln2_hi + log(c1)_hi + log(c2)_hi is exact (multiples of 2^-43 below 2^10);
    // + rh with its rounding error (|a| >= |rh| or a = 0)
    const __m512d a = _mm512_add_pd(
        _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.62e42fefa3800p-1), table16(powd_lc1_hi, i1)),
        table16(powd_lc2_hi, i2));
    const __m512d s = _mm512_add_pd(a, rh);
    const __m512d serr = _mm512_add_pd(_mm512_sub_pd(a, s), rh);
    const __m512d llo = _mm512_add_pd(table16(powd_lc1_lo, i1), table16(powd_lc2_lo, i2));
    // log1p(rh + d) = rh - rh^2 / 2 + rh^3 P(rh) + d (1 - rh + rh^2)
    const __m512d h = _mm512_mul_pd(rh, rh);
    const __m512d hlo = _mm512_fmsub_pd(rh, rh, h);
    __m512d q = _mm512_set1_pd(1.0 / 9);
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(-1.0 / 8));
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(1.0 / 7));
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(-1.0 / 6));
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(1.0 / 5));
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(-1.0 / 4));
    q = _mm512_fmadd_pd(q, rh, _mm512_set1_pd(1.0 / 3));
    // s - rh^2 / 2, with its rounding error (|s| > rh^2 / 2)
    const __m512d mhalf = _mm512_set1_pd(-0.5);
    const __m512d hh = _mm512_mul_pd(h, mhalf);
    const __m512d s2 = _mm512_add_pd(s, hh);
    const __m512d s2err = _mm512_add_pd(_mm512_sub_pd(s, s2), hh);
    // the low parts, below 2^-24 |log x|: their rounding errors are below 2^-77 |log x|
    __m512d lo = _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.ef35793c76730p-45), llo);
    lo = _mm512_add_pd(lo, _mm512_add_pd(serr, s2err));
    lo = _mm512_add_pd(lo, _mm512_fmadd_pd(d, h, _mm512_fnmadd_pd(d, rh, d))); // d / (1 + rh)
    lo = _mm512_fmadd_pd(hlo, mhalf, lo);
    lo = _mm512_fmadd_pd(_mm512_mul_pd(h, rh), q, lo);
    // log x = sl + sll, renormalised; t = y log x = th + tl
    const __m512d sl = _mm512_add_pd(s2, lo);
    const __m512d sll = _mm512_add_pd(_mm512_sub_pd(s2, sl), lo);
    __m512d th = _mm512_mul_pd(y, sl);
    __m512d tl = _mm512_fmadd_pd(y, sll, _mm512_fmsub_pd(y, sl, th));
    // clamped: |th| to 1500 (exp saturates to 0 or inf alike), |tl| to 2^-20 (it is
    // below 2^-40 but where y log x overflows, and then th decides)
    th = _mm512_range_pd(th, _mm512_set1_pd(1500.0), 0x2);
    tl = _mm512_range_pd(tl, _mm512_set1_pd(0x1p-20), 0x2);
    // exp(t) = 2^floor(k/16) 2^((k mod 16)/16) exp(rr), k = round(16 th / ln 2),
    // |rr| <= ln2 / 32: expm1(rr) to degree 8 (2^-68)
    const __m512d shift = _mm512_set1_pd(0x1.8p52);
    const __m512d km = _mm512_fmadd_pd(th, _mm512_set1_pd(0x1.71547652b82fep+4), shift);
    const __m512d k = _mm512_sub_pd(km, shift);
    __m512d rr = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa0000p-5), th); // exact
    rr = _mm512_add_pd(_mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.cf79abc9e3b3ap-44), rr), tl);
    __m512d w = _mm512_set1_pd(1.0 / 40320);
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(1.0 / 5040));
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(1.0 / 720));
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(1.0 / 120));
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(1.0 / 24));
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(1.0 / 6));
    w = _mm512_fmadd_pd(w, rr, _mm512_set1_pd(0.5));
    const __m512d em1 = _mm512_fmadd_pd(_mm512_mul_pd(rr, rr), w, rr);
    const __m512i j = _mm512_castpd_si512(km); // low 4 bits: k mod 16
    const __m512d thi = table16(powd_exp16_hi, j);
    const __m512d tlo = table16(powd_exp16_lo, j);
    const __m512d v = _mm512_add_pd(thi, _mm512_fmadd_pd(thi, em1, tlo));
    return _mm512_scalef_pd(v, _mm512_mul_pd(k, _mm512_set1_pd(1.0 / 16))); // floor(k / 16)
}

[[gnu::noinline]] inline __m512d powd_special(__m512d r, __m512d x, __m512d y, __mmask8 special) {
    alignas(64) double xs[8], ys[8], rs[8];
    _mm512_store_pd(xs, x);
    _mm512_store_pd(ys, y);
    _mm512_store_pd(rs, r);
    for (int i = 0; i < 8; ++i)
        if (special >> i & 1) rs[i] = std::pow(xs[i], ys[i]);
    return _mm512_load_pd(rs);
}

// Lanes with x below DBL_MIN (zero, negative, denormal), x = inf or NaN, y = inf or
// NaN, or an infinite result (pow near DBL_MAX) are std::pow's.
T7_INLINE __m512d pow(const __m512d& x, const __m512d& y) {
    const __m512d inf = _mm512_set1_pd(__builtin_inf());
    const __m512d r = powd_core(x, y);
    __mmask8 fast = _mm512_cmp_pd_mask(x, _mm512_set1_pd(0x1p-1022), _CMP_GE_OQ);
    fast = _mm512_mask_cmp_pd_mask(fast, x, inf, _CMP_LT_OQ);
    fast = _mm512_mask_cmp_pd_mask(fast, _mm512_abs_pd(y), inf, _CMP_LT_OQ);
    fast = _mm512_mask_cmp_pd_mask(fast, r, inf, _CMP_LT_OQ);
    if (EIGEN_PREDICT_FALSE(fast != __mmask8(0xFF))) return powd_special(r, x, y, __mmask8(~fast));
    return r;
}
#else
#define T7_OWN_DOUBLE_POW 0
#endif

// Whether vmath::pow of float packets gives std::pow's special values itself.
inline constexpr bool own_float_pow =
#if defined(EIGEN_VECTORIZE_AVX512)
    true;
#else
    false;
#endif

inline constexpr bool own_double_pow = T7_OWN_DOUBLE_POW;

using PacketD = pe::packet_traits<double>::type;
using PacketF = pe::packet_traits<float>::type;
#if !T7_OWN_DOUBLE_POW
T7_INLINE PacketD pow(const PacketD& x, const PacketD& y) { return pow_sleef(x, y); }
#endif
#if !defined(EIGEN_VECTORIZE_AVX512) && !T7_OWN_FLOAT_POW_AVX2
T7_INLINE PacketF pow(const PacketF& x, const PacketF& y) { return pow_sleef(x, y); }
#endif
T7_INLINE PacketD tanh(const PacketD& x) { return tanh_sleef(x); }
T7_INLINE PacketF tanh(const PacketF& x) { return tanh_float(x); }

#endif // T7_VMATH

} // namespace t7::cpu::vmath
