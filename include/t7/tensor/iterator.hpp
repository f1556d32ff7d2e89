// LayoutIterator<T>: the iterator of Tensor::begin()/end(). It visits the
// elements in layout order (row-major over the sizes, whatever the strides),
// yielding T& (const T& for a const tensor). Random access: it works with
// range-for and the standard algorithms (std::accumulate, std::copy, std::sort).
// ++ and -- advance per-dimension counters (an odometer), with no division; only
// a jump (it + n) computes the position's indices. Dimensions that are
// contiguous in memory are merged first, so a contiguous tensor steps like a
// pointer. An iterator holds its own copy of the layout but not the storage:
// like a pointer, it is valid while some tensor keeps the memory alive.
#pragma once

#include "../core/shape.hpp"
#include "../iter/loop.hpp"

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

namespace t7 {

template <class T>
class LayoutIterator {
public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::remove_const_t<T>;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    LayoutIterator() = default;
    // The element at layout position `pos` (0 <= pos <= element count) of the
    // layout (sizes, strides) whose first element is at `data`.
    LayoutIterator(T* data, const Shape& sizes, const Shape& strides, int64_t pos) : data_(data) {
        numel_ = sizes.empty() ? 0 : sizes.numel();
        if (numel_ > 0) {
            std::array<const Shape*, 1> st{&strides};
            const iter::Loop<1> L = iter::make_loop<1>(sizes, st, /*reorder=*/false);
            inner_size_ = L.inner_size();
            inner_stride_ = L.inner_stride(0);
            for (size_t d = 0; d + 1 < L.rank(); ++d) { // (size, stride, index) per outer dim
                outer_.push_back(L.sizes[d]);
                outer_.push_back(L.strides[0][d]);
                outer_.push_back(0);
            }
        }
        seek(pos);
    }
    // A const iterator from a mutable one (not the other way).
    template <class U>
    requires std::is_same_v<T, const U> LayoutIterator(const LayoutIterator<U>& o)
        : data_(o.data_), off_(o.off_), pos_(o.pos_), numel_(o.numel_), col_(o.col_),
          inner_size_(o.inner_size_), inner_stride_(o.inner_stride_), outer_(o.outer_) {}

    reference operator*() const { return data_[off_]; }
    pointer operator->() const { return data_ + off_; }
    reference operator[](difference_type n) const { return *(*this + n); }

    LayoutIterator& operator++() {
        ++pos_;
        if (++col_ < inner_size_) {
            off_ += inner_stride_;
            return *this;
        }
        col_ = 0;
        off_ -= (inner_size_ - 1) * inner_stride_;
        for (size_t d = dims(); d-- > 0;) { // odometer over the outer dimensions
            if (++index(d) < size(d)) {
                off_ += stride(d);
                return *this;
            }
            off_ -= (size(d) - 1) * stride(d);
            index(d) = 0;
        }
        return *this; // past the last element: every counter is back at 0, as end() has them
    }
    LayoutIterator operator++(int) {
        LayoutIterator r = *this;
        ++*this;
        return r;
    }
    LayoutIterator& operator--() {
        --pos_;
        if (col_ > 0) {
            --col_;
            off_ -= inner_stride_;
            return *this;
        }
        col_ = inner_size_ - 1;
        off_ += (inner_size_ - 1) * inner_stride_;
        for (size_t d = dims(); d-- > 0;) {
            if (index(d) > 0) {
                --index(d);
                off_ -= stride(d);
                return *this;
            }
            index(d) = size(d) - 1;
            off_ += (size(d) - 1) * stride(d);
        }
        return *this;
    }
    LayoutIterator operator--(int) {
        LayoutIterator r = *this;
        --*this;
        return r;
    }

    LayoutIterator& operator+=(difference_type n) {
        if (n == 1) return ++*this;
        if (n == -1) return --*this;
        seek(pos_ + n);
        return *this;
    }
    LayoutIterator& operator-=(difference_type n) { return *this += -n; }
    friend LayoutIterator operator+(LayoutIterator it, difference_type n) { return it += n; }
    friend LayoutIterator operator+(difference_type n, LayoutIterator it) { return it += n; }
    friend LayoutIterator operator-(LayoutIterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const LayoutIterator& a, const LayoutIterator& b) {
        return difference_type(a.pos_ - b.pos_);
    }

    // Iterators of one traversal compare by position.
    friend bool operator==(const LayoutIterator& a, const LayoutIterator& b) {
        return a.pos_ == b.pos_;
    }
    friend std::strong_ordering operator<=>(const LayoutIterator& a, const LayoutIterator& b) {
        return a.pos_ <=> b.pos_;
    }

private:
    template <class>
    friend class LayoutIterator;

    size_t dims() const { return outer_.size() / 3; }
    int64_t size(size_t d) const { return outer_[3 * d]; }
    int64_t stride(size_t d) const { return outer_[3 * d + 1]; }
    int64_t& index(size_t d) { return outer_[3 * d + 2]; }

    // Moves to layout position p (the only divisions). The counters are those
    // of p modulo the element count, as ++ and -- leave them: end() (p = count)
    // has them all at 0, and one step before begin() at the last element.
    void seek(int64_t p) {
        pos_ = p;
        col_ = 0;
        off_ = 0;
        for (size_t d = 0; d < dims(); ++d) index(d) = 0;
        if (numel_ == 0) return;
        const int64_t q = (p % numel_ + numel_) % numel_;
        int64_t row = q / inner_size_;
        col_ = q % inner_size_;
        off_ = col_ * inner_stride_;
        for (size_t d = dims(); d-- > 0;) {
            index(d) = row % size(d);
            row /= size(d);
            off_ += index(d) * stride(d);
        }
    }

    T* data_ = nullptr;
    int64_t off_ = 0; // element offset from data_ of the current element
    int64_t pos_ = 0; // layout position (0 .. numel_)
    int64_t numel_ = 0;
    int64_t col_ = 0; // index in the innermost (merged) dimension
    int64_t inner_size_ = 1, inner_stride_ = 0;
    Shape outer_; // (size, stride, index) of each outer merged dimension
};

} // namespace t7
