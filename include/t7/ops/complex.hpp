// Complex numbers: the parts of a complex tensor as writable real views
// (NumPy's x.real, x.imag), and the lazy functions conj, angle, complex, polar.
// The element-wise arithmetic and functions are the ordinary ones
// (expr/functors.hpp computes each on complex values too).
#pragma once

#include "../core/dtype.hpp"
#include "../core/error.hpp"
#include "../expr/nodes.hpp"
#include "../expr/reductions.hpp"
#include "../tensor/complex_parts.hpp"
#include "../tensor/tensor.hpp"
#include "../tensor/views.hpp"

#include <complex>
#include <type_traits>
#include <utility>

namespace t7 {

// x.real and x.imag of NumPy: real tensors over the complex tensor's memory
// (writes go to it). Of a real tensor, real() is the tensor itself.
template <class T, class D>
auto real(const Tensor<T, D>& x) {
    if constexpr (is_complex_v<T>)
        return detail::complex_part(x, 0);
    else
        return x;
}
template <class T, class D>
requires is_complex_v<T> Tensor<real_t<T>, D> imag(const Tensor<T, D>& x) {
    return detail::complex_part(x, 1);
}

// Of an expression: the lazy real and imaginary parts.
template <ExpressionOrSelection A>
requires(!is_tensor_v<std::remove_cvref_t<A>>) auto real(A&& a) {
    return make_apply(op::real_part{}, std::forward<A>(a));
}
template <ExpressionOrSelection A>
requires(!is_tensor_v<std::remove_cvref_t<A>>) auto imag(A&& a) {
    return make_apply(op::imag_part{}, std::forward<A>(a));
}

// conj(z), angle(z) (atan2(imag, real), a real value), lazily.
template <ExpressionOrSelection A>
auto conj(A&& a) {
    return make_apply(op::conj{}, std::forward<A>(a));
}
template <ExpressionOrSelection A>
auto angle(A&& a) {
    return make_apply(op::angle{}, std::forward<A>(a));
}

// complex(re, im) and polar(r, theta): a complex expression of two real operands
// (either may be a scalar).
template <class A, class B>
requires Operands<A, B>
auto complex(A&& re, B&& im) {
    return make_binary(op::make_complex{}, std::forward<A>(re), std::forward<B>(im));
}
template <class A, class B>
requires Operands<A, B>
auto polar(A&& r, B&& theta) {
    return make_binary(op::polar{}, std::forward<A>(r), std::forward<B>(theta));
}

// dot (no conjugation) and vdot (conjugates its first operand, as NumPy's) of
// complex tensors: elements paired in layout order, equal counts.
namespace detail {
template <class T, class D, class F>
T complex_dot(const Tensor<T, D>& a, const Tensor<T, D>& b, const char* op, F&& pair) {
    if (a.nElement() != b.nElement())
        fail<ShapeError>(op, ": inconsistent tensor sizes ", a.sizes(), " and ", b.sizes(), " (",
                         a.nElement(), " and ", b.nElement(), " elements)");
    if (a.nElement() == 0) return T(0);
    auto flat = [](const Tensor<T, D>& t) {
        return t.dim() == 1 ? t : t.contiguous().view(t.nElement());
    };
    return T(t7::sum(pair(flat(a), flat(b))));
}
} // namespace detail
template <class T, class D>
requires is_complex_v<T> T dot(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    return detail::complex_dot(a, b, "dot", [](const auto& x, const auto& y) { return x * y; });
}
template <class T, class D>
T vdot(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    return detail::complex_dot(a, b, "vdot",
                               [](const auto& x, const auto& y) { return t7::conj(x) * y; });
}

} // namespace t7
