// pow(a, b) and tanh (issue 43: eval/cpu/pow_packets.hpp computes float and double
// pow on AVX-512, float pow on AVX2 and float tanh on every instruction set; the rest
// is SLEEF's): 2^20
// random points per range against a long double reference, within the documented
// bounds (pow 1 ulp, tanh 3.5); std::pow's and std::tanh's special values, bit for
// bit, in packets, tails, strided runs and alone; and an element's value not
// depending on where it sits. Build it with -march=native, -mavx2 -mno-avx512f and
// without -march to cover each packet width (the CI build is the first).
#include "test_util.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using t7::Tensor;

namespace {

template <class T>
Tensor<T> from(const std::vector<T>& v) {
    Tensor<T> t(int64_t(v.size()));
    for (size_t i = 0; i < v.size(); ++i) t.data()[i] = v[i];
    return t;
}
template <class T>
std::vector<T> vec(const Tensor<T>& t) {
    std::vector<T> v;
    test_util::for_each_offset(t, [&](int64_t, int64_t off) { v.push_back(t.data()[off]); });
    return v;
}
template <class T>
bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || (std::isnan(a) && std::isnan(b));
}

// |got - want| in units of the last place of T at want (want computed wider);
// a reference beyond T's largest value stands for inf.
template <class T>
double ulp_error(T got, long double want) {
    if (std::isnan(want)) return std::isnan(got) ? 0 : 1e30;
    if (std::isinf(want) || std::isinf(got)) {
        if ((long double)got == want) return 0;
        return std::fabs(want) > (long double)std::numeric_limits<T>::max() && std::isinf(got) &&
                       (got > 0) == (want > 0)
                   ? 0
                   : 1e30;
    }
    const long double w = std::fabs(want);
    int e = 0;
    std::frexp((double)(w > 0 ? w : std::numeric_limits<T>::min()), &e);
    const int min_e = std::numeric_limits<T>::min_exponent;
    const long double ulp = std::ldexp(1.0L, std::max(e, min_e) - std::numeric_limits<T>::digits);
    return double(std::fabs((long double)got - want) / ulp);
}

struct Range {
    double lo, hi;
    bool log; // log-uniform magnitudes (lo > 0)
};
template <class T>
std::vector<T> draw(const Range& r, size_t n, std::mt19937_64& g) {
    std::uniform_real_distribution<double> u(r.log ? std::log(r.lo) : r.lo,
                                             r.log ? std::log(r.hi) : r.hi);
    std::vector<T> v(n);
    for (T& x : v) x = T(r.log ? std::exp(u(g)) : u(g));
    return v;
}

constexpr size_t n_points = size_t(1) << 20;

template <class T>
double worst_pow(const Range& xr, const Range& yr, unsigned seed) {
    std::mt19937_64 g(seed);
    const std::vector<T> x = draw<T>(xr, n_points, g), y = draw<T>(yr, n_points, g);
    const std::vector<T> got = vec(Tensor<T>(t7::eval(t7::pow(from(x), from(y)))));
    double worst = 0;
    T wx = 0, wy = 0;
    for (size_t i = 0; i < n_points; ++i) {
        const double err = ulp_error<T>(got[i], powl((long double)x[i], (long double)y[i]));
        if (err > worst) worst = err, wx = x[i], wy = y[i];
    }
    CAPTURE(wx);
    CAPTURE(wy);
    MESSAGE(std::string(sizeof(T) == 4 ? "pow float" : "pow double"), " x in [", xr.lo, ", ", xr.hi,
            "], y in [", yr.lo, ", ", yr.hi, "]: ", worst, " ulp");
    return worst;
}

// The ranges: the benchmark's, the whole exponent range, results reaching over-
// and underflow, bases near 1 with large exponents (where y log2 x must be
// accurate to the last bits), denormal bases.
template <class T>
std::vector<std::pair<Range, Range>> pow_ranges() {
    const double big = std::is_same_v<T, float> ? 1e38 : 1e300;
    const double tiny_lo = std::is_same_v<T, float> ? 1.5e-45 : 5e-324;
    const double tiny_hi = std::is_same_v<T, float> ? 1e-38 : 2e-308;
    const double e_max = std::is_same_v<T, float> ? 200 : 1500;
    return {{{0.01, 10, false}, {0, 1, false}},
            {{1e-3, 1e3, false}, {-40, 40, false}},
            {{1 / big, big, true}, {-4, 4, false}},
            {{0.5, 2, false}, {-e_max, e_max, false}},
            {{0.99, 1.01, false}, {-1e5, 1e5, false}},
            {{0.999999, 1.000001, false}, {-1e8, 1e8, false}},
            {{tiny_lo, tiny_hi, true}, {-1, 1, false}}};
}

} // namespace

TEST_CASE("pow(a, b) is within 1 ulp over 2^20 random points per range") {
    unsigned seed = 1;
    for (const auto& [xr, yr] : pow_ranges<float>()) CHECK(worst_pow<float>(xr, yr, seed++) <= 1.0);
    for (const auto& [xr, yr] : pow_ranges<double>())
        CHECK(worst_pow<double>(xr, yr, seed++) <= 1.0);
}

TEST_CASE("pow(x, constant) through pow is within 1 ulp over 2^20 random points") {
    std::mt19937_64 g(21);
    const std::vector<float> x = draw<float>({1e-30, 1e30, true}, n_points, g);
    const std::vector<double> xd = draw<double>({1e-300, 1e300, true}, n_points, g);
    for (const double e : {2.7, -0.7, 0.25, 7.5, -3.3}) {
        CAPTURE(e);
        const std::vector<float> got = vec(Tensor<float>(t7::eval(t7::pow(from(x), e))));
        const std::vector<double> gotd = vec(Tensor<double>(t7::eval(t7::pow(from(xd), e))));
        double worst = 0, worst_d = 0;
        for (size_t i = 0; i < n_points; ++i) {
            worst = std::max(
                worst, ulp_error<float>(got[i], powl((long double)x[i], (long double)float(e))));
            worst_d = std::max(worst_d, ulp_error<double>(gotd[i], powl((long double)xd[i], e)));
        }
        CHECK(worst <= 1.0);
        CHECK(worst_d <= 1.0);
    }
}

TEST_CASE("float tanh is within 3.5 ulp over 2^20 random points per range") {
    const std::vector<Range> ranges{
        {-10, 10, false}, {-1, 1, false}, {1e-30, 20, true}, {0.3, 0.8, false}, {8, 10, false}};
    unsigned seed = 40;
    for (const Range& r : ranges) {
        std::mt19937_64 g(seed++);
        std::vector<float> x = draw<float>(r, n_points, g);
        if (r.log)
            for (size_t i = 0; i < x.size(); i += 2) x[i] = -x[i];
        const std::vector<float> got = vec(Tensor<float>(t7::eval(t7::tanh(from(x)))));
        double worst = 0;
        float wx = 0;
        for (size_t i = 0; i < n_points; ++i) {
            const double err = ulp_error<float>(got[i], tanhl((long double)x[i]));
            if (err > worst) worst = err, wx = x[i];
        }
        CAPTURE(wx);
        MESSAGE("tanh float [", r.lo, ", ", r.hi, "]: ", worst, " ulp");
        CHECK(worst <= 3.5);
    }
}

namespace {

template <class T>
std::vector<T> special_values() {
    using L = std::numeric_limits<T>;
    return {T(0),     -T(0),       L::infinity(), -L::infinity(),  L::quiet_NaN(),
            T(1),     T(-1),       T(2),          T(-2),           T(0.5),
            T(-0.5),  T(3),        T(-3),         T(2.5),          T(-2.5),
            T(1e-30), T(1e30),     T(-1e30),      L::denorm_min(), -L::denorm_min(),
            L::min(), L::max(),    -L::max(),     T(0.999),        T(1.001),
            T(7),     T(200),      T(-200),       T(1000),         T(-1000),
            T(150),   T(-150),     T(128),        T(-149),         T(1e10),
            T(-1e10), T(16777217), T(0.3)};
}

// The values every layout must give, element by element: x and y's special
// values against each other, with ordinary neighbours in the same packets.
template <class T>
void check_pow_special() {
    const std::vector<T> s = special_values<T>();
    std::vector<T> x, y;
    for (const T a : s)
        for (const T b : s) {
            x.push_back(a), y.push_back(b);
            x.push_back(T(1.7)), y.push_back(T(0.3)); // a neighbour on the fast path
        }
    const Tensor<T> xt = from(x), yt = from(y);
    const std::vector<T> packed = vec(Tensor<T>(t7::eval(t7::pow(xt, yt))));
    size_t differ = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const T want = std::pow(x[i], y[i]);
        const bool special = !(x[i] > 0) || std::isinf(x[i]) || !std::isfinite(y[i]) || y[i] == 0 ||
                             x[i] == 1 || std::isinf(want) || want == 0;
        if (special) {
            CAPTURE(x[i]);
            CAPTURE(y[i]);
            CAPTURE(packed[i]);
            CHECK(same_bits(packed[i], want)); // the sign of 0 too
        } else {
            const double err = ulp_error<T>(packed[i], powl((long double)x[i], (long double)y[i]));
            if (err > 1.0) MESSAGE("pow(", x[i], ", ", y[i], ") = ", packed[i], ": ", err, " ulp");
            differ += err > 1.0;
        }
    }
    CHECK(differ == 0);
    // alone (the scalar loop), in tails of every length, strided (transposed)
    size_t alone = 0;
    for (size_t i = 0; i < x.size(); ++i)
        alone +=
            !same_bits(packed[i], vec(Tensor<T>(t7::eval(t7::pow(from(std::vector<T>{x[i]}),
                                                                 from(std::vector<T>{y[i]})))))[0]);
    CHECK(alone == 0);
    for (int64_t off = 1; off < 17; ++off) {
        const int64_t n = int64_t(x.size()) - off;
        const std::vector<T> part =
            vec(Tensor<T>(t7::eval(t7::pow(xt.narrow(0, off, n), yt.narrow(0, off, n)))));
        size_t d = 0;
        for (size_t i = 0; i < part.size(); ++i) d += !same_bits(part[i], packed[i + size_t(off)]);
        CHECK(d == 0);
    }
    const int64_t rows = int64_t(x.size()) / 8;
    const Tensor<T> xs = xt.narrow(0, 0, rows * 8).view(rows, 8).t();
    const Tensor<T> ys = yt.narrow(0, 0, rows * 8).view(rows, 8).t();
    const Tensor<T> r = t7::eval(t7::pow(xs, ys)); // reads with stride 8
    size_t d = 0;
    for (int64_t i = 0; i < 8; ++i)
        for (int64_t j = 0; j < rows; ++j)
            d += !same_bits(r.data()[i * r.stride(0) + j * r.stride(1)], packed[size_t(j * 8 + i)]);
    CHECK(d == 0);
}

} // namespace

TEST_CASE("pow's special values are std::pow's, in every layout") {
    check_pow_special<float>();
    check_pow_special<double>();
    // the ones the C standard spells out
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> x{1, 1, -1, -1, 0, -0.f, -0.f, -2, -2, 0.5f, 2, -inf, -inf, nan, 2, 3};
    const std::vector<float> y{nan, inf,  inf, 3, -1, -1, -2,   0.5f,
                               3,   -inf, inf, 3, -2, 0,  1e9f, -1e9f};
    const std::vector<float> got = vec(Tensor<float>(t7::eval(t7::pow(from(x), from(y)))));
    CHECK(got[0] == 1);             // 1^nan
    CHECK(got[1] == 1);             // 1^inf
    CHECK(got[2] == 1);             // (-1)^inf
    CHECK(got[3] == -1);            // (-1)^3
    CHECK(got[4] == inf);           // 0^-1
    CHECK(got[5] == -inf);          // (-0)^-1
    CHECK(got[6] == inf);           // (-0)^-2
    CHECK(std::isnan(got[7]));      // negative base, non-integer exponent
    CHECK(got[8] == -8);            // (-2)^3
    CHECK(got[9] == inf);           // 0.5^-inf
    CHECK(got[10] == inf);          // 2^inf
    CHECK(got[11] == -inf);         // (-inf)^3
    CHECK(same_bits(got[12], 0.f)); // (-inf)^-2
    CHECK(got[13] == 1);            // nan^0
    CHECK(got[14] == inf);          // overflow
    CHECK(same_bits(got[15], 0.f)); // underflow
}

TEST_CASE("float tanh: std::tanh's special values, the same bits in every layout") {
    using L = std::numeric_limits<float>;
    std::vector<float> x{0.f,
                         -0.f,
                         L::infinity(),
                         -L::infinity(),
                         L::quiet_NaN(),
                         L::denorm_min(),
                         -L::denorm_min(),
                         L::min(),
                         L::max(),
                         -L::max(),
                         9.0f,
                         9.5f,
                         9.6f,
                         -9.6f,
                         20,
                         -20,
                         1e-20f,
                         -1e-20f};
    std::mt19937_64 g(5);
    for (int i = 0; i < 300; ++i) {
        const double mag = std::pow(10.0, double(g() % 400) / 10.0 - 38);
        x.push_back(float(mag * ((g() % 2) ? 1 : -1)));
    }
    const Tensor<float> xt = from(x);
    const std::vector<float> packed = vec(Tensor<float>(t7::eval(t7::tanh(xt))));
    for (size_t i = 0; i < x.size(); ++i) {
        CAPTURE(x[i]);
        const float want = std::tanh(x[i]);
        if (std::isnan(want) || std::fabs(want) == 1 || want == 0 || std::fabs(x[i]) < 1e-30f)
            CHECK(same_bits(packed[i], want)); // -0 stays -0, tiny x is x
        else
            CHECK(ulp_error<float>(packed[i], tanhl((long double)x[i])) <= 3.5);
    }
    size_t differ = 0;
    for (size_t i = 0; i < x.size(); ++i)
        differ += !same_bits(
            packed[i], vec(Tensor<float>(t7::eval(t7::tanh(from(std::vector<float>{x[i]})))))[0]);
    CHECK(differ == 0);
    for (int64_t off = 1; off < 17; ++off) {
        const std::vector<float> part =
            vec(Tensor<float>(t7::eval(t7::tanh(xt.narrow(0, off, int64_t(x.size()) - off)))));
        differ = 0;
        for (size_t i = 0; i < part.size(); ++i)
            differ += !same_bits(part[i], packed[i + size_t(off)]);
        CHECK(differ == 0);
    }
    const int64_t rows = int64_t(x.size()) / 8;
    const Tensor<float> r = t7::eval(t7::tanh(xt.narrow(0, 0, rows * 8).view(rows, 8).t()));
    differ = 0;
    for (int64_t i = 0; i < 8; ++i)
        for (int64_t j = 0; j < rows; ++j)
            differ +=
                !same_bits(r.data()[i * r.stride(0) + j * r.stride(1)], packed[size_t(j * 8 + i)]);
    CHECK(differ == 0);
}
