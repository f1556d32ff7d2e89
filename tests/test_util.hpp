// Small helpers shared by the doctest suites: reading and writing tensors
// straight from sizes/strides/data() (so that a check does not depend on the
// operations under test), doctest printers, and exception checks.
#pragma once

#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace test_util {

using t7::Shape;
using t7::Storage;
using t7::Tensor;
using Values = std::vector<double>;

// Calls f(n, offset) for the n-th element of t in layout (row-major) order;
// offset is its position relative to t.data().
template <class T, class F>
void for_each_offset(const Tensor<T>& t, F&& f) {
    if (t.dim() == 0) return;
    std::vector<int64_t> idx(size_t(t.dim()), 0);
    for (int64_t n = 0; n < t.nElement(); ++n) {
        int64_t off = 0;
        for (int64_t d = 0; d < t.dim(); ++d) off += idx[size_t(d)] * t.stride(d);
        f(n, off);
        for (int64_t d = t.dim() - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < t.size(d)) break;
            idx[size_t(d)] = 0;
        }
    }
}

// Elements in layout order.
template <class T>
Values values(const Tensor<T>& t) {
    Values v;
    for_each_offset(t, [&](int64_t, int64_t off) { v.push_back(double(t.data()[off])); });
    return v;
}

// Writes start, start + 1, ... in layout order (Torch7's `i = i + 1; return i`).
template <class T>
void fill_seq(const Tensor<T>& t, double start = 1) {
    for_each_offset(t, [&](int64_t n, int64_t off) { t.data()[off] = T(start + double(n)); });
}

// Writes the given values in layout order.
template <class T>
void fill_values(const Tensor<T>& t, const Values& v) {
    REQUIRE(int64_t(v.size()) == t.nElement());
    for_each_offset(t, [&](int64_t n, int64_t off) { t.data()[off] = T(v[size_t(n)]); });
}

template <class T>
Values storage_values(const Storage<T>& s) {
    Values v;
    for (int64_t i = 0; i < s.size(); ++i) v.push_back(double(s[i]));
    return v;
}

// torch.range(1, n):view(sizes): a new contiguous tensor holding start, start + 1, ...
template <class T = double>
Tensor<T> seq(const Shape& sizes, double start = 1) {
    Tensor<T> t(sizes);
    fill_seq(t, start);
    return t;
}

// from, from + 1, ..., to (inclusive, like torch.range)
inline Values iota(int from, int to) {
    Values v;
    for (int i = from; i <= to; ++i) v.push_back(i);
    return v;
}

// A view shares the storage and starts where its offset says.
template <class T>
void check_shares(const Tensor<T>& view, const Tensor<T>& src) {
    CHECK(view.storage() == src.storage());
    CHECK(view.storage().data() == src.storage().data());
    CHECK(view.data() == src.storage().data() + view.storageOffset());
}

// Runs f, which must throw E, and returns the exception's message.
template <class E, class F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        FAIL("expected another exception type, got: ", e.what());
        return {};
    }
    FAIL("expected an exception, nothing was thrown");
    return {};
}

template <class V>
std::string braced(const V& v) {
    std::ostringstream os;
    os << "{";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "}";
    return os.str();
}

} // namespace test_util

namespace doctest {
template <>
struct StringMaker<test_util::Values> {
    static String convert(const test_util::Values& v) { return test_util::braced(v).c_str(); }
};
template <>
struct StringMaker<t7::Shape> {
    static String convert(const t7::Shape& v) { return test_util::braced(v).c_str(); }
};
} // namespace doctest

// expr throws Type with a message that names the operation op.
#define CHECK_THROWS_OP(expr, Type, op) CHECK_THROWS_WITH_AS(expr, doctest::Contains(op), Type)
