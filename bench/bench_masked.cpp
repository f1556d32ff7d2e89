// Boolean selection benchmarks (issue 33): x[mask] as a value, maskedFill,
// x[mask] = values and nonzero over 2^10, 2^16 and 2^22 doubles with a random
// 50 % ByteTensor mask (and, at 2^22, a mask of long runs), against a
// hand-written loop over the same raw arrays in the same run, and against
// NumPy (run through /usr/bin/python3 when it imports numpy) on the same sizes.
// ratio = time(other) / time(tensor7): above 1 means tensor7 is faster.
// Contenders run in interleaved rounds and keep their best round.
// Usage: bench_masked [rounds] [threads]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using t7::ByteTensor;
using t7::DoubleTensor;
using t7::LongTensor;

namespace {

int g_rounds = 15;

// NumPy's best times (seconds) keyed "op log2n kind", from one python3 run.
std::map<std::string, double> numpy_times(int rounds) {
    const std::string script =
        "import time, numpy as np\n"
        "def best(f, reps):\n"
        "    b = 1e30\n"
        "    for _ in range(reps):\n"
        "        t = time.perf_counter(); f(); b = min(b, time.perf_counter() - t)\n"
        "    return b\n"
        "rng = np.random.default_rng(1)\n"
        "for lg in (10, 16, 22):\n"
        "    n = 1 << lg\n"
        "    x = rng.random(n)\n"
        "    masks = {'random': rng.random(n) < 0.5, 'runs': (np.arange(n) // 4096) % 2 == 0}\n"
        "    for kind, m in masks.items():\n"
        "        if kind == 'runs' and lg != 22: continue\n"
        "        k = int(m.sum()); v = np.arange(k, dtype=np.float64)\n"
        "        reps = " +
        std::to_string(rounds) +
        " * max(1, (1 << 22) // n // 16)\n"
        "        print('select', lg, kind, best(lambda: x[m], reps))\n"
        "        y = x.copy()\n"
        "        def fill(): y[m] = 0.5\n"
        "        print('fill', lg, kind, best(fill, reps))\n"
        "        def assign(): y[m] = v\n"
        "        print('assign', lg, kind, best(assign, reps))\n"
        "        print('nonzero', lg, kind, best(lambda: np.nonzero(m), reps))\n";
    return bench::python_timings(script);
}

void report(const char* what, int lg, const char* kind, double t7, double hand,
            const std::map<std::string, double>& np, const char* npkey) {
    std::printf("| %s | 2^%d | %s | %.3f ms | %.3f ms | %.2fx |", what, lg, kind, t7 * 1e3,
                hand * 1e3, hand / t7);
    const auto it = np.find(std::string(npkey) + " " + std::to_string(lg) + " " + kind);
    if (it != np.end())
        std::printf(" %.3f ms | %.2fx |\n", it->second * 1e3, it->second / t7);
    else
        std::printf(" - | - |\n");
}

void run(int lg, const char* kind, const std::map<std::string, double>& np) {
    const int64_t n = int64_t(1) << lg;
    DoubleTensor x(n);
    ByteTensor mask(n);
    std::mt19937_64 g(1);
    std::uniform_real_distribution<double> u(0, 1);
    double* X = x.data();
    uint8_t* M = mask.data();
    for (int64_t i = 0; i < n; ++i) {
        X[i] = u(g);
        M[i] =
            std::strcmp(kind, "random") == 0 ? uint8_t(u(g) < 0.5) : uint8_t((i / 4096) % 2 == 0);
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) k += M[i] != 0;
    // repetitions per timed round: about 4M elements' work
    const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 22) / n / 16);

    // x[mask] as a new tensor; the hand loop also allocates its result
    auto hand_select = [&] {
        int64_t c = 0;
        for (int64_t i = 0; i < n; ++i) c += M[i] != 0;
        std::unique_ptr<double[]> o(new double[size_t(c) + 1]);
        double* O = o.get();
        int64_t j = 0;
        for (int64_t i = 0; i < n; ++i) { // branch-free
            O[j] = X[i];
            j += M[i] != 0;
        }
        bench::keep(o);
    };
    auto t =
        bench::race({[&] { bench::keep(DoubleTensor(x[mask])); }, hand_select}, g_rounds, inner);
    report("`DoubleTensor y = x[mask]`", lg, kind, t[0], t[1], np, "select");

    DoubleTensor y = x.clone();
    double* Y = y.data();
    t = bench::race({[&] { y.maskedFill(mask, 0.5); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) Y[i] = M[i] ? 0.5 : Y[i];
                     }},
                    g_rounds, inner);
    report("`y.maskedFill(mask, 0.5)`", lg, kind, t[0], t[1], np, "fill");

    DoubleTensor v(k + 1); // one more for the hand loop's branch-free read
    for (int64_t i = 0; i < v.nElement(); ++i) v.data()[i] = double(i);
    const double* V = v.data();
    DoubleTensor vk = v.narrow(0, 0, std::max<int64_t>(k, 1));
    t = bench::race({[&] { y[mask] = vk; },
                     [&] {
                         int64_t j = 0;
                         for (int64_t i = 0; i < n; ++i) { // branch-free
                             const double a = V[j];
                             Y[i] = M[i] ? a : Y[i];
                             j += M[i] != 0;
                         }
                     }},
                    g_rounds, inner);
    report("`y[mask] = values`", lg, kind, t[0], t[1], np, "assign");

    auto hand_nonzero = [&] {
        int64_t c = 0;
        for (int64_t i = 0; i < n; ++i) c += M[i] != 0;
        std::unique_ptr<int64_t[]> o(new int64_t[size_t(c) + 1]);
        int64_t* O = o.get();
        int64_t j = 0;
        for (int64_t i = 0; i < n; ++i) { // branch-free
            O[j] = i;
            j += M[i] != 0;
        }
        bench::keep(o);
    };
    t = bench::race({[&] { bench::keep(mask.nonzero()); }, hand_nonzero}, g_rounds, inner);
    report("`mask.nonzero()`", lg, kind, t[0], t[1], np, "nonzero");
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_rounds = std::max(1, std::atoi(argv[1]));
    const int threads = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
    t7::setNumThreads(threads);
    const auto np = numpy_times(g_rounds);
    std::printf("tensor7 boolean selection, doubles, %d thread(s), best of %d interleaved rounds; "
                "ratio = time(other) / time(t7)%s\n\n",
                threads, g_rounds, np.empty() ? " (NumPy not found)" : "");
    std::printf("| workload | n | mask | tensor7 | hand loop | ratio | NumPy | ratio |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (int lg : {10, 16, 22}) run(lg, "random", np);
    run(22, "runs", np);
    return 0;
}
