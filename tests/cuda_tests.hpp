// The CUDA backend's tests, first part: devices and transfers, fused expressions,
// reductions, matrix products, random fills, errors and printing (helpers and how
// the bodies are compiled: cuda_test_util.hpp).
#pragma once

#include "cuda_test_util.hpp"

namespace cuda_tests {

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

// pow with a constant exponent and square (op::pow_scalar's forms, the same
// functor on the device), and the functions of the third round.
TEST_CASE("cuda: pow with constant exponents, square, exp2 expm1 log2 log10 cbrt erf erfc") {
    const HostT<double> X = host<double>({4, 8}, [](int64_t i) { return 0.25 + 0.37 * i; });
    const DevT<double> x = X.cuda();
    for (double e : {0.0, 1.0, 2.0, 3.0, 4.0, 0.5, -0.5, 1.5, -1.0, -1.5, -2.0, -3.0, -4.0, 2.7}) {
        CAPTURE(e);
        check_close(
            t7::eval(t7::pow(x, e)), [&](int64_t i) { return std::pow(at(X, i), e); }, 1e-14);
        check_close(
            t7::eval(t7::pow(x.t(), e)), // the strided path
            [&](int64_t i) { return std::pow(at(X, (i % 4) * 8 + i / 4), e); }, 1e-14);
    }
    check_exact(t7::eval(t7::pow(x, 2)), [&](int64_t i) { return at(X, i) * at(X, i); });
    check_exact(t7::eval(t7::square(x) + 1), [&](int64_t i) { return at(X, i) * at(X, i) + 1; });
    const DevT<int32_t> n = host<int32_t>({5}, [](int64_t i) { return int32_t(i * 30000); }).cuda();
    check_exact(t7::eval(t7::square(n)), [](int64_t i) { // wraps as int32 multiplication does
        return double(int32_t(uint32_t(i * 30000) * uint32_t(i * 30000)));
    });
    const double inf = std::numeric_limits<double>::infinity();
    const HostT<double> S = host<double>({4}, [&](int64_t i) {
        const double v[4] = {0.0, -0.0, -inf, inf};
        return v[i];
    });
    const DevT<double> s = S.cuda();
    check_exact(t7::eval(t7::pow(s, 0.5)), [&](int64_t i) { return std::pow(at(S, i), 0.5); });
    check_exact(t7::eval(t7::pow(s, -1.5)), [&](int64_t i) { return std::pow(at(S, i), -1.5); });
    check_close(
        t7::eval(t7::exp2(x)), [&](int64_t i) { return std::exp2(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::expm1(x)), [&](int64_t i) { return std::expm1(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::log2(x)), [&](int64_t i) { return std::log2(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::log10(x)), [&](int64_t i) { return std::log10(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::cbrt(x)), [&](int64_t i) { return std::cbrt(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::erf(x)), [&](int64_t i) { return std::erf(at(X, i)); }, 1e-14);
    check_close(
        t7::eval(t7::erfc(x)), [&](int64_t i) { return std::erfc(at(X, i)); }, 1e-13);
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

} // namespace cuda_tests
