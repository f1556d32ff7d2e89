// Deterministic reductions (API.md): floating sums, means, norms, dots, var/std,
// products and reductions along a dimension give bit-identical results at 1, 2
// and 3 threads, below and well above the thread grain (32768 elements), on
// contiguous, transposed and narrowed inputs; each result is also checked
// against a naive double loop, so that a constant cannot pass.
#include "test_util.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

namespace {

using t7::Shape;
using t7::Tensor;

// Restores the thread count when a test case ends, however it ends.
struct KeepThreads {
    int before = t7::getNumThreads();
    ~KeepThreads() { t7::setNumThreads(before); }
};

// Values in [-1, 1) with every seventh scaled by 1000 and every thirteenth by
// 1e-3: enough spread that a different grouping of the additions rounds differently.
template <class T>
Tensor<T> spread(Shape s, unsigned seed) {
    Tensor<T> t(s);
    unsigned x = seed;
    int64_t i = 0;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        double u = double(x >> 8) / double(1 << 23) - 1.0;
        if (i % 7 == 0) u *= 1000;
        if (i % 13 == 0) u *= 1e-3;
        ++i;
        return T(u);
    });
    return t;
}

// Values near 1 (1 +- 1e-4), for products of a million elements.
template <class T>
Tensor<T> near_one(Shape s, unsigned seed) {
    Tensor<T> t(s);
    unsigned x = seed;
    t.apply([&] {
        x = x * 1664525u + 1013904223u;
        return T(1.0 + 1e-4 * (double(x >> 8) / double(1 << 23) - 1.0));
    });
    return t;
}

template <class S>
bool same_bits(const S& a, const S& b) {
    return std::memcmp(&a, &b, sizeof(S)) == 0;
}
template <class T>
bool same_bits(const Tensor<T>& a, const Tensor<T>& b) {
    if (!(a.sizes() == b.sizes())) return false;
    const Tensor<T> ca = a.contiguous(), cb = b.contiguous();
    return std::memcmp(ca.data(), cb.data(), size_t(ca.nElement()) * sizeof(T)) == 0;
}

// f() at 1 thread, then at 2 and 3: every result has the same bits. Returns
// the first.
template <class F>
auto at_threads(F&& f) {
    KeepThreads keep;
    t7::setNumThreads(1);
    const auto first = f();
    for (int n : {2, 3}) {
        t7::setNumThreads(n);
        const auto again = f();
        CAPTURE(n);
        CHECK(same_bits(first, again));
    }
    return first;
}

// Inputs of about n elements: contiguous, a transposed matrix and a narrowed
// one (every row of a wider matrix cut short).
template <class T>
std::vector<Tensor<T>> inputs(int64_t n, unsigned seed) {
    std::vector<Tensor<T>> r;
    r.push_back(spread<T>({n}, seed));
    const int64_t rows = std::max<int64_t>(1, int64_t(std::sqrt(double(n))));
    const int64_t cols = (n + rows - 1) / rows;
    r.push_back(spread<T>({cols, rows}, seed + 1).t());
    r.push_back(spread<T>({rows, cols + 5}, seed + 2).narrow(1, 3, cols));
    return r;
}

double naive_sum(const test_util::Values& v, double (*f)(double) = nullptr) {
    double s = 0;
    for (double x : v) s += f ? f(x) : x;
    return s;
}
double sq(double x) { return x * x; }
double absf(double x) { return std::fabs(x); }

// |got - want| within rel of the scale of the terms (sum of |terms|).
void near(double got, double want, double scale, double rel) {
    CHECK(std::fabs(got - want) <= rel * scale + 1e-300);
}

template <class T>
double rel_tol() {
    return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

// Under the sanitizers (-O0) the naive reference loops cost most of this
// suite's time: smaller shapes there, each still several fixed blocks (32768
// elements, or row blocks x 4096-wide tiles) long.
#if defined(T7_TEST_SANITIZED)
constexpr int64_t big = 263, tall = 40009;
const int64_t sizes[] = {1000, 32769, 100003};
#else
constexpr int64_t big = 1031, tall = 100003;
const int64_t sizes[] = {1000, 32769, 100003, (int64_t(1) << 20) + 7};
#endif

} // namespace

TEST_CASE_TEMPLATE("sum, mean, norm, var, std over all elements: the same bits at 1, 2, 3 threads",
                   T, float, double) {
    unsigned seed = 11;
    for (int64_t n : sizes) {
        for (const Tensor<T>& x : inputs<T>(n, seed += 10)) {
            CAPTURE(n);
            CAPTURE(x.sizes());
            const auto v = test_util::values(x);
            const double m = double(v.size());
            const double total = naive_sum(v), scale = naive_sum(v, absf), ss = naive_sum(v, sq);
            near(double(at_threads([&] { return t7::sum(x); })), total, scale, rel_tol<T>());
            near(double(at_threads([&] { return t7::sum(x * x); })), ss, ss, rel_tol<T>());
            near(at_threads([&] { return t7::mean(x); }), total / m, scale / m, rel_tol<T>());
            near(at_threads([&] { return t7::norm(x); }), std::sqrt(ss), std::sqrt(ss), 1e-12);
            near(at_threads([&] { return t7::norm(x, 1); }), scale, scale, 1e-12);
            double dev = 0;
            for (double a : v) dev += (a - total / m) * (a - total / m);
            const double var = dev / (m - 1);
            near(at_threads([&] { return t7::var(x); }), var, var, 1e-10);
            near(at_threads([&] { return t7::std(x); }), std::sqrt(var), std::sqrt(var), 1e-10);
        }
    }
}

TEST_CASE_TEMPLATE("dot and prod: the same bits at 1, 2, 3 threads", T, float, double) {
    for (int64_t n : sizes) {
        CAPTURE(n);
        const Tensor<T> a = spread<T>({n}, 3), b = spread<T>({n}, 4);
        const auto va = test_util::values(a), vb = test_util::values(b);
        double d = 0, scale = 0;
        for (size_t i = 0; i < va.size(); ++i)
            d += va[i] * vb[i], scale += std::fabs(va[i] * vb[i]);
        // Eigen's dot accumulates floats in float packets: a looser bound there.
        const double dot_tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
        near(double(at_threads([&] { return t7::dot(a, b); })), d, scale, dot_tol);
        near(double(at_threads([&] { return t7::sum(a * b); })), d, scale, rel_tol<T>());

        // A transposed operand: dot pairs elements in layout order.
        const int64_t rows = 97, cols = (n + rows - 1) / rows;
        const Tensor<T> mt = spread<T>({cols, rows}, 5).t(), mb = spread<T>({rows, cols}, 6);
        const auto vt = test_util::values(mt), vm = test_util::values(mb);
        double dt = 0, st = 0;
        for (size_t i = 0; i < vt.size(); ++i) dt += vt[i] * vm[i], st += std::fabs(vt[i] * vm[i]);
        near(double(at_threads([&] { return t7::dot(mt, mb); })), dt, st, dot_tol);

        const Tensor<T> p = near_one<T>({n}, 7);
        double want = 1;
        for (double x : test_util::values(p)) want *= x;
        const double got = double(at_threads([&] { return t7::prod(p); }));
        CHECK(std::fabs(got - want) <= 1e-9 * std::fabs(want));
    }
}

namespace {

// Naive reduction of x along dim: sums (and sums of squares about the mean)
// of each output, outputs in layout order of the result.
struct AlongDim {
    std::vector<double> sum, scale, dev;
};
template <class T>
AlongDim naive_along(const Tensor<T>& x, int64_t dim) {
    const int64_t rank = x.dim();
    Shape keep = x.sizes();
    keep[size_t(dim)] = 1;
    const int64_t outputs = keep.numel();
    AlongDim r{std::vector<double>(size_t(outputs)), std::vector<double>(size_t(outputs)),
               std::vector<double>(size_t(outputs))};
    auto out_index = [&](int64_t n) {
        int64_t o = 0, mul = 1;
        for (int64_t d = rank - 1; d >= 0; --d) {
            const int64_t i = n % x.size(d);
            n /= x.size(d);
            if (d != dim) o += i * mul, mul *= x.size(d);
        }
        return o;
    };
    const auto v = test_util::values(x);
    for (size_t n = 0; n < v.size(); ++n) {
        r.sum[size_t(out_index(int64_t(n)))] += v[n];
        r.scale[size_t(out_index(int64_t(n)))] += std::fabs(v[n]);
    }
    const double len = double(x.size(dim));
    for (size_t n = 0; n < v.size(); ++n) {
        const size_t o = size_t(out_index(int64_t(n)));
        const double c = v[n] - r.sum[o] / len;
        r.dev[o] += c * c;
    }
    return r;
}

// Matrices and 3-D tensors, contiguous and not, for reductions along each dimension.
template <class T>
std::vector<Tensor<T>> dim_inputs() {
    std::vector<Tensor<T>> r;
    r.push_back(spread<T>({big, big - 10}, 21));                        // 1M elements
    r.push_back(spread<T>({big - 10, big}, 22).t());                    // transposed
    r.push_back(spread<T>({big / 2, big + 100}, 23).narrow(1, 7, big)); // narrowed rows
    r.push_back(spread<T>({tall, 3}, 24));                              // tall and thin
    r.push_back(spread<T>({3, tall}, 25));                              // short and wide (tiles)
    r.push_back(spread<T>({big / 5, 5000}, 29));                        // row blocks x tiles
    r.push_back(spread<T>({40, 30}, 26));                               // below the grain
    r.push_back(spread<T>({64, 129, big / 8}, 27));                     // 3-D
    r.push_back(spread<T>({big / 8, 129, 64}, 28).transpose(0, 2));     // 3-D, permuted
    return r;
}

} // namespace

TEST_CASE_TEMPLATE("sum, mean, var, std along a dimension: the same bits at 1, 2, 3 threads", T,
                   float, double) {
    for (const Tensor<T>& x : dim_inputs<T>()) {
        for (int64_t dim = 0; dim < x.dim(); ++dim) {
            CAPTURE(x.sizes());
            CAPTURE(dim);
            const AlongDim want = naive_along(x, dim);
            const double len = double(x.size(dim));
            const auto s = test_util::values(at_threads([&] { return t7::sum(x, dim); }));
            const auto mn = test_util::values(at_threads([&] { return t7::mean(x, dim); }));
            const auto vr = test_util::values(at_threads([&] { return t7::var(x, dim); }));
            const auto sd = test_util::values(at_threads([&] { return t7::std(x, dim); }));
            // Into an existing result (the column-sum path with a float result).
            const auto into = test_util::values(at_threads([&] {
                Tensor<T> out;
                t7::sum(out, x, dim);
                return out;
            }));
            REQUIRE(s.size() == want.sum.size());
            for (size_t o = 0; o < s.size(); ++o) {
                near(s[o], want.sum[o], want.scale[o], rel_tol<T>());
                near(into[o], want.sum[o], want.scale[o], rel_tol<T>());
                near(mn[o], want.sum[o] / len, want.scale[o] / len, rel_tol<T>());
                const double v = want.dev[o] / (len - 1);
                near(vr[o], v, v, std::is_same_v<T, float> ? 1e-5 : 1e-10);
                near(sd[o], std::sqrt(v), std::sqrt(v), std::is_same_v<T, float> ? 1e-5 : 1e-10);
            }
        }
    }
}

TEST_CASE_TEMPLATE("norm and prod along a dimension, cumsum: the same bits at 1, 2, 3 threads", T,
                   float, double) {
    const int64_t cols = big - 10;
    const Tensor<T> x = spread<T>({big, cols}, 31);
    const Tensor<T> p = near_one<T>({big, cols}, 32);
    for (int64_t dim : {0, 1}) {
        CAPTURE(dim);
        const AlongDim want = naive_along(x, dim);
        const auto n1 = test_util::values(at_threads([&] { return t7::norm(x, 1, dim); }));
        for (size_t o = 0; o < n1.size(); ++o) near(n1[o], want.scale[o], want.scale[o], 1e-5);
        const auto n2 = test_util::values(at_threads([&] { return t7::norm(x, 2, dim); }));
        const AlongDim sq2 = naive_along(Tensor<T>(t7::eval(x * x)), dim);
        for (size_t o = 0; o < n2.size(); ++o)
            near(n2[o], std::sqrt(sq2.sum[o]), std::sqrt(sq2.sum[o]), 1e-5);
        const auto pr = test_util::values(at_threads([&] { return t7::prod(p, dim); }));
        const auto pv = test_util::values(p);
        for (size_t o = 0; o < pr.size(); ++o) {
            double want_p = 1;
            const int64_t len = p.size(dim);
            for (int64_t i = 0; i < len; ++i)
                want_p *= dim == 0 ? pv[size_t(i * cols) + o] : pv[o * size_t(cols) + size_t(i)];
            near(pr[o], want_p, std::fabs(want_p), std::is_same_v<T, float> ? 1e-6 : 1e-12);
        }
        const Tensor<T> cs = at_threads([&] { return t7::cumsum(x, dim); });
        // The last slice of the running sum is the sum along dim.
        const auto last = test_util::values(Tensor<T>(cs.narrow(dim, cs.size(dim) - 1, 1)));
        for (size_t o = 0; o < last.size(); ++o)
            near(last[o], want.sum[o], want.scale[o], std::is_same_v<T, float> ? 1e-4 : 1e-12);
    }
}

TEST_CASE("the thread count is restored and reductions agree with one thread after it") {
    const int before = t7::getNumThreads();
    {
        const Tensor<float> x = spread<float>({300000}, 41);
        const double one = at_threads([&] { return t7::sum(x); });
        CHECK(t7::getNumThreads() == before);
        t7::setNumThreads(4);
        CHECK(same_bits(double(t7::sum(x)), one));
        t7::setNumThreads(before);
    }
    CHECK(t7::getNumThreads() == before);
}
