// Floating element-wise functions (exp log log1p sqrt rsqrt sin cos tan asin acos
// atan atan2 sinh cosh tanh sigmoid pow floor ceil round trunc frac fmod
// remainder cinv clamp lerp) over float and double and every operand layout,
// against std:: reference loops; special values; integer inputs (which compute
// in float). Layouts and sizes: expr_check.hpp.
#include "expr_math_cases.hpp"
using t7::DoubleTensor;
using t7::FloatTensor;
using t7::IntTensor;

TEST_CASE_TEMPLATE_INVOKE(expr_math_sweep, float); // double: test_expr_math_double.cpp

TEST_CASE("remainder takes the divisor's sign, fmod the dividend's; round ties go away from "
          "zero") {
    FloatTensor a = from<float>({5.5f, -5.5f, 5.5f, -5.5f, 6.f, -6.f, 0.f, 1.f});
    FloatTensor b = from<float>({2.f, 2.f, -2.f, -2.f, 3.f, 3.f, 3.f, -3.f});
    CHECK(values(t7::eval(t7::remainder(a, b))) ==
          std::vector<float>{1.5f, 0.5f, -0.5f, -1.5f, 0.f, 0.f, 0.f, -2.f});
    CHECK(values(t7::eval(t7::fmod(a, b))) ==
          std::vector<float>{1.5f, -1.5f, 1.5f, -1.5f, 0.f, -0.f, 0.f, 1.f});
    IntTensor ia = from<int32_t>({7, -7, 7, -7, 6, -6, 0, 1});
    IntTensor ib = from<int32_t>({3, 3, -3, -3, 3, 3, 3, -3});
    CHECK(values(t7::eval(t7::remainder(ia, ib))) ==
          std::vector<int32_t>{1, 2, -2, -1, 0, 0, 0, -2});
    CHECK(values(t7::eval(t7::fmod(ia, ib))) == std::vector<int32_t>{1, -1, 1, -1, 0, 0, 0, 1});

    // in the vectorised body (16 elements) and the scalar tail alike
    const std::vector<double> v{0.5,        1.5,         2.5,        -0.5, -1.5, -2.5,
                                0.49999997, -0.49999997, 3.5,        4.5,  -3.5, -4.5,
                                0.0,        8388609.0,   -8388609.0, 1e30, -2.5};
    for (size_t len : {size_t(17), size_t(16), size_t(8), size_t(3)}) {
        CAPTURE(len);
        std::vector<double> vd(v.begin(), v.begin() + long(len));
        std::vector<float> vf(vd.begin(), vd.end());
        const std::vector<double> rd = values(t7::eval(t7::round(from<double>(vd))));
        const std::vector<float> rf = values(t7::eval(t7::round(from<float>(vf))));
        for (size_t i = 0; i < len; ++i) {
            CAPTURE(vd[i]);
            CHECK(rd[i] == std::round(vd[i]));
            CHECK(rf[i] == std::round(vf[i]));
        }
    }
}

TEST_CASE_TEMPLATE("IEEE special values through the vectorised body and the tail", T,
                   T7_FLOAT_TYPES) {
    const T inf = std::numeric_limits<T>::infinity();
    const T nan = std::numeric_limits<T>::quiet_NaN();
    // 16 + 1 elements: two full AVX float packets (four double ones) and a tail.
    const std::vector<T> sv{T(0),    T(-0.0), T(-1), inf,  -inf, nan,      T(1e-30), T(100), T(0),
                            T(-0.0), T(-1),   inf,   -inf, nan,  T(1e-30), T(100),   T(-2)};
    Tensor<T> x = from<T>(sv);
    Tensor<T> finite = from<T>({T(0), T(-0.0), T(-1), T(2), T(4), nan, T(1e-30), T(100), T(0),
                                T(-0.0), T(-1), T(2), T(4), nan, T(1e-30), T(100), T(-2)});
    const Shape sh = x.sizes();
    const L dst = L::contiguous;
    auto X = [&](int64_t i) { return sv[size_t(i)]; };
    auto F = [&](int64_t i) { return at(finite, i); };
    CHECK_EXPR(T, t7::log(x), std::log(X(i)));
    CHECK_EXPR(T, t7::sqrt(x), std::sqrt(X(i)));
    CHECK_EXPR(T, t7::rsqrt(x), T(1) / std::sqrt(X(i)));
    CHECK_EXPR(T, t7::exp(finite * 100), std::exp(F(i) * 100));
    CHECK_EXPR(T, t7::exp(x), std::exp(X(i)));
    CHECK_EXPR(T, t7::cinv(x), T(1) / X(i));
    CHECK_EXPR(T, x / 0.0, X(i) / T(0));
    CHECK_EXPR(T, t7::log1p(x - 1), std::log1p(X(i) - T(1)));
    CHECK_EXPR(T, t7::tanh(x), std::tanh(X(i)));
    CHECK_EXPR(T, t7::sigmoid(x), T(1) / (T(1) + std::exp(-X(i))));
    CHECK_EXPR(T, t7::floor(x), std::floor(X(i)));
    CHECK_EXPR(T, t7::round(x), std::round(X(i)));
    CHECK_EXPR(T, t7::abs(x), std::abs(X(i)));
    CHECK_EXPR(T, t7::sin(finite), std::sin(F(i)));
    CHECK_EXPR(uint8_t, x == x, uint8_t(X(i) == X(i))); // NaN != NaN
    CHECK_EXPR(uint8_t, x != x, uint8_t(X(i) != X(i)));
    CHECK_EXPR(uint8_t, x < 0, uint8_t(X(i) < T(0)));
}

// Eigen 3.4's vectorised sqrt (EIGEN_FAST_MATH's rsqrt-based psqrt) turns +inf
// into NaN, and its exp clamps its argument, so exp(-inf) would be the smallest
// normal number instead of 0: the contiguous (packet) path must not disagree with
// the strided (scalar) one. packet_ops.hpp keeps the IEEE answers.
TEST_CASE_TEMPLATE("sqrt(+inf) is +inf and exp(-inf) is 0 on every layout", T, T7_FLOAT_TYPES) {
    const T inf = std::numeric_limits<T>::infinity();
    Tensor<T> x(2, 16);
    x.fill(inf);
    for (const Tensor<T>& v : {x, x.t()}) {
        CAPTURE(v.isContiguous());
        CHECK(values(t7::eval(t7::sqrt(v))) == std::vector<T>(32, inf));
        CHECK(values(t7::eval(t7::rsqrt(v))) == std::vector<T>(32, T(0)));
        CHECK(values(t7::eval(t7::exp(-v))) == std::vector<T>(32, T(0)));
        CHECK(values(t7::eval(t7::sigmoid(-v))) == std::vector<T>(32, T(0)));
    }
}

// Below Eigen's exp clamp the result underflows gradually to 0, as std::exp does
// (within one step of the denormal grid), in packets and in the scalar tail alike.
TEST_CASE_TEMPLATE("exp and sigmoid underflow gradually on every layout", T, T7_FLOAT_TYPES) {
    const T lo = std::is_same_v<T, float> ? T(-87) : T(-707); // the last normal results
    const T inf = std::numeric_limits<T>::infinity();
    std::vector<T> v;
    for (int k = 0; k < 33; ++k) v.push_back(lo - T(k) * T(0.5)); // into the denormals and 0
    v.push_back(-inf);
    Tensor<T> x(2, int64_t(v.size()));
    for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < x.size(1); ++j) x(r, j) = v[size_t(j)];
    const T grid = std::numeric_limits<T>::denorm_min();
    for (const Tensor<T>& in : {x, x.t()}) {
        CAPTURE(in.isContiguous());
        const std::vector<T> e = values(t7::eval(t7::exp(in)));
        const std::vector<T> s = values(t7::eval(t7::sigmoid(in)));
        walk(in, in.sizes(), [&](int64_t i, int64_t off) {
            const T xi = in.storage().data()[off];
            const T want = std::exp(xi); // sigmoid(x) = exp(x) / (1 + exp(x)) = exp(x) here
            const T tol = std::max(T(2) * grid, want * T(1e-5));
            CHECK(e[size_t(i)] >= T(0));
            CHECK(std::abs(e[size_t(i)] - want) <= tol);
            CHECK(std::abs(s[size_t(i)] - want) <= tol);
        });
    }
}

// Torch7 clamps with `x < lo ? lo : (x > hi ? hi : x)`; whichever rule is kept for
// lo > hi, the answer must not depend on the layout (packets: min(max(x, lo), hi)).
TEST_CASE("clamp with lo > hi gives the same answer on every layout") {
    FloatTensor x(3, 16);
    x.fill(0.f);
    const std::vector<float> contiguous = values(t7::eval(t7::clamp(x, 5.f, 1.f)));
    const std::vector<float> strided = values(t7::eval(t7::clamp(x.t(), 5.f, 1.f)));
    CHECK(contiguous[0] == strided[0]);
    CHECK(contiguous[0] == 5.f); // Torch7's THTensor_(clamp)
}

TEST_CASE_TEMPLATE("floating functions of integer tensors compute in float", T, T7_INT_TYPES) {
    std::mt19937 rng(5);
    for (auto [R, C] : {std::pair<int64_t, int64_t>{1, 7}, kAboveGrain}) {
        for (L l : {L::contiguous, L::transposed, L::stepped}) {
            CAPTURE(R);
            CAPTURE(int(l));
            const Shape sh{R, C};
            const L dst = L::contiguous;
            auto [lo, hi] = small_range<T>();
            Tensor<T> a = make_view<T>(l, R, C), b = make_view<T>(L::contiguous, R, C);
            fill_random(a, rng, lo, hi, 1);
            fill_random(b, rng, lo, hi, 1, true);
            const std::vector<T> av = gather(a, sh), bv = gather(b, sh);
            auto A = [&](int64_t i) { return float(av[size_t(i)]); };
            auto B = [&](int64_t i) { return float(bv[size_t(i)]); };
            CHECK_EXPR(float, t7::exp(a), std::exp(A(i)));
            CHECK_EXPR(float, t7::sqrt(t7::abs(a)), std::sqrt(std::abs(A(i))));
            CHECK_EXPR(float, t7::sin(a), std::sin(A(i)));
            CHECK_EXPR(float, t7::sigmoid(a), 1.f / (1.f + std::exp(-A(i))));
            CHECK_EXPR(float, t7::cinv(b), 1.f / B(i));
            CHECK_EXPR(float, t7::floor(a), A(i));
            CHECK_EXPR(float, t7::atan2(a, b), std::atan2(A(i), B(i)));
            CHECK_EXPR(float, t7::pow(a, b), std::pow(A(i), B(i)));
            CHECK_EXPR(float, t7::pow(a, 2), A(i) * A(i));
            CHECK_EXPR(float, t7::lerp(a, b, a), A(i) + A(i) * (B(i) - A(i)));
            CHECK_EXPR(float, t7::cast<float>(a) / b, A(i) / B(i));
            CHECK_EXPR(double, t7::exp(t7::cast<double>(a)), std::exp(double(A(i))));
        }
    }
}

// A scalar operand of a floating function of an integer tensor is converted to
// the tensor's integer type before the function computes in float, so
// pow(IntTensor{4}, 0.5) is pow(4, 0) == 1 and lerp(a, b, 0.5) is a (PyTorch:
// 2 and the midpoint). The scalar should take the computation type.
TEST_CASE("scalars of floating functions keep their fraction with integer tensors") {
    IntTensor x = from<int32_t>({4, 9, 16});
    IntTensor y = from<int32_t>({8, 8, 8});
    CHECK(values(t7::eval(t7::pow(x, 0.5))) == std::vector<float>{2.f, 3.f, 4.f});
    CHECK(values(t7::eval(t7::lerp(x, y, 0.5))) == std::vector<float>{6.f, 8.5f, 12.f});
    CHECK(at(t7::eval(t7::atan2(x, 0.5)), 0) == doctest::Approx(std::atan2(4.f, 0.5f)));
}
