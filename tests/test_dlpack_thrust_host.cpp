// DLPack on CUDA tensors (tests/dlpack_cuda_tests.hpp) by the host compiler with
// Thrust's host system and the library's sources built the same way
// (thrust_host_setup.hpp): the CUDA path of <t7/dlpack.hpp> runs on the CPU.
#include "thrust_host_setup.hpp"

#include "dlpack_cuda_tests.hpp"
