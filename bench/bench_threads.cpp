// Threads under load (issue 33): the loops of three workloads - an element-wise
// expression (bench_expr's W3), a full reduction and a 3-D 7-point stencil - and
// (issue 43) the flat copy y = x and the factorisations potrf and gesv, at
// 1 and 2 threads, on the machine as it is ("quiet") and with two busy sibling
// processes this program forks (each spins on a core until killed). Prints the
// best and the median time per call of `reps` rounds (the thread counts
// interleaved) and the 2-thread/1-thread ratios. Built twice: bench_threads (tensor7's pool,
// iter/thread_pool.hpp) and, when the compiler has OpenMP, bench_threads_omp (T7_PARALLEL_OPENMP:
// the OpenMP fork-join parallel_for used before). Usage: bench_threads [reps]
// [filter] (only the workloads whose name contains filter).
#include "busy_siblings.hpp"
#include "timing.hpp"

#include <t7/t7.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using t7::FloatTensor;

namespace {

FloatTensor filled(t7::Shape s, float lo, float hi, unsigned seed) {
    FloatTensor t(s);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(x >> 8) / float(1u << 24);
    });
    return t;
}

struct Times {
    double best, median;
};

// Per-call times of f at 1 and at 2 threads over `reps` rounds of `inner`
// calls, the two thread counts interleaved round by round (a shared machine's
// drift hits both alike).
std::array<Times, 2> measure(const std::function<void()>& f, int reps, int inner) {
    std::vector<double> t[2];
    for (int r = 0; r <= reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            t7::setNumThreads(k + 1);
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < inner; ++i) f();
            const auto t1 = std::chrono::steady_clock::now();
            if (r > 0) t[k].push_back(std::chrono::duration<double>(t1 - t0).count() / inner);
        }
    }
    std::array<Times, 2> out;
    for (int k = 0; k < 2; ++k) {
        std::sort(t[k].begin(), t[k].end());
        out[size_t(k)] = {t[k].front(), t[k][t[k].size() / 2]};
    }
    return out;
}

struct Workload {
    std::string name;
    int inner;
    std::function<void()> run;
};

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;

    std::vector<Workload> work;
    // The element-wise expression (bench_expr's W3) at three sizes.
    struct Expr {
        FloatTensor a, b, c, d, y;
    };
    std::vector<std::shared_ptr<Expr>> keep;
    for (int lg : {16, 18, 24}) {
        const int64_t n = int64_t(1) << lg;
        auto e = std::make_shared<Expr>(Expr{filled({n}, -1, 1, 1), filled({n}, 0, 1, 2),
                                             filled({n}, -1, 1, 3), filled({n}, -1, 1, 4),
                                             FloatTensor(n)});
        keep.push_back(e);
        const int inner = lg <= 16 ? 64 : lg <= 18 ? 8 : 1;
        work.push_back({"y=a*b+c*d-a/(b+1) 2^" + std::to_string(lg), inner, [e] {
                            e->y = e->a * e->b + e->c * e->d - e->a / (e->b + 1);
                            bench::keep(e->y);
                        }});
    }
    // The full reduction.
    {
        const int64_t n = int64_t(1) << 20;
        auto e =
            std::make_shared<Expr>(Expr{filled({n}, -1, 1, 5), filled({n}, -1, 1, 6), {}, {}, {}});
        keep.push_back(e);
        work.push_back({"sum(a*b) 2^20", 8, [e] {
                            double s = t7::sum(e->a * e->b);
                            bench::keep(s);
                        }});
    }
    // The 3-D 7-point stencil over the interior of a 96^3 grid.
    {
        const int64_t m = 96, k = m - 2;
        auto e = std::make_shared<Expr>(
            Expr{filled({m, m, m}, -1, 1, 7), {}, {}, {}, FloatTensor(m, m, m)});
        e->y.zero();
        keep.push_back(e);
        work.push_back({"stencil 7-pt 96^3", 4, [e, k] {
                            const FloatTensor& x = e->a;
                            auto at = [&](int64_t i, int64_t j, int64_t l) {
                                return x.narrow(0, i, k).narrow(1, j, k).narrow(2, l, k);
                            };
                            FloatTensor yi = e->y.narrow(0, 1, k).narrow(1, 1, k).narrow(2, 1, k);
                            yi = 0.4f * at(1, 1, 1) -
                                 0.1f * (at(0, 1, 1) + at(2, 1, 1) + at(1, 0, 1) + at(1, 2, 1) +
                                         at(1, 1, 0) + at(1, 1, 2));
                            bench::keep(e->y);
                        }});
    }

    // The flat copy y = x (issue 43), float and double.
    for (int lg : {10, 16, 24}) {
        const int64_t n = int64_t(1) << lg;
        const int inner = lg <= 10 ? 4096 : lg <= 16 ? 64 : 1;
        auto f = std::make_shared<Expr>(Expr{filled({n}, -1, 1, 8), {}, {}, {}, FloatTensor(n)});
        keep.push_back(f);
        work.push_back({"y=x float 2^" + std::to_string(lg), inner, [f] {
                            f->y = f->a;
                            bench::keep(f->y);
                        }});
        auto x = std::make_shared<t7::DoubleTensor>(t7::cast<double>(f->a));
        auto y = std::make_shared<t7::DoubleTensor>(n);
        work.push_back({"y=x double 2^" + std::to_string(lg), inner, [x, y] {
                            *y = *x;
                            bench::keep(*y);
                        }});
    }
    // The factorisations (issue 43): potrf of a symmetric positive-definite and gesv
    // of a general 1024^2 double matrix (one right-hand side), potri from the factor.
    {
        const int64_t n = 1024;
        auto m = std::make_shared<t7::DoubleTensor>(t7::cast<double>(filled({n, n}, -1, 1, 9)));
        auto spd = std::make_shared<t7::DoubleTensor>(t7::mm(*m, m->t()));
        for (int64_t i = 0; i < n; ++i) spd->data()[i * n + i] += double(n);
        auto b = std::make_shared<t7::DoubleTensor>(t7::cast<double>(filled({n}, -1, 1, 10)));
        work.push_back({"potrf 1024^2 double", 1, [spd] {
                            auto u = t7::potrf(*spd);
                            bench::keep(u);
                        }});
        work.push_back({"gesv 1024^2 double", 1, [m, b] {
                            auto r = t7::gesv(*b, *m);
                            bench::keep(r.solution);
                        }});
        // potri: potrs with 1024 right-hand sides (the identity's columns), by parts
        auto u = std::make_shared<t7::DoubleTensor>(t7::potrf(*spd));
        work.push_back({"potri 1024^2 double", 1, [u] {
                            auto inv = t7::potri(*u);
                            bench::keep(inv);
                        }});
    }
    if (argc > 2) {
        const std::string filter = argv[2];
        std::erase_if(work,
                      [&](const Workload& w) { return w.name.find(filter) == std::string::npos; });
    }

#if defined(T7_PARALLEL_OPENMP)
    const char* how = "OpenMP fork-join (T7_PARALLEL_OPENMP)";
#else
    const char* how = "tensor7 pool";
#endif
    double load[3] = {0, 0, 0};
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
        std::fclose(f);
    }
    std::printf("bench_threads: %s, best / median of %d rounds (1 and 2 threads interleaved), "
                "ms per call; load average before: %.2f\n",
                how, reps, load[0]);
    std::printf("%-26s | %-6s | %21s | %21s | %13s\n", "workload", "", "1 thread", "2 threads",
                "2t/1t");
    const int before = t7::getNumThreads();
    for (int busy : {0, 2}) {
        bench::BusySiblings siblings;
        if (busy) siblings.start(busy);
        for (const Workload& w : work) {
            const std::array<Times, 2> t = measure(w.run, reps, w.inner);
            std::printf("%-26s | %-6s | %9.5f / %9.5f | %9.5f / %9.5f | %5.2f / %5.2f\n",
                        w.name.c_str(), busy ? "busy" : "quiet", t[0].best * 1e3, t[0].median * 1e3,
                        t[1].best * 1e3, t[1].median * 1e3, t[1].best / t[0].best,
                        t[1].median / t[0].median);
        }
        siblings.stop();
    }
    t7::setNumThreads(before);
    return 0;
}
