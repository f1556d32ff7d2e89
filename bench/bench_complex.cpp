// Complex arithmetic (issue 42): w = z * z + c, exp, abs, sin, log, sqrt, tanh of z
// and w = z * c on complex64 and complex128 at 2^10, 2^16, 2^20 and 2^24 elements,
// against a hand-written loop over the same arrays (std::complex), Eigen's arrays (the
// same expressions on Map<ArrayXc>), and NumPy 1.24 (run through /usr/bin/python3 when
// it imports numpy; each expression as a NumPy user writes it). "memory" compares
// w = z * z + c (reads 2n, writes n elements) with a copy moving the same bytes
// (y = x of 1.5n elements: tensor7's copy, a memcpy): time(copy) / time(expression),
// 1.00 meaning at copy speed.
// ratio = time(other) / time(tensor7): above 1 means tensor7 is faster.
// Usage: bench_complex [rounds] [threads]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

int g_rounds = 9;

// NumPy's best times (seconds) keyed "op dtype log2n".
std::map<std::string, double> numpy_times(int rounds) {
    const std::string script =
        "import time, numpy as np\n"
        "def best(f, reps):\n"
        "    f(); b = 1e30\n"
        "    for _ in range(reps):\n"
        "        t = time.perf_counter(); f(); "
        "b = min(b, time.perf_counter() - t)\n"
        "    return b\n"
        "for dt in ('complex64', 'complex128'):\n"
        "    for lg in (10, 16, 20, 24):\n"
        "        n = 1 << lg\n"
        "        k = np.arange(n)\n"
        "        z = (np.sin(k) * 0.5 + 1j * np.cos(0.7 * k) * 0.5).astype(dt)\n"
        "        c = (0.25 - 0.5j + 0.001 * k).astype(dt)\n"
        "        reps = " +
        std::to_string(rounds) +
        " * max(1, (1 << 20) // n)\n"
        "        print('zzc', dt, lg, best(lambda: z * z + c, reps))\n"
        "        print('exp', dt, lg, best(lambda: np.exp(z), reps))\n"
        "        print('abs', dt, lg, best(lambda: np.abs(z), reps))\n"
        "        print('sin', dt, lg, best(lambda: np.sin(z), reps))\n"
        "        print('log', dt, lg, best(lambda: np.log(z), reps))\n"
        "        print('sqrt', dt, lg, best(lambda: np.sqrt(z), reps))\n"
        "        print('tanh', dt, lg, best(lambda: np.tanh(z), reps))\n"
        "        print('mul', dt, lg, best(lambda: z * c, reps))\n";
    return bench::python_timings(script);
}

void row(const char* what, const char* dt, int lg, int threads, double t7, double hand,
         double eigen, const std::map<std::string, double>& np, const char* key) {
    std::printf("| `%s` | %s | 2^%d | %d | %.1f us | %.2fx | %.2fx |", what, dt, lg, threads,
                t7 * 1e6, hand / t7, eigen / t7);
    const auto it = np.find(std::string(key) + " " + dt + " " + std::to_string(lg));
    if (it != np.end())
        std::printf(" %.1f us | %.2fx |\n", it->second * 1e6, it->second / t7);
    else
        std::printf(" - | - |\n");
}

template <class R>
void run(int lg, int threads, const std::map<std::string, double>& np) {
    using C = std::complex<R>;
    using A = Eigen::Array<C, Eigen::Dynamic, 1>;
    using RA = Eigen::Array<R, Eigen::Dynamic, 1>;
    const char* dt = sizeof(R) == 4 ? "complex64" : "complex128";
    const int64_t n = int64_t(1) << lg;
    t7::Tensor<C> z(n), c(n), w(n);
    t7::Tensor<R> r(n);
    C *Z = z.data(), *Cc = c.data(), *W = w.data();
    R* Rr = r.data();
    for (int64_t i = 0; i < n; ++i) {
        Z[i] = C(R(std::sin(double(i)) * 0.5), R(std::cos(0.7 * double(i)) * 0.5));
        Cc[i] = C(R(0.25 + 0.001 * double(i)), R(-0.5));
    }
    Eigen::Map<A> ez(Z, n), ec(Cc, n), ew(W, n);
    Eigen::Map<RA> er(Rr, n);
    const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 20) / n);
    t7::Tensor<C> x15(n + n / 2), y15(n + n / 2); // 3n elements moved, as z * z + c
    x15.fill(C(1, 2));

    auto t = bench::race({[&] { w = z * z + c; },
                          [&] {
                              for (int64_t i = 0; i < n; ++i) W[i] = Z[i] * Z[i] + Cc[i];
                          },
                          [&] { ew = ez * ez + ec; }, [&] { y15 = x15; }},
                         g_rounds, inner);
    row("w = z * z + c", dt, lg, threads, t[0], t[1], t[2], np, "zzc");
    const double bytes = 3.0 * double(n) * sizeof(C);
    std::printf("| memory: `w = z * z + c` at %.1f GB/s, a copy of the same bytes at %.1f GB/s "
                "| %s | 2^%d | %d | %.2f of copy speed |\n",
                bytes / t[0] * 1e-9, bytes / t[3] * 1e-9, dt, lg, threads, t[3] / t[0]);
    t = bench::race({[&] { w = t7::exp(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = std::exp(Z[i]);
                     },
                     [&] { ew = ez.exp(); }},
                    g_rounds, inner);
    row("w = exp(z)", dt, lg, threads, t[0], t[1], t[2], np, "exp");
    t = bench::race({[&] { r = t7::abs(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) Rr[i] = std::abs(Z[i]);
                     },
                     [&] { er = ez.abs(); }},
                    g_rounds, inner);
    row("r = abs(z)", dt, lg, threads, t[0], t[1], t[2], np, "abs");
    t = bench::race({[&] { w = t7::sin(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = std::sin(Z[i]);
                     },
                     [&] { ew = ez.sin(); }},
                    g_rounds, inner);
    row("w = sin(z)", dt, lg, threads, t[0], t[1], t[2], np, "sin");
    t = bench::race({[&] { w = t7::log(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = std::log(Z[i]);
                     },
                     [&] { ew = ez.log(); }},
                    g_rounds, inner);
    row("w = log(z)", dt, lg, threads, t[0], t[1], t[2], np, "log");
    t = bench::race({[&] { w = t7::sqrt(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = std::sqrt(Z[i]);
                     },
                     [&] { ew = ez.sqrt(); }},
                    g_rounds, inner);
    row("w = sqrt(z)", dt, lg, threads, t[0], t[1], t[2], np, "sqrt");
    t = bench::race({[&] { w = t7::tanh(z); },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = std::tanh(Z[i]);
                     },
                     [&] { ew = ez.tanh(); }},
                    g_rounds, inner);
    row("w = tanh(z)", dt, lg, threads, t[0], t[1], t[2], np, "tanh");
    t = bench::race({[&] { w = z * c; },
                     [&] {
                         for (int64_t i = 0; i < n; ++i) W[i] = Z[i] * Cc[i];
                     },
                     [&] { ew = ez * ec; }},
                    g_rounds, inner);
    row("w = z * c", dt, lg, threads, t[0], t[1], t[2], np, "mul");
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_rounds = std::atoi(argv[1]);
    const int max_threads = argc > 2 ? std::atoi(argv[2]) : 2;
    const auto np = numpy_times(g_rounds);
    std::printf("tensor7 %s, rounds %d; NumPy %s\n\n", t7::version().c_str(), g_rounds,
                np.empty() ? "not found" : "1.24 (one thread)");
    std::printf("| expression | dtype | n | threads | tensor7 | hand loop / t7 | Eigen / t7 | "
                "NumPy | NumPy / t7 |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int threads = 1; threads <= max_threads; ++threads) {
        t7::setNumThreads(threads);
        for (int lg : {10, 16, 20, 24}) {
            run<float>(lg, threads, np);
            run<double>(lg, threads, np);
        }
    }
}
