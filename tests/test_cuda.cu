// The CUDA backend's tests on a real GPU, first part (cuda_tests.hpp; the
// second, test_cuda_ops.cu, holds cuda_tests_ops.hpp and cuda_tests_maths.hpp):
// compiled by nvcc, linked with tensor7_cuda. Two units, not three: each nvcc
// unit pays about 24 s of its own at -O0 (cudafe++, cicc and the host
// compiler's pass over the CUDA headers and doctest; one unit 80 s, two 55 +
// 49 s). Without a usable device the program says why and exits with 77, which
// Meson reports as a skipped test.
#define DOCTEST_CONFIG_IMPLEMENT
#include "cuda_tests.hpp"

#include <cstdio>

int main(int argc, char** argv) {
    if (t7::cuda::deviceCount() == 0) {
        std::printf("test_cuda: SKIPPED: no CUDA device (%s)\n", t7::cuda::unavailableReason());
        return 77;
    }
    std::printf("test_cuda: %d CUDA device(s)\n", t7::cuda::deviceCount());
    doctest::Context context(argc, argv);
    return context.run();
}
