// Expression-engine benchmarks (issue: fused lazy expression engine). For each
// workload, in the same run: tensor7, a hand-written C++ loop over the same data
// (the practical limit), the same expression in Eigen, and the copy bandwidth
// (y = x). Ratios > 1 mean tensor7 is faster. Usage: bench_expr [reps [filter]]:
// with a filter, only the rows whose name contains it run (e.g. "W7", "W8").
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

using t7::FloatTensor;
using Arr = Eigen::Map<Eigen::ArrayXf>;
using Mat = Eigen::Map<Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

namespace {

int g_threads = 1;
int g_reps = 5;
const char* g_only = nullptr; // run only the rows whose name contains it

// Runs body(begin, end) over [0, n) split across g_threads (the hand loops'
// and Eigen's threading, matching tensor7's static split) when the work (in
// elements: n, or n rows of `row` elements each) is worth a thread.
void split(int64_t n, const std::function<void(int64_t, int64_t)>& body, int64_t row = 1) {
    if (g_threads == 1 || n * row < 32768) return body(0, n);
#pragma omp parallel for num_threads(g_threads) schedule(static, 1)
    for (int c = 0; c < g_threads; ++c) body(n * c / g_threads, n * (c + 1) / g_threads);
}

// The hand loops of the transposed rows: body(i, j) over an m x m square in
// 64 x 64 tiles, blocks of tile rows split over the threads.
template <class Body>
void tiled_hand(int64_t m, const Body& body) {
    split(
        m / 64,
        [&](int64_t b, int64_t e) {
            for (int64_t ib = b * 64; ib < e * 64; ib += 64)
                for (int64_t jb = 0; jb < m; jb += 64)
                    for (int64_t i = ib; i < ib + 64; ++i)
                        for (int64_t j = jb; j < jb + 64; ++j) body(i, j);
        },
        64 * m);
}

FloatTensor filled(t7::Shape s, float lo, float hi, unsigned seed) {
    FloatTensor t(s);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(x >> 8) / float(1 << 24);
    });
    return t;
}

struct Row {
    std::string name;
    int64_t n;
    double bytes, t7, hand, eigen, copy;
};
std::vector<Row> rows;

bool selected(const Row& r) { return !g_only || r.name.find(g_only) != std::string::npos; }

void report(const Row& r) {
    if (!selected(r)) return;
    double gbs = r.bytes / r.t7 / 1e9, copy_gbs = r.copy / 1e9;
    std::printf("%-28s n=%-9lld thr=%d  t7 %9.3f us  hand %9.3f us  eigen %9.3f us  "
                "t7/hand %5.2fx  t7/eigen %5.2fx  %6.1f GB/s (%3.0f%% of copy)\n",
                r.name.c_str(), (long long)r.n, g_threads, r.t7 * 1e6, r.hand * 1e6, r.eigen * 1e6,
                r.hand / r.t7, r.eigen / r.t7, gbs, 100 * gbs / copy_gbs);
    rows.push_back(r);
}

// Times a row's three contenders (inner calls each) in g_reps interleaved
// rounds: a slow phase of a shared machine then hits all three alike.
void time_row(Row& r, int64_t inner, std::function<void()> t7, std::function<void()> hand,
              std::function<void()> eigen) {
    if (!selected(r)) return;
    // Two threads: tensor7's pool and OpenMP's team (hand loops, Eigen) must not
    // find the other's threads still spinning (bench/timing.hpp).
    const auto settle = std::chrono::milliseconds(g_threads > 1 ? 30 : 0);
    const auto best = bench::race({t7, hand, eigen}, g_reps, inner, settle);
    r.t7 = best[0], r.hand = best[1], r.eigen = best[2];
}

int64_t inner_calls(int64_t n) { return std::max<int64_t>(1, (1 << 22) / n); }

// Copy bandwidth: bytes per second of y = x (read + write) for n floats.
double copy_bandwidth(int64_t n) {
    FloatTensor x = filled({n}, 0, 1, 1), y(n);
    const float* xp = x.data();
    float* yp = y.data();
    double t = bench::best_time(
        [&] {
            split(n, [&](int64_t b, int64_t e) { std::memcpy(yp + b, xp + b, size_t(e - b) * 4); });
        },
        g_reps, inner_calls(n));
    return 8.0 * double(n) / t;
}

void elementwise(int64_t n) {
    const double copy = copy_bandwidth(n);
    FloatTensor a = filled({n}, 0.5f, 2, 1), b = filled({n}, 0.5f, 2, 2), c = filled({n}, -1, 1, 3),
                d = filled({n}, 0.5f, 2, 4), y(n);
    float *A = a.data(), *B = b.data(), *C = c.data(), *D = d.data(), *Y = y.data();
    const float s = 1.5f;
    Arr ea(A, n), eb(B, n), ec(C, n), ed(D, n), ey(Y, n);
    const int64_t k = inner_calls(n);
    auto eig = [&](auto expr) {
        split(n, [&](int64_t bg, int64_t e) { ey.segment(bg, e - bg) = expr(bg, e - bg); });
    };

    Row w1{"W1 y=x (copy)", n, 8.0 * double(n), 0, 0, 0, copy};
    time_row(
        w1, k, [&] { y = a; },
        [&] {
            split(n, [&](int64_t bg, int64_t e) {
                std::memcpy(Y + bg, A + bg, size_t(e - bg) * sizeof(float));
            });
        },
        [&] { eig([&](int64_t o, int64_t m) { return ea.segment(o, m); }); });
    report(w1);

    Row w2{"W2 y=a+s*b", n, 12.0 * double(n), 0, 0, 0, copy};
    time_row(
        w2, k, [&] { y = a + s * b; },
        [&] {
            split(n, [&](int64_t bg, int64_t e) {
                for (int64_t i = bg; i < e; ++i) Y[i] = A[i] + s * B[i];
            });
        },
        [&] {
            eig([&](int64_t o, int64_t m) { return ea.segment(o, m) + s * eb.segment(o, m); });
        });
    report(w2);

    Row w3{"W3 y=a*b+c*d-a/(b+1)", n, 20.0 * double(n), 0, 0, 0, copy};
    time_row(
        w3, k, [&] { y = a * b + c * d - a / (b + 1); },
        [&] {
            split(n, [&](int64_t bg, int64_t e) {
                for (int64_t i = bg; i < e; ++i)
                    Y[i] = A[i] * B[i] + C[i] * D[i] - A[i] / (B[i] + 1);
            });
        },
        [&] {
            eig([&](int64_t o, int64_t m) {
                return ea.segment(o, m) * eb.segment(o, m) + ec.segment(o, m) * ed.segment(o, m) -
                       ea.segment(o, m) / (eb.segment(o, m) + 1.f);
            });
        });
    report(w3);

    // W3 on buffers the user owns: std::vector memory 16 bytes past a 64-byte
    // boundary, wrapped by fromBlob (tensor7's own storage is 64-byte aligned).
    std::vector<float> ubuf(size_t(5 * n + 64));
    float* ub = ubuf.data() + (16 - (reinterpret_cast<uintptr_t>(ubuf.data()) % 64) / 4) % 16 + 4;
    float *UA = ub, *UB = ub + n, *UC = ub + 2 * n, *UD = ub + 3 * n, *UY = ub + 4 * n;
    std::memcpy(UA, A, size_t(n) * 4), std::memcpy(UB, B, size_t(n) * 4);
    std::memcpy(UC, C, size_t(n) * 4), std::memcpy(UD, D, size_t(n) * 4);
    FloatTensor ua = t7::fromBlob(UA, {n}), ubt = t7::fromBlob(UB, {n}), uc = t7::fromBlob(UC, {n}),
                ud = t7::fromBlob(UD, {n}), uy = t7::fromBlob(UY, {n});
    Arr eua(UA, n), eub(UB, n), euc(UC, n), eud(UD, n), euy(UY, n);
    Row w3u{"W3u (fromBlob, 16B-aligned)", n, 20.0 * double(n), 0, 0, 0, copy};
    time_row(
        w3u, k, [&] { uy = ua * ubt + uc * ud - ua / (ubt + 1); },
        [&] {
            split(n, [&](int64_t bg, int64_t e) {
                for (int64_t i = bg; i < e; ++i)
                    UY[i] = UA[i] * UB[i] + UC[i] * UD[i] - UA[i] / (UB[i] + 1);
            });
        },
        [&] {
            split(n, [&](int64_t o, int64_t m) {
                m -= o;
                euy.segment(o, m) = eua.segment(o, m) * eub.segment(o, m) +
                                    euc.segment(o, m) * eud.segment(o, m) -
                                    eua.segment(o, m) / (eub.segment(o, m) + 1.f);
            });
        });
    report(w3u);

    Row w4{"W4 sin(a)*exp(-b)+sqrt|c|", n, 16.0 * double(n), 0, 0, 0, copy};
    time_row(
        w4, k, [&] { y = t7::sin(a) * t7::exp(-b) + t7::sqrt(t7::abs(c)); },
        [&] {
            split(n, [&](int64_t bg, int64_t e) {
                for (int64_t i = bg; i < e; ++i)
                    Y[i] = std::sin(A[i]) * std::exp(-B[i]) + std::sqrt(std::abs(C[i]));
            });
        },
        [&] {
            eig([&](int64_t o, int64_t m) {
                return ea.segment(o, m).sin() * (-eb.segment(o, m)).exp() +
                       ec.segment(o, m).abs().sqrt();
            });
        });
    report(w4);

    Row w7{"W7 sum(a*b)", n, 8.0 * double(n), 0, 0, 0, copy};
    double r7 = 0;
    time_row(
        w7, k,
        [&] {
            r7 = t7::sum(a * b);
            bench::keep(r7);
        },
        [&] {
            double tot = 0;
#pragma omp parallel for num_threads(g_threads) reduction(+ : tot) if (g_threads > 1 && n >= 32768)
            for (int c2 = 0; c2 < g_threads; ++c2) {
                int64_t bg = n * c2 / g_threads, e = n * (c2 + 1) / g_threads;
                float acc[16] = {};
                int64_t i = bg;
                for (; i + 16 <= e; i += 16)
                    for (int j = 0; j < 16; ++j) acc[j] += A[i + j] * B[i + j];
                double part = 0;
                for (int j = 0; j < 16; ++j) part += acc[j];
                for (; i < e; ++i) part += A[i] * B[i];
                tot += part;
            }
            bench::keep(tot);
        },
        [&] {
            double tot = 0;
#pragma omp parallel for num_threads(g_threads) reduction(+ : tot) if (g_threads > 1 && n >= 32768)
            for (int c2 = 0; c2 < g_threads; ++c2) {
                int64_t bg = n * c2 / g_threads, m = n * (c2 + 1) / g_threads - bg;
                tot += (ea.segment(bg, m) * eb.segment(bg, m)).sum();
            }
            bench::keep(tot);
        });
    report(w7);
}

void matrices(int64_t m) {
    const int64_t n = m * m;
    const std::string size = " (" + std::to_string(m) + "^2)";
    const double copy = copy_bandwidth(n);
    FloatTensor x = filled({m, m}, 0, 1, 5), y(m, m), r = filled({1, m}, 0, 1, 6),
                c = filled({m, 1}, 0, 1, 7);
    float *X = x.data(), *Y = y.data(), *R = r.data(), *Cc = c.data();
    Mat ex(X, m, m), ey(Y, m, m);

    Row w5{"W5 y=x.t()+x" + size, n, 12.0 * double(n), 0, 0, 0, copy};
    time_row(
        w5, inner_calls(n), [&] { y = x.t() + x; },
        [&] {
            tiled_hand(m,
                       [&](int64_t i, int64_t j) { Y[i * m + j] = X[j * m + i] + X[i * m + j]; });
        },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    ey.middleRows(b, e - b) =
                        ex.transpose().middleRows(b, e - b) + ex.middleRows(b, e - b);
                },
                m);
        });
    report(w5);

    // A transposed copy: what x.t().contiguous() and clone() of a view run.
    Row w5c{"W5c y=x.t() (copy)" + size, n, 8.0 * double(n), 0, 0, 0, copy};
    time_row(
        w5c, inner_calls(n), [&] { y = x.t(); },
        [&] { tiled_hand(m, [&](int64_t i, int64_t j) { Y[i * m + j] = X[j * m + i]; }); },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    ey.middleRows(b, e - b) = ex.transpose().middleRows(b, e - b);
                },
                m);
        });
    report(w5c);

    // A whole reduction of a transposed product: tiles packed on the stack.
    Row w7t{"W7t sum(x.t()*x)" + size, n, 4.0 * double(n), 0, 0, 0, copy};
    time_row(
        w7t, inner_calls(n), [&] { bench::keep(double(t7::sum(x.t() * x))); },
        [&] {
            double tot = 0;
#pragma omp parallel for num_threads(g_threads) reduction(+ : tot) if (g_threads > 1)
            for (int c2 = 0; c2 < g_threads; ++c2) {
                float acc[16] = {};
                for (int64_t ib = m * c2 / g_threads / 64 * 64;
                     ib < m * (c2 + 1) / g_threads / 64 * 64; ib += 64)
                    for (int64_t jb = 0; jb < m; jb += 64)
                        for (int64_t i = ib; i < ib + 64; ++i)
                            for (int64_t j = jb; j < jb + 64; j += 16)
                                for (int k = 0; k < 16; ++k)
                                    acc[k] += X[(j + k) * m + i] * X[i * m + j + k];
                for (float v : acc) tot += v;
            }
            bench::keep(tot);
        },
        [&] {
            double tot = 0;
#pragma omp parallel for num_threads(g_threads) reduction(+ : tot) if (g_threads > 1)
            for (int c2 = 0; c2 < g_threads; ++c2) {
                const int64_t b = m * c2 / g_threads, e = m * (c2 + 1) / g_threads;
                tot += (ex.transpose().middleRows(b, e - b) * ex.middleRows(b, e - b)).sum();
            }
            bench::keep(tot);
        });
    report(w7t);

    Row w6{"W6 y=a*r+c bcast" + size, n, 8.0 * double(n), 0, 0, 0, copy};
    Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>> er(R, m);
    Eigen::Map<Eigen::Array<float, Eigen::Dynamic, 1>> ec(Cc, m);
    time_row(
        w6, inner_calls(n), [&] { y = x * r + c; },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    for (int64_t i = b; i < e; ++i)
                        for (int64_t j = 0; j < m; ++j) Y[i * m + j] = X[i * m + j] * R[j] + Cc[i];
                },
                m);
        },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    ey.middleRows(b, e - b) =
                        (ex.middleRows(b, e - b).rowwise() * er).colwise() + ec.segment(b, e - b);
                },
                m);
        });
    report(w6);

    FloatTensor rows_out(m, 1), cols_out(1, m);
    float *RO = rows_out.data(), *CO = cols_out.data();
    Row w8r{"W8 row sums" + size, n, 4.0 * double(n), 0, 0, 0, copy};
    Eigen::Map<Eigen::VectorXf> ero(RO, m);
    time_row(
        w8r, inner_calls(n), [&] { t7::sum(rows_out, x, 1); },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    for (int64_t i = b; i < e; ++i) {
                        float acc[16] = {};
                        for (int64_t j = 0; j < m; j += 16)
                            for (int k = 0; k < 16; ++k) acc[k] += X[i * m + j + k];
                        double t = 0;
                        for (int k = 0; k < 16; ++k) t += acc[k];
                        RO[i] = float(t);
                    }
                },
                m);
        },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    ero.segment(b, e - b) = ex.middleRows(b, e - b).rowwise().sum().matrix();
                },
                m);
        });
    report(w8r);

    Row w8c{"W8 col sums" + size, n, 4.0 * double(n), 0, 0, 0, copy};
    Eigen::Map<Eigen::RowVectorXf> eco(CO, m);
    // The hand loop's per-thread float rows, allocated once (not per call).
    std::vector<std::vector<float>> part(size_t(g_threads), std::vector<float>(size_t(m), 0.f));
    time_row(
        w8c, inner_calls(n), [&] { t7::sum(cols_out, x, 0); },
        [&] {
            split(
                m,
                [&](int64_t b, int64_t e) {
                    int c2 = int(b * g_threads / m);
                    float* acc = part[size_t(c2)].data();
                    std::fill(acc, acc + m, 0.f);
                    for (int64_t i = b; i < e; ++i)
                        for (int64_t j = 0; j < m; ++j) acc[j] += X[i * m + j];
                },
                m);
            for (int64_t j = 0; j < m; ++j) {
                float t = 0;
                for (int c2 = 0; c2 < g_threads; ++c2) t += part[size_t(c2)][size_t(j)];
                CO[j] = t;
            }
        },
        [&] { eco = ex.colwise().sum().matrix(); });
    report(w8c);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) g_reps = std::max(1, std::atoi(argv[1]));
    if (argc > 2) g_only = argv[2];
    std::printf("tensor7 expression benchmarks (best of %d; ratios = time(other) / time(t7))\n",
                g_reps);
    for (int threads : {1, 2}) {
        g_threads = threads;
        t7::setNumThreads(threads);
        std::printf("\n== %d thread(s) ==\n", threads);
        for (int log2 : {10, 16, 24}) elementwise(int64_t(1) << log2);
        for (int64_t m : {32, 256, 4096}) matrices(m); // 2^10, 2^16, 2^24 elements
    }
    return 0;
}
