// In-place arithmetic (+=, Torch7's add/mul/cmul/addcmul...): each is one fused
// assignment of `self op rhs` into self. Self appears as a leaf with exactly the
// destination's indexing, so no temporary is taken. Each passes its own name
// for the error of a self that overlaps itself (an expanded view).
#pragma once

#include "../eval/assign.hpp"
#include "operators.hpp"

namespace t7 {

namespace detail {
// A scalar operand in self's type, converted by convert's rule (1e20 or NaN
// into an integer tensor is defined, not undefined behaviour).
template <class T, class S>
Scalar<compute_t<T>> scalar_of(S v) {
    return {{}, convert<compute_t<T>>(v)};
}

template <class T, class D, class E>
Tensor<T, D>& assign_as(const char* name, Tensor<T, D>& self, const E& e) {
    assign_node(self, e, name);
    return self;
}

template <class T, class D, class Op, class B>
Tensor<T, D>& update(const char* name, Tensor<T, D>& self, Op op, const B& b) {
    if constexpr (Expression<B>)
        return assign_as(name, self, make_apply(op, self, b));
    else
        return assign_as(name, self, make_apply(op, self, scalar_of<T>(b)));
}
} // namespace detail

template <class T, class D>
template <class B>
Tensor<T, D>& Tensor<T, D>::operator+=(const B& b) {
    return detail::update("+=", *this, op::add{}, b);
}
template <class T, class D>
template <class B>
Tensor<T, D>& Tensor<T, D>::operator-=(const B& b) {
    return detail::update("-=", *this, op::sub{}, b);
}
template <class T, class D>
template <class B>
Tensor<T, D>& Tensor<T, D>::operator*=(const B& b) {
    return detail::update("*=", *this, op::mul{}, b);
}
template <class T, class D>
template <class B>
Tensor<T, D>& Tensor<T, D>::operator/=(const B& b) {
    return detail::update("/=", *this, op::div{}, b);
}

template <class T, class D>
template <class B>
Tensor<T, D>& Tensor<T, D>::add(const B& b) {
    return detail::update("add", *this, op::add{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::add(double v, const B& b) {
    return detail::assign_as(
        "add", *this,
        make_apply(op::addcmul{}, *this, detail::scalar_of<T>(v), b, detail::scalar_of<T>(1)));
}
template <class T, class D>
template <Arithmetic S>
Tensor<T, D>& Tensor<T, D>::mul(S v) {
    return detail::update("mul", *this, op::mul{}, v);
}
template <class T, class D>
template <Arithmetic S>
Tensor<T, D>& Tensor<T, D>::div(S v) {
    return detail::update("div", *this, op::div{}, v);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::cmul(const B& b) {
    return detail::update("cmul", *this, op::mul{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::cdiv(const B& b) {
    return detail::update("cdiv", *this, op::div{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::csub(const B& b) {
    return detail::update("csub", *this, op::sub{}, b);
}
template <class T, class D>
template <Expression B, Expression C>
Tensor<T, D>& Tensor<T, D>::addcmul(double v, const B& b, const C& c) {
    return detail::assign_as("addcmul", *this,
                             make_apply(op::addcmul{}, *this, detail::scalar_of<T>(v), b, c));
}
template <class T, class D>
template <Expression B, Expression C>
Tensor<T, D>& Tensor<T, D>::addcdiv(double v, const B& b, const C& c) {
    return detail::assign_as("addcdiv", *this,
                             make_apply(op::addcdiv{}, *this, detail::scalar_of<T>(v), b, c));
}

} // namespace t7
