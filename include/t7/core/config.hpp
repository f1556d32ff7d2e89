// Compiler portability macros shared by every layer (host and device code).
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define T7_HOST_DEVICE __host__ __device__
#else
#define T7_HOST_DEVICE
#endif

#if defined(__GNUC__)
#define T7_INLINE inline __attribute__((always_inline))
#define T7_RESTRICT __restrict__
#else
#define T7_INLINE inline
#define T7_RESTRICT
#endif
