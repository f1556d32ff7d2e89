// Matrix products of expressions: mm, addmm, mv and bmm accept any expression
// as an operand. Each expression operand is evaluated once, into a contiguous
// temporary (t7::eval); tensors are used as they are. The products then behave
// as with tensor operands (mm, addmm and bmm: pending until the end of the
// statement on the CPU, see mm in math/blas.hpp).
#pragma once

#include "blas.hpp"

namespace t7 {

namespace detail {
template <class... X>
constexpr bool any_expression = (!is_tensor_v<X> || ...);

// A tensor as it is; an expression's value in a new contiguous tensor.
template <class X>
decltype(auto) product_operand(const X& x) {
    if constexpr (is_tensor_v<X>)
        return (x);
    else
        return t7::eval(x);
}
} // namespace detail

template <Expression A, Expression B>
requires detail::any_expression<A, B>
auto mm(const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return mm(detail::product_operand(a), detail::product_operand(b), scope);
}

template <Expression C, Expression A, Expression B>
requires detail::any_expression<C, A, B>
auto addmm(double beta, const C& c, double alpha, const A& a, const B& b,
           const detail::ProductScope& scope = {}) {
    return addmm(beta, detail::product_operand(c), alpha, detail::product_operand(a),
                 detail::product_operand(b), scope);
}
template <Expression C, Expression A, Expression B>
requires detail::any_expression<C, A, B>
auto addmm(const C& c, const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return addmm(1.0, c, 1.0, a, b, scope);
}

// bmm's result is pending on the CPU, as mm's; mv computes at the call (its
// result is a vector: no product-sized temporary to save), as with tensors.
template <Expression A, Expression B>
requires detail::any_expression<A, B>
auto bmm(const A& a, const B& b, const detail::ProductScope& scope = {}) {
    return bmm(detail::product_operand(a), detail::product_operand(b), scope);
}
template <Expression M, Expression V>
requires detail::any_expression<M, V>
auto mv(const M& m, const V& v) {
    return mv(detail::product_operand(m), detail::product_operand(v));
}

} // namespace t7
