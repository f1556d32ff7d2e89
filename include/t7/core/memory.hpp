// Raw memory per device: the one place that knows how a device allocates, fills
// and copies bytes. Storage is written once against this interface; the CUDA
// specialisation lives with the GPU backend (kernels/).
#pragma once

#include "allocator.hpp"
#include "device.hpp"

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
};

} // namespace t7
