// index / indexCopy / indexAdd / indexFill: whole slices of one dimension
// picked by a 1-D LongTensor of 0-based indices (Torch7's Tensor:index family).
//
//   y = x.index(dim, idx)            new tensor: y.select(dim, j) = x.select(dim, idx[j])
//   y.index(x, dim, idx)             the same into y (resized as Torch7 does; a y of the
//                                    right size keeps its strides)
//   x.indexCopy(dim, idx, src)       x.select(dim, idx[j]) = src.select(dim, j)
//   x.indexAdd(dim, idx, src)        x.select(dim, idx[j]) += src.select(dim, j)
//                                    (duplicate indices accumulate)
//   x.indexFill(dim, idx, v)         x.select(dim, idx[j]) = v
//
// The in-place forms return *this (Torch7's Lua wrappers return the source or
// the value instead, a quirk not kept). Every argument is checked before
// anything is written: a failed call leaves the tensor unchanged. The members
// are in members.hpp; these are the CPU implementations.
#pragma once

#include "common.hpp"
#include "members.hpp"

namespace t7 {

namespace detail {

template <class T>
void op_index(ops_tag, Tensor<T, CPU>& self, const Tensor<T, CPU>& src_in, int64_t dim,
              const Tensor<int64_t, CPU>& idx_in) {
    Tensor<T, CPU> src = src_in;       // handles taken before resizing self, which
    Tensor<int64_t, CPU> idx = idx_in; // may be one of them (y.index(y, 0, i))
    dim = src.wrap_dim(dim, "index");
    check_vector("index", idx);
    const int64_t n = src.size(dim);
    check_range("index", idx, n, dim);
    const Shape shape = with_entry(src.sizes(), dim, idx.size(0));
    check_result("index", self, shape);
    self.resize(shape); // no-op at the right size
    src.set(unaliased(src, self));
    idx.set(unaliased(idx, self));
    gather_into("index", self, src.data(), with_entry(src.strides(), dim, 0), src.stride(dim), idx,
                along(size_t(self.dim()), dim, idx.stride(0)), dim, n, true);
}

// indexCopy, indexAdd (src given) and indexFill (src null, the value v).
template <class T>
void op_index_scatter(ops_tag, ScatterOp kind, const char* op, Tensor<T, CPU>& self, int64_t dim,
                      const Tensor<int64_t, CPU>& idx_in, const Tensor<T, CPU>* src_in, T v) {
    const Shape shape = check_index_scatter(op, self, dim, idx_in, src_in);
    check_range(op, idx_in, self.size(dim), dim);
    const Tensor<int64_t, CPU> idx = unaliased(idx_in, self);
    const Shape dst_st = with_entry(self.strides(), dim, 0);
    const Shape idx_st = along(shape.size(), dim, idx.stride(0));
    if (kind == ScatterOp::fill) {
        scatter_into<ScatterKind::fill>(self, dst_st, self.stride(dim),
                                        static_cast<const T*>(nullptr), Shape(shape.size(), 0), idx,
                                        idx_st, shape, v);
        return;
    }
    const Tensor<T, CPU> src = unaliased(*src_in, self);
    if (kind == ScatterOp::copy)
        scatter_into<ScatterKind::copy>(self, dst_st, self.stride(dim), src.data(), src.strides(),
                                        idx, idx_st, shape, T{});
    else
        scatter_into<ScatterKind::add>(self, dst_st, self.stride(dim), src.data(), src.strides(),
                                       idx, idx_st, shape, T{});
}

} // namespace detail

} // namespace t7
