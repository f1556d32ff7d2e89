// Shape: a small vector of int64_t for sizes and strides. Up to 8 dimensions
// live inline (no heap), so building a view or planning a loop never allocates
// for ordinary tensors; higher ranks spill to the heap transparently.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <ostream>
#include <type_traits>
#include <utility>

namespace t7 {

class Shape {
public:
    static constexpr size_t inline_capacity = 8;

    Shape() {}
    Shape(std::initializer_list<int64_t> v) { assign(v.begin(), v.end()); }
    explicit Shape(size_t n, int64_t value = 0) {
        reserve(n);
        std::fill(data(), data() + n, value);
        size_ = n;
    }
    template <class It>
    requires(!std::is_integral_v<It>) Shape(It first, It last) { assign(first, last); }
    // Copies and moves write only the inline entries in use (copy_inline), with
    // no zeroing first: expression trees copy each leaf's shapes once and move
    // them once per level as they are built, so these are hot paths.
    Shape(const Shape& o) : size_(o.size_) {
        if (o.heap_) [[unlikely]]
            copy_heap(o);
        else
            copy_inline(o);
    }
    // No pointer into the object itself: a move copies the members and empties
    // the source.
    Shape(Shape&& o) noexcept : heap_(o.heap_), size_(o.size_), heap_cap_(o.heap_cap_) {
        copy_inline(o);
        o.heap_ = nullptr;
        o.size_ = 0;
    }
    Shape& operator=(const Shape& o) {
        if (this != &o) copy_from(o);
        return *this;
    }
    Shape& operator=(Shape&& o) noexcept {
        if (this != &o) {
            release();
            copy_inline(o);
            heap_ = std::exchange(o.heap_, nullptr);
            heap_cap_ = o.heap_cap_;
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    ~Shape() { delete[] heap_; }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int64_t* data() { return heap_ ? heap_ : inline_.data(); }
    const int64_t* data() const { return heap_ ? heap_ : inline_.data(); }
    int64_t& operator[](size_t i) { return data()[i]; }
    const int64_t& operator[](size_t i) const { return data()[i]; }
    int64_t* begin() { return data(); }
    int64_t* end() { return data() + size_; }
    const int64_t* begin() const { return data(); }
    const int64_t* end() const { return data() + size_; }
    int64_t& back() { return data()[size_ - 1]; }
    int64_t back() const { return data()[size_ - 1]; }

    void reserve(size_t n) {
        if (n <= capacity()) return;
        int64_t* p = new int64_t[n];
        std::copy(begin(), end(), p);
        release();
        heap_ = p;
        heap_cap_ = n;
    }
    void resize(size_t n, int64_t value = 0) {
        reserve(n);
        if (n > size_) std::fill(data() + size_, data() + n, value);
        size_ = n;
    }
    void clear() { size_ = 0; }
    void push_back(int64_t v) {
        if (size_ == capacity()) reserve(capacity() * 2);
        data()[size_++] = v;
    }
    void insert(size_t pos, int64_t v) {
        push_back(0);
        int64_t* d = data();
        std::copy_backward(d + pos, d + size_ - 1, d + size_);
        d[pos] = v;
    }
    void erase(size_t pos) {
        int64_t* d = data();
        std::copy(d + pos + 1, d + size_, d + pos);
        --size_;
    }

    // Product of the entries (the element count when this holds sizes).
    int64_t numel() const {
        int64_t n = 1;
        const int64_t* d = data();
        for (size_t i = 0; i < size_; ++i) n *= d[i];
        return n;
    }

    // A plain loop: ranks are small, and a memcmp call costs more than it.
    friend bool operator==(const Shape& a, const Shape& b) {
        if (a.size_ != b.size_) return false;
        const int64_t *x = a.data(), *y = b.data();
        for (size_t i = 0; i < a.size_; ++i)
            if (x[i] != y[i]) return false;
        return true;
    }

    // "2x3x4", the way Torch7 prints sizes in its footers and errors.
    friend std::ostream& operator<<(std::ostream& os, const Shape& s) {
        for (size_t i = 0; i < s.size_; ++i) os << (i ? "x" : "") << s[i];
        if (s.size_ == 0) os << "[]";
        return os;
    }

private:
    size_t capacity() const { return heap_ ? heap_cap_ : inline_capacity; }
    // A copy of more than inline_capacity entries, out of line: the inline
    // copy above stays small enough to inline into a Tensor's copy.
    [[gnu::noinline]] void copy_heap(const Shape& o) {
        size_ = 0;
        assign(o.begin(), o.end());
    }
    template <class It>
    void assign(It first, It last) {
        size_t n = size_t(std::distance(first, last));
        reserve(n);
        int64_t* d = data();
        for (size_t i = 0; i < n; ++i, ++first) d[i] = *first;
        size_ = n;
    }
    void copy_from(const Shape& o) {
        // o's inline buffer holds its entries only while o is inline: a Shape
        // that spilled to the heap keeps them there even once it shrinks.
        // Fixed-size copies of the inline buffer compile to vector moves; a
        // loop over size_ entries would become a memmove call.
        if (!o.heap_ && !heap_) {
            copy_inline(o);
            size_ = o.size_;
        } else {
            assign(o.begin(), o.end());
        }
    }
    // The inline entries in use: the first half always (one vector move), the
    // second only for ranks above half the capacity. A tree of 1- to 4-D leaves
    // then stores half the bytes per move (W3's tree builds ~25 ns faster).
    // memcpy, because the unused tail may be indeterminate.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized" // the tail, by design
#endif
    void copy_inline(const Shape& o) {
        constexpr size_t half = inline_capacity / 2;
        std::memcpy(inline_.data(), o.inline_.data(), half * sizeof(int64_t));
        if (o.size_ > half) [[unlikely]]
            std::memcpy(inline_.data() + half, o.inline_.data() + half, half * sizeof(int64_t));
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    void release() {
        delete[] heap_;
        heap_ = nullptr;
    }

    // Only the first size_ entries are meaningful; the rest may be
    // uninitialised (never read but by copy_inline's memcpy).
    std::array<int64_t, inline_capacity> inline_;
    int64_t* heap_ = nullptr; // the entries when they outgrew inline_
    size_t size_ = 0;
    size_t heap_cap_ = 0;
};

// Row-major contiguous (size-1 dimensions may have any stride).
inline bool is_contiguous(const Shape& sizes, const Shape& strides) {
    int64_t expected = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        if (sizes[d] == 1) continue;
        if (strides[d] != expected) return false;
        expected *= sizes[d];
    }
    return true;
}

// Contiguous (row-major) strides for the given sizes. Sizes whose product
// int64 cannot hold are only valid with an empty dimension, where no stride is
// used: the strides then saturate at INT64_MAX rather than overflow.
inline Shape contiguous_strides(const Shape& sizes) {
    Shape st(sizes.size(), 1);
    for (size_t i = sizes.size(); i-- > 1;)
        if (__builtin_mul_overflow(st[i], std::max<int64_t>(sizes[i], 1), &st[i - 1]))
            st[i - 1] = INT64_MAX;
    return st;
}

} // namespace t7
