// The type-keeping function sweep of test_expr_fns.cpp (floating types) and
// test_expr_fns_int.cpp (integer types): abs sign cmax cmin clamp where fmod
// remainder cast map, scalars on either side, on every layout of expr_check.hpp,
// against scalar reference loops. One definition, invoked by two files so that
// neither takes minutes to compile.
#pragma once

#include "expr_check.hpp"

using namespace expr_test; // a test header, included by the two suites only

TEST_CASE_TEMPLATE_DEFINE("abs, sign, cmax, cmin, clamp, where, fmod, remainder, cast and map "
                          "match reference loops on every layout",
                          T, expr_fns_sweep) {
    std::mt19937 rng(1234);
    for_cases([&](const Case& c, int64_t R, int64_t C) {
        const Shape sh{R, C};
        const L dst = c.dst;
        auto [lo, hi] = small_range<T>();
        Tensor<T> a = make_operand<T>(c.la, c.sa, R, C);
        Tensor<T> b = make_operand<T>(c.lb, c.sb, R, C); // never zero: a divisor
        fill_random(a, rng, lo, hi, quantum<T>());
        fill_random(b, rng, lo, hi, quantum<T>(), true);
        const std::vector<T> av = gather(a, sh), bv = gather(b, sh);
        auto A = [&](int64_t i) { return av[size_t(i)]; };
        auto B = [&](int64_t i) { return bv[size_t(i)]; };
        const T s = T(3);

        CHECK_EXPR(T, t7::abs(a), iabs(A(i)));
        CHECK_EXPR(T, t7::sign(a), isign(A(i)));

        // min, max, clamp (lo <= hi), where
        const T lo2 = std::is_signed_v<T> ? T(-2) : T(2), hi5 = T(5);
        CHECK_EXPR(T, t7::cmax(a, b), rcmax(A(i), B(i)));
        CHECK_EXPR(T, t7::cmin(a, b), rcmin(A(i), B(i)));
        CHECK_EXPR(T, t7::cmax(a, 3), rcmax(A(i), s));
        CHECK_EXPR(T, t7::cmin(a, 3.0), rcmin(A(i), s));
        CHECK_EXPR(T, t7::cmin(3.0, b), rcmin(s, B(i)));
        CHECK_EXPR(T, t7::clamp(a, lo2, hi5), rclamp(A(i), lo2, hi5));
        CHECK_EXPR(T, t7::clamp(a, t7::cmin(b, 2), 4), rclamp(A(i), rcmin(B(i), T(2)), T(4)));
        CHECK_EXPR(T, t7::clamp(a, 2, t7::cmax(b, 2)), rclamp(A(i), T(2), rcmax(B(i), T(2))));
        CHECK_EXPR(T, t7::where(a > b, a, b), A(i) > B(i) ? A(i) : B(i));
        CHECK_EXPR(T, t7::where(a < 3, 3, b), A(i) < s ? s : B(i));
        CHECK_EXPR(T, t7::where(a < 3, a, 3.0), A(i) < s ? A(i) : s);
        CHECK_EXPR(T, t7::where(a, b, 3), A(i) != T(0) ? B(i) : s); // any non-zero selects

        // fmod (the dividend's sign) and remainder (the divisor's sign)
        const T d = std::is_signed_v<T> ? T(-3) : T(7);
        const T n7 = std::is_signed_v<T> ? T(-7) : T(7);
        CHECK_EXPR(T, t7::fmod(a, b), rfmod(A(i), B(i)));
        CHECK_EXPR(T, t7::remainder(a, b), rremainder(A(i), B(i)));
        CHECK_EXPR(T, t7::fmod(a, d), rfmod(A(i), d));
        CHECK_EXPR(T, t7::remainder(a, d), rremainder(A(i), d));
        CHECK_EXPR(T, t7::remainder(a, 3), rremainder(A(i), s));
        CHECK_EXPR(T, t7::fmod(n7, b), rfmod(n7, B(i)));
        CHECK_EXPR(T, t7::remainder(n7, b), rremainder(n7, B(i)));

        // cast and map
        CHECK_EXPR(double, t7::cast<double>(a) + b, double(A(i)) + double(B(i)));
        CHECK_EXPR(int16_t, t7::cast<int16_t>(a), int16_t(A(i)));
        auto f2 = [](T u, T v) { return T(u * T(2) - v); };
        auto f3 = [](T u, T v, T w) { return T(u < v ? w : v); };
        CHECK_EXPR(T, t7::map(f2, a, b), f2(A(i), B(i)));
        CHECK_EXPR(T, t7::map(f3, a, b, a * 2), f3(A(i), B(i), wmul(A(i), T(2))));
    });
}
