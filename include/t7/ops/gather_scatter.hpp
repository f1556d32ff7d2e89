// gather / scatter: element-wise indexing along one dimension by a LongTensor of
// the same rank (0-based indices), as Torch7 documents them:
//
//   y = x.gather(dim, idx)        y[i][j] = x[idx[i][j]][j]          (dim 0)
//                                 y[i][j] = x[i][idx[i][j]]          (dim 1)
//                                 y has idx's size
//   y.gather(x, dim, idx)         the same into y (an empty y is allocated; otherwise
//                                 y must have idx's size, any strides)
//   x.scatter(dim, idx, src)      x[idx[i][j]][j] = src[i][j]        (dim 0); src has
//                                 idx's size; duplicate indices: the last write wins
//   x.scatter(dim, idx, v)        x[idx[i][j]][j] = v
//
// idx must have the same number of dimensions as x and, as in Torch7, the same
// size as x (for gather: the source; for scatter: the destination) in every
// dimension except `dim`. Everything is checked before anything is written.
// The members are in members.hpp; these are the CPU implementations.
#pragma once

#include "common.hpp"
#include "members.hpp"

namespace t7 {

namespace detail {

template <class T>
void op_gather(ops_tag, Tensor<T, CPU>& r, const Tensor<T, CPU>& self, int64_t dim,
               const Tensor<int64_t, CPU>& idx) {
    dim = self.wrap_dim(dim, "gather");
    check_gather_shape("gather", "source", self, idx, dim);
    // A fresh result: indices are checked on the fly (no separate pass).
    r.resize(idx.sizes());
    gather_into("gather", r, self.data(), with_entry(self.strides(), dim, 0), self.stride(dim), idx,
                idx.strides(), dim, self.size(dim), false);
}

template <class T>
void op_gather_into(ops_tag, Tensor<T, CPU>& self, const Tensor<T, CPU>& src_in, int64_t dim,
                    const Tensor<int64_t, CPU>& idx_in) {
    Tensor<T, CPU> src = src_in;
    Tensor<int64_t, CPU> idx = idx_in;
    dim = check_gather_into(self, src, dim, idx);
    check_range("gather", idx, src.size(dim), dim);
    self.resize(idx.sizes());
    src.set(unaliased(src, self));
    idx.set(unaliased(idx, self));
    gather_into("gather", self, src.data(), with_entry(src.strides(), dim, 0), src.stride(dim), idx,
                idx.strides(), dim, src.size(dim), true);
}

// scatter of a source (src given) or of the value v (src null).
template <class T>
void op_scatter(ops_tag, Tensor<T, CPU>& self, int64_t dim, const Tensor<int64_t, CPU>& idx_in,
                const Tensor<T, CPU>* src_in, T v) {
    dim = self.wrap_dim(dim, "scatter");
    check_gather_shape("scatter", "destination", self, idx_in, dim);
    if (src_in && !(src_in->sizes() == idx_in.sizes()))
        fail<ShapeError>("scatter: source of size ", src_in->sizes(),
                         " does not match the index size ", idx_in.sizes());
    check_range("scatter", idx_in, self.size(dim), dim);
    const Tensor<int64_t, CPU> idx = unaliased(idx_in, self);
    const Shape dst_st = with_entry(self.strides(), dim, 0);
    if (!src_in) {
        scatter_into<ScatterKind::fill>(
            self, dst_st, self.stride(dim), static_cast<const T*>(nullptr),
            Shape(idx.sizes().size(), 0), idx, idx.strides(), idx.sizes(), v);
        return;
    }
    const Tensor<T, CPU> src = unaliased(*src_in, self);
    scatter_into<ScatterKind::copy>(self, dst_st, self.stride(dim), src.data(), src.strides(), idx,
                                    idx.strides(), idx.sizes(), T{});
}

} // namespace detail

} // namespace t7
