// The CUDA backend's tests on the CPU, second part (tests/cuda_tests_ops.hpp),
// linked into test_thrust_host (how it is built: thrust_host_setup.hpp).
#include "thrust_host_setup.hpp"

#include "cuda_tests_edges.hpp"
#include "cuda_tests_ops.hpp"
