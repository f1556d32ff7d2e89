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
#pragma once

#include "common.hpp"

namespace t7 {

namespace detail {

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

} // namespace detail

template <class T, class D>
template <class I>
Tensor<T, D> Tensor<T, D>::gather(int64_t dim, const Tensor<I, D>& idx) const {
    detail::require_cpu<D>();
    detail::check_long("gather", idx);
    Tensor r;
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "gather");
        detail::check_gather_shape("gather", "source", *this, idx, dim);
        // A fresh result: indices are checked on the fly (no separate pass).
        r.resize(idx.sizes());
        detail::gather_into("gather", r, data(), detail::with_entry(strides_, dim, 0),
                            strides_[dim], idx, idx.strides(), dim, sizes_[dim], false);
    }
    return r;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::gather(const Tensor& src_in, int64_t dim, const Tensor<I, D>& idx_in) {
    detail::require_cpu<D>();
    detail::check_long("gather", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        Tensor src = src_in;
        Tensor<int64_t, D> idx = idx_in;
        dim = src.wrap_dim(dim, "gather");
        detail::check_gather_shape("gather", "source", src, idx, dim);
        if (this->dim() != 0 && !(sizes_ == idx.sizes()))
            detail::fail<ShapeError>("gather: result of size ", sizes_,
                                     " does not match the index size ", idx.sizes());
        detail::check_range("gather", idx, src.size(dim), dim);
        resize(idx.sizes());
        src.set(detail::unaliased(src, *this));
        idx.set(detail::unaliased(idx, *this));
        detail::gather_into("gather", *this, src.data(), detail::with_entry(src.strides(), dim, 0),
                            src.stride(dim), idx, idx.strides(), dim, src.size(dim), true);
    }
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::scatter(int64_t dim, const Tensor<I, D>& idx_in, const Tensor& src_in) {
    detail::require_cpu<D>();
    detail::check_long("scatter", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "scatter");
        detail::check_gather_shape("scatter", "destination", *this, idx_in, dim);
        if (!(src_in.sizes() == idx_in.sizes()))
            detail::fail<ShapeError>("scatter: source of size ", src_in.sizes(),
                                     " does not match the index size ", idx_in.sizes());
        detail::check_range("scatter", idx_in, sizes_[dim], dim);
        const Tensor src = detail::unaliased(src_in, *this);
        const Tensor<int64_t, D> idx = detail::unaliased(idx_in, *this);
        detail::scatter_into<detail::ScatterKind::copy>(*this, detail::with_entry(strides_, dim, 0),
                                                        strides_[dim], src.data(), src.strides(),
                                                        idx, idx.strides(), idx.sizes(), T{});
    }
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::scatter(int64_t dim, const Tensor<I, D>& idx_in, T v) {
    detail::require_cpu<D>();
    detail::check_long("scatter", idx_in);
    if constexpr (std::is_same_v<I, int64_t>) {
        dim = wrap_dim(dim, "scatter");
        detail::check_gather_shape("scatter", "destination", *this, idx_in, dim);
        detail::check_range("scatter", idx_in, sizes_[dim], dim);
        const Tensor<int64_t, D> idx = detail::unaliased(idx_in, *this);
        detail::scatter_into<detail::ScatterKind::fill>(
            *this, detail::with_entry(strides_, dim, 0), strides_[dim],
            static_cast<const T*>(nullptr), Shape(idx.sizes().size(), 0), idx, idx.strides(),
            idx.sizes(), v);
    }
    return *this;
}

// torch.gather(x, dim, idx)
template <class T, class D, class I>
Tensor<T, D> gather(const Tensor<T, D>& x, int64_t dim, const Tensor<I, D>& idx) {
    return x.gather(dim, idx);
}

} // namespace t7
