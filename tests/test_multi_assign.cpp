// Several outputs in one pass: t7::assign(t7::out(y1) = e1, ...). Values are
// checked against plain loops over the old values (every right side reads the
// values from before the call); bad input throws before anything is written;
// assigning into existing outputs allocates nothing.
#include "alloc_counter.hpp"
#include "test_util.hpp"

#include <cmath>
#include <vector>

namespace {

using t7::out;
using test_util::fill_seq;
using test_util::seq;
using test_util::Values;
using test_util::values;

// Deterministic values in [lo, hi), in layout order.
template <class T>
void fill_wave(const t7::Tensor<T>& t, double lo, double hi, int salt) {
    int64_t n = 0;
    test_util::for_each_offset(t, [&](int64_t, int64_t off) {
        t.data()[off] = T(lo + (hi - lo) * double((n++ * 37 + salt * 11) % 101) / 101.0);
    });
}

struct Adam {
    float b1 = 0.9f, b2 = 0.999f, lr = 1e-3f, eps = 1e-8f;
};

// One Adam step, by hand, over layout-ordered values.
void adam_by_hand(std::vector<float>& p, std::vector<float>& m, std::vector<float>& v,
                  const std::vector<float>& g, Adam h) {
    for (size_t i = 0; i < p.size(); ++i) {
        m[i] = h.b1 * m[i] + (1 - h.b1) * g[i];
        v[i] = h.b2 * v[i] + (1 - h.b2) * g[i] * g[i];
        p[i] = p[i] - h.lr * m[i] / (std::sqrt(v[i]) + h.eps);
    }
}

std::vector<float> floats(const t7::FloatTensor& t) {
    std::vector<float> r;
    test_util::for_each_offset(t, [&](int64_t, int64_t off) { r.push_back(t.data()[off]); });
    return r;
}

void check_close(const t7::FloatTensor& t, const std::vector<float>& want) {
    const std::vector<float> got = floats(t);
    REQUIRE(got.size() == want.size());
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i) {
        if (std::fabs(got[i] - want[i]) > 1e-6f * std::max(1.f, std::fabs(want[i]))) {
            ++bad;
            FAIL_CHECK("element " << i << ": got " << got[i] << ", want " << want[i]);
        }
    }
}

} // namespace

TEST_CASE("assign: an Adam step in one pass equals the three updates by hand") {
    const Adam h;
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        // Below and above the thread grain (32768), and a size with a packet tail.
        for (int64_t n : {int64_t(1000), int64_t(1) << 16, int64_t(100003)}) {
            CAPTURE(threads);
            CAPTURE(n);
            t7::FloatTensor p(n), m(n), v(n), g(n);
            fill_wave(p, -1, 1, 1);
            fill_wave(m, -0.1, 0.1, 2);
            fill_wave(v, 0, 0.01, 3);
            fill_wave(g, -2, 2, 4);
            std::vector<float> P = floats(p), M = floats(m), V = floats(v);
            adam_by_hand(P, M, V, floats(g), h);
            const float* pd = p.data();
            t7::assign(out(m) = h.b1 * m + (1 - h.b1) * g, out(v) = h.b2 * v + (1 - h.b2) * g * g,
                       out(p) = p - h.lr * (h.b1 * m + (1 - h.b1) * g) /
                                        (t7::sqrt(h.b2 * v + (1 - h.b2) * g * g) + h.eps));
            CHECK(p.data() == pd); // written in place
            check_close(m, M);
            check_close(v, V);
            check_close(p, P);
        }
    }
    t7::setNumThreads(1);
}

TEST_CASE("assign: a right side reading another output sees its old values") {
    t7::setNumThreads(1);
    auto m = seq({2, 3}, 1), p = seq({2, 3}, 10), g = seq({2, 3}, 100);
    // p's right side reads m, written by the first pair: it gets the old m.
    t7::assign(out(m) = m * 2 + g, out(p) = p - m);
    CHECK(values(m) == Values{102, 105, 108, 111, 114, 117});
    CHECK(values(p) == Values{9, 9, 9, 9, 9, 9});
    // The other order: m's right side reads p, written first.
    t7::assign(out(p) = p * 0, out(m) = m + p);
    CHECK(values(p) == Values{0, 0, 0, 0, 0, 0});
    CHECK(values(m) == Values{111, 114, 117, 120, 123, 126}); // old p: 9
    // Two outputs swapping their values.
    auto a = seq({5}, 1), b = seq({5}, 11);
    t7::assign(out(a) = b, out(b) = a);
    CHECK(values(a) == Values{11, 12, 13, 14, 15});
    CHECK(values(b) == Values{1, 2, 3, 4, 5});
}

TEST_CASE("assign: an output read transposed goes through a temporary") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        for (int64_t n : {3, 70, 300}) { // small, tiled, above the grain
            CAPTURE(n);
            auto x = seq({n, n}), y = seq({n, n}, 0);
            const auto old = x.clone();
            const double* xd = x.data();
            t7::assign(out(x) = x.t() + 1, out(y) = x * 2 + y.t());
            CHECK(x.data() == xd);
            bool ok = true;
            for (int64_t i = 0; i < n && ok; ++i)
                for (int64_t j = 0; j < n && ok; ++j) {
                    ok = x(i, j) == old(j, i) + 1;
                    ok = ok && y(i, j) == old(i, j) * 2 + double(j * n + i);
                }
            CHECK(ok);
        }
    }
    t7::setNumThreads(1);
}

TEST_CASE("assign: shifted views of one storage as output and input") {
    auto x = seq({10});
    auto y = seq({9}, 0);
    // x[1:] = x[:-1] * 10 reads the old x; y reads x[1:] (the output itself) too.
    t7::assign(out(x.narrow(0, 1, 9)) = x.narrow(0, 0, 9) * 10, out(y) = x.narrow(0, 1, 9) + y);
    CHECK(values(x) == Values{1, 10, 20, 30, 40, 50, 60, 70, 80, 90});
    CHECK(values(y) == Values{2, 4, 6, 8, 10, 12, 14, 16, 18});
}

TEST_CASE("assign: right sides broadcast to the outputs' shape") {
    auto a = seq({2, 3}), b = seq({2, 3}, 0);
    t7::DoubleTensor s(1), row(3), col(2, 1);
    s.fill(100);
    fill_seq(row, 1);
    fill_seq(col, 10);
    t7::assign(out(a) = a + s, out(b) = b * row + col);
    CHECK(values(a) == Values{101, 102, 103, 104, 105, 106});
    CHECK(values(b) == Values{10, 12, 16, 14, 19, 26});
    // A number, and a right side that is only a scalar-shaped tensor.
    t7::assign(out(a) = 7, out(b) = s);
    CHECK(values(a) == Values{7, 7, 7, 7, 7, 7});
    CHECK(values(b) == Values{100, 100, 100, 100, 100, 100});
}

TEST_CASE("assign: broadcast right sides over blocks of rows, threaded") {
    // Short rows that are not one flat run (a narrowed output, a row and a column
    // broadcast) go to the kernel in blocks of rows; 131 x 257 is above the
    // thread grain, so the blocks start and end inside rows too.
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        for (int64_t w : {int64_t(3), int64_t(257)}) {
            CAPTURE(w);
            const int64_t m = 131;
            t7::DoubleTensor big(m, w + 2);
            big.zero();
            auto y = big.narrow(1, 1, w);
            auto a = seq({m, w}), z = seq({m, w}, 3);
            t7::DoubleTensor row(w), col(m, 1);
            fill_seq(row, 1);
            fill_seq(col, 10);
            t7::assign(out(y) = a * row + col, out(z) = z - col);
            bool ok = true;
            for (int64_t i = 0; i < m && ok; ++i)
                for (int64_t j = 0; j < w && ok; ++j) {
                    const double aij = double(i * w + j + 1), rj = double(j + 1),
                                 ci = double(i + 10);
                    ok = y(i, j) == aij * rj + ci && z(i, j) == double(i * w + j + 3) - ci;
                }
            CHECK(ok);
            CHECK(big(0, 0) == 0);
            CHECK(big(m - 1, w + 1) == 0);
        }
    }
    t7::setNumThreads(1);
}

TEST_CASE("assign: outputs of different element types") {
    t7::FloatTensor x(7), y(7);
    test_util::fill_values(x, {-3, -2, -1, 0, 1, 2, 3});
    t7::ByteTensor mask(7);
    t7::LongTensor twice(7);
    t7::assign(out(y) = x * 2.f, out(mask) = x > 0.f, out(twice) = t7::cast<int64_t>(x) * 2);
    CHECK(values(y) == Values{-6, -4, -2, 0, 2, 4, 6});
    CHECK(values(mask) == Values{0, 0, 0, 0, 1, 1, 1});
    CHECK(values(twice) == Values{-6, -4, -2, 0, 2, 4, 6});
    // Converted on store, as one assignment converts.
    t7::IntTensor r(7);
    t7::assign(out(r) = x * 1.5f, out(y) = x);
    CHECK(values(r) == Values{-4, -3, -1, 0, 1, 3, 4});
    // Packet widths differ (double beside float), Half computes in float: one scalar
    // loop for all (37: not a multiple of any packet width).
    t7::FloatTensor xs(37), ys(37);
    fill_seq(xs, 0);
    t7::DoubleTensor ds(37);
    t7::Tensor<t7::Half> hs(37);
    t7::assign(out(ds) = t7::cast<double>(xs) * 0.5, out(ys) = xs * 2.f, out(hs) = xs + 1.f);
    t7::assign(out(hs) = hs * 2.f, out(xs) = xs - 1.f);
    bool ok = true;
    for (int64_t i = 0; i < 37; ++i) {
        ok = ok && ds(i) == double(i) * 0.5 && ys(i) == 2.f * float(i);
        ok = ok && t7::convert<float>(hs(i)) == 2.f * float(i + 1) && xs(i) == float(i) - 1;
    }
    CHECK(ok);
}

TEST_CASE("assign: non-contiguous outputs (transposed, narrowed, stepped)") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        for (int64_t n : {5, 260}) { // 260 x 260 is above the grain
            CAPTURE(n);
            t7::DoubleTensor big(n, n + 4);
            big.zero();
            auto a = seq({n, n}), b = seq({n, n}, 5);
            auto at = a.t();               // transposed output
            auto bn = big.narrow(1, 2, n); // narrowed output
            t7::assign(out(at) = b * 2, out(bn) = a + b);
            bool ok = true;
            for (int64_t i = 0; i < n && ok; ++i)
                for (int64_t j = 0; j < n && ok; ++j) {
                    const double aij = double(i * n + j + 1), bij = double(i * n + j + 5);
                    ok = a(j, i) == bij * 2;               // at(i, j) = b(i, j) * 2
                    ok = ok && big(i, j + 2) == aij + bij; // the old a(i, j)
                }
            CHECK(ok);
            CHECK(big(0, 0) == 0);
            CHECK(big(n - 1, n + 3) == 0);
        }
    }
    t7::setNumThreads(1);
}

TEST_CASE("assign: empty outputs are resized to the common shape") {
    auto a = seq({2, 2});
    t7::DoubleTensor e, f;
    t7::assign(out(e) = a * 3, out(a) = a + 1, out(f) = 2);
    CHECK(e.sizes() == t7::Shape{2, 2});
    CHECK(f.sizes() == t7::Shape{2, 2});
    CHECK(values(e) == Values{3, 6, 9, 12});
    CHECK(values(a) == Values{2, 3, 4, 5});
    CHECK(values(f) == Values{2, 2, 2, 2});
    // Only empty tensors and numbers: nothing to do.
    t7::DoubleTensor g, h;
    t7::assign(out(g) = 1, out(h) = g);
    CHECK(g.dim() == 0);
    CHECK(h.dim() == 0);
    // Shapes of ones, whose every stride counts as contiguous: an empty output
    // still goes through the resize (it once took the flat path and wrote
    // through its null data).
    for (const t7::Shape& s : {t7::Shape{1}, t7::Shape{1, 1}, t7::Shape{1, 1, 1}}) {
        CAPTURE(s);
        t7::DoubleTensor one = t7::ones<double>(s), y = t7::zeros<double>(s), k, m;
        t7::assign(out(k) = one + 1);
        CHECK(k.sizes() == s);
        CHECK(k.storage().data()[0] == 2);
        t7::assign(out(y) = one * 3, out(m) = one + 2);
        CHECK(y.storage().data()[0] == 3);
        CHECK(m.sizes() == s);
        CHECK(m.storage().data()[0] == 3);
    }
}

TEST_CASE("assign: bad input throws before anything is written") {
    auto a = seq({2, 3}), b = seq({2, 3}, 10), c = seq({4}, 20);
    const Values a0 = values(a), b0 = values(b), c0 = values(c);
    auto unchanged = [&] {
        CHECK(values(a) == a0);
        CHECK(values(b) == b0);
        CHECK(values(c) == c0);
    };
    // Outputs whose shapes do not make one loop.
    CHECK_THROWS_OP(t7::assign(out(a) = a + 1, out(c) = c + 1), t7::ShapeError,
                    "2x3 and 4 cannot be broadcast");
    CHECK_THROWS_OP(t7::assign(out(a) = a + 1, out(c) = 5), t7::ShapeError,
                    "output 1 of size 4 does not broadcast");
    unchanged();
    auto r = seq({3}, 30);
    CHECK_THROWS_OP(t7::assign(out(a) = a + 1, out(r) = r * 2), t7::ShapeError,
                    "is not the common size");
    CHECK(values(r) == Values{30, 31, 32});
    unchanged();
    // A right side that does not broadcast.
    CHECK_THROWS_AS(t7::assign(out(a) = a + 1, out(b) = b + c), t7::ShapeError);
    unchanged();
    // An expanded (stride 0) output.
    auto e = seq({3}, 0).view({1, 3}).expand({2, 3});
    CHECK_THROWS_OP(t7::assign(out(a) = a + 1, out(e) = b), t7::ShapeError, "share memory");
    unchanged();
    // The same output twice: one tensor, or two handles of one view.
    CHECK_THROWS_OP(t7::assign(out(a) = b, out(b) = a, out(a) = a), t7::Error, "same tensor");
    auto a2 = a;
    CHECK_THROWS_OP(t7::assign(out(a) = b, out(a2) = b), t7::Error, "same tensor");
    unchanged();
    // Integer division by zero in a later right side.
    t7::IntTensor i(3), j(3), k(3);
    test_util::fill_values(i, {1, 2, 3});
    test_util::fill_values(j, {4, 0, 6});
    test_util::fill_values(k, {7, 8, 9});
    CHECK_THROWS_OP(t7::assign(out(i) = i + 1, out(k) = k / j), t7::Error, "division by zero");
    CHECK(values(i) == Values{1, 2, 3});
    CHECK(values(k) == Values{7, 8, 9});
    // An empty output is left empty when another check fails.
    t7::DoubleTensor empty;
    CHECK_THROWS_AS(t7::assign(out(empty) = a + 1, out(c) = c), t7::ShapeError);
    CHECK(empty.dim() == 0);
    unchanged();
}

TEST_CASE("assign: overlapping outputs are written in argument order") {
    // Two columns of one matrix: disjoint elements, overlapping byte ranges.
    auto x = seq({4, 2});
    const auto old = x.clone();
    t7::assign(out(x.select(1, 0)) = x.select(1, 1) * 10, out(x.select(1, 1)) = x.select(1, 0));
    for (int64_t r = 0; r < 4; ++r) {
        CHECK(x(r, 0) == old(r, 1) * 10);
        CHECK(x(r, 1) == old(r, 0));
    }
    // Two views sharing elements: the later output wins.
    auto y = seq({6});
    t7::assign(out(y.narrow(0, 0, 4)) = y.narrow(0, 0, 4) * 0, out(y.narrow(0, 2, 4)) = 1);
    CHECK(values(y) == Values{0, 0, 1, 1, 1, 1});
}

TEST_CASE("assign: no heap allocation into existing outputs") {
    t7::setNumThreads(1);
    t7::FloatTensor p(64, 33), m(64, 33), v(64, 33), g(64, 33), row(33), y(33, 64);
    p = 1.f;
    m = 0.f;
    v = 0.f;
    g = 0.5f;
    row = 2.f;
    auto step = [&] {
        t7::assign(out(m) = 0.9f * m + 0.1f * g, out(v) = 0.99f * v + 0.01f * g * g,
                   out(p) = p - 0.1f * (0.9f * m + 0.1f * g) /
                                    (t7::sqrt(0.99f * v + 0.01f * g * g) + 1e-8f));
    };
    CHECK(allocations(step) == 0);
    CHECK(allocations([&] { t7::assign(out(y.t()) = p * row, out(m) = m + row); }) == 0);
    // An output read with its own (transposed) indexing needs no temporary.
    CHECK(allocations([&] { t7::assign(out(y.t()) = y.t() + p, out(v) = v + 1.f); }) == 0);
    CHECK(p(3, 4) == doctest::Approx(1 - 0.1f * 0.05f / (std::sqrt(0.0025f) + 1e-8f)));
    CHECK(y(4, 3) == doctest::Approx(3 * p(3, 4)));
    CHECK(v(5, 6) == doctest::Approx(1 + 0.01f * 0.25f));
    // Sanity: the counter does count (a transposed self-read takes a temporary).
    t7::FloatTensor sq(8, 8), sq2(8, 8);
    sq = 1.f;
    CHECK(allocations([&] { t7::assign(out(sq) = sq.t() + 1, out(sq2) = sq); }) > 0);
    CHECK(sq2(1, 2) == 1.f);
    CHECK(sq(1, 2) == 2.f);
}
