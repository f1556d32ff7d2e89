// t7::config(): what this build of the library runs with, one "name: value"
// line each, after the version:
//
//   tensor7 0.1.0
//   SIMD: AVX2 (256-bit packets, 8 floats)
//   threads: 16 (tensor7's thread pool; t7::setNumThreads changes it)
//   maths: SLEEF, vectorised
//   CUDA: ...
//
// SIMD is what Eigen vectorises with in this translation unit (set by -march:
// the build's `native` option); threads is t7::getNumThreads(). CUDA tensors
// are calls into the precompiled tensor7_cuda library, which no header can see:
// the line says so, and t7::cuda::deviceCount() answers at run time.
#pragma once

#include "../core/version.hpp"
#include "../eval/cpu/sleef_ops.hpp"
#include "../iter/parallel.hpp"

#include <Eigen/Core>

#include <string>

namespace t7 {

namespace detail {

// The widest instruction set Eigen vectorises with here ("none" without any).
inline const char* simd_name() {
#if defined(EIGEN_DONT_VECTORIZE)
    return "none";
#elif defined(EIGEN_VECTORIZE_AVX512)
    return "AVX-512";
#elif defined(EIGEN_VECTORIZE_AVX2)
    return "AVX2";
#elif defined(EIGEN_VECTORIZE_AVX)
    return "AVX";
#elif defined(EIGEN_VECTORIZE_SSE4_2)
    return "SSE4.2";
#elif defined(EIGEN_VECTORIZE_SSE4_1)
    return "SSE4.1";
#elif defined(EIGEN_VECTORIZE_SSE2)
    return "SSE2";
#elif defined(EIGEN_VECTORIZE_SVE)
    return "SVE";
#elif defined(EIGEN_VECTORIZE_NEON)
    return "NEON";
#elif defined(EIGEN_VECTORIZE_VSX)
    return "VSX";
#elif defined(EIGEN_VECTORIZE_ALTIVEC)
    return "AltiVec";
#else
    return "none";
#endif
}

// Floats in one of Eigen's packets (1: scalar code).
inline int simd_floats() { return Eigen::internal::packet_traits<float>::size; }

} // namespace detail

// The version, SIMD width, thread count and CUDA support, one per line (above).
inline std::string config() {
    const int floats = detail::simd_floats();
    std::string s = "tensor7 " + version() + "\n";
    s += "SIMD: ";
    if (floats > 1) {
        s += detail::simd_name();
        s += " (" + std::to_string(32 * floats) + "-bit packets, " + std::to_string(floats) +
             " floats)\n";
    } else {
        s += "none (scalar code)\n";
    }
    s += "threads: " + std::to_string(getNumThreads()) +
         " (tensor7's thread pool; t7::setNumThreads changes it)\n";
    s += "maths: " + std::string(cpu::vmath::available ? "SLEEF, vectorised" : "the C library") +
         "\n";
    s += "CUDA: CUDA tensors need the tensor7_cuda library (built when nvcc is found); "
         "t7::cuda::deviceCount() counts the GPUs\n";
    return s;
}

} // namespace t7
