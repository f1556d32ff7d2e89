// Reversed operands (issue 41): a fused expression reading a view reversed by
// flip (a negative stride) against the same expression on the forward view,
// at 2^10, 2^16 and 2^24 elements, float and double, one and two threads, with
// a hand-written loop (forward, and reading backwards) and Eigen's .reverse()
// in the same rounds. Two shapes of reversal:
//   rev-src  y = 2 * flip(a) + b   (one operand against the destination: read
//                                   in reversed packets)
//   rev-all  flip(y) = 2 * flip(a) + flip(b)   (every operand reversed: walked
//                                   forwards, the loop of the forward case)
// Ratios are time / forward tensor7 time (<= 1.10 is the target).
// Usage: bench_reversed [rounds]
#include <t7/t7.hpp>

#include "timing.hpp"

#include <Eigen/Core>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

template <class T>
void run(int64_t n, int threads, int rounds) {
    t7::setNumThreads(threads);
    using V = Eigen::Array<T, Eigen::Dynamic, 1>;
    t7::Tensor<T> a(n), b(n), y(n);
    a.uniform(-1, 1);
    b.uniform(-1, 1);
    y.zero();
    const t7::Tensor<T> ra = a.flip({0}), rb = b.flip({0});
    t7::Tensor<T> ry = y.flip({0}); // a handle on y's memory, reversed
    Eigen::Map<V> ea(a.data(), n), eb(b.data(), n), ey(y.data(), n);
    T *pa = a.data(), *pb = b.data(), *py = y.data();
    const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 22) / n);
    const std::vector<double> t = bench::race(
        {[&] { y = T(2) * a + b; }, [&] { y = T(2) * ra + b; }, [&] { ry = T(2) * ra + rb; },
         [&] {
             for (int64_t i = 0; i < n; ++i) py[i] = T(2) * pa[i] + pb[i];
             bench::keep(py);
         },
         [&] {
             for (int64_t i = 0; i < n; ++i) py[i] = T(2) * pa[n - 1 - i] + pb[i];
             bench::keep(py);
         },
         [&] { ey = T(2) * ea.reverse() + eb; }},
        rounds, inner, std::chrono::milliseconds(threads > 1 ? 30 : 0));
    std::printf("%-6s %9lld %2d  fwd %9.2f us  rev-src %5.2f  rev-all %5.2f  hand-fwd %5.2f  "
                "hand-rev %5.2f  eigen-rev %5.2f\n",
                sizeof(T) == 4 ? "float" : "double", static_cast<long long>(n), threads, t[0] * 1e6,
                t[1] / t[0], t[2] / t[0], t[3] / t[0], t[4] / t[0], t[5] / t[0]);
}

} // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
    std::printf("bench_reversed: time of the forward tensor7 expression, and each other "
                "contender's time / that (best of %d interleaved rounds)\n",
                rounds);
    for (int threads : {1, 2})
        for (int64_t n : {int64_t(1) << 10, int64_t(1) << 16, int64_t(1) << 24}) {
            run<float>(n, threads, rounds);
            run<double>(n, threads, rounds);
        }
}
