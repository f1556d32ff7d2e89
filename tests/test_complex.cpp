// Complex tensors (issue 42): element types, fused arithmetic, functions against
// NumPy 1.24's complex128 values (printed by NumPy, in the tables below), views of
// the parts, printing, .npy, conversions and the errors of misuse. Other expected
// values are worked out by hand in the comments.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using Z = std::complex<double>;
using CF = std::complex<float>;

namespace {

// The test inputs of the tables: z = [0.5-1j, 1.5+0.25j, -2+3j, -0.75-0.5j, 0.003+2j].
Tensor<Z> inputs() {
    const Z v[] = {{0.5, -1}, {1.5, 0.25}, {-2, 3}, {-0.75, -0.5}, {3e-3, 2}};
    Tensor<Z> z(5);
    for (int64_t i = 0; i < 5; ++i) z(i) = v[i];
    return z;
}

// |a - b| within k units in the last place of b (per component).
bool within_ulps(double a, double b, double k) {
    if (std::isnan(b)) return std::isnan(a);
    if (std::isinf(b)) return a == b;
    const double ulp = std::nextafter(std::fabs(b), INFINITY) - std::fabs(b);
    return std::fabs(a - b) <= k * ulp;
}

struct FunctionCase {
    const char* name;
    Tensor<Z> (*f)(const Tensor<Z>&);
    std::vector<Z> numpy;
};

} // namespace

TEST_CASE("complex: element types, names, promotion") {
    static_assert(std::is_same_v<ComplexFloatTensor, Tensor<std::complex<float>>>);
    static_assert(std::is_same_v<ComplexDoubleTensor, Tensor<std::complex<double>>>);
    static_assert(std::is_same_v<promote_t<float, CF>, CF>);
    static_assert(std::is_same_v<promote_t<double, CF>, Z>);
    static_assert(std::is_same_v<promote_t<int32_t, CF>, CF>);
    static_assert(std::is_same_v<promote_t<CF, Z>, Z>);
    CHECK(ComplexFloatTensor::typeName() == "torch.ComplexFloatTensor");
    CHECK(ComplexDoubleTensor::typeName() == "torch.ComplexDoubleTensor");
    ComplexFloatTensor z(2, 3);
    CHECK(z.stride(0) == 3);
    CHECK(sizeof(*z.data()) == 8); // interleaved (re, im) pairs of float
}

TEST_CASE("complex: fused arithmetic with real operands and scalars") {
    // z = [1+2i, 3-1i], r = [2, -1]
    ComplexFloatTensor z(2), c(2);
    z(0) = CF(1, 2), z(1) = CF(3, -1);
    c.fill(CF(0.5f, -1));
    FloatTensor r(2);
    r(0) = 2, r(1) = -1;
    ComplexFloatTensor w = z * z + c; // (1+2i)^2 = -3+4i; (3-i)^2 = 8-6i
    CHECK(CF(w(0)) == CF(-2.5f, 3));
    CHECK(CF(w(1)) == CF(8.5f, -7));
    w = z * r + 1.0f; // 2+4i+1, -3+i+1
    CHECK(CF(w(0)) == CF(3, 4));
    CHECK(CF(w(1)) == CF(-2, 1));
    w = z / CF(0, 1); // (1+2i)/i = 2-i; (3-i)/i = -1-3i
    CHECK(CF(w(0)) == CF(2, -1));
    CHECK(CF(w(1)) == CF(-1, -3));
    w = -z - t7::conj(z); // -2 re
    CHECK(CF(w(0)) == CF(-2, 0));
    CHECK(CF(w(1)) == CF(-6, 0));
    // a complex scalar makes a real expression complex (of the tensor's precision)
    ComplexFloatTensor rz = r * CF(0, 1) + CF(1, 0); // [1+2i, 1-i]
    CHECK(CF(rz(0)) == CF(1, 2));
    CHECK(CF(rz(1)) == CF(1, -1));
    ComplexDoubleTensor iz = t7::IntTensor(2).fill(3) * Z(0.5, 0.5); // ints: complex
    CHECK(Z(iz(1)) == Z(1.5, 1.5));
    ComplexDoubleTensor zd = z * 2.0; // double scalar with a complex<float> tensor: stays float,
    CHECK(Z(zd(1)) == Z(6, -2));      // converted to complex<double> on assignment
    // a real tensor assigned to a complex one: imaginary parts 0
    ComplexFloatTensor fromreal(2);
    fromreal = r;
    CHECK(CF(fromreal(1)) == CF(-1, 0));
    ByteTensor eq = (z == z), ne = (z != w);
    CHECK(eq(0) == 1);
    CHECK(ne(1) == 1);
}

TEST_CASE("complex: vectorised runs agree with strided ones bit for bit") {
    // Contiguous operands run in packets, a column of a transposed view one by one.
    ComplexDoubleTensor a(37, 37), b(37, 37);
    for (int64_t i = 0; i < 37; ++i)
        for (int64_t j = 0; j < 37; ++j) {
            a(i, j) = Z(std::sin(0.3 * double(i * 37 + j)), std::cos(0.7 * double(j)));
            b(i, j) = Z(1.0 + 0.01 * double(i), -0.5 + 0.02 * double(j));
        }
    ComplexDoubleTensor packed = a * b + a / b, strided(37, 37);
    strided.t() = a.t() * b.t() + a.t() / b.t();
    for (int64_t i = 0; i < 37; ++i)
        for (int64_t j = 0; j < 37; ++j) {
            const Z x = a(i, j), y = b(i, j);
            // the schoolbook product and Smith's quotient (NumPy's)
            const Z prod(x.real() * y.real() - x.imag() * y.imag(),
                         x.real() * y.imag() + x.imag() * y.real());
            REQUIRE(Z(packed(i, j)) == Z(strided(i, j)));
            REQUIRE(std::abs(Z(packed(i, j)) - (prod + x / y)) <= 1e-15 * std::abs(prod + x / y));
        }
}

// where() reads its byte mask a packet at a time (every nonzero byte is true), and a
// comparison written as bytes runs in packets of its operands (abs(z) < 2): checked
// against loops on every length up to three packets, forwards, reversed and broadcast.
TEST_CASE_TEMPLATE("where and byte comparisons in packets, against loops", T, float, double, CF,
                   Z) {
    using R = real_t<T>;
    for (int64_t n = 1; n <= 50; ++n) {
        Tensor<T> a(n), b(n);
        ByteTensor m(n);
        Tensor<R> r(n);
        for (int64_t k = 0; k < n; ++k) {
            a.data()[k] = T(R(k) * R(0.5) - 3);
            if constexpr (is_complex_v<T>) a.data()[k] += T(0, R(k % 3));
            b.data()[k] = T(R(-k));
            m.data()[k] = uint8_t(k % 3 == 0 ? 0 : k % 3 == 1 ? 1 : 200 + k);
            r.data()[k] = k % 4 == 0 ? std::numeric_limits<R>::quiet_NaN() : R(k % 7) - R(3);
        }
        const Tensor<T> w = t7::where(m, a * a, b);
        const Tensor<T> wr = t7::where(m.flip({0}), a, b); // a reversed mask
        const Tensor<T> wb = t7::where(m.narrow(0, 0, 1).expand(n), a, b);
        const ByteTensor lt = t7::abs(a) < R(2), ne = r != R(0), ge = r >= R(1);
        for (int64_t k = 0; k < n; ++k) {
            const T ak = a.data()[k], bk = b.data()[k];
            CHECK(w.data()[k] == (m.data()[k] ? ak * ak : bk));
            CHECK(wr.data()[k] == (m.data()[n - 1 - k] ? ak : bk));
            CHECK(wb.data()[k] == bk); // m[0] is 0
            CHECK(lt.data()[k] == uint8_t(std::abs(ak) < R(2)));
            CHECK(ne.data()[k] == uint8_t(r.data()[k] != R(0))); // NaN != 0
            CHECK(ge.data()[k] == uint8_t(r.data()[k] >= R(1))); // NaN >= 1 is false
        }
    }
}

// The functions computed in packets from SLEEF's parts (exp sin cos sinh cosh log sqrt)
// against the C library's (glibc's, NumPy's own) on a grid, within 4 ulp per part;
// infinities, NaN, zeros and huge parts inside packets take the C library's path.
template <class T>
using Fn = Tensor<T> (*)(const Tensor<T>&);
TEST_CASE_TEMPLATE("complex functions in packets agree with the C library", T, CF, Z) {
    using R = real_t<T>;
    const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
    std::vector<T> v;
    for (int i = -20; i <= 20; ++i)
        for (int j = -20; j <= 20; ++j)
            v.push_back(T(R(i) * R(0.37), R(j) * R(0.29))); // |z| near 1 among them
    for (R big : {R(60), R(90), R(400), R(800)}) {
        v.push_back(T(big, R(0.5)));
        v.push_back(T(R(-0.5), -big));
    }
    // sqrt's and log's ranges: parts near the largest and the smallest normal values
    const R mx = std::numeric_limits<R>::max(), mn = std::numeric_limits<R>::min();
    for (R s : {R(0.9) * mx, mx / 2, mx / 8, mn, mn * 1e6f, R(1e-30)}) {
        v.push_back(T(s, R(0.7) * s));
        v.push_back(T(-s, R(3)));
    }
    const T special[] = {
        T(inf, 1), T(-inf, 1),    T(1, inf), T(nan, 1),      T(1, nan),
        T(0, 0),   T(R(-0.0), 0), T(-1, 0),  T(-1, R(-0.0)), T(std::cos(R(1)), std::sin(R(1)))};
    for (size_t k = 0; k < std::size(special); ++k) v.insert(v.begin() + 7 * k + 3, special[k]);
    Tensor<T> z(int64_t(v.size()));
    for (size_t k = 0; k < v.size(); ++k) z.data()[k] = v[k];
    const std::pair<const char*, Fn<T>> fns[] = {
        {"exp", [](const Tensor<T>& x) { return Tensor<T>(t7::exp(x)); }},
        {"sin", [](const Tensor<T>& x) { return Tensor<T>(t7::sin(x)); }},
        {"cos", [](const Tensor<T>& x) { return Tensor<T>(t7::cos(x)); }},
        {"sinh", [](const Tensor<T>& x) { return Tensor<T>(t7::sinh(x)); }},
        {"cosh", [](const Tensor<T>& x) { return Tensor<T>(t7::cosh(x)); }},
        {"log", [](const Tensor<T>& x) { return Tensor<T>(t7::log(x)); }},
        {"sqrt", [](const Tensor<T>& x) { return Tensor<T>(t7::sqrt(x)); }}};
    auto ref = [](const char* name, T x) {
        const std::string n = name;
        return n == "exp"    ? std::exp(x)
               : n == "sin"  ? std::sin(x)
               : n == "cos"  ? std::cos(x)
               : n == "sinh" ? std::sinh(x)
               : n == "cosh" ? std::cosh(x)
               : n == "sqrt" ? std::sqrt(x)
                             : std::log(x);
    };
    auto close = [inf](R a, R b) {
        if (std::isnan(b)) return std::isnan(a);
        if (std::isinf(b) || b == 0) return a == b && std::signbit(a) == std::signbit(b);
        const R ulp = std::nextafter(std::fabs(b), inf) - std::fabs(b);
        return std::fabs(a - b) <= 4 * ulp;
    };
    for (const auto& [name, f] : fns) {
        const Tensor<T> got = f(z);
        int bad = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            const T g = got.data()[k], e = ref(name, v[k]);
            if (!close(g.real(), e.real()) || !close(g.imag(), e.imag())) {
                if (++bad <= 3)
                    MESSAGE(std::string(name), "(", v[k], ") = ", g, ", the C library's ", e);
            }
        }
        CHECK_MESSAGE(bad == 0, std::string(name));
    }
}

// complex64 tan, tanh and log10 run in packets in double precision, rounded once:
// against the C library's complex128 function rounded to float, within an ulp per
// part (glibc's own ctanhf/ctanf/clog10f were up to 6, 7 and 3 ulp from that on
// 2^20 random points); zeros, infinities, NaN and parts beyond 300 as the C
// library's complex64 function; the same bits read through a strided view.
TEST_CASE("complex64 tan, tanh, log10: in double, rounded once") {
    const float inf = std::numeric_limits<float>::infinity(),
                nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<CF> v;
    for (int i = -24; i <= 24; ++i)
        for (int j = -24; j <= 24; ++j) v.push_back(CF(float(i) * 0.41f, float(j) * 0.53f));
    for (float r : {0.9999f, 1.0001f, 1.0f}) // log10 near the unit circle
        for (int k = 0; k < 16; ++k) v.push_back(std::polar(r, 0.4f * float(k)));
    for (float big : {9.5f, 40.0f, 299.0f, 1e-30f, 3e-39f, 1e30f}) {
        v.push_back(CF(big, 0.7f));
        v.push_back(CF(-0.7f, -big));
    }
    const CF special[] = {CF(0, 0),   CF(-0.0f, 0), CF(0, -0.0f), CF(inf, 1),    CF(-inf, 1),
                          CF(1, inf), CF(nan, 1),   CF(1, nan),   CF(400, 0.5f), CF(0.5f, -400)};
    for (size_t k = 0; k < std::size(special); ++k) v.insert(v.begin() + 5 * k + 2, special[k]);
    const int64_t n = int64_t(v.size());
    Tensor<CF> z(n), zt(n, 2); // zt's column 1: z again, read with stride 2
    for (int64_t k = 0; k < n; ++k) {
        z.data()[k] = v[size_t(k)];
        zt(k, 1) = v[size_t(k)];
    }
    auto close = [inf](float a, float b, int ulps) {
        if (std::isnan(b)) return std::isnan(a);
        if (std::isinf(b) || b == 0) return a == b && std::signbit(a) == std::signbit(b);
        const float ulp = std::nextafter(std::fabs(b), inf) - std::fabs(b);
        return std::fabs(a - b) <= float(ulps) * ulp;
    };
    for (const char* name : {"tan", "tanh", "log10"}) {
        const std::string fn = name;
        auto f = [&](const Tensor<CF>& x) {
            return Tensor<CF>(fn == "tan"    ? Tensor<CF>(t7::tan(x))
                              : fn == "tanh" ? Tensor<CF>(t7::tanh(x))
                                             : Tensor<CF>(t7::log10(x)));
        };
        auto ref = [&](CF x) {
            const bool ordinary = std::isfinite(x.real()) && std::isfinite(x.imag()) &&
                                  std::fabs(fn == "tan" ? x.imag() : x.real()) < 300 &&
                                  (fn != "log10" || x != CF(0));
            if (!ordinary) // the C library's complex64 function
                return fn == "tan" ? std::tan(x) : fn == "tanh" ? std::tanh(x) : std::log10(x);
            const Z w(x.real(), x.imag());
            const Z e = fn == "tan" ? std::tan(w) : fn == "tanh" ? std::tanh(w) : std::log10(w);
            return CF(float(e.real()), float(e.imag()));
        };
        const Tensor<CF> got = f(z);
        Tensor<CF> strided(n);
        strided = f(zt.select(1, 1));
        int bad = 0, moved = 0;
        for (int64_t k = 0; k < n; ++k) {
            const CF g = got.data()[k], e = ref(v[size_t(k)]);
            if (!close(g.real(), e.real(), 1) || !close(g.imag(), e.imag(), 1)) {
                if (++bad <= 3) MESSAGE(fn, "(", v[size_t(k)], ") = ", g, ", want ", e);
            }
            const CF s = strided.data()[k];
            if (std::memcmp(&s, &g, sizeof(CF)) != 0) ++moved;
        }
        CHECK_MESSAGE(bad == 0, fn);
        CHECK_MESSAGE(moved == 0, fn);
    }
}

TEST_CASE("complex: exp, abs, angle, division in packets, tails and strided runs alike") {
    // 203 elements (packets and a tail) against the same values read through a
    // transposed view (element by element), and against the C library's functions
    for (int type = 0; type < 2; ++type) {
        auto check = [](auto zero) {
            using C = decltype(zero);
            using R = typename C::value_type;
            Tensor<C> z(7, 29), w(7, 29);
            for (int64_t i = 0; i < 7; ++i)
                for (int64_t j = 0; j < 29; ++j) {
                    const double k = double(i * 29 + j);
                    z(i, j) = C(R(std::sin(k) * 3), R(std::cos(1.7 * k) * 4));
                    w(i, j) = C(R(0.5 + 0.1 * double(j)), R(-0.3 * double(i) + 1e-3));
                }
            z(3, 5) = C(R(100), R(1)); // beyond exp's packet range: the C library's
            z(4, 6) = C(R(-INFINITY), R(0));
            z(5, 7) = C(R(NAN), R(0));
            w(2, 2) = C(R(0), R(0)); // division by zero
            const Tensor<C> e = t7::exp(z), q = z / w;
            const Tensor<R> a = t7::abs(z), g = t7::angle(z);
            Tensor<C> et(29, 7), qt(29, 7);
            Tensor<R> at(29, 7), gt(29, 7);
            et.t() = t7::exp(z.t().t()); // same layout, then strided below
            Tensor<C> es(7, 29), qs(7, 29);
            Tensor<R> as(7, 29), gs(7, 29);
            es.t() = t7::exp(z.t());
            qs.t() = z.t() / w.t();
            as.t() = t7::abs(z.t());
            gs.t() = t7::angle(z.t());
            const double tol = sizeof(R) == 4 ? 4e-7 : 8e-16;
            for (int64_t i = 0; i < 7; ++i)
                for (int64_t j = 0; j < 29; ++j) {
                    INFO(i, ", ", j, ": ", C(z(i, j)));
                    const C x = z(i, j);
                    auto same = [](C u, C v) {
                        return std::memcmp(&u, &v, sizeof(C)) == 0 ||
                               (std::isnan(u.real()) && std::isnan(v.real()));
                    };
                    REQUIRE(same(C(e(i, j)), C(es(i, j))));
                    REQUIRE(same(C(q(i, j)), C(qs(i, j))));
                    REQUIRE((R(a(i, j)) == R(as(i, j)) || std::isnan(R(a(i, j)))));
                    REQUIRE((R(g(i, j)) == R(gs(i, j)) || std::isnan(R(g(i, j)))));
                    const C ce = std::exp(x);
                    if (std::isfinite(ce.real()) && std::isfinite(ce.imag()))
                        CHECK(std::abs(C(e(i, j)) - ce) <= tol * std::abs(ce));
                    else
                        CHECK(same(C(e(i, j)), ce));
                    if (std::isfinite(x.real())) {
                        CHECK(std::fabs(R(a(i, j)) - std::abs(x)) <= tol * std::abs(x));
                        CHECK(std::fabs(R(g(i, j)) - std::arg(x)) <= tol * 4);
                    }
                    if (!(i == 2 && j == 2) && std::isfinite(x.real()))
                        CHECK(std::abs(C(q(i, j)) - x / C(w(i, j))) <=
                              tol * std::abs(x / C(w(i, j))));
                }
            CHECK(std::isinf(C(q(2, 2)).real())); // z / 0: inf (NumPy)
        };
        if (type == 0)
            check(CF());
        else
            check(Z());
    }
}

TEST_CASE("complex: functions against NumPy's complex128 values") {
    const std::vector<FunctionCase> cases = {
        {"exp",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::exp(x)); },
         {{0.8908079042931287, -1.3873511113297634},
          {4.342364210495382, 1.1087876201493594},
          {-0.13398091492954262, 0.019098516261135196},
          {0.41454064950578356, -0.22646458896647162},
          {-0.41739715159161445, 0.9120294150394886}}},
        {"log",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::log(x)); },
         {{0.11157177565710488, -1.1071487177940904},
          {0.4191645952022216, 0.16514867741462683},
          {1.2824746787307684, 2.158798930342464},
          {-0.10381968238912226, -2.5535900500422257},
          {0.6931483055586797, 1.569296327919895}}},
        {"log10",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::log10(x)); },
         {{0.04845500650402821, -0.4808285787842341},
          {0.1820408707055351, 0.07172315929479262},
          {0.5569716761534184, 0.9375544629863746},
          {-0.04508831517454401, -1.1090100677763872},
          {0.3010304842447237, 0.6815367356866464}}},
        {"sqrt",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::sqrt(x)); },
         {{0.8994537199739336, -0.5558929702514211},
          {1.2289610719169575, 0.10171192794985977},
          {0.8959774761298381, 1.6741492280355401},
          {0.27512526135016874, -0.9086770105119854},
          {1.000750281038865, 0.9992502814607394}}},
        {"sin",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::sin(x)); },
         {{0.7397922644560138, -1.0313360742545512},
          {1.0288293962476212, 0.017869088397805058},
          {-9.15449914691143, -4.168906959966565},
          {-0.7686335646933926, -0.3812796346521782},
          {0.011286570143377903, 3.6268440869874246}}},
        {"cos",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::cos(x)); },
         {{1.3541806567045842, 0.5634214652309818},
          {0.07295927644889197, -0.251979519570583},
          {-4.189625690968807, 9.109227893755337},
          {0.8250713669946073, -0.35519875789073846},
          {3.762178761215719, -0.010880564902676566}}},
        {"tan",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::tan(x)); },
         {{0.195577310065934, -0.8429662048457833},
          {1.0253320612293393, 3.7861089368147747},
          {0.0037640256415042484, 1.0032386273536096},
          {-0.618096394806202, -0.7282118012804722},
          {0.00021195133761736228, 0.964028193058461}}},
        {"sinh",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::sinh(x)); },
         {{0.28154899513533443, -0.948864531437168},
          {2.0630853133346414, 0.5819954525995883},
          {3.59056458998578, 0.5309210862485197},
          {-0.7216508242975646, -0.6207042310780551},
          {-0.0012484423823030345, 0.9093015186671713}}},
        {"cosh",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::cosh(x)); },
         {{0.6092589091577942, -0.4384865798925953},
          {2.2792788971607405, 0.526792167549771},
          {-3.7245455049153224, -0.5118225699873846},
          {1.1361914738033483, 0.3942396421115833},
          {-0.4161487092093114, 0.0027278963723173072}}},
        {"tanh",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::tanh(x)); },
         {{1.0428307283443607, -0.806877412163085},
          {0.9152719132613141, 0.04380217692516719},
          {-0.965385879022133, -0.009884375038322492},
          {-0.7360841705511909, -0.29089346182961806},
          {0.017322401310654736, -2.1849263131899956}}},
        {"asin",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::asin(x)); },
         {{0.34943906285721327, -0.9261330313501825},
          {1.3546256105463583, 0.9937304660372428},
          {-0.5706527843210994, 1.9833870299165355},
          {-0.6822039655834323, -0.6063349998873513},
          {0.0013416402230108958, 1.44363628016292}}},
        {"acos",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::acos(x)); },
         {{1.2213572639376833, 0.9261330313501825},
          {0.2161707162485382, -0.9937304660372428},
          {2.141449111115996, -1.9833870299165355},
          {2.2530002923783288, 0.6063349998873513},
          {1.5694546865718857, -1.44363628016292}}},
        {"atan",
         [](const Tensor<Z>& x) { return Tensor<Z>(t7::atan(x)); },
         {{0.9078874949608804, -0.708303336014054},
          {0.9916033841961419, 0.07605284360074788},
          {-1.4099210495965755, 0.22907268296853878},
          {-0.7232206661240675, -0.3104282830771958},
          {1.5697963311282057, 0.5493041443440548}}},
    };
    const Tensor<Z> z = inputs();
    for (const auto& c : cases) {
        const Tensor<Z> got = c.f(z);
        for (int64_t i = 0; i < 5; ++i) {
            const Z g = got(i), e = c.numpy[size_t(i)];
            INFO(c.name, " of element ", i, ": ", g, " vs NumPy ", e);
            CHECK(within_ulps(g.real(), e.real(), 4));
            CHECK(within_ulps(g.imag(), e.imag(), 4));
        }
    }
    // z ** (0.5 + 1j), z / z[::-1], abs, angle (NumPy 1.24)
    const std::vector<Z> pw = {{2.891844688691369, -1.3685055323246387},
                               {0.916583078161909, 0.502803152143791},
                               {-0.1559082377178836, 0.15414721120118596},
                               {2.3068177507856205, -11.982959571142805},
                               {0.027342270426079316, 0.29315526078837834}};
    const std::vector<Z> dv = {{-0.4996238758462793, -0.25074943581376935},
                               {-1.5384615384615385, 0.6923076923076923},
                               {1.0, 0.0},
                               {-0.5405405405405405, -0.2432432432432432},
                               {-1.5988, 0.8024}};
    const double ab[] = {1.118033988749895, 1.5206906325745546, 3.6055512754639896,
                         0.9013878188659974, 2.0000022499987344};
    const double an[] = {-1.1071487177940904, 0.16514867741462683, 2.1587989303424644,
                         -2.5535900500422253, 1.569296327919895};
    const Tensor<Z> p = t7::pow(z, Z(0.5, 1)), q = z / t7::flip(z, {0});
    const DoubleTensor a = t7::abs(z), g = t7::angle(z);
    for (int64_t i = 0; i < 5; ++i) {
        INFO("element ", i);
        INFO(Z(p(i)), " vs NumPy ", pw[size_t(i)]);
        CHECK(within_ulps(Z(p(i)).real(), pw[size_t(i)].real(), 8));
        CHECK(within_ulps(Z(p(i)).imag(), pw[size_t(i)].imag(), 8));
        CHECK(within_ulps(Z(q(i)).real(), dv[size_t(i)].real(), 2));
        CHECK(within_ulps(Z(q(i)).imag(), dv[size_t(i)].imag(), 2));
        CHECK(within_ulps(a(i), ab[i], 1));
        CHECK(within_ulps(g(i), an[i], 1));
    }
    // integer powers are products (NumPy's): (1+2i)^3 = -11-2i exactly; 1/(0+2i) = -0.5i
    ComplexDoubleTensor w(2);
    w(0) = Z(1, 2), w(1) = Z(0, 2);
    ComplexDoubleTensor cube = t7::pow(w, 3), inv = t7::cinv(w), sq = t7::square(w);
    CHECK(Z(cube(0)) == Z(-11, -2));
    CHECK(Z(inv(1)) == Z(0, -0.5));
    CHECK(Z(sq(0)) == Z(-3, 4));
}

TEST_CASE("complex: C99 Annex G special values (NumPy's)") {
    const double inf = std::numeric_limits<double>::infinity();
    ComplexDoubleTensor z(4);
    z(0) = Z(-inf, 0), z(1) = Z(-4, 0), z(2) = Z(-0.0, 0), z(3) = Z(0, inf);
    ComplexDoubleTensor e = t7::exp(z), s = t7::sqrt(z), l = t7::log(z);
    CHECK(Z(e(0)) == Z(0, 0));                                   // exp(-inf + 0i) = +0 + 0i
    CHECK(Z(s(1)) == Z(0, 2));                                   // sqrt(-4) = 2i
    CHECK(Z(s(3)) == Z(inf, inf));                               // sqrt(x + i inf) = inf + i inf
    CHECK(Z(l(2)).real() == -inf);                               // log(-0) = -inf + i pi
    CHECK(Z(l(2)).imag() == doctest::Approx(3.141592653589793)); //
    CHECK(Z(l(1)).imag() == doctest::Approx(3.141592653589793)); // the branch cut: +pi above
    // |inf + NaN i| = inf, |NaN + 1i| = NaN, |0| = 0, no overflow near the largest double
    ComplexDoubleTensor m(4);
    m(0) = Z(inf, NAN), m(1) = Z(NAN, 1), m(2) = Z(0, -0.0), m(3) = Z(1e308, 1e308);
    const DoubleTensor am = t7::abs(m);
    CHECK(am(0) == inf);
    CHECK(std::isnan(am(1)));
    CHECK(am(2) == 0);
    CHECK(am(3) == doctest::Approx(1e308 * std::sqrt(2.0)));
    ComplexDoubleTensor below(1);
    below(0) = Z(-4, -0.0); // below the cut: sqrt gives -2i, log -pi
    CHECK(Z(ComplexDoubleTensor(t7::sqrt(below))(0)) == Z(0, -2));
    CHECK(Z(ComplexDoubleTensor(t7::log(below))(0)).imag() == doctest::Approx(-3.141592653589793));
}

TEST_CASE("complex: real and imag are writable views; complex and polar") {
    ComplexFloatTensor z(2, 3);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) z(i, j) = CF(float(i), float(j));
    FloatTensor re = t7::real(z), im = t7::imag(z);
    CHECK(re.sizes() == Shape{2, 3});
    CHECK(re.strides() == Shape{6, 2});
    CHECK(im.storageOffset() == 1);
    CHECK(static_cast<const void*>(re.data()) == static_cast<const void*>(z.data()));
    CHECK(im(1, 2) == 2);
    im.fill(7); // writes the imaginary parts only
    CHECK(CF(z(1, 2)) == CF(1, 7));
    t7::real(z) += 1.0f;
    CHECK(CF(z(0, 0)) == CF(1, 7));
    // of a reversed and a transposed view
    ComplexFloatTensor rev = z.flip({1});
    FloatTensor rre = t7::real(rev);
    CHECK(rre.stride(1) == -2);
    CHECK(rre(0, 0) == re(0, 2));
    FloatTensor imt = t7::imag(z.t());
    CHECK(imt.sizes() == Shape{3, 2});
    CHECK(imt(2, 1) == 7);
    // the views keep the memory alive
    FloatTensor keep;
    {
        ComplexFloatTensor tmp(3);
        tmp.fill(CF(4, 5));
        keep = t7::imag(tmp);
    }
    CHECK(keep(2) == 5);
    // alias-safe: swap the parts through a temporary
    t7::real(z) = t7::imag(z) * 2.0f;
    CHECK(CF(z(1, 0)) == CF(14, 7));
    // lazy expressions of two real operands
    FloatTensor x(3), y(3);
    for (int64_t i = 0; i < 3; ++i) x(i) = float(i + 1), y(i) = float(i) * 0.5f;
    ComplexFloatTensor c = t7::complex(x, y), p = t7::polar(x, y);
    CHECK(CF(c(2)) == CF(3, 1));
    CHECK(CF(p(1)).real() == doctest::Approx(2 * std::cos(0.5)));
    CHECK(CF(p(1)).imag() == doctest::Approx(2 * std::sin(0.5)));
    FloatTensor back = t7::real(c * 2.0f) + t7::imag(c);
    CHECK(back(2) == 7);
}

TEST_CASE("complex: reductions, dot and vdot") {
    ComplexDoubleTensor z(3);
    z(0) = Z(1, 1), z(1) = Z(2, -1), z(2) = Z(0, 3);
    CHECK(Z(t7::sum(z)) == Z(3, 3));
    CHECK(Z(t7::prod(z)) == Z(-3, 9)); // (1+i)(2-i) = 3+i; (3+i)(3i) = -3+9i
    CHECK(t7::mean(z) == Z(1, 1));
    CHECK(t7::norm(z) == doctest::Approx(4.0)); // sqrt(2 + 5 + 9)
    CHECK(t7::dot(z, z) == Z(-6, -2));          // squares: 2i, 3-4i, -9
    CHECK(t7::vdot(z, z) == Z(16, 0));          // sum of |z|^2
    ComplexDoubleTensor empty(0);
    CHECK(Z(t7::sum(empty)) == Z(0, 0));
    CHECK(std::isnan(t7::mean(empty).real()));
    // along a dimension the results stay complex (they were Long: a TypeError)
    const ComplexDoubleTensor m = z.view({1, 3});
    const ComplexDoubleTensor s0 = t7::sum(m, 1), p0 = t7::prod(m, 1), a0 = t7::mean(m, 1);
    CHECK(Z(s0(0, 0)) == Z(3, 3));
    CHECK(Z(p0(0, 0)) == Z(-3, 9));
    CHECK(Z(a0(0, 0)) == Z(1, 1));
    const ComplexFloatTensor f = t7::sum(z.to<CF>().view({3, 1}), 0);
    CHECK(CF(f(0, 0)) == CF(3, 3));
}

// Along a dimension (and into a given tensor, over several dimensions): the
// types keep their element type (sum, prod, mean, cumsum, cumprod) or are real
// (norm: of the moduli), against naive loops in complex<double>.
TEST_CASE("complex: reductions and scans along a dimension against naive loops") {
    ComplexDoubleTensor z(23, 17);
    for (int64_t i = 0; i < 23; ++i)
        for (int64_t j = 0; j < 17; ++j)
            z(i, j) = Z(std::sin(double(i * 17 + j)), std::cos(0.7 * double(i) - double(j)));
    const auto close = [](Z a, Z b) { return std::abs(a - b) <= 1e-12 * (1 + std::abs(b)); };
    for (int64_t d : {0, 1}) {
        CAPTURE(d);
        const int64_t n = z.size(d), m = z.size(1 - d);
        const ComplexDoubleTensor s = t7::sum(z, d), p = t7::prod(z, d), mu = t7::mean(z, d);
        const ComplexDoubleTensor cs = t7::cumsum(z, d), cp = t7::cumprod(z, d);
        const DoubleTensor n2 = t7::norm(z, 2, d), n1 = t7::norm(z, 1, d), n3 = t7::norm(z, 3, d);
        ComplexDoubleTensor si, mi, ci;
        DoubleTensor ni;
        t7::sum(si, z, d);
        t7::mean(mi, z, d);
        t7::cumprod(ci, z, d);
        t7::norm(ni, z, 2, d);
        for (int64_t k = 0; k < m; ++k) {
            Z acc = 0, pr = 1;
            double q2 = 0, q1 = 0, q3 = 0;
            for (int64_t i = 0; i < n; ++i) {
                const Z x = d == 0 ? Z(z(i, k)) : Z(z(k, i));
                acc += x, pr *= x;
                q2 += std::norm(x), q1 += std::abs(x), q3 += std::pow(std::abs(x), 3);
                const Z gs = d == 0 ? Z(cs(i, k)) : Z(cs(k, i)),
                        gp = d == 0 ? Z(cp(i, k)) : Z(cp(k, i));
                REQUIRE(close(gs, acc));
                REQUIRE(close(gp, pr));
                REQUIRE(close(d == 0 ? Z(ci(i, k)) : Z(ci(k, i)), pr));
            }
            const auto at = [&](const auto& t) { return d == 0 ? t(0, k) : t(k, 0); };
            REQUIRE(close(Z(at(s)), acc));
            REQUIRE(close(Z(at(si)), acc));
            REQUIRE(close(Z(at(p)), pr));
            REQUIRE(close(Z(at(mu)), acc / double(n)));
            REQUIRE(close(Z(at(mi)), acc / double(n)));
            REQUIRE(std::abs(at(n2) - std::sqrt(q2)) <= 1e-12 * std::sqrt(q2));
            REQUIRE(std::abs(at(ni) - std::sqrt(q2)) <= 1e-12 * std::sqrt(q2));
            REQUIRE(std::abs(at(n1) - q1) <= 1e-12 * q1);
            REQUIRE(std::abs(at(n3) - std::cbrt(q3)) <= 1e-12 * std::cbrt(q3));
        }
    }
    // every dimension at once (keepdim false): the whole sum; norm of the moduli
    const ComplexDoubleTensor all = t7::sum(z, {0, 1}, false);
    CHECK(close(Z(all(0)), Z(t7::sum(z))));
    CHECK(std::abs(DoubleTensor(t7::norm(z, 2, {0, 1}, false))(0) - t7::norm(z)) <=
          1e-12 * t7::norm(z));
    // complex<float> keeps its type along a dimension; norm is a FloatTensor
    ComplexFloatTensor f(2, 2);
    f(0, 0) = CF(1, 1), f(0, 1) = CF(2, -1), f(1, 0) = CF(0, 3), f(1, 1) = CF(-1, 0);
    const ComplexFloatTensor fs = t7::sum(f, 1), fp = t7::prod(f, 0), fm = t7::mean(f, 0);
    const FloatTensor fn = t7::norm(f, 2, 1);
    CHECK(CF(fs(0, 0)) == CF(3, 0));
    CHECK(CF(fp(0, 1)) == CF(-2, 1)); // (2 - i)(-1)
    CHECK(CF(fm(0, 0)) == CF(0.5f, 2));
    CHECK(fn(1, 0) == doctest::Approx(std::sqrt(10.0)));
    const ComplexFloatTensor fc = t7::cumprod(f, 1);
    CHECK(CF(fc(0, 1)) == CF(3, 1)); // (1 + i)(2 - i)
    // into a real tensor: TypeError (the imaginary parts are not dropped), nothing written
    DoubleTensor real_out(1, 17);
    real_out.fill(7);
    LongTensor long_out(1, 17);
    long_out.fill(7);
    CHECK_THROWS_WITH_AS(t7::sum(real_out, z, 0), doctest::Contains("t7::real"), TypeError);
    CHECK_THROWS_AS(t7::prod(long_out, z, 0), TypeError);
    CHECK_THROWS_AS(t7::mean(real_out, z, 0), TypeError);
    CHECK_THROWS_AS(t7::cumsum(real_out, z, 1), TypeError);
    CHECK(t7::sum(real_out) == 7 * 17);
    CHECK(t7::sum(long_out) == 7 * 17);
    CHECK(t7::any(z, 0).isSize({1, 17})); // any and all test != 0: defined on complex
}

TEST_CASE("complex: matrix products against naive loops") {
    ComplexDoubleTensor a(37, 19), b(19, 41), v(19);
    for (int64_t i = 0; i < 37; ++i)
        for (int64_t j = 0; j < 19; ++j)
            a(i, j) = Z(std::sin(double(i * 19 + j)), 0.1 * double(i - j));
    for (int64_t i = 0; i < 19; ++i)
        for (int64_t j = 0; j < 41; ++j) b(i, j) = Z(std::cos(double(i) + 0.3 * double(j)), 0.2);
    for (int64_t i = 0; i < 19; ++i) v(i) = Z(double(i), -double(i));
    const ComplexDoubleTensor c = t7::mm(a, b), ct = t7::mm(b.t(), a.t()), m = t7::matmul(a, b);
    const ComplexDoubleTensor y = t7::mv(a, v), o = t7::outer(v, v);
    for (int64_t i = 0; i < 37; ++i) {
        Z sv = 0;
        for (int64_t k = 0; k < 19; ++k) sv += Z(a(i, k)) * Z(v(k));
        CHECK(std::abs(Z(y(i)) - sv) <= 1e-13 * std::abs(sv));
        for (int64_t j = 0; j < 41; ++j) {
            Z s = 0;
            for (int64_t k = 0; k < 19; ++k) s += Z(a(i, k)) * Z(b(k, j));
            REQUIRE(std::abs(Z(c(i, j)) - s) <= 1e-13 * (1 + std::abs(s)));
            REQUIRE(std::abs(Z(ct(j, i)) - s) <= 1e-13 * (1 + std::abs(s)));
            REQUIRE(Z(m(i, j)) == Z(c(i, j)));
        }
    }
    CHECK(Z(o(3, 2)) == Z(3, -3) * Z(2, -2)); // no conjugation
    // batched, inside an expression, tensordot; a skinny shape (Eigen's GEMM for complex)
    ComplexFloatTensor bt(3, 4, 5), bu(3, 5, 2);
    bt.fill(CF(0, 1));
    bu.fill(CF(0, 1));
    CHECK(CF(ComplexFloatTensor(t7::bmm(bt, bu))(2, 3, 1)) == CF(-5, 0)); // 5 i^2
    const ComplexDoubleTensor e = t7::mm(a, b) * Z(0, 1) + 1.0;
    CHECK(t7::max(t7::abs(e - (c * Z(0, 1) + 1.0))) == 0.0);
    CHECK(t7::max(t7::abs(ComplexDoubleTensor(t7::tensordot(a, b, 1)) - c)) < 1e-12);
    ComplexDoubleTensor wide(8, 3000), tall(3000, 5);
    wide.fill(Z(1, 1));
    tall.fill(Z(0.5, -1));
    CHECK(Z(ComplexDoubleTensor(t7::mm(wide, tall))(7, 4)) == 3000.0 * Z(1.5, -0.5));
}

TEST_CASE("complex: printing in Torch7's layout") {
    ComplexFloatTensor z(3);
    z(0) = CF(1, 2), z(1) = CF(-0.5f, -1), z(2) = CF(10, 0);
    std::ostringstream o;
    o << z;
    // the format of the parts (%8.4f: 10 has two digits), cells of 2 x 8 + 1
    CHECK(o.str() == "   1.0000+2.0000j\n  -0.5000-1.0000j\n  10.0000+0.0000j\n"
                     "[torch.ComplexFloatTensor of size 3]\n");
    ComplexDoubleTensor m(2, 2);
    m.fill(Z(0.25, -3));
    CHECK(t7::to_string(m) == " 0.2500-3.0000j  0.2500-3.0000j\n 0.2500-3.0000j  0.2500-3.0000j\n"
                              "[torch.ComplexDoubleTensor of size 2x2]\n");
}

TEST_CASE("complex: .npy both ways, NumPy's bytes") {
    ComplexDoubleTensor z(2, 2);
    z(0, 0) = Z(1, 2), z(0, 1) = Z(-3, 0.5), z(1, 0) = Z(0, -1), z(1, 1) = Z(1e300, -1e-300);
    const std::string bytes = t7::toNpy(z);
    CHECK(bytes.find("'descr': '<c16'") != std::string::npos);
    CHECK(bytes.size() == 128 + 4 * 16);
    const ComplexDoubleTensor back = t7::fromNpy<Z>(bytes);
    CHECK(back.sizes() == Shape{2, 2});
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) CHECK(Z(back(i, j)) == Z(z(i, j)));
    // a transposed view is written in its logical order
    const ComplexDoubleTensor bt = t7::fromNpy<Z>(t7::toNpy(ComplexDoubleTensor(z.t())));
    CHECK(Z(bt(0, 1)) == Z(0, -1));
    // complex64: '<c8'; loads into complex128 exactly, and a real file into complex
    ComplexFloatTensor f(1);
    f(0) = CF(0.1f, -2.5f);
    CHECK(t7::toNpy(f).find("'<c8'") != std::string::npos);
    CHECK(Z(t7::fromNpy<Z>(t7::toNpy(f))(0)) == Z(double(0.1f), -2.5));
    DoubleTensor r(2);
    r(0) = 1.5, r(1) = -2;
    CHECK(CF(t7::fromNpy<CF>(t7::toNpy(r))(1)) == CF(-2, 0));
    // complex128 into complex64: only when both parts are floats exactly
    CHECK_THROWS_AS(t7::fromNpy<CF>(bytes), TypeError);
    // a complex file as a real tensor, or as a t7::Object: TypeError naming the way
    CHECK_THROWS_WITH_AS(t7::fromNpy<double>(bytes), doctest::Contains("ComplexDoubleTensor"),
                         TypeError);
    CHECK_THROWS_WITH_AS(t7::fromNpyAny(bytes),
                         doctest::Contains("load it with loadNpy<std::complex<float>> or "
                                           "loadNpy<std::complex<double>>"),
                         TypeError);
}

TEST_CASE("complex: misuse") {
    ComplexFloatTensor z(3);
    z.fill(CF(1, 1));
    FloatTensor r(3);
    r.fill(5);
    // complex to real: TypeError naming the way out, destination unchanged
    CHECK_THROWS_WITH_AS(r = z, doctest::Contains("t7::real"), TypeError);
    CHECK_THROWS_AS(r.copy(z), TypeError);
    CHECK_THROWS_AS(r = z * 2.0f, TypeError);
    CHECK(r(0) == 5);
    // .t7 has no complex type
    CHECK_THROWS_WITH_AS(t7::save("/nonexistent/z.t7", z), doctest::Contains(".t7"), TypeError);
    // ordering does not compile: t7::cmax(z, z), z < z, t7::floor(z) are static_asserts
    // naming the function (tests/compile_fail/complex_order.py checks the messages).
}
