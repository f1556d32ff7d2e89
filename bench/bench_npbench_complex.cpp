// Two NPBench programs on complex numbers (issue 42), ported as a NumPy user ports
// them, beside NumPy's own code (bench/npbench_complex.py, NPBench's numpy
// implementations, run through /usr/bin/python3) in the same run: mandelbrot1
// (500 x 500 points, 100 iterations) and stockham_fft (4^9 points, radix 4). Both
// print checksums (sum |Z| and sum N; sum Re y and sum |y|) beside NumPy's, and
// times at one and two threads. The other three programs of the issue
// (mandelbrot2, contour_integral, scattering_self_energies) are not ported yet.
// ratio = time(NumPy) / time(tensor7): above 1 means tensor7 is faster.
// Usage: bench_npbench_complex [reps=5]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>
#include <string>
#include <utility>

namespace {

using Z = std::complex<double>;
using t7::ComplexDoubleTensor;

// mandelbrot1: C = X + 1j Y[:, None]; while |Z| < horizon: N = n, Z = Z^2 + C
// (NumPy's Z[I] = Z[I]**2 + C[I], fused here as a where()).
std::pair<double, double> mandelbrot1(double xmin, double xmax, double ymin, double ymax,
                                      int64_t xn, int64_t yn, int64_t maxiter,
                                      double horizon = 2.0) {
    const t7::DoubleTensor X = t7::linspace<double>(xmin, xmax, xn);
    const t7::DoubleTensor Y = t7::linspace<double>(ymin, ymax, yn);
    const ComplexDoubleTensor C = t7::complex(X.view(1, xn), Y.view(yn, 1));
    t7::LongTensor N = t7::zeros<int64_t>(yn, xn);
    ComplexDoubleTensor Zt = t7::zeros<Z>(yn, xn);
    t7::ByteTensor I(yn, xn);
    for (int64_t n = 0; n < maxiter; ++n) {
        I = t7::abs(Zt) < horizon;
        N.maskedFill(I, n);
        Zt = t7::where(I, Zt * Zt + C, Zt);
    }
    N.maskedFill(N == maxiter - 1, 0);
    return {t7::sum(t7::abs(Zt)), double(t7::sum(N))};
}

// stockham_fft: NPBench's radix-R Stockham loop, its reshapes and transposes as views.
void stockham_fft(int64_t N, int64_t R, int64_t K, const ComplexDoubleTensor& x,
                  ComplexDoubleTensor& y) {
    auto ipow = [](int64_t b, int64_t e) {
        int64_t r = 1;
        while (e-- > 0) r *= b;
        return r;
    };
    const t7::DoubleTensor i_coord = t7::range<double>(0, double(R - 1)).view(R, 1);
    const t7::DoubleTensor j_coord = t7::range<double>(0, double(R - 1)).view(1, R);
    const Z m2pi(0, -2.0 * std::numbers::pi);
    const ComplexDoubleTensor dft_mat = t7::exp(m2pi * (i_coord * j_coord / double(R)));
    y = x;
    for (int64_t i = 0; i < K; ++i) {
        const int64_t Ri = ipow(R, i), Rrest = ipow(R, K - i - 1);
        const ComplexDoubleTensor tmp_perm = y.view(Ri, R, Rrest).transpose(0, 1);
        const t7::DoubleTensor jj = t7::range<double>(0, double(Ri - 1)).view(1, Ri);
        const ComplexDoubleTensor tmp =
            t7::exp(m2pi * (i_coord * jj / double(ipow(R, i + 1))));        // R x R^i
        const ComplexDoubleTensor tmp_twid = tmp_perm * tmp.view(R, Ri, 1); // broadcast: repeat
        y.view(R, ipow(R, K - 1)) = t7::mm(dft_mat, tmp_twid.view(R, ipow(R, K - 1)));
    }
}

std::map<std::string, std::array<double, 3>> numpy_runs(int reps) {
    const std::string cmd =
        "env -u OPENBLAS_CORETYPE OPENBLAS_NUM_THREADS=1 /usr/bin/python3 " T7_BENCH_DIR
        "/npbench_complex.py " +
        std::to_string(reps) + " 2>/dev/null";
    std::map<std::string, std::array<double, 3>> out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char name[64];
    double t, a, b;
    while (std::fscanf(p, "%63s %lf %lf %lf", name, &t, &a, &b) == 4) out[name] = {t, a, b};
    pclose(p);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    const auto np = numpy_runs(reps);
    std::printf("NPBench complex programs: best of %d; NumPy %s\n\n", reps,
                np.empty() ? "not found" : "1.24 (one thread)");
    std::printf(
        "| program | threads | tensor7 | NumPy | NumPy / t7 | checksums t7 | checksums NumPy |\n"
        "|---|---|---|---|---|---|---|\n");
    const int64_t R = 4, K = 9, NN = 262144;
    ComplexDoubleTensor x(NN), y(NN);
    for (int64_t k = 0; k < NN; ++k)
        x.data()[k] = Z(std::sin(0.37 * double(k)), std::cos(1.3 * double(k)));
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        std::pair<double, double> c;
        double t = bench::best_time(
            [&] { c = mandelbrot1(-2.25, 0.75, -1.25, 1.25, 500, 500, 100); }, reps, 1);
        auto it = np.find("mandelbrot1");
        std::printf(
            "| mandelbrot1 | %d | %.1f ms | %.1f ms | %.2fx | %.10g, %.10g | %.10g, %.10g |\n",
            threads, t * 1e3, it != np.end() ? it->second[0] * 1e3 : 0.0,
            it != np.end() ? it->second[0] / t : 0.0, c.first, c.second,
            it != np.end() ? it->second[1] : 0.0, it != np.end() ? it->second[2] : 0.0);
        t = bench::best_time([&] { stockham_fft(NN, R, K, x, y); }, reps, 1);
        const double s1 = t7::sum(t7::real(y)), s2 = t7::sum(t7::abs(y));
        it = np.find("stockham_fft");
        std::printf(
            "| stockham_fft | %d | %.1f ms | %.1f ms | %.2fx | %.6g, %.10g | %.6g, %.10g |\n",
            threads, t * 1e3, it != np.end() ? it->second[0] * 1e3 : 0.0,
            it != np.end() ? it->second[0] / t : 0.0, s1, s2, it != np.end() ? it->second[1] : 0.0,
            it != np.end() ? it->second[2] : 0.0);
        std::fflush(stdout);
    }
}
