// The floating function sweep of test_expr_math.cpp (float) and
// test_expr_math_double.cpp (double): every floating element-wise function on
// every layout of expr_check.hpp, against std:: reference loops. One definition,
// invoked by two files so that neither takes minutes to compile.
#pragma once

#include "expr_check.hpp"

using namespace expr_test; // a test header, included by the two suites only

TEST_CASE_TEMPLATE_DEFINE("floating functions match std:: reference loops on every layout", T,
                          expr_math_sweep) {
    std::mt19937 rng(99);
    for_cases([&](const Case& c, int64_t R, int64_t C) {
        const Shape sh{R, C};
        const L dst = c.dst;
        // Operands (rebound with set(): `=` would copy values into the old layout)
        // with values in [lo, hi], and their elements broadcast to sh.
        Tensor<T> a, b, w;
        std::vector<T> av, bv, wv;
        auto make = [&](Tensor<T>& t, std::vector<T>& v, L l, Shp s, double lo, double hi, double q,
                        bool nz) {
            t.set(make_operand<T>(l, s, R, C));
            fill_random(t, rng, lo, hi, q, nz);
            v = gather(t, sh);
        };
        auto new_a = [&](double lo, double hi, double q = 0, bool nz = false) {
            make(a, av, c.la, c.sa, lo, hi, q, nz);
        };
        auto new_b = [&](double lo, double hi, double q = 0, bool nz = false) {
            make(b, bv, c.lb, c.sb, lo, hi, q, nz);
        };
        auto A = [&](int64_t i) { return av[size_t(i)]; };
        auto B = [&](int64_t i) { return bv[size_t(i)]; };
        auto W = [&](int64_t i) { return wv[size_t(i)]; };

        new_a(-5, 5);
        CHECK_EXPR(T, t7::exp(a), std::exp(A(i)));
        CHECK_EXPR(T, t7::sinh(a), std::sinh(A(i)));
        CHECK_EXPR(T, t7::cosh(a), std::cosh(A(i)));
        CHECK_EXPR(T, t7::tanh(a), std::tanh(A(i)));
        new_a(0.01, 10);
        CHECK_EXPR(T, t7::log(a), std::log(A(i)));
        CHECK_EXPR(T, t7::sqrt(a), std::sqrt(A(i)));
        CHECK_EXPR(T, t7::rsqrt(a), T(1) / std::sqrt(A(i)));
        new_a(-0.9, 10);
        CHECK_EXPR(T, t7::log1p(a), std::log1p(A(i)));
        new_a(-100, 100);
        CHECK_EXPR(T, t7::sin(a), std::sin(A(i)));
        CHECK_EXPR(T, t7::cos(a), std::cos(A(i)));
        new_a(-1.4, 1.4);
        CHECK_EXPR(T, t7::tan(a), std::tan(A(i)));
        new_a(-1, 1);
        CHECK_EXPR(T, t7::asin(a), std::asin(A(i)));
        CHECK_EXPR(T, t7::acos(a), std::acos(A(i)));
        new_a(-10, 10);
        CHECK_EXPR(T, t7::atan(a), std::atan(A(i)));
        CHECK_EXPR(T, t7::sigmoid(a), T(1) / (T(1) + std::exp(-A(i))));
        new_a(-5, 5, 0, true);
        CHECK_EXPR(T, t7::cinv(a), T(1) / A(i));
        new_a(-5, 5, 0.25); // quarters: the halves test round's ties (away from zero)
        CHECK_EXPR(T, t7::floor(a), std::floor(A(i)));
        CHECK_EXPR(T, t7::ceil(a), std::ceil(A(i)));
        CHECK_EXPR(T, t7::round(a), std::round(A(i)));
        CHECK_EXPR(T, t7::trunc(a), std::trunc(A(i)));
        CHECK_EXPR(T, t7::frac(a), A(i) - std::trunc(A(i)));
        CHECK_EXPR(T, t7::abs(a), std::abs(A(i)));
        CHECK_EXPR(T, t7::sign(a), isign(A(i)));

        new_a(-3, 3);
        new_b(-3, 3);
        CHECK_EXPR(T, t7::atan2(a, b), std::atan2(A(i), B(i)));
        CHECK_EXPR(T, t7::atan2(a, 0.5), std::atan2(A(i), T(0.5)));
        CHECK_EXPR(T, t7::atan2(-2.0, b), std::atan2(T(-2), B(i)));
        CHECK_EXPR(T, t7::sin(a) * t7::exp(-b) + t7::sqrt(t7::abs(a)),
                   std::sin(A(i)) * std::exp(-B(i)) + std::sqrt(std::abs(A(i))));
        new_a(0.1, 4);
        CHECK_EXPR(T, t7::pow(a, b), std::pow(A(i), B(i)));
        CHECK_EXPR(T, t7::pow(a, 0.5), std::pow(A(i), T(0.5)));
        CHECK_EXPR(T, t7::pow(2.0, b), std::pow(T(2), B(i)));
        w.set(make_operand<T>(c.lb, c.sb, R, C));
        fill_random(w, rng, 0, 1, 0);
        wv = gather(w, sh);
        CHECK_EXPR(T, t7::lerp(a, b, 0.25), A(i) + T(0.25) * (B(i) - A(i)));
        CHECK_EXPR(T, t7::lerp(a, b, w), A(i) + W(i) * (B(i) - A(i)));
        CHECK_EXPR(T, t7::lerp(a, 1.0, w), A(i) + W(i) * (T(1) - A(i)));

        new_a(-9, 9, 0.25);
        new_b(-4, 4, 0.25, true);
        CHECK_EXPR(T, t7::fmod(a, b), std::fmod(A(i), B(i)));
        CHECK_EXPR(T, t7::fmod(a, -2.5), std::fmod(A(i), T(-2.5)));
        CHECK_EXPR(T, t7::fmod(7.5, b), std::fmod(T(7.5), B(i)));
        CHECK_EXPR(T, t7::remainder(a, b), rremainder(A(i), B(i)));
        CHECK_EXPR(T, t7::remainder(a, 2.5), rremainder(A(i), T(2.5)));
        CHECK_EXPR(T, t7::remainder(a, -2.5), rremainder(A(i), T(-2.5)));
        CHECK_EXPR(T, t7::remainder(-7.5, b), rremainder(T(-7.5), B(i)));
        CHECK_EXPR(T, a / b, A(i) / B(i));
        CHECK_EXPR(T, t7::clamp(a, -2.5, 3.25), rclamp(A(i), T(-2.5), T(3.25)));
        CHECK_EXPR(T, t7::clamp(a, b - 1, b + 1), rclamp(A(i), T(B(i) - 1), T(B(i) + 1)));
    });
}
