// View operations: each computes a new (offset, sizes, strides) over the same
// storage. Nothing here touches element memory.
#pragma once

#include "tensor.hpp"

#include <algorithm>
#include <vector>

namespace t7 {

template <class T, class D>
Tensor<T, D> Tensor<T, D>::narrow(int64_t d, int64_t start, int64_t length) const {
    d = wrap_dim(d, "narrow");
    // An empty window (length 0) may start anywhere up to the end (NumPy's x[n:n]).
    if (start < 0 || start > sizes_[d] || (start == sizes_[d] && length != 0))
        detail::fail<IndexError>("narrow: index ", start, " out of range for dimension ", d,
                                 " of size ", sizes_[d]);
    if (length < 0 || length > sizes_[d] - start)
        detail::fail<IndexError>("narrow: length ", length, " from index ", start,
                                 " out of range for dimension ", d, " of size ", sizes_[d]);
    Shape sz = sizes_;
    sz[d] = length;
    return with(length == 0 ? offset_ : offset_ + start * strides_[d], std::move(sz), strides_);
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::select(int64_t d, int64_t index) const {
    if (dim() < 2)
        detail::fail<ShapeError>("select: needs a tensor of at least 2 dimensions, got ", dim(),
                                 "-D of size ", sizes_, " (use x(i) for an element)");
    d = wrap_dim(d, "select");
    if (index < 0 || index >= sizes_[d])
        detail::fail<IndexError>("select: index ", index, " out of range for dimension ", d,
                                 " of size ", sizes_[d]);
    Shape sz = sizes_, st = strides_;
    sz.erase(size_t(d));
    st.erase(size_t(d));
    return with(offset_ + index * strides_[d], std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::operator[](int64_t index) const {
    // Torch7's x[-1] is the last row; out of range, the error names the index given.
    const int64_t i = dim() >= 1 && index < 0 ? index + sizes_[0] : index;
    if (dim() >= 2 && i < 0)
        detail::fail<IndexError>("select: index ", index, " out of range for dimension 0 of size ",
                                 sizes_[0]);
    return select(0, i);
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::sub_impl(const Shape& b) const {
    if (b.size() % 2 != 0 || int64_t(b.size()) > 2 * dim())
        detail::fail<IndexError>("sub: expected pairs of (start, end) for at most ", dim(),
                                 " dimensions, got ", b.size(), " bounds");
    Tensor r = *this;
    for (size_t d = 0; d < b.size() / 2; ++d) {
        int64_t n = sizes_[d];
        int64_t s = b[2 * d] < 0 ? b[2 * d] + n : b[2 * d];
        int64_t e = b[2 * d + 1] < 0 ? b[2 * d + 1] + n : b[2 * d + 1];
        if (s < 0 || e >= n || s > e)
            detail::fail<IndexError>("sub: range [", b[2 * d], ", ", b[2 * d + 1],
                                     "] out of range for dimension ", d, " of size ", n);
        r.set(r.narrow(int64_t(d), s, e - s + 1)); // rebind: `r = ...` would copy values
    }
    return r;
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::transpose(int64_t d0, int64_t d1) const {
    d0 = wrap_dim(d0, "transpose");
    d1 = wrap_dim(d1, "transpose");
    Shape sz = sizes_, st = strides_;
    std::swap(sz[d0], sz[d1]);
    std::swap(st[d0], st[d1]);
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::t() const {
    if (dim() != 2)
        detail::fail<ShapeError>("t: tensor must have 2 dimensions, got ", dim(), "-D of size ",
                                 sizes_);
    return transpose(0, 1);
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::permute(const Shape& dims) const {
    if (int64_t(dims.size()) != dim())
        detail::fail<ShapeError>("permute: got ", dims.size(), " dimensions for a ", dim(),
                                 "-D tensor");
    Shape sz(dims.size()), st(dims.size());
    std::vector<bool> seen(dims.size(), false);
    for (size_t i = 0; i < dims.size(); ++i) {
        int64_t d = wrap_dim(dims[i], "permute");
        if (seen[size_t(d)]) detail::fail<ShapeError>("permute: dimension ", d, " repeated");
        seen[size_t(d)] = true;
        sz[i] = sizes_[d];
        st[i] = strides_[d];
    }
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::unfold(int64_t d, int64_t size, int64_t step) const {
    d = wrap_dim(d, "unfold");
    if (size < 1 || size > sizes_[d])
        detail::fail<IndexError>("unfold: size ", size, " out of range for dimension ", d,
                                 " of size ", sizes_[d]);
    if (step < 1) detail::fail<IndexError>("unfold: step ", step, " must be positive");
    Shape sz = sizes_, st = strides_;
    sz[d] = (sizes_[d] - size) / step + 1;
    st[d] = strides_[d] * step;
    sz.push_back(size);
    st.push_back(strides_[d]);
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::view(const Shape& req) const {
    // Resolve one -1 from the element count.
    Shape want = req;
    int64_t known = 1, infer = -1, n = nElement();
    for (size_t i = 0; i < want.size(); ++i) {
        if (want[i] == -1) {
            if (infer >= 0) detail::fail<ShapeError>("view: only one -1 allowed in ", req);
            infer = int64_t(i);
        } else if (want[i] < 0) {
            detail::fail<ShapeError>("view: invalid size ", want[i], " in ", req);
        } else if (__builtin_mul_overflow(known, want[i], &known)) {
            detail::fail<ShapeError>("view: size ", req, " does not match the ", n,
                                     " elements of a tensor of size ", sizes_);
        }
    }
    if (infer >= 0) {
        if (known == 0 || n % known != 0)
            detail::fail<ShapeError>("view: cannot view ", n, " elements of size ", sizes_, " as ",
                                     req);
        want[size_t(infer)] = n / known;
    }
    if ((infer < 0 && known != n) || (want.empty() && n != 0))
        detail::fail<ShapeError>("view: size ", req, " does not match the ", n,
                                 " elements of a tensor of size ", sizes_);
    if (want.empty()) return *this;
    // No element to place: any sizes of no elements view it, contiguously.
    if (n == 0) return with(offset_, want, contiguous_strides(want));

    // Group the old dims into contiguous chunks; each chunk must map onto a run of
    // new dims with the same element count (PyTorch's computeStride).
    Shape st(want.size());
    int64_t view_d = int64_t(want.size()) - 1;
    int64_t chunk_stride = strides_.back();
    int64_t tensor_numel = 1, view_numel = 1;
    for (int64_t d = dim() - 1; d >= 0; --d) {
        tensor_numel *= sizes_[d];
        if (d == 0 || (sizes_[d - 1] != 1 && strides_[d - 1] != tensor_numel * chunk_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || want[size_t(view_d)] == 1)) {
                st[size_t(view_d)] = view_numel * chunk_stride;
                view_numel *= want[size_t(view_d)];
                --view_d;
            }
            if (view_numel != tensor_numel)
                detail::fail<ShapeError>("view: a tensor of size ", sizes_, " and stride ",
                                         strides_, " cannot be viewed as ", want,
                                         " (call contiguous() first)");
            if (d > 0) {
                chunk_stride = strides_[d - 1];
                tensor_numel = view_numel = 1;
            }
        }
    }
    if (view_d != -1)
        detail::fail<ShapeError>("view: a tensor of size ", sizes_, " cannot be viewed as ", want);
    return with(offset_, std::move(want), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::expand(const Shape& req) const {
    if (int64_t(req.size()) != dim())
        detail::fail<ShapeError>("expand: got ", req.size(), " sizes (", req, ") for a ", dim(),
                                 "-D tensor of size ", sizes_);
    Shape sz = sizes_, st = strides_;
    for (size_t d = 0; d < req.size(); ++d) {
        if (req[d] == sizes_[d] || req[d] == -1) continue;
        if (sizes_[d] != 1 || req[d] < 0)
            detail::fail<ShapeError>("expand: cannot expand size ", sizes_, " to ", req,
                                     ": dimension ", d, " has size ", sizes_[d],
                                     " (only size-1 dimensions expand)");
        sz[d] = req[d];
        st[d] = 0;
    }
    detail::checked_numel(sz, "expand");
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::flip(const Shape& dims) const {
    Shape st = strides_;
    int64_t off = offset_;
    for (size_t i = 0; i < dims.size(); ++i) { // a handful of dimensions: pairs
        const int64_t d = wrap_dim(dims[i], "flip");
        for (size_t j = 0; j < i; ++j)
            if (wrap_dim(dims[j], "flip") == d)
                detail::fail<IndexError>("flip: dimension ", dims[i], " repeated in ", dims);
    }
    for (size_t i = 0; i < dims.size(); ++i) {
        const size_t d = size_t(wrap_dim(dims[i], "flip"));
        if (sizes_[d] == 0) continue;         // nothing to walk
        off += (sizes_[d] - 1) * strides_[d]; // the last element comes first
        st[d] = -strides_[d];
    }
    return with(off, sizes_, std::move(st));
}

// t7::flip(x, {0}): x.flip({0}).
template <class T, class D>
Tensor<T, D> flip(const Tensor<T, D>& x, const Shape& dims) {
    return x.flip(dims);
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::squeeze() const {
    Shape sz, st;
    for (size_t d = 0; d < sizes_.size(); ++d) {
        if (sizes_[d] == 1) continue;
        sz.push_back(sizes_[d]);
        st.push_back(strides_[d]);
    }
    if (sz.empty() && dim() > 0) { // all singleton: keep one dimension of size 1
        sz.push_back(1);
        st.push_back(1);
    }
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::squeeze(int64_t d) const {
    d = wrap_dim(d, "squeeze");
    if (sizes_[d] != 1 || dim() == 1) return *this;
    Shape sz = sizes_, st = strides_;
    sz.erase(size_t(d));
    st.erase(size_t(d));
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::unsqueeze(int64_t d) const {
    if (dim() == 0) detail::fail<ShapeError>("unsqueeze: tensor is empty");
    d = wrap_dim(d, "unsqueeze", 1);
    Shape sz = sizes_, st = strides_;
    // Any stride serves a size-1 dimension; this one keeps the layout contiguous.
    int64_t stride = 1;
    if (d < dim() && __builtin_mul_overflow(sizes_[d], strides_[d], &stride)) stride = 1;
    sz.insert(size_t(d), 1);
    st.insert(size_t(d), stride);
    return with(offset_, std::move(sz), std::move(st));
}

template <class T, class D>
Tensor<T, D> Tensor<T, D>::diagonal(int64_t offset, int64_t d1, int64_t d2) const {
    if (dim() < 2)
        detail::fail<ShapeError>("diagonal: needs 2 or more dimensions, got a ", dim(),
                                 "-D tensor of size ", sizes_);
    const int64_t a = wrap_dim(d1, "diagonal"), b = wrap_dim(d2, "diagonal");
    if (a == b) detail::fail<IndexError>("diagonal: dimensions ", d1, " and ", d2, " are the same");
    // Elements (i, i + offset) of (a, b): offset >= 0 starts at column offset,
    // offset < 0 at row -offset; how many fit (none when |offset| passes the edge).
    int64_t n = 0, off = offset_;
    if (offset >= 0) {
        if (offset < sizes_[b]) {
            n = std::min(sizes_[a], sizes_[b] - offset);
            off += offset * strides_[b];
        }
    } else if (offset > -sizes_[a]) { // -offset < sizes_[a], without negating INT64_MIN
        n = std::min(sizes_[a] + offset, sizes_[b]);
        off -= offset * strides_[a];
    }
    if (n <= 0) return with(offset_, Shape{}, Shape{});
    Shape sz, st;
    for (int64_t d = 0; d < dim(); ++d)
        if (d != a && d != b) {
            sz.push_back(sizes_[d]);
            st.push_back(strides_[d]);
        }
    // The sum fits when n > 1 (the extent bounds it); for n == 1 (size-1
    // dimensions, whose strides a DLPack producer may set anywhere) it is unused.
    int64_t step;
    if (__builtin_add_overflow(strides_[a], strides_[b], &step)) step = 1;
    sz.push_back(n);
    st.push_back(step);
    return with(off, std::move(sz), std::move(st));
}

template <class T, class D>
std::vector<Tensor<T, D>> Tensor<T, D>::split(int64_t size, int64_t d) const {
    d = wrap_dim(d, "split");
    if (size < 1) detail::fail<ShapeError>("split: size ", size, " must be positive");
    std::vector<Tensor> parts;
    for (int64_t start = 0; start < sizes_[d];) {
        const int64_t len = std::min(size, sizes_[d] - start); // start + size may overflow
        parts.push_back(narrow(d, start, len));
        start += len;
    }
    return parts;
}

template <class T, class D>
std::vector<Tensor<T, D>> Tensor<T, D>::chunk(int64_t n, int64_t d) const {
    d = wrap_dim(d, "chunk");
    if (n < 1) detail::fail<ShapeError>("chunk: number of chunks ", n, " must be positive");
    return split(sizes_[d] / n + (sizes_[d] % n != 0), d); // ceil without overflow
}

} // namespace t7
