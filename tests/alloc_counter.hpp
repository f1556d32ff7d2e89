// Counts heap allocations with a replaced global operator new (the suites that
// check that an operation allocates nothing, or nothing of a given size).
// Defines the replaceable operators: include it in one file per executable.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

inline std::atomic<long> g_allocs{0};
inline std::atomic<size_t> g_largest{0}; // the largest request since it was last reset

inline void* counted_new(std::size_t n) {
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    size_t l = g_largest.load();
    while (n > l && !g_largest.compare_exchange_weak(l, n)) {
    }
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}

// (g++ sees the replaced operator delete's free() inlined where the standard
// operator new was assumed.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) { return counted_new(n); }
void* operator new[](std::size_t n) { return counted_new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too (std::stable_sort's buffer): otherwise AddressSanitizer's
// own nothrow new meets the free() above, an alloc-dealloc mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_new(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

// Allocations made while f runs.
template <class F>
long allocations(F&& f) {
    const long before = g_allocs.load();
    f();
    return g_allocs.load() - before;
}
