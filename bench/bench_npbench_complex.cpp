// The five NPBench programs on complex numbers (issue 42), ported as a NumPy user
// ports them, beside NumPy's own code (bench/npbench_complex.py, NPBench's numpy
// implementations, run through /usr/bin/python3) in the same run: mandelbrot1
// (500 x 500 points, 100 iterations), mandelbrot2 (500 x 500, 80 iterations, the
// points still iterating compacted each step), contour_integral (NR 200, NM 400, 32
// points: a complex solve each), scattering_self_energies (NPBench's "M" sizes: loops of
// 4 x 4 complex products) and stockham_fft (4^9 points, radix 4). Each prints
// checksums beside NumPy's, and times at one and two threads. Inputs are formulas both
// sides compute (npbench_complex.py: filled), complex128.
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

// mandelbrot2: the points still iterating are compacted each step (NumPy's Z = Z[I]),
// their flat indices F = Xi * yn + Yi kept beside them (NumPy's Xi, Yi).
std::pair<double, double> mandelbrot2(double xmin, double xmax, double ymin, double ymax,
                                      int64_t xn, int64_t yn, int64_t itermax,
                                      double horizon = 2.0) {
    const t7::DoubleTensor X = t7::linspace<double>(xmin, xmax, xn);
    const t7::DoubleTensor Y = t7::linspace<double>(ymin, ymax, yn);
    ComplexDoubleTensor C = t7::eval(t7::complex(X.view(xn, 1), Y.view(1, yn))).view(xn * yn);
    t7::LongTensor N_ = t7::zeros<int64_t>(xn * yn);
    ComplexDoubleTensor Z_ = t7::zeros<Z>(xn * yn);
    t7::LongTensor F = t7::range<int64_t>(0, xn * yn - 1);
    ComplexDoubleTensor Zt = t7::zeros<Z>(xn * yn);
    for (int64_t i = 0; i < itermax; ++i) {
        if (Zt.nElement() == 0) break;
        Zt = Zt * Zt + C;
        const t7::ByteTensor I = t7::abs(Zt) > horizon;
        const t7::LongTensor out = F[I];
        N_.indexFill(0, out, i + 1);
        Z_.indexCopy(0, out, Zt[I]);
        const t7::ByteTensor keep = I == 0; // rebinding (set), as NumPy's Z = Z[I]
        Zt.set(Zt.maskedSelect(keep));
        F.set(F.maskedSelect(keep));
        C.set(C.maskedSelect(keep));
    }
    const ComplexDoubleTensor Zo = Z_.view(xn, yn).t();
    const t7::LongTensor No = N_.view(xn, yn).t();
    return {t7::sum(t7::abs(Zo)), double(t7::sum(No))};
}

// Element k (row-major) of shape is f(k) + i f(k + 1/2): npbench_complex.py's filled.
template <class F>
ComplexDoubleTensor filled(t7::Shape shape, F f) {
    ComplexDoubleTensor t(shape);
    Z* p = t.data();
    for (int64_t k = 0; k < t.nElement(); ++k) p[k] = Z(f(double(k)), f(double(k) + 0.5));
    return t;
}

struct ContourInputs {
    int64_t NR = 200, NM = 400, slab_per_bc = 2, num_int_pts = 32;
    ComplexDoubleTensor Ham, int_pts, Y;
    ContourInputs() {
        Ham = filled({slab_per_bc + 1, NR, NR}, [](double k) { return std::sin(0.7 * k); });
        for (int64_t n = 0; n <= slab_per_bc; ++n) // solvable (the formula's matrices have rank 2)
            for (int64_t i = 0; i < NR; ++i) Ham(n, i, i) += 4.0;
        int_pts = filled({num_int_pts}, [](double k) { return 0.6 + 0.5 * std::cos(1.9 * k); });
        Y = filled({NR, NM}, [](double k) { return std::cos(0.3 * k); });
    }
};

// contour_integral: P0 = sum of the solutions X of T(z) X = Y, P1 = sum of z X.
std::pair<double, double> contour_integral(const ContourInputs& in) {
    ComplexDoubleTensor P0 = t7::zeros<Z>(in.NR, in.NM), P1 = t7::zeros<Z>(in.NR, in.NM);
    ComplexDoubleTensor Tz(in.NR, in.NR);
    for (int64_t p = 0; p < in.num_int_pts; ++p) {
        const Z z = in.int_pts(p);
        Tz.zero();
        for (int64_t n = 0; n <= in.slab_per_bc; ++n)
            Tz += std::pow(z, double(in.slab_per_bc) / 2 - double(n)) * in.Ham[n];
        ComplexDoubleTensor X = in.NR == in.NM ? t7::inverse(Tz) : t7::gesv(in.Y, Tz).solution;
        if (std::abs(z) < 1.0) X = -X;
        P0 += X;
        P1 += z * X;
    }
    return {t7::sum(t7::abs(P0)), t7::sum(t7::abs(P1))};
}

struct ScatteringInputs {
    int64_t Nkz = 3, NE = 5, Nqz = 3, Nw = 2, N3D = 2, NA = 10, NB = 3, Norb = 4;
    t7::IntTensor neigh_idx;
    ComplexDoubleTensor dH, G, D;
    ScatteringInputs() : neigh_idx(NA, NB) {
        for (int64_t i = 0; i < NA; ++i) // NumPy's (i - NB/2 + b) % NA, of floats
            for (int64_t b = 0; b < NB; ++b) {
                const double v = std::fmod(double(i) - double(NB) / 2 + double(b), double(NA));
                neigh_idx(i, b) = int32_t(v < 0 ? v + double(NA) : v);
            }
        dH = filled({NA, NB, N3D, Norb, Norb}, [](double k) { return std::sin(0.11 * k); });
        G = filled({Nkz, NE, NA, Norb, Norb}, [](double k) { return std::cos(0.13 * k); });
        D = filled({Nqz, Nw, NA, NB, N3D, N3D}, [](double k) { return std::sin(0.17 * k + 1.0); });
    }
};

// scattering_self_energies: NumPy's eight loops, each step two small products.
std::pair<double, double> scattering_self_energies(const ScatteringInputs& in) {
    ComplexDoubleTensor Sigma = t7::zeros<Z>(in.Nkz, in.NE, in.NA, in.Norb, in.Norb);
    for (int64_t k = 0; k < in.Nkz; ++k)
        for (int64_t E = 0; E < in.NE; ++E)
            for (int64_t q = 0; q < in.Nqz; ++q)
                for (int64_t w = 0; w < in.Nw; ++w)
                    for (int64_t i = 0; i < in.N3D; ++i)
                        for (int64_t j = 0; j < in.N3D; ++j)
                            for (int64_t a = 0; a < in.NA; ++a)
                                for (int64_t b = 0; b < in.NB; ++b)
                                    if (E - w >= 0) {
                                        const auto dHG = t7::mm(in.G[k][E - w][in.neigh_idx(a, b)],
                                                                in.dH[a][b][i]);
                                        const Z d = in.D(q, w, a, b, i, j);
                                        Sigma[k][E][a] += t7::mm(dHG, in.dH[a][b][j] * d);
                                    }
    return {t7::sum(t7::real(Sigma)), t7::sum(t7::abs(Sigma))};
}

// stockham_fft: NPBench's radix-R Stockham loop, its reshapes and transposes as views.
void stockham_fft([[maybe_unused]] int64_t N, int64_t R, int64_t K, const ComplexDoubleTensor& x,
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
    // One row: times and the two checksums beside NumPy's.
    auto row = [&](const char* name, int threads, double t, std::pair<double, double> c) {
        const auto it = np.find(name);
        const bool has = it != np.end();
        std::printf("| %s | %d | %.2f ms | %.2f ms | %.2fx | %.10g, %.10g | %.10g, %.10g |\n", name,
                    threads, t * 1e3, has ? it->second[0] * 1e3 : 0.0,
                    has ? it->second[0] / t : 0.0, c.first, c.second, has ? it->second[1] : 0.0,
                    has ? it->second[2] : 0.0);
        std::fflush(stdout);
    };
    const int64_t R = 4, K = 9, NN = 262144;
    ComplexDoubleTensor x(NN), y(NN);
    for (int64_t k = 0; k < NN; ++k)
        x.data()[k] = Z(std::sin(0.37 * double(k)), std::cos(1.3 * double(k)));
    const ContourInputs contour;
    const ScatteringInputs scattering;
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        std::pair<double, double> c;
        double t = bench::best_time(
            [&] { c = mandelbrot1(-2.25, 0.75, -1.25, 1.25, 500, 500, 100); }, reps, 1);
        row("mandelbrot1", threads, t, c);
        t = bench::best_time([&] { c = mandelbrot2(-2.0, 0.5, -1.25, 1.25, 500, 500, 80); }, reps,
                             1);
        row("mandelbrot2", threads, t, c);
        t = bench::best_time([&] { c = contour_integral(contour); }, reps, 1);
        row("contour_integral", threads, t, c);
        t = bench::best_time([&] { c = scattering_self_energies(scattering); }, reps, 1);
        row("scattering_self_energies", threads, t, c);
        t = bench::best_time([&] { stockham_fft(NN, R, K, x, y); }, reps, 1);
        row("stockham_fft", threads, t, {t7::sum(t7::real(y)), t7::sum(t7::abs(y))});
    }
}
