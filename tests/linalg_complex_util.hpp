// Helpers of the complex linear algebra suites (test_linalg_complex.cpp,
// test_linalg_complex2.cpp): complex matrices from rows, naive products and
// differences over std::complex<double>.
#pragma once

#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace lc {

using C = std::complex<double>;
inline const C I(0, 1);

template <class Z>
using R = typename Z::value_type;

// Tolerance on a result of order 1: float's and double's.
template <class Z>
double tol() {
    return std::is_same_v<Z, std::complex<float>> ? 1e-4 : 1e-10;
}

// A tensor from rows of complex values.
template <class Z>
t7::Tensor<Z> matrix(const std::vector<std::vector<C>>& rows) {
    t7::Tensor<Z> a(int64_t(rows.size()), int64_t(rows[0].size()));
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j) a(i, j) = Z(rows[size_t(i)][size_t(j)]);
    return a;
}

// Naive product in double, the first operand conjugate-transposed when asked.
template <class Z>
t7::ComplexDoubleTensor ref_mm(const t7::Tensor<Z>& a, const t7::Tensor<Z>& b,
                               bool adjoint_a = false) {
    const int64_t m = adjoint_a ? a.size(1) : a.size(0), k = adjoint_a ? a.size(0) : a.size(1);
    REQUIRE(b.size(0) == k);
    t7::ComplexDoubleTensor r(m, b.size(1));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            C s = 0;
            for (int64_t l = 0; l < k; ++l) {
                const C x = adjoint_a ? std::conj(C(a(l, i))) : C(a(i, l));
                s += x * C(b(l, j));
            }
            r(i, j) = s;
        }
    return r;
}

// The conjugate transpose, naively.
template <class Z>
t7::Tensor<Z> adjoint(const t7::Tensor<Z>& a) {
    t7::Tensor<Z> r(a.size(1), a.size(0));
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j) r(j, i) = std::conj(Z(a(i, j)));
    return r;
}

// Largest |a - b| over elements (same sizes, any complex types; 1-D or 2-D).
template <class A, class B>
double max_diff(const t7::Tensor<A>& a, const t7::Tensor<B>& b) {
    REQUIRE(a.sizes() == b.sizes());
    if (a.dim() == 1) return max_diff(a.view(a.size(0), 1), b.view(b.size(0), 1));
    double d = 0;
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j) d = std::max(d, std::abs(C(a(i, j)) - C(b(i, j))));
    return d;
}

// Non-Hermitian, diagonally dominant (well conditioned).
template <class Z>
t7::Tensor<Z> a3() {
    return matrix<Z>({{4. + I, 1., -I}, {2. * I, 3., 1. - I}, {1., -1. + I, 5.}});
}

inline t7::ComplexDoubleTensor identity(int64_t n) {
    t7::ComplexDoubleTensor e(n, n);
    e.zero();
    for (int64_t i = 0; i < n; ++i) e(i, i) = 1;
    return e;
}

} // namespace lc
