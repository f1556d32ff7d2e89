// The operator sweep of test_expr_ops.cpp (floating types) and
// test_expr_ops_int.cpp (integer types): + - * / and unary -, the comparisons
// (uint8_t results) as operators and as t7::lt/le/gt/ge/eq/ne, scalars on either
// side, on every layout of expr_check.hpp, against scalar reference loops. One
// definition, invoked by two files so that neither takes minutes to compile.
#pragma once

#include "expr_check.hpp"

using namespace expr_test; // a test header, included by the two suites only

TEST_CASE_TEMPLATE_DEFINE("operators and comparisons match reference loops on every layout", T,
                          expr_ops_sweep) {
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

        CHECK_EXPR(T, a + b, wadd(A(i), B(i)));
        CHECK_EXPR(T, a - b, wsub(A(i), B(i)));
        CHECK_EXPR(T, a * b, wmul(A(i), B(i)));
        CHECK_EXPR(T, a / b, wdiv(A(i), B(i)));
        CHECK_EXPR(T, -a, wneg(A(i)));
        CHECK_EXPR(T, t7::neg(a), wneg(A(i)));
        CHECK_EXPR(T, a * b + a - b / 3.0, wsub(wadd(wmul(A(i), B(i)), A(i)), wdiv(B(i), s)));

        // scalars on either side take the tensor's element type
        CHECK_EXPR(T, a + 3.0, wadd(A(i), s));
        CHECK_EXPR(T, 3.0 + a, wadd(s, A(i)));
        CHECK_EXPR(T, a - 3.0, wsub(A(i), s));
        CHECK_EXPR(T, 3.0 - a, wsub(s, A(i)));
        CHECK_EXPR(T, a * 3, wmul(A(i), s));
        CHECK_EXPR(T, 3 * a, wmul(s, A(i)));
        CHECK_EXPR(T, a / 3.0, wdiv(A(i), s));
        CHECK_EXPR(T, 3.0 / b, wdiv(s, B(i)));
        CHECK_EXPR(T, -(a * 3.0f), wneg(wmul(A(i), s)));

        // comparisons: operators and the named functions (the same nodes), scalars
        // on either side
        CHECK_EXPR(uint8_t, a < b, uint8_t(A(i) < B(i)));
        CHECK_EXPR(uint8_t, a <= b, uint8_t(A(i) <= B(i)));
        CHECK_EXPR(uint8_t, a > b, uint8_t(A(i) > B(i)));
        CHECK_EXPR(uint8_t, a >= b, uint8_t(A(i) >= B(i)));
        CHECK_EXPR(uint8_t, a == b, uint8_t(A(i) == B(i)));
        CHECK_EXPR(uint8_t, a != b, uint8_t(A(i) != B(i)));
        CHECK_EXPR(uint8_t, t7::lt(a, b), uint8_t(A(i) < B(i)));
        CHECK_EXPR(uint8_t, t7::le(a, b), uint8_t(A(i) <= B(i)));
        CHECK_EXPR(uint8_t, t7::gt(a, b), uint8_t(A(i) > B(i)));
        CHECK_EXPR(uint8_t, t7::ge(a, b), uint8_t(A(i) >= B(i)));
        CHECK_EXPR(uint8_t, t7::eq(a, b), uint8_t(A(i) == B(i)));
        CHECK_EXPR(uint8_t, t7::ne(a, b), uint8_t(A(i) != B(i)));
        CHECK_EXPR(uint8_t, a < 3, uint8_t(A(i) < s));
        CHECK_EXPR(uint8_t, a <= 3, uint8_t(A(i) <= s));
        CHECK_EXPR(uint8_t, a > 3.0, uint8_t(A(i) > s));
        CHECK_EXPR(uint8_t, a >= 3.0, uint8_t(A(i) >= s));
        CHECK_EXPR(uint8_t, a == 3, uint8_t(A(i) == s));
        CHECK_EXPR(uint8_t, a != 3, uint8_t(A(i) != s));
        CHECK_EXPR(uint8_t, t7::lt(a, 3), uint8_t(A(i) < s));
        CHECK_EXPR(uint8_t, t7::ne(a, 3.0), uint8_t(A(i) != s));
        CHECK_EXPR(uint8_t, 3 < a, uint8_t(s < A(i)));
        CHECK_EXPR(uint8_t, 3.0 >= b, uint8_t(s >= B(i)));
        CHECK_EXPR(uint8_t, t7::gt(3, a), uint8_t(s > A(i)));
        CHECK_EXPR(uint8_t, t7::eq(3.0, b), uint8_t(s == B(i)));
        CHECK_EXPR(uint8_t, (a < b) + (a > b), uint8_t((A(i) < B(i)) + (A(i) > B(i))));
    });
}
