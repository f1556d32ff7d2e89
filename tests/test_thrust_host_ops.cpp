// The CUDA backend's tests, second part (tests/cuda_tests_ops.hpp), run on the
// CPU: compiled as test_thrust_host.cpp is, and linked into the same program.
#if !defined(THRUST_DEVICE_SYSTEM)
#error "test_thrust_host needs -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP)"
#endif

// The host compiler also has the CPU operations: the tests of the indexed,
// masked and sorting operations then compare the GPU path with them too.
#include <t7/t7.hpp>
#define T7_CUDA_TESTS_CPU_OPS 1
#include "cuda_tests_ops.hpp"
