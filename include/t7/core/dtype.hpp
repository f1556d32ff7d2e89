// Element types: the seven Torch7 types (plus Half for the GPU), their Torch7
// names, promotion rules, and the value conversion that copy() uses.
#pragma once

#include "config.hpp"
#include "device.hpp"
#include "half.hpp"

#include <cmath>
#include <complex>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace t7 {

template <class T>
struct dtype_traits; // only the element types below exist

#define T7_DTYPE(T, NAME, CUDA_PREFIX)                                                             \
    template <>                                                                                    \
    struct dtype_traits<T> {                                                                       \
        static constexpr const char* name = NAME;                                                  \
        static constexpr const char* cuda_name = CUDA_PREFIX;                                      \
    };
T7_DTYPE(uint8_t, "Byte", "CudaByte")
T7_DTYPE(int8_t, "Char", "CudaChar")
T7_DTYPE(int16_t, "Short", "CudaShort")
T7_DTYPE(int32_t, "Int", "CudaInt")
T7_DTYPE(int64_t, "Long", "CudaLong")
T7_DTYPE(float, "Float", "Cuda")
T7_DTYPE(double, "Double", "CudaDouble")
T7_DTYPE(Half, "Half", "CudaHalf")
T7_DTYPE(std::complex<float>, "ComplexFloat", "CudaComplexFloat")
T7_DTYPE(std::complex<double>, "ComplexDouble", "CudaComplexDouble")
#undef T7_DTYPE

// std::complex<float> and std::complex<double>: interleaved (re, im) pairs, the
// layout of C99, NumPy, DLPack and cuComplex.
template <class T>
inline constexpr bool is_complex_v = false;
template <class R>
inline constexpr bool is_complex_v<std::complex<R>> = true;
template <class T>
concept Complex = is_complex_v<T>;

// The real type under a complex one (float for complex<float>); T otherwise.
template <class T>
struct real_of {
    using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
    using type = R;
};
template <class T>
using real_t = typename real_of<T>::type;

// An element type a Tensor may hold.
template <class T>
concept Element = requires {
    dtype_traits<T>::name;
};

// A C++ arithmetic value usable as a scalar operand (2, 2.0f, 3.5, ...).
template <class T>
concept Arithmetic = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || is_complex_v<T>;

// "torch.FloatTensor", "torch.CudaTensor", "torch.DoubleStorage", ...
template <class T, class D>
std::string torch_type_name(const char* kind) {
    std::string prefix =
        std::is_same_v<D, CUDA> ? dtype_traits<T>::cuda_name : dtype_traits<T>::name;
    return "torch." + prefix + kind;
}

// The type arithmetic is carried out in: Half computes in float.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, Half>, float, T>;

// Accumulator for sums: Torch7's accreal (double for floating types, int64 otherwise).
// Complex sums accumulate in complex<double>.
template <class T>
using acc_t =
    std::conditional_t<is_complex_v<T>, std::complex<double>,
                       std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>>;

namespace detail {
template <class A, class B>
struct promote {
    // Like std::common_type, but without C's promotion of small integers to int:
    // uint8 + uint8 stays uint8, int8 + uint8 becomes int16 (the smallest type
    // holding both), float + int32 is float.
    static constexpr bool both_int = std::is_integral_v<A> && std::is_integral_v<B>;
    static constexpr bool mixed_sign = std::is_signed_v<A> != std::is_signed_v<B>;
    using wider = std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>;
    using signed_of_mixed = std::conditional_t<std::is_signed_v<A>, A, B>;
    using small_mixed = std::conditional_t<(sizeof(signed_of_mixed) > 1), signed_of_mixed, int16_t>;
    using type = std::conditional_t<
        std::is_same_v<A, B>, A,
        std::conditional_t<both_int, std::conditional_t<mixed_sign, small_mixed, wider>,
                           std::common_type_t<A, B>>>;
};
// A complex operand makes the result complex, of the promoted real parts
// (float with complex<float>: complex<float>; int64 with complex<float>:
// complex<float>, as a float scalar keeps a float tensor float).
template <class A, class B>
requires(is_complex_v<A> || is_complex_v<B>) struct promote<A, B> {
    using type = std::complex<std::common_type_t<real_t<A>, real_t<B>>>;
};
} // namespace detail

template <class A, class B>
using promote_t = typename detail::promote<compute_t<A>, compute_t<B>>::type;

// Converts one value as Torch7's C casts do, but without undefined behaviour.
// The one rule for floating -> integer, used by copies, casts, assignments,
// scalar operands and every device: truncate toward zero, then wrap modulo
// 2^bits, as Torch7, NumPy and PyTorch (on x86) give -2.7 -> Byte 254 and
// 300 -> Byte 44. NaN gives 0. Beyond int64's range (and +-inf) Long saturates
// to its limits and the narrower types give 0. Integer -> integer wraps modulo
// 2^bits (C++20).
// (std::complex's members are host functions: host code of nvcc units converts
// std::complex values, device code thrust::complex ones, eval/thrust/complex.hpp.)
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class To, class From>
T7_HOST_DEVICE T7_INLINE To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (is_complex_v<To>) {
        if constexpr (is_complex_v<From>)
            return To(real_t<To>(v.real()), real_t<To>(v.imag()));
        else
            return To(convert<real_t<To>>(v), real_t<To>(0));
    } else if constexpr (is_complex_v<From>) {
        // Never reached from the public API: a complex source copied or assigned to a
        // real destination is a TypeError before any element is converted.
        return convert<To>(v.real());
    } else if constexpr (std::is_same_v<From, Half>) {
        return convert<To>(float(v));
    } else if constexpr (std::is_same_v<To, Half>) {
        return Half(float(v));
    } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
        if constexpr (sizeof(To) < 8) {
            // In [-2^63, 2^63) the conversion to int64 is defined, the narrowing modular.
            if (v >= From(-9223372036854775808.0) && v < From(9223372036854775808.0))
                return To(static_cast<int64_t>(v));
            return To(0); // NaN, +-inf, beyond int64
        } else {
            // The limits without std::numeric_limits, whose functions nvcc does
            // not compile for the device.
            using U = std::make_unsigned_t<To>;
            constexpr To hi = std::is_signed_v<To> ? To(U(~U(0)) >> 1) : To(~U(0));
            constexpr To lo = std::is_signed_v<To> ? To(-hi - 1) : To(0);
            if (v != v) return To(0);
            if (v >= From(9.2233720368547758e18)) return hi;
            if (v <= From(-9.2233720368547758e18)) return lo;
            return static_cast<To>(v);
        }
    } else {
        return static_cast<To>(v);
    }
}

namespace detail {
// Sixteen bytes moved as one value (complex<double>).
struct Word16 {
    uint64_t lo, hi;
};
// Calls f(W{}) with W the unsigned integer of esz bytes (1, 2, 4, 8; Word16 for
// 16): code that only moves elements is compiled once per element size, not per type.
template <class F>
decltype(auto) with_word(int esz, F&& f) {
    switch (esz) {
    case 16:
        return f(Word16{});
    case 1:
        return f(uint8_t{});
    case 2:
        return f(uint16_t{});
    case 4:
        return f(uint32_t{});
    default:
        return f(uint64_t{});
    }
}
} // namespace detail

} // namespace t7
