// The CUDA backend's tests on a real GPU, second part: the masked, indexed and
// sorting operations, the second-round maths and complex tensors (the first part
// and main(): test_cuda.cu).
#include "cuda_tests_complex.hpp"
#include "cuda_tests_edges.hpp"
#include "cuda_tests_maths.hpp"
#include "cuda_tests_ops.hpp"
#if defined(T7_TEST_DLPACK)
#include "dlpack_cuda_tests.hpp" // DLPack on CUDA tensors, when dlpack.h was found
#endif
