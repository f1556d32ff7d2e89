// stream_copy: a copy of many megabytes with non-temporal stores, for the flat
// y = x of eval/cpu/assign.hpp (issue 43). glibc's memcpy bypasses the cache only
// above its non-temporal threshold (3/4 of the L3 it sees: 127 MiB on the 2-vCPU
// EPYC VM of bench/RESULTS.md), so a 64 MiB copy, and each part of a larger one
// split over the pool, went through the cache: every destination line read
// before it is written, a third more memory traffic than the copy itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

// SSE2's own header where that is all the build has: <immintrin.h> declares every
// instruction set's intrinsics, ~100 MB of the compiler's memory and 0.6 s in each
// user translation unit (bench/compile_time.py); -mavx builds have it from Eigen.
#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace t7::detail::cpu_copy {

// Copies of at least this many bytes in all stream (far past any L2, and a
// destination that large is not read back from the cache anyway); smaller ones
// are memcpy's.
inline constexpr int64_t stream_copy_bytes = int64_t(16) << 20;

// dst[0, n) = src[0, n), not overlapping; the stores bypass the cache (a fence
// at the end orders them before whatever the caller does next).
inline void stream_copy(void* dst, const void* src, size_t n) {
#if defined(__AVX512F__)
    using V = __m512i;
#define T7_LOAD(p) _mm512_loadu_si512(p)
#define T7_STREAM(p, v) _mm512_stream_si512(reinterpret_cast<V*>(p), v)
#elif defined(__AVX__)
    using V = __m256i;
#define T7_LOAD(p) _mm256_loadu_si256(reinterpret_cast<const V*>(p))
#define T7_STREAM(p, v) _mm256_stream_si256(reinterpret_cast<V*>(p), v)
#elif defined(__SSE2__)
    using V = __m128i;
#define T7_LOAD(p) _mm_loadu_si128(reinterpret_cast<const V*>(p))
#define T7_STREAM(p, v) _mm_stream_si128(reinterpret_cast<V*>(p), v)
#endif
#if defined(__SSE2__)
    constexpr size_t W = sizeof(V);
    char* d = static_cast<char*>(dst);
    const char* s = static_cast<const char*>(src);
    // the head up to an aligned destination, then four vectors at a time
    const size_t head = std::min(n, (W - reinterpret_cast<uintptr_t>(d) % W) % W);
    std::memcpy(d, s, head);
    size_t i = head;
    for (; i + 4 * W <= n; i += 4 * W) {
        const V a = T7_LOAD(s + i), b = T7_LOAD(s + i + W), c = T7_LOAD(s + i + 2 * W),
                e = T7_LOAD(s + i + 3 * W);
        T7_STREAM(d + i, a);
        T7_STREAM(d + i + W, b);
        T7_STREAM(d + i + 2 * W, c);
        T7_STREAM(d + i + 3 * W, e);
    }
    std::memcpy(d + i, s + i, n - i);
    _mm_sfence();
#undef T7_LOAD
#undef T7_STREAM
#else
    std::memcpy(dst, src, n);
#endif
}

} // namespace t7::detail::cpu_copy
