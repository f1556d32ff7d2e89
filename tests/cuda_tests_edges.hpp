// The CUDA backend's tests of the array's edges (issue 41): dimensions of size
// 0 and reversed views (negative strides) on device tensors, every reference
// value from plain loops on the host (helpers: cuda_test_util.hpp).
#pragma once

#include "cuda_test_util.hpp"

namespace cuda_tests {

TEST_CASE("cuda: empty dimensions") {
    for (const Shape& s : {Shape{0}, Shape{0, 5}, Shape{5, 0}, Shape{3, 0, 4}, Shape{0, 0}}) {
        CAPTURE(s);
        DevT<float> g(s);
        CHECK(g.sizes() == s);
        CHECK(g.nElement() == 0);
        g = g * 2.0f + 1.0f; // nothing to compute
        g.fill(3);
        DevT<float> y = g + g;
        CHECK(y.sizes() == s);
        CHECK(y.clone().sizes() == s);
        CHECK(g.cpu().sizes() == s);
        CHECK(HostT<float>(s).cuda().sizes() == s);
        CHECK(t7::sum(g) == 0);
        CHECK(t7::prod(g) == 1);
        CHECK(std::isnan(t7::mean(g)));
        CHECK_THROWS_AS(t7::max(g), t7::ShapeError);
    }
    DevT<float> z(0, 5);
    const DevT<float> row = host<float>({1, 5}, [](int64_t i) { return double(i); }).cuda();
    CHECK(DevT<float>(z + row).sizes() == Shape{0, 5});
    const DevT<float> s0 = t7::sum(z, 0);
    CHECK(s0.sizes() == Shape{1, 5});
    CHECK(values(s0) == std::vector<double>(5, 0.0));
    CHECK(DevT<float>(t7::sum(z, 1)).sizes() == Shape{0, 1});
    CHECK_THROWS_AS(t7::max(z, 0), t7::ShapeError);
    const DevT<float> x = host<float>({2, 3}, [](int64_t i) { return double(i); }).cuda();
    const DevT<float> none = x[x > 100.0f];
    CHECK(none.sizes() == Shape{0});
    auto [v, i] = DevT<float>(0).sort();
    CHECK(v.sizes() == Shape{0});
    auto [tv, ti] = x.topk(0, 1);
    CHECK(tv.sizes() == Shape{2, 0});
    CHECK(DevT<float>(0, 3).nonzero().sizes() == Shape{0, 2});
}

TEST_CASE("cuda: reversed views") {
    const HostT<float> h = host<float>({3, 4}, [](int64_t i) { return double(i); });
    const DevT<float> g = h.cuda();
    const DevT<float> f = t7::flip(g, {0, 1});
    CHECK(f.strides() == Shape{-4, -1});
    check_exact(f, [](int64_t i) { return double(11 - i); });
    // fused, against a forward operand and into a reversed destination
    DevT<float> y = f * 2.0f + g;
    check_exact(y, [](int64_t i) { return 2.0 * double(11 - i) + double(i); });
    DevT<float> out(3, 4);
    out.flip({1}) = g;
    check_exact(out, [](int64_t i) { return double((i / 4) * 4 + 3 - i % 4); });
    CHECK(t7::sum(f) == 66);
    check_exact(DevT<float>(t7::sum(g.flip({0}), 1)), [](int64_t i) { return 38.0 - 16.0 * i; });
    // transfers in both directions keep the order
    check_exact(f.cpu().cuda(), [](int64_t i) { return double(11 - i); });
    check_exact(h.flip({0}).cuda(), [](int64_t i) { return double((2 - i / 4) * 4 + i % 4); });
    check_exact(f.clone(), [](int64_t i) { return double(11 - i); });
    // aliasing: x = flip(x) reverses x
    DevT<float> a = host<float>({7}, [](int64_t i) { return double(i); }).cuda();
    a = t7::flip(a, {0});
    check_exact(a, [](int64_t i) { return double(6 - i); });
    const DevT<float> s =
        g(t7::slice(2, t7::slice::none, -1), t7::slice(t7::slice::none, t7::slice::none, -2));
    CHECK(s.sizes() == Shape{3, 2});
    check_exact(s, [](int64_t i) { return double((2 - i / 2) * 4 + 3 - 2 * (i % 2)); });
}

TEST_CASE("cuda: products, indexed and gathering operations at the edges") {
    // mm with an inner size 0 gives zeros; a reversed operand is read in its order
    const DevT<float> c = t7::mm(DevT<float>(3, 0), DevT<float>(0, 4));
    CHECK(c.sizes() == Shape{3, 4});
    check_exact(c, [](int64_t) { return 0.0; });
    const HostT<float> a = host<float>({2, 3}, [](int64_t i) { return double(i); });
    const HostT<float> b = host<float>({3, 2}, [](int64_t i) { return double(i); });
    // rows of a reversed: [2 1 0; 5 4 3] @ [0 1; 2 3; 4 5] = [2 5; 20 32]
    const std::vector<double> ab{2, 5, 20, 32};
    check_exact(DevT<float>(t7::mm(a.cuda().flip({1}), b.cuda())),
                [&](int64_t i) { return ab[size_t(i)]; });
    // an empty index picks nothing and writes nothing
    const DevT<float> x = a.cuda();
    const DevT<int64_t> none(0);
    CHECK(x.index(0, none).sizes() == Shape{0, 3});
    DevT<float> y = x.clone();
    y.indexFill(1, none, 9.0f);
    check_exact(y, [](int64_t i) { return double(i); });
    CHECK(x.gather(1, DevT<int64_t>(2, 0)).sizes() == Shape{2, 0});
    // gather along a reversed view
    const HostT<int64_t> idx = host<int64_t>({2, 1}, [](int64_t) { return 0.0; });
    check_exact(DevT<float>(x.flip({1}).gather(1, idx.cuda())),
                [](int64_t i) { return i == 0 ? 2.0 : 5.0; });
}

} // namespace cuda_tests
