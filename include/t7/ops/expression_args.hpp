// Every function that takes a tensor also takes an expression or a masked
// selection x[mask], evaluated once (API.md): t7::triu(a + b, 1), t7::sort(x[m]),
// t7::cat({a * 2, b * 2}), t7::histc(x[x > 0]).
//
// One mechanism: each overload here is constrained on ExpressionOrSelection and
// on at least one argument not being a tensor (detail::NotAllTensors), turns its
// arguments into tensors with detail::materialize (tensor/copy.hpp: a tensor by
// reference, anything else evaluated once) and calls the tensor overload. A call
// with tensors only never instantiates these; a wrong argument (t7::triu(3, 1))
// fails with the constraint ExpressionOrSelection named in the error.
//
// The element-wise functions and operators (expr/operators.hpp), the reductions
// (expr/reductions.hpp, the MaskedRef overloads in ops/members.hpp), mm, addmm,
// bmm, mv, dot, ger, matmul (math/blas_expr.hpp), outer and tensordot take
// expressions where they are defined.
#pragma once

#include "../expr/reductions.hpp"
#include "../math/matrix.hpp"
#include "../math/stats.hpp"
#include "../tensor/copy.hpp"
#include "cat.hpp"
#include "members.hpp"
#include "repeat.hpp"
#include "sort.hpp"

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace t7 {

// An expression or selection of float or double elements (what renorm computes on).
template <class E>
concept FloatingExpressionOrSelection =
    ExpressionOrSelection<E> && std::floating_point<typename node_t<E>::value_type>;

// ---- matrices (math/matrix.hpp) -----------------------------------------------------

template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto diag(const E& e, int64_t k = 0) { return t7::diag(detail::materialize(e), k); }
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto tril(const E& e, int64_t k = 0) { return t7::tril(detail::materialize(e), k); }
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto triu(const E& e, int64_t k = 0) { return t7::triu(detail::materialize(e), k); }
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto trace(const E& e) { return t7::trace(detail::materialize(e)); }
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto cross(const A& a, const B& b, int64_t dim) {
    return t7::cross(detail::materialize(a), detail::materialize(b), dim);
}
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto cross(const A& a, const B& b) {
    return t7::cross(detail::materialize(a), detail::materialize(b));
}

// ---- order statistics (ops/sort.hpp): the forms that return their result -----------

template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto sort(const E& e, int64_t dim = -1, bool descending = false) {
    return t7::sort(detail::materialize(e), dim, descending);
}
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto topk(const E& e, int64_t k, int64_t dim = -1, bool largest = true) {
    return t7::topk(detail::materialize(e), k, dim, largest);
}
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto kthvalue(const E& e, int64_t k, int64_t dim = -1) {
    return t7::kthvalue(detail::materialize(e), k, dim);
}
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto median(const E& e, int64_t dim = -1) { return t7::median(detail::materialize(e), dim); }
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto mode(const E& e, int64_t dim = -1) { return t7::mode(detail::materialize(e), dim); }

// ---- concatenation (ops/cat.hpp) ----------------------------------------------------

// cat({e1, e2, ...}): operands of one expression type (a + b, c + d), each
// evaluated once. Operands of different types: cat(e1, e2) or eval them first.
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto cat(std::initializer_list<E> inputs, int64_t dim = -1) {
    std::vector<decltype(t7::eval(*inputs.begin()))> ts;
    ts.reserve(inputs.size());
    for (const E& e : inputs) ts.push_back(t7::eval(e));
    return t7::cat(ts, dim);
}
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
auto cat(const A& a, const B& b, int64_t dim = -1) {
    return t7::cat(detail::materialize(a), detail::materialize(b), dim);
}

// ---- statistics (math/stats.hpp) ----------------------------------------------------

template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto histc(const E& e, int64_t nbins = 100, double lo = 0, double hi = 0) {
    return t7::histc(detail::materialize(e), nbins, lo, hi);
}
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto bhistc(const E& e, int64_t nbins = 100, double lo = 0, double hi = 0) {
    return t7::bhistc(detail::materialize(e), nbins, lo, hi);
}
template <FloatingExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto renorm(const E& e, double p, int64_t dim, double maxnorm) {
    return t7::renorm(detail::materialize(e), p, dim, maxnorm);
}
// dist takes expressions where it is defined; these add masked selections.
template <ExpressionOrSelection A, ExpressionOrSelection B>
requires(Selection<A> || Selection<B>) double dist(const A& a, const B& b, double p = 2) {
    return t7::dist(detail::materialize(a), detail::materialize(b), p);
}

// ---- reductions a masked selection lacks (expr/reductions.hpp) ------------------------

template <ExpressionOrSelection A, ExpressionOrSelection B>
requires detail::NotAllTensors<A, B>
bool equal(const A& a, const B& b) {
    return t7::equal(detail::materialize(a), detail::materialize(b));
}
template <Selection S>
auto cumsum(const S& s, int64_t dim) {
    return t7::cumsum(s.eval(), dim);
}
template <Selection S>
auto cumprod(const S& s, int64_t dim) {
    return t7::cumprod(s.eval(), dim);
}

// ---- index family: the source argument (ops/members.hpp) ----------------------------

template <ExpressionOrSelection E, class I, class D>
requires detail::NotAllTensors<E>
auto index(const E& x, int64_t dim, const Tensor<I, D>& idx) {
    return t7::index(detail::materialize(x), dim, idx);
}
template <ExpressionOrSelection E, class I, class D>
requires detail::NotAllTensors<E>
auto gather(const E& x, int64_t dim, const Tensor<I, D>& idx) {
    return t7::gather(detail::materialize(x), dim, idx);
}
template <ExpressionOrSelection E, Expression M>
requires detail::NotAllTensors<E>
auto maskedSelect(const E& x, const M& mask) {
    return t7::maskedSelect(detail::materialize(x), mask);
}

// ---- shapes (ops/repeat.hpp, tensor/copy.hpp) ----------------------------------------

template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto repeatTensor(const E& e, const Shape& reps) {
    return t7::repeatTensor(detail::materialize(e), reps);
}
template <ExpressionOrSelection E, std::integral... I>
requires(detail::NotAllTensors<E> && sizeof...(I) > 0) auto repeatTensor(const E& e, I... reps) {
    return t7::repeatTensor(detail::materialize(e), reps...);
}
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto reshape(const E& e, const Shape& sizes) { return t7::reshape(detail::materialize(e), sizes); }
template <ExpressionOrSelection E, std::integral... I>
requires(detail::NotAllTensors<E> && sizeof...(I) > 0) auto reshape(const E& e, I... sizes) {
    return t7::reshape(detail::materialize(e), sizes...);
}

} // namespace t7
