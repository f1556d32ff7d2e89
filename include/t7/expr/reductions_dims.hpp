// Reductions over several dimensions: t7::sum(x, {1, 2}) and likewise prod,
// mean, max, min (values only), norm, var, std, any, all, keeping every
// reduced dimension with size 1 (as the one-dimension forms do); the into
// forms t7::sum(out, x, {1, 2}) and the rest write an existing result.
//
// They reuse the one-dimension reductions: the reduced dimensions, ordered by
// decreasing stride, become one last dimension - a view when their strides
// chain (any set of dimensions of a contiguous tensor that are adjacent in
// memory order: {1, 2} of a 3-D tensor, every dimension of a transposed
// one), else a contiguous copy of the input permuted so that they are last.
// An expression is evaluated once first.
#pragma once

#include "reductions.hpp"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <vector>

namespace t7 {

namespace detail {

// x viewed (or copied) as [kept dims in order..., every reduced element], and
// the result's shape: x's sizes with the reduced dims 1.
template <class T, class D>
struct MergedDims {
    Tensor<T, D> flat;
    Shape keep;                // x's sizes, the reduced ones 1 (keepdim)
    Shape dropped;             // x's sizes without the reduced ones ({1} if none is left)
    std::vector<char> reduced; // per dimension of x
    int64_t last = 0;          // flat's last dimension
    const Shape& result(bool keepdim) const { return keepdim ? keep : dropped; }
};

template <class T, class D>
MergedDims<T, D> merge_dims(const Tensor<T, D>& x, std::initializer_list<int64_t> dims,
                            const char* op) {
    if (x.dim() == 0) fail<ShapeError>(op, ": the tensor is empty");
    const int64_t n = x.dim();
    if (dims.size() == 0) fail<IndexError>(op, ": no dimension to reduce");
    MergedDims<T, D> m;
    m.reduced.assign(size_t(n), 0);
    std::vector<char>& reduced = m.reduced;
    std::vector<int64_t> rd; // the reduced dims, wrapped
    for (int64_t d : dims) {
        const int64_t w = d < 0 ? d + n : d;
        if (w < 0 || w >= n)
            fail<IndexError>(op, ": dimension ", d, " out of range for a ", n, "-D input of size ",
                             x.sizes());
        if (reduced[size_t(w)])
            fail<IndexError>(op, ": dimension ", d, " is given twice (", n, "-D input)");
        reduced[size_t(w)] = 1;
        if (x.size(w) != 1) rd.push_back(w); // a size-1 dimension adds nothing
    }
    m.keep = x.sizes();
    Shape sz, st;
    int64_t count = 1;
    for (int64_t d = 0; d < n; ++d) {
        if (reduced[size_t(d)]) {
            m.keep[size_t(d)] = 1;
            count *= x.size(d);
        } else {
            sz.push_back(x.size(d));
            st.push_back(x.stride(d));
        }
    }
    m.dropped = sz.empty() ? Shape{1} : sz;
    // Memory order (decreasing |stride|, a reversed dimension being one too;
    // ties keep dimension order): the order in which the reduced dims chain if
    // they can, into one dimension of a view.
    std::stable_sort(rd.begin(), rd.end(), [&](int64_t a, int64_t b) {
        return std::abs(x.stride(a)) > std::abs(x.stride(b));
    });
    bool chained = true;
    for (size_t k = 0; k + 1 < rd.size(); ++k)
        chained = chained && x.stride(rd[k]) == x.size(rd[k + 1]) * x.stride(rd[k + 1]);
    m.last = int64_t(sz.size());
    Shape perm; // the kept dims in order, then the reduced ones (in memory order if chained)
    for (int64_t d = 0; d < n; ++d)
        if (!reduced[size_t(d)]) perm.push_back(d);
    for (int64_t d = 0; d < n; ++d)
        if (reduced[size_t(d)] && x.size(d) == 1) perm.push_back(d);
    if (chained)
        for (int64_t d : rd) perm.push_back(d);
    else
        for (int64_t d = 0; d < n; ++d)
            if (reduced[size_t(d)] && x.size(d) != 1) perm.push_back(d);
    sz.push_back(count);
    m.flat.set(chained ? x.permute(perm).view(sz) : x.permute(perm).contiguous().view(sz));
    return m;
}

// The input as a tensor: itself, or an expression or a selection (x[mask])
// evaluated once.
template <ExpressionOrSelection E>
decltype(auto) reduction_input(const E& e) {
    if constexpr (is_tensor_v<E>)
        return (e);
    else if constexpr (Selection<E>)
        return e.eval();
    else
        return t7::eval(e);
}

// A view of out (resized to m.keep) as [kept dims..., 1]: the one-dimension
// into forms write it in place.
template <class U, class D, class T>
Tensor<U, D> kept_view(Tensor<U, D>& out, const MergedDims<T, D>& m, bool keepdim) {
    resize_result(out, m.result(keepdim));
    Shape sz, st;
    for (int64_t d = 0, k = 0; d < out.dim() && k < m.last; ++d)
        if (!keepdim || !m.reduced[size_t(d)]) { // out's dims are the kept ones, in order
            sz.push_back(out.size(d));
            st.push_back(out.stride(d));
            ++k;
        }
    sz.push_back(1);
    st.push_back(1);
    return Tensor<U, D>(out.storage(), out.storageOffset(), sz, st);
}

// out = f's reduction into a [kept..., 1] view of out; through a temporary
// when out shares the input's storage (resizing out must not change what is read).
template <class T, class D, class In, class F>
Tensor<T, D>& reduce_dims_into(Tensor<T, D>& out, const MergedDims<In, D>& m, bool keepdim, F&& f) {
    if (out.storage().valid() && m.flat.storage().id() == out.storage().id()) {
        Tensor<T, D> tmp;
        Tensor<T, D> o = kept_view(tmp, m, keepdim);
        f(o);
        resize_result(out, m.result(keepdim));
        out.copy(tmp);
        return out;
    }
    Tensor<T, D> o = kept_view(out, m, keepdim);
    f(o);
    return out;
}

} // namespace detail

// ---- over several dimensions ------------------------------------------------------------
// dims: distinct dimensions (negatives count from the end); a repeated or
// out-of-range one is an IndexError, as is an empty list. keepdim (Torch7's
// rule, the default) keeps each reduced dimension with size 1; false drops
// them (NumPy's default), leaving a 1-D tensor of one element if none is left.

template <ExpressionOrSelection E>
auto sum(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "sum");
    return t7::sum(m.flat, m.last).view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto prod(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "prod");
    return t7::prod(m.flat, m.last).view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto mean(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "mean");
    return t7::mean(m.flat, m.last).view(m.result(keepdim));
}
// Values only (the positions of a maximum over several dimensions are not
// one index).
template <ExpressionOrSelection E>
auto max(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "max");
    return t7::max(m.flat, m.last).values.view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto min(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "min");
    return t7::min(m.flat, m.last).values.view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto norm(const E& e, double p, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "norm");
    return t7::norm(m.flat, p, m.last).view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto var(const E& e, std::initializer_list<int64_t> dims, bool biased = false,
         bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "var");
    return t7::var(m.flat, m.last, biased).view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto std(const E& e, std::initializer_list<int64_t> dims, bool biased = false,
         bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "std");
    return t7::std(m.flat, m.last, biased).view(m.result(keepdim));
}
template <ExpressionOrSelection E>
auto any(const E& e, std::initializer_list<int64_t> dims, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "any");
    return t7::any(m.flat, m.last).view(m.result(keepdim));
}
template <Expression E>
auto all_t::operator()(const E& e, std::initializer_list<int64_t> dims, bool keepdim) const {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "all");
    return (*this)(m.flat, m.last).view(m.result(keepdim));
}

// ---- into an existing result (resized to the kept shape if it has another) ------------

template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& sum(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                  bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "sum");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::sum(o, m.flat, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& prod(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                   bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "prod");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::prod(o, m.flat, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& mean(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                   bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "mean");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::mean(o, m.flat, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& max(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                  bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "max");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::max(o, m.flat, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& min(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                  bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "min");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::min(o, m.flat, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& norm(Tensor<T, D>& out, const E& e, double p, std::initializer_list<int64_t> dims,
                   bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "norm");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::norm(o, m.flat, p, m.last); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& var(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                  bool biased = false, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "var");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::var(o, m.flat, m.last, biased); });
}
template <class T, class D, ExpressionOrSelection E>
Tensor<T, D>& std(Tensor<T, D>& out, const E& e, std::initializer_list<int64_t> dims,
                  bool biased = false, bool keepdim = true) {
    const auto m = detail::merge_dims(detail::reduction_input(e), dims, "std");
    return detail::reduce_dims_into(out, m, keepdim,
                                    [&](Tensor<T, D>& o) { t7::std(o, m.flat, m.last, biased); });
}

} // namespace t7
