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
