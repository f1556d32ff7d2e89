// Devices, device memory and transfers: the runtime half of tensor7_cuda.
//
// Device memory comes from a cache of blocks by size class (the classes of
// HostAllocator: at most 25% slack), one cache per device, so temporaries of
// repeated expressions never reach cudaMalloc after the first round. When
// cudaMalloc fails the cache is given back to the driver and the allocation
// retried once; a second failure is a DeviceError with CUDA's message.
//
// Under a non-CUDA Thrust system (the Thrust host tests) the same code runs on
// emulated devices: host memory, T7_EMULATED_DEVICES devices (default 2) of
// 4 GiB each, so that out-of-memory and multi-device paths are testable too.
#include "backend.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace t7::cuda {

namespace {

// ---- the raw device layer ----------------------------------------------------------
#if T7_GPU_EMULATED

constexpr size_t emulated_bytes = size_t(4) << 30;

struct Emulated {
    std::mutex m;
    std::vector<size_t> in_use;
};
Emulated& emulated() {
    static Emulated* e = new Emulated;
    return *e;
}

int raw_count(std::string& reason) {
    int n = 2;
    if (const char* s = std::getenv("T7_EMULATED_DEVICES")) n = std::atoi(s);
    if (n <= 0) reason = "T7_EMULATED_DEVICES=0: no emulated device";
    emulated().in_use.assign(size_t(n > 0 ? n : 0), 0);
    return n > 0 ? n : 0;
}
void raw_set_device(int) {}
void* raw_malloc(size_t bytes, int device, std::string& err) {
    Emulated& e = emulated();
    {
        std::lock_guard<std::mutex> lock(e.m);
        if (e.in_use[size_t(device)] + bytes > emulated_bytes) {
            err = "cudaErrorMemoryAllocation: out of memory (emulated device of 4 GiB)";
            return nullptr;
        }
        e.in_use[size_t(device)] += bytes;
    }
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) {
        std::lock_guard<std::mutex> lock(e.m);
        e.in_use[size_t(device)] -= bytes;
        err = "cudaErrorMemoryAllocation: out of memory (host memory emulating the device)";
    }
    return p;
}
void raw_free(void* p, size_t bytes, int device) {
    std::free(p);
    Emulated& e = emulated();
    std::lock_guard<std::mutex> lock(e.m);
    e.in_use[size_t(device)] -= bytes;
}
void raw_copy(void* dst, const void* src, size_t bytes, const char*) {
    std::memmove(dst, src, bytes);
}
void raw_synchronize() {}

#else

int raw_count(std::string& reason) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " +
                 cudaGetErrorString(e);
        cudaGetLastError();
        return 0;
    }
    if (n == 0) reason = "cudaGetDeviceCount found no CUDA device";
    return n;
}
void raw_set_device(int device) { rt::check(cudaSetDevice(device), "setDevice"); }
void* raw_malloc(size_t bytes, int, std::string& err) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaSuccess) return p;
    cudaGetLastError();
    err = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    return nullptr;
}
void raw_free(void* p, size_t, int) {
    cudaFree(p); // errors here (e.g. at exit, after the driver shut down) are ignored
}
void raw_copy(void* dst, const void* src, size_t bytes, const char* what) {
    rt::check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), what);
}
void raw_synchronize() { rt::check(cudaDeviceSynchronize(), "synchronize"); }

#endif

// ---- devices --------------------------------------------------------------------------
struct Devices {
    int count = 0;
    std::string reason;
    Devices() { count = raw_count(reason); }
};
const Devices& devices() {
    static Devices* d = new Devices; // never destroyed: storages may be freed after main()
    return *d;
}

thread_local int current = 0; // t7::cuda::getDevice()
thread_local int active = -1; // the device last made current in CUDA on this thread

void use(int device) {
    if (active != device) {
        raw_set_device(device);
        active = device;
    }
}

// ---- the cache ----------------------------------------------------------------------------
struct Cache {
    std::mutex m;
    std::vector<void*> blocks[HostAllocator::classes];
    size_t cached = 0;
};
Cache& cache(int device) {
    static std::vector<Cache*>* all = [] {
        auto* v = new std::vector<Cache*>;
        for (int d = 0; d < devices().count; ++d) v->push_back(new Cache);
        return v;
    }();
    return *(*all)[size_t(device)];
}

void release_cache(int device) {
    Cache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.m);
    for (int cls = 0; cls < HostAllocator::classes; ++cls) {
        if (c.blocks[cls].empty()) continue; // (the highest classes have no size)
        const size_t bytes = HostAllocator::class_bytes(cls);
        for (void* p : c.blocks[cls]) raw_free(p, bytes, device);
        c.blocks[cls].clear();
    }
    c.cached = 0;
}

} // namespace

int deviceCount() { return devices().count; }
const char* unavailableReason() { return devices().reason.c_str(); }
int getDevice() { return current; }
void setDevice(int device) {
    rt::require_device(device, "setDevice");
    use(device);
    current = device;
}
void synchronize() {
    rt::require_device(current, "synchronize");
    use(current);
    raw_synchronize();
}
size_t cachedBytes() {
    size_t n = 0;
    for (int d = 0; d < deviceCount(); ++d) {
        Cache& c = cache(d);
        std::lock_guard<std::mutex> lock(c.m);
        n += c.cached;
    }
    return n;
}
void emptyCache() {
    for (int d = 0; d < deviceCount(); ++d) release_cache(d);
}

namespace rt {

void require_device(int device, const char* op) {
    const Devices& d = devices();
    if (d.count == 0)
        detail::fail<DeviceError>(op, ": no CUDA device is available (", d.reason, ")");
    if (device < 0 || device >= d.count)
        detail::fail<DeviceError>(op, ": CUDA device ", device, " does not exist (", d.count,
                                  d.count == 1 ? " device)" : " devices)");
}

void* allocate(size_t bytes, size_t& capacity, int device) {
    require_device(device, "allocate");
    const int cls = HostAllocator::size_class(bytes);
    capacity = HostAllocator::class_bytes(cls);
    Cache& c = cache(device);
    {
        std::lock_guard<std::mutex> lock(c.m);
        if (!c.blocks[cls].empty()) {
            void* p = c.blocks[cls].back();
            c.blocks[cls].pop_back();
            c.cached -= capacity;
            return p;
        }
    }
    use(device);
    std::string err;
    void* p = raw_malloc(capacity, device, err);
    if (!p) { // give the cache back to the driver and try once more
        release_cache(device);
        p = raw_malloc(capacity, device, err);
    }
    if (!p)
        detail::fail<DeviceError>("cuda: cannot allocate ", bytes, " bytes on device ", device,
                                  ": ", err);
    return p;
}

void deallocate(void* p, size_t capacity, int device) {
    if (!p || device < 0 || device >= deviceCount()) return;
    const int cls = HostAllocator::size_class(capacity);
    Cache& c = cache(device);
    try {
        std::lock_guard<std::mutex> lock(c.m);
        c.blocks[cls].push_back(p);
        c.cached += HostAllocator::class_bytes(cls);
    } catch (...) { // no memory for the cache's bookkeeping: free the block instead
        raw_free(p, HostAllocator::class_bytes(cls), device);
    }
}

void copy_to_device(void* dst, int device, const void* src, size_t bytes) {
    if (!bytes) return;
    require_device(device, "copy to device");
    use(device);
    raw_copy(dst, src, bytes, "copy to device");
}
void copy_to_host(void* dst, const void* src, int device, size_t bytes) {
    if (!bytes) return;
    require_device(device, "copy to host");
    use(device);
    raw_copy(dst, src, bytes, "copy to host");
}
void copy_on_device(void* dst, const void* src, int device, size_t bytes) {
    if (!bytes) return;
    require_device(device, "copy on device");
    use(device);
#if T7_GPU_EMULATED
    raw_copy(dst, src, bytes, "copy on device");
#else
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), "copy on device");
#endif
}
void copy_between_devices(void* dst, int dst_device, const void* src, int src_device,
                          size_t bytes) {
    if (!bytes) return;
    require_device(dst_device, "copy between devices");
    require_device(src_device, "copy between devices");
#if T7_GPU_EMULATED
    raw_copy(dst, src, bytes, "copy between devices");
#else
    use(dst_device);
    check(cudaMemcpyPeer(dst, dst_device, src, src_device, bytes), "copy between devices");
#endif
}

} // namespace rt
} // namespace t7::cuda
