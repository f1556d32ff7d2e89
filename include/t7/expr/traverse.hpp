// Generic walks over expression trees, shared by every evaluator: the broadcast
// shape of a tree, and visiting its leaves in depth-first order (the order in
// which evaluators number their operands).
#pragma once

#include "../core/size_math.hpp"
#include "nodes.hpp"

#include <algorithm>
#include <array>
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

// What the checks and loop plans of an assignment or a reduction need of one
// leaf, gathered by one walk of the tree. The checks are then plain functions
// over this table, compiled once per translation unit rather than once per
// expression, and each runs in a few nanoseconds.
struct LeafRef {
    const void* data;   // first element (null for an empty tensor)
    const Shape* sizes; // the tensor's own sizes and strides
    const Shape* strides;
    const void* type; // &type_tag<T>: the element type's identity
    int elem_size;
    int device;
    // A pending product (core/pending.hpp) gathered by gather_leaves_lazy: data
    // is then null. Its recipe is looked up from the tree (gather_pending) only
    // when some leaf has this flag: the table every assignment copies and
    // scans stays small. False for every leaf of gather_leaves.
    bool pending = false;
};
template <class T>
inline constexpr char type_tag = 0;

// Reading data() materialises a pending storage: every path but the fused CPU
// assignment sees values.
template <class T, class D>
T7_INLINE LeafRef leaf_ref(const Tensor<T, D>& t) {
    return {t.data(), &t.sizes(), &t.strides(), &type_tag<T>, int(sizeof(T)), t.getDevice()};
}

// The leaves of e in depth-first order (the order evaluators number operands).
template <class E>
std::array<LeafRef, size_t(E::leaves)> gather_leaves(const E& e) {
    std::array<LeafRef, size_t(E::leaves)> refs;
    size_t k = 0;
    for_each_leaf(e, [&](const auto& leaf) { refs[k++] = leaf_ref(leaf.tensor()); });
    return refs;
}

namespace detail {

// leaf_ref leaving a pending storage pending (for the CPU assignment only). The
// storage's pending pointer is read once, and the values' address without a
// second test (Storage::data() would test it again, out of line).
template <class T, class D>
LeafRef leaf_ref_lazy(const Tensor<T, D>& t) {
    const Storage<T, D>& s = t.storage();
    const bool pending = s.pending() != nullptr;
    T* p = pending ? nullptr : s.data_if_ready();
    return {p ? p + t.storageOffset() : nullptr,
            &t.sizes(),
            &t.strides(),
            &type_tag<T>,
            int(sizeof(T)),
            s.device(),
            pending};
}

// gather_leaves leaving pending products pending: the caller either consumes them
// (eval/cpu/product_blocks.hpp) or materialises them (eval/pending.hpp).
template <class E>
std::array<LeafRef, size_t(E::leaves)> gather_leaves_lazy(const E& e) {
    std::array<LeafRef, size_t(E::leaves)> refs;
    size_t k = 0;
    for_each_leaf(e, [&](const auto& leaf) { refs[k++] = leaf_ref_lazy(leaf.tensor()); });
    return refs;
}
inline bool has_pending(const LeafRef* leaves, size_t n) {
    for (size_t k = 0; k < n; ++k)
        if (leaves[k].pending) return true;
    return false;
}

// What the rare path needs of a pending leaf, beside its LeafRef: the recipe,
// the tensor's storage offset, and how to materialise it (returns data()).
struct PendingLeaf {
    const PendingProducer* producer = nullptr; // null: the leaf is not pending
    int64_t offset = 0;
    const void* tensor = nullptr;
    const void* (*materialise)(const void* tensor) = nullptr;
};
template <class T, class D>
const void* tensor_data(const void* t) {
    return static_cast<const Tensor<T, D>*>(t)->data();
}
// The side table of e's pending leaves, numbered as gather_leaves_lazy's.
template <class E>
std::array<PendingLeaf, size_t(E::leaves)> gather_pending(const E& e) {
    std::array<PendingLeaf, size_t(E::leaves)> pend;
    size_t k = 0;
    for_each_leaf(e, [&](const auto& leaf) {
        using L = std::remove_cvref_t<decltype(leaf)>;
        using T = typename L::value_type;
        using D = typename L::device_type;
        const Tensor<T, D>& t = leaf.tensor();
        if (const PendingProducer* p = t.storage().pending())
            pend[k] = {p, t.storageOffset(), &t, &tensor_data<T, D>};
        ++k;
    });
    return pend;
}
// Runs leaf k's recipe (if still pending) and points its LeafRef at the values.
inline void materialise_pending(LeafRef& leaf, const PendingLeaf& p) {
    leaf.data = p.materialise(p.tensor);
    leaf.pending = false;
}

// How a leaf is read when a destination of shape `shape` (rank >= 1) is walked
// as rows of its last dimension: row j of the leaf starts j * step elements
// after its first, and its elements are `inner` apart (1, or 0 for a leaf of
// size 1 there, broadcast along the row). True for a leaf of the shape whose
// leading dimensions collapse into one stride (a contiguous tensor, a block of
// rows of a wider matrix), a row read by every row (step 0: sizes 1 but the
// last), a column (inner 0), a tensor of one element; false for any other
// layout or a shape that does not broadcast (the planned loop decides then).
inline bool row_layout(const LeafRef& leaf, const Shape& shape, int64_t& step, int64_t& inner) {
    const Shape &s = *leaf.sizes, &st = *leaf.strides;
    const size_t r = shape.size(), q = s.size();
    if (q == 0 || q > r) return false;
    const size_t off = r - q; // the leaf's dimension i is the shape's off + i
    const int64_t n = shape[r - 1], last = s[q - 1];
    if (last == n && n != 1)
        inner = st[q - 1];
    else if (last == 1)
        inner = 0;
    else
        return false;
    if (inner != 0 && inner != 1) return false;
    // The leading dimensions: all of size 1 (one row for every row), or the
    // shape's own, collapsing into a single stride.
    bool ones = true, same = off == 0 || std::all_of(shape.begin(), shape.begin() + off,
                                                     [](int64_t v) { return v == 1; });
    for (size_t i = 0; i + 1 < q; ++i) {
        ones = ones && s[i] == 1;
        same = same && s[i] == shape[off + i];
    }
    step = 0;
    if (ones) return true;
    if (!same) return false;
    int64_t want = -1; // the stride the next outer dimension of size > 1 must have
    for (size_t i = q - 1; i-- > 0;) {
        if (s[i] == 1) continue;
        if (want < 0)
            step = st[i];
        else if (st[i] != want)
            return false;
        want = st[i] * s[i];
    }
    return true;
}

// An assignment the front has checked whole (shapes, devices, aliasing) from
// its leaf table, and how its layout lets the CPU evaluator run it without a
// loop plan: `flat`, dst and every leaf contiguous of one shape; else `rows`,
// dst contiguous and leaf k read as row_layout says (step[k], inner[k]).
struct FastAssign {
    static constexpr size_t max_leaves = 8; // more: the planned loop
    LeafRef dst;
    bool flat = true;
    std::array<int64_t, max_leaves> step{}, inner{};
};

// The broadcast shape of n leaves (empty for none, or for empty tensors only).
// Throws ShapeError naming `op` and the shapes that do not broadcast: an empty
// tensor combines only with empty tensors (it has no elements to stretch), and
// the result must have an element count int64 holds.
inline Shape broadcast_shape(const LeafRef* leaves, size_t n, const char* op) {
    if (n > 0 && !leaves[0].sizes->empty()) { // the common case: every leaf of one size
        bool same = true;
        for (size_t k = 1; k < n && same; ++k) same = *leaves[k].sizes == *leaves[0].sizes;
        if (same) return *leaves[0].sizes;
    }
    Shape acc;
    bool has_empty = false;
    for (size_t k = 0; k < n; ++k) {
        const Shape& s = *leaves[k].sizes;
        has_empty = has_empty || s.empty();
        if (!broadcast_into(acc, s))
            fail<ShapeError>(op, ": shapes ", acc, " and ", s, " cannot be broadcast together");
    }
    if (has_empty && !acc.empty())
        fail<ShapeError>(op, ": an empty tensor cannot be combined with a tensor of size ", acc);
    if (acc.size() > 1) checked_numel(acc, op); // 1-D: a tensor's own size
    return acc;
}

} // namespace detail

// The broadcast shape of the whole tree (see detail::broadcast_shape).
template <class E>
Shape expr_shape(const E& e, const char* op) {
    const auto leaves = gather_leaves(e);
    return detail::broadcast_shape(leaves.data(), leaves.size(), op);
}

template <class Op, class... C>
Shape Apply<Op, C...>::sizes() const {
    return expr_shape(*this, "sizes");
}
template <class Op, class... C>
int64_t Apply<Op, C...>::size(int64_t d) const {
    const Shape s = sizes();
    const int64_t n = int64_t(s.size());
    const int64_t w = d < 0 ? d + n : d; // negative counts from the end, as Tensor::size
    if (w < 0 || w >= n)
        detail::fail<IndexError>("size: dimension ", d, " out of range for a ", n, "-D expression");
    return s[size_t(w)];
}
template <class Op, class... C>
int64_t Apply<Op, C...>::nElement() const {
    const Shape s = sizes();
    return s.empty() ? 0 : s.numel();
}

} // namespace t7
