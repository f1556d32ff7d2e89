// The vectorised mathematical functions (eval/cpu/sleef_ops.hpp): accuracy in
// ulps against a long double reference over each function's domain, IEEE
// special values as the C library gives them, and the same bits for an
// element wherever it sits (packet, tail, strided run, alone, beside huge
// arguments). Also pow with constant exponents and square.
#include "test_util.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using t7::DoubleTensor;
using t7::FloatTensor;
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

// |got - want| in units of the last place of T at want (want computed wider).
template <class T>
double ulp_error(T got, long double want) {
    if (std::isnan(want)) return std::isnan(got) ? 0 : 1e30;
    if (std::isinf(want) || std::isinf(got)) {
        if (got == want) return 0;
        // a finite reference just past T's largest value rounds to inf
        return std::fabs(want) > (long double)std::numeric_limits<T>::max() ? 0 : 1e30;
    }
    const long double w = std::fabs(want);
    int e = 0;
    std::frexp((double)(w > 0 ? w : std::numeric_limits<T>::min()), &e);
    const int min_e = std::numeric_limits<T>::min_exponent;
    const long double ulp = std::ldexp(1.0L, std::max(e, min_e) - std::numeric_limits<T>::digits);
    return double(std::fabs((long double)got - want) / ulp);
}

// The references: long double from the C library (64-bit significand).
struct Fn {
    const char* name;
    double max_ulp; // the bound of SLEEF's variant (docs/maths.md)
    double lo, hi;  // sweep domain
    std::function<long double(long double)> ref;
    std::function<FloatTensor(const FloatTensor&)> f32;
    std::function<DoubleTensor(const DoubleTensor&)> f64;
};

#define T7_FN(NAME, ULP, LO, HI, REF)                                                              \
    Fn {                                                                                           \
#NAME, ULP, LO, HI, [](long double x) { return REF; },                                     \
            [](const FloatTensor& x) { return t7::eval(t7::NAME(x)); },                            \
            [](const DoubleTensor& x) { return t7::eval(t7::NAME(x)); }       \
    }

std::vector<Fn> functions() {
    return {
        T7_FN(sin, 3.5, -1e4, 1e4, sinl(x)),
        T7_FN(cos, 3.5, -1e4, 1e4, cosl(x)),
        T7_FN(tan, 3.5, -1e4, 1e4, tanl(x)),
        T7_FN(asin, 3.5, -1, 1, asinl(x)),
        T7_FN(acos, 3.5, -1, 1, acosl(x)),
        T7_FN(atan, 3.5, -1e6, 1e6, atanl(x)),
        T7_FN(sinh, 3.5, -80, 80, sinhl(x)),
        T7_FN(cosh, 3.5, -80, 80, coshl(x)),
        T7_FN(tanh, 3.5, -20, 20, tanhl(x)),
        T7_FN(exp, 1.0, -700, 700, expl(x)),
        T7_FN(exp2, 3.5, -1000, 1000, exp2l(x)),
        T7_FN(expm1, 1.0, -50, 80, expm1l(x)),
        T7_FN(log, 3.5, 0, 1e300, logl(x)),
        T7_FN(log2, 3.5, 0, 1e300, log2l(x)),
        T7_FN(log10, 1.0, 0, 1e300, log10l(x)),
        T7_FN(log1p, 1.0, -1, 1e300, log1pl(x)),
        T7_FN(cbrt, 3.5, -1e300, 1e300, cbrtl(x)),
        T7_FN(erf, 1.0, -7, 7, erfl(x)),
        T7_FN(erfc, 2.0, -7, 27, erfcl(x)), // SLEEF: 1.5; 1.8 measured without FMA
        T7_FN(sigmoid, 4.0, -100, 100, 1.0L / (1.0L + expl(-x))),
    };
}

// Points of [lo, hi]: uniform ones, and log-spaced magnitudes of each sign
// inside it (where small arguments matter: log near 1, sin near 0, ...).
template <class T>
std::vector<T> sweep(double lo, double hi, size_t n, unsigned seed) {
    std::mt19937_64 g(seed);
    const double top = std::min<double>(hi, double(std::numeric_limits<T>::max()));
    const double bottom = std::max<double>(lo, -double(std::numeric_limits<T>::max()));
    std::uniform_real_distribution<double> u(bottom, top), e(-30, 300);
    std::vector<T> v;
    while (v.size() < n) {
        double x = (v.size() % 2) ? u(g) : std::pow(10.0, e(g) / 10.0) * (g() % 2 ? 1 : -1);
        if (x < bottom || x > top) continue;
        v.push_back(T(x));
    }
    return v;
}

template <class T>
void check_accuracy(const Fn& fn, size_t n) {
    const std::string name = fn.name;
    CAPTURE(name);
    const std::vector<T> x = sweep<T>(fn.lo, fn.hi, n, 7);
    std::vector<T> y;
    if constexpr (std::is_same_v<T, float>)
        y = vec(fn.f32(from(x)));
    else
        y = vec(fn.f64(from(x)));
    double worst = 0;
    T worst_x = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double err = ulp_error<T>(y[i], fn.ref((long double)x[i]));
        if (err > worst) worst = err, worst_x = x[i];
    }
    CAPTURE(worst_x);
    CHECK(worst <= fn.max_ulp);
}

} // namespace

TEST_CASE("every vectorised function is within its documented ulps over its domain") {
    for (const Fn& fn : functions()) {
        check_accuracy<float>(fn, 40000);
        check_accuracy<double>(fn, 40000);
    }
}

TEST_CASE("atan2 and pow are within their documented ulps") {
    const std::vector<double> a = sweep<double>(-1e6, 1e6, 30000, 3);
    const std::vector<double> b = sweep<double>(-1e6, 1e6, 30000, 4);
    const std::vector<double> base = sweep<double>(0, 1e3, 30000, 5);
    const std::vector<double> ex = sweep<double>(-40, 40, 30000, 6);
    auto check2 = [](auto tag, const std::vector<double>& x, const std::vector<double>& y,
                     bool is_pow, double bound) {
        using T = decltype(tag);
        std::vector<T> xt(x.begin(), x.end()), yt(y.begin(), y.end());
        const Tensor<T> r = is_pow ? t7::eval(t7::pow(from(xt), from(yt)))
                                   : t7::eval(t7::atan2(from(xt), from(yt)));
        const std::vector<T> got = vec(r);
        double worst = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            const long double want = is_pow ? powl((long double)xt[i], (long double)yt[i])
                                            : atan2l((long double)xt[i], (long double)yt[i]);
            worst = std::max(worst, ulp_error<T>(got[i], want));
        }
        CHECK(worst <= bound);
    };
    check2(float(), a, b, false, 3.5);
    check2(double(), a, b, false, 3.5);
    check2(float(), base, ex, true, 1.0);
    check2(double(), base, ex, true, 1.0);
}

namespace {
// The C library's answer for the special values, which the vectorised forms
// must give too: NaN for NaN, the same infinities, the same signed zeros.
template <class T>
void check_special(const Fn& fn) {
    const std::string name = fn.name;
    CAPTURE(name);
    constexpr T inf = std::numeric_limits<T>::infinity();
    const std::vector<T> x{T(0),
                           -T(0),
                           inf,
                           -inf,
                           std::numeric_limits<T>::quiet_NaN(),
                           std::numeric_limits<T>::denorm_min(),
                           -std::numeric_limits<T>::denorm_min(),
                           std::numeric_limits<T>::min(),
                           std::numeric_limits<T>::max(),
                           -std::numeric_limits<T>::max(),
                           T(1),
                           T(-1)};
    std::vector<T> y;
    if constexpr (std::is_same_v<T, float>)
        y = vec(fn.f32(from(x)));
    else
        y = vec(fn.f64(from(x)));
    for (size_t i = 0; i < x.size(); ++i) {
        CAPTURE(x[i]);
        const long double want = fn.ref((long double)x[i]);
        const T w = T(want);
        if (std::isnan(w) || std::isinf(w) || w == 0) {
            CAPTURE(y[i]);
            CHECK(std::isnan(y[i]) == std::isnan(w));
            if (!std::isnan(w)) CHECK(std::memcmp(&y[i], &w, sizeof(T)) == 0); // sign of 0 too
        } else {
            CHECK(ulp_error<T>(y[i], want) <= fn.max_ulp);
        }
    }
}
} // namespace

TEST_CASE("special values: NaN, infinities, signed zeros, denormals, the extremes") {
    for (const Fn& fn : functions()) {
        check_special<float>(fn);
        check_special<double>(fn);
    }
    // sin and cos of huge arguments are reduced exactly: within [-1, 1] and accurate
    const std::vector<double> huge{1e22, 1e100, 1e300, -1e308, 0x1p1023};
    const std::vector<double> s = vec(t7::eval(t7::sin(from(huge))));
    const std::vector<double> c = vec(t7::eval(t7::cos(from(huge))));
    for (size_t i = 0; i < huge.size(); ++i) {
        CAPTURE(huge[i]);
        CHECK(ulp_error<double>(s[i], sinl((long double)huge[i])) <= 3.5);
        CHECK(ulp_error<double>(c[i], cosl((long double)huge[i])) <= 3.5);
    }
}

namespace {
// An element's value alone (a one-element tensor: the scalar path).
template <class T>
T alone(const Fn& fn, T x) {
    if constexpr (std::is_same_v<T, float>)
        return fn.f32(from(std::vector<T>{x})).data()[0];
    else
        return fn.f64(from(std::vector<T>{x})).data()[0];
}
template <class T>
Tensor<T> apply(const Fn& fn, const Tensor<T>& x) {
    if constexpr (std::is_same_v<T, float>)
        return fn.f32(x);
    else
        return fn.f64(x);
}
template <class T>
bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || (std::isnan(a) && std::isnan(b));
}

template <class T>
void check_layouts(const Fn& fn) {
    const std::string name = fn.name;
    CAPTURE(name);
    // magnitudes of every range reduction class, mixed in each packet
    std::mt19937_64 g(11);
    std::vector<T> x(203);
    for (size_t i = 0; i < x.size(); ++i) {
        const double mag = std::pow(10.0, double(g() % 400) / 10.0 - 10);
        T v = T(mag * ((g() % 2) ? 1 : -1));
        if (fn.lo >= -1 && fn.hi <= 1) v = T(std::fmod(double(v), 1.0)); // asin, acos
        if (i % 37 == 5) v = std::numeric_limits<T>::infinity();
        x[i] = v;
    }
    const Tensor<T> xt = from(x);
    const std::vector<T> packed = vec(apply(fn, xt));
    size_t differ = 0;
    for (size_t i = 0; i < x.size(); ++i) differ += !same_bits(packed[i], alone(fn, x[i]));
    CHECK(differ == 0);
    // every start offset (tails of every length), and a strided (transposed) read
    for (int64_t off = 1; off < 17; ++off) {
        const std::vector<T> part = vec(apply(fn, xt.narrow(0, off, int64_t(x.size()) - off)));
        differ = 0;
        for (size_t i = 0; i < part.size(); ++i) differ += !same_bits(part[i], packed[i + off]);
        CHECK(differ == 0);
    }
    const Tensor<T> grid = xt.narrow(0, 0, 200).view(20, 10);
    const Tensor<T> tr = apply(fn, grid.t()); // reads x with stride 10
    differ = 0;
    for (int64_t r = 0; r < 10; ++r)
        for (int64_t c = 0; c < 20; ++c)
            differ += !same_bits(tr.data()[r * tr.stride(0) + c * tr.stride(1)],
                                 packed[size_t(c * 10 + r)]);
    CHECK(differ == 0);
}
} // namespace

TEST_CASE("an element's result does not depend on its layout or its neighbours") {
    for (const Fn& fn : functions()) {
        check_layouts<float>(fn);
        check_layouts<double>(fn);
    }
}

TEST_CASE("pow with a constant exponent: multiplications and square roots, pow's special values") {
    const std::vector<double> exps{0, 1, 2, 3, 4, 0.5, -0.5, 1.5, -1, -1.5, -2, -3, -4, 2.5, -0.7};
    std::vector<double> x = sweep<double>(-1e5, 1e5, 4000, 9);
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> special{0.0, -0.0, inf, -inf, std::nan(""), -2.0, 1e-310, 1e300};
    x.insert(x.end(), special.begin(), special.end());
    for (double e : exps) {
        CAPTURE(e);
        // 2, 0.5 and -1 are one correctly rounded operation; the others two or three
        // (docs/maths.md): one rounding for 2, 0.5, -1; 3 ulp for -3, -4; else 2
        const double bound = (e == 2 || e == 0.5 || e == -1 || e == 0 || e == 1) ? 0.5
                             : (e == -3 || e == -4)                              ? 3.0
                                                                                 : 2.0;
        const std::vector<double> got = vec(t7::eval(t7::pow(from(x), e)));
        std::vector<float> xf; // the same values as floats (1e300 becomes inf, defined)
        for (double v : x) xf.push_back(t7::convert<float>(v));
        const std::vector<float> gotf = vec(t7::eval(t7::pow(from(xf), e)));
        for (size_t i = 0; i < x.size(); ++i) {
            CAPTURE(x[i]);
            const double want = std::pow(x[i], e);
            if (std::isnan(want) || std::isinf(want) || want == 0) {
                CHECK(same_bits(got[i], want));
                const float wf = std::pow(xf[i], float(e));
                if (std::isnan(wf) || std::isinf(wf) || wf == 0) CHECK(same_bits(gotf[i], wf));
            } else {
                CHECK(ulp_error<double>(got[i], powl((long double)x[i], (long double)e)) <= bound);
            }
        }
        // and the same bits in every layout: a strided read of the same values
        const DoubleTensor xt = from(x);
        const DoubleTensor strided = t7::eval(t7::pow(xt.narrow(0, 0, 4000).view(40, 100).t(), e));
        size_t differ = 0;
        for (int64_t r = 0; r < 100; ++r)
            for (int64_t c = 0; c < 40; ++c)
                differ += !same_bits(strided.data()[r * 40 + c], got[size_t(c * 100 + r)]);
        CHECK(differ == 0);
    }
    // integer tensors compute in floating point, as before
    t7::IntTensor n = from(std::vector<int32_t>{4, 9, 2});
    const std::vector<float> r = vec(t7::eval(t7::pow(n, 0.5)));
    CHECK(r == std::vector<float>{2.f, 3.f, std::sqrt(2.f)});
    CHECK(vec(t7::eval(t7::pow(n, 2))) == std::vector<float>{16.f, 81.f, 4.f});
}

TEST_CASE("square: x * x fused, integers wrap as *") {
    const FloatTensor x = from(std::vector<float>{-3.f, 0.5f, 1e20f, -0.f});
    CHECK(vec(t7::eval(t7::square(x) + 1)) == std::vector<float>{10.f, 1.25f, 1e40f, 1.f});
    const t7::IntTensor i = from(std::vector<int32_t>{-3, 65536, 46341});
    const std::vector<int32_t> sq = vec(t7::eval(t7::square(i)));
    CHECK(sq[0] == 9);
    CHECK(sq[1] == 0);                                 // 2^32 wraps to 0
    CHECK(sq[2] == int32_t(uint32_t(46341) * 46341u)); // past INT32_MAX: wraps
    const t7::ByteTensor b = from(std::vector<uint8_t>{16, 3});
    CHECK(vec(t7::eval(t7::square(b))) == std::vector<uint8_t>{0, 9});
}

TEST_CASE("where vectorises over a comparison or a uint8 mask, with the scalar loop's values") {
    const int64_t n = 203; // packets and a tail
    std::vector<float> xv(n), av(n), bv(n);
    std::vector<uint8_t> mv(n);
    for (int64_t i = 0; i < n; ++i) {
        xv[size_t(i)] = float((i * 37) % 23) - 11.f;
        av[size_t(i)] = float(i) * 0.5f;
        bv[size_t(i)] = -float(i);
        mv[size_t(i)] = uint8_t((i * 7) % 3 == 0 ? 0 : (i % 5) + 1); // any non-zero selects
    }
    xv[17] = std::numeric_limits<float>::quiet_NaN();
    const FloatTensor x = from(xv), a = from(av), b = from(bv);
    const t7::ByteTensor m = from(mv);
    auto check = [&](const FloatTensor& got, auto pick) {
        size_t bad = 0;
        for (int64_t i = 0; i < n; ++i) bad += got.data()[i] != pick(size_t(i));
        CHECK(bad == 0);
    };
    check(t7::eval(t7::where(x > 0, a, b)), [&](size_t i) { return xv[i] > 0 ? av[i] : bv[i]; });
    check(t7::eval(t7::where(x <= 0, a, 2.5f)),
          [&](size_t i) { return xv[i] <= 0 ? av[i] : 2.5f; });
    check(t7::eval(t7::where(x != x, a, b)),
          [&](size_t i) { return xv[i] != xv[i] ? av[i] : bv[i]; });
    check(t7::eval(t7::where(x == 3, a, b)), [&](size_t i) { return xv[i] == 3 ? av[i] : bv[i]; });
    check(t7::eval(t7::where(x >= a, x, a)),
          [&](size_t i) { return xv[i] >= av[i] ? xv[i] : av[i]; });
    check(t7::eval(t7::where(a < x, x, 0.f)),
          [&](size_t i) { return av[i] < xv[i] ? xv[i] : 0.f; });
    check(t7::eval(t7::where(m, a, b)), [&](size_t i) { return mv[i] ? av[i] : bv[i]; });
    // a broadcast (stride 0) mask, and a strided run (the scalar loop)
    const t7::ByteTensor one = from(std::vector<uint8_t>{3});
    check(t7::eval(t7::where(one.expand(n), a, b)), [&](size_t i) { return av[i]; });
    const FloatTensor xs = t7::eval(x.narrow(0, 0, 200).view(20, 10).t());
    const FloatTensor as = t7::eval(a.narrow(0, 0, 200).view(20, 10).t());
    const FloatTensor ws = t7::eval(t7::where(x.narrow(0, 0, 200).view(20, 10).t() > 0,
                                              a.narrow(0, 0, 200).view(20, 10).t(), -1.f));
    size_t bad = 0;
    for (int64_t i = 0; i < 200; ++i)
        bad += ws.data()[i] != (xs.data()[i] > 0 ? as.data()[i] : -1.f);
    CHECK(bad == 0);
    // double, and a sum over a where (the reduction's packets)
    const DoubleTensor xd = t7::eval(t7::cast<double>(x));
    double want = 0;
    for (int64_t i = 0; i < n; ++i) want += xv[size_t(i)] > 0 ? double(xv[size_t(i)]) : 0.0;
    CHECK(t7::sum(t7::where(xd > 0, xd, 0.0)) == doctest::Approx(want));
}
