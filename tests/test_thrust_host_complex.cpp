// The CUDA backend's tests on the CPU, fourth part (tests/cuda_tests_complex.hpp:
// complex tensors), linked into test_thrust_host (how it is built:
// thrust_host_setup.hpp).
#include "thrust_host_setup.hpp"

#include "cuda_tests_complex.hpp"

// The transforms of CUDA tensors (on the emulated devices) against the CPU's.
TEST_CASE("cuda complex: every transform equals the CPU's") {
    using namespace cuda_tests;
    const HostT<CD> z = host_complex<CD>({4, 6, 5});
    const HostT<float> x = host<float>({4, 6, 5}, wave);
    const auto same = [](const auto& gpu, const auto& cpu, double tol) {
        REQUIRE(gpu.sizes() == cpu.sizes());
        const auto g = gpu.cpu();
        for (int64_t i = 0; i < cpu.nElement(); ++i)
            CHECK(std::abs(CD(g.data()[i]) - CD(cpu.data()[i])) <= tol);
    };
    same(t7::fft(z.cuda(), 7, 1), t7::fft(z, 7, 1), 1e-12);
    same(t7::ifft(z.cuda(), 3, 0, t7::FftNorm::forward), t7::ifft(z, 3, 0, t7::FftNorm::forward),
         1e-12);
    same(t7::fftn(z.cuda()), t7::fftn(z), 1e-11);
    same(t7::ifft2(z.cuda()), t7::ifft2(z), 1e-12);
    same(t7::rfft(x.cuda(), -1, 1), t7::rfft(x, -1, 1), 1e-5);
    same(t7::rfftn(x.cuda()), t7::rfftn(x), 1e-4);
    same(t7::irfft(t7::rfft(x.cuda())), t7::irfft(t7::rfft(x)), 1e-5);
    same(t7::irfftn(z.cuda(), {0, 2}), t7::irfftn(z, {0, 2}), 1e-12);
    same(t7::fftshift(z.cuda(), {1}), t7::fftshift(z, {1}), 0);
}

// Scans: the same functor in the same order as the CPU's, so the same values, bit for bit.
TEST_CASE("cuda complex: cumsum and cumprod equal the CPU's exactly") {
    using namespace cuda_tests;
    const HostT<CF> f = host_complex<CF>({3, 4, 5});
    const HostT<CD> z = host_complex<CD>({3, 4, 5});
    const auto exact = [](const auto& gpu, const auto& cpu) {
        REQUIRE(gpu.sizes() == cpu.sizes());
        const auto g = gpu.cpu();
        const auto c = cpu.contiguous();
        for (int64_t i = 0; i < c.nElement(); ++i) CHECK(g.data()[i] == c.data()[i]);
    };
    for (int64_t d = 0; d < 3; ++d) {
        exact(t7::cumsum(f.cuda(), d), t7::cumsum(f, d));
        exact(t7::cumprod(f.cuda(), d), t7::cumprod(f, d));
        exact(t7::cumprod(z.cuda().transpose(0, 2), d), t7::cumprod(z.transpose(0, 2), d));
        exact(t7::cumsum(z.cuda().narrow(1, 1, 2), d), t7::cumsum(z.narrow(1, 1, 2), d));
    }
}

// The into-result forms: the same values as the CPU's into the same layouts, the same
// errors (the CPU's checks, fft_common.hpp; messages naming the CUDA types).
TEST_CASE("cuda complex: the transforms into a given tensor equal the CPU's") {
    using namespace cuda_tests;
    const HostT<CD> h = host_complex<CD>({6, 6});
    const auto same = [](const auto& gpu, const auto& cpu, double tol) {
        REQUIRE(gpu.sizes() == cpu.sizes());
        const auto g = gpu.cpu();
        const auto c = cpu.contiguous();
        for (int64_t i = 0; i < c.nElement(); ++i)
            CHECK(std::abs(CD(g.data()[i]) - CD(c.data()[i])) <= tol);
    };
    // overlapping: rows 2..5 from rows 0..3, on both devices
    HostT<CD> hc = h.clone();
    DevT<CD> g = h.cuda();
    HostT<CD> ho = hc.narrow(0, 2, 4);
    DevT<CD> go = g.narrow(0, 2, 4);
    t7::fft(ho, hc.narrow(0, 0, 4), -1, 0);
    t7::fft(go, g.narrow(0, 0, 4), -1, 0);
    same(g, hc, 1e-12);
    // in place along dim 0, and rfft / irfft into transposed results
    t7::ifft(hc, hc, -1, 0, t7::FftNorm::ortho);
    t7::ifft(g, g, -1, 0, t7::FftNorm::ortho);
    same(g, hc, 1e-12);
    const HostT<float> x = host<float>({6, 5}, wave);
    HostT<CF> hr = HostT<CF>(5, 4).t();
    DevT<CF> gr = DevT<CF>(5, 4).t();
    t7::rfft(hr, x, -1, 0);
    t7::rfft(gr, x.cuda(), -1, 0);
    same(gr, hr, 1e-5);
    HostT<float> hb;
    DevT<float> gb;
    t7::irfft(hb, hr, 6, 0);
    t7::irfft(gb, gr, 6, 0);
    REQUIRE(gb.sizes() == hb.sizes());
    check_close(
        gb, [&](int64_t i) { return hb.data()[i]; }, 1e-5);
    HostT<CD> hn;
    DevT<CD> gn;
    t7::fftn(hn, h, {1});
    t7::fftn(gn, h.cuda(), {1});
    same(gn, hn, 1e-12);
    // the same messages, with the CUDA types' names
    HostT<CF> hw(6, 6);
    DevT<CF> gw(6, 6);
    const std::string cpu_msg = error_of<t7::TypeError>([&] { t7::fft(hw, h); });
    const std::string gpu_msg = error_of<t7::TypeError>([&] { t7::fft(gw, h.cuda()); });
    CHECK(cpu_msg ==
          "fft: the result is a torch.ComplexDoubleTensor, not a torch.ComplexFloatTensor");
    CHECK(gpu_msg ==
          "fft: the result is a torch.CudaComplexDoubleTensor, not a torch.CudaComplexFloatTensor");
    HostT<CD> hs(6, 5);
    DevT<CD> gs(6, 5);
    CHECK(error_of<t7::ShapeError>([&] {
              t7::ifft2(hs, h, {0, 1});
          }) == error_of<t7::ShapeError>([&] {
              t7::ifft2(gs, h.cuda(), {0, 1});
          }));
}
