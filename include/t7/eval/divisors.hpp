// Integer division by zero, and shifts by negative amounts, found before
// anything is written. Every path that evaluates a tree (assignment and so
// in-place updates, reductions, masks) calls check_divisors first: for each
// integer div / fmod / remainder / addcdiv node it reduces the divisor subtree
// alone, over its own (broadcast) shape, through the device's evaluator, and
// throws if an element is zero; for each << / >> node whose amounts are of a
// signed type it throws if an amount is negative (a scalar amount was checked
// when the node was built, expr/operators.hpp). Checking inside the loop could
// only report after other elements were written (and exceptions cannot leave a
// parallel region or a GPU kernel). Trees without such a node, floating ones
// included, compile to nothing here.
#pragma once

#include "../expr/reducers.hpp"
#include "../expr/traverse.hpp"

#include <tuple>
#include <type_traits>

namespace t7::detail {

// The operand of Op that divides, or -1.
template <class Op>
inline constexpr int divisor_operand = -1;
template <>
inline constexpr int divisor_operand<op::div> = 1;
template <>
inline constexpr int divisor_operand<op::fmod> = 1;
template <>
inline constexpr int divisor_operand<op::remainder> = 1;
template <>
inline constexpr int divisor_operand<op::addcdiv> = 3;

// The operand of Op that is a shift amount, or -1.
template <class Op>
inline constexpr int shift_operand = -1;
template <>
inline constexpr int shift_operand<op::lshift> = 1;
template <>
inline constexpr int shift_operand<op::rshift> = 1;

// True for an Apply node that shifts by amounts of a signed type (unsigned
// ones cannot be negative; the amounts are checked as the user gave them).
template <class Op, class... C>
constexpr bool shifts_by_signed() {
    constexpr int k = shift_operand<Op>;
    if constexpr (k < 0)
        return false;
    else
        return std::is_signed_v<
            typename std::tuple_element_t<size_t(k), std::tuple<C...>>::value_type>;
}

// True for an Apply node that divides integers (its operands are converted to
// one promoted type, so "integer" is decided by the divisor's operand type).
template <class E>
constexpr bool divides_integers() {
    if constexpr (!requires { typename E::op_type; }) {
        return false;
    } else {
        constexpr int k = divisor_operand<typename E::op_type>;
        if constexpr (k < 0)
            return false;
        else
            return std::is_integral_v<std::tuple_element_t<size_t(k), typename E::operands>>;
    }
}

// True when check_divisors has something to check in E: an integer division or
// a shift by signed amounts.
template <class E>
inline constexpr bool has_integer_division = false;
template <class Op, class... C>
inline constexpr bool has_integer_division<Apply<Op, C...>> =
    divides_integers<Apply<Op, C...>>() || shifts_by_signed<Op, C...>() ||
    (has_integer_division<C> || ...);

template <class E>
void check_divisors(const E& e);

// True when some element of the divisor subtree is zero.
template <class C>
bool has_zero(const C& divisor) {
    if constexpr (std::is_same_v<C, Scalar<typename C::value_type>>) {
        return divisor.value == typename C::value_type(0);
    } else {
        check_divisors(divisor); // divisions inside the divisor first
        using D = typename C::device_type;
        using Dev = std::conditional_t<std::is_void_v<D>, CPU, D>; // a tree of scalars: the host
        const Shape shape = expr_shape(divisor, "div");
        return !Evaluator<Dev>::template reduce_all<red::all>(divisor, shape);
    }
}

// True when some element of the shift amount subtree is negative.
template <class C>
bool has_negative(const C& amount) {
    using V = typename C::value_type;
    if constexpr (std::is_same_v<C, Scalar<V>>) {
        return amount.value < V(0);
    } else {
        check_divisors(amount); // divisions inside the amounts first
        using D = typename C::device_type;
        using Dev = std::conditional_t<std::is_void_v<D>, CPU, D>; // a tree of scalars: the host
        const Shape shape = expr_shape(amount, "shift");
        return !Evaluator<Dev>::template reduce_all<red::all>(
            make_apply(op::ge{}, amount, Scalar<V>{{}, V(0)}), shape);
    }
}

template <class Op, class... C, size_t... J>
void check_children(const Apply<Op, C...>& a, std::index_sequence<J...>) {
    constexpr int k = divides_integers<Apply<Op, C...>>() ? divisor_operand<Op> : -1;
    constexpr int s = shifts_by_signed<Op, C...>() ? shift_operand<Op> : -1;
    auto visit = [&](const auto& child, auto j) {
        if constexpr (int(decltype(j)::value) == k) {
            if (has_zero(child)) fail<Error>(Op::name, ": integer division by zero");
        } else if constexpr (int(decltype(j)::value) == s) {
            if (has_negative(child)) fail<Error>(Op::name, ": negative shift amount");
        } else {
            check_divisors(child);
        }
    };
    (visit(std::get<J>(a.children), std::integral_constant<size_t, J>{}), ...);
}

// Throws Error ("div: integer division by zero") if an integer division of e
// would divide by zero, Error ("lshift: negative shift amount") if a shift of
// e has a negative amount. Call it once shapes and devices are known to be
// right and the tree is not empty, before writing.
template <class E>
void check_divisors(const E& e) {
    if constexpr (has_integer_division<E> &&
                  !std::is_same_v<typename E::device_type, MixedDevices>) {
        check_children(e, std::make_index_sequence<std::tuple_size_v<decltype(e.children)>>{});
    }
}

} // namespace t7::detail
