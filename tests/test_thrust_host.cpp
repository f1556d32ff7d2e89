// The CUDA backend's tests, first part (tests/cuda_tests.hpp; the others:
// test_thrust_host_ops.cpp and test_thrust_host_maths.cpp), run on the CPU: this file is compiled
// by the host compiler with -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP) and linked
// with the library's sources built the same way (kernels/host_system.cpp), so every Thrust functor,
// the loop planning, the reductions' passes and the runtime's cache run over two emulated devices.
#if !defined(THRUST_DEVICE_SYSTEM)
#error "test_thrust_host needs -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP)"
#endif

// The host compiler also has the CPU operations (the other parts compare the GPU
// path's indexed, masked and sorting operations and order statistics with them).
#include <t7/t7.hpp>
#define T7_CUDA_TESTS_CPU_OPS 1
#include "cuda_tests.hpp"

static_assert(T7_GPU_EMULATED, "the Thrust host tests run on a non-CUDA Thrust system");
