// Misuse of the array's edges (issue 41): empty dimensions and reversed views
// handed where they are wrong, sizes near INT64_MAX with a size 0, and NumPy
// files whose values do not fit. Every case throws its t7::Error subclass with
// the destination and the tensor it was called on unchanged, or gives NumPy's
// answer; ASan+UBSan run it too.
#include "../test_util.hpp"

#include <cstdint>
#include <limits>
#include <string>

using namespace test_util;
using t7::DoubleTensor;
using t7::FloatTensor;
using t7::Shape;
using S = t7::slice;

namespace {

constexpr int64_t big = std::numeric_limits<int64_t>::max();
constexpr int64_t none = t7::slice::none;

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

DoubleTensor ramp(const Shape& s) {
    DoubleTensor x(s);
    fill_seq(x, 0);
    return x;
}

} // namespace

TEST_CASE("slices: bad bounds and steps name the dimension, nothing is clamped") {
    DoubleTensor x = ramp({4, 5});
    const DoubleTensor before = x.clone();
    CHECK(
        has(message_of<t7::IndexError>([&] { x(t7::all, S(0, 2, 0)); }), "dimension 1 of size 5"));
    CHECK(has(message_of<t7::IndexError>([&] { x(S(3, 1)); }), "stops before it starts"));
    CHECK(has(message_of<t7::IndexError>([&] { x(S(1, 3, -1)); }), "stops after it starts"));
    CHECK_THROWS_AS(x(S(0, 6)), t7::IndexError);
    CHECK_THROWS_AS(x(S(-5, none)), t7::IndexError);
    CHECK_THROWS_AS(x(S(4, none, -1)), t7::IndexError); // start past the end
    CHECK_THROWS_AS(x(S(none, -6, -1)), t7::IndexError);
    CHECK_THROWS_AS(x(S(0, 4, std::numeric_limits<int64_t>::min())), t7::IndexError);
    // steps near the limits: one element, no overflow of the stride product
    CHECK(x(S(3, none, std::numeric_limits<int64_t>::min() + 1)).sizes() == Shape{1, 5});
    CHECK(x(S(0, 4, big)).sizes() == Shape{1, 5});
    CHECK_THROWS_AS(x.narrow(0, 5, 0), t7::IndexError);
    CHECK_THROWS_AS(x.narrow(0, 0, -1), t7::IndexError);
    CHECK_THROWS_AS(x.flip({0, -2}), t7::IndexError); // the same dimension twice
    CHECK(t7::equal(x, before));
}

TEST_CASE("reversed views: overlapping destinations are refused, aliasing is exact") {
    DoubleTensor row = ramp({1, 4});
    DoubleTensor wide = row.expand(3, 4).flip({0, 1}); // stride 0 and -1
    CHECK_THROWS_AS(wide.copy(ramp({3, 4})), t7::ShapeError);
    CHECK_THROWS_AS(wide += 1.0, t7::ShapeError);
    CHECK(values(row) == Values{0, 1, 2, 3});
    // a reversed view of part of x assigned from another part: NumPy's answer
    DoubleTensor x = ramp({8});
    x(S(5, none, -1)) = x(S(2, 8)); // x[5::-1] = x[2:8]
    CHECK(values(x) == Values{7, 6, 5, 4, 3, 2, 6, 7});
    DoubleTensor y = ramp({3, 3});
    y = y.t().flip({0}) + y; // y[i, j] = y[j, 2 - i] + y[i, j], read before written
    CHECK(values(y) == Values{2, 6, 10, 4, 8, 12, 6, 10, 14});
}

TEST_CASE("empty dimensions: errors where NumPy errs, answers where it answers") {
    DoubleTensor e(Shape{3, 0});
    CHECK(has(message_of<t7::ShapeError>([&] { t7::max(e); }), "zero-size"));
    CHECK_THROWS_AS(t7::min(e, 1), t7::ShapeError);
    CHECK_THROWS_AS(e.median(1), t7::Error); // no median of nothing
    CHECK_THROWS_AS(e.view(-1, 0), t7::ShapeError);
    CHECK_THROWS_AS(DoubleTensor(e + ramp({3, 2})), t7::ShapeError); // 0 against 2
    DoubleTensor dst = ramp({3, 2});
    CHECK_THROWS_AS(dst = e, t7::ShapeError); // the destination keeps its values
    CHECK(values(dst) == values(ramp({3, 2})));
    CHECK_THROWS_AS(t7::mm(e, ramp({1, 2})), t7::ShapeError); // inner sizes 0 and 1
    // sizes near INT64_MAX beside a size 0: no elements, no overflow
    FloatTensor z(Shape{0, big});
    CHECK(z.nElement() == 0);
    CHECK(z.sizes() == Shape{0, big});
    FloatTensor r;
    r.resize(Shape{big, 0});
    CHECK(r.sizes() == Shape{big, 0});
    CHECK(t7::sum(z) == 0);
    CHECK(z.view(big, 0).sizes() == Shape{big, 0});
    CHECK(z.t().contiguous().sizes() == Shape{big, 0});
    CHECK_THROWS_AS(FloatTensor(Shape{big, 2, 0, big}), t7::ShapeError);
}

TEST_CASE("NumPy files whose values do not fit: TypeError naming the first, nothing returned") {
    // '<u2' values 1, 70 and 300: 300 is no uint8 and no int8
    std::string dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }";
    while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    std::string file("\x93NUMPY\x01\x00", 8);
    file += char(dict.size());
    file += char(0);
    file += dict;
    const uint16_t v[3] = {1, 70, 300};
    file.append(reinterpret_cast<const char*>(v), sizeof v);
    const std::string m = message_of<t7::TypeError>([&] { t7::fromNpy<uint8_t>(file); });
    CHECK(has(m, "the value 300 at (2,)"));
    CHECK(has(m, "torch.ByteTensor"));
    CHECK(values(t7::fromNpy<int16_t>(file)) == Values{1, 70, 300});
}
