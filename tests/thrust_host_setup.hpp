// What each of test_thrust_host's translation units sets up before its part of the
// CUDA backend's tests: they are compiled by the host compiler with
// -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP) and linked with the
// library's sources built the same way (kernels/host_system.cpp), so every Thrust
// functor, the loop planning, the reductions' passes and the runtime's cache run
// over two emulated devices. The host compiler also has the CPU operations: the
// indexed, masked and sorting operations and the order statistics are compared
// with them too (T7_CUDA_TESTS_CPU_OPS).
#pragma once

#if !defined(THRUST_DEVICE_SYSTEM)
#error "test_thrust_host needs -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP)"
#endif

#include <t7/t7.hpp>
#define T7_CUDA_TESTS_CPU_OPS 1
#include "cuda_test_util.hpp"

static_assert(T7_GPU_EMULATED, "the Thrust host tests run on a non-CUDA Thrust system");
