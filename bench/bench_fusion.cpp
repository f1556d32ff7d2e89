// Several outputs in one pass (t7::assign): an Adam optimiser step over n
// floats, updating the moments m, v and the parameters p from the gradient g.
// In the same run: t7::assign (one pass: reads p m v g, writes p m v), the
// three separate fused assignments (three passes), one hand-written loop doing
// all three updates (the practical limit), and Eigen (three Array map
// assignments). Ratios > 1 mean t7::assign is faster. Usage: bench_fusion [reps]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

using t7::FloatTensor;
using Arr = Eigen::Map<Eigen::ArrayXf>;

namespace {

int g_threads = 1;
int g_reps = 5;

// The hand loop's and Eigen's threading: tensor7's static split above its grain.
void split(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
    if (g_threads == 1 || n < 32768) return body(0, n);
#pragma omp parallel for num_threads(g_threads) schedule(static, 1)
    for (int c = 0; c < g_threads; ++c) body(n * c / g_threads, n * (c + 1) / g_threads);
}

FloatTensor filled(int64_t n, float lo, float hi, unsigned seed) {
    FloatTensor t(n);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(x >> 8) / float(1 << 24);
    });
    return t;
}

void adam(int64_t n) {
    // constexpr: not captured by reference, so the hand loop need not reload them
    // after each store (a float store might alias a captured float).
    constexpr float b1 = 0.9f, b2 = 0.999f, lr = 1e-3f, eps = 1e-8f;
    FloatTensor p = filled(n, -1, 1, 1), m = filled(n, -0.1f, 0.1f, 2), v = filled(n, 0, 0.01f, 3),
                g = filled(n, -1, 1, 4);
    float *P = p.data(), *M = m.data(), *V = v.data();
    const float* G = g.data();
    Arr ep(P, n), em(M, n), ev(V, n), eg(const_cast<float*>(G), n);
    using t7::out;

    auto one_pass = [&] {
        t7::assign(out(m) = b1 * m + (1 - b1) * g, out(v) = b2 * v + (1 - b2) * g * g,
                   out(p) = p - lr * (b1 * m + (1 - b1) * g) /
                                    (t7::sqrt(b2 * v + (1 - b2) * g * g) + eps));
    };
    auto three = [&] {
        m = b1 * m + (1 - b1) * g;
        v = b2 * v + (1 - b2) * g * g;
        p = p - lr * m / (t7::sqrt(v) + eps);
    };
    auto hand = [&] {
        split(n, [&](int64_t bg, int64_t e) {
            for (int64_t i = bg; i < e; ++i) {
                const float gi = G[i];
                const float mi = b1 * M[i] + (1 - b1) * gi;
                const float vi = b2 * V[i] + (1 - b2) * gi * gi;
                M[i] = mi;
                V[i] = vi;
                P[i] -= lr * mi / (std::sqrt(vi) + eps);
            }
        });
    };
    auto eigen = [&] {
        split(n, [&](int64_t o, int64_t e) {
            const int64_t k = e - o;
            em.segment(o, k) = b1 * em.segment(o, k) + (1 - b1) * eg.segment(o, k);
            ev.segment(o, k) = b2 * ev.segment(o, k) + (1 - b2) * eg.segment(o, k).square();
            ep.segment(o, k) -= lr * em.segment(o, k) / (ev.segment(o, k).sqrt() + eps);
        });
    };
    const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 22) / n);
    const auto best = bench::race({one_pass, three, hand, eigen}, g_reps, inner);
    const double bytes = 7.0 * 4.0 * double(n); // read p m v g, write p m v
    std::printf("adam n=%-9lld thr=%d  assign %9.3f us  3 assigns %9.3f us  hand %9.3f us  "
                "eigen %9.3f us  3assigns/assign %5.2fx  hand/assign %5.2fx  eigen/assign "
                "%5.2fx  %6.1f GB/s\n",
                (long long)n, g_threads, best[0] * 1e6, best[1] * 1e6, best[2] * 1e6, best[3] * 1e6,
                best[1] / best[0], best[2] / best[0], best[3] / best[0], bytes / best[0] / 1e9);
    bench::keep(P[n / 2]);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_reps = std::max(1, std::atoi(argv[1]));
    std::printf(
        "tensor7 multi-output benchmark (best of %d; ratios = time(other) / time(assign))\n",
        g_reps);
    for (int threads : {1, 2}) {
        g_threads = threads;
        t7::setNumThreads(threads);
        std::printf("\n== %d thread(s) ==\n", threads);
        for (int log2 : {10, 16, 24}) adam(int64_t(1) << log2);
    }
    return 0;
}
