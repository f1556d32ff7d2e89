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
// The overloads of one shape are written by the T7_TAKES_* macros below (undefined
// at the end of this file): each forwards its other arguments unchanged.
//
// The element-wise functions and operators (expr/operators.hpp), the reductions
// (expr/reductions.hpp, the MaskedRef overloads in ops/members.hpp), mm, addmm,
// bmm, mv, dot, ger, matmul (math/blas_expr.hpp), outer and tensordot take
// expressions where they are defined.
#pragma once

#include "../expr/reductions.hpp"
#include "../math/conv.hpp"
#include "../math/linalg_extra.hpp"
#include "../math/matrix.hpp"
#include "../math/random.hpp"
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
// The linear algebra's: float, double and complex elements.
template <class E>
concept LinalgExpressionOrSelection = ExpressionOrSelection<E> &&
    (std::floating_point<typename node_t<E>::value_type> ||
     is_complex_v<typename node_t<E>::value_type>);

// f(x, args...) / f(x, y, args...) / f(x, y, z, args...) for a function f whose first
// one, two or three arguments are tensors: here each an argument of concept C (not
// all tensors), materialized, then f's tensor overload with args... as given.
#define T7_TAKES_1(f, C)                                                                           \
    template <C X, class... Args>                                                                  \
    requires detail::NotAllTensors<X>                                                              \
    decltype(auto) f(const X& x, const Args&... args) {                                            \
        return t7::f(detail::materialize(x), args...);                                             \
    }
#define T7_TAKES_2(f, C)                                                                           \
    template <C X, C Y, class... Args>                                                             \
    requires detail::NotAllTensors<X, Y>                                                           \
    decltype(auto) f(const X& x, const Y& y, const Args&... args) {                                \
        return t7::f(detail::materialize(x), detail::materialize(y), args...);                     \
    }
#define T7_TAKES_3(f, C)                                                                           \
    template <C X, C Y, C Z, class... Args>                                                        \
    requires detail::NotAllTensors<X, Y, Z>                                                        \
    decltype(auto) f(const X& x, const Y& y, const Z& z, const Args&... args) {                    \
        return t7::f(detail::materialize(x), detail::materialize(y), detail::materialize(z),       \
                     args...);                                                                     \
    }
// The output-argument forms: f(out, x, args...) with out an Out<T, D> (a Tensor or a
// ValuesIndices), and f(values, indices, x, args...); x of concept C.
#define T7_TAKES_INTO(f, C, Out)                                                                   \
    template <class T, class D, C X, class... Args>                                                \
    requires detail::NotAllTensors<X>                                                              \
    decltype(auto) f(Out<T, D>& out, const X& x, const Args&... args) {                            \
        return t7::f(out, detail::materialize(x), args...);                                        \
    }
#define T7_TAKES_INTO2(f, C)                                                                       \
    template <class T, class D, C X, class... Args>                                                \
    requires detail::NotAllTensors<X>                                                              \
    void f(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const X& x, const Args&... args) {   \
        t7::f(values, indices, detail::materialize(x), args...);                                   \
    }

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
// ... and into the caller's results: sort(out, e), sort(values, indices, e, dim).
T7_TAKES_INTO(sort, ExpressionOrSelection, ValuesIndices)
T7_TAKES_INTO(topk, ExpressionOrSelection, ValuesIndices)
T7_TAKES_INTO(kthvalue, ExpressionOrSelection, ValuesIndices)
T7_TAKES_INTO(median, ExpressionOrSelection, ValuesIndices)
T7_TAKES_INTO(mode, ExpressionOrSelection, ValuesIndices)
T7_TAKES_INTO2(sort, ExpressionOrSelection)
T7_TAKES_INTO2(topk, ExpressionOrSelection)
T7_TAKES_INTO2(kthvalue, ExpressionOrSelection)
T7_TAKES_INTO2(median, ExpressionOrSelection)
T7_TAKES_INTO2(mode, ExpressionOrSelection)

// ---- concatenation (ops/cat.hpp) ----------------------------------------------------

// cat({e1, e2, ...}): operands of one expression type (a + b, c + d), each
// evaluated once. Operands of different types: cat(e1, e2) or eval them first.
namespace detail {
template <class E>
auto eval_each(std::initializer_list<E> inputs) {
    std::vector<decltype(t7::eval(*inputs.begin()))> ts;
    ts.reserve(inputs.size());
    for (const E& e : inputs) ts.push_back(t7::eval(e));
    return ts;
}
} // namespace detail
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto cat(std::initializer_list<E> inputs, int64_t dim = -1) {
    return t7::cat(detail::eval_each(inputs), dim);
}
// cat(result, {e1, e2, ...}, dim): into an existing tensor.
template <class T, class D, ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto& cat(Tensor<T, D>& result, std::initializer_list<E> inputs, int64_t dim = -1) {
    return t7::cat(result, detail::eval_each(inputs), dim);
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
template <ExpressionOrSelection E>
requires detail::NotAllTensors<E>
auto histogram(const E& e, int64_t bins, double lo, double hi) {
    return t7::histogram(detail::materialize(e), bins, lo, hi);
}
template <ExpressionOrSelection E, ExpressionOrSelection W>
requires detail::NotAllTensors<E, W>
auto histogram(const E& e, int64_t bins, double lo, double hi, const W& weights) {
    return t7::histogram(detail::materialize(e), bins, lo, hi, detail::materialize(weights));
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
// Along a dimension, f(x[m], dim, ...), and into a result, f(out, x[m], dim, ...);
// f(x[m]) is in ops/members.hpp. Expressions take these forms where they are defined.
T7_TAKES_1(sum, Selection)
T7_TAKES_1(prod, Selection)
T7_TAKES_1(mean, Selection)
T7_TAKES_1(max, Selection)
T7_TAKES_1(min, Selection)
T7_TAKES_1(any, Selection)
T7_TAKES_1(norm, Selection)
T7_TAKES_1(var, Selection)
T7_TAKES_1(std, Selection)
T7_TAKES_1(cumsum, Selection)
T7_TAKES_1(cumprod, Selection)
T7_TAKES_INTO(sum, Selection, Tensor)
T7_TAKES_INTO(prod, Selection, Tensor)
T7_TAKES_INTO(mean, Selection, Tensor)
T7_TAKES_INTO(max, Selection, Tensor)
T7_TAKES_INTO(min, Selection, Tensor)
T7_TAKES_INTO(norm, Selection, Tensor)
T7_TAKES_INTO(var, Selection, Tensor)
T7_TAKES_INTO(std, Selection, Tensor)
T7_TAKES_INTO(cumsum, Selection, Tensor)
T7_TAKES_INTO(cumprod, Selection, Tensor)
T7_TAKES_INTO2(max, Selection)
T7_TAKES_INTO2(min, Selection)

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
// nonzero(result, e): into an existing LongTensor.
T7_TAKES_INTO(nonzero, ExpressionOrSelection, Tensor)

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

// ---- linear algebra (math/linalg.hpp, math/linalg_extra.hpp): the returning forms ----

T7_TAKES_2(gesv, LinalgExpressionOrSelection)
T7_TAKES_1(inverse, LinalgExpressionOrSelection)
T7_TAKES_1(potrf, LinalgExpressionOrSelection)
T7_TAKES_2(potrs, LinalgExpressionOrSelection)
T7_TAKES_1(potri, LinalgExpressionOrSelection)
T7_TAKES_1(qr, LinalgExpressionOrSelection)
T7_TAKES_1(svd, LinalgExpressionOrSelection)
T7_TAKES_1(symeig, LinalgExpressionOrSelection)
T7_TAKES_1(eig, LinalgExpressionOrSelection)
T7_TAKES_2(gels, LinalgExpressionOrSelection)
T7_TAKES_2(trtrs, LinalgExpressionOrSelection)
T7_TAKES_1(pstrf, LinalgExpressionOrSelection)
T7_TAKES_1(geqrf, LinalgExpressionOrSelection)
T7_TAKES_2(orgqr, LinalgExpressionOrSelection)
T7_TAKES_3(ormqr, LinalgExpressionOrSelection)

// ---- convolutions (math/conv.hpp) ----------------------------------------------------

T7_TAKES_2(conv2, ExpressionOrSelection)
T7_TAKES_2(xcorr2, ExpressionOrSelection)
T7_TAKES_2(conv3, ExpressionOrSelection)
T7_TAKES_2(xcorr3, ExpressionOrSelection)

// ---- sampling with a tensor of probabilities (math/random.hpp) -----------------------

T7_TAKES_1(bernoulli, ExpressionOrSelection)
T7_TAKES_1(multinomial, ExpressionOrSelection)
T7_TAKES_1(multinomialAliasSetup, ExpressionOrSelection)
template <ExpressionOrSelection P>
requires detail::NotAllTensors<P>
auto multinomial(Generator& gen, const P& p, int64_t n, bool replacement = false) {
    return t7::multinomial(gen, detail::materialize(p), n, replacement);
}
template <ExpressionOrSelection J, ExpressionOrSelection Q>
requires detail::NotAllTensors<J, Q>
auto multinomialAlias(Generator& gen, int64_t n, const J& j, const Q& q) {
    return t7::multinomialAlias(gen, n, detail::materialize(j), detail::materialize(q));
}
template <ExpressionOrSelection J, ExpressionOrSelection Q>
requires detail::NotAllTensors<J, Q>
auto multinomialAlias(int64_t n, const J& j, const Q& q) {
    return t7::multinomialAlias(n, detail::materialize(j), detail::materialize(q));
}

#undef T7_TAKES_1
#undef T7_TAKES_2
#undef T7_TAKES_3
#undef T7_TAKES_INTO
#undef T7_TAKES_INTO2

} // namespace t7
