// The CUDA backend's test bodies, written once and compiled twice:
//   tests/test_thrust_host.cpp - by the host compiler with Thrust's OpenMP (or
//     CPP) device system and the library's sources (kernels/host_system.cpp):
//     the GPU code path's logic runs on the CPU over emulated devices (2 of them);
//   tests/test_cuda.cu - by nvcc against the real tensor7_cuda library, run on a
//     GPU (skipped when there is none).
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
        const bool ok = (std::isnan(want) && std::isnan(v[i])) ||
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

double wave(int64_t i) { return double((i * 37) % 23) / 7.0 - 1.5; }
bool two_devices() { return t7::cuda::deviceCount() >= 2; }

// A user functor as a fused node (host and device).
struct Axpy {
    float a;
    T7_HOST_DEVICE float operator()(float x, float y) const { return a * x + y; }
};

// ---- devices and transfers
// ------------------------------------------------------------------------

TEST_CASE("cuda: devices") {
    REQUIRE(t7::cuda::deviceCount() >= 1);
    CHECK(t7::cuda::getDevice() == 0);
    CHECK_THROWS_AS(t7::cuda::setDevice(t7::cuda::deviceCount()), t7::DeviceError);
    CHECK_THROWS_AS(t7::cuda::setDevice(-1), t7::DeviceError);
    DevT<float> g(2, 3);
    CHECK(g.getDevice() == 0);
    CHECK(g.type() == "torch.CudaTensor");
    CHECK(t7::cuda::HalfTensor(2).type() == "torch.CudaHalfTensor");
    CHECK(t7::cuda::LongTensor(2).type() == "torch.CudaLongTensor");
    if (two_devices()) {
        t7::cuda::setDevice(1);
        DevT<float> h(4);
        CHECK(h.getDevice() == 1);
        {
            t7::cuda::DeviceGuard guard(0);
            CHECK(t7::cuda::getDevice() == 0);
            CHECK(DevT<float>(1).getDevice() == 0);
        }
        CHECK(t7::cuda::getDevice() == 1);
        t7::cuda::setDevice(0);
    }
}

TEST_CASE_TEMPLATE("cuda: cuda() and cpu() keep every element type", T, uint8_t, int8_t, int16_t,
                   int32_t, int64_t, float, double, Half) {
    const HostT<T> x = host<T>({3, 4}, [](int64_t i) { return double(i * 3 - 5); });
    const DevT<T> g = x.cuda();
    CHECK(g.getDevice() == 0);
    CHECK(g.sizes() == Shape{3, 4});
    CHECK(g.isContiguous());
    CHECK(g.storage().data() != x.storage().data());
    const HostT<T> back = g.cpu();
    CHECK(back.sizes() == Shape{3, 4});
    CHECK(values(back) == values(x));
    CHECK(g.cuda().isSetTo(g)); // already there: the same tensor
    CHECK(x.cpu().isSetTo(x));
    CHECK(DevT<T>().cpu().dim() == 0);
    CHECK(HostT<T>().cuda().dim() == 0);
}

TEST_CASE("cuda: transfers of strided layouts, with conversion") {
    const HostT<float> x = host<float>({3, 4}, wave);
    // non-contiguous host sources
    const DevT<float> gt = x.t().cuda();
    CHECK(gt.sizes() == Shape{4, 3});
    check_exact(gt, [&](int64_t i) { return at(x, (i % 3) * 4 + i / 3); });
    const HostT<float> row = host<float>({1, 4}, [](int64_t i) { return double(i + 1); });
    check_exact(row.expand(Shape{3, 4}).cuda(), [](int64_t i) { return double(i % 4 + 1); });
    const DevT<float> stepped = x(t7::all, t7::slice(0, 4, 2)).cuda();
    check_exact(stepped, [&](int64_t i) { return at(x, (i / 2) * 4 + (i % 2) * 2); });

    // a strided device destination, converting double -> float
    DevT<float> g(4, 6);
    g.zero();
    const HostT<double> d = host<double>({4, 3}, [](int64_t i) { return i * 0.5; });
    g.narrow(1, 1, 3).copy(d);
    check_exact(g, [](int64_t i) {
        const int64_t r = i / 6, c = i % 6;
        return (c >= 1 && c <= 3) ? (r * 3 + c - 1) * 0.5 : 0.0;
    });
    // a strided host destination, converting int32 -> float
    const DevT<int32_t> gi = host<int32_t>({3, 4}, [](int64_t i) { return i - 6; }).cuda();
    HostT<float> big = host<float>({3, 8}, [](int64_t) { return -100.0; });
    big.narrow(1, 2, 4).copy(gi);
    CHECK(values(big) == std::vector<double>{-100, -100, -6, -5, -4, -3, -100, -100,
                                             -100, -100, -2, -1, 0,  1,  -100, -100,
                                             -100, -100, 2,  3,  4,  5,  -100, -100});
    // shapes may differ: elements pair up in row-major order
    DevT<int64_t> flat(2, 6);
    flat.copy(x.t()); // 4x3 view of x
    check_exact(flat, [&](int64_t i) { return double(int64_t(at(x, (i % 3) * 4 + i / 3))); });
    HostT<Half> hh(12);
    hh.copy(gt); // float on the device -> Half on the host
    for (int64_t i = 0; i < 12; ++i)
        CHECK(float(hh.data()[i]) == float(Half(float(at(x, (i % 3) * 4 + i / 3)))));
    CHECK_THROWS_AS(DevT<float>(5).copy(x), t7::ShapeError);
    CHECK_THROWS_AS(HostT<float>(5).copy(g), t7::ShapeError);
}

TEST_CASE("cuda: copies between two GPUs") {
    if (!two_devices()) return; // needs two devices
    const HostT<float> x = host<float>({3, 4}, wave);
    const DevT<float> g0 = x.cuda(0);
    const DevT<float> g1 = x.cuda(1);
    CHECK(g1.getDevice() == 1);
    CHECK(values(g1) == values(x));
    const DevT<float> moved = g0.cuda(1);
    CHECK(moved.getDevice() == 1);
    CHECK(values(moved) == values(x));
    // strided source on device 1 into a strided destination on device 0, converting
    DevT<double> dst(4, 6);
    dst.zero();
    dst.narrow(1, 0, 3).copy(g1.t());
    check_exact(dst, [&](int64_t i) {
        const int64_t r = i / 6, c = i % 6;
        return c < 3 ? double(at(x, c * 4 + r)) : 0.0;
    });
    DevT<int32_t> on1 = host<int32_t>({12}, [](int64_t i) { return i; }).cuda(1);
    DevT<float> on0(3, 4);
    on0.copy(on1);
    check_exact(on0, [](int64_t i) { return double(i); });
}

TEST_CASE("cuda: fill, zero, clone, contiguous, to") {
    DevT<float> g(3, 5);
    g.fill(2.5f);
    g.t().narrow(0, 1, 2).fill(-1); // columns 1 and 2
    check_exact(g, [](int64_t i) { return (i % 5 == 1 || i % 5 == 2) ? -1.0 : 2.5; });
    g.narrow(0, 2, 1).zero();
    check_exact(g, [](int64_t i) { return i >= 10 ? 0.0 : (i % 5 == 1 || i % 5 == 2) ? -1 : 2.5; });
    g = 7; // value assignment fills
    check_exact(g, [](int64_t) { return 7.0; });

    const HostT<float> x = host<float>({3, 4}, wave);
    const DevT<float> gt = x.cuda().t();
    CHECK(!gt.isContiguous());
    const DevT<float> c = gt.contiguous();
    CHECK(c.isContiguous());
    CHECK(c.storage().data() != gt.storage().data());
    check_exact(c, [&](int64_t i) { return at(x, (i % 3) * 4 + i / 3); });
    const DevT<float> cl = x.cuda().clone();
    CHECK(values(cl) == values(x));
    CHECK(gt.contiguous().isContiguous());
    const DevT<double> dd = gt.to<double>();
    check_exact(dd, [&](int64_t i) { return at(x, (i % 3) * 4 + i / 3); });
    const DevT<uint8_t> bb = x.cuda().toByte(); // Torch7's C casts: -2.7 -> 254
    check_exact(bb, [&](int64_t i) { return double(t7::convert<uint8_t>(at(x, i))); });
    DevT<Half> h(3);
    h.fill(Half(0.1f));
    check_exact(h, [](int64_t) { return double(float(Half(0.1f))); });
    DevT<int64_t> big(int64_t(1) << 20);
    big.fill(int64_t(1) << 40);
    CHECK(t7::sum(big) == (int64_t(1) << 60));
}

// ---- fused expressions
// ------------------------------------------------------------------------------

TEST_CASE("cuda: fused expressions over every layout") {
    const HostT<float> A = host<float>({4, 6}, wave);
    const HostT<float> B = host<float>({6, 4}, [](int64_t i) { return 0.25 * double(i % 7); });
    const HostT<float> C = host<float>({4, 12}, [](int64_t i) { return 0.1 * double(i); });
    const HostT<float> Drow = host<float>({6}, [](int64_t i) { return double(i + 1); });
    const HostT<float> Ecol = host<float>({4, 1}, [](int64_t i) { return double(i) - 2; });
    const DevT<float> a = A.cuda(), bt = B.cuda().t(), d = Drow.cuda(), e = Ecol.cuda();
    const DevT<float> c = C.cuda()(t7::all, t7::slice(1, 12, 2)); // 4x6, stride 2
    const Shape out{4, 6};
    auto ref = [&](int64_t i) {
        const int64_t r = i / 6, k = i % 6;
        return double(at(A, i)) * double(at(B, k * 4 + r)) +
               std::sin(double(at(C, r * 12 + 1 + 2 * k))) -
               double(at(Drow, k)) / (double(at(Ecol, r)) + 10);
    };
    DevT<float> y;
    y = a * bt + t7::sin(c) - d / (e + 10.f);
    CHECK(y.sizes() == out);
    CHECK(y.isContiguous());
    check_close(y, ref);
    // into a strided destination (a transposed, narrowed view of a bigger tensor)
    DevT<float> big(8, 5);
    big.zero();
    big.narrow(0, 1, 6).narrow(1, 0, 4).t() = a * bt + t7::sin(c) - d / (e + 10.f);
    check_close(big, [&](int64_t i) {
        const int64_t r = i / 5, k = i % 5;
        return (r >= 1 && r <= 6 && k < 4) ? ref(k * 6 + (r - 1)) : 0.0;
    });
    // broadcasting allocates the result's shape; a 1-element tensor broadcasts too
    DevT<float> table;
    table = e * d + DevT<float>(host<float>({1}, [](int64_t) { return 0.5; }).cuda());
    CHECK(table.sizes() == out);
    check_exact(table,
                [&](int64_t i) { return double(at(Ecol, i / 6)) * double(at(Drow, i % 6)) + 0.5; });
    CHECK_THROWS_AS(y = a + DevT<float>(5), t7::ShapeError);
}

TEST_CASE("cuda: contiguous and strided paths at a million elements") {
    const int64_t n = int64_t(1) << 20;
    const HostT<float> X = host<float>({1024, 1024}, wave);
    const DevT<float> x = X.cuda();
    DevT<float> y;
    y = x * 2.f - 1.f; // every operand contiguous: the linear path
    check_close(y, [&](int64_t i) { return double(at(X, i)) * 2 - 1; });
    y = x.t() * 2.f - x; // transposed: the indexed path
    check_close(y, [&](int64_t i) {
        return double(at(X, (i % 1024) * 1024 + i / 1024)) * 2 - double(at(X, i));
    });
    CHECK(y.nElement() == n);
}

TEST_CASE("cuda: integer arithmetic, promotion, comparisons and casts") {
    const HostT<int8_t> I8 = host<int8_t>({2, 3}, [](int64_t i) { return -100 + 40 * i; });
    const HostT<uint8_t> U8 = host<uint8_t>({2, 3}, [](int64_t i) { return 200 + 10 * i; });
    const HostT<int32_t> I32 = host<int32_t>({2, 3}, [](int64_t i) { return 7 * i - 20; });
    const DevT<int8_t> i8 = I8.cuda();
    const DevT<uint8_t> u8 = U8.cuda();
    const DevT<int32_t> i32 = I32.cuda();

    static_assert(std::is_same_v<decltype(t7::eval(i8 + u8)), DevT<int16_t>>);
    check_exact(t7::eval(i8 + u8),
                [&](int64_t i) { return double(int(at(I8, i)) + int(at(U8, i))); });
    check_exact(t7::eval(u8 + u8), [&](int64_t i) { return double(uint8_t(2 * at(U8, i))); });
    check_exact(t7::eval(i32 / 3), [&](int64_t i) { return double(at(I32, i) / 3); });
    check_exact(t7::eval(t7::remainder(i32, 3)), [&](int64_t i) {
        int r = at(I32, i) % 3;
        return double(r != 0 && r < 0 ? r + 3 : r);
    });
    check_exact(t7::eval(-i8), [&](int64_t i) { return double(int8_t(-at(I8, i))); });
    check_exact(t7::eval(t7::abs(i32)), [&](int64_t i) { return double(std::abs(at(I32, i))); });

    // comparisons give uint8 masks; where, clamp and casts
    static_assert(std::is_same_v<decltype(t7::eval(i32 > 0)), DevT<uint8_t>>);
    check_exact(t7::eval(i32 > 0), [&](int64_t i) { return double(at(I32, i) > 0); });
    const DevT<float> f = host<float>({2, 3}, wave).cuda();
    DevT<float> w;
    w = t7::where(i32 > 0, f, 0.5f);
    check_exact(w, [&](int64_t i) { return at(I32, i) > 0 ? double(float(wave(i))) : 0.5; });
    check_exact(t7::eval(t7::clamp(i32, -5, 5)),
                [&](int64_t i) { return double(std::min(5, std::max(-5, at(I32, i)))); });
    DevT<double> dc;
    dc = t7::cast<double>(i32) / 8;
    check_exact(dc, [&](int64_t i) { return at(I32, i) / 8.0; });
    check_close(t7::eval(t7::exp(i8 / 50)),
                [&](int64_t i) { return std::exp(double(float(at(I8, i) / 50))); });

    // a user functor (host and device) as a fused node
    DevT<float> m;
    m = t7::map(Axpy{2.f}, f, t7::cast<float>(i32));
    check_exact(m, [&](int64_t i) { return double(2.f * float(wave(i)) + float(at(I32, i))); });
}

// The divisor is checked (a reduction on the device) before the kernel writes.
TEST_CASE("cuda: integer division by zero throws before anything is written") {
    const DevT<int32_t> a = host<int32_t>({3}, [](int64_t i) { return 6 - 5 * i; }).cuda();
    const DevT<int32_t> z = host<int32_t>({3}, [](int64_t i) { return i == 1 ? 0 : 2; }).cuda();
    DevT<int32_t> y = host<int32_t>({3}, [](int64_t) { return 9; }).cuda();
    const auto div0 = doctest::Contains("div: integer division by zero");
    CHECK_THROWS_WITH_AS(y = a / z, div0, t7::Error);
    check_exact(y, [](int64_t) { return 9.0; });
    CHECK_THROWS_WITH_AS(y /= 0, div0, t7::Error);
    CHECK_THROWS_WITH_AS(y[y > 0] /= 0, div0, t7::Error);
    check_exact(y, [](int64_t) { return 9.0; });
    CHECK_THROWS_WITH_AS(t7::sum(a / z), div0, t7::Error);
    y = a / 2;
    check_exact(y, [](int64_t i) { return double((6 - 5 * i) / 2); });
}

TEST_CASE("cuda: Half stores half and computes in float") {
    const HostT<float> X = host<float>({5}, [](int64_t i) { return 0.1 * double(i) + 1.0 / 3; });
    const DevT<Half> h = X.cuda().to<Half>();
    DevT<Half> r;
    r = h * 2.f + h;
    static_assert(std::is_same_v<decltype(h * 2.f + h)::value_type, float>);
    check_exact(r, [&](int64_t i) {
        const float x = float(Half(at(X, i)));
        return double(float(Half(x * 2.f + x)));
    });
    double hs = 0;
    for (int64_t i = 0; i < 5; ++i) hs += double(float(Half(at(X, i))));
    CHECK(t7::sum(h) == doctest::Approx(hs));
}

TEST_CASE("cuda: in-place operations and aliasing") {
    const HostT<float> X = host<float>({4, 4}, wave);
    DevT<float> x = X.cuda();
    x += 1;
    x.mul(2);
    check_exact(x, [&](int64_t i) { return double((at(X, i) + 1.f) * 2.f); });
    const DevT<float> y = X.cuda();
    x.cmul(y);
    x.addcmul(0.5, y, y);
    x.add(2.0, y);
    check_close(x, [&](int64_t i) {
        const float v = at(X, i);
        return double((v + 1.f) * 2.f * v + 0.5f * v * v + 2.f * v);
    });
    // x = x.t() + x reads x transposed while writing it: a temporary is taken
    DevT<float> z = X.cuda();
    z = z.t() + z;
    check_exact(z, [&](int64_t i) { return double(at(X, (i % 4) * 4 + i / 4) + at(X, i)); });
    // overlapping shifted views
    DevT<float> s = host<float>({8}, [](int64_t i) { return double(i); }).cuda();
    s.narrow(0, 1, 7) = s.narrow(0, 0, 7) * 10.f;
    check_exact(s, [](int64_t i) { return i == 0 ? 0.0 : double(i - 1) * 10; });
}

// ---- reductions
// -----------------------------------------------------------------------------------

TEST_CASE("cuda: whole-tensor reductions") {
    const HostT<float> X = host<float>({3, 4, 5}, wave);
    const DevT<float> x = X.cuda();
    double s = 0, p = 1, mx = -1e30, mn = 1e30, ss = 0;
    for (int64_t i = 0; i < 60; ++i) {
        const double v = at(X, i);
        s += v;
        mx = std::max(mx, v);
        mn = std::min(mn, v);
        ss += v * v;
        if (i < 10) p *= v;
    }
    CHECK(t7::sum(x) == doctest::Approx(s));
    CHECK(t7::sum(x.permute(2, 0, 1)) == doctest::Approx(s));
    CHECK(t7::max(x.transpose(0, 2)) == float(mx));
    CHECK(t7::min(x) == float(mn));
    CHECK(t7::mean(x) == doctest::Approx(s / 60));
    CHECK(t7::norm(x) == doctest::Approx(std::sqrt(ss)));
    CHECK(t7::prod(x.view(60).narrow(0, 0, 10)) == doctest::Approx(p));
    CHECK(t7::sum(x * x) == doctest::Approx(ss)); // fused: nothing materialised
    CHECK(t7::any(x > 1.f));
    CHECK(!t7::all(x > 1.f));
    CHECK(t7::all(x > -2.f));
    // integer sums accumulate in int64
    const DevT<int8_t> b = host<int8_t>({200}, [](int64_t) { return 100; }).cuda();
    CHECK(t7::sum(b) == 20000);
    // NaN propagates through max and min
    HostT<float> withnan = host<float>({5}, [](int64_t i) { return double(i); });
    withnan.data()[3] = std::numeric_limits<float>::quiet_NaN();
    CHECK(std::isnan(t7::max(withnan.cuda())));
    CHECK(std::isnan(t7::min(withnan.cuda())));
    // large: many elements per thread
    const int64_t n = int64_t(1) << 21;
    const DevT<float> ones = host<float>({n}, [](int64_t) { return 1.0; }).cuda();
    CHECK(t7::sum(ones) == double(n));
    CHECK(t7::sum(ones.view(1024, 2048).t()) == double(n));
}

// Reference reduction of X (row-major 3-D of size s) along dim with f(acc, v).
double fold3(const HostT<float>& X, int64_t dim, int64_t out, double init,
             const std::function<double(double, double)>& f) {
    const Shape s = X.sizes();
    Shape keep = s;
    keep[size_t(dim)] = 1;
    int64_t idx[3], r = out;
    for (int d = 2; d >= 0; --d) {
        idx[d] = r % keep[size_t(d)];
        r /= keep[size_t(d)];
    }
    double acc = init;
    for (int64_t k = 0; k < s[size_t(dim)]; ++k) {
        idx[dim] = k;
        acc = f(acc, double(X.data()[(idx[0] * s[1] + idx[1]) * s[2] + idx[2]]));
    }
    return acc;
}

TEST_CASE("cuda: reductions along a dimension") {
    const HostT<float> X = host<float>({3, 4, 5}, wave);
    const DevT<float> x = X.cuda();
    for (int64_t dim = 0; dim < 3; ++dim) {
        CAPTURE(dim);
        const DevT<float> s = t7::sum(x, dim);
        Shape keep = X.sizes();
        keep[size_t(dim)] = 1;
        CHECK(s.sizes() == keep);
        check_close(s, [&](int64_t i) { return fold3(X, dim, i, 0, std::plus<double>()); });
        // the same through a permuted (non-contiguous) input
        const DevT<float> sp = t7::sum(x.permute(2, 1, 0), 2 - dim);
        check_close(sp.permute(2, 1, 0).contiguous(),
                    [&](int64_t i) { return fold3(X, dim, i, 0, std::plus<double>()); });
        check_close(t7::prod(x, dim),
                    [&](int64_t i) { return fold3(X, dim, i, 1, std::multiplies<double>()); });
        check_close(t7::mean(x, dim), [&](int64_t i) {
            return fold3(X, dim, i, 0, std::plus<double>()) / double(X.size(dim));
        });
        const auto mx = t7::max(x * 2.f, dim);
        check_exact(mx.values, [&](int64_t i) {
            return 2 * fold3(X, dim, i, -1e30, [](double a, double v) { return std::max(a, v); });
        });
        CHECK(mx.indices.type() == "torch.CudaLongTensor");
        const std::vector<double> pos = values(mx.indices), val = values(mx.values);
        for (size_t i = 0; i < pos.size();
             ++i) { // the position holds the value, and is the first such
            int64_t idx[3], r = int64_t(i);
            for (int d = 2; d >= 0; --d) {
                idx[d] = r % keep[size_t(d)];
                r /= keep[size_t(d)];
            }
            for (int64_t k = 0; k < int64_t(pos[i]); ++k) {
                idx[dim] = k;
                CHECK(2 * X.data()[(idx[0] * 4 + idx[1]) * 5 + idx[2]] < val[i]);
            }
            idx[dim] = int64_t(pos[i]);
            CHECK(2 * X.data()[(idx[0] * 4 + idx[1]) * 5 + idx[2]] == val[i]);
        }
        const auto mn = t7::min(x, dim);
        check_exact(mn.values, [&](int64_t i) {
            return fold3(X, dim, i, 1e30, [](double a, double v) { return std::min(a, v); });
        });
    }
    // ties: the first position wins; a NaN beats any number, the first NaN wins
    HostT<float> T = host<float>({2, 6}, [](int64_t i) { return double(i % 3 == 1 ? 5 : 1); });
    T.data()[9] = std::numeric_limits<float>::quiet_NaN();
    T.data()[11] = std::numeric_limits<float>::quiet_NaN();
    const auto tm = t7::max(T.cuda(), 1);
    CHECK(values(tm.indices) == std::vector<double>{1, 3});
    CHECK(values(tm.values)[0] == 5);
    CHECK(std::isnan(values(tm.values)[1]));
    const auto tn = t7::min(T.cuda(), 1);
    CHECK(values(tn.indices) == std::vector<double>{0, 3});
    // any / all / std / var / norm / cumsum / cumprod along dims
    check_exact(t7::any(x > 1.f, 2), [&](int64_t i) {
        return fold3(X, 2, i, 0, [](double a, double v) { return (a != 0 || v > 1) ? 1.0 : 0.0; });
    });
    check_exact(t7::all(x > -1.f, 0), [&](int64_t i) {
        return fold3(X, 0, i, 1, [](double a, double v) { return (a != 0 && v > -1) ? 1.0 : 0.0; });
    });
    const DevT<float> v = t7::var(x, 1);
    check_close(v, [&](int64_t i) {
        const double m = fold3(X, 1, i, 0, std::plus<double>()) / 4;
        return fold3(X, 1, i, 0, [m](double a, double y) { return a + (y - m) * (y - m); }) / 3;
    });
    const DevT<float> cs = t7::cumsum(x, 1);
    check_close(cs, [&](int64_t i) {
        const int64_t r = (i / 5) % 4, base = i - r * 5;
        double acc = 0;
        for (int64_t k = 0; k <= r; ++k) acc += at(X, base + k * 5);
        return acc;
    });
    const DevT<int64_t> cp =
        t7::cumprod(host<int32_t>({2, 4}, [](int64_t i) { return i + 1; }).cuda(), 1);
    CHECK(values(cp) == std::vector<double>{1, 2, 6, 24, 5, 30, 210, 1680});
}

TEST_CASE("cuda: reductions along a dimension at scale") {
    // one output of 2^20 elements: many chunks and merge passes
    const int64_t n = int64_t(1) << 20;
    const DevT<float> row = host<float>({1, n}, [](int64_t i) { return double(i % 3); }).cuda();
    const DevT<float> s = t7::sum(row, 1);
    CHECK(values(s) == std::vector<double>{double((n / 3) * 3 + (n % 3 == 2 ? 1 : 0))});
    const auto m = t7::max(row, 1);
    CHECK(values(m.values) == std::vector<double>{2});
    CHECK(values(m.indices) == std::vector<double>{2});
    // column sums of a 4096 x 256 matrix (outputs contiguous) and row sums of its transpose
    const HostT<float> M =
        host<float>({4096, 256}, [](int64_t i) { return double((i % 256) + (i / 256) % 5); });
    const DevT<float> g = M.cuda();
    double mod5 = 0; // sum over the rows r of r % 5
    for (int r = 0; r < 4096; ++r) mod5 += r % 5;
    check_exact(t7::sum(g, 0), [&](int64_t j) { return 4096.0 * double(j) + mod5; });
    check_exact(t7::sum(g.t(), 1), [](int64_t j) {
        double s = 0;
        for (int r = 0; r < 4096; ++r) s += double(j + r % 5);
        return s;
    });
    const auto am = t7::min(g.t(), 1);
    check_exact(am.indices, [](int64_t) { return 0.0; });
}

// ---- matrix products
// ------------------------------------------------------------------------------

TEST_CASE("cuda: matrix products through cuBLAS") {
    const HostT<float> A = host<float>({3, 4}, [](int64_t i) { return double(i % 5) - 1; });
    const HostT<float> B = host<float>({4, 2}, [](int64_t i) { return double(i) * 0.5; });
    auto ref = [&](int64_t i) {
        const int64_t r = i / 2, c = i % 2;
        double s = 0;
        for (int64_t k = 0; k < 4; ++k) s += double(at(A, r * 4 + k)) * double(at(B, k * 2 + c));
        return s;
    };
    const DevT<float> a = A.cuda(), b = B.cuda();
    const DevT<float> c = t7::mm(a, b);
    CHECK(c.sizes() == Shape{3, 2});
    check_close(c, ref);
    // transposed operands are passed as they are; a stepped one is copied first
    const DevT<float> at_ = A.cuda().t().contiguous().t(); // column-major storage of A
    check_close(t7::mm(at_, b), ref);
    DevT<float> wide(4, 4);
    wide.zero();
    wide(t7::all, t7::slice(0, 4, 2)) = b; // b in columns 0 and 2
    check_close(t7::mm(a, wide(t7::all, t7::slice(0, 4, 2))), ref);
    check_exact(wide, [&](int64_t i) { // operands are left as they were
        return i % 2 == 0 ? double(at(B, (i / 4) * 2 + (i % 4) / 2)) : 0.0;
    });
    // into C^T: mm(b^T, a^T) = (a b)^T
    const DevT<float> ct = t7::mm(b.t(), a.t());
    check_close(ct.t().contiguous(), ref);
    // addmm: beta c + alpha a b, c broadcast
    const DevT<float> bias = host<float>({2}, [](int64_t i) { return double(i) + 1; }).cuda();
    check_close(t7::addmm(0.5, bias, 2.0, a, b),
                [&](int64_t i) { return 0.5 * double(i % 2 + 1) + 2 * ref(i); });
    // mv and dot
    const DevT<float> v = host<float>({4}, [](int64_t i) { return double(i) - 1.5; }).cuda();
    check_close(t7::mv(a, v), [&](int64_t r) {
        double s = 0;
        for (int64_t k = 0; k < 4; ++k) s += double(at(A, r * 4 + k)) * (double(k) - 1.5);
        return s;
    });
    CHECK(t7::dot(v, v) == doctest::Approx(2.25 + 0.25 + 0.25 + 2.25));
    // double and Half
    const DevT<double> cd = t7::mm(a.to<double>(), b.to<double>());
    check_close(cd, ref, 1e-12);
    const DevT<Half> ch = t7::mm(a.to<Half>(), b.to<Half>());
    check_close(ch, ref, 2e-3);
    CHECK_THROWS_AS(t7::mm(a, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::mm(a, v), t7::ShapeError);
}

// ---- random fills
// ---------------------------------------------------------------------------------

// How far a GPU normal may be from the CPU's: Box-Muller goes through log, sqrt,
// sin and cos, whose last bits differ between glibc and CUDA's libdevice (a few
// units in the last place of a float); the emulated build runs glibc's on both
// sides. Half rounds that float, so a Half may land one Half step away.
template <class T>
double normal_tol() {
    if (T7_GPU_EMULATED) return 0;
    return std::is_same_v<T, Half> ? 2e-3 : 1e-6;
}

// Every element of a equal to b's (relative to max(1, |b|) within tol).
void check_same(const std::vector<double>& a, const std::vector<double>& b, double tol = 0) {
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

const auto whole = [](auto& x) { return x; };
const auto transposed = [](auto& x) { return x.t(); };
const auto narrowed = [](auto& x) { return x.narrow(1, 1, 5).narrow(0, 1, 6); };
const auto stepped = [](auto& x) { return x(t7::slice(0, 8, 3), t7::slice(1, 7, 2)); };

// Issue 15: a product inside an element-wise expression. On the GPU path the
// product is computed at the call (cuBLAS) and the expression reads it: the
// same values as the CPU's fused evaluation.
TEST_CASE("cuda: sigmoid(mm(a, b) + bias) and products of expressions") {
    const HostT<float> A = host<float>({5, 6}, [](int64_t i) { return wave(i); });
    const HostT<float> B = host<float>({6, 3}, [](int64_t i) { return wave(i + 7) * 0.5; });
    const HostT<float> Bias = host<float>({3}, [](int64_t i) { return double(i) - 1; });
    auto prod = [&](int64_t i, double shift) {
        const int64_t r = i / 3, c = i % 3;
        double s = 0;
        for (int64_t k = 0; k < 6; ++k)
            s += (double(at(A, r * 6 + k)) + shift) * double(at(B, k * 3 + c));
        return s;
    };
    const DevT<float> a = A.cuda(), b = B.cuda(), bias = Bias.cuda();
    DevT<float> y(5, 3);
    y = t7::sigmoid(t7::mm(a, b) + bias);
    check_close(y, [&](int64_t i) { return 1 / (1 + std::exp(-(prod(i, 0) + (i % 3) - 1))); });
    // expression operands, evaluated once on the device
    check_close(t7::mm(a + 1.f, b), [&](int64_t i) { return prod(i, 1); });
    y = t7::addmm(0.5, bias, 2.0, a, b) * 2.f;
    check_close(y, [&](int64_t i) { return 2 * (0.5 * double(i % 3 - 1) + 2 * prod(i, 0)); });

    // Batches: bmm inside an expression and of expressions (computed at the call here).
    const HostT<float> A3 = host<float>({2, 5, 6}, [](int64_t i) { return wave(i); });
    const HostT<float> B3 = host<float>({2, 6, 3}, [](int64_t i) { return wave(i + 3) * 0.5; });
    auto prod3 = [&](int64_t i, double shift) {
        const int64_t q = i / 15, r = i / 3 % 5, c = i % 3;
        double s = 0;
        for (int64_t k = 0; k < 6; ++k)
            s += (double(at(A3, q * 30 + r * 6 + k)) + shift) * double(at(B3, q * 18 + k * 3 + c));
        return s;
    };
    const DevT<float> a3 = A3.cuda(), b3 = B3.cuda();
    DevT<float> y3(2, 5, 3);
    y3 = t7::sigmoid(t7::bmm(a3, b3) + bias);
    check_close(y3, [&](int64_t i) { return 1 / (1 + std::exp(-(prod3(i, 0) + (i % 3) - 1))); });
    check_close(t7::bmm(a3 + 1.f, b3), [&](int64_t i) { return prod3(i, 1); });
}

TEST_CASE_TEMPLATE("cuda: random fills equal the CPU's after the same seed, on every layout", T,
                   float, double) {
    const Shape s{8, 7};
    const auto uniform = [](auto& x) { x.uniform(-2, 3); };
    const auto normal = [](auto& x) { x.normal(1.5, 2); };
    const auto bernoulli = [](auto& x) { x.bernoulli(0.3); };
    SUBCASE("uniform") {
        check_fill_matches_cpu<T>(s, whole, uniform);
        check_fill_matches_cpu<T>(s, transposed, uniform);
        check_fill_matches_cpu<T>(s, narrowed, uniform);
        check_fill_matches_cpu<T>(s, stepped, uniform);
        check_fill_matches_cpu<T>({7}, whole, uniform, 0, 3); // shorter than a block, odd
    }
    SUBCASE("normal") {
        check_fill_matches_cpu<T>(s, whole, normal, normal_tol<T>());
        check_fill_matches_cpu<T>(s, transposed, normal, normal_tol<T>());
        check_fill_matches_cpu<T>(s, narrowed, normal, normal_tol<T>()); // 30 values: odd groups
        check_fill_matches_cpu<T>(s, stepped, normal, normal_tol<T>());
        check_fill_matches_cpu<T>({5}, whole, normal, normal_tol<T>(), 3); // an odd count
    }
    SUBCASE("bernoulli") {
        check_fill_matches_cpu<T>(s, whole, bernoulli);
        check_fill_matches_cpu<T>(s, transposed, bernoulli);
        check_fill_matches_cpu<T>(s, narrowed, bernoulli);
        check_fill_matches_cpu<T>(s, stepped, bernoulli);
    }
    SUBCASE("mixed sequence of distributions and layouts") {
        t7::manualSeed(99);
        HostT<T> h1(s), h2(s), h3(s);
        h1.uniform(0, 1);
        auto ht = h2.t();
        ht.normal(0, 1);
        h3.bernoulli(0.75);
        t7::manualSeed(99);
        DevT<T> g1(s), g2(s), g3(s);
        g1.uniform(0, 1);
        auto gt = g2.t();
        gt.normal(0, 1);
        g3.bernoulli(0.75);
        check_same(values(g1), values(h1));
        check_same(values(g2), values(h2), normal_tol<T>());
        check_same(values(g3), values(h3));
    }
}

TEST_CASE("cuda: random values are the CPU's first values of the seed") {
    t7::manualSeed(0);
    const HostT<float> h = t7::rand<float>(2, 3);
    const HostT<double> hn = t7::randn<double>(t7::Shape{5});
    t7::manualSeed(0);
    const DevT<float> g = t7::rand<float, t7::CUDA>(2, 3);
    const DevT<double> gn = t7::randn<double, t7::CUDA>(t7::Shape{5});
    CHECK(g.sizes() == Shape{2, 3});
    CHECK(g.getDevice() == 0);
    check_same(values(g), values(h));
    check_same(values(gn), values(hn), normal_tol<double>());
    // the first value of seed 0: the top 24 bits of Philox's first word 0x6627e8d5
    CHECK(values(g)[0] == double(0x6627e8u) / double(1 << 24));
    const std::vector<double> v = values(g);
    for (double x : v) CHECK((x >= 0 && x < 1));
    t7::manualSeed(0);
    const HostT<float> hb = t7::bernoulli<float>(Shape{4, 4}, 0.5);
    t7::manualSeed(0);
    const DevT<float> gb = t7::bernoulli<float, t7::CUDA>(Shape{4, 4}, 0.5);
    check_same(values(gb), values(hb));
    // Half computes in float: one word per value, rounded to half
    t7::manualSeed(4);
    const HostT<Half> hh = t7::rand<Half>(10);
    const HostT<Half> hhn = t7::randn<Half>(Shape{9});
    t7::manualSeed(4);
    const DevT<Half> gh = t7::rand<Half, t7::CUDA>(10);
    check_same(values(gh), values(hh));
    check_same(values(t7::randn<Half, t7::CUDA>(Shape{9})), values(hhn), normal_tol<Half>());
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{4, 3 + 3});
}

TEST_CASE("cuda: successive fills and other seeds differ; an empty fill draws nothing") {
    t7::manualSeed(7);
    DevT<float> g(1000);
    g.uniform();
    const std::vector<double> a = values(g);
    g.uniform();
    const std::vector<double> b = values(g);
    t7::manualSeed(8);
    g.uniform();
    const std::vector<double> c = values(g);
    t7::manualSeed(7);
    g.uniform();
    CHECK(values(g) == a);
    int same_ab = 0, same_ac = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        same_ab += a[i] == b[i];
        same_ac += a[i] == c[i];
    }
    CHECK(same_ab < 5);
    CHECK(same_ac < 5);
    // 1000 floats took 250 blocks; an empty tensor takes none
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{7, 250});
    DevT<float> empty(0);
    empty.uniform();
    DevT<double>().normal();
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{7, 250});
}

TEST_CASE_TEMPLATE("cuda: random fills of every element type equal the CPU's", T, uint8_t, int8_t,
                   int16_t, int32_t, int64_t, float, double, Half) {
    const Shape s{3, 37};
    const auto uniform = [](auto& x) { x.uniform(0, 100); };
    const auto normal = [](auto& x) { x.normal(0, 20); };
    const auto bernoulli = [](auto& x) { x.bernoulli(0.5); };
    check_fill_matches_cpu<T>(s, whole, uniform);
    check_fill_matches_cpu<T>(s, transposed, uniform);
    check_fill_matches_cpu<T>(s, whole, bernoulli);
    check_fill_matches_cpu<T>(s, transposed, bernoulli);
    check_fill_matches_cpu<T>(s, whole, normal, normal_tol<T>());
    // uniform values stay in range, take many values, and bernoulli gives 0 and 1 only
    t7::manualSeed(5);
    DevT<T> g(s);
    g.uniform(0, 100);
    const std::vector<double> v = values(g);
    double lo = 1e9, hi = -1e9, sum = 0;
    for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x), sum += x;
    CHECK(lo >= 0);
    CHECK(hi <= 100);
    CHECK(hi - lo > 80);
    CHECK(sum / double(v.size()) == doctest::Approx(50).epsilon(0.2));
    g.bernoulli(0.5);
    int ones = 0;
    for (double x : values(g)) {
        CHECK((x == 0 || x == 1));
        ones += x == 1;
    }
    CHECK(ones > 20);
    CHECK(ones < 91);
}

// Mean and variance of n values (on the host).
std::pair<double, double> moments(const std::vector<double>& v) {
    double m = 0, q = 0;
    for (double x : v) m += x;
    m /= double(v.size());
    for (double x : v) q += (x - m) * (x - m);
    return {m, q / double(v.size() - 1)};
}

TEST_CASE("cuda: random fills of a million values have the right moments") {
    t7::manualSeed(2024);
    DevT<float> g(1000, 1000);
    g.uniform(-1, 3);
    auto [m, var] = moments(values(g));
    CHECK(m == doctest::Approx(1).epsilon(0.01));
    CHECK(var == doctest::Approx(16.0 / 12).epsilon(0.01));
    const std::vector<double> u = values(g);
    CHECK(*std::min_element(u.begin(), u.end()) >= -1);
    CHECK(*std::max_element(u.begin(), u.end()) < 3);

    DevT<double> d(1000, 1000);
    auto dt = d.t(); // the strided path, at scale
    dt.normal(2, 0.5);
    std::tie(m, var) = moments(values(d));
    CHECK(m == doctest::Approx(2).epsilon(0.002));
    CHECK(var == doctest::Approx(0.25).epsilon(0.01));

    g.bernoulli(0.3);
    std::tie(m, var) = moments(values(g));
    CHECK(m == doctest::Approx(0.3).epsilon(0.01));
    CHECK(var == doctest::Approx(0.21).epsilon(0.01));

    // and the million-value fills are still the CPU's
    check_fill_matches_cpu<float>(
        {1000, 1000}, transposed, [](auto& x) { x.normal(); }, normal_tol<float>(), 1);
}

TEST_CASE("cuda: bernoulli with a tensor of probabilities") {
    const HostT<float> hp = host<float>({4, 6}, [](int64_t i) { return double(i % 5) / 4; });
    const DevT<float> p = hp.cuda();
    t7::manualSeed(11);
    DevT<float> g(4, 6);
    g.bernoulli(p);
    // the reference: the CPU engine's uniform words of the same draw, compared with p
    t7::manualSeed(11);
    HostT<double> u(4, 6);
    t7::detail::random_fill(u, t7::rng::Word01{});
    check_exact(g, [&](int64_t i) { return at(u, i) < double(at(hp, i)) ? 1.0 : 0.0; });
    // broadcast probabilities: a row of 0 and 1 gives columns of 0 and 1
    const DevT<double> row = host<double>({6}, [](int64_t i) { return double(i % 2); }).cuda();
    DevT<int32_t> b(3, 6);
    b.bernoulli(row);
    check_exact(b, [](int64_t i) { return double(i % 2); });
    const DevT<float> bad = host<float>({6}, [](int64_t i) { return i == 3 ? 1.5 : 0.5; }).cuda();
    CHECK_THROWS_AS(g.bernoulli(bad), t7::Error);
    CHECK_THROWS_AS(g.bernoulli(DevT<float>(5)), t7::ShapeError);
    if (two_devices()) { // the temporary goes to the tensor's device, not the current one
        DevT<float> g1 = p.cuda(1).clone();
        const DevT<float> p1 = p.cuda(1);
        g1.bernoulli(p1);
        CHECK(g1.getDevice() == 1);
        for (double x : values(g1)) CHECK((x == 0 || x == 1));
        CHECK_THROWS_AS(g1.bernoulli(p), t7::DeviceError);
    }
}

TEST_CASE("cuda: each device has its own generator, seeded by manualSeed") {
    if (!two_devices()) return;
    t7::manualSeed(3);
    const HostT<float> h = t7::rand<float>(50);
    t7::manualSeed(3);
    DevT<float> g1 = host<float>({50}, wave).cuda(1);
    g1.uniform();
    CHECK(g1.getDevice() == 1);
    check_same(values(g1), values(h));
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{3, 0});
    CHECK(t7::defaultGenerator<t7::CUDA>(1).state() == t7::RNGState{3, 13});
}

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

TEST_CASE("cuda: random fill errors are the CPU's") {
    check_same_error([](auto& x) { x.uniform(3, 1); });
    check_same_error([](auto& x) { x.uniform(0, std::nan("")); });
    check_same_error([](auto& x) { x.normal(0, -1); });
    check_same_error([](auto& x) { x.bernoulli(1.5); });
    check_same_error([](auto& x) { x.bernoulli(-0.1); });
    check_same_error([](auto& x) { x.bernoulli(std::nan("")); });
    DevT<float> g(3);
    CHECK_THROWS_AS(g.uniform(3, 1), t7::Error);
    CHECK_THROWS_WITH_AS(g.bernoulli(2.0), doctest::Contains("bernoulli: probability 2"),
                         t7::Error);
    CHECK_THROWS_WITH_AS(g.normal(0, -1), doctest::Contains("normal: standard deviation"),
                         t7::Error);
    // degenerate but valid bounds
    g.uniform(2, 2);
    check_exact(g, [](int64_t) { return 2.0; });
    g.bernoulli(0);
    check_exact(g, [](int64_t) { return 0.0; });
    g.bernoulli(1);
    check_exact(g, [](int64_t) { return 1.0; });
}

// ---- every product against host reference loops, over layouts, dtypes and devices ----------

// Element idx of a host tensor of any layout, as a double.
template <class T>
double el(const HostT<T>& t, std::initializer_list<int64_t> idx) {
    int64_t off = t.storageOffset(), d = 0;
    for (int64_t i : idx) off += i * t.stride(d++);
    return t7::convert<double>(t.storage().data()[off]);
}
// A reference batch of products: r[q] = A[q] B[q] over batch q (2-D: one), in double.
template <class T>
std::vector<double> ref_bmm(const HostT<T>& a, const HostT<T>& b) {
    const bool batched = a.dim() == 3;
    const int64_t nb = batched ? a.size(0) : 1, n = a.size(-2), k = a.size(-1), p = b.size(-1);
    std::vector<double> r;
    for (int64_t q = 0; q < nb; ++q)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < p; ++j) {
                double s = 0;
                for (int64_t l = 0; l < k; ++l)
                    s += batched ? el(a, {q, i, l}) * el(b, {q, l, j})
                                 : el(a, {i, l}) * el(b, {l, j});
                r.push_back(s);
            }
    return r;
}
std::function<double(int64_t)> from(const std::vector<double>& r) {
    return [r](int64_t i) { return r[size_t(i)]; };
}

// The same view of a host tensor and of its copy on a device.
template <class T, class V>
std::pair<HostT<T>, DevT<T>> both(const Shape& s, V view, int device = 0, double shift = 0) {
    const HostT<T> h = host<T>(s, [&](int64_t i) { return wave(i * 5 + 3) + shift; });
    return {view(h), view(h.cuda(device))};
}
inline const auto same = [](const auto& t) { return t; };

TEST_CASE_TEMPLATE("cuda: every product equals the host result over layouts", T, float, double,
                   Half) {
    const double tol = std::is_same_v<T, Half> ? 8e-3 : std::is_same_v<T, float> ? 1e-5 : 1e-12;
    // matrices: contiguous, transposed, narrowed, stepped (no unit stride: copied)
    auto tr = [](const auto& t) { return t.t(); };
    auto stepped = [](const auto& t) {
        return t(t7::slice(0, t.size(0), 2), t7::slice(0, t.size(1), 2));
    };
    const auto A0 = both<T>({5, 7}, same), A1 = both<T>({7, 5}, tr);
    const auto A2 = both<T>({5, 9}, [](const auto& t) { return t.narrow(1, 1, 7); });
    const auto A3 = both<T>({10, 14}, stepped);
    const auto B0 = both<T>({7, 3}, same, 0, 0.25), B1 = both<T>({3, 7}, tr, 0, 0.25);
    const auto B2 = both<T>(
        {9, 3}, [](const auto& t) { return t.narrow(0, 1, 7); }, 0, 0.25);
    const auto BS = both<T>({14, 6}, stepped, 0, 0.25);
    for (const auto* A : {&A0, &A1, &A2, &A3})
        for (const auto* B : {&B0, &B1, &B2, &BS}) {
            CAPTURE(A->first.strides());
            CAPTURE(B->first.strides());
            const std::vector<double> r = ref_bmm(A->first, B->first);
            const DevT<T> c = t7::mm(A->second, B->second);
            CHECK(c.sizes() == Shape{5, 3});
            check_close(c, from(r), tol);
            // matmul of two matrices is mm; mm(b^T, a^T) = (a b)^T
            check_close(t7::matmul(A->second, B->second), from(r), tol);
            check_close(t7::mm(B->second.t(), A->second.t()).t().contiguous(), from(r), tol);
            // addmm: beta c + alpha a b, with c full, broadcast (a row), transposed
            const auto C = both<T>({3, 5}, tr, 0, 1);
            const auto bias = both<T>({3}, same, 0, 1);
            check_close(
                t7::addmm(0.5, C.second, 2.0, A->second, B->second),
                [&](int64_t i) {
                    return 0.5 * el(C.first, {i / 3, i % 3}) + 2 * r[size_t(i)];
                },
                tol * 4);
            check_close(
                t7::addmm(bias.second, A->second, B->second),
                [&](int64_t i) { return el(bias.first, {i % 3}) + r[size_t(i)]; }, tol * 4);
        }
    // beta = 0 ignores c, even NaN
    DevT<T> nan(5, 3);
    nan.fill(t7::convert<T>(std::numeric_limits<float>::quiet_NaN()));
    check_close(t7::addmm(0.0, nan, 1.0, A0.second, B0.second), from(ref_bmm(A0.first, B0.first)),
                tol);

    // matrix-vector: contiguous, transposed, stepped matrix; contiguous and stepped vector
    const auto v0 = both<T>({7}, same, 0, 0.5);
    const auto v1 = both<T>(
        {14}, [](const auto& t) { return t(t7::slice(1, 14, 2)); }, 0, 0.5);
    for (const auto* A : {&A0, &A1, &A2, &A3})
        for (const auto* v : {&v0, &v1}) {
            const std::vector<double> r = ref_bmm(A->first, v->first.unsqueeze(1));
            check_close(t7::mv(A->second, v->second), from(r), tol);
            check_close(t7::matmul(A->second, v->second), from(r), tol);
            const auto y = both<T>(
                {10}, [](const auto& t) { return t(t7::slice(0, 10, 2)); }, 0, 1);
            check_close(
                t7::addmv(2.0, y.second, -1.0, A->second, v->second),
                [&](int64_t i) { return 2 * el(y.first, {i}) - r[size_t(i)]; }, tol * 4);
            // vector times matrix: matmul(v^T, A^T)
            check_close(t7::matmul(v->second, A->second.t()), from(r), tol);
        }
    // outer products, dot
    const auto u0 = both<T>({5}, same, 0, 0.75);
    const auto u1 = both<T>(
        {15}, [](const auto& t) { return t(t7::slice(2, 15, 3)); }, 0, 0.75);
    for (const auto* u : {&u0, &u1})
        for (const auto* v : {&v0, &v1}) {
            auto outer = [&](int64_t i) { return el(u->first, {i / 7}) * el(v->first, {i % 7}); };
            check_close(t7::ger(u->second, v->second), outer, tol);
            const auto M = both<T>({7, 5}, tr, 0, 1);
            check_close(
                t7::addr(0.5, M.second, 3.0, u->second, v->second),
                [&](int64_t i) {
                    return 0.5 * el(M.first, {i / 7, i % 7}) + 3 * outer(i);
                },
                tol * 4);
            check_close(
                t7::addr(M.second, u->second, v->second),
                [&](int64_t i) {
                    return el(M.first, {i / 7, i % 7}) + outer(i);
                },
                tol * 4);
            double d = 0;
            for (int64_t i = 0; i < 7; ++i) d += el(v->first, {i}) * el(v->first, {i});
            CHECK(t7::convert<double>(t7::dot(v->second, v->second)) ==
                  doctest::Approx(d).epsilon(tol * 4));
            check_close(
                t7::matmul(v->second, v->second), [&](int64_t) { return d; }, tol * 4);
        }
    // dot pairs elements in layout order whatever the shapes: a transposed matrix and a vector
    const auto V = both<T>({35}, same, 0, 0.5);
    double d = 0;
    for (int64_t i = 0; i < 35; ++i) d += el(A1.first, {i / 7, i % 7}) * el(V.first, {i});
    CHECK(t7::convert<double>(t7::dot(A1.second, V.second)) == doctest::Approx(d).epsilon(tol * 4));
    CHECK(t7::convert<double>(t7::dot(DevT<T>(0), DevT<T>(0))) == 0);
}

TEST_CASE_TEMPLATE("cuda: batched products and matmul's broadcasting", T, float, double, Half) {
    const double tol = std::is_same_v<T, Half> ? 8e-3 : std::is_same_v<T, float> ? 1e-5 : 1e-12;
    // batches: contiguous; batch dimension not outermost in memory; transposed
    // matrices; stepped matrices (copied)
    const auto A0 = both<T>({4, 3, 5}, same);
    const auto A1 = both<T>({3, 4, 5}, [](const auto& t) { return t.transpose(0, 1); });
    const auto A2 = both<T>({4, 6, 10}, [](const auto& t) {
        return t(t7::all, t7::slice(0, 6, 2), t7::slice(0, 10, 2));
    });
    const auto B0 = both<T>({4, 5, 2}, same, 0, 0.25);
    const auto B1 = both<T>(
        {4, 2, 5}, [](const auto& t) { return t.transpose(1, 2); }, 0, 0.25);
    const auto B2 = both<T>(
        {5, 4, 2}, [](const auto& t) { return t.transpose(0, 1); }, 0, 0.25);
    for (const auto* A : {&A0, &A1, &A2})
        for (const auto* B : {&B0, &B1, &B2}) {
            CAPTURE(A->first.strides());
            CAPTURE(B->first.strides());
            const std::vector<double> r = ref_bmm(A->first, B->first);
            const DevT<T> c = t7::bmm(A->second, B->second);
            CHECK(c.sizes() == Shape{4, 3, 2});
            check_close(c, from(r), tol);
            check_close(t7::matmul(A->second, B->second), from(r), tol);
            // baddbmm: c full (transposed batch) and broadcast
            const auto C = both<T>(
                {3, 4, 2}, [](const auto& t) { return t.transpose(0, 1); }, 0, 1);
            const auto bias = both<T>({3, 1}, same, 0, 1);
            check_close(
                t7::baddbmm(0.5, C.second, 2.0, A->second, B->second),
                [&](int64_t i) {
                    return 0.5 * el(C.first, {i / 6, (i / 2) % 3, i % 2}) + 2 * r[size_t(i)];
                },
                tol * 4);
            check_close(
                t7::baddbmm(bias.second, A->second, B->second),
                [&](int64_t i) {
                    return el(bias.first, {(i / 2) % 3, 0}) + r[size_t(i)];
                },
                tol * 4);
        }
    // matmul: a batch times one matrix (contiguous: one GEMM; strided: batch stride 0)
    const auto M = both<T>({5, 2}, same, 0, 0.25);
    for (const auto* A : {&A0, &A1}) {
        std::vector<double> r;
        for (int64_t q = 0; q < 4; ++q)
            for (int64_t i = 0; i < 3; ++i)
                for (int64_t j = 0; j < 2; ++j) {
                    double s = 0;
                    for (int64_t l = 0; l < 5; ++l)
                        s += el(A->first, {q, i, l}) * el(M.first, {l, j});
                    r.push_back(s);
                }
        const DevT<T> c = t7::matmul(A->second, M.second);
        CHECK(c.sizes() == Shape{4, 3, 2});
        check_close(c, from(r), tol);
    }
    // broadcast batch dimensions: (2, 1, 3, 4) x (5, 4, 2) -> (2, 5, 3, 2)
    const auto X = both<T>({2, 1, 3, 4}, same);
    const auto Y = both<T>(
        {5, 2, 4}, [](const auto& t) { return t.transpose(1, 2); }, 0, 0.25);
    const DevT<T> z = t7::matmul(X.second, Y.second);
    CHECK(z.sizes() == Shape{2, 5, 3, 2});
    check_close(
        z,
        [&](int64_t i) {
            const int64_t j = i % 2, r = (i / 2) % 3, q = (i / 6) % 5, p = i / 30;
            double s = 0;
            for (int64_t l = 0; l < 4; ++l) s += el(X.first, {p, 0, r, l}) * el(Y.first, {q, l, j});
            return s;
        },
        tol);
    // a batch times a vector, a vector times a batch
    const auto w = both<T>({5}, same, 0, 0.5);
    const DevT<T> bv = t7::matmul(A1.second, w.second);
    CHECK(bv.sizes() == Shape{4, 3});
    check_close(
        bv,
        [&](int64_t i) {
            double s = 0;
            for (int64_t l = 0; l < 5; ++l) s += el(A1.first, {i / 3, i % 3, l}) * el(w.first, {l});
            return s;
        },
        tol);
    const auto w3 = both<T>({3}, same, 0, 0.5);
    const DevT<T> vb = t7::matmul(w3.second, A1.second);
    CHECK(vb.sizes() == Shape{4, 5});
    check_close(
        vb,
        [&](int64_t i) {
            double s = 0;
            for (int64_t l = 0; l < 3; ++l)
                s += el(w3.first, {l}) * el(A1.first, {i / 5, l, i % 5});
            return s;
        },
        tol);
}

TEST_CASE("cuda: Blas<CUDA> writes into a result without a unit stride") {
    const HostT<float> A = host<float>({3, 4}, wave);
    const HostT<float> B = host<float>({4, 2}, [](int64_t i) { return wave(i + 7); });
    auto ref = [&](int64_t i, int64_t j) {
        double s = 0;
        for (int64_t l = 0; l < 4; ++l) s += el(A, {i, l}) * el(B, {l, j});
        return s;
    };
    const DevT<float> a = A.cuda(), b = B.cuda();
    for (const float beta : {0.5f, 0.f}) {
        DevT<float> big(6, 4);
        big.fill(beta == 0 ? std::numeric_limits<float>::quiet_NaN() : 1.f);
        DevT<float> c = big(t7::slice(0, 6, 2), t7::slice(0, 4, 2)); // strides 8 and 2
        t7::detail::Blas<t7::CUDA>::gemm(2.f, t7::detail::cmat_ref(a), t7::detail::cmat_ref(b),
                                         beta, t7::detail::mat_ref(c));
        check_close(big, [&](int64_t i) {
            const int64_t r = i / 4, q = i % 4;
            if (r % 2 || q % 2) return beta == 0 ? std::nan("") : 1.0; // untouched
            return beta + 2 * ref(r / 2, q / 2);
        });
    }
}

TEST_CASE("cuda: product errors: shapes, devices, element types") {
    const DevT<float> a = host<float>({3, 4}, wave).cuda(), b = host<float>({4, 2}, wave).cuda();
    const DevT<float> v = host<float>({4}, wave).cuda(), u = host<float>({3}, wave).cuda();
    const DevT<float> ba = host<float>({2, 3, 4}, wave).cuda(),
                      bb = host<float>({2, 4, 2}, wave).cuda();
    // inner dimensions that do not match
    CHECK_THROWS_AS(t7::mm(a, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::addmm(a, a, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::mv(a, u), t7::ShapeError);
    CHECK_THROWS_AS(t7::addmv(u, a, u), t7::ShapeError);
    CHECK_THROWS_AS(t7::bmm(ba, ba), t7::ShapeError);
    CHECK_THROWS_AS(t7::baddbmm(ba, ba, ba), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(a, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(ba, ba), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(u, v), t7::ShapeError);
    CHECK_THROWS_AS(t7::dot(u, v), t7::ShapeError);
    CHECK_THROWS_AS(t7::ger(a, v), t7::ShapeError);
    CHECK_THROWS_AS(t7::addr(b, u, v), t7::ShapeError); // M does not broadcast to 3 x 4
    CHECK_THROWS_AS(t7::addmm(1.0, DevT<float>(), 1.0, a, b), t7::ShapeError);
    // a CPU operand with a CUDA one: DeviceError naming both
    const HostT<float> h = host<float>({4, 2}, wave), hv = host<float>({4}, wave);
    try {
        (void)t7::mm(a, h);
        FAIL("mm of a CUDA and a CPU tensor must throw");
    } catch (const t7::DeviceError& e) {
        const std::string msg = e.what();
        CHECK(msg.find("mm") != std::string::npos);
        CHECK(msg.find("CUDA device 0") != std::string::npos);
        CHECK(msg.find("CPU") != std::string::npos);
    }
    CHECK_THROWS_AS(t7::mv(a, hv), t7::DeviceError);
    CHECK_THROWS_AS(t7::dot(v, hv), t7::DeviceError);
    CHECK_THROWS_AS(t7::ger(u, hv), t7::DeviceError);
    CHECK_THROWS_AS(t7::matmul(a, h), t7::DeviceError);
    CHECK_THROWS_AS(t7::bmm(ba, host<float>({2, 4, 2}, wave)), t7::DeviceError);
    CHECK_THROWS_AS(t7::addmm(host<float>({3, 2}, wave), a, b), t7::DeviceError);
    CHECK_THROWS_AS(t7::addmv(host<float>({3}, wave), a, v), t7::DeviceError);
    CHECK_THROWS_AS(t7::addr(host<float>({3, 4}, wave), u, v), t7::DeviceError);
    CHECK_THROWS_AS(t7::baddbmm(host<float>({2, 3, 2}, wave), ba, bb), t7::DeviceError);
    // with beta 0 the added tensor is ignored, wherever it is
    check_close(t7::addmm(0.0, host<float>({3, 2}, wave), 1.0, a, b), from(values(t7::mm(a, b))),
                1e-6);
    if (two_devices()) {
        const DevT<float> b1 = b.cpu().cuda(1), v1 = v.cpu().cuda(1);
        try {
            (void)t7::mm(a, b1);
            FAIL("mm across two GPUs must throw");
        } catch (const t7::DeviceError& e) {
            const std::string msg = e.what();
            CHECK(msg.find("CUDA device 0") != std::string::npos);
            CHECK(msg.find("CUDA device 1") != std::string::npos);
        }
        CHECK_THROWS_AS(t7::mv(a, v1), t7::DeviceError);
        CHECK_THROWS_AS(t7::dot(v, v1), t7::DeviceError);
        CHECK_THROWS_AS(t7::ger(v, v1), t7::DeviceError);
        CHECK_THROWS_AS(t7::bmm(ba, bb.cpu().cuda(1)), t7::DeviceError);
        CHECK_THROWS_AS(t7::addmm(a.cpu().cuda(1).narrow(1, 0, 2), a, b), t7::DeviceError);
        // products on device 1 run there and leave their result there
        const DevT<float> a1 = a.cpu().cuda(1);
        const DevT<float> c1 = t7::mm(a1, b1);
        CHECK(c1.getDevice() == 1);
        check_close(c1, from(values(t7::mm(a, b))), 1e-6);
        CHECK(t7::bmm(ba.cpu().cuda(1), bb.cpu().cuda(1)).getDevice() == 1);
        CHECK(t7::ger(v1, v1).getDevice() == 1);
        CHECK(t7::dot(v1, v1) == doctest::Approx(t7::dot(v, v)));
    }
    // element types cuBLAS does not take
    const DevT<int32_t> ia = host<int32_t>({2, 2}, [](int64_t i) { return double(i); }).cuda();
    try {
        (void)t7::mm(ia, ia);
        FAIL("an Int product on CUDA must throw");
    } catch (const t7::TypeError& e) {
        CHECK(std::string(e.what()).find("torch.CudaIntTensor") != std::string::npos);
    }
    CHECK_THROWS_AS(t7::dot(ia, ia), t7::TypeError);
    CHECK_THROWS_AS(t7::bmm(ia.view(1, 2, 2), ia.view(1, 2, 2)), t7::TypeError);
    CHECK_THROWS_AS(t7::ger(ia.view(4), ia.view(4)), t7::TypeError);
}

// ---- errors
// ---------------------------------------------------------------------------------------

TEST_CASE("cuda: device errors") {
    const HostT<float> x = host<float>({2, 3}, wave);
    const DevT<float> g = x.cuda();
    DevT<float> r;
    try {
        r = g + x;
        FAIL("mixing a CPU and a CUDA tensor must throw");
    } catch (const t7::DeviceError& e) {
        const std::string msg = e.what();
        CHECK(msg.find("CPU") != std::string::npos);
        CHECK(msg.find("CUDA device 0") != std::string::npos);
    }
    HostT<float> h;
    CHECK_THROWS_AS(h = g * 2.f, t7::DeviceError);
    CHECK_THROWS_AS(r = x * 2.f, t7::DeviceError);
    if (two_devices()) {
        const DevT<float> g1 = x.cuda(1);
        try {
            r = g + g1;
            FAIL("mixing two GPUs must throw");
        } catch (const t7::DeviceError& e) {
            const std::string msg = e.what();
            CHECK(msg.find("CUDA device 0") != std::string::npos);
            CHECK(msg.find("CUDA device 1") != std::string::npos);
        }
        DevT<float> on0(2, 3);
        CHECK_THROWS_AS(on0 = g1 * 2.f, t7::DeviceError);
        CHECK_THROWS_AS(t7::mm(g, g1.t()), t7::DeviceError);
        DevT<float> fresh; // an empty destination takes the expression's device
        fresh = g1 * 2.f;
        CHECK(fresh.getDevice() == 1);
        CHECK(t7::sum(g1, 1).getDevice() == 1);
    }
    CHECK_THROWS_AS(x.cuda(t7::cuda::deviceCount()), t7::DeviceError);
}

TEST_CASE("cuda: out of memory is a DeviceError, and nothing leaks") {
    const DevT<float> before(1000);
    try {
        DevT<float> huge(int64_t(1) << 42); // 16 TiB
        FAIL("a 16 TiB allocation must fail");
    } catch (const t7::DeviceError& e) {
        const std::string msg = e.what();
        CHECK(msg.find("out of memory") != std::string::npos);
        CHECK(msg.find("cudaErrorMemoryAllocation") != std::string::npos);
    }
    DevT<float> after(1000); // the device still works
    after.fill(1);
    CHECK(t7::sum(after) == 1000);
}

TEST_CASE("cuda: printing") {
    const DevT<float> g = host<float>({2, 3}, [](int64_t i) { return double(i + 1); }).cuda();
    std::ostringstream os;
    os << g;
    CHECK(os.str() == " 1  2  3\n 4  5  6\n[torch.CudaTensor of size 2x3]\n");
    std::ostringstream hs;
    hs << host<Half>({2}, [](int64_t i) { return 0.5 * double(i); }).cuda();
    CHECK(hs.str() == " 0.0000\n 0.5000\n[torch.CudaHalfTensor of size 2]\n");
    CHECK(t7::to_string(DevT<double>()) == "[torch.CudaDoubleTensor with no dimension]\n");
}

// ---- indexed, masked and sorting operations
// -----------------------------------------------------------
// References are plain loops over the row-major values; where the host build
// also has the CPU operations (test_thrust_host includes <t7/t7.hpp> and
// defines T7_CUDA_TESTS_CPU_OPS), every result is also compared with the CPU
// operation's on the same data, layout for layout.

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

TEST_CASE("cuda: masked operations, hand-checked") {
    const HostT<float> hx = host<float>({2, 3}, [](int64_t i) { return double(i + 1); });
    const HostT<uint8_t> hm = host<uint8_t>({2, 3}, [](int64_t i) { return i % 2 == 0; });
    const DevT<uint8_t> m = hm.cuda();
    DevT<float> x = hx.cuda();
    check_values(x.maskedSelect(m), {3}, {1, 3, 5});
    DevT<float> sel = x[m];
    check_values(sel, {3}, {1, 3, 5});
    DevT<float> y = hx.cuda();
    y.maskedFill(m, 0.5f);
    check_values(y, {2, 3}, {0.5, 2, 0.5, 4, 0.5, 6});
    y = hx.cuda();
    y.maskedCopy(m, host<float>({4}, [](int64_t i) { return 10.0 * double(i + 1); }).cuda());
    check_values(y, {2, 3}, {10, 2, 20, 4, 30, 6});
    // x[mask] = v, = t; a mask of another shape with the same count pairs up in layout order
    DevT<float> z = hx.cuda();
    z[m] = -1;
    check_values(z, {2, 3}, {-1, 2, -1, 4, -1, 6});
    z[host<uint8_t>({6}, [](int64_t i) { return i >= 4; }).cuda()] =
        host<float>({2}, [](int64_t i) { return double(7 + i); }).cuda();
    check_values(z, {2, 3}, {-1, 2, -1, 4, 7, 8});
    // transposed: layout order of the view
    check_values(x.t().maskedSelect(m.view({3, 2})), {3}, {1, 2, 3}); // x.t(): 1 4 2 5 3 6
    // nothing selected: an empty tensor
    CHECK(x.maskedSelect(DevT<uint8_t>(2, 3).zero()).dim() == 0);
    // into an existing tensor, resized, and into the source itself
    DevT<float> into(7);
    into.maskedSelect(x, m);
    check_values(into, {3}, {1, 3, 5});
    DevT<float> self = hx.cuda();
    self.maskedSelect(self, m);
    check_values(self, {3}, {1, 3, 5});
    // a comparison as the mask (evaluated by a fused kernel), and x[mask] op= v
    check_values(x.maskedSelect(x > 3.f), {3}, {4, 5, 6});
    DevT<float> e = hx.cuda();
    e[e > 3.f] = 0;
    check_values(e, {2, 3}, {1, 2, 3, 0, 0, 0});
    e[m] += 10;
    check_values(e, {2, 3}, {11, 2, 13, 0, 10, 0});
    e[e < 5.f] *= 2;
    check_values(e, {2, 3}, {11, 4, 13, 0, 10, 0});
    CHECK(t7::nonzero(e > 5.f).sizes() == Shape{3, 2});
    // a ByteTensor masked by itself
    DevT<uint8_t> b = hm.cuda();
    b.maskedFill(b, 7);
    check_values(b, {2, 3}, {7, 0, 7, 0, 7, 0});
}

TEST_CASE_TEMPLATE("cuda: masked operations equal the CPU's on every layout", T, uint8_t,
                   T7_UNSANITIZED(int8_t, int16_t) int32_t, int64_t, float, double, Half) {
    const int64_t r = 37, c = 29;
    auto f = [](int64_t i) { return double((i * 7) % 11) - 3.0; };
    for (const auto& mv : layouts<uint8_t>(r, c, [](int64_t i) { return (i * 5) % 3 == 0; })) {
        for (const auto& L : layouts<T>(r, c, f)) {
            CAPTURE(L.name);
            CAPTURE(mv.name);
            // reference: the selected values in layout order of x, mask paired in its own
            const std::vector<double> xv = values(L.g), mvals = values(mv.g);
            std::vector<double> want_sel, want_fill = xv, want_copy = xv;
            int64_t k = 0;
            for (size_t i = 0; i < xv.size(); ++i) {
                if (mvals[i] == 0) continue;
                want_sel.push_back(xv[i]);
                want_fill[i] = 5;
                want_copy[i] = t7::convert<double>(t7::convert<T>(double(k++ % 13)));
            }
            const DevT<T> s = L.g.maskedSelect(mv.g);
            CHECK(s.sizes() == Shape{int64_t(want_sel.size())});
            CHECK(values(s) == want_sel);
            DevT<T> xv_ = L.g; // fill through the view itself
            DevT<T> base = L.g.clone();
            base.maskedFill(mv.g, t7::convert<T>(5));
            CHECK(values(base) == want_fill);
            const DevT<T> src = host<T>({k + 3}, [](int64_t i) { return double(i % 13); }).cuda();
            DevT<T> xc = L.g.clone();
            xc.maskedCopy(mv.g, src);
            CHECK(values(xc) == want_copy);
            // writing through a strided view changes exactly the selected elements
            const DevT<T> keep = xv_.clone();
            xv_.maskedFill(mv.g, t7::convert<T>(5));
            CHECK(values(xv_) == want_fill);
            xv_.copy(keep);
#if defined(T7_CUDA_TESTS_CPU_OPS)
            check_same(s, L.h.maskedSelect(mv.h));
            HostT<T> hf = L.h.clone();
            hf.maskedFill(mv.h, t7::convert<T>(5));
            check_same(base, hf);
            HostT<T> hc = L.h.clone();
            hc.maskedCopy(mv.h, src.cpu());
            check_same(xc, hc);
#endif
        }
    }
}

TEST_CASE("cuda: masked operations at a million elements") {
    const int64_t n = 1 << 20;
    const HostT<float> hx = host<float>({n}, wave);
    const HostT<uint8_t> hm =
        host<uint8_t>({n}, [](int64_t i) { return (i * 2654435761u) % 7 < 3; });
    const DevT<float> s = hx.cuda().maskedSelect(hm.cuda());
    std::vector<double> want;
    for (int64_t i = 0; i < n; ++i)
        if (hm.data()[i]) want.push_back(double(hx.data()[i]));
    CHECK(values(s) == want);
}

TEST_CASE("cuda: masked operation errors leave the tensor unchanged") {
    const HostT<float> hx = host<float>({2, 3}, wave);
    DevT<float> x = hx.cuda();
    const std::vector<double> before = values(x);
    const DevT<uint8_t> m5 = DevT<uint8_t>(5).fill(1);
    std::string msg = error_of<t7::ShapeError>([&] { x.maskedFill(m5, 1.f); });
    CHECK(msg.find("maskedFill: the mask has 5 elements") != std::string::npos);
    CHECK_THROWS_AS(x.maskedSelect(m5), t7::ShapeError);
    const DevT<uint8_t> all = DevT<uint8_t>(2, 3).fill(1);
    msg = error_of<t7::ShapeError>([&] { x.maskedCopy(all, DevT<float>(4).fill(0)); });
    CHECK(msg == "maskedCopy: the mask selects 6 elements but the source has only 4 (size 4)");
    CHECK_THROWS_AS(x[all] = DevT<float>(5).fill(0), t7::ShapeError);
    // a CPU mask on a CUDA tensor
    const HostT<uint8_t> hm = host<uint8_t>({2, 3}, [](int64_t) { return 1; });
    msg = error_of<t7::DeviceError>([&] { x.maskedFill(hm, 1.f); });
    CHECK(msg.find("CPU") != std::string::npos);
    CHECK(msg.find("CUDA device 0") != std::string::npos);
    CHECK_THROWS_AS(x.maskedSelect(hm), t7::DeviceError);
    CHECK_THROWS_AS(x[hm] = 2, t7::DeviceError);
    if (two_devices()) {
        const DevT<uint8_t> m1 = hm.cuda(1);
        msg = error_of<t7::DeviceError>([&] { x.maskedFill(m1, 1.f); });
        CHECK(msg.find("CUDA device 0") != std::string::npos);
        CHECK(msg.find("CUDA device 1") != std::string::npos);
        CHECK_THROWS_AS(x.maskedCopy(all, DevT<float>(6).fill(0).cuda(1)), t7::DeviceError);
        // on device 1 alone, results stay there
        const DevT<float> s = hx.cuda(1).maskedSelect(m1);
        CHECK(s.getDevice() == 1);
        CHECK(values(s) == values(hx));
    }
    CHECK(values(x) == before);
}

TEST_CASE_TEMPLATE("cuda: nonzero", T, uint8_t, T7_UNSANITIZED(int16_t) int32_t, int64_t, float,
                   double, Half) {
    const HostT<T> h = host<T>({2, 2}, [](int64_t i) { return double(i == 1 || i == 2) * 3; });
    const DevT<int64_t> nz = h.cuda().nonzero();
    check_values(nz, {2, 2}, {0, 1, 1, 0});
    check_values(h.cuda().t().nonzero(), {2, 2}, {0, 1, 1, 0});
    CHECK(DevT<T>(3, 4).zero().nonzero().dim() == 0);
    CHECK(DevT<T>().nonzero().dim() == 0);
    auto f = [](int64_t i) { return double((i * 7) % 5 == 0); };
    for (const auto& L : layouts<T>(9, 13, f)) {
        CAPTURE(L.name);
        const std::vector<double> v = values(L.g);
        std::vector<double> want;
        for (int64_t i = 0; i < int64_t(v.size()); ++i)
            if (v[size_t(i)] != 0) {
                want.push_back(double(i / 13));
                want.push_back(double(i % 13));
            }
        check_values(L.g.nonzero(), {int64_t(want.size() / 2), 2}, want);
#if defined(T7_CUDA_TESTS_CPU_OPS)
        check_same(L.g.nonzero(), L.h.nonzero());
#endif
    }
}

TEST_CASE("cuda: nonzero of 3-D tensors, -0, NaN; and into a result") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const HostT<double> h = host<double>({2, 2, 3}, [&](int64_t i) {
        return i == 1 ? -0.0 : i == 4 ? nan : i == 11 ? 2.0 : 0.0;
    });
    check_values(h.cuda().nonzero(), {2, 3}, {0, 1, 1, 1, 1, 2});
    DevT<int64_t> r(5, 5);
    t7::nonzero(r, h.cuda());
    check_values(r, {2, 3}, {0, 1, 1, 1, 1, 2});
}

// ---- index family ----

TEST_CASE("cuda: index, indexCopy, indexAdd, indexFill, hand-checked") {
    // x = [[0 1 2] [3 4 5] [6 7 8] [9 10 11]]
    const HostT<float> hx = host<float>({4, 3}, [](int64_t i) { return double(i); });
    const DevT<float> x = hx.cuda();
    const DevT<int64_t> i20 = host<int64_t>({3}, [](int64_t i) {
                                  return i == 0 ? 2 : i == 1 ? 0 : 2;
                              }).cuda();
    check_values(x.index(0, i20), {3, 3}, {6, 7, 8, 0, 1, 2, 6, 7, 8});
    check_values(x.index(1, i20), {4, 3}, {2, 0, 2, 5, 3, 5, 8, 6, 8, 11, 9, 11});
    check_values(x.index(-1, i20), {4, 3}, {2, 0, 2, 5, 3, 5, 8, 6, 8, 11, 9, 11});
    check_values(x.t().index(0, i20), {3, 4}, {2, 5, 8, 11, 0, 3, 6, 9, 2, 5, 8, 11});
    // into a strided result of the right size
    DevT<float> big = DevT<float>(3, 5).fill(-1);
    DevT<float> view = big.narrow(1, 1, 3);
    view.index(x, 0, i20);
    check_values(big, {3, 5}, {-1, 6, 7, 8, -1, -1, 0, 1, 2, -1, -1, 6, 7, 8, -1});
    // indexCopy: duplicates, the last write wins; indexAdd accumulates
    const DevT<float> src = host<float>({3, 3}, [](int64_t i) { return double(100 + i); }).cuda();
    DevT<float> c = x.clone();
    c.indexCopy(0, i20, src);
    check_values(c, {4, 3}, {103, 104, 105, 3, 4, 5, 106, 107, 108, 9, 10, 11});
    DevT<float> a = x.clone();
    a.indexAdd(0, i20, src);
    check_values(a, {4, 3},
                 {103, 105, 107, 3, 4, 5, 6 + 100 + 106, 7 + 101 + 107, 8 + 102 + 108, 9, 10, 11});
    DevT<float> fl = x.clone();
    fl.indexFill(1, i20, -5.f);
    check_values(fl, {4, 3}, {-5, 1, -5, -5, 4, -5, -5, 7, -5, -5, 10, -5});
    // through a transposed destination
    DevT<float> ct = x.clone();
    ct.t().indexCopy(1, i20, src); // ct[i20[j]][i] = src[i][j]
    check_values(ct, {4, 3}, {101, 104, 107, 3, 4, 5, 102, 105, 108, 9, 10, 11});
}

TEST_CASE_TEMPLATE("cuda: index family equals the CPU's on every layout", T, uint8_t,
                   T7_UNSANITIZED(int8_t, int16_t) int32_t, int64_t, float, double, Half) {
    const int64_t r = 23, c = 17;
    auto f = [](int64_t i) { return double((i * 13) % 9) - 2.0; };
    const HostT<int64_t> hi = host<int64_t>({11}, [](int64_t i) { return (i * 5) % 7; });
    const DevT<int64_t> gi = hi.cuda();
    for (const auto& L : layouts<T>(r, c, f)) {
        CAPTURE(L.name);
        const std::vector<double> v = values(L.g);
        for (int64_t dim = 0; dim < 2; ++dim) {
            CAPTURE(dim);
            // index: reference by loops
            const DevT<T> y = L.g.index(dim, gi);
            const Shape ys = dim == 0 ? Shape{11, c} : Shape{r, 11};
            std::vector<double> want;
            for (int64_t i = 0; i < ys[0]; ++i)
                for (int64_t j = 0; j < ys[1]; ++j)
                    want.push_back(dim == 0 ? v[size_t(hi.data()[i] * c + j)]
                                            : v[size_t(i * c + hi.data()[j])]);
            check_values(y, ys, want);
            // indexAdd: duplicates accumulate, in index order
            const DevT<T> src = host<T>(ys, [](int64_t i) { return double(i % 5); }).cuda();
            const std::vector<double> sv = values(src);
            std::vector<double> wadd = v, wcopy = v, wfill = v;
            for (int64_t i = 0; i < ys[0]; ++i)
                for (int64_t j = 0; j < ys[1]; ++j) {
                    const size_t o = size_t(dim == 0 ? hi.data()[i] * c + j : i * c + hi.data()[j]);
                    wadd[o] = t7::convert<double>(t7::convert<T>(
                        t7::convert<double>(t7::convert<T>(wadd[o])) + sv[size_t(i * ys[1] + j)]));
                    wcopy[o] = sv[size_t(i * ys[1] + j)];
                    wfill[o] = 3;
                }
            DevT<T> a = L.g.clone(), cp = L.g.clone(), fl = L.g.clone();
            a.indexAdd(dim, gi, src);
            cp.indexCopy(dim, gi, src);
            fl.indexFill(dim, gi, t7::convert<T>(3));
            if constexpr (!std::is_same_v<T, Half>) CHECK(values(a) == wadd);
            CHECK(values(cp) == wcopy);
            CHECK(values(fl) == wfill);
            // writing through the strided view itself
            DevT<T> w = L.g;
            const DevT<T> keep = w.clone();
            w.indexCopy(dim, gi, src);
            CHECK(values(w) == wcopy);
            w.copy(keep);
#if defined(T7_CUDA_TESTS_CPU_OPS)
            check_same(y, L.h.index(dim, hi));
            HostT<T> ha = L.h.clone(), hc = L.h.clone(), hf = L.h.clone();
            ha.indexAdd(dim, hi, src.cpu());
            hc.indexCopy(dim, hi, src.cpu());
            hf.indexFill(dim, hi, t7::convert<T>(3));
            check_same(a, ha);
            check_same(cp, hc);
            check_same(fl, hf);
#endif
        }
    }
}

TEST_CASE("cuda: index family errors, before anything is written") {
    const HostT<float> hx = host<float>({4, 3}, [](int64_t i) { return double(i); });
    DevT<float> x = hx.cuda();
    const std::vector<double> before = values(x);
    const DevT<int64_t> bad = host<int64_t>({3}, [](int64_t i) { return i == 1 ? 7 : 0; }).cuda();
    const DevT<float> src = DevT<float>(3, 3).fill(1);
    std::string msg = error_of<t7::IndexError>([&] { x.index(0, bad); });
    CHECK(msg == "index: index 7 at position 1 out of range for dimension 0 of size 4");
    msg = error_of<t7::IndexError>([&] { x.indexCopy(0, bad, src); });
    CHECK(msg == "indexCopy: index 7 at position 1 out of range for dimension 0 of size 4");
    msg = error_of<t7::IndexError>([&] { x.indexAdd(0, bad, src); });
    CHECK(msg == "indexAdd: index 7 at position 1 out of range for dimension 0 of size 4");
    const DevT<int64_t> neg = host<int64_t>({2}, [](int64_t i) { return i == 1 ? -1 : 0; }).cuda();
    msg = error_of<t7::IndexError>([&] { x.indexFill(1, neg, 0.f); });
    CHECK(msg == "indexFill: index -1 at position 1 out of range for dimension 1 of size 3");
    CHECK_THROWS_AS(x.indexCopy(0, bad, DevT<float>(2, 3).fill(0)), t7::ShapeError);
    CHECK_THROWS_AS(x.index(0, DevT<int64_t>(2, 2).fill(0)), t7::ShapeError);
    CHECK_THROWS_AS(x.index(0, DevT<int32_t>(2).fill(0)), t7::TypeError);
    CHECK_THROWS_AS(x.index(2, bad), t7::IndexError);
    CHECK(values(x) == before);
    if (two_devices()) {
        const DevT<int64_t> i1 = DevT<int64_t>(2).fill(0).cuda(1);
        msg = error_of<t7::DeviceError>([&] { x.index(0, i1); });
        CHECK(msg.find("CUDA device 0") != std::string::npos);
        CHECK(msg.find("CUDA device 1") != std::string::npos);
        CHECK_THROWS_AS(x.indexFill(0, i1, 1.f), t7::DeviceError);
        CHECK_THROWS_AS(x.indexAdd(0, DevT<int64_t>(3).fill(0), src.cuda(1)), t7::DeviceError);
        CHECK(values(x) == before);
    }
}

// ---- gather / scatter ----

TEST_CASE("cuda: gather and scatter, hand-checked") {
    // x = [[1 2] [3 4]]
    const DevT<float> x = host<float>({2, 2}, [](int64_t i) { return double(i + 1); }).cuda();
    const DevT<int64_t> i =
        host<int64_t>({2, 2}, [](int64_t k) { return k == 1 || k == 2 ? 1 : 0; }).cuda();
    check_values(x.gather(0, i), {2, 2}, {1, 4, 3, 2});
    check_values(x.gather(1, i), {2, 2}, {1, 2, 4, 3});
    check_values(x.t().gather(1, i), {2, 2}, {1, 3, 4, 2});
    DevT<float> into(2, 2);
    into.gather(x, 1, i);
    check_values(into, {2, 2}, {1, 2, 4, 3});
    // scatter: x[idx[i][j]][j] = src[i][j] (dim 0)
    DevT<float> z = DevT<float>(2, 2).zero();
    z.scatter(0, i, x);
    check_values(z, {2, 2}, {1, 4, 3, 2});
    DevT<float> zv = DevT<float>(2, 3).zero();
    zv.scatter(1, host<int64_t>({2, 1}, [](int64_t k) { return 2 - k; }).cuda(), 9.f);
    check_values(zv, {2, 3}, {0, 0, 9, 0, 9, 0});
    // duplicates: the last write wins
    DevT<float> d = DevT<float>(1, 3).zero();
    d.scatter(1, host<int64_t>({1, 3}, [](int64_t) { return 1; }).cuda(),
              host<float>({1, 3}, [](int64_t k) { return double(k + 5); }).cuda());
    check_values(d, {1, 3}, {0, 7, 0});
}

TEST_CASE_TEMPLATE("cuda: gather and scatter equal the CPU's on every layout", T, uint8_t,
                   T7_UNSANITIZED(int16_t) int32_t, int64_t, float, double, Half) {
    const int64_t r = 19, c = 13;
    auto f = [](int64_t i) { return double((i * 11) % 7); };
    for (const auto& L : layouts<T>(r, c, f)) {
        CAPTURE(L.name);
        const std::vector<double> v = values(L.g);
        for (int64_t dim = 0; dim < 2; ++dim) {
            CAPTURE(dim);
            const int64_t n = dim == 0 ? r : c;
            const Shape is = dim == 0 ? Shape{7, c} : Shape{r, 5};
            const HostT<int64_t> hi = host<int64_t>(is, [&](int64_t k) { return (k * 7 + 3) % n; });
            // also a transposed index
            const HostT<int64_t> hit =
                host<int64_t>({is[1], is[0]}, [&](int64_t k) { return (k * 5 + 1) % n; }).t();
            for (const HostT<int64_t>& idx : {hi, hit}) {
                const DevT<int64_t> gi = idx.cuda();
                const std::vector<double> iv = values(idx);
                const DevT<T> y = L.g.gather(dim, gi);
                std::vector<double> want;
                for (int64_t a = 0; a < is[0]; ++a)
                    for (int64_t b = 0; b < is[1]; ++b) {
                        const int64_t k = int64_t(iv[size_t(a * is[1] + b)]);
                        want.push_back(dim == 0 ? v[size_t(k * c + b)] : v[size_t(a * c + k)]);
                    }
                check_values(y, is, want);
                // scatter of y back (the last write wins) and of a value
                const DevT<T> src = host<T>(is, [](int64_t k) { return double(k % 9 + 1); }).cuda();
                const std::vector<double> sv = values(src);
                std::vector<double> ws = v, wv = v;
                for (int64_t a = 0; a < is[0]; ++a)
                    for (int64_t b = 0; b < is[1]; ++b) {
                        const int64_t k = int64_t(iv[size_t(a * is[1] + b)]);
                        const size_t o = size_t(dim == 0 ? k * c + b : a * c + k);
                        ws[o] = sv[size_t(a * is[1] + b)];
                        wv[o] = 4;
                    }
                DevT<T> s = L.g.clone(), sval = L.g;
                const DevT<T> keep = sval.clone();
                s.scatter(dim, gi, src);
                sval.scatter(dim, gi, t7::convert<T>(4)); // through the view itself
                CHECK(values(s) == ws);
                CHECK(values(sval) == wv);
                sval.copy(keep);
#if defined(T7_CUDA_TESTS_CPU_OPS)
                check_same(y, L.h.gather(dim, idx));
                HostT<T> hs = L.h.clone();
                hs.scatter(dim, idx, src.cpu());
                check_same(s, hs);
#endif
            }
        }
    }
}

TEST_CASE("cuda: gather and scatter errors, before anything is written") {
    DevT<float> x = host<float>({2, 3}, wave).cuda();
    const std::vector<double> before = values(x);
    const DevT<int64_t> bad =
        host<int64_t>({2, 3}, [](int64_t k) { return k == 4 ? 5 : 0; }).cuda();
    std::string msg = error_of<t7::IndexError>([&] { x.gather(1, bad); });
    CHECK(msg == "gather: index 5 at position (1, 1) out of range for dimension 1 of size 3");
    msg = error_of<t7::IndexError>([&] { x.scatter(1, bad, 1.f); });
    CHECK(msg == "scatter: index 5 at position (1, 1) out of range for dimension 1 of size 3");
    msg = error_of<t7::IndexError>([&] { x.scatter(1, bad, x.clone()); });
    CHECK(msg == "scatter: index 5 at position (1, 1) out of range for dimension 1 of size 3");
    DevT<float> res = DevT<float>(2, 3).fill(8);
    CHECK_THROWS_AS(res.gather(x, 1, bad), t7::IndexError);
    CHECK(values(res) == std::vector<double>(6, 8.0));
    CHECK_THROWS_AS(x.gather(0, DevT<int64_t>(2).fill(0)), t7::ShapeError);
    CHECK_THROWS_AS(x.scatter(0, DevT<int64_t>(1, 3).fill(0), DevT<float>(2, 3)), t7::ShapeError);
    CHECK(values(x) == before);
    if (two_devices()) {
        const DevT<int64_t> i1 = DevT<int64_t>(2, 3).fill(0).cuda(1);
        msg = error_of<t7::DeviceError>([&] { x.gather(1, i1); });
        CHECK(msg.find("CUDA device 1") != std::string::npos);
        CHECK_THROWS_AS(x.scatter(1, i1, 1.f), t7::DeviceError);
        CHECK_THROWS_AS(x.scatter(1, DevT<int64_t>(2, 3).fill(0), x.cuda(1)), t7::DeviceError);
        CHECK(values(x) == before);
    }
}

// ---- sort / topk ----

// The stable sort of every row (dim 1) or column (dim 0) of the row-major r x c
// values v, by plain loops: {values, positions}.
inline std::pair<std::vector<double>, std::vector<double>>
sorted_lines(const std::vector<double>& v, int64_t r, int64_t c, int64_t dim, bool desc,
             int64_t k) {
    const int64_t lines = dim == 0 ? c : r, n = dim == 0 ? r : c;
    const int64_t orows = dim == 0 ? k : r, ocols = dim == 0 ? c : k;
    std::vector<double> vals(size_t(orows * ocols)), pos(size_t(orows * ocols));
    auto key = [](double x) { return std::isnan(x) ? std::numeric_limits<double>::infinity() : x; };
    for (int64_t l = 0; l < lines; ++l) {
        std::vector<int64_t> p(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j) p[size_t(j)] = j;
        auto at_ = [&](int64_t j) { return v[size_t(dim == 0 ? j * c + l : l * c + j)]; };
        std::stable_sort(p.begin(), p.end(), [&](int64_t a, int64_t b) {
            const double x = at_(a), y = at_(b);
            // NaN above +inf
            if (std::isnan(x) || std::isnan(y))
                return desc ? (std::isnan(x) && !std::isnan(y)) : (!std::isnan(x) && std::isnan(y));
            return desc ? key(x) > key(y) : key(x) < key(y);
        });
        for (int64_t j = 0; j < k; ++j) {
            const size_t o = size_t(dim == 0 ? j * ocols + l : l * ocols + j);
            vals[o] = at_(p[size_t(j)]);
            pos[o] = double(p[size_t(j)]);
        }
    }
    return {vals, pos};
}

TEST_CASE("cuda: sort and topk, hand-checked") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // ties keep position order; NaN sorts above everything; -0 equals +0
    const DevT<double> x = host<double>({7}, [&](int64_t i) {
                               const double v[] = {3, 1, nan, 1, -0.0, 0.0, -2};
                               return v[i];
                           }).cuda();
    auto [v, i] = x.sort();
    const std::vector<double> vv = values(v);
    CHECK(vv[0] == -2);
    CHECK(vv[3] == 1);
    CHECK(std::isnan(vv[6]));
    check_values(i, {7}, {6, 4, 5, 1, 3, 0, 2});
    auto [dv, di] = x.sort(0, true);
    check_values(di, {7}, {2, 0, 1, 3, 4, 5, 6});
    CHECK(std::isnan(values(dv)[0]));
    const DevT<float> m = host<float>({2, 4}, [](int64_t k) {
                              const double v[] = {5, 1, 4, 1, 0, 9, 9, 2};
                              return v[k];
                          }).cuda();
    auto [tv, ti] = m.topk(2);
    check_values(tv, {2, 2}, {5, 4, 9, 9});
    check_values(ti, {2, 2}, {0, 2, 1, 2});
    auto [sv, si] = m.topk(1, 0, false);
    check_values(sv, {1, 4}, {0, 1, 4, 1});
    check_values(si, {1, 4}, {1, 0, 0, 0});
    auto [cv, ci] = m.sort(0);
    check_values(cv, {2, 4}, {0, 1, 4, 1, 5, 9, 9, 2});
    check_values(ci, {2, 4}, {1, 0, 0, 0, 0, 1, 1, 1});
    std::string msg = error_of<t7::IndexError>([&] { m.topk(5); });
    CHECK(msg.find("topk: k 5 out of range for dimension 1 of size 4") != std::string::npos);
    CHECK_THROWS_AS(m.topk(0), t7::IndexError);
    CHECK_THROWS_AS(m.sort(2), t7::IndexError);
    CHECK(DevT<float>().sort().values.dim() == 0);
    // the free functions, into existing results
    t7::ValuesIndices<float, t7::CUDA> out{DevT<float>(2, 4), DevT<int64_t>(2, 4)};
    t7::sort(out, m, 0);
    check_values(out.values, {2, 4}, {0, 1, 4, 1, 5, 9, 9, 2});
    t7::topk(out, m, 2);
    check_values(out.indices, {2, 2}, {0, 2, 1, 2});
#if defined(T7_CUDA_TESTS_CPU_OPS)
    check_values(t7::sort(m, 0).indices, {2, 4}, {1, 0, 0, 0, 0, 1, 1, 1});
    check_values(t7::topk(m, 1, 0, false).values, {1, 4}, {0, 1, 4, 1});
#endif
}

TEST_CASE_TEMPLATE("cuda: sort and topk equal the CPU's on every layout", T, uint8_t,
                   T7_UNSANITIZED(int8_t, int16_t) int32_t, int64_t, float, double, Half) {
    const int64_t r = 21, c = 33;
    auto f = [](int64_t i) { return double((i * 17) % 23) - 8.0; }; // many ties
    for (const auto& L : layouts<T>(r, c, f)) {
        CAPTURE(L.name);
        const std::vector<double> v = values(L.g);
        for (int64_t dim = 0; dim < 2; ++dim) {
            for (bool desc : {false, true}) {
                CAPTURE(dim);
                CAPTURE(desc);
                const int64_t n = dim == 0 ? r : c;
                auto [sv, si] = L.g.sort(dim, desc);
                const auto want = sorted_lines(v, r, c, dim, desc, n);
                CHECK(values(sv) == want.first);
                CHECK(values(si) == want.second);
                const int64_t k = 5;
                auto [tv, ti] = L.g.topk(k, dim, desc);
                const auto wk = sorted_lines(v, r, c, dim, desc, k);
                CHECK(values(tv) == wk.first);
                CHECK(values(ti) == wk.second);
#if defined(T7_CUDA_TESTS_CPU_OPS)
                auto [hv, hi] = L.h.sort(dim, desc);
                check_same(sv, hv);
                check_same(si, hi);
                auto [hkv, hki] = L.h.topk(k, dim, desc);
                check_same(tv, hkv);
                check_same(ti, hki);
#endif
            }
        }
    }
}

TEST_CASE("cuda: sort of many lines and a long line") {
    const HostT<float> h = host<float>({300, 257}, wave);
    auto [v, i] = h.cuda().sort(1);
    const auto want = sorted_lines(values(h), 300, 257, 1, false, 257);
    CHECK(values(v) == want.first);
    CHECK(values(i) == want.second);
    const HostT<float> l = host<float>({100000}, wave);
    auto [lv, li] = l.cuda().sort(0, true);
    const auto wl = sorted_lines(values(l), 1, 100000, 1, true, 100000);
    CHECK(values(lv) == wl.first);
    CHECK(values(li) == wl.second);
}

TEST_CASE("cuda: sort on a second device, and device errors") {
    if (!two_devices()) return;
    const DevT<float> g1 = host<float>({3, 4}, wave).cuda(1);
    auto [v, i] = g1.sort(1);
    CHECK(v.getDevice() == 1);
    CHECK(i.getDevice() == 1);
    CHECK(values(v) == sorted_lines(values(g1), 3, 4, 1, false, 4).first);
    CHECK(values(g1.nonzero()).size() > 0);
    CHECK(g1.nonzero().getDevice() == 1);
    CHECK(g1.index(0, DevT<int64_t>(1).fill(2).cuda(1)).getDevice() == 1);
}

// ---- several outputs in one pass (t7::assign) ----------------------------------------------

TEST_CASE("cuda: assign, an Adam step in one pass equals the updates by hand") {
    const float b1 = 0.9f, b2 = 0.999f, lr = 1e-3f, eps = 1e-8f;
    for (int64_t n : {int64_t(1000), int64_t(100003)}) {
        CAPTURE(n);
        const HostT<float> hp = host<float>({n}, wave),
                           hm = host<float>({n}, [](int64_t i) { return wave(i + 1) / 10; }),
                           hv = host<float>({n}, [](int64_t i) { return std::fabs(wave(i + 2)); }),
                           hg = host<float>({n}, [](int64_t i) { return wave(i + 3) * 2; });
        DevT<float> p = hp.cuda(), m = hm.cuda(), v = hv.cuda(), g = hg.cuda();
        t7::assign(t7::out(m) = b1 * m + (1 - b1) * g, t7::out(v) = b2 * v + (1 - b2) * g * g,
                   t7::out(p) = p - lr * (b1 * m + (1 - b1) * g) /
                                        (t7::sqrt(b2 * v + (1 - b2) * g * g) + eps));
        std::vector<float> P, M, V;
        for (int64_t i = 0; i < n; ++i) {
            const float gi = at(hg, i);
            M.push_back(b1 * at(hm, i) + (1 - b1) * gi);
            V.push_back(b2 * at(hv, i) + (1 - b2) * gi * gi);
            P.push_back(at(hp, i) - lr * M.back() / (std::sqrt(V.back()) + eps));
        }
        check_close(
            m, [&](int64_t i) { return M[size_t(i)]; }, 1e-6);
        check_close(
            v, [&](int64_t i) { return V[size_t(i)]; }, 1e-6);
        check_close(
            p, [&](int64_t i) { return P[size_t(i)]; }, 1e-6);
    }
}

TEST_CASE("cuda: assign reads old values, transposed overlap, broadcasting, types") {
    // p's right side reads m, written by the first pair: it gets the old m.
    DevT<double> m = host<double>({2, 3}, [](int64_t i) { return i + 1; }).cuda(),
                 p = host<double>({2, 3}, [](int64_t i) { return i + 10; }).cuda(),
                 g = host<double>({2, 3}, [](int64_t i) { return i + 100; }).cuda();
    t7::assign(t7::out(m) = m * 2 + g, t7::out(p) = p - m);
    check_exact(m, [](int64_t i) { return 2 * (i + 1) + i + 100; });
    check_exact(p, [](int64_t) { return 9; });
    // x.t() overlapping its output: a temporary; y reads the old x.
    for (int64_t n : {3, 70}) {
        const HostT<double> hx = host<double>({n, n}, [](int64_t i) { return i; });
        DevT<double> x = hx.cuda(), y = host<double>({n, n}, [](int64_t) { return 0; }).cuda();
        t7::assign(t7::out(x) = x.t() + 1, t7::out(y) = x * 2);
        check_exact(x, [&](int64_t i) { return double((i % n) * n + i / n + 1); });
        check_exact(y, [&](int64_t i) { return double(2 * i); });
    }
    // A row and a scalar-shaped tensor broadcast; a float and a uint8 output.
    DevT<float> a = host<float>({2, 3}, [](int64_t i) { return i - 2.0; }).cuda(), f(2, 3);
    DevT<float> row = host<float>({3}, [](int64_t i) { return i + 1; }).cuda();
    DevT<float> s = host<float>({1}, [](int64_t) { return 100; }).cuda();
    DevT<uint8_t> mask(2, 3);
    t7::assign(t7::out(f) = a * row + s, t7::out(mask) = a > 0.f);
    check_exact(f, [](int64_t i) { return (i - 2.0) * double(i % 3 + 1) + 100; });
    check_exact(mask, [](int64_t i) { return i > 2 ? 1 : 0; });
    // Non-contiguous outputs: a transposed one and a narrowed one (the strided path).
    DevT<double> big = host<double>({4, 6}, [](int64_t) { return 0; }).cuda();
    DevT<double> sq = host<double>({4, 4}, [](int64_t) { return 0; }).cuda();
    const DevT<double> src = host<double>({4, 4}, [](int64_t i) { return i; }).cuda();
    t7::assign(t7::out(sq.t()) = src, t7::out(big.narrow(1, 1, 4)) = src * 10);
    check_exact(sq, [](int64_t i) { return double((i % 4) * 4 + i / 4); });
    check_exact(big, [](int64_t i) {
        const int64_t r = i / 6, c = i % 6;
        return c >= 1 && c <= 4 ? double(10 * (r * 4 + c - 1)) : 0.0;
    });
    // An empty output is resized.
    DevT<float> e;
    t7::assign(t7::out(e) = a * 2, t7::out(a) = a + 1);
    CHECK(e.sizes() == Shape{2, 3});
    check_exact(e, [](int64_t i) { return (i - 2.0) * 2; });
    check_exact(a, [](int64_t i) { return i - 1.0; });
}

TEST_CASE("cuda: assign errors, before anything is written") {
    DevT<float> a = host<float>({2, 3}, wave).cuda(), b = host<float>({2, 3}, wave).cuda(),
                c = host<float>({4}, wave).cuda();
    const std::vector<double> a0 = values(a), b0 = values(b), c0 = values(c);
    CHECK_THROWS_AS(t7::assign(t7::out(a) = a + 1, t7::out(c) = 5), t7::ShapeError);
    CHECK_THROWS_AS(t7::assign(t7::out(a) = a + 1, t7::out(b) = b + c), t7::ShapeError);
    CHECK_THROWS_AS(t7::assign(t7::out(a) = b, t7::out(a) = a), t7::Error);
    DevT<float> e = host<float>({3}, wave).cuda().view({1, 3}).expand({2, 3});
    CHECK_THROWS_AS(t7::assign(t7::out(a) = a + 1, t7::out(e) = b), t7::ShapeError);
    DevT<int> i = host<int>({3}, [](int64_t k) { return k + 1; }).cuda(),
              j = host<int>({3}, [](int64_t k) { return k; }).cuda();
    CHECK_THROWS_AS(t7::assign(t7::out(i) = i + 1, t7::out(j) = i / j), t7::Error);
    CHECK(values(i) == std::vector<double>{1, 2, 3});
    // A CPU output beside a CUDA one.
    HostT<float> h = host<float>({2, 3}, wave);
    CHECK_THROWS_AS(t7::assign(t7::out(a) = a + 1, t7::out(h) = h * 2), t7::DeviceError);
    CHECK(values(h) == values(host<float>({2, 3}, wave)));
    CHECK(values(a) == a0);
    CHECK(values(b) == b0);
    CHECK(values(c) == c0);
    if (two_devices()) {
        DevT<float> a1 = a.cpu().cuda(1);
        CHECK_THROWS_AS(t7::assign(t7::out(a) = a + 1, t7::out(a1) = a1 * 2), t7::DeviceError);
        CHECK_THROWS_AS(t7::assign(t7::out(a) = a1 + 1, t7::out(b) = b * 2), t7::DeviceError);
        CHECK(values(a) == a0);
        CHECK(values(a1) == a0);
        // Every operand on device 1: runs there.
        DevT<float> b1 = b.cpu().cuda(1);
        t7::assign(t7::out(a1) = a1 + b1, t7::out(b1) = a1);
        CHECK(a1.getDevice() == 1);
        check_close(a1, [&](int64_t k) { return a0[size_t(k)] + b0[size_t(k)]; });
        check_close(b1, [&](int64_t k) { return a0[size_t(k)]; });
    }
}

} // namespace cuda_tests

#include "cuda_tests_maths.hpp"
