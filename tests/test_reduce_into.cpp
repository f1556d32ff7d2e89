// Reductions into an existing result (shared/API.md, "Reductions into an
// existing result"): t7::sum(out, e, dim) and the rest give the values of the
// allocating forms, into out of any element type and layout, resized like
// Torch7's result tensors, alias-safe, and checked like the allocating forms.
#include "test_util.hpp"

#include <cmath>

using namespace test_util;
using t7::DoubleTensor;
using t7::FloatTensor;
using t7::IntTensor;
using t7::LongTensor;

namespace {

FloatTensor sample(int64_t rows, int64_t cols) {
    FloatTensor x(rows, cols);
    for (int64_t i = 0; i < x.nElement(); ++i) x.data()[i] = float((i * 7) % 11) - 4.5f;
    return x;
}

// Naive reference: row (dim 1) or column (dim 0) sums in double.
Values naive_sums(const FloatTensor& x, int64_t dim) {
    Values r;
    const int64_t outer = x.size(1 - dim), inner = x.size(dim);
    for (int64_t o = 0; o < outer; ++o) {
        double s = 0;
        for (int64_t i = 0; i < inner; ++i) s += dim == 1 ? x(o, i) : x(i, o);
        r.push_back(s);
    }
    return r;
}

void check_close(const Values& a, const Values& b, double tol = 1e-5) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(tol));
}

} // namespace

TEST_CASE("sum into an existing result: values, shape, no new storage") {
    const FloatTensor x = sample(5, 7);
    for (int64_t dim : {0, 1}) {
        CAPTURE(dim);
        Shape keep = x.sizes();
        keep[size_t(dim)] = 1;
        FloatTensor out(keep);
        const void* memory = out.data();
        FloatTensor& r = t7::sum(out, x, dim);
        CHECK(&r == &out);
        CHECK(out.sizes() == keep);
        CHECK(out.data() == memory); // written in place
        check_close(values(out), naive_sums(x, dim));
        CHECK(values(out) == values(t7::sum(x, dim)));
    }
}

TEST_CASE("results of another type, layout or size") {
    const FloatTensor x = sample(6, 4);
    // A double result holds the double accumulation.
    DoubleTensor d;
    t7::sum(d, x, 1);
    CHECK(d.sizes() == Shape{6, 1});
    check_close(values(d), naive_sums(x, 1), 1e-12);
    // An empty result, and a result of another size, are resized.
    FloatTensor empty, wrong(3);
    t7::sum(empty, x, 0);
    t7::sum(wrong, x, 0);
    CHECK(empty.sizes() == Shape{1, 4});
    CHECK(wrong.sizes() == Shape{1, 4});
    check_close(values(wrong), naive_sums(x, 0));
    // A non-contiguous result (a column of a wider tensor) is written through.
    FloatTensor wide(6, 3);
    wide.zero();
    FloatTensor col = wide.narrow(1, 1, 1);
    t7::sum(col, x, 1);
    check_close(values(wide.select(1, 1)), naive_sums(x, 1));
    CHECK(values(wide.select(1, 0)) == Values(6, 0.0));
    CHECK(values(wide.select(1, 2)) == Values(6, 0.0));
    // An expression input, and integer data into an integer result.
    IntTensor n = t7::tensor<int32_t>({{1, 2, 3}, {4, 5, 6}});
    LongTensor ls;
    t7::sum(ls, n * 2, 1);
    CHECK(values(ls) == Values{12, 30});
    t7::prod(ls, n, 0);
    CHECK(values(ls) == Values{4, 10, 18});
}

TEST_CASE("the result may be one of the inputs") {
    FloatTensor x = sample(4, 3);
    const Values expected = naive_sums(x, 1);
    t7::sum(x, x, 1); // read before x is resized
    CHECK(x.sizes() == Shape{4, 1});
    check_close(values(x), expected);
    FloatTensor y = sample(3, 5);
    const Values scanned = values(t7::cumsum(y, 1));
    t7::cumsum(y, y, 1);
    CHECK(values(y) == scanned);
}

TEST_CASE("max and min into values and indices") {
    const FloatTensor x = t7::tensor<float>({{3, 9, 1}, {7, 2, 7}});
    FloatTensor v;
    LongTensor i;
    t7::max(v, i, x, 1);
    CHECK(values(v) == Values{9, 7});
    CHECK(values(i) == Values{1, 0}); // the first maximum
    t7::min(v, i, x, 0);
    CHECK(values(v) == Values{3, 2, 1});
    CHECK(values(i) == Values{0, 1, 0});
    DoubleTensor dv;
    t7::max(dv, x, 1);
    CHECK(values(dv) == Values{9, 7});
}

TEST_CASE("mean, norm, var, std, cumsum, cumprod into a result") {
    const FloatTensor x = sample(5, 6);
    FloatTensor out;
    t7::mean(out, x, 1);
    check_close(values(out), values(t7::mean(x, 1)));
    t7::norm(out, x, 2, 0);
    check_close(values(out), values(t7::norm(x, 2, 0)));
    t7::norm(out, x, 3, 1);
    check_close(values(out), values(t7::norm(x, 3, 1)));
    t7::var(out, x, 1);
    check_close(values(out), values(t7::var(x, 1)));
    t7::var(out, x, 0, true);
    check_close(values(out), values(t7::var(x, 0, true)));
    t7::std(out, x, 1);
    check_close(values(out), values(t7::std(x, 1)));
    // Hand-computed: rows {1, 2}, {3, 4}.
    const FloatTensor m = t7::tensor<float>({{1, 2}, {3, 4}});
    t7::var(out, m, 1);
    CHECK(values(out) == Values{0.5, 0.5});
    t7::cumsum(out, m, 0);
    CHECK(values(out) == Values{1, 2, 4, 6});
    t7::cumprod(out, m, 1);
    CHECK(values(out) == Values{1, 2, 3, 12});
}

TEST_CASE("bad input into a result throws and leaves the result unchanged") {
    const FloatTensor x = sample(2, 3);
    FloatTensor out = t7::tensor<float>({5, 6});
    CHECK_THROWS_OP(t7::sum(out, x, 2), t7::IndexError, "sum");
    CHECK(values(out) == Values{5, 6});
    CHECK_THROWS_OP(t7::max(out, FloatTensor(), 0), t7::ShapeError, "max");
    CHECK(values(out) == Values{5, 6});
    CHECK_THROWS_OP(t7::mean(out, x, -3), t7::IndexError, "mean");
    CHECK(values(out) == Values{5, 6});
    // Contiguous rows (the direct path) are checked first too: an integer
    // division by zero anywhere leaves the result as it was.
    const IntTensor n = t7::tensor<int32_t>({{4, 6}, {8, 10}}), z = t7::tensor<int32_t>({1, 0});
    IntTensor rows = t7::tensor<int32_t>({7, 9}).view({2, 1});
    CHECK_THROWS_OP(t7::sum(rows, n / z, 1), t7::Error, "division by zero");
    CHECK(values(rows) == Values{7, 9});
    CHECK_THROWS_OP(t7::sum(rows, n / z, 0), t7::Error, "division by zero");
    CHECK(values(rows) == Values{7, 9});
    // The forms returning a new tensor name their operation.
    CHECK_THROWS_OP(t7::sum(x, 2), t7::IndexError, "sum");
    CHECK_THROWS_OP(t7::prod(x, -3), t7::IndexError, "prod");
    CHECK_THROWS_OP(t7::mean(x, 2), t7::IndexError, "mean");
    CHECK_THROWS_OP(t7::norm(x, 2, 5), t7::IndexError, "norm");
    CHECK_THROWS_OP(t7::sum(FloatTensor(), 0), t7::ShapeError, "sum");
}

namespace {

// Values with a wide spread (every seventh scaled up, every thirteenth down),
// so that a different grouping of the additions rounds differently.
template <class T>
t7::Tensor<T> spread(int64_t rows, int64_t cols, unsigned seed) {
    t7::Tensor<T> t(rows, cols);
    for (int64_t i = 0; i < t.nElement(); ++i) {
        seed = seed * 1664525u + 1013904223u;
        double v = double(seed >> 8) / double(1u << 24) - 0.5;
        if (i % 7 == 0) v *= 1000;
        if (i % 13 == 0) v *= 1e-3;
        t.data()[i] = T(std::is_integral_v<T> ? std::round(v * 100) : v);
    }
    return t;
}

// The same values in a layout the contiguous-rows path does not take: the
// left half of a tensor twice as wide (rows apart by 2 * cols).
template <class T>
t7::Tensor<T> strided_copy(const t7::Tensor<T>& x) {
    t7::Tensor<T> wide(x.size(0), 2 * x.size(1));
    wide.zero();
    t7::Tensor<T> left = wide.narrow(1, 0, x.size(1));
    left.copy(x);
    return left;
}

// Restores the thread count when a test case ends, however it ends.
struct KeepThreads {
    int before = t7::getNumThreads();
    ~KeepThreads() { t7::setNumThreads(before); }
};

template <class T>
std::vector<T> raw(const t7::Tensor<T>& t) {
    const t7::Tensor<T> c = t.contiguous();
    return std::vector<T>(c.data(), c.data() + c.nElement());
}

} // namespace

// Row reductions of contiguous inputs skip the loop plan and the accumulator
// tensor (eval/cpu/reduce.hpp, drive_reduce_rows): each output must hold the
// bits the general walk gives for the same values in another layout, for row
// lengths around the packet blocks (16 floats a packet, 64 a block, 1024 a
// fold), more rows than one kernel call takes (64), and any thread count.
TEST_CASE("row reductions of contiguous inputs: the general walk's bits, any thread count") {
    const KeepThreads keep;
    for (int64_t cols : {1, 3, 15, 16, 17, 31, 63, 64, 65, 100, 1000, 1100, 2100}) {
        for (int64_t rows : {1, 5, 70}) {
            CAPTURE(cols);
            CAPTURE(rows);
            const FloatTensor x = spread<float>(rows, cols, unsigned(rows * 7919 + cols));
            const FloatTensor xs = strided_copy(x);
            if (rows > 1) REQUIRE(!xs.isContiguous()); // one row is contiguous either way
            t7::setNumThreads(1);
            // A weight row read by every output (1-D, and 1 x cols) takes the path too.
            const FloatTensor w = spread<float>(1, cols, 3).view({cols});
            const FloatTensor w2 = w.view({1, cols});
            FloatTensor want_f, want_w;
            DoubleTensor want_d;
            t7::sum(want_f, xs * 2.f, 1);
            t7::sum(want_d, xs, 1);
            t7::sum(want_w, xs * w, 1);
            // Float additions in packets: within 1e-6 of the row's absolute sum.
            const Values naive = naive_sums(x, 1), scale = naive_sums(t7::eval(t7::abs(x)), 1);
            const Values got_d = values(want_d);
            for (size_t i = 0; i < naive.size(); ++i)
                CHECK(std::abs(got_d[i] - naive[i]) <= 1e-6 * scale[i]);
            for (int threads : {1, 2, 3}) {
                CAPTURE(threads);
                t7::setNumThreads(threads);
                FloatTensor f(rows, 1);
                DoubleTensor d(rows, 1);
                const float* memory = f.data();
                t7::sum(f, x * 2.f, 1);
                t7::sum(d, x, 1);
                CHECK(f.data() == memory);
                CHECK(f.sizes() == Shape{rows, 1});
                CHECK(raw(f) == raw(want_f));
                CHECK(raw(d) == raw(want_d));
                FloatTensor fw(rows, 1), fw2(rows, 1);
                t7::sum(fw, x * w, 1);
                t7::sum(fw2, w2 * x, 1);
                CHECK(raw(fw) == raw(want_w));
                CHECK(raw(fw2) == raw(want_w));
            }
        }
    }
    t7::setNumThreads(keep.before);
    // Integer sums wrap into an int32 result as the general path's copy does;
    // products and a 3-D input whose reduced dimension is followed by a size-1 one.
    const IntTensor n = spread<int32_t>(70, 600, 5);
    const IntTensor ns = strided_copy(n);
    IntTensor got, want;
    t7::sum(got, n * 100000, 1);
    t7::sum(want, ns * 100000, 1);
    CHECK(raw(got) == raw(want));
    LongTensor lg, lw;
    t7::sum(lg, n, 1);
    t7::sum(lw, ns, 1);
    CHECK(raw(lg) == raw(lw));
    int64_t first = 0;
    for (int64_t j = 0; j < 600; ++j) first += n(0, j);
    CHECK(lg(0, 0) == first);
    const DoubleTensor small = t7::tensor<double>({{1.5, 2, -3}, {4, 0.5, 2}});
    DoubleTensor p;
    t7::prod(p, small, 1);
    CHECK(values(p) == Values{-9, 4});
    // A column (one value per output) is not a row: the general walk, same values.
    const DoubleTensor c = t7::tensor<double>({{2}, {-1}});
    t7::sum(p, small * c, 1);
    CHECK(values(p) == Values{1, -6.5});
    CHECK(values(t7::sum(small, 1)) == Values{0.5, 6.5});
    CHECK(t7::sum(small, 1).sizes() == Shape{2, 1});
    const FloatTensor x3 = spread<float>(6, 40, 9).view({2, 3, 40, 1});
    FloatTensor s3;
    t7::sum(s3, x3, 2);
    CHECK(s3.sizes() == Shape{2, 3, 1, 1});
    FloatTensor x3s = FloatTensor(2, 3, 80, 1).narrow(2, 0, 40);
    x3s.copy(x3);
    REQUIRE(!x3s.isContiguous());
    FloatTensor w3;
    t7::sum(w3, x3s, 2);
    CHECK(raw(s3) == raw(w3));
}

// Column reductions of small contiguous inputs skip the loop plan too
// (drive_reduce_cols): the values of a plain loop, the general walk's bits when
// the reduced dimension is not the outermost, more outputs than one tile (512),
// an expression, integer products and any thread count.
TEST_CASE("column reductions of small contiguous inputs: values and bits") {
    const KeepThreads keep;
    for (int64_t rows : {1, 2, 5, 63, 64, 65, 130}) {
        for (int64_t cols : {2, 3, 16, 17, 100, 600}) {
            if (rows * cols >= 32768) continue; // the general walk's blocks
            CAPTURE(rows);
            CAPTURE(cols);
            const FloatTensor x = spread<float>(rows, cols, unsigned(rows * 31 + cols));
            const Values naive = naive_sums(x, 0), scale = naive_sums(t7::eval(t7::abs(x)), 0);
            Values first;
            for (int threads : {1, 2, 3}) {
                t7::setNumThreads(threads);
                FloatTensor f(1, cols);
                const float* memory = f.data();
                t7::sum(f, x, 0);
                CHECK(f.data() == memory);
                const Values got = values(f);
                for (size_t j = 0; j < naive.size(); ++j)
                    CHECK(std::abs(got[j] - naive[j]) <= 1e-5 * scale[j] + 1e-30);
                if (threads == 1) first = got;
                CHECK(got == first);
            }
            // Reduced dimension not outermost: the same bits as the general walk.
            const FloatTensor x3 = x.view({1, rows, cols});
            FloatTensor x3s = FloatTensor(1, rows, 2 * cols).narrow(2, 0, cols);
            x3s.copy(x3);
            FloatTensor a, b;
            t7::sum(a, x3 * 3.f, 1);
            t7::sum(b, x3s * 3.f, 1);
            CHECK(a.sizes() == Shape{1, 1, cols});
            CHECK(raw(a) == raw(b));
        }
    }
    // Two outer indices, integer products (no packet form) and a double result.
    const IntTensor n = t7::tensor<int32_t>({{1, 2, 3}, {4, 5, 6}});
    LongTensor p;
    t7::prod(p, n.view({1, 2, 3}).expand({2, 2, 3}).contiguous(), 1);
    CHECK(values(p) == Values{4, 10, 18, 4, 10, 18});
    DoubleTensor d;
    t7::sum(d, n, 0);
    CHECK(values(d) == Values{5, 7, 9});
    CHECK(values(t7::sum(n, 0)) == Values{5, 7, 9});
}
