// Shared by the library's sources (kernels/*.cu): the Thrust system in use and
// the helpers to report failures. Sources that launch kernels include
// <t7/eval/thrust/system.hpp> as well; runtime.cu does not need Thrust. nvcc compiles the sources
// for CUDA; the Thrust host tests compile them with a host compiler and a non-CUDA Thrust device
// system (kernels/host_system.cpp), where device memory is emulated by host memory
// (T7_GPU_EMULATED).
#pragma once

#include <t7/core/allocator.hpp>
#include <t7/core/device_kernels.hpp>
#include <t7/core/device_runtime.hpp>
#include <t7/core/dtype.hpp>
#include <t7/core/error.hpp>
#include <t7/eval/thrust/config.hpp>
#include <t7/eval/thrust/indexer.hpp>

#if !T7_GPU_EMULATED
#include <cuda_runtime.h>
#endif

#include <cstddef>
#include <cstdint>

namespace t7::cuda::rt {

inline size_t elem_size(DType t) {
    switch (t) {
    case DType::u8:
    case DType::i8:
        return 1;
    case DType::i16:
    case DType::f16:
        return 2;
    case DType::i32:
    case DType::f32:
        return 4;
    case DType::c128:
        return 16;
    default:
        return 8;
    }
}

inline const char* dtype_name(DType t) {
    switch (t) {
    case DType::u8:
        return "Byte";
    case DType::i8:
        return "Char";
    case DType::i16:
        return "Short";
    case DType::i32:
        return "Int";
    case DType::i64:
        return "Long";
    case DType::f32:
        return "Float";
    case DType::f64:
        return "Double";
    case DType::c64:
        return "ComplexFloat";
    case DType::c128:
        return "ComplexDouble";
    default:
        return "Half";
    }
}

#if !T7_GPU_EMULATED
// Throws DeviceError "<what>: cudaErrorX: CUDA's message" unless e is cudaSuccess.
inline void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError(); // clear a non-sticky error so later calls start clean
    detail::fail<DeviceError>(what, ": ", cudaGetErrorName(e), ": ", cudaGetErrorString(e));
}
#endif

// Calls f(T{}) with T the real element type `t` names: one mechanism instantiates a
// type-erased operation once per element type. The operations built on it
// (sorting, convolution, indexed kernels) have no complex version: a complex tag
// is a TypeError naming the operation. Those with one (scan, random fills, GEMM)
// dispatch the complex tags themselves, computing on thrust::complex.
template <class F>
void with_dtype(DType t, F&& f, const char* op = "this operation") {
    switch (t) {
    case DType::u8:
        return f(uint8_t{});
    case DType::i8:
        return f(int8_t{});
    case DType::i16:
        return f(int16_t{});
    case DType::i32:
        return f(int32_t{});
    case DType::i64:
        return f(int64_t{});
    case DType::f32:
        return f(float{});
    case DType::f64:
        return f(double{});
    case DType::f16:
        return f(Half{});
    case DType::c64:
    case DType::c128:
        detail::fail<TypeError>(op, ": not available for ", dtype_name(t), " CUDA tensors");
    }
}

// with_word(elem_size, f): f(W{}) with W the unsigned word of that size (core/dtype.hpp).
using t7::detail::with_word;

// Offset of element i of operand 0 (a destination written in row-major order):
// i itself when that destination is one contiguous run (`linear`).
T7_HOST_DEVICE inline int64_t dst_offset(const gpu::Indexer<2>& ix, bool linear, int64_t i) {
    if (linear) return i;
    int64_t off[2] = {0, 0};
    ix.add_offsets(i, off);
    return off[0];
}

// Throws DeviceError unless `device` names a usable device.
void require_device(int device, const char* op);

} // namespace t7::cuda::rt
