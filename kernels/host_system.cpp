// The library's sources compiled by a host compiler with a non-CUDA Thrust
// device system (-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP or _CPP): the
// Thrust host test build links this instead of the nvcc-built tensor7_cuda, so
// the GPU backend's logic runs on the CPU over emulated devices.
#if !defined(THRUST_DEVICE_SYSTEM)
#error "kernels/host_system.cpp needs -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP)"
#endif

#include "conv.cu"
#include "copy.cu"
#include "fft.cu"
#include "gemm.cu"
#include "histc.cu"
#include "index.cu"
#include "mode.cu"
#include "random.cu"
#include "runtime.cu"
#include "scan.cu"
#include "sort.cu"
