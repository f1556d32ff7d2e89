// The workload suite (issue 33): programs written as a NumPy user writes them
// (stencils on views, a great-circle distance, an n-body step with broadcasting
// and powers, a radial histogram by masks, softmax, an MLP layer, a
// covariance), each timed at 1 and 2 threads, on the machine as it is
// ("quiet") and with two busy sibling processes, beside their NumPy twins
// (bench/workloads_numpy.py, run with the same number of BLAS threads) when
// /usr/bin/python3 has numpy. Checksums of both are compared.
// Usage: bench_workloads [reps=7]
#include "busy_siblings.hpp"
#include "timing.hpp"

#include <t7/t7.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using t7::DoubleTensor;
using t7::FloatTensor;
using t7::slice;

template <class T>
t7::Tensor<T> seq(int64_t n, double lo, double hi) {
    t7::Tensor<T> x(n);
    for (int64_t i = 0; i < n; ++i) {
        const double f = double(i) * 0.6180339887498949;
        x.data()[i] = T(lo + (hi - lo) * (f - std::floor(f)));
    }
    return x;
}

struct Workload {
    std::string name;
    std::function<std::function<double()>()> make; // set-up, returning one run (its checksum)
};

// Each run returns the sum of its result, the checksum printed beside NumPy's.
const std::vector<Workload> workloads = {
    {"stencil1d",
     [] {
         auto x = seq<double>(1 << 22, -1, 1);
         auto y = t7::eval(x);
         return [=]() mutable {
             y(slice(1, -1)) = 0.25 * x(slice(0, -2)) + 0.5 * x(slice(1, -1)) + 0.25 * x(slice(2));
             return t7::sum(y);
         };
     }},
    {"jacobi2d",
     [] {
         auto u = seq<double>(1024 * 1024, 0, 1).view(1024, 1024);
         auto v = t7::eval(u);
         return [=]() mutable {
             v(slice(1, -1), slice(1, -1)) =
                 0.25 * (u(slice(0, -2), slice(1, -1)) + u(slice(2), slice(1, -1)) +
                         u(slice(1, -1), slice(0, -2)) + u(slice(1, -1), slice(2)));
             return t7::sum(v);
         };
     }},
    {"stencil3d",
     [] {
         const int64_t n = 96;
         auto u = seq<float>(n * n * n, 0, 1).view(n, n, n);
         auto v = t7::eval(u);
         return [=]() mutable {
             const slice in(1, -1), lo(0, -2), hi(2);
             v(in, in, in) = (1.0f / 6.0f) * (u(lo, in, in) + u(hi, in, in) + u(in, lo, in) +
                                              u(in, hi, in) + u(in, in, lo) + u(in, in, hi));
             return t7::sum(v);
         };
     }},
    {"great_circle",
     [] {
         const int64_t n = 1 << 20;
         auto lat = seq<double>(n, -1.5, 1.5);
         auto fwd = seq<double>(n, -3.1, 3.1);
         DoubleTensor lon(n);
         for (int64_t i = 0; i < n; ++i) lon.data()[i] = fwd.data()[n - 1 - i]; // [::-1]
         DoubleTensor d(n);
         const double lat0 = 0.7, lon0 = -1.2;
         return [=]() mutable {
             auto a = t7::square(t7::sin((lat - lat0) / 2)) +
                      t7::cos(lat) * std::cos(lat0) * t7::square(t7::sin((lon - lon0) / 2));
             d = 2 * 6371.0 * t7::atan2(t7::sqrt(a), t7::sqrt(1 - a));
             return t7::sum(d);
         };
     }},
    {"nbody",
     [] {
         const int64_t n = 1000;
         auto pos = seq<double>(3 * n, -1, 1).view(n, 3);
         auto mass = seq<double>(n, 0.5, 1.5).view(n, 1);
         DoubleTensor dx(n, n), dy(n, n), dz(n, n), inv(n, n), acc(n, 3);
         return [=]() mutable {
             auto x = pos(t7::all, slice(0, 1)), y = pos(t7::all, slice(1, 2)),
                  z = pos(t7::all, slice(2, 3));
             dx = x.t() - x;
             dy = y.t() - y;
             dz = z.t() - z;
             inv = t7::pow(t7::square(dx) + t7::square(dy) + t7::square(dz) + 0.01, -1.5);
             acc(t7::all, slice(0, 1)) = t7::mm(dx * inv, mass);
             acc(t7::all, slice(1, 2)) = t7::mm(dy * inv, mass);
             acc(t7::all, slice(2, 3)) = t7::mm(dz * inv, mass);
             return t7::sum(acc);
         };
     }},
    {"radial_histogram",
     [] {
         const int64_t n = 1024;
         auto img = seq<double>(n * n, 0, 1).view(n, n);
         DoubleTensor r(n, n);
         auto idx = t7::range<double>(0, double(n - 1));
         r = t7::sqrt(t7::square(idx.view(1, n) - n / 2.0) + t7::square(idx.view(n, 1) - n / 2.0));
         const int nbins = 16;
         const double width = t7::max(r) / nbins;
         DoubleTensor out(nbins);
         return [=]() mutable {
             for (int b = 0; b < nbins; ++b) {
                 DoubleTensor sel = img[(r >= b * width) & (r < (b + 1) * width)];
                 out(b) = t7::mean(sel);
             }
             return t7::sum(out);
         };
     }},
    {"softmax",
     [] {
         auto x = seq<float>(1024 * 1024, -5, 5).view(1024, 1024);
         FloatTensor e(1024, 1024), y(1024, 1024);
         return [=]() mutable {
             e = t7::exp(x - t7::max(x, 1).values);
             y = e / t7::sum(e, 1);
             return t7::sum(y);
         };
     }},
    {"mlp",
     [] {
         auto x = seq<float>(512 * 1024, -1, 1).view(512, 1024);
         auto w = seq<float>(1024 * 512, -0.05, 0.05).view(1024, 512);
         auto b = seq<float>(512, -0.1, 0.1);
         FloatTensor y(512, 512);
         return [=]() mutable {
             y = t7::cmax(t7::mm(x, w) + b, 0.0f);
             return t7::sum(y);
         };
     }},
    {"covariance",
     [] {
         auto x = seq<double>(4096 * 256, -1, 1).view(4096, 256);
         DoubleTensor xc(4096, 256), c(256, 256);
         return [=]() mutable {
             xc = x - t7::mean(x, 0);
             c = t7::mm(xc.t(), xc) / double(x.size(0) - 1);
             return t7::sum(c);
         };
     }},
};

struct NumpyResult {
    double seconds, checksum;
};

std::map<std::string, NumpyResult> numpy_times(int threads, int reps) {
    const std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=" +
                            std::to_string(threads) +
                            " OMP_NUM_THREADS=" + std::to_string(threads) +
                            " /usr/bin/python3 " T7_BENCH_DIR "/workloads_numpy.py " +
                            std::to_string(reps) + " 2>/dev/null";
    std::map<std::string, NumpyResult> out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char name[64];
    double t, c;
    while (std::fscanf(p, "%63s %lf %lf", name, &t, &c) == 3) out[name] = {t, c};
    pclose(p);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
    std::printf("workloads: best of %d, ms; np/t7 > 1: tensor7 faster\n", reps);
    std::printf("%-17s %-5s %3s %9s %9s %7s %7s %s\n", "workload", "load", "thr", "t7", "numpy",
                "np/t7", "2t/1t", "checksums t7 | numpy");
    for (int busy : {0, 2}) {
        bench::BusySiblings siblings;
        if (busy) siblings.start(busy);
        std::map<int, std::map<std::string, NumpyResult>> np;
        for (int threads : {1, 2}) np[threads] = numpy_times(threads, reps);
        for (const Workload& w : workloads) {
            double one = 0;
            for (int threads : {1, 2}) {
                t7::setNumThreads(threads);
                auto run = w.make();
                double check = 0;
                const double t = bench::best_time([&] { check = run(); }, reps, 1);
                if (threads == 1) one = t;
                const auto it = np[threads].find(w.name);
                char nps[16] = "-", ratio[16] = "-", nc[32] = "-";
                if (it != np[threads].end()) {
                    std::snprintf(nps, sizeof nps, "%.3f", it->second.seconds * 1e3);
                    std::snprintf(ratio, sizeof ratio, "%.2f", it->second.seconds / t);
                    std::snprintf(nc, sizeof nc, "%.6g", it->second.checksum);
                }
                std::printf("%-17s %-5s %3d %9.3f %9s %7s %7.2f %.6g | %s\n", w.name.c_str(),
                            busy ? "busy" : "quiet", threads, t * 1e3, nps, ratio, t / one, check,
                            nc);
                std::fflush(stdout);
            }
        }
    }
}
