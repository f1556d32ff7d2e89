// x(i, t7::all, t7::slice(a, b, step), t7::newaxis, ...): integers pick an
// element (and drop the dimension), t7::all keeps a dimension, slice narrows it
// with Python's half-open bounds (negatives count from the end), newaxis inserts
// a dimension of size 1 (as unsqueeze; it consumes no dimension of x).
// All-integer calls return a reference to the element; anything else returns a view.
#pragma once

#include "tensor.hpp"

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace t7 {

// Index marker for "the whole dimension". Called on an expression it is the
// reduction "are all elements non-zero" (defined with the reductions).
struct all_t {
    template <Expression E>
    bool operator()(const E& e) const;
    template <Expression E>
    auto operator()(const E& e, int64_t dim) const; // ByteTensor, dim kept with size 1
    template <Expression E>
    auto operator()(const E& e, std::initializer_list<int64_t> dims) const; // several dims
    template <Selection S>
    bool operator()(const S& s) const { // t7::all(x[mask]): the selection, evaluated once
        return (*this)(s.eval());
    }
    template <Selection S>
    auto operator()(const S& s, int64_t dim) const { // t7::all(x[mask], 0)
        return (*this)(s.eval(), dim);
    }
    template <Selection S>
    auto operator()(const S& s, std::initializer_list<int64_t> dims) const {
        return (*this)(s.eval(), dims);
    }
};
inline constexpr all_t all{};

struct slice {
    static constexpr int64_t end = std::numeric_limits<int64_t>::max();
    int64_t start = 0, stop = end, step = 1;
    slice(int64_t start_ = 0, int64_t stop_ = end, int64_t step_ = 1)
        : start(start_), stop(stop_), step(step_) {}
};

// Index marker for "a new dimension of size 1 here" (NumPy's np.newaxis).
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};

namespace detail {

template <class I>
concept IndexArg = std::integral<I> || std::same_as<I, all_t> || std::same_as<I, slice> ||
    std::same_as<I, newaxis_t>;

inline int64_t wrap_index(int64_t i, int64_t n, int64_t d, const char* op) {
    int64_t w = i < 0 ? i + n : i;
    if (w < 0 || w >= n)
        fail<IndexError>(op, ": index ", i, " out of range for dimension ", d, " of size ", n);
    return w;
}

} // namespace detail

template <class T, class D>
template <class... I>
decltype(auto) Tensor<T, D>::operator()(I... idx) const {
    static_assert((detail::IndexArg<I> && ...),
                  "Tensor::operator(): indices must be integers, t7::all, t7::slice or "
                  "t7::newaxis");
    constexpr int64_t consumed = (0 + ... + int64_t(!std::is_same_v<I, newaxis_t>));
    if (consumed > dim())
        detail::fail<IndexError>("index: ", consumed, " indices for a ", dim(),
                                 "-D tensor of size ", sizes_);
    if constexpr ((std::integral<I> && ...)) {
        static_assert(std::is_same_v<D, CPU>,
                      "Tensor::operator(): elements of a CUDA tensor live in device memory; "
                      "read them on the host through cpu() (slices and views are fine)");
        if (dim() == 0) // e(): no indices for no dimensions, and no element either
            detail::fail<IndexError>("index: element access on an empty tensor");
        if (int64_t(sizeof...(I)) != dim())
            detail::fail<IndexError>("index: ", sizeof...(I), " indices for a ", dim(),
                                     "-D tensor of size ", sizes_,
                                     " (element access needs one index per dimension)");
        int64_t off = offset_, d = 0;
        ((off += detail::wrap_index(int64_t(idx), sizes_[d], d, "index") * strides_[d], ++d), ...);
        return static_cast<T&>(storage_.data()[off]);
    } else {
        if (dim() == 0) detail::fail<ShapeError>("index: t7::newaxis on an empty tensor");
        Shape sz, st;
        int64_t off = offset_, d = 0;
        auto one = [&](auto i) {
            using A = decltype(i);
            const int64_t n = d < dim() ? sizes_[d] : 0;
            if constexpr (std::same_as<A, newaxis_t>) {
                // Any stride serves a size-1 dimension; this one keeps the layout
                // contiguous (as unsqueeze's). It consumes no dimension of x.
                int64_t stride = 1;
                if (d < dim() && __builtin_mul_overflow(sizes_[d], strides_[d], &stride))
                    stride = 1;
                sz.push_back(1);
                st.push_back(stride);
                return;
            } else if constexpr (std::integral<A>) {
                off += detail::wrap_index(int64_t(i), n, d, "index") * strides_[d];
            } else if constexpr (std::same_as<A, all_t>) {
                sz.push_back(n);
                st.push_back(strides_[d]);
            } else {
                if (i.step < 1)
                    detail::fail<IndexError>("slice: step ", i.step, " must be positive");
                int64_t s = i.start < 0 ? i.start + n : i.start;
                int64_t e = i.stop == slice::end ? n : (i.stop < 0 ? i.stop + n : i.stop);
                if (s < 0 || s >= n || e > n || e <= s)
                    detail::fail<IndexError>(
                        "slice: [", i.start, ", ", i.stop == slice::end ? n : i.stop,
                        ") is out of range or empty for dimension ", d, " of size ", n);
                off += s * strides_[d];
                // ceil((e - s) / step) without overflow; one element needs no step
                const int64_t count = (e - s - 1) / i.step + 1;
                sz.push_back(count);
                st.push_back(count == 1 ? strides_[d] : strides_[d] * i.step);
            }
            ++d;
        };
        (one(idx), ...);
        for (; d < dim(); ++d) {
            sz.push_back(sizes_[d]);
            st.push_back(strides_[d]);
        }
        if (sz.empty()) { // every dimension indexed by an integer: a 1-element view
            sz.push_back(1);
            st.push_back(1);
        }
        return with(off, std::move(sz), std::move(st));
    }
}

} // namespace t7
