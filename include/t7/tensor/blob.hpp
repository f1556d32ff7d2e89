// Tensors over memory from outside the library: t7::fromBlob views the
// caller's memory without copying (ownsStorage() false), t7::fromVector copies a
// std::vector. (The reverse directions are x.toVector() and x.begin()/end();
// Eigen matrices: ops/eigen.hpp.)
#pragma once

#include "../core/error.hpp"
#include "../core/size_math.hpp"
#include "../core/storage.hpp"
#include "tensor.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace t7 {

namespace detail {
template <class P>
concept ConstPointer = std::is_pointer_v<P> && std::is_const_v<std::remove_pointer_t<P>>;
} // namespace detail

// A CPU tensor viewing `sizes` elements of the caller's memory at `ptr`, laid out
// by `strides` (in elements; empty: contiguous, row-major). Nothing is copied:
// writes through the tensor change the memory and the tensor sees the caller's
// writes. The memory is not owned (ownsStorage() false, never freed or resized):
// it must outlive the tensor and every view, copy of the handle or lazy expression
// made from it. Empty sizes, or a size 0, give an empty tensor. ShapeError for
// negative sizes or strides, mismatched ranks, or a layout whose element count or
// extent overflows int64; Error for a null pointer with elements.
template <Element T>
Tensor<T> fromBlob(T* ptr, const Shape& sizes, const Shape& strides = {}) {
    if (!strides.empty() && strides.size() != sizes.size())
        detail::fail<ShapeError>("fromBlob: ", sizes.size(), " sizes (", sizes, ") but ",
                                 strides.size(), " strides (", strides, ")");
    for (int64_t st : strides)
        if (st < 0) detail::fail<ShapeError>("fromBlob: negative stride ", st, " in ", strides);
    const int64_t n = detail::checked_numel(sizes, "fromBlob"); // negative sizes, overflow
    if (sizes.empty() || n == 0) return Tensor<T>(Storage<T>::wrap(ptr, 0), 0);
    if (!ptr) detail::fail<Error>("fromBlob: null pointer for size ", sizes);
    const Shape st = strides.empty() ? contiguous_strides(sizes) : strides;
    const int64_t extent = detail::checked_extent(sizes, st, "fromBlob");
    return Tensor<T>(Storage<T>::wrap(ptr, extent), 0, sizes, st);
}

// Const memory is a compile error: tensors are writable views (there is no
// read-only tensor). Copy it (fromVector), or const_cast when nothing writes.
template <detail::ConstPointer P>
auto fromBlob(P ptr, const Shape& sizes, const Shape& strides = {}) {
    static_assert(sizeof(P) == 0, "t7::fromBlob: the memory is const and tensors are writable "
                                  "views: pass a T* (or copy the data with t7::fromVector)");
    return fromBlob(const_cast<std::remove_const_t<std::remove_pointer_t<P>>*>(ptr), sizes,
                    strides);
}

// A new contiguous tensor holding a copy of v's elements, 1-D of v.size() when
// no sizes are given. ShapeError when `sizes` holds another element count.
template <Element T>
Tensor<T> fromVector(const std::vector<T>& v, const Shape& sizes = {}) {
    const Shape sz = sizes.empty() ? Shape{int64_t(v.size())} : sizes;
    const int64_t n = detail::checked_numel(sz, "fromVector");
    if (n != int64_t(v.size()))
        detail::fail<ShapeError>("fromVector: size ", sz, " has ", n,
                                 " elements but the vector has ", v.size());
    if (n == 0) return Tensor<T>();
    Tensor<T> r(sz);
    std::copy(v.begin(), v.end(), r.data());
    return r;
}

} // namespace t7
