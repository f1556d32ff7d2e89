// What evaluating one element of an expression costs, roughly, in work units:
// a byte of each tensor read (about what moving it through the cache costs),
// plus each operation. Evaluators use it to decide whether a loop is worth a
// thread team (iter::grain_for): a copy needs far more elements than a tree
// of transcendental functions before starting threads pays.
#pragma once

#include "functors.hpp"
#include "nodes.hpp"

namespace t7 {

// An operation's units per element: 1 for the simple ones, 4 for divisions and
// square roots, 32 for transcendental functions and user functors (unknown).
template <class Op>
inline constexpr int op_cost = 1;
#define T7_OP_COST(OP, UNITS)                                                                      \
    template <>                                                                                    \
    inline constexpr int op_cost<op::OP> = UNITS;
T7_OP_COST(div, 4)
T7_OP_COST(fmod, 4)
T7_OP_COST(remainder, 4)
T7_OP_COST(sqrt, 4)
T7_OP_COST(rsqrt, 4)
T7_OP_COST(cinv, 4)
T7_OP_COST(exp, 32)
T7_OP_COST(exp2, 32)
T7_OP_COST(expm1, 32)
T7_OP_COST(log2, 32)
T7_OP_COST(log10, 32)
T7_OP_COST(cbrt, 32)
T7_OP_COST(erf, 32)
T7_OP_COST(erfc, 32)
T7_OP_COST(pow_scalar, 8)
T7_OP_COST(log, 32)
T7_OP_COST(log1p, 32)
T7_OP_COST(sin, 32)
T7_OP_COST(cos, 32)
T7_OP_COST(tan, 32)
T7_OP_COST(asin, 32)
T7_OP_COST(acos, 32)
T7_OP_COST(atan, 32)
T7_OP_COST(sinh, 32)
T7_OP_COST(cosh, 32)
T7_OP_COST(tanh, 32)
T7_OP_COST(sigmoid, 32)
T7_OP_COST(pow, 32)
T7_OP_COST(atan2, 32)
#undef T7_OP_COST
template <class F>
inline constexpr int op_cost<op::user<F>> = 32;

// Units per element of a tree: its leaves' element sizes plus its operations.
template <class E>
inline constexpr int expr_cost = 0; // Scalar
template <class T, class D>
inline constexpr int expr_cost<Leaf<T, D>> = int(sizeof(T));
template <class Op, class... C>
inline constexpr int expr_cost<Apply<Op, C...>> = op_cost<Op> + (0 + ... + expr_cost<C>);

// The operations' part alone (no leaves): 32 or more means a transcendental
// function or a user functor somewhere in the tree.
template <class E>
inline constexpr int expr_ops_cost = 0; // Scalar, Leaf
template <class Op, class... C>
inline constexpr int expr_ops_cost<Apply<Op, C...>> = op_cost<Op> + (0 + ... + expr_ops_cost<C>);

} // namespace t7
