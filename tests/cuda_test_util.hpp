// Helpers of the CUDA backend's test bodies, which are written once and compiled
// twice, in three parts (cuda_tests.hpp: devices, transfers, expressions,
// reductions, products, random fills, errors; cuda_tests_ops.hpp: the masked,
// indexed and sorting operations, t7::assign; cuda_tests_maths.hpp: the
// second-round maths):
//   tests/test_thrust_host*.cpp - one part each, by the host compiler with
//     Thrust's OpenMP (or CPP) device system and the library's sources
//     (kernels/host_system.cpp): the GPU code path's logic runs on the CPU over
//     emulated devices (2 of them);
//   tests/test_cuda*.cu - all three (in two units), by nvcc against the real
//     tensor7_cuda library, run on a GPU (skipped when there is none).
// Only <t7/cuda.hpp> is included (no Eigen in nvcc translation units), so host
// tensors here are filled and read element by element, and every reference
// value is computed by plain loops on the host (random fills: by the CPU's
// random engine, which needs no evaluator).
#pragma once

#include <t7/cuda.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// The "every layout" sweeps' 8- and 16-bit integer types: left out of the sanitized
// build (tests/meson.build defines T7_TEST_SANITIZED there), as the expression
// suites do (tests/expr_check.hpp): they share the kernels of the other integer
// types' sizes and paths, and were a quarter of that build's slowest file.
// T7_UNSANITIZED(a, b) expands to "a, b," for a type list, or to nothing.
#if defined(T7_TEST_SANITIZED)
#define T7_UNSANITIZED(...)
#else
#define T7_UNSANITIZED(...) __VA_ARGS__,
#endif

namespace cuda_tests {

using t7::Half;
using t7::Shape;
template <class T>
using HostT = t7::Tensor<T, t7::CPU>;
template <class T>
using DevT = t7::Tensor<T, t7::CUDA>;

// ---- host tensors, element by element ------------------------------------------------------

// A contiguous host tensor whose element i (row-major) is f(i).
template <class T, class F>
HostT<T> host(const Shape& s, F f) {
    HostT<T> t(s);
    for (int64_t i = 0; i < t.nElement(); ++i) t.data()[i] = t7::convert<T>(f(i));
    return t;
}

// Storage offset of element `lin` (row-major over `out`) of t, read with NumPy broadcasting.
template <class T>
int64_t offset_at(const HostT<T>& t, const Shape& out, int64_t lin) {
    const int64_t od = int64_t(out.size()), td = t.dim();
    int64_t off = t.storageOffset();
    for (int64_t d = od - 1; d >= 0; --d) {
        const int64_t i = lin % out[size_t(d)];
        lin /= out[size_t(d)];
        const int64_t k = d - (od - td);
        if (k >= 0 && t.size(k) != 1) off += i * t.stride(k);
    }
    return off;
}
template <class T>
T at(const HostT<T>& t, const Shape& out, int64_t lin) {
    return t.storage().data()[offset_at(t, out, lin)];
}
template <class T>
T at(const HostT<T>& t, int64_t lin) {
    return at(t, t.sizes(), lin);
}

// A device tensor's values in row-major order, as doubles.
template <class T>
std::vector<double> values(const DevT<T>& g) {
    const HostT<T> h = g.cpu();
    std::vector<double> v;
    for (int64_t i = 0; i < h.nElement(); ++i) v.push_back(t7::convert<double>(at(h, i)));
    return v;
}
template <class T>
std::vector<double> values(const HostT<T>& h) {
    std::vector<double> v;
    for (int64_t i = 0; i < h.nElement(); ++i) v.push_back(t7::convert<double>(at(h, i)));
    return v;
}

// Relative comparison of every element with the reference f(i).
template <class T, class F>
void check_close(const DevT<T>& g, F ref, double tol = 1e-5) {
    const std::vector<double> v = values(g);
    int bad = 0;
    for (size_t i = 0; i < v.size() && bad < 5; ++i) {
        const double want = double(ref(int64_t(i)));
        const bool ok = v[i] == want || (std::isnan(want) && std::isnan(v[i])) ||
                        std::fabs(v[i] - want) <= tol * std::max(1.0, std::fabs(want));
        if (!ok) {
            ++bad;
            FAIL_CHECK("element " << i << ": got " << v[i] << ", want " << want);
        }
    }
    CHECK(bad == 0);
}
template <class T, class F>
void check_exact(const DevT<T>& g, F ref) {
    check_close(g, ref, 0.0);
}

inline double wave(int64_t i) { return double((i * 37) % 23) / 7.0 - 1.5; }
inline bool two_devices() { return t7::cuda::deviceCount() >= 2; }

// A user functor as a fused node (host and device).
struct Axpy {
    float a;
    T7_HOST_DEVICE float operator()(float x, float y) const { return a * x + y; }
};

// Every element of a equal to b's (relative to max(1, |b|) within tol).
inline void check_same(const std::vector<double>& a, const std::vector<double>& b, double tol = 0) {
    REQUIRE(a.size() == b.size());
    int bad = 0;
    for (size_t i = 0; i < a.size() && bad < 5; ++i) {
        const bool ok =
            a[i] == b[i] || std::fabs(a[i] - b[i]) <= tol * std::max(1.0, std::fabs(b[i]));
        if (!ok) {
            ++bad;
            FAIL_CHECK("element " << i << ": GPU " << a[i] << ", CPU " << b[i]);
        }
    }
    CHECK(bad == 0);
}

// ---- random fills ------------------------------------------------------------------------

// How far a GPU normal may be from the CPU's: Box-Muller goes through log, sqrt,
// sin and cos, whose last bits differ between glibc and CUDA's libdevice (a few
// units in the last place of a float); the emulated build runs glibc's on both
// sides. Half rounds that float, so a Half may land one Half step away.
template <class T>
double normal_tol() {
    if (T7_GPU_EMULATED) return 0;
    return std::is_same_v<T, Half> ? 2e-3 : 1e-6;
}

// After manualSeed(1234), `draws` fills of layout(base) on the GPU and on the CPU:
// the whole bases (untouched elements stay 0) and the generators' offsets agree.
template <class T, class Layout, class Fill>
void check_fill_matches_cpu(const Shape& base_shape, Layout layout, Fill fill, double tol = 0,
                            int draws = 2) {
    const auto zeros = [&] { return host<T>(base_shape, [](int64_t) { return 0.0; }); };
    t7::manualSeed(1234);
    HostT<T> h = zeros();
    for (int k = 0; k < draws; ++k) {
        auto v = layout(h);
        fill(v);
    }
    const t7::RNGState cpu_state = t7::defaultGenerator<t7::CPU>().state();
    t7::manualSeed(1234);
    DevT<T> g = zeros().cuda();
    for (int k = 0; k < draws; ++k) {
        auto v = layout(g);
        fill(v);
    }
    check_same(values(g), values(h), tol);
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == cpu_state);
}

inline const auto whole = [](auto& x) { return x; };
inline const auto transposed = [](auto& x) { return x.t(); };
inline const auto narrowed = [](auto& x) { return x.narrow(1, 1, 5).narrow(0, 1, 6); };
inline const auto stepped = [](auto& x) { return x(t7::slice(0, 8, 3), t7::slice(1, 7, 2)); };

// The same exception type and message on both devices, and no draw consumed.
template <class F>
void check_same_error(F fill) {
    std::string cpu_msg, gpu_msg;
    HostT<float> h(3);
    DevT<float> g(3);
    t7::manualSeed(1);
    try {
        fill(h);
        FAIL("the CPU fill must throw");
    } catch (const t7::Error& e) {
        cpu_msg = e.what();
    }
    try {
        fill(g);
        FAIL("the GPU fill must throw");
    } catch (const t7::Error& e) {
        gpu_msg = e.what();
    }
    CHECK(gpu_msg == cpu_msg);
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{1, 0});
}

// ---- indexed, masked and sorting operations ------------------------------------------

// An r x c matrix whose element (i, j) is f(i * c + j), on the device and on
// the host, laid out three ways: contiguous, transposed (the t() of a c x r
// tensor) and narrowed (columns 1 .. c of an r x (c + 2) tensor).
template <class T>
struct Layout {
    const char* name;
    DevT<T> g;
    HostT<T> h;
};
template <class T, class F>
std::vector<Layout<T>> layouts(int64_t r, int64_t c, F f) {
    std::vector<Layout<T>> out;
    const HostT<T> a = host<T>({r, c}, f);
    out.push_back({"contiguous", a.cuda(), a});
    const HostT<T> b = host<T>({c, r}, [&](int64_t k) { return f((k % r) * c + k / r); });
    out.push_back({"transposed", b.cuda().t(), b.t()});
    const HostT<T> n = host<T>({r, c + 2}, [&](int64_t k) {
        const int64_t i = k / (c + 2), j = k % (c + 2) - 1;
        return j >= 0 && j < c ? f(i * c + j) : -99.0;
    });
    out.push_back({"narrowed", n.cuda().narrow(1, 1, c), n.narrow(1, 1, c)});
    return out;
}

// Equal sizes and values (NaN equal to NaN).
template <class T, class U>
void check_same(const DevT<T>& g, const U& want) {
    const std::vector<double> v = values(g), w = values(want);
    REQUIRE(g.sizes() == want.sizes());
    int bad = 0;
    for (size_t i = 0; i < v.size() && bad < 5; ++i) {
        if (v[i] == w[i] || (std::isnan(v[i]) && std::isnan(w[i]))) continue;
        ++bad;
        FAIL_CHECK("element " << i << ": got " << v[i] << ", want " << w[i]);
    }
    CHECK(bad == 0);
}
inline std::string join(const std::vector<double>& v) {
    std::ostringstream os;
    for (double x : v) os << x << ' ';
    return os.str();
}
template <class T>
void check_values(const DevT<T>& g, const Shape& sizes, const std::vector<double>& want) {
    CHECK(g.sizes() == sizes);
    const std::vector<double> got = values(g);
    if (got != want) FAIL_CHECK("got " << join(got) << "want " << join(want));
}

template <class E, class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "(no exception)";
}

} // namespace cuda_tests
