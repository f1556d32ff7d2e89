// The threads behind iter::parallel_for: a small pool of tensor7's own (issue
// 33, "threads that never collapse"). One parallel loop at a time owns it; the
// calling thread always works, and every thread, the caller included, claims
// the loop's chunks one at a time from one shared atomic word, so a helper the
// scheduler has parked delays nothing it has not claimed: the caller claims the
// rest itself, and waits only for chunks a helper is running. Waits spin a few
// microseconds, then block (std::atomic::wait: a futex on Linux); blocked
// helpers are woken away from the caller's CPU (thread_pool_impl.hpp,
// steer_away). A parallel loop started while the pool is taken (a loop inside
// a chunk, or one from another user thread) runs its chunks serially on its own
// thread: never more threads than getNumThreads(), and no deadlock.
//
// Compiled once into libtensor7 (src/thread_pool.cpp) when T7_PRECOMPILED is
// defined (tensor7_dep, tensor7.pc, tensor7::tensor7); otherwise (headers used
// alone, nvcc) the definitions below are inline, in thread_pool_impl.hpp.
#pragma once

#include <cstdint>

namespace t7 {
namespace detail {

// A chunk of a loop: run(ctx, chunk). May throw.
using ChunkFn = void (*)(void* ctx, int64_t chunk);

// Threads at most in a loop (the pool's helpers and the caller): what fits in
// the pool's claim word (thread_pool_impl.hpp).
inline constexpr int max_pool_threads = 256;

} // namespace detail
} // namespace t7

#if defined(T7_THREAD_POOL_DEFINE)
#define T7_POOL_LINKAGE
#include "thread_pool_impl.hpp"
#elif (defined(T7_PRECOMPILED) || defined(T7_PRECOMPILED_BUILD)) && !defined(__CUDACC__)
namespace t7::detail {
// Runs chunks 0 .. chunks-1 of fn, each exactly once, on at most `threads`
// threads (the caller and threads-1 of the pool's), and returns when all are
// done; then rethrows the exception of the lowest chunk that threw, if any.
// While the pool is taken, runs them in order on the calling thread. Pool
// threads that have gone to sleep are woken only if `wake`.
void run_chunks(int64_t chunks, int threads, bool wake, ChunkFn fn, void* ctx);
// getNumThreads() before setNumThreads: OMP_NUM_THREADS when it is a positive
// number, else the CPUs this process may run on.
int default_threads();
// +1: an operation of several loops in a row begins (its threads spin between
// them rather than block: iter::Linger); -1: it has ended.
void linger(int delta);
// Scopes of linger(+1) alive now, for tests.
int lingering();
// Loops split into two or more chunks (calls of run_chunks) so far, for tests
// that check where a loop starts to thread.
uint64_t threaded_loops();
} // namespace t7::detail
#else
#define T7_POOL_LINKAGE inline
#include "thread_pool_impl.hpp"
#endif
#undef T7_POOL_LINKAGE
