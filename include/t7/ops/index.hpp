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
// anything is written: a failed call leaves the tensor unchanged.
#pragma once

#include "common.hpp"

namespace t7 {

template <class T, class D>
template <class I>
Tensor<T, D> Tensor<T, D>::index(int64_t dim, const Tensor<I, D>& idx) const {
    Tensor r;
    r.index(*this, dim, idx);
    return r;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::index(const Tensor& src_in, int64_t dim, const Tensor<I, D>& idx_in) {
    detail::require_cpu<D>();
    detail::check_long("index", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        Tensor src = src_in;             // handles taken before resizing *this, which
        Tensor<int64_t, D> idx = idx_in; // may be one of them (y.index(y, 0, i))
        dim = src.wrap_dim(dim, "index");
        detail::check_vector("index", idx);
        const int64_t n = src.size(dim);
        detail::check_range("index", idx, n, dim);
        resize(detail::with_entry(src.sizes(), dim, idx.size(0))); // no-op at the right size
        src.set(detail::unaliased(src, *this));
        idx.set(detail::unaliased(idx, *this));
        detail::gather_into("index", *this, src.data(), detail::with_entry(src.strides(), dim, 0),
                            src.stride(dim), idx, detail::along(sizes_.size(), dim, idx.stride(0)),
                            dim, n, true);
    }
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexCopy(int64_t dim, const Tensor<I, D>& idx_in,
                                      const Tensor& src_in) {
    detail::require_cpu<D>();
    detail::check_long("indexCopy", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "indexCopy");
        detail::check_vector("indexCopy", idx_in);
        const Shape shape = detail::with_entry(sizes_, dim, idx_in.size(0));
        if (!(src_in.sizes() == shape))
            detail::fail<ShapeError>("indexCopy: source of size ", src_in.sizes(),
                                     " does not match size ", shape, " (the destination's size ",
                                     sizes_, " with dimension ", dim, " of size ", idx_in.size(0),
                                     ", one slice per index)");
        detail::check_range("indexCopy", idx_in, sizes_[dim], dim);
        const Tensor src = detail::unaliased(src_in, *this);
        const Tensor<int64_t, D> idx = detail::unaliased(idx_in, *this);
        detail::scatter_into<detail::ScatterKind::copy>(
            *this, detail::with_entry(strides_, dim, 0), strides_[dim], src.data(), src.strides(),
            idx, detail::along(shape.size(), dim, idx.stride(0)), shape, T{});
    }
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexAdd(int64_t dim, const Tensor<I, D>& idx_in,
                                     const Tensor& src_in) {
    detail::require_cpu<D>();
    detail::check_long("indexAdd", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "indexAdd");
        detail::check_vector("indexAdd", idx_in);
        const Shape shape = detail::with_entry(sizes_, dim, idx_in.size(0));
        if (!(src_in.sizes() == shape))
            detail::fail<ShapeError>("indexAdd: source of size ", src_in.sizes(),
                                     " does not match size ", shape, " (the destination's size ",
                                     sizes_, " with dimension ", dim, " of size ", idx_in.size(0),
                                     ", one slice per index)");
        detail::check_range("indexAdd", idx_in, sizes_[dim], dim);
        const Tensor src = detail::unaliased(src_in, *this);
        const Tensor<int64_t, D> idx = detail::unaliased(idx_in, *this);
        detail::scatter_into<detail::ScatterKind::add>(
            *this, detail::with_entry(strides_, dim, 0), strides_[dim], src.data(), src.strides(),
            idx, detail::along(shape.size(), dim, idx.stride(0)), shape, T{});
    }
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexFill(int64_t dim, const Tensor<I, D>& idx_in, T v) {
    detail::require_cpu<D>();
    detail::check_long("indexFill", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "indexFill");
        detail::check_vector("indexFill", idx_in);
        detail::check_range("indexFill", idx_in, sizes_[dim], dim);
        const Tensor<int64_t, D> idx = detail::unaliased(idx_in, *this);
        const Shape shape = detail::with_entry(sizes_, dim, idx.size(0));
        detail::scatter_into<detail::ScatterKind::fill>(
            *this, detail::with_entry(strides_, dim, 0), strides_[dim],
            static_cast<const T*>(nullptr), Shape(shape.size(), 0), idx,
            detail::along(shape.size(), dim, idx.stride(0)), shape, v);
    }
    return *this;
}

// torch.index(x, dim, idx)
template <class T, class D, class I>
Tensor<T, D> index(const Tensor<T, D>& x, int64_t dim, const Tensor<I, D>& idx) {
    return x.index(dim, idx);
}

} // namespace t7
