// Indexing and assignment through views: the non-mask examples of Torch7's
// "Tensor indexing" documentation (shared/torch7/tensor_indexing.txt), with
// Torch7's x[{...}] written as x(i | t7::all | t7::slice(start, stop, step)):
// 0-based, Python's half-open slices, negatives from the end. Assignments
// through any view must write into the original tensor's storage.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;

// ---------------------------------------------------------------------------------
// Reading: integers, t7::all, t7::slice
// ---------------------------------------------------------------------------------

TEST_CASE("indexing a 3x3 matrix as in Torch7's documentation") {
    // x = torch.Tensor(3,3); i = 0; x:apply(function() i = i + 1; return i end)
    DoubleTensor x = seq({3, 3});
    // x[2] -- row 2
    DoubleTensor r = x(1, all);
    CHECK(r.sizes() == Shape{3});
    CHECK(values(r) == Values{4, 5, 6});
    CHECK(r.isSetTo(x[1]));
    check_shares(r, x);
    // x[2][3], x[{2,3}], x[torch.LongStorage{2,3}]
    CHECK(x(1, 2) == 6);
    CHECK(x[1](2) == 6);
    // x[-1], x[-1][-1], x[{-1,-2}]
    CHECK(values(x(-1, all)) == Values{7, 8, 9});
    CHECK(x(-1, -1) == 9);
    CHECK(x(-1, -2) == 8);
    // x[{2}] -- a single integer selects (as does x[2])
    CHECK(values(x(1, all)) == Values{4, 5, 6});
    // x[{{2}}] -- a range keeps the dimension: 1x3
    DoubleTensor a = x(slice(1, 2));
    CHECK(a.sizes() == Shape{1, 3});
    CHECK(values(a) == Values{4, 5, 6});
    check_shares(a, x);
    // x[{{2,3}}] -- 2x3
    DoubleTensor b = x(slice(1, 3));
    CHECK(b.sizes() == Shape{2, 3});
    CHECK(b.strides() == Shape{3, 1});
    CHECK(b.storageOffset() == 3);
    CHECK(values(b) == Values{4, 5, 6, 7, 8, 9});
    // x[{{},2}] -- column 2: size 3
    DoubleTensor c = x(all, 1);
    CHECK(c.sizes() == Shape{3});
    CHECK(c.strides() == Shape{3});
    CHECK(c.storageOffset() == 1);
    CHECK(values(c) == Values{2, 5, 8});
    // x[{{},{2}}] -- 3x1
    DoubleTensor d = x(all, slice(1, 2));
    CHECK(d.sizes() == Shape{3, 1});
    CHECK(values(d) == Values{2, 5, 8});
    // x[{{-2,-1},{1,2}}] -- rows -2..-1 inclusive: slice(-2) to the end
    DoubleTensor e = x(slice(-2), slice(0, 2));
    CHECK(e.sizes() == Shape{2, 2});
    CHECK(values(e) == Values{4, 5, 7, 8});
    CHECK(e.storageOffset() == 3);
    // x[{{},{-1}}] -- 3x1
    DoubleTensor f = x(all, slice(-1));
    CHECK(f.sizes() == Shape{3, 1});
    CHECK(values(f) == Values{3, 6, 9});
    // x[{2,{}}]
    CHECK(values(x(1, all)) == Values{4, 5, 6});
    // x[{}] -- the whole tensor
    CHECK(x(all).isSetTo(x));
    CHECK(x(all, all).isSetTo(x));
    CHECK(x(slice()).isSetTo(x));
    CHECK(x(slice(0, 3), slice(0, slice::end)).isSetTo(x));
    // half-open with a negative stop
    CHECK(values(x(slice(0, -1), -1)) == Values{3, 6});
}

TEST_CASE("indexing a vector") {
    // v = torch.range(1,5)
    DoubleTensor v = seq({5});
    CHECK(v(0) == 1);  // v[1]
    CHECK(v(-1) == 5); // v[-1]
    CHECK(v(-2) == 4); // v[{-2}]
    // v[{{2,4}}]
    DoubleTensor a = v(slice(1, 4));
    CHECK(a.sizes() == Shape{3});
    CHECK(values(a) == Values{2, 3, 4});
    CHECK(a.storageOffset() == 1);
    check_shares(a, v);
    // v[{{-3,-1}}]
    CHECK(values(v(slice(-3))) == Values{3, 4, 5});
    CHECK(values(v(slice(-3, -1))) == Values{3, 4}); // half-open
    CHECK(v(all).isSetTo(v));
}

TEST_CASE("slices with a step") {
    DoubleTensor v = seq({7});
    DoubleTensor a = v(slice(0, 7, 2));
    CHECK(a.sizes() == Shape{4});
    CHECK(a.strides() == Shape{2});
    CHECK(values(a) == Values{1, 3, 5, 7});
    check_shares(a, v);
    CHECK(values(v(slice(1, slice::end, 2))) == Values{2, 4, 6});
    CHECK(values(v(slice(0, slice::end, 3))) == Values{1, 4, 7});
    CHECK(values(v(slice(-3, slice::end, 5))) == Values{5});
    CHECK(values(v(slice(1, 6, 2))) == Values{2, 4, 6});
    CHECK(values(v(slice(1, 5, 2))) == Values{2, 4});
    CHECK(values(v(slice(0, 7, 7))) == Values{1});
    CHECK(values(v(slice(0, 7, 100))) == Values{1});

    DoubleTensor m = seq({4, 6});
    DoubleTensor b = m(slice(0, 4, 2), slice(1, 6, 2));
    CHECK(b.sizes() == Shape{2, 3});
    CHECK(b.strides() == Shape{12, 2});
    CHECK(b.storageOffset() == 1);
    CHECK(values(b) == Values{2, 4, 6, 14, 16, 18});
    // a step on a transposed tensor multiplies its stride
    DoubleTensor c = m.t()(slice(0, 6, 3), all);
    CHECK(c.sizes() == Shape{2, 4});
    CHECK(c.strides() == Shape{3, 6});
    CHECK(values(c) == Values{1, 7, 13, 19, 4, 10, 16, 22});
}

TEST_CASE("mixed indices on a 3-D tensor; missing trailing indices mean all") {
    DoubleTensor x = seq({2, 3, 4});
    DoubleTensor a = x(1, all);
    CHECK(a.sizes() == Shape{3, 4});
    CHECK(a.storageOffset() == 12);
    CHECK(a.isSetTo(x[1]));
    DoubleTensor b = x(all, 2);
    CHECK(b.sizes() == Shape{2, 4});
    CHECK(values(b) == Values{9, 10, 11, 12, 21, 22, 23, 24});
    DoubleTensor c = x(all, all, -1);
    CHECK(c.sizes() == Shape{2, 3});
    CHECK(values(c) == Values{4, 8, 12, 16, 20, 24});
    DoubleTensor d = x(-1, slice(1), slice(0, 4, 3));
    CHECK(d.sizes() == Shape{2, 2});
    CHECK(values(d) == Values{17, 20, 21, 24});
    DoubleTensor e = x(0, 1, all);
    CHECK(e.sizes() == Shape{4});
    CHECK(values(e) == Values{5, 6, 7, 8});
    DoubleTensor f = x(slice(1));
    CHECK(f.sizes() == Shape{1, 3, 4});
    CHECK(x(1, 2, 3) == 24);
    CHECK(x(0, -1, -1) == 12);
}

TEST_CASE("indexing errors name the operation") {
    DoubleTensor x = seq({3, 3});
    // x[4], x[0] (1-based) -- out of range
    CHECK_THROWS_OP(x(3, all), IndexError, "index");
    CHECK_THROWS_OP(x(-4, all), IndexError, "index");
    CHECK_THROWS_OP(x(all, 3), IndexError, "index");
    // x[{4,1}] -- index out of bound
    CHECK_THROWS_OP(x(3, 0), IndexError, "index");
    // x[{1,2,3}] -- too many indices provided
    CHECK_THROWS_OP(x(0, 1, 2), IndexError, "index");
    CHECK_THROWS_OP(x(all, all, all), IndexError, "index");
    CHECK_THROWS_OP(x(0, all, slice()), IndexError, "index");
    // v[6]
    DoubleTensor v = seq({5});
    CHECK_THROWS_OP(v(5), IndexError, "index");
    CHECK(v(slice(5)).sizes() == Shape{0}); // v[5:]: empty, as in NumPy
    CHECK_THROWS_OP(v(slice(6)), IndexError, "slice");
    // slices: out of range, empty, bad step -- nothing is silently clamped
    CHECK_THROWS_OP(v(slice(0, 6)), IndexError, "slice");
    CHECK_THROWS_OP(v(slice(-6)), IndexError, "slice");
    CHECK(v(slice(2, 2)).sizes() == Shape{0});
    CHECK_THROWS_OP(v(slice(3, 1)), IndexError, "slice");
    CHECK(v(slice(0, -5)).sizes() == Shape{0}); // v[0:0]
    CHECK_THROWS_OP(v(slice(0, -6)), IndexError, "slice");
    CHECK_THROWS_OP(v(slice(0, 5, 0)), IndexError, "slice");
    CHECK(values(DoubleTensor(v(slice(4, 0, -1)))) == Values{5, 4, 3, 2}); // v[4:0:-1]
    CHECK_THROWS_OP(v(slice(0, 4, -1)), IndexError, "slice");
    CHECK_THROWS_OP(x(all, slice(1, 4)), IndexError, "slice");
    // the message names the index and the size
    CHECK_THROWS_WITH_AS(x(all, 5), doctest::Contains("5"), IndexError);
    CHECK_THROWS_WITH_AS(x(all, 5), doctest::Contains("size 3"), IndexError);
    CHECK_THROWS_OP(DoubleTensor()(all), IndexError, "index");
}

// ---------------------------------------------------------------------------------
// Writing through views
// ---------------------------------------------------------------------------------

TEST_CASE("assignments through views write into the original (Torch7's sequence)") {
    // x = torch.Tensor(5, 6):zero()
    DoubleTensor x(5, 6);
    x.zero();
    const double* mem = x.data();
    // x[{ 1,3 }] = 1 -- sets element at (i=1,j=3) to 1
    x(0, 2) = 1;
    CHECK(values(x) == Values{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    // x[{ 2,{2,4} }] = 2 -- sets a slice of 3 elements to 2
    x(1, slice(1, 4)) = 2;
    CHECK(values(x[1]) == Values{0, 2, 2, 2, 0, 0});
    // x[{ {},4 }] = -1 -- sets the full 4th column to -1
    x(all, 3) = -1;
    CHECK(values(x.select(1, 3)) == Values{-1, -1, -1, -1, -1});
    CHECK(values(x[0]) == Values{0, 0, 1, -1, 0, 0});
    CHECK(values(x[1]) == Values{0, 2, 2, -1, 0, 0});
    // x[{ {},2 }] = torch.range(1,5) -- copy a 1D tensor to a slice of x
    x(all, 1) = seq({5});
    CHECK(values(x) == Values{0, 1, 1, -1, 0, 0, //
                              0, 2, 2, -1, 0, 0, //
                              0, 3, 0, -1, 0, 0, //
                              0, 4, 0, -1, 0, 0, //
                              0, 5, 0, -1, 0, 0});
    // (x[torch.lt(x,0)] = -2 is a mask assignment: tested with the masked ops)
    // x[2] = 7 -- fill row 2
    x[1] = 7;
    CHECK(values(x[1]) == Values(6, 7.0));
    // x[3] = torch.range(11,16) -- copy into row 3
    x[2] = seq({6}, 11);
    CHECK(values(x[2]) == Values{11, 12, 13, 14, 15, 16});
    // x[{-1,-1}] = 99
    x(-1, -1) = 99;
    CHECK(values(x) == Values{0,  1,  1,  -1, 0,  0,  //
                              7,  7,  7,  7,  7,  7,  //
                              11, 12, 13, 14, 15, 16, //
                              0,  4,  0,  -1, 0,  0,  //
                              0,  5,  0,  -1, 0,  99});
    CHECK(x.data() == mem); // all in place: x never moved
    CHECK(x.sizes() == Shape{5, 6});
}

TEST_CASE("assigning tensors and expressions into narrow, sub and transposed views") {
    DoubleTensor x(5, 6);
    x.zero();
    DoubleTensor y = seq({3, 6});
    // x:narrow(1,2,3):copy(y) as an assignment
    x.narrow(0, 1, 3) = y;
    CHECK(values(x.narrow(0, 1, 3)) == iota(1, 18));
    CHECK(values(x[0]) == Values(6, 0.0));
    CHECK(values(x[4]) == Values(6, 0.0));
    CHECK_FALSE(x.storage() == y.storage()); // values were copied, not rebound
    // an expression is evaluated into the view
    x.narrow(0, 1, 3) = y * 2;
    CHECK(x(1, 0) == 2);
    CHECK(x(3, 5) == 36);
    // sub and a scalar
    x.sub(0, 1, 4, 5) = 9;
    CHECK(values(x.sub(0, 1, 4, 5)) == Values{9, 9, 9, 9});
    CHECK(x(2, 4) == 22); // 2 * y(1, 4), outside the sub
    // a transposed view: a row of x.t() is a column of x
    x.t()[0] = seq({5}, 100);
    CHECK(values(x.select(1, 0)) == Values{100, 101, 102, 103, 104});
    // a strided slice
    DoubleTensor v = seq({7});
    v(slice(0, 7, 2)) = 0;
    CHECK(values(v) == Values{0, 2, 0, 4, 0, 6, 0});
    v(slice(1, 7, 2)) = seq({3}, -1);
    CHECK(values(v) == Values{0, -1, 0, 0, 0, 1, 0});
    // a row broadcast into two rows
    DoubleTensor m(2, 3);
    m(slice(0, 2), all) = seq({3});
    CHECK(values(m) == Values{1, 2, 3, 1, 2, 3});
    // another element type is converted on the way in
    IntTensor k(3);
    k(0) = 1;
    k(1) = -2;
    k(2) = 3;
    m[1] = k;
    CHECK(values(m) == Values{1, 2, 3, 1, -2, 3});
    m[0] = 2.9; // converted to the element type (double keeps it)
    CHECK(m(0, 2) == 2.9);
    IntTensor im(2, 2);
    im[0] = 2.9; // truncated like Torch7's fill of an IntTensor
    CHECK(im(0, 1) == 2);
}

TEST_CASE("a handle initialised from a view keeps writing into the original") {
    DoubleTensor x = seq({3, 3});
    DoubleTensor row = x[1]; // a handle: shares
    row = 0;                 // value semantics: fills the row in place
    CHECK(values(x) == Values{1, 2, 3, 0, 0, 0, 7, 8, 9});
    DoubleTensor col = x(all, 2);
    col = seq({3}, 10);
    CHECK(values(x) == Values{1, 2, 10, 0, 0, 11, 7, 8, 12});
    // element references
    double& e = x(2, 0);
    e = 70;
    CHECK(x.storage()[6] == 70);
    x(2, 1) += 5;
    CHECK(x(2, 1) == 13);
}

TEST_CASE("assignment of another shape is an error and writes nothing") {
    DoubleTensor x = seq({3, 3});
    CHECK_THROWS_OP(x[1] = seq({4}), ShapeError, "assign");
    CHECK_THROWS_OP(x(all, slice(0, 2)) = seq({3, 3}), ShapeError, "assign");
    CHECK_THROWS_OP(x.narrow(0, 0, 2) = seq({3, 2}), ShapeError, "assign");
    CHECK(values(x) == iota(1, 9));
}

TEST_CASE("assignment between overlapping views of one tensor") {
    // row 0 into column 0: they share x(0,0), so the values are read first
    DoubleTensor x = seq({3, 3});
    x(all, 0) = x[0];
    CHECK(values(x) == Values{1, 2, 3, 2, 5, 6, 3, 8, 9});
    // shifting a vector by one
    DoubleTensor v = seq({5});
    v(slice(1)) = v(slice(0, 4));
    CHECK(values(v) == Values{1, 1, 2, 3, 4});
    DoubleTensor w = seq({5});
    w(slice(0, 4)) = w(slice(1));
    CHECK(values(w) == Values{2, 3, 4, 5, 5});
    // disjoint rows
    DoubleTensor y = seq({3, 3});
    y[0] = y[2];
    CHECK(values(y) == Values{7, 8, 9, 4, 5, 6, 7, 8, 9});
}

// ---------------------------------------------------------------------------------
// Over element types and source layouts
// ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("x(i | all | slice) agrees with element access on every layout", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double) {
    Tensor<T> base(7, 9);
    fill_seq(base);
    Tensor<T> src;
    SUBCASE("contiguous") {
        src.set(Tensor<T>(4, 6));
        REQUIRE(src.isContiguous());
    }
    SUBCASE("transposed") {
        src.set(Tensor<T>(6, 4).t());
        REQUIRE_FALSE(src.isContiguous());
    }
    SUBCASE("narrowed") {
        src.set(base.narrow(0, 2, 4).narrow(1, 1, 6));
        REQUIRE_FALSE(src.isContiguous());
    }
    SUBCASE("strided") {
        src.set(base(slice(0, 7, 2), slice(0, 9, 1)).narrow(1, 3, 6));
        REQUIRE_FALSE(src.isContiguous());
    }
    REQUIRE(src.sizes() == Shape{4, 6});
    fill_seq(src);
    auto at = [&](int64_t i, int64_t j) { return double(src(i, j)); };

    Tensor<T> r = src(2, all);
    check_shares(r, src);
    for (int64_t j = 0; j < 6; ++j) CHECK(double(r(j)) == at(2, j));
    Tensor<T> c = src(all, -2);
    for (int64_t i = 0; i < 4; ++i) CHECK(double(c(i)) == at(i, 4));
    Tensor<T> s = src(slice(1, -1), slice(-5, 6, 2));
    REQUIRE(s.sizes() == Shape{2, 3});
    check_shares(s, src);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(double(s(i, j)) == at(i + 1, 1 + 2 * j));
    CHECK(src(all, all).isSetTo(src));

    // writes land in the source
    src(all, 0) = T(50);
    for (int64_t i = 0; i < 4; ++i) CHECK(at(i, 0) == 50);
    s = T(60);
    CHECK(at(1, 1) == 60);
    CHECK(at(2, 5) == 60);
    CHECK(at(1, 2) != 60);
    src[3] = src[0];
    for (int64_t j = 0; j < 6; ++j) CHECK(at(3, j) == at(0, j));
}
