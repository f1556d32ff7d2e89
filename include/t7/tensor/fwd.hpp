// Forward declarations shared by the tensor, expression and evaluator layers.
#pragma once

#include "../core/device.hpp"
#include "../core/dtype.hpp"

#include <concepts>
#include <type_traits>

namespace t7 {

template <class T, class D = CPU>
class Tensor;

// Every node of an expression tree (and Tensor itself, a leaf) derives from ExprTag.
struct ExprTag {};

template <class E>
concept Expression = std::derived_from<std::remove_cvref_t<E>, ExprTag>;

// x[mask]: a masked selection (ops/members.hpp). Where an expression is
// expected it is evaluated once, into a 1-D tensor of the selected elements.
template <class T, class D, class N>
class MaskedRef;

template <class X>
struct is_masked_ref : std::false_type {};
template <class T, class D, class N>
struct is_masked_ref<MaskedRef<T, D, N>> : std::true_type {};
template <class X>
inline constexpr bool is_masked_ref_v = is_masked_ref<std::remove_cvref_t<X>>::value;

// A masked selection x[mask] (not itself an expression node).
template <class E>
concept Selection = is_masked_ref_v<E>;

// What element-wise functions and the functions that take a tensor accept: an
// expression (a tensor or a tree) or a masked selection, evaluated once.
template <class E>
concept ExpressionOrSelection = Expression<E> || Selection<E>;

template <class X>
struct is_tensor : std::false_type {};
template <class T, class D>
struct is_tensor<Tensor<T, D>> : std::true_type {};
template <class X>
inline constexpr bool is_tensor_v = is_tensor<std::remove_cvref_t<X>>::value;

// Evaluators: one specialisation per device executes expression trees (eval/).
template <class D>
struct Evaluator;

} // namespace t7
