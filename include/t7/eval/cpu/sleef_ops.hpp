// The vectorised mathematical functions of the CPU evaluator: SLEEF (the
// library PyTorch uses), called on Eigen's packet types. Each function maps to
// SLEEF's fastest variant documented within 3.5 ulp (u35; u10 or u15 where SLEEF
// has only that), for the instruction set the translation unit is compiled for:
// AVX-512F, AVX2 (+FMA), AVX, SSE4.1, SSE2 or AArch64's Advanced SIMD. SLEEF
// gives IEEE special values (NaN, +-inf, +-0, gradual underflow) in every
// variant. Without one of these, `vmath::available` is false and the functions
// run through the scalar functors (std::).
#pragma once

#include "../../core/config.hpp"

#include <Eigen/Core>

#if defined(EIGEN_VECTORIZE_AVX512) || defined(EIGEN_VECTORIZE_AVX) ||                             \
    defined(EIGEN_VECTORIZE_SSE2) || (defined(EIGEN_VECTORIZE_NEON) && defined(__aarch64__))
#define T7_VMATH 1
#else
#define T7_VMATH 0
#endif

namespace t7::cpu::vmath {

inline constexpr bool available = T7_VMATH;

#if T7_VMATH
// The functions used are declared here as <sleef.h> declares them (a const
// return type), not by including it: its 230 KB of declarations for every
// instruction set cost each user translation unit about 0.3 s to parse.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#endif
// NAME(packet) for the double packet PD (SLEEF's suffix D, e.g. d8) and the
// float packet PF (F, e.g. f16) of instruction set ISA, at accuracy ULP.
#define T7_SLEEF_UNARY_AS(NAME, FN, ULP, PD, PF, D, F, ISA)                                        \
    extern "C" const PD Sleef_##FN##D##_##ULP##ISA(PD);                                            \
    extern "C" const PF Sleef_##FN##F##_##ULP##ISA(PF);                                            \
    T7_INLINE PD NAME(const PD& x) { return Sleef_##FN##D##_##ULP##ISA(x); }                       \
    T7_INLINE PF NAME(const PF& x) { return Sleef_##FN##F##_##ULP##ISA(x); }
#define T7_SLEEF_UNARY(NAME, ...) T7_SLEEF_UNARY_AS(NAME, NAME, __VA_ARGS__)
#define T7_SLEEF_BINARY_AS(NAME, FN, ULP, PD, PF, D, F, ISA)                                       \
    extern "C" const PD Sleef_##FN##D##_##ULP##ISA(PD, PD);                                        \
    extern "C" const PF Sleef_##FN##F##_##ULP##ISA(PF, PF);                                        \
    T7_INLINE PD NAME(const PD& x, const PD& y) { return Sleef_##FN##D##_##ULP##ISA(x, y); }       \
    T7_INLINE PF NAME(const PF& x, const PF& y) { return Sleef_##FN##F##_##ULP##ISA(x, y); }
#define T7_SLEEF_BINARY(NAME, ...) T7_SLEEF_BINARY_AS(NAME, NAME, __VA_ARGS__)
// The table: one line a function, its accuracy in SLEEF's words (u35: 3.5 ulp).
#define T7_SLEEF_TABLE(...)                                                                        \
    T7_SLEEF_UNARY(sin, u35, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(cos, u35, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(tan, u35, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(asin, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(acos, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(atan, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(sinh, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(cosh, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY_AS(tanh_sleef, tanh, u35, __VA_ARGS__) /* vmath::tanh: pow_packets.hpp */       \
    T7_SLEEF_UNARY(exp, u10, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(exp2, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(expm1, u10, __VA_ARGS__)                                                        \
    T7_SLEEF_UNARY(log, u35, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(log2, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(log10, u10, __VA_ARGS__)                                                        \
    T7_SLEEF_UNARY(log1p, u10, __VA_ARGS__)                                                        \
    T7_SLEEF_UNARY_AS(log_u10, log, u10, __VA_ARGS__)                                              \
    T7_SLEEF_UNARY(cbrt, u35, __VA_ARGS__)                                                         \
    T7_SLEEF_UNARY(erf, u10, __VA_ARGS__)                                                          \
    T7_SLEEF_UNARY(erfc, u15, __VA_ARGS__)                                                         \
    T7_SLEEF_BINARY(atan2, u35, __VA_ARGS__)                                                       \
    T7_SLEEF_BINARY_AS(pow_sleef, pow, u10, __VA_ARGS__) /* vmath::pow: pow_packets.hpp */         \
    /* the parts of complex functions (eval/cpu/complex_packets.hpp): 1 ulp or better */           \
    T7_SLEEF_UNARY_AS(sin_u10, sin, u10, __VA_ARGS__)                                              \
    T7_SLEEF_UNARY_AS(cos_u10, cos, u10, __VA_ARGS__)                                              \
    T7_SLEEF_UNARY_AS(sinh_u10, sinh, u10, __VA_ARGS__)                                            \
    T7_SLEEF_UNARY_AS(cosh_u10, cosh, u10, __VA_ARGS__)                                            \
    T7_SLEEF_BINARY_AS(atan2_u10, atan2, u10, __VA_ARGS__)

// Eigen's packet of the widest instruction set enabled, and SLEEF's build of it.
#if defined(EIGEN_VECTORIZE_AVX512)
T7_SLEEF_TABLE(__m512d, __m512, d8, f16, avx512f)
#elif defined(EIGEN_VECTORIZE_AVX) && defined(__AVX2__) && defined(__FMA__)
T7_SLEEF_TABLE(__m256d, __m256, d4, f8, avx2)
#elif defined(EIGEN_VECTORIZE_AVX)
T7_SLEEF_TABLE(__m256d, __m256, d4, f8, avx)
#elif defined(EIGEN_VECTORIZE_SSE2) && defined(__SSE4_1__)
T7_SLEEF_TABLE(__m128d, __m128, d2, f4, sse4)
#elif defined(EIGEN_VECTORIZE_SSE2)
T7_SLEEF_TABLE(__m128d, __m128, d2, f4, sse2)
#else
T7_SLEEF_TABLE(float64x2_t, float32x4_t, d2, f4, advsimd)
#endif
#undef T7_SLEEF_TABLE
#undef T7_SLEEF_BINARY
#undef T7_SLEEF_BINARY_AS
#undef T7_SLEEF_UNARY
#undef T7_SLEEF_UNARY_AS
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#endif

} // namespace t7::cpu::vmath
