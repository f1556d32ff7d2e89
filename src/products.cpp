// The CPU matrix products of float, double and the complex types
// (t7::detail::eig::cpu_gemm, include/t7/eval/cpu/blas.hpp), compiled once for
// tensor7's own tests, examples and benchmarks, with their flags (-march=native):
// their translation units define T7_EXTERN_PRODUCTS and instantiate none.
#define T7_EXTERN_PRODUCTS_BUILD
#include <t7/t7.hpp>
