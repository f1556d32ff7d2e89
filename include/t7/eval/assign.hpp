// Assignment as its own layer: shape checking, allocation of an empty
// destination, and the aliasing decision, shared by every device. The device's
// Evaluator then runs the tree.
#pragma once

#include "../expr/traverse.hpp"
#include "../iter/overlap.hpp"
#include "../tensor/tensor.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace t7 {

namespace detail {

// [lo, hi) byte range spanned by a strided tensor.
template <class T, class D>
std::pair<const char*, const char*> byte_range(const Tensor<T, D>& t) {
    const char* lo = reinterpret_cast<const char*>(t.data());
    int64_t last = 0;
    for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
    return {lo, lo + (last + 1) * int64_t(sizeof(T))};
}

// True when some leaf overlaps the destination's memory and is read with
// different indexing than the destination is written (e.g. x = x.t() + x).
// A leaf that is exactly the destination view (x = x + 1, x += y) is safe:
// every element is read before it is written, by the same iteration.
template <class T, class D, class E>
bool needs_temporary(const Tensor<T, D>& dst, const E& e) {
    if (dst.dim() == 0) return false;
    // Plain variables: clang 14 cannot capture structured bindings in lambdas.
    const auto drange = byte_range(dst);
    const char *dlo = drange.first, *dhi = drange.second;
    bool alias = false;
    for_each_leaf(e, [&](const auto& leaf) {
        const auto& t = leaf.tensor;
        if (alias || t.dim() == 0) return;
        const auto [lo, hi] = byte_range(t);
        if (hi <= dlo || dhi <= lo) return; // disjoint memory
        using L = typename std::remove_cvref_t<decltype(t)>::value_type;
        bool same_view =
            std::is_same_v<L, T> &&
            static_cast<const void*>(t.data()) == static_cast<const void*>(dst.data()) &&
            t.sizes() == dst.sizes() && t.strides() == dst.strides();
        alias = !same_view;
    });
    return alias;
}

// "CPU", "CUDA device 1": how errors name where a tensor lives.
template <class D>
std::string device_label(int id) {
    if constexpr (std::is_same_v<D, CPU>)
        return D::name;
    else
        return std::string(D::name) + " device " + std::to_string(id);
}

// Every leaf of e must live on one device (same kind and id): returns its id
// (0 for a tree without leaves). Throws DeviceError naming two that differ.
template <class E>
int check_devices(const E& e, const char* op = "expression") {
    using Label = std::string (*)(int);
    Label first = nullptr, other = nullptr;
    int id = 0, other_id = 0;
    for_each_leaf(e, [&](const auto& leaf) {
        using D = typename std::remove_cvref_t<decltype(leaf)>::device_type;
        const int dev = leaf.tensor.getDevice();
        if (!first) {
            first = &device_label<D>;
            id = dev;
        } else if (!other && (first != &device_label<D> || dev != id)) {
            other = &device_label<D>;
            other_id = dev;
        }
    });
    if (other)
        fail<DeviceError>(op, ": an expression mixes a tensor on ", first(id), " and a tensor on ",
                          other(other_id), "; only copy() moves data between devices");
    return id;
}

// `op` names the caller in the error of a destination that overlaps itself
// ("+=", "copy"...); the other errors are the assignment's own.
template <class T, class D, class E>
void assign_checked(Tensor<T, D>& dst, const E& e, const char* op) {
    int device = dst.getDevice();
    if constexpr (E::leaves > 0) {
        device = check_devices(e, "assign");
        if (dst.storage().valid() && dst.dim() > 0 && device != dst.getDevice())
            fail<DeviceError>("assign: cannot assign an expression on ", device_label<D>(device),
                              " to a tensor on ", device_label<D>(dst.getDevice()),
                              "; only copy() moves data between devices");
    }
    // Allocations (an empty destination, an aliasing temporary) go to that device.
    typename DeviceMemory<D>::Scope scope(device);
    Shape shape = expr_shape(e, "assign");
    bool empty_input = false;
    for_each_leaf(e, [&](const auto& l) { empty_input = empty_input || l.tensor.dim() == 0; });
    if (empty_input) {
        if (dst.dim() == 0) return;
        fail<ShapeError>("assign: cannot assign an empty tensor to a tensor of size ", dst.sizes());
    }
    if (dst.dim() == 0) {
        dst.resize(shape);
    } else {
        Shape joined = dst.sizes();
        if (!broadcast_into(joined, shape) || !(joined == dst.sizes()))
            fail<ShapeError>("assign: cannot assign an expression of size ", shape,
                             " to a tensor of size ", dst.sizes());
        check_writable(op, dst); // a freshly allocated destination cannot overlap itself
    }
    if (needs_temporary(dst, e)) {
        Tensor<T, D> tmp(dst.sizes());
        Evaluator<D>::run_assign(tmp, e);
        Evaluator<D>::run_assign(dst, as_node(tmp));
    } else {
        Evaluator<D>::run_assign(dst, e);
    }
}

template <class T, class D, class E>
void assign_node(Tensor<T, D>& dst, const E& e, const char* op = "assign") {
    using ED = typename E::device_type;
    if constexpr (std::is_same_v<ED, MixedDevices>) {
        check_devices(e, "assign"); // throws, naming two of the devices
        fail<DeviceError>("assign: an expression mixes devices");
    } else if constexpr (!std::is_void_v<ED> && !std::is_same_v<ED, D>) {
        fail<DeviceError>("assign: cannot assign an expression on ",
                          device_label<ED>(check_devices(e, "assign")), " to a tensor on ",
                          device_label<D>(dst.getDevice()),
                          "; only copy() moves data between devices");
    } else {
        assign_checked(dst, e, op);
    }
}
} // namespace detail

template <class T, class D>
template <Expression E>
Tensor<T, D>& Tensor<T, D>::assign(const E& expr) {
    if constexpr (is_tensor_v<E>)
        detail::assign_node(*this, as_node(expr));
    else
        detail::assign_node(*this, expr); // no copy of the tree
    return *this;
}

} // namespace t7
