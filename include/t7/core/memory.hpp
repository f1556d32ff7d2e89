// Raw memory per device: the one place that knows how a device allocates, fills
// and copies bytes. Storage is written once against this interface. The CUDA
// specialisation forwards to the precompiled GPU library (device_runtime.hpp,
// kernels/): only programs that create CUDA storages need to link it.
#pragma once

#include "allocator.hpp"
#include "device.hpp"
#include "device_runtime.hpp"

#include <algorithm>
#include <cstring>

namespace t7 {

template <class D>
struct DeviceMemory; // specialised per device

template <>
struct DeviceMemory<CPU> {
    static void* allocate(size_t bytes, size_t& capacity, int /*device*/) {
        return HostAllocator::instance().allocate(bytes, capacity);
    }
    static void deallocate(void* p, size_t capacity, int /*device*/) {
        HostAllocator::instance().deallocate(p, capacity);
    }
    static void copy_bytes(void* dst, const void* src, size_t bytes, int /*device*/) {
        if (bytes) std::memmove(dst, src, bytes);
    }
    // The device a new storage goes to when none is named, and a scope making
    // a device current (evaluation allocates its temporaries there).
    static int current_device() { return 0; }
    struct Scope {
        explicit Scope(int /*device*/) {}
    };
};

template <>
struct DeviceMemory<CUDA> {
    static void* allocate(size_t bytes, size_t& capacity, int device) {
        return cuda::rt::allocate(bytes, capacity, device);
    }
    static void deallocate(void* p, size_t capacity, int device) {
        cuda::rt::deallocate(p, capacity, device);
    }
    static void copy_bytes(void* dst, const void* src, size_t bytes, int device) {
        if (bytes) cuda::rt::copy_on_device(dst, src, device, bytes);
    }
    static int current_device() { return cuda::getDevice(); }
    using Scope = cuda::DeviceGuard;
};

} // namespace t7
