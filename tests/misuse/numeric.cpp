// Misuse, numerics (issue 16): integer division by zero throws before anything
// is written, on every path; conversions that C++ leaves undefined (floating to
// integer out of range, NaN) have one documented answer; integer sums wrap and
// integer means are exact; histc copes with infinities and NaN.
// Few distinct expression types on purpose: this file compiles with the others.
#include "../test_util.hpp"

#include <cstdint>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

using namespace test_util;
using t7::ByteTensor;
using t7::DoubleTensor;
using t7::FloatTensor;
using t7::IntTensor;
using t7::LongTensor;

namespace {

constexpr int32_t int_min = std::numeric_limits<int32_t>::min();
constexpr int64_t long_max = std::numeric_limits<int64_t>::max();
constexpr int64_t long_min = std::numeric_limits<int64_t>::min();
constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// f throws E naming `what`, and `t` (the destination, or the tensor f was
// called on) keeps its values.
template <class E, class T, class F>
void check_throws_untouched(const Tensor<T>& t, F&& f, const char* what) {
    const Values before = values(t);
    CHECK_THROWS_OP(f(), E, what);
    CHECK(values(t) == before);
}

// The elements of an integer tensor exactly (values() goes through double).
struct Ints {
    std::vector<int64_t> v;
    bool operator==(const Ints&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Ints& x) { return os << braced(x.v); }
};
template <class T>
Ints exact(const Tensor<T>& t) {
    const Tensor<T> c = t.contiguous();
    return {std::vector<int64_t>(c.data(), c.data() + c.nElement())};
}

} // namespace

TEST_CASE("integer division by zero throws before anything is written, on every path") {
    // The zero is not first: an evaluator that checks while it writes has
    // written element 0 by then.
    IntTensor a = t7::tensor<int32_t>({6, -4, 7});
    IntTensor z = t7::tensor<int32_t>({2, 0, 1});
    IntTensor y = t7::tensor<int32_t>({9, 9, 9});
    using E = t7::Error;

    SUBCASE("assignment, t7::eval, fmod and remainder") {
        check_throws_untouched<E>(
            y, [&] { y = a / z; }, "div: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = a * 2 + a / z; }, "div: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = t7::fmod(a, z); }, "fmod: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = t7::remainder(a, z); }, "remainder: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = a / 0; }, "div: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = 12 / (a - a); }, "div: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y = a / (a / z); }, "div: integer division by zero");
        CHECK_THROWS_OP(t7::eval(a / z), E, "div: integer division by zero");
        IntTensor empty;
        CHECK_THROWS_OP(empty = a / z, E, "div: integer division by zero");
        CHECK(empty.dim() == 0); // not resized either
    }
    SUBCASE("in place") {
        check_throws_untouched<E>(
            a, [&] { a /= z; }, "div: integer division by zero");
        check_throws_untouched<E>(
            a, [&] { a.cdiv(z); }, "div: integer division by zero");
        check_throws_untouched<E>(
            a, [&] { a.div(0); }, "div: integer division by zero");
        check_throws_untouched<E>(
            a, [&] { a.addcdiv(1, a, z); }, "addcdiv: integer division by zero");
    }
    SUBCASE("masked: the update, and a division inside the mask") {
        check_throws_untouched<E>(
            a, [&] { a[a > 0] /= 0; }, "div: integer division by zero");
        check_throws_untouched<E>(
            a, [&] { a[a / z > 0] = 1; }, "div: integer division by zero");
        check_throws_untouched<E>(
            a, [&] { a.maskedCopy(a / z > 0, y); }, "div: integer division by zero");
        check_throws_untouched<E>(
            y, [&] { y.maskedSelect(a, a / z > 0); }, "div: integer division by zero");
        a[a > 100] /= 0; // nothing selected: nothing divided
        CHECK(values(a) == Values{6, -4, 7});
    }
    SUBCASE("reductions") {
        CHECK_THROWS_OP(t7::sum(a / z), E, "div: integer division by zero");
        CHECK_THROWS_OP(t7::mean(a / z), E, "div: integer division by zero");
        CHECK_THROWS_OP(t7::max(a / z), E, "div: integer division by zero");
        CHECK_THROWS_OP(t7::sum(a / z, 0), E, "div: integer division by zero");
        CHECK_THROWS_OP(t7::max(a / z, 0), E, "div: integer division by zero");
        CHECK_THROWS_OP(t7::any(a / z > 0), E, "div: integer division by zero");
    }
    SUBCASE("INT_MIN / -1 wraps; floating division by zero is IEEE") {
        IntTensor m = t7::tensor<int32_t>({int_min, 5, -7});
        y = m / -1;
        CHECK(exact(y) == Ints{{int_min, -5, 7}});
        y = t7::fmod(m, -1);
        CHECK(exact(y) == Ints{{0, 0, 0}});
        y = t7::remainder(m, -1);
        CHECK(exact(y) == Ints{{0, 0, 0}});
        m[m < 0] /= -1;
        CHECK(exact(m) == Ints{{int_min, 5, 7}});
        CHECK(exact(t7::eval(-m)) == Ints{{int_min, -5, -7}});
        CHECK(exact(t7::eval(t7::abs(m))) == Ints{{int_min, 5, 7}});
        CHECK(t7::sum(a / t7::tensor<int32_t>({3, -1, 7})) == 2 + 4 + 1);
        DoubleTensor f = t7::tensor<double>({1, -1});
        f /= 0;
        CHECK(values(f) == Values{infinity, -infinity});
    }
}

TEST_CASE("floating to integer: truncate toward zero, wrap modulo 2^N, NaN is 0") {
    const DoubleTensor d =
        t7::tensor<double>({-2.7, 300, not_a_number, 1e30, -1e30, infinity, -infinity, 255.9});
    // Beyond int64's range (and +-infinity): 0 in the narrow types, the limit in Long.
    const Ints bytes{{254, 44, 0, 0, 0, 0, 0, 255}};
    CHECK(exact(t7::eval(t7::cast<uint8_t>(d))) == bytes);
    CHECK(exact(d.to<uint8_t>()) == bytes);
    CHECK(exact(d.toFloat().toByte()) == bytes);
    CHECK(exact(ByteTensor(8).copy(d)) == bytes);
    ByteTensor b(8);
    b = d;
    CHECK(exact(b) == bytes);
    CHECK(exact(d.toInt()) == Ints{{-2, 300, 0, 0, 0, 0, 0, 255}});
    CHECK(exact(d.toLong()) == Ints{{-2, 300, 0, long_max, long_min, long_max, long_min, 255}});

    // A scalar operand takes the integer tensor's type by the same rule.
    IntTensor i = t7::tensor<int32_t>({1, 2});
    CHECK(exact(t7::eval(i * 1e20)) == Ints{{0, 0}});
    CHECK(exact(t7::eval(i * 2.9)) == Ints{{2, 4}});
    i.add(not_a_number);
    CHECK(exact(i) == Ints{{1, 2}});
    i.mul(-1e30);
    CHECK(exact(i) == Ints{{0, 0}});
    ByteTensor u = t7::tensor<uint8_t>({0, 1});
    u.add(-1.0);
    CHECK(exact(u) == Ints{{255, 0}});
    u[u > 0] += 1e30;
    CHECK(exact(u) == Ints{{255, 0}});
}

TEST_CASE("integer sums and products wrap; integer means are exact") {
    const LongTensor big = t7::tensor<int64_t>({long_max, long_max, long_max});
    CHECK(t7::mean(big) == double(long_max));
    CHECK(values(t7::mean(big.view({1, 3}), 1)) == Values{double(long_max)});
    CHECK(t7::sum(t7::tensor<int64_t>({long_max, 1})) == long_min);
    CHECK(t7::prod(t7::tensor<int64_t>({long_max, 2})) == -2);
    CHECK(exact(t7::sum(t7::tensor<int64_t>({long_max, 1}), 0)) == Ints{{long_min}});
    const IntTensor ints = t7::tensor<int32_t>({std::numeric_limits<int32_t>::max(), 1});
    CHECK(t7::mean(ints) == (2147483647.0 + 1.0) / 2);
}

TEST_CASE("histc: NaN ignored, only values in [min, max] counted, bounds must be finite") {
    const DoubleTensor x = t7::tensor<double>({1, 2, not_a_number, infinity, -infinity, 3});
    CHECK(values(t7::histc(x, 2, 1, 3)) == Values{1, 2});
    // bounds from the data: the finite elements' range
    CHECK(values(t7::histc(x, 2)) == Values{1, 2});
    // no finite element: nothing to count
    CHECK(values(t7::histc(t7::tensor<double>({infinity, infinity}), 3)) == Values{0, 0, 0});
    CHECK(values(t7::histc(t7::tensor<double>({not_a_number, -infinity}), 2)) == Values{0, 0});
    // a range wider than the largest double
    CHECK(values(t7::histc(x, 2, -1e308, 1e308)) == Values{0, 3});
    const std::vector<std::pair<double, double>> bad{{0.0, infinity},
                                                     {-infinity, 0.0},
                                                     {not_a_number, 1.0},
                                                     {0.0, not_a_number},
                                                     {-infinity, infinity}};
    for (auto [lo, hi] : bad) CHECK_THROWS_OP(t7::histc(x, 2, lo, hi), t7::Error, "histc:");
}
