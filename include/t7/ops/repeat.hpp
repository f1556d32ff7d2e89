// repeatTensor: Torch7's x:repeatTensor(sizes) tiles x `sizes[d]` times along each
// dimension. sizes may have more entries than x has dimensions (x is then
// treated as having leading dimensions of size 1), never fewer.
//
//   y = x.repeatTensor(3, 2)          y = x.repeatTensor(Shape{3, 2})
//   y.repeatTensor(x, Shape{3, 2})    into y (resized as Torch7 does)
//
// One assignment through the expression engine: the result is viewed as
// (r0, s0, r1, s1, ...) and x, with stride 0 over the r's, is assigned to it.
#pragma once

#include "common.hpp"

namespace t7 {

namespace detail {
inline Shape repeat_shape(const Shape& src, const Shape& reps) {
    if (src.empty()) fail<ShapeError>("repeatTensor: the tensor is empty");
    if (reps.size() < src.size())
        fail<ShapeError>("repeatTensor: ", reps.size(), " repetition counts (", reps, ") for a ",
                         src.size(), "-D tensor of size ", src,
                         ": need at least one per dimension");
    Shape out(reps.size());
    const size_t lead = reps.size() - src.size();
    for (size_t d = 0; d < reps.size(); ++d) {
        if (reps[d] < 0) // 0: an empty dimension (NumPy's tile)
            fail<ShapeError>("repeatTensor: repetition count ", reps[d], " at position ", d,
                             " must not be negative (counts ", reps, ")");
        out[d] = mul_size(reps[d], d < lead ? 1 : src[d - lead], "repeatTensor", "repeating size ",
                          src, " by ", reps);
    }
    checked_numel(out, "repeatTensor");
    return out;
}
} // namespace detail

template <class T, class D>
Tensor<T, D> Tensor<T, D>::repeatTensor(const Shape& reps) const {
    Tensor r;
    r.repeatTensor(*this, reps);
    return r;
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::repeatTensor(const Tensor& src_in, const Shape& reps) {
    Tensor src = src_in; // a handle taken before *this (maybe src itself) is resized
    const Shape shape = detail::repeat_shape(src.sizes(), reps);
    detail::check_result("repeatTensor", *this, shape);
    resize(shape);
    src.set(detail::unaliased(src, *this));
    const size_t r = reps.size(), lead = r - size_t(src.dim());
    // Destination as (rep_d, size_d) pairs; source broadcast (stride 0) over rep_d.
    Shape dsz, dst, ssz, sst;
    for (size_t d = 0; d < r; ++d) {
        const int64_t n = d < lead ? 1 : src.sizes_[d - lead];
        const int64_t s = d < lead ? 0 : src.strides_[d - lead];
        dsz.push_back(reps[d]);
        dsz.push_back(n);
        dst.push_back(n * strides_[d]);
        dst.push_back(strides_[d]);
        ssz.push_back(1);
        ssz.push_back(n);
        sst.push_back(0);
        sst.push_back(s);
    }
    const Tensor out = with(offset_, std::move(dsz), std::move(dst));
    const Tensor in = src.with(src.offset_, std::move(ssz), std::move(sst));
    Evaluator<D>::run_assign(out, as_node(in));
    return *this;
}

// torch.repeatTensor(x, sizes...)
template <class T, class D>
Tensor<T, D> repeatTensor(const Tensor<T, D>& x, const Shape& reps) {
    return x.repeatTensor(reps);
}
template <class T, class D, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> repeatTensor(const Tensor<T, D>& x, I... reps) {
    return x.repeatTensor(Shape{int64_t(reps)...});
}

} // namespace t7
