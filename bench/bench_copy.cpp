// Copies y = x (issue 43): the destination exists with x's shape; tensor7 against
// xtensor (noalias(y) = x on xt::xtensor, XTENSOR_USE_OPENMP + XTENSOR_USE_XSIMD:
// xtensor's parallel linear assignment), libtorch (y.copy_(x), its OpenMP
// at::parallel_for), a hand loop split over OpenMP threads, one glibc memcpy per
// thread and Eigen (y = x on Eigen::Map arrays; Eigen's element-wise assignment
// has no threads, so its row is one thread at either count). Float and double,
// 2^10, 2^16, 2^22 and 2^24 elements contiguous, then two strided sources at
// 2^24: every other element of a 2^25 vector and the transpose of a square.
// At 1 and 2 threads, every contender in interleaved rounds (best of them), with
// a pause before each so that the OpenMP threads of the one before are asleep.
// GB/s counts the bytes copied, read plus written (2 x n x sizeof(T)); a regular
// store also reads its destination line first (RFO), a non-temporal one does
// not, so the traffic behind the same GB/s differs: the "read" and "write"
// rows (a two-thread streaming sum and fill) give the machine's own bounds.
// Usage: bench_copy [rounds [filter]].
#include "timing.hpp"

#include <t7/t7.hpp>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <Eigen/Core>
#include <immintrin.h>
#include <omp.h>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int g_rounds = 15;
const char* g_only = nullptr;

// Runs body(begin, end) over [0, n) split in `threads` static parts.
template <class Body>
void split(int threads, int64_t n, const Body& body) {
    if (threads == 1) return body(int64_t(0), n);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int c = 0; c < threads; ++c) body(n * c / threads, n * (c + 1) / threads);
}

template <class T>
void fill_values(T* p, int64_t n, unsigned seed) {
    unsigned x = seed;
    for (int64_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        p[i] = T(x >> 8) / T(1 << 24);
    }
}

// Every contender's name and call; the timings come back in the same order.
struct Contender {
    std::string name;
    std::function<void()> run;
};

// y = x by tensor7, xtensor and libtorch (each on its own copy of the
// operands) and by `hand`: the four contenders of every row.
template <class Y, class X, class XY, class XX>
std::vector<Contender> copies(Y& y, const X& x, XY& xy, const XX& xx, at::Tensor& ty,
                              const at::Tensor& tx, std::function<void()> hand) {
    return {{"t7", [&] { y = x; }},
            {"xt", [&] { xt::noalias(xy) = xx; }},
            {"torch", [&] { ty.copy_(tx); }},
            {"hand", std::move(hand)}};
}

void set_threads(int t) {
    t7::setNumThreads(t);
    at::set_num_threads(t); // libgomp's ICV: xtensor's and the hand loop's team too
    omp_set_num_threads(t);
}

// Times the contenders at `threads`, prints one line: ms and GB/s each, and
// tensor7's speed over the fastest of xtensor and libtorch.
void report(const std::string& row, int threads, double bytes, int64_t inner,
            const std::vector<Contender>& cs) {
    set_threads(threads);
    std::vector<std::function<void()>> fs;
    for (const auto& c : cs) fs.push_back(c.run);
    const auto best = bench::race(fs, g_rounds, inner, std::chrono::milliseconds(20));
    double peer = 1e30, t7 = 0;
    std::printf("%-26s thr=%d", row.c_str(), threads);
    for (size_t k = 0; k < cs.size(); ++k) {
        std::printf("  %s %.4g ms %.1f GB/s", cs[k].name.c_str(), best[k] * 1e3,
                    bytes / best[k] / 1e9);
        if (cs[k].name == "t7") t7 = best[k];
        if (cs[k].name == "xt" || cs[k].name == "torch") peer = std::min(peer, best[k]);
    }
    if (t7 > 0 && peer < 1e30) std::printf("  t7/peer %.2f", peer / t7);
    std::printf("\n");
    std::fflush(stdout);
}

bool selected(const std::string& row) { return !g_only || row.find(g_only) != std::string::npos; }

template <class T>
struct Tensors;
template <>
struct Tensors<float> {
    using type = t7::FloatTensor;
    static constexpr const char* name = "float";
};
template <>
struct Tensors<double> {
    using type = t7::DoubleTensor;
    static constexpr const char* name = "double";
};

// Contiguous y = x of n elements. tensor7, libtorch, the hand loop, memcpy and
// Eigen share one pair of buffers (tensor7's); xtensor has its own aligned pair.
template <class T>
void contiguous(int lg) {
    const int64_t n = int64_t(1) << lg;
    const std::string row = std::string("y=x ") + Tensors<T>::name + " 2^" + std::to_string(lg);
    if (!selected(row)) return;
    typename Tensors<T>::type x(n), y(n);
    fill_values(x.data(), n, 7);
    y.zero();
    const auto opts =
        at::TensorOptions().dtype(std::is_same_v<T, float> ? at::kFloat : at::kDouble);
    at::Tensor tx = at::from_blob(x.data(), {n}, opts), ty = at::from_blob(y.data(), {n}, opts);
    xt::xtensor<T, 1> xx = xt::zeros<T>({size_t(n)}), xy = xt::zeros<T>({size_t(n)});
    std::memcpy(xx.data(), x.data(), size_t(n) * sizeof(T));
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> ex(x.data(), n), ey(y.data(), n);
    T* px = x.data();
    T* py = y.data();
    const int64_t inner = lg <= 10 ? 4096 : lg <= 16 ? 64 : 1;
    const double bytes = 2.0 * double(n) * sizeof(T);
    for (int threads : {1, 2}) {
        std::vector<Contender> cs = copies(y, x, xy, xx, ty, tx, [&] {
            split(threads, n, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) py[i] = px[i];
            });
        });
        cs.push_back({"memcpy", [&] {
                          split(threads, n, [&](int64_t b, int64_t e) {
                              std::memcpy(py + b, px + b, size_t(e - b) * sizeof(T));
                          });
                      }});
        cs.push_back({"eigen", [&] { ey = ex; }});
        report(row, threads, bytes, inner, cs);
        bench::keep(py);
    }
    // Whether every contender copied (a benchmark's sanity, not a timing check).
    if (std::memcmp(py, px, size_t(n) * sizeof(T)) != 0 ||
        std::memcmp(xy.data(), px, size_t(n) * sizeof(T)) != 0)
        std::printf("  (%s: a copy differs)\n", row.c_str());
}

// Strided sources at n = 2^lg: every other element of a 2n vector (y = x[::2]),
// and the transpose of an m x m square (y = x^T).
template <class T>
void strided(int lg) {
    const int64_t n = int64_t(1) << lg;
    const auto opts =
        at::TensorOptions().dtype(std::is_same_v<T, float> ? at::kFloat : at::kDouble);
    const double bytes = 2.0 * double(n) * sizeof(T);
    const int64_t inner = lg <= 16 ? 64 : 1;
    std::string row = std::string("y=x[::2] ") + Tensors<T>::name + " 2^" + std::to_string(lg);
    if (selected(row)) {
        typename Tensors<T>::type x(2 * n), y(n);
        fill_values(x.data(), 2 * n, 8);
        y.zero();
        auto xs = x(t7::slice(0, 2 * n, 2));
        at::Tensor tx = at::from_blob(x.data(), {2 * n}, opts),
                   ty = at::from_blob(y.data(), {n}, opts);
        at::Tensor txs = tx.slice(0, 0, 2 * n, 2);
        xt::xtensor<T, 1> xx = xt::zeros<T>({size_t(2 * n)}), xy = xt::zeros<T>({size_t(n)});
        std::memcpy(xx.data(), x.data(), size_t(2 * n) * sizeof(T));
        auto xxs = xt::view(xx, xt::range(0, 2 * n, 2));
        T* px = x.data();
        T* py = y.data();
        for (int threads : {1, 2}) {
            std::vector<Contender> cs = copies(y, xs, xy, xxs, ty, txs, [&] {
                split(threads, n, [&](int64_t b, int64_t e) {
                    for (int64_t i = b; i < e; ++i) py[i] = px[2 * i];
                });
            });
            report(row, threads, bytes, inner, cs);
        }
        bool same = true;
        for (int64_t i = 0; i < n; ++i)
            same = same && py[i] == px[2 * i] && xy[size_t(i)] == px[2 * i];
        if (!same) std::printf("  (%s: a copy differs)\n", row.c_str());
    }
    row = std::string("y=x.t() ") + Tensors<T>::name + " 2^" + std::to_string(lg);
    if (selected(row)) {
        int64_t m = int64_t(1) << (lg / 2);
        typename Tensors<T>::type x(m, m), y(m, m);
        fill_values(x.data(), m * m, 9);
        y.zero();
        auto xs = x.t();
        at::Tensor tx = at::from_blob(x.data(), {m, m}, opts),
                   ty = at::from_blob(y.data(), {m, m}, opts);
        at::Tensor txs = tx.t();
        xt::xtensor<T, 2> xx = xt::zeros<T>({size_t(m), size_t(m)}),
                          xy = xt::zeros<T>({size_t(m), size_t(m)});
        std::memcpy(xx.data(), x.data(), size_t(m * m) * sizeof(T));
        auto xxs = xt::transpose(xx);
        T* px = x.data();
        T* py = y.data();
        for (int threads : {1, 2}) {
            // 64 x 64 tiles, blocks of tile rows over the threads
            std::vector<Contender> cs = copies(y, xs, xy, xxs, ty, txs, [&] {
                split(threads, m / 64, [&](int64_t b, int64_t e) {
                    for (int64_t ib = b * 64; ib < e * 64; ib += 64)
                        for (int64_t jb = 0; jb < m; jb += 64)
                            for (int64_t i = ib; i < ib + 64; ++i)
                                for (int64_t j = jb; j < jb + 64; ++j)
                                    py[i * m + j] = px[j * m + i];
                });
            });
            report(row, threads, bytes, inner, cs);
        }
        bool same = true;
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < m; ++j)
                same = same && py[i * m + j] == px[j * m + i] &&
                       xy(size_t(i), size_t(j)) == px[j * m + i];
        if (!same) std::printf("  (%s: a copy differs)\n", row.c_str());
    }
}

// The machine's bounds at 2^24 floats (64 MiB): a streaming read (a sum) and a
// fill with regular and with non-temporal stores, at 1 and 2 threads; GB/s of
// the bytes each one moves (read or written once).
void bounds() {
    const std::string row = "bounds float 2^24";
    if (!selected(row)) return;
    const int64_t n = int64_t(1) << 24;
    t7::FloatTensor x(n), y(n);
    fill_values(x.data(), n, 10);
    y.zero();
    float* px = x.data();
    float* py = y.data();
    for (int threads : {1, 2}) {
        set_threads(threads);
        float sums[2] = {0, 0};
        std::vector<std::function<void()>> fs = {
            [&] {
                // eight independent sums, so that the adds' latency does not bound the read
                split(threads, n, [&](int64_t b, int64_t e) {
                    float acc[8][16] = {};
                    int64_t i = b;
                    for (; i + 128 <= e; i += 128)
                        for (int a = 0; a < 8; ++a)
#pragma omp simd
                            for (int l = 0; l < 16; ++l) acc[a][l] += px[i + 16 * a + l];
                    float s = 0;
                    for (; i < e; ++i) s += px[i];
                    for (int a = 0; a < 8; ++a)
                        for (int l = 0; l < 16; ++l) s += acc[a][l];
                    sums[b == 0 ? 0 : 1] = s;
                });
            },
            [&] {
                split(threads, n, [&](int64_t b, int64_t e) {
                    std::memset(py + b, 0, size_t(e - b) * sizeof(float));
                });
            },
            [&] {
                // non-temporal stores of zeros (64-byte aligned parts of y)
                split(threads, n, [&](int64_t b, int64_t e) {
                    char* d = reinterpret_cast<char*>(py + b);
                    char* end = reinterpret_cast<char*>(py + e);
                    while (d < end && reinterpret_cast<uintptr_t>(d) % 64) *d++ = 0;
#if defined(__AVX512F__)
                    const __m512i z = _mm512_setzero_si512();
                    for (; d + 64 <= end; d += 64)
                        _mm512_stream_si512(reinterpret_cast<__m512i*>(d), z);
#endif
                    while (d < end) *d++ = 0;
                    _mm_sfence();
                });
            },
        };
        const auto best = bench::race(fs, g_rounds, 1, std::chrono::milliseconds(20));
        const double bytes = double(n) * sizeof(float);
        std::printf("%-26s thr=%d  read %.4g ms %.1f GB/s  fill %.4g ms %.1f GB/s  "
                    "fill-nt %.4g ms %.1f GB/s\n",
                    row.c_str(), threads, best[0] * 1e3, bytes / best[0] / 1e9, best[1] * 1e3,
                    bytes / best[1] / 1e9, best[2] * 1e3, bytes / best[2] / 1e9);
        bench::keep(sums);
    }
}

} // namespace

int main(int argc, char** argv) {
    g_rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    g_only = argc > 2 ? argv[2] : nullptr;
    std::printf("bench_copy: best of %d interleaved rounds; GB/s = 2 x n x sizeof(T) / time "
                "(read + written); t7/peer = fastest of xt and torch time / t7 time "
                "(>= 1: tensor7 as fast); eigen is single-threaded at any count\n",
                g_rounds);
    bounds();
    for (int lg : {10, 16, 22, 24}) {
        contiguous<float>(lg);
        contiguous<double>(lg);
    }
    strided<float>(24);
    strided<double>(24);
    return 0;
}
