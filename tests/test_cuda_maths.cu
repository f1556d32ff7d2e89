// The CUDA backend's tests on a real GPU, third part (tests/cuda_tests_maths.hpp),
// linked into test_cuda (whose main is in test_cuda.cu).
#include "cuda_tests_maths.hpp"
