// Splitting a loop over threads: tensor7's own pool (thread_pool.hpp), in
// which the calling thread always works and helpers claim chunks as they come,
// so that a loop on two threads is never slower than on one, on a quiet or a
// busy machine. Work below the grain runs inline on the calling thread, so
// small tensors pay no threading cost.
#pragma once

#include "thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>

#if defined(T7_PARALLEL_OPENMP) && defined(_OPENMP)
#include <omp.h>
#endif

namespace t7 {

namespace detail {
inline std::atomic<int>& num_threads_setting() {
    static std::atomic<int> n{0}; // 0: not set yet, use the default
    return n;
}
} // namespace detail

// The threads a loop may use: setNumThreads's number, else OMP_NUM_THREADS
// when it is a positive number, else the CPUs the process may run on.
inline int getNumThreads() {
    const int n = detail::num_threads_setting().load(std::memory_order_relaxed);
    return n > 0 ? n : detail::default_threads();
}

inline void setNumThreads(int n) { detail::num_threads_setting().store(std::max(1, n)); }

namespace iter {

// Elements below which a loop stays on one thread: a thread fork costs about
// as much as streaming this many floats through simple arithmetic.
inline constexpr int64_t parallel_grain = 32768;

// Work (expr/cost.hpp's units, about a byte moved each) a thread's chunk of
// an expression must hold before a thread team pays: starting and joining
// one costs ~3 us on the 2-core VMs measured (bench/RESULTS.md, "Twelfth
// pass"), the time one thread takes to move ~0.7 MiB of cache-resident
// operands; a chunk of 2^20 units is 4.5-6 us of work there.
inline constexpr int64_t chunk_work = int64_t(1) << 20;

// Elements per chunk for an expression of `cost` units per element: a copy of
// floats (8 units) threads from 2^18 elements, W3's tree (37) from 2^16.
constexpr int64_t grain_for(int64_t cost) {
    return std::max<int64_t>(1, chunk_work / std::max<int64_t>(1, cost));
}

// Walking tiles of a transposed operand (and packing them) costs 2-3x a flat
// pass per element (256^2: y = x.t() + x 11 us, y = a + s*b 4.7 us): a tiled
// loop's grain is its flat grain divided by this.
inline constexpr int64_t tiled_work_factor = 4;

// Loops of fewer grains of work than this (a grain: chunk_work units, about
// 5 us) do not wake a pool thread that has gone to sleep: the wake (a system
// call) and the time the thread takes to start cost about what it would save,
// and a woken thread that claims a chunk late holds up the caller. A pool
// thread still spinning after a previous loop joins any loop.
inline constexpr int64_t wake_grains = 8;

// Chunks per thread of parallel_split: smaller chunks than threads, so that a
// helper the scheduler parks holds little of the loop.
inline constexpr int64_t split_chunks_per_thread = 4;

// The threaded part of parallel_for, apart so that parallel_for itself (its
// serial path: every small tensor) stays small enough to inline: `chunks`
// equal contiguous chunks of [0, n) on at most `threads` threads (0: `chunks`),
// for `grains` grains of work (0: enough to wake sleeping pool threads). Every chunk
// runs; then the exception of the first chunk that threw, if any, is
// rethrown - what a serial run would throw.
template <class F>
[[gnu::noinline]] void parallel_chunks(int64_t n, int64_t chunks, F& f, int64_t threads = 0,
                                       int64_t grains = 0) {
#if defined(T7_PARALLEL_OPENMP) && defined(_OPENMP)
    // OpenMP's fork-join, as before issue 33: bench/bench_threads.cpp builds it
    // (bench_threads_omp) to compare. Not for use elsewhere.
    (void)threads;
    (void)grains;
    std::exception_ptr error;
    int64_t error_chunk = chunks;
#pragma omp parallel for num_threads(int(chunks)) schedule(static, 1)
    for (int64_t c = 0; c < chunks; ++c) {
        try {
            f(n * c / chunks, n * (c + 1) / chunks, c);
        } catch (...) {
#pragma omp critical(t7_parallel_for_error)
            if (c < error_chunk) {
                error = std::current_exception();
                error_chunk = c;
            }
        }
    }
    if (error) std::rethrow_exception(error);
#else
    struct Loop {
        F* f;
        int64_t n, chunks;
    } loop{&f, n, chunks};
    t7::detail::run_chunks(
        chunks, int(threads > 0 ? threads : chunks), grains == 0 || grains >= wake_grains,
        [](void* p, int64_t c) {
            const Loop& l = *static_cast<const Loop*>(p);
            (*l.f)(l.n * c / l.chunks, l.n * (c + 1) / l.chunks, c);
        },
        &loop);
#endif
}

// Calls f(begin, end, chunk) on disjoint chunks covering [0, n); chunks are
// contiguous, in order, and at most getNumThreads() of them. An exception
// thrown by f (a user functor of t7::map, a failed check) reaches the caller
// from any thread.
template <class F>
void parallel_for(int64_t n, int64_t grain, F&& f) {
    const int64_t threads = std::min(getNumThreads(), t7::detail::max_pool_threads);
    const int64_t chunks =
        std::min<int64_t>(threads, std::max<int64_t>(1, n / std::max<int64_t>(grain, 1)));
    if (chunks <= 1) {
        f(int64_t(0), n, int64_t(0));
        return;
    }
    parallel_chunks(n, chunks, f, chunks, n / std::max<int64_t>(grain, 1));
}

// As parallel_for, on at most `chunks` threads over [0, n), but in up to
// split_chunks_per_thread chunks per thread (never more than n): the chunk
// index is below split_chunks_per_thread * getNumThreads(). Reductions cut
// their work into blocks fixed by the shape (their rounding must not depend on
// the thread count or the chunks) and let threads take contiguous ranges of
// whole blocks: n counts blocks, `chunks` how many threads the work is worth
// (its grains).
template <class F>
void parallel_split(int64_t n, int64_t chunks, F&& f) {
    const int64_t threads = std::min<int64_t>(
        {chunks, int64_t(std::min(getNumThreads(), t7::detail::max_pool_threads)), n});
    if (threads <= 1) {
        f(int64_t(0), n, int64_t(0));
        return;
    }
    parallel_chunks(n, std::min(n, threads * split_chunks_per_thread), f, threads, chunks);
}

// The scope of an operation that runs several parallel loops in a row (a
// product's blocks of k, a factorisation's steps): while one is alive, a pool
// thread that finishes a loop, and the caller that waits for its helpers,
// spin for up to a millisecond rather than block, so that the next loop finds
// them awake (a blocked thread's wake costs 0.1-0.2 ms on a VM; see
// thread_pool_impl.hpp, linger_ns). Without effect when `on` is false or the
// program runs on one thread.
class Linger {
    bool on_;

public:
    explicit Linger(bool on = true) : on_(on && getNumThreads() > 1) {
        if (on_) t7::detail::linger(1);
    }
    ~Linger() {
        if (on_) t7::detail::linger(-1);
    }
    Linger(const Linger&) = delete;
    Linger& operator=(const Linger&) = delete;
};

// As parallel_for, for loops that take any contiguous ranges and keep nothing
// per chunk (element-wise assignments): up to split_chunks_per_thread chunks
// per thread, each claimed by whichever thread is free, so that a helper that
// starts late or shares its core (another process, an OpenMP team still
// spinning after its region) holds a quarter of its share, not half the loop.
template <class F>
void parallel_ranges(int64_t n, int64_t grain, F&& f) {
    parallel_split(n, n / std::max<int64_t>(grain, 1), f);
}
} // namespace iter
} // namespace t7
