// Host memory for storages. First touch of fresh pages costs far more than the
// arithmetic on them, so freed blocks are cached by size class and handed out
// again (temporaries in a loop reuse the same pages), and large blocks are
// aligned to 2 MiB and advised as huge pages. The cache keeps at most 1 GiB of
// freed blocks per process: t7::HostAllocator::instance().set_cache_limit(bytes)
// changes that (0 turns it off) and trim() gives every cached block back.
// Under AddressSanitizer a cached block (all but its first 8 bytes, the link
// of the free list) is poisoned until it is handed out again, so a use after
// free is still reported although the block is not freed.
// detail::require_memory is the one check of "can this many bytes be had",
// made before a workspace (linear algebra, histograms, printing, toVector) is
// asked of Eigen, the standard library or this allocator.
#pragma once

#include "error.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define T7_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T7_ASAN 1
#endif
#endif
#if defined(T7_ASAN)
#include <sanitizer/asan_interface.h>
#define T7_POISON_(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define T7_UNPOISON_(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define T7_POISON_(p, n) ((void)(p), (void)(n))
#define T7_UNPOISON_(p, n) ((void)(p), (void)(n))
#endif

namespace t7 {

class HostAllocator {
public:
    static constexpr size_t huge_page = size_t(2) << 20;
    static constexpr size_t default_cache_limit = size_t(1) << 30;

    static HostAllocator& instance() {
        // Never destroyed: storages held by static objects may be freed after main().
        static HostAllocator* a = new HostAllocator;
        return *a;
    }

    // Returns a block of at least `bytes` (capacity rounded to its size class).
    void* allocate(size_t bytes, size_t& capacity) {
        int cls = size_class(bytes);
        capacity = class_bytes(cls);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (FreeBlock* b = free_[cls]) {
                T7_UNPOISON_(b, capacity);
                free_[cls] = b->next;
                cached_ -= capacity;
                return b;
            }
        }
        void* p = fresh(capacity);
        if (!p) { // out of memory: give the cache back to the system and retry once
            trim();
            p = fresh(capacity);
        }
        if (!p)
            detail::fail<MemoryError>("Storage: cannot allocate ", bytes, " bytes (out of memory)");
        return p;
    }

    void deallocate(void* p, size_t capacity) {
        if (!p) return;
        int cls = size_class(capacity);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (cached_ + capacity <= limit_) {
                auto* b = static_cast<FreeBlock*>(p);
                b->next = free_[cls];
                free_[cls] = b;
                cached_ += capacity;
                // A read or write of it now is a use after free. The link to the next
                // block stays readable: LeakSanitizer follows it (the cache is not a leak).
                T7_POISON_(reinterpret_cast<char*>(b) + sizeof(FreeBlock),
                           capacity - sizeof(FreeBlock));
                return;
            }
        }
        std::free(p);
    }

    // Returns every cached block to the system.
    void trim() {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& head : free_) {
            while (head) {
                FreeBlock* next = head->next;
                std::free(head);
                head = next;
            }
        }
        cached_ = 0;
    }

    // Bytes of freed blocks kept for reuse (at most the limit: 1 GiB by default).
    size_t cached_bytes() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return cached_;
    }
    // Caps the cache (0: every free goes back to the system at once); a cache
    // above the new limit is emptied. Safe to call from any thread at any time.
    void set_cache_limit(size_t bytes) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            limit_ = bytes;
            if (cached_ <= limit_) return;
        }
        trim();
    }

    // Four classes per power of two above 64 bytes: at most 25% slack. Public:
    // the device allocator (kernels/) caches by the same classes.
    static constexpr int classes = 4 * 64;
    static int size_class(size_t bytes) {
        if (bytes <= 64) return 0;
        int log2 = 63 - __builtin_clzll(bytes - 1); // 2^log2 < bytes <= 2^(log2+1)
        size_t base = size_t(1) << log2;
        int quarter = int((bytes - 1 - base) / (base / 4)); // 0..3
        return (log2 - 5) * 4 + quarter;
    }
    static size_t class_bytes(int cls) {
        if (cls == 0) return 64;
        int log2 = cls / 4 + 5;
        size_t base = size_t(1) << log2;
        return base + (base / 4) * size_t(cls % 4 + 1);
    }

private:
    struct FreeBlock {
        FreeBlock* next;
    };

    static void* fresh(size_t bytes) {
        size_t align = bytes >= huge_page ? huge_page : 64;
        size_t rounded = (bytes + align - 1) / align * align;
        void* p = std::aligned_alloc(align, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (p && align == huge_page) madvise(p, rounded, MADV_HUGEPAGE);
#endif
        return p;
    }

    mutable std::mutex mutex_;
    std::array<FreeBlock*, classes> free_{};
    size_t cached_ = 0;
    size_t limit_ = default_cache_limit;
};

namespace detail {

// No allocation may exceed 2^62 bytes (nor int64 count it).
inline constexpr uint64_t max_alloc_bytes = uint64_t(1) << 62;

// The memory this process can have: physical memory plus swap, or the control
// group's limit (cgroup v2 memory.max) when lower (Linux); 0 when unknown. The
// totals are asked of the system (sysinfo, a system call: 0.6-0.7 us here, a
// quarter of a trtrs of 32^2) at most once a second.
inline uint64_t system_memory_bytes() {
#if defined(__linux__)
    static std::atomic<uint64_t> cached{0};
    static std::atomic<int64_t> cached_at{0}; // CLOCK_MONOTONIC nanoseconds; 0: never
    // (clock_gettime, not <chrono>: that header cost every program 5 MB of
    // compiler memory)
    struct timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const int64_t now = int64_t(ts.tv_sec) * 1'000'000'000 + int64_t(ts.tv_nsec);
    const int64_t at = cached_at.load(std::memory_order_acquire);
    if (at != 0 && now - at < 1'000'000'000) return cached.load(std::memory_order_relaxed);
    static const uint64_t cgroup_limit = [] {
        uint64_t v = 0;
        if (std::FILE* f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {
            unsigned long long x = 0;
            if (std::fscanf(f, "%llu", &x) == 1) v = uint64_t(x); // "max": no limit
            std::fclose(f);
        }
        return v;
    }();
    struct sysinfo si {};
    if (sysinfo(&si) == 0) {
        const unsigned __int128 b =
            (unsigned __int128)(uint64_t(si.totalram) + uint64_t(si.totalswap)) * si.mem_unit;
        uint64_t r = b > max_alloc_bytes ? max_alloc_bytes : uint64_t(b);
        if (cgroup_limit != 0 && cgroup_limit < r) r = cgroup_limit;
        cached.store(r, std::memory_order_relaxed);
        cached_at.store(now, std::memory_order_release);
        return r;
    }
#endif
    return 0;
}

// Sizes of workspaces, saturating at 2^64 - 1 (which no check passes).
inline uint64_t ws_mul(uint64_t a, uint64_t b) {
    const unsigned __int128 p = (unsigned __int128)a * b;
    return p > UINT64_MAX ? UINT64_MAX : uint64_t(p);
}
inline uint64_t ws_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

// count * elem bytes, or MemoryError (naming op and what) above 2^62 bytes.
inline uint64_t checked_bytes(const char* op, uint64_t count, uint64_t elem, const char* what) {
    if (elem != 0 && count > max_alloc_bytes / elem)
        fail<MemoryError>(op, ": cannot allocate ", what, " of ", count, " elements of ", elem,
                          " bytes (more than 2^62 bytes)");
    return count * elem;
}

// Whether a block of `bytes` can be had from the system now: allocated (not
// touched) and given back at once; the cache is returned first if it fails.
// Through malloc, never operator new (AddressSanitizer's aborts on failure).
inline bool probe_memory(size_t bytes) {
    void* p = std::malloc(bytes);
    if (!p) {
        HostAllocator::instance().trim();
        p = std::malloc(bytes);
    }
    std::free(p);
    return p != nullptr;
}

// The one check of "can `bytes` of memory be had", made before a function asks
// Eigen, the standard library or the allocator for scratch memory (or for a
// result outside a Storage) whose size it knows up front. MemoryError, naming
// op and what, when the bytes are more than 2^62, more than the machine's
// physical memory plus swap (scratch memory is written, so it must exist), or
// (from 64 MiB) when a trial allocation of them fails.
inline void require_memory(const char* op, uint64_t bytes, const char* what) {
    if (bytes > max_alloc_bytes)
        fail<MemoryError>(op, ": cannot allocate ", bytes, " bytes for ", what,
                          " (more than 2^62 bytes)");
    const uint64_t sys = system_memory_bytes();
    if (sys != 0 && bytes > sys)
        fail<MemoryError>(op, ": cannot allocate ", bytes, " bytes for ", what, " (more than the ",
                          sys, " bytes of memory and swap of this machine)");
    if (bytes >= (uint64_t(64) << 20) && !probe_memory(size_t(bytes)))
        fail<MemoryError>(op, ": cannot allocate ", bytes, " bytes for ", what, " (out of memory)");
}
// count elements of elem bytes each.
inline void require_memory(const char* op, uint64_t count, uint64_t elem, const char* what) {
    require_memory(op, checked_bytes(op, count, elem, what), what);
}

} // namespace detail

} // namespace t7
