// Math-library benchmarks (issue 6), each against its yardstick in the same run:
//  * mm of n x n float (plain and with transposed operands) vs Eigen's own
//    C.noalias() = A * B on Eigen matrices (target: >= 0.9x Eigen);
//  * rand of 2^24 floats vs the copy bandwidth: the faster of t7's y = x and a
//    parallel memcpy of the same floats (target: >= 0.5x copy).
// Runs are interleaved (see `interleaved`). Usage: bench_math [reps=5] [n=2048] [threads]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {

int g_reps = 5;

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Best time of each function over `reps` rounds; within a round every function
// runs once, so a change of machine load during the run affects all of them alike.
std::vector<double> interleaved(const std::vector<std::function<void()>>& fs, int reps) {
    std::vector<double> best(fs.size(), 1e30);
    for (const auto& f : fs) f(); // warm caches and pages
    for (int r = 0; r < reps; ++r)
        for (size_t i = 0; i < fs.size(); ++i) best[i] = std::min(best[i], seconds(fs[i]));
    return best;
}

void mm_bench(int64_t n) {
    t7::manualSeed(1);
    t7::FloatTensor a = t7::rand<float>(n, n), b = t7::rand<float>(n, n);
    using RowMap = Eigen::Map<Eigen::Matrix<float, -1, -1, Eigen::RowMajor>>;
    // Eigen's own column-major matrices holding the same values
    Eigen::MatrixXf A = RowMap(a.data(), n, n), B = RowMap(b.data(), n, n), C(n, n);
    Eigen::setNbThreads(t7::getNumThreads());
    // the transposed operands are views of other storage: a.t() is a column-major map
    t7::FloatTensor at_store = a.t().contiguous(), bt_store = b.t().contiguous();
    const t7::FloatTensor at = at_store.t(), bt = bt_store.t(); // same values as a, b
    const char* names[] = {"t7::mm(a, b)", "t7::mm(a^T view, b)", "t7::mm(a, b^T view)",
                           "t7::mm(a^T view, b^T view)"};
    const t7::FloatTensor* xs[] = {&a, &at, &a, &at};
    const t7::FloatTensor* ys[] = {&b, &b, &bt, &bt};
    t7::FloatTensor r[4];
    std::vector<std::function<void()>> fs{[&] { C.noalias() = A * B; }};
    for (int c = 0; c < 4; ++c) fs.push_back([&, c] { r[c].set(t7::mm(*xs[c], *ys[c])); });
    const auto t = interleaved(fs, g_reps);
    const double flops = 2.0 * double(n) * double(n) * double(n);
    std::printf("mm %lldx%lld float, %d threads, best of %d:\n", (long long)n, (long long)n,
                t7::getNumThreads(), g_reps);
    std::printf("  %-28s %8.2f ms  %7.1f GFLOP/s\n", "Eigen C.noalias() = A * B", t[0] * 1e3,
                flops / t[0] / 1e9);
    for (int c = 0; c < 4; ++c) {
        const double err = (RowMap(r[c].data(), n, n) - C).cwiseAbs().maxCoeff();
        std::printf("  %-28s %8.2f ms  %7.1f GFLOP/s  %5.2fx Eigen  (max |diff| %.2g)\n", names[c],
                    t[size_t(c) + 1] * 1e3, flops / t[size_t(c) + 1] / 1e9, t[0] / t[size_t(c) + 1],
                    double(err));
    }
}

void rand_bench(int64_t n) {
    t7::FloatTensor x(n), y(n);
    x.fill(1.0f);
    y.fill(0.0f);
    t7::DoubleTensor d(n);
    const float* xp = x.data();
    float* yp = y.data();
    auto memcpy_par = [&] {
        t7::iter::parallel_for(n, t7::iter::parallel_grain, [&](int64_t b, int64_t e, int64_t) {
            std::memcpy(yp + b, xp + b, size_t(e - b) * sizeof(float));
        });
    };
    const std::vector<std::function<void()>> fs{
        [&] { y = x; },           memcpy_par,
        [&] { y.uniform(); },     [&] { bench::keep(t7::rand<float>(n)); },
        [&] { d.uniform(); },     [&] { y.normal(); },
        [&] { y.bernoulli(0.5); }};
    const int reps = 4 * g_reps; // cheap: more rounds for a steadier minimum
    const auto t = interleaved(fs, reps);
    const double copy = std::min(t[0], t[1]);
    std::printf("copy of %lld floats, %d threads, best of %d: t7 y = x %7.2f ms, parallel memcpy "
                "%7.2f ms (%.1f GB/s read+write)\n",
                (long long)n, t7::getNumThreads(), reps, t[0] * 1e3, t[1] * 1e3,
                8.0 * double(n) / copy / 1e9);
    const char* names[] = {"y.uniform() (float, in place)", "t7::rand<float>(n)",
                           "d.uniform() (double, in place)", "y.normal() (float, in place)",
                           "y.bernoulli(0.5) (float)"};
    for (size_t i = 2; i < t.size(); ++i)
        std::printf("  %-32s %7.2f ms  %6.2f Gvalues/s  %5.2fx copy\n", names[i - 2], t[i] * 1e3,
                    double(n) / t[i] / 1e9, copy / t[i]);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_reps = std::max(1, std::atoi(argv[1]));
    const int64_t n = argc > 2 ? std::atoll(argv[2]) : 2048;
    if (argc > 3) t7::setNumThreads(std::atoi(argv[3]));
    mm_bench(n);
    rand_bench(int64_t(1) << 24);
    return 0;
}
