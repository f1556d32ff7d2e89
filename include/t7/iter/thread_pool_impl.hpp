// The definitions of thread_pool.hpp: inline when the headers are used alone,
// compiled once in libtensor7 (src/thread_pool.cpp) otherwise. Included by
// thread_pool.hpp only, with T7_POOL_LINKAGE defined to `inline` or nothing.
//
// One loop at a time owns the pool (`taken`). Its caller writes the loop's
// function and context, then publishes the loop in one 64-bit word: the next
// unclaimed chunk (bits 0-19), the number of chunks (20-39), how many pool
// threads may help (40-47) and the loop's epoch (48-63). A thread claims chunk
// `next` by a compare-exchange of word into word + 1, only while next < chunks,
// so a claim always belongs to the loop now published; the loop cannot end,
// and its function and context stay valid, until every claimed chunk has been
// counted in `done`. A late helper finds the word of a finished loop (or of a
// later one, under another epoch) and claims nothing.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

namespace t7::detail {
namespace pool {

// How long a waiting thread spins before it blocks: a helper between two loops
// (a loop that follows within this time finds it awake), the caller waiting for
// the chunks its helpers are running.
inline constexpr int64_t spin_ns = 5000;
// How long they spin while an operation of several loops in a row holds the
// pool (linger, below: a product's blocks): a thread that blocked between them
// woke 0.1-0.2 ms later on this project's 2-CPU VM (a halted virtual CPU), and
// mm 512^3, four loops, ran on two threads at 1.5-1.7x one thread, 1.8x spinning.
inline constexpr int64_t linger_ns = 1000000;

inline constexpr uint64_t field = (uint64_t(1) << 20) - 1;
inline int64_t next_of(uint64_t w) { return int64_t(w & field); }
inline int64_t chunks_of(uint64_t w) { return int64_t((w >> 20) & field); }
inline int helpers_of(uint64_t w) { return int((w >> 40) & 255); }
inline uint32_t epoch_of(uint64_t w) { return uint32_t(w >> 48); }
inline uint64_t word_of(uint32_t epoch, int helpers, int64_t chunks) {
    return uint64_t(epoch & 0xffff) << 48 | uint64_t(helpers) << 40 | uint64_t(chunks) << 20;
}
inline constexpr int64_t max_chunks = int64_t(field);
inline constexpr int max_steered = 3; // helpers steer_away moves, at most

struct State {
    std::atomic<bool> taken{false};
    std::atomic<uint64_t> loops{0}; // calls of run_chunks
    alignas(64) std::atomic<uint64_t> word{0};
    ChunkFn fn = nullptr;
    void* ctx = nullptr;
    alignas(64) std::atomic<uint32_t> done{0}; // chunks of the loop run to their end
    std::atomic<uint32_t> caller_waits{0};     // the caller blocks on `done`
    alignas(64) std::atomic<uint32_t> wake{0}; // bumped for each loop with helpers
    std::atomic<int> sleepers{0};              // helpers blocked on `wake`
    std::atomic<int> lingering{0};             // scopes of linger(+1) not yet ended
    std::mutex error_mutex;
    std::exception_ptr error; // that of the lowest chunk that threw
    int64_t error_chunk = 0;
    int workers = 0;    // pool threads started (by the owner only)
    uint32_t epoch = 0; // loops published (by the owner only)
#if defined(__linux__)
    // steer_away (below): the first workers' thread ids (0: not known yet), whether
    // each is kept off a caller's CPU, and the CPUs they return to (the process's
    // when the pool started); steer: there are two or more.
    std::atomic<int> tids[max_steered] = {};
    std::atomic<bool> steered[max_steered] = {};
    cpu_set_t cpus;
    bool steer = false;
#endif
};

// Never destroyed: pool threads may still wait on it while the program exits.
T7_POOL_LINKAGE State& state() {
    static State* s = [] {
        State* p = new State;
#if defined(__linux__)
        CPU_ZERO(&p->cpus);
        p->steer = sched_getaffinity(0, sizeof(p->cpus), &p->cpus) == 0 && CPU_COUNT(&p->cpus) > 1;
#endif
        return p;
    }();
    return *s;
}

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until ready() or spin_ns have passed (linger_ns while an operation
// lingers); true when ready.
template <class P>
bool spin(const State& s, const P& ready) {
    if (ready()) return true;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        for (int i = 0; i < 32; ++i) {
            relax();
            if (ready()) return true;
        }
        const auto spun = std::chrono::steady_clock::now() - start;
        if (spun > std::chrono::nanoseconds(spin_ns) &&
            (spun > std::chrono::nanoseconds(linger_ns) ||
             s.lingering.load(std::memory_order_relaxed) == 0))
            return ready();
    }
}

#if defined(__linux__)
// Before waking sleeping helpers: the first few may run anywhere but on the
// caller's CPU until they wake (then each frees itself). Linux places a woken
// thread on its last CPU or the waker's unless another looks idle, and a VM's
// idle virtual CPU can look busy (halted: "preempted"): on this project's 2-CPU
// VM a helper woke after 1-3 ms, or on the caller's CPU and took turns with it,
// in a third of the loops after a pause (0.2 ms, and never, when steered). A
// system call (~1.5 us) each: on a larger machine the helpers past the first
// few go where Linux puts them.
inline void steer_away(State& s, int helpers) {
    cpu_set_t away = s.cpus;
    const int here = sched_getcpu();
    if (here < 0 || !CPU_ISSET(here, &away)) return;
    CPU_CLR(here, &away);
    for (int i = 0; i < std::min(helpers, max_steered); ++i)
        if (const int tid = s.tids[i].load(std::memory_order_relaxed)) {
            // the mask first: a helper that sees `steered` finds it to undo
            if (sched_setaffinity(tid, sizeof(away), &away) == 0)
                s.steered[i].store(true, std::memory_order_release);
        }
}
#endif

// Claims the next chunk of the loop of `epoch`: false when it has none left
// (or has ended).
inline bool claim(State& s, uint32_t epoch, int64_t& chunk, int64_t& chunks) {
    uint64_t w = s.word.load(std::memory_order_acquire);
    for (;;) {
        if (epoch_of(w) != (epoch & 0xffff) || next_of(w) >= chunks_of(w)) return false;
        if (s.word.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
            chunk = next_of(w);
            chunks = chunks_of(w);
            return true;
        }
    }
}

inline void run_one(State& s, ChunkFn fn, void* ctx, int64_t chunk) {
    try {
        fn(ctx, chunk);
    } catch (...) {
        std::lock_guard<std::mutex> lock(s.error_mutex);
        if (!s.error || chunk < s.error_chunk) {
            s.error = std::current_exception();
            s.error_chunk = chunk;
        }
    }
}

T7_POOL_LINKAGE void worker(int index, uint32_t seen) {
    State& s = state();
#if defined(__linux__)
    if (index < max_steered) s.tids[index].store(int(gettid()), std::memory_order_relaxed);
#endif
    for (;;) {
        if (!spin(s, [&] { return s.wake.load(std::memory_order_acquire) != seen; })) {
            s.sleepers.fetch_add(1, std::memory_order_seq_cst);
            while (s.wake.load(std::memory_order_seq_cst) == seen)
                s.wake.wait(seen, std::memory_order_seq_cst);
            s.sleepers.fetch_sub(1, std::memory_order_relaxed);
        }
#if defined(__linux__)
        if (index < max_steered && s.steered[index].load(std::memory_order_relaxed) &&
            s.steered[index].exchange(false, std::memory_order_acq_rel)) // free again
            sched_setaffinity(0, sizeof(s.cpus), &s.cpus);
#endif
        seen = s.wake.load(std::memory_order_acquire);
        const uint64_t w = s.word.load(std::memory_order_acquire);
        if (index >= helpers_of(w)) continue;
        int64_t chunk, chunks;
        while (claim(s, epoch_of(w), chunk, chunks)) {
            run_one(s, s.fn, s.ctx, chunk);
            const uint32_t d = s.done.fetch_add(1, std::memory_order_seq_cst) + 1;
            if (d == uint32_t(chunks) && s.caller_waits.load(std::memory_order_seq_cst))
                s.done.notify_all();
        }
    }
}

} // namespace pool

T7_POOL_LINKAGE int default_threads() {
    static const int n = [] {
        if (const char* v = std::getenv("OMP_NUM_THREADS")) {
            char* end = nullptr;
            const long k = std::strtol(v, &end, 10);
            if (end != v && k > 0) return int(std::min<long>(k, 1 << 20));
        }
#if defined(__linux__)
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
            return int(CPU_COUNT(&set));
#endif
        const unsigned h = std::thread::hardware_concurrency();
        return h > 0 ? int(h) : 1;
    }();
    return n;
}

T7_POOL_LINKAGE void linger(int delta) {
    pool::state().lingering.fetch_add(delta, std::memory_order_relaxed);
}

T7_POOL_LINKAGE int lingering() { return pool::state().lingering.load(std::memory_order_relaxed); }

T7_POOL_LINKAGE uint64_t threaded_loops() {
    return pool::state().loops.load(std::memory_order_relaxed);
}

T7_POOL_LINKAGE void run_chunks(int64_t chunks, int threads, bool wake, ChunkFn fn, void* ctx) {
    pool::State& s = pool::state();
    s.loops.fetch_add(1, std::memory_order_relaxed);
    threads = int(std::min<int64_t>({int64_t(threads), chunks, int64_t(max_pool_threads)}));
    if (threads <= 1 || chunks > pool::max_chunks ||
        s.taken.exchange(true, std::memory_order_acquire)) {
        // One thread, or the pool is taken (a loop inside a chunk, a loop of
        // another user thread): the chunks in order, here.
        for (int64_t c = 0; c < chunks; ++c) fn(ctx, c);
        return;
    }
    struct Release {
        pool::State& s;
        ~Release() { s.taken.store(false, std::memory_order_release); }
    } release{s};

    int helpers = threads - 1;
    while (s.workers < helpers) {
        try {
            std::thread(pool::worker, s.workers, s.wake.load(std::memory_order_relaxed)).detach();
        } catch (...) {
            break; // no more threads: the loop runs with those there are
        }
        ++s.workers;
    }
    helpers = std::min(helpers, s.workers);

    s.fn = fn;
    s.ctx = ctx;
    s.error = nullptr;
    s.error_chunk = chunks;
    s.done.store(0, std::memory_order_relaxed);
    const uint32_t epoch = ++s.epoch;
    s.word.store(pool::word_of(epoch, helpers, chunks), std::memory_order_release);
    if (helpers > 0) {
        s.wake.fetch_add(1, std::memory_order_seq_cst);
        if (wake && s.sleepers.load(std::memory_order_seq_cst) > 0) {
#if defined(__linux__)
            if (s.steer) pool::steer_away(s, helpers);
#endif
            s.wake.notify_all();
        }
    }

    // The caller works: it claims chunks until none is left, whoever helps.
    int64_t chunk, n;
    while (pool::claim(s, epoch, chunk, n)) {
        pool::run_one(s, fn, ctx, chunk);
        s.done.fetch_add(1, std::memory_order_acq_rel);
    }
    // Then waits for the chunks its helpers claimed and are running.
    const auto all = [&] { return s.done.load(std::memory_order_acquire) == uint32_t(chunks); };
    if (!pool::spin(s, all)) {
        for (;;) {
            s.caller_waits.store(1, std::memory_order_seq_cst);
            const uint32_t d = s.done.load(std::memory_order_seq_cst);
            if (d == uint32_t(chunks)) break;
            s.done.wait(d, std::memory_order_seq_cst);
        }
        s.caller_waits.store(0, std::memory_order_relaxed);
    }
    std::exception_ptr error = std::move(s.error);
    s.error = nullptr;
    if (error) std::rethrow_exception(error); // `release` frees the pool as it unwinds
}

} // namespace t7::detail
