// Compiler portability macros shared by every layer (host and device code).
// Every public header (t7.hpp, tensor.hpp, cuda.hpp) includes this first.
#pragma once

// tensor7 needs C++20. Below it, compilation stops here with one error naming
// C++20: a missing #include is fatal to GCC, Clang, nvcc and MSVC, where #error
// would be followed by pages of errors from the headers after it.
// (MSVC keeps __cplusplus at 199711L unless /Zc:__cplusplus; _MSVC_LANG is right.)
#if defined(_MSVC_LANG) ? _MSVC_LANG < 202002L : __cplusplus < 202002L
#include "tensor7 needs C++20: compile with -std=c++20 (or later)"
#endif

// g++ 12's AVX-512 intrinsics initialise a variable with itself (GCC bug 105593,
// fixed in g++ 13), and -Wall then warns at every inlined use, in users' code,
// from inside that system header. Included first, here, with those two warnings
// off for the header's own lines only.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13 && defined(__AVX512F__) &&           \
    !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

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

// Whether this translation unit compiles the definitions that libtensor7 holds
// compiled (file formats: io/*_impl.hpp). A program that links the library
// defines T7_PRECOMPILED and sees only their declarations, which saves it their
// parsing; the library itself (T7_PRECOMPILED_BUILD), nvcc's translation units and
// programs using the headers alone compile them.
#if !defined(T7_PRECOMPILED) || defined(T7_PRECOMPILED_BUILD) || defined(__CUDACC__)
#define T7_LIBRARY_DEFINITIONS 1
#else
#define T7_LIBRARY_DEFINITIONS 0
#endif
