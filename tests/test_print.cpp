// Printing: every tensor and storage printed in the Torch7 transcripts
// (shared/torch7/tensor_*.txt) that tensor7 can build must print byte for byte
// the same, without the blank line Lua's print adds. Results of operations the
// library does not have yet (index, gather, scatter, masked*, nonzero,
// repeatTensor) are built from their values: what is tested here is the text.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using t7::Shape;
using t7::Storage;
using t7::Tensor;

namespace {

// The expected text of a raw literal that starts on the line after R"(.
std::string block(const char* s) { return s[0] == '\n' ? std::string(s + 1) : std::string(s); }

// A new contiguous tensor of `sizes` holding `values` in row-major order, each
// converted as Torch7 converts (an IntTensor made from 1.7 holds 1).
template <class T = double>
Tensor<T> make(const std::vector<double>& values, const Shape& sizes) {
    Tensor<T> t(sizes);
    REQUIRE(t.nElement() == int64_t(values.size()));
    size_t i = 0;
    t.apply([&]() { return values[i++]; });
    return t;
}

template <class T = double>
Tensor<T> make(const std::vector<double>& values) {
    return make<T>(values, Shape{int64_t(values.size())});
}

// torch.range(a, b): a, a+1, ..., b (a stand-in for the library's factory).
Tensor<double> seq(int64_t a, int64_t b) {
    Tensor<double> t(b - a + 1);
    double v = double(a);
    t.apply([&]() { return v++; });
    return t;
}

// A LongStorage of a size or stride list, as x:size() and x:stride() print.
Storage<int64_t> long_storage(const Shape& s) {
    Storage<int64_t> r(int64_t(s.size()));
    for (size_t i = 0; i < s.size(); ++i) r[int64_t(i)] = s[i];
    return r;
}

} // namespace

#define CHECK_PRINTS(x, text) CHECK(t7::to_string(x) == block(text))

// ---------------------------------------------------------------------------------
TEST_CASE("print: the examples of PRINTING.md") {
    CHECK_PRINTS(make<float>({1.5, 2, 3, 4}, {2, 2}), R"(
 1.5000  2.0000
 3.0000  4.0000
[torch.FloatTensor of size 2x2]
)");
    CHECK_PRINTS(make({1.5e-5, -2.5e-5, 0.3e-5}), R"(
1e-05 *
 1.5000
-2.5000
 0.3000
[torch.DoubleTensor of size 3]
)");
    CHECK_PRINTS(seq(1, 24).view(2, 3, 4), R"(
(1,.,.) = 
   1   2   3   4
   5   6   7   8
   9  10  11  12

(2,.,.) = 
  13  14  15  16
  17  18  19  20
  21  22  23  24
[torch.DoubleTensor of size 2x3x4]
)");
}

TEST_CASE("print: operator<< writes the same text, without Lua's extra blank line") {
    Tensor<float> x = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
    std::ostringstream os;
    os << x;
    CHECK(os.str() == " 1  2  3\n 4  5  6\n[torch.FloatTensor of size 2x3]\n");
    CHECK(os.str() == t7::to_string(x));
    std::ostringstream os2;
    os2 << x.storage();
    CHECK(os2.str() == " 1\n 2\n 3\n 4\n 5\n 6\n[torch.FloatStorage of size 6]\n");
    std::ostringstream os3;
    os3 << Tensor<double>();
    CHECK(os3.str() == "[torch.DoubleTensor with no dimension]\n");
}

// ---------------------------------------------------------------------------------
TEST_CASE("print: tensor_constructors.txt") {
    SUBCASE("sizes, storages, strides") {
        Tensor<double> x(Shape{4, 5, 6, 2, 7, 3});
        CHECK_PRINTS(long_storage(x.sizes()), R"(
 4
 5
 6
 2
 7
 3
[torch.LongStorage of size 6]
)");
        Tensor<double> m(4, 5);
        for (int64_t i = 0; i < m.storage().size(); ++i) m.storage()[i] = double(i + 1);
        const char* m_text = R"(
  1   2   3   4   5
  6   7   8   9  10
 11  12  13  14  15
 16  17  18  19  20
[torch.DoubleTensor of size 4x5]
)";
        CHECK_PRINTS(m, m_text);
        Tensor<double> a(4, 5);
        int i = 0;
        a.apply([&]() { return ++i; });
        CHECK_PRINTS(a, m_text);
        CHECK_PRINTS(long_storage(a.strides()), R"(
 5
 1
[torch.LongStorage of size 2]
)");
    }
    SUBCASE("narrow, copy, clone") {
        Tensor<double> x(5);
        x.zero();
        CHECK_PRINTS(x, R"(
 0
 0
 0
 0
 0
[torch.DoubleTensor of size 5]
)");
        CHECK_PRINTS(x.narrow(0, 1, 3).fill(1), R"(
 1
 1
 1
[torch.DoubleTensor of size 3]
)");
        const char* x_text = R"(
 0
 1
 1
 1
 0
[torch.DoubleTensor of size 5]
)";
        CHECK_PRINTS(x, x_text);
        Tensor<double> y(x.sizes());
        y.copy(x);
        CHECK_PRINTS(y, x_text);
        CHECK_PRINTS(x.clone(), x_text);
    }
    SUBCASE("empty tensors") {
        CHECK_PRINTS(Tensor<double>(), R"(
[torch.DoubleTensor with no dimension]
)");
        CHECK_PRINTS(Tensor<double>(0), R"(
[torch.DoubleTensor of size 0]
)");
        CHECK_PRINTS(Tensor<double>(0, 5), R"(
[torch.DoubleTensor of size 0x5]
)");
    }
    SUBCASE("shared storage") {
        Tensor<double> x(2, 5);
        x.fill(3.14);
        const char* pi_text = R"(
 3.1400  3.1400  3.1400  3.1400  3.1400
 3.1400  3.1400  3.1400  3.1400  3.1400
[torch.DoubleTensor of size 2x5]
)";
        CHECK_PRINTS(x, pi_text);
        Tensor<double> y(x);
        CHECK_PRINTS(y, pi_text);
        y.zero();
        CHECK_PRINTS(x, R"(
 0  0  0  0  0
 0  0  0  0  0
[torch.DoubleTensor of size 2x5]
)");
    }
    SUBCASE("sizes and strides given") {
        Tensor<double> x(Shape{4, 4, 3, 2});
        CHECK_PRINTS(long_storage(x.sizes()), R"(
 4
 4
 3
 2
[torch.LongStorage of size 4]
)");
        CHECK_PRINTS(long_storage(x.strides()), R"(
 24
  6
  2
  1
[torch.LongStorage of size 4]
)");
        Tensor<double> z(Shape{4}, Shape{0});
        z.zero();
        z(0) = 1;
        CHECK_PRINTS(z, R"(
 1
 1
 1
 1
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(long_storage(z.strides()), R"(
 0
[torch.LongStorage of size 1]
)");
        Tensor<double> c(Shape{2, 3}, Shape{-1, -1});
        CHECK_PRINTS(long_storage(c.strides()), R"(
 3
 1
[torch.LongStorage of size 2]
)");
        Tensor<float> b(Shape{1, 2});
        CHECK_PRINTS(long_storage(b.sizes()), R"(
 1
 2
[torch.LongStorage of size 2]
)");
        CHECK_PRINTS(make<int64_t>({1, 2}), R"(
 1
 2
[torch.LongTensor of size 2]
)");
    }
    SUBCASE("views of a storage") {
        Storage<double> s(10);
        s.fill(1);
        Tensor<double> x(s, 0, Shape{2, 5});
        CHECK_PRINTS(x, R"(
 1  1  1  1  1
 1  1  1  1  1
[torch.DoubleTensor of size 2x5]
)");
        x.zero();
        CHECK_PRINTS(s, R"(
 0
 0
 0
 0
 0
 0
 0
 0
 0
 0
[torch.DoubleStorage of size 10]
)");
        Storage<double> s12(12);
        for (int64_t i = 0; i < 12; ++i) s12[i] = double(i + 1);
        CHECK_PRINTS(Tensor<double>(s12, 0), R"(
  1
  2
  3
  4
  5
  6
  7
  8
  9
 10
 11
 12
[torch.DoubleTensor of size 12]
)");
        CHECK_PRINTS(Tensor<double>(s12, 2, Shape{2, 3}), R"(
 3  4  5
 6  7  8
[torch.DoubleTensor of size 2x3]
)");
        CHECK_PRINTS(Tensor<double>(s12, 1, Shape{2, 2}, Shape{1, 3}), R"(
 2  5
 3  6
[torch.DoubleTensor of size 2x2]
)");
        CHECK_PRINTS(Tensor<double>(s12, 2, Shape{2, 3}, Shape{4, 1}), R"(
 3  4  5
 7  8  9
[torch.DoubleTensor of size 2x3]
)");
        // column-major view (non-contiguous)
        CHECK_PRINTS(Tensor<double>(s12, 0, Shape{3, 4}, Shape{1, 3}), R"(
  1   4   7  10
  2   5   8  11
  3   6   9  12
[torch.DoubleTensor of size 3x4]
)");
    }
    SUBCASE("from tables") {
        CHECK_PRINTS(make({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}), R"(
 1  2  3  4
 5  6  7  8
[torch.DoubleTensor of size 2x4]
)");
        CHECK_PRINTS(make({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}), R"(
(1,.,.) = 
  1  2
  3  4

(2,.,.) = 
  5  6
  7  8
[torch.DoubleTensor of size 2x2x2]
)");
        CHECK_PRINTS(make({1.5, -2.25, 3}), R"(
 1.5000
-2.2500
 3.0000
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(make<int32_t>({1.7, -1.7, 2.5, -2.5}), R"(
 1
-1
 2
-2
[torch.IntTensor of size 4]
)");
        CHECK_PRINTS(make<int64_t>({1, 2, 3, 4}, {2, 2}), R"(
 1  2
 3  4
[torch.LongTensor of size 2x2]
)");
        CHECK_PRINTS(make<float>({0.1, 0.2, 0.3}), R"(
 0.1000
 0.2000
 0.3000
[torch.FloatTensor of size 3]
)");
    }
    SUBCASE("apply, clone, fill") {
        Tensor<double> x(5);
        int i = 0;
        x.apply([&]() { return ++i; });
        const char* x_text = R"(
 1
 2
 3
 4
 5
[torch.DoubleTensor of size 5]
)";
        CHECK_PRINTS(x, x_text);
        Tensor<double> y = x.clone();
        CHECK_PRINTS(y, x_text);
        y.fill(1);
        CHECK_PRINTS(y, R"(
 1
 1
 1
 1
 1
[torch.DoubleTensor of size 5]
)");
        CHECK_PRINTS(x, x_text);
        Tensor<double> xt(2, 3);
        xt.apply([&]() { return ++i; });
        CHECK_PRINTS(long_storage(xt.t().clone().strides()), R"(
 2
 1
[torch.LongStorage of size 2]
)");
    }
    SUBCASE("contiguous") {
        Tensor<double> x(2, 3);
        x.fill(1);
        CHECK_PRINTS(x, R"(
 1  1  1
 1  1  1
[torch.DoubleTensor of size 2x3]
)");
        const char* twos = R"(
 2  2  2
 2  2  2
[torch.DoubleTensor of size 2x3]
)";
        Tensor<double> y = x.contiguous();
        y.fill(2);
        CHECK_PRINTS(y, twos);
        CHECK_PRINTS(x, twos);
        Tensor<double> z = x.t().contiguous();
        z.fill(3.14);
        CHECK_PRINTS(z, R"(
 3.1400  3.1400
 3.1400  3.1400
 3.1400  3.1400
[torch.DoubleTensor of size 3x2]
)");
        CHECK_PRINTS(x, twos);
    }
    SUBCASE("type conversions") {
        Tensor<double> x(3);
        x.fill(3.14);
        const char* pi3 = R"(
 3.1400
 3.1400
 3.1400
[torch.DoubleTensor of size 3]
)";
        CHECK_PRINTS(x, pi3);
        Tensor<double> y = x.to<double>();
        CHECK_PRINTS(y, pi3);
        y.zero();
        CHECK_PRINTS(x, R"(
 0
 0
 0
[torch.DoubleTensor of size 3]
)");
        x.fill(3.14);
        const char* int3 = R"(
 3
 3
 3
[torch.IntTensor of size 3]
)";
        CHECK_PRINTS(x.to<int32_t>(), int3);
        CHECK_PRINTS(x.typeAs(Tensor<int32_t>()), int3);
        CHECK_PRINTS(x.typeAs(Tensor<float>()), R"(
 3.1400
 3.1400
 3.1400
[torch.FloatTensor of size 3]
)");
        CHECK_PRINTS(x.toInt(), int3);
    }
    SUBCASE("byte, char, short, int, long, float, double") {
        Tensor<double> x = make({-2.7, -0.5, 0.5, 2.7, 300});
        CHECK_PRINTS(x.toByte(), R"(
 254
   0
   0
   2
  44
[torch.ByteTensor of size 5]
)");
        CHECK_PRINTS(x.toChar(), R"(
 -2
  0
  0
  2
 44
[torch.CharTensor of size 5]
)");
        CHECK_PRINTS(x.toShort(), R"(
  -2
   0
   0
   2
 300
[torch.ShortTensor of size 5]
)");
        CHECK_PRINTS(x.toInt(), R"(
  -2
   0
   0
   2
 300
[torch.IntTensor of size 5]
)");
        CHECK_PRINTS(x.toLong(), R"(
  -2
   0
   0
   2
 300
[torch.LongTensor of size 5]
)");
        CHECK_PRINTS(x.toFloat(), R"(
  -2.7000
  -0.5000
   0.5000
   2.7000
 300.0000
[torch.FloatTensor of size 5]
)");
        CHECK_PRINTS(x.toDouble(), R"(
  -2.7000
  -0.5000
   0.5000
   2.7000
 300.0000
[torch.DoubleTensor of size 5]
)");
    }
    SUBCASE("set") {
        Tensor<double> x(2, 5);
        x.fill(3.14);
        Tensor<double> y;
        y.set(x);
        CHECK_PRINTS(y, R"(
 3.1400  3.1400  3.1400  3.1400  3.1400
 3.1400  3.1400  3.1400  3.1400  3.1400
[torch.DoubleTensor of size 2x5]
)");
        y.zero();
        CHECK_PRINTS(x, R"(
 0  0  0  0  0
 0  0  0  0  0
[torch.DoubleTensor of size 2x5]
)");
        Storage<double> s(10);
        s.fill(1);
        Tensor<double> v;
        v.set(s, 0, Shape{2, 5});
        CHECK_PRINTS(v, R"(
 1  1  1  1  1
 1  1  1  1  1
[torch.DoubleTensor of size 2x5]
)");
        v.zero();
        CHECK_PRINTS(s, R"(
 0
 0
 0
 0
 0
 0
 0
 0
 0
 0
[torch.DoubleStorage of size 10]
)");
        Storage<double> s10(10);
        for (int64_t i = 0; i < 10; ++i) s10[i] = double(i + 1);
        Tensor<double> w;
        w.set(s10, 1, Shape{2, 3}, Shape{3, 1});
        CHECK_PRINTS(w, R"(
 2  3  4
 5  6  7
[torch.DoubleTensor of size 2x3]
)");
    }
    SUBCASE("copy between shapes and types") {
        Tensor<double> x(4);
        x.fill(1);
        Tensor<double> y(2, 2);
        y.copy(x);
        CHECK_PRINTS(x, R"(
 1
 1
 1
 1
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(y, R"(
 1  1
 1  1
[torch.DoubleTensor of size 2x2]
)");
        CHECK_PRINTS(Tensor<double>(2, 3).copy(make<int32_t>({1, 2, 3, 4, 5, 6})), R"(
 1  2  3
 4  5  6
[torch.DoubleTensor of size 2x3]
)");
        CHECK_PRINTS(Tensor<int32_t>(3).copy(make({1.9, -1.9, 2.5})), R"(
 1
-1
 2
[torch.IntTensor of size 3]
)");
        CHECK_PRINTS(Tensor<double>(4).fill(3.14), R"(
 3.1400
 3.1400
 3.1400
 3.1400
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(Tensor<double>(4).zero(), R"(
 0
 0
 0
 0
[torch.DoubleTensor of size 4]
)");
    }
    SUBCASE("resize") {
        Tensor<double> x = seq(1, 6);
        x.resize(2, 3);
        CHECK_PRINTS(x, R"(
 1  2  3
 4  5  6
[torch.DoubleTensor of size 2x3]
)");
        x.resize(3);
        CHECK_PRINTS(x, R"(
 1
 2
 3
[torch.DoubleTensor of size 3]
)");
        x.resize(2, 2);
        CHECK_PRINTS(x, R"(
 1  2
 3  4
[torch.DoubleTensor of size 2x2]
)");
        Tensor<double> y(3, 1);
        y.resizeAs(x);
        CHECK_PRINTS(long_storage(y.sizes()), R"(
 2
 2
[torch.LongStorage of size 2]
)");
        Tensor<double> z = seq(1, 6);
        z.resize(Shape{3, 2});
        CHECK_PRINTS(z, R"(
 1  2
 3  4
 5  6
[torch.DoubleTensor of size 3x2]
)");
    }
}

// ---------------------------------------------------------------------------------
TEST_CASE("print: tensor_size_stride.txt") {
    SUBCASE("sizes and strides") {
        Tensor<double> x(4, 5);
        x.zero();
        CHECK_PRINTS(x, R"(
 0  0  0  0  0
 0  0  0  0  0
 0  0  0  0  0
 0  0  0  0  0
[torch.DoubleTensor of size 4x5]
)");
        CHECK_PRINTS(long_storage(x.sizes()), R"(
 4
 5
[torch.LongStorage of size 2]
)");
        CHECK_PRINTS(long_storage(x.strides()), R"(
 5
 1
[torch.LongStorage of size 2]
)");
    }
    SUBCASE("a tensor and its storage") {
        Tensor<double> x(4, 5);
        Storage<double> s = x.storage();
        for (int64_t i = 0; i < s.size(); ++i) s[i] = double(i + 1);
        CHECK_PRINTS(x, R"(
  1   2   3   4   5
  6   7   8   9  10
 11  12  13  14  15
 16  17  18  19  20
[torch.DoubleTensor of size 4x5]
)");
        CHECK_PRINTS(x.storage(), R"(
  1
  2
  3
  4
  5
  6
  7
  8
  9
 10
 11
 12
 13
 14
 15
 16
 17
 18
 19
 20
[torch.DoubleStorage of size 20]
)");
    }
    SUBCASE("select and transpose strides") {
        Tensor<double> x = seq(1, 20).resize(4, 5);
        Tensor<double> y = x.select(1, 2);
        CHECK_PRINTS(long_storage(y.strides()), R"(
 5
[torch.LongStorage of size 1]
)");
        CHECK_PRINTS(y, R"(
  3
  8
 13
 18
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(long_storage(x.t().strides()), R"(
 1
 5
[torch.LongStorage of size 2]
)");
    }
    SUBCASE("empty sizes, Tensor(3,1), 3-D strides") {
        CHECK_PRINTS(long_storage(Tensor<double>().sizes()), R"(
[torch.LongStorage of size 0]
)");
        CHECK_PRINTS(long_storage(Tensor<double>().strides()), R"(
[torch.LongStorage of size 0]
)");
        Tensor<double> z(3); // Torch7's Tensor(3,0): its size list ended at the 0
        z.zero();            // Torch7's uninitialised memory happened to hold zeros
        CHECK_PRINTS(z, R"(
 0
 0
 0
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(long_storage(Tensor<double>(2, 3, 4).strides()), R"(
 12
  4
  1
[torch.LongStorage of size 3]
)");
    }
    SUBCASE("indexing") {
        Tensor<double> x(3, 3);
        int i = 0;
        x.apply([&]() { return ++i; });
        const char* x_text = R"(
 1  2  3
 4  5  6
 7  8  9
[torch.DoubleTensor of size 3x3]
)";
        CHECK_PRINTS(x, x_text);
        const char* row2 = R"(
 4
 5
 6
[torch.DoubleTensor of size 3]
)";
        CHECK_PRINTS(x[1], row2);
        CHECK_PRINTS(make({1, 2, 3}), R"(
 1
 2
 3
[torch.DoubleTensor of size 3]
)"); // x[torch.le(x,3)]
        CHECK_PRINTS(x[-1], R"(
 7
 8
 9
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(x.select(0, 1), row2); // x[{2}]
        CHECK_PRINTS(x(t7::slice(1, 2)), R"(
 4  5  6
[torch.DoubleTensor of size 1x3]
)");
        CHECK_PRINTS(x(t7::slice(1, 3)), R"(
 4  5  6
 7  8  9
[torch.DoubleTensor of size 2x3]
)");
        CHECK_PRINTS(x(t7::all, 1), R"(
 2
 5
 8
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(x(t7::all, t7::slice(1, 2)), R"(
 2
 5
 8
[torch.DoubleTensor of size 3x1]
)");
        CHECK_PRINTS(x(t7::slice(-2), t7::slice(0, 2)), R"(
 4  5
 7  8
[torch.DoubleTensor of size 2x2]
)");
        CHECK_PRINTS(x(t7::all, t7::slice(-1)), R"(
 3
 6
 9
[torch.DoubleTensor of size 3x1]
)");
        CHECK_PRINTS(x(1, t7::all), row2);
        CHECK_PRINTS(x(t7::all), x_text);
        Tensor<double> v = seq(1, 5);
        CHECK_PRINTS(v(t7::slice(1, 4)), R"(
 2
 3
 4
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(v(t7::slice(-3)), R"(
 3
 4
 5
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(make({5, 6, 7, 8, 9}), R"(
 5
 6
 7
 8
 9
[torch.DoubleTensor of size 5]
)"); // x[torch.gt(x,4)]
        CHECK_PRINTS(make({1, 3, 8}), R"(
 1
 3
 8
[torch.DoubleTensor of size 3]
)"); // x[ByteTensor mask]
    }
    SUBCASE("narrow") {
        Tensor<double> x(5, 6);
        x.zero();
        const char* zeros = R"(
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)";
        CHECK_PRINTS(x, zeros);
        Tensor<double> y = x.narrow(0, 1, 3);
        y.fill(1);
        CHECK_PRINTS(y, R"(
 1  1  1  1  1  1
 1  1  1  1  1  1
 1  1  1  1  1  1
[torch.DoubleTensor of size 3x6]
)");
        CHECK_PRINTS(x, R"(
 0  0  0  0  0  0
 1  1  1  1  1  1
 1  1  1  1  1  1
 1  1  1  1  1  1
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)");
        CHECK_PRINTS(seq(1, 30).view(5, 6).narrow(1, 2, 2), R"(
  3   4
  9  10
 15  16
 21  22
 27  28
[torch.DoubleTensor of size 5x2]
)");
    }
    SUBCASE("sub") {
        Tensor<double> x(5, 6);
        x.zero();
        Tensor<double> y = x.sub(1, 3);
        y.fill(1);
        CHECK_PRINTS(y, R"(
 1  1  1  1  1  1
 1  1  1  1  1  1
 1  1  1  1  1  1
[torch.DoubleTensor of size 3x6]
)");
        Tensor<double> z = x.sub(1, 3, 2, 3);
        z.fill(2);
        CHECK_PRINTS(z, R"(
 2  2
 2  2
 2  2
[torch.DoubleTensor of size 3x2]
)");
        CHECK_PRINTS(x, R"(
 0  0  0  0  0  0
 1  1  2  2  1  1
 1  1  2  2  1  1
 1  1  2  2  1  1
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)");
        CHECK_PRINTS(y, R"(
 1  1  2  2  1  1
 1  1  2  2  1  1
 1  1  2  2  1  1
[torch.DoubleTensor of size 3x6]
)");
        CHECK_PRINTS(y.sub(-1, -1, 2, 3), R"(
 2  2
[torch.DoubleTensor of size 1x2]
)");
        Tensor<double> r = seq(1, 30).view(5, 6);
        CHECK_PRINTS(r.sub(1, -2, -3, -1), R"(
 10  11  12
 16  17  18
 22  23  24
[torch.DoubleTensor of size 3x3]
)");
        CHECK_PRINTS(r.sub(-2, -1), R"(
 19  20  21  22  23  24
 25  26  27  28  29  30
[torch.DoubleTensor of size 2x6]
)");
        CHECK_PRINTS(r.sub(0, 0, -1, -1), R"(
 6
[torch.DoubleTensor of size 1x1]
)");
    }
    SUBCASE("select") {
        Tensor<double> x(5, 6);
        x.zero();
        Tensor<double> y = x.select(0, 1);
        y.fill(2);
        CHECK_PRINTS(y, R"(
 2
 2
 2
 2
 2
 2
[torch.DoubleTensor of size 6]
)");
        CHECK_PRINTS(x, R"(
 0  0  0  0  0  0
 2  2  2  2  2  2
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)");
        Tensor<double> z = x.select(1, 4);
        z.fill(5);
        CHECK_PRINTS(z, R"(
 5
 5
 5
 5
 5
[torch.DoubleTensor of size 5]
)");
        CHECK_PRINTS(x, R"(
 0  0  0  0  5  0
 2  2  2  2  5  2
 0  0  0  0  5  0
 0  0  0  0  5  0
 0  0  0  0  5  0
[torch.DoubleTensor of size 5x6]
)");
        CHECK_PRINTS(seq(1, 24).view(2, 3, 4).select(2, 1), R"(
  2   6  10
 14  18  22
[torch.DoubleTensor of size 2x3]
)");
    }
    SUBCASE("assignments through indices") {
        Tensor<double> x(5, 6);
        x.zero();
        x(0, 2) = 1;
        CHECK_PRINTS(x, R"(
 0  0  1  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)");
        x(1, t7::slice(1, 4)) = 2;
        CHECK_PRINTS(x, R"(
 0  0  1  0  0  0
 0  2  2  2  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
 0  0  0  0  0  0
[torch.DoubleTensor of size 5x6]
)");
        x(t7::all, 3) = -1;
        CHECK_PRINTS(x, R"(
 0  0  1 -1  0  0
 0  2  2 -1  0  0
 0  0  0 -1  0  0
 0  0  0 -1  0  0
 0  0  0 -1  0  0
[torch.DoubleTensor of size 5x6]
)");
        x(t7::all, 1) = seq(1, 5);
        CHECK_PRINTS(x, R"(
 0  1  1 -1  0  0
 0  2  2 -1  0  0
 0  3  0 -1  0  0
 0  4  0 -1  0  0
 0  5  0 -1  0  0
[torch.DoubleTensor of size 5x6]
)");
        x.apply([](double v) { return v < 0 ? -2.0 : v; }); // x[torch.lt(x,0)] = -2
        CHECK_PRINTS(x, R"(
 0  1  1 -2  0  0
 0  2  2 -2  0  0
 0  3  0 -2  0  0
 0  4  0 -2  0  0
 0  5  0 -2  0  0
[torch.DoubleTensor of size 5x6]
)");
        x[1] = 7;
        CHECK_PRINTS(x, R"(
 0  1  1 -2  0  0
 7  7  7  7  7  7
 0  3  0 -2  0  0
 0  4  0 -2  0  0
 0  5  0 -2  0  0
[torch.DoubleTensor of size 5x6]
)");
        x[2] = seq(11, 16);
        CHECK_PRINTS(x, R"(
  0   1   1  -2   0   0
  7   7   7   7   7   7
 11  12  13  14  15  16
  0   4   0  -2   0   0
  0   5   0  -2   0   0
[torch.DoubleTensor of size 5x6]
)");
        x(-1, -1) = 99;
        CHECK_PRINTS(x, R"(
  0   1   1  -2   0   0
  7   7   7   7   7   7
 11  12  13  14  15  16
  0   4   0  -2   0   0
  0   5   0  -2   0  99
[torch.DoubleTensor of size 5x6]
)");
        double next = 101; // x[torch.eq(x,0)] = torch.range(101,111)
        x.apply([&](double v) { return v == 0 ? next++ : v; });
        CHECK_PRINTS(x, R"(
 101    1    1   -2  102  103
   7    7    7    7    7    7
  11   12   13   14   15   16
 104    4  105   -2  106  107
 108    5  109   -2  110   99
[torch.DoubleTensor of size 5x6]
)");
    }
}

// ---------------------------------------------------------------------------------
TEST_CASE("print: tensor_expand_view.txt") {
    SUBCASE("expand") {
        Tensor<double> x =
            make({0.3837, 0.5966, 0.0763, 0.1896, 0.4958, 0.6841, 0.4038, 0.4068, 0.1502, 0.2239},
                 {10, 1});
        CHECK_PRINTS(x, R"(
 0.3837
 0.5966
 0.0763
 0.1896
 0.4958
 0.6841
 0.4038
 0.4068
 0.1502
 0.2239
[torch.DoubleTensor of size 10x1]
)");
        Tensor<double> y = x.expand(10, 2);
        CHECK_PRINTS(y, R"(
 0.3837  0.3837
 0.5966  0.5966
 0.0763  0.0763
 0.1896  0.1896
 0.4958  0.4958
 0.6841  0.6841
 0.4038  0.4038
 0.4068  0.4068
 0.1502  0.1502
 0.2239  0.2239
[torch.DoubleTensor of size 10x2]
)");
        CHECK_PRINTS(long_storage(y.strides()), R"(
 1
 0
[torch.LongStorage of size 2]
)");
        y.fill(1);
        CHECK_PRINTS(y, R"(
 1  1
 1  1
 1  1
 1  1
 1  1
 1  1
 1  1
 1  1
 1  1
 1  1
[torch.DoubleTensor of size 10x2]
)");
        CHECK_PRINTS(x, R"(
 1
 1
 1
 1
 1
 1
 1
 1
 1
 1
[torch.DoubleTensor of size 10x1]
)");
        int i = 0;
        y.apply([&]() { return ++i; });
        CHECK_PRINTS(y, R"(
  2   2
  4   4
  6   6
  8   8
 10  10
 12  12
 14  14
 16  16
 18  18
 20  20
[torch.DoubleTensor of size 10x2]
)");
        CHECK_PRINTS(x, R"(
  2
  4
  6
  8
 10
 12
 14
 16
 18
 20
[torch.DoubleTensor of size 10x1]
)");
        const char* rows123 = R"(
 1  2  3
 1  2  3
[torch.DoubleTensor of size 2x3]
)";
        CHECK_PRINTS(seq(1, 3).view(1, 3).expand(2, 3), rows123);
        const char* cols123 = R"(
 1  1  1  1
 2  2  2  2
 3  3  3  3
[torch.DoubleTensor of size 3x4]
)";
        CHECK_PRINTS(seq(1, 3).view(3, 1).expand(Shape{3, 4}), cols123);
        CHECK_PRINTS(seq(1, 3).view(3, 1).expand(3, 4).contiguous(), cols123);
        CHECK_PRINTS(seq(1, 3).view(1, 3).expandAs(Tensor<double>(2, 3)), rows123);
        CHECK_PRINTS(make({5}).expand(4), R"(
 5
 5
 5
 5
[torch.DoubleTensor of size 4]
)");
    }
    SUBCASE("repeatTensor results") {
        std::vector<double> x5 = {0.7160, 0.6514, 0.0704, 0.7856, 0.7452};
        CHECK_PRINTS(make(x5), R"(
 0.7160
 0.6514
 0.0704
 0.7856
 0.7452
[torch.DoubleTensor of size 5]
)");
        // torch.repeatTensor(x,3,2): each row is x twice (built with expand)
        Tensor<double> r32 = make(x5).view(1, 1, 5).expand(3, 2, 5).contiguous().view(3, 10);
        CHECK_PRINTS(r32, R"(
 0.7160  0.6514  0.0704  0.7856  0.7452  0.7160  0.6514  0.0704  0.7856  0.7452
 0.7160  0.6514  0.0704  0.7856  0.7452  0.7160  0.6514  0.0704  0.7856  0.7452
 0.7160  0.6514  0.0704  0.7856  0.7452  0.7160  0.6514  0.0704  0.7856  0.7452
[torch.DoubleTensor of size 3x10]
)");
        CHECK_PRINTS(make(x5).view(1, 1, 5).expand(3, 2, 5), R"(
(1,.,.) = 
  0.7160  0.6514  0.0704  0.7856  0.7452
  0.7160  0.6514  0.0704  0.7856  0.7452

(2,.,.) = 
  0.7160  0.6514  0.0704  0.7856  0.7452
  0.7160  0.6514  0.0704  0.7856  0.7452

(3,.,.) = 
  0.7160  0.6514  0.0704  0.7856  0.7452
  0.7160  0.6514  0.0704  0.7856  0.7452
[torch.DoubleTensor of size 3x2x5]
)");
        CHECK_PRINTS(
            make({1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}, {4, 6}),
            R"(
 1  2  1  2  1  2
 3  4  3  4  3  4
 1  2  1  2  1  2
 3  4  3  4  3  4
[torch.DoubleTensor of size 4x6]
)");
        CHECK_PRINTS(make({1, 2, 1, 2, 3, 4, 3, 4}, {2, 4}), R"(
 1  2  1  2
 3  4  3  4
[torch.DoubleTensor of size 2x4]
)");
        CHECK_PRINTS(make({1, 2, 1, 2, 1, 2}), R"(
 1
 2
 1
 2
 1
 2
[torch.DoubleTensor of size 6]
)");
    }
    SUBCASE("squeeze: 5-D and 4-D slices, first index fastest") {
        Tensor<double> x = seq(1, 8).view(2, 1, 2, 1, 2);
        CHECK_PRINTS(x, R"(
(1,1,1,.,.) = 
  1  2

(2,1,1,.,.) = 
  5  6

(1,1,2,.,.) = 
  3  4

(2,1,2,.,.) = 
  7  8
[torch.DoubleTensor of size 2x1x2x1x2]
)");
        CHECK_PRINTS(x.squeeze(), R"(
(1,.,.) = 
  1  2
  3  4

(2,.,.) = 
  5  6
  7  8
[torch.DoubleTensor of size 2x2x2]
)");
        CHECK_PRINTS(x.squeeze(1), R"(
(1,1,.,.) = 
  1  2

(2,1,.,.) = 
  5  6

(1,2,.,.) = 
  3  4

(2,2,.,.) = 
  7  8
[torch.DoubleTensor of size 2x2x1x2]
)");
        CHECK_PRINTS(long_storage(x.squeeze().sizes()), R"(
 2
 2
 2
[torch.LongStorage of size 3]
)");
        CHECK_PRINTS(Tensor<double>(1, 3).fill(7).squeeze(0), R"(
 7
 7
 7
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(Tensor<double>(1, 3).fill(7).squeeze(1), R"(
 7  7  7
[torch.DoubleTensor of size 1x3]
)");
    }
    SUBCASE("view") {
        Tensor<double> x(4);
        x.zero();
        const char* z22 = R"(
 0  0
 0  0
[torch.DoubleTensor of size 2x2]
)";
        CHECK_PRINTS(x.view(2, 2), z22);
        CHECK_PRINTS(x.view(2, -1), z22);
        CHECK_PRINTS(x.view(Shape{2, 2}), z22);
        CHECK_PRINTS(x, R"(
 0
 0
 0
 0
[torch.DoubleTensor of size 4]
)");
        Tensor<double> r = seq(1, 12);
        CHECK_PRINTS(r.view(3, 4), R"(
  1   2   3   4
  5   6   7   8
  9  10  11  12
[torch.DoubleTensor of size 3x4]
)");
        CHECK_PRINTS(r.view(-1, 6), R"(
  1   2   3   4   5   6
  7   8   9  10  11  12
[torch.DoubleTensor of size 2x6]
)");
        CHECK_PRINTS(r.view(2, 3, 2), R"(
(1,.,.) = 
   1   2
   3   4
   5   6

(2,.,.) = 
   7   8
   9  10
  11  12
[torch.DoubleTensor of size 2x3x2]
)");
        CHECK_PRINTS(r.view(4, 3), R"(
  1   2   3
  4   5   6
  7   8   9
 10  11  12
[torch.DoubleTensor of size 4x3]
)");
        CHECK_PRINTS(x.viewAs(Tensor<double>(2, 2)), z22);
        CHECK_PRINTS(seq(1, 6).viewAs(Tensor<double>(3, 2)), R"(
 1  2
 3  4
 5  6
[torch.DoubleTensor of size 3x2]
)");
    }
    SUBCASE("transpose and t") {
        Tensor<double> x(3, 4);
        x.zero();
        x.select(1, 2).fill(7);
        CHECK_PRINTS(x, R"(
 0  0  7  0
 0  0  7  0
 0  0  7  0
[torch.DoubleTensor of size 3x4]
)");
        Tensor<double> y = x.transpose(0, 1);
        CHECK_PRINTS(y, R"(
 0  0  0
 0  0  0
 7  7  7
 0  0  0
[torch.DoubleTensor of size 4x3]
)");
        y.select(1, 2).fill(8);
        CHECK_PRINTS(y, R"(
 0  0  8
 0  0  8
 7  7  8
 0  0  8
[torch.DoubleTensor of size 4x3]
)");
        CHECK_PRINTS(x, R"(
 0  0  7  0
 0  0  7  0
 8  8  8  8
[torch.DoubleTensor of size 3x4]
)");
        Tensor<double> t3 = seq(1, 24).view(2, 3, 4).transpose(0, 2);
        CHECK_PRINTS(t3, R"(
(1,.,.) = 
   1  13
   5  17
   9  21

(2,.,.) = 
   2  14
   6  18
  10  22

(3,.,.) = 
   3  15
   7  19
  11  23

(4,.,.) = 
   4  16
   8  20
  12  24
[torch.DoubleTensor of size 4x3x2]
)");
        CHECK_PRINTS(long_storage(t3.strides()), R"(
  1
  4
 12
[torch.LongStorage of size 3]
)");
        CHECK_PRINTS(seq(1, 6).view(2, 3).transpose(1, 1), R"(
 1  2  3
 4  5  6
[torch.DoubleTensor of size 2x3]
)");
        Tensor<double> a(3, 4);
        a.zero();
        a.select(1, 2).fill(7);
        CHECK_PRINTS(a.t(), R"(
 0  0  0
 0  0  0
 7  7  7
 0  0  0
[torch.DoubleTensor of size 4x3]
)");
        CHECK_PRINTS(a, R"(
 0  0  7  0
 0  0  7  0
 0  0  7  0
[torch.DoubleTensor of size 3x4]
)");
    }
    SUBCASE("permute") {
        Tensor<double> x(3, 4, 2, 5);
        CHECK_PRINTS(long_storage(x.sizes()), R"(
 3
 4
 2
 5
[torch.LongStorage of size 4]
)");
        Tensor<double> y = x.permute(1, 2, 0, 3);
        CHECK_PRINTS(long_storage(y.sizes()), R"(
 4
 2
 3
 5
[torch.LongStorage of size 4]
)");
        CHECK_PRINTS(long_storage(y.strides()), R"(
 10
  5
 40
  1
[torch.LongStorage of size 4]
)");
        CHECK_PRINTS(seq(1, 24).view(2, 3, 4).permute(2, 0, 1), R"(
(1,.,.) = 
   1   5   9
  13  17  21

(2,.,.) = 
   2   6  10
  14  18  22

(3,.,.) = 
   3   7  11
  15  19  23

(4,.,.) = 
   4   8  12
  16  20  24
[torch.DoubleTensor of size 4x2x3]
)");
    }
    SUBCASE("unfold") {
        Tensor<double> x(7);
        for (int64_t i = 0; i < 7; ++i) x(i) = double(i + 1);
        CHECK_PRINTS(x, R"(
 1
 2
 3
 4
 5
 6
 7
[torch.DoubleTensor of size 7]
)");
        CHECK_PRINTS(x.unfold(0, 2, 1), R"(
 1  2
 2  3
 3  4
 4  5
 5  6
 6  7
[torch.DoubleTensor of size 6x2]
)");
        CHECK_PRINTS(x.unfold(0, 2, 2), R"(
 1  2
 3  4
 5  6
[torch.DoubleTensor of size 3x2]
)");
        CHECK_PRINTS(x.unfold(0, 3, 2), R"(
 1  2  3
 3  4  5
 5  6  7
[torch.DoubleTensor of size 3x3]
)");
        CHECK_PRINTS(long_storage(x.unfold(0, 3, 2).strides()), R"(
 2
 1
[torch.LongStorage of size 2]
)");
        CHECK_PRINTS(seq(1, 12).view(3, 4).unfold(1, 2, 2), R"(
(1,.,.) = 
   1   2
   3   4

(2,.,.) = 
   5   6
   7   8

(3,.,.) = 
   9  10
  11  12
[torch.DoubleTensor of size 3x2x2]
)");
        CHECK_PRINTS(seq(1, 12).view(3, 4).unfold(0, 2, 1), R"(
(1,.,.) = 
   1   5
   2   6
   3   7
   4   8

(2,.,.) = 
   5   9
   6  10
   7  11
   8  12
[torch.DoubleTensor of size 2x4x2]
)");
        CHECK_PRINTS(x.unfold(0, 7, 1), R"(
 1  2  3  4  5  6  7
[torch.DoubleTensor of size 1x7]
)");
    }
}

// ---------------------------------------------------------------------------------
TEST_CASE("print: tensor_apply_split.txt") {
    SUBCASE("apply, map, map2") {
        Tensor<double> z(3, 3);
        int i = 0;
        z.apply([&]() { return ++i; });
        const char* z_text = R"(
 1  2  3
 4  5  6
 7  8  9
[torch.DoubleTensor of size 3x3]
)";
        CHECK_PRINTS(z, z_text);
        z.apply([](double v) { return std::sin(v); });
        CHECK_PRINTS(z, R"(
 0.8415  0.9093  0.1411
-0.7568 -0.9589 -0.2794
 0.6570  0.9894  0.4121
[torch.DoubleTensor of size 3x3]
)");
        Tensor<double> x(3, 3), y(9);
        i = 0;
        x.apply([&]() { return ++i; });
        i = 0;
        y.apply([&]() { return ++i; });
        CHECK_PRINTS(x, z_text);
        const char* y_text = R"(
 1
 2
 3
 4
 5
 6
 7
 8
 9
[torch.DoubleTensor of size 9]
)";
        CHECK_PRINTS(y, y_text);
        x.map(y, [](double a, double b) { return a * b; });
        CHECK_PRINTS(x, R"(
  1   4   9
 16  25  36
 49  64  81
[torch.DoubleTensor of size 3x3]
)");
        Tensor<double> c(3, 3), w(3, 3);
        i = 0;
        c.apply([&]() {
            ++i;
            return std::cos(i) * std::cos(i);
        });
        i = 0;
        w.apply([&]() { return ++i; });
        CHECK_PRINTS(c, R"(
 0.2919  0.1732  0.9801
 0.4272  0.0805  0.9219
 0.5684  0.0212  0.8302
[torch.DoubleTensor of size 3x3]
)");
        CHECK_PRINTS(y, y_text);
        CHECK_PRINTS(w, z_text);
        c.map2(y, w, [](double a, double b, double d) { return a + b * d; });
        CHECK_PRINTS(c, R"(
  1.2919   4.1732   9.9801
 16.4272  25.0805  36.9219
 49.5684  64.0212  81.8302
[torch.DoubleTensor of size 3x3]
)");
        Tensor<double> t(3, 4);
        t.zero();
        i = 0;
        t.t().apply([&]() { return ++i; });
        CHECK_PRINTS(t, R"(
  1   4   7  10
  2   5   8  11
  3   6   9  12
[torch.DoubleTensor of size 3x4]
)");
        CHECK_PRINTS(make<int32_t>({1, 2, 3}).apply([](int32_t v) { return v * 2.7; }), R"(
 2
 5
 8
[torch.IntTensor of size 3]
)");
    }
    Tensor<double> x = seq(1, 60).view(3, 4, 5);
    const char* rows1to40 = R"(
(1,.,.) = 
   1   2   3   4   5
   6   7   8   9  10
  11  12  13  14  15
  16  17  18  19  20

(2,.,.) = 
  21  22  23  24  25
  26  27  28  29  30
  31  32  33  34  35
  36  37  38  39  40
[torch.DoubleTensor of size 2x4x5]
)";
    const char* rows41to60 = R"(
(1,.,.) = 
  41  42  43  44  45
  46  47  48  49  50
  51  52  53  54  55
  56  57  58  59  60
[torch.DoubleTensor of size 1x4x5]
)";
    SUBCASE("split") {
        auto a = x.split(2, 0);
        REQUIRE(a.size() == 2);
        CHECK_PRINTS(a[0], rows1to40);
        CHECK_PRINTS(a[1], rows41to60);
        auto b = x.split(3, 1);
        REQUIRE(b.size() == 2);
        CHECK_PRINTS(b[0], R"(
(1,.,.) = 
   1   2   3   4   5
   6   7   8   9  10
  11  12  13  14  15

(2,.,.) = 
  21  22  23  24  25
  26  27  28  29  30
  31  32  33  34  35

(3,.,.) = 
  41  42  43  44  45
  46  47  48  49  50
  51  52  53  54  55
[torch.DoubleTensor of size 3x3x5]
)");
        CHECK_PRINTS(b[1], R"(
(1,.,.) = 
  16  17  18  19  20

(2,.,.) = 
  36  37  38  39  40

(3,.,.) = 
  56  57  58  59  60
[torch.DoubleTensor of size 3x1x5]
)");
        auto c = x.split(2, 2);
        REQUIRE(c.size() == 3);
        CHECK_PRINTS(c[0], R"(
(1,.,.) = 
   1   2
   6   7
  11  12
  16  17

(2,.,.) = 
  21  22
  26  27
  31  32
  36  37

(3,.,.) = 
  41  42
  46  47
  51  52
  56  57
[torch.DoubleTensor of size 3x4x2]
)");
        CHECK_PRINTS(c[1], R"(
(1,.,.) = 
   3   4
   8   9
  13  14
  18  19

(2,.,.) = 
  23  24
  28  29
  33  34
  38  39

(3,.,.) = 
  43  44
  48  49
  53  54
  58  59
[torch.DoubleTensor of size 3x4x2]
)");
        CHECK_PRINTS(c[2], R"(
(1,.,.) = 
   5
  10
  15
  20

(2,.,.) = 
  25
  30
  35
  40

(3,.,.) = 
  45
  50
  55
  60
[torch.DoubleTensor of size 3x4x1]
)");
        auto d = x.split(2);
        REQUIRE(d.size() == 2);
        CHECK_PRINTS(d[0], rows1to40);
        CHECK_PRINTS(d[1], rows41to60);
        auto e = seq(1, 7).split(3);
        REQUIRE(e.size() == 3);
        CHECK_PRINTS(e[0], R"(
 1
 2
 3
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(e[1], R"(
 4
 5
 6
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(e[2], R"(
 7
[torch.DoubleTensor of size 1]
)");
    }
    SUBCASE("chunk") {
        auto a = x.chunk(2, 0);
        REQUIRE(a.size() == 2);
        CHECK_PRINTS(a[0], rows1to40);
        CHECK_PRINTS(a[1], rows41to60);
        auto b = x.chunk(2, 1);
        REQUIRE(b.size() == 2);
        CHECK_PRINTS(b[0], R"(
(1,.,.) = 
   1   2   3   4   5
   6   7   8   9  10

(2,.,.) = 
  21  22  23  24  25
  26  27  28  29  30

(3,.,.) = 
  41  42  43  44  45
  46  47  48  49  50
[torch.DoubleTensor of size 3x2x5]
)");
        CHECK_PRINTS(b[1], R"(
(1,.,.) = 
  11  12  13  14  15
  16  17  18  19  20

(2,.,.) = 
  31  32  33  34  35
  36  37  38  39  40

(3,.,.) = 
  51  52  53  54  55
  56  57  58  59  60
[torch.DoubleTensor of size 3x2x5]
)");
        auto c = x.chunk(2, 2);
        REQUIRE(c.size() == 2);
        CHECK_PRINTS(c[0], R"(
(1,.,.) = 
   1   2   3
   6   7   8
  11  12  13
  16  17  18

(2,.,.) = 
  21  22  23
  26  27  28
  31  32  33
  36  37  38

(3,.,.) = 
  41  42  43
  46  47  48
  51  52  53
  56  57  58
[torch.DoubleTensor of size 3x4x3]
)");
        CHECK_PRINTS(c[1], R"(
(1,.,.) = 
   4   5
   9  10
  14  15
  19  20

(2,.,.) = 
  24  25
  29  30
  34  35
  39  40

(3,.,.) = 
  44  45
  49  50
  54  55
  59  60
[torch.DoubleTensor of size 3x4x2]
)");
        auto d = seq(1, 10).chunk(3);
        REQUIRE(d.size() == 3);
        CHECK_PRINTS(d[0], R"(
 1
 2
 3
 4
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(d[1], R"(
 5
 6
 7
 8
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(d[2], R"(
  9
 10
[torch.DoubleTensor of size 2]
)");
        auto e = seq(1, 10).chunk(4);
        REQUIRE(e.size() == 4);
        CHECK_PRINTS(e[0], R"(
 1
 2
 3
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(e[1], R"(
 4
 5
 6
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(e[2], R"(
 7
 8
 9
[torch.DoubleTensor of size 3]
)");
        CHECK_PRINTS(e[3], R"(
 10
[torch.DoubleTensor of size 1]
)");
        auto f = seq(1, 3).chunk(5);
        REQUIRE(f.size() == 3);
        CHECK_PRINTS(f[0], R"(
 1
[torch.DoubleTensor of size 1]
)");
        CHECK_PRINTS(f[1], R"(
 2
[torch.DoubleTensor of size 1]
)");
        CHECK_PRINTS(f[2], R"(
 3
[torch.DoubleTensor of size 1]
)");
    }
}

// ---------------------------------------------------------------------------------
TEST_CASE("print: tensor_index_ops.txt") {
    const std::vector<double> R = {0.8020, 0.7246, 0.1204, 0.3419, 0.4385, 0.0369, 0.4158,
                                   0.0985, 0.3024, 0.8186, 0.2746, 0.9362, 0.2546, 0.8586,
                                   0.6674, 0.7473, 0.9028, 0.1046, 0.9085, 0.6622, 0.1412,
                                   0.6784, 0.1624, 0.8113, 0.3949};
    SUBCASE("index") {
        Tensor<double> x = make(R, {5, 5});
        const char* x_text = R"(
 0.8020  0.7246  0.1204  0.3419  0.4385
 0.0369  0.4158  0.0985  0.3024  0.8186
 0.2746  0.9362  0.2546  0.8586  0.6674
 0.7473  0.9028  0.1046  0.9085  0.6622
 0.1412  0.6784  0.1624  0.8113  0.3949
[torch.DoubleTensor of size 5x5]
)";
        CHECK_PRINTS(x, x_text);
        // x:index(1, {3,1}): rows 2 and 0
        Tensor<double> y(2, 5);
        y[0] = x[2];
        y[1] = x[0];
        const char* y_text = R"(
 0.2746  0.9362  0.2546  0.8586  0.6674
 0.8020  0.7246  0.1204  0.3419  0.4385
[torch.DoubleTensor of size 2x5]
)";
        CHECK_PRINTS(y, y_text);
        y.fill(1);
        CHECK_PRINTS(y, R"(
 1  1  1  1  1
 1  1  1  1  1
[torch.DoubleTensor of size 2x5]
)");
        CHECK_PRINTS(x, x_text);
        // x:index(2, {5,5,1})
        Tensor<double> z(5, 3);
        z.select(1, 0) = x.select(1, 4);
        z.select(1, 1) = x.select(1, 4);
        z.select(1, 2) = x.select(1, 0);
        CHECK_PRINTS(z, R"(
 0.4385  0.4385  0.8020
 0.8186  0.8186  0.0369
 0.6674  0.6674  0.2746
 0.6622  0.6622  0.7473
 0.3949  0.3949  0.1412
[torch.DoubleTensor of size 5x3]
)");
        CHECK_PRINTS(make({5, 4, 1}), R"(
 5
 4
 1
[torch.DoubleTensor of size 3]
)");
    }
    SUBCASE("indexCopy") {
        Tensor<double> x = make(R, {5, 5});
        Tensor<double> z(5, 2);
        z.select(1, 0).fill(-1);
        z.select(1, 1).fill(-2);
        const char* z_text = R"(
-1 -2
-1 -2
-1 -2
-1 -2
-1 -2
[torch.DoubleTensor of size 5x2]
)";
        CHECK_PRINTS(z, z_text);
        // x:indexCopy(2, {5,1}, z)
        x.select(1, 4) = z.select(1, 0);
        x.select(1, 0) = z.select(1, 1);
        CHECK_PRINTS(x, R"(
-2.0000  0.7246  0.1204  0.3419 -1.0000
-2.0000  0.4158  0.0985  0.3024 -1.0000
-2.0000  0.9362  0.2546  0.8586 -1.0000
-2.0000  0.9028  0.1046  0.9085 -1.0000
-2.0000  0.6784  0.1624  0.8113 -1.0000
[torch.DoubleTensor of size 5x5]
)");
        CHECK_PRINTS(seq(1, 8).view(2, 4), R"(
 1  2  3  4
 5  6  7  8
[torch.DoubleTensor of size 2x4]
)");
    }
    SUBCASE("indexAdd") {
        Tensor<double> x =
            make({-2.1742, 0.5688,  -1.0201, 0.1383, 1.0504,  0.0970,  0.2169,  0.1324, 0.9553,
                  -1.9518, -0.7607, 0.8947,  0.1658, -0.2181, -2.1237, -1.4099, 0.2342, 0.4549,
                  0.6316,  -0.2608, 0.0349,  0.4713, 0.0050,  0.1677,  0.2103},
                 {5, 5});
        CHECK_PRINTS(x, R"(
-2.1742  0.5688 -1.0201  0.1383  1.0504
 0.0970  0.2169  0.1324  0.9553 -1.9518
-0.7607  0.8947  0.1658 -0.2181 -2.1237
-1.4099  0.2342  0.4549  0.6316 -0.2608
 0.0349  0.4713  0.0050  0.1677  0.2103
[torch.DoubleTensor of size 5x5]
)");
        Tensor<double> z(5, 2);
        z.select(1, 0).fill(-1);
        z.select(1, 1).fill(-2);
        const char* z_text = R"(
-1 -2
-1 -2
-1 -2
-1 -2
-1 -2
[torch.DoubleTensor of size 5x2]
)";
        CHECK_PRINTS(z, z_text);
        // x:indexAdd(2, {5,1}, z) (Torch7 printed z, the value the call returned)
        auto add = [](double a, double b) { return a + b; };
        x.select(1, 4).map(z.select(1, 0), add);
        x.select(1, 0).map(z.select(1, 1), add);
        CHECK_PRINTS(z, z_text);
        CHECK_PRINTS(x, R"(
-4.1742  0.5688 -1.0201  0.1383  0.0504
-1.9030  0.2169  0.1324  0.9553 -2.9518
-2.7607  0.8947  0.1658 -0.2181 -3.1237
-3.4099  0.2342  0.4549  0.6316 -1.2608
-1.9651  0.4713  0.0050  0.1677 -0.7897
[torch.DoubleTensor of size 5x5]
)");
        Tensor<double> a = seq(1, 5);
        CHECK_PRINTS(a, R"(
 1
 2
 3
 4
 5
[torch.DoubleTensor of size 5]
)");
        // a:indexAdd(1, {1,1,3,3}, range(1,4)) (Torch7 printed the source)
        CHECK_PRINTS(seq(1, 4), R"(
 1
 2
 3
 4
[torch.DoubleTensor of size 4]
)");
        a(0) += 1 + 2;
        a(2) += 3 + 4;
        CHECK_PRINTS(a, R"(
  4
  2
 10
  4
  5
[torch.DoubleTensor of size 5]
)");
    }
    SUBCASE("indexFill") {
        Tensor<double> x =
            make({0.8414, 0.4121, 0.3934, 0.5600, 0.5403, 0.3029, 0.2040, 0.7893, 0.6079,
                  0.6334, 0.3743, 0.1389, 0.1573, 0.1357, 0.8460, 0.2838, 0.9925, 0.0076,
                  0.7220, 0.5185, 0.8739, 0.6887, 0.4271, 0.0385, 0.9116},
                 {5, 5});
        CHECK_PRINTS(x, R"(
 0.8414  0.4121  0.3934  0.5600  0.5403
 0.3029  0.2040  0.7893  0.6079  0.6334
 0.3743  0.1389  0.1573  0.1357  0.8460
 0.2838  0.9925  0.0076  0.7220  0.5185
 0.8739  0.6887  0.4271  0.0385  0.9116
[torch.DoubleTensor of size 5x5]
)");
        x.select(1, 3).fill(-10);
        x.select(1, 1).fill(-10);
        CHECK_PRINTS(x, R"(
  0.8414 -10.0000   0.3934 -10.0000   0.5403
  0.3029 -10.0000   0.7893 -10.0000   0.6334
  0.3743 -10.0000   0.1573 -10.0000   0.8460
  0.2838 -10.0000   0.0076 -10.0000   0.5185
  0.8739 -10.0000   0.4271 -10.0000   0.9116
[torch.DoubleTensor of size 5x5]
)");
    }
    SUBCASE("gather") {
        Tensor<double> x =
            make({0.7259, 0.5291, 0.4559, 0.4367, 0.4133, 0.0513, 0.4404, 0.4741, 0.0658,
                  0.0653, 0.3393, 0.1735, 0.6439, 0.1011, 0.7923, 0.7606, 0.5025, 0.5706,
                  0.7193, 0.1572, 0.1720, 0.3546, 0.8354, 0.8339, 0.3025},
                 {5, 5});
        CHECK_PRINTS(x, R"(
 0.7259  0.5291  0.4559  0.4367  0.4133
 0.0513  0.4404  0.4741  0.0658  0.0653
 0.3393  0.1735  0.6439  0.1011  0.7923
 0.7606  0.5025  0.5706  0.7193  0.1572
 0.1720  0.3546  0.8354  0.8339  0.3025
[torch.DoubleTensor of size 5x5]
)");
        // Gathers written out with element access (0-based indices).
        auto gather0 = [&](const std::vector<std::vector<int>>& idx) {
            Tensor<double> r(int64_t(idx.size()), int64_t(idx[0].size()));
            for (size_t i = 0; i < idx.size(); ++i)
                for (size_t j = 0; j < idx[i].size(); ++j)
                    r(int64_t(i), int64_t(j)) = x(idx[i][j], int64_t(j));
            return r;
        };
        auto gather1 = [&](const std::vector<std::vector<int>>& idx) {
            Tensor<double> r(int64_t(idx.size()), int64_t(idx[0].size()));
            for (size_t i = 0; i < idx.size(); ++i)
                for (size_t j = 0; j < idx[i].size(); ++j)
                    r(int64_t(i), int64_t(j)) = x(int64_t(i), idx[i][j]);
            return r;
        };
        CHECK_PRINTS(gather0({{0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}}), R"(
 0.7259  0.4404  0.6439  0.7193  0.3025
 0.0513  0.1735  0.5706  0.8339  0.4133
[torch.DoubleTensor of size 2x5]
)");
        CHECK_PRINTS(gather1({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}), R"(
 0.7259  0.5291
 0.4404  0.4741
 0.6439  0.1011
 0.7193  0.1572
 0.3025  0.1720
[torch.DoubleTensor of size 5x2]
)");
        CHECK_PRINTS(gather1({{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}), R"(
 0.7259  0.7259
 0.4404  0.4404
 0.6439  0.6439
 0.7193  0.7193
 0.3025  0.3025
[torch.DoubleTensor of size 5x2]
)");
        CHECK_PRINTS(gather0({{4, 3, 2, 1, 0}}), R"(
 0.1720  0.5025  0.6439  0.0658  0.4133
[torch.DoubleTensor of size 1x5]
)");
        CHECK_PRINTS(seq(1, 24).view(2, 3, 4).narrow(2, 1, 1), R"(
(1,.,.) = 
   2
   6
  10

(2,.,.) = 
  14
  18
  22
[torch.DoubleTensor of size 2x3x1]
)");
    }
    SUBCASE("scatter") {
        Tensor<double> x =
            make({0.3227, 0.4294, 0.8476, 0.9414, 0.1159, 0.7338, 0.5185, 0.2947, 0.0578, 0.1273},
                 {2, 5});
        CHECK_PRINTS(x, R"(
 0.3227  0.4294  0.8476  0.9414  0.1159
 0.7338  0.5185  0.2947  0.0578  0.1273
[torch.DoubleTensor of size 2x5]
)");
        // zeros(3,5):scatter(1, {{1,2,3,1,1},{3,1,1,2,3}}, x)
        const int idx[2][5] = {{0, 1, 2, 0, 0}, {2, 0, 0, 1, 2}};
        Tensor<double> y(3, 5);
        y.zero();
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 5; ++j) y(idx[i][j], j) = x(i, j);
        CHECK_PRINTS(y, R"(
 0.3227  0.5185  0.2947  0.9414  0.1159
 0.0000  0.4294  0.0000  0.0578  0.0000
 0.7338  0.0000  0.8476  0.0000  0.1273
[torch.DoubleTensor of size 3x5]
)");
        Tensor<double> z(2, 4);
        z.zero();
        z(0, 2) = 1.23;
        z(1, 3) = 1.23;
        CHECK_PRINTS(z, R"(
 0.0000  0.0000  1.2300  0.0000
 0.0000  0.0000  0.0000  1.2300
[torch.DoubleTensor of size 2x4]
)");
        CHECK_PRINTS(make({1, 2, 0, 4, 0, 3}, {2, 3}), R"(
 1  2  0
 4  0  3
[torch.DoubleTensor of size 2x3]
)");
    }
    SUBCASE("maskedSelect, maskedCopy, maskedFill") {
        Tensor<double> x = seq(1, 12).resize(3, 4);
        CHECK_PRINTS(x, R"(
  1   2   3   4
  5   6   7   8
  9  10  11  12
[torch.DoubleTensor of size 3x4]
)");
        CHECK_PRINTS(make<uint8_t>({1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1}, {2, 6}), R"(
 1  0  1  0  0  0
 1  1  0  0  0  1
[torch.ByteTensor of size 2x6]
)");
        const char* sel = R"(
  1
  3
  7
  8
 12
[torch.DoubleTensor of size 5]
)";
        CHECK_PRINTS(make({1, 3, 7, 8, 12}), sel);
        CHECK_PRINTS(make({1, 3, 7, 8, 12}), sel);
        CHECK_PRINTS(Tensor<double>(), R"(
[torch.DoubleTensor with no dimension]
)");
        CHECK_PRINTS(seq(7, 12), R"(
  7
  8
  9
 10
 11
 12
[torch.DoubleTensor of size 6]
)");
        Tensor<double> m = make({0, 0, 0, 0});
        m(1) = 10;
        m(3) = 20;
        CHECK_PRINTS(m, R"(
  0
 10
  0
 20
[torch.DoubleTensor of size 4]
)");
        CHECK_PRINTS(seq(1, 4).resize(2, 2), R"(
 1  2
 3  4
[torch.DoubleTensor of size 2x2]
)");
        CHECK_PRINTS(make<uint8_t>({0, 0, 1, 1, 1, 0, 1, 0}, {1, 8}), R"(
 0  0  1  1  1  0  1  0
[torch.ByteTensor of size 1x8]
)");
        Tensor<double> y(2, 4);
        y.fill(-1);
        CHECK_PRINTS(y, R"(
-1 -1 -1 -1
-1 -1 -1 -1
[torch.DoubleTensor of size 2x4]
)");
        y(0, 2) = 1;
        y(0, 3) = 2;
        y(1, 0) = 3;
        y(1, 2) = 4;
        CHECK_PRINTS(y, R"(
-1 -1  1  2
 3 -1  4 -1
[torch.DoubleTensor of size 2x4]
)");
        Tensor<double> r = seq(1, 4).resize(1, 4);
        CHECK_PRINTS(r, R"(
 1  2  3  4
[torch.DoubleTensor of size 1x4]
)");
        CHECK_PRINTS(make<uint8_t>({0, 0, 1, 1}, {2, 2}), R"(
 0  0
 1  1
[torch.ByteTensor of size 2x2]
)");
        r.narrow(1, 2, 2).fill(-1);
        CHECK_PRINTS(r, R"(
 1  2 -1 -1
[torch.DoubleTensor of size 1x4]
)");
        Tensor<double> f = seq(1, 6).view(2, 3);
        f.apply([](double v) { return v >= 3 ? 0.0 : v; });
        CHECK_PRINTS(f, R"(
 1  2  0
 0  0  0
[torch.DoubleTensor of size 2x3]
)");
    }
    SUBCASE("nonzero") {
        CHECK_PRINTS(make<int32_t>({2, 0, 2, 0, 0, 0, 1, 2, 0, 2, 2, 1, 2, 1, 2, 2}, {4, 4}), R"(
 2  0  2  0
 0  0  1  2
 0  2  2  1
 2  1  2  2
[torch.IntTensor of size 4x4]
)");
        const char* nz = R"(
 1  1
 1  3
 2  3
 2  4
 3  2
 3  3
 3  4
 4  1
 4  2
 4  3
 4  4
[torch.LongTensor of size 11x2]
)";
        CHECK_PRINTS(
            make<int64_t>({1, 1, 1, 3, 2, 3, 2, 4, 3, 2, 3, 3, 3, 4, 4, 1, 4, 2, 4, 3, 4, 4},
                          {11, 2}),
            nz);
        CHECK_PRINTS(make<int64_t>({2, 3, 3, 4, 4, 2}, {3, 2}), R"(
 2  3
 3  4
 4  2
[torch.LongTensor of size 3x2]
)");
        CHECK_PRINTS(make<int64_t>({2, 4}, {2, 1}), R"(
 2
 4
[torch.LongTensor of size 2x1]
)");
        CHECK_PRINTS(Tensor<int64_t>(), R"(
[torch.LongTensor with no dimension]
)");
        CHECK_PRINTS(make<int64_t>({1, 1, 2, 1, 2, 1, 2, 2, 1, 2, 2, 2}, {4, 3}), R"(
 1  1  2
 1  2  1
 2  2  1
 2  2  2
[torch.LongTensor of size 4x3]
)");
    }
}

// ---------------------------------------------------------------------------------
// Hand-made cases for rules the transcripts do not show. Expected texts follow
// Torch7's Tensor.lua algorithm with LuaJIT's string.format.
namespace {
const double NaN = std::numeric_limits<double>::quiet_NaN();
const double Inf = std::numeric_limits<double>::infinity();

std::vector<double> values(int64_t a, int64_t b, double mul = 1, double add = 0) {
    std::vector<double> v;
    for (int64_t i = a; i <= b; ++i) v.push_back(double(i) * mul + add);
    return v;
}
} // namespace

TEST_CASE("print: a scale line for large and small magnitudes") {
    // more than 5 integer digits: divided by 10^(digits-1)
    CHECK_PRINTS(make({123456.5, -200000.25, 150000}), R"(
100000 *
 1.2346
-2.0000
 1.5000
[torch.DoubleTensor of size 3]
)");
    // 2-D: the rows under a scale line take one more leading space
    CHECK_PRINTS(make({123456.5, 200000, 300000, 400000}, {2, 2}), R"(
100000 *
  1.2346  2.0000
  3.0000  4.0000
[torch.DoubleTensor of size 2x2]
)");
    CHECK_PRINTS(make({1234567.5, 2500000}), R"(
1e+06 *
 1.2346
 2.5000
[torch.DoubleTensor of size 2]
)");
    // below 0.1: 10^(digits-1) with digits = floor(log10 0.05) + 1 = -1
    CHECK_PRINTS(make({0.05, -0.0123}), R"(
0.01 *
 5.0000
-1.2300
[torch.DoubleTensor of size 2]
)");
    // Torch7 never prints "1e+03 *": up to 5 integer digits widen the %.4f field
    CHECK_PRINTS(make({1234.5, -2.25}), R"(
 1234.5000
   -2.2500
[torch.DoubleTensor of size 2]
)");
    // inside a 3-D slice: the scale line after the header, rows one space deeper
    CHECK_PRINTS(make(values(1, 8, 1e-5, 0.5e-5), {2, 2, 2}), R"(
(1,.,.) = 
 1e-05 *
   1.5000  2.5000
   3.5000  4.5000

(2,.,.) = 
 1e-05 *
   5.5000  6.5000
   7.5000  8.5000
[torch.DoubleTensor of size 2x2x2]
)");
    CHECK_PRINTS(make<float>({1.5e-5, 2.5e-5}), R"(
1e-05 *
 1.5000
 2.5000
[torch.FloatTensor of size 2]
)");
}

TEST_CASE("print: exponent format") {
    // magnitudes spanning more than 4 decades
    CHECK_PRINTS(make({123456.5, 0.5}), R"(
 1.2346e+05
 5.0000e-01
[torch.DoubleTensor of size 2]
)");
    CHECK_PRINTS(make({123456.5, 0.002, -2.5, 3}, {2, 2}), R"(
 1.2346e+05  2.0000e-03
-2.5000e+00  3.0000e+00
[torch.DoubleTensor of size 2x2]
)");
    // a three-digit exponent widens the field to 12
    CHECK_PRINTS(make({1.5e100, 0.5}), R"(
 1.5000e+100
  5.0000e-01
[torch.DoubleTensor of size 2]
)");
    // integers from 1e9 up
    CHECK_PRINTS(make<int64_t>({1000000000, -5, 0}), R"(
 1.0000e+09
-5.0000e+00
 0.0000e+00
[torch.LongTensor of size 3]
)");
    CHECK_PRINTS(make<int64_t>({999999999, -5}), R"(
 999999999
        -5
[torch.LongTensor of size 2]
)");
    // Torch7 counts a zero as one digit, so a zero does not widen the span
    CHECK_PRINTS(make({0, 0.00001, 1.5}), R"(
 0.0000
 0.0000
 1.5000
[torch.DoubleTensor of size 3]
)");
}

TEST_CASE("print: negative values, -0, NaN and infinities") {
    CHECK_PRINTS(make({-1, -20, 3}, {1, 3}), R"(
 -1 -20   3
[torch.DoubleTensor of size 1x3]
)");
    CHECK_PRINTS(make<int8_t>({-128, 127}), R"(
-128
 127
[torch.CharTensor of size 2]
)");
    // -0 among integers prints as 0; %.4f keeps C's sign, as Torch7 does
    CHECK_PRINTS(make({-0.0, 1}), R"(
 0
 1
[torch.DoubleTensor of size 2]
)");
    CHECK_PRINTS(make({-0.0, 1.5}), R"(
-0.0000
 1.5000
[torch.DoubleTensor of size 2]
)");
    // a NaN anywhere: unaligned %f, every value
    CHECK_PRINTS(make({1.5, NaN, -2}), R"(
1.500000
nan
-2.000000
[torch.DoubleTensor of size 3]
)");
    CHECK_PRINTS(make({1.5, -NaN, -2}), R"(
1.500000
nan
-2.000000
[torch.DoubleTensor of size 3]
)");
    CHECK_PRINTS(make({1, NaN, -2.5, 3}, {2, 2}), R"(
1.000000 nan
-2.500000 3.000000
[torch.DoubleTensor of size 2x2]
)");
    CHECK_PRINTS(make({1, NaN, 2, 3}, {2, 1, 2}), R"(
(1,.,.) = 
 1.000000 nan

(2,.,.) = 
 2.000000 3.000000
[torch.DoubleTensor of size 2x1x2]
)");
    // with a NaN no row is split into Columns blocks
    std::vector<double> v = values(1, 60);
    v[6] = NaN;
    CHECK_PRINTS(make(v, {2, 30}), R"(
1.000000 2.000000 3.000000 4.000000 5.000000 6.000000 nan 8.000000 9.000000 10.000000 11.000000 12.000000 13.000000 14.000000 15.000000 16.000000 17.000000 18.000000 19.000000 20.000000 21.000000 22.000000 23.000000 24.000000 25.000000 26.000000 27.000000 28.000000 29.000000 30.000000
31.000000 32.000000 33.000000 34.000000 35.000000 36.000000 37.000000 38.000000 39.000000 40.000000 41.000000 42.000000 43.000000 44.000000 45.000000 46.000000 47.000000 48.000000 49.000000 50.000000 51.000000 52.000000 53.000000 54.000000 55.000000 56.000000 57.000000 58.000000 59.000000 60.000000
[torch.DoubleTensor of size 2x30]
)");
    // an infinity has infinitely many digits: exponent format
    CHECK_PRINTS(make({1, Inf, -Inf}), R"(
 1.0000e+00
        inf
       -inf
[torch.DoubleTensor of size 3]
)");
    CHECK_PRINTS(make<float>({1.5, float(Inf)}), R"(
  1.5000e+00
         inf
[torch.FloatTensor of size 2]
)");
}

TEST_CASE("print: rows wider than 80 characters split into Columns blocks") {
    CHECK_PRINTS(seq(1, 60).view(2, 30), R"(
Columns 1 to 20
  1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20
 31  32  33  34  35  36  37  38  39  40  41  42  43  44  45  46  47  48  49  50

Columns 21 to 30
 21  22  23  24  25  26  27  28  29  30
 51  52  53  54  55  56  57  58  59  60
[torch.DoubleTensor of size 2x30]
)");
    // inside a 3-D slice only the first Columns line is indented, and the one-space
    // indent leaves room for 15 columns of width 4
    CHECK_PRINTS(seq(1, 120).view(2, 2, 30), R"(
(1,.,.) = 
 Columns 1 to 15
    1    2    3    4    5    6    7    8    9   10   11   12   13   14   15
   31   32   33   34   35   36   37   38   39   40   41   42   43   44   45

Columns 16 to 30
   16   17   18   19   20   21   22   23   24   25   26   27   28   29   30
   46   47   48   49   50   51   52   53   54   55   56   57   58   59   60

(2,.,.) = 
 Columns 1 to 15
   61   62   63   64   65   66   67   68   69   70   71   72   73   74   75
   91   92   93   94   95   96   97   98   99  100  101  102  103  104  105

Columns 16 to 30
   76   77   78   79   80   81   82   83   84   85   86   87   88   89   90
  106  107  108  109  110  111  112  113  114  115  116  117  118  119  120
[torch.DoubleTensor of size 2x2x30]
)");
    // ten columns of width 7 fill exactly 80 characters in 2-D (no split, see
    // repeatTensor above) but not after a slice's indent
    CHECK_PRINTS(make(values(1, 20, 0.1, 0.05), {1, 2, 10}), R"(
(1,.,.) = 
 Columns 1 to 9
  0.1500  0.2500  0.3500  0.4500  0.5500  0.6500  0.7500  0.8500  0.9500
  1.1500  1.2500  1.3500  1.4500  1.5500  1.6500  1.7500  1.8500  1.9500

Columns 10 to 10
  1.0500
  2.0500
[torch.DoubleTensor of size 1x2x10]
)");
    // each block repeats the scale line
    CHECK_PRINTS(make(values(1, 24, 1e5, 0.5), {2, 12}), R"(
Columns 1 to 10
1e+06 *
  0.1000  0.2000  0.3000  0.4000  0.5000  0.6000  0.7000  0.8000  0.9000  1.0000
  1.3000  1.4000  1.5000  1.6000  1.7000  1.8000  1.9000  2.0000  2.1000  2.2000

Columns 11 to 12
1e+06 *
  1.1000  1.2000
  2.3000  2.4000
[torch.DoubleTensor of size 2x12]
)");
    // a transposed (non-contiguous) wide matrix
    CHECK_PRINTS(seq(1, 60).view(30, 2).t(), R"(
Columns 1 to 20
  1   3   5   7   9  11  13  15  17  19  21  23  25  27  29  31  33  35  37  39
  2   4   6   8  10  12  14  16  18  20  22  24  26  28  30  32  34  36  38  40

Columns 21 to 30
 41  43  45  47  49  51  53  55  57  59
 42  44  46  48  50  52  54  56  58  60
[torch.DoubleTensor of size 2x30]
)");
}

TEST_CASE("print: rank 4 and more, first index fastest") {
    CHECK_PRINTS(seq(1, 16).view(2, 2, 2, 2), R"(
(1,1,.,.) = 
   1   2
   3   4

(2,1,.,.) = 
   9  10
  11  12

(1,2,.,.) = 
   5   6
   7   8

(2,2,.,.) = 
  13  14
  15  16
[torch.DoubleTensor of size 2x2x2x2]
)");
    CHECK_PRINTS(seq(1, 12).view(3, 2, 1, 2), R"(
(1,1,.,.) = 
   1   2

(2,1,.,.) = 
   5   6

(3,1,.,.) = 
   9  10

(1,2,.,.) = 
   3   4

(2,2,.,.) = 
   7   8

(3,2,.,.) = 
  11  12
[torch.DoubleTensor of size 3x2x1x2]
)");
    // a permuted (non-contiguous) 4-D view
    CHECK_PRINTS(seq(1, 16).view(2, 2, 2, 2).permute(3, 2, 1, 0), R"(
(1,1,.,.) = 
   1   9
   5  13

(2,1,.,.) = 
   2  10
   6  14

(1,2,.,.) = 
   3  11
   7  15

(2,2,.,.) = 
   4  12
   8  16
[torch.DoubleTensor of size 2x2x2x2]
)");
}

TEST_CASE("print: non-contiguous tensors print in logical order") {
    CHECK_PRINTS(make({0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, {2, 3}).t(), R"(
 0.5000  3.5000
 1.5000  4.5000
 2.5000  5.5000
[torch.DoubleTensor of size 3x2]
)");
    // the format comes from the viewed elements only, not the whole storage
    Tensor<double> big = make({1000, 1, 2, 3}, {2, 2});
    CHECK_PRINTS(big.select(1, 1), R"(
 1
 3
[torch.DoubleTensor of size 2]
)");
    CHECK_PRINTS(seq(1, 10).narrow(0, 2, 6).unfold(0, 2, 2).t(), R"(
 3  5  7
 4  6  8
[torch.DoubleTensor of size 2x3]
)");
}

TEST_CASE("print: element types") {
    CHECK_PRINTS(make<int16_t>({-300, 2, 7, 1000}, {2, 2}), R"(
 -300     2
    7  1000
[torch.ShortTensor of size 2x2]
)");
    CHECK_PRINTS(make<uint8_t>({0, 255, 16, 1}, {1, 2, 2}), R"(
(1,.,.) = 
    0  255
   16    1
[torch.ByteTensor of size 1x2x2]
)");
    CHECK_PRINTS(make<float>({0.25, -1.5, 2, 3.75}, {2, 1, 2}), R"(
(1,.,.) = 
  0.2500 -1.5000

(2,.,.) = 
  2.0000  3.7500
[torch.FloatTensor of size 2x1x2]
)");
    CHECK_PRINTS(Tensor<float>(), "[torch.FloatTensor with no dimension]\n");
    CHECK_PRINTS(Tensor<int32_t>(), "[torch.IntTensor with no dimension]\n");
    CHECK_PRINTS(Tensor<uint8_t>(), "[torch.ByteTensor with no dimension]\n");
}

TEST_CASE("print: storages") {
    CHECK_PRINTS(Storage<float>(0), "[torch.FloatStorage of size 0]\n");
    CHECK_PRINTS(Storage<double>(), "[torch.DoubleStorage of size 0]\n");
    Storage<float> f(2);
    f[0] = 0.5f;
    f[1] = 1.25f;
    CHECK_PRINTS(f, R"(
 0.5000
 1.2500
[torch.FloatStorage of size 2]
)");
    Storage<uint8_t> b(2);
    b[0] = 1;
    b[1] = 255;
    CHECK_PRINTS(b, R"(
   1
 255
[torch.ByteStorage of size 2]
)");
    Storage<int32_t> i(2);
    i[0] = -3;
    i[1] = 12;
    CHECK_PRINTS(i, R"(
 -3
 12
[torch.IntStorage of size 2]
)");
    Storage<double> d(2);
    d[0] = 1.5e-5;
    d[1] = -2e-5;
    CHECK_PRINTS(d, R"(
1e-05 *
 1.5000
-2.0000
[torch.DoubleStorage of size 2]
)");
    // a storage prints all its elements, whatever view a tensor takes of it
    Tensor<double> x = seq(1, 4);
    CHECK_PRINTS(x.narrow(0, 1, 2).storage(), R"(
 1
 2
 3
 4
[torch.DoubleStorage of size 4]
)");
}
