// Helpers of the linear algebra suites (test_linalg, test_linalg_decomp): values,
// closeness, reference products and test matrices.
#pragma once

#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <cmath>
#include <vector>

namespace linalg_util {

using test_util::values; // in row-major order

inline void check_close(const std::vector<double>& got, const std::vector<double>& want,
                        double tol = 1e-9) {
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
    }
}

// Largest |a - b| over all elements (same shapes).
template <class A, class B>
double max_diff(const t7::Tensor<A>& a, const t7::Tensor<B>& b) {
    REQUIRE(a.sizes() == b.sizes());
    return double(t7::max(t7::abs(t7::cast<double>(a) - t7::cast<double>(b))));
}

// Reference product by loops over element access (any layout).
template <class T>
t7::DoubleTensor ref_mm(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    t7::DoubleTensor r = t7::zeros<double>(a.size(0), b.size(1));
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            double s = 0;
            for (int64_t k = 0; k < a.size(1); ++k) s += double(a(i, k)) * double(b(k, j));
            r(i, j) = s;
        }
    return r;
}

template <class T>
t7::Tensor<T> random_matrix(int64_t m, int64_t n) {
    t7::Tensor<T> x(m, n);
    return x.uniform(-1, 1);
}

// A well-conditioned n x n matrix (diagonally dominant).
template <class T>
t7::Tensor<T> well_conditioned(int64_t n) {
    t7::Tensor<T> a = random_matrix<T>(n, n);
    return t7::eval(a + t7::eye<T>(n) * T(n));
}

using test_util::message_of;

} // namespace linalg_util
