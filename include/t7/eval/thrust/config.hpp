// Which Thrust device system this translation unit runs on. nvcc builds use
// CUDA; a host compiler given -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP
// (or _CPP) runs the same code on the CPU, with the library (kernels/)
// emulating device memory with host memory: T7_GPU_EMULATED is then 1.
#pragma once

#include <thrust/detail/config.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#define T7_GPU_EMULATED 0
#else
#define T7_GPU_EMULATED 1
#endif
