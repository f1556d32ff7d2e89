// Element-wise expression semantics: type promotion (static_assert on result
// types), laziness, stored expressions keeping their inputs alive, t7::eval,
// assignment (copying, allocation of an empty destination, broadcasting into
// it, ShapeError before any write, scalar fill, conversion on store), where /
// cast / map over mixed types, broadcasting in three dimensions and several
// threads. The per-op suites over dtypes and layouts are test_expr_ops.cpp and
// test_expr_math.cpp; helpers in expr_check.hpp.
#include "expr_check.hpp"

#include <atomic>

using namespace expr_test;
using t7::ByteTensor;
using t7::CharTensor;
using t7::DoubleTensor;
using t7::FloatTensor;
using t7::IntTensor;
using t7::LongTensor;
using t7::ShortTensor;

// ---- broadcasting in three dimensions
// ------------------------------------------------------------

TEST_CASE("broadcast over three dimensions with size-1 dims, permuted and 1-D operands") {
    std::mt19937 rng(11);
    const Shape sh{4, 3, 5};
    const L dst = L::contiguous;
    FloatTensor a = FloatTensor(5, 1, 4).permute(2, 1, 0); // 4x1x5, strides (1, 4, 4)
    FloatTensor b(3, 1);
    FloatTensor c = FloatTensor(10)(t7::slice(0, 10, 2)); // 1-D, stride 2
    IntTensor d = IntTensor(1, 3, 1);
    fill_random(a, rng, -2, 2, 0);
    fill_random(b, rng, -2, 2, 0);
    fill_random(c, rng, -2, 2, 0);
    fill_random(d, rng, -3, 3, 1);
    const auto av = gather(a, sh), bv = gather(b, sh), cv = gather(c, sh);
    const auto dv = gather(d, sh);
    auto A = [&](int64_t i) { return av[size_t(i)]; };
    auto B = [&](int64_t i) { return bv[size_t(i)]; };
    auto Cv = [&](int64_t i) { return cv[size_t(i)]; };
    auto D = [&](int64_t i) { return dv[size_t(i)]; };
    CHECK_EXPR(float, (a * b) + c, A(i) * B(i) + Cv(i));
    CHECK_EXPR(float, t7::where(a > b, c, d), A(i) > B(i) ? Cv(i) : float(D(i)));
    CHECK_EXPR(uint8_t, a < c, uint8_t(A(i) < Cv(i)));
    CHECK_EXPR(float, t7::exp(a) - d, std::exp(A(i)) - float(D(i)));
    CHECK(t7::eval(a + b).sizes() == sh);
    CHECK(t7::eval(c + d).sizes() == Shape{1, 3, 5});
    CHECK(t7::eval(b + c).sizes() == Shape{3, 5});

    // into a permuted destination
    FloatTensor y = FloatTensor(5, 3, 4).permute(2, 1, 0);
    y = a * b + c;
    CHECK(mismatch(y, sh, [&](int64_t i) { return A(i) * B(i) + Cv(i); }) == "");
}

// ---- more threads than the default, splits inside rows
// -------------------------------------------

TEST_CASE("multithreaded evaluation with several chunks") {
    struct Restore {
        int n = t7::getNumThreads();
        ~Restore() { t7::setNumThreads(n); }
    } restore;
    t7::setNumThreads(3);
    std::mt19937 rng(3);
    for (const Case& c : kCases) {
        CAPTURE(c.name);
        const int64_t R = 997, C = 131; // 130607 elements: three chunks on three threads
        const Shape sh{R, C};
        const L dst = c.dst;
        FloatTensor a = make_operand<float>(c.la, c.sa, R, C);
        IntTensor b = make_operand<int32_t>(c.lb, c.sb, R, C);
        fill_random(a, rng, -4, 4, 0);
        fill_random(b, rng, -9, 9, 1, true);
        const auto av = gather(a, sh);
        const auto bv = gather(b, sh);
        auto A = [&](int64_t i) { return av[size_t(i)]; };
        auto B = [&](int64_t i) { return bv[size_t(i)]; };
        CHECK_EXPR(float, a * 2 + t7::sin(a) - b, A(i) * 2.f + std::sin(A(i)) - float(B(i)));
        CHECK_EXPR(int32_t, b * b - b / 2, wsub(wmul(B(i), B(i)), wdiv(B(i), 2)));
        CHECK_EXPR(uint8_t, a > b, uint8_t(A(i) > float(B(i))));
    }
}

// ---- type promotion
// ------------------------------------------------------------------------------

TEST_CASE("type promotion of operators and functions") {
    ByteTensor u8(2);
    CharTensor i8(2);
    ShortTensor i16(2);
    IntTensor i32(2);
    LongTensor i64(2);
    FloatTensor f(2);
    DoubleTensor d(2);

    // scalars adopt the tensor's type
    static_assert(std::is_same_v<decltype(f * 2.0)::value_type, float>);
    static_assert(std::is_same_v<decltype(2.0 * f)::value_type, float>);
    static_assert(std::is_same_v<decltype(f / 3)::value_type, float>);
    static_assert(std::is_same_v<decltype(i32 * 2.5)::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(u8 + 1)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(d - 1.f)::value_type, double>);
    // mixed tensors: common type, without C's promotion of small integers
    static_assert(std::is_same_v<decltype(i8 + i32)::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(i32 + i8)::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(f + d)::value_type, double>);
    static_assert(std::is_same_v<decltype(d * f)::value_type, double>);
    static_assert(std::is_same_v<decltype(u8 + u8)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(i8 * i8)::value_type, int8_t>);
    static_assert(std::is_same_v<decltype(i16 - i16)::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(i8 + u8)::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(u8 - i8)::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(u8 + i16)::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(u8 * i32)::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(i32 + i64)::value_type, int64_t>);
    static_assert(std::is_same_v<decltype(i32 / f)::value_type, float>);
    static_assert(std::is_same_v<decltype(i64 + f)::value_type, float>);
    static_assert(std::is_same_v<decltype(i64 + d)::value_type, double>);
    static_assert(std::is_same_v<decltype(u8 * d)::value_type, double>);
    static_assert(std::is_same_v<decltype((i8 + u8) * i32)::value_type, int32_t>);
    // comparisons give uint8 for every operand type
    static_assert(std::is_same_v<decltype(f < d)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(i64 == i64)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(d != 1.5)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(2 >= i16)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(t7::lt(f, 1))::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(t7::ge(i8, u8))::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(t7::eq(d, f))::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype((f < d) + (f > d))::value_type, uint8_t>);
    // where keeps the branch type; the mask's type does not matter
    static_assert(std::is_same_v<decltype(t7::where(f > 0, f, f))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::where(f > 0, i16, i16))::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(t7::where(d, i32, i32))::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(t7::where(u8, i32, d))::value_type, double>);
    static_assert(std::is_same_v<decltype(t7::where(u8, i32, 2.5))::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(t7::where(u8, 2.5, f))::value_type, float>);
    // type-keeping functions
    static_assert(std::is_same_v<decltype(-u8)::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(t7::neg(i8))::value_type, int8_t>);
    static_assert(std::is_same_v<decltype(t7::abs(i32))::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(t7::sign(i64))::value_type, int64_t>);
    static_assert(std::is_same_v<decltype(t7::cmax(i8, i16))::value_type, int16_t>);
    static_assert(std::is_same_v<decltype(t7::cmin(f, 1))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::clamp(i32, 0, 5))::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(t7::fmod(i32, i32))::value_type, int32_t>);
    static_assert(std::is_same_v<decltype(t7::remainder(u8, u8))::value_type, uint8_t>);
    static_assert(std::is_same_v<decltype(t7::remainder(f, d))::value_type, double>);
    // floating functions: integers compute in float, floating types keep theirs
    static_assert(std::is_same_v<decltype(t7::exp(i32))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::exp(u8))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::sqrt(i64))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::exp(d))::value_type, double>);
    static_assert(std::is_same_v<decltype(t7::sigmoid(f))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::floor(i16))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::pow(i32, i32))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::pow(f, 2))::value_type, float>);
    static_assert(std::is_same_v<decltype(t7::atan2(i32, d))::value_type, double>);
    static_assert(std::is_same_v<decltype(t7::lerp(f, d, 0.5))::value_type, double>);
    static_assert(std::is_same_v<decltype(t7::lerp(i8, i8, i8))::value_type, float>);
    // casts and user functors
    static_assert(std::is_same_v<decltype(t7::cast<double>(i32))::value_type, double>);
    static_assert(std::is_same_v<decltype(t7::cast<uint8_t>(f) + u8)::value_type, uint8_t>);
    static_assert(
        std::is_same_v<decltype(t7::map([](float x) { return double(x); }, f))::value_type,
                       double>);
    static_assert(std::is_same_v<decltype(t7::map([](int32_t x, float y) { return x * y; }, i32,
                                                  f))::value_type,
                                 float>);
    static_assert(std::is_same_v<decltype(t7::eval(i8 + u8)), ShortTensor>);
    static_assert(std::is_same_v<decltype(t7::eval(f < 1)), ByteTensor>);
    static_assert(std::is_same_v<decltype(t7::eval(t7::exp(i32))), FloatTensor>);

    // ... and the values follow the promoted type
    CharTensor c8 = from<int8_t>({-100, 100});
    ByteTensor b8 = from<uint8_t>({200, 200});
    IntTensor n32 = from<int32_t>({100, 2000000000});
    CHECK(values(t7::eval(c8 + b8)) == std::vector<int16_t>{100, 300});
    CHECK(values(t7::eval(b8 + b8)) == std::vector<uint8_t>{144, 144});
    CHECK(values(t7::eval(c8 + n32)) == std::vector<int32_t>{0, 2000000100});
    CHECK(values(t7::eval(c8 < b8)) == std::vector<uint8_t>{1, 1}); // not C's unsigned compare
    CHECK(values(t7::eval(n32 * 2.5)) == std::vector<int32_t>{200, -294967296}); // 2.5 -> 2
    FloatTensor f1 = from<float>({0.1f, 1.5f});
    DoubleTensor d1 = from<double>({0.2, 0.25});
    CHECK(values(t7::eval(f1 + d1)) == std::vector<double>{double(0.1f) + 0.2, 1.75});
    CHECK(values(t7::eval(f1 * 0.1)) == std::vector<float>{0.1f * 0.1f, 1.5f * 0.1f});
    CHECK(values(t7::eval(t7::where(c8 > 0, n32, 2.5))) == std::vector<int32_t>{2, 2000000000});
    CHECK(values(t7::eval(t7::cast<float>(n32) / 8)) == std::vector<float>{12.5f, 250000000.f});
    CHECK(values(t7::eval(n32 / 8)) == std::vector<int32_t>{12, 250000000});
    (void)u8, (void)i8, (void)i16, (void)i32, (void)i64, (void)f, (void)d;
}

// ---- laziness
// ------------------------------------------------------------------------------------

TEST_CASE("expressions are lazy: inputs changed after building are seen at assignment") {
    FloatTensor a = from<float>({1, 2, 3});
    FloatTensor b = from<float>({4, 5, 6});
    auto e = a * b + 1;
    FloatTensor y(3);
    y = e;
    CHECK(values(y) == std::vector<float>{5, 11, 19});
    a.fill(2);
    b.narrow(0, 1, 1).fill(10);
    y = e;
    CHECK(values(y) == std::vector<float>{9, 21, 13});
    b = a * 3.f; // value assignment into b's memory: e sees it
    y = e;
    CHECK(values(y) == std::vector<float>{13, 13, 13});
    CHECK(values(t7::eval(e)) == std::vector<float>{13, 13, 13});
}

TEST_CASE("a stored expression keeps its inputs alive") {
    auto make = [] {
        FloatTensor a = from<float>({1.5f, 2.f, -1.f});
        IntTensor b = from<int32_t>({2, 3, 4});
        return t7::exp(a * 0) * b + a; // a and b go out of scope here
    };
    auto e = make();
    {
        std::vector<float> churn(1000, 42.f); // reuse freed memory, were it freed
        (void)churn;
    }
    FloatTensor y;
    y = e;
    CHECK(values(y) == std::vector<float>{3.5f, 5.f, 3.f});

    FloatTensor a = from<float>({1, 2});
    const int64_t refs = a.storage().use_count();
    {
        auto e2 = a + a * 2;
        CHECK(a.storage().use_count() == refs + 2); // one handle per leaf
        auto e3 = e2;                               // copying an expression copies handles
        CHECK(a.storage().use_count() == refs + 4);
    }
    CHECK(a.storage().use_count() == refs);
}

TEST_CASE("t7::eval returns a new contiguous tensor of the expression's shape") {
    FloatTensor a(3, 4);
    for (int64_t i = 0; i < 12; ++i) a.data()[i] = float(i);
    FloatTensor r = t7::eval(a.t() * 2);
    CHECK(r.sizes() == Shape{4, 3});
    CHECK(r.isContiguous());
    CHECK(r.storage() != a.storage());
    const auto at_ = values(a.t());
    CHECK(mismatch(r, Shape{4, 3}, [&](int64_t i) { return 2 * at_[size_t(i)]; }) == "");

    FloatTensor same = t7::eval(a); // a tensor alone is an expression too: copied
    CHECK(values(same) == values(a));
    CHECK(same.storage() != a.storage());
    same.fill(0);
    CHECK(at(a, 5) == 5.f);

    FloatTensor row(1, 4), col(3, 1);
    row.fill(1);
    col.fill(2);
    FloatTensor bc = t7::eval(row + col);
    CHECK(bc.sizes() == Shape{3, 4});
    CHECK(bc.isContiguous());
    CHECK(values(bc) == std::vector<float>(12, 3.f));

    ByteTensor mask = t7::eval(a > 5);
    CHECK(mask.sizes() == Shape{3, 4});
    CHECK(at(mask, 5) == 0);
    CHECK(at(mask, 6) == 1);
    FloatTensor s = t7::eval(a(t7::all, t7::slice(0, 4, 2)) + 0);
    CHECK(s.sizes() == Shape{3, 2});
    CHECK(s.isContiguous());
    CHECK(values(s) == std::vector<float>{0, 2, 4, 6, 8, 10});
}

// API.md: "`auto e = a * b + t7::sin(c);` allocates nothing; `FloatTensor y = e;`
// runs one fused loop" -- conversion of an expression into a new tensor.
TEST_CASE("an expression converts to a new tensor (FloatTensor y = e)") {
    FloatTensor a = from<float>({1, 2});
    auto e = a * 2;
    static_assert(std::is_convertible_v<decltype(e), FloatTensor>);
    FloatTensor y = e; // copy-initialisation: a new tensor, one fused pass
    CHECK(values(y) == std::vector<float>{2, 4});
    CHECK(y.sizes() == Shape{2});
    CHECK(y.storage() != a.storage());
    a.fill(5); // y holds values, not the expression
    CHECK(values(y) == std::vector<float>{2, 4});
    t7::DoubleTensor z = a + t7::cast<double>(a) * 0.5; // promotes to double, stored as double
    CHECK(values(z) == std::vector<double>{7.5, 7.5});
}

// ---- assignment semantics
// ------------------------------------------------------------------------

TEST_CASE("b = a copies values into b's memory; it does not rebind") {
    FloatTensor a = from<float>(Shape{2, 3}, {1, 2, 3, 4, 5, 6});
    FloatTensor b(2, 3);
    b.fill(0);
    float* bmem = b.data();
    b = a;
    CHECK(b.data() == bmem);
    CHECK(!b.isSetTo(a));
    CHECK(values(b) == values(a));
    a.fill(9);
    CHECK(values(b) == std::vector<float>{1, 2, 3, 4, 5, 6});

    b = std::move(a); // a move assigns values too
    CHECK(b.data() == bmem);
    CHECK(values(b) == std::vector<float>(6, 9.f));

    // through views, and across types (converted on store)
    FloatTensor x(3, 4);
    x.fill(0);
    FloatTensor src = from<float>(Shape{2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    x.narrow(0, 1, 2) = src;
    CHECK(values(x) == std::vector<float>{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
    IntTensor ix(2, 4);
    ix = src * 1.5f;
    CHECK(values(ix) == std::vector<int32_t>{1, 3, 4, 6, 7, 9, 10, 12});

    // copy construction shares (reference semantics for handles)
    FloatTensor alias(x);
    alias.fill(1);
    CHECK(at(x, 0) == 1.f);
}

TEST_CASE("assigning into an empty tensor allocates with the expression's shape") {
    FloatTensor a(3, 4);
    a.fill(1.5f);
    FloatTensor y;
    REQUIRE(y.dim() == 0);
    y = a;
    CHECK(y.sizes() == Shape{3, 4});
    CHECK(y.storage() != a.storage());
    CHECK(values(y) == std::vector<float>(12, 1.5f));

    FloatTensor yt;
    yt = a.t() + 1;
    CHECK(yt.sizes() == Shape{4, 3});
    CHECK(yt.isContiguous());
    CHECK(values(yt) == std::vector<float>(12, 2.5f));

    FloatTensor row(1, 4), col(3, 1);
    row.fill(1);
    col.fill(2);
    DoubleTensor yb;
    yb = row * col + DoubleTensor(4).fill(0.5);
    CHECK(yb.sizes() == Shape{3, 4});
    CHECK(values(yb) == std::vector<double>(12, 2.5));

    ByteTensor m;
    m = a > 1;
    CHECK(m.sizes() == Shape{3, 4});
    CHECK(values(m) == std::vector<uint8_t>(12, 1));
}

TEST_CASE("a result broadcasts into a larger destination; a non-broadcastable one throws "
          "ShapeError before writing") {
    FloatTensor y(3, 4);
    FloatTensor row = from<float>(Shape{4}, {1, 2, 3, 4});
    FloatTensor col = from<float>(Shape{3, 1}, {10, 20, 30});
    y = row;
    CHECK(values(y) == std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4});
    y = col * 2;
    const std::vector<float> before{20, 20, 20, 20, 40, 40, 40, 40, 60, 60, 60, 60};
    CHECK(values(y) == before);

    // the expression's shape does not fit the destination
    CHECK_THROWS_AS(y.t() = row + 0, t7::ShapeError); // 4 against 4x3's trailing 3
    CHECK_THROWS_AS(y = FloatTensor(4, 3).fill(1), t7::ShapeError);
    CHECK_THROWS_AS(y = FloatTensor(2, 3, 4).fill(1) * 2, t7::ShapeError);
    CHECK_THROWS_AS(y = FloatTensor(3, 2).fill(1) > 0, t7::ShapeError);
    CHECK_THROWS_WITH_AS(y = FloatTensor(4, 3).fill(1) + 1, doctest::Contains("4x3"),
                         t7::ShapeError);
    CHECK_THROWS_WITH_AS(y = FloatTensor(4, 3).fill(1) + 1, doctest::Contains("3x4"),
                         t7::ShapeError);
    CHECK(values(y) == before);

    // operands that do not broadcast together: both shapes named
    FloatTensor a(3, 4), c(5), d(2, 4);
    a.fill(1);
    c.fill(1);
    d.fill(1);
    CHECK_THROWS_WITH_AS(y = a + c, doctest::Contains("3x4"), t7::ShapeError);
    CHECK_THROWS_WITH_AS(y = a + c, doctest::Contains("5"), t7::ShapeError);
    CHECK_THROWS_WITH_AS(y = t7::sin(a) * 2 + d, doctest::Contains("2x4"), t7::ShapeError);
    CHECK_THROWS_AS(y = t7::where(a > 0, c, a), t7::ShapeError);
    CHECK_THROWS_AS(y = t7::clamp(a, c, 2), t7::ShapeError);
    CHECK_THROWS_AS(y = t7::map([](float u, float v) { return u + v; }, a, c), t7::ShapeError);
    CHECK(values(y) == before);
    CHECK_THROWS_AS(t7::eval(a * c), t7::ShapeError);
    FloatTensor empty;
    CHECK_THROWS_AS(empty = a - c, t7::ShapeError);
    CHECK(empty.dim() == 0);

    // a large destination through a strided view is untouched too
    FloatTensor big(301, 257);
    big.fill(7);
    FloatTensor other(257, 300);
    other.fill(1);
    CHECK_THROWS_AS(big.t() = other + 1, t7::ShapeError);
    CHECK_THROWS_AS(big = other.t() * 2, t7::ShapeError);
    CHECK(values(big) == std::vector<float>(301 * 257, 7.f));
}

TEST_CASE_TEMPLATE("b = scalar fills, through views too", T, T7_ALL_TYPES) {
    Tensor<T> b(3, 4);
    b = 3.5;
    const T f = T(3.5); // integers: 3
    CHECK(values(b) == std::vector<T>(12, f));
    b.narrow(0, 1, 2) = 1;
    b.t().narrow(0, 0, 1) = 2; // column 0
    CHECK(values(b) == std::vector<T>{2, f, f, f, 2, 1, 1, 1, 2, 1, 1, 1});
    b(t7::all, t7::slice(1, 4, 2)) = 0;
    CHECK(values(b) == std::vector<T>{2, 0, f, 0, 2, 0, 1, 0, 2, 0, 1, 0});
}

TEST_CASE("storing a floating expression into an integer tensor truncates like Torch7") {
    FloatTensor f = from<float>({2.7f, -2.7f, 0.5f, -0.5f, 1000.9f, -1000.9f, 255.5f, 300.25f});
    IntTensor i(8);
    i = f * 1.f;
    CHECK(values(i) == std::vector<int32_t>{2, -2, 0, 0, 1000, -1000, 255, 300});
    ByteTensor u(8);
    u = f + 0.f; // modulo 2^8 after truncation: -2.7 -> 254
    CHECK(values(u) == std::vector<uint8_t>{2, 254, 0, 0, 232, 24, 255, 44});
    CharTensor c(8);
    c = t7::cast<double>(f) * 1.0;
    CHECK(values(c) == std::vector<int8_t>{2, -2, 0, 0, -24, 24, -1, 44});
    LongTensor l(8);
    l = f;
    CHECK(values(l) == std::vector<int64_t>{2, -2, 0, 0, 1000, -1000, 255, 300});
    // explicit cast does the same
    CHECK(values(t7::eval(t7::cast<int32_t>(f))) == values(i));
    CHECK(values(t7::eval(t7::cast<uint8_t>(f))) == values(u));

    // through a transposed destination, a large one (threaded), and double -> float rounding
    std::mt19937 rng(2);
    FloatTensor big(301, 257);
    fill_random(big, rng, -100, 100, 0);
    IntTensor it(257, 301);
    it.t() = big * 2;
    const auto bigv = values(big);
    CHECK(mismatch(it.t(), big.sizes(),
                   [&](int64_t k) { return int32_t(std::trunc(bigv[size_t(k)] * 2.f)); }) == "");
    DoubleTensor dd = from<double>({0.1, 1.0 / 3.0});
    FloatTensor fd(2);
    fd = dd * 1;
    CHECK(values(fd) == std::vector<float>{0.1f, float(1.0 / 3.0)});
    // NaN into an integer becomes 0 rather than undefined behaviour
    FloatTensor nanv(3);
    nanv.fill(std::numeric_limits<float>::quiet_NaN());
    IntTensor in(3);
    in = nanv * 1;
    CHECK(values(in) == std::vector<int32_t>{0, 0, 0});
}

TEST_CASE("where, cast and map over mixed types") {
    FloatTensor a = from<float>(Shape{2, 3}, {-1.5f, 2.5f, 0.f, 3.25f, -4.f, 5.f});
    IntTensor n = from<int32_t>(Shape{2, 3}, {1, 2, 3, 4, 5, 6});
    ByteTensor m = from<uint8_t>(Shape{2, 3}, {0, 1, 2, 255, 0, 7});
    CHECK(values(t7::eval(t7::where(m, a, n))) == std::vector<float>{1, 2.5f, 0, 3.25f, 5, 5});
    CHECK(values(t7::eval(t7::where(a, n, 0))) == std::vector<int32_t>{1, 2, 0, 4, 5, 6});
    CHECK(values(t7::eval(t7::where(a > 0, a, -a))) ==
          std::vector<float>{1.5f, 2.5f, 0.f, 3.25f, 4.f, 5.f});
    // where(mask, row, column): all three broadcast
    FloatTensor row = from<float>(Shape{3}, {1, 2, 3});
    FloatTensor col = from<float>(Shape{2, 1}, {10, 20});
    CHECK(values(t7::eval(t7::where(m, row, col))) == std::vector<float>{10, 2, 3, 1, 20, 3});

    // map: any arity, mixed operand types (passed as they are), a capturing functor
    float k = 0.5f;
    auto g = [k](int32_t i, float x) { return double(i) * x + k; };
    DoubleTensor r = t7::eval(t7::map(g, n, a));
    CHECK(values(r) == std::vector<double>{-1, 5.5, 0.5, 13.5, -19.5, 30.5});
    CHECK(values(t7::eval(t7::map(
              [](uint8_t mm, int32_t i, float x, double y) { return mm ? float(i + y) : x; }, m, n,
              a, r))) == std::vector<float>{-1.5f, 7.5f, 3.5f, 17.5f, -4.f, 36.5f});
    // map composes with other nodes and broadcasting
    CHECK(values(t7::eval(t7::map([](float x, float y) { return x * y; }, row, col) + 1)) ==
          std::vector<float>{11, 21, 31, 21, 41, 61});
    // map results are stored with conversion
    IntTensor ni(2, 3);
    ni = t7::map([](float x) { return x * 2; }, a);
    CHECK(values(ni) == std::vector<int32_t>{-3, 5, 0, 6, -8, 10});

    // cast decides the computation type
    CHECK(values(t7::eval(n / 4)) == std::vector<int32_t>{0, 0, 0, 1, 1, 1});
    CHECK(values(t7::eval(t7::cast<float>(n) / 4)) ==
          std::vector<float>{0.25f, 0.5f, 0.75f, 1.f, 1.25f, 1.5f});
    CHECK(values(t7::eval(t7::cast<uint8_t>(a))) == std::vector<uint8_t>{255, 2, 0, 3, 252, 5});
    CHECK(values(t7::eval(t7::cast<int8_t>(n * 100))) ==
          std::vector<int8_t>{100, -56, 44, -112, -12, 88});
}

// ---- blocks of rows (iter::for_each_run_rows, the planned assignment's walk)
// ------------------------------------------------------------

TEST_CASE("for_each_run_rows visits each element of any sub-range once, in loop order") {
    // Three operands over 3 x 4 x 5 (one broadcast along the middle dimension,
    // one transposed), walked over every range [b, e) of every split.
    const Shape sizes{3, 4, 5};
    const Shape s0{20, 5, 1}, s1{5, 0, 1}, s2{1, 3, 12};
    const auto L = t7::iter::make_loop<3>(sizes, {&s0, &s1, &s2}, false);
    REQUIRE(L.rank() == 3);
    using Offs = std::array<int64_t, 3>;
    auto expand = [&](int64_t b, int64_t e, bool by_rows) {
        std::vector<Offs> got;
        auto one = [&](const Offs& off, int64_t n) {
            for (int64_t i = 0; i < n; ++i)
                got.push_back({off[0] + i * L.inner_stride(0), off[1] + i * L.inner_stride(1),
                               off[2] + i * L.inner_stride(2)});
        };
        if (!by_rows) {
            t7::iter::for_each_run(L, b, e, one);
            return got;
        }
        int64_t calls = 0;
        t7::iter::for_each_run_rows(L, b, e, [&](const Offs& off, int64_t n, int64_t rows) {
            ++calls;
            CHECK(rows >= 1);
            CHECK((rows == 1 || n == L.inner_size())); // several rows are whole rows
            for (int64_t j = 0; j < rows; ++j)
                one({off[0] + j * L.strides[0][1], off[1] + j * L.strides[1][1],
                     off[2] + j * L.strides[2][1]},
                    n);
        });
        if (b == 0 && e == L.numel) CHECK(calls == 3); // one call per block of 4 rows
        return got;
    };
    for (int64_t b = 0; b <= L.numel; ++b)
        for (int64_t e = b; e <= L.numel; ++e) {
            CAPTURE(b);
            CAPTURE(e);
            REQUIRE(expand(b, e, true) == expand(b, e, false));
        }
}

TEST_CASE("short broadcast rows assigned in blocks of rows, on one to three threads") {
    // 2000 x 37 (above the thread grain): a row vector, a column and a narrowed
    // matrix, against a naive loop; the threads' ranges split rows.
    struct Restore {
        int n = t7::getNumThreads();
        ~Restore() { t7::setNumThreads(n); }
    } restore;
    FloatTensor a(2000, 40), r(1, 37), c(2000, 1);
    std::mt19937 rng(5);
    fill_random(a, rng, -2, 2, 0);
    fill_random(r, rng, -2, 2, 0);
    fill_random(c, rng, -2, 2, 0);
    const FloatTensor an = a.narrow(1, 2, 37);
    for (int threads = 1; threads <= 3; ++threads) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        FloatTensor y(2000, 37);
        y = an * r + c;
        for (int64_t i = 0; i < 2000; ++i)
            for (int64_t j = 0; j < 37; ++j) REQUIRE(y(i, j) == an(i, j) * r(0, j) + c(i, 0));
    }
}

// Assignments whose leaves are rows, columns or blocks of rows of a contiguous
// destination run by rows without a loop plan (detail::rows_and_separate): the
// values of a plain loop for each layout on 1-3 threads, into the destination's
// own memory; the general path's answers where the front declines (a leaf
// overlapping the destination, a strided destination, shapes that do not
// broadcast).
TEST_CASE("assignments by rows: broadcast rows and columns, blocks of rows, scalars") {
    const int saved = t7::getNumThreads();
    auto at = [](int64_t i, int64_t j) { return float((i * 7 + j * 3) % 11) - 4.f; };
    for (int64_t m : {1, 3, 37, 300}) {
        for (int64_t n : {1, 5, 16, 33, 257}) {
            CAPTURE(m);
            CAPTURE(n);
            FloatTensor x(m, n), wide(m, 2 * n), r(n), c(m, 1), s(1, 1);
            IntTensor ri(1, n);
            const FloatTensor block = wide.narrow(1, 1, n); // rows 2n apart
            for (int64_t i = 0; i < m; ++i) {
                c.data()[i] = float(i % 5) - 2.f;
                for (int64_t j = 0; j < n; ++j) {
                    x.data()[i * n + j] = at(i, j);
                    wide.data()[i * 2 * n + j + 1] = at(j, i);
                }
            }
            for (int64_t j = 0; j < n; ++j) {
                r.data()[j] = float(j % 3) + 0.5f;
                ri.data()[j] = int32_t(j % 4) - 1;
            }
            s.data()[0] = 1.25f;
            for (int threads : {1, 2, 3}) {
                t7::setNumThreads(threads);
                FloatTensor y(m, n);
                const float* memory = y.data();
                auto expect = [&](auto f) {
                    bool ok = true;
                    for (int64_t i = 0; i < m; ++i)
                        for (int64_t j = 0; j < n; ++j) ok = ok && y.data()[i * n + j] == f(i, j);
                    return ok;
                };
                y = x * r + c; // a row and a column
                CHECK(expect(
                    [&](int64_t i, int64_t j) { return at(i, j) * r.data()[j] + c.data()[i]; }));
                y = block * 2.f - s; // a block of rows, a one-element tensor
                CHECK(expect([&](int64_t i, int64_t j) { return at(j, i) * 2.f - 1.25f; }));
                y = c + t7::cast<float>(ri) * block; // an int32 row, converted
                CHECK(expect([&](int64_t i, int64_t j) {
                    return c.data()[i] + float(ri.data()[j]) * at(j, i);
                }));
                y = y * r; // the destination itself and a row
                CHECK(expect([&](int64_t i, int64_t j) {
                    return (c.data()[i] + float(ri.data()[j]) * at(j, i)) * r.data()[j];
                }));
                CHECK(y.data() == memory);
            }
            // A row of the destination itself: read before any row is written.
            FloatTensor y = x.clone();
            y = y * y.narrow(0, m - 1, 1);
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j)
                    CHECK(y.data()[i * n + j] == at(i, j) * at(m - 1, j));
            // A strided destination (the general path), the same values.
            wide.narrow(1, 0, n) = x * r + c;
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j)
                    CHECK(wide.data()[i * 2 * n + j] == at(i, j) * r.data()[j] + c.data()[i]);
        }
    }
    t7::setNumThreads(saved);

    // 3-D: a column per outer index ([k, m, 1]) and a row ([n]) by rows; a
    // matrix broadcast over the outer index takes the planned loop.
    FloatTensor a(2, 3, 4), col(2, 3, 1), mat(3, 4);
    for (int64_t i = 0; i < 24; ++i) a.data()[i] = float(i);
    for (int64_t i = 0; i < 6; ++i) col.data()[i] = float(10 * i);
    for (int64_t i = 0; i < 12; ++i) mat.data()[i] = float(100 * i);
    FloatTensor y3(2, 3, 4);
    y3 = a + col;
    CHECK(values(y3.select(0, 1).select(0, 2)) == std::vector<float>{70, 71, 72, 73});
    y3 = a + mat;
    CHECK(values(y3.select(0, 1).select(0, 2)) == std::vector<float>{820, 921, 1022, 1123});

    // Errors leave the destination as it was.
    FloatTensor y(3, 4);
    y.fill(9);
    CHECK_THROWS_AS(y = FloatTensor(3, 4) * FloatTensor(5), t7::ShapeError);
    IntTensor yi(3, 4), num(3, 4), den(4);
    yi.fill(9);
    num.fill(8);
    den.fill(2);
    den.data()[3] = 0;
    CHECK_THROWS_AS(yi = num / den, t7::Error);
    CHECK(values(y) == std::vector<float>(12, 9.f));
    CHECK(values(yi) == std::vector<int32_t>(12, 9));
    den.data()[3] = 4;
    yi = num / den;
    CHECK(values(yi.select(0, 2)) == std::vector<int32_t>{4, 4, 4, 2});
}

// The thread decision weighs an expression's work per element (expr/cost.hpp:
// a byte per tensor element read or written, 1 per simple operation, 4 per
// division, 32 per transcendental function or user functor): a chunk of a
// thread team holds at least iter::chunk_work units.
TEST_CASE("expression cost per element and the elements a thread's chunk needs") {
    FloatTensor a(4), b(4), c(4), d(4);
    DoubleTensor x(4);
    using W3 = decltype(a * b + c * d - a / (b + 1));
    CHECK(t7::expr_cost<W3> == 6 * 4 + 5 + 4); // six float leaves, five simple ops, a division
    CHECK(t7::expr_cost<decltype(t7::sin(x) * 2.0)> == 8 + 32 + 1);
    CHECK(t7::expr_cost<decltype(t7::map([](float v) { return v; }, a))> == 4 + 32);
    CHECK(t7::iter::grain_for(8) == t7::iter::chunk_work / 8);
    CHECK(t7::iter::grain_for(0) == t7::iter::chunk_work);
    CHECK(t7::iter::grain_for(t7::iter::chunk_work * 4) == 1);
    // A user functor (32) of a float into a float (4 + 4): 40 units per
    // element. Below two chunks' worth the loop stays on the calling thread;
    // from two chunks, with two threads, it is handed to the thread pool
    // (detail::threaded_loops counts those loops). The values are the same.
    const int saved = t7::getNumThreads();
    t7::setNumThreads(2);
    const int64_t grain = t7::iter::grain_for(40);
    for (int64_t n : {2 * grain - 1, 2 * grain}) {
        CAPTURE(n);
        FloatTensor in(n), out(n);
        for (int64_t i = 0; i < n; ++i) in.data()[i] = float(i % 13);
        const uint64_t loops = t7::detail::threaded_loops();
        out = t7::map([](float v) { return v * 2; }, in);
        CHECK(t7::detail::threaded_loops() - loops == (n < 2 * grain ? 0u : 1u));
        bool same = true;
        for (int64_t i = 0; i < n; ++i) same = same && out.data()[i] == float(i % 13) * 2;
        CHECK(same);
    }
    t7::setNumThreads(saved);
}

// ---- the CPU loop's peeled head (eval/cpu/assign.hpp)
// -----------------------------------------------------------------

// A destination that starts k elements past a 64-byte boundary is written one
// element at a time up to its first packet-aligned address, then by packets,
// then the tail: every element once, each the plain loop's value, for every k,
// lengths around the 8-packet threshold, unit-stride and broadcast leaves.
TEST_CASE("assignment into memory at every element offset: peeled head, packets, tail") {
    for (int64_t n : {1, 7, 63, 64, 127, 128, 129, 200, 1000}) {
        std::vector<float> a(n + 16), b(n + 16), out(n + 32);
        for (int64_t i = 0; i < n + 16; ++i) {
            a[size_t(i)] = float(i % 13) - 6.f;
            b[size_t(i)] = float(i % 7) + 1.f;
        }
        float row[1] = {0.5f};
        for (int64_t k = 0; k < 16; ++k) {
            CAPTURE(n);
            CAPTURE(k);
            // out's memory: aligned to 64 bytes by hand, then k floats on
            float* base =
                reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(out.data()) + 63) / 64 * 64);
            std::fill(base, base + n + 16, -99.f);
            FloatTensor y = t7::fromBlob(base + k, {n});
            const FloatTensor x = t7::fromBlob(a.data() + k, {n});
            const FloatTensor z = t7::fromBlob(b.data(), {n});
            const FloatTensor s = t7::fromBlob(row, {1});
            y = x * z + x / (z + 1); // unit-stride leaves
            bool ok = true;
            for (int64_t i = 0; i < n; ++i) {
                const float xv = a[size_t(i + k)], zv = b[size_t(i)];
                ok = ok && base[k + i] == xv * zv + xv / (zv + 1);
            }
            CHECK(ok);
            y = x * s - z; // a broadcast leaf: the packets' other kind
            for (int64_t i = 0; i < n; ++i)
                ok = ok && base[k + i] == a[size_t(i + k)] * 0.5f - b[size_t(i)];
            CHECK(ok);
            bool untouched = true; // nothing written outside y
            for (int64_t i = 0; i < k; ++i) untouched = untouched && base[i] == -99.f;
            for (int64_t i = k + n; i < n + 16; ++i) untouched = untouched && base[i] == -99.f;
            CHECK(untouched);
        }
    }
}
