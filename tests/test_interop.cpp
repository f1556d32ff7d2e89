// Interop (issue 13): tensors over outside memory (fromBlob), std::vector both
// ways (fromVector, toVector), iteration in layout order (begin/end with the
// standard algorithms), Eigen maps both ways (asEigen, fromEigen), and the
// version and configuration. Checked on values, shapes, strides, storage sharing
// (writes through both sides) and the exception types of misuse.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

using namespace t7;
using namespace test_util;

namespace {

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// The layouts every iteration check runs over: contiguous, transposed,
// narrowed and selected, expanded (zero strides), unfolded, permuted 4-D, one
// element, and a 10-D permutation (more dimensions than Shape keeps inline).
std::vector<DoubleTensor> layouts() {
    DoubleTensor a = seq({4, 5, 3});
    DoubleTensor high = seq(Shape(10, 2));
    return {a,
            seq({3, 4}).t(),
            a.narrow(1, 1, 3).select(2, 2),
            a.narrow(0, 1, 2).narrow(2, 1, 2),
            seq({3, 1}).expand(3, 4),
            seq({1, 1, 4}).expand(2, 3, 4),
            seq({10}).unfold(0, 4, 3),
            seq({2, 3, 4, 5}).permute(3, 1, 0, 2),
            seq({1}),
            a.transpose(0, 2).narrow(1, 1, 4),
            high.permute(Shape{9, 0, 8, 1, 7, 2, 6, 3, 5, 4})};
}

} // namespace

// ---------------------------------------------------------------------------------
// version() and config()
// ---------------------------------------------------------------------------------

TEST_CASE("version: the macros, version() and config() agree") {
    static_assert(T7_VERSION_MAJOR == 0 && T7_VERSION_MINOR == 1 && T7_VERSION_PATCH == 0);
    static_assert(T7_VERSION == 100);
    CHECK(version() == "0.1.0");
    CHECK(version() == std::string(T7_VERSION_STRING));
    CHECK(version() == std::to_string(T7_VERSION_MAJOR) + "." + std::to_string(T7_VERSION_MINOR) +
                           "." + std::to_string(T7_VERSION_PATCH));

    const std::string c = config();
    INFO(c);
    CHECK(c.rfind("tensor7 0.1.0\n", 0) == 0);
    CHECK(has(c, "\nthreads: " + std::to_string(getNumThreads()) + " ("));
    CHECK(has(c, "\nCUDA: "));
    const int floats = Eigen::internal::packet_traits<float>::size;
    if (floats > 1)
        CHECK(has(c, "SIMD: " + std::string(detail::simd_name()) + " (" +
                         std::to_string(32 * floats) + "-bit packets, " + std::to_string(floats) +
                         " floats)"));
    else
        CHECK(has(c, "SIMD: none"));
#if defined(EIGEN_VECTORIZE_AVX512)
    CHECK(has(c, "SIMD: AVX-512 (512-bit"));
#elif defined(EIGEN_VECTORIZE_AVX)
    CHECK(has(c, "-bit packets, 8 floats)")); // AVX and AVX2: 256-bit float packets
#elif defined(EIGEN_VECTORIZE_SSE2)
    CHECK(has(c, "(128-bit packets, 4 floats)"));
#endif
    // The thread line follows setNumThreads.
    const int before = getNumThreads();
    setNumThreads(1);
    CHECK(has(config(), "\nthreads: 1 ("));
    setNumThreads(before);
}

// ---------------------------------------------------------------------------------
// fromBlob
// ---------------------------------------------------------------------------------

TEST_CASE("fromBlob: a contiguous view of the caller's memory, writes both ways") {
    float buf[6] = {1, 2, 3, 4, 5, 6};
    FloatTensor t = fromBlob(buf, {2, 3});
    CHECK(t.sizes() == Shape{2, 3});
    CHECK(t.strides() == Shape{3, 1});
    CHECK(t.isContiguous());
    CHECK(t.data() == buf);
    CHECK(t.storageOffset() == 0);
    CHECK(t.storage().size() == 6);
    CHECK_FALSE(t.ownsStorage());
    CHECK_FALSE(t.storage().ownsStorage());
    CHECK(values(t) == iota(1, 6));

    t(1, 2) = 42;
    CHECK(buf[5] == 42);
    buf[0] = -7;
    CHECK(t(0, 0) == -7);
    t = t * 2 + 1; // an expression evaluated into the caller's memory
    CHECK(std::vector<float>(buf, buf + 6) == std::vector<float>{-13, 5, 7, 9, 11, 85});
    // views share it; a clone owns new memory
    FloatTensor row = t[1];
    check_shares(row, t);
    row.fill(0);
    CHECK(buf[3] == 0);
    CHECK(buf[5] == 0);
    FloatTensor c = t.clone();
    CHECK(c.ownsStorage());
    CHECK(c.data() != buf);
    // Other element types.
    int64_t longs[3] = {1, -2, 3};
    LongTensor l = fromBlob(longs, {3});
    l(1) = 1LL << 40;
    CHECK(longs[1] == (1LL << 40));
    uint8_t bytes[4] = {0, 255, 7, 8};
    CHECK(values(fromBlob(bytes, {2, 2})) == Values{0, 255, 7, 8});
}

TEST_CASE("fromBlob: strided views (Fortran order, gaps, zero strides)") {
    double buf[12];
    for (int i = 0; i < 12; ++i) buf[i] = i;
    // column-major 3x4
    DoubleTensor f = fromBlob<double>(buf, {3, 4}, {1, 3});
    CHECK(f.sizes() == Shape{3, 4});
    CHECK(f.strides() == Shape{1, 3});
    CHECK_FALSE(f.isContiguous());
    CHECK(f.storage().size() == 12);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) CHECK(f(i, j) == buf[i + 3 * j]);
    CHECK(values(f.t()) == iota(0, 11));
    // every other element of 2 rows of 6: extent 1 + 1*6 + 2*2 = 11
    DoubleTensor g = fromBlob<double>(buf, {2, 3}, {6, 2});
    CHECK(g.storage().size() == 11);
    CHECK(values(g) == Values{0, 2, 4, 6, 8, 10});
    g(1, 1) = 100;
    CHECK(buf[8] == 100);
    // a zero stride repeats a row (an expanded view of the caller's memory)
    DoubleTensor z = fromBlob<double>(buf, {3, 2}, {0, 1});
    CHECK(z.storage().size() == 2);
    CHECK(values(z) == Values{0, 1, 0, 1, 0, 1});
    // a size-1 dimension may have any stride
    DoubleTensor one = fromBlob<double>(buf, {1, 3}, {1000, 1});
    CHECK(one.storage().size() == 3);
    CHECK(values(one) == Values{0, 1, 2});
}

TEST_CASE("fromBlob: empty layouts, and misuse") {
    float buf[4] = {1, 2, 3, 4};
    for (FloatTensor e :
         {fromBlob<float>(nullptr, {0}), fromBlob<float>(buf, {}),
          fromBlob<float>(nullptr, {2, 0, 3}), fromBlob<float>(buf, {3, 0}, {1, 1})}) {
        CHECK(e.dim() == 0);
        CHECK(e.nElement() == 0);
        CHECK_FALSE(e.ownsStorage());
        CHECK(e.begin() == e.end());
    }
    CHECK_THROWS_OP(fromBlob<float>(nullptr, {2}), Error, "fromBlob: null pointer");
    CHECK_THROWS_OP(fromBlob<float>(buf, {2, -1}), ShapeError, "negative size -1");
    CHECK_THROWS_OP(fromBlob<float>(buf, {2, 2}, {2, -1}), ShapeError, "negative stride -1");
    CHECK_THROWS_OP(fromBlob<float>(buf, {2, 2}, {1}), ShapeError, "2 sizes");
    CHECK_THROWS_OP(fromBlob<float>(buf, {4}, {1, 1}), ShapeError, "fromBlob");
    const int64_t big = int64_t(1) << 40;
    CHECK_THROWS_OP(fromBlob<float>(buf, {big, big}), ShapeError, "more elements than int64");
    const int64_t maxi = std::numeric_limits<int64_t>::max();
    CHECK_THROWS_OP(fromBlob<float>(buf, {3, 2}, {maxi / 2, 1}), ShapeError, "fromBlob");
    CHECK_THROWS_OP(fromBlob<float>(buf, {2}, {maxi}), ShapeError, "fromBlob");
    // The caller's memory keeps its size: the tensor may shrink, never grow.
    FloatTensor t = fromBlob(buf, {4});
    CHECK_THROWS_AS(t.resize(5), ShapeError);
    CHECK(t.sizes() == Shape{4});
    t.resize(2, 2);
    CHECK(t.data() == buf);
    CHECK(values(t) == Values{1, 2, 3, 4});
}

// ---------------------------------------------------------------------------------
// fromVector / toVector
// ---------------------------------------------------------------------------------

TEST_CASE("fromVector copies; toVector gives layout order") {
    std::vector<double> v{1, 2, 3, 4, 5, 6};
    DoubleTensor a = fromVector(v);
    CHECK(a.sizes() == Shape{6});
    CHECK(a.isContiguous());
    CHECK(a.ownsStorage());
    CHECK(values(a) == iota(1, 6));
    v[0] = 100; // a copy: the tensor keeps its value
    CHECK(a(0) == 1);
    CHECK(a.data() != v.data());

    DoubleTensor m = fromVector(v, {2, 3});
    CHECK(m.sizes() == Shape{2, 3});
    CHECK(m.strides() == Shape{3, 1});
    CHECK(values(m) == Values{100, 2, 3, 4, 5, 6});
    CHECK(fromVector(std::vector<int32_t>{7, 8}).type() == "torch.IntTensor");
    CHECK(fromVector(std::vector<float>{}).dim() == 0);
    CHECK(fromVector(std::vector<float>{}, {2, 0}).dim() == 0);
    CHECK_THROWS_OP(fromVector(v, {4, 2}), ShapeError, "fromVector: size 4x2 has 8 elements");
    CHECK_THROWS_AS(fromVector(v, {5}), ShapeError);
    CHECK_THROWS_AS(fromVector(v, {-2, -3}), ShapeError);
    CHECK_THROWS_AS(fromVector(std::vector<float>{}, {1}), ShapeError);

    // toVector over every layout, and back
    for (const DoubleTensor& x : layouts()) {
        INFO("size ", x.sizes(), " stride ", x.strides());
        const std::vector<double> out = x.toVector();
        CHECK(Values(out.begin(), out.end()) == values(x));
        CHECK(values(fromVector(out, x.sizes())) == values(x));
    }
    CHECK(m.t().toVector() == std::vector<double>{100, 4, 2, 5, 3, 6});
    CHECK(DoubleTensor().toVector().empty());
    CHECK(fromVector(std::vector<uint8_t>{1, 2, 3}).toVector() == std::vector<uint8_t>{1, 2, 3});
}

// ---------------------------------------------------------------------------------
// begin() / end()
// ---------------------------------------------------------------------------------

static_assert(std::random_access_iterator<LayoutIterator<float>>);
static_assert(std::random_access_iterator<LayoutIterator<const float>>);
static_assert(std::ranges::random_access_range<FloatTensor>);
static_assert(std::ranges::sized_range<FloatTensor>);
static_assert(std::sortable<LayoutIterator<double>>);
static_assert(std::is_same_v<decltype(*std::declval<FloatTensor&>().begin()), float&>);
static_assert(std::is_same_v<decltype(*std::declval<FloatTensor>().begin()), float&>);
static_assert(std::is_same_v<decltype(*std::declval<const FloatTensor&>().begin()), const float&>);
static_assert(std::is_same_v<decltype(*std::declval<const FloatTensor&>().cbegin()), const float&>);
static_assert(std::is_convertible_v<LayoutIterator<float>, LayoutIterator<const float>>);
static_assert(!std::is_convertible_v<LayoutIterator<const float>, LayoutIterator<float>>);

TEST_CASE("begin/end: layout order over every layout, forwards, backwards and by jumps") {
    for (const DoubleTensor& x : layouts()) {
        INFO("size ", x.sizes(), " stride ", x.strides());
        const Values expect = values(x);
        const auto n = std::ptrdiff_t(expect.size());
        // forwards (range-for on a const tensor)
        Values fwd;
        for (const double& v : x) fwd.push_back(v);
        CHECK(fwd == expect);
        CHECK(x.end() - x.begin() == n);
        CHECK(std::ranges::size(x) == size_t(n));
        // backwards from end()
        Values back;
        for (auto it = x.end(); it != x.begin();) back.push_back(*--it);
        std::reverse(back.begin(), back.end());
        CHECK(back == expect);
        CHECK(Values(std::make_reverse_iterator(x.end()), std::make_reverse_iterator(x.begin())) ==
              Values(expect.rbegin(), expect.rend()));
        // jumps: it[k], begin + k, end - k, and stepping on from a jump
        auto b = x.begin();
        bool ok = true;
        for (std::ptrdiff_t k = 0; k < n; ++k) {
            ok = ok && b[k] == expect[size_t(k)] && *(b + k) == expect[size_t(k)] &&
                 *(x.end() - (n - k)) == expect[size_t(k)];
            auto it = b + k;
            ++it;
            if (k + 1 < n) ok = ok && *it == expect[size_t(k + 1)];
            auto jt = b + k;
            if (k > 0) ok = ok && *--jt == expect[size_t(k - 1)];
        }
        CHECK(ok);
        CHECK(b + n == x.end());
        CHECK(b < x.end());
        CHECK(x.end() - 1 >= b);
        // the standard algorithms
        CHECK(std::accumulate(x.begin(), x.end(), 0.0) ==
              std::accumulate(expect.begin(), expect.end(), 0.0));
        std::vector<double> copied(expect.size());
        std::copy(x.begin(), x.end(), copied.begin());
        CHECK(Values(copied.begin(), copied.end()) == expect);
        CHECK(*std::max_element(x.begin(), x.end()) ==
              *std::max_element(expect.begin(), expect.end()));
        CHECK(std::ranges::equal(x, expect));
    }
}

TEST_CASE("begin/end: writes through views land in the original") {
    DoubleTensor m(3, 4);
    m.zero();
    double next = 0;
    for (double& v : m.t()) v = next++; // layout order of the transpose: down the columns
    CHECK(values(m) == Values{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
    DoubleTensor col = m.select(1, 2);
    std::fill(col.begin(), col.end(), -1.0);
    CHECK(values(m.select(1, 2)) == Values{-1, -1, -1});
    CHECK(m(0, 2) == -1);
    std::transform(m.begin(), m.end(), m.begin(), [](double v) { return v * 10; });
    CHECK(m(2, 3) == 110);
    // std::sort: a contiguous tensor, and the rows of a transposed view
    DoubleTensor s = fromVector(std::vector<double>{5, 3, 9, 1, 7, 2});
    std::sort(s.begin(), s.end());
    CHECK(values(s) == Values{1, 2, 3, 5, 7, 9});
    std::ranges::sort(s, std::greater<>());
    CHECK(values(s) == Values{9, 7, 5, 3, 2, 1});
    DoubleTensor q = fromVector(std::vector<double>{6, 5, 4, 3, 2, 1}, {3, 2});
    DoubleTensor qt = q.t(); // layout order of qt: 6 4 2 5 3 1
    std::sort(qt.begin(), qt.end());
    CHECK(values(qt) == iota(1, 6));
    CHECK(values(q) == Values{1, 4, 2, 5, 3, 6});
    // a mutable iterator converts to a const one
    LayoutIterator<const double> ci = q.begin();
    CHECK(*ci == 1);
    CHECK(ci == q.cbegin());
}

TEST_CASE("begin/end: empty tensors, and fromBlob memory") {
    FloatTensor e;
    CHECK(e.begin() == e.end());
    int visits = 0;
    for (float v : e) visits += int(v) + 1;
    CHECK(visits == 0);
    CHECK(std::accumulate(e.begin(), e.end(), 0.0) == 0);
    CHECK(e.toVector().empty());
    int buf[6] = {1, 2, 3, 4, 5, 6};
    IntTensor b = fromBlob<int32_t>(buf, {3, 2}, {1, 3});
    CHECK(std::vector<int32_t>(b.begin(), b.end()) == std::vector<int32_t>{1, 4, 2, 5, 3, 6});
    for (int32_t& v : b) v = -v;
    CHECK(buf[5] == -6);
}

// ---------------------------------------------------------------------------------
// Eigen
// ---------------------------------------------------------------------------------

TEST_CASE("asEigen: strided maps of 1-D and 2-D tensors, writes both ways") {
    FloatTensor x = seq<float>({3, 4});
    auto m = asEigen(x);
    static_assert(std::is_same_v<decltype(m), EigenMatrixMap<float>>);
    CHECK(m.rows() == 3);
    CHECK(m.cols() == 4);
    CHECK(m.outerStride() == 4);
    CHECK(m.innerStride() == 1);
    CHECK(m.data() == x.data());
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) CHECK(m(i, j) == x(i, j));
    m(2, 1) = 99;
    CHECK(x(2, 1) == 99);
    x(0, 3) = -5;
    CHECK(m(0, 3) == -5);

    // a transposed view: outer stride 1, inner stride 4
    auto mt = asEigen(x.t());
    CHECK(mt.rows() == 4);
    CHECK(mt.cols() == 3);
    CHECK(mt.outerStride() == 1);
    CHECK(mt.innerStride() == 4);
    CHECK(mt(1, 2) == 99);
    mt.row(0).setConstant(7); // column 0 of x
    CHECK(values(x.select(1, 0)) == Values{7, 7, 7});

    // a narrowed view and a 1-D column with stride 4
    auto sub = asEigen(x.narrow(0, 1, 2).narrow(1, 1, 2));
    CHECK(sub.rows() == 2);
    CHECK(sub(1, 0) == x(2, 1));
    auto col = asEigen(x.select(1, 2));
    CHECK(col.rows() == 3);
    CHECK(col.cols() == 1);
    CHECK(col(2, 0) == x(2, 2));
    auto v = asEigenVector(x.select(1, 2));
    static_assert(std::is_same_v<decltype(v), EigenVectorMap<float>>);
    CHECK(v.size() == 3);
    CHECK(v.innerStride() == 4);
    v[0] = 123;
    CHECK(x(0, 2) == 123);
    auto arr = asEigenArray(x);
    arr *= 2; // element-wise, in x's memory
    CHECK(x(0, 2) == 246);
    CHECK(x(2, 1) == 198);

    // Eigen arithmetic on maps matches tensor7's product
    DoubleTensor a = seq({2, 3}), b = seq({4, 3}, 0.5);
    Eigen::MatrixXd p = asEigen(a) * asEigen(b.t());
    DoubleTensor ref = t7::mm(a, b.t());
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) CHECK(p(i, j) == doctest::Approx(ref(i, j)));
    CHECK(asEigenVector(a[0]).dot(asEigenVector(a[1])) == doctest::Approx(1 * 4 + 2 * 5 + 3 * 6));

    // an expanded view maps with a zero stride
    DoubleTensor e = seq({1, 3}).expand(2, 3); // (the map does not keep the memory alive)
    auto z = asEigen(e);
    CHECK(z.outerStride() == 0);
    CHECK(z(1, 2) == 3);
    // empty
    CHECK(asEigen(FloatTensor()).size() == 0);
    CHECK(asEigenVector(FloatTensor()).size() == 0);
}

TEST_CASE("asEigen: const tensors map read-only; other ranks are a ShapeError") {
    const DoubleTensor c = seq({2, 2});
    auto m = asEigen(c);
    static_assert(std::is_same_v<decltype(m), EigenMatrixMap<const double>>);
    static_assert(std::is_const_v<std::remove_pointer_t<decltype(m.data())>>);
    static_assert(std::is_same_v<decltype(asEigenVector(c)), EigenVectorMap<const double>>);
    CHECK(m(1, 0) == 3);
    CHECK_THROWS_OP(asEigen(seq({2, 2, 2})), ShapeError, "asEigen: needs a 1-D or 2-D tensor");
    CHECK_THROWS_OP(asEigenArray(seq({2, 2, 2})), ShapeError, "asEigenArray");
    CHECK_THROWS_OP(asEigenVector(seq({2, 2})), ShapeError, "asEigenVector: needs a 1-D tensor");
    // (a CUDA tensor, t7::Half, or an expression: compile errors with a message)
}

TEST_CASE("fromEigen: views of matrices, arrays, maps and blocks in either order") {
    Eigen::MatrixXf a(3, 4); // column-major
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) a(i, j) = float(10 * i + j);
    FloatTensor t = fromEigen(a);
    CHECK(t.sizes() == Shape{3, 4});
    CHECK(t.strides() == Shape{1, 3});
    CHECK(t.data() == a.data());
    CHECK_FALSE(t.ownsStorage());
    CHECK(t.storage().size() == 12);
    CHECK(values(t) == Values{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
    t(2, 3) = -1;
    CHECK(a(2, 3) == -1);
    a(1, 0) = 55;
    CHECK(t(1, 0) == 55);
    t.select(1, 1).fill(8); // column 1
    CHECK(a.col(1) == Eigen::Vector3f(8, 8, 8));

    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r(2, 3);
    r << 1, 2, 3, 4, 5, 6;
    DoubleTensor tr = fromEigen(r);
    CHECK(tr.strides() == Shape{3, 1});
    CHECK(tr.isContiguous());
    CHECK(values(tr) == iota(1, 6));
    tr += 1; // an expression into Eigen's memory
    CHECK(r(1, 2) == 7);

    // a block keeps the parent's strides; a row of a column-major matrix is 1-D
    FloatTensor blk = fromEigen(a.block(1, 1, 2, 3));
    CHECK(blk.sizes() == Shape{2, 3});
    CHECK(blk.strides() == Shape{1, 3});
    CHECK(blk.data() == &a(1, 1));
    CHECK(blk(1, 2) == a(2, 3));
    FloatTensor row = fromEigen(a.row(2));
    CHECK(row.sizes() == Shape{4});
    CHECK(row.strides() == Shape{3});
    CHECK(values(row) == Values{20, 8, 22, -1});

    // vectors, arrays, integer types, Maps with explicit strides
    Eigen::VectorXd vec(4);
    vec << 1, 2, 3, 4;
    DoubleTensor tv = fromEigen(vec);
    CHECK(tv.sizes() == Shape{4});
    CHECK(tv.strides() == Shape{1});
    tv(3) = 40;
    CHECK(vec[3] == 40);
    Eigen::ArrayXXi ai(2, 2);
    ai << 1, 2, 3, 4;
    IntTensor ti = fromEigen(ai);
    CHECK(ti.type() == "torch.IntTensor");
    CHECK(values(ti) == Values{1, 2, 3, 4});
    float buf[20];
    std::iota(buf, buf + 20, 0.f);
    Eigen::Map<Eigen::MatrixXf, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>> sm(
        buf, 2, 3, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(6, 2));
    FloatTensor ts = fromEigen(sm);
    CHECK(ts.strides() == Shape{2, 6});
    CHECK(values(ts) == Values{0, 6, 12, 2, 8, 14});
    CHECK(ts.storage().size() == 15);
    FloatTensor tm = fromEigen(Eigen::Map<Eigen::MatrixXf>(buf, 2, 2)); // a temporary Map is fine
    CHECK(tm.data() == buf);

    // round trip: a map of a tensor, viewed as a tensor again, is the same layout
    FloatTensor x = seq<float>({4, 5}).narrow(1, 1, 3).t();
    FloatTensor back = fromEigen(asEigen(x));
    CHECK(back.data() == x.data());
    CHECK(back.sizes() == x.sizes());
    CHECK(back.strides() == x.strides());
    // empty
    Eigen::MatrixXf none(0, 3);
    CHECK(fromEigen(none).dim() == 0);
    // negative strides have no tensor layout
    Eigen::Map<Eigen::VectorXf, 0, Eigen::InnerStride<>> rev(buf + 9, 10, Eigen::InnerStride<>(-1));
    CHECK_THROWS_OP(fromEigen(rev), ShapeError, "fromEigen: negative stride");
}
