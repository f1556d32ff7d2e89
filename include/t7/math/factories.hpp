// Tensor factories: zeros ones full range linspace logspace eye, the *Like
// forms of empty zeros ones full, and
// t7::tensor<T>(nested braces). Sizes are variadic integers or a Shape.
#pragma once

#include "../core/error.hpp"
#include "../tensor/copy.hpp"
#include "../tensor/tensor.hpp"
#include "../tensor/transfer.hpp"

#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace t7 {

template <class T, class D = CPU>
Tensor<T, D> zeros(const Shape& sizes) {
    Tensor<T, D> r(sizes);
    return r.zero();
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> zeros(I... sizes) {
    return zeros<T, D>(Shape{int64_t(sizes)...});
}

template <class T, class D = CPU>
Tensor<T, D> ones(const Shape& sizes) {
    Tensor<T, D> r(sizes);
    return r.fill(T(1));
}
template <class T, class D = CPU, std::integral... I>
requires(sizeof...(I) > 0) Tensor<T, D> ones(I... sizes) {
    return ones<T, D>(Shape{int64_t(sizes)...});
}

template <class T, class D = CPU>
Tensor<T, D> full(const Shape& sizes, double v) {
    Tensor<T, D> r(sizes);
    return r.fill(convert<T>(v));
}

// New contiguous tensors of x's sizes, element type and device (NumPy's
// empty_like, zeros_like, ones_like, full_like): never x's memory or strides.
template <class T, class D>
Tensor<T, D> emptyLike(const Tensor<T, D>& x) {
    typename DeviceMemory<D>::Scope scope(x.getDevice());
    return Tensor<T, D>(x.sizes());
}
template <class T, class D>
Tensor<T, D> zerosLike(const Tensor<T, D>& x) {
    return emptyLike(x).zero();
}
template <class T, class D>
Tensor<T, D> onesLike(const Tensor<T, D>& x) {
    return emptyLike(x).fill(T(1));
}
template <class T, class D>
Tensor<T, D> fullLike(const Tensor<T, D>& x, double v) {
    return emptyLike(x).fill(convert<T>(v));
}

namespace detail {
// A new 1-D tensor with element i = f(i), computed on the host. A GPU tensor
// gets the host's values in one transfer (on the current device): the same
// doubles, so range/linspace/logspace equal the CPU's bit for bit on every device
// (std::pow on a GPU may differ from the host's in the last place).
template <class T, class D, class F>
Tensor<T, D> from_index(int64_t n, F&& f) {
    Tensor<T, CPU> r(n);
    T* p = r.data();
    for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(f(i));
    if constexpr (std::is_same_v<D, CPU>) {
        return r;
    } else {
        Tensor<T, D> g(n);
        g.copy(r);
        return g;
    }
}
} // namespace detail

// a, a + step, ... up to and including b (Torch7's torch.range): floor((b - a) / step) + 1 values.
template <class T, class D = CPU>
Tensor<T, D> range(double a, double b, double step = 1) {
    if (step == 0 || !std::isfinite(step))
        detail::fail<Error>("range: step ", step, " must be a non-zero finite number");
    if (!std::isfinite(a) || !std::isfinite(b))
        detail::fail<Error>("range: bounds ", a, " and ", b, " must be finite");
    if ((b - a) / step < 0)
        detail::fail<Error>("range: step ", step, " has the wrong sign to go from ", a, " to ", b);
    const double count = std::floor((b - a) / step) + 1;
    if (count > 1e15) detail::fail<Error>("range: ", count, " elements is too many");
    return detail::from_index<T, D>(int64_t(count),
                                    [&](int64_t i) { return a + double(i) * step; });
}

// n values evenly spaced from a to b (both included); n = 1 gives a.
template <class T, class D = CPU>
Tensor<T, D> linspace(double a, double b, int64_t n = 100) {
    if (n < 1) detail::fail<ShapeError>("linspace: number of points ", n, " must be positive");
    if (n == 1) return detail::from_index<T, D>(1, [&](int64_t) { return a; });
    const double step = (b - a) / double(n - 1);
    return detail::from_index<T, D>(
        n, [&](int64_t i) { return i == n - 1 ? b : a + double(i) * step; });
}

// n values 10^x for x evenly spaced from a to b.
template <class T, class D = CPU>
Tensor<T, D> logspace(double a, double b, int64_t n = 100) {
    if (n < 1) detail::fail<ShapeError>("logspace: number of points ", n, " must be positive");
    const double step = n == 1 ? 0 : (b - a) / double(n - 1);
    return detail::from_index<T, D>(n, [&](int64_t i) {
        return std::pow(10.0, i == n - 1 && n > 1 ? b : a + double(i) * step);
    });
}

// n x m (m = n by default) with ones on the main diagonal.
template <class T, class D = CPU>
Tensor<T, D> eye(int64_t n, int64_t m = -1) {
    if (m < 0) m = n;
    if (n < 1 || m < 1) detail::fail<ShapeError>("eye: sizes ", n, "x", m, " must be positive");
    Tensor<T, D> r = zeros<T, D>(n, m);
    Tensor<T, D> d(r.storage(), 0, Shape{std::min(n, m)}, Shape{m + 1}); // the diagonal
    d.fill(T(1));
    return r;
}

// ---- t7::tensor<T>({{1, 2}, {3, 4}}) ---------------------------------------------------

// One level of nested braces: a number, or a list of NestedList.
template <class T>
class NestedList {
public:
    template <Arithmetic S>
    NestedList(S v) : value_(convert<T>(v)), leaf_(true) {}
    NestedList(std::initializer_list<NestedList> l) : list_(l) {}

    bool leaf() const { return leaf_; }
    T value() const { return value_; }
    const std::initializer_list<NestedList>& list() const { return list_; }

private:
    std::initializer_list<NestedList> list_;
    T value_{};
    bool leaf_ = false;
};

namespace detail {
// "[1][0]": where in the braces an element sits.
inline std::string brace_position(const Shape& where) {
    std::string s;
    for (int64_t i : where) {
        s += '[';
        s += std::to_string(i);
        s += ']';
    }
    return s.empty() ? "[]" : s;
}

template <class T>
void nested_fill(const NestedList<T>& l, const Shape& shape, size_t depth, Shape& where, T*& out) {
    if (l.leaf()) {
        if (depth != shape.size())
            fail<ShapeError>("tensor: invalid tensor sizes: a number at ", brace_position(where),
                             " where a list of ", shape[depth], " was expected (size ", shape, ")");
        *out++ = l.value();
        return;
    }
    if (depth == shape.size())
        fail<ShapeError>("tensor: invalid tensor sizes: a list of ", l.list().size(), " at ",
                         brace_position(where), " where a number was expected (size ", shape, ")");
    if (int64_t(l.list().size()) != shape[depth])
        fail<ShapeError>("tensor: invalid tensor sizes: a list of ", l.list().size(), " at ",
                         brace_position(where), " where a list of ", shape[depth],
                         " was expected (size ", shape, ")");
    where.push_back(0);
    for (const NestedList<T>& c : l.list()) {
        nested_fill(c, shape, depth + 1, where, out);
        ++where.back();
    }
    where.erase(where.size() - 1);
}
} // namespace detail

// A tensor from nested braces; every list at one depth must have the same length
// (else ShapeError, like Torch7's "invalid tensor sizes"). {} gives an empty tensor.
template <class T, class D = CPU>
Tensor<T, D> tensor(std::initializer_list<NestedList<T>> values) {
    static_assert(std::is_same_v<D, CPU>, "tensor: build on the CPU, then copy to the device");
    if (values.size() == 0) return Tensor<T, D>();
    NestedList<T> top(values);
    Shape shape; // along the first elements
    for (const NestedList<T>* l = &top; !l->leaf(); l = l->list().begin()) {
        if (l->list().size() == 0)
            detail::fail<ShapeError>("tensor: invalid tensor sizes: an empty list at depth ",
                                     shape.size());
        shape.push_back(int64_t(l->list().size()));
    }
    Tensor<T, D> r(shape);
    T* out = r.data();
    Shape where;
    detail::nested_fill(top, shape, 0, where, out);
    return r;
}

} // namespace t7
