// Several outputs in one pass, the definition side: `t7::out(y)` names an
// output, `t7::out(y) = e` pairs it with its right side. Neither evaluates
// anything; t7::assign (eval/multi_assign.hpp) runs every pair in one loop.
#pragma once

#include "nodes.hpp"

#include <type_traits>
#include <utility>

namespace t7 {

template <class T, class D, class E>
struct OutputAssignment;

// An output tensor of t7::assign. It refers to the caller's tensor when given
// one by name (so that an empty one can be resized, as `y = e` resizes y);
// a temporary view (`out(y.t())`) is held as a handle, which shares storage.
template <class T, class D>
struct Output {
    using value_type = T;
    using device_type = D;

    explicit Output(Tensor<T, D>& t) : ref_(&t) {}
    explicit Output(Tensor<T, D>&& t) : held_(std::move(t)) {}
    Output(const Output& o) : held_(o.held_), ref_(o.ref_) {}
    Output& operator=(const Output&) = delete; // `out(a) = out(b)` is not an assignment of values

    // The tensor written (resized when empty: the caller's tensor, or the held view).
    Tensor<T, D>& tensor() const { return ref_ ? *ref_ : held_; }

    // Pairs this output with a right side (an expression, a tensor or a
    // number); nothing is evaluated.
    template <class E>
    requires(Expression<E> || Arithmetic<std::remove_cvref_t<E>>) auto operator=(E&& e) const {
        if constexpr (Expression<E>) {
            return OutputAssignment<T, D, node_t<E>>{*this, as_node(std::forward<E>(e))};
        } else {
            using S = compute_t<T>;
            return OutputAssignment<T, D, Scalar<S>>{*this, Scalar<S>{{}, convert<S>(e)}};
        }
    }

private:
    mutable Tensor<T, D> held_;
    Tensor<T, D>* ref_ = nullptr;
};

// `out(y) = e`: the output and its right side, kept until t7::assign runs.
template <class T, class D, class E>
struct OutputAssignment {
    using value_type = T;
    using device_type = D;
    using expr_type = E;
    Output<T, D> out;
    E expr;
};

template <class X>
inline constexpr bool is_output_assignment_v = false;
template <class T, class D, class E>
inline constexpr bool is_output_assignment_v<OutputAssignment<T, D, E>> = true;

// What t7::assign accepts: `t7::out(y) = e`.
template <class X>
concept OutputAssignmentOf = is_output_assignment_v<std::remove_cvref_t<X>>;

template <class T, class D>
Output<T, D> out(Tensor<T, D>& t) {
    return Output<T, D>(t);
}
template <class T, class D>
Output<T, D> out(Tensor<T, D>&& t) {
    return Output<T, D>(std::move(t));
}

} // namespace t7
