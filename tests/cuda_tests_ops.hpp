// The CUDA backend's tests, second part: the masked, indexed and sorting
// operations (nonzero, the index family, gather and scatter, sort and topk) and
// several outputs in one pass (helpers and how the bodies are compiled:
// cuda_test_util.hpp).
#pragma once

#include "cuda_test_util.hpp"

namespace cuda_tests {

// ---- masked, indexed and sorting operations ---------------------------------------------------
// References are plain loops over the row-major values; where the host build
// also has the CPU operations (test_thrust_host includes <t7/t7.hpp> and
// defines T7_CUDA_TESTS_CPU_OPS), every result is also compared with the CPU
// operation's on the same data, layout for layout.

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
    CHECK(x.maskedSelect(DevT<uint8_t>(2, 3).zero()).sizes() == Shape{0}); // NumPy's
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
    CHECK(DevT<T>(3, 4).zero().nonzero().sizes() == Shape{0, 2}); // NumPy's argwhere
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
    CHECK_THROWS_AS(m.topk(-1), t7::IndexError);
    CHECK(m.topk(0).values.sizes() == Shape{2, 0}); // k = 0: empty results
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
