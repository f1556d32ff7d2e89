// Convolution benchmarks (issue 14), each against its yardstick in the same run
// (interleaved rounds, bench::race):
//  * xcorr2 / conv2 'V' of a 1024x1024 float image by a 5x5 kernel vs Eigen::Tensor's
//    convolve (a cross-correlation) on the same data (ThreadPoolDevice with the
//    same number of threads; timed before t7, not interleaved: the idle threads of
//    its pool and OpenMP's spin, and two spinning pools on few cores slow each other);
//  * a layer-sized call, xcorr2 of a 16x128x128 float input by a 32x16x3x3 kernel
//    ('V', 32 maps of 126x126), vs the matrix product it amounts to: t7::mm of the
//    32x144 weights by the 144x15876 im2col matrix (built once, outside the timing).
// Usage: bench_conv [threads=1] [rounds=10]
#define EIGEN_USE_THREADS
#include "timing.hpp"

#include <t7/t7.hpp>

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

int g_rounds = 10;

void image_bench() {
    const int64_t n = 1024, kn = 5, on = n - kn + 1;
    t7::manualSeed(1);
    t7::FloatTensor x = t7::rand<float>(n, n), k = t7::rand<float>(kn, kn);
    using Map2 = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
    Map2 ex(x.data(), n, n), ek(k.data(), kn, kn);
    Eigen::Tensor<float, 2, Eigen::RowMajor> eo(on, on);
    const Eigen::array<ptrdiff_t, 2> dims{0, 1};
    std::vector<double> t(3);
    { // Eigen's pool apart, and gone before t7 runs: its idle threads spin a while
        Eigen::ThreadPool pool(t7::getNumThreads());
        Eigen::ThreadPoolDevice dev(&pool, t7::getNumThreads());
        t[0] = bench::race({[&] { eo.device(dev) = ex.convolve(ek, dims); }}, g_rounds)[0];
    }
    t7::FloatTensor r1, r2;
    const auto t7s = bench::race(
        {[&] { r1.set(t7::xcorr2(x, k)); }, [&] { r2.set(t7::conv2(x, k)); }}, g_rounds);
    t[1] = t7s[0];
    t[2] = t7s[1];
    float diff = 0;
    for (int64_t i = 0; i < on * on; ++i)
        diff = std::max(diff, std::abs(r1.data()[i] - eo.data()[i]));
    const double flops = 2.0 * double(on * on) * double(kn * kn);
    std::printf("2-D 'V', %lldx%lld float by %lldx%lld, %d threads, best of %d:\n", (long long)n,
                (long long)n, (long long)kn, (long long)kn, t7::getNumThreads(), g_rounds);
    std::printf("  %-34s %8.3f ms  %6.1f GFLOP/s\n", "Eigen::Tensor convolve", t[0] * 1e3,
                flops / t[0] / 1e9);
    std::printf("  %-34s %8.3f ms  %6.1f GFLOP/s  %5.2fx Eigen  (max |diff| %.2g)\n",
                "t7::xcorr2(x, k)", t[1] * 1e3, flops / t[1] / 1e9, t[0] / t[1], double(diff));
    std::printf("  %-34s %8.3f ms  %6.1f GFLOP/s  %5.2fx Eigen\n", "t7::conv2(x, k)", t[2] * 1e3,
                flops / t[2] / 1e9, t[0] / t[2]);
}

void layer_bench() {
    const int64_t p = 16, q = 32, m = 128, kk = 3, o = m - kk + 1, taps = p * kk * kk;
    t7::manualSeed(2);
    t7::FloatTensor x = t7::rand<float>(p, m, m), k = t7::rand<float>(q, p, kk, kk);
    // the im2col matrix: col[(c, a, b)][(i, j)] = x[c][i + a][j + b]
    t7::FloatTensor col(taps, o * o);
    for (int64_t c = 0; c < p; ++c)
        for (int64_t a = 0; a < kk; ++a)
            for (int64_t b = 0; b < kk; ++b)
                for (int64_t i = 0; i < o; ++i)
                    for (int64_t j = 0; j < o; ++j)
                        col.data()[((c * kk + a) * kk + b) * o * o + i * o + j] =
                            x.data()[(c * m + i + a) * m + j + b];
    const t7::FloatTensor w = k.view(q, taps);
    t7::FloatTensor r, g;
    const auto t =
        bench::race({[&] { g.set(t7::mm(w, col)); }, [&] { r.set(t7::xcorr2(x, k)); }}, g_rounds);
    const double diff = double(t7::max(t7::abs(r.view(q, o * o) - g)));
    const double flops = 2.0 * double(q) * double(taps) * double(o * o);
    std::printf("layer: xcorr2 of %lldx%lldx%lld float by %lldx%lldx%lldx%lld ('V'), %d threads, "
                "best of %d:\n",
                (long long)p, (long long)m, (long long)m, (long long)q, (long long)p, (long long)kk,
                (long long)kk, t7::getNumThreads(), g_rounds);
    std::printf("  %-34s %8.3f ms  %6.1f GFLOP/s\n", "t7::mm(32x144, 144x15876)", t[0] * 1e3,
                flops / t[0] / 1e9);
    std::printf("  %-34s %8.3f ms  %6.1f GFLOP/s  %5.2fx mm  (max |diff| %.2g)\n",
                "t7::xcorr2(x, k)", t[1] * 1e3, flops / t[1] / 1e9, t[0] / t[1], diff);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) t7::setNumThreads(std::atoi(argv[1]));
    if (argc > 2) g_rounds = std::atoi(argv[2]);
    image_bench();
    layer_bench();
}
