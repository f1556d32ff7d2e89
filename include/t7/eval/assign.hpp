// Assignment as its own layer: shape checking, allocation of an empty
// destination, and the aliasing decision, shared by every device. The device's
// Evaluator then runs the tree.
#pragma once

#include "../expr/traverse.hpp"
#include "../iter/overlap.hpp"
#include "../tensor/tensor.hpp"
#include "divisors.hpp"
#include "pending.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace t7 {

namespace detail {

// [lo, hi) byte range spanned by a strided operand (a reversed dimension
// reaches below its first element); empty for a tensor without elements.
inline std::pair<const char*, const char*> byte_range(const LeafRef& t) {
    const char* p = static_cast<const char*>(t.data);
    int64_t below = 0, above = 0;
    for (size_t d = 0; d < t.sizes->size(); ++d) {
        const int64_t n = (*t.sizes)[d], s = (*t.strides)[d];
        if (n == 0) return {p, p};
        (s < 0 ? below : above) += (n - 1) * s;
    }
    return {p + below * t.elem_size, p + (above + 1) * t.elem_size};
}

// True when leaf t is the destination view itself (read and written by the
// same iteration: x = x + 1) or lies outside [dlo, dhi), dst's byte range.
inline bool reads_apart(const LeafRef& dst, const char* dlo, const char* dhi, const LeafRef& t) {
    if (t.data == dst.data && t.type == dst.type && *t.sizes == *dst.sizes &&
        *t.strides == *dst.strides)
        return true;
    const auto [lo, hi] = byte_range(t);
    return lo == hi || hi <= dlo || dhi <= lo;
}

// True when some leaf overlaps the destination's memory and is read with
// different indexing than the destination is written (e.g. x = x.t() + x).
// A leaf that is exactly the destination view (x = x + 1, x += y) is safe:
// every element is read before it is written, by the same iteration.
inline bool needs_temporary(const LeafRef& dst, const LeafRef* leaves, size_t n) {
    if (dst.sizes->empty()) return false;
    const auto [dlo, dhi] = byte_range(dst);
    if (dlo == dhi) return false; // nothing written
    for (size_t k = 0; k < n; ++k) {
        const LeafRef& t = leaves[k];
        if (t.sizes->empty() || t.pending) continue; // a pending product: see fusable_product
        if (!reads_apart(dst, dlo, dhi, t)) return true;
    }
    return false;
}

template <class T, class D>
std::pair<const char*, const char*> byte_range(const Tensor<T, D>& t) {
    return byte_range(leaf_ref(t));
}
template <class T, class D, class E>
bool needs_temporary(const Tensor<T, D>& dst, const E& e) {
    const auto leaves = gather_leaves(e);
    return needs_temporary(leaf_ref(dst), leaves.data(), leaves.size());
}

// What an assignment does once its shapes are checked.
enum class AssignAction { nothing, resize_then_run, run };

// Checks the leaves against the destination: they broadcast to its shape (or,
// for an empty destination, to the shape it is resized to, returned in
// `shape`). The common case, every leaf of the destination's size, builds no
// Shape at all.
inline AssignAction check_assign_shapes(const LeafRef& dst, const LeafRef* leaves, size_t n,
                                        Shape& shape) {
    const Shape& ds = *dst.sizes;
    if (!ds.empty()) {
        bool same = true;
        for (size_t k = 0; k < n && same; ++k) same = *leaves[k].sizes == ds;
        if (same) return AssignAction::run;
    }
    shape = broadcast_shape(leaves, n, "assign");
    bool empty_input = false;
    for (size_t k = 0; k < n; ++k) empty_input = empty_input || leaves[k].sizes->empty();
    if (empty_input) {
        if (ds.empty()) return AssignAction::nothing;
        fail<ShapeError>("assign: cannot assign an empty tensor to a tensor of size ", ds);
    }
    if (ds.empty()) return AssignAction::resize_then_run;
    Shape joined = ds;
    if (!broadcast_into(joined, shape) || !(joined == ds))
        fail<ShapeError>("assign: cannot assign an expression of size ", shape,
                         " to a tensor of size ", ds);
    return AssignAction::run;
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
        const int dev = leaf.tensor().getDevice();
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

// Evaluates the tree `expr` into dst, given its leaf table; `fast`, when not
// null: the assignment's layout (the evaluator need not look, nor build dst's
// LeafRef again).
template <class T, class D>
using RunAssign = void (*)(const Tensor<T, D>& dst, const void* expr, const LeafRef* leaves,
                           const FastAssign* fast);

// The common case, decided from the leaf table alone: a CPU destination and
// leaves all contiguous of one shape, none overlapping the destination except
// as the destination itself (x = x + y). Nothing to resize, no temporary, no
// loop plan; a contiguous destination cannot overlap itself. A leaf counts as
// contiguous here when its strides equal the destination's: a contiguous leaf
// with other strides on a size-1 dimension takes the general path, as correct.
inline bool flat_and_separate(const LeafRef& dst, const LeafRef* leaves, size_t n) {
    const Shape &ds = *dst.sizes, &dst_strides = *dst.strides;
    if (ds.empty() || !is_contiguous(ds, dst_strides)) return false;
    const int64_t numel = ds.numel();
    if (numel == 0) return false; // the general path checks the shapes, then stops
    const char* dlo = static_cast<const char*>(dst.data);
    const char* dhi = dlo + numel * dst.elem_size;
    const size_t rank = ds.size();
    const int64_t *dsz = ds.data(), *dst_st = dst_strides.data();
    for (size_t k = 0; k < n; ++k) {
        const LeafRef& t = leaves[k];
        if (t.pending || t.sizes->size() != rank) return false;
        const int64_t *sz = t.sizes->data(), *st = t.strides->data();
        for (size_t d = 0; d < rank; ++d) // sizes and strides in one pass
            if (sz[d] != dsz[d] || st[d] != dst_st[d]) return false;
        const char* lo = static_cast<const char*>(t.data);
        if (lo == dlo && t.type == dst.type) continue; // the destination itself
        if (lo < dhi && dlo < lo + numel * t.elem_size) return false;
    }
    return true;
}

// The next common case (broadcast rows and columns, blocks of rows of a wider
// matrix): dst contiguous and not empty; every leaf read by rows of dst's last
// dimension (row_layout), none overlapping dst except as dst itself. Fills
// f's steps; false for another layout (the general path then checks it).
inline bool rows_and_separate(FastAssign& f, const LeafRef* leaves, size_t n) {
    const LeafRef& dst = f.dst;
    const Shape& ds = *dst.sizes;
    if (ds.empty() || n > FastAssign::max_leaves || !is_contiguous(ds, *dst.strides)) return false;
    const int64_t numel = ds.numel();
    if (numel == 0) return false;
    const char* dlo = static_cast<const char*>(dst.data);
    const char* dhi = dlo + numel * dst.elem_size;
    for (size_t k = 0; k < n; ++k) {
        const LeafRef& t = leaves[k];
        if (t.pending || !row_layout(t, ds, f.step[k], f.inner[k])) return false;
        if (!reads_apart(dst, dlo, dhi, t)) return false;
    }
    f.flat = false;
    return true;
}

// Everything of an assignment but the evaluation itself, compiled once per
// element type and device: device and shape checks, resizing an empty
// destination, the aliasing temporary. `run` evaluates the tree. (The general
// case, out of line: the common flat case, assign_leaves, stays small.)
template <class T, class D>
[[gnu::noinline]] void assign_leaves_general(Tensor<T, D>& dst, const LeafRef* leaves, size_t n,
                                             RunAssign<T, D> run, const void* expr,
                                             void (*name_devices)(const void*),
                                             void (*divisors)(const void*), const char* op) {
    int device = dst.getDevice();
    if constexpr (!std::is_same_v<D, CPU>) { // the CPU has one device
        if (n > 0) {
            device = leaves[0].device;
            for (size_t k = 1; k < n; ++k)
                if (leaves[k].device != device) name_devices(expr); // throws DeviceError
        }
        if (dst.storage().valid() && dst.dim() > 0 && device != dst.getDevice())
            fail<DeviceError>("assign: cannot assign an expression on ", device_label<D>(device),
                              " to a tensor on ", device_label<D>(dst.getDevice()),
                              "; only copy() moves data between devices");
    }
    Shape shape;
    const AssignAction action = check_assign_shapes(leaf_ref(dst), leaves, n, shape);
    if (action == AssignAction::nothing) return;
    // Allocations (an empty destination, an aliasing temporary) go to that device.
    typename DeviceMemory<D>::Scope scope(device);
    const int64_t count = action == AssignAction::resize_then_run ? shape.numel() : dst.nElement();
    // Integer division by zero, before anything is written (no element: no division).
    if (divisors && count > 0) divisors(expr);
    if (action == AssignAction::resize_then_run)
        dst.resize(shape); // a fresh destination cannot overlap itself
    else
        check_writable(op, dst);
    if (dst.nElement() == 0) return; // an empty dimension: nothing to compute
    if (needs_temporary(leaf_ref(dst), leaves, n)) {
        Tensor<T, D> tmp(dst.sizes());
        run(tmp, expr, leaves, nullptr);
        Evaluator<D>::run_assign(dst, as_node(tmp));
    } else {
        run(dst, expr, leaves, nullptr);
    }
}
template <class T, class D>
void assign_leaves(Tensor<T, D>& dst, const LeafRef* leaves, size_t n, RunAssign<T, D> run,
                   const void* expr, void (*name_devices)(const void*),
                   void (*divisors)(const void*), const char* op) {
    if constexpr (std::is_same_v<D, CPU>) {
        FastAssign f{leaf_ref(dst)};
        if (flat_and_separate(f.dst, leaves, n) || rows_and_separate(f, leaves, n)) {
            if (divisors) divisors(expr); // integer division by zero: before anything is written
            return run(dst, expr, leaves, &f);
        }
    }
    assign_leaves_general(dst, leaves, n, run, expr, name_devices, divisors, op);
}

// An evaluator may take the leaf table gathered for the checks (the CPU's
// does), or gather what it needs itself.
template <class T, class D, class E>
void run_assign_erased(const Tensor<T, D>& dst, const void* e, const LeafRef* leaves,
                       const FastAssign* fast) {
    const E& expr = *static_cast<const E*>(e);
    if constexpr (requires { Evaluator<D>::run_assign(dst, expr, leaves, fast); })
        Evaluator<D>::run_assign(dst, expr, leaves, fast);
    else
        Evaluator<D>::run_assign(dst, expr);
}
template <class E>
void name_devices(const void* e) {
    check_devices(*static_cast<const E*>(e), "assign");
}
template <class E>
void check_divisors_of(const void* e) {
    check_divisors(*static_cast<const E*>(e));
}

// The leaf table of an assignment's tree: pending products left pending on the
// CPU (the assignment decides which one it consumes), materialised elsewhere.
template <class D, class E>
auto gather_for_assign(const E& e) {
    if constexpr (std::is_same_v<D, CPU>)
        return gather_leaves_lazy(e);
    else
        return gather_leaves(e);
}

// `op` names the caller in the error of a destination that overlaps itself
// ("+=", "copy"...); the other errors are the assignment's own.
template <class T, class D, class E>
void assign_checked(Tensor<T, D>& dst, const E& e, const char* op) {
    // On the CPU a pending product may be consumed by blocks: gathered without
    // being materialised. (One gather returned as a prvalue: the table is not copied.)
    auto leaves = gather_for_assign<D>(e);
    if constexpr (std::is_same_v<D, CPU>)
        if (has_pending(leaves.data(), leaves.size())) [[unlikely]]
            choose_fused_product(leaf_ref(dst), leaves.data(), gather_pending(e).data(),
                                 leaves.size(), has_integer_division<E>);
    void (*names)(const void*) = nullptr;
    if constexpr (!std::is_same_v<D, CPU>) names = &name_devices<E>;
    void (*divisors)(const void*) = nullptr; // trees without integer division need none
    if constexpr (has_integer_division<E>) divisors = &check_divisors_of<E>;
    assign_leaves(dst, leaves.data(), leaves.size(), &run_assign_erased<T, D, E>, &e, names,
                  divisors, op);
}

// A complex value is never dropped to its real part silently (NumPy warns, PyTorch
// refuses): the caller says which real number it wants.
template <class T, class V>
void check_not_complex_to_real(const char* op) {
    if constexpr (is_complex_v<V> && !is_complex_v<T>)
        fail<TypeError>(op, ": cannot convert complex values to a real ", dtype_traits<T>::name,
                        "Tensor; take t7::real(z), t7::imag(z) or t7::abs(z) first");
}

template <class T, class D, class E>
void assign_node(Tensor<T, D>& dst, const E& e, const char* op = "assign") {
    using ED = typename E::device_type;
    check_not_complex_to_real<T, typename E::value_type>(op);
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
// `y = x` of one type: the leaf table is built from x itself, and x's handle
// is copied into a Leaf only when the evaluator needs a tree (not in the flat
// case, a memcpy: Evaluator::run_flat_copy).
template <class T, class D>
void run_copy_erased(const Tensor<T, D>& dst, const void* src, const LeafRef* leaves,
                     const FastAssign* fast) {
    if constexpr (requires { Evaluator<D>::run_flat_copy(fast->dst, leaves); })
        if (fast && fast->flat) return Evaluator<D>::run_flat_copy(fast->dst, leaves);
    const auto leaf = as_node(*static_cast<const Tensor<T, D>*>(src));
    run_assign_erased<T, D, Leaf<T, D>>(dst, &leaf, leaves, fast);
}
template <class T, class D>
void assign_tensor(Tensor<T, D>& dst, const Tensor<T, D>& src) {
    if constexpr (std::is_same_v<D, CPU>) {
        LeafRef leaf = leaf_ref_lazy(src);
        if (!leaf.pending) // a pending product: the general path consumes it
            return assign_leaves(dst, &leaf, 1, &run_copy_erased<T, D>, &src, nullptr, nullptr,
                                 "assign");
    }
    assign_node(dst, as_node(src));
}
} // namespace detail

template <class T, class D>
template <Expression E>
Tensor<T, D>& Tensor<T, D>::assign(const E& expr) {
    if constexpr (std::is_same_v<E, Tensor>)
        detail::assign_tensor(*this, expr);
    else if constexpr (is_tensor_v<E>)
        detail::assign_node(*this, as_node(expr));
    else
        detail::assign_node(*this, expr); // no copy of the tree
    return *this;
}

} // namespace t7
