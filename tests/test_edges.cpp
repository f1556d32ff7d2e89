// The array's edges (issue 41): dimensions of size 0 and reversed (negative
// stride) views, as NumPy has them. Expected values come from naive loops over
// the elements (test_util's layout-order readers, which do not use the
// operations under test) or are worked out by hand in the comments.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;
using S = t7::slice;

namespace {

constexpr int64_t none = t7::slice::none;

// 0, 1, 2, ... in layout order.
template <class T = double>
Tensor<T> ramp(const Shape& sizes, double start = 0) {
    Tensor<T> x(sizes);
    fill_seq(x, start);
    return x;
}

// The shapes with one or several empty dimensions in every position.
const std::vector<Shape> empty_shapes = {{0},       {0, 5},    {5, 0},    {3, 0, 4},
                                         {0, 0},    {0, 3, 0}, {2, 3, 0}, {0, 1, 4}};

} // namespace

// ---------------------------------------------------------------------------------
// Empty dimensions
// ---------------------------------------------------------------------------------

TEST_CASE("empty dimensions: construction keeps every size") {
    FloatTensor z(0, 5);
    CHECK(z.dim() == 2);
    CHECK(z.sizes() == Shape{0, 5});
    CHECK(z.strides() == Shape{5, 1});
    CHECK(z.nElement() == 0);
    CHECK(z.isContiguous());
    FloatTensor one(0);
    CHECK(one.dim() == 1);
    CHECK(one.sizes() == Shape{0});
    FloatTensor mid(Shape{3, 0, 4});
    CHECK(mid.sizes() == Shape{3, 0, 4});
    CHECK(mid.strides() == Shape{4, 4, 1});
    FloatTensor none_at_all; // Torch7's empty tensor is unchanged
    CHECK(none_at_all.dim() == 0);
    CHECK(none_at_all.nElement() == 0);
    CHECK(zeros<double>(2, 0).sizes() == Shape{2, 0});
    CHECK(full<int>(Shape{0, 3}, 7).sizes() == Shape{0, 3});
    CHECK_THROWS_AS(FloatTensor(Shape{2, -1}), ShapeError);
    // resize to an empty dimension keeps the storage, changes only the sizes
    DoubleTensor r = ramp({2, 3});
    const double* p = r.data();
    r.resize(0, 3);
    CHECK(r.sizes() == Shape{0, 3});
    r.resize(2, 3);
    CHECK(r.data() == p);
    CHECK(values(r) == Values{0, 1, 2, 3, 4, 5});
}

TEST_CASE("empty dimensions: views") {
    DoubleTensor x = ramp({4, 3});
    DoubleTensor n = x.narrow(0, 2, 0);
    CHECK(n.sizes() == Shape{0, 3});
    CHECK(n.storage() == x.storage());
    CHECK(x.narrow(0, 4, 0).sizes() == Shape{0, 3}); // x[4:4]
    CHECK(x.narrow(1, 1, 0).sizes() == Shape{4, 0});
    CHECK_THROWS_AS(x.narrow(0, 5, 0), IndexError);
    CHECK_THROWS_AS(x.narrow(0, 2, -1), IndexError);
    CHECK_THROWS_AS(x.narrow(0, 4, 1), IndexError);

    CHECK(x(S(3, 3)).sizes() == Shape{0, 3});
    CHECK(x(S(4, 4)).sizes() == Shape{0, 3});
    CHECK(x(all, S(1, 1)).sizes() == Shape{4, 0});
    CHECK(x(S(1, 1), 2).sizes() == Shape{0});
    CHECK_THROWS_AS(x(S(3, 2)), IndexError); // stop < start, positive step
    CHECK_THROWS_AS(x(S(0, 5)), IndexError); // out of range
    CHECK_THROWS_AS(x(S(0, 2, 0)), IndexError);

    DoubleTensor e(Shape{3, 0, 4});
    CHECK(e.transpose(0, 2).sizes() == Shape{4, 0, 3});
    CHECK(e.permute(1, 2, 0).sizes() == Shape{0, 4, 3});
    CHECK(e.select(0, 1).sizes() == Shape{0, 4});
    CHECK(e[2].sizes() == Shape{0, 4});
    CHECK_THROWS_AS(e.select(1, 0), IndexError);
    CHECK(e.view(0, 5).sizes() == Shape{0, 5});
    CHECK(e.view(4, 0, 7).sizes() == Shape{4, 0, 7});
    CHECK_THROWS_AS(e.view(-1, 0), ShapeError); // -1 is ambiguous with no elements
    CHECK_THROWS_AS(e.view(2), ShapeError);
    CHECK(e.unsqueeze(1).sizes() == Shape{3, 1, 0, 4});
    CHECK(e.reshape(Shape{0, 2}).sizes() == Shape{0, 2});
    CHECK(e.contiguous().sizes() == Shape{3, 0, 4});
    CHECK(e.clone().sizes() == Shape{3, 0, 4});
    DoubleTensor row = ramp({1, 4});
    CHECK(row.expand(0, 4).sizes() == Shape{0, 4});
    CHECK(e.split(2, 1).empty()); // nothing to split along an empty dimension
    CHECK(e.split(2, 0).size() == 2);
    CHECK(e.split(2, 0)[1].sizes() == Shape{1, 0, 4});
}

TEST_CASE("empty dimensions: element-wise, copies and broadcasting") {
    for (const Shape& s : empty_shapes) {
        CAPTURE(s);
        DoubleTensor a(s), b(s);
        DoubleTensor y = a * b + t7::exp(a);
        CHECK(y.sizes() == s);
        DoubleTensor into(s);
        into = a - 2.0 * b;
        CHECK(into.sizes() == s);
        into += a;
        into.fill(3);
        into.zero();
        CHECK(a.clone().sizes() == s);
        CHECK(a.to<float>().sizes() == s);
        FloatTensor c(s);
        c.copy(a);
        CHECK(t7::equal(c, a.to<float>()));
        CHECK((a == b).sizes() == s);
    }
    // (0, 5) with (1, 5) is (0, 5); (0, 5) with (5) is (0, 5); (0) with (3) fails
    DoubleTensor z(0, 5);
    DoubleTensor r = z + ramp({1, 5});
    CHECK(r.sizes() == Shape{0, 5});
    CHECK((z * ramp({5})).sizes() == Shape{0, 5});
    CHECK_THROWS_AS(DoubleTensor(z + ramp({3, 5})), ShapeError);
    DoubleTensor dst = ramp({2, 5});
    CHECK_THROWS_AS(dst = z, ShapeError);
    CHECK(values(dst) == values(ramp({2, 5}))); // unchanged
    DoubleTensor col(3, 0);
    CHECK((col + ramp({3, 1})).sizes() == Shape{3, 0});
    // A destination of one empty dimension takes the empty broadcast.
    DoubleTensor d0(0, 5);
    d0 = ramp({1, 5});
    CHECK(d0.sizes() == Shape{0, 5});
}

TEST_CASE("empty dimensions: reductions") {
    for (const Shape& s : empty_shapes) {
        CAPTURE(s);
        DoubleTensor x(s);
        CHECK(t7::sum(x) == 0);
        CHECK(t7::prod(x) == 1);
        CHECK(std::isnan(t7::mean(x)));
        CHECK(t7::norm(x) == 0);
        CHECK_FALSE(t7::any(x > 0));
        CHECK(t7::all(x > 0));
        CHECK_THROWS_AS(t7::max(x), ShapeError);
        CHECK_THROWS_AS(t7::min(x), ShapeError);
    }
    // Along a dimension: the reduced shape; sum of nothing is 0, prod 1.
    DoubleTensor x(0, 5);
    DoubleTensor s0 = t7::sum(x, 0);
    CHECK(s0.sizes() == Shape{1, 5});
    CHECK(values(s0) == Values(5, 0.0));
    CHECK(values(DoubleTensor(t7::prod(x, 0))) == Values(5, 1.0));
    CHECK(DoubleTensor(t7::sum(x, 1)).sizes() == Shape{0, 1});
    CHECK_THROWS_AS(t7::max(x, 0), ShapeError);
    auto [v, i] = t7::max(x, 1); // along a non-empty dimension: empty results
    CHECK(v.sizes() == Shape{0, 1});
    CHECK(i.sizes() == Shape{0, 1});
    CHECK(DoubleTensor(t7::cumsum(x, 0)).sizes() == Shape{0, 5});
}

TEST_CASE("empty dimensions: products, cat, sort, indexing") {
    DoubleTensor a(3, 0), b(0, 4);
    DoubleTensor c = t7::mm(a, b);
    CHECK(c.sizes() == Shape{3, 4});
    CHECK(values(c) == Values(12, 0.0));
    CHECK(t7::mm(b.t(), a.t()).sizes() == Shape{4, 3});
    CHECK(DoubleTensor(t7::mv(a, DoubleTensor(0))).sizes() == Shape{3});
    CHECK(t7::dot(DoubleTensor(0), DoubleTensor(0)) == 0);

    DoubleTensor p = ramp({2, 3});
    DoubleTensor q = t7::cat({p, DoubleTensor(0, 3), p}, 0);
    CHECK(q.sizes() == Shape{4, 3});
    CHECK(values(q) == Values{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
    CHECK(t7::cat({DoubleTensor(0, 3), DoubleTensor(0, 3)}, 0).sizes() == Shape{0, 3});
    CHECK(t7::cat({p, DoubleTensor(2, 0)}, 1).sizes() == Shape{2, 3});

    DoubleTensor nothing(0);
    auto [sv, si] = nothing.sort();
    CHECK(sv.sizes() == Shape{0});
    CHECK(si.sizes() == Shape{0});
    auto [tv, ti] = DoubleTensor(3, 0).topk(0, 1);
    CHECK(tv.sizes() == Shape{3, 0});

    LongTensor no_index(0);
    DoubleTensor picked = p.index(0, no_index);
    CHECK(picked.sizes() == Shape{0, 3});
    DoubleTensor sel = p[p > 100.0];
    CHECK(sel.sizes() == Shape{0});
    DoubleTensor before = p.clone();
    p[p > 100.0] = 7.0; // selects nothing: writes nothing
    CHECK(t7::equal(p, before));
    CHECK(DoubleTensor(0, 3).nonzero().sizes() == Shape{0, 2});
}

TEST_CASE("empty dimensions: printing and files") {
    std::ostringstream os;
    os << FloatTensor(0, 5);
    CHECK(os.str() == "[torch.FloatTensor of size 0x5]\n");
    std::ostringstream o1;
    o1 << DoubleTensor(0);
    CHECK(o1.str() == "[torch.DoubleTensor of size 0]\n");

    const std::string path = "test_edges_empty.npy";
    DoubleTensor e(Shape{3, 0, 2});
    saveNpy(path, e);
    DoubleTensor back = loadNpy<double>(path);
    CHECK(back.sizes() == Shape{3, 0, 2});
    std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------
// Reversed views
// ---------------------------------------------------------------------------------

TEST_CASE("reversed views: negative-step slices follow Python") {
    DoubleTensor x = ramp({6});
    DoubleTensor r = x(S(none, none, -1)); // x[::-1]
    CHECK(r.sizes() == Shape{6});
    CHECK(r.strides() == Shape{-1});
    CHECK(r.storageOffset() == 5);
    CHECK(r.storage() == x.storage());
    CHECK(values(r) == Values{5, 4, 3, 2, 1, 0});
    CHECK(values(DoubleTensor(x(S(4, 1, -1)))) == Values{4, 3, 2});    // x[4:1:-1]
    CHECK(values(DoubleTensor(x(S(none, none, -2)))) == Values{5, 3, 1}); // x[::-2]
    CHECK(values(DoubleTensor(x(S(2, none, -1)))) == Values{2, 1, 0});  // x[2::-1]
    CHECK(values(DoubleTensor(x(S(-1, -4, -1)))) == Values{5, 4, 3});  // x[-1:-4:-1]
    CHECK(x(S(3, 3, -1)).sizes() == Shape{0});                          // x[3:3:-1]
    CHECK(values(DoubleTensor(x(S(none, 4)))) == Values{0, 1, 2, 3});   // x[:4]
    CHECK_THROWS_AS(x(S(1, 4, -1)), IndexError);                        // stops after start
    CHECK_THROWS_AS(x(S(6, none, -1)), IndexError);                     // start out of range
    try {
        x(S(0, 2, 0));
        FAIL("step 0 accepted");
    } catch (const IndexError& err) {
        CHECK(std::string(err.what()).find("dimension 0") != std::string::npos);
    }
}

TEST_CASE("reversed views: flip is a view, and every operation reads it") {
    DoubleTensor x = ramp({3, 4});
    DoubleTensor f = t7::flip(x, {0});
    CHECK(f.strides() == Shape{-4, 1});
    CHECK(f.storageOffset() == 8);
    CHECK(values(f) == Values{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
    DoubleTensor g = x.flip({0, 1});
    CHECK(g.strides() == Shape{-4, -1});
    CHECK(values(g) == Values{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
    CHECK(x.flip({-1}).strides() == Shape{4, -1});
    CHECK(t7::equal(g.flip({0, 1}), x));
    CHECK_THROWS_AS(x.flip({0, 0}), IndexError);
    CHECK_THROWS_AS(x.flip({2}), IndexError);
    CHECK_FALSE(g.isContiguous());

    // Fused expressions, copies, reductions over reversed operands.
    DoubleTensor y = g * 2.0 + x;
    Values want;
    for (int i = 0; i < 12; ++i) want.push_back(2.0 * (11 - i) + i);
    CHECK(values(y) == want);
    CHECK(values(g.clone()) == values(g));
    CHECK(g.contiguous().isContiguous());
    CHECK(t7::sum(g) == 66);
    CHECK(t7::max(g) == 11);
    DoubleTensor rows = t7::sum(f, 1);
    CHECK(values(rows) == Values{38, 22, 6});
    auto [mv, mi] = t7::max(f, 1);
    CHECK(values(mi) == Values{3, 3, 3});
    CHECK(values(DoubleTensor(t7::cumsum(x.flip({1}), 1))) ==
          Values{3, 5, 6, 6, 7, 13, 18, 22, 11, 21, 30, 38});

    // Products with reversed operands (packed) and into a reversed destination.
    DoubleTensor a = ramp({2, 3}), b = ramp({3, 2});
    DoubleTensor ab = t7::mm(a.flip({1}), b);
    // rows of a reversed: [2 1 0; 5 4 3] @ [0 1; 2 3; 4 5]
    CHECK(values(ab) == Values{2, 5, 20, 32});
    DoubleTensor out(2, 2);
    DoubleTensor out_r = out.flip({0});
    out_r = t7::mm(a, b); // writes row 0 of the product into row 1 of out
    CHECK(values(out) == Values{28, 40, 10, 13});

    // Printing a reversed view prints its values in its order.
    std::ostringstream os, oc;
    os << f;
    oc << f.clone();
    CHECK(os.str() == oc.str());
}

TEST_CASE("reversed views: as destinations and aliased") {
    DoubleTensor x = ramp({5});
    x(S(none, none, -1)) = ramp({5}, 10);
    CHECK(values(x) == Values{14, 13, 12, 11, 10});

    // x = flip(x): NumPy's answer (the reversed values), not a half-mirrored one.
    DoubleTensor y = ramp({7});
    y = t7::flip(y, {0});
    CHECK(values(y) == Values{6, 5, 4, 3, 2, 1, 0});
    DoubleTensor z = ramp({7});
    z(S(none, none, -1)) = z;
    CHECK(values(z) == Values{6, 5, 4, 3, 2, 1, 0});
    DoubleTensor m = ramp({3, 3});
    m = m.flip({0}) + m;
    CHECK(values(m) == Values{6, 8, 10, 6, 8, 10, 6, 8, 10});
    DoubleTensor w = ramp({4});
    w += t7::flip(w, {0});
    CHECK(values(w) == Values{3, 3, 3, 3});
}

TEST_CASE("reversed views: long runs take the reversed packet path") {
    // Lengths around the packet sizes and the alignment peel; reversed
    // against a forward destination, and all operands reversed.
    for (int64_t n : {1, 7, 15, 16, 17, 31, 33, 100, 1000, 65536 + 3}) {
        CAPTURE(n);
        FloatTensor a = ramp<float>({n}), b = ramp<float>({n}, 1);
        FloatTensor ra = a.flip({0});
        FloatTensor y = ra * 2.0f + b;
        FloatTensor ry(n);
        ry.flip({0}) = ra + b.flip({0});
        bool ok = true, ok2 = true;
        for (int64_t i = 0; i < n; ++i) {
            ok = ok && y.data()[i] == 2.0f * float(n - 1 - i) + float(i + 1);
            ok2 = ok2 && ry.data()[i] == float(i) + float(i + 1);
        }
        CHECK(ok);
        CHECK(ok2);
        CHECK(t7::sum(ra) == doctest::Approx(double(n) * double(n - 1) / 2));
        IntTensor ia = ramp<int>({n});
        IntTensor iy = ia.flip({0}) + ia;
        bool ok3 = true;
        for (int64_t i = 0; i < n; ++i) ok3 = ok3 && iy.data()[i] == int(n - 1);
        CHECK(ok3);
    }
}

TEST_CASE("reversed views: files and conversions") {
    DoubleTensor x = ramp({2, 3});
    const std::string path = "test_edges_flip.npy";
    saveNpy(path, x.flip({1}));
    CHECK(values(loadNpy<double>(path)) == Values{2, 1, 0, 5, 4, 3});
    std::remove(path.c_str());
    CHECK(x.flip({0}).toVector() == std::vector<double>{3, 4, 5, 0, 1, 2});
    std::vector<double> seen;
    for (double v : x.flip({1})) seen.push_back(v);
    CHECK(seen == std::vector<double>{2, 1, 0, 5, 4, 3});
    // The strides constructor keeps Torch7's rule: negative means contiguous.
    DoubleTensor c(Shape{2, 3}, Shape{-1, -1});
    CHECK(c.strides() == Shape{3, 1});
}
