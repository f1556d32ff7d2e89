// Indexed, masked, search, sorting and joining operations (issue 4): every
// example of Torch7's documentation transcripts (shared/torch7/tensor_index_ops.txt,
// the mask parts of tensor_indexing.txt, repeatTensor in tensor_expand_view.txt)
// translated to 0-based C++, then non-contiguous inputs and outputs, aliasing,
// reference comparisons, and the error cases (the tensor is left unchanged).
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;

namespace {

// torch.Tensor({...}) / torch.Tensor({{...}, ...}) of any element type.
template <class T = double>
Tensor<T> vec(std::initializer_list<double> v) {
    Tensor<T> t(int64_t(v.size()));
    fill_values(t, Values(v));
    return t;
}
template <class T = double>
Tensor<T> mat(std::initializer_list<std::initializer_list<double>> rows) {
    Values v;
    for (const auto& r : rows) v.insert(v.end(), r.begin(), r.end());
    Tensor<T> t(int64_t(rows.size()), int64_t(rows.begin()->size()));
    fill_values(t, v);
    return t;
}
LongTensor lvec(std::initializer_list<double> v) { return vec<int64_t>(v); }
LongTensor lmat(std::initializer_list<std::initializer_list<double>> rows) {
    return mat<int64_t>(rows);
}
ByteTensor bmat(std::initializer_list<std::initializer_list<double>> rows) {
    return mat<uint8_t>(rows);
}

// Element-wise closeness for values transcribed with 4 decimals.
bool close(const Values& a, const Values& b, double eps = 1e-9) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > eps) return false;
    return true;
}

// A copy of a tensor's values and layout, to check that a failed call changed nothing.
template <class T>
struct Snapshot {
    Tensor<T> t;
    Values before;
    Shape sizes, strides;
    explicit Snapshot(const Tensor<T>& x)
        : t(x), before(values(x)), sizes(x.sizes()), strides(x.strides()) {}
    bool unchanged() const {
        return values(t) == before && t.sizes() == sizes && t.strides() == strides;
    }
};

// The documentation's 5x5 matrices.
DoubleTensor R() {
    return mat({{0.8020, 0.7246, 0.1204, 0.3419, 0.4385},
                {0.0369, 0.4158, 0.0985, 0.3024, 0.8186},
                {0.2746, 0.9362, 0.2546, 0.8586, 0.6674},
                {0.7473, 0.9028, 0.1046, 0.9085, 0.6622},
                {0.1412, 0.6784, 0.1624, 0.8113, 0.3949}});
}

// Deterministic pseudo-random values.
template <class T>
Tensor<T> random_tensor(const Shape& s, double lo, double hi, unsigned seed) {
    Tensor<T> t(s);
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    Values v(size_t(t.nElement()));
    for (auto& x : v) x = std::is_integral_v<T> ? std::floor(u(g)) : u(g);
    fill_values(t, v);
    return t;
}
LongTensor random_index(const Shape& s, int64_t n, unsigned seed) {
    return random_tensor<int64_t>(s, 0, double(n), seed);
}

// Reads element (i, j, k) of a tensor of rank <= 3 by sizes/strides.
template <class T>
double at(const Tensor<T>& t, std::vector<int64_t> c) {
    int64_t off = 0;
    for (size_t d = 0; d < c.size(); ++d) off += c[d] * t.stride(int64_t(d));
    return double(t.data()[off]);
}

// Every coordinate of a shape, in layout order.
std::vector<std::vector<int64_t>> coords(const Shape& s) {
    std::vector<std::vector<int64_t>> all;
    std::vector<int64_t> c(s.size(), 0);
    int64_t n = s.numel();
    for (int64_t i = 0; i < n; ++i) {
        all.push_back(c);
        for (size_t d = s.size(); d-- > 0;) {
            if (++c[d] < s[d]) break;
            c[d] = 0;
        }
    }
    return all;
}

} // namespace

#define CHECK_THROWS_MSG(expr, Type, text) CHECK_THROWS_WITH_AS(expr, doctest::Contains(text), Type)

// =====================================================================================
// index
// =====================================================================================

TEST_CASE("index: Torch7's examples") {
    DoubleTensor x = R().clone();
    // y = x:index(1,torch.LongTensor{3,1})
    DoubleTensor y = x.index(0, lvec({2, 0}));
    CHECK(y.sizes() == Shape{2, 5});
    CHECK(values(y) ==
          Values{0.2746, 0.9362, 0.2546, 0.8586, 0.6674, 0.8020, 0.7246, 0.1204, 0.3419, 0.4385});
    // y:fill(1) leaves x alone: index copies
    y.fill(1);
    CHECK(values(y) == Values(10, 1.0));
    CHECK(values(x) == values(R()));
    // y = torch.Tensor(); y:index(x,1,torch.LongTensor{3,1})
    DoubleTensor z;
    DoubleTensor& zr = z.index(x, 0, lvec({2, 0}));
    CHECK(&zr == &z);
    CHECK(z.sizes() == Shape{2, 5});
    CHECK(values(z) ==
          Values{0.2746, 0.9362, 0.2546, 0.8586, 0.6674, 0.8020, 0.7246, 0.1204, 0.3419, 0.4385});
    // x:index(2,torch.LongTensor{5,5,1})
    DoubleTensor c = x.index(1, lvec({4, 4, 0}));
    CHECK(c.sizes() == Shape{5, 3});
    CHECK(values(c) == Values{0.4385, 0.4385, 0.8020, 0.8186, 0.8186, 0.0369, 0.6674, 0.6674,
                              0.2746, 0.6622, 0.6622, 0.7473, 0.3949, 0.3949, 0.1412});
    // torch.range(1,5):index(1,torch.LongTensor{5,4,1})
    DoubleTensor r = seq({5}).index(0, lvec({4, 3, 0}));
    CHECK(r.sizes() == Shape{3});
    CHECK(values(r) == Values{5, 4, 1});
    // free function form
    CHECK(values(t7::index(seq({5}), 0, lvec({1}))) == Values{2});
}

TEST_CASE("index: Torch7's errors, 0-based, and the other bad inputs") {
    DoubleTensor x = R();
    // x:index(1,torch.LongTensor{}) -- "Index is supposed to be a vector"
    CHECK_THROWS_MSG(x.index(0, LongTensor()), ShapeError, "index: the index tensor must be 1-D");
    // x:index(1,torch.LongTensor{6}) -- index out of range (0-based: 5)
    CHECK_THROWS_MSG(x.index(0, lvec({5})), IndexError,
                     "index: index 5 at position 0 out of range for dimension 0 of size 5");
    CHECK_THROWS_MSG(x.index(1, lvec({0, 1, -1})), IndexError,
                     "index: index -1 at position 2 out of range for dimension 1 of size 5");
    // 2-D index on a 1-D source
    CHECK_THROWS_MSG(
        seq({5}).index(0, lmat({{0, 1}, {2, 3}})), ShapeError,
        "index: the index tensor must be 1-D (a vector of indices), got 2-D of size 2x2");
    CHECK_THROWS_MSG(x.index(0, vec<int32_t>({0, 1})), TypeError,
                     "index: the index tensor must be a torch.LongTensor, got a torch.IntTensor");
    CHECK_THROWS_MSG(x.index(0, vec<double>({0})), TypeError, "torch.DoubleTensor");
    CHECK_THROWS_MSG(x.index(2, lvec({0})), IndexError, "index: dimension 2 out of range");
    CHECK_THROWS_AS(DoubleTensor().index(0, lvec({0})), IndexError);
    // the result form leaves its destination alone on failure
    DoubleTensor y = seq({2, 5});
    Snapshot<double> s(y);
    CHECK_THROWS_AS(y.index(x, 0, lvec({1, 7})), IndexError);
    CHECK(s.unchanged());
}

TEST_CASE("index: negative dimension, non-contiguous sources, indices and results") {
    DoubleTensor base = seq({4, 6});
    SUBCASE("dim -1 is the last") {
        CHECK(values(base.index(-1, lvec({5, 0}))) == Values{6, 1, 12, 7, 18, 13, 24, 19});
    }
    SUBCASE("transposed source") {
        DoubleTensor t = base.t(); // 6x4
        DoubleTensor y = t.index(0, lvec({1, 3}));
        CHECK(y.sizes() == Shape{2, 4});
        CHECK(values(y) == Values{2, 8, 14, 20, 4, 10, 16, 22});
        CHECK(values(t.index(1, lvec({3, 3}))) ==
              Values{19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24});
        CHECK(y.isContiguous());
    }
    SUBCASE("narrowed and stepped source") {
        DoubleTensor n = base(slice(1, 4), slice(0, 6, 2)); // rows 1..3, columns 0, 2, 4
        CHECK(values(n.index(1, lvec({2, 0}))) == Values{11, 7, 17, 13, 23, 19});
    }
    SUBCASE("expanded source") {
        DoubleTensor e = seq({1, 3}).expand(4, 3);
        CHECK(values(e.index(0, lvec({3, 0}))) == Values{1, 2, 3, 1, 2, 3});
        CHECK(values(e.index(1, lvec({2, 2}))) == Values{3, 3, 3, 3, 3, 3, 3, 3});
    }
    SUBCASE("strided index tensor") {
        LongTensor i = lvec({3, 9, 1, 9, 0});
        LongTensor every_other = i(slice(0, 5, 2)); // 3, 1, 0
        CHECK(values(base.index(0, every_other)) ==
              Values{19, 20, 21, 22, 23, 24, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6});
        LongTensor e = lvec({2}).expand(3); // 2, 2, 2 with stride 0
        CHECK(values(base.index(1, e)) == Values{3, 3, 3, 9, 9, 9, 15, 15, 15, 21, 21, 21});
    }
    SUBCASE("result of the right size keeps its strides and storage") {
        DoubleTensor big = DoubleTensor(5, 2).fill(0);
        DoubleTensor dst = big.t(); // 2x5 view, strides 1x2
        DoubleTensor src = seq({3, 5});
        dst.index(src, 0, lvec({2, 0}));
        CHECK(dst.strides() == Shape{1, 2});
        CHECK(dst.storage() == big.storage());
        CHECK(values(dst) == Values{11, 12, 13, 14, 15, 1, 2, 3, 4, 5});
    }
    SUBCASE("aliasing: the result is the source") {
        DoubleTensor y = seq({3, 2});
        y.index(y, 0, lvec({2, 2, 0, 1}));
        CHECK(y.sizes() == Shape{4, 2});
        CHECK(values(y) == Values{5, 6, 5, 6, 1, 2, 3, 4});
    }
    SUBCASE("3-D against a reference, every dimension") {
        DoubleTensor x = random_tensor<double>({4, 5, 6}, -1, 1, 7).permute(2, 0, 1); // 6x4x5
        for (int64_t d = 0; d < 3; ++d) {
            LongTensor i = random_index({7}, x.size(d), unsigned(d + 1));
            DoubleTensor y = x.index(d, i);
            Shape expect = x.sizes();
            expect[size_t(d)] = 7;
            REQUIRE(y.sizes() == expect);
            bool ok = true;
            for (auto c : coords(y.sizes())) {
                auto src = c;
                src[size_t(d)] = int64_t(at(i, {c[size_t(d)]}));
                ok = ok && at(y, c) == at(x, src);
            }
            CHECK(ok);
        }
    }
}

TEST_CASE("index: large and multi-threaded, against a hand loop") {
    setNumThreads(2);
    FloatTensor x = random_tensor<float>({300, 400}, -1, 1, 3);
    LongTensor rows = random_index({350}, 300, 4), cols = random_index({350}, 400, 5);
    FloatTensor a = x.index(0, rows), b = x.index(1, cols);
    bool ok = true;
    for (int64_t i = 0; i < 350; ++i)
        for (int64_t j = 0; j < 400; ++j) ok = ok && a(i, j) == x(rows(i), j);
    for (int64_t i = 0; i < 300; ++i)
        for (int64_t j = 0; j < 350; ++j) ok = ok && b(i, j) == x(i, cols(j));
    CHECK(ok);
    // an out-of-range index deep in a parallel gather is still reported with its position
    LongTensor bad = random_index({350}, 300, 6);
    bad(341) = 300;
    CHECK_THROWS_MSG(x.index(0, bad), IndexError, "index 300 at position 341");
}

// =====================================================================================
// indexCopy / indexAdd / indexFill
// =====================================================================================

namespace {
// z = torch.Tensor(5,2); z:select(2,1):fill(-1); z:select(2,2):fill(-2)
DoubleTensor minus_one_two() {
    DoubleTensor z(5, 2);
    z.select(1, 0).fill(-1);
    z.select(1, 1).fill(-2);
    return z;
}
} // namespace

TEST_CASE("indexCopy: Torch7's examples") {
    DoubleTensor x = R().clone();
    DoubleTensor z = minus_one_two();
    CHECK(values(z) == Values{-1, -2, -1, -2, -1, -2, -1, -2, -1, -2});
    // x:indexCopy(2,torch.LongTensor{5,1},z)
    DoubleTensor& r = x.indexCopy(1, lvec({4, 0}), z);
    CHECK(&r == &x); // returns self (Torch7's wrapper returns z)
    CHECK(values(x) == Values{-2, 0.7246, 0.1204, 0.3419, -1, -2, 0.4158, 0.0985, 0.3024, -1,
                              -2, 0.9362, 0.2546, 0.8586, -1, -2, 0.9028, 0.1046, 0.9085, -1,
                              -2, 0.6784, 0.1624, 0.8113, -1});
    // x = torch.zeros(3,4); x:indexCopy(1,torch.LongTensor{3,1},torch.range(1,8):view(2,4))
    DoubleTensor y = DoubleTensor(3, 4).zero();
    y.indexCopy(0, lvec({2, 0}), seq({8}).view(2, 4));
    CHECK(values(y) == Values{5, 6, 7, 8, 0, 0, 0, 0, 1, 2, 3, 4});
}

TEST_CASE("indexCopy: duplicates (last wins), non-contiguous, errors leave x unchanged") {
    SUBCASE("duplicate indices: the last slice wins, as in Torch7's loop") {
        DoubleTensor x = DoubleTensor(3).zero();
        x.indexCopy(0, lvec({1, 1, 1}), vec({7, 8, 9}));
        CHECK(values(x) == Values{0, 9, 0});
    }
    SUBCASE("transposed destination, transposed source") {
        DoubleTensor base = DoubleTensor(4, 3).zero();
        DoubleTensor x = base.t();                     // 3x4
        x.indexCopy(1, lvec({3, 1}), seq({2, 3}).t()); // source 1 4 / 2 5 / 3 6
        CHECK(values(x) == Values{0, 4, 0, 1, 0, 5, 0, 2, 0, 6, 0, 3});
        CHECK(values(base) == Values{0, 0, 0, 4, 5, 6, 0, 0, 0, 1, 2, 3});
    }
    SUBCASE("expanded source") {
        DoubleTensor x = DoubleTensor(3, 2).zero();
        x.indexCopy(0, lvec({2, 0}), vec({5, 6}).view(1, 2).expand(2, 2));
        CHECK(values(x) == Values{5, 6, 0, 0, 5, 6});
    }
    SUBCASE("the source is the destination") {
        DoubleTensor x = seq({3, 2});
        x.indexCopy(0, lvec({2, 1, 0}), x);
        CHECK(values(x) == Values{5, 6, 3, 4, 1, 2});
    }
    SUBCASE("errors") {
        DoubleTensor x = seq({3, 4});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x.indexCopy(0, lvec({0, 3}), seq({2, 4})), IndexError,
                         "indexCopy: index 3 at position 1 out of range for dimension 0 of size 3");
        CHECK_THROWS_MSG(x.indexCopy(0, lvec({0, -3}), seq({2, 4})), IndexError,
                         "indexCopy: index -3 at position 1");
        CHECK_THROWS_MSG(x.indexCopy(0, lvec({0, 1}), seq({3, 4})), ShapeError,
                         "indexCopy: source of size 3x4 does not match size 2x4");
        CHECK_THROWS_MSG(x.indexCopy(1, lvec({0}), seq({3, 2})), ShapeError, "indexCopy: source");
        CHECK_THROWS_MSG(x.indexCopy(0, vec<int32_t>({0}), seq({1, 4})), TypeError,
                         "indexCopy: the index tensor must be a torch.LongTensor");
        CHECK_THROWS_MSG(x.indexCopy(0, lmat({{0}}), seq({1, 4})), ShapeError,
                         "indexCopy: the index tensor must be 1-D");
        CHECK_THROWS_AS(x.indexCopy(2, lvec({0}), seq({1, 4})), IndexError);
        CHECK(s.unchanged());
    }
}

TEST_CASE("indexAdd: Torch7's examples") {
    DoubleTensor x = mat({{-2.1742, 0.5688, -1.0201, 0.1383, 1.0504},
                          {0.0970, 0.2169, 0.1324, 0.9553, -1.9518},
                          {-0.7607, 0.8947, 0.1658, -0.2181, -2.1237},
                          {-1.4099, 0.2342, 0.4549, 0.6316, -0.2608},
                          {0.0349, 0.4713, 0.0050, 0.1677, 0.2103}});
    // x:indexAdd(2,torch.LongTensor{5,1},z)
    x.indexAdd(1, lvec({4, 0}), minus_one_two());
    CHECK(close(values(x),
                Values{-4.1742, 0.5688,  -1.0201, 0.1383, 0.0504,  -1.9030, 0.2169,  0.1324, 0.9553,
                       -2.9518, -2.7607, 0.8947,  0.1658, -0.2181, -3.1237, -3.4099, 0.2342, 0.4549,
                       0.6316,  -1.2608, -1.9651, 0.4713, 0.0050,  0.1677,  -0.7897},
                1e-12));
    // a = torch.range(1, 5); a:indexAdd(1, torch.LongTensor{1, 1, 3, 3}, torch.range(1, 4))
    DoubleTensor a = seq({5});
    a.indexAdd(0, lvec({0, 0, 2, 2}), seq({4}));
    CHECK(values(a) == Values{4, 2, 10, 4, 5});
}

TEST_CASE("indexAdd: integer types, non-contiguous, errors") {
    SUBCASE("IntTensor, strided destination, duplicates accumulate") {
        IntTensor base = IntTensor(2, 6).zero();
        IntTensor x = base(all, slice(0, 6, 2)); // 2x3, stride 2 in columns
        x.indexAdd(1, lvec({2, 2, 0}), seq<int32_t>({2, 3}));
        CHECK(values(x) == Values{3, 0, 3, 6, 0, 9});
        CHECK(values(base) == Values{3, 0, 0, 0, 3, 0, 6, 0, 0, 0, 9, 0});
    }
    SUBCASE("errors leave the tensor unchanged") {
        DoubleTensor x = seq({3});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x.indexAdd(0, lvec({0, 0, 3}), seq({3})), IndexError,
                         "indexAdd: index 3 at position 2 out of range for dimension 0 of size 3");
        CHECK_THROWS_MSG(x.indexAdd(0, lvec({0}), seq({2})), ShapeError, "indexAdd: source");
        CHECK_THROWS_AS(x.indexAdd(0, vec<int16_t>({0}), seq({1})), TypeError);
        CHECK(s.unchanged());
    }
}

TEST_CASE("indexFill: Torch7's examples") {
    DoubleTensor x = mat({{0.8414, 0.4121, 0.3934, 0.5600, 0.5403},
                          {0.3029, 0.2040, 0.7893, 0.6079, 0.6334},
                          {0.3743, 0.1389, 0.1573, 0.1357, 0.8460},
                          {0.2838, 0.9925, 0.0076, 0.7220, 0.5185},
                          {0.8739, 0.6887, 0.4271, 0.0385, 0.9116}});
    // x:indexFill(2,torch.LongTensor{4,2},-10)
    x.indexFill(1, lvec({3, 1}), -10);
    CHECK(values(x) == Values{0.8414, -10, 0.3934, -10, 0.5403, 0.3029, -10, 0.7893, -10, 0.6334,
                              0.3743, -10, 0.1573, -10, 0.8460, 0.2838, -10, 0.0076, -10, 0.5185,
                              0.8739, -10, 0.4271, -10, 0.9116});
    // torch.zeros(3,3):indexFill(1,torch.LongTensor{2},7) (Torch7 prints the value 7;
    // here the call returns the tensor)
    DoubleTensor z = DoubleTensor(3, 3).zero();
    CHECK(values(z.indexFill(0, lvec({1}), 7)) == Values{0, 0, 0, 7, 7, 7, 0, 0, 0});
}

TEST_CASE("indexFill: non-contiguous and errors") {
    DoubleTensor base = DoubleTensor(3, 4).zero();
    DoubleTensor x = base.t(); // 4x3
    x.indexFill(0, lvec({3, 0, 3}), 2);
    CHECK(values(base) == Values{2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2});
    Snapshot<double> s(x);
    CHECK_THROWS_MSG(x.indexFill(1, lvec({1, 3}), 5), IndexError,
                     "indexFill: index 3 at position 1 out of range for dimension 1 of size 3");
    CHECK_THROWS_MSG(
        x.indexFill(0, ByteTensor(2).zero(), 5), TypeError,
        "indexFill: the index tensor must be a torch.LongTensor, got a torch.ByteTensor");
    CHECK_THROWS_AS(x.indexFill(0, LongTensor(), 5), ShapeError);
    CHECK(s.unchanged());
}

// =====================================================================================
// gather / scatter
// =====================================================================================

namespace {
DoubleTensor gather_x() {
    return mat({{0.7259, 0.5291, 0.4559, 0.4367, 0.4133},
                {0.0513, 0.4404, 0.4741, 0.0658, 0.0653},
                {0.3393, 0.1735, 0.6439, 0.1011, 0.7923},
                {0.7606, 0.5025, 0.5706, 0.7193, 0.1572},
                {0.1720, 0.3546, 0.8354, 0.8339, 0.3025}});
}
} // namespace

TEST_CASE("gather: Torch7's examples") {
    DoubleTensor x = gather_x();
    // y = x:gather(1, torch.LongTensor{{1, 2, 3, 4, 5}, {2, 3, 4, 5, 1}})
    DoubleTensor y = x.gather(0, lmat({{0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}}));
    CHECK(y.sizes() == Shape{2, 5});
    CHECK(values(y) ==
          Values{0.7259, 0.4404, 0.6439, 0.7193, 0.3025, 0.0513, 0.1735, 0.5706, 0.8339, 0.4133});
    // z = x:gather(2, torch.LongTensor{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}})
    DoubleTensor z = x.gather(1, lmat({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}));
    CHECK(z.sizes() == Shape{5, 2});
    CHECK(values(z) ==
          Values{0.7259, 0.5291, 0.4404, 0.4741, 0.6439, 0.1011, 0.7193, 0.1572, 0.3025, 0.1720});
    // torch.gather(x, 2, {{1,1},{2,2},{3,3},{4,4},{5,5}}) -- repeated index allowed
    DoubleTensor d = t7::gather(x, 1, lmat({{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}));
    CHECK(values(d) ==
          Values{0.7259, 0.7259, 0.4404, 0.4404, 0.6439, 0.6439, 0.7193, 0.7193, 0.3025, 0.3025});
    // r = torch.Tensor(1,5); r:gather(x, 1, torch.LongTensor{{5,4,3,2,1}})
    DoubleTensor r(1, 5);
    DoubleTensor& rr = r.gather(x, 0, lmat({{4, 3, 2, 1, 0}}));
    CHECK(&rr == &r);
    CHECK(values(r) == Values{0.1720, 0.5025, 0.6439, 0.0658, 0.4133});
    // r = torch.Tensor(); r:gather(...) fails in Torch7 ("Input tensor must have same
    // dimensions as output tensor"); here an empty result is allocated, as every
    // assignment into an empty tensor is.
    DoubleTensor e;
    e.gather(x, 0, lmat({{4, 3, 2, 1, 0}}));
    CHECK(values(e) == Values{0.1720, 0.5025, 0.6439, 0.0658, 0.4133});
    // torch.range(1,24):view(2,3,4):gather(3, torch.LongTensor(2,3,1):fill(2))
    DoubleTensor g = seq({2, 3, 4}).gather(2, LongTensor(2, 3, 1).fill(1));
    CHECK(g.sizes() == Shape{2, 3, 1});
    CHECK(values(g) == Values{2, 6, 10, 14, 18, 22});
}

TEST_CASE("gather: non-contiguous sources, indices and results; reference in 3-D") {
    SUBCASE("transposed source and index") {
        DoubleTensor x = seq({3, 4}).t(); // 4x3: rows are the columns of the 3x4
        DoubleTensor y = x.gather(1, lmat({{2, 0}, {1, 1}, {0, 2}, {2, 2}}));
        CHECK(values(y) == Values{9, 1, 6, 6, 3, 11, 12, 12});
        LongTensor it = lmat({{2, 1, 0, 2}, {0, 1, 2, 2}}).t(); // 4x2, non-contiguous
        CHECK(values(x.gather(1, it)) == Values{9, 1, 6, 6, 3, 11, 12, 12});
    }
    SUBCASE("expanded source and expanded index") {
        DoubleTensor x = vec({10, 20, 30}).view(1, 3).expand(4, 3);
        CHECK(values(x.gather(1, lvec({2, 0}).view(1, 2).expand(4, 2))) ==
              Values{30, 10, 30, 10, 30, 10, 30, 10});
        CHECK(values(x.gather(0, lmat({{3, 0, 1}}))) == Values{10, 20, 30});
    }
    SUBCASE("result into a strided view of the right size") {
        DoubleTensor big = DoubleTensor(2, 10).zero();
        DoubleTensor dst = big(all, slice(0, 10, 2)); // 2x5, column stride 2
        dst.gather(gather_x(), 0, lmat({{0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}}));
        CHECK(dst.stride(1) == 2);
        CHECK(values(big) == Values{0.7259, 0, 0.4404, 0, 0.6439, 0, 0.7193, 0, 0.3025, 0,
                                    0.0513, 0, 0.1735, 0, 0.5706, 0, 0.8339, 0, 0.4133, 0});
    }
    SUBCASE("aliasing: gather a tensor into itself") {
        DoubleTensor x = seq({2, 3});
        x.gather(x, 1, lmat({{2, 1, 0}, {0, 0, 0}}));
        CHECK(values(x) == Values{3, 2, 1, 4, 4, 4});
    }
    SUBCASE("3-D reference, every dimension, permuted source") {
        DoubleTensor x = random_tensor<double>({5, 4, 3}, -1, 1, 11).permute(1, 2, 0); // 4x3x5
        for (int64_t d = 0; d < 3; ++d) {
            Shape is = x.sizes();
            is[size_t(d)] = 6;
            LongTensor i = random_index(is, x.size(d), unsigned(20 + d));
            DoubleTensor y = x.gather(d, i);
            REQUIRE(y.sizes() == is);
            bool ok = true;
            for (auto c : coords(is)) {
                auto src = c;
                src[size_t(d)] = int64_t(at(i, c));
                ok = ok && at(y, c) == at(x, src);
            }
            CHECK(ok);
        }
    }
    SUBCASE("large, multi-threaded, against a hand loop") {
        setNumThreads(2);
        FloatTensor x = random_tensor<float>({256, 300}, -1, 1, 8);
        LongTensor i = random_index({256, 300}, 300, 9);
        FloatTensor y = x.gather(1, i);
        LongTensor j = random_index({256, 300}, 256, 10);
        FloatTensor z = x.gather(0, j);
        bool ok = true;
        for (int64_t a = 0; a < 256; ++a)
            for (int64_t b = 0; b < 300; ++b)
                ok = ok && y(a, b) == x(a, i(a, b)) && z(a, b) == x(j(a, b), b);
        CHECK(ok);
        j(200, 17) = -5;
        CHECK_THROWS_MSG(x.gather(0, j), IndexError,
                         "gather: index -5 at position (200, 17) out of range for dimension 0 of "
                         "size 256");
    }
}

TEST_CASE("gather: errors") {
    DoubleTensor x = gather_x();
    CHECK_THROWS_MSG(x.gather(0, lmat({{0, 1, 2, 5, 4}})), IndexError,
                     "gather: index 5 at position (0, 3) out of range for dimension 0 of size 5");
    CHECK_THROWS_MSG(x.gather(1, lmat({{0}, {0}, {-1}, {0}, {0}})), IndexError,
                     "gather: index -1 at position (2, 0) out of range for dimension 1 of size 5");
    CHECK_THROWS_MSG(x.gather(0, lvec({0, 1})), ShapeError,
                     "gather: the index tensor has 1 dimensions (size 2) but the source has 2");
    CHECK_THROWS_MSG(x.gather(0, lmat({{0, 1, 2, 3}})), ShapeError,
                     "gather: index of size 1x4 does not match the source of size 5x5 in "
                     "dimension 1 (only dimension 0 may differ)");
    CHECK_THROWS_MSG(x.gather(0, mat<int32_t>({{0, 1, 2, 3, 4}})), TypeError,
                     "gather: the index tensor must be a torch.LongTensor, got a torch.IntTensor");
    CHECK_THROWS_AS(x.gather(2, lmat({{0}})), IndexError);
    DoubleTensor r = seq({1, 5});
    Snapshot<double> s(r);
    CHECK_THROWS_MSG(r.gather(x, 0, lmat({{0, 1}, {1, 1}})), ShapeError,
                     "gather: index of size 2x2 does not match the source");
    CHECK_THROWS_MSG(r.gather(x, 0, lmat({{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}})), ShapeError,
                     "gather: result of size 1x5 does not match the index size 2x5");
    CHECK_THROWS_MSG(r.gather(x, 0, lmat({{0, 1, 2, 3, 9}})), IndexError,
                     "index 9 at position (0, 4)");
    CHECK(s.unchanged());
}

TEST_CASE("scatter: Torch7's examples") {
    DoubleTensor x =
        mat({{0.3227, 0.4294, 0.8476, 0.9414, 0.1159}, {0.7338, 0.5185, 0.2947, 0.0578, 0.1273}});
    // y = torch.zeros(3, 5):scatter(1, torch.LongTensor{{1, 2, 3, 1, 1}, {3, 1, 1, 2, 3}}, x)
    DoubleTensor y = DoubleTensor(3, 5).zero();
    DoubleTensor& yr = y.scatter(0, lmat({{0, 1, 2, 0, 0}, {2, 0, 0, 1, 2}}), x);
    CHECK(&yr == &y);
    CHECK(values(y) == Values{0.3227, 0.5185, 0.2947, 0.9414, 0.1159, 0, 0.4294, 0, 0.0578, 0,
                              0.7338, 0, 0.8476, 0, 0.1273});
    // z = torch.zeros(2, 4):scatter(2, torch.LongTensor{{3}, {4}}, 1.23)
    DoubleTensor z = DoubleTensor(2, 4).zero().scatter(1, lmat({{2}, {3}}), 1.23);
    CHECK(values(z) == Values{0, 0, 1.23, 0, 0, 0, 0, 1.23});
    // torch.zeros(2,3):scatter(2, torch.LongTensor{{1,2},{3,1}}, torch.range(1,4):view(2,2))
    DoubleTensor w = DoubleTensor(2, 3).zero().scatter(1, lmat({{0, 1}, {2, 0}}), seq({2, 2}));
    CHECK(values(w) == Values{1, 2, 0, 4, 0, 3});
}

TEST_CASE("scatter: duplicates, non-contiguous, gather inverse, errors") {
    SUBCASE("duplicate indices: the last write in index order wins") {
        DoubleTensor x = DoubleTensor(1, 3).zero();
        x.scatter(1, lmat({{1, 1, 1}}), mat({{5, 6, 7}}));
        CHECK(values(x) == Values{0, 7, 0});
    }
    SUBCASE("transposed destination and source") {
        DoubleTensor base = DoubleTensor(3, 2).zero();
        DoubleTensor x = base.t(); // 2x3
        x.scatter(1, lmat({{2, 0}, {1, 2}}), seq({2, 2}).t().t());
        CHECK(values(x) == Values{2, 0, 1, 0, 3, 4});
        CHECK(values(base) == Values{2, 0, 0, 3, 1, 4});
        DoubleTensor y = DoubleTensor(2, 3).zero();
        y.scatter(1, lmat({{2, 0}, {1, 2}}), seq({2, 2}).t()); // src {{1,3},{2,4}}
        CHECK(values(y) == Values{3, 0, 1, 0, 2, 4});
    }
    SUBCASE("scatter of a permutation undoes gather") {
        DoubleTensor x = random_tensor<double>({4, 6}, 0, 1, 31);
        LongTensor perm(4, 6);
        for (int64_t r = 0; r < 4; ++r)
            for (int64_t c = 0; c < 6; ++c) perm(r, c) = (c * 5 + r) % 6;
        DoubleTensor back = DoubleTensor(4, 6).zero();
        back.scatter(1, perm, x.gather(1, perm));
        CHECK(values(back) == values(x));
    }
    SUBCASE("a value into a strided destination") {
        IntTensor base = IntTensor(4, 4).zero();
        IntTensor x = base(slice(0, 4, 2), all); // rows 0 and 2
        x.scatter(0, lmat({{1, 0, 1, 0}}), 9);
        CHECK(values(base) == Values{0, 9, 0, 9, 0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0});
    }
    SUBCASE("errors leave the tensor unchanged") {
        DoubleTensor x = DoubleTensor(3, 5).zero();
        Snapshot<double> s(x);
        DoubleTensor src = seq({2, 5});
        CHECK_THROWS_MSG(x.scatter(0, lmat({{0, 1, 2, 0, 0}, {2, 0, 3, 1, 2}}), src), IndexError,
                         "scatter: index 3 at position (1, 2) out of range for dimension 0 of "
                         "size 3");
        CHECK_THROWS_MSG(x.scatter(0, lmat({{0, 1, 2, 0, 0}}), src), ShapeError,
                         "scatter: source of size 2x5 does not match the index size 1x5");
        CHECK_THROWS_MSG(x.scatter(0, lmat({{0, 1, 2, 0}}), seq({1, 4})), ShapeError,
                         "scatter: index of size 1x4 does not match the destination of size 3x5");
        CHECK_THROWS_MSG(x.scatter(0, lvec({0}), 1.0), ShapeError,
                         "scatter: the index tensor has 1 dimensions");
        CHECK_THROWS_MSG(
            x.scatter(1, lmat({{5}, {0}, {0}}), 1.0), IndexError,
            "scatter: index 5 at position (0, 0) out of range for dimension 1 of size 5");
        CHECK_THROWS_AS(x.scatter(0, mat<float>({{0, 0, 0, 0, 0}}), 1.0), TypeError);
        CHECK(s.unchanged());
    }
}

// =====================================================================================
// maskedSelect / maskedCopy / maskedFill / x[mask]
// =====================================================================================

TEST_CASE("maskedSelect: Torch7's examples") {
    // x = torch.range(1,12):double():resize(3,4)
    DoubleTensor x = seq({3, 4});
    // mask = torch.ByteTensor({{1,0,1,0,0,0},{1,1,0,0,0,1}}): another shape, same count
    ByteTensor mask = bmat({{1, 0, 1, 0, 0, 0}, {1, 1, 0, 0, 0, 1}});
    DoubleTensor y = x.maskedSelect(mask);
    CHECK(y.sizes() == Shape{5});
    CHECK(values(y) == Values{1, 3, 7, 8, 12});
    // z = torch.DoubleTensor(); z:maskedSelect(x, mask)
    DoubleTensor z;
    DoubleTensor& zr = z.maskedSelect(x, mask);
    CHECK(&zr == &z);
    CHECK(values(z) == Values{1, 3, 7, 8, 12});
    // x:maskedSelect(torch.ByteTensor(3,4):zero()): Torch7 gave the empty tensor,
    // tensor7 gives NumPy's 1-D selection of size 0
    DoubleTensor none = x.maskedSelect(ByteTensor(3, 4).zero());
    CHECK(none.sizes() == Shape{0});
    CHECK(none.nElement() == 0);
    // x:maskedSelect(x:gt(6))
    CHECK(values(x.maskedSelect(x > 6)) == Values{7, 8, 9, 10, 11, 12});
    CHECK(values(x.maskedSelect(gt(x, 6))) == Values{7, 8, 9, 10, 11, 12});
    CHECK(values(t7::maskedSelect(x, x > 10)) == Values{11, 12});
}

TEST_CASE("x[mask] reads: Torch7's indexing examples") {
    // x = torch.Tensor(3,3) holding 1..9
    DoubleTensor x = seq({3, 3});
    // x[torch.le(x,3)]
    DoubleTensor a = x[le(x, 3)];
    CHECK(a.sizes() == Shape{3});
    CHECK(values(a) == Values{1, 2, 3});
    // x[torch.gt(x,4)]
    CHECK(values(DoubleTensor(x[x > 4])) == Values{5, 6, 7, 8, 9});
    // x[torch.ByteTensor({{1,0,1},{0,0,0},{0,1,0}})]
    CHECK(values(x[bmat({{1, 0, 1}, {0, 0, 0}, {0, 1, 0}})].eval()) == Values{1, 3, 8});
    // printing a selection prints the selected tensor
    std::ostringstream os;
    os << x[x > 7];
    CHECK(os.str() == " 8\n 9\n[torch.DoubleTensor of size 2]\n");
    // x[i] with an integer still selects a row
    CHECK(values(x[1]) == Values{4, 5, 6});
    CHECK(values(x[-1]) == Values{7, 8, 9});
}

TEST_CASE("x[mask] = v and x[mask] = t: Torch7's indexing examples") {
    // x = torch.Tensor(5, 6):zero() and the assignments of the documentation
    DoubleTensor x = DoubleTensor(5, 6).zero();
    x(0, 2) = 1;           // x[{ 1,3 }] = 1
    x(1, slice(1, 4)) = 2; // x[{ 2,{2,4} }] = 2
    x(all, 3) = -1;        // x[{ {},4 }] = -1
    x(all, 1) = seq({5});  // x[{ {},2 }] = torch.range(1,5)
    x[x < 0] = -2;         // x[torch.lt(x,0)] = -2
    CHECK(values(x) == Values{0,  1, 1, -2, 0, 0, 0,  2, 2, -2, 0, 0, 0,  3, 0,
                              -2, 0, 0, 0,  4, 0, -2, 0, 0, 0,  5, 0, -2, 0, 0});
    x[1] = 7;            // x[2] = 7
    x[2] = seq({6}, 11); // x[3] = torch.range(11,16)
    x(-1, -1) = 99;      // x[{-1,-1}] = 99
    // x[torch.eq(x,0)] = torch.range(101,111): 11 values for the 10 zeros, Torch7
    // taking the first 10. x[mask] = values now needs exactly as many values
    // (NumPy's contract, third round); maskedCopy keeps Torch7's rule.
    CHECK_THROWS_MSG(x[eq(x, 0)] = seq({11}, 101), ShapeError,
                     "the mask selects 10 elements but the values have 11");
    x.maskedCopy(eq(x, 0), seq({11}, 101));
    CHECK(values(x) == Values{101, 1,  1,  -2,  102, 103, 7,  7,   7,   7,   7, 7,   11, 12,  13,
                              14,  15, 16, 104, 4,   105, -2, 106, 107, 108, 5, 109, -2, 110, 99});
}

TEST_CASE("x[mask]: more assignments") {
    SUBCASE("x[x < 0] = 0 with x itself in the mask, one pass") {
        FloatTensor x = mat<float>({{-1, 2}, {3, -4}});
        x[x < 0] = 0;
        CHECK(values(x) == Values{0, 2, 3, 0});
    }
    SUBCASE("a ByteTensor mask of another shape") {
        DoubleTensor x = seq({2, 2});
        x[bmat({{1, 0, 0, 1}})] = 0;
        CHECK(values(x) == Values{0, 2, 3, 0});
    }
    SUBCASE("from an expression and from another type") {
        DoubleTensor x = seq({4});
        x[x > 2] = seq({2}) * 10;
        CHECK(values(x) == Values{1, 2, 10, 20});
        x[x < 3] = vec<int32_t>({-1, -2});
        CHECK(values(x) == Values{-1, -2, 10, 20});
    }
    SUBCASE("from another selection") {
        DoubleTensor x = seq({4}), y = seq({4}, 10);
        x[x > 2] = y[y < 12];
        CHECK(values(x) == Values{1, 2, 10, 11});
    }
    SUBCASE("compound updates touch only the selected elements") {
        DoubleTensor x = vec({-3, 4, -5, 6});
        x[x < 0] *= -1;
        CHECK(values(x) == Values{3, 4, 5, 6});
        x[x > 4] += 0.5;
        CHECK(values(x) == Values{3, 4, 5.5, 6.5});
        x[x > 100] -= 1; // nothing selected
        CHECK(values(x) == Values{3, 4, 5.5, 6.5});
        IntTensor i = vec<int32_t>({7, 8});
        i[i > 7] /= 2;
        CHECK(values(i) == Values{7, 4});
    }
    SUBCASE("through a view: writes land in the base tensor") {
        DoubleTensor base = seq({3, 4});
        DoubleTensor v = base.t(); // 4x3
        v[v > 9] = 0;
        CHECK(values(base) == Values{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0});
    }
    SUBCASE("a mask reading the tensor transposed is evaluated before writing") {
        DoubleTensor x = seq({3, 3});
        DoubleTensor ref = seq({3, 3});
        ByteTensor m = t7::eval(ref.t() > 4); // evaluated first
        ref.maskedFill(m, 0);
        x.maskedFill(x.t() > 4, 0);
        CHECK(values(x) == values(ref));
        CHECK(values(x) == Values{1, 2, 0, 4, 0, 0, 7, 0, 0});
    }
}

TEST_CASE("maskedCopy: Torch7's examples") {
    // x = torch.Tensor({0, 0, 0, 0}); mask = {0, 1, 0, 1}; x:maskedCopy(mask, {10, 20})
    DoubleTensor x = vec({0, 0, 0, 0});
    DoubleTensor& xr = x.maskedCopy(vec<uint8_t>({0, 1, 0, 1}), vec({10, 20}));
    CHECK(&xr == &x);
    CHECK(values(x) == Values{0, 10, 0, 20});
    // x = torch.range(1,4):resize(2,2); mask 1x8; y = 2x4 of -1; y:maskedCopy(mask, x)
    DoubleTensor src = seq({2, 2});
    ByteTensor mask = bmat({{0, 0, 1, 1, 1, 0, 1, 0}});
    DoubleTensor y = DoubleTensor(2, 4).fill(-1);
    y.maskedCopy(mask, src);
    CHECK(values(y) == Values{-1, -1, 1, 2, 3, -1, 4, -1});
}

TEST_CASE("maskedCopy: longer sources, non-contiguous, errors") {
    SUBCASE("a source with more elements than selected: the first ones are used") {
        DoubleTensor x = DoubleTensor(3).zero();
        x.maskedCopy(vec<uint8_t>({1, 0, 1}), seq({10}));
        CHECK(values(x) == Values{1, 0, 2});
    }
    SUBCASE("transposed destination, transposed source, expression mask") {
        DoubleTensor base = seq({2, 3});
        DoubleTensor x = base.t();            // 3x2: 1 4 / 2 5 / 3 6
        x.maskedCopy(x > 2, seq({2, 2}).t()); // source layout order: 1 3 2 4
        CHECK(values(x) == Values{1, 1, 2, 3, 2, 4});
        CHECK(values(base) == Values{1, 2, 2, 1, 3, 4});
    }
    SUBCASE("the source is the destination") {
        DoubleTensor x = seq({4});
        x.maskedCopy(vec<uint8_t>({0, 1, 1, 1}), x);
        CHECK(values(x) == Values{1, 1, 2, 3});
    }
    SUBCASE("errors leave the tensor unchanged") {
        DoubleTensor x = seq({2, 2});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x.maskedCopy(bmat({{1, 1}, {1, 0}}), seq({2})), ShapeError,
                         "maskedCopy: the mask selects 3 elements but the source has only 2");
        CHECK_THROWS_MSG(x.maskedCopy(bmat({{1, 1, 1}}), seq({3})), ShapeError,
                         "maskedCopy: the mask has 3 elements (size 1x3) but the tensor has 4 "
                         "(size 2x2)");
        CHECK_THROWS_MSG(x.maskedCopy(mat<float>({{1, 1}, {1, 1}}), seq({4})), TypeError,
                         "maskedCopy: the mask must be a torch.ByteTensor");
        CHECK(s.unchanged());
    }
}

TEST_CASE("maskedFill: Torch7's examples") {
    // x = torch.range(1,4):resize(1,4); mask = {{0,0},{1,1}}; x:maskedFill(mask, -1)
    DoubleTensor x = seq({1, 4});
    x.maskedFill(bmat({{0, 0}, {1, 1}}), -1);
    CHECK(values(x) == Values{1, 2, -1, -1});
    // x = torch.range(1,6):view(2,3); x:maskedFill(x:ge(3), 0)
    DoubleTensor y = seq({6}).view(2, 3);
    y.maskedFill(ge(y, 3), 0);
    CHECK(values(y) == Values{1, 2, 0, 0, 0, 0});
}

TEST_CASE("maskedFill: non-contiguous masks and tensors, expanded tensors, errors") {
    SUBCASE("transposed mask on a contiguous tensor") {
        DoubleTensor x = seq({2, 3});
        ByteTensor m = bmat({{1, 0}, {0, 1}, {1, 0}}).t(); // 2x3: 1 0 1 / 0 1 0
        x.maskedFill(m, 0);
        CHECK(values(x) == Values{0, 2, 0, 4, 0, 6});
    }
    SUBCASE("narrowed tensor, stepped mask of another shape") {
        DoubleTensor base = seq({4, 4});
        DoubleTensor x = base.narrow(0, 1, 2); // rows 1, 2
        ByteTensor big = vec<uint8_t>({1, 9, 0, 9, 0, 9, 1, 9, 1, 9, 1, 9, 0, 9, 0, 9});
        x.maskedFill(big(slice(0, 16, 2)), -1); // 1 0 0 1 1 1 0 0
        CHECK(values(base) == Values{1, 2, 3, 4, -1, 6, 7, -1, -1, -1, 11, 12, 13, 14, 15, 16});
    }
    SUBCASE("an expanded tensor (repeated elements) is filled where any copy is selected") {
        DoubleTensor src = vec({1, 2, 3});
        DoubleTensor e = src.view(1, 3).expand(2, 3);
        e.maskedFill(bmat({{0, 0, 0}, {0, 1, 0}}), 7);
        CHECK(values(src) == Values{1, 7, 3});
    }
    SUBCASE("ByteTensor filled through its own mask") {
        ByteTensor b = vec<uint8_t>({0, 3, 0, 5});
        b.maskedFill(b, 1);
        CHECK(values(b) == Values{0, 1, 0, 1});
    }
    SUBCASE("large and multi-threaded against a reference") {
        setNumThreads(2);
        FloatTensor x = random_tensor<float>({300, 310}, -1, 1, 41);
        Values v = values(x);
        FloatTensor y = x.t().clone().t(); // same values, column-major layout
        x.maskedFill(x > 0.25f, 2);
        y[y > 0.25f] = 2;
        for (auto& a : v)
            if (a > 0.25) a = 2;
        CHECK(values(x) == v);
        CHECK(values(y) == v);
    }
    SUBCASE("errors") {
        DoubleTensor x = seq({2, 3});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x.maskedFill(ByteTensor(7).zero(), 0), ShapeError,
                         "maskedFill: the mask has 7 elements (size 7) but the tensor has 6 "
                         "(size 2x3)");
        CHECK_THROWS_MSG(x.maskedFill(ByteTensor(), 0), ShapeError, "maskedFill: the mask has 0");
        CHECK_THROWS_MSG(x.maskedFill(IntTensor(2, 3).zero(), 0), TypeError,
                         "maskedFill: the mask must be a torch.ByteTensor (or a comparison such "
                         "as x < 0), got torch.IntTensor");
        CHECK_THROWS_MSG(x.maskedFill(x + 1, 0), TypeError, "got torch.DoubleTensor");
        CHECK_THROWS_MSG(x[ByteTensor(5).zero()] = 1, ShapeError, "maskedFill");
        CHECK_THROWS_MSG(x[ByteTensor(6).fill(1)] = seq({5}), ShapeError,
                         "x[mask] = values: the mask selects 6 elements but the values have 5");
        CHECK(s.unchanged());
    }
}

TEST_CASE("maskedSelect: non-contiguous, large and parallel, result forms, errors") {
    SUBCASE("transposed tensor: layout order of the view") {
        DoubleTensor x = seq({2, 3}).t(); // 1 4 / 2 5 / 3 6
        CHECK(values(x.maskedSelect(x > 2)) == Values{4, 5, 3, 6});
        CHECK(values(x.maskedSelect(bmat({{1, 1, 0, 0, 0, 1}}))) == Values{1, 4, 6});
    }
    SUBCASE("expanded tensor and expanded mask") {
        DoubleTensor e = vec({1, 2}).view(1, 2).expand(3, 2);
        ByteTensor m = vec<uint8_t>({1, 0, 1}).view(3, 1).expand(3, 2);
        CHECK(values(e.maskedSelect(m)) == Values{1, 2, 1, 2});
    }
    SUBCASE("a mask broadcasting inside its expression") {
        DoubleTensor x = seq({2, 3});
        DoubleTensor row = vec({2, 0, 7}).view(1, 3);
        CHECK(values(x.maskedSelect(x > row)) == Values{2, 4, 5});
    }
    SUBCASE("result into a strided view of the right size") {
        DoubleTensor base = DoubleTensor(6).zero();
        DoubleTensor dst = base(slice(0, 6, 2)); // 3 elements, stride 2
        DoubleTensor x = seq({5});
        dst.maskedSelect(x, x > 2);
        CHECK(dst.stride(0) == 2);
        CHECK(values(base) == Values{3, 0, 4, 0, 5, 0});
    }
    SUBCASE("result aliasing the source") {
        DoubleTensor x = seq({6});
        x.maskedSelect(x, x > 3);
        CHECK(values(x) == Values{4, 5, 6});
        DoubleTensor y = seq({2, 2});
        y.maskedSelect(y, y < 0);
        CHECK(y.sizes() == Shape{0});
    }
    SUBCASE("large and multi-threaded against a reference") {
        for (int threads : {1, 2}) {
            setNumThreads(threads);
            FloatTensor x = random_tensor<float>({500, 300}, -1, 1, 51);
            ByteTensor m = random_tensor<uint8_t>({500, 300}, 0, 2, 52);
            Values want;
            Values xv = values(x), mv = values(m);
            for (size_t i = 0; i < xv.size(); ++i)
                if (mv[i] != 0) want.push_back(xv[i]);
            CHECK(values(x.maskedSelect(m)) == want);
            FloatTensor xt = x.t().clone().t(); // column-major copy, same layout order
            CHECK(values(xt.maskedSelect(m)) == want);
            CHECK(values(xt.maskedSelect(m.t().clone().t())) == want);
            Values pos;
            for (double a : xv)
                if (a > 0.5) pos.push_back(a);
            CHECK(values(FloatTensor(xt[xt > 0.5f])) == pos);
            // dense and sparse masks: every element, the last one only, a first half
            ByteTensor ones = ByteTensor(500, 300).fill(1);
            CHECK(values(x.maskedSelect(ones)) == xv);
            ByteTensor last = ByteTensor(500, 300).zero();
            last(499, 299) = 1;
            CHECK(values(x.maskedSelect(last)) == Values{xv.back()});
            ByteTensor half = ByteTensor(500, 300).zero();
            half.narrow(0, 0, 250).fill(1);
            CHECK(values(x.maskedSelect(half)) == Values(xv.begin(), xv.begin() + 250 * 300));
        }
    }
    SUBCASE("errors") {
        DoubleTensor x = seq({3, 4});
        CHECK_THROWS_MSG(x.maskedSelect(ByteTensor(11).fill(1)), ShapeError,
                         "maskedSelect: the mask has 11 elements (size 11) but the tensor has 12 "
                         "(size 3x4)");
        CHECK_THROWS_MSG(x.maskedSelect(seq({3, 4})), TypeError,
                         "maskedSelect: the mask must be a torch.ByteTensor");
        CHECK_THROWS_MSG(x.maskedSelect(x > seq({2, 4})), ShapeError, "cannot be broadcast");
        CHECK_THROWS_MSG(x[CharTensor(3, 4).zero()].eval(), TypeError, "got torch.CharTensor");
        DoubleTensor r = seq({2});
        Snapshot<double> s(r);
        CHECK_THROWS_AS(r.maskedSelect(x, ByteTensor(2).zero()), ShapeError);
        CHECK(s.unchanged());
        // an empty tensor with an empty mask selects nothing
        CHECK(DoubleTensor().maskedSelect(ByteTensor()).sizes() == Shape{0});
    }
}

// =====================================================================================
// nonzero
// =====================================================================================

TEST_CASE("nonzero: Torch7's examples, 0-based") {
    IntTensor x = mat<int32_t>({{2, 0, 2, 0}, {0, 0, 1, 2}, {0, 2, 2, 1}, {2, 1, 2, 2}});
    // Torch7's 1-based rows (1,1) (1,3) (2,3) (2,4) (3,2) (3,3) (3,4) (4,1) (4,2) (4,3) (4,4)
    const Values expect{0, 0, 0, 2, 1, 2, 1, 3, 2, 1, 2, 2, 2, 3, 3, 0, 3, 1, 3, 2, 3, 3};
    LongTensor a = t7::nonzero(x);
    CHECK(a.sizes() == Shape{11, 2});
    CHECK(values(a) == expect);
    CHECK(values(x.nonzero()) == expect);
    // indices = torch.LongTensor(); x.nonzero(indices, x)
    LongTensor indices;
    LongTensor& ir = t7::nonzero(indices, x);
    CHECK(&ir == &indices);
    CHECK(values(indices) == expect);
    // x:eq(1):nonzero()
    CHECK(values(t7::nonzero(eq(x, 1))) == Values{1, 2, 2, 3, 3, 1});
    CHECK(t7::nonzero(x == 1).sizes() == Shape{3, 2});
    // torch.Tensor({0, 1.5, 0, -2}):nonzero()
    LongTensor v = vec({0, 1.5, 0, -2}).nonzero();
    CHECK(v.sizes() == Shape{2, 1});
    CHECK(values(v) == Values{1, 3});
    // torch.zeros(3):nonzero(): Torch7 gave the empty tensor; 0 x 1 (NumPy's argwhere)
    CHECK(DoubleTensor(3).zero().nonzero().sizes() == Shape{0, 1});
    // torch.Tensor({{{0,1},{1,0}},{{0,0},{1,1}}}):nonzero()
    DoubleTensor t(2, 2, 2);
    fill_values(t, {0, 1, 1, 0, 0, 0, 1, 1});
    LongTensor n = t.nonzero();
    CHECK(n.sizes() == Shape{4, 3});
    CHECK(values(n) == Values{0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1});
}

TEST_CASE("nonzero: non-contiguous inputs, strided results, NaN, large") {
    SUBCASE("transposed: coordinates of the view, in its layout order") {
        DoubleTensor x = mat({{0, 1, 0}, {2, 0, 3}}).t(); // 3x2: 0 2 / 1 0 / 0 3
        CHECK(values(x.nonzero()) == Values{0, 1, 1, 0, 2, 1});
    }
    SUBCASE("expanded") {
        DoubleTensor e = vec({0, 5}).view(1, 2).expand(2, 2);
        CHECK(values(e.nonzero()) == Values{0, 1, 1, 1});
    }
    SUBCASE("NaN is non-zero, -0 is zero") {
        double nan = std::numeric_limits<double>::quiet_NaN();
        CHECK(values(vec({-0.0, nan, 0}).nonzero()) == Values{1});
    }
    SUBCASE("into a strided result of the right size") {
        LongTensor base = LongTensor(2, 3).fill(-1);
        LongTensor r = base.t(); // 3x2 view, strides 1x3
        t7::nonzero(r, mat({{1, 0}, {1, 1}}));
        CHECK(r.strides() == Shape{1, 3});
        CHECK(values(r) == Values{0, 0, 1, 0, 1, 1});
        CHECK(values(base) == Values{0, 1, 1, 0, 0, 1});
    }
    SUBCASE("large, against a reference") {
        setNumThreads(2);
        ByteTensor m = random_tensor<uint8_t>({200, 300}, 0, 2, 61);
        LongTensor n = m.nonzero();
        Values want;
        for (int64_t i = 0; i < 200; ++i)
            for (int64_t j = 0; j < 300; ++j)
                if (m(i, j)) {
                    want.push_back(double(i));
                    want.push_back(double(j));
                }
        CHECK(values(n) == want);
    }
}

// =====================================================================================
// repeatTensor
// =====================================================================================

TEST_CASE("repeatTensor: Torch7's examples") {
    // x = torch.Tensor({0.7160, 0.6514, 0.0704, 0.7856, 0.7452})
    DoubleTensor x = vec({0.7160, 0.6514, 0.0704, 0.7856, 0.7452});
    Values xv = values(x);
    // torch.repeatTensor(x,3,2)
    DoubleTensor a = t7::repeatTensor(x, 3, 2);
    CHECK(a.sizes() == Shape{3, 10});
    Values row = xv;
    row.insert(row.end(), xv.begin(), xv.end());
    Values want;
    for (int i = 0; i < 3; ++i) want.insert(want.end(), row.begin(), row.end());
    CHECK(values(a) == want);
    // torch.repeatTensor(x,3,2,1)
    DoubleTensor b = t7::repeatTensor(x, 3, 2, 1);
    CHECK(b.sizes() == Shape{3, 2, 5});
    Values want3;
    for (int i = 0; i < 6; ++i) want3.insert(want3.end(), xv.begin(), xv.end());
    CHECK(values(b) == want3);
    // torch.range(1,4):view(2,2):repeatTensor(2,3)
    DoubleTensor c = seq({4}).view(2, 2).repeatTensor(2, 3);
    CHECK(c.sizes() == Shape{4, 6});
    CHECK(values(c) ==
          Values{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
    // torch.range(1,4):view(2,2):repeatTensor(torch.LongStorage{1,2})
    DoubleTensor d = seq({4}).view(2, 2).repeatTensor(Shape{1, 2});
    CHECK(d.sizes() == Shape{2, 4});
    CHECK(values(d) == Values{1, 2, 1, 2, 3, 4, 3, 4});
    // torch.range(1,2):repeatTensor(3)
    DoubleTensor e = seq({2}).repeatTensor(3);
    CHECK(e.sizes() == Shape{6});
    CHECK(values(e) == Values{1, 2, 1, 2, 1, 2});
}

TEST_CASE("repeatTensor: non-contiguous sources, results, errors") {
    SUBCASE("transposed source") {
        DoubleTensor t = seq({2, 3}).t(); // 1 4 / 2 5 / 3 6
        CHECK(values(t.repeatTensor(1, 2)) == Values{1, 4, 1, 4, 2, 5, 2, 5, 3, 6, 3, 6});
    }
    SUBCASE("expanded and stepped sources") {
        DoubleTensor e = vec({7}).expand(2);
        CHECK(values(e.repeatTensor(2, 1)) == Values{7, 7, 7, 7});
        DoubleTensor s = seq({6})(slice(0, 6, 3)); // 1, 4
        CHECK(values(s.repeatTensor(2)) == Values{1, 4, 1, 4});
    }
    SUBCASE("into an existing result of the right size, transposed") {
        DoubleTensor base = DoubleTensor(4, 2).zero();
        DoubleTensor r = base.t(); // 2x4
        r.repeatTensor(seq({2}), Shape{2, 2});
        CHECK(values(r) == Values{1, 2, 1, 2, 1, 2, 1, 2});
        CHECK(values(base) == Values{1, 1, 2, 2, 1, 1, 2, 2});
    }
    SUBCASE("into itself") {
        DoubleTensor x = seq({2});
        x.repeatTensor(x, Shape{2});
        CHECK(values(x) == Values{1, 2, 1, 2});
    }
    SUBCASE("errors") {
        CHECK_THROWS_MSG(seq({2, 2}).repeatTensor(3), ShapeError,
                         "repeatTensor: 1 repetition counts (3) for a 2-D tensor of size 2x2");
        CHECK_THROWS_MSG(seq({2}).repeatTensor(2, -1), ShapeError,
                         "repeatTensor: repetition count -1 at position 1 must not be negative");
        CHECK(seq({2}).repeatTensor(2, 0).sizes() == Shape{2, 0}); // NumPy's tile
        CHECK_THROWS_AS(DoubleTensor().repeatTensor(2), ShapeError);
        DoubleTensor r = seq({3});
        Snapshot<double> s(r);
        CHECK_THROWS_AS(r.repeatTensor(seq({2, 2}), Shape{2}), ShapeError);
        CHECK(s.unchanged());
    }
}

// =====================================================================================
// cat
// =====================================================================================

TEST_CASE("cat: Torch7's documented examples, 0-based dimensions") {
    // torch.cat(torch.ones(3), torch.zeros(2))
    DoubleTensor a = t7::cat(DoubleTensor(3).fill(1), DoubleTensor(2).zero());
    CHECK(a.sizes() == Shape{5});
    CHECK(values(a) == Values{1, 1, 1, 0, 0});
    // torch.cat(torch.ones(3, 2), torch.zeros(2, 2), 1)
    DoubleTensor b = t7::cat(DoubleTensor(3, 2).fill(1), DoubleTensor(2, 2).zero(), 0);
    CHECK(b.sizes() == Shape{5, 2});
    CHECK(values(b) == Values{1, 1, 1, 1, 1, 1, 0, 0, 0, 0});
    // torch.cat(torch.ones(2, 2), torch.zeros(2, 2), 2)
    DoubleTensor c = t7::cat({DoubleTensor(2, 2).fill(1), DoubleTensor(2, 2).zero()}, 1);
    CHECK(c.sizes() == Shape{2, 4});
    CHECK(values(c) == Values{1, 1, 0, 0, 1, 1, 0, 0});
    // torch.cat(torch.cat(torch.ones(2, 2), torch.zeros(2, 2), 1), torch.range(1,6):view(3,2), 1)
    DoubleTensor d =
        t7::cat(t7::cat(DoubleTensor(2, 2).fill(1), DoubleTensor(2, 2).zero(), 0), seq({3, 2}), 0);
    CHECK(d.sizes() == Shape{7, 2});
    CHECK(values(d) == Values{1, 1, 1, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6});
    // torch.cat({torch.ones(2), torch.zeros(1), torch.range(1,2)}) -- a table of tensors
    std::vector<DoubleTensor> list{DoubleTensor(2).fill(1), DoubleTensor(1).zero(), seq({2})};
    CHECK(values(t7::cat(list)) == Values{1, 1, 0, 1, 2});
}

TEST_CASE("cat: many and non-contiguous inputs, result forms, aliasing, errors") {
    SUBCASE("transposed, narrowed, expanded inputs") {
        DoubleTensor t = seq({3, 2}).t();                  // 2x3: 1 3 5 / 2 4 6
        DoubleTensor n = seq({2, 5}).narrow(1, 1, 2);      // 2x2: 2 3 / 7 8
        DoubleTensor e = vec({9}).view(1, 1).expand(2, 1); // 2x1: 9 / 9
        DoubleTensor r = t7::cat({t, n, e, t}, 1);
        CHECK(r.sizes() == Shape{2, 9});
        CHECK(values(r) == Values{1, 3, 5, 2, 3, 9, 1, 3, 5, 2, 4, 6, 7, 8, 9, 2, 4, 6});
        CHECK(r.isContiguous());
    }
    SUBCASE("3-D, the middle dimension, negative dim") {
        DoubleTensor a = seq({2, 1, 2}), b = seq({2, 2, 2}, 10);
        DoubleTensor r = t7::cat({a, b}, -2);
        CHECK(r.sizes() == Shape{2, 3, 2});
        CHECK(values(r) == Values{1, 2, 10, 11, 12, 13, 3, 4, 14, 15, 16, 17});
    }
    SUBCASE("empty inputs are skipped; nothing to join gives an empty tensor") {
        CHECK(values(t7::cat({DoubleTensor(), seq({2}), DoubleTensor()}, 0)) == Values{1, 2});
        CHECK(t7::cat({DoubleTensor(), DoubleTensor()}, 0).dim() == 0);
    }
    SUBCASE("into an existing strided result") {
        DoubleTensor base = DoubleTensor(3, 2).zero();
        DoubleTensor r = base.t(); // 2x3
        DoubleTensor& rr = t7::cat(r, {seq({2, 1}), seq({2, 2}, 5)}, 1);
        CHECK(&rr == &r);
        CHECK(r.strides() == Shape{1, 2});
        CHECK(values(r) == Values{1, 5, 6, 2, 7, 8});
        CHECK(values(base) == Values{1, 2, 5, 7, 6, 8});
    }
    SUBCASE("the result is one of the inputs") {
        DoubleTensor x = seq({2});
        t7::cat(x, {x, seq({1}, 9), x}, 0);
        CHECK(values(x) == Values{1, 2, 9, 1, 2});
    }
    SUBCASE("integer types and many inputs") {
        std::vector<IntTensor> parts;
        for (int i = 0; i < 20; ++i) parts.push_back(IntTensor(1, 2).fill(i));
        IntTensor r = t7::cat(parts, 0);
        CHECK(r.sizes() == Shape{20, 2});
        CHECK(r(19, 1) == 19);
        CHECK(r(7, 0) == 7);
    }
    SUBCASE("errors") {
        CHECK_THROWS_MSG(t7::cat({seq({2, 3}), seq({2, 4}), seq({3, 3})}, 0), ShapeError,
                         "cat: input 1 has size 2x4 but input 0 has size 2x3: sizes must match "
                         "except in dimension 0");
        CHECK_THROWS_MSG(t7::cat({seq({2, 3}), seq({6})}, 0), ShapeError,
                         "cat: input 1 has size 6 but input 0 has size 2x3");
        CHECK_THROWS_MSG(t7::cat({seq({2, 3}), seq({2, 3})}, 2), IndexError,
                         "cat: dimension 2 out of range");
        DoubleTensor r = seq({4});
        Snapshot<double> s(r);
        CHECK_THROWS_AS(t7::cat(r, {seq({2, 3}), seq({3, 2})}, 0), ShapeError);
        CHECK(s.unchanged());
    }
}

// =====================================================================================
// sort / topk / kthvalue / median / mode
// =====================================================================================

TEST_CASE("sort: stable, both directions, along either dimension") {
    DoubleTensor x = mat({{3, 1, 2}, {1, 1, 0}});
    auto [v, i] = x.sort(1);
    CHECK(values(v) == Values{1, 2, 3, 0, 1, 1});
    CHECK(values(i) == Values{1, 2, 0, 2, 0, 1}); // the two 1s keep their order
    auto d = x.sort(1, true);
    CHECK(values(d.values) == Values{3, 2, 1, 1, 1, 0});
    CHECK(values(d.indices) == Values{0, 2, 1, 0, 1, 2}); // stable when descending too
    auto c = t7::sort(x, 0);
    CHECK(values(c.values) == Values{1, 1, 0, 3, 1, 2});
    CHECK(values(c.indices) == Values{1, 0, 1, 0, 1, 0});
    // default: the last dimension, ascending
    auto l = x.sort();
    CHECK(values(l.values) == Values{1, 2, 3, 0, 1, 1});
    CHECK(l.indices.type() == "torch.LongTensor");
    // Torch7's example shape: torch.sort(x) of a 1-D tensor
    auto s1 = vec({5, 2, 8, 2, 1}).sort();
    CHECK(values(s1.values) == Values{1, 2, 2, 5, 8});
    CHECK(values(s1.indices) == Values{4, 1, 3, 0, 2});
}

TEST_CASE("sort: NaN last (first when descending), -0 equals +0, integer types") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    auto r = vec({2, nan, -inf, 0.0, -0.0, inf, -1}).sort();
    Values v = values(r.values);
    CHECK(values(r.indices) == Values{2, 6, 3, 4, 0, 5, 1});
    CHECK(std::isnan(v[6]));
    CHECK(!std::signbit(v[2])); // 0.0 (position 3), then -0.0 (position 4): equal, stable
    CHECK(std::signbit(v[3]));
    auto d = vec({2, nan, -inf, 0.0}).sort(0, true);
    CHECK(values(d.indices) == Values{1, 0, 3, 2});
    auto b = vec<uint8_t>({200, 3, 255, 3, 0}).sort(0, true);
    CHECK(values(b.values) == Values{255, 200, 3, 3, 0});
    CHECK(values(b.indices) == Values{2, 0, 1, 3, 4});
    auto c = vec<int8_t>({-128, 127, -1, 0}).sort();
    CHECK(values(c.values) == Values{-128, -1, 0, 127});
    auto l = vec<int64_t>({int64_t(1) << 40, -(int64_t(1) << 50), 5}).sort();
    CHECK(values(l.indices) == Values{1, 2, 0});
}

namespace {
// std::stable_sort reference for one 1-D tensor: (values, indices).
template <class T>
std::pair<Values, Values> reference_sort(const Tensor<T>& x, bool desc) {
    Values v = values(x);
    std::vector<int64_t> p(v.size());
    std::iota(p.begin(), p.end(), 0);
    std::stable_sort(p.begin(), p.end(), [&](int64_t a, int64_t b) {
        return desc ? v[size_t(a)] > v[size_t(b)] : v[size_t(a)] < v[size_t(b)];
    });
    Values sv, si;
    for (int64_t k : p) {
        sv.push_back(v[size_t(k)]);
        si.push_back(double(k));
    }
    return {sv, si};
}
} // namespace

TEST_CASE_TEMPLATE("sort: radix path against std::stable_sort", T, uint8_t, int8_t, int16_t,
                   int32_t, int64_t, float, double) {
    setNumThreads(2);
    const double lo = std::is_signed_v<T> ? -100 : 0;
    for (int64_t n : {int64_t(5), int64_t(700), int64_t(5000)}) {
        Tensor<T> x = random_tensor<T>({n}, lo, 100, unsigned(n)); // many duplicates
        for (bool desc : {false, true}) {
            auto r = x.sort(0, desc);
            auto want = reference_sort(x, desc);
            CHECK(values(r.values) == want.first);
            CHECK(values(r.indices) == want.second);
        }
    }
    if constexpr (std::is_floating_point_v<T>) { // fractional values, wide range
        Tensor<T> x = random_tensor<T>({3000}, -1e6, 1e6, 77);
        auto r = x.sort();
        CHECK(values(r.values) == reference_sort(x, false).first);
    }
}

TEST_CASE("sort: many slices, non-contiguous inputs and outputs, in place") {
    setNumThreads(2);
    SUBCASE("every slice of a transposed 3-D tensor, each dimension") {
        DoubleTensor x = random_tensor<double>({30, 20, 40}, -5, 5, 91).permute(2, 0, 1);
        for (int64_t d = 0; d < 3; ++d) {
            auto r = x.sort(d, d == 1);
            bool ok = true;
            Shape outer = x.sizes();
            outer[size_t(d)] = 1;
            for (auto c : coords(outer)) {
                DoubleTensor slice1(x.size(d));
                for (int64_t k = 0; k < x.size(d); ++k) {
                    auto cc = c;
                    cc[size_t(d)] = k;
                    slice1(k) = at(x, cc);
                }
                auto want = reference_sort(slice1, d == 1);
                for (int64_t k = 0; k < x.size(d); ++k) {
                    auto cc = c;
                    cc[size_t(d)] = k;
                    ok = ok && at(r.values, cc) == want.first[size_t(k)] &&
                         at(r.indices, cc) == want.second[size_t(k)];
                }
            }
            CHECK(ok);
        }
    }
    SUBCASE("into existing strided results") {
        DoubleTensor x = mat({{3, 1, 2}, {1, 1, 0}});
        DoubleTensor vbase = DoubleTensor(3, 2).zero();
        LongTensor ibase = LongTensor(3, 2).zero();
        DoubleTensor v = vbase.t();
        LongTensor i = ibase.t();
        t7::sort(v, i, x, 1);
        CHECK(v.strides() == Shape{1, 2});
        CHECK(values(vbase) == Values{1, 0, 2, 1, 3, 1});
        CHECK(values(ibase) == Values{1, 2, 2, 0, 0, 1});
        DoubleTensor ve;
        LongTensor ie;
        t7::sort(ve, ie, x, 0, true);
        CHECK(values(ve) == Values{3, 1, 2, 1, 1, 0});
        CHECK(values(ie) == Values{0, 0, 0, 1, 1, 1});
    }
    SUBCASE("in place: the values are written over the input") {
        FloatTensor x = random_tensor<float>({2, 1000}, -1, 1, 5);
        Values want = reference_sort(FloatTensor(x[1].clone()), false).first;
        LongTensor idx;
        t7::sort(x, idx, x, 1);
        CHECK(values(FloatTensor(x[1])) == want);
    }
    SUBCASE("a large contiguous slice") {
        FloatTensor x = random_tensor<float>({1 << 16}, -1000, 1000, 3);
        auto r = x.sort(0, true);
        auto want = reference_sort(x, true);
        CHECK(values(r.values) == want.first);
        CHECK(values(r.indices) == want.second);
    }
    SUBCASE("sorting an empty tensor gives empty results; bad dimensions throw") {
        auto r = DoubleTensor().sort();
        CHECK(r.values.dim() == 0);
        CHECK(r.indices.dim() == 0);
        CHECK_THROWS_MSG(seq({2, 2}).sort(2), IndexError, "sort: dimension 2 out of range");
    }
}

TEST_CASE("topk") {
    DoubleTensor x = vec({1, 5, 3, 5, 2});
    auto t = x.topk(3);
    CHECK(values(t.values) == Values{5, 5, 3});
    CHECK(values(t.indices) == Values{1, 3, 2}); // equal values: position order
    auto s = x.topk(2, 0, false);
    CHECK(values(s.values) == Values{1, 2});
    CHECK(values(s.indices) == Values{0, 4});
    CHECK(values(x.topk(5).values) == Values{5, 5, 3, 2, 1});
    SUBCASE("along a dimension of a transposed matrix, into existing results") {
        DoubleTensor m = mat({{4, 9}, {7, 1}, {7, 3}}).t(); // 2x3: 4 7 7 / 9 1 3
        auto r = m.topk(2, 1);
        CHECK(r.values.sizes() == Shape{2, 2});
        CHECK(values(r.values) == Values{7, 7, 9, 3});
        CHECK(values(r.indices) == Values{1, 2, 0, 2});
        auto c = t7::topk(m, 1, 0, false);
        CHECK(values(c.values) == Values{4, 1, 3});
        CHECK(values(c.indices) == Values{0, 1, 1});
        DoubleTensor v;
        LongTensor i;
        t7::topk(v, i, m, 2, 1, false);
        CHECK(values(v) == Values{4, 7, 1, 3});
        CHECK(values(i) == Values{0, 1, 1, 2});
    }
    SUBCASE("against a stable sort, large") {
        setNumThreads(2);
        FloatTensor big = random_tensor<float>({40, 3000}, -50, 50, 17);
        auto r = big.topk(25, 1);
        auto s = big.sort(1, true);
        CHECK(values(r.values) == values(FloatTensor(s.values.narrow(1, 0, 25))));
        CHECK(values(r.indices) == values(LongTensor(s.indices.narrow(1, 0, 25))));
    }
    SUBCASE("errors") {
        CHECK_THROWS_MSG(x.topk(6), IndexError,
                         "topk: k 6 out of range for dimension 0 of size 5 (0 <= k <= 5)");
        CHECK_THROWS_MSG(x.topk(-1), IndexError, "topk: k -1 out of range");
        CHECK(x.topk(0).values.sizes() == Shape{0}); // NumPy-style: nothing picked
        CHECK_THROWS_AS(x.topk(1, 1), IndexError);
        CHECK_THROWS_MSG(DoubleTensor().topk(1), ShapeError, "topk: the tensor is empty");
    }
}

TEST_CASE("kthvalue and median") {
    // torch.kthvalue(torch.range(1,5), 4) -> 4 at Torch7 index 4, here index 3
    auto k = seq({5}).kthvalue(4);
    CHECK(k.values.sizes() == Shape{1});
    CHECK(values(k.values) == Values{4});
    CHECK(values(k.indices) == Values{3});
    DoubleTensor x = mat({{3, 1, 2, 5, 4}, {2, 2, 9, 0, 2}});
    auto a = x.kthvalue(2, 1);
    CHECK(a.values.sizes() == Shape{2, 1}); // the dimension is kept, as Torch7 does
    CHECK(values(a.values) == Values{2, 2});
    CHECK(values(a.indices) == Values{2, 0}); // equal values: the k-th in position order
    CHECK(values(x.kthvalue(1).values) == Values{1, 0});
    CHECK(values(x.kthvalue(5).values) == Values{5, 9});
    auto col = t7::kthvalue(x, 1, 0);
    CHECK(col.values.sizes() == Shape{1, 5});
    CHECK(values(col.values) == Values{2, 1, 2, 0, 2});
    CHECK(values(col.indices) == Values{1, 0, 0, 1, 1});
    // median: the lower median, as Torch7
    auto m = vec({1, 5, 3, 4}).median();
    CHECK(values(m.values) == Values{3});
    CHECK(values(m.indices) == Values{2});
    auto m2 = x.median(1);
    CHECK(values(m2.values) == Values{3, 2});
    CHECK(values(m2.indices) == Values{0, 1});
    auto m3 = t7::median(x.t(), 0); // transposed input
    CHECK(values(m3.values) == Values{3, 2});
    DoubleTensor v;
    LongTensor i;
    t7::median(v, i, x, 0);
    CHECK(values(v) == Values{2, 1, 2, 0, 2});
    t7::kthvalue(v, i, x, 3, 1);
    CHECK(values(v) == Values{3, 2});
    CHECK(values(i) == Values{0, 1});
    CHECK_THROWS_MSG(x.kthvalue(6, 1), IndexError, "kthvalue: k 6 out of range for dimension 1");
    CHECK_THROWS_MSG(x.kthvalue(0), IndexError, "kthvalue: k 0 out of range");
    CHECK_THROWS_MSG(DoubleTensor().median(), ShapeError, "median: the tensor is empty");
    CHECK_THROWS_AS(x.median(3), IndexError);
}

TEST_CASE("mode") {
    auto a = vec({1, 2, 2, 3, 3}).mode();
    CHECK(values(a.values) == Values{2});  // equally frequent: the smallest value
    CHECK(values(a.indices) == Values{2}); // its last position
    auto b = vec({5, 1, 5}).mode();
    CHECK(values(b.values) == Values{5});
    CHECK(values(b.indices) == Values{2});
    DoubleTensor x = mat({{4, 4, 1}, {7, 8, 9}}).t(); // 3x2: 4 7 / 4 8 / 1 9
    auto c = x.mode(0);
    CHECK(c.values.sizes() == Shape{1, 2});
    CHECK(values(c.values) == Values{4, 7});
    CHECK(values(c.indices) == Values{1, 0});
    auto d = t7::mode(x, 1);
    CHECK(values(d.values) == Values{4, 4, 1});
    CHECK(values(d.indices) == Values{0, 0, 0});
    CHECK_THROWS_MSG(DoubleTensor().mode(), ShapeError, "mode: the tensor is empty");
}

// ---- x[mask] = values: NumPy's contract (third round, issue 35) -------------------------

TEST_CASE("x[mask] = values: exactly as many values as selected, or one") {
    SUBCASE("a value of the tensor's full shape is refused, naming both counts") {
        // Torch7's maskedCopy paired the k-th selected element with e's k-th
        // element (-1 1 -2 2); NumPy users mean the elements at the same places.
        DoubleTensor x = vec({-1, 4, -2, 9});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x[x > 0] = t7::sqrt(t7::abs(x)), ShapeError,
                         "x[mask] = values: the mask selects 2 elements but the values have 4 "
                         "(size 4)");
        CHECK(s.unchanged());
        // what was meant: the selected values, transformed
        DoubleTensor sel = x[x > 0];
        x[x > 0] = t7::sqrt(sel);
        CHECK(values(x) == Values{-1, 2, -2, 3});
        // the same through maskedCopy's Torch7 semantics, on purpose
        DoubleTensor y = vec({-1, 4, -2, 9});
        y.maskedCopy(y > 0, t7::eval(t7::sqrt(t7::abs(y))));
        CHECK(values(y) == Values{-1, 1, -2, 2});
    }
    SUBCASE("a 1-D tensor of the selected count, of another type, as a view") {
        DoubleTensor x = seq({2, 3}); // 1..6
        x[x > 3] = vec<int32_t>({40, 50, 60});
        CHECK(values(x) == Values{1, 2, 3, 40, 50, 60});
        DoubleTensor src = seq({6}, 100);
        x[x < 3] = src(slice(0, 4, 2)); // a strided view: 100 102
        CHECK(values(x) == Values{100, 102, 3, 40, 50, 60});
        CHECK(values(src) == Values{100, 101, 102, 103, 104, 105});
    }
    SUBCASE("an expression of the selected count, evaluated once before writing") {
        DoubleTensor x = seq({4});
        DoubleTensor y = seq({2});
        x[x > 2] = y * 10 + x(slice(0, 2)); // reads x: 10 + 1, 20 + 2
        CHECK(values(x) == Values{1, 2, 11, 22});
    }
    SUBCASE("one value (a tensor or an expression of size 1) fills every selected element") {
        DoubleTensor x = seq({5});
        x[x > 2] = vec({7});
        CHECK(values(x) == Values{1, 2, 7, 7, 7});
        x[x < 2] = vec<float>({-1}) * 3;
        CHECK(values(x) == Values{-3, 2, 7, 7, 7});
        x[x > 100] = vec({5}); // nothing selected: nothing written
        CHECK(values(x) == Values{-3, 2, 7, 7, 7});
    }
    SUBCASE("nothing selected: an empty tensor or one value, nothing else") {
        DoubleTensor x = seq({3});
        x[x > 10] = DoubleTensor();
        CHECK(values(x) == Values{1, 2, 3});
        CHECK_THROWS_MSG(x[x > 10] = seq({3}), ShapeError,
                         "the mask selects 0 elements but the values have 3");
        CHECK(values(x) == Values{1, 2, 3});
    }
    SUBCASE("too few, too many, or not 1-D: ShapeError, nothing written") {
        DoubleTensor x = seq({2, 3});
        Snapshot<double> s(x);
        CHECK_THROWS_MSG(x[x > 2] = seq({3}), ShapeError,
                         "the mask selects 4 elements but the values have 3 (size 3)");
        CHECK_THROWS_MSG(x[x > 2] = seq({5}), ShapeError,
                         "the mask selects 4 elements but the values have 5 (size 5)");
        CHECK_THROWS_MSG(x[x > 2] = seq({2, 2}), ShapeError,
                         "the mask selects 4 elements but the values have 4 (size 2x2)");
        CHECK_THROWS_MSG(x[x > 2] = seq({2}) + seq({2}), ShapeError, "the values have 2");
        DoubleTensor y = seq({3});
        CHECK_THROWS_MSG(x[x > 2] = y[y > 0], ShapeError, "the values have 3");
        CHECK_THROWS_MSG(x[ByteTensor(5).fill(1)] = seq({5}), ShapeError,
                         "x[mask] = values: the mask has 5 elements (size 5) but the tensor "
                         "has 6");
        CHECK(s.unchanged());
    }
    SUBCASE("maskedCopy keeps Torch7's take-the-first-values") {
        DoubleTensor x = seq({4});
        x.maskedCopy(x > 2, seq({4}, 10));
        CHECK(values(x) == Values{1, 2, 10, 11});
    }
}

// ---- the masked kernels against naive loops --------------------------------------------

namespace {
// A mask of n bytes: random (density p), runs of ones and zeros, all, none,
// with values other than 1 for "selected".
std::vector<uint8_t> mask_pattern(int kind, int64_t n, unsigned seed) {
    std::vector<uint8_t> m(size_t(n), 0);
    std::mt19937 g(seed);
    for (int64_t i = 0; i < n; ++i) {
        switch (kind) {
        case 0:
            m[size_t(i)] = uint8_t(g() % 2 ? 1 + g() % 255 : 0);
            break;
        case 1:
            m[size_t(i)] = uint8_t((i / 100) % 3 == 0);
            break; // runs of 100
        case 2:
            m[size_t(i)] = 1;
            break;
        case 3:
            m[size_t(i)] = 0;
            break;
        default:
            m[size_t(i)] = uint8_t(g() % 16 == 0);
            break; // sparse
        }
    }
    return m;
}
} // namespace

TEST_CASE_TEMPLATE("masked kernels equal naive loops (select, fill, copy, assign, nonzero)", T,
                   uint8_t, int16_t, int32_t, float, double, int64_t) {
    setNumThreads(2);
    for (int64_t n : {int64_t(1), int64_t(63), int64_t(64), int64_t(1000), int64_t(200004)}) {
        for (int kind = 0; kind < 5; ++kind) {
            CAPTURE(n);
            CAPTURE(kind);
            const std::vector<uint8_t> mv = mask_pattern(kind, n, unsigned(n + kind));
            ByteTensor mask(n);
            std::copy(mv.begin(), mv.end(), mask.data());
            Tensor<T> x = random_tensor<T>({n}, 1, 100, unsigned(7 * n + kind));
            const Values xv = values(x);
            Values sel;
            std::vector<int64_t> where;
            for (int64_t i = 0; i < n; ++i)
                if (mv[size_t(i)]) {
                    sel.push_back(xv[size_t(i)]);
                    where.push_back(i);
                }
            const int64_t k = int64_t(sel.size());
            // select, as a value and into an existing result of the right size
            Tensor<T> s = x[mask];
            CHECK(s.nElement() == k);
            if (k > 0) CHECK(values(s) == sel);
            Tensor<T> into(std::max<int64_t>(k, 1));
            into.maskedSelect(x, mask);
            if (k > 0) CHECK(values(into) == sel);
            // the same with the mask as an expression (computed in blocks)
            if (k > 0) CHECK(values(x.maskedSelect(mask != 0)) == sel);
            // nonzero of the mask, 1-D and as 2-D rows of an odd length
            LongTensor nz = mask.nonzero();
            if (k > 0) {
                REQUIRE(nz.sizes() == Shape{k, 1});
                Values want(where.begin(), where.end());
                CHECK(values(nz) == want);
            } else {
                CHECK(nz.sizes() == Shape{0, 1}); // NumPy's argwhere of nothing
            }
            if (n == 200004 && k > 0) {
                LongTensor nz2 = mask.view(12, 16667).nonzero();
                REQUIRE(nz2.sizes() == Shape{k, 2});
                bool ok = true;
                for (int64_t r = 0; r < k; ++r)
                    ok = ok && nz2(r, 0) * 16667 + nz2(r, 1) == where[size_t(r)];
                CHECK(ok);
            }
            // fill
            Tensor<T> f = x.clone();
            f.maskedFill(mask, T(3));
            Values fv = xv;
            for (int64_t i : where) fv[size_t(i)] = 3;
            CHECK(values(f) == fv);
            // assign exactly k values (descending, to see the pairing)
            Tensor<T> a = x.clone();
            Tensor<T> vals(std::max<int64_t>(k, 1));
            for (int64_t j = 0; j < vals.nElement(); ++j) vals.data()[j] = T((j % 90) + 5);
            if (k > 0) {
                a[mask] = vals;
                Values av = xv;
                for (int64_t j = 0; j < k; ++j) av[size_t(where[size_t(j)])] = double((j % 90) + 5);
                CHECK(values(a) == av);
                // maskedCopy, through a transposed destination of the same values
                Tensor<T> c = x.clone();
                c.maskedCopy(mask, vals);
                CHECK(values(c) == av);
            }
        }
    }
}

TEST_CASE("masked kernels: strided tensors and masks against naive loops") {
    setNumThreads(2);
    const int64_t r = 300, c = 257;
    DoubleTensor x = random_tensor<double>({r, c}, -1, 1, 3);
    DoubleTensor xt = x.t(); // c x r view, layout order of the view
    ByteTensor m = t7::eval(random_tensor<double>({c, r}, -1, 1, 4) > 0.0);
    ByteTensor mt = m.t().clone().t(); // same values, column-major
    Values want;
    std::vector<std::pair<int64_t, int64_t>> at_;
    for (int64_t i = 0; i < c; ++i)
        for (int64_t j = 0; j < r; ++j)
            if (m(i, j)) {
                want.push_back(xt(i, j));
                at_.emplace_back(i, j);
            }
    CHECK(values(DoubleTensor(xt[m])) == want);
    CHECK(values(DoubleTensor(xt[mt])) == want);
    DoubleTensor y = x.clone();
    DoubleTensor yt = y.t();
    yt[mt] = seq({int64_t(want.size())});
    bool ok = true;
    for (size_t k = 0; k < at_.size(); ++k)
        ok = ok && yt(at_[k].first, at_[k].second) == double(k + 1);
    CHECK(ok);
    LongTensor nz = m.t().nonzero(); // strided: the generic path
    REQUIRE(nz.size(0) == int64_t(want.size()));
    CHECK(nz(0, 0) * 0 == 0);
}
