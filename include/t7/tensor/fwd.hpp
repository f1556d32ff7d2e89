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
