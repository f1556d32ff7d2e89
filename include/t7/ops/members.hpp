// The Tensor members of the indexed, masked and sorting operations, for every
// device. Each checks what does not depend on the device (the index type) and
// forwards to the device's implementation: an overload of op_*(ops_tag, ...)
// found by argument-dependent lookup where the member is instantiated, for
// CPU tensors in ops/*.hpp (through <t7/t7.hpp>), for CUDA tensors in
// cuda/index_ops.hpp (through <t7/t7.hpp> or <t7/cuda.hpp>, no Eigen needed).
// Also x[mask]'s MaskedRef.
#pragma once

#include "../expr/inplace.hpp"
#include "../expr/reductions.hpp"
#include "../tensor/copy.hpp"
#include "checks.hpp"

#include <ostream>

namespace t7 {

// ---- index family -------------------------------------------------------------------
// Writes of a source into self refuse a self that overlaps itself (an expanded
// view); fills with one value (indexFill, scatter of v, maskedFill) may write
// it. Results "into" self check it in their implementations (check_result).

template <class T, class D>
template <class I>
Tensor<T, D> Tensor<T, D>::index(int64_t dim, const Tensor<I, D>& idx) const {
    Tensor r;
    r.index(*this, dim, idx);
    return r;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::index(const Tensor& src, int64_t dim, const Tensor<I, D>& idx) {
    detail::check_long("index", idx);
    if constexpr (std::is_same_v<I, int64_t>) op_index(detail::ops_tag{}, *this, src, dim, idx);
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexCopy(int64_t dim, const Tensor<I, D>& idx, const Tensor& src) {
    detail::check_long("indexCopy", idx);
    detail::check_writable("indexCopy", *this);
    if constexpr (std::is_same_v<I, int64_t>)
        op_index_scatter(detail::ops_tag{}, detail::ScatterOp::copy, "indexCopy", *this, dim, idx,
                         &src, T{});
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexAdd(int64_t dim, const Tensor<I, D>& idx, const Tensor& src) {
    detail::check_long("indexAdd", idx);
    detail::check_writable("indexAdd", *this);
    if constexpr (std::is_same_v<I, int64_t>)
        op_index_scatter(detail::ops_tag{}, detail::ScatterOp::add, "indexAdd", *this, dim, idx,
                         &src, T{});
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::indexFill(int64_t dim, const Tensor<I, D>& idx, T v) {
    detail::check_long("indexFill", idx);
    if constexpr (std::is_same_v<I, int64_t>)
        op_index_scatter(detail::ops_tag{}, detail::ScatterOp::fill, "indexFill", *this, dim, idx,
                         static_cast<const Tensor*>(nullptr), v);
    return *this;
}

// ---- gather / scatter ---------------------------------------------------------------

template <class T, class D>
template <class I>
Tensor<T, D> Tensor<T, D>::gather(int64_t dim, const Tensor<I, D>& idx) const {
    detail::check_long("gather", idx);
    Tensor r;
    if constexpr (std::is_same_v<I, int64_t>) op_gather(detail::ops_tag{}, r, *this, dim, idx);
    return r;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::gather(const Tensor& src, int64_t dim, const Tensor<I, D>& idx) {
    detail::check_long("gather", idx);
    if constexpr (std::is_same_v<I, int64_t>)
        op_gather_into(detail::ops_tag{}, *this, src, dim, idx);
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::scatter(int64_t dim, const Tensor<I, D>& idx, const Tensor& src) {
    detail::check_long("scatter", idx);
    detail::check_writable("scatter", *this);
    if constexpr (std::is_same_v<I, int64_t>)
        op_scatter(detail::ops_tag{}, *this, dim, idx, &src, T{});
    return *this;
}

template <class T, class D>
template <class I>
Tensor<T, D>& Tensor<T, D>::scatter(int64_t dim, const Tensor<I, D>& idx, T v) {
    detail::check_long("scatter", idx);
    if constexpr (std::is_same_v<I, int64_t>)
        op_scatter(detail::ops_tag{}, *this, dim, idx, static_cast<const Tensor*>(nullptr), v);
    return *this;
}

// ---- masked operations and nonzero ----------------------------------------------------

template <class T, class D>
template <Expression M>
Tensor<T, D> Tensor<T, D>::maskedSelect(const M& mask) const {
    Tensor r;
    op_masked_select(detail::ops_tag{}, r, *this, as_node(mask), false);
    return r;
}

template <class T, class D>
template <Expression M>
Tensor<T, D>& Tensor<T, D>::maskedSelect(const Tensor& src, const M& mask) {
    op_masked_select(detail::ops_tag{}, *this, src, as_node(mask), true);
    return *this;
}

template <class T, class D>
template <Expression M>
Tensor<T, D>& Tensor<T, D>::maskedFill(const M& mask, T v) {
    op_masked_fill(detail::ops_tag{}, *this, as_node(mask), v);
    return *this;
}

template <class T, class D>
template <Expression M>
Tensor<T, D>& Tensor<T, D>::maskedCopy(const M& mask, const Tensor& src) {
    detail::check_writable("maskedCopy", *this);
    op_masked_copy(detail::ops_tag{}, *this, as_node(mask), src);
    return *this;
}

template <class T, class D>
Tensor<int64_t, D> Tensor<T, D>::nonzero() const {
    Tensor<int64_t, D> r;
    op_nonzero(detail::ops_tag{}, r, *this);
    return r;
}

// ---- sort / topk ------------------------------------------------------------------------

template <class T, class D>
auto Tensor<T, D>::sort(int64_t dim, bool descending) const {
    ValuesIndices<T, D> r;
    op_sort(detail::ops_tag{}, r, *this, dim, descending);
    return r;
}

template <class T, class D>
auto Tensor<T, D>::topk(int64_t k, int64_t dim, bool largest) const {
    ValuesIndices<T, D> r;
    op_topk(detail::ops_tag{}, r, *this, k, dim, largest);
    return r;
}

// ---- free functions (Torch7's torch.index(x, ...) etc.) ------------------------------

// torch.index(x, dim, idx)
template <class T, class D, class I>
Tensor<T, D> index(const Tensor<T, D>& x, int64_t dim, const Tensor<I, D>& idx) {
    return x.index(dim, idx);
}

// torch.gather(x, dim, idx)
template <class T, class D, class I>
Tensor<T, D> gather(const Tensor<T, D>& x, int64_t dim, const Tensor<I, D>& idx) {
    return x.gather(dim, idx);
}

// torch.nonzero(x), also of an expression: t7::nonzero(x == 1), or x[mask].
template <ExpressionOrSelection E>
auto nonzero(const E& e) {
    if constexpr (is_tensor_v<E>)
        return e.nonzero();
    else
        return t7::eval(e).nonzero();
}

// torch.nonzero(result, x): into an existing LongTensor (resized).
template <class T, class D>
Tensor<int64_t, D>& nonzero(Tensor<int64_t, D>& result, const Tensor<T, D>& x) {
    op_nonzero(detail::ops_tag{}, result, x); // the device's implementation
    return result;
}

// torch.maskedSelect(x, mask)
template <class T, class D, Expression M>
Tensor<T, D> maskedSelect(const Tensor<T, D>& x, const M& mask) {
    return x.maskedSelect(mask);
}

// ---- x[mask] --------------------------------------------------------------------

namespace detail {
// x[mask] = values: `values` (of size vshape) must hold exactly as many values
// as the mask selects, as a 1-D tensor or expression (an empty one when none
// is selected). One value is a fill, handled before.
inline void check_masked_values(int64_t selected, const Shape& vshape) {
    const int64_t n = vshape.empty() ? 0 : vshape.numel();
    if ((vshape.size() == 1 && n == selected) || (vshape.empty() && selected == 0)) return;
    fail<ShapeError>("x[mask] = values: the mask selects ", selected, " elements but the values ",
                     "have ", n, " (size ", vshape,
                     "); give one value or a 1-D tensor of exactly as many values "
                     "(maskedCopy takes the first values of a longer source)");
}
} // namespace detail

// What x[mask] returns: the tensor (a shared handle) and the mask's expression
// node. Reading converts to a Tensor (maskedSelect); assigning writes through.
template <class T, class D, class N>
class MaskedRef {
public:
    using value_type = T;
    using device_type = D;

    MaskedRef(Tensor<T, D> target, N mask) : target_(std::move(target)), mask_(std::move(mask)) {}
    MaskedRef(const MaskedRef&) = default;

    // ---- reading: the selected elements, a new 1-D tensor (maskedSelect) ----
    Tensor<T, D> eval() const { return target_.maskedSelect(mask_); }
    operator Tensor<T, D>() const { return eval(); }

    // ---- writing ----
    template <Arithmetic S>
    MaskedRef& operator=(S v) {
        target_.maskedFill(mask_, convert<T>(v));
        return *this;
    }
    // = values: exactly as many values as the mask selects (a 1-D tensor or
    // expression of that length), or one value (size 1, filled); otherwise a
    // ShapeError naming both counts, before anything is written. An expression
    // is evaluated once, after the check, before anything is written (it may
    // read the tensor itself).
    template <class U>
    MaskedRef& operator=(const Tensor<U, D>& src) {
        return assign_values(src.sizes(), [&] {
            if constexpr (std::is_same_v<U, T>)
                return src;
            else
                return src.template to<T>();
        });
    }
    template <Expression E>
    requires(!is_tensor_v<E>) MaskedRef& operator=(const E& e) {
        return assign_values(expr_shape(e, "x[mask] = values"),
                             [&] { return t7::eval(t7::cast<T>(e)); });
    }
    MaskedRef& operator=(const MaskedRef& o) { return *this = o.eval(); }
    template <class U, class N2>
    MaskedRef& operator=(const MaskedRef<U, D, N2>& o) {
        return *this = o.eval();
    }

    // x[mask] op= v: the selected elements only (on CUDA tensors, in a
    // translation unit compiled by nvcc: the update is a fused expression).
    template <Arithmetic S>
    MaskedRef& operator+=(S v) {
        return update("+=", op::add{}, v);
    }
    template <Arithmetic S>
    MaskedRef& operator-=(S v) {
        return update("-=", op::sub{}, v);
    }
    template <Arithmetic S>
    MaskedRef& operator*=(S v) {
        return update("*=", op::mul{}, v);
    }
    template <Arithmetic S>
    MaskedRef& operator/=(S v) {
        return update("/=", op::div{}, v);
    }

    const Tensor<T, D>& tensor() const { return target_; }
    const N& mask() const { return mask_; }

    friend std::ostream& operator<<(std::ostream& os, const MaskedRef& r) { return os << r.eval(); }

private:
    template <class F>
    MaskedRef& assign_values(const Shape& vshape, F&& make) {
        if (vshape.size() == 1 && vshape[0] == 1) { // one value: a fill
            const Tensor<T, D> v = make();
            if constexpr (std::is_same_v<D, CPU>)
                target_.maskedFill(mask_, v.data()[0]);
            else
                target_.maskedFill(mask_, v.cpu().data()[0]);
            return *this;
        }
        detail::check_writable("x[mask] = values", target_);
        if constexpr (std::is_same_v<D, CPU>) {
            op_masked_assign(detail::ops_tag{}, target_, mask_, vshape, make);
        } else { // the device's maskedSelect counts; maskedCopy writes
            const int64_t total = eval().nElement();
            detail::check_masked_values(total, vshape);
            if (total > 0) target_.maskedCopy(mask_, make());
        }
        return *this;
    }

    template <class Op, class S>
    MaskedRef& update(const char* name, Op op, S v) {
        // selected = op(selected, v), written back through the mask: the mask is
        // evaluated before anything is written, so it may read the tensor itself.
        // The update is the in-place one (x op= v) on the selection, with its
        // checks (integer division by zero) and its wrapping integer arithmetic.
        Tensor<T, D> sel = eval();
        if (sel.nElement() == 0) return *this; // nothing selected: nothing updated
        detail::update(name, sel, op, v);
        target_.maskedCopy(Leaf<uint8_t, D>(mask_bytes()), sel);
        return *this;
    }
    Tensor<uint8_t, D> mask_bytes() const {
        if constexpr (LeafOf<N, uint8_t, D>)
            return mask_.tensor();
        else if constexpr (std::is_same_v<typename N::value_type, uint8_t>)
            return t7::eval(mask_);
        else
            return t7::eval(t7::cast<uint8_t>(mask_)); // not reached: eval() rejects it first
    }

    Tensor<T, D> target_;
    N mask_;
};

// Reductions of a selection, evaluated once: t7::sum(x[x > 0]), t7::mean(x[m]).
template <class T, class D, class N>
auto sum(const MaskedRef<T, D, N>& r) {
    return t7::sum(r.eval());
}
template <class T, class D, class N>
auto prod(const MaskedRef<T, D, N>& r) {
    return t7::prod(r.eval());
}
template <class T, class D, class N>
double mean(const MaskedRef<T, D, N>& r) {
    return t7::mean(r.eval());
}
template <class T, class D, class N>
double var(const MaskedRef<T, D, N>& r) {
    return t7::var(r.eval());
}
template <class T, class D, class N>
double std(const MaskedRef<T, D, N>& r) {
    return t7::std(r.eval());
}
template <class T, class D, class N>
auto max(const MaskedRef<T, D, N>& r) {
    return t7::max(r.eval());
}
template <class T, class D, class N>
auto min(const MaskedRef<T, D, N>& r) {
    return t7::min(r.eval());
}
template <class T, class D, class N>
double norm(const MaskedRef<T, D, N>& r, double p = 2) {
    return t7::norm(r.eval(), p);
}
template <class T, class D, class N>
bool any(const MaskedRef<T, D, N>& r) {
    return t7::any(r.eval());
}

template <class T, class D>
template <Expression M>
auto Tensor<T, D>::operator[](M&& mask) const {
    auto node = as_node(std::forward<M>(mask)); // holds a temporary mask, refers to a named one
    return MaskedRef<T, D, decltype(node)>(*this, std::move(node));
}

} // namespace t7
