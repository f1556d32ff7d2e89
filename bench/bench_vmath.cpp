// The element-wise mathematical functions (issue 33): y = f(x) into an existing
// tensor, float and double, against a hand-written loop of the C library's
// function, Eigen's array function (where Eigen has one) and, at 2^20 elements,
// NumPy in the same run (when /usr/bin/python3 has numpy). Also pow(x, 2)
// against x * x. Usage: bench_vmath [threads=1] [reps=7]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

int g_reps = 7;

struct Case {
    std::string name;  // also NumPy's expression, over x (and b)
    double lo, hi;     // the arguments' range
    std::string numpy; // NumPy's call writing into y
};

// Deterministic arguments spread over [lo, hi] (the same formula in the NumPy script).
template <class T>
void fill(T* p, int64_t n, double lo, double hi) {
    for (int64_t i = 0; i < n; ++i) {
        const double f = double(i) * 0.6180339887498949;
        p[i] = T(lo + (hi - lo) * (f - std::floor(f)));
    }
}

const std::vector<Case> cases = {
    {"sin", -10, 10, "np.sin(x, out=y)"},
    {"cos", -10, 10, "np.cos(x, out=y)"},
    {"tan", -1.5, 1.5, "np.tan(x, out=y)"},
    {"asin", -1, 1, "np.arcsin(x, out=y)"},
    {"acos", -1, 1, "np.arccos(x, out=y)"},
    {"atan", -10, 10, "np.arctan(x, out=y)"},
    {"atan2", -10, 10, "np.arctan2(x, b, out=y)"},
    {"sinh", -10, 10, "np.sinh(x, out=y)"},
    {"cosh", -10, 10, "np.cosh(x, out=y)"},
    {"tanh", -10, 10, "np.tanh(x, out=y)"},
    {"exp", -10, 10, "np.exp(x, out=y)"},
    {"exp2", -10, 10, "np.exp2(x, out=y)"},
    {"expm1", -10, 10, "np.expm1(x, out=y)"},
    {"log", 0.01, 100, "np.log(x, out=y)"},
    {"log2", 0.01, 100, "np.log2(x, out=y)"},
    {"log10", 0.01, 100, "np.log10(x, out=y)"},
    {"log1p", 0.01, 100, "np.log1p(x, out=y)"},
    {"cbrt", -100, 100, "np.cbrt(x, out=y)"},
    {"erf", -3, 3, ""}, // NumPy has no erf (SciPy has)
    {"erfc", -3, 3, ""},
    {"sigmoid", -10, 10, ""},
    {"sqrt", 0.01, 100, "np.sqrt(x, out=y)"},
    {"pow(x,b)", 0.01, 10, "np.power(x, b, out=y)"},
    {"pow(x,2)", -10, 10, "np.power(x, 2, out=y)"},
    {"x*x", -10, 10, "np.multiply(x, x, out=y)"},
    {"square", -10, 10, "np.square(x, out=y)"},
    {"pow(x,-1.5)", 0.01, 10, "np.power(x, -1.5, out=y)"},
    {"pow(x,2.7)", 0.01, 10, "np.power(x, 2.7, out=y)"},
    {"x*b+x", -10, 10, "np.add(np.multiply(x, b, out=y), x, out=y)"},
};

// NumPy's best time (seconds) per case name, at n elements of dtype, or empty.
std::map<std::string, double> numpy_times(const char* dtype, int64_t n) {
    std::string script = "import numpy as np, timeit\n"
                         "n=" +
                         std::to_string(n) +
                         "\n"
                         "f=(np.arange(n)*0.6180339887498949)%1.0\n";
    for (const Case& c : cases) {
        if (c.numpy.empty()) continue;
        script += "x=(" + std::to_string(c.lo) + "+(" + std::to_string(c.hi - c.lo) +
                  ")*f).astype(np." + dtype + "); b=(0.5+x*0+np.flip(x)/" +
                  std::to_string(2 * std::max(std::abs(c.lo), std::abs(c.hi))) + ")" +
                  "; y=np.empty_like(x)\n" + "t=min(timeit.repeat(lambda: " + c.numpy +
                  ", number=1, repeat=" + std::to_string(g_reps * 2) + "))\n" + "print('" + c.name +
                  "', t)\n";
    }
    const std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 -c \"" +
                            script + "\" 2>/dev/null";
    std::map<std::string, double> out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char name[64];
    double t;
    while (std::fscanf(p, "%63s %lf", name, &t) == 2) out[name] = t;
    pclose(p);
    return out;
}

template <class T>
void run(const char* dtype) {
    using A = Eigen::Array<T, Eigen::Dynamic, 1>;
    const int64_t n_np = int64_t(1) << 20;
    const std::map<std::string, double> np = numpy_times(dtype, n_np);
    std::printf("\n%s, %d thread(s), best of %d; ms per call; ratios > 1: tensor7 faster\n", dtype,
                t7::getNumThreads(), g_reps);
    std::printf("%-12s %9s %9s %9s %9s | %7s %7s %7s | %9s %9s\n", "function", "t7 2^10", "t7 2^16",
                "t7 2^20", "t7 2^24", "loop/t7", "eig/t7", "np/t7", "2^10 loop", "2^16 loop");
    for (const Case& c : cases) {
        double t7t[4], loopt[4], eigt[4];
        const int64_t sizes[4] = {1 << 10, 1 << 16, 1 << 20, 1 << 24};
        for (int s = 0; s < 4; ++s) {
            const int64_t n = sizes[s];
            t7::Tensor<T> x(n), b(n), y(n);
            fill(x.data(), n, c.lo, c.hi);
            const double bs = 2 * std::max(std::abs(c.lo), std::abs(c.hi));
            for (int64_t i = 0; i < n; ++i) b.data()[i] = T(0.5 + x.data()[n - 1 - i] / bs);
            Eigen::Map<A> X(x.data(), n), B(b.data(), n), Y(y.data(), n);
            const T* xp = x.data();
            const T* bp = b.data();
            T* yp = y.data();
            std::function<void()> f, loop, eig;
            const std::string& m = c.name;
            // clang-format off
#define T7_CASE(NAME, EXPR, SCALAR, EIGEN)                                                         \
    if (m == NAME) {                                                                               \
        f = [&] { y = EXPR; };                                                                     \
        loop = [&] { for (int64_t i = 0; i < n; ++i) yp[i] = SCALAR; };                           \
        eig = EIGEN;                                                                               \
    }
            T7_CASE("sin", t7::sin(x), std::sin(xp[i]), [&] { Y = X.sin(); })
            T7_CASE("cos", t7::cos(x), std::cos(xp[i]), [&] { Y = X.cos(); })
            T7_CASE("tan", t7::tan(x), std::tan(xp[i]), [&] { Y = X.tan(); })
            T7_CASE("asin", t7::asin(x), std::asin(xp[i]), [&] { Y = X.asin(); })
            T7_CASE("acos", t7::acos(x), std::acos(xp[i]), [&] { Y = X.acos(); })
            T7_CASE("atan", t7::atan(x), std::atan(xp[i]), [&] { Y = X.atan(); })
            T7_CASE("atan2", t7::atan2(x, b), std::atan2(xp[i], bp[i]), nullptr)
            T7_CASE("sinh", t7::sinh(x), std::sinh(xp[i]), [&] { Y = X.sinh(); })
            T7_CASE("cosh", t7::cosh(x), std::cosh(xp[i]), [&] { Y = X.cosh(); })
            T7_CASE("tanh", t7::tanh(x), std::tanh(xp[i]), [&] { Y = X.tanh(); })
            T7_CASE("exp", t7::exp(x), std::exp(xp[i]), [&] { Y = X.exp(); })
            T7_CASE("exp2", t7::exp2(x), std::exp2(xp[i]), nullptr)
            T7_CASE("expm1", t7::expm1(x), std::expm1(xp[i]), [&] { Y = X.expm1(); })
            T7_CASE("log", t7::log(x), std::log(xp[i]), [&] { Y = X.log(); })
            T7_CASE("log2", t7::log2(x), std::log2(xp[i]), nullptr)
            T7_CASE("log10", t7::log10(x), std::log10(xp[i]), [&] { Y = X.log10(); })
            T7_CASE("log1p", t7::log1p(x), std::log1p(xp[i]), [&] { Y = X.log1p(); })
            T7_CASE("cbrt", t7::cbrt(x), std::cbrt(xp[i]), nullptr)
            T7_CASE("erf", t7::erf(x), std::erf(xp[i]), nullptr)
            T7_CASE("erfc", t7::erfc(x), std::erfc(xp[i]), nullptr)
            T7_CASE("sigmoid", t7::sigmoid(x), T(1) / (T(1) + std::exp(-xp[i])),
                    [&] { Y = T(1) / (T(1) + (-X).exp()); })
            T7_CASE("sqrt", t7::sqrt(x), std::sqrt(xp[i]), [&] { Y = X.sqrt(); })
            T7_CASE("pow(x,b)", t7::pow(x, b), std::pow(xp[i], bp[i]), [&] { Y = X.pow(B); })
            T7_CASE("pow(x,2)", t7::pow(x, 2), std::pow(xp[i], T(2)), [&] { Y = X.pow(T(2)); })
            T7_CASE("x*x", x * x, xp[i] * xp[i], [&] { Y = X * X; })
            T7_CASE("square", t7::square(x), xp[i] * xp[i], [&] { Y = X.square(); })
            T7_CASE("pow(x,-1.5)", t7::pow(x, -1.5), std::pow(xp[i], T(-1.5)),
                    [&] { Y = X.pow(T(-1.5)); })
            T7_CASE("pow(x,2.7)", t7::pow(x, 2.7), std::pow(xp[i], T(2.7)),
                    [&] { Y = X.pow(T(2.7)); })
            T7_CASE("x*b+x", x * b + x, xp[i] * bp[i] + xp[i], [&] { Y = X * B + X; })
#undef T7_CASE
            // clang-format on
            std::vector<std::function<void()>> fs{f, loop};
            if (eig) fs.push_back(eig);
            const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 16) / n);
            const std::vector<double> t = bench::race(fs, g_reps, inner);
            t7t[s] = t[0];
            loopt[s] = t[1];
            eigt[s] = eig ? t[2] : 0;
        }
        const auto npi = np.find(c.name);
        char npr[16] = "-";
        if (npi != np.end()) std::snprintf(npr, sizeof npr, "%.2f", npi->second / t7t[2]);
        char eigr[16] = "-";
        if (eigt[2] > 0) std::snprintf(eigr, sizeof eigr, "%.2f", eigt[2] / t7t[2]);
        std::printf("%-12s %9.4f %9.4f %9.4f %9.3f | %7.2f %7s %7s | %9.2f %9.2f\n", c.name.c_str(),
                    t7t[0] * 1e3, t7t[1] * 1e3, t7t[2] * 1e3, t7t[3] * 1e3, loopt[2] / t7t[2], eigr,
                    npr, loopt[0] / t7t[0], loopt[1] / t7t[1]);
    }
}

} // namespace

int main(int argc, char** argv) {
    t7::setNumThreads(argc > 1 ? std::atoi(argv[1]) : 1);
    if (argc > 2) g_reps = std::atoi(argv[2]);
    Eigen::setNbThreads(1);
    run<float>("float32");
    run<double>("float64");
}
