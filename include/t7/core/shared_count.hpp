// The reference count of a Storage's memory, biased towards the thread that
// created it (biased reference counting: Choi, Shull and Torrellas, PACT 2018;
// CPython 3.13's free-threaded objects). Every expression leaf copies its
// operand's handle and drops it at the end of the statement, on one thread: a
// plain count there instead of a locked read-modify-write takes ~65 ns off an
// assignment of six leaves (bench/RESULTS.md, bench_fixed_cost).
//
// The owner (the creating thread) counts its own copies and drops in `local_`
// with plain loads and stores; every other thread counts in `shared_` with
// atomic operations. The total is local_ + shared_. The hard case is a handle the
// owner counted and another thread drops: the shared count would go below zero
// and neither side alone sees the total. The first such drop keeps its reference
// and puts the storage on the owner's merge queue; the owner adds the two
// counts together (and frees the memory if nothing is left) the next time it
// creates a storage or asks a count, and when it exits. A thread that has exited
// owns nothing: whoever queues one of its storages merges the counts at once.
// Once merged (owner 0) a storage counts in `shared_` only, as every storage
// created by a thread that is exiting does, and every wrapped storage with a
// release function (DLPack: the release runs on the thread that drops the last
// handle, with no wait for the owner).
//
// Threads are told apart by a number never reused within the program (a serial
// and the kernel's thread id: two copies of tensor7 in one process, each with
// its own serial, still never give two live threads one number).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace t7::detail {

class SharedCount;

namespace counts {

// The calling thread's number; `unregistered` until it creates a storage,
// `exited` from its exit on (its thread_local state is gone).
inline constexpr uint64_t unregistered = ~uint64_t(0);
inline constexpr uint64_t exited = ~uint64_t(0) - 1;
inline constinit thread_local uint64_t self = unregistered;

// shared_: the other threads' count times 4, and two flags.
inline constexpr int64_t merged = 1; // one count, in shared_ only (owner_ is 0)
inline constexpr int64_t queued = 2; // on the owner's merge queue
inline constexpr int64_t one = 4;
inline constexpr int64_t flags = merged | queued;

struct Thread;
inline constinit thread_local Thread* state = nullptr;

// Every thread that owns storages, with its merge queue (guarded by `mutex`).
struct Registry {
    std::mutex mutex;
    std::vector<Thread*> threads;
    uint32_t serial = 0;
    static Registry& get() {
        static Registry& r = *new Registry; // outlives every thread's exit
        return r;
    }
};

struct Thread {
    uint64_t id = 0;
    std::atomic<bool> has_queued{false};
    SharedCount* queue = nullptr; // a list through SharedCount::next_; Registry::mutex
    Thread();
    ~Thread();
    void merge_queued() noexcept;
};

inline uint64_t register_thread();

} // namespace counts

class SharedCount {
public:
    using Destroy = void (*)(void* block) noexcept;

    // One reference, the calling thread's. May throw (a thread's first storage
    // registers it).
    SharedCount() {
        uint64_t me = counts::self;
        if (me >= counts::exited) [[unlikely]]
            me = me == counts::exited ? 0 : counts::register_thread();
        else if (counts::state->has_queued.load(std::memory_order_relaxed)) [[unlikely]]
            counts::state->merge_queued();
        if (me) {
            owner_.store(me, std::memory_order_relaxed);
            local_.store(1, std::memory_order_relaxed);
        } else {
            shared_.store(counts::one | counts::merged, std::memory_order_relaxed);
        }
    }
    SharedCount(const SharedCount&) = delete;
    SharedCount& operator=(const SharedCount&) = delete;

    // Before any other handle exists: count in shared_ only from now on.
    void make_shared_only() noexcept {
        const int64_t n =
            local_.load(std::memory_order_relaxed) + (shared_.load(std::memory_order_relaxed) >> 2);
        owner_.store(0, std::memory_order_relaxed);
        local_.store(0, std::memory_order_relaxed);
        shared_.store(n * counts::one | counts::merged, std::memory_order_relaxed);
    }

    void retain() noexcept {
        if (owner_.load(std::memory_order_relaxed) == counts::self)
            local_.store(local_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        else
            shared_.fetch_add(counts::one, std::memory_order_relaxed);
    }
    // Drops one reference. True when it was the last: the caller destroys the
    // block. `block` and `destroy` are for the owner's merge queue.
    [[nodiscard]] bool release(void* block, Destroy destroy) noexcept {
        if (owner_.load(std::memory_order_relaxed) == counts::self) {
            const int64_t n = local_.load(std::memory_order_relaxed) - 1;
            local_.store(n, std::memory_order_relaxed);
            return n == 0 && merge_zero_local();
        }
        return release_shared(block, destroy);
    }
    // The handles (exact on the owner, whose queued merges run first).
    int64_t count() const noexcept {
        if (counts::Thread* t = counts::state; t && t->has_queued.load(std::memory_order_relaxed))
            t->merge_queued();
        const int64_t s = shared_.load(std::memory_order_acquire) >> 2;
        return owner_.load(std::memory_order_relaxed) ? local_.load(std::memory_order_relaxed) + s
                                                      : s;
    }

    // The owner's merge of a queued storage (one reference is the queue's), or
    // anyone's once the owner has exited. Returns the references left.
    int64_t merge(int64_t extra) noexcept {
        int64_t s = shared_.load(std::memory_order_relaxed), n = 0;
        do {
            n = local_.load(std::memory_order_relaxed) + (s >> 2) + extra;
        } while (!shared_.compare_exchange_weak(s, n * counts::one | counts::merged,
                                                std::memory_order_acq_rel));
        local_.store(0, std::memory_order_relaxed);
        owner_.store(0, std::memory_order_relaxed);
        return n;
    }

private:
    // The owner's count reached 0: the last reference unless others hold some.
    [[gnu::noinline]] bool merge_zero_local() noexcept {
        int64_t s = shared_.load(std::memory_order_acquire);
        if (s == 0) return true;
        owner_.store(0, std::memory_order_relaxed);
        int64_t merged_s = 0;
        do {
            merged_s = (s & ~counts::flags) | counts::merged;
        } while (!shared_.compare_exchange_weak(s, merged_s, std::memory_order_acq_rel));
        return merged_s == counts::merged;
    }
    // Another thread's drop (out of line: every leaf's destructor inlines release).
    [[gnu::noinline]] bool release_shared(void* block, Destroy destroy) noexcept {
        if (owner_.load(std::memory_order_relaxed) == 0) // merged: shared_ never reads 0 again
            return shared_.fetch_sub(counts::one, std::memory_order_acq_rel) ==
                   (counts::one | counts::merged);
        int64_t s = shared_.load(std::memory_order_relaxed), next = 0;
        bool queue = false;
        do {
            queue = s == 0; // below zero: the owner counted this reference
            next = queue ? counts::queued : s - counts::one;
        } while (!shared_.compare_exchange_weak(s, next, std::memory_order_acq_rel));
        if (queue) return enqueue(block, destroy);
        return next == counts::merged;
    }
    bool enqueue(void* block, Destroy destroy) noexcept;
    friend struct counts::Thread;

    std::atomic<uint64_t> owner_{0};
    std::atomic<int64_t> local_{0};
    std::atomic<int64_t> shared_{0};
    // While queued: the next on the owner's queue, and what destroys the block.
    SharedCount* next_ = nullptr;
    void* block_ = nullptr;
    Destroy destroy_ = nullptr;
};

namespace counts {

inline uint64_t register_thread() {
    thread_local Thread t; // registers; its destructor runs at the thread's exit
    return t.id;
}

inline Thread::Thread() {
    uint64_t tid = 0;
#if defined(__linux__)
    tid = uint32_t(::syscall(SYS_gettid));
#endif
    Registry& r = Registry::get();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.threads.reserve(r.threads.size() + 1); // may throw: nothing registered yet
    id = (uint64_t(++r.serial) << 32) | tid;
    r.threads.push_back(this);
    self = id;
    state = this;
}

inline void Thread::merge_queued() noexcept {
    SharedCount* q = nullptr;
    {
        std::lock_guard<std::mutex> lock(Registry::get().mutex);
        q = std::exchange(queue, nullptr);
        has_queued.store(false, std::memory_order_relaxed);
    }
    while (q) {
        SharedCount* next = q->next_;
        void* block = q->block_;
        const SharedCount::Destroy destroy = q->destroy_;
        if (q->merge(-1) == 0) destroy(block); // the queue's reference was the last
        q = next;
    }
}

inline Thread::~Thread() {
    // From here on this thread owns nothing: its drops of its own storages take
    // the shared path, and a queue finds no owner and merges at once.
    self = exited;
    state = nullptr;
    {
        Registry& r = Registry::get();
        std::lock_guard<std::mutex> lock(r.mutex);
        std::erase(r.threads, this);
    }
    merge_queued();
}

} // namespace counts

inline bool SharedCount::enqueue(void* block, Destroy destroy) noexcept {
    const uint64_t owner = owner_.load(std::memory_order_relaxed);
    counts::Registry& r = counts::Registry::get();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto t = std::find_if(r.threads.begin(), r.threads.end(),
                                [&](const counts::Thread* t) { return owner && t->id == owner; });
    if (t == r.threads.end()) {
        // The owner has exited (or has just merged: owner_ 0): no one counts in
        // local_ any more. The reference this drop kept goes now.
        return merge(-1) == 0;
    }
    block_ = block;
    destroy_ = destroy;
    next_ = std::exchange((*t)->queue, this);
    (*t)->has_queued.store(true, std::memory_order_relaxed);
    return false;
}

} // namespace t7::detail
