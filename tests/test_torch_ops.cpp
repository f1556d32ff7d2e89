// Issue 14: bitwise expressions and Torch7's bitwise methods, Torch7's component
// methods pairing operands in layout order, and the small tensor utilities
// (equal, reshape, elementSize, csub(v), lerp with a scalar weight,
// serializeToStorage / deserializeFromStorage, cat of an empty list).
// Expected values are written by hand or computed by plain loops.
#include "test_util.hpp"

#include <cstdint>
#include <limits>
#include <vector>

using namespace t7;
using namespace test_util;

namespace {

template <class T>
std::vector<T> vec(const Tensor<T>& t) {
    std::vector<T> v;
    for_each_offset(t, [&](int64_t, int64_t off) { v.push_back(t.data()[off]); });
    return v;
}

// A tensor of the given values (layout order) in the given shape.
template <class T>
Tensor<T> make(const Shape& sizes, const std::vector<T>& v) {
    Tensor<T> t(sizes);
    REQUIRE(int64_t(v.size()) == t.nElement());
    for_each_offset(t, [&](int64_t n, int64_t off) { t.data()[off] = v[size_t(n)]; });
    return t;
}

// Floating operands are refused at compile time (the operators' constraint
// names BitwiseOperands; the methods require an integer element type).
template <class A, class B>
concept HasAnd = requires(A a, B b) {
    a& b;
};
template <class A, class B>
concept HasShift = requires(A a, B b) {
    a << b;
};
template <class A>
concept HasNot = requires(A a) {
    ~a;
};
template <class A>
concept HasLshift = requires(A a) {
    a.lshift(1);
};
template <class A, class B>
concept HasCbitand = requires(A a, B b) {
    a.cbitand(b);
};

static_assert(HasAnd<IntTensor, IntTensor> && HasAnd<ByteTensor, int> && HasAnd<int, LongTensor>);
static_assert(!HasAnd<FloatTensor, IntTensor> && !HasAnd<IntTensor, DoubleTensor>);
static_assert(!HasAnd<IntTensor, double> && !HasAnd<FloatTensor, int>);
static_assert(HasShift<IntTensor, int> && !HasShift<FloatTensor, int> &&
              !HasShift<IntTensor, float>);
static_assert(HasNot<ShortTensor> && !HasNot<DoubleTensor>);
static_assert(HasLshift<IntTensor> && !HasLshift<FloatTensor>);
static_assert(HasCbitand<IntTensor, IntTensor> && !HasCbitand<DoubleTensor, DoubleTensor>);

} // namespace

// ---------------------------------------------------------------------------------
// 1. bitwise expressions
// ---------------------------------------------------------------------------------

TEST_CASE("bitwise: & | ^ ~ between integer tensors and scalars, against a loop") {
    const std::vector<int32_t> av = {
        0, 1, -1, 0x7fffffff, std::numeric_limits<int32_t>::min(), 12345, -98765, 0xff};
    const std::vector<int32_t> bv = {3, 3, 0x0f0f, -2, -1, 0xff00, 7, 0x80};
    IntTensor a = make<int32_t>({2, 4}, av), b = make<int32_t>({2, 4}, bv);
    IntTensor x = a & b, o = a | b, e = a ^ b, n = ~a, s = 0xf0 & a, t = a ^ -1;
    CHECK(x.sizes() == Shape{2, 4});
    for (size_t i = 0; i < av.size(); ++i) {
        CAPTURE(i);
        CHECK(vec(x)[i] == (av[i] & bv[i]));
        CHECK(vec(o)[i] == (av[i] | bv[i]));
        CHECK(vec(e)[i] == (av[i] ^ bv[i]));
        CHECK(vec(n)[i] == ~av[i]);
        CHECK(vec(s)[i] == (0xf0 & av[i]));
        CHECK(vec(t)[i] == ~av[i]);
    }
    // uint8 stays uint8: ~ flips the eight bits
    ByteTensor u = make<uint8_t>({3}, {0, 0x0f, 0xff});
    ByteTensor nu = ~u;
    CHECK(vec(nu) == std::vector<uint8_t>{0xff, 0xf0, 0});
    // mixed types promote as the arithmetic operators do: uint8 & int16 is int16
    ShortTensor sh = make<int16_t>({3}, {-1, 0x100, 0x0f});
    auto mixed = u & sh;
    static_assert(std::is_same_v<decltype(mixed)::value_type, int16_t>);
    ShortTensor m = mixed;
    CHECK(vec(m) == std::vector<int16_t>{0, 0, 0x0f});
}

TEST_CASE("bitwise: nodes fuse with arithmetic, broadcast and read views") {
    LongTensor a =
        make<int64_t>({3, 4}, {1000, -7, 513, 255, 256, 65535, -1, 0, 99, 4096, -300, 77});
    LongTensor b = make<int64_t>({4, 3}, {9, 8, -16, 1023, 4, 12, -9, 100, 5, 3, 64, -128});
    LongTensor bt = b.t(); // 3x4, transposed strides
    LongTensor y = (a & 0xff) + (bt >> 2);
    LongTensor row = make<int64_t>({4}, {1, 2, 4, 8});
    LongTensor z = (a | row) * 2 - (~a ^ row);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) {
            CAPTURE(i);
            CAPTURE(j);
            const int64_t av = a(i, j), bv = b(j, i), rv = row(j);
            CHECK(y(i, j) == (av & 0xff) + (bv >> 2));
            CHECK(z(i, j) == (av | rv) * 2 - (~av ^ rv));
        }
    // a view as destination: only the narrowed columns change
    LongTensor w = zeros<int64_t>(3, 4);
    w.narrow(1, 1, 2) = a.narrow(1, 1, 2) ^ 1;
    for (int64_t i = 0; i < 3; ++i) {
        CHECK(w(i, 0) == 0);
        CHECK(w(i, 1) == (a(i, 1) ^ 1));
        CHECK(w(i, 2) == (a(i, 2) ^ 1));
        CHECK(w(i, 3) == 0);
    }
    // reductions consume bitwise trees
    CHECK(t7::sum(a & 1) == 7); // the odd ones: -7 513 255 65535 -1 99 77
}

TEST_CASE("bitwise: uint8 masks combine with & | ^ and t7::all / indexing still work") {
    FloatTensor a = make<float>({2, 3}, {1, -2, 3, 0, 5, -6});
    FloatTensor b = make<float>({2, 3}, {1, 1, -1, 1, 0, -1});
    ByteTensor both = (a > 0) & (b > 0);
    ByteTensor either = (a > 0) | (b > 0);
    ByteTensor one = (a > 0) ^ (b > 0);
    CHECK(vec(both) == std::vector<uint8_t>{1, 0, 0, 0, 0, 0});
    CHECK(vec(either) == std::vector<uint8_t>{1, 1, 1, 1, 1, 0});
    CHECK(vec(one) == std::vector<uint8_t>{0, 1, 1, 1, 1, 0});
    CHECK(t7::all(((a > 0) | (a <= 0)) == 1));
    CHECK_FALSE(t7::all((a > 0) & (b > 0)));
    CHECK(t7::any((a > 0) & (b > 0)));
    FloatTensor col = a(t7::all, 1); // t7::all as an index is untouched
    CHECK(vec(col) == std::vector<float>{-2, 5});
    FloatTensor picked = a.maskedSelect((a > 0) & (b > 0));
    CHECK(vec(picked) == std::vector<float>{1});
    FloatTensor w = t7::where((a > 0) & (b > 0), a, 0.0f);
    CHECK(vec(w) == std::vector<float>{1, 0, 0, 0, 0, 0});
}

TEST_CASE("shifts: defined for negative values and amounts of the bit width or more") {
    CharTensor c = make<int8_t>({5}, {-1, 0x40, 1, -128, 0x7f});
    CharTensor l = c << 1, r = c >> 1;
    CHECK(vec(l) == std::vector<int8_t>{-2, -128, 2, 0, -2});     // on the unsigned bits
    CHECK(vec(r) == std::vector<int8_t>{-1, 0x20, 0, -64, 0x3f}); // arithmetic
    IntTensor i = make<int32_t>({4}, {-5, 5, std::numeric_limits<int32_t>::min(), 1});
    IntTensor r1 = i >> 1;
    CHECK(vec(r1) == std::vector<int32_t>{-3, 2, -(1 << 30), 0}); // floor(x / 2)
    IntTensor l31 = i << 31;
    CHECK(vec(l31) == std::vector<int32_t>{std::numeric_limits<int32_t>::min(),
                                           std::numeric_limits<int32_t>::min(), 0,
                                           std::numeric_limits<int32_t>::min()});
    for (int amount : {32, 33, 64, 1000}) {
        CAPTURE(amount);
        IntTensor big_l = i << amount, big_r = i >> amount;
        CHECK(vec(big_l) == std::vector<int32_t>{0, 0, 0, 0});
        CHECK(vec(big_r) == std::vector<int32_t>{-1, 0, -1, 0}); // the sign
    }
    // a scalar amount keeps its value: 256 is not converted to uint8 0
    ByteTensor u = make<uint8_t>({3}, {1, 0x81, 0xff});
    ByteTensor u256 = u << 256, u7 = u << 7, ur = u >> 7;
    CHECK(vec(u256) == std::vector<uint8_t>{0, 0, 0});
    CHECK(vec(u7) == std::vector<uint8_t>{0x80, 0x80, 0x80});
    CHECK(vec(ur) == std::vector<uint8_t>{0, 1, 1});
    LongTensor one = make<int64_t>({1}, {1});
    LongTensor top = one << 63;
    CHECK(top(0) == std::numeric_limits<int64_t>::min());
    // amounts from a tensor, and a scalar shifted by a tensor
    IntTensor x = make<int32_t>({6}, {3, -3, 3, -3, 7, 1});
    IntTensor n = make<int32_t>({6}, {0, 1, 31, 31, 32, 100});
    IntTensor xl = x << n, xr = x >> n, pow2 = 1 << n;
    CHECK(vec(xl) == std::vector<int32_t>{3, -6, std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int32_t>::min(), 0, 0});
    CHECK(vec(xr) == std::vector<int32_t>{3, -2, 0, -1, 0, 0});
    CHECK(vec(pow2) == std::vector<int32_t>{1, 2, std::numeric_limits<int32_t>::min(),
                                            std::numeric_limits<int32_t>::min(), 0, 0});
    // unsigned amounts beside a signed tensor (uint8 and int32 promote to int32)
    ByteTensor nb = make<uint8_t>({6}, {0, 1, 2, 3, 4, 200});
    IntTensor xb = x >> nb;
    CHECK(vec(xb) == std::vector<int32_t>{3, -2, 0, -1, 0, 0});
}

TEST_CASE("shifts: a negative amount throws Error before anything is written") {
    IntTensor x = make<int32_t>({4}, {1, 2, 3, 4});
    CHECK_THROWS_WITH_AS(x << -1, doctest::Contains("negative shift amount -1"), t7::Error);
    CHECK_THROWS_WITH_AS(x >> -3, doctest::Contains("rshift"), t7::Error);
    IntTensor n = make<int32_t>({4}, {0, 1, -2, 3});
    IntTensor y = make<int32_t>({4}, {9, 9, 9, 9});
    CHECK_THROWS_WITH_AS(y = x << n, doctest::Contains("lshift: negative shift amount"), t7::Error);
    CHECK_THROWS_WITH_AS(y = (x >> n) + 1, doctest::Contains("rshift: negative shift amount"),
                         t7::Error);
    CHECK(vec(y) == std::vector<int32_t>{9, 9, 9, 9});
    CHECK_THROWS_AS(y += x << n, t7::Error);
    CHECK(vec(y) == std::vector<int32_t>{9, 9, 9, 9});
    CHECK_THROWS_AS(t7::sum(x << n), t7::Error);
    CHECK_THROWS_AS(x.lshift(-1), t7::Error);
    CHECK_THROWS_AS(x.rshift(-1), t7::Error);
    CHECK(vec(x) == std::vector<int32_t>{1, 2, 3, 4});
    // an empty destination is not allocated either
    IntTensor fresh;
    CHECK_THROWS_AS(fresh = x << n, t7::Error);
    CHECK(fresh.dim() == 0);
}

TEST_CASE("bitwise methods: lshift rshift cbitand cbitor cbitxor, in place") {
    IntTensor x = make<int32_t>({2, 3}, {1, 2, 3, -4, 5, -6});
    CHECK(&x.lshift(2) == &x);
    CHECK(vec(x) == std::vector<int32_t>{4, 8, 12, -16, 20, -24});
    x.rshift(3);
    CHECK(vec(x) == std::vector<int32_t>{0, 1, 1, -2, 2, -3});
    x.rshift(40);
    CHECK(vec(x) == std::vector<int32_t>{0, 0, 0, -1, 0, -1});

    IntTensor a = make<int32_t>({2, 3}, {0xf0, 0x0f, 0xff, 1, 2, 3});
    IntTensor m = make<int32_t>({2, 3}, {0x3c, 0x3c, 0x3c, 3, 3, 3});
    IntTensor t = a.clone();
    t.cbitand(m);
    CHECK(vec(t) == std::vector<int32_t>{0x30, 0x0c, 0x3c, 1, 2, 3});
    t = a;
    t.cbitor(m);
    CHECK(vec(t) == std::vector<int32_t>{0xfc, 0x3f, 0xff, 3, 3, 3});
    t = a;
    t.cbitxor(m);
    CHECK(vec(t) == std::vector<int32_t>{0xcc, 0x33, 0xc3, 2, 1, 0});
    // Torch7: the same element count in another shape pairs in layout order
    IntTensor m32 = make<int32_t>({3, 2}, {0x3c, 0x3c, 0x3c, 3, 3, 3});
    t = a;
    t.cbitxor(m32);
    CHECK(vec(t) == std::vector<int32_t>{0xcc, 0x33, 0xc3, 2, 1, 0});
    CHECK(t.sizes() == Shape{2, 3});
    // a row broadcasts (the operators' rule)
    t = a;
    t.cbitand(make<int32_t>({3}, {1, 1, 1}));
    CHECK(vec(t) == std::vector<int32_t>{0, 1, 1, 1, 0, 1});
    CHECK_THROWS_AS(t.cbitand(make<int32_t>({4}, {1, 1, 1, 1})), ShapeError);
    // bytes: masks updated in place
    ByteTensor mask = make<uint8_t>({4}, {1, 1, 0, 0});
    mask.cbitxor(make<uint8_t>({2, 2}, {1, 0, 1, 0}));
    CHECK(vec(mask) == std::vector<uint8_t>{0, 1, 1, 0});
}

// ---------------------------------------------------------------------------------
// 2. Torch7's component methods
// ---------------------------------------------------------------------------------

TEST_CASE("component methods: Torch7's values, same shape") {
    // x = torch.Tensor(2, 2):fill(2); y = torch.Tensor(4):fill(3); x:add(y) -> 5 5 / 5 5
    DoubleTensor x(2, 2), y(4);
    x.fill(2);
    y.fill(3);
    x.add(y);
    CHECK(values(x) == Values{5, 5, 5, 5});
    CHECK(x.sizes() == Shape{2, 2});
    // x:add(2, y): x + 2 * y = 5 + 6
    x.add(2, y);
    CHECK(values(x) == Values{11, 11, 11, 11});
    // x:add(v)
    x.add(-1);
    CHECK(values(x) == Values{10, 10, 10, 10});
    // x:mul(2), x:div(4)
    x.mul(2);
    CHECK(values(x) == Values{20, 20, 20, 20});
    x.div(4);
    CHECK(values(x) == Values{5, 5, 5, 5});
    // x:csub(v) and x:csub(t)
    x.csub(1.5);
    CHECK(values(x) == Values{3.5, 3.5, 3.5, 3.5});
    DoubleTensor s = seq({2, 2});
    x.csub(s);
    CHECK(values(x) == Values{2.5, 1.5, 0.5, -0.5});

    // x = torch.Tensor(2, 2):fill(2); y = torch.Tensor(4):fill(3); x:cmul(y) -> 6
    DoubleTensor c(2, 2), d(4);
    c.fill(2);
    d.fill(3);
    c.cmul(d);
    CHECK(values(c) == Values{6, 6, 6, 6});
    // x:cdiv(y) -> 2
    c.cdiv(d);
    CHECK(values(c) == Values{2, 2, 2, 2});

    // x = torch.Tensor(2, 2):fill(2); y = torch.Tensor(4):fill(3); z = torch.Tensor(2, 2):fill(5)
    // x:addcmul(2, y, z) -> 32; x:addcdiv(2, y, z) from 2 -> 3.2
    DoubleTensor p(2, 2), q(4), r(2, 2);
    p.fill(2);
    q.fill(3);
    r.fill(5);
    p.addcmul(2, q, r);
    CHECK(values(p) == Values{32, 32, 32, 32});
    p.fill(2);
    p.addcdiv(2, q, r);
    for (double v : values(p)) CHECK(v == doctest::Approx(3.2));

    // integer tensors
    IntTensor i = make<int32_t>({3}, {7, -7, 9});
    i.cdiv(make<int32_t>({3}, {2, 2, -4}));
    CHECK(vec(i) == std::vector<int32_t>{3, -3, -2});
}

TEST_CASE("component methods: other shapes of the same element count pair in layout order") {
    // a 3x2 x:cmul(y) by a 2x3 y multiplies element by element in layout order
    DoubleTensor x = seq({3, 2}), y = seq({2, 3}, 10);
    x.cmul(y);
    CHECK(x.sizes() == Shape{3, 2});
    CHECK(values(x) == Values{10, 22, 36, 52, 70, 90});

    // every method, against a loop over layout order
    const Values xv = {1, 2, 3, 4, 5, 6}, bv = {6, 5, 4, 3, 2, 1}, cv = {2, 4, 8, 2, 4, 8};
    auto fresh = [&] { return make<double>({3, 2}, xv); };
    auto b23 = [&] { return make<double>({2, 3}, std::vector<double>(bv.begin(), bv.end())); };
    auto c6 = [&] { return make<double>({6}, std::vector<double>(cv.begin(), cv.end())); };
    DoubleTensor t;
    t = DoubleTensor();
    t.set(fresh());
    t.add(b23());
    for (size_t k = 0; k < 6; ++k) CHECK(values(t)[k] == xv[k] + bv[k]);
    t.set(fresh());
    t.add(3, b23());
    for (size_t k = 0; k < 6; ++k) CHECK(values(t)[k] == xv[k] + 3 * bv[k]);
    t.set(fresh());
    t.csub(b23());
    for (size_t k = 0; k < 6; ++k) CHECK(values(t)[k] == xv[k] - bv[k]);
    t.set(fresh());
    t.cdiv(c6());
    for (size_t k = 0; k < 6; ++k) CHECK(values(t)[k] == xv[k] / cv[k]);
    t.set(fresh());
    t.addcmul(0.5, b23(), c6());
    for (size_t k = 0; k < 6; ++k) CHECK(values(t)[k] == xv[k] + 0.5 * bv[k] * cv[k]);
    t.set(fresh());
    t.addcdiv(2, b23(), c6());
    for (size_t k = 0; k < 6; ++k)
        CHECK(values(t)[k] == doctest::Approx(xv[k] + 2 * bv[k] / cv[k]));

    // non-contiguous operands and destinations: layout order of each
    DoubleTensor base = seq({3, 2});       // 1 2 / 3 4 / 5 6
    DoubleTensor bt = base.t();            // 2x3: 1 3 5 / 2 4 6
    DoubleTensor dst = seq({2, 3}, 0).t(); // 3x2 view: 0 3 / 1 4 / 2 5
    dst.cmul(bt);                          // pairs 0*1 3*3 1*5 4*2 2*4 5*6
    CHECK(values(dst) == Values{0, 9, 5, 8, 8, 30});
    // an expression operand of another shape
    DoubleTensor e = seq({6});
    e.add(seq({2, 3}) * 2);
    CHECK(values(e) == Values{3, 6, 9, 12, 15, 18});
    // aliasing: self read in another shape
    DoubleTensor sq = seq({2, 3});
    sq.cmul(sq.view(3, 2));
    CHECK(values(sq) == Values{1, 4, 9, 16, 25, 36});
    // 3x1 by 3: broadcasting would give 3x3, Torch7 pairs in layout order
    DoubleTensor col = seq({3, 1});
    col.cmul(seq({3}, 4));
    CHECK(values(col) == Values{4, 10, 18});
}

TEST_CASE(
    "component methods: broadcasting kept, mismatched counts are ShapeErrors, nothing written") {
    DoubleTensor x = seq({2, 3});
    x.cmul(seq({3})); // a row broadcasts: 1 2 3 / 4 5 6 times 1 2 3
    CHECK(values(x) == Values{1, 4, 9, 4, 10, 18});
    x.add(seq({2, 1}, 0)); // a column broadcasts
    CHECK(values(x) == Values{1, 4, 9, 5, 11, 19});
    const Values before = values(x);
    const std::string msg = message_of<ShapeError>([&] { x.cmul(seq({4})); });
    CHECK_MESSAGE(msg.find("cmul") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find("2x3") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find("4") != std::string::npos, msg);
    CHECK_THROWS_AS(x.cdiv(seq({5})), ShapeError);
    CHECK_THROWS_AS(x.csub(seq({3, 3})), ShapeError);
    CHECK_THROWS_AS(x.add(seq({7})), ShapeError);
    CHECK_THROWS_AS(x.add(2, seq({7})), ShapeError);
    CHECK_THROWS_AS(x.addcmul(1, seq({6}), seq({5})), ShapeError);
    CHECK_THROWS_AS(x.addcdiv(1, seq({5}), seq({6})), ShapeError);
    CHECK(values(x) == before);
    // integer division by zero is still found first
    IntTensor i = make<int32_t>({2, 2}, {1, 2, 3, 4});
    CHECK_THROWS_AS(i.cdiv(make<int32_t>({4}, {1, 0, 1, 1})), t7::Error);
    CHECK(vec(i) == std::vector<int32_t>{1, 2, 3, 4});
    // operators keep NumPy broadcasting only
    CHECK_THROWS_AS(DoubleTensor(seq({3, 2}) * seq({2, 3})), ShapeError);
}

// ---------------------------------------------------------------------------------
// 3. utilities
// ---------------------------------------------------------------------------------

TEST_CASE("equal: sizes and values, any strides and element types") {
    DoubleTensor a = seq({2, 3});
    DoubleTensor b = seq({3, 2}).t().contiguous(); // 1 3 5 / 2 4 6
    CHECK(t7::equal(a, a.clone()));
    CHECK(a.equal(a));
    CHECK_FALSE(t7::equal(a, b));
    CHECK(t7::equal(b, seq({3, 2}).t())); // strided
    CHECK_FALSE(t7::equal(a, seq({6})));  // sizes differ
    CHECK_FALSE(t7::equal(a, seq({3, 2})));
    CHECK(t7::equal(a, seq<int32_t>({2, 3}))); // values compare after promotion
    CHECK_FALSE(t7::equal(a, seq<int32_t>({2, 3}, 2)));
    CHECK(t7::equal(DoubleTensor(), DoubleTensor())); // both empty
    CHECK_FALSE(t7::equal(DoubleTensor(), seq({1})));
    DoubleTensor nan(1);
    nan.fill(std::numeric_limits<double>::quiet_NaN());
    CHECK_FALSE(nan.equal(nan)); // as ==
}

TEST_CASE("reshape: a new contiguous tensor, layout order, ShapeError on a count mismatch") {
    DoubleTensor a = seq({2, 3});
    DoubleTensor r = a.reshape(3, 2);
    CHECK(r.sizes() == Shape{3, 2});
    CHECK(r.isContiguous());
    CHECK(values(r) == Values{1, 2, 3, 4, 5, 6});
    r.fill(0); // a copy, not a view
    CHECK(values(a) == Values{1, 2, 3, 4, 5, 6});
    DoubleTensor t = t7::reshape(a.t(), Shape{6}); // layout order of the transposed view
    CHECK(values(t) == Values{1, 4, 2, 5, 3, 6});
    DoubleTensor f = t7::reshape(a, 1, 6, 1);
    CHECK(f.sizes() == Shape{1, 6, 1});
    const std::string msg = message_of<ShapeError>([&] { a.reshape(Shape{4}); });
    CHECK_MESSAGE(msg.find("reshape") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find("2x3") != std::string::npos, msg);
    CHECK_THROWS_AS(a.reshape(2, -3), ShapeError);
    CHECK(DoubleTensor().reshape(Shape{}).dim() == 0);
}

TEST_CASE("elementSize, csub(v), lerp with a scalar weight") {
    CHECK(ByteTensor::elementSize() == 1);
    CHECK(ShortTensor().elementSize() == 2);
    CHECK(FloatTensor(2).elementSize() == 4);
    CHECK(LongTensor().elementSize() == 8);
    CHECK(DoubleTensor().elementSize() == 8);

    IntTensor i = make<int32_t>({3}, {5, 0, -5});
    i.csub(2);
    CHECK(vec(i) == std::vector<int32_t>{3, -2, -7});

    FloatTensor a = make<float>({4}, {0, 1, 2, -4}), b = make<float>({4}, {10, 3, 2, 4});
    FloatTensor l = t7::lerp(a, b, 0.25);
    CHECK(vec(l) == std::vector<float>{2.5f, 1.5f, 2, -2});
    FloatTensor w = make<float>({4}, {0, 1, 0.5f, 0.5f});
    FloatTensor lt = t7::lerp(a, b, w);
    CHECK(vec(lt) == std::vector<float>{0, 3, 2, 0});
    // integer ends compute in float (the floating rule): 0.5 stays 0.5
    IntTensor ia = make<int32_t>({2}, {0, 10}), ib = make<int32_t>({2}, {3, 20});
    auto li = t7::lerp(ia, ib, 0.5);
    static_assert(std::is_same_v<decltype(li)::value_type, float>);
    FloatTensor lf = li;
    CHECK(vec(lf) == std::vector<float>{1.5f, 15});
}

TEST_CASE("serializeToStorage / deserializeFromStorage: the .t7 binary bytes") {
    DoubleTensor x = seq({2, 3});
    Object o = Object::table({{"x", Object(x)}, {"n", Object(4.5)}});
    ByteStorage s = t7::serializeToStorage(o);
    const std::string bytes = t7::serialize(o);
    REQUIRE(s.size() == int64_t(bytes.size()));
    for (int64_t k = 0; k < s.size(); ++k) REQUIRE(char(s[k]) == bytes[size_t(k)]);
    // a lone tensor: the bytes saveObject writes (Torch7's layout, first the type tag 4)
    ByteStorage st = t7::serializeToStorage(Object(x));
    CHECK(st[0] == 4);
    Object back = t7::deserializeFromStorage(s);
    REQUIRE(back.isTable());
    CHECK(back.at("n").number() == 4.5);
    CHECK(t7::equal(back.at("x").tensor<double>(), x));
    CHECK(t7::equal(t7::deserializeFromStorage(st).tensor<double>(), x));
    // ascii on request
    ByteStorage sa = t7::serializeToStorage(Object(x), Format::Ascii);
    CHECK(t7::equal(t7::deserializeFromStorage(sa, Format::Ascii).tensor<double>(), x));
    // malformed bytes
    CHECK_THROWS_AS(t7::deserializeFromStorage(ByteStorage()), IOError);
    ByteStorage cut(s.size() / 2);
    for (int64_t k = 0; k < cut.size(); ++k) cut[k] = s[k];
    CHECK_THROWS_AS(t7::deserializeFromStorage(cut), IOError);
    ByteStorage junk(8);
    junk.fill(0xff);
    CHECK_THROWS_AS(t7::deserializeFromStorage(junk), IOError);
}

TEST_CASE("cat of an empty list throws ShapeError; empty tensors are still skipped") {
    CHECK_THROWS_AS(t7::cat(std::vector<DoubleTensor>{}), ShapeError);
    CHECK_THROWS_AS(t7::cat(std::initializer_list<DoubleTensor>{}, 0), ShapeError);
    DoubleTensor r = seq({2});
    CHECK_THROWS_AS(t7::cat(r, std::vector<DoubleTensor>{}, 0), ShapeError);
    CHECK(values(r) == Values{1, 2});
    CHECK(t7::cat({DoubleTensor(), DoubleTensor()}, 0).dim() == 0);
}
