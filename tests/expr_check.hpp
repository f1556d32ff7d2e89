// Shared by the element-wise expression suites (test_expr*.cpp): plain reading
// of strided tensors with NumPy broadcasting, reference arithmetic with Torch7's
// integer semantics, the operand layouts every operation is run over, and
// CHECK_EXPR, which evaluates an expression into a destination view and compares
// it element by element with a scalar reference.
#pragma once

#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace expr_test {

using t7::Shape;
using t7::Tensor;

// ---- reading tensors the plain way ---------------------------------------------------

// Calls f(i, offset) for every element i (row-major over `out`) of t read with
// NumPy broadcasting (trailing dimensions align, size-1 dimensions repeat);
// `offset` indexes t's storage.
template <class T, class F>
void walk(const Tensor<T>& t, const Shape& out, F&& f) {
    const size_t od = out.size(), td = size_t(t.dim());
    REQUIRE(td <= od);
    std::vector<int64_t> st(od, 0), idx(od, 0);
    for (size_t d = od - td; d < od; ++d) {
        const int64_t k = int64_t(d - (od - td));
        if (t.size(k) != 1) {
            REQUIRE(t.size(k) == out[d]);
            st[d] = t.stride(k);
        }
    }
    int64_t off = t.storageOffset();
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) {
        f(i, off);
        for (size_t d = od; d-- > 0;) {
            if (++idx[d] < out[d]) {
                off += st[d];
                break;
            }
            off -= (out[d] - 1) * st[d];
            idx[d] = 0;
        }
    }
}

// t's elements broadcast to `out`, in row-major order.
template <class T>
std::vector<T> gather(const Tensor<T>& t, const Shape& out) {
    std::vector<T> v(size_t(out.numel()));
    const T* p = t.storage().data();
    walk(t, out, [&](int64_t i, int64_t off) { v[size_t(i)] = p[off]; });
    return v;
}
template <class T>
std::vector<T> values(const Tensor<T>& t) {
    return gather(t, t.sizes());
}
template <class T>
T at(const Tensor<T>& t, int64_t i) {
    return values(t).at(size_t(i));
}

// A contiguous tensor holding `v` in the given shape.
template <class T>
Tensor<T> from(const Shape& shape, const std::vector<T>& v) {
    Tensor<T> t(shape);
    REQUIRE(int64_t(v.size()) == t.nElement());
    std::copy(v.begin(), v.end(), t.data());
    return t;
}
template <class T>
Tensor<T> from(const std::vector<T>& v) {
    return from(Shape{int64_t(v.size())}, v);
}

template <class T>
std::string show(T v) {
    std::ostringstream os;
    os.precision(std::numeric_limits<T>::max_digits10);
    if constexpr (sizeof(T) == 1)
        os << int(v);
    else
        os << v;
    return os.str();
}

inline std::string index_str(const Shape& s, int64_t lin) {
    std::vector<int64_t> idx(s.size());
    for (size_t d = s.size(); d-- > 0;) {
        idx[d] = lin % s[d];
        lin /= s[d];
    }
    std::string r = "[";
    for (size_t d = 0; d < idx.size(); ++d) r += (d ? "," : "") + std::to_string(idx[d]);
    return r + "]";
}

// Relative tolerance for floating results (Eigen's vectorised transcendentals may
// differ from std:: in the last ulps); integers compare exactly.
template <class T>
constexpr double tol() {
    if constexpr (std::is_same_v<T, float>)
        return 1e-5;
    else if constexpr (std::is_same_v<T, double>)
        return 1e-12;
    else
        return 0;
}

template <class U>
bool same_value(U got, U want, double eps) {
    if constexpr (std::is_floating_point_v<U>) {
        const double g = double(got), w = double(want);
        if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
        return g == w || g == doctest::Approx(w).epsilon(eps);
    } else {
        (void)eps;
        return got == want;
    }
}

// "" when every element of `got` (which must have shape `shape`) equals want[i],
// i the row-major index; otherwise the first mismatch and how many there were.
// (Compiled once per element type: the reference is evaluated into `want` first.)
template <class U>
std::string mismatch_values(const Tensor<U>& got, const Shape& shape, const std::vector<U>& want,
                            double eps = tol<U>()) {
    if (!(got.sizes() == shape)) {
        std::ostringstream os;
        os << "result has size " << got.sizes() << ", expected " << shape;
        return os.str();
    }
    const std::vector<U> g = gather(got, shape);
    REQUIRE(g.size() == want.size());
    int64_t bad = 0;
    std::string first;
    for (size_t i = 0; i < g.size(); ++i) {
        if (same_value(g[i], want[i], eps)) continue;
        if (bad++ == 0)
            first = "at " + index_str(shape, int64_t(i)) + " got " + show(g[i]) + " want " +
                    show(want[i]);
    }
    return bad ? first + " (" + std::to_string(bad) + " of " + std::to_string(g.size()) + " differ)"
               : "";
}

// ref(i) for i in [0, numel(shape)).
template <class U, class Ref>
std::vector<U> reference_values(const Shape& shape, Ref&& ref) {
    std::vector<U> want(size_t(shape.numel()));
    for (size_t i = 0; i < want.size(); ++i) want[i] = ref(int64_t(i));
    return want;
}

// As mismatch_values, with the expected values given as ref(i).
template <class U, class Ref>
std::string mismatch(const Tensor<U>& got, const Shape& shape, Ref&& ref, double eps = tol<U>()) {
    return mismatch_values(got, shape, reference_values<U>(shape, ref), eps);
}

// Every storage element outside the view t still holds `sentinel`.
template <class T>
bool outside_untouched(const Tensor<T>& t, T sentinel) {
    const auto& st = t.storage();
    std::vector<char> inside(size_t(st.size()), 0);
    walk(t, t.sizes(), [&](int64_t, int64_t off) { inside[size_t(off)] = 1; });
    for (int64_t k = 0; k < st.size(); ++k)
        if (!inside[size_t(k)] && !(st.data()[k] == sentinel)) return false;
    return true;
}

// ---- reference arithmetic (Torch7 semantics; integers wrap) ---------------------------

template <class T>
T wadd(T x, T y) {
    if constexpr (std::is_integral_v<T>)
        return T(uint64_t(x) + uint64_t(y));
    else
        return x + y;
}
template <class T>
T wsub(T x, T y) {
    if constexpr (std::is_integral_v<T>)
        return T(uint64_t(x) - uint64_t(y));
    else
        return x - y;
}
template <class T>
T wmul(T x, T y) {
    if constexpr (std::is_integral_v<T>)
        return T(uint64_t(x) * uint64_t(y));
    else
        return x * y;
}
template <class T>
T wneg(T x) {
    return wsub(T(0), x);
}
template <class T>
T wdiv(T x, T y) { // y != 0
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        if (y == T(-1)) return wneg(x);
    return T(x / y);
}
template <class T>
T iabs(T x) {
    if constexpr (std::is_unsigned_v<T>)
        return x;
    else
        return x < T(0) ? wneg(x) : x;
}
template <class T>
T isign(T x) {
    return T(x > T(0) ? 1 : (x < T(0) ? -1 : 0));
}
// C's fmod: the sign of the dividend.
template <class T>
T rfmod(T x, T y) { // y != 0
    if constexpr (std::is_integral_v<T>)
        return y == T(-1) ? T(0) : T(int64_t(x) % int64_t(y));
    else
        return std::fmod(x, y);
}
// Torch7's remainder: x - floor(x / y) * y, the sign of the divisor.
template <class T>
T rremainder(T x, T y) { // y != 0
    if constexpr (std::is_integral_v<T>) {
        int64_t r = int64_t(rfmod(x, y));
        if (r != 0 && ((r < 0) != (int64_t(y) < 0))) r += int64_t(y);
        return T(r);
    } else {
        const double q = std::floor(double(x) / double(y));
        return T(double(x) - q * double(y));
    }
}
template <class T>
T rcmax(T x, T y) {
    return x < y ? y : x;
}
template <class T>
T rcmin(T x, T y) {
    return y < x ? y : x;
}
template <class T>
T rclamp(T x, T lo, T hi) {
    return x < lo ? lo : (hi < x ? hi : x);
}

// ---- operand layouts -------------------------------------------------------------------

enum class L { contiguous, transposed, narrowed, stepped, expanded_rows, expanded_cols };
enum class Shp { full, row, col, vec }; // (R,C), (1,C), (R,1), 1-D (C)

// A view of logical size R x C with the given layout over fresh storage.
template <class T>
Tensor<T> make_view(L l, int64_t R, int64_t C) {
    Tensor<T> t; // rebound with set(): `=` would copy values, not the layout
    switch (l) {
    case L::contiguous:
        t.set(Tensor<T>(R, C));
        break;
    case L::transposed:
        t.set(Tensor<T>(C, R).t());
        break;
    case L::narrowed:
        t.set(Tensor<T>(R + 3, C + 4).narrow(0, 2, R).narrow(1, 1, C));
        break;
    case L::stepped:
        t.set(Tensor<T>(R, 2 * C)(t7::all, t7::slice(0, 2 * C, 2)));
        break;
    case L::expanded_rows:
        t.set(Tensor<T>(1, C).expand(R, C));
        break;
    case L::expanded_cols:
        t.set(Tensor<T>(R, 1).expand(R, C));
        break;
    }
    // the layout really is the one asked for
    REQUIRE(t.sizes() == Shape{R, C});
    const Shape want = l == L::contiguous      ? Shape{C, 1}
                       : l == L::transposed    ? Shape{1, R}
                       : l == L::narrowed      ? Shape{C + 4, 1}
                       : l == L::stepped       ? Shape{2 * C, 2}
                       : l == L::expanded_rows ? Shape{0, 1}
                                               : Shape{1, 0};
    for (int64_t d = 0; d < 2; ++d)
        if (t.size(d) > 1) REQUIRE(t.stride(d) == want[size_t(d)]);
    return t;
}

template <class T>
Tensor<T> make_operand(L l, Shp s, int64_t R, int64_t C) {
    switch (s) {
    case Shp::full:
        return make_view<T>(l, R, C);
    case Shp::row:
        return make_view<T>(l, 1, C);
    case Shp::col:
        return make_view<T>(l, R, 1);
    case Shp::vec:
        if (l == L::stepped) return Tensor<T>(2 * C)(t7::slice(0, 2 * C, 2));
        return Tensor<T>(C);
    }
    return {};
}

// Fills all of t's storage (padding and expanded sources included) with random
// values lo + k*q in [lo, hi] (q = 0: continuous), never zero when `nonzero`.
template <class T>
void fill_random(const Tensor<T>& t, std::mt19937& rng, double lo, double hi, double q,
                 bool nonzero = false) {
    std::uniform_real_distribution<double> u(lo, hi);
    T* p = t.storage().data();
    for (int64_t k = 0; k < t.storage().size(); ++k) {
        double v;
        do {
            v = u(rng);
            if (q > 0) v = std::min(hi, lo + std::floor((v - lo) / q + 0.5) * q);
        } while (nonzero && (std::is_integral_v<T> ? T(v) == T(0) : std::abs(v) < 0.05));
        p[k] = T(v);
    }
}

// Integer data in [-9, 9] (unsigned [0, 18]); floating data in quarters over
// [-9, 9], so comparisons meet ties and every result is exact or near it.
template <class T>
std::pair<double, double> small_range() {
    if constexpr (std::is_unsigned_v<T>)
        return {0, 18};
    else
        return {-9, 9};
}
template <class T>
constexpr double quantum() {
    return std::is_integral_v<T> ? 1 : 0.25;
}

// Operands a (la, sa) and b (lb, sb) broadcast to R x C, written into a
// destination of size R x C with layout `dst`.
struct Case {
    const char* name;
    L la;
    Shp sa;
    L lb;
    Shp sb;
    L dst;
};

inline const Case kCases[] = {
    {"contiguous", L::contiguous, Shp::full, L::contiguous, Shp::full, L::contiguous},
    {"transposed operand", L::transposed, Shp::full, L::contiguous, Shp::full, L::contiguous},
    {"transposed operands into a transposed destination", L::transposed, Shp::full, L::transposed,
     Shp::full, L::transposed},
    {"narrowed (outer stride > inner size)", L::narrowed, Shp::full, L::narrowed, Shp::full,
     L::contiguous},
    {"column slices with step 2", L::stepped, Shp::full, L::stepped, Shp::full, L::contiguous},
    {"expanded (stride 0 outer and inner)", L::expanded_rows, Shp::full, L::expanded_cols,
     Shp::full, L::contiguous},
    {"broadcast row + column", L::contiguous, Shp::row, L::contiguous, Shp::col, L::contiguous},
    {"broadcast 1-D + transposed 2-D", L::contiguous, Shp::vec, L::transposed, Shp::full,
     L::contiguous},
    {"broadcast stepped 1-D + narrowed column into a narrowed destination", L::stepped, Shp::vec,
     L::narrowed, Shp::col, L::narrowed},
    {"transposed destination", L::contiguous, Shp::full, L::contiguous, Shp::full, L::transposed},
    {"narrowed destination", L::contiguous, Shp::full, L::stepped, Shp::full, L::narrowed},
    {"stepped destination", L::narrowed, Shp::full, L::contiguous, Shp::full, L::stepped},
    {"column result broadcast into the destination", L::contiguous, Shp::col, L::narrowed, Shp::col,
     L::contiguous},
};

// 1 and 7 elements (below a packet; packet tails), odd 2-D sizes, and one above
// the parallel grain (32768) whose split between two threads falls inside a row
// (the sanitized build takes one just above the grain: that case was most of its
// sweeps' time).
#if defined(T7_TEST_SANITIZED)
inline constexpr std::pair<int64_t, int64_t> kAboveGrain{131, 257};
#else
inline constexpr std::pair<int64_t, int64_t> kAboveGrain{301, 257};
#endif
inline const std::pair<int64_t, int64_t> kSizes[] = {{1, 1}, {1, 7},   {7, 1},
                                                     {3, 5}, {13, 17}, kAboveGrain};

inline constexpr uint8_t kSentinel = 77;

// The part of check_expr that does not depend on the expression, compiled once per
// element type (a suite checks hundreds of expressions): a destination of layout
// `dst` whose storage holds a sentinel, `assign` run into it, then its values
// compared with `want` and the storage outside the view checked untouched.
template <class U>
void check_assigned(const char* what, const Shape& shape, L dst, const std::vector<U>& want,
                    void (*assign)(Tensor<U>&, const void*), const void* e) {
    INFO(std::string(what));
    Tensor<U> y = shape.size() == 2 ? make_view<U>(dst, shape[0], shape[1]) : Tensor<U>(shape);
    std::fill(y.storage().data(), y.storage().data() + y.storage().size(), U(kSentinel));
    assign(y, e);
    CHECK(mismatch_values(y, shape, want) == "");
    CHECK(outside_untouched(y, U(kSentinel)));
}

// Evaluates e into a fresh destination of layout `dst` (its storage pre-filled
// with a sentinel), compares it with ref(i), and checks that nothing outside the
// destination view was written. U, the expected result type, is asserted.
template <class U, class E, class Ref>
void check_expr(const char* what, const E& e, const Shape& shape, L dst, Ref&& ref) {
    static_assert(std::is_same_v<typename E::value_type, U>, "unexpected result type");
    check_assigned<U>(
        what, shape, dst, reference_values<U>(shape, ref),
        [](Tensor<U>& y, const void* p) { y = *static_cast<const E*>(p); }, &e);
}

// Runs body(case, R, C) for every layout case (one SUBCASE each) and every size.
template <class F>
void for_cases(F&& body) {
    for (const Case& c : kCases) {
        SUBCASE(c.name) {
            for (auto [R, C] : kSizes) {
                CAPTURE(R);
                CAPTURE(C);
                body(c, R, C);
            }
        }
    }
}

} // namespace expr_test

// CHECK_EXPR(result type, expression, reference for element i): uses the local
// `sh` (result shape) and `dst` (destination layout).
#define CHECK_EXPR(U, EXPR, REF)                                                                   \
    ::expr_test::check_expr<U>(#EXPR, EXPR, sh, dst, [&](int64_t i) -> U {                         \
        (void)i;                                                                                   \
        return REF;                                                                                \
    })

// The element types the suites sweep. The sanitized build (tests/meson.build
// defines T7_TEST_SANITIZED) leaves out int8 and int16: Eigen has no packets
// for them, so they run the same scalar loops as uint8, instantiated again, and
// the sweep would only lengthen CI's slowest build.
#if defined(T7_TEST_SANITIZED)
#define T7_INT_TYPES uint8_t, int32_t, int64_t
#else
#define T7_INT_TYPES uint8_t, int8_t, int16_t, int32_t, int64_t
#endif
#define T7_FLOAT_TYPES float, double
#define T7_ALL_TYPES T7_INT_TYPES, T7_FLOAT_TYPES
