// The device runtime's interface: devices (count, current device, guard),
// device memory from a size-class cache, and byte transfers. Plain
// declarations, no CUDA header: core/memory.hpp allocates through it and any
// host translation unit may hold and copy CUDA tensors; the definitions are in
// the tensor7_cuda library (kernels/, built by nvcc), linked only by programs
// that use a GPU. The library's type-erased kernels: core/device_kernels.hpp.
//
// Every failure (no device, out of memory, a failed transfer) throws
// t7::DeviceError carrying CUDA's own error name and message.
#pragma once

#include <cstddef>
#include <cstdint>

namespace t7 {
namespace cuda {

// ---- devices (the public part) ------------------------------------------------
// Number of usable devices; 0 when there is no GPU or no driver (never throws).
int deviceCount();
// A one-line reason when deviceCount() is 0 (CUDA's error), else "".
const char* unavailableReason();
// The calling thread's current device: new CUDA tensors are allocated there.
int getDevice();
void setDevice(int device); // DeviceError for an id out of range
// Waits for every queued GPU operation of the current device (errors surface here).
void synchronize();
// Device bytes held by the caching allocator for reuse, and returning them.
size_t cachedBytes();
void emptyCache();

// Makes `device` current for a scope (no-op when it already is).
class DeviceGuard {
public:
    explicit DeviceGuard(int device) : prev_(getDevice()) {
        if (device != prev_) setDevice(device);
    }
    ~DeviceGuard() {
        if (getDevice() != prev_) setDevice(prev_);
    }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int prev_;
};

namespace rt {

// ---- memory ------------------------------------------------------------------------
// Device memory from a size-class cache (as HostAllocator does for host memory):
// `capacity` receives the block's real size, to be passed back to deallocate.
void* allocate(size_t bytes, size_t& capacity, int device);
void deallocate(void* p, size_t capacity, int device);

// Byte copies; every one is complete when the call returns.
void copy_to_device(void* dst, int device, const void* src, size_t bytes);
void copy_to_host(void* dst, const void* src, int device, size_t bytes);
void copy_on_device(void* dst, const void* src, int device, size_t bytes);
void copy_between_devices(void* dst, int dst_device, const void* src, int src_device, size_t bytes);

} // namespace rt
} // namespace cuda
} // namespace t7
