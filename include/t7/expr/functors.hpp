// The one table of element-wise functors, usable on host and device. Each says
// how its operands are typed (`rule`) and computes one element; evaluators map
// functors to vector instructions where they can (eval/cpu/packet_ops.hpp).
// Adding a function is one struct here plus one line in operators.hpp.
#pragma once

#include "../core/config.hpp"
#include "../core/dtype.hpp"

#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace t7 {

// How an Apply node types its operands before calling the functor.
namespace rule {
struct promote {};  // all operands converted to their promoted common type
struct floating {}; // promoted; integers compute in float (as PyTorch does)
struct compare {};  // promoted, result uint8 (Torch7's ByteTensor masks)
struct exact {};    // operands passed as they are (user functors, casts)
struct where {};    // mask as is, the two branches promoted
} // namespace rule

namespace detail {
// An integer divisor of zero. Every evaluation path has already thrown for it
// (eval/divisors.hpp checks divisors before anything is written); the
// functors still answer 0 rather than trap when called directly.
template <class T>
T7_HOST_DEVICE bool zero_divisor(T b) {
    return b == T(0);
}

// a * b by the schoolbook formula, as NumPy and Eigen's packets compute it (C's
// operator* adds Annex G's recovery of infinities, which NumPy does not).
template <class T>
T7_HOST_DEVICE T complex_mul(T a, T b) {
    if constexpr (is_complex_v<T>)
        return T(a.real() * b.real() - a.imag() * b.imag(),
                 a.real() * b.imag() + a.imag() * b.real());
    else
        return a * b;
}
// a / b by Smith's algorithm, NumPy's: no overflow for large |b|.
template <class T>
T7_HOST_DEVICE T complex_div(T a, T b) {
    if constexpr (is_complex_v<T>) {
        using R = typename T::value_type;
        const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
        const R abr = br < R(0) ? -br : br, abi = bi < R(0) ? -bi : bi;
        if (abr >= abi) {
            if (abr == R(0) && abi == R(0)) return T(ar / abr, ai / abr); // inf or NaN, as NumPy
            const R rat = bi / br, scl = R(1) / (br + bi * rat);
            return T((ar + ai * rat) * scl, (ai - ar * rat) * scl);
        }
        const R rat = br / bi, scl = R(1) / (bi + br * rat);
        return T((ar * rat + ai) * scl, (ai * rat - ar) * scl);
    } else {
        return a / b;
    }
}
// Ordering is not defined on complex numbers: the functors that compare values
// say so, naming the function, when instantiated for them.
#define T7_NO_COMPLEX(T, NAME)                                                                     \
    static_assert(!is_complex_v<T>, "t7::" NAME ": complex numbers have no order")
} // namespace detail

namespace op {

// Functions of one value; the first list is defined on complex numbers too
// (C99's, as NumPy computes them), the second refuses them at compile time.
// The first list calls std::NAME through argument-dependent lookup, so that a
// device complex type (eval/thrust/complex.hpp) finds its own overloads.
#define T7_UNARY(NAME)                                                                             \
    struct NAME {                                                                                  \
        using rule = rule::floating;                                                               \
        static constexpr const char* name = #NAME;                                                 \
        template <class T>                                                                         \
        T7_HOST_DEVICE T operator()(T x) const {                                                   \
            using std::NAME;                                                                       \
            return NAME(x);                                                                        \
        }                                                                                          \
    };
#define T7_UNARY_REAL(NAME, EXPR)                                                                  \
    struct NAME {                                                                                  \
        using rule = rule::floating;                                                               \
        static constexpr const char* name = #NAME;                                                 \
        template <class T>                                                                         \
        T7_HOST_DEVICE T operator()(T x) const {                                                   \
            static_assert(!is_complex_v<T>, "t7::" #NAME " is not defined on complex numbers");    \
            return EXPR;                                                                           \
        }                                                                                          \
    };
T7_UNARY(exp)
T7_UNARY_REAL(exp2, std::exp2(x))
T7_UNARY_REAL(expm1, std::expm1(x))
T7_UNARY(log)
T7_UNARY_REAL(log2, std::log2(x))
T7_UNARY(log10)
T7_UNARY_REAL(log1p, std::log1p(x))
T7_UNARY_REAL(cbrt, std::cbrt(x))
T7_UNARY_REAL(erf, std::erf(x))
T7_UNARY_REAL(erfc, std::erfc(x))
T7_UNARY(sqrt)
T7_UNARY_REAL(rsqrt, T(1) / std::sqrt(x))
T7_UNARY(sin)
T7_UNARY(cos)
T7_UNARY(tan)
T7_UNARY(asin)
T7_UNARY(acos)
T7_UNARY(atan)
T7_UNARY(sinh)
T7_UNARY(cosh)
T7_UNARY(tanh)
// exp of the non-positive side only: no overflow, and denormal results far left
T7_UNARY_REAL(sigmoid, x < T(0) ? std::exp(x) / (T(1) + std::exp(x)) : T(1) / (T(1) + std::exp(-x)))
T7_UNARY_REAL(floor, std::floor(x))
T7_UNARY_REAL(ceil, std::ceil(x))
T7_UNARY_REAL(round, std::round(x))
T7_UNARY_REAL(trunc, std::trunc(x))
T7_UNARY_REAL(frac, x - std::trunc(x))
#undef T7_UNARY
#undef T7_UNARY_REAL
struct cinv {
    using rule = rule::floating;
    static constexpr const char* name = "cinv";
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        return detail::complex_div(T(1), x);
    }
};

// Unary functions that keep integer types.
struct neg {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        if constexpr (std::is_integral_v<T>)
            return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(x));
        else
            return -x;
    }
};
// The real-valued functions of complex values declare their result type (real_t):
// an `auto` result would instantiate the body for std::complex wherever the node's
// type is computed, which nvcc reports as a host call from device code.
struct abs {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE real_t<T> operator()(T x) const {
        if constexpr (is_complex_v<T>) {
            using std::abs;
            return abs(x); // the modulus, a real number (C99's cabs: hypot)
        } else if constexpr (std::is_unsigned_v<T>)
            return x;
        else
            return x < T(0) ? neg{}(x) : x;
    }
};
// x * x, keeping integer types (wrapping as mul does).
struct square {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        if constexpr (std::is_integral_v<T>) {
            using U = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
            return T(U(x) * U(x));
        } else {
            return detail::complex_mul(x, x);
        }
    }
};
struct sign {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        T7_NO_COMPLEX(T, "sign");
        return T((T(0) < x) - (x < T(0)));
    }
};

// Binary arithmetic. Integer results wrap (two's complement) instead of being UB.
struct add {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>)
            return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
        else
            return a + b;
    }
};
struct sub {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>)
            return T(std::make_unsigned_t<T>(a) - std::make_unsigned_t<T>(b));
        else
            return a - b;
    }
};
struct mul {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>) {
            using U = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
            return T(U(a) * U(b));
        } else {
            return detail::complex_mul(a, b);
        }
    }
};
struct div {
    using rule = rule::promote;
    static constexpr const char* name = "div";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>) {
            if (detail::zero_divisor(b)) return T(0);
            if constexpr (std::is_signed_v<T>)
                if (b == T(-1)) return neg{}(a); // INT_MIN / -1 overflows
            return T(a / b);
        } else {
            return detail::complex_div(a, b);
        }
    }
};
// C's fmod: the result has the sign of the dividend.
struct fmod {
    using rule = rule::promote;
    static constexpr const char* name = "fmod";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>) {
            if (detail::zero_divisor(b)) return T(0);
            if constexpr (std::is_signed_v<T>)
                if (b == T(-1)) return T(0);
            return T(a % b);
        } else {
            return std::fmod(a, b);
        }
    }
};
// Torch7's remainder: the result has the sign of the divisor (a - floor(a/b)*b).
struct remainder {
    using rule = rule::promote;
    static constexpr const char* name = "remainder";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        if constexpr (std::is_integral_v<T>) {
            T r = fmod{}(a, b);
            return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
        } else {
            T r = std::fmod(a, b);
            return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? r + b : r;
        }
    }
};
struct pow {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        using std::pow;
        return pow(a, b);
    }
};
// pow(x, e) for a constant exponent e. The exponents users write most are
// computed with multiplications, a division and a square root (what x * x or
// 1 / sqrt(x) would give, and what NumPy does for 2, 0.5, -1), any other through
// pow. Each form keeps pow's IEEE special values: for the non-integer exponents
// the argument is first made +0 from -0 and +inf from -inf, where pow(-0, 0.5)
// is +0 and pow(-inf, -1.5) is +0.
struct pow_scalar {
    using rule = rule::floating;
    enum class Form : int8_t {
        general,
        zero,
        one,
        two,
        three,
        four,
        half,
        neg_half,
        one_half,
        neg_one,
        neg_one_half,
        neg_two,
        neg_three,
        neg_four
    };
    double e;
    Form form;

    T7_HOST_DEVICE static constexpr Form form_of(double e) {
        constexpr double exps[] = {0, 1, 2, 3, 4, 0.5, -0.5, 1.5, -1, -1.5, -2, -3, -4};
        for (int k = 0; k < 13; ++k)
            if (e == exps[k]) return Form(k + 1);
        return Form::general;
    }
    explicit pow_scalar(double exponent) : e(exponent), form(form_of(exponent)) {}

    // x with pow's view of signed zeros and -inf for non-integer exponents.
    template <class T>
    T7_HOST_DEVICE static T unsigned_arg(T x) {
        const T y = x + T(0); // -0 + 0 is +0
        return y == -T(INFINITY) ? T(INFINITY) : y;
    }
    // x^-n as 1 / x^n (2 ulp) where x^n is a normal number, else as (1/x)^n,
    // which does not overflow or lose bits in the denormals where x^-n is finite.
    template <class T>
    T7_HOST_DEVICE static T inverse_power(T p, T r, int n) {
        // <cfloat>'s literals, not numeric_limits: nvcc's device code cannot call
        // its (host) functions.
        const T a = p < T(0) ? -p : p;
        bool normal;
        if constexpr (sizeof(T) == sizeof(float))
            normal = a >= FLT_MIN && a <= FLT_MAX;
        else
            normal = a >= DBL_MIN && a <= DBL_MAX;
        if (normal) return T(1) / p;
        return n == 3 ? r * r * r : (r * r) * (r * r);
    }
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        if constexpr (is_complex_v<T>) { // integer powers by products, as NumPy
            using std::pow;
            using std::sqrt;
            switch (form) {
            case Form::zero:
                return T(1);
            case Form::one:
                return x;
            case Form::two:
                return detail::complex_mul(x, x);
            case Form::three:
                return detail::complex_mul(detail::complex_mul(x, x), x);
            case Form::four: {
                const T x2 = detail::complex_mul(x, x);
                return detail::complex_mul(x2, x2);
            }
            case Form::neg_one:
                return detail::complex_div(T(1), x);
            case Form::neg_two:
                return detail::complex_div(T(1), detail::complex_mul(x, x));
            case Form::half:
                return sqrt(x);
            default:
                return pow(x, T(typename T::value_type(e)));
            }
        } else {
            return real_power(x);
        }
    }
    template <class T>
    T7_HOST_DEVICE T real_power(T x) const {
        switch (form) {
        case Form::zero:
            return T(1);
        case Form::one:
            return x;
        case Form::two:
            return x * x;
        case Form::three:
            return x * x * x;
        case Form::four:
            return (x * x) * (x * x);
        case Form::half:
            return std::sqrt(unsigned_arg(x));
        case Form::neg_half:
            return T(1) / std::sqrt(unsigned_arg(x));
        case Form::one_half: {
            const T y = unsigned_arg(x);
            return y * std::sqrt(y);
        }
        case Form::neg_one:
            return T(1) / x;
        case Form::neg_one_half: {
            const T r = T(1) / unsigned_arg(x);
            return r * std::sqrt(r);
        }
        case Form::neg_two: {
            const T r = T(1) / x;
            return r * r;
        }
        case Form::neg_three:
            return inverse_power(x * x * x, T(1) / x, 3);
        case Form::neg_four:
            return inverse_power((x * x) * (x * x), T(1) / x, 4);
        default:
            return std::pow(x, T(e));
        }
    }
};
struct atan2 {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        T7_NO_COMPLEX(T, "atan2");
        return std::atan2(a, b);
    }
};
struct cmax {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        T7_NO_COMPLEX(T, "cmax");
        return a < b ? b : a;
    }
};
struct cmin {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        T7_NO_COMPLEX(T, "cmin");
        return b < a ? b : a;
    }
};

// Bitwise operations, integers only (the operators refuse floating operands at
// compile time, expr/operators.hpp). Results keep the promoted integer type.
#define T7_BITWISE(NAME, OP)                                                                       \
    struct NAME {                                                                                  \
        using rule = rule::promote;                                                                \
        template <class T>                                                                         \
        T7_HOST_DEVICE T operator()(T a, T b) const {                                              \
            return T(a OP b);                                                                      \
        }                                                                                          \
    };
T7_BITWISE(bit_and, &)
T7_BITWISE(bit_or, |)
T7_BITWISE(bit_xor, ^)
#undef T7_BITWISE
struct bit_not {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a) const {
        return T(~a);
    }
};
// Shifts without undefined behaviour. A left shift works on the unsigned
// representation (bits shifted out are lost, as for an unsigned type: -1 << 1
// is -2, and 0x40 << 1 of an int8 is -128); a right shift of a signed value is
// arithmetic (floor(a / 2^b)). Amounts of the bit width or more give the
// mathematical answer in the type: 0 for <<, and for >> 0 or -1 (the sign).
// Negative amounts throw before anything is written (eval/divisors.hpp); the
// functors, called directly, answer as for an amount too large.
struct lshift {
    using rule = rule::promote;
    static constexpr const char* name = "lshift";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        using U = std::make_unsigned_t<T>;
        constexpr U bits = U(sizeof(T) * 8);
        if (U(b) >= bits) return T(0); // also a negative b
        return T(U(U(a) << U(b)));
    }
};
struct rshift {
    using rule = rule::promote;
    static constexpr const char* name = "rshift";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b) const {
        using U = std::make_unsigned_t<T>;
        constexpr U bits = U(sizeof(T) * 8);
        if (U(b) >= bits) { // also a negative b
            if constexpr (std::is_signed_v<T>)
                return a < T(0) ? T(-1) : T(0);
            else
                return T(0);
        }
        return T(a >> U(b)); // arithmetic for a signed a (C++20)
    }
};

#define T7_COMPARE(NAME, OP)                                                                       \
    struct NAME {                                                                                  \
        using rule = rule::compare;                                                                \
        template <class T>                                                                         \
        T7_HOST_DEVICE uint8_t operator()(T a, T b) const {                                        \
            if constexpr (!ORDERLESS) T7_NO_COMPLEX(T, #OP);                                       \
            return uint8_t(a OP b);                                                                \
        }                                                                                          \
    };
#define ORDERLESS false
T7_COMPARE(lt, <)
T7_COMPARE(le, <=)
T7_COMPARE(gt, >)
T7_COMPARE(ge, >=)
#undef ORDERLESS
#define ORDERLESS true
T7_COMPARE(eq, ==)
T7_COMPARE(ne, !=)
#undef ORDERLESS
#undef T7_COMPARE

// Ternary functions.
struct clamp {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T x, T lo, T hi) const {
        T7_NO_COMPLEX(T, "clamp");
        return x < lo ? lo : (hi < x ? hi : x);
    }
};
struct lerp {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T b, T w) const {
        return a + w * (b - a);
    }
};
struct addcmul { // a + v * b * c (Torch7's addcmul)
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T v, T b, T c) const {
        return add{}(a, mul{}(v, mul{}(b, c)));
    }
};
struct addcdiv { // a + v * b / c (Torch7's addcdiv)
    using rule = rule::promote;
    static constexpr const char* name = "addcdiv";
    template <class T>
    T7_HOST_DEVICE T operator()(T a, T v, T b, T c) const {
        return add{}(a, mul{}(v, div{}(b, c)));
    }
};
// Functions of complex numbers (conj, real and imag of a real value are the value,
// 0 and the value itself; angle of a real value is 0 or pi, as NumPy's).
struct conj {
    using rule = rule::promote;
    template <class T>
    T7_HOST_DEVICE T operator()(T x) const {
        if constexpr (is_complex_v<T>)
            return T(x.real(), -x.imag());
        else
            return x;
    }
};
struct real_part {
    using rule = rule::exact;
    template <class T>
    T7_HOST_DEVICE real_t<T> operator()(T x) const {
        if constexpr (is_complex_v<T>)
            return x.real();
        else
            return x;
    }
};
struct imag_part {
    using rule = rule::exact;
    template <class T>
    T7_HOST_DEVICE real_t<T> operator()(T x) const {
        if constexpr (is_complex_v<T>)
            return x.imag();
        else
            return T(0);
    }
};
struct angle {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE real_t<T> operator()(T x) const {
        if constexpr (is_complex_v<T>)
            return std::atan2(x.imag(), x.real());
        else
            return std::atan2(T(0), x);
    }
};
// complex(re, im) and polar(r, theta) from two real values, as C<T>: std::complex
// (device code makes thrust::complex, eval/thrust/complex.hpp).
template <template <class> class C>
struct make_complex_as {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE C<T> operator()(T re, T im) const {
        static_assert(!is_complex_v<T>, "t7::complex: takes real and imaginary parts");
        return C<T>(re, im);
    }
};
template <template <class> class C>
struct polar_as {
    using rule = rule::floating;
    template <class T>
    T7_HOST_DEVICE C<T> operator()(T r, T theta) const {
        static_assert(!is_complex_v<T>, "t7::polar: takes a real modulus and angle");
        return C<T>(r * std::cos(theta), r * std::sin(theta));
    }
};
using make_complex = make_complex_as<std::complex>;
using polar = polar_as<std::complex>;
struct where {
    using rule = rule::where;
    template <class M, class T>
    T7_HOST_DEVICE T operator()(M m, T a, T b) const {
        return m ? a : b;
    }
};
template <class U>
struct cast {
    using rule = rule::exact;
    template <class T>
    T7_HOST_DEVICE U operator()(T x) const {
        return convert<U>(x);
    }
};
// A user functor as a fused node (t7::map).
template <class F>
struct user {
    using rule = rule::exact;
    F f;
    template <class... T>
    T7_HOST_DEVICE auto operator()(T... x) const {
        return f(x...);
    }
};

} // namespace op
} // namespace t7

#undef T7_NO_COMPLEX
