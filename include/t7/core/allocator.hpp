// Host memory for storages. First touch of fresh pages costs far more than the
// arithmetic on them, so freed blocks are cached by size class and handed out
// again (temporaries in a loop reuse the same pages), and large blocks are
// aligned to 2 MiB and advised as huge pages. The cache keeps at most 1 GiB of
// freed blocks per process: t7::HostAllocator::instance().set_cache_limit(bytes)
// changes that (0 turns it off) and trim() gives every cached block back.
#pragma once

#include "error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
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

} // namespace t7
