// Generic walks over expression trees, shared by every evaluator: the broadcast
// shape of a tree, and visiting its leaves in depth-first order (the order in
// which evaluators number their operands).
#pragma once

#include "../core/size_math.hpp"
#include "nodes.hpp"

#include <tuple>

namespace t7 {

namespace detail {

// NumPy broadcasting: align trailing dimensions; size 1 stretches.
inline bool broadcast_into(Shape& acc, const Shape& s) {
    if (s.size() > acc.size()) {
        Shape wider(s.size() - acc.size(), 1);
        for (int64_t v : acc) wider.push_back(v);
        acc = std::move(wider);
    }
    size_t off = acc.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
        int64_t& a = acc[off + i];
        if (a == s[i] || s[i] == 1) continue;
        if (a != 1) return false;
        a = s[i];
    }
    return true;
}

// Strides of an operand of shape `sizes`/`strides` read at the broadcast `out` shape.
// Writes them into `st` (reusing its storage: no temporary Shape per operand).
inline void broadcast_strides_into(Shape& st, const Shape& sizes, const Shape& strides,
                                   const Shape& out) {
    st.resize(out.size());
    size_t off = out.size() - sizes.size();
    for (size_t i = 0; i < off; ++i) st[i] = 0;
    for (size_t i = 0; i < sizes.size(); ++i) st[off + i] = sizes[i] == 1 ? 0 : strides[i];
}
inline Shape broadcast_strides(const Shape& sizes, const Shape& strides, const Shape& out) {
    Shape st;
    broadcast_strides_into(st, sizes, strides, out);
    return st;
}

} // namespace detail

template <class F, class T, class D>
void for_each_leaf(const Leaf<T, D>& l, F&& f) {
    f(l);
}
template <class F, class T>
void for_each_leaf(const Scalar<T>&, F&&) {}
template <class F, class Op, class... C>
void for_each_leaf(const Apply<Op, C...>& a, F&& f) {
    std::apply([&](const auto&... c) { (for_each_leaf(c, f), ...); }, a.children);
}

// The broadcast shape of the whole tree (empty for a tree of scalars only, or
// of empty tensors only). Throws ShapeError naming `op` and the shapes that do
// not broadcast: an empty tensor combines only with empty tensors (it has no
// elements to stretch), and the result must have an element count int64 holds.
template <class E>
Shape expr_shape(const E& e, const char* op) {
    Shape acc;
    bool has_empty = false;
    for_each_leaf(e, [&](const auto& leaf) {
        const Shape& s = leaf.tensor.sizes();
        has_empty = has_empty || s.empty();
        if (!detail::broadcast_into(acc, s))
            detail::fail<ShapeError>(op, ": shapes ", acc, " and ", s,
                                     " cannot be broadcast together");
    });
    if (has_empty && !acc.empty())
        detail::fail<ShapeError>(op, ": an empty tensor cannot be combined with a tensor of size ",
                                 acc);
    if (acc.size() > 1) detail::checked_numel(acc, op); // 1-D: a tensor's own size
    return acc;
}

} // namespace t7
