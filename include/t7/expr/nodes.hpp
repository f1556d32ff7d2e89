// Expression nodes only *describe* a computation: children plus a functor.
// They own what they read (a Leaf holds a Tensor handle, so an expression kept
// with `auto` never dangles) and are small values. Evaluators (eval/) decide
// how to run them. Three node kinds cover everything: Leaf, Scalar and Apply.
#pragma once

#include "../tensor/tensor.hpp"
#include "functors.hpp"

#include <tuple>
#include <type_traits>
#include <utility>

namespace t7 {

// A tensor operand. It holds a handle of the tensor (sharing its storage), so
// an expression kept with `auto`, or returned from a function, never dangles.
template <class T, class D>
struct Leaf : ExprTag {
    using value_type = T;
    using device_type = D;
    static constexpr int leaves = 1;

    // Explicit: a parent's tuple builds its Leaf straight from the tensor, with
    // no temporary Leaf to move.
    explicit Leaf(const Tensor<T, D>& t) : held_(t) {}
    explicit Leaf(Tensor<T, D>&& t) : held_(std::move(t)) {}
    const Tensor<T, D>& tensor() const { return held_; }

private:
    Tensor<T, D> held_;
};

// True for a Leaf of element type T on device D.
template <class N, class T, class D>
concept LeafOf = std::is_same_v<N, Leaf<T, D>>;

// A constant operand; broadcasts to any shape.
template <class T>
struct Scalar : ExprTag {
    using value_type = T;
    using device_type = void;
    static constexpr int leaves = 0;
    T value;
};

// Marks an expression combining tensors of different devices (rejected at run time).
struct MixedDevices {};

namespace detail {

template <class A, class B>
struct join_device {
    using type = std::conditional_t<
        std::is_void_v<A>, B,
        std::conditional_t<std::is_void_v<B> || std::is_same_v<A, B>, A, MixedDevices>>;
};
template <class... D>
struct common_device {
    using type = void;
};
template <class D0, class... D>
struct common_device<D0, D...> {
    using type = typename join_device<D0, typename common_device<D...>::type>::type;
};

template <class... V>
struct promote_all;
template <class V>
struct promote_all<V> {
    using type = compute_t<V>;
};
template <class V0, class... V>
struct promote_all<V0, V...> {
    using type = promote_t<V0, typename promote_all<V...>::type>;
};

template <class T>
using floating_of = std::conditional_t<std::is_floating_point_v<T> || is_complex_v<T>, T, float>;

// The type each operand is converted to before the functor sees it.
template <class Rule, class... V>
struct operand_types;
template <class... V>
struct operand_types<rule::promote, V...> {
    using P = typename promote_all<V...>::type;
    using type = std::tuple<std::conditional_t<true, P, V>...>;
};
template <class... V>
struct operand_types<rule::compare, V...> : operand_types<rule::promote, V...> {};
template <class... V>
struct operand_types<rule::floating, V...> {
    using P = floating_of<typename promote_all<V...>::type>;
    using type = std::tuple<std::conditional_t<true, P, V>...>;
};
template <class... V>
struct operand_types<rule::exact, V...> {
    using type = std::tuple<V...>;
};
template <class M, class A, class B>
struct operand_types<rule::where, M, A, B> {
    using P = typename promote_all<A, B>::type;
    using type = std::tuple<M, P, P>;
};

template <class Op, class Tuple>
struct apply_result;
template <class Op, class... A>
struct apply_result<Op, std::tuple<A...>> {
    using type = decltype(std::declval<const Op&>()(std::declval<A>()...));
};

} // namespace detail

// Op applied element-wise to the children (1 to 4 for built-ins, any for map).
template <class Op, class... C>
struct Apply : ExprTag {
    using operands =
        typename detail::operand_types<typename Op::rule, typename C::value_type...>::type;
    using value_type = typename detail::apply_result<Op, operands>::type;
    using device_type = typename detail::common_device<typename C::device_type...>::type;
    using op_type = Op;
    static constexpr int leaves = (0 + ... + C::leaves);
    Op op;
    std::tuple<C...> children;

    // Children are built in place from the operands (tensors become Leaf
    // nodes there); see Leaf for why this is not an aggregate.
    Apply() = default;
    template <class... A>
    requires(sizeof...(A) == sizeof...(C)) explicit Apply(Op o, A&&... c)
        : op(o), children(std::forward<A>(c)...) {}

    // An expression as a value (expr/traverse.hpp): the broadcast shape of its
    // tensors, as a tensor of its value would have it. sizes() throws
    // ShapeError when they do not broadcast; size(d) IndexError out of range.
    Shape sizes() const;
    int64_t dim() const { return int64_t(sizes().size()); }
    int64_t size(int64_t d) const;
    int64_t nElement() const;
};

// ---- turning operands into nodes --------------------------------------------

// A Tensor becomes a Leaf (sharing its storage); nodes stay as they are.
// Rvalue subtrees are moved into their parent, so building a tree copies each
// tensor handle once. A masked selection x[mask] is evaluated here, once, and
// becomes a Leaf of the new 1-D tensor of its elements.
template <class E>
auto as_node(E&& e) {
    using X = std::remove_cvref_t<E>;
    if constexpr (is_tensor_v<X>)
        return Leaf<typename X::value_type, typename X::device_type>(std::forward<E>(e));
    else if constexpr (is_masked_ref_v<X>)
        return Leaf<typename X::value_type, typename X::device_type>(e.eval());
    else
        return X(std::forward<E>(e));
}
template <class E>
using node_t = decltype(as_node(std::declval<E>()));

// The node of e without copying a tree: e itself (by reference) when it is a
// node, a new Leaf when it is a tensor. For code that only reads the tree.
template <class E>
decltype(auto) node_ref(const E& e) {
    if constexpr (is_tensor_v<E> || is_masked_ref_v<E>)
        return as_node(e);
    else
        return (e);
}

// The children tuple builds a Leaf straight from each tensor operand and
// moves (or copies) node operands once.
template <class Op, class... E>
auto make_apply(Op op, E&&... e) {
    return Apply<Op, node_t<E>...>(op, std::forward<E>(e)...);
}

// The type a scalar operand of Op takes beside an expression of element type V:
// V itself (a * 2.0 stays float), or, for functions that compute integers in
// floating point, that floating type (pow(IntTensor, 0.5) raises to 0.5, not 0).
template <class Op, class V>
using scalar_operand_t = std::conditional_t<std::is_same_v<typename Op::rule, rule::floating>,
                                            detail::floating_of<compute_t<V>>, compute_t<V>>;

// An operand of Op: an expression, or an arithmetic scalar typed by
// scalar_operand_t from the expression on the other side.
template <class Op, class X, class Other>
auto as_operand(X&& x) {
    if constexpr (ExpressionOrSelection<X>) {
        return as_node(std::forward<X>(x));
    } else {
        // A complex scalar makes a real expression complex (of the expression's
        // floating type: z * 2.0 stays complex<float>, x * 1i is complex<float> too).
        using S0 = scalar_operand_t<Op, typename node_t<Other>::value_type>;
        using S = std::conditional_t<is_complex_v<std::remove_cvref_t<X>> && !is_complex_v<S0>,
                                     std::complex<detail::floating_of<S0>>, S0>;
        return Scalar<S>{{}, convert<S>(x)}; // defined for NaN and out-of-range values
    }
}

template <class A, class B>
concept Operands = (ExpressionOrSelection<A> &&
                    (ExpressionOrSelection<B> || Arithmetic<std::remove_cvref_t<B>>)) ||
                   (Arithmetic<std::remove_cvref_t<A>> && ExpressionOrSelection<B>);

template <class Op, class A, class B>
auto make_binary(Op op, A&& a, B&& b) {
    using RA = std::remove_cvref_t<A>;
    using RB = std::remove_cvref_t<B>;
    if constexpr (ExpressionOrSelection<A> && ExpressionOrSelection<B>)
        return make_apply(op, std::forward<A>(a), std::forward<B>(b));
    else if constexpr (ExpressionOrSelection<A>)
        return make_apply(op, std::forward<A>(a), as_operand<Op, B, RA>(std::forward<B>(b)));
    else
        return make_apply(op, as_operand<Op, A, RB>(std::forward<A>(a)), std::forward<B>(b));
}

} // namespace t7
