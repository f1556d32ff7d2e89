// -Dblas=true (EIGEN_USE_BLAS; built only then): each part of a product is an
// OpenBLAS call from a pool thread, run single-threaded there
// (eval/cpu/gemm_kernels.hpp, BlasThreads), whichever variant is loaded
// (LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp picks Debian's
// OpenMP one): no thread is started by products on 2 threads (an OpenMP
// OpenBLAS would start a team for each pool thread calling it), and the pthreads
// build's thread count is 1 after a product (else 2 pool threads x N).
#include "linalg_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <cstdint>
#include <filesystem>

#if defined(__linux__)
#include <dlfcn.h>
#endif

using namespace linalg_util;

#if defined(EIGEN_USE_BLAS) && defined(__linux__)
TEST_CASE("-Dblas=true: OpenBLAS runs single-threaded in the pool's parts") {
    auto threads_now = [] {
        int64_t n = 0;
        for ([[maybe_unused]] const auto& e :
             std::filesystem::directory_iterator("/proc/self/task"))
            ++n;
        return n;
    };
    t7::setNumThreads(2);
    // The pool's thread started by an element-wise loop (2^24 floats), no BLAS.
    t7::FloatTensor big(int64_t(1) << 24);
    big.fill(1);
    t7::FloatTensor twice = big * 2.f;
    CHECK(double(t7::sum(twice)) == double(int64_t(1) << 25));
    const int64_t before = threads_now();
    auto a = random_matrix<float>(600, 500), b = random_matrix<float>(500, 700);
    CHECK(max_diff(t7::mm(a, b), ref_mm(a, b)) < 1e-4 * 501); // parts on 2 threads
    for (int i = 0; i < 3; ++i) {
        auto c = t7::mm(a, b);
        auto v = t7::mv(a, b.select(1, 0));
        CHECK(c.size(0) == 600);
        CHECK(v.size(0) == 600);
    }
    CHECK(threads_now() == before);
    auto get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    auto parallel = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_parallel"));
    if (get != nullptr && parallel != nullptr && parallel() == 1) CHECK(get() == 1);
}
#endif
