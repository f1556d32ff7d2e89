// Small timing helpers shared by the benchmarks: best-of-reps wall time.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace bench {

// Best time per call (seconds) of f over `reps` repetitions of `inner` calls.
template <class F>
double best_time(F&& f, int reps, int64_t inner) {
    double best = 1e30;
    f(); // warm caches and pages
    for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < inner; ++i) f();
        auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count() / double(inner));
    }
    return best;
}

// Keeps the optimiser from discarding a result.
template <class T>
inline void keep(const T& v) {
    asm volatile("" : : "g"(&v) : "memory");
}

} // namespace bench
