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
const std::vector<Shape> empty_shapes = {{0},    {0, 5},    {5, 0},    {3, 0, 4},
                                         {0, 0}, {0, 3, 0}, {2, 3, 0}, {0, 1, 4}};

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
    CHECK(values(DoubleTensor(x(S(4, 1, -1)))) == Values{4, 3, 2});       // x[4:1:-1]
    CHECK(values(DoubleTensor(x(S(none, none, -2)))) == Values{5, 3, 1}); // x[::-2]
    CHECK(values(DoubleTensor(x(S(2, none, -1)))) == Values{2, 1, 0});    // x[2::-1]
    CHECK(values(DoubleTensor(x(S(-1, -4, -1)))) == Values{5, 4, 3});     // x[-1:-4:-1]
    CHECK(x(S(3, 3, -1)).sizes() == Shape{0});                            // x[3:3:-1]
    CHECK(values(DoubleTensor(x(S(none, 4)))) == Values{0, 1, 2, 3});     // x[:4]
    CHECK_THROWS_AS(x(S(1, 4, -1)), IndexError);                          // stops after start
    CHECK_THROWS_AS(x(S(6, none, -1)), IndexError);                       // start out of range
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

// ---------------------------------------------------------------------------------
// Every NumPy integer, float and bool dtype, converted exactly
// ---------------------------------------------------------------------------------

namespace {

std::string npy_data(const std::string& name) {
    const char* d = std::getenv("T7_TEST_DATA");
    return std::string(d ? d : "tests/data") + "/npy/" + name;
}

// A .npy file's bytes: version 1.0, the header padded to 64 bytes.
std::string npy_bytes(const std::string& descr, const std::string& shape, const void* data,
                      size_t bytes) {
    std::string dict =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(dict.size() & 0xff);
    out += char(dict.size() >> 8);
    out += dict;
    out.append(static_cast<const char*>(data), bytes);
    return out;
}

} // namespace

TEST_CASE("npy: unsigned and wider dtypes load when every value converts exactly") {
    // CSR indices as SciPy writes them: uint32 (0 2 5 4294 7 3)
    const Values csr{0, 2, 5, 4294, 7, 3};
    CHECK(values(loadNpy<int64_t>(npy_data("csr_indices_u4.npy"))) == csr);
    CHECK(values(loadNpy<int32_t>(npy_data("csr_indices_u4.npy"))) == csr);
    CHECK(values(loadNpy<double>(npy_data("csr_indices_u4.npy"))) == csr);
    CHECK_THROWS_AS(loadNpy<int8_t>(npy_data("csr_indices_u4.npy")), TypeError);
    Object any = loadNpyAny(npy_data("csr_indices_u4.npy")); // uint32 -> int64, exactly
    CHECK(values(any.tensor<int64_t>()) == csr);
    CHECK(loadNpy<float>(npy_data("empty_0x5_f4.npy")).sizes() == Shape{0, 5});

    // 2^63 is no int64: named, nothing returned
    const std::string big =
        test_util::message_of<TypeError>([] { loadNpy<int64_t>(npy_data("big_u8.npy")); });
    CHECK(big.find("9223372036854775808 at (1,)") != std::string::npos);
    CHECK_THROWS_AS(loadNpyAny(npy_data("big_u8.npy")), TypeError);
    CHECK(values(loadNpy<double>(npy_data("big_u8.npy"))) == Values{1, 9223372036854775808.0});

    const uint16_t u2[3] = {0, 40000, 65535};
    Object a2 = fromNpyAny(npy_bytes("<u2", "(3,)", u2, sizeof u2));
    CHECK(values(a2.tensor<int32_t>()) == Values{0, 40000, 65535}); // the smallest exact type
    CHECK_THROWS_AS(fromNpy<int16_t>(npy_bytes("<u2", "(3,)", u2, sizeof u2)), TypeError);

    // int64 -> double exactly below 2^53, not at 2^53 + 1; double -> int only integral values
    const int64_t i8[2] = {(int64_t(1) << 53), (int64_t(1) << 53) + 1};
    const std::string f = npy_bytes("<i8", "(2,)", i8, sizeof i8);
    CHECK_THROWS_AS(fromNpy<double>(f), TypeError);
    CHECK(values(fromNpy<double>(npy_bytes("<i8", "(1,)", i8, 8))) == Values{9007199254740992.0});
    const double f8[3] = {1.0, -3.0, 2.5};
    CHECK(values(fromNpy<int32_t>(npy_bytes("<f8", "(2,)", f8, 16))) == Values{1, -3});
    CHECK(test_util::message_of<TypeError>([&] {
              fromNpy<int32_t>(npy_bytes("<f8", "(3,)", f8, 24));
          }).find("2.5 at (2,)") != std::string::npos);
    const double nan_inf[2] = {std::nan(""), 1e300};
    FloatTensor keeps_nan = fromNpy<float>(npy_bytes("<f8", "(1,)", nan_inf, 8));
    CHECK(std::isnan(keeps_nan.data()[0]));
    CHECK_THROWS_AS(fromNpy<float>(npy_bytes("<f8", "(2,)", nan_inf, 16)), TypeError);
    CHECK_THROWS_AS(fromNpy<int64_t>(npy_bytes("<f8", "(1,)", nan_inf, 8)), TypeError);
    CHECK_THROWS_AS(fromNpy<double>(npy_bytes("<c16", "(1,)", f8, 16)), TypeError); // issue 42
}

// ---------------------------------------------------------------------------------
// NumPy conveniences: *Like, histogram, keepdim
// ---------------------------------------------------------------------------------

TEST_CASE("zerosLike, onesLike, emptyLike, fullLike: x's sizes, new contiguous memory") {
    DoubleTensor x = ramp({3, 4}).t(); // 4x3, transposed strides
    for (const DoubleTensor& r : {zerosLike(x), onesLike(x), fullLike(x, 2.5), emptyLike(x)}) {
        CHECK(r.sizes() == Shape{4, 3});
        CHECK(r.isContiguous());
        CHECK(r.storage() != x.storage());
    }
    CHECK(values(zerosLike(x)) == Values(12, 0.0));
    CHECK(values(onesLike(x)) == Values(12, 1.0));
    CHECK(values(fullLike(x, 2.5)) == Values(12, 2.5));
    CHECK(values(fullLike(IntTensor(2), 7.9)) == Values{7, 7}); // the library's conversion
    CHECK(zerosLike(FloatTensor(0, 3)).sizes() == Shape{0, 3});
}

TEST_CASE("histogram: np.histogram's binning, counts and weights") {
    // np.histogram(x, 4, range=(0, 1)) of these float32 values: [3 2 2 2];
    // with weights 0, 0.5, 1, ...: [6. 5.5 6.5 4.5] (NumPy 1.24's output)
    FloatTensor x = t7::tensor<float>(
        {0.0f, 0.1f, 0.25f, 0.5f, 0.99f, 1.0f, -0.1f, 1.1f, NAN, 0.3f, 0.7f, 0.2f});
    CHECK(values(histogram(x, 4, 0, 1)) == Values{3, 2, 2, 2});
    DoubleTensor w = ramp({12}) * 0.5;
    DoubleTensor hw = histogram(x, 4, 0, 1, w);
    CHECK(values(hw) == Values{6, 5.5, 6.5, 4.5});
    // integers (computed in double): np.histogram(arange(1, 11), 3, range=(1, 10)) -> [3 3 4]
    CHECK(values(histogram(t7::range<int>(1, 10), 3, 1, 10)) == Values{3, 3, 4});
    // one value: the range widened by 0.5 each side -> [0 3]
    CHECK(values(histogram(t7::tensor<double>({2.0, 2.0, 2.5}), 2, 2, 2)) == Values{0, 3});
    // float32 edges near values: np.histogram(v, 7, range=(0, 2.2)) -> [6 4 3 5 4 3 5]
    FloatTensor v =
        t7::tensor<float>({1.375286340713501f,     2.191641330718994f,    1.827057123184204f,
                           0.17562156915664673f,   0.4004988670349121f,   2.1206603050231934f,
                           -0.48420408368110657f,  1.9636852741241455f,   1.891208291053772f,
                           0.9038048386573792f,    0.409097284078598f,    0.33527684211730957f,
                           0.264608770608902f,     0.8352289199829102f,   1.013644814491272f,
                           1.1604920625686646f,    2.4865007400512695f,   1.8779857158660889f,
                           1.3665376901626587f,    2.4668805599212646f,   0.1459260880947113f,
                           -0.019363898783922195f, 1.3376188278198242f,   -0.3681739866733551f,
                           -0.3929591774940491f,   1.0446664094924927f,   0.8986181020736694f,
                           2.2515032291412354f,    1.3876787424087524f,   1.0423529148101807f,
                           0.9906203150749207f,    0.2425447702407837f,   -0.46461793780326843f,
                           0.07720643281936646f,   1.5760964155197144f,   0.10182017087936401f,
                           0.6086089611053467f,    -0.48879727721214294f, 1.9901431798934937f,
                           -0.03661675751209259f});
    CHECK(values(histogram(v, 7, 0, 2.2)) == Values{6, 4, 3, 5, 4, 3, 5});
    CHECK(values(histogram(v.flip({0}), 7, 0, 2.2)) == Values{6, 4, 3, 5, 4, 3, 5});
    CHECK(values(histogram(FloatTensor(0), 3, 0, 1)) == Values{0, 0, 0});
    CHECK_THROWS_AS(histogram(x, 0, 0, 1), ShapeError);
    CHECK_THROWS_AS(histogram(x, 2, 1, 0), Error);
    CHECK_THROWS_AS(histogram(x, 2, 0, INFINITY), Error);
    CHECK_THROWS_AS(histogram(x, 2, 0, 1, DoubleTensor(3)), ShapeError);
}

TEST_CASE("reductions over several dimensions: keepdim") {
    DoubleTensor x = ramp({2, 3, 4});
    DoubleTensor kept = t7::sum(x, {1, 2});
    CHECK(kept.sizes() == Shape{2, 1, 1});
    DoubleTensor dropped = t7::sum(x, {1, 2}, /*keepdim=*/false);
    CHECK(dropped.sizes() == Shape{2});
    CHECK(values(dropped) == Values{66, 210});
    CHECK(t7::sum(x, {0, 1, 2}, false).sizes() == Shape{1});
    CHECK(values(DoubleTensor(t7::max(x, {0, 2}, false))) == Values{15, 19, 23});
    CHECK(DoubleTensor(t7::var(x, {0}, false, false)).sizes() == Shape{3, 4});
    CHECK(t7::all(x >= 0.0, {1}, false).sizes() == Shape{2, 4});
    // NumPy's x.sum(axis=(1, 2)) into a 1-D view: no .view() needed
    DoubleTensor out = zeros<double>(2, 5);
    out(all, 1) = t7::sum(x, {1, 2}, false);
    CHECK(values(DoubleTensor(out(all, 1))) == Values{66, 210});
    DoubleTensor into;
    t7::sum(into, x, {0, 2}, false);
    CHECK(into.sizes() == Shape{3});
    CHECK(values(into) == Values{60, 92, 124});
    // over reversed and empty inputs
    CHECK(values(DoubleTensor(t7::sum(x.flip({1, 2}), {1, 2}, false))) == Values{66, 210});
    CHECK(values(DoubleTensor(t7::sum(DoubleTensor(Shape{2, 0, 3}), {1, 2}, false))) ==
          Values{0, 0});
    CHECK_THROWS_AS(t7::max(DoubleTensor(Shape{2, 0, 3}), {1, 2}), ShapeError);
}

TEST_CASE("Torch7 files: empty dimensions keep their sizes, reversed views their values") {
    const std::string path = "test_edges.t7";
    save(path, FloatTensor(0, 5));
    CHECK(load<float>(path).sizes() == Shape{0, 5});
    DoubleTensor x = ramp({2, 3});
    save(path, x.flip({0, 1}));
    DoubleTensor back = load<double>(path);
    CHECK(back.strides() == Shape{3, 1}); // a copy: Torch7 has no negative strides
    CHECK(values(back) == Values{5, 4, 3, 2, 1, 0});
    std::remove(path.c_str());
}

TEST_CASE("empty dimensions: indexed and scanned operations give nothing") {
    DoubleTensor x = ramp({2, 3});
    LongTensor none(0);
    DoubleTensor before = x.clone();
    x.indexFill(1, none, 9.0);
    x.indexCopy(0, none, DoubleTensor(0, 3));
    x.indexAdd(0, none, DoubleTensor(0, 3));
    CHECK(t7::equal(x, before));
    LongTensor gi(2, 0);
    CHECK(x.gather(1, gi).sizes() == Shape{2, 0});
    x.scatter(1, gi, DoubleTensor(2, 0));
    x.scatter(1, gi, 5.0);
    CHECK(t7::equal(x, before));
    DoubleTensor e(Shape{0, 4});
    CHECK(DoubleTensor(t7::cumsum(e, 1)).sizes() == Shape{0, 4});
    CHECK(DoubleTensor(t7::cumprod(e, 0)).sizes() == Shape{0, 4});
    e.maskedFill(e > 0.0, 1.0);
    CHECK(e.repeatTensor(2, 1).sizes() == Shape{0, 4});
    CHECK(ramp({3}).repeatTensor(0).sizes() == Shape{0});
    int calls = 0;
    e.apply([&](double) { ++calls; });
    CHECK(calls == 0);
}

TEST_CASE("reversed views: sorting, masks, apply, narrow and index") {
    DoubleTensor x = t7::tensor<double>({3, 1, 4, 1, 5, 9, 2, 6});
    DoubleTensor r = x.flip({0}); // 6 2 9 5 1 4 1 3
    auto [sv, si] = r.sort();
    CHECK(values(sv) == Values{1, 1, 2, 3, 4, 5, 6, 9});
    CHECK(values(si) == Values{4, 6, 1, 7, 5, 3, 0, 2});
    auto [tv, ti] = r.topk(2);
    CHECK(values(tv) == Values{9, 6});
    CHECK(values(DoubleTensor(r[r > 4.0])) == Values{6, 9, 5});
    r[r > 4.0] = 0.0; // writes through the reversed view
    CHECK(values(x) == Values{3, 1, 4, 1, 0, 0, 2, 0});
    CHECK(values(DoubleTensor(r.narrow(0, 1, 3))) == Values{2, 0, 0});
    LongTensor idx = t7::tensor<int64_t>({0, 7});
    CHECK(values(r.index(0, idx)) == Values{0, 3});
    std::vector<double> seen;
    r.apply([&](double v) { seen.push_back(v); });
    CHECK(seen == std::vector<double>{0, 2, 0, 0, 1, 4, 1, 3});
    LongTensor nz = r.nonzero();
    CHECK(values(nz) == Values{1, 4, 5, 6, 7});
    DoubleTensor m = ramp({2, 3});
    m.flip({1}).copy(ramp({6}, 10));
    CHECK(values(m) == Values{12, 11, 10, 15, 14, 13});
}
