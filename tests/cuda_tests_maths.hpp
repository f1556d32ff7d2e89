// The second-round maths on CUDA tensors (views, factories, triangles, bitwise
// operators, cat, the random laws, order statistics, histc, randperm,
// multinomial), each compared with the CPU function on the same input (the third
// part of the CUDA backend's tests: cuda_test_util.hpp).
// Where the CPU function needs the CPU evaluator (kthvalue, median, mode, histc,
// repeatTensor, multinomial's CPU reference), the comparison runs in the host
// build only (T7_CUDA_TESTS_CPU_OPS).
#pragma once

#include "cuda_test_util.hpp"

namespace cuda_tests {

// ---- views ------------------------------------------------------------------------------

// A view of a device tensor: the host view's sizes, strides, offset and values, and
// the device tensor's storage.
template <class T>
void check_view(const DevT<T>& gv, const HostT<T>& hv, const DevT<T>& base) {
    CHECK(gv.sizes() == hv.sizes());
    CHECK(gv.strides() == hv.strides());
    CHECK(gv.storageOffset() == hv.storageOffset());
    CHECK(gv.storage().data() == base.storage().data());
    CHECK(values(gv) == values(hv));
}

TEST_CASE("cuda: every view equals the CPU's and shares the storage") {
    const HostT<float> h = host<float>({4, 6}, wave);
    const DevT<float> g = h.cuda();
    check_view(g.select(0, 2), h.select(0, 2), g);
    check_view(g.select(1, 5), h.select(1, 5), g);
    check_view(g[1], h[1], g);
    check_view(g.narrow(1, 2, 3), h.narrow(1, 2, 3), g);
    check_view(g.sub(1, 2, 0, 3), h.sub(1, 2, 0, 3), g);
    check_view(g.unfold(1, 3, 2), h.unfold(1, 3, 2), g);
    check_view(g.t(), h.t(), g);
    check_view(g.transpose(0, 1).narrow(0, 1, 2), h.transpose(0, 1).narrow(0, 1, 2), g);
    check_view(g.narrow(1, 3, 1).expand(4, 5), h.narrow(1, 3, 1).expand(4, 5), g);
    check_view(g.view(4, 1, 6).squeeze(), h.view(4, 1, 6).squeeze(), g);
    check_view(g.view(4, 1, 6).squeeze(1), h.view(4, 1, 6).squeeze(1), g);
    check_view(g.unsqueeze(0), h.unsqueeze(0), g);
    const auto gs = g.split(4, 1);
    const auto hs = h.split(4, 1);
    REQUIRE(gs.size() == 2);
    REQUIRE(hs.size() == 2);
    for (size_t k = 0; k < gs.size(); ++k) check_view(gs[k], hs[k], g);
    const auto gc = g.chunk(3, 0);
    const auto hc = h.chunk(3, 0);
    REQUIRE(gc.size() == hc.size());
    for (size_t k = 0; k < gc.size(); ++k) check_view(gc[k], hc[k], g);
    // errors are the CPU's
    CHECK_THROWS_AS(g.select(0, 4), t7::IndexError);
    CHECK_THROWS_AS(g.narrow(1, 4, 3), t7::IndexError);
    CHECK_THROWS_AS(g.unfold(1, 7, 1), t7::IndexError);
    CHECK_THROWS_AS(g.expand(4, 5), t7::ShapeError);
    CHECK(error_of<t7::IndexError>([&] { g.narrow(1, 4, 3); }) ==
          error_of<t7::IndexError>([&] { h.narrow(1, 4, 3); }));
}

TEST_CASE("cuda: writing through a view changes the original") {
    DevT<float> g = host<float>({4, 6}, [](int64_t) { return 0.0; }).cuda();
    g.select(0, 1).fill(1);                              // row 1
    g.narrow(1, 4, 2).t().fill(2);                       // columns 4, 5
    g.sub(3, 3, 0, 1).fill(3);                           // (3, 0) and (3, 1)
    g.split(2, 1)[1].select(0, 0).fill(4);               // (0, 2), (0, 3)
    g.unfold(1, 2, 2).select(2, 0).select(0, 2).fill(5); // (2, 0), (2, 2)
    check_exact(g, [](int64_t i) {
        const int64_t r = i / 6, c = i % 6;
        if (r == 2 && c % 2 == 0) return 5.0;
        if (c >= 4) return 2.0;
        if (r == 1) return 1.0;
        if (r == 3 && c < 2) return 3.0;
        if (r == 0 && (c == 2 || c == 3)) return 4.0;
        return 0.0;
    });
    // resize keeps the storage when it shrinks, and the leading elements
    const HostT<float> h = host<float>({4, 6}, wave);
    DevT<float> r = h.cuda();
    const float* before = r.data();
    r.resize(3, 4);
    CHECK(r.sizes() == Shape{3, 4});
    CHECK(r.data() == before);
    check_exact(r, [&](int64_t i) { return double(at(h, i)); });
}

#if defined(T7_CUDA_TESTS_CPU_OPS)
TEST_CASE("cuda: repeatTensor equals the CPU's") {
    const HostT<int32_t> h = host<int32_t>({2, 3}, [](int64_t i) { return i * 3 - 4; });
    const DevT<int32_t> g = h.cuda();
    check_same(g.repeatTensor(2, 1, 2), h.repeatTensor(2, 1, 2));
    check_same(g.t().repeatTensor(3, 1), h.t().repeatTensor(3, 1));
    CHECK_THROWS_AS(g.repeatTensor(2), t7::ShapeError);
}
#endif

// ---- factories and triangles ----------------------------------------------------------------

TEST_CASE("cuda: range, linspace and logspace equal the CPU's") {
    check_same(t7::range<double, t7::CUDA>(1, 10, 2), t7::range<double>(1, 10, 2));
    check_same(t7::range<float, t7::CUDA>(2, -1.5, -0.5), t7::range<float>(2, -1.5, -0.5));
    check_same(t7::range<int64_t, t7::CUDA>(0, 5), t7::range<int64_t>(0, 5));
    check_values(t7::range<int32_t, t7::CUDA>(3, 6), {4}, {3, 4, 5, 6});
    check_same(t7::linspace<double, t7::CUDA>(-1, 2, 7), t7::linspace<double>(-1, 2, 7));
    check_same(t7::linspace<float, t7::CUDA>(0, 1, 1), t7::linspace<float>(0, 1, 1));
    check_same(t7::logspace<double, t7::CUDA>(0, 3, 4), t7::logspace<double>(0, 3, 4));
    check_values(t7::logspace<float, t7::CUDA>(0, 2, 3), {3}, {1, 10, 100});
    CHECK(t7::range<float, t7::CUDA>(0, 3).getDevice() == 0);
    CHECK(error_of<t7::Error>([] { t7::range<float, t7::CUDA>(0, 1, 0); }) ==
          error_of<t7::Error>([] { t7::range<float>(0, 1, 0); }));
    CHECK_THROWS_AS((t7::range<float, t7::CUDA>(0, 1, -1)), t7::Error);
    CHECK_THROWS_AS((t7::linspace<float, t7::CUDA>(0, 1, 0)), t7::ShapeError);
    CHECK_THROWS_AS((t7::logspace<float, t7::CUDA>(0, 1, -2)), t7::ShapeError);
}

TEST_CASE("cuda: tril and triu") {
    const HostT<float> h = host<float>({4, 5}, [](int64_t i) { return double(i + 1); });
    const DevT<float> g = h.cuda();
    for (int64_t k : {-2, -1, 0, 1, 3}) {
        CAPTURE(k);
        check_exact(t7::tril(g, k), [&](int64_t i) { return i % 5 - i / 5 <= k ? i + 1.0 : 0.0; });
        check_exact(t7::triu(g, k), [&](int64_t i) { return i % 5 - i / 5 >= k ? i + 1.0 : 0.0; });
    }
    check_exact(t7::tril(g.t()), [&](int64_t i) { // 5 x 4: element (r, c) = h(c, r)
        const int64_t r = i / 4, c = i % 4;
        return c <= r ? double(c * 5 + r + 1) : 0.0;
    });
    CHECK_THROWS_AS(t7::tril(g.select(0, 0)), t7::ShapeError);
    CHECK_THROWS_AS(t7::triu(DevT<float>(2, 2, 2)), t7::ShapeError);
}

// ---- bitwise operators --------------------------------------------------------------------

TEST_CASE_TEMPLATE("cuda: bitwise operators and shifts equal the host loops", T, uint8_t,
                   T7_UNSANITIZED(int16_t) int32_t, int64_t) {
    const HostT<T> A = host<T>({3, 4}, [](int64_t i) { return double(i * 29 % 97) - 20; });
    const HostT<T> B = host<T>({3, 4}, [](int64_t i) { return double(i * 13 % 41) + 1; });
    const HostT<T> S = host<T>({3, 4}, [](int64_t i) { return double(i % 7); });
    const DevT<T> a = A.cuda(), b = B.cuda(), s = S.cuda();
    check_exact(t7::eval(a & b), [&](int64_t i) { return double(T(at(A, i) & at(B, i))); });
    check_exact(t7::eval(a | b), [&](int64_t i) { return double(T(at(A, i) | at(B, i))); });
    check_exact(t7::eval(a ^ b), [&](int64_t i) { return double(T(at(A, i) ^ at(B, i))); });
    check_exact(t7::eval(~a), [&](int64_t i) { return double(T(~at(A, i))); });
    check_exact(t7::eval(a & 6), [&](int64_t i) { return double(T(at(A, i) & 6)); });
    using U = std::make_unsigned_t<T>;
    check_exact(t7::eval(a << 3), [&](int64_t i) { return double(T(U(U(at(A, i)) << 3))); });
    check_exact(t7::eval(a >> 2), [&](int64_t i) { return double(T(at(A, i) >> 2)); });
    check_exact(t7::eval(a << s), [&](int64_t i) { return double(T(U(U(at(A, i)) << at(S, i)))); });
    check_exact(t7::eval(a.t() >> s.t()), [&](int64_t i) {
        const int64_t r = i / 3, c = i % 3; // (r, c) of the 4 x 3 transposes
        return double(T(at(A, c * 4 + r) >> at(S, c * 4 + r)));
    });
    DevT<T> x = a.clone(); // (x.copy(a) below: values, never a handle on a)
    x.cbitand(b);
    check_exact(x, [&](int64_t i) { return double(T(at(A, i) & at(B, i))); });
    x.copy(a);
    x.cbitor(b);
    check_exact(x, [&](int64_t i) { return double(T(at(A, i) | at(B, i))); });
    x.copy(a);
    x.cbitxor(b);
    check_exact(x, [&](int64_t i) { return double(T(at(A, i) ^ at(B, i))); });
    x.copy(a);
    x.lshift(2);
    check_exact(x, [&](int64_t i) { return double(T(U(U(at(A, i)) << 2))); });
    x.copy(a);
    x.rshift(1);
    check_exact(x, [&](int64_t i) { return double(T(at(A, i) >> 1)); });
    // a negative shift amount throws before anything is written
    if constexpr (std::is_signed_v<T>) {
        x.copy(a);
        CHECK_THROWS_AS(x.lshift(-1), t7::Error);
        DevT<T> neg = s.clone();
        neg.select(0, 2).fill(T(-3));
        CHECK_THROWS_AS(x = a << neg, t7::Error);
        CHECK(values(x) == values(A));
    }
}

// ---- cat ------------------------------------------------------------------------------------

TEST_CASE("cuda: cat equals the CPU's over layouts") {
    const HostT<float> a = host<float>({2, 3}, wave);
    const HostT<float> b = host<float>({3, 4}, [](int64_t i) { return wave(i + 5); });
    const HostT<float> c = host<float>({2, 1}, [](int64_t i) { return 10.0 + i; });
    const DevT<float> ga = a.cuda(), gb = b.cuda(), gc = c.cuda();
    // along dim 1: a (2x3), b's transpose narrowed (2x3 of a 4x3), c expanded (2x2)
    const DevT<float> r = t7::cat({ga, gb.t().narrow(0, 1, 2), gc.expand(2, 2)}, 1);
    check_values(r, {2, 8}, [&] {
        std::vector<double> w;
        for (int64_t i = 0; i < 2; ++i) {
            for (int64_t j = 0; j < 3; ++j) w.push_back(double(at(a, i * 3 + j)));
            for (int64_t j = 0; j < 3; ++j) w.push_back(double(at(b, j * 4 + i + 1)));
            for (int64_t j = 0; j < 2; ++j) w.push_back(10.0 + i);
        }
        return w;
    }());
    const DevT<float> r0 = t7::cat(ga, ga, 0);
    check_values(r0, {4, 3}, [&] {
        std::vector<double> w = values(a), v = values(a);
        w.insert(w.end(), v.begin(), v.end());
        return w;
    }());
    CHECK(t7::cat({DevT<float>(), ga}, 0).sizes() == Shape{2, 3}); // empty inputs skipped
    // into an existing result that is one of the inputs
    DevT<float> into = ga.clone();
    t7::cat(into, {into, ga}, 0);
    check_values(into, {4, 3}, values(r0));
#if defined(T7_CUDA_TESTS_CPU_OPS)
    check_same(r, t7::cat({a, b.t().narrow(0, 1, 2), c.expand(2, 2)}, 1));
    check_same(t7::cat(std::vector<DevT<float>>{ga, ga, ga}, -1), t7::cat({a, a, a}, -1));
#endif
    // errors before anything is written
    DevT<float> keep = ga.clone();
    CHECK(error_of<t7::ShapeError>([&] {
              t7::cat(keep, {ga, gb}, 0);
          }).find("cat: input 1 has size") != std::string::npos);
    CHECK(values(keep) == values(a));
    CHECK_THROWS_AS(t7::cat(std::vector<DevT<float>>{}, 0), t7::ShapeError);
    CHECK_THROWS_AS(t7::cat({ga, ga}, 2), t7::IndexError);
    if (two_devices()) CHECK_THROWS_AS(t7::cat({ga, a.cuda(1)}, 0), t7::DeviceError);
}

// ---- the second-round random laws -----------------------------------------------------------

// The laws through log, exp or tan: the last bits of CUDA's and the host's
// functions may differ (exact in the emulated build).
template <class T>
double law_tol() {
    if (T7_GPU_EMULATED) return 0;
    return std::is_same_v<T, Half> ? 2e-3 : std::is_same_v<T, float> ? 1e-6 : 1e-12;
}

TEST_CASE_TEMPLATE("cuda: the continuous laws equal the CPU's after the same seed", T, float,
                   double, Half) {
    const Shape s{8, 7};
    const double tol = law_tol<T>();
    const auto lognormal = [](auto& x) { x.logNormal(2, 0.5); };
    const auto exponential = [](auto& x) { x.exponential(1.5); };
    const auto cauchy = [](auto& x) { x.cauchy(1, 2); };
    const auto geometric = [](auto& x) { x.geometric(0.3); };
    check_fill_matches_cpu<T>(s, whole, lognormal, tol);
    check_fill_matches_cpu<T>(s, transposed, lognormal, tol);
    check_fill_matches_cpu<T>(s, narrowed, lognormal, tol); // 30 values: odd groups
    check_fill_matches_cpu<T>({5}, whole, lognormal, tol, 3);
    check_fill_matches_cpu<T>(s, whole, exponential, tol);
    check_fill_matches_cpu<T>(s, stepped, exponential, tol);
    check_fill_matches_cpu<T>(s, whole, cauchy, tol);
    check_fill_matches_cpu<T>(s, transposed, cauchy, tol);
    check_fill_matches_cpu<T>(s, whole, geometric);
    check_fill_matches_cpu<T>(s, narrowed, geometric);
}

TEST_CASE_TEMPLATE("cuda: random(), random(b), random(a, b) equal the CPU's", T, uint8_t,
                   T7_UNSANITIZED(int8_t, int16_t) int32_t, int64_t, float, double) {
    const Shape s{8, 7};
    check_fill_matches_cpu<T>(s, whole, [](auto& x) { x.random(); });
    check_fill_matches_cpu<T>(s, transposed, [](auto& x) { x.random(); });
    check_fill_matches_cpu<T>(s, whole, [](auto& x) { x.random(10); });
    check_fill_matches_cpu<T>(s, stepped, [](auto& x) { x.random(10); });
    check_fill_matches_cpu<T>(s, whole, [](auto& x) { x.random(3, 100); });
    check_fill_matches_cpu<T>(s, narrowed, [](auto& x) { x.random(3, 100); });
    check_fill_matches_cpu<T>(
        {5}, whole, [](auto& x) { x.random(1, 5); }, 0, 3);
}

TEST_CASE("cuda: random integers beyond 2^53 and the laws' moments") {
    check_fill_matches_cpu<int64_t>({64}, whole,
                                    [](auto& x) { x.random(int64_t(-4e18), int64_t(4e18)); });
    t7::manualSeed(5);
    DevT<double> e(1 << 16);
    e.exponential(2);
    CHECK(t7::mean(e) == doctest::Approx(0.5).epsilon(0.02));
    DevT<double> gm(1 << 16);
    gm.geometric(0.25); // mean 1 / (1 - p) for Torch7's P(X = i) = (1 - p) p^(i - 1)
    CHECK(t7::mean(gm) == doctest::Approx(1 / 0.75).epsilon(0.02));
    CHECK(t7::min(gm) >= 1);
}

TEST_CASE("cuda: errors of the laws are the CPU's, and nothing is drawn") {
    check_same_error([](auto& x) { x.exponential(0); });
    check_same_error([](auto& x) { x.exponential(-1); });
    check_same_error([](auto& x) { x.cauchy(0, 0); });
    check_same_error([](auto& x) { x.geometric(1); });
    check_same_error([](auto& x) { x.geometric(0); });
    check_same_error([](auto& x) { x.logNormal(1, 0); });
    check_same_error([](auto& x) { x.logNormal(1, -1); });
    check_same_error([](auto& x) { x.random(5, 2); });
}

// ---- randperm and multinomial -----------------------------------------------------------------

TEST_CASE("cuda: randperm is the CPU's permutation for a seed") {
    for (int64_t n : {1, 2, 17, 1000}) {
        CAPTURE(n);
        t7::manualSeed(42);
        const HostT<int64_t> h = t7::randperm(n);
        t7::manualSeed(42);
        const DevT<int64_t> g = t7::randperm<t7::CUDA>(n);
        CHECK(g.sizes() == Shape{n});
        CHECK(values(g) == values(h));
        std::vector<double> v = values(g);
        std::sort(v.begin(), v.end());
        for (int64_t i = 0; i < n; ++i) CHECK(v[size_t(i)] == double(i));
    }
    CHECK(t7::randperm<t7::CUDA>(0).dim() == 0);
    CHECK_THROWS_AS(t7::randperm<t7::CUDA>(-1), t7::ShapeError);
}

TEST_CASE("cuda: multinomial samples the CPU's categories for a seed") {
    const HostT<float> p =
        host<float>({3, 6}, [](int64_t i) { return double(i % 6 == 2 ? 0 : i % 4 + 1); });
    const DevT<float> g = p.cuda();
    t7::manualSeed(7);
    const DevT<int64_t> with = t7::multinomial(g, 40, true);
    const DevT<int64_t> without = t7::multinomial(g.select(0, 1), 5);
    CHECK(with.sizes() == Shape{3, 40});
    CHECK(without.sizes() == Shape{5});
    for (double c : values(with)) CHECK((c >= 0 && c < 6 && c != 2));
    std::vector<double> w = values(without);
    std::sort(w.begin(), w.end());
    CHECK(std::adjacent_find(w.begin(), w.end()) == w.end()); // distinct categories
#if defined(T7_CUDA_TESTS_CPU_OPS)
    t7::manualSeed(7);
    const HostT<int64_t> hwith = t7::multinomial(p, 40, true);
    const HostT<int64_t> hwithout = t7::multinomial(p.select(0, 1), 5);
    CHECK(values(with) == values(hwith));
    CHECK(values(without) == values(hwithout));
#endif
    CHECK_THROWS_AS(t7::multinomial(g, 6), t7::Error); // 5 positive weights per row
    CHECK_THROWS_AS(t7::multinomial(g, 0), t7::ShapeError);
    CHECK_THROWS_AS(t7::multinomial(DevT<float>(2, 2, 2), 1), t7::ShapeError);
}

// ---- order statistics and histc (the CPU functions live in host translation units) -----------

#if defined(T7_CUDA_TESTS_CPU_OPS)
TEST_CASE_TEMPLATE("cuda: kthvalue, median and mode equal the CPU's on every layout", T, uint8_t,
                   T7_UNSANITIZED(int16_t) int32_t, int64_t, float, double, Half) {
    const int64_t r = 9, c = 14;
    auto f = [](int64_t i) { return double((i * 17) % 11) - 4.0; }; // many ties
    for (const auto& L : layouts<T>(r, c, f)) {
        CAPTURE(L.name);
        for (int64_t dim = 0; dim < 2; ++dim) {
            CAPTURE(dim);
            const int64_t n = dim == 0 ? r : c;
            for (int64_t k : {int64_t(1), n / 2, n}) {
                CAPTURE(k);
                auto [gv, gi] = t7::kthvalue(L.g, k, dim);
                auto [hv, hi] = t7::kthvalue(L.h, k, dim);
                check_same(gv, hv);
                check_same(gi, hi);
            }
            auto [mv, mi] = L.g.median(dim);
            auto [hmv, hmi] = L.h.median(dim);
            check_same(mv, hmv);
            check_same(mi, hmi);
            auto [ov, oi] = L.g.mode(dim);
            auto [hov, hoi] = L.h.mode(dim);
            check_same(ov, hov);
            check_same(oi, hoi);
        }
    }
}

TEST_CASE("cuda: kthvalue, median, mode: hand-checked, NaN, results and errors") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const DevT<double> x = host<double>({2, 5}, [&](int64_t i) {
                               const double v[] = {3, 1, nan, 1, -0.0, 2, 2, 7, 7, 2};
                               return v[i];
                           }).cuda();
    auto [kv, ki] = x.kthvalue(2);
    check_values(kv, {2, 1}, {1, 2}); // sorted rows: -0 1 1 3 NaN and 2 2 2 7 7
    check_values(ki, {2, 1}, {1, 1});
    auto [mv, mi] = x.median(1);
    check_values(mv, {2, 1}, {1, 2});
    check_values(mi, {2, 1}, {3, 4});
    auto [ov, oi] = x.mode(1);
    check_values(ov, {2, 1}, {1, 2}); // 1 twice, 2 three times: their last positions
    check_values(oi, {2, 1}, {3, 4});
    CHECK(std::isnan(values(x.kthvalue(5).values)[0]));
    // into existing results (strided), then the errors, before anything is written
    t7::ValuesIndices<double, t7::CUDA> out{DevT<double>(1, 2).t(), DevT<int64_t>(2, 1)};
    t7::median(out, x, 1);
    check_values(out.values, {2, 1}, {1, 2});
    CHECK(error_of<t7::IndexError>([&] { x.kthvalue(6); }) ==
          error_of<t7::IndexError>([&] { x.cpu().kthvalue(6); }));
    CHECK_THROWS_AS(x.kthvalue(0), t7::IndexError);
    CHECK_THROWS_AS(x.mode(2), t7::IndexError);
    if (two_devices()) {
        t7::ValuesIndices<double, t7::CUDA> far{DevT<double>(2, 1).cuda(1), DevT<int64_t>()};
        CHECK_THROWS_AS(t7::mode(far, x, 1), t7::DeviceError);
        auto [v1, i1] = x.cuda(1).median(1);
        CHECK(v1.getDevice() == 1);
        CHECK(i1.getDevice() == 1);
    }
}

TEST_CASE_TEMPLATE("cuda: histc equals the CPU's", T, uint8_t, int32_t, float, double) {
    const HostT<T> h = host<T>({13, 11}, [](int64_t i) { return double((i * 37) % 50); });
    const DevT<T> g = h.cuda();
    check_same(t7::histc(g), t7::histc(h));
    check_same(t7::histc(g, 7), t7::histc(h, 7));
    check_same(t7::histc(g.t(), 10, 5, 30), t7::histc(h.t(), 10, 5, 30));
    check_same(t7::histc(g.narrow(0, 2, 1), 3, 100, 100),
               t7::histc(h.narrow(0, 2, 1), 3, 100, 100));
    CHECK(t7::histc(g, 4).getDevice() == 0);
    CHECK(error_of<t7::Error>([&] { t7::histc(g, 5, 3, 1); }) ==
          error_of<t7::Error>([&] { t7::histc(h, 5, 3, 1); }));
    CHECK_THROWS_AS(t7::histc(g, 0), t7::ShapeError);
    CHECK_THROWS_AS(t7::histc(DevT<T>()), t7::ShapeError);
}

TEST_CASE("cuda: histc of NaN and infinities") {
    const double inf = std::numeric_limits<double>::infinity();
    const HostT<double> h = host<double>({6}, [&](int64_t i) {
        const double v[] = {1, std::nan(""), inf, 2, -inf, 4};
        return v[i];
    });
    check_same(t7::histc(h.cuda(), 3), t7::histc(h, 3));
    check_values(t7::histc(h.cuda(), 3), {3}, {1, 1, 1});
}
#endif

#if defined(T7_CUDA_TESTS_CPU_OPS) // math/conv.hpp needs the CPU evaluator
// ---- convolutions -------------------------------------------------------------------------

// Equal sizes, values within tol relative to max(1, |CPU value|).
template <class T>
void check_conv(const DevT<T>& g, const HostT<T>& h, double tol) {
    REQUIRE(g.sizes() == h.sizes());
    check_same(values(g), values(h), tol);
}

TEST_CASE_TEMPLATE("cuda: conv2, xcorr2, conv3, xcorr3 equal the CPU's", T,
                   T7_UNSANITIZED(int16_t) float, double, int32_t) {
    const double tol = std::is_same_v<T, float> ? 1e-5 : std::is_same_v<T, double> ? 1e-12 : 0;
    auto f = [](int64_t i) { return double((i * 7) % 11) - 5; };
    auto g = [](int64_t i) { return double((i * 5) % 7) - 3; };
    // 2-D forms: one map; p maps plane by plane; q maps summing over p planes (many: the
    // CPU's matrix-product path); inputs transposed or narrowed.
    const HostT<T> x2 = host<T>({9, 11}, f), k2 = host<T>({3, 4}, g);
    const HostT<T> xp = host<T>({3, 8, 7}, f), kp = host<T>({3, 2, 3}, g);
    const HostT<T> kq = host<T>({5, 3, 3, 2}, g);
    for (char mode : {'V', 'F'}) {
        CAPTURE(mode);
        check_conv(t7::conv2(x2.cuda(), k2.cuda(), mode), t7::conv2(x2, k2, mode), tol);
        check_conv(t7::xcorr2(x2.cuda(), k2.cuda(), mode), t7::xcorr2(x2, k2, mode), tol);
        check_conv(t7::conv2(x2.cuda().t(), k2.cuda().t(), mode), t7::conv2(x2.t(), k2.t(), mode),
                   tol);
        check_conv(t7::xcorr2(xp.cuda(), kp.cuda(), mode), t7::xcorr2(xp, kp, mode), tol);
        check_conv(t7::conv2(xp.cuda().narrow(2, 1, 5), kp.cuda(), mode),
                   t7::conv2(xp.narrow(2, 1, 5), kp, mode), tol);
        check_conv(t7::conv2(xp.cuda(), kq.cuda(), mode), t7::conv2(xp, kq, mode), tol);
        check_conv(t7::xcorr2(xp.cuda(), kq.cuda(), mode), t7::xcorr2(xp, kq, mode), tol);
    }
    // 3-D forms
    const HostT<T> x3 = host<T>({5, 6, 7}, f), k3 = host<T>({2, 3, 2}, g);
    const HostT<T> x4 = host<T>({2, 4, 5, 6}, f), k4 = host<T>({2, 2, 2, 3}, g);
    const HostT<T> k5 = host<T>({3, 2, 2, 2, 2}, g);
    for (char mode : {'V', 'F'}) {
        CAPTURE(mode);
        check_conv(t7::conv3(x3.cuda(), k3.cuda(), mode), t7::conv3(x3, k3, mode), tol);
        check_conv(t7::xcorr3(x3.cuda(), k3.cuda(), mode), t7::xcorr3(x3, k3, mode), tol);
        check_conv(t7::conv3(x4.cuda(), k4.cuda(), mode), t7::conv3(x4, k4, mode), tol);
        check_conv(t7::xcorr3(x4.cuda(), k5.cuda(), mode), t7::xcorr3(x4, k5, mode), tol);
    }
}

TEST_CASE("cuda: convolution hand-checked, and its errors are the CPU's") {
    // [[1 2 3] [4 5 6]] by [[1 0] [0 -1]]: valid xcorr is a - (the element down-right)
    const DevT<float> x = host<float>({2, 3}, [](int64_t i) { return double(i + 1); }).cuda();
    const DevT<float> k = host<float>({2, 2}, [](int64_t i) {
                              return i == 0 ? 1.0 : i == 3 ? -1.0 : 0.0;
                          }).cuda();
    check_values(t7::xcorr2(x, k), {1, 2}, {-4, -4});
    check_values(t7::conv2(x, k), {1, 2}, {4, 4});
    check_values(t7::xcorr2(x, k, 'F'), {3, 4}, {-1, -2, -3, 0, -4, -4, -4, 3, 0, 4, 5, 6});
    const HostT<float> hx = x.cpu(), hk = k.cpu();
    auto same_error = [](auto gpu, auto cpu) {
        CHECK(error_of<t7::Error>(gpu) == error_of<t7::Error>(cpu));
        CHECK(error_of<t7::Error>(gpu) != "(no exception)");
    };
    same_error([&] { t7::conv2(x, k, 'X'); }, [&] { t7::conv2(hx, hk, 'X'); });
    same_error([&] { t7::conv2(k, x); }, [&] { t7::conv2(hk, hx); });
    same_error([&] { t7::conv2(x.view(1, 2, 3), k); }, [&] { t7::conv2(hx.view(1, 2, 3), hk); });
    same_error([&] { t7::conv3(x, k); }, [&] { t7::conv3(hx, hk); });
    CHECK_THROWS_AS(t7::conv2(x, k, 'X'), t7::Error);
    CHECK_THROWS_AS(t7::conv2(k, x), t7::ShapeError);
    if (two_devices()) CHECK_THROWS_AS(t7::conv2(x, k.cuda(1)), t7::DeviceError);
}
#endif

} // namespace cuda_tests
