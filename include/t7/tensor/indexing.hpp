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
#include <string>
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
    auto operator()(const E& e, std::initializer_list<int64_t> dims,
                    bool keepdim = true) const; // several dims
    template <Selection S>
    bool operator()(const S& s) const { // t7::all(x[mask]): the selection, evaluated once
        return (*this)(s.eval());
    }
    template <Selection S>
    auto operator()(const S& s, int64_t dim) const { // t7::all(x[mask], 0)
        return (*this)(s.eval(), dim);
    }
    template <Selection S>
    auto operator()(const S& s, std::initializer_list<int64_t> dims, bool keepdim = true) const {
        return (*this)(s.eval(), dims, keepdim);
    }
};
inline constexpr all_t all{};

// Python's slice: start, stop (exclusive), step; negative bounds count from
// the end. `none` is Python's None: with a positive step from the first
// element / to past the last, with a negative step from the last / to past the
// first (slice(none, none, -1) is x[::-1]). `end` (the default stop) is none too.
struct slice {
    static constexpr int64_t end = std::numeric_limits<int64_t>::max();
    static constexpr int64_t none = std::numeric_limits<int64_t>::min();
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

// A slice of a dimension of size n: its first index, element count and step.
struct SliceWindow {
    int64_t first, count, step;
};

// Python's rules, except that a bound out of range, a stop before the start
// (after the start, for a negative step) or a step of 0 is an IndexError
// naming dimension d: nothing is clamped silently. stop == start is empty.
inline SliceWindow slice_window(const slice& sl, int64_t n, int64_t d) {
    const int64_t step = sl.step;
    auto bad = [&](const char* why) {
        auto show = [](int64_t v) {
            return v == slice::none || v == slice::end ? std::string("none") : std::to_string(v);
        };
        fail<IndexError>("slice: (", show(sl.start), ", ", show(sl.stop), ", ", step, ") ", why,
                         " for dimension ", d, " of size ", n);
    };
    if (step == 0) bad("has step 0");
    const bool none_start = sl.start == slice::none,
               none_stop = sl.stop == slice::none || sl.stop == slice::end;
    // Wrapped bounds; a none stop is one past the last element walked.
    int64_t s = none_start ? (step > 0 ? 0 : n - 1) : (sl.start < 0 ? sl.start + n : sl.start);
    int64_t e = none_stop ? (step > 0 ? n : -1) : (sl.stop < 0 ? sl.stop + n : sl.stop);
    if (step > 0) {
        if (s < 0 || s > n || e < 0 || e > n) bad("is out of range");
        if (e < s) bad("stops before it starts");
        return {s, e == s ? 0 : (e - s - 1) / step + 1, step};
    }
    // Downwards: start in [0, n) (or the empty n = 0 walk), stop in [-1, n).
    if (e < -1 || e >= std::max<int64_t>(n, 1) || s < -1 || s >= n || (s == -1 && n > 0))
        bad("is out of range");
    if (e > s) bad("stops after it starts (negative step)");
    // -(step) may overflow for INT64_MIN: count with the negative step itself.
    return {s, e == s ? 0 : (e - s + 1) / step + 1, step};
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
                const detail::SliceWindow w = detail::slice_window(i, n, d);
                if (w.count > 0) off += w.first * strides_[d];
                sz.push_back(w.count);
                // One element (or none) needs no step (and the product may overflow).
                st.push_back(w.count <= 1 ? strides_[d] : strides_[d] * w.step);
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
