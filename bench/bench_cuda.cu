// GPU benchmarks of the Thrust evaluator (issue: GPU backend), compiled by nvcc
// with -Dbench=true -Dcuda=enabled. Every row is compared with the
// device-to-device copy bandwidth measured in the same run (y.copy(x): a
// cudaMemcpy of n floats, 8 bytes moved per element). Targets: W2/W3/W4 at
// n = 2^26 >= 85% of copy, W7 sum(a*b) >= 80%, assignments of n = 2^10 below
// 10 us each. Usage: bench_cuda [reps]
#include "timing.hpp"

#include <t7/cuda.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

using G = t7::cuda::FloatTensor;

namespace {

int g_reps = 10;

G filled(t7::Shape s, float lo, float hi, unsigned seed) {
    t7::FloatTensor t(s);
    unsigned x = seed;
    for (int64_t i = 0; i < t.nElement(); ++i) {
        x = x * 1664525u + 1013904223u;
        t.data()[i] = lo + (hi - lo) * float(x >> 8) / float(1 << 24);
    }
    return t.cuda();
}

// Best seconds per call of f, the device drained after each batch of `inner` calls.
template <class F>
double timed(F&& f, int64_t inner) {
    return bench::best_time(
               [&] {
                   for (int64_t i = 0; i < inner; ++i) f();
                   t7::cuda::synchronize();
               },
               g_reps, 1) /
           double(inner);
}

void row(const char* name, int64_t n, double bytes, double t, double copy_bps) {
    const double bps = bytes / t;
    std::printf("%-30s n=%-9lld %10.2f us  %7.1f GB/s  (%3.0f%% of copy)\n", name, (long long)n,
                t * 1e6, bps / 1e9, 100 * bps / copy_bps);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_reps = std::max(1, std::atoi(argv[1]));
    if (t7::cuda::deviceCount() == 0) {
        std::printf("bench_cuda: no CUDA device (%s)\n", t7::cuda::unavailableReason());
        return 0;
    }
    const int64_t n = int64_t(1) << 26;
    G a = filled({n}, 0.5f, 2, 1), b = filled({n}, 0.5f, 2, 2), c = filled({n}, -1, 1, 3),
      d = filled({n}, 0.5f, 2, 4), y(n);
    const float s = 1.5f;

    const double copy_t = timed([&] { y.copy(a); }, 5);
    const double copy_bps = 8.0 * double(n) / copy_t;
    row("copy y=a (cudaMemcpy)", n, 8.0 * double(n), copy_t, copy_bps);
    row("W2 y=a+s*b", n, 12.0 * double(n), timed([&] { y = a + s * b; }, 5), copy_bps);
    row("W3 y=a*b+c*d-a/(b+1)", n, 20.0 * double(n),
        timed([&] { y = a * b + c * d - a / (b + 1); }, 5), copy_bps);
    row("W4 sin(a)*exp(-b)+sqrt|c|", n, 16.0 * double(n),
        timed([&] { y = t7::sin(a) * t7::exp(-b) + t7::sqrt(t7::abs(c)); }, 5), copy_bps);
    double r7 = 0;
    row("W7 sum(a*b)", n, 8.0 * double(n), timed([&] { r7 = t7::sum(a * b); }, 5), copy_bps);
    bench::keep(r7);

    const int64_t m = 8192; // m x m = 2^26
    G x = a.view(m, m), z(m, m);
    row("W5 y=x.t()+x", n, 12.0 * double(n), timed([&] { z = x.t() + x; }, 3), copy_bps);
    G r = b.narrow(0, 0, m);
    row("W6 y=x*r+c (row broadcast)", n, 12.0 * double(n),
        timed([&] { z = x * r + c.view(m, m); }, 3), copy_bps);
    row("W8 row sums", n, 4.0 * double(n), timed([&] { bench::keep(t7::sum(x, 1)); }, 3), copy_bps);
    row("W8 column sums", n, 4.0 * double(n), timed([&] { bench::keep(t7::sum(x, 0)); }, 3),
        copy_bps);

    // Per-assignment overhead: small tensors, many assignments, one drain.
    const int64_t k = 1024;
    G sa = filled({k}, 0.5f, 2, 5), sb = filled({k}, 0.5f, 2, 6), sy(k);
    const double t_small = timed([&] { sy = sa + s * sb; }, 2000);
    std::printf("%-30s n=%-9lld %10.2f us per assignment (target < 10 us)\n", "overhead y=a+s*b",
                (long long)k, t_small * 1e6);
    const double t_red = timed([&] { bench::keep(t7::sum(sa * sb)); }, 500);
    std::printf("%-30s n=%-9lld %10.2f us per reduction\n", "overhead sum(a*b)", (long long)k,
                t_red * 1e6);
    // The floor under a whole reduction: its value comes back to the host.
    G one = filled({1}, 0.5f, 2, 7);
    const double t_trip = timed([&] { bench::keep(one.cpu().data()[0]); }, 500);
    std::printf("%-30s n=%-9d %10.2f us per round trip\n", "one element to the host", 1,
                t_trip * 1e6);
    return 0;
}
