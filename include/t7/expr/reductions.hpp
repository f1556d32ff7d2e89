// Reductions of expressions: sum prod mean max min norm all any over every
// element (returning a scalar) or along one dimension (a tensor that keeps the
// dimension with size 1, as Torch7 does), plus std/var and cumsum/cumprod.
// Each is fused with the expression it consumes; the device's Evaluator runs it.
#pragma once

#include "../eval/assign.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/indexing.hpp"
#include "operators.hpp"
#include "reducers.hpp"

#include <cmath>
#include <limits>

namespace t7 {

// Result of max/min along a dimension (and of sort/topk): values and 0-based positions.
template <class T, class D = CPU>
struct ValuesIndices {
    Tensor<T, D> values;
    Tensor<int64_t, D> indices;
};

namespace detail {

// The device whose evaluator runs a reduction (a tree mixing devices is
// rejected by check_devices before any evaluator runs).
template <class E>
using expr_device_t =
    std::conditional_t<std::is_void_v<typename node_t<E>::device_type> ||
                           std::is_same_v<typename node_t<E>::device_type, MixedDevices>,
                       CPU, typename node_t<E>::device_type>;

template <class E>
bool has_empty_leaf(const E& e) {
    bool empty = false;
    for_each_leaf(e, [&](const auto& l) { empty = empty || l.tensor().dim() == 0; });
    return empty;
}

// The shape of a reduction's input, rejecting inputs without elements (the
// empty tensor, or a dimension of size 0) where `op` needs elements; for the
// others, an input without elements gives the empty Shape (R's identity).
inline Shape reduce_shape_of(const LeafRef* leaves, size_t n, const char* op, bool allow_empty) {
    Shape s = broadcast_shape(leaves, n, op);
    bool empty = false;
    for (size_t k = 0; k < n; ++k) empty = empty || leaves[k].sizes->empty();
    if (empty || (!s.empty() && s.numel() == 0)) {
        if (!allow_empty) {
            if (empty) fail<ShapeError>(op, ": the tensor is empty");
            fail<ShapeError>(op, ": zero-size input of size ", s, " has no ", op,
                             " (NumPy: zero-size array to reduction operation)");
        }
        return Shape{};
    }
    return s;
}
// The same keeping the shape of an input with an empty dimension (reductions
// along a dimension: the other dimensions give the result's shape).
inline Shape reduce_dims_shape_of(const LeafRef* leaves, size_t n, const char* op) {
    Shape s = broadcast_shape(leaves, n, op);
    for (size_t k = 0; k < n; ++k)
        if (leaves[k].sizes->empty()) fail<ShapeError>(op, ": the tensor is empty");
    return s;
}
template <class E>
Shape reduce_shape(const E& e, const char* op, bool allow_empty) {
    const auto leaves = gather_leaves(e);
    return reduce_shape_of(leaves.data(), leaves.size(), op, allow_empty);
}
template <class E>
Shape reduce_dims_shape(const E& e, const char* op) {
    const auto leaves = gather_leaves(e);
    return reduce_dims_shape_of(leaves.data(), leaves.size(), op);
}
// max/min/median... along a dimension of size 0 have no value to give (NumPy).
inline void check_arg_dim(const Shape& shape, int64_t d, const char* op) {
    if (shape[size_t(d)] == 0)
        fail<ShapeError>(op, ": dimension ", d, " of size 0 of an input of size ", shape,
                         " has no ", op, " (NumPy: zero-size array to reduction operation)");
}

// The device a reduction runs on (throws DeviceError for mixed devices). A
// tree of CPU tensors needs no look at its leaves: the CPU has one device.
template <class E>
int reduction_device(const E& e, const char* op) {
    if constexpr (std::is_same_v<typename E::device_type, CPU> ||
                  std::is_void_v<typename E::device_type>)
        return 0;
    else
        return check_devices(e, op);
}

template <class R, class E>
auto reduce_all(const E& expr, const char* op, bool allow_empty) {
    decltype(auto) e = node_ref(expr);
    typename DeviceMemory<expr_device_t<E>>::Scope scope(reduction_device(e, op));
    using V = typename node_t<E>::value_type;
    using A = typename R::template acc<V>;
    const auto leaves = gather_leaves(e);
    using Ev = Evaluator<expr_device_t<E>>;
    // The common case first, with no Shape built: leaves of one shape, which
    // cannot fail the shape checks below.
    if constexpr (node_t<E>::leaves > 0 &&
                  requires { Ev::reduce_all_flat_numel(leaves.data(), leaves.size()); }) {
        const int64_t numel = Ev::reduce_all_flat_numel(leaves.data(), leaves.size());
        if (numel >= 0) {
            check_divisors(e);
            return A(Ev::template reduce_all_flat<R>(e, leaves.data(), numel));
        }
    }
    const Shape shape = reduce_shape_of(leaves.data(), leaves.size(), op, allow_empty);
    if (shape.empty() && node_t<E>::leaves > 0) return R::template identity<A>();
    check_divisors(e);
    if constexpr (requires { Ev::template reduce_all<R>(e, shape, leaves.data()); })
        return Ev::template reduce_all<R>(e, shape, leaves.data()); // reuses the leaf table
    else
        return Ev::template reduce_all<R>(e, shape);
}

inline int64_t reduce_dim_index(const Shape& shape, int64_t dim, const char* op) {
    int64_t n = int64_t(shape.size());
    int64_t d = dim < 0 ? dim + n : dim;
    if (d < 0 || d >= n)
        fail<IndexError>(op, ": dimension ", dim, " out of range for a ", n, "-D input of size ",
                         shape);
    return d;
}

template <class R, class T, class D, class E>
Tensor<T, D>& reduce_dim_into(Tensor<T, D>& out, const E& expr, int64_t dim, const char* op);

// A new result of type U: through reduce_dim_into, so that row reductions
// write it directly (no accumulator tensor, no conversion into a second one).
template <class R, class U, class E>
Tensor<U, expr_device_t<E>> reduce_dim_as(const E& e, int64_t dim, const char* op) {
    Tensor<U, expr_device_t<E>> out;
    reduce_dim_into<R>(out, e, dim, op);
    return out;
}

// Accumulates e along `dim` into a new tensor of accumulator type (size 1 at dim).
template <class R, class E>
auto reduce_dim(const E& e, int64_t dim, const char* op) {
    return reduce_dim_as<R, typename R::template acc<typename node_t<E>::value_type>>(e, dim, op);
}

// The element types of sums, products and means along a dimension: floating and
// complex types keep theirs, integers widen (int64 sums, double means).
template <class V>
inline constexpr bool keeps_type = std::is_floating_point_v<compute_t<V>> || is_complex_v<V>;
template <class V>
using sum_t = std::conditional_t<keeps_type<V>, compute_t<V>, int64_t>;
template <class V>
using mean_t = std::conditional_t<keeps_type<V>, compute_t<V>, double>;

// What a mean sums: integers as doubles, whose sum cannot wrap (the mean of
// int64 values near the limits is right; an int64 sum would overflow).
template <class E>
decltype(auto) mean_input(const E& e) {
    if constexpr (std::is_integral_v<typename node_t<E>::value_type>)
        return t7::cast<double>(e);
    else
        return (e);
}

template <class R, class E>
auto arg_reduce(const E& expr, int64_t dim, const char* op) {
    decltype(auto) e = node_ref(expr);
    using V = compute_t<typename node_t<E>::value_type>;
    using D = expr_device_t<E>;
    typename DeviceMemory<D>::Scope scope(check_devices(e, op)); // the results go there too
    Shape shape = reduce_dims_shape(e, op);
    int64_t d = reduce_dim_index(shape, dim, op);
    check_arg_dim(shape, d, op);
    check_divisors(e);
    Shape keep = shape;
    keep[size_t(d)] = 1;
    ValuesIndices<V, D> r{Tensor<V, D>(keep), Tensor<int64_t, D>(keep)};
    if (shape.numel() > 0) // else empty along another dimension: empty results
        Evaluator<D>::template arg_reduce_into<R>(r.values, r.indices, e, shape, d);
    return r;
}

template <class E>
int64_t count_along(const E& e, int64_t dim, const char* op) {
    Shape s = reduce_dims_shape(e, op);
    return s[size_t(reduce_dim_index(s, dim, op))];
}

} // namespace detail

// ---- whole-expression reductions -------------------------------------------------
template <Expression E>
auto sum(const E& e) {
    return detail::reduce_all<red::sum>(e, "sum", true);
}
template <Expression E>
auto prod(const E& e) {
    return detail::reduce_all<red::prod>(e, "prod", true);
}
template <Expression E>
auto max(const E& e) {
    return detail::reduce_all<red::max>(e, "max", false);
}
template <Expression E>
auto min(const E& e) {
    return detail::reduce_all<red::min>(e, "min", false);
}
// mean, var and std of no elements are NaN (as NumPy's), not an error.
// (complex<double> for a complex expression)
template <Expression E>
auto mean(const E& e) {
    using R = std::conditional_t<is_complex_v<typename node_t<E>::value_type>, std::complex<double>,
                                 double>;
    const Shape s = detail::reduce_shape(as_node(e), "mean", true);
    if (s.empty()) return R(std::numeric_limits<double>::quiet_NaN());
    return R(sum(detail::mean_input(e))) / double(s.numel());
}
template <Expression E>
bool any(const E& e) {
    return detail::reduce_all<red::any>(e, "any", true);
}
template <Expression E>
bool all_t::operator()(const E& e) const {
    return detail::reduce_all<red::all>(e, "all", true);
}
// p-norm: (sum |x|^p)^(1/p); p = 2 and p = 1 avoid pow. p = 0 counts the non-zero
// elements (NaN included), as Torch7 and PyTorch (not (sum |x|^0)^(1/0) = inf).
// Of a complex expression: the norm of the moduli (NumPy's).
template <Expression E>
double norm(const E& e, double p = 2) {
    if constexpr (is_complex_v<typename node_t<E>::value_type>) return norm(t7::abs(e), p);
    if (p == 0) return double(sum(t7::cast<double>(t7::cast<double>(e) != 0.0)));
    if (p == 2) return std::sqrt(double(sum(t7::cast<double>(e) * t7::cast<double>(e))));
    if (p == 1) return double(sum(t7::abs(t7::cast<double>(e))));
    return std::pow(double(sum(t7::pow(t7::abs(t7::cast<double>(e)), p))), 1.0 / p);
}
namespace detail {
template <class E>
double var_all(const E& e) {
    auto x = t7::eval(t7::cast<double>(e));
    int64_t n = x.nElement();
    if (n == 0) return std::numeric_limits<double>::quiet_NaN(); // NumPy's mean of nothing
    double m = double(t7::sum(x)) / double(n);
    double ss = double(t7::sum((x - m) * (x - m)));
    return ss / double(n == 1 ? n : n - 1);
}
} // namespace detail
// Variance over all elements (unbiased, like Torch7's torch.var(x)).
template <Expression E>
double var(const E& e) {
    return detail::var_all(e);
}
template <Expression E>
double std(const E& e) {
    return std::sqrt(detail::var_all(e));
}

// ---- along a dimension (the dimension is kept with size 1) ------------------------
template <Expression E>
auto sum(const E& e, int64_t dim) {
    using V = typename node_t<E>::value_type;
    return detail::reduce_dim_as<red::sum, detail::sum_t<V>>(e, dim, "sum");
}
template <Expression E>
auto prod(const E& e, int64_t dim) {
    using V = typename node_t<E>::value_type;
    return detail::reduce_dim_as<red::prod, detail::sum_t<V>>(e, dim, "prod");
}
template <Expression E>
auto mean(const E& e, int64_t dim) {
    using V = typename node_t<E>::value_type;
    auto s = detail::reduce_dim<red::sum>(detail::mean_input(e), dim, "mean");
    double n = double(detail::count_along(as_node(e), dim, "mean"));
    return t7::eval(t7::cast<detail::mean_t<V>>(s / n));
}
template <Expression E>
auto max(const E& e, int64_t dim) {
    return detail::arg_reduce<red::max>(e, dim, "max");
}
template <Expression E>
auto min(const E& e, int64_t dim) {
    return detail::arg_reduce<red::min>(e, dim, "min");
}
template <Expression E>
auto any(const E& e, int64_t dim) {
    return detail::reduce_dim_as<red::any, uint8_t>(e, dim, "any");
}
template <Expression E>
auto all_t::operator()(const E& e, int64_t dim) const {
    return detail::reduce_dim_as<red::all, uint8_t>(e, dim, "all");
}
template <Expression E>
auto norm(const E& e, double p, int64_t dim) {
    // of a complex expression: the norm of the moduli, a real tensor (NumPy's)
    if constexpr (is_complex_v<typename node_t<E>::value_type>) {
        return norm(t7::abs(e), p, dim);
    } else {
        using R = detail::mean_t<typename node_t<E>::value_type>;
        if (p == 0) { // the count of non-zero elements
            auto s = detail::reduce_dim<red::sum>(t7::cast<double>(t7::cast<double>(e) != 0.0), dim,
                                                  "norm");
            return t7::eval(t7::cast<R>(s));
        }
        if (p == 2) {
            auto s = detail::reduce_dim<red::sum>(t7::cast<double>(e) * t7::cast<double>(e), dim,
                                                  "norm");
            return t7::eval(t7::cast<R>(t7::sqrt(s)));
        }
        auto s =
            detail::reduce_dim<red::sum>(t7::pow(t7::abs(t7::cast<double>(e)), p), dim, "norm");
        return t7::eval(t7::cast<R>(t7::pow(s, 1.0 / p)));
    }
}
// Variance along dim: the mean (kept dim, size 1) broadcasts back over the input.
namespace detail {
template <class E>
auto var_dim(const E& e, int64_t dim, bool biased, const char* op) {
    using R = detail::mean_t<typename node_t<E>::value_type>;
    auto x = t7::cast<double>(e);
    int64_t n = detail::count_along(as_node(e), dim, op);
    auto m = t7::eval(detail::reduce_dim<red::sum>(x, dim, op) / double(n));
    auto ss = detail::reduce_dim<red::sum>((x - m) * (x - m), dim, op);
    return t7::eval(t7::cast<R>(ss / double(biased || n == 1 ? n : n - 1)));
}
} // namespace detail
template <Expression E>
auto var(const E& e, int64_t dim, bool biased = false) {
    return detail::var_dim(e, dim, biased, "var");
}
template <Expression E>
auto std(const E& e, int64_t dim, bool biased = false) {
    auto v = detail::var_dim(e, dim, biased, "std");
    v = t7::sqrt(v);
    return v;
}

// ---- into an existing result (the dimension is kept with size 1) --------------------
// t7::sum(out, e, dim) and the rest write into `out`, resized to the result's
// shape if it has another (as Torch7's result tensors are), without
// allocating once out has room: the reduction accumulates in out itself when
// it has the accumulator's type, else in a scratch accumulator that the
// calling thread keeps for the next call. `out` may be of any element type.
namespace detail {

// A tensor of shape s for intermediate results. On the CPU each thread keeps
// one per type and slot and reuses its memory; other devices allocate (their
// allocators cache freed blocks).
template <class A, class D, int Slot = 0>
Tensor<A, D> scratch(const Shape& s) {
    if constexpr (std::is_same_v<D, CPU>) {
        static thread_local Tensor<A, CPU> keep;
        keep.resize(s);
        return keep;
    } else {
        return Tensor<A, D>(s);
    }
}

// Checks the input, then shapes `out` as the reduction along dim of e; returns
// the input's shape (dim wrapped into `d`). When out shares memory with an
// input, `safe` is false: the caller must not write into out before reading.
template <class T, class D, class E>
Shape shape_result(Tensor<T, D>& out, const E& e, int64_t dim, int64_t& d, bool& safe,
                   const char* op) {
    using ED = expr_device_t<E>;
    static_assert(std::is_same_v<ED, D>, "reduction into a result on another device");
    const int device = check_devices(e, op);
    if (out.storage().valid() && out.dim() > 0 && out.getDevice() != device)
        fail<DeviceError>(op, ": the result is on ", device_label<D>(out.getDevice()),
                          " but the input on ", device_label<D>(device));
    Shape shape = reduce_dims_shape(e, op);
    d = reduce_dim_index(shape, dim, op);
    safe = true;
    for_each_leaf(e, [&](const auto& l) {
        safe = safe && !(out.storage().valid() && l.tensor().storage().id() == out.storage().id());
    });
    return shape;
}

// The shape of a reduction of e along dim (size 1 there).
template <class E>
Shape kept_shape(const E& e, int64_t dim, const char* op) {
    Shape keep = reduce_dims_shape(as_node(e), op);
    keep[size_t(reduce_dim_index(keep, dim, op))] = 1;
    return keep;
}

template <class T, class D>
void resize_result(Tensor<T, D>& out, const Shape& keep) {
    if (!(out.sizes() == keep)) out.resize(keep);
}

// out = e, out first resized to e's shape; alias-safe (an input sharing out's
// memory is read before out is resized).
template <class T, class D, class E>
void assign_resized(Tensor<T, D>& out, const E& e, const Shape& shape) {
    if (out.sizes() == shape) {
        out.assign(e);
        return;
    }
    bool shared = false;
    for_each_leaf(as_node(e), [&](const auto& l) {
        shared =
            shared || (out.storage().valid() && l.tensor().storage().id() == out.storage().id());
    });
    if (!shared) {
        out.resize(shape);
        out.assign(e);
        return;
    }
    Tensor<T, D> values;
    values.assign(e);
    out.resize(shape);
    out.copy(values);
}

// out = src converted to out's type, both of one shape (a reduction's scratch
// result into the caller's): an assignment, not copy(), which would also
// compile its reshaping and cross-device paths into every program (0.5 s of a
// program's first reduction along a dimension).
template <class T, class U, class D>
void assign_converted(Tensor<T, D>& out, const Tensor<U, D>& src) {
    if constexpr (std::is_same_v<T, U>)
        assign_node(out, as_node(src), "copy");
    else
        assign_node(out, t7::cast<T>(src), "copy");
}

// Accumulates R along dim of e into out (converted to out's type).
template <class R, class T, class D, class E>
Tensor<T, D>& reduce_dim_into(Tensor<T, D>& out, const E& expr, int64_t dim, const char* op) {
    // a complex sum or product into a real out: TypeError, as for an assignment
    if constexpr (std::is_same_v<R, red::sum> || std::is_same_v<R, red::prod>)
        check_not_complex_to_real<T, typename node_t<E>::value_type>(op);
    decltype(auto) e = node_ref(expr);
    using A = typename R::template acc<typename node_t<E>::value_type>;
    int64_t d;
    bool safe;
    const Shape shape = shape_result(out, e, dim, d, safe, op);
    check_divisors(e); // before out is resized or written
    Shape keep = shape;
    keep[size_t(d)] = 1;
    typename DeviceMemory<D>::Scope scope(out.storage().valid() ? out.getDevice()
                                                                : check_devices(e, op));
    if (safe) resize_result(out, keep);
    if (shape.numel() == 0) { // nothing to fold: the identity (sum 0, prod 1), or nothing
        resize_result(out, keep);
        out.fill(R::template identity<A>());
        return out;
    }
    using Ev = Evaluator<D>;
    if constexpr (requires { Ev::template reduce_direct<R>(out, e, shape, d); })
        if (safe && out.isContiguous() && Ev::template reduce_direct<R>(out, e, shape, d))
            return out;
    if constexpr (std::is_same_v<A, T>) {
        if (safe && out.isContiguous()) {
            out.fill(R::template identity<A>());
            Evaluator<D>::template reduce_into<R>(out, e, shape);
            return out;
        }
    }
    Tensor<A, D> acc = safe ? scratch<A, D>(keep) : Tensor<A, D>(keep);
    acc.fill(R::template identity<A>());
    Evaluator<D>::template reduce_into<R>(acc, e, shape);
    resize_result(out, keep);
    assign_converted(out, acc);
    return out;
}

template <class D>
Tensor<int64_t, D>* no_indices() {
    return nullptr;
}

template <class R, class T, class D, class E>
void arg_reduce_into(Tensor<T, D>& values, Tensor<int64_t, D>* indices, const E& expr, int64_t dim,
                     const char* op) {
    decltype(auto) e = node_ref(expr);
    using V = compute_t<typename node_t<E>::value_type>;
    int64_t d;
    bool safe;
    const Shape shape = shape_result(values, e, dim, d, safe, op);
    check_arg_dim(shape, d, op);
    check_divisors(e);
    if (shape.numel() == 0) { // empty along another dimension: empty results
        Shape keep = shape;
        keep[size_t(d)] = 1;
        resize_result(values, keep);
        if (indices) resize_result(*indices, keep);
        return;
    }
    if (indices)
        for_each_leaf(e, [&](const auto& l) {
            safe = safe && !(indices->storage().valid() &&
                             l.tensor().storage().id() == indices->storage().id());
        });
    Shape keep = shape;
    keep[size_t(d)] = 1;
    typename DeviceMemory<D>::Scope scope(check_devices(e, op));
    // Write straight into the results when they are contiguous and of the
    // evaluator's types; else into scratch tensors (slots 0 and 1: V may be int64_t).
    Tensor<V, D> vals;
    Tensor<int64_t, D> idx;
    bool vals_direct = false, idx_direct = false;
    if (safe) {
        if constexpr (std::is_same_v<T, V>) {
            resize_result(values, keep);
            vals_direct = values.isContiguous();
            if (vals_direct) vals.set(values);
        }
        if (indices) {
            resize_result(*indices, keep);
            idx_direct = indices->isContiguous();
            if (idx_direct) idx.set(*indices);
        }
    }
    if (!vals_direct) vals.set(safe ? scratch<V, D, 0>(keep) : Tensor<V, D>(keep));
    if (!idx_direct) idx.set(safe ? scratch<int64_t, D, 1>(keep) : Tensor<int64_t, D>(keep));
    Evaluator<D>::template arg_reduce_into<R>(vals, idx, e, shape, d);
    if (!vals_direct) {
        resize_result(values, keep);
        assign_converted(values, vals);
    }
    if (indices && !idx_direct) {
        resize_result(*indices, keep);
        assign_converted(*indices, idx);
    }
}

} // namespace detail

template <class T, class D, Expression E>
Tensor<T, D>& sum(Tensor<T, D>& out, const E& e, int64_t dim) {
    return detail::reduce_dim_into<red::sum>(out, e, dim, "sum");
}
template <class T, class D, Expression E>
Tensor<T, D>& prod(Tensor<T, D>& out, const E& e, int64_t dim) {
    return detail::reduce_dim_into<red::prod>(out, e, dim, "prod");
}
template <class T, class D, Expression E>
Tensor<T, D>& max(Tensor<T, D>& values, const E& e, int64_t dim) {
    detail::arg_reduce_into<red::max>(values, detail::no_indices<D>(), e, dim, "max");
    return values;
}
template <class T, class D, Expression E>
Tensor<T, D>& min(Tensor<T, D>& values, const E& e, int64_t dim) {
    detail::arg_reduce_into<red::min>(values, detail::no_indices<D>(), e, dim, "min");
    return values;
}
// Torch7's torch.max(values, indices, x, dim): 0-based positions into `indices`.
template <class T, class D, Expression E>
void max(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const E& e, int64_t dim) {
    detail::arg_reduce_into<red::max>(values, &indices, e, dim, "max");
}
template <class T, class D, Expression E>
void min(Tensor<T, D>& values, Tensor<int64_t, D>& indices, const E& e, int64_t dim) {
    detail::arg_reduce_into<red::min>(values, &indices, e, dim, "min");
}
template <class T, class D, Expression E>
Tensor<T, D>& mean(Tensor<T, D>& out, const E& e, int64_t dim) {
    detail::check_not_complex_to_real<T, typename node_t<E>::value_type>("mean");
    using A = acc_t<typename node_t<E>::value_type>; // double, or complex<double>
    using S = std::conditional_t<is_complex_v<A>, A, double>;
    const double n = double(detail::count_along(as_node(e), dim, "mean"));
    auto s = detail::scratch<S, D, 1>(detail::kept_shape(e, dim, "mean"));
    detail::reduce_dim_into<red::sum>(s, t7::cast<S>(e), dim, "mean");
    detail::resize_result(out, s.sizes());
    return out.assign(t7::cast<T>(s / n));
}
template <class T, class D, Expression E>
Tensor<T, D>& norm(Tensor<T, D>& out, const E& e, double p, int64_t dim) {
    if constexpr (is_complex_v<typename node_t<E>::value_type>)
        return norm(out, t7::abs(e), p, dim);
    auto s = detail::scratch<double, D, 1>(detail::kept_shape(e, dim, "norm"));
    const auto x = t7::cast<double>(e);
    if (p == 0) { // the count of non-zero elements
        detail::reduce_dim_into<red::sum>(s, t7::cast<double>(x != 0.0), dim, "norm");
        detail::resize_result(out, s.sizes());
        return out.assign(t7::cast<T>(s));
    }
    if (p == 2) {
        detail::reduce_dim_into<red::sum>(s, x * x, dim, "norm");
        detail::resize_result(out, s.sizes());
        return out.assign(t7::cast<T>(t7::sqrt(s)));
    }
    detail::reduce_dim_into<red::sum>(s, t7::pow(t7::abs(x), p), dim, "norm");
    detail::resize_result(out, s.sizes());
    return out.assign(t7::cast<T>(t7::pow(s, 1.0 / p)));
}
namespace detail {
// var and std into out; op names the function in errors.
template <class T, class D, class E>
void var_into(Tensor<T, D>& out, const E& e, int64_t dim, bool biased, bool root, const char* op) {
    const int64_t n = detail::count_along(as_node(e), dim, op);
    const auto x = t7::cast<double>(e);
    const Shape keep = detail::kept_shape(e, dim, op);
    auto m = detail::scratch<double, D, 1>(keep);
    auto ss = detail::scratch<double, D, 2>(keep);
    detail::reduce_dim_into<red::sum>(m, x, dim, op);
    m /= double(n);
    detail::reduce_dim_into<red::sum>(ss, (x - m) * (x - m), dim, op);
    detail::resize_result(out, ss.sizes());
    const double div = double(biased || n == 1 ? n : n - 1);
    if (root)
        out.assign(t7::cast<T>(t7::sqrt(ss / div)));
    else
        out.assign(t7::cast<T>(ss / div));
}
} // namespace detail
template <class T, class D, Expression E>
Tensor<T, D>& var(Tensor<T, D>& out, const E& e, int64_t dim, bool biased = false) {
    detail::var_into(out, e, dim, biased, false, "var");
    return out;
}
template <class T, class D, Expression E>
Tensor<T, D>& std(Tensor<T, D>& out, const E& e, int64_t dim, bool biased = false) {
    detail::var_into(out, e, dim, biased, true, "std");
    return out;
}

namespace detail {
// In-place scan along dim of a contiguous tensor: x[i] = op(x[i-1], x[i]).
template <class Op, class T, class D>
void scan(Tensor<T, D>& x, int64_t dim, Op op) {
    if constexpr (!std::is_same_v<D, CPU>) {
        Evaluator<D>::scan(x, dim, op); // the device runs it
    } else { // (not instantiated for a device: no host loop over its element type)
        const int64_t n = x.size(dim), st = x.stride(dim);
        Shape outer = x.sizes();
        outer[size_t(dim)] = 1;
        std::array<const Shape*, 1> strides{&x.strides()};
        Shape s0 = x.strides();
        strides[0] = &s0;
        iter::Loop<1> L = iter::make_loop<1>(outer, strides);
        T* p = x.data();
        iter::for_each_run(L, 0, L.numel, [&](const std::array<int64_t, 1>& off, int64_t m) {
            for (int64_t j = 0; j < m; ++j) {
                T* q = p + off[0] + j * L.inner_stride(0);
                for (int64_t i = 1; i < n; ++i) q[i * st] = op(q[(i - 1) * st], q[i * st]);
            }
        });
    }
}
} // namespace detail

template <Expression E>
auto cumsum(const E& e, int64_t dim) {
    using V = detail::sum_t<typename node_t<E>::value_type>;
    auto x = t7::eval(t7::cast<V>(e));
    detail::scan(x, detail::reduce_dim_index(x.sizes(), dim, "cumsum"), op::add{});
    return x;
}
namespace detail {
// out = e (out resized to e's shape, any element type), then scanned along dim.
template <class T, class D, class E, class Op>
Tensor<T, D>& scan_into(Tensor<T, D>& out, const E& e, int64_t dim, Op op, const char* name) {
    check_not_complex_to_real<T, typename node_t<E>::value_type>(name);
    const Shape shape = reduce_dims_shape(as_node(e), name);
    const int64_t d = reduce_dim_index(shape, dim, name);
    // The scan runs in the input's accumulator type (the type cumsum(e, dim)
    // returns) and the results are converted: a narrower out (CharTensor of a
    // FloatTensor's 0.6 0.6 0.6) gets 0 1 1, not every step truncated.
    using V = sum_t<typename node_t<E>::value_type>;
    if constexpr (std::is_same_v<T, V> || std::is_same_v<T, typename node_t<E>::value_type>) {
        assign_resized(out, e, shape);
        scan(out, d, op);
    } else {
        Tensor<V, D> acc = t7::eval(t7::cast<V>(e));
        scan(acc, d, op);
        assign_resized(out, acc, shape);
    }
    return out;
}
} // namespace detail
template <class T, class D, Expression E>
Tensor<T, D>& cumsum(Tensor<T, D>& out, const E& e, int64_t dim) {
    return detail::scan_into(out, e, dim, op::add{}, "cumsum");
}
template <class T, class D, Expression E>
Tensor<T, D>& cumprod(Tensor<T, D>& out, const E& e, int64_t dim) {
    return detail::scan_into(out, e, dim, op::mul{}, "cumprod");
}
template <Expression E>
auto cumprod(const E& e, int64_t dim) {
    using V = detail::sum_t<typename node_t<E>::value_type>;
    auto x = t7::eval(t7::cast<V>(e));
    detail::scan(x, detail::reduce_dim_index(x.sizes(), dim, "cumprod"), op::mul{});
    return x;
}

// Torch7's equal: the same sizes and the same values, whatever the strides. Tensors
// of different element types compare their values after promotion (an IntTensor
// and a FloatTensor holding 1 2 3 are equal); NaN equals nothing, as with ==.
template <class T, class U, class D>
bool equal(const Tensor<T, D>& a, const Tensor<U, D>& b) {
    if (!(a.sizes() == b.sizes())) return false;
    if (a.nElement() == 0) return true;
    return all(a == b);
}

template <class T, class D>
template <class U>
bool Tensor<T, D>::equal(const Tensor<U, D>& o) const {
    return t7::equal(*this, o);
}

} // namespace t7
