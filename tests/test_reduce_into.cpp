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
}
