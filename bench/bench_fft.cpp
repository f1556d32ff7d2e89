// Fourier transforms (issue 42) against NumPy 1.24's numpy.fft (pocketfft, which
// computes in double whatever the input) in the same run, one thread: 1-D complex
// (fft) and real (rfft) transforms of 2^10, 2^16 and 2^20 points and of 99991 (a
// prime: Bluestein's algorithm), and 2-D transforms of 1024 x 1024 (fft2 of
// complex, rfftn of real values), float and double. tensor7 twice: the value form
// (a new result each call, as NumPy) and the into-result form (the same result
// tensor every call). Built twice: bench_fft (the default backend, Eigen's FFT
// module) and, when FFTW3 is installed, bench_fft_fftw (-DT7_FFTW=1).
// ratio = time(NumPy) / time(tensor7): above 1 means tensor7 is faster.
// Usage: bench_fft [rounds]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

int g_rounds = 7;

#if T7_FFTW
const char* backend() { return "FFTW3 (-Dfftw=true)"; }
#else
const char* backend() { return "Eigen's FFT module (default)"; }
#endif

// NumPy's best times keyed "kind dtype size".
std::map<std::string, double> numpy_times(int rounds) {
    const std::string script =
        "import time, numpy as np\n"
        "def best(f, reps):\n"
        "    f(); b = 1e30\n"
        "    for _ in range(reps):\n"
        "        t = time.perf_counter(); f(); b = min(b, time.perf_counter() - t)\n"
        "    return b\n"
        "for dt, ct in (('float32', 'complex64'), ('float64', 'complex128')):\n"
        "    for n in (1024, 65536, 1048576, 99991):\n"
        "        k = np.arange(n)\n"
        "        x = np.sin(0.37 * k).astype(dt)\n"
        "        z = (x + 1j * np.cos(1.3 * k)).astype(ct)\n"
        "        reps = " +
        std::to_string(rounds) +
        " * max(1, (1 << 18) // n)\n"
        "        print('fft', dt, n, best(lambda: np.fft.fft(z), reps))\n"
        "        print('rfft', dt, n, best(lambda: np.fft.rfft(x), reps))\n"
        "    k = np.arange(1024 * 1024).reshape(1024, 1024)\n"
        "    x = np.sin(0.37 * k).astype(dt)\n"
        "    z = (x + 1j * np.cos(1.3 * k)).astype(ct)\n"
        "    print('fft2', dt, 1024, best(lambda: np.fft.fft2(z), " +
        std::to_string(rounds) +
        "))\n"
        "    print('rfftn', dt, 1024, best(lambda: np.fft.rfftn(x), " +
        std::to_string(rounds) + "))\n";
    return bench::python_timings(script);
}

void row(const char* kind, const char* dt, const std::string& size, double value, double into,
         const std::map<std::string, double>& np, const std::string& key) {
    std::printf("| %s | %s | %s | %.1f us | %.1f us |", kind, dt, size.c_str(), value * 1e6,
                into * 1e6);
    const auto it = np.find(key);
    if (it != np.end())
        std::printf(" %.1f us | %.2fx | %.2fx |\n", it->second * 1e6, it->second / value,
                    it->second / into);
    else
        std::printf(" - | - | - |\n");
}

template <class R>
void run(const std::map<std::string, double>& np) {
    using C = std::complex<R>;
    const char* dt = sizeof(R) == 4 ? "float32" : "float64";
    for (int64_t n : {int64_t(1024), int64_t(65536), int64_t(1048576), int64_t(99991)}) {
        t7::Tensor<R> x(n);
        t7::Tensor<C> z(n), out;
        for (int64_t k = 0; k < n; ++k) {
            x.data()[k] = R(std::sin(0.37 * double(k)));
            z.data()[k] = C(x.data()[k], R(std::cos(1.3 * double(k))));
        }
        const int64_t inner = std::max<int64_t>(1, (int64_t(1) << 18) / n);
        const std::string key = std::string(dt) + " " + std::to_string(n);
        auto t = bench::race({[&] { bench::keep(t7::fft(z)); }, [&] { t7::fft(out, z); }}, g_rounds,
                             inner);
        row("fft", dt, std::to_string(n), t[0], t[1], np, "fft " + key);
        t7::Tensor<C> half;
        t = bench::race({[&] { bench::keep(t7::rfft(x)); }, [&] { t7::rfft(half, x); }}, g_rounds,
                        inner);
        row("rfft", dt, std::to_string(n), t[0], t[1], np, "rfft " + key);
    }
    t7::Tensor<R> x(1024, 1024);
    t7::Tensor<C> z(1024, 1024), out, half;
    for (int64_t k = 0; k < 1024 * 1024; ++k) {
        x.data()[k] = R(std::sin(0.37 * double(k)));
        z.data()[k] = C(x.data()[k], R(std::cos(1.3 * double(k))));
    }
    const std::string key = std::string(dt) + " 1024";
    auto t = bench::race({[&] { bench::keep(t7::fft2(z)); },
                          [&] {
                              t7::fft2(out, z, {-2, -1});
                          }},
                         g_rounds);
    row("fft2", dt, "1024^2", t[0], t[1], np, "fft2 " + key);
    t = bench::race({[&] { bench::keep(t7::rfftn(x)); }, [&] { t7::rfftn(half, x, {}); }},
                    g_rounds);
    row("rfftn", dt, "1024^2", t[0], t[1], np, "rfftn " + key);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_rounds = std::atoi(argv[1]);
    t7::setNumThreads(1);
    const auto np = numpy_times(g_rounds);
    std::printf("tensor7 %s, FFT backend: %s, rounds %d; NumPy %s\n\n", t7::version().c_str(),
                backend(), g_rounds, np.empty() ? "not found" : "1.24 numpy.fft (pocketfft)");
    std::printf("| transform | dtype | n | tensor7 | tensor7 into | NumPy | NumPy / t7 | "
                "NumPy / t7 into |\n|---|---|---|---|---|---|---|---|\n");
    run<float>(np);
    run<double>(np);
}
