// Matrix products inside expressions (issue 15): y = sigmoid(mm(a, b) + bias),
// fused (the product by blocks, the element-wise part applied to each block
// while it is in L2), against the two-step computation into an existing p
// (p = mm(a, b), one GEMM into p; then y = sigmoid(p + bias)) and the same two
// steps in Eigen. n x n float; then the same with bmm over B matrices of n x n
// (Eigen: a loop over the matrices). Best of interleaved rounds; ratios > 1
// mean the fused form is faster.
// Usage: bench_fusion_mm [rounds] [panel KiB (default: the library's)]
#include "timing.hpp"

#include <t7/t7.hpp>

#include <Eigen/Core>
#include <cstdio>
#include <cstdlib>

using t7::FloatTensor;
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    if (argc > 2) t7::cpu::product_panel_bytes = int64_t(std::atoi(argv[2])) << 10;
    std::printf("panel %lld KiB, best of %d rounds\n",
                (long long)(t7::cpu::product_panel_bytes >> 10), rounds);
    for (int64_t n : {256, 1024, 2048}) {
        t7::manualSeed(1);
        FloatTensor a = t7::randn<float>(n, n), b = t7::randn<float>(n, n);
        FloatTensor bias = t7::randn<float>(n), y(n, n), p(n, n);
        Eigen::Map<RowMat> A(a.data(), n, n), B(b.data(), n, n);
        Eigen::Map<Eigen::RowVectorXf> Bias(bias.data(), n);
        RowMat P(n, n), Y(n, n);
        for (int threads : {1, 2}) {
            t7::setNumThreads(threads);
            Eigen::setNbThreads(threads);
            const int64_t inner = n <= 256 ? 20 : 1;
            const auto t = bench::race(
                {[&] { y = t7::sigmoid(t7::mm(a, b) + bias); },
                 [&] {
                     p = t7::mm(a, b);
                     y = t7::sigmoid(p + bias);
                 },
                 [&] {
                     Eigen::setNbThreads(threads);
                     P.noalias() = A * B;
                     Y = (1.f + (-(P.rowwise() + Bias)).array().exp()).inverse().matrix();
                 }},
                rounds, inner);
            bench::keep(Y);
            std::printf("n=%-5lld thr=%d  fused %9.3f ms  two-step %9.3f ms  eigen two-step "
                        "%9.3f ms  two-step/fused %5.2fx  eigen/fused %5.2fx\n",
                        (long long)n, threads, t[0] * 1e3, t[1] * 1e3, t[2] * 1e3, t[1] / t[0],
                        t[2] / t[0]);
        }
    }
    for (auto [nb, n] : {std::pair<int64_t, int64_t>{256, 64}, {16, 256}, {4, 1024}}) {
        t7::manualSeed(1);
        FloatTensor a = t7::randn<float>(nb, n, n), b = t7::randn<float>(nb, n, n);
        FloatTensor bias = t7::randn<float>(n), y(nb, n, n), p(nb, n, n);
        Eigen::Map<Eigen::RowVectorXf> Bias(bias.data(), n);
        auto mat = [n](FloatTensor& t, int64_t q) {
            return Eigen::Map<RowMat>(t.data() + q * n * n, n, n);
        };
        for (int threads : {1, 2}) {
            t7::setNumThreads(threads);
            const int64_t inner = nb * n * n * n <= (int64_t(1) << 24) ? 20 : 1;
            const auto t =
                bench::race({[&] { y = t7::sigmoid(t7::bmm(a, b) + bias); },
                             [&] {
                                 p = t7::bmm(a, b);
                                 y = t7::sigmoid(p + bias);
                             },
                             [&] {
                                 Eigen::setNbThreads(threads);
                                 for (int64_t q = 0; q < nb; ++q) {
                                     mat(p, q).noalias() = mat(a, q) * mat(b, q);
                                     mat(y, q) =
                                         (1.f + (-(mat(p, q).rowwise() + Bias)).array().exp())
                                             .inverse()
                                             .matrix();
                                 }
                             }},
                            rounds, inner);
            bench::keep(y);
            std::printf("bmm %lldx%lld^2 thr=%d  fused %9.3f ms  two-step %9.3f ms  eigen "
                        "two-step %9.3f ms  two-step/fused %5.2fx  eigen/fused %5.2fx\n",
                        (long long)nb, (long long)n, threads, t[0] * 1e3, t[1] * 1e3, t[2] * 1e3,
                        t[1] / t[0], t[2] / t[0]);
        }
    }
}
