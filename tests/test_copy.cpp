// copy, fill, zero, clone, contiguous and type conversions: Torch7's examples
// (shared/torch7/tensor_constructors.txt) translated to 0-based C++, then every
// element type x source / destination layouts. copy pairs elements in each
// tensor's own row-major (layout) order; shapes may differ, counts may not.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace t7;
using namespace test_util;

// ---------------------------------------------------------------------------------
// Torch7's examples
// ---------------------------------------------------------------------------------

TEST_CASE("fill a narrowed view, copy into a new tensor, clone") {
    // x = torch.Tensor(5):zero(); x:narrow(1, 2, 3):fill(1)
    DoubleTensor x(5);
    CHECK(&x.zero() == &x);
    CHECK(values(x) == Values(5, 0.0));
    DoubleTensor n = x.narrow(0, 1, 3);
    CHECK(&n.fill(1) == &n);
    CHECK(values(n) == Values{1, 1, 1});
    CHECK(values(x) == Values{0, 1, 1, 1, 0});
    // y = torch.Tensor(x:size()):copy(x)
    DoubleTensor y(x.sizes());
    CHECK(&y.copy(x) == &y);
    CHECK(values(y) == Values{0, 1, 1, 1, 0});
    CHECK_FALSE(y.storage() == x.storage());
    // y = x:clone()
    DoubleTensor c = x.clone();
    CHECK(values(c) == Values{0, 1, 1, 1, 0});
    CHECK_FALSE(c.storage() == x.storage());
    c.fill(5);
    CHECK(values(x) == Values{0, 1, 1, 1, 0});
}

TEST_CASE("fill and zero") {
    // x = torch.Tensor(2,5):fill(3.14)
    DoubleTensor x(2, 5);
    x.fill(3.14);
    CHECK(values(x) == Values(10, 3.14));
    // torch.DoubleTensor(4):fill(3.14), torch.Tensor(4):zero()
    DoubleTensor a(4);
    CHECK(values(a.fill(3.14)) == Values(4, 3.14));
    CHECK(values(a.zero()) == Values(4, 0.0));
    // fill on an IntTensor truncates the value as Torch7's C cast does
    IntTensor i(3);
    i = 3.14; // a scalar assignment is a fill
    CHECK(values(i) == Values{3, 3, 3});
    i = 2.7;
    CHECK(values(i) == Values{2, 2, 2});
    ByteTensor b(2);
    b = -2.7;
    CHECK(values(b) == Values{254, 254});
    // on views: only the viewed elements change
    DoubleTensor m(3, 4);
    m.zero();
    m.t()[1].fill(7); // column 1
    m.narrow(0, 2, 1).fill(8);
    CHECK(values(m) == Values{0, 7, 0, 0, 0, 7, 0, 0, 8, 8, 8, 8});
    m(slice(0, 3, 2), slice(0, 4, 3)).zero();
    CHECK(values(m) == Values{0, 7, 0, 0, 0, 7, 0, 0, 0, 8, 8, 0});
    // through a zero stride
    DoubleTensor one(1);
    one.expand(6).fill(4);
    CHECK(one(0) == 4);
    // an empty tensor has nothing to fill
    DoubleTensor e;
    CHECK(&e.fill(1) == &e);
    CHECK(e.dim() == 0);
    CHECK(e.zero().nElement() == 0);
}

TEST_CASE("copy: shapes may differ, element types may differ") {
    // x = torch.Tensor(4):fill(1); y = torch.Tensor(2,2):copy(x)
    DoubleTensor x(4);
    x.fill(1);
    DoubleTensor y(2, 2);
    y.copy(x);
    CHECK(values(x) == Values{1, 1, 1, 1});
    CHECK(values(y) == Values{1, 1, 1, 1});
    CHECK(y.sizes() == Shape{2, 2});
    // torch.Tensor(2,3):copy(torch.IntTensor({1,2,3,4,5,6}))
    IntTensor src(6);
    fill_seq(src);
    DoubleTensor d(2, 3);
    d.copy(src);
    CHECK(values(d) == Values{1, 2, 3, 4, 5, 6});
    CHECK(d.sizes() == Shape{2, 3});
    CHECK(d.type() == "torch.DoubleTensor");
    // torch.IntTensor(3):copy(torch.Tensor({1.9, -1.9, 2.5}))
    DoubleTensor f(3);
    f(0) = 1.9;
    f(1) = -1.9;
    f(2) = 2.5;
    IntTensor t(3);
    t.copy(f);
    CHECK(values(t) == Values{1, -1, 2});
    // Byte wraps like Torch7
    DoubleTensor w(3);
    w(0) = -2.7;
    w(1) = 300;
    w(2) = 255.9;
    CHECK(values(ByteTensor(3).copy(w)) == Values{254, 44, 255});
    // 3-D into 1-D and back
    DoubleTensor cube = seq({2, 3, 4});
    DoubleTensor flat(24);
    flat.copy(cube);
    CHECK(values(flat) == iota(1, 24));
    DoubleTensor back(4, 6);
    back.copy(cube);
    CHECK(values(back) == iota(1, 24));
}

TEST_CASE("copy: layout order of transposed and other strided tensors") {
    DoubleTensor x = seq({2, 3}); // 1 2 3 / 4 5 6
    // a transposed source is read in its own row-major order
    DoubleTensor a(3, 2);
    a.copy(x.t());
    CHECK(values(a) == Values{1, 4, 2, 5, 3, 6});
    DoubleTensor b(6);
    b.copy(x.t());
    CHECK(values(b) == Values{1, 4, 2, 5, 3, 6});
    DoubleTensor b2(2, 3);
    b2.copy(x.t());
    CHECK(values(b2) == Values{1, 4, 2, 5, 3, 6});
    // a transposed destination is written in its own row-major order
    DoubleTensor z(3, 2);
    z.t().copy(seq({6}));
    CHECK(values(z) == Values{1, 4, 2, 5, 3, 6});
    DoubleTensor z2(3, 2);
    z2.t().copy(x);
    CHECK(values(z2) == Values{1, 4, 2, 5, 3, 6});
    // both transposed
    DoubleTensor z3(3, 2);
    z3.t().copy(x.t().contiguous().t());
    CHECK(values(z3.t()) == values(x));
    // a narrowed destination leaves the rest alone
    DoubleTensor m(4, 4);
    m.zero();
    m.narrow(1, 1, 2).copy(seq({8}));
    CHECK(values(m) == Values{0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0, 7, 8, 0});
    // an expanded source
    DoubleTensor e(2, 3);
    e.copy(seq({1, 3}).expand(2, 3));
    CHECK(values(e) == Values{1, 2, 3, 1, 2, 3});
    DoubleTensor e2(6);
    e2.copy(seq({3, 1}).expand(3, 2));
    CHECK(values(e2) == Values{1, 1, 2, 2, 3, 3});
    // a stepped source into a column
    DoubleTensor col(3, 3);
    col.zero();
    col(all, 2).copy(seq({7})(slice(0, 7, 3)));
    CHECK(values(col) == Values{0, 0, 1, 0, 0, 4, 0, 0, 7});
    // the source is never modified
    CHECK(values(x) == Values{1, 2, 3, 4, 5, 6});
}

TEST_CASE("copy between overlapping views of one tensor") {
    DoubleTensor x = seq({3, 3});
    x.copy(x);
    CHECK(values(x) == iota(1, 9));
    x.copy(x.t());
    CHECK(values(x) == Values{1, 4, 7, 2, 5, 8, 3, 6, 9});
    DoubleTensor v = seq({6});
    v.narrow(0, 1, 5).copy(v.narrow(0, 0, 5));
    CHECK(values(v) == Values{1, 1, 2, 3, 4, 5});
    // shapes differ and memory overlaps
    DoubleTensor w = seq({6});
    w.narrow(0, 0, 4).view(2, 2).copy(w.narrow(0, 2, 4));
    CHECK(values(w) == Values{3, 4, 5, 6, 5, 6});
}

TEST_CASE("copy: errors") {
    DoubleTensor x(4);
    CHECK_THROWS_OP(DoubleTensor(5).copy(x), ShapeError, "copy");
    CHECK_THROWS_OP(DoubleTensor(2, 3).copy(x), ShapeError, "copy");
    CHECK_THROWS_OP(IntTensor(3).copy(x), ShapeError, "copy");
    CHECK_THROWS_OP(DoubleTensor().copy(x), ShapeError, "copy");
    CHECK_THROWS_OP(x.copy(DoubleTensor()), ShapeError, "copy");
    // the message names both element counts
    CHECK_THROWS_WITH_AS(DoubleTensor(5).copy(x), doctest::Contains("4"), ShapeError);
    CHECK_THROWS_WITH_AS(DoubleTensor(5).copy(x), doctest::Contains("5"), ShapeError);
    // two empty tensors: nothing to do
    DoubleTensor e;
    CHECK(&e.copy(DoubleTensor()) == &e);
    CHECK(e.dim() == 0);
}

TEST_CASE("clone: a contiguous copy with its own storage") {
    // i = 0; x = torch.Tensor(5):apply(...); y = x:clone(); y:fill(1)
    DoubleTensor x = seq({5});
    DoubleTensor y = x.clone();
    CHECK(values(y) == Values{1, 2, 3, 4, 5});
    y.fill(1);
    CHECK(values(y) == Values(5, 1.0));
    CHECK(values(x) == Values{1, 2, 3, 4, 5});
    // xt = torch.Tensor(2,3):apply(...):t()
    DoubleTensor xt = seq({2, 3}).t();
    CHECK_FALSE(xt.isContiguous());
    DoubleTensor c = xt.clone();
    CHECK(c.isContiguous());
    CHECK(c.sizes() == Shape{3, 2});
    CHECK(c.strides() == Shape{2, 1});
    CHECK(c.storageOffset() == 0);
    CHECK(c.storage().size() == 6);
    CHECK(values(c) == Values{1, 4, 2, 5, 3, 6});
    CHECK_FALSE(c.storage() == xt.storage());
    // of a view with an offset, and of an expanded tensor: just the elements
    DoubleTensor big = seq({10});
    DoubleTensor part = big.narrow(0, 6, 3).clone();
    CHECK(part.storageOffset() == 0);
    CHECK(part.storage().size() == 3);
    CHECK(values(part) == Values{7, 8, 9});
    DoubleTensor ex = seq({1, 3}).expand(4, 3).clone();
    CHECK(ex.strides() == Shape{3, 1});
    CHECK(values(ex) == Values{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
    // an empty tensor clones to an empty tensor
    CHECK(DoubleTensor().clone().dim() == 0);
}

TEST_CASE("contiguous: the same tensor when already contiguous, else a copy") {
    // x = torch.Tensor(2,3):fill(1); y = x:contiguous():fill(2)
    DoubleTensor x(2, 3);
    x.fill(1);
    DoubleTensor y = x.contiguous();
    CHECK(y.isSetTo(x));
    y.fill(2);
    CHECK(values(x) == Values(6, 2.0));
    // z = x:t():contiguous():fill(3.14)
    DoubleTensor z = x.t().contiguous();
    CHECK(z.sizes() == Shape{3, 2});
    CHECK(z.isContiguous());
    CHECK_FALSE(z.storage() == x.storage());
    z.fill(3.14);
    CHECK(values(z) == Values(6, 3.14));
    CHECK(values(x) == Values(6, 2.0));
    // contiguous views stay views (rows of a matrix, size-1 dims with odd strides)
    DoubleTensor m = seq({4, 4});
    CHECK(m.narrow(0, 1, 2).contiguous().isSetTo(m.narrow(0, 1, 2)));
    CHECK(m[2].contiguous().isSetTo(m[2]));
    DoubleTensor odd(Shape{1, 3}, Shape{7, 1});
    CHECK(odd.contiguous().isSetTo(odd));
    // a column is copied
    DoubleTensor col = m.select(1, 2).contiguous();
    CHECK_FALSE(col.storage() == m.storage());
    CHECK(values(col) == Values{3, 7, 11, 15});
}

TEST_CASE("type conversions: to<U>, toX and typeAs") {
    // x = torch.Tensor(3):fill(3.14); y = x:type('torch.DoubleTensor'); y:zero()
    DoubleTensor x(3);
    x.fill(3.14);
    DoubleTensor y = x.to<double>();
    CHECK(y.isSetTo(x)); // the same type returns the same tensor
    y.zero();
    CHECK(values(x) == Values{0, 0, 0});
    CHECK(x.toDouble().isSetTo(x));
    CHECK(x.typeAs(DoubleTensor()).isSetTo(x));
    // x = torch.Tensor(3):fill(3.14); y = x:type('torch.IntTensor')
    x.fill(3.14);
    IntTensor i = x.to<int32_t>();
    CHECK(i.type() == "torch.IntTensor");
    CHECK(values(i) == Values{3, 3, 3});
    CHECK(values(x.toInt()) == Values{3, 3, 3});
    // x:typeAs(torch.IntTensor()), x:typeAs(torch.FloatTensor())
    IntTensor ti = x.typeAs(IntTensor());
    CHECK(values(ti) == Values{3, 3, 3});
    FloatTensor tf = x.typeAs(FloatTensor());
    CHECK(tf.type() == "torch.FloatTensor");
    CHECK(tf(0) == 3.14f);
    // a conversion is a new tensor
    i.fill(9);
    CHECK(x(0) == 3.14);
    CHECK_FALSE(tf.data() == nullptr);
    // every toX gives its type
    CHECK(x.toByte().type() == "torch.ByteTensor");
    CHECK(x.toChar().type() == "torch.CharTensor");
    CHECK(x.toShort().type() == "torch.ShortTensor");
    CHECK(x.toLong().type() == "torch.LongTensor");
    CHECK(x.toFloat().type() == "torch.FloatTensor");
    // of a non-contiguous tensor: same shape, contiguous, same values
    DoubleTensor t = seq({2, 3}).t();
    LongTensor l = t.toLong();
    CHECK(l.sizes() == Shape{3, 2});
    CHECK(l.isContiguous());
    CHECK(values(l) == Values{1, 4, 2, 5, 3, 6});
    // of an empty tensor
    CHECK(DoubleTensor().toFloat().dim() == 0);
}

// ---------------------------------------------------------------------------------
// Every element type, every pair of layouts
// ---------------------------------------------------------------------------------

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;

// Calls f(Tensor<U>{}) once per element type U.
template <class F>
void for_each_type(F&& f) {
    std::apply([&](auto... u) { (f(Tensor<decltype(u)>()), ...); }, AllTypes{});
}

// A 3x4 tensor of element type T in the named layout, holding 1..12 in layout order.
template <class T>
Tensor<T> make_layout(const std::string& layout) {
    Tensor<T> t;
    // set() rebinds the handle (`t = view` would copy values into a new tensor)
    if (layout == "contiguous") t.set(Tensor<T>(3, 4));
    if (layout == "transposed") t.set(Tensor<T>(4, 3).t());
    if (layout == "narrowed") t.set(Tensor<T>(5, 6).narrow(0, 1, 3).narrow(1, 2, 4));
    if (layout == "stepped") t.set(Tensor<T>(3, 8)(all, slice(0, 8, 2)));
    REQUIRE(t.isContiguous() == (layout == "contiguous"));
    fill_seq(t);
    return t;
}

TEST_CASE_TEMPLATE("copy from every element type in every pair of layouts", T, uint8_t, int8_t,
                   int16_t, int32_t, int64_t, float, double) {
    const std::vector<std::string> layouts{"contiguous", "transposed", "narrowed", "stepped"};
    for (const auto& dl : layouts) {
        for (const auto& sl : layouts) {
            for_each_type([&](auto tag) {
                using U = typename decltype(tag)::value_type;
                CAPTURE(dl);
                CAPTURE(sl);
                Tensor<T> dst = make_layout<T>(dl);
                const Storage<T> before = dst.storage();
                Tensor<U> src = make_layout<U>(sl);
                fill_seq(src, 21); // 21..32 in the source's layout order
                dst.copy(src);
                CHECK(values(dst) == iota(21, 32));
                CHECK(dst.storage() == before); // in place
                CHECK(dst.sizes() == Shape{3, 4});
                CHECK(values(src) == iota(21, 32));
                // into another shape: a 2x6 and a 12-element destination
                Tensor<T> d2(2, 6);
                d2.copy(src);
                CHECK(values(d2) == iota(21, 32));
                Tensor<T> d3(12);
                d3.copy(src.t());
                CHECK(values(d3) == values(src.t()));
            });
        }
    }
}

TEST_CASE_TEMPLATE("fill, zero, clone, contiguous and conversions of every type", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double) {
    Tensor<T> base(5, 6);
    base.zero();
    Tensor<T> x;
    SUBCASE("contiguous") {
        x.set(Tensor<T>(3, 4));
        REQUIRE(x.isContiguous());
    }
    SUBCASE("transposed") {
        x.set(Tensor<T>(4, 3).t());
        REQUIRE_FALSE(x.isContiguous());
    }
    SUBCASE("narrowed") {
        x.set(base.narrow(0, 1, 3).narrow(1, 1, 4));
        REQUIRE_FALSE(x.isContiguous());
    }
    REQUIRE(x.sizes() == Shape{3, 4});

    x.fill(T(5));
    CHECK(values(x) == Values(12, 5.0));
    x.zero();
    CHECK(values(x) == Values(12, 0.0));
    x = T(6);
    CHECK(values(x) == Values(12, 6.0));
    if (x.storage() == base.storage()) { // the frame around the narrowed view is untouched
        CHECK(base(0, 0) == T(0));
        CHECK(base(4, 5) == T(0));
        CHECK(base(1, 5) == T(0));
        CHECK(base(1, 1) == T(6));
    }

    fill_seq(x);
    Tensor<T> c = x.clone();
    CHECK(c.isContiguous());
    CHECK(c.sizes() == x.sizes());
    CHECK(values(c) == iota(1, 12));
    CHECK_FALSE(c.storage() == x.storage());
    c.fill(T(0));
    CHECK(values(x) == iota(1, 12));

    Tensor<T> k = x.contiguous();
    CHECK(k.isContiguous());
    CHECK(values(k) == iota(1, 12));
    CHECK((k.storage() == x.storage()) == x.isContiguous());

    for_each_type([&](auto tag) {
        using U = typename decltype(tag)::value_type;
        Tensor<U> u = x.template to<U>();
        CHECK(u.sizes() == x.sizes());
        CHECK(values(u) == iota(1, 12));
        CHECK(values(x.typeAs(tag)) == iota(1, 12));
        if constexpr (std::is_same_v<U, T>) {
            CHECK(u.isSetTo(x)); // the same type: the same tensor, whatever its layout
        } else {
            CHECK(u.isContiguous()); // another type: a new contiguous tensor
            CHECK(static_cast<const void*>(u.data()) != static_cast<const void*>(x.data()));
        }
    });
    CHECK(values(x.toByte()) == iota(1, 12));
    CHECK(values(x.toChar()) == iota(1, 12));
    CHECK(values(x.toShort()) == iota(1, 12));
    CHECK(values(x.toInt()) == iota(1, 12));
    CHECK(values(x.toLong()) == iota(1, 12));
    CHECK(values(x.toFloat()) == iota(1, 12));
    CHECK(values(x.toDouble()) == iota(1, 12));
}

// ---------------------------------------------------------------------------------
// Large copies on the pool (issue 43): y = x and copy() split over the threads
// with the other assignments' threshold (twice the grain: 2^18 floats, 2^17
// doubles), contiguous (memcpy by parts), transposed and strided; small ones stay
// on the calling thread. detail::threaded_loops counts the loops on the pool.
// ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("large copies run on the pool, small ones on the calling thread", T, float,
                   double) {
    const int before = getNumThreads();
    const int64_t rows = 1024, cols = 512; // 2^19 elements
    Tensor<T> x(rows, cols);
    x.uniform(-1, 1);
    const Tensor<T> xt = x.t(), xs = x.narrow(1, 0, cols).view({rows * cols / 2, 2}).select(1, 0);
    struct Case {
        const char* name;
        const Tensor<T>* src;
    };
    for (const Case c : {Case{"contiguous", &x}, Case{"transposed", &xt}, Case{"strided", &xs}}) {
        CAPTURE(c.name);
        Tensor<T> want(c.src->sizes());
        std::vector<T> flat;
        for (int64_t i = 0; i < c.src->nElement(); ++i) {
            const int64_t r = i / c.src->size(c.src->dim() - 1),
                          k = i % c.src->size(c.src->dim() - 1);
            flat.push_back(c.src->dim() == 1 ? T((*c.src)(i)) : T((*c.src)(r, k)));
        }
        for (int threads : {1, 2}) {
            CAPTURE(threads);
            setNumThreads(threads);
            Tensor<T> y(c.src->sizes());
            const uint64_t loops = detail::threaded_loops();
            y = *c.src;
            CHECK(detail::threaded_loops() - loops == (threads == 2 ? 1u : 0u));
            const Tensor<T> yc = y.contiguous();
            CHECK(std::equal(flat.begin(), flat.end(), yc.data()));
            Tensor<T> z(c.src->sizes());
            z.copy(*c.src);
            CHECK(equal(z, y));
        }
    }
    // a small copy: no pool loop at two threads
    setNumThreads(2);
    Tensor<T> s(1024), d(1024);
    s.uniform(-1, 1);
    const uint64_t loops = detail::threaded_loops();
    d = s;
    CHECK(detail::threaded_loops() == loops);
    CHECK(equal(d, s));
    setNumThreads(before);
}

// Copies of 16 MiB or more stream past the cache (eval/cpu/stream_copy.hpp): a
// destination and a source at every offset from a vector boundary, every length
// up to a few vectors past the threshold, at one and two threads.
TEST_CASE_TEMPLATE("copies past the streaming threshold: every alignment and tail", T, float,
                   double) {
    const int before = getNumThreads();
    const int64_t n = (int64_t(16) << 20) / int64_t(sizeof(T)) + 40;
    Tensor<T> x(n), y(n);
    x.uniform(-1, 1);
    for (int threads : {1, 2})
        for (int64_t src_off : {0, 1, 3})
            for (int64_t dst_off : {0, 1, 5})
                for (int64_t len : {n - 40, n - 17, n - 6}) {
                    CAPTURE(threads);
                    CAPTURE(src_off);
                    CAPTURE(dst_off);
                    CAPTURE(len);
                    setNumThreads(threads);
                    y.fill(T(7));
                    Tensor<T> d = y.narrow(0, dst_off, len);
                    d = x.narrow(0, src_off, len);
                    CHECK(std::equal(x.data() + src_off, x.data() + src_off + len,
                                     y.data() + dst_off));
                    CHECK(std::all_of(y.data(), y.data() + dst_off, [](T v) { return v == T(7); }));
                    CHECK(std::all_of(y.data() + dst_off + len, y.data() + n,
                                      [](T v) { return v == T(7); }));
                }
    setNumThreads(before);
}
