// What the Thrust evaluator needs from Thrust, in one place: the execution
// policy, launches over an index range (a kernel of its own under nvcc, see
// for_each_index_kernel), temporary device buffers and the translation of
// every failure into t7::DeviceError.
//
// The device system is Thrust's compile-time choice (config.hpp). nvcc builds
// run on CUDA; a host compiler with -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP
// (or CPP) runs the very same functors on the CPU, which is how the GPU code
// path is tested without a GPU (tests/test_thrust_host.cpp). In that mode the
// library (kernels/) emulates device memory with host memory: a whole program
// is built one way or the other, never mixed.
#pragma once

#include "../../core/device_runtime.hpp"
#include "../../core/error.hpp"
#include "config.hpp"

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>

namespace t7::gpu {

// Thrust's temporary storage (reductions) from the caching device allocator.
struct TempAllocator {
    using value_type = char;
    int device;
    char* allocate(std::ptrdiff_t n) {
        size_t cap = 0;
        return static_cast<char*>(cuda::rt::allocate(size_t(n), cap, device));
    }
    // The size class of the requested size is that of the capacity: the cache
    // files the block under the same class either way.
    void deallocate(char* p, size_t n) { cuda::rt::deallocate(p, n, device); }
};

// Calls f(policy) with the policy for the current device. CUDA: asynchronous
// on the default stream (the library's copies are ordered after it).
template <class F>
decltype(auto) with_policy(F&& f) {
#if T7_GPU_EMULATED
    return f(thrust::device);
#else
    TempAllocator alloc{cuda::getDevice()};
    return f(thrust::cuda::par_nosync(alloc));
#endif
}

// Runs f, turning Thrust's and CUDA's exceptions into DeviceError naming `op`.
template <class F>
decltype(auto) guarded(const char* op, F&& f) {
    try {
        return f();
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        detail::fail<DeviceError>(op, ": out of device memory");
    } catch (const std::exception& e) {
        detail::fail<DeviceError>(op, ": ", e.what());
    }
}

#if !T7_GPU_EMULATED
// The functor stays in the kernel's parameter space (__grid_constant__): passed
// by value, as thrust::for_each passes it, every thread copied it to local
// memory as soon as an Indexer's arrays were indexed by a loop variable (an
// 832-byte stack frame for y = x * r + c: 4 % of copy bandwidth on an H100).
template <class F>
__global__ void for_each_index_kernel(const __grid_constant__ F f, int64_t n) {
    const int64_t step = int64_t(gridDim.x) * blockDim.x;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) f(i);
}

// f.store(f.load(i)) for every i in [0, n), each thread taking `U` elements a
// block apart: their loads are issued before any of their stores, which the
// compiler may not do across calls f(i) (a store could alias a later load).
template <int U, class F>
__global__ void for_each_item_kernel(const __grid_constant__ F f, int64_t n) {
    const int64_t tile = int64_t(blockDim.x) * U;
    for (int64_t i = int64_t(blockIdx.x) * tile + threadIdx.x; i < n;
         i += int64_t(gridDim.x) * tile) {
        typename F::item v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + u * int64_t(blockDim.x) < n) v[u] = f.load(i + u * int64_t(blockDim.x));
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + u * int64_t(blockDim.x) < n) f.store(v[u]);
    }
}
#endif

// Launch shape: `threads` per block, each thread `per_thread` elements per tile,
// tiles beyond 2^20 blocks' worth walked in a grid-stride loop.
inline unsigned blocks_for(int64_t n, int64_t threads, int64_t per_thread) {
    const int64_t tile = threads * per_thread;
    return unsigned(std::min<int64_t>((n + tile - 1) / tile, int64_t(1) << 20));
}

#if !T7_GPU_EMULATED
inline void check_launch(const char* op) {
    if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess)
        detail::fail<DeviceError>(op, ": kernel launch failed: ", cudaGetErrorString(err));
}
#endif

// f(i) for every i in [0, n), in parallel on the device.
template <class F>
void for_each_index(int64_t n, const F& f, const char* op) {
    if (n <= 0) return;
#if T7_GPU_EMULATED
    guarded(op, [&] {
        with_policy([&](auto&& policy) {
            thrust::for_each_n(policy, thrust::counting_iterator<int64_t>(0), n, f);
        });
    });
#else
    constexpr int threads = 256;
    for_each_index_kernel<<<blocks_for(n, threads, 1), threads>>>(f, n);
    check_launch(op);
#endif
}

template <class F>
struct LoadThenStore {
    F f;
    T7_HOST_DEVICE void operator()(int64_t i) const { f.store(f.load(i)); }
};

// f.store(f.load(i)) for every i in [0, n) (F::item: what load returns), a
// thread taking PerThread elements.
template <int PerThread, class F>
void for_each_item(int64_t n, const F& f, const char* op) {
#if T7_GPU_EMULATED
    for_each_index(n, LoadThenStore<F>{f}, op);
#else
    if (n <= 0) return;
    constexpr int threads = 256;
    for_each_item_kernel<PerThread><<<blocks_for(n, threads, PerThread), threads>>>(f, n);
    check_launch(op);
#endif
}

// An uninitialised device array of n values of A, returned to the cache on scope exit.
template <class A>
class DeviceBuffer {
public:
    DeviceBuffer(int64_t n, int device) : device_(device) {
        p_ = static_cast<A*>(cuda::rt::allocate(size_t(n > 0 ? n : 1) * sizeof(A), cap_, device));
    }
    ~DeviceBuffer() { cuda::rt::deallocate(p_, cap_, device_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    A* get() const { return p_; }

private:
    A* p_ = nullptr;
    size_t cap_ = 0;
    int device_;
};

} // namespace t7::gpu
