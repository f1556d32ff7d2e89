// copy / fill / clone / contiguous / conversions: all are assignments of a
// (cast) tree, so they run through the same evaluator as any expression.
#pragma once

#include "../eval/assign.hpp"
#include "tensor.hpp"
#include "transfer.hpp"

namespace t7 {

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::fill(T v) {
    if (nElement() == 0) return *this;
    Evaluator<D>::run_assign(*this, Scalar<compute_t<T>>{{}, compute_t<T>(v)});
    return *this;
}

// Torch7's copy: equal element counts, shapes may differ; elements pair up in
// each tensor's own row-major (layout) order, converting the element type.
template <class T, class D>
template <class U, class D2>
Tensor<T, D>& Tensor<T, D>::copy(const Tensor<U, D2>& src) {
    detail::check_not_complex_to_real<T, U>("copy");
    if (src.nElement() != nElement())
        detail::fail<ShapeError>("copy: source has ", src.nElement(), " elements (size ",
                                 src.sizes(), ") but destination has ", nElement(), " (size ",
                                 sizes_, ")");
    if (nElement() == 0) return *this;
    if (!std::is_same_v<D, D2> || src.getDevice() != getDevice()) {
        detail::check_writable("copy", *this);   // assign_node checks the other path
        detail::copy_across_devices(*this, src); // CPU <-> CUDA, GPU <-> GPU
        return *this;
    }
    if constexpr (std::is_same_v<D, D2>) {
        Tensor<U, D2> s = src;
        if (!(src.sizes() == sizes_)) {
            // Reinterpret the source in the destination's shape; a non-contiguous
            // source of another shape is first made contiguous.
            // (set rebinds the handle; `s = ...` would assign values into src).
            s.set(src.isContiguous() ? src.view(sizes_) : src.contiguous().view(sizes_));
        }
        if constexpr (std::is_same_v<U, T>)
            detail::assign_node(*this, as_node(s), "copy"); // memcpy where the layouts allow
        else
            detail::assign_node(*this, cast<T>(s), "copy");
    }
    return *this;
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::clone() const {
    typename DeviceMemory<D>::Scope scope(getDevice()); // the clone lives where this does
    Tensor r(sizes_);
    if (nElement() > 0) Evaluator<D>::run_assign(r, as_node(*this));
    return r;
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::contiguous() const {
    return isContiguous() ? *this : clone();
}

template <class T, class D>
template <class U>
Tensor<U, D> Tensor<T, D>::to() const {
    if constexpr (std::is_same_v<U, T>) {
        return *this; // Torch7's type() of the same type returns the same tensor
    } else {
        typename DeviceMemory<D>::Scope scope(getDevice());
        Tensor<U, D> r(sizes_);
        if (nElement() > 0) Evaluator<D>::run_assign(r, cast<U>(*this));
        return r;
    }
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::reshape(const Shape& sizes_in) const {
    // Sizes as a new tensor takes them (a 0 is an empty dimension).
    detail::check_sizes(sizes_in, "reshape");
    const Shape& sizes = sizes_in;
    const int64_t count = sizes.empty() ? 0 : detail::checked_numel(sizes, "reshape");
    if (count != nElement())
        detail::fail<ShapeError>("reshape: cannot reshape a tensor of size ", sizes_, " (",
                                 nElement(), " elements) to size ", sizes_in, " (", count,
                                 " elements)");
    typename DeviceMemory<D>::Scope scope(getDevice()); // the result lives where this does
    Tensor r(sizes);
    if (count > 0) r.copy(*this);
    return r;
}

template <class T, class D>
Tensor<T, D> reshape(const Tensor<T, D>& x, const Shape& sizes) {
    return x.reshape(sizes);
}
template <class T, class D, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> reshape(const Tensor<T, D>& x, I... sizes) {
    return x.reshape(Shape{int64_t(sizes)...});
}

// A new contiguous tensor holding the value of an expression.
template <Expression E>
auto eval(const E& e) {
    using N = node_t<E>;
    Tensor<typename N::value_type, typename N::device_type> r;
    r = e;
    return r;
}
// A masked selection's value: a new 1-D tensor of the selected elements.
template <Selection S>
auto eval(const S& s) {
    return s.eval();
}

namespace detail {
// The one way a function that computes on tensors takes any other argument
// (ops/expression_args.hpp): a tensor is used as it is (by reference, no copy);
// an expression or a masked selection is evaluated once, into a new tensor.
template <ExpressionOrSelection X>
decltype(auto) materialize(const X& x) {
    if constexpr (is_tensor_v<X>)
        return (x);
    else
        return t7::eval(x);
}
// At least one argument is not a tensor (the tensor overloads take the rest).
template <class... X>
concept NotAllTensors = (!is_tensor_v<X> || ...);
} // namespace detail

} // namespace t7
