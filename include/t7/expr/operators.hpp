// The user-facing vocabulary: operators and functions that build expression
// trees. Nothing here computes; assignment, conversion or a reduction does.
#pragma once

#include "nodes.hpp"

namespace t7 {

#define T7_BINARY_OPERATOR(SYM, OP)                                                                \
    template <class A, class B>                                                                    \
    requires Operands<A, B>                                                                        \
    auto operator SYM(A&& a, B&& b) {                                                              \
        return make_binary(OP{}, std::forward<A>(a), std::forward<B>(b));                          \
    }
T7_BINARY_OPERATOR(+, op::add)
T7_BINARY_OPERATOR(-, op::sub)
T7_BINARY_OPERATOR(*, op::mul)
T7_BINARY_OPERATOR(/, op::div)
T7_BINARY_OPERATOR(<, op::lt)
T7_BINARY_OPERATOR(<=, op::le)
T7_BINARY_OPERATOR(>, op::gt)
T7_BINARY_OPERATOR(>=, op::ge)
T7_BINARY_OPERATOR(==, op::eq)
T7_BINARY_OPERATOR(!=, op::ne)
#undef T7_BINARY_OPERATOR

// ---- bitwise operators: integer expressions and integer scalars only ----------

namespace detail {
// The element type of an operand: an expression's value type, or the scalar's type.
template <class X>
constexpr bool integer_operand() {
    if constexpr (ExpressionOrSelection<X>)
        return std::is_integral_v<typename node_t<X>::value_type>;
    else
        return std::is_integral_v<std::remove_cvref_t<X>>;
}
template <class... X>
inline constexpr bool integer_operands = (integer_operand<X>() && ...);
// A shift. A scalar amount is checked here (negative: Error) and clamped to the
// bit width, so that its conversion to the tensor's type cannot change it; a
// tensor of amounts is checked before anything is written (eval/divisors.hpp).
template <class Op, class A, class B>
auto make_shift(Op op, A&& a, B&& b) {
    static_assert(integer_operands<A, B>, "t7: the shift operators << >> (and lshift, rshift) "
                                          "need integer tensors and integer scalars");
    if constexpr (ExpressionOrSelection<A> && !ExpressionOrSelection<B>) {
        using T = compute_t<typename node_t<A>::value_type>;
        using RB = std::remove_cvref_t<B>;
        constexpr uint64_t bits = sizeof(T) * 8;
        if constexpr (std::is_signed_v<RB>)
            if (b < RB(0)) fail<Error>(Op::name, ": negative shift amount ", int64_t(b));
        const uint64_t amount = uint64_t(b) < bits ? uint64_t(b) : bits;
        return make_apply(op, std::forward<A>(a), Scalar<T>{{}, T(amount)});
    } else {
        return make_binary(op, std::forward<A>(a), std::forward<B>(b));
    }
}
} // namespace detail

// Integer expressions and integer scalars: the operands of & | ^ << >>. A floating
// operand leaves the operators unmatched, and the compiler names this concept.
template <class A, class B>
concept BitwiseOperands = Operands<A, B> && detail::integer_operands<A, B>;

#define T7_BITWISE_OPERATOR(SYM, OP)                                                               \
    template <class A, class B>                                                                    \
    requires BitwiseOperands<A, B>                                                                 \
    auto operator SYM(A&& a, B&& b) {                                                              \
        return make_binary(OP{}, std::forward<A>(a), std::forward<B>(b));                          \
    }
T7_BITWISE_OPERATOR(&, op::bit_and)
T7_BITWISE_OPERATOR(|, op::bit_or)
T7_BITWISE_OPERATOR(^, op::bit_xor)
#undef T7_BITWISE_OPERATOR

template <class A, class B>
requires BitwiseOperands<A, B>
auto operator<<(A&& a, B&& b) {
    return detail::make_shift(op::lshift{}, std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B>
requires BitwiseOperands<A, B>
auto operator>>(A&& a, B&& b) {
    return detail::make_shift(op::rshift{}, std::forward<A>(a), std::forward<B>(b));
}
template <class A>
requires(ExpressionOrSelection<A>&& detail::integer_operands<A>) auto operator~(A&& a) {
    return make_apply(op::bit_not{}, std::forward<A>(a));
}

template <ExpressionOrSelection A>
auto operator-(A&& a) {
    return make_apply(op::neg{}, std::forward<A>(a));
}

#define T7_BINARY_FUNCTION(NAME, OP)                                                               \
    template <class A, class B>                                                                    \
    requires Operands<A, B>                                                                        \
    auto NAME(A&& a, B&& b) { return make_binary(OP{}, std::forward<A>(a), std::forward<B>(b)); }
T7_BINARY_FUNCTION(lt, op::lt)
T7_BINARY_FUNCTION(le, op::le)
T7_BINARY_FUNCTION(gt, op::gt)
T7_BINARY_FUNCTION(ge, op::ge)
T7_BINARY_FUNCTION(eq, op::eq)
T7_BINARY_FUNCTION(ne, op::ne)
T7_BINARY_FUNCTION(atan2, op::atan2)
T7_BINARY_FUNCTION(fmod, op::fmod)
T7_BINARY_FUNCTION(remainder, op::remainder)
T7_BINARY_FUNCTION(cmax, op::cmax)
T7_BINARY_FUNCTION(cmin, op::cmin)
#undef T7_BINARY_FUNCTION

// pow(e, constant): the exponent is known when the tree is built, and the common
// ones (2, 3, 0.5, -1, -1.5, ...) compute without pow (op::pow_scalar).
template <class A, class B>
requires Operands<A, B>
auto pow(A&& a, B&& b) {
    if constexpr (ExpressionOrSelection<A> && !ExpressionOrSelection<B> &&
                  !is_complex_v<std::remove_cvref_t<B>>)
        return make_apply(op::pow_scalar(convert<double>(b)), std::forward<A>(a));
    else
        return make_binary(op::pow{}, std::forward<A>(a), std::forward<B>(b));
}

#define T7_UNARY_FUNCTION(NAME)                                                                    \
    template <ExpressionOrSelection A>                                                             \
    auto NAME(A&& a) {                                                                             \
        return make_apply(op::NAME{}, std::forward<A>(a));                                         \
    }
T7_UNARY_FUNCTION(abs)
T7_UNARY_FUNCTION(sign)
T7_UNARY_FUNCTION(neg)
T7_UNARY_FUNCTION(square)
T7_UNARY_FUNCTION(exp)
T7_UNARY_FUNCTION(exp2)
T7_UNARY_FUNCTION(expm1)
T7_UNARY_FUNCTION(log)
T7_UNARY_FUNCTION(log2)
T7_UNARY_FUNCTION(log10)
T7_UNARY_FUNCTION(log1p)
T7_UNARY_FUNCTION(cbrt)
T7_UNARY_FUNCTION(erf)
T7_UNARY_FUNCTION(erfc)
T7_UNARY_FUNCTION(sqrt)
T7_UNARY_FUNCTION(rsqrt)
T7_UNARY_FUNCTION(sin)
T7_UNARY_FUNCTION(cos)
T7_UNARY_FUNCTION(tan)
T7_UNARY_FUNCTION(asin)
T7_UNARY_FUNCTION(acos)
T7_UNARY_FUNCTION(atan)
T7_UNARY_FUNCTION(sinh)
T7_UNARY_FUNCTION(cosh)
T7_UNARY_FUNCTION(tanh)
T7_UNARY_FUNCTION(sigmoid)
T7_UNARY_FUNCTION(floor)
T7_UNARY_FUNCTION(ceil)
T7_UNARY_FUNCTION(round)
T7_UNARY_FUNCTION(trunc)
T7_UNARY_FUNCTION(frac)
T7_UNARY_FUNCTION(cinv)
#undef T7_UNARY_FUNCTION

namespace detail {
// A ternary operand: an expression, or a scalar typed by the first operand.
template <class Op, class X, class E>
auto as_third(X&& x) {
    if constexpr (ExpressionOrSelection<X>)
        return as_node(std::forward<X>(x));
    else
        return as_operand<Op, const std::remove_cvref_t<X>&, E>(x);
}
} // namespace detail

// Operands are forwarded so that a temporary tensor is held by the node (see Leaf).
template <ExpressionOrSelection E, class L, class H>
auto clamp(E&& e, L&& lo, H&& hi) {
    return make_apply(op::clamp{}, std::forward<E>(e),
                      detail::as_third<op::clamp, L, E>(std::forward<L>(lo)),
                      detail::as_third<op::clamp, H, E>(std::forward<H>(hi)));
}

template <ExpressionOrSelection A, class B, class W>
auto lerp(A&& a, B&& b, W&& w) {
    return make_apply(op::lerp{}, std::forward<A>(a),
                      detail::as_third<op::lerp, B, A>(std::forward<B>(b)),
                      detail::as_third<op::lerp, W, A>(std::forward<W>(w)));
}

// where(mask, a, b): a where mask is non-zero, else b. a or b may be scalars.
template <ExpressionOrSelection M, class A, class B>
requires(ExpressionOrSelection<A> || ExpressionOrSelection<B>) auto where(M&& mask, A&& a, B&& b) {
    if constexpr (ExpressionOrSelection<A>)
        return make_apply(op::where{}, std::forward<M>(mask), as_node(std::forward<A>(a)),
                          detail::as_third<op::where, B, A>(std::forward<B>(b)));
    else
        return make_apply(op::where{}, std::forward<M>(mask),
                          detail::as_third<op::where, A, B>(std::forward<A>(a)),
                          as_node(std::forward<B>(b)));
}

template <class U, ExpressionOrSelection E>
auto cast(E&& e) {
    return make_apply(op::cast<U>{}, std::forward<E>(e));
}

// A user functor as one fused node: t7::map([](float a, float b) { ... }, x, y).
template <class F, ExpressionOrSelection... E>
requires(sizeof...(E) > 0) auto map(F f, E&&... e) {
    return make_apply(op::user<F>{f}, std::forward<E>(e)...);
}

} // namespace t7
