// The CPU decompositions of the four linear-algebra element types (linalg.hpp,
// linalg_extra.hpp), with Eigen's solvers behind them (BDCSVD, the eigensolvers,
// Householder QR, blocked LU and Cholesky: 10-120 s of g++'s time per unit that
// calls a few of them), compiled once in the way of the products
// (include/t7/eval/cpu/blas.hpp, end): a unit defining T7_EXTERN_DECOMPOSITIONS
// sees them as `extern template` and must link the objects of a unit that defined
// T7_EXTERN_DECOMPOSITIONS_BUILD (all four types: several minutes of g++ and
// gigabytes of memory) or, split over files, of units that each expand
// T7_LINALG_INSTANCES(template, T) for some of the types (tensor7's own tests,
// examples and benchmarks: src/decompositions_<type>.cpp).
#pragma once

#include "linalg_extra.hpp"

// T7_LINALG_INSTANCES(KW, T): the list for one element type, after KW (`template`
// or `extern template`).
// (a list of declarations, formatted by hand)
// clang-format off
#define T7_LINALG_INSTANCES(KW, T)                                                                 \
    namespace t7 {                                                                                 \
    KW GesvResult<T> gesv<T, CPU>(const Tensor<T>&, const Tensor<T>&);                             \
    KW Tensor<T> inverse<T, CPU>(const Tensor<T>&);                                                \
    KW Tensor<T> potrf<T, CPU>(const Tensor<T>&, char);                                            \
    KW Tensor<T> potrs<T, CPU>(const Tensor<T>&, const Tensor<T>&, char);                          \
    KW Tensor<T> potri<T, CPU>(const Tensor<T>&, char);                                            \
    KW QRResult<T> qr<T, CPU>(const Tensor<T>&);                                                   \
    KW SVDResult<T> svd<T, CPU>(const Tensor<T>&, char);                                           \
    KW EigResult<T, CPU, real_t<T>> symeig<T, CPU>(const Tensor<T>&, char, char);                  \
    KW EigResult<T> eig<T, CPU>(const Tensor<T>&, char);                                           \
    KW Tensor<T> gels<T, CPU>(const Tensor<T>&, const Tensor<T>&);                                 \
    KW TrtrsResult<T> trtrs<T, CPU>(const Tensor<T>&, const Tensor<T>&, char, char, char);         \
    KW PstrfResult<T> pstrf<T, CPU>(const Tensor<T>&, char, double);                               \
    KW GeqrfResult<T> geqrf<T, CPU>(const Tensor<T>&);                                             \
    KW Tensor<T> orgqr<T, CPU>(const Tensor<T>&, const Tensor<T>&);                                \
    KW Tensor<T> ormqr<T, CPU>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, char, char);  \
    }
// clang-format on

#if defined(T7_EXTERN_DECOMPOSITIONS_BUILD)
#define T7_LINALG_INSTANTIATION template
#elif defined(T7_EXTERN_DECOMPOSITIONS) && !defined(__CUDACC__)
#define T7_LINALG_INSTANTIATION extern template
#endif
#if defined(T7_LINALG_INSTANTIATION)
T7_LINALG_INSTANCES(T7_LINALG_INSTANTIATION, float)
T7_LINALG_INSTANCES(T7_LINALG_INSTANTIATION, double)
T7_LINALG_INSTANCES(T7_LINALG_INSTANTIATION, std::complex<float>)
T7_LINALG_INSTANCES(T7_LINALG_INSTANTIATION, std::complex<double>)
#undef T7_LINALG_INSTANTIATION
#endif
