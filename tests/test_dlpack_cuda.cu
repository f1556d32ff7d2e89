// DLPack on CUDA tensors (tests/dlpack_cuda_tests.hpp) on a real GPU: compiled by
// nvcc, linked with tensor7_cuda. Without a usable device the program says why
// and exits with 77, which Meson reports as a skipped test.
#define DOCTEST_CONFIG_IMPLEMENT
#include "dlpack_cuda_tests.hpp"

#include <cstdio>

int main(int argc, char** argv) {
    if (t7::cuda::deviceCount() == 0) {
        std::printf("test_dlpack_cuda: SKIPPED: no CUDA device (%s)\n",
                    t7::cuda::unavailableReason());
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
