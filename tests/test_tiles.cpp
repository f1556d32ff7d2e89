// Transposed operands in tiles (eval/cpu/assign.hpp, iter/pack.hpp): each tile
// of a strided input is packed into a buffer on the thread's stack and read
// unit-stride.
// Every case is checked element by element against a plain loop over the
// views' own indexing: every element size, tile edges and SIMD block
// remainders, outer dimensions, more strided inputs than the buffer packs,
// strided outputs (square tiles, nothing packed), several outputs, 1 to 3
// threads, an assignment started inside a kernel that is reading packed tiles,
// and whole reductions of transposed operands (tiles packed on the stack).
#include "expr_check.hpp"

using namespace expr_test;
using t7::DoubleTensor;
using t7::FloatTensor;

namespace {

struct Threads {
    int saved = t7::getNumThreads();
    explicit Threads(int n) { t7::setNumThreads(n); }
    ~Threads() { t7::setNumThreads(saved); }
};

// Small values of every type (no integer wraps in the sums below).
template <class T>
Tensor<T> ramp(const Shape& s, int seed) {
    Tensor<T> t(s);
    int64_t i = 0;
    t.apply([&] { return T((i++ * 7 + seed) % 23); });
    return t;
}

} // namespace

TEST_CASE_TEMPLATE("y = z.t() + w + z.t() over tile edges, every element size", T, T7_ALL_TYPES) {
    // 67 x 131: partial tiles in both directions and partial 4 x 4 / 2 x 2 blocks;
    // 200 x 300: above the thread grain (tiles split over the threads).
    for (auto [R, C] : {std::pair<int64_t, int64_t>{67, 131}, {200, 300}, {3, 5}}) {
        for (int threads = 1; threads <= 3; ++threads) {
            CAPTURE(R);
            CAPTURE(threads);
            Threads t(threads);
            const Tensor<T> z = ramp<T>({C, R}, 1), w = ramp<T>({R, C}, 5);
            Tensor<T> y(R, C);
            y = z.t() + w + z.t();
            for (int64_t i = 0; i < R; ++i)
                for (int64_t j = 0; j < C; ++j)
                    REQUIRE(y(i, j) == wadd(wadd(z(j, i), w(i, j)), z(j, i)));
        }
    }
}

TEST_CASE("a permuted 3-D operand with a broadcast row and a scalar") {
    Threads t(2);
    const FloatTensor x = ramp<float>({4, 50, 70}, 3), w = ramp<float>({4, 70, 50}, 8);
    const FloatTensor r = ramp<float>({1, 50}, 2);
    FloatTensor y(4, 70, 50);
    y = x.transpose(1, 2) * r + w - 0.5f;
    for (int64_t b = 0; b < 4; ++b)
        for (int64_t i = 0; i < 70; ++i)
            for (int64_t j = 0; j < 50; ++j)
                REQUIRE(y(b, i, j) == x(b, j, i) * r(0, j) + w(b, i, j) - 0.5f);
}

TEST_CASE("more strided inputs than the buffer packs, and a stepped one") {
    // Five transposed doubles: four packed (narrower tiles), the fifth read in
    // place; `s` strides 2 along rows and is packed row by row.
    for (int threads = 1; threads <= 2; ++threads) {
        Threads t(threads);
        std::vector<DoubleTensor> x;
        for (int k = 0; k < 5; ++k) x.push_back(ramp<double>({90, 100}, k));
        const DoubleTensor big = ramp<double>({100, 180}, 9);
        const DoubleTensor s = big(t7::all, t7::slice(0, 180, 2));
        REQUIRE(s.stride(1) == 2);
        DoubleTensor y(100, 90);
        y = x[0].t() + x[1].t() * 2 + x[2].t() * 3 + x[3].t() * 4 + x[4].t() * 5 + s;
        for (int64_t i = 0; i < 100; ++i)
            for (int64_t j = 0; j < 90; ++j) {
                double want = s(i, j);
                want = x[0](j, i) + x[1](j, i) * 2 + x[2](j, i) * 3 + x[3](j, i) * 4 +
                       x[4](j, i) * 5 + want;
                REQUIRE(y(i, j) == want);
            }
    }
}

TEST_CASE("a strided destination takes the square tiles, packing nothing") {
    Threads t(2);
    const FloatTensor z = ramp<float>({150, 120}, 4);
    FloatTensor wide(120, 300);
    wide = -1.f;
    FloatTensor y = wide(t7::all, t7::slice(0, 300, 2)); // 120 x 150, inner stride 2
    y = z.t() + 1.f;
    for (int64_t i = 0; i < 120; ++i)
        for (int64_t j = 0; j < 300; ++j)
            REQUIRE(wide(i, j) == (j % 2 == 0 ? z(j / 2, i) + 1.f : -1.f));
}

TEST_CASE("several outputs read transposed leaves through packed tiles") {
    for (int threads = 1; threads <= 3; ++threads) {
        Threads t(threads);
        const FloatTensor x = ramp<float>({210, 190}, 6), w = ramp<float>({190, 210}, 2);
        FloatTensor y1(190, 210), y2(190, 210);
        DoubleTensor y3(190, 210);
        t7::assign(t7::out(y1) = x.t() + w, t7::out(y2) = x.t() * w,
                   t7::out(y3) = t7::cast<double>(x.t()) - 1.0);
        for (int64_t i = 0; i < 190; ++i)
            for (int64_t j = 0; j < 210; ++j) {
                REQUIRE(y1(i, j) == x(j, i) + w(i, j));
                REQUIRE(y2(i, j) == x(j, i) * w(i, j));
                REQUIRE(y3(i, j) == double(x(j, i)) - 1.0);
            }
    }
}

TEST_CASE("an assignment inside a kernel reading packed tiles packs into a buffer of its own") {
    // The functor assigns a transposed expression (which packs tiles too) while
    // the outer assignment's tile of x.t() is packed and being read on the same
    // thread: the outer values must be those of x.
    Threads t(1);
    const FloatTensor x = ramp<float>({80, 70}, 1), w = ramp<float>({70, 80}, 2);
    const FloatTensor small = ramp<float>({9, 9}, 3);
    FloatTensor inner(9, 9);
    int64_t calls = 0;
    FloatTensor y(70, 80);
    y = t7::map(
        [&](float a, float b) {
            inner = small.t() * 2.f;
            ++calls;
            return a - b;
        },
        x.t(), w);
    CHECK(calls == 70 * 80);
    for (int64_t i = 0; i < 70; ++i)
        for (int64_t j = 0; j < 80; ++j) REQUIRE(y(i, j) == x(j, i) - w(i, j));
    for (int64_t i = 0; i < 9; ++i)
        for (int64_t j = 0; j < 9; ++j) REQUIRE(inner(i, j) == small(j, i) * 2.f);
}

TEST_CASE_TEMPLATE("whole reductions of transposed operands fold packed tiles, the same bits on "
                   "1 to 3 threads",
                   T, float, double, int32_t, int64_t) {
    // 200 x 300 (above the thread grain) and 67 x 131 (edges); the products of
    // small integers are exact in every type, so the sums compare exactly
    // with a plain loop; floating sums within rounding.
    for (auto [R, C] : {std::pair<int64_t, int64_t>{67, 131}, {200, 300}}) {
        CAPTURE(R);
        const Tensor<T> z = ramp<T>({C, R}, 3), w = ramp<T>({R, C}, 7);
        double want = 0;
        T hi = z(0, 0) - w(0, 0), lo = hi;
        for (int64_t i = 0; i < R; ++i)
            for (int64_t j = 0; j < C; ++j) {
                want += double(z(j, i)) * double(w(i, j));
                const T d = T(z(j, i) - w(i, j));
                hi = std::max(hi, d);
                lo = std::min(lo, d);
            }
        std::vector<double> sums;
        for (int threads = 1; threads <= 3; ++threads) {
            Threads t(threads);
            sums.push_back(double(t7::sum(z.t() * w)));
            CHECK(t7::max(z.t() - w) == hi);
            CHECK(t7::min(z.t() - w) == lo);
        }
        if constexpr (std::is_integral_v<T>)
            CHECK(sums[0] == want);
        else
            CHECK(sums[0] == doctest::Approx(want).epsilon(1e-6));
        CHECK(sums[1] == sums[0]); // bit-identical on every thread count
        CHECK(sums[2] == sums[0]);
    }
}

TEST_CASE("a whole reduction of five transposed operands (more than the tiles pack)") {
    std::vector<DoubleTensor> x;
    for (int k = 0; k < 5; ++k) x.push_back(ramp<double>({90, 100}, k));
    double want = 0;
    for (int64_t i = 0; i < 100; ++i)
        for (int64_t j = 0; j < 90; ++j)
            want += x[0](j, i) + x[1](j, i) + x[2](j, i) + x[3](j, i) + x[4](j, i);
    CHECK(t7::sum(x[0].t() + x[1].t() + x[2].t() + x[3].t() + x[4].t()) == want);
}
