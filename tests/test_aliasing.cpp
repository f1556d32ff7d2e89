// Aliasing: assignments whose output overlaps an input must give the
// mathematically correct result, and take a temporary only when the overlap is
// read with different indexing than it is written.
#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <vector>

namespace {

t7::DoubleTensor iota(t7::Shape s, double start = 1) {
    t7::DoubleTensor t(s);
    double v = start;
    t.apply([&] { return v++; });
    return t;
}

std::vector<double> values(const t7::DoubleTensor& t) {
    std::vector<double> v;
    t.contiguous().apply([&](double x) { v.push_back(x); });
    return v;
}

} // namespace

TEST_CASE("x = x.t() + x uses the old values of x") {
    for (int64_t n : {3, 70, 300}) { // small, tiled, multithreaded sizes
        auto x = iota({n, n});
        auto ref = x.clone();
        x = x.t() + x;
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) REQUIRE(x(i, j) == ref(j, i) + ref(i, j));
    }
}

TEST_CASE("shifted narrows of one storage read the old values") {
    auto x = iota({10});
    x.narrow(0, 1, 9) = x.narrow(0, 0, 9) * 10; // forward overlap
    CHECK(values(x) == std::vector<double>{1, 10, 20, 30, 40, 50, 60, 70, 80, 90});
    auto y = iota({10});
    y.narrow(0, 0, 9) = y.narrow(0, 1, 9) + 0; // backward overlap
    CHECK(values(y) == std::vector<double>{2, 3, 4, 5, 6, 7, 8, 9, 10, 10});
}

TEST_CASE("a column broadcast out of the destination is read before it is overwritten") {
    // a -= a[:, :1]: every row subtracts its own first element (the classic trap).
    auto a = iota({3, 4});
    a = a - a.narrow(1, 0, 1);
    CHECK(values(a) == std::vector<double>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
}

TEST_CASE("an expanded view of the destination") {
    auto x = iota({4});
    auto m = t7::DoubleTensor(4, 4);
    m = x.view(1, 4).expand(4, 4); // no overlap: plain broadcast
    m = m + m.narrow(0, 0, 1);     // row 0 broadcast over m itself
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 4; ++j) CHECK(m(i, j) == 2 * double(j + 1));
}

TEST_CASE("identical views need no temporary and stay correct") {
    auto x = iota({50, 50});
    auto ref = x.clone();
    const void* before = x.data();
    x = x * 2 + 1;
    x += x;
    CHECK(x.data() == before);
    for (int64_t i = 0; i < 50; ++i) CHECK(x(i, 7) == 2 * (2 * ref(i, 7) + 1));
}

TEST_CASE("a transposed destination with its own transposed input") {
    auto x = iota({5, 5});
    auto ref = x.clone();
    x.t() = x.t() * 3; // same view on both sides: element-wise, no temporary needed
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 5; ++j) CHECK(x(i, j) == 3 * ref(i, j));
    x.t() = x + 0; // different indexing of the same memory
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 5; ++j) CHECK(x(i, j) == 3 * ref(j, i));
}

TEST_CASE("wrapped external memory aliasing is detected by address") {
    std::vector<double> buf{1, 2, 3, 4, 5, 6};
    auto s1 = t7::Storage<double>::wrap(buf.data(), 6);
    auto s2 = t7::Storage<double>::wrap(buf.data(), 6); // a different Storage, same memory
    t7::DoubleTensor a(s1, 0, {6}), b(s2, 0, {6});
    a.narrow(0, 1, 5) = b.narrow(0, 0, 5) + 0;
    CHECK(buf == std::vector<double>{1, 1, 2, 3, 4, 5});
}

TEST_CASE("copy() of an overlapping view") {
    auto x = iota({6});
    x.narrow(0, 2, 4).copy(x.narrow(0, 0, 4));
    CHECK(values(x) == std::vector<double>{1, 2, 1, 2, 3, 4});
}

TEST_CASE("y = x between tensors of one type: overlap, layouts, broadcast, self, errors") {
    // The tensor-to-tensor assignment builds its leaf table from x directly
    // (no expression node); every check of the general path still applies.
    auto x = iota({10});
    x.narrow(0, 1, 9) = x.narrow(0, 0, 9); // forward overlap: a temporary
    CHECK(values(x) == std::vector<double>{1, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto y = iota({10});
    y.narrow(0, 0, 9) = y.narrow(0, 1, 9); // backward overlap
    CHECK(values(y) == std::vector<double>{2, 3, 4, 5, 6, 7, 8, 9, 10, 10});

    auto m = iota({2, 3});
    t7::DoubleTensor t(3, 2);
    const void* tmem = t.data();
    t = m.t(); // a strided source into a contiguous destination
    CHECK(t.data() == tmem);
    CHECK(values(t) == std::vector<double>{1, 4, 2, 5, 3, 6});
    t7::DoubleTensor e; // an empty destination is allocated, contiguous
    e = m.t();
    CHECK(e.sizes() == t7::Shape{3, 2});
    CHECK(e.isContiguous());
    CHECK(e.storage() != m.storage());
    CHECK(values(e) == std::vector<double>{1, 4, 2, 5, 3, 6});
    t7::DoubleTensor r(2, 3); // a 1-D source broadcast over the rows
    r = iota({3}, 7);
    CHECK(values(r) == std::vector<double>{7, 8, 9, 7, 8, 9});

    auto& same = m; // self-assignment leaves the values and the memory as they are
    const void* mmem = m.data();
    m = same;
    CHECK(m.data() == mmem);
    CHECK(values(m) == std::vector<double>{1, 2, 3, 4, 5, 6});

    t7::DoubleTensor bad(4);
    bad.fill(7);
    CHECK_THROWS_AS(bad = m, t7::ShapeError); // nothing written
    CHECK(values(bad) == std::vector<double>(4, 7));
    t7::DoubleTensor wide(2, 3);
    wide.fill(7);
    auto ex = iota({3}).view(1, 3).expand(2, 3); // overlaps itself: not writable
    CHECK_THROWS_AS(ex = wide, t7::ShapeError);
}
