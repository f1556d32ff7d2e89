// Matrix products on tensor7's pool (issue 43) against the implementation they
// replaced, plain Eigen threaded with OpenMP (Eigen::setNbThreads(threads), one
// `c.noalias() = a * b` on maps of the same memory), in the same run: mm 64^3,
// 512^3 (5 and 50 calls a round), 2048^3 (one round: slow), 8x30000 @ 30000x1000 (and the same with
// the large operand transposed), mv 2048^2, bmm of 64 products of 64^3, addr 2048^2 (M + x y^T into
// a new tensor) and the same update in place (Blas<CPU>::ger alone; Eigen does not thread an outer
// product: its columns are the same single-threaded update at both counts); float; and triangular
// solves of 1024^2 doubles with 64, 256, 1024 right-hand sides against Eigen's TRSM; trtrs, potrs
// and gesv of 32^2 and 256^2 doubles with 1 and n right-hand sides against Eigen; at 1 and 2
// threads, on the machine as it is ("quiet") and with two busy sibling processes
// (bench/busy_siblings.hpp). Every time is the best of `reps` rounds (a round: 1 to 200 calls, by
// size), the four contenders interleaved round by round, 20 ms apart (libgomp's threads spin for
// milliseconds after a region); the ratios also of the rounds' medians (busy, a round runs on a
// whole core or on half of one, by the scheduler's turns: the best of a few rounds is luck). Also
// the rate at which a vectorised sum (one thread) reads the skinny product's large operand: the
// skinny kernels' target is 70 % of it. Usage: bench_products [reps] [filter] (only the rows whose
// name contains filter).
#include "busy_siblings.hpp"
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <Eigen/LU>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using t7::FloatTensor;

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Map = Eigen::Map<RowMat>;
using CMap = Eigen::Map<const RowMat>;

FloatTensor filled(t7::Shape s, unsigned seed) {
    FloatTensor t(s);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return float(x >> 8) / float(1u << 24) - 0.5f;
    });
    return t;
}

CMap cmap(const FloatTensor& t) { return CMap(t.data(), t.size(0), t.size(1)); }

struct Row {
    std::string name;
    std::function<void()> t7, eigen; // one call each
    int reps = 0;                    // 0: the command line's
    int inner = 1;                   // calls a round (small products: many)
};

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
    const std::string filter = argc > 2 ? argv[2] : "";
    const FloatTensor a64 = filled({64, 64}, 1), b64 = filled({64, 64}, 2);
    const FloatTensor a512 = filled({512, 512}, 3), b512 = filled({512, 512}, 4);
    const FloatTensor a2k = filled({2048, 2048}, 5), b2k = filled({2048, 2048}, 6);
    const FloatTensor x8 = filled({8, 30000}, 7), w = filled({30000, 1000}, 8);
    const FloatTensor wt = filled({1000, 30000}, 9); // its transpose is the operand
    const FloatTensor v2k = filled({2048}, 10), u2k = filled({2048}, 13);
    const FloatTensor ba = filled({64, 64, 64}, 11), bb = filled({64, 64, 64}, 12);
    FloatTensor c64(64, 64), c512(512, 512), c2k(2048, 2048), y8(8, 1000), y2k(2048);
    FloatTensor cb(64, 64, 64);
    // conv2 512^2 * 7^2 (valid), an addmm with an element-wise epilogue, tensordot.
    const FloatTensor img = filled({512, 512}, 14), k7 = filled({7, 7}, 15);
    const FloatTensor xe = filled({256, 512}, 16), bias = filled({512}, 17);
    FloatTensor yconv(506, 506), ye(256, 512), ytd(64, 64);
    // Triangular solves (trtrs, the solves of potrs, potri, gesv, inverse), double:
    // L X = B for a lower triangle of 1024^2 (its diagonal 1024 + ...) and 64, 256
    // and 1024 right-hand sides; the contender solves a copy of B in place.
    using DMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    t7::DoubleTensor tri = t7::cast<double>(filled({1024, 1024}, 18));
    for (int64_t i = 0; i < 1024; ++i) tri.data()[i * 1025] += 1024;
    std::vector<t7::DoubleTensor> rhs, xs;
    std::vector<DMat> exs;
    for (int64_t k : {64, 256, 1024}) {
        rhs.push_back(t7::cast<double>(filled({1024, k}, unsigned(19 + k))));
        xs.emplace_back(1024, k);
        exs.emplace_back(1024, k);
    }
    auto trsm_row = [&](size_t i) {
        const int64_t k = rhs[i].size(1);
        return Row{
            "trtrs 1024^2 \\ 1024x" + std::to_string(k) + " (double)",
            [&, i] { xs[i] = t7::trtrs(rhs[i], tri, 'L').solution; },
            [&, i, k] {
                using DMap = Eigen::Map<const DMat>;
                exs[i] = DMap(rhs[i].data(), 1024, k);
                DMap(tri.data(), 1024, 1024).triangularView<Eigen::Lower>().solveInPlace(exs[i]);
            },
            0, 1};
    };

    using bench::keep;
    std::vector<Row> rows = {
        {"mm 64^3", [&] { c64 = t7::mm(a64, b64); },
         [&] { Map(c64.data(), 64, 64).noalias() = cmap(a64) * cmap(b64); }, 0, 200},
        {"mm 512^3", [&] { c512 = t7::mm(a512, b512); },
         [&] { Map(c512.data(), 512, 512).noalias() = cmap(a512) * cmap(b512); }, 0, 5},
        // The same back to back, as in a loop of products: each round's first call
        // finds the helpers asleep for 20 ms (this VM's idle CPU then starts late).
        {"mm 512^3, 50 calls a round", [&] { c512 = t7::mm(a512, b512); },
         [&] { Map(c512.data(), 512, 512).noalias() = cmap(a512) * cmap(b512); }, 0, 50},
        {"mm 2048^3 (1 round)", [&] { c2k = t7::mm(a2k, b2k); },
         [&] { Map(c2k.data(), 2048, 2048).noalias() = cmap(a2k) * cmap(b2k); }, 1, 1},
        {"mm 8x30000 @ 30000x1000", [&] { y8 = t7::mm(x8, w); },
         [&] { Map(y8.data(), 8, 1000).noalias() = cmap(x8) * cmap(w); }},
        {"mm 8x30000 @ (1000x30000)^T", [&] { y8 = t7::mm(x8, wt.t()); },
         [&] { Map(y8.data(), 8, 1000).noalias() = cmap(x8) * cmap(wt).transpose(); }},
        {"mv 2048^2", [&] { y2k = t7::mv(a2k, v2k); },
         [&] {
             Eigen::Map<Eigen::VectorXf>(y2k.data(), 2048).noalias() =
                 cmap(a2k) * Eigen::Map<const Eigen::VectorXf>(v2k.data(), 2048);
         },
         0, 20},
        {"bmm 64 x 64^3", [&] { cb = t7::bmm(ba, bb); },
         [&] {
             for (int q = 0; q < 64; ++q)
                 Map(cb.data() + q * 4096, 64, 64).noalias() =
                     CMap(ba.data() + q * 4096, 64, 64) * CMap(bb.data() + q * 4096, 64, 64);
         },
         0, 10},
        {"addr 2048^2", [&] { c2k = t7::addr(1, a2k, 1, v2k, u2k); },
         [&] {
             using V = Eigen::Map<const Eigen::VectorXf>;
             Map c(c2k.data(), 2048, 2048);
             c = cmap(a2k);
             c.noalias() += V(v2k.data(), 2048) * V(u2k.data(), 2048).transpose();
         },
         0, 5},
        {"conv2 512^2 * 7^2", [&] { yconv = t7::conv2(img, k7); }, nullptr, 0, 5},
        {"sigmoid(mm + bias) 256x512 @ 512x512", [&] { ye = t7::sigmoid(t7::mm(xe, a512) + bias); },
         [&] {
             Map y(ye.data(), 256, 512);
             y.noalias() = cmap(xe) * cmap(a512);
             y.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias.data(), 512);
             y = (1 + (-y.array()).exp()).inverse().matrix();
         },
         0, 10},
        {"tensordot 64^3 . 64^3 over 2 dims", [&] { ytd = t7::tensordot(ba, bb, 2); },
         [&] {
             Map(ytd.data(), 64, 64).noalias() =
                 CMap(ba.data(), 64, 4096) * CMap(bb.data(), 4096, 64);
         },
         0, 50},
        {"ger update 2048^2 in place", // Blas<CPU>::ger alone: M += x y^T, no copy
         [&] {
             t7::detail::Blas<t7::CPU>::ger(1.f, t7::detail::cvec_ref(v2k),
                                            t7::detail::cvec_ref(u2k), 1.f,
                                            t7::detail::mat_ref(c2k));
         },
         [&] {
             using V = Eigen::Map<const Eigen::VectorXf>;
             Map(c2k.data(), 2048, 2048).noalias() +=
                 V(v2k.data(), 2048) * V(u2k.data(), 2048).transpose();
         },
         0, 5},
    };
    for (size_t i = 0; i < rhs.size(); ++i) rows.push_back(trsm_row(i));

    // Small and medium solves (A of 2^10 and 2^16 doubles; 1 and n right-hand
    // sides): trtrs (L X = B), potrs (L L^T X = B, L as the factor) and gesv (A =
    // L + L^T: LU, its condition estimate, the solves) against Eigen on the same
    // memory (a copy of B solved in place; PartialPivLU and its solve).
    struct Solve {
        int64_t n, k;
        t7::DoubleTensor l, a, b, x;
        DMat ex;
    };
    std::vector<Solve> solves;
    for (int64_t n : {32, 256})
        for (int64_t k : {int64_t(1), n}) {
            t7::DoubleTensor l = t7::tril(t7::cast<double>(filled({n, n}, unsigned(40 + n))));
            for (int64_t i = 0; i < n; ++i) l.data()[i * (n + 1)] += double(n);
            t7::DoubleTensor a = t7::eval(l + l.t());
            solves.push_back({n, k, l, a, t7::cast<double>(filled({n, k}, unsigned(50 + k))),
                              t7::DoubleTensor(n, k), DMat(n, k)});
        }
    for (Solve& q : solves) {
        using DMap = Eigen::Map<const DMat>;
        const std::string size = std::to_string(q.n) + "^2 \\ " + std::to_string(q.n) + "x" +
                                 std::to_string(q.k) + " (double)";
        const int inner = q.n == 32 ? 200 : q.k == 1 ? 50 : 5;
        // Eigen's solve on a copy of B: a vector for one right-hand side (Eigen's
        // vector solve, as a program with a VectorXd gets), else the matrix.
        auto on_copy = [&q](auto solve) {
            q.ex = DMap(q.b.data(), q.n, q.k);
            if (q.k == 1) {
                Eigen::Map<Eigen::VectorXd> v(q.ex.data(), q.n);
                solve(v);
            } else {
                solve(q.ex);
            }
        };
        const DMap l(q.l.data(), q.n, q.n);
        rows.push_back({"trtrs " + size, [&q] { q.x = t7::trtrs(q.b, q.l, 'L').solution; },
                        [on_copy, l] {
                            on_copy(
                                [&](auto& x) { l.triangularView<Eigen::Lower>().solveInPlace(x); });
                        },
                        0, inner});
        rows.push_back({"potrs " + size, [&q] { q.x = t7::potrs(q.b, q.l, 'L'); },
                        [on_copy, l] {
                            on_copy([&](auto& x) {
                                l.triangularView<Eigen::Lower>().solveInPlace(x);
                                l.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
                            });
                        },
                        0, inner});
        rows.push_back({"gesv " + size, [&q] { q.x = t7::gesv(q.b, q.a).solution; },
                        [&q, on_copy] {
                            const Eigen::PartialPivLU<DMat> lu(DMap(q.a.data(), q.n, q.n));
                            on_copy([&](auto& x) { x = lu.solve(x); });
                        },
                        0, inner});
    }

    // The rate at which one thread's vectorised sum reads w (the skinny row's B),
    // raced round by round against the skinny product at one thread (below): on a
    // shared VM the two measured minutes apart moved 53-113 % (2026-11-30).
    const std::function<void()> sum_w = [&] {
        keep(Eigen::Map<const Eigen::VectorXf>(w.data(), w.nElement()).sum());
    };
    const double wbytes = double(w.nElement()) * sizeof(float);
    std::printf("best of %d rounds (the 2048^3 row: 1), ms (4 significant digits); ratio = 2 "
                "threads / 1 thread, of the "
                "best times / of the median ones\n",
                reps);
    std::printf("| product | load | t7 1 thr | t7 2 thr | ratio | Eigen+OpenMP 1 thr | "
                "Eigen+OpenMP 2 thr | ratio |\n|---|---|---|---|---|---|---|---|\n");
    for (int busy : {0, 2}) {
        bench::BusySiblings siblings;
        if (busy) siblings.start(busy);
        for (const Row& r : rows) {
            if (r.name.find(filter) == std::string::npos) continue;
            auto at = [&r](int threads, const std::function<void()>& f) {
                return std::function<void()>([threads, &f, &r] {
                    t7::setNumThreads(threads);
                    Eigen::setNbThreads(threads);
                    for (int i = 0; i < r.inner; ++i) f();
                });
            };
            // (A row without an Eigen contender races tensor7 alone: "-" below.)
            const auto rounds = bench::race_rounds(
                r.eigen ? std::vector<std::function<void()>>{at(1, r.t7), at(2, r.t7),
                                                             at(1, r.eigen), at(2, r.eigen)}
                        : std::vector<std::function<void()>>{at(1, r.t7), at(2, r.t7)},
                r.reps ? r.reps : reps, 1, std::chrono::milliseconds(20));
            std::vector<double> t, med;
            for (const auto& x : rounds) {
                t.push_back(bench::best_of(x) / double(r.inner));
                med.push_back(bench::median_of(x) / double(r.inner));
            }
            std::printf("| %s | %s | %.4g | %.4g | %.2f / %.2f |", r.name.c_str(),
                        busy ? "busy" : "quiet", t[0] * 1e3, t[1] * 1e3, t[1] / t[0],
                        med[1] / med[0]);
            if (r.eigen)
                std::printf(" %.4g | %.4g | %.2f / %.2f |\n", t[2] * 1e3, t[3] * 1e3, t[3] / t[2],
                            med[3] / med[2]);
            else
                std::printf(" - | - | - |\n");
            if (r.name == "mm 8x30000 @ 30000x1000" && !busy) {
                const auto pair = bench::race({sum_w, at(1, r.t7)}, r.reps ? r.reps : reps, 1,
                                              std::chrono::milliseconds(20));
                std::printf("|  (B read at %.1f GB/s at 1 thread, a vectorised sum at %.1f GB/s "
                            "in the same rounds: %.0f %% of the sum's rate) ||||||||\n",
                            wbytes / pair[1] * 1e-9, wbytes / pair[0] * 1e-9,
                            100 * pair[0] / pair[1]);
            }
            std::fflush(stdout);
        }
    }
    return 0;
}
