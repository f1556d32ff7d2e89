// The CPU decompositions of std::complex<double> (include/t7/math/linalg_instances.hpp),
// compiled once for tensor7's own tests, examples and benchmarks, with their flags
// (-march=native): their translation units define T7_EXTERN_DECOMPOSITIONS and
// instantiate none. One file per type: all four in one take minutes and gigabytes.
#define T7_EXTERN_PRODUCTS
#define T7_EXTERN_DECOMPOSITIONS
#include <t7/t7.hpp>

T7_LINALG_INSTANCES(template, std::complex<double>)
