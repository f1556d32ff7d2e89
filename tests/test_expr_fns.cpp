// The type-keeping element-wise functions over every dtype and operand layout,
// against scalar reference loops: abs sign cmax cmin clamp where fmod remainder
// cast map, scalars on either side; integer wrap-around over the full range,
// division (and fmod, remainder) by zero and INT_MIN / -1. Layouts and sizes:
// expr_check.hpp. Operators: test_expr_ops.cpp; floating functions:
// test_expr_math.cpp.
#include "expr_fns_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(expr_fns_sweep, T7_FLOAT_TYPES); // integer types: test_expr_fns_int.cpp

TEST_CASE_TEMPLATE("integer arithmetic wraps over the full range on every path", T, T7_INT_TYPES) {
    std::mt19937 rng(7);
    const T mn = std::numeric_limits<T>::min(), mx = std::numeric_limits<T>::max();
    for (auto [R, C] : {std::pair<int64_t, int64_t>{1, 7}, kAboveGrain}) {
        for (L l : {L::contiguous, L::transposed, L::stepped}) {
            CAPTURE(R);
            CAPTURE(int(l));
            const Shape sh{R, C};
            const L dst = L::contiguous;
            Tensor<T> a = make_view<T>(l, R, C), b = make_view<T>(L::contiguous, R, C);
            std::uniform_int_distribution<int64_t> u{int64_t(mn), int64_t(mx)};
            for (int64_t k = 0; k < a.storage().size(); ++k) a.storage().data()[k] = T(u(rng));
            for (int64_t k = 0; k < b.storage().size(); ++k) b.storage().data()[k] = T(u(rng));
            a.storage().data()[0] = mn;
            b.storage().data()[0] = mx;
            const std::vector<T> av = gather(a, sh), bv = gather(b, sh);
            auto A = [&](int64_t i) { return av[size_t(i)]; };
            auto B = [&](int64_t i) { return bv[size_t(i)]; };
            CHECK_EXPR(T, a + b, wadd(A(i), B(i)));
            CHECK_EXPR(T, a - b, wsub(A(i), B(i)));
            CHECK_EXPR(T, a * b, wmul(A(i), B(i)));
            CHECK_EXPR(T, -a, wneg(A(i)));
            CHECK_EXPR(T, t7::abs(a), iabs(A(i)));
            CHECK_EXPR(T, t7::sign(a), isign(A(i)));
            CHECK_EXPR(T, t7::cmax(a, b), rcmax(A(i), B(i)));
            CHECK_EXPR(T, t7::cmin(a, b), rcmin(A(i), B(i)));
            CHECK_EXPR(uint8_t, a < b, uint8_t(A(i) < B(i)));
            CHECK_EXPR(T, a * 3 + 1, wadd(wmul(A(i), T(3)), T(1)));
        }
    }
    // uint8 200 + 100 = 44, int8 100 + 100 = -56, 16 * 16 = 0 in 8 bits: no C promotion
    if constexpr (sizeof(T) == 1) {
        Tensor<T> x = from<T>({T(100), T(16), T(-128)});
        CHECK(values(t7::eval(x + x)) == std::vector<T>{T(200), T(32), T(0)});
        CHECK(values(t7::eval(x * x)) == std::vector<T>{T(10000), T(0), T(0)});
    }
}

TEST_CASE_TEMPLATE("integer division by zero throws t7::Error; INT_MIN / -1 wraps", T,
                   T7_INT_TYPES) {
    SUBCASE("tensor divisor with a zero, small and multithreaded") {
        for (int64_t n : {int64_t(7), kAboveGrain.first * kAboveGrain.second}) {
            for (int64_t zero_at : {int64_t(0), n - 1}) { // the calling thread's chunk, the last
                CAPTURE(n);
                CAPTURE(zero_at);
                Tensor<T> a(n), b(n), y(n);
                a.fill(T(6));
                b.fill(T(2));
                b.data()[zero_at] = T(0);
                CHECK_THROWS_AS(y = a / b, t7::Error);
                CHECK_THROWS_WITH(y = a / b, doctest::Contains("division by zero"));
                CHECK_THROWS_AS(y = t7::fmod(a, b), t7::Error);
                CHECK_THROWS_AS(y = t7::remainder(a, b), t7::Error);
                CHECK_THROWS_AS(y = a * 2 + a / b, t7::Error);
                CHECK_THROWS_AS(t7::eval(a / b), t7::Error);
                CHECK_THROWS_AS(y.narrow(0, 0, n) = a / b, t7::Error);
                // the next division is clean: no flag left over
                b.data()[zero_at] = T(3);
                CHECK_NOTHROW(y = a / b);
                std::vector<T> want(size_t(n), T(3));
                want[size_t(zero_at)] = T(2);
                CHECK(values(y) == want);
            }
        }
    }
    SUBCASE("scalar divisor 0") {
        Tensor<T> a(5), y(5);
        a.fill(T(4));
        CHECK_THROWS_AS(y = a / 0, t7::Error);
        CHECK_THROWS_AS(y = t7::fmod(a, 0), t7::Error);
        CHECK_THROWS_AS(y = t7::remainder(a, 0), t7::Error);
        CHECK_THROWS_AS(y = 1 / (a - 4), t7::Error);
        CHECK_NOTHROW(y = a / 1);
        CHECK(values(y) == std::vector<T>(5, T(4)));
    }
    SUBCASE("floating division by zero does not throw") {
        Tensor<T> a(4);
        a.fill(T(1));
        t7::FloatTensor f = t7::eval(t7::cast<float>(a) / 0);
        CHECK(std::isinf(f.data()[0]));
        CHECK_NOTHROW(t7::eval(t7::cinv(a * 0)));
    }
    if constexpr (std::is_signed_v<T>) {
        SUBCASE("INT_MIN / -1 does not trap") {
            const T mn = std::numeric_limits<T>::min();
            Tensor<T> a = from<T>({mn, mn, T(7), mn, T(-7), mn, mn, mn, mn});
            Tensor<T> b = from<T>({T(-1), T(1), T(-1), T(-1), T(-1), T(-1), T(-1), T(-1), T(-1)});
            const std::vector<T> q{mn, mn, T(-7), mn, T(7), mn, mn, mn, mn};
            CHECK(values(t7::eval(a / b)) == q);
            CHECK(values(t7::eval(a / -1)) == q);
            CHECK(values(t7::eval(t7::fmod(a, b))) == std::vector<T>(9, T(0)));
            CHECK(values(t7::eval(t7::remainder(a, b))) == std::vector<T>(9, T(0)));
            CHECK(at(t7::eval(-a), 0) == mn);
            CHECK(at(t7::eval(t7::abs(a)), 0) == mn);
        }
    }
}
