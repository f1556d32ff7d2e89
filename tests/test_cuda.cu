// The CUDA backend's tests on a real GPU, first part (tests/cuda_tests.hpp; the
// others: test_cuda_ops.cu and test_cuda_maths.cu): compiled by nvcc, linked with tensor7_cuda.
// Without a usable device the program says why and exits with 77, which Meson reports as a skipped
// test.
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
