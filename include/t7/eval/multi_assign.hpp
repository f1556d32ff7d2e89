// Several outputs in one pass: t7::assign(t7::out(y1) = e1, t7::out(y2) = e2, ...).
// The device-independent part: checks (shapes, devices, outputs named twice,
// expanded views, integer division by zero), resizing empty outputs, and the
// aliasing decision; the device's MultiAssignEvaluator runs one loop.
//
// Semantics: as if every right side were evaluated first and every output
// written after. A fused loop gives that for free when an output is read only
// with its own indexing (every right side of an element is computed before any
// output of that element is stored); an output whose memory a right side reads
// with other indexing (x.t()), or that overlaps another output, is evaluated
// into a temporary and copied after the pass, in argument order.
#pragma once

#include "../expr/outputs.hpp"
#include "assign.hpp"

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace t7 {

// Runs the pass on one device (eval/cpu/multi_assign.hpp, eval/thrust/multi_assign.hpp).
template <class D>
struct MultiAssignEvaluator;

namespace detail {

// What a device needs to run the pass. Operands: the K targets (each output,
// or its temporary), then every right side's leaves, right side after right
// side, in depth-first order.
struct MultiArgs {
    const LeafRef* targets;
    const LeafRef* leaves;
    const Shape* shape;       // the common shape, not empty
    const void* const* exprs; // right side j's tree
    int device;
    bool flat; // targets and leaves known contiguous of `shape` (the device need not look)
};

// One tensor named twice: the same object, or the same view of the same memory.
inline bool same_output(const LeafRef& a, const LeafRef& b) {
    if (a.sizes == b.sizes) return true;
    return a.data && a.data == b.data && a.type == b.type && *a.sizes == *b.sizes &&
           *a.strides == *b.strides;
}

// Checks the outputs against each other and the leaves; returns the common
// shape (pointing at an output's sizes, or at `storage`), or null when every
// output and leaf is empty (nothing to do). Throws, before anything is
// written: Error for an output named twice; ShapeError for shapes that do not
// make one loop and for an output that overlaps itself (an expanded view).
inline const Shape* check_multi_shapes(const LeafRef* outs, size_t K, const LeafRef* leaves,
                                       size_t L, Shape& storage) {
    for (size_t j = 0; j < K; ++j)
        for (size_t k = j + 1; k < K; ++k)
            if (same_output(outs[j], outs[k]))
                fail<Error>("assign: outputs ", j, " and ", k, " are the same tensor (size ",
                            *outs[j].sizes, "); name each output once");
    // The common case: every output and leaf of one size.
    const Shape* shape = outs[0].sizes;
    bool same = !shape->empty();
    for (size_t j = 1; j < K && same; ++j) same = *outs[j].sizes == *shape;
    for (size_t k = 0; k < L && same; ++k) same = *leaves[k].sizes == *shape;
    if (!same) {
        storage = broadcast_shape(leaves, L, "assign");
        bool empty_leaf = false;
        for (size_t k = 0; k < L; ++k) empty_leaf = empty_leaf || leaves[k].sizes->empty();
        for (size_t j = 0; j < K; ++j) {
            const Shape& s = *outs[j].sizes;
            if (s.empty()) continue;
            if (empty_leaf)
                fail<ShapeError>("assign: cannot assign an empty tensor to output ", j, " of size ",
                                 s);
            if (!broadcast_into(storage, s))
                fail<ShapeError>("assign: output ", j, " of size ", s,
                                 " does not broadcast with the other outputs and right sides (",
                                 storage, ")");
        }
        if (storage.empty()) return nullptr; // only empty tensors (or numbers)
        for (size_t j = 0; j < K; ++j) {
            const Shape& s = *outs[j].sizes;
            if (!s.empty() && !(s == storage))
                fail<ShapeError>("assign: output ", j, " of size ", s, " is not the common size ",
                                 storage,
                                 " of the outputs and right sides (each output element is "
                                 "written once)");
        }
        checked_numel(storage, "assign");
        shape = &storage;
    }
    for (size_t j = 0; j < K; ++j)
        if (!outs[j].sizes->empty()) check_writable("assign", *outs[j].sizes, *outs[j].strides);
    return shape;
}

// The device every non-empty output and every leaf lives on (one id), else
// DeviceError naming two; `fallback` when there are none.
inline int check_multi_devices(const LeafRef* outs, size_t K, const LeafRef* leaves, size_t L,
                               std::string (*label)(int), int fallback) {
    int dev = -1;
    size_t first = 0;
    for (size_t j = 0; j < K; ++j) {
        if (outs[j].sizes->empty()) continue;
        if (dev < 0) {
            dev = outs[j].device;
            first = j;
        } else if (outs[j].device != dev) {
            fail<DeviceError>("assign: output ", first, " is on ", label(dev), " and output ", j,
                              " on ", label(outs[j].device),
                              "; only copy() moves data between devices");
        }
    }
    for (size_t k = 0; k < L; ++k) {
        if (dev < 0) dev = leaves[k].device;
        if (leaves[k].device != dev)
            fail<DeviceError>("assign: a right side reads a tensor on ", label(leaves[k].device),
                              " and the pass runs on ", label(dev),
                              "; only copy() moves data between devices");
    }
    return dev < 0 ? fallback : dev;
}

// Bit j set: output j goes through a temporary, because a leaf reads its
// memory with other indexing, or it overlaps another output.
inline uint64_t multi_temporaries(const LeafRef* outs, size_t K, const LeafRef* leaves, size_t L) {
    uint64_t mask = 0;
    for (size_t j = 0; j < K; ++j) {
        bool tmp = needs_temporary(outs[j], leaves, L);
        const auto [lo, hi] = byte_range(outs[j]);
        for (size_t k = 0; k < K && !tmp; ++k) {
            if (k == j) continue;
            const auto [klo, khi] = byte_range(outs[k]);
            tmp = lo < hi && klo < khi && lo < khi && klo < hi; // both hold elements
        }
        if (tmp) mask |= uint64_t(1) << j;
    }
    return mask;
}

// The common case, decided from the tables alone: every output and leaf
// contiguous of `shape`, each leaf exactly an output or apart from every
// output, the outputs apart from each other. No temporary, no loop plan.
inline bool flat_and_separate(const LeafRef* outs, size_t K, const LeafRef* leaves, size_t L,
                              const Shape& shape) {
    const int64_t n = shape.numel();
    auto hi = [n](const LeafRef& t) { return static_cast<const char*>(t.data) + n * t.elem_size; };
    auto apart = [&](const LeafRef& a, const LeafRef& b) {
        return hi(a) <= static_cast<const char*>(b.data) ||
               hi(b) <= static_cast<const char*>(a.data);
    };
    for (size_t j = 0; j < K; ++j) // an empty output is resized first (the general path)
        if (outs[j].sizes->empty() || !is_contiguous(shape, *outs[j].strides)) return false;
    for (size_t k = 0; k < L; ++k)
        if (!(*leaves[k].sizes == shape) || !is_contiguous(shape, *leaves[k].strides)) return false;
    for (size_t j = 0; j < K; ++j)
        for (size_t k = j + 1; k < K; ++k)
            if (!apart(outs[j], outs[k])) return false;
    for (size_t k = 0; k < L; ++k)
        for (size_t j = 0; j < K; ++j)
            if (!(leaves[k].data == outs[j].data && leaves[k].type == outs[j].type) &&
                !apart(leaves[k], outs[j]))
                return false;
    return true;
}

template <class A>
using out_tensor_t = Tensor<typename A::value_type, typename A::device_type>;

// Resizes every empty output to `shape`; if one refuses (a wrapped storage
// cannot grow), those already resized are put back.
template <class... A, size_t... J>
void resize_outputs(const Shape& shape, std::index_sequence<J...>, A&... a) {
    std::tuple<out_tensor_t<A>...> saved;
    uint64_t resized = 0;
    try {
        auto one = [&](auto& t, auto& keep, size_t j) {
            if (t.dim() != 0) return;
            keep.set(t);
            t.resize(shape);
            resized |= uint64_t(1) << j;
        };
        (one(a.out.tensor(), std::get<J>(saved), J), ...);
    } catch (...) {
        auto back = [&](auto& t, auto& keep, size_t j) {
            if (resized >> j & 1) t.set(keep);
        };
        (back(a.out.tensor(), std::get<J>(saved), J), ...);
        throw;
    }
}

template <class D, class... A, size_t... J>
void multi_assign(std::index_sequence<J...> seq, A&... a) {
    constexpr size_t K = sizeof...(A);
    constexpr size_t L = (size_t(A::expr_type::leaves) + ... + 0);
    std::array<LeafRef, K> outs{leaf_ref(a.out.tensor())...};
    std::array<LeafRef, (L > 0 ? L : 1)> leaves{};
    size_t n = 0;
    (for_each_leaf(a.expr, [&](const auto& l) { leaves[n++] = leaf_ref(l.tensor()); }), ...);

    Shape storage;
    const Shape* shape = check_multi_shapes(outs.data(), K, leaves.data(), L, storage);
    if (!shape) return;
    int device = 0;
    if constexpr (!std::is_same_v<D, CPU>)
        device =
            check_multi_devices(outs.data(), K, leaves.data(), L, &device_label<D>, outs[0].device);
    typename DeviceMemory<D>::Scope scope(device); // empty outputs and temporaries go there
    (check_divisors(a.expr), ...); // integer division by zero: before anything is written
    const std::array<const void*, K> exprs{&a.expr...};
    if (flat_and_separate(outs.data(), K, leaves.data(), L, *shape))
        return MultiAssignEvaluator<D>::template run<A...>(
            MultiArgs{outs.data(), leaves.data(), shape, exprs.data(), device, true});

    bool resize = false;
    for (const LeafRef& o : outs) resize = resize || o.sizes->empty();
    if (resize) {
        if (shape != &storage) storage = *shape; // (an output's sizes change below)
        shape = &storage;
        resize_outputs(*shape, seq, a...);
        outs = {leaf_ref(a.out.tensor())...};
    }
    const uint64_t tmp = multi_temporaries(outs.data(), K, leaves.data(), L);
    std::tuple<out_tensor_t<A>...> temps; // handles without storage unless needed
    std::array<LeafRef, K> targets = outs;
    if (tmp) {
        ((tmp >> J & 1 ? (void)(std::get<J>(temps) = out_tensor_t<A>(*shape),
                                targets[J] = leaf_ref(std::get<J>(temps)))
                       : void()),
         ...);
    }
    MultiAssignEvaluator<D>::template run<A...>(
        MultiArgs{targets.data(), leaves.data(), shape, exprs.data(), device, false});
    if (tmp) { // in argument order: a later output wins where outputs share elements
        ((tmp >> J & 1 ? Evaluator<D>::run_assign(a.out.tensor(), as_node(std::get<J>(temps)))
                       : void()),
         ...);
    }
}

template <class A>
using rhs_device_t = typename A::expr_type::device_type;

} // namespace detail

// Evaluates every right side in one loop over their common shape and writes
// each into its output: t7::assign(t7::out(m) = b1 * m + (1 - b1) * g,
// t7::out(p) = p - lr * m). Every right side reads the values from before the
// call. See docs/expressions.md for the rules and errors.
template <OutputAssignmentOf A0, OutputAssignmentOf... A>
void assign(A0&& a0, A&&... a) {
    using D = typename std::remove_cvref_t<A0>::device_type;
    static_assert(sizeof...(A) < 64, "t7::assign: at most 64 outputs");
    constexpr bool one_kind =
        (std::is_same_v<typename std::remove_cvref_t<A>::device_type, D> && ...);
    constexpr bool trees_ok =
        ((std::is_void_v<detail::rhs_device_t<std::remove_cvref_t<A0>>> ||
          std::is_same_v<detail::rhs_device_t<std::remove_cvref_t<A0>>, D>)) &&
        ((std::is_void_v<detail::rhs_device_t<std::remove_cvref_t<A>>> ||
          std::is_same_v<detail::rhs_device_t<std::remove_cvref_t<A>>, D>)&&...);
    if constexpr (!one_kind) {
        detail::fail<DeviceError>("assign: the outputs are tensors of different devices (", D::name,
                                  " and another); only copy() moves data between devices");
    } else if constexpr (!trees_ok) {
        detail::fail<DeviceError>("assign: a right side reads tensors of another device than its "
                                  "outputs' (",
                                  D::name, "); only copy() moves data between devices");
    } else {
        detail::multi_assign<D>(std::make_index_sequence<sizeof...(A) + 1>{}, a0, a...);
    }
}

} // namespace t7
