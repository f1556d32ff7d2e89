// Matrix structure: diag, tril, triu, trace, cross. Built from views and fused
// expressions, so they run wherever the expression engine runs.
#pragma once

#include "../core/error.hpp"
#include "../expr/operators.hpp"
#include "../expr/reductions.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/views.hpp"
#include "factories.hpp"

#include <cstdint>
#include <limits>

namespace t7 {

namespace detail {
// The k-th diagonal of a 2-D tensor as a view (k > 0 above the main one).
template <class T, class D>
Tensor<T, D> diagonal_view(const Tensor<T, D>& x, int64_t k, const char* op) {
    const int64_t rows = x.size(0), cols = x.size(1);
    const int64_t len = k >= 0 ? std::min(rows, cols - k) : std::min(rows + k, cols);
    if (len < 1)
        fail<IndexError>(op, ": diagonal ", k, " out of range for a matrix of size ", x.sizes());
    const int64_t off = x.storageOffset() + (k >= 0 ? k * x.stride(1) : -k * x.stride(0));
    return Tensor<T, D>(x.storage(), off, Shape{len}, Shape{x.stride(0) + x.stride(1)});
}

template <class T, class D>
void require_matrix(const Tensor<T, D>& x, const char* op) {
    if (x.dim() != 2)
        fail<ShapeError>(op, ": expected a 2-D matrix, got ", x.dim(), "-D of size ", x.sizes());
}

// The lower (tril) or upper (triu) part with respect to diagonal k; the rest zero.
template <bool Lower, class T, class D>
Tensor<T, D> triangle(const Tensor<T, D>& x, int64_t k, const char* op) {
    require_matrix(x, op);
    const Tensor<int64_t, D> rows = range<int64_t, D>(0, double(x.size(0) - 1)).view(x.size(0), 1);
    const Tensor<int64_t, D> cols = range<int64_t, D>(0, double(x.size(1) - 1)).view(1, x.size(1));
    if constexpr (Lower)
        return t7::eval(t7::where(cols - rows <= k, x, T(0)));
    else
        return t7::eval(t7::where(cols - rows >= k, x, T(0)));
}
} // namespace detail

// 1-D x: a square matrix with x on diagonal k (k > 0 above the main diagonal).
// 2-D x: a copy of its diagonal k, 1-D.
template <class T, class D>
Tensor<T, D> diag(const Tensor<T, D>& x, int64_t k = 0) {
    if (x.dim() == 1) {
        const int64_t n = x.size(0) + (k < 0 ? -k : k);
        Tensor<T, D> r = zeros<T, D>(n, n);
        detail::diagonal_view(r, k, "diag") = x;
        return r;
    }
    if (x.dim() == 2) return detail::diagonal_view(x, k, "diag").clone();
    detail::fail<ShapeError>("diag: expected a 1-D or 2-D tensor, got ", x.dim(), "-D of size ",
                             x.sizes());
}

// Lower triangle (on and below diagonal k) of a matrix; zeros elsewhere.
template <class T, class D>
Tensor<T, D> tril(const Tensor<T, D>& x, int64_t k = 0) {
    return detail::triangle<true>(x, k, "tril");
}
// Upper triangle (on and above diagonal k) of a matrix; zeros elsewhere.
template <class T, class D>
Tensor<T, D> triu(const Tensor<T, D>& x, int64_t k = 0) {
    return detail::triangle<false>(x, k, "triu");
}

// Sum of the main diagonal of a matrix (any shape; int64 for integer types).
template <class T, class D>
auto trace(const Tensor<T, D>& x) {
    detail::require_matrix(x, "trace");
    return t7::sum(detail::diagonal_view(x, 0, "trace"));
}

// Cross product of 3-vectors laid along dimension dim of two tensors of equal size.
template <class T, class D>
Tensor<T, D> cross(const Tensor<T, D>& a, const Tensor<T, D>& b, int64_t dim) {
    if (!(a.sizes() == b.sizes()) || a.dim() == 0)
        detail::fail<ShapeError>("cross: inconsistent tensor sizes ", a.sizes(), " and ",
                                 b.sizes());
    const int64_t d = a.wrap_dim(dim, "cross");
    if (a.size(d) != 3)
        detail::fail<ShapeError>("cross: dimension ", dim, " of size ", a.sizes(), " has size ",
                                 a.size(d), ", not 3");
    Tensor<T, D> r(a.sizes());
    auto A = [&](int64_t i) { return a.narrow(d, i, 1); };
    auto B = [&](int64_t i) { return b.narrow(d, i, 1); };
    r.narrow(d, 0, 1) = A(1) * B(2) - A(2) * B(1);
    r.narrow(d, 1, 1) = A(2) * B(0) - A(0) * B(2);
    r.narrow(d, 2, 1) = A(0) * B(1) - A(1) * B(0);
    return r;
}
// Along the first dimension of size 3 (Torch7's default).
template <class T, class D>
Tensor<T, D> cross(const Tensor<T, D>& a, const Tensor<T, D>& b) {
    for (int64_t d = 0; d < a.dim(); ++d)
        if (a.size(d) == 3) return cross(a, b, d);
    detail::fail<ShapeError>("cross: no dimension of size 3 in a tensor of size ", a.sizes());
}

} // namespace t7
