// Argument checks of the indexed, masked and sorting operations, shared by the
// CPU implementations (ops/*.hpp) and the CUDA ones (cuda/index_ops.hpp) so that
// both devices throw the same exceptions with the same messages. Light: no
// evaluator, no Thrust, no Eigen.
#pragma once

#include "../eval/assign.hpp"
#include "../expr/traverse.hpp"
#include "../iter/overlap.hpp"
#include "../tensor/tensor.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace t7::detail {

// The first argument of every op_*(...) implementation: the Tensor members
// (members.hpp) reach the overload for their device through argument-dependent
// lookup in this namespace.
struct ops_tag {};

// What a scatter does at each indexed element.
enum class ScatterOp { copy, add, fill };

// The operations without a CUDA implementation (cat, kthvalue, median, mode)
// say so when instantiated for another device.
template <class D>
constexpr void require_cpu() {
    static_assert(std::is_same_v<D, CPU>,
                  "t7: this indexed or sorting operation runs on CPU tensors only (on CUDA "
                  "tensors: index, indexCopy, indexAdd, indexFill, gather, scatter, masked "
                  "operations, nonzero, sort and topk)");
}

// "3" for a position in a 1-D tensor, "(1, 3)" for one in a multi-dimensional one.
inline std::string position_str(const Shape& pos) {
    if (pos.size() == 1) return std::to_string(pos[0]);
    std::string s = "(";
    for (size_t i = 0; i < pos.size(); ++i) s += (i ? ", " : "") + std::to_string(pos[i]);
    return s + ")";
}

// Coordinates of the row-major (layout order) position `linear` in `sizes`.
inline Shape unravel(int64_t linear, const Shape& sizes) {
    Shape c(sizes.size(), 0);
    for (size_t d = sizes.size(); d-- > 0;) {
        c[d] = linear % sizes[d];
        linear /= sizes[d];
    }
    return c;
}

// Index tensors are LongTensors. A template parameter rather than a fixed
// parameter type, so that passing an IntTensor is a TypeError naming both types.
template <class I, class D>
void check_long(const char* op, const Tensor<I, D>&) {
    if constexpr (!std::is_same_v<I, int64_t>)
        fail<TypeError>(op, ": the index tensor must be a ", Tensor<int64_t, D>::typeName(),
                        ", got a ", Tensor<I, D>::typeName());
}

// The 1-D index of index/indexCopy/indexAdd/indexFill (Torch7: "Index is
// supposed to be a vector").
template <class I, class D>
void check_vector(const char* op, const Tensor<I, D>& idx) {
    if (idx.dim() != 1)
        fail<ShapeError>(op, ": the index tensor must be 1-D (a vector of indices), got ",
                         idx.dim() == 0 ? std::string("an empty tensor")
                                        : fmt_msg(idx.dim(), "-D of size ", idx.sizes()));
}

// `s` with the entry at `dim` replaced by `v`.
inline Shape with_entry(Shape s, int64_t dim, int64_t v) {
    s[size_t(dim)] = v;
    return s;
}

// Strides of a 1-D index (stride `stride`) read along `dim` of a rank-`rank` loop.
inline Shape along(size_t rank, int64_t dim, int64_t stride) {
    Shape s(rank, 0);
    s[size_t(dim)] = stride;
    return s;
}

// The IndexError of an index `value` out of [0, n) at the layout-order
// position `linear` of an index tensor of size `sizes`.
[[noreturn]] inline void fail_index_range(const char* op, int64_t value, int64_t linear,
                                          const Shape& sizes, int64_t dim, int64_t n) {
    fail<IndexError>(op, ": index ", value, " at position ", position_str(unravel(linear, sizes)),
                     " out of range for dimension ", dim, " of size ", n);
}

// indexCopy / indexAdd: the source has the destination's size with `m` slices along dim.
inline void check_index_source(const char* op, const Shape& dst, int64_t dim, int64_t m,
                               const Shape& src) {
    const Shape shape = with_entry(dst, dim, m);
    if (!(src == shape))
        fail<ShapeError>(op, ": source of size ", src, " does not match size ", shape,
                         " (the destination's size ", dst, " with dimension ", dim, " of size ", m,
                         ", one slice per index)");
}

// Do the memory ranges spanned by a and b intersect? (Then an operation that
// writes a while reading b reads a snapshot of b instead.)
template <class A, class B, class D>
bool overlaps(const Tensor<A, D>& a, const Tensor<B, D>& b) {
    if (a.nElement() == 0 || b.nElement() == 0) return false; // no memory read or written
    const auto ra = byte_range(a);
    const auto rb = byte_range(b);
    return ra.first < rb.second && rb.first < ra.second;
}

// Does the tensor reach some element twice (an expanded or unfolded view)?
template <class T, class D>
bool self_overlapping(const Tensor<T, D>& t) {
    return iter::overlaps_itself(t.sizes(), t.strides());
}

// A result written "into" t (Torch7's result argument) is first resized to
// `shape`, as Torch7 does: contiguous when t has another size, but a t of
// that size already keeps its strides, which then must not overlap. Checked
// before the resize, so that a refused call leaves t as it was.
template <class T, class D>
void check_result(const char* op, const Tensor<T, D>& t, const Shape& shape) {
    if (t.sizes() == shape) check_writable(op, t);
}

// A handle on `t`, or on a private copy of it when `dst` overlaps it.
template <class T, class U, class D>
Tensor<T, D> unaliased(const Tensor<T, D>& t, const Tensor<U, D>& dst) {
    Tensor<T, D> r = t; // shares
    if (overlaps(dst, t)) r.set(t.clone());
    return r;
}

template <class N, class D>
void check_mask_type(const char* op) {
    using V = typename N::value_type;
    if constexpr (!std::is_same_v<V, uint8_t>) {
        std::string got = "another element type";
        if constexpr (Element<V>) got = Tensor<V, D>::typeName();
        fail<TypeError>(op, ": the mask must be a ", Tensor<uint8_t, D>::typeName(),
                        " (or a comparison such as x < 0), got ", got);
    }
}

// The mask's shape after checking its element type and count against x.
template <class T, class D, class N>
Shape check_mask(const char* op, const Tensor<T, D>& x, const N& node) {
    check_mask_type<N, D>(op);
    bool empty = false;
    for_each_leaf(node, [&](const auto& l) { empty = empty || l.tensor().dim() == 0; });
    const Shape shape = empty ? Shape{} : expr_shape(node, op);
    const int64_t n = empty ? 0 : shape.numel();
    if (n != x.nElement())
        fail<ShapeError>(op, ": the mask has ", n, " elements (size ", shape,
                         ") but the tensor has ", x.nElement(), " (size ", x.sizes(), ")");
    // Its divisors, as the mask is evaluated inside the masked loop (one on
    // another device than x is left alone: reducing it may not compile here).
    using MD = typename N::device_type;
    if constexpr (std::is_void_v<MD> || std::is_same_v<MD, D>)
        if (n > 0) check_divisors(node);
    return shape;
}

// Rank and sizes of idx against `t` (the gathered source / scattered destination).
template <class T, class D>
void check_gather_shape(const char* op, const char* what, const Tensor<T, D>& t,
                        const Tensor<int64_t, D>& idx, int64_t dim) {
    if (idx.dim() != t.dim())
        fail<ShapeError>(op, ": the index tensor has ", idx.dim(), " dimensions (size ",
                         idx.sizes(), ") but the ", what, " has ", t.dim(), " (size ", t.sizes(),
                         ")");
    for (int64_t d = 0; d < t.dim(); ++d)
        if (d != dim && idx.size(d) != t.size(d))
            fail<ShapeError>(op, ": index of size ", idx.sizes(), " does not match the ", what,
                             " of size ", t.sizes(), " in dimension ", d, " (only dimension ", dim,
                             " may differ)");
}

// gather into an existing result: the index against the source, and the
// result (when not empty) against the index. Returns dim wrapped.
template <class T, class D>
int64_t check_gather_into(const Tensor<T, D>& self, const Tensor<T, D>& src, int64_t dim,
                          const Tensor<int64_t, D>& idx) {
    dim = src.wrap_dim(dim, "gather");
    check_gather_shape("gather", "source", src, idx, dim);
    if (self.dim() != 0 && !(self.sizes() == idx.sizes()))
        fail<ShapeError>("gather: result of size ", self.sizes(), " does not match the index size ",
                         idx.sizes());
    check_result("gather", self, idx.sizes());
    return dim;
}

// indexCopy/indexAdd (src given) and indexFill (src null) along dim (wrapped
// in place): a 1-D index and a source of the indexed region's size, which is
// returned.
template <class T, class D>
Shape check_index_scatter(const char* op, const Tensor<T, D>& self, int64_t& dim,
                          const Tensor<int64_t, D>& idx, const Tensor<T, D>* src) {
    dim = self.wrap_dim(dim, op);
    check_vector(op, idx);
    if (src) check_index_source(op, self.sizes(), dim, idx.size(0), src->sizes());
    return with_entry(self.sizes(), dim, idx.size(0));
}

template <class T, class D>
int64_t slice_dim(const Tensor<T, D>& x, int64_t dim, const char* op) {
    if (x.dim() == 0) fail<ShapeError>(op, ": the tensor is empty");
    return x.wrap_dim(dim, op);
}

// k of topk (0 <= k <= n: none is an empty result) or kthvalue (1 <= k <= n).
inline void check_k(const char* op, int64_t k, int64_t dim, int64_t n, int64_t lowest = 1) {
    if (k < lowest || k > n)
        fail<IndexError>(op, ": k ", k, " out of range for dimension ", dim, " of size ", n, " (",
                         lowest, " <= k <= ", n, ")");
}

} // namespace t7::detail
