// The fixed cost of a small assignment and reduction (issue 12), one thread.
//
//   bench_fixed_cost              times W1-W3 and sum(a*b) at 1024 floats against
//                                 Eigen::Map<ArrayXf> on the same buffers (best of 9);
//                                 T7_N=n in the environment picks another size (at 16
//                                 floats the time is almost all fixed cost)
//   bench_fixed_cost W N          runs workload W (1: y = x, 2: y = a + s*b,
//                                 3: y = a*b + c*d - a/(b+1), 4: sum(a*b)) N times
//                                 on 16 floats, for valgrind --tool=callgrind:
//                                 instructions per call = (count at 2N - count at N) / N
//
// Each workload is its own noinline function, so that how g++ inlines one does not
// depend on the others.
#include <t7/tensor.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

using T = t7::FloatTensor;

__attribute__((noinline)) void w1(T& y, const T& a, int n) {
    for (int i = 0; i < n; ++i) {
        y = a;
        asm volatile("" ::: "memory");
    }
}
__attribute__((noinline)) void w2(T& y, const T& a, const T& b, int n) {
    for (int i = 0; i < n; ++i) {
        y = a + 0.5f * b;
        asm volatile("" ::: "memory");
    }
}
__attribute__((noinline)) void w3(T& y, const T& a, const T& b, const T& c, const T& d, int n) {
    for (int i = 0; i < n; ++i) {
        y = a * b + c * d - a / (b + 1);
        asm volatile("" ::: "memory");
    }
}
__attribute__((noinline)) void w4(const T& a, const T& b, int n) {
    for (int i = 0; i < n; ++i) {
        volatile float r = t7::sum(a * b);
        (void)r;
    }
}

template <class F>
double best_ns(F f, int calls) {
    double best = 1e30;
    for (int r = 0; r < 9; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
            f();
            asm volatile("" ::: "memory");
        }
        const std::chrono::duration<double, std::nano> dt = std::chrono::steady_clock::now() - t0;
        best = std::min(best, dt.count() / calls);
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    t7::setNumThreads(1);
    const char* size = std::getenv("T7_N");
    const int64_t n = argc > 2 ? 16 : size ? std::max(1LL, std::atoll(size)) : 1024;
    T a(n), b(n), c(n), d(n), y(n);
    a.fill(1);
    b.fill(2);
    c.fill(3);
    d.fill(4);
    if (argc > 2) {
        const int reps = std::atoi(argv[2]);
        switch (std::atoi(argv[1])) {
        case 1:
            w1(y, a, reps);
            break;
        case 2:
            w2(y, a, b, reps);
            break;
        case 3:
            w3(y, a, b, c, d, reps);
            break;
        case 4:
            w4(a, b, reps);
            break;
        default:
            std::fprintf(stderr, "workload 1 to 4\n");
            return 1;
        }
        return 0;
    }
    using Arr = Eigen::Map<Eigen::ArrayXf>;
    Arr ea(a.data(), n), eb(b.data(), n), ec(c.data(), n), ed(d.data(), n), ey(y.data(), n);
    const float s = 0.5f;
    volatile float r = 0;
    const int calls = 200000;
    std::printf("n = %lld floats, 1 thread, ns per call (best of 9 x %d calls)\n", (long long)n,
                calls);
    std::printf("W1 y = x        t7 %7.1f  eigen %7.1f\n", best_ns([&] { w1(y, a, 1); }, calls),
                best_ns([&] { ey = ea; }, calls));
    std::printf("W2 y = a + s*b  t7 %7.1f  eigen %7.1f\n", best_ns([&] { w2(y, a, b, 1); }, calls),
                best_ns([&] { ey = ea + s * eb; }, calls));
    std::printf("W3              t7 %7.1f  eigen %7.1f\n",
                best_ns([&] { w3(y, a, b, c, d, 1); }, calls),
                best_ns([&] { ey = ea * eb + ec * ed - ea / (eb + 1); }, calls));
    std::printf("sum(a*b)        t7 %7.1f  eigen %7.1f\n", best_ns([&] { w4(a, b, 1); }, calls),
                best_ns([&] { r = (ea * eb).sum(); }, calls));
    return 0;
}
