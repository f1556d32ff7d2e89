// View operations: the examples of Torch7's "Manipulating the tensor view" and
// "Extracting sub-tensors" documentation (shared/torch7/tensor_expand_view.txt,
// tensor_indexing.txt, tensor_apply_split.txt), translated to 0-based indices.
// Every view must share its source's storage (no copy): values, sizes, strides,
// storageOffset and data pointers are asserted, and every misuse is an error
// that names the operation.
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
// narrow
// ---------------------------------------------------------------------------------

TEST_CASE("narrow: a view of a range of one dimension") {
    // x = torch.Tensor(5, 6):zero(); y = x:narrow(1, 2, 3); y:fill(1)
    DoubleTensor x(5, 6);
    x.zero();
    DoubleTensor y = x.narrow(0, 1, 3);
    CHECK(y.sizes() == Shape{3, 6});
    CHECK(y.strides() == Shape{6, 1});
    CHECK(y.storageOffset() == 6);
    check_shares(y, x);
    y.fill(1);
    CHECK(values(y) == Values(18, 1.0));
    Values expect(30, 0.0);
    for (int i = 6; i < 24; ++i) expect[size_t(i)] = 1;
    CHECK(values(x) == expect); // memory in x has been modified

    // torch.range(1,30):view(5,6):narrow(2,3,2)
    DoubleTensor r = seq({5, 6});
    DoubleTensor n = r.narrow(1, 2, 2);
    CHECK(n.sizes() == Shape{5, 2});
    CHECK(n.strides() == Shape{6, 1});
    CHECK(n.storageOffset() == 2);
    CHECK(values(n) == Values{3, 4, 9, 10, 15, 16, 21, 22, 27, 28});
    check_shares(n, r);
    // a negative dimension counts from the end
    CHECK(r.narrow(-1, 2, 2).isSetTo(n));
    // the whole dimension is the same view
    CHECK(r.narrow(0, 0, 5).isSetTo(r));
    // narrow of a narrow accumulates the offset
    CHECK(values(r.narrow(0, 1, 3).narrow(0, 1, 2).narrow(1, 4, 2)) == Values{17, 18, 23, 24});
    CHECK(r.narrow(0, 1, 3).narrow(0, 1, 2).storageOffset() == 12);
}

TEST_CASE("narrow: errors name the operation") {
    DoubleTensor r = seq({5, 6});
    // torch.range(1,30):view(5,6):narrow(1,5,2) -- out of range
    CHECK_THROWS_OP(r.narrow(0, 4, 2), IndexError, "narrow");
    CHECK_THROWS_OP(r.narrow(1, 6, 1), IndexError, "narrow");
    CHECK_THROWS_OP(r.narrow(1, -1, 1), IndexError, "narrow");
    CHECK(r.narrow(1, 0, 0).sizes() == Shape{5, 0}); // an empty dimension (NumPy's r[:, 0:0])
    CHECK_THROWS_OP(r.narrow(1, 0, -1), IndexError, "narrow");
    CHECK_THROWS_OP(r.narrow(1, 0, 7), IndexError, "narrow");
    CHECK_THROWS_OP(r.narrow(2, 0, 1), IndexError, "narrow");
    CHECK_THROWS_OP(r.narrow(-3, 0, 1), IndexError, "narrow");
    CHECK_THROWS_OP(DoubleTensor().narrow(0, 0, 1), IndexError, "narrow");
    // the API's example message: index, dimension and size
    CHECK_THROWS_WITH_AS(seq({3, 5}).narrow(1, 7, 1),
                         "narrow: index 7 out of range for dimension 1 of size 5", IndexError);
}

// ---------------------------------------------------------------------------------
// select and operator[]
// ---------------------------------------------------------------------------------

TEST_CASE("select: a slice with one dimension fewer") {
    // x = torch.Tensor(5,6):zero(); y = x:select(1, 2):fill(2)
    DoubleTensor x(5, 6);
    x.zero();
    DoubleTensor y = x.select(0, 1);
    CHECK(y.sizes() == Shape{6});
    CHECK(y.strides() == Shape{1});
    CHECK(y.storageOffset() == 6);
    check_shares(y, x);
    y.fill(2);
    // z = x:select(2,5):fill(5)
    DoubleTensor z = x.select(1, 4);
    CHECK(z.sizes() == Shape{5});
    CHECK(z.strides() == Shape{6});
    CHECK(z.storageOffset() == 4);
    z.fill(5);
    CHECK(values(x) == Values{0, 0, 0, 0, 5, 0, //
                              2, 2, 2, 2, 5, 2, //
                              0, 0, 0, 0, 5, 0, //
                              0, 0, 0, 0, 5, 0, //
                              0, 0, 0, 0, 5, 0});

    // torch.range(1,24):view(2,3,4):select(3,2)
    DoubleTensor r = seq({2, 3, 4});
    DoubleTensor s = r.select(2, 1);
    CHECK(s.sizes() == Shape{2, 3});
    CHECK(s.strides() == Shape{12, 4});
    CHECK(values(s) == Values{2, 6, 10, 14, 18, 22});
    check_shares(s, r);
    CHECK(r.select(-1, 1).isSetTo(s));
    CHECK(values(r.select(1, 2)) == Values{9, 10, 11, 12, 21, 22, 23, 24});
    CHECK(values(r.select(0, 1).select(0, 2)) == Values{21, 22, 23, 24});
}

TEST_CASE("select: errors") {
    DoubleTensor r = seq({2, 3, 4});
    // torch.range(1,24):view(2,3,4):select(2,-1) -- out of range (no negative index)
    CHECK_THROWS_OP(r.select(1, -1), IndexError, "select");
    CHECK_THROWS_OP(r.select(1, 3), IndexError, "select");
    CHECK_THROWS_OP(r.select(3, 0), IndexError, "select");
    // Torch7 returns a number for a 1-D select; here x(i) gives the element
    CHECK_THROWS_OP(seq({5}).select(0, 1), ShapeError, "select");
    CHECK(seq({5})(1) == 2);
}

TEST_CASE("operator[] selects along the first dimension, negatives from the end") {
    DoubleTensor x = seq({3, 3});
    DoubleTensor row = x[1]; // x[2]: row 2
    CHECK(row.sizes() == Shape{3});
    CHECK(values(row) == Values{4, 5, 6});
    CHECK(row.storageOffset() == 3);
    check_shares(row, x);
    CHECK(x[1](2) == 6);                     // x[2][3]
    CHECK(values(x[-1]) == Values{7, 8, 9}); // x[-1]
    CHECK(x[-1](-1) == 9);                   // x[-1][-1]
    CHECK(values(x[-3]) == Values{1, 2, 3});
    CHECK(x[-1].isSetTo(x.select(0, 2)));
    DoubleTensor c = seq({2, 3, 4});
    CHECK(values(c[1][2]) == Values{21, 22, 23, 24});
    CHECK(c[1][2].storageOffset() == 20);

    // x[4] and x[0] in Torch7 (out of range): 3 and -4 here
    CHECK_THROWS_OP(x[3], IndexError, "select");
    CHECK_THROWS_OP(x[-4], IndexError, "select");
    // on a 1-D tensor [] would give a number in Torch7: use x(i)
    CHECK_THROWS_OP(seq({5})[0], ShapeError, "select");
    CHECK_THROWS_AS(DoubleTensor()[0], Error);
}

// ---------------------------------------------------------------------------------
// sub
// ---------------------------------------------------------------------------------

TEST_CASE("sub: inclusive ranges per dimension, negatives from the end") {
    // x = torch.Tensor(5, 6):zero(); y = x:sub(2,4):fill(1)
    DoubleTensor x(5, 6);
    x.zero();
    DoubleTensor y = x.sub(1, 3);
    CHECK(y.sizes() == Shape{3, 6});
    CHECK(y.storageOffset() == 6);
    check_shares(y, x);
    y.fill(1);
    CHECK(values(y) == Values(18, 1.0));
    // z = x:sub(2,4,3,4):fill(2)
    DoubleTensor z = x.sub(1, 3, 2, 3);
    CHECK(z.sizes() == Shape{3, 2});
    CHECK(z.strides() == Shape{6, 1});
    CHECK(z.storageOffset() == 8);
    check_shares(z, x);
    z.fill(2);
    CHECK(values(x) == Values{0, 0, 0, 0, 0, 0, //
                              1, 1, 2, 2, 1, 1, //
                              1, 1, 2, 2, 1, 1, //
                              1, 1, 2, 2, 1, 1, //
                              0, 0, 0, 0, 0, 0});
    CHECK(values(y) == Values{1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1});
    // y:sub(-1, -1, 3, 4) -- negative values = bounds
    DoubleTensor w = y.sub(-1, -1, 2, 3);
    CHECK(w.sizes() == Shape{1, 2});
    CHECK(values(w) == Values{2, 2});
    CHECK(w.storageOffset() == 20);

    // r = torch.range(1,30):view(5,6)
    DoubleTensor r = seq({5, 6});
    // r:sub(2,-2,-3,-1)
    DoubleTensor a = r.sub(1, -2, -3, -1);
    CHECK(a.sizes() == Shape{3, 3});
    CHECK(values(a) == Values{10, 11, 12, 16, 17, 18, 22, 23, 24});
    // r:sub(-2,-1)
    CHECK(values(r.sub(-2, -1)) == iota(19, 30));
    CHECK(r.sub(-2, -1).sizes() == Shape{2, 6});
    // r:sub(1,1,-1,-1)
    DoubleTensor b = r.sub(0, 0, -1, -1);
    CHECK(b.sizes() == Shape{1, 1});
    CHECK(values(b) == Values{6});
    // whole range: the same view
    CHECK(r.sub(0, -1, 0, -1).isSetTo(r));
    // on a transposed source
    CHECK(values(r.t().sub(1, 2, 0, 1)) == Values{2, 8, 3, 9});
}

TEST_CASE("sub: errors") {
    DoubleTensor r = seq({5, 6});
    CHECK_THROWS_OP(r.sub(3, 1), IndexError, "sub");             // start after end
    CHECK_THROWS_OP(r.sub(0, 5), IndexError, "sub");             // end past the size
    CHECK_THROWS_OP(r.sub(-6, 0), IndexError, "sub");            // start before the beginning
    CHECK_THROWS_OP(r.sub(0, 1, 2, 6), IndexError, "sub");       // second dimension
    CHECK_THROWS_OP(r.sub(1), IndexError, "sub");                // not a pair
    CHECK_THROWS_OP(r.sub(0, 1, 0, 1, 0, 1), IndexError, "sub"); // more pairs than dims
}

// ---------------------------------------------------------------------------------
// transpose, t, permute
// ---------------------------------------------------------------------------------

TEST_CASE("transpose swaps two dimensions of the same storage") {
    // x = torch.Tensor(3,4):zero(); x:select(2,3):fill(7); y = x:transpose(1,2)
    DoubleTensor x(3, 4);
    x.zero();
    x.select(1, 2).fill(7);
    CHECK(values(x) == Values{0, 0, 7, 0, 0, 0, 7, 0, 0, 0, 7, 0});
    DoubleTensor y = x.transpose(0, 1);
    CHECK(y.sizes() == Shape{4, 3});
    CHECK(y.strides() == Shape{1, 4});
    check_shares(y, x);
    CHECK(values(y) == Values{0, 0, 0, 0, 0, 0, 7, 7, 7, 0, 0, 0});
    // y:select(2, 3):fill(8)
    y.select(1, 2).fill(8);
    CHECK(values(y) == Values{0, 0, 8, 0, 0, 8, 7, 7, 8, 0, 0, 8});
    CHECK(values(x) == Values{0, 0, 7, 0, 0, 0, 7, 0, 8, 8, 8, 8}); // x changed as well

    // torch.range(1,24):view(2,3,4):transpose(1,3)
    DoubleTensor r = seq({2, 3, 4});
    DoubleTensor t = r.transpose(0, 2);
    CHECK(t.sizes() == Shape{4, 3, 2});
    CHECK(t.strides() == Shape{1, 4, 12});
    CHECK(values(t) == Values{1, 13, 5, 17, 9,  21, 2, 14, 6, 18, 10, 22,
                              3, 15, 7, 19, 11, 23, 4, 16, 8, 20, 12, 24});
    CHECK(r.transpose(0, -1).isSetTo(t));
    CHECK(r.transpose(2, 0).isSetTo(t));
    // torch.range(1,6):view(2,3):transpose(2,2)
    DoubleTensor s = seq({2, 3});
    CHECK(s.transpose(1, 1).isSetTo(s));
    CHECK(s.transpose(0, 1).transpose(0, 1).isSetTo(s));

    CHECK_THROWS_OP(s.transpose(0, 2), IndexError, "transpose");
    CHECK_THROWS_OP(s.transpose(-3, 0), IndexError, "transpose");
}

TEST_CASE("t() is the transpose of a matrix and only of a matrix") {
    DoubleTensor x(3, 4);
    x.zero();
    x.select(1, 2).fill(7);
    DoubleTensor y = x.t();
    CHECK(y.sizes() == Shape{4, 3});
    CHECK(y.strides() == Shape{1, 4});
    CHECK(y.isSetTo(x.transpose(0, 1)));
    check_shares(y, x);
    CHECK(values(y) == Values{0, 0, 0, 0, 0, 0, 7, 7, 7, 0, 0, 0});
    CHECK(values(x) == Values{0, 0, 7, 0, 0, 0, 7, 0, 0, 0, 7, 0});
    CHECK(y.t().isSetTo(x));
    // torch.range(1,3):t() and torch.Tensor(2,3,4):t()
    CHECK_THROWS_WITH_AS(seq({3}).t(), doctest::Contains("t: tensor must have 2 dimensions"),
                         ShapeError);
    CHECK_THROWS_WITH_AS(DoubleTensor(2, 3, 4).t(), doctest::Contains("t: "), ShapeError);
    CHECK_THROWS_AS(DoubleTensor().t(), ShapeError);
}

TEST_CASE("permute reorders all dimensions") {
    // x = torch.Tensor(3,4,2,5); y = x:permute(2,3,1,4)
    DoubleTensor x(3, 4, 2, 5);
    DoubleTensor y = x.permute(1, 2, 0, 3);
    CHECK(y.sizes() == Shape{4, 2, 3, 5});
    CHECK(y.strides() == Shape{10, 5, 40, 1});
    check_shares(y, x);
    // equivalent to y = x:transpose(1,3):transpose(1,2)
    CHECK(x.transpose(0, 2).transpose(0, 1).isSetTo(y));
    CHECK(x.permute(Shape{1, 2, 0, 3}).isSetTo(y));
    CHECK(x.permute({1, 2, 0, 3}).isSetTo(y));
    CHECK(x.permute(1, 2, -4, -1).isSetTo(y));
    CHECK(x.permute(0, 1, 2, 3).isSetTo(x));

    // torch.range(1,24):view(2,3,4):permute(3,1,2)
    DoubleTensor p = seq({2, 3, 4}).permute(2, 0, 1);
    CHECK(p.sizes() == Shape{4, 2, 3});
    CHECK(p.strides() == Shape{1, 12, 4});
    CHECK(values(p) == Values{1, 5, 9,  13, 17, 21, 2, 6, 10, 14, 18, 22,
                              3, 7, 11, 15, 19, 23, 4, 8, 12, 16, 20, 24});
}

TEST_CASE("permute: errors") {
    DoubleTensor x(3, 4, 2);
    CHECK_THROWS_OP(x.permute(0, 1), ShapeError, "permute");       // too few
    CHECK_THROWS_OP(x.permute(0, 1, 2, 0), ShapeError, "permute"); // too many
    CHECK_THROWS_OP(x.permute(0, 1, 1), ShapeError, "permute");    // repeated
    CHECK_THROWS_OP(x.permute(0, -1, 2), ShapeError, "permute");   // repeated, via -1
    CHECK_THROWS_OP(x.permute(0, 1, 3), IndexError, "permute");    // out of range
}

// ---------------------------------------------------------------------------------
// unfold
// ---------------------------------------------------------------------------------

TEST_CASE("unfold: sliding windows as an extra dimension") {
    // x = torch.Tensor(7); x[i] = i
    DoubleTensor x = seq({7});
    // x:unfold(1, 2, 1)
    DoubleTensor a = x.unfold(0, 2, 1);
    CHECK(a.sizes() == Shape{6, 2});
    CHECK(a.strides() == Shape{1, 1});
    CHECK(values(a) == Values{1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7});
    check_shares(a, x);
    // x:unfold(1, 2, 2)
    DoubleTensor b = x.unfold(0, 2, 2);
    CHECK(b.sizes() == Shape{3, 2});
    CHECK(values(b) == Values{1, 2, 3, 4, 5, 6});
    // x:unfold(1, 3, 2)
    DoubleTensor c = x.unfold(0, 3, 2);
    CHECK(c.sizes() == Shape{3, 3});
    CHECK(c.strides() == Shape{2, 1});
    CHECK(values(c) == Values{1, 2, 3, 3, 4, 5, 5, 6, 7});
    // writing through a window writes into x (windows overlap)
    c(1, 0) = 30;
    CHECK(x(2) == 30);
    CHECK(c(0, 2) == 30);
    x(2) = 3;
    // x:unfold(1, 7, 1)
    DoubleTensor d = x.unfold(0, 7, 1);
    CHECK(d.sizes() == Shape{1, 7});
    CHECK(values(d) == iota(1, 7));

    // torch.range(1,12):view(3,4):unfold(2,2,2)
    DoubleTensor m = seq({3, 4});
    DoubleTensor e = m.unfold(1, 2, 2);
    CHECK(e.sizes() == Shape{3, 2, 2});
    CHECK(e.strides() == Shape{4, 2, 1});
    CHECK(values(e) == iota(1, 12));
    // torch.range(1,12):view(3,4):unfold(1,2,1)
    DoubleTensor f = m.unfold(0, 2, 1);
    CHECK(f.sizes() == Shape{2, 4, 2});
    CHECK(f.strides() == Shape{4, 1, 4});
    CHECK(values(f) == Values{1, 5, 2, 6, 3, 7, 4, 8, 5, 9, 6, 10, 7, 11, 8, 12});
    CHECK(m.unfold(-1, 2, 2).isSetTo(e));
}

TEST_CASE("unfold: errors") {
    DoubleTensor x = seq({7});
    // x:unfold(1, 8, 1) -- larger than the dimension
    CHECK_THROWS_OP(x.unfold(0, 8, 1), IndexError, "unfold");
    CHECK_THROWS_OP(x.unfold(0, 0, 1), IndexError, "unfold");
    CHECK_THROWS_OP(x.unfold(0, 2, 0), IndexError, "unfold");
    CHECK_THROWS_OP(x.unfold(1, 2, 1), IndexError, "unfold");
}

// ---------------------------------------------------------------------------------
// view and viewAs
// ---------------------------------------------------------------------------------

TEST_CASE("view: the same elements in another shape") {
    // x = torch.zeros(4)
    DoubleTensor x(4);
    x.zero();
    DoubleTensor a = x.view(2, 2);
    CHECK(a.sizes() == Shape{2, 2});
    CHECK(a.strides() == Shape{2, 1});
    check_shares(a, x);
    CHECK(values(a) == Values(4, 0.0));
    CHECK(x.view(2, -1).sizes() == Shape{2, 2});
    CHECK(x.view(Shape{2, 2}).sizes() == Shape{2, 2});
    CHECK(x.view({2, 2}).sizes() == Shape{2, 2});
    CHECK(x.sizes() == Shape{4}); // x itself is unchanged

    // x = torch.range(1,12)
    DoubleTensor r = seq({12});
    DoubleTensor b = r.view(3, 4);
    CHECK(b.sizes() == Shape{3, 4});
    CHECK(b.strides() == Shape{4, 1});
    CHECK(values(b) == iota(1, 12));
    DoubleTensor c = r.view(-1, 6);
    CHECK(c.sizes() == Shape{2, 6});
    DoubleTensor d = r.view(2, 3, 2);
    CHECK(d.sizes() == Shape{2, 3, 2});
    CHECK(d.strides() == Shape{6, 2, 1});
    CHECK(d(1, 2, 1) == 12);
    DoubleTensor e = r.view(4, 3);
    CHECK(e(3, 0) == 10);
    CHECK(r.view(2, -1, 2).sizes() == Shape{2, 3, 2});
    CHECK(r.view(12).isSetTo(r));
    CHECK(r.view(-1).isSetTo(r));

    // v = x:view(3,4); v[1][1] = 100
    DoubleTensor v = r.view(3, 4);
    v(0, 0) = 100;
    CHECK(r(0) == 100);
    check_shares(v, r);
}

TEST_CASE("view of non-contiguous tensors where the strides allow it") {
    DoubleTensor m = seq({3, 4});
    // whole rows of a matrix are contiguous: viewable
    DoubleTensor rows = m.narrow(0, 1, 2);
    DoubleTensor flat = rows.view(8);
    CHECK(flat.storageOffset() == 4);
    CHECK(values(flat) == iota(5, 12));
    check_shares(flat, m);
    // a transposed matrix keeps its own shape, and size-1 dims can be inserted
    DoubleTensor t = m.t();
    DoubleTensor same = t.view(4, 3);
    CHECK(same.strides() == Shape{1, 4});
    CHECK(values(same) == values(t));
    DoubleTensor u = t.view(4, 1, 3);
    CHECK(u.sizes() == Shape{4, 1, 3});
    CHECK(values(u) == values(t));
    // splitting a dimension of a transposed 3-D tensor
    DoubleTensor p = seq({2, 3, 4}).permute(2, 0, 1); // 4x2x3, strides 1,12,4
    DoubleTensor q = p.view(2, 2, 6);
    CHECK(q.strides() == Shape{2, 1, 4}); // dim 0 splits into 2x2, dims 1-2 merge
    CHECK(values(q) == values(p));
    check_shares(q, p);
}

TEST_CASE("view: errors") {
    DoubleTensor r = seq({12});
    // x:view(5,-1) -- not a multiple
    CHECK_THROWS_OP(r.view(5, -1), ShapeError, "view");
    CHECK_THROWS_OP(r.view(5), ShapeError, "view");
    CHECK_THROWS_OP(r.view(3, 5), ShapeError, "view");
    CHECK_THROWS_OP(r.view(-1, -1), ShapeError, "view");
    CHECK_THROWS_OP(r.view(0, -1), ShapeError, "view");
    CHECK_THROWS_OP(r.view(12, 0), ShapeError, "view");
    CHECK_THROWS_OP(r.view(-2, 6), ShapeError, "view");
    // x:view(3,4):t():view(12) -- non-contiguous view
    CHECK_THROWS_WITH_AS(r.view(3, 4).t().view(12), doctest::Contains("view"), ShapeError);
    CHECK_THROWS_OP(seq({3, 4}).narrow(1, 0, 2).view(6), ShapeError, "view");
    CHECK_THROWS_OP(seq({3, 1}).expand(3, 4).view(12), ShapeError, "view");
}

TEST_CASE("viewAs takes the sizes of another tensor") {
    // x = torch.zeros(4); y = torch.Tensor(2,2); x:viewAs(y)
    DoubleTensor x(4);
    x.zero();
    DoubleTensor a = x.viewAs(DoubleTensor(2, 2));
    CHECK(a.sizes() == Shape{2, 2});
    check_shares(a, x);
    // torch.range(1,6):viewAs(torch.Tensor(3,2))
    DoubleTensor r = seq({6});
    DoubleTensor b = r.viewAs(DoubleTensor(3, 2));
    CHECK(b.sizes() == Shape{3, 2});
    CHECK(values(b) == iota(1, 6));
    // any element type gives its sizes
    CHECK(r.viewAs(ByteTensor(2, 3)).sizes() == Shape{2, 3});
    CHECK_THROWS_OP(r.viewAs(DoubleTensor(4, 2)), ShapeError, "view");
}

// ---------------------------------------------------------------------------------
// expand and expandAs
// ---------------------------------------------------------------------------------

TEST_CASE("expand: singleton dimensions repeat with stride 0") {
    // x = torch.Tensor({...}):view(10,1); y = torch.expand(x,10,2)
    const Values data{0.3837, 0.5966, 0.0763, 0.1896, 0.4958,
                      0.6841, 0.4038, 0.4068, 0.1502, 0.2239};
    DoubleTensor x(10, 1);
    for (int64_t i = 0; i < 10; ++i) x(i, 0) = data[size_t(i)];
    DoubleTensor y = x.expand(10, 2);
    CHECK(y.sizes() == Shape{10, 2});
    CHECK(y.strides() == Shape{1, 0});
    check_shares(y, x);
    for (int64_t i = 0; i < 10; ++i) {
        CHECK(y(i, 0) == data[size_t(i)]);
        CHECK(y(i, 1) == data[size_t(i)]);
        CHECK(&y(i, 0) == &y(i, 1)); // the same memory
    }
    // y:fill(1) fills x
    y.fill(1);
    CHECK(values(y) == Values(20, 1.0));
    CHECK(values(x) == Values(10, 1.0));
    // i=0; y:apply(function() i=i+1;return i end): the second of each pair wins
    int i = 0;
    y.apply([&] { return ++i; });
    CHECK(i == 20);
    CHECK(values(y) ==
          Values{2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 16, 16, 18, 18, 20, 20});
    CHECK(values(x) == Values{2, 4, 6, 8, 10, 12, 14, 16, 18, 20});
}

TEST_CASE("expand: more examples") {
    // torch.range(1,3):view(1,3):expand(2,3)
    DoubleTensor a = seq({1, 3}).expand(2, 3);
    CHECK(a.sizes() == Shape{2, 3});
    CHECK(a.strides() == Shape{0, 1});
    CHECK(values(a) == Values{1, 2, 3, 1, 2, 3});
    // torch.range(1,3):view(3,1):expand(torch.LongStorage{3,4})
    DoubleTensor c = seq({3});
    DoubleTensor b = c.view(3, 1).expand(Shape{3, 4});
    CHECK(values(b) == Values{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
    CHECK(b.strides() == Shape{1, 0});
    CHECK_FALSE(b.isContiguous());
    check_shares(b, c);
    CHECK(c.view(3, 1).expand({3, 4}).isSetTo(b));
    // ...:expand(3,4):contiguous() is a real copy with ordinary strides
    DoubleTensor bc = b.contiguous();
    CHECK(bc.strides() == Shape{4, 1});
    CHECK(values(bc) == values(b));
    CHECK_FALSE(bc.storage() == b.storage());
    // torch.range(1,3):view(1,3):expandAs(torch.Tensor(2,3))
    DoubleTensor e = seq({1, 3}).expandAs(DoubleTensor(2, 3));
    CHECK(values(e) == Values{1, 2, 3, 1, 2, 3});
    CHECK(seq({1, 3}).expandAs(IntTensor(4, 3)).sizes() == Shape{4, 3});
    // torch.Tensor({5}):expand(4)
    DoubleTensor five(1);
    five(0) = 5;
    DoubleTensor f = five.expand(4);
    CHECK(f.sizes() == Shape{4});
    CHECK(f.strides() == Shape{0});
    CHECK(values(f) == Values{5, 5, 5, 5});
    // -1 and equal sizes keep a dimension; several singletons at once
    CHECK(seq({3, 1}).expand(-1, 2).sizes() == Shape{3, 2});
    DoubleTensor g = seq({1, 2, 1}).expand(3, 2, 4);
    CHECK(g.strides() == Shape{0, 1, 0});
    CHECK(values(g) ==
          Values{1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2});
    // expanding an expanded tensor
    CHECK(values(five.expand(4).view(4, 1).expand(4, 2)) == Values(8, 5.0));
}

TEST_CASE("expand: errors") {
    DoubleTensor r = seq({3});
    // torch.range(1,3):expand(3,3) -- the number of dimensions must equal dim()
    CHECK_THROWS_OP(r.expand(3, 3), ShapeError, "expand");
    // torch.range(1,3):view(3,1):expand(4,4) -- only singleton expansion
    CHECK_THROWS_OP(r.view(3, 1).expand(4, 4), ShapeError, "expand");
    CHECK(r.view(3, 1).expand(3, 0).sizes() == Shape{3, 0}); // NumPy's broadcast_to
    CHECK_THROWS_OP(r.view(3, 1).expand(3, -2), ShapeError, "expand");
    CHECK_THROWS_OP(r.view(3, 1).expandAs(DoubleTensor(4, 4)), ShapeError, "expand");
    CHECK_THROWS_OP(r.expand(Shape{}), ShapeError, "expand");
}

// ---------------------------------------------------------------------------------
// squeeze and unsqueeze
// ---------------------------------------------------------------------------------

TEST_CASE("squeeze removes singleton dimensions") {
    // x = torch.range(1,8):view(2,1,2,1,2)
    DoubleTensor x = seq({2, 1, 2, 1, 2});
    DoubleTensor s = x.squeeze();
    CHECK(s.sizes() == Shape{2, 2, 2});
    CHECK(s.strides() == Shape{4, 2, 1});
    CHECK(values(s) == iota(1, 8));
    check_shares(s, x);
    // torch.squeeze(x,2)
    DoubleTensor s1 = x.squeeze(1);
    CHECK(s1.sizes() == Shape{2, 2, 1, 2});
    CHECK(values(s1) == iota(1, 8));
    check_shares(s1, x);
    CHECK(x.squeeze(-2).sizes() == Shape{2, 1, 2, 2});
    // a dimension that is not 1 stays
    CHECK(x.squeeze(0).isSetTo(x));
    // torch.Tensor(1,3):fill(7):squeeze(1) / squeeze(2)
    DoubleTensor r(1, 3);
    r.fill(7);
    CHECK(r.squeeze(0).sizes() == Shape{3});
    CHECK(values(r.squeeze(0)) == Values{7, 7, 7});
    CHECK(r.squeeze(1).sizes() == Shape{1, 3});
    // all singleton: Torch7 returns the number 7; here a 1-D tensor of size 1
    DoubleTensor one(1, 1);
    one.fill(7);
    CHECK(one.squeeze().sizes() == Shape{1});
    CHECK(one.squeeze()(0) == 7);
    CHECK(DoubleTensor(1).squeeze().sizes() == Shape{1});
    CHECK(DoubleTensor(1).squeeze(0).sizes() == Shape{1}); // a 1-D tensor keeps its dim
    // nothing to squeeze
    DoubleTensor m = seq({2, 3});
    CHECK(m.squeeze().isSetTo(m));
    CHECK(DoubleTensor().squeeze().dim() == 0);
    // strides of the kept dimensions are untouched (also on views)
    DoubleTensor t = seq({3, 1, 4}).permute(2, 1, 0); // 4x1x3
    CHECK(t.squeeze().strides() == Shape{1, 4});

    CHECK_THROWS_OP(x.squeeze(5), IndexError, "squeeze");
    CHECK_THROWS_OP(x.squeeze(-6), IndexError, "squeeze");
}

TEST_CASE("unsqueeze inserts a singleton dimension") {
    DoubleTensor x = seq({2, 3});
    DoubleTensor a = x.unsqueeze(0);
    CHECK(a.sizes() == Shape{1, 2, 3});
    CHECK(a.strides() == Shape{6, 3, 1});
    check_shares(a, x);
    CHECK(a.isContiguous());
    DoubleTensor b = x.unsqueeze(1);
    CHECK(b.sizes() == Shape{2, 1, 3});
    CHECK(b.strides() == Shape{3, 3, 1});
    DoubleTensor c = x.unsqueeze(2);
    CHECK(c.sizes() == Shape{2, 3, 1});
    CHECK(c.strides()[0] == 3);
    CHECK(c.strides()[1] == 1);
    CHECK(x.unsqueeze(-1).sizes() == Shape{2, 3, 1});
    CHECK(x.unsqueeze(-3).sizes() == Shape{1, 2, 3});
    CHECK(values(c) == iota(1, 6));
    CHECK(c.isContiguous());
    // squeeze(d) undoes unsqueeze(d)
    CHECK(x.unsqueeze(1).squeeze(1).isSetTo(x));
    // on a transposed tensor
    DoubleTensor t = x.t().unsqueeze(1);
    CHECK(t.sizes() == Shape{3, 1, 2});
    CHECK(values(t) == Values{1, 4, 2, 5, 3, 6});

    CHECK_THROWS_OP(x.unsqueeze(3), IndexError, "unsqueeze");
    CHECK_THROWS_OP(x.unsqueeze(-4), IndexError, "unsqueeze");
    CHECK_THROWS_OP(DoubleTensor().unsqueeze(0), ShapeError, "unsqueeze");
}

// ---------------------------------------------------------------------------------
// split and chunk
// ---------------------------------------------------------------------------------

TEST_CASE("split: pieces of a given size along a dimension") {
    // x = torch.range(1,60):view(3,4,5)
    DoubleTensor x = seq({3, 4, 5});
    // x:split(2,1)
    std::vector<DoubleTensor> a = x.split(2, 0);
    REQUIRE(a.size() == 2);
    CHECK(a[0].sizes() == Shape{2, 4, 5});
    CHECK(values(a[0]) == iota(1, 40));
    CHECK(a[1].sizes() == Shape{1, 4, 5});
    CHECK(values(a[1]) == iota(41, 60));
    CHECK(a[1].storageOffset() == 40);
    for (auto& p : a) check_shares(p, x);
    // torch.split(x, 2): dimension 0 by default
    std::vector<DoubleTensor> a2 = x.split(2);
    REQUIRE(a2.size() == 2);
    CHECK(a2[0].isSetTo(a[0]));
    CHECK(a2[1].isSetTo(a[1]));

    // x:split(3,2)
    std::vector<DoubleTensor> b = x.split(3, 1);
    REQUIRE(b.size() == 2);
    CHECK(b[0].sizes() == Shape{3, 3, 5});
    CHECK(b[0].strides() == Shape{20, 5, 1});
    Values b0 = iota(1, 15), t1 = iota(21, 35), t2 = iota(41, 55);
    b0.insert(b0.end(), t1.begin(), t1.end());
    b0.insert(b0.end(), t2.begin(), t2.end());
    CHECK(values(b[0]) == b0);
    CHECK(b[1].sizes() == Shape{3, 1, 5});
    Values b1 = iota(16, 20), u1 = iota(36, 40), u2 = iota(56, 60);
    b1.insert(b1.end(), u1.begin(), u1.end());
    b1.insert(b1.end(), u2.begin(), u2.end());
    CHECK(values(b[1]) == b1);
    CHECK(b[1].storageOffset() == 15);

    // x:split(2,3)
    std::vector<DoubleTensor> c = x.split(2, 2);
    REQUIRE(c.size() == 3);
    CHECK(c[0].sizes() == Shape{3, 4, 2});
    CHECK(c[1].sizes() == Shape{3, 4, 2});
    CHECK(c[2].sizes() == Shape{3, 4, 1});
    CHECK(values(c[0]) == Values{1,  2,  6,  7,  11, 12, 16, 17, 21, 22, 26, 27,
                                 31, 32, 36, 37, 41, 42, 46, 47, 51, 52, 56, 57});
    CHECK(values(c[1]) == Values{3,  4,  8,  9,  13, 14, 18, 19, 23, 24, 28, 29,
                                 33, 34, 38, 39, 43, 44, 48, 49, 53, 54, 58, 59});
    CHECK(values(c[2]) == Values{5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60});
    CHECK(c[2].storageOffset() == 4);
    CHECK(x.split(2, -1)[2].isSetTo(c[2]));

    // torch.range(1,7):split(3)
    std::vector<DoubleTensor> d = seq({7}).split(3);
    REQUIRE(d.size() == 3);
    CHECK(values(d[0]) == Values{1, 2, 3});
    CHECK(values(d[1]) == Values{4, 5, 6});
    CHECK(values(d[2]) == Values{7});
    // a size of at least the dimension gives one piece: the whole tensor
    std::vector<DoubleTensor> e = seq({7}).split(10);
    REQUIRE(e.size() == 1);
    CHECK(e[0].sizes() == Shape{7});
    // pieces are views: writing into one writes into x
    a[1].fill(0);
    CHECK(x(2, 3, 4) == 0);
    CHECK(x(1, 3, 4) == 40);

    CHECK_THROWS_OP(x.split(0), ShapeError, "split");
    CHECK_THROWS_OP(x.split(-1), ShapeError, "split");
    CHECK_THROWS_OP(x.split(2, 3), IndexError, "split");
}

TEST_CASE("chunk: a number of near-equal pieces along a dimension") {
    DoubleTensor x = seq({3, 4, 5});
    // x:chunk(2,1)
    std::vector<DoubleTensor> a = x.chunk(2, 0);
    REQUIRE(a.size() == 2);
    CHECK(a[0].sizes() == Shape{2, 4, 5});
    CHECK(a[1].sizes() == Shape{1, 4, 5});
    CHECK(values(a[1]) == iota(41, 60));
    CHECK(x.chunk(2)[1].isSetTo(a[1]));
    for (auto& p : a) check_shares(p, x);
    // x:chunk(2,2)
    std::vector<DoubleTensor> b = x.chunk(2, 1);
    REQUIRE(b.size() == 2);
    CHECK(b[0].sizes() == Shape{3, 2, 5});
    CHECK(b[1].sizes() == Shape{3, 2, 5});
    Values b0 = iota(1, 10), t1 = iota(21, 30), t2 = iota(41, 50);
    b0.insert(b0.end(), t1.begin(), t1.end());
    b0.insert(b0.end(), t2.begin(), t2.end());
    CHECK(values(b[0]) == b0);
    Values b1 = iota(11, 20), u1 = iota(31, 40), u2 = iota(51, 60);
    b1.insert(b1.end(), u1.begin(), u1.end());
    b1.insert(b1.end(), u2.begin(), u2.end());
    CHECK(values(b[1]) == b1);
    // x:chunk(2,3)
    std::vector<DoubleTensor> c = x.chunk(2, 2);
    REQUIRE(c.size() == 2);
    CHECK(c[0].sizes() == Shape{3, 4, 3});
    CHECK(c[1].sizes() == Shape{3, 4, 2});
    CHECK(values(c[1]) == Values{4,  5,  9,  10, 14, 15, 19, 20, 24, 25, 29, 30,
                                 34, 35, 39, 40, 44, 45, 49, 50, 54, 55, 59, 60});
    CHECK(c[1].storageOffset() == 3);

    // torch.range(1,10):chunk(3) / chunk(4)
    std::vector<DoubleTensor> d = seq({10}).chunk(3);
    REQUIRE(d.size() == 3);
    CHECK(values(d[0]) == Values{1, 2, 3, 4});
    CHECK(values(d[1]) == Values{5, 6, 7, 8});
    CHECK(values(d[2]) == Values{9, 10});
    std::vector<DoubleTensor> e = seq({10}).chunk(4);
    REQUIRE(e.size() == 4);
    CHECK(values(e[0]) == Values{1, 2, 3});
    CHECK(values(e[1]) == Values{4, 5, 6});
    CHECK(values(e[2]) == Values{7, 8, 9});
    CHECK(values(e[3]) == Values{10});
    // torch.range(1,3):chunk(5): fewer pieces than asked
    std::vector<DoubleTensor> f = seq({3}).chunk(5);
    REQUIRE(f.size() == 3);
    CHECK(values(f[0]) == Values{1});
    CHECK(values(f[2]) == Values{3});

    CHECK_THROWS_OP(x.chunk(0), ShapeError, "chunk");
    CHECK_THROWS_OP(x.chunk(2, 5), IndexError, "chunk");
}

// ---------------------------------------------------------------------------------
// The same view operations over every element type and over source layouts
// ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("views agree with element access on every layout", T, uint8_t, int8_t, int16_t,
                   int32_t, int64_t, float, double) {
    // a 4x6 source with distinct values, in three layouts
    Tensor<T> base(6, 8);
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
        src.set(base.narrow(0, 1, 4).narrow(1, 2, 6));
        REQUIRE_FALSE(src.isContiguous());
    }
    REQUIRE(src.sizes() == Shape{4, 6});
    fill_seq(src, 1);
    auto at = [&](int64_t i, int64_t j) { return double(src(i, j)); };

    Tensor<T> n = src.narrow(1, 2, 3);
    check_shares(n, src);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(double(n(i, j)) == at(i, j + 2));

    Tensor<T> s = src.select(1, 4);
    check_shares(s, src);
    for (int64_t i = 0; i < 4; ++i) CHECK(double(s(i)) == at(i, 4));
    Tensor<T> row = src[2];
    for (int64_t j = 0; j < 6; ++j) CHECK(double(row(j)) == at(2, j));

    Tensor<T> t = src.t();
    check_shares(t, src);
    for (int64_t i = 0; i < 6; ++i)
        for (int64_t j = 0; j < 4; ++j) CHECK(double(t(i, j)) == at(j, i));

    Tensor<T> sb = src.sub(1, 2, -3, -1);
    REQUIRE(sb.sizes() == Shape{2, 3});
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(double(sb(i, j)) == at(i + 1, j + 3));

    Tensor<T> u = src.unfold(1, 3, 2); // 4x2x3
    REQUIRE(u.sizes() == Shape{4, 2, 3});
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t w = 0; w < 2; ++w)
            for (int64_t k = 0; k < 3; ++k) CHECK(double(u(i, w, k)) == at(i, 2 * w + k));

    Tensor<T> e = src.select(1, 0).unsqueeze(1).expand(4, 5);
    check_shares(e, src);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 5; ++j) CHECK(double(e(i, j)) == at(i, 0));

    Tensor<T> p = src.unsqueeze(0).permute(2, 0, 1); // 6x1x4
    REQUIRE(p.sizes() == Shape{6, 1, 4});
    for (int64_t i = 0; i < 6; ++i)
        for (int64_t j = 0; j < 4; ++j) CHECK(double(p(i, 0, j)) == at(j, i));
    CHECK(p.squeeze().isSetTo(t));

    std::vector<Tensor<T>> parts = src.split(4, 1);
    REQUIRE(parts.size() == 2);
    CHECK(parts[1].sizes() == Shape{4, 2});
    CHECK(double(parts[1](3, 1)) == at(3, 5));

    // view: possible on the contiguous layout only (the other two need a copy)
    if (src.isContiguous()) {
        Tensor<T> v = src.view(2, 12);
        check_shares(v, src);
        CHECK(double(v(1, 0)) == at(2, 0));
    } else {
        CHECK_THROWS_AS(src.view(24), ShapeError);
        CHECK(values(src.contiguous().view(24)) == values(src));
    }
    // a write through any view lands in the source
    t(5, 3) = T(99);
    CHECK(at(3, 5) == 99);
    u(0, 1, 2) = T(42);
    CHECK(at(0, 4) == 42);
}
