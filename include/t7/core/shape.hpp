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

namespace t7 {

class Shape {
public:
    static constexpr size_t inline_capacity = 8;

    Shape() = default;
    Shape(std::initializer_list<int64_t> v) { assign(v.begin(), v.end()); }
    explicit Shape(size_t n, int64_t value = 0) {
        reserve(n);
        std::fill(data_, data_ + n, value);
        size_ = n;
    }
    template <class It>
    requires(!std::is_integral_v<It>) Shape(It first, It last) { assign(first, last); }
    // Copies construct the inline buffer straight from the source's (no zeroing
    // first): handles are copied on every expression, so this is a hot path.
    Shape(const Shape& o) : inline_(o.inline_), size_(o.size_) {
        if (o.data_ != o.inline_.data()) [[unlikely]]
            copy_heap(o);
    }
    Shape(Shape&& o) noexcept : inline_(o.inline_), size_(o.size_) {
        if (o.data_ != o.inline_.data()) {
            data_ = o.data_;
            cap_ = o.cap_;
            o.data_ = o.inline_.data();
            o.cap_ = inline_capacity;
        }
        o.size_ = 0;
    }
    Shape& operator=(const Shape& o) {
        if (this != &o) copy_from(o);
        return *this;
    }
    Shape& operator=(Shape&& o) noexcept {
        if (this != &o) {
            release();
            steal(o);
        }
        return *this;
    }
    ~Shape() { release(); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int64_t* data() { return data_; }
    const int64_t* data() const { return data_; }
    int64_t& operator[](size_t i) { return data_[i]; }
    const int64_t& operator[](size_t i) const { return data_[i]; }
    int64_t* begin() { return data_; }
    int64_t* end() { return data_ + size_; }
    const int64_t* begin() const { return data_; }
    const int64_t* end() const { return data_ + size_; }
    int64_t& back() { return data_[size_ - 1]; }
    int64_t back() const { return data_[size_ - 1]; }

    void reserve(size_t n) {
        if (n <= cap_) return;
        int64_t* p = new int64_t[n];
        std::copy(data_, data_ + size_, p);
        release();
        data_ = p;
        cap_ = n;
    }
    void resize(size_t n, int64_t value = 0) {
        reserve(n);
        if (n > size_) std::fill(data_ + size_, data_ + n, value);
        size_ = n;
    }
    void clear() { size_ = 0; }
    void push_back(int64_t v) {
        if (size_ == cap_) reserve(cap_ * 2);
        data_[size_++] = v;
    }
    void insert(size_t pos, int64_t v) {
        push_back(0);
        std::copy_backward(data_ + pos, data_ + size_ - 1, data_ + size_);
        data_[pos] = v;
    }
    void erase(size_t pos) {
        std::copy(data_ + pos + 1, data_ + size_, data_ + pos);
        --size_;
    }

    // Product of the entries (the element count when this holds sizes).
    int64_t numel() const {
        int64_t n = 1;
        for (size_t i = 0; i < size_; ++i) n *= data_[i];
        return n;
    }

    // A plain loop: ranks are small, and a memcmp call costs more than it.
    friend bool operator==(const Shape& a, const Shape& b) {
        if (a.size_ != b.size_) return false;
        for (size_t i = 0; i < a.size_; ++i)
            if (a.data_[i] != b.data_[i]) return false;
        return true;
    }

    // "2x3x4", the way Torch7 prints sizes in its footers and errors.
    friend std::ostream& operator<<(std::ostream& os, const Shape& s) {
        for (size_t i = 0; i < s.size_; ++i) os << (i ? "x" : "") << s.data_[i];
        if (s.size_ == 0) os << "[]";
        return os;
    }

private:
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
        for (size_t i = 0; i < n; ++i, ++first) data_[i] = *first;
        size_ = n;
    }
    // Copying the whole fixed-size inline buffer compiles to a few vector moves;
    // a loop over size_ entries would become a memmove call costing more.
    void copy_inline(const Shape& o) { inline_ = o.inline_; }
    void copy_from(const Shape& o) {
        // o's inline buffer holds its entries only while o is inline: a Shape
        // that spilled to the heap keeps them there even once it shrinks.
        if (o.data_ == o.inline_.data() && data_ == inline_.data()) {
            copy_inline(o);
            size_ = o.size_;
        } else {
            assign(o.begin(), o.end());
        }
    }
    void release() {
        if (data_ != inline_.data()) delete[] data_;
        data_ = inline_.data();
        cap_ = inline_capacity;
    }
    void steal(Shape& o) {
        if (o.data_ == o.inline_.data()) {
            copy_inline(o);
            data_ = inline_.data();
            cap_ = inline_capacity;
        } else {
            data_ = o.data_;
            cap_ = o.cap_;
            o.data_ = o.inline_.data();
            o.cap_ = inline_capacity;
        }
        size_ = o.size_;
        o.size_ = 0;
    }

    // Only the first size_ entries are meaningful; the rest are initialised
    // too, so that a copy moves the whole fixed-size buffer (a few vector moves).
    std::array<int64_t, inline_capacity> inline_{};
    int64_t* data_ = inline_.data();
    size_t size_ = 0;
    size_t cap_ = inline_capacity;
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

// Contiguous (row-major) strides for the given sizes.
inline Shape contiguous_strides(const Shape& sizes) {
    Shape st(sizes.size(), 1);
    for (size_t i = sizes.size(); i-- > 1;) st[i - 1] = st[i] * std::max<int64_t>(sizes[i], 1);
    return st;
}

} // namespace t7
