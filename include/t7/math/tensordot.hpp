// NumPy's outer and tensordot.
//
//   t7::outer(u, v)            u[i] * v[j] as a lazy expression (u as a column
//                              times v as a row: broadcast, fused on assignment)
//   t7::tensordot(a, b, k)     the last k dims of a contracted with the first k of b
//   t7::tensordot(a, b, {{1, 0}, {0, 1}})
//                              a's listed dims with b's, pairwise
//
// tensordot is one matrix product (t7::mm): a's free dims, then its contracted
// ones, viewed as an M x K matrix, b's contracted then free dims as K x N. A
// group of dims becomes one matrix dimension without a copy when its strides
// chain (contiguous operands, their transposes, the usual cases); otherwise
// that operand is copied once. The result has a's free sizes then b's ([1]
// when none is left: Torch7 has no 0-D tensors).
#pragma once

#include "blas.hpp"

#include <initializer_list>
#include <utility>
#include <vector>

namespace t7 {

namespace detail {

// A tensor operand of outer/tensordot: itself, or an expression evaluated once.
template <ExpressionOrSelection E>
auto operand_tensor(const E& e) {
    if constexpr (is_tensor_v<E>)
        return e;
    else
        return t7::eval(e);
}

// t permuted by `perm`, viewed as rows x cols (the first `split` dims of the
// permuted tensor make the rows): a view when each group's strides chain,
// else a contiguous copy.
template <class T, class D>
Tensor<T, D> as_matrix(const Tensor<T, D>& t, const Shape& perm, size_t split) {
    int64_t rows = 1, cols = 1;
    for (size_t k = 0; k < perm.size(); ++k) (k < split ? rows : cols) *= t.size(perm[k]);
    // stride of a chained group (its last non-1 dim), or 0 when it does not chain
    auto group = [&](size_t b, size_t e, bool& ok) {
        int64_t stride = 1, prev = -1;
        for (size_t k = b; k < e; ++k) {
            const int64_t d = perm[k];
            if (t.size(d) == 1) continue;
            if (prev >= 0 && t.stride(prev) != t.size(d) * t.stride(d)) ok = false;
            prev = d;
            stride = t.stride(d);
        }
        return stride;
    };
    bool ok = true;
    const int64_t rs = group(0, split, ok), cs = group(split, perm.size(), ok);
    if (ok) return Tensor<T, D>(t.storage(), t.storageOffset(), Shape{rows, cols}, Shape{rs, cs});
    return t.permute(perm).contiguous().view(rows, cols);
}

template <class T, class D, class DB>
Tensor<T, D> tensordot_impl(const Tensor<T, D>& a, const Tensor<T, DB>& b,
                            const std::vector<int64_t>& da_in, const std::vector<int64_t>& db_in) {
    if (a.dim() == 0 || b.dim() == 0) fail<ShapeError>("tensordot: an operand is empty");
    if (da_in.size() != db_in.size())
        fail<ShapeError>("tensordot: ", da_in.size(), " dimensions of a but ", db_in.size(),
                         " of b to contract");
    auto wrap = [](const auto& t, std::vector<int64_t> ds, const char* which) {
        const int64_t n = t.dim();
        std::vector<char> used(size_t(n), 0);
        for (int64_t& d : ds) {
            const int64_t w = d < 0 ? d + n : d;
            if (w < 0 || w >= n)
                fail<IndexError>("tensordot: dimension ", d, " out of range for ", which, ", a ", n,
                                 "-D tensor of size ", t.sizes());
            if (used[size_t(w)])
                fail<IndexError>("tensordot: dimension ", d, " of ", which, " given twice");
            used[size_t(w)] = 1;
            d = w;
        }
        return std::make_pair(ds, used);
    };
    const auto [da, ua] = wrap(a, da_in, "a");
    const auto [db, ub] = wrap(b, db_in, "b");
    for (size_t k = 0; k < da.size(); ++k)
        if (a.size(da[k]) != b.size(db[k]))
            fail<ShapeError>("tensordot: dimension ", da[k], " of a (size ", a.sizes(), ") has ",
                             a.size(da[k]), " elements but dimension ", db[k], " of b (size ",
                             b.sizes(), ") has ", b.size(db[k]));
    Shape pa, pb, out;
    for (int64_t d = 0; d < a.dim(); ++d)
        if (!ua[size_t(d)]) {
            pa.push_back(d);
            out.push_back(a.size(d));
        }
    const size_t free_a = pa.size();
    for (int64_t d : da) pa.push_back(d);
    for (int64_t d : db) pb.push_back(d);
    for (int64_t d = 0; d < b.dim(); ++d)
        if (!ub[size_t(d)]) {
            pb.push_back(d);
            out.push_back(b.size(d));
        }
    if (out.empty()) out.push_back(1);
    check_result_numel(out, a.sizes(), b.sizes(), "tensordot"); // before mm names itself
    const Tensor<T, D> ma = as_matrix(a, pa, free_a);
    const Tensor<T, DB> mb = as_matrix(b, pb, db.size());
    return t7::mm(ma, mb).view(out);
}

} // namespace detail

// u[i] * v[j]: an n x m expression of two 1-D operands (expressions are
// evaluated once), fused wherever it is used.
template <ExpressionOrSelection U, ExpressionOrSelection V>
auto outer(const U& u_in, const V& v_in) {
    const auto u = detail::operand_tensor(u_in);
    const auto v = detail::operand_tensor(v_in);
    if (u.dim() != 1 || v.dim() != 1)
        detail::fail<ShapeError>("outer: needs two 1-D operands, got sizes ", u.sizes(), " and ",
                                 v.sizes());
    return u.view(u.size(0), 1) * v.view(1, v.size(0));
}

// The last k dims of a contracted with the first k of b (k = 0: the outer
// product of every element of a with every element of b).
template <ExpressionOrSelection A, ExpressionOrSelection B>
auto tensordot(const A& a_in, const B& b_in, int64_t k) {
    const auto a = detail::operand_tensor(a_in);
    const auto b = detail::operand_tensor(b_in);
    if (k < 0 || k > a.dim() || k > b.dim())
        detail::fail<IndexError>("tensordot: cannot contract ", k,
                                 " dimensions of tensors of size ", a.sizes(), " and ", b.sizes());
    std::vector<int64_t> da, db;
    for (int64_t i = 0; i < k; ++i) {
        da.push_back(a.dim() - k + i);
        db.push_back(i);
    }
    return detail::tensordot_impl(a, b, da, db);
}

// dims.first of a contracted with dims.second of b, pairwise (NumPy's axes=([..], [..])).
template <ExpressionOrSelection A, ExpressionOrSelection B>
auto tensordot(const A& a_in, const B& b_in,
               const std::pair<std::vector<int64_t>, std::vector<int64_t>>& dims) {
    const auto a = detail::operand_tensor(a_in);
    const auto b = detail::operand_tensor(b_in);
    return detail::tensordot_impl(a, b, dims.first, dims.second);
}

} // namespace t7
