// SerialEigen: Eigen's decompositions (qr, svd, symeig, eig, gels, geqrf, orgqr,
// ormqr of math/linalg*.hpp) run whole on the calling thread, never with an OpenMP
// team (issue 43: on a busy machine each barrier of a team waits out a parked
// thread's time slice, and tensor7's threads are its pool's).
//
// Eigen's only team is its GEMM's (Core/products/Parallelizer.h), of
// Eigen::nbThreads() threads: the program's Eigen::setNbThreads number if it set
// one, else omp_get_max_threads() of the calling thread. That last one is a
// per-thread OpenMP setting: set to 1 for the scope of one call and restored
// after, it changes nothing for the program's other threads, nor Eigen's global
// number (the program's own Eigen code keeps its settings). Not a macro
// (EIGEN_DONT_PARALLELIZE): Eigen's templates would then differ between
// translation units, an ODR violation. A program that calls
// Eigen::setNbThreads(n > 1) itself still gets Eigen's n threads there, its choice.
// With EIGEN_USE_BLAS its BLAS calls are single-threaded too (SerialBlas,
// gemm_kernels.hpp: OpenBLAS's own threads, whichever build is loaded).
#pragma once

#include "gemm_kernels.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace t7::detail::eig {

class SerialEigen {
public:
#if defined(_OPENMP)
    SerialEigen() : saved_(omp_get_max_threads()) {
        if (saved_ != 1) omp_set_num_threads(1);
    }
    ~SerialEigen() {
        if (saved_ != 1) omp_set_num_threads(saved_);
    }
#else
    SerialEigen() {} // user-provided: a guard is not an "unused variable"
#endif
    SerialEigen(const SerialEigen&) = delete;
    SerialEigen& operator=(const SerialEigen&) = delete;

private:
    [[maybe_unused]] SerialBlas blas_;
#if defined(_OPENMP)
    int saved_;
#endif
};

} // namespace t7::detail::eig
