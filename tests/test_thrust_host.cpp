// The CUDA backend's tests on the CPU, first part (tests/cuda_tests.hpp; the
// others: test_thrust_host_ops.cpp and test_thrust_host_maths.cpp; how they are
// built: thrust_host_setup.hpp).
#include "thrust_host_setup.hpp"

#include "cuda_tests.hpp"
