// In-place arithmetic (+=, Torch7's add/mul/cmul/addcmul/lshift...): each is one fused
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

// Torch7's component methods (cmul, cdiv, csub, add(t), addcmul, addcdiv,
// cbitand...) pair an operand with self in layout order, as Torch7 does, when
// it has self's element count but a shape that does not broadcast to self's.
// An operand of self's shape, or one that broadcasts to it, is read as it is
// (NumPy broadcasting, as the operators); an empty self or operand is left to
// the assignment's rules. Returns true when b must be read in layout order;
// throws ShapeError naming both sizes when b neither broadcasts nor has
// self's element count.
inline bool in_layout_order(const char* name, const Shape& self, const Shape& b) {
    if (self.empty() || b.empty() || self == b) return false;
    Shape joined = self;
    if (broadcast_into(joined, b) && joined == self) return false;
    if (b.numel() == self.numel()) return true;
    fail<ShapeError>(name, ": an operand of size ", b, " (", b.numel(),
                     " elements) neither broadcasts to nor has the element count of the tensor of "
                     "size ",
                     self, " (", self.numel(), " elements)");
}

// b as an operand of self's method `name`, passed to f as a node: b itself, or
// b read in layout order (a contiguous tensor viewed in self's shape; any
// other operand through a contiguous temporary).
template <class T, class D, class B, class F>
decltype(auto) with_component(const char* name, const Tensor<T, D>& self, const B& b, F&& f) {
    using N = node_t<const B&>;
    using V = typename N::value_type;
    if constexpr (!requires { b.sizes(); } || !std::is_same_v<typename N::device_type, D>) {
        return f(node_ref(b)); // scalars, other devices: the assignment decides
    } else if constexpr (is_tensor_v<B>) {
        if (!in_layout_order(name, self.sizes(), b.sizes())) return f(Leaf<V, D>(b));
        Tensor<V, D> c; // (set rebinds; `c = b` would assign values)
        if (b.isContiguous())
            c.set(b);
        else
            c.assign(b); // a new contiguous tensor
        return f(Leaf<V, D>(Tensor<V, D>(c.storage(), c.storageOffset(), self.sizes())));
    } else {
        if (!in_layout_order(name, self.sizes(), b.sizes())) return f(node_ref(b));
        Tensor<V, D> c;
        c.assign(b);
        return f(Leaf<V, D>(Tensor<V, D>(c.storage(), c.storageOffset(), self.sizes())));
    }
}

template <class T, class D, class Op, class B>
Tensor<T, D>& component(const char* name, Tensor<T, D>& self, Op op, const B& b) {
    return with_component(name, self, b, [&](const auto& n) -> Tensor<T, D>& {
        return assign_as(name, self, make_apply(op, self, n));
    });
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
    if constexpr (Expression<B>)
        return detail::component("add", *this, op::add{}, b);
    else
        return detail::update("add", *this, op::add{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::add(double v, const B& b) {
    return detail::with_component("add", *this, b, [&](const auto& n) -> Tensor& {
        return detail::assign_as(
            "add", *this,
            make_apply(op::addcmul{}, *this, detail::scalar_of<T>(v), n, detail::scalar_of<T>(1)));
    });
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
    return detail::component("cmul", *this, op::mul{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::cdiv(const B& b) {
    return detail::component("cdiv", *this, op::div{}, b);
}
template <class T, class D>
template <Expression B>
Tensor<T, D>& Tensor<T, D>::csub(const B& b) {
    return detail::component("csub", *this, op::sub{}, b);
}
template <class T, class D>
template <Expression B, Expression C>
Tensor<T, D>& Tensor<T, D>::addcmul(double v, const B& b, const C& c) {
    return detail::with_component("addcmul", *this, b, [&](const auto& nb) -> Tensor& {
        return detail::with_component("addcmul", *this, c, [&](const auto& nc) -> Tensor& {
            return detail::assign_as(
                "addcmul", *this,
                make_apply(op::addcmul{}, *this, detail::scalar_of<T>(v), nb, nc));
        });
    });
}
template <class T, class D>
template <Expression B, Expression C>
Tensor<T, D>& Tensor<T, D>::addcdiv(double v, const B& b, const C& c) {
    return detail::with_component("addcdiv", *this, b, [&](const auto& nb) -> Tensor& {
        return detail::with_component("addcdiv", *this, c, [&](const auto& nc) -> Tensor& {
            return detail::assign_as(
                "addcdiv", *this,
                make_apply(op::addcdiv{}, *this, detail::scalar_of<T>(v), nb, nc));
        });
    });
}
template <class T, class D>
template <Arithmetic S>
Tensor<T, D>& Tensor<T, D>::csub(S v) {
    return detail::update("csub", *this, op::sub{}, v);
}

// ---- bitwise, integer tensors only (expr/operators.hpp) --------------------------
template <class T, class D>
template <std::integral S>
requires std::integral<T> Tensor<T, D>
&Tensor<T, D>::lshift(S v) {
    return detail::assign_as("lshift", *this, detail::make_shift(op::lshift{}, *this, v));
}
template <class T, class D>
template <std::integral S>
requires std::integral<T> Tensor<T, D>
&Tensor<T, D>::rshift(S v) {
    return detail::assign_as("rshift", *this, detail::make_shift(op::rshift{}, *this, v));
}
template <class T, class D>
template <Expression B>
requires std::integral<T> Tensor<T, D>
&Tensor<T, D>::cbitand(const B& b) {
    static_assert(detail::integer_operands<B>, "t7: cbitand needs an integer operand");
    return detail::component("cbitand", *this, op::bit_and{}, b);
}
template <class T, class D>
template <Expression B>
requires std::integral<T> Tensor<T, D>
&Tensor<T, D>::cbitor(const B& b) {
    static_assert(detail::integer_operands<B>, "t7: cbitor needs an integer operand");
    return detail::component("cbitor", *this, op::bit_or{}, b);
}
template <class T, class D>
template <Expression B>
requires std::integral<T> Tensor<T, D>
&Tensor<T, D>::cbitxor(const B& b) {
    static_assert(detail::integer_operands<B>, "t7: cbitxor needs an integer operand");
    return detail::component("cbitxor", *this, op::bit_xor{}, b);
}

} // namespace t7
