// Matrix products inside expressions (issue 15): mm/addmm results are pending
// until the end of their statement, consumed by blocks in an element-wise
// assignment (sigmoid(mm(a, b) + bias) into y without a product-sized
// temporary), materialised otherwise with the operands of that statement;
// mm/addmm/mv/bmm of expressions; bmm/baddbmm batches the same way; addr and
// ger as products of depth 1. Every value against naive loops.
#include "alloc_counter.hpp"
#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

namespace {

template <class T>
double tol() {
    return std::is_same_v<T, float> ? 1e-4 : 1e-11;
}

// Row-major values of a tensor of any rank (test_util.hpp).
using test_util::values;

// beta c[i][j] + alpha sum_l a[i][l] b[l][j], c broadcast (row vector or matrix or none).
template <class T>
std::vector<double> naive(const t7::Tensor<T>& a, const t7::Tensor<T>& b, double alpha = 1,
                          double beta = 0, const t7::Tensor<T>* c = nullptr) {
    std::vector<double> r;
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            double s = 0;
            for (int64_t l = 0; l < a.size(1); ++l) s += double(a(i, l)) * double(b(l, j));
            double cv = !c ? 0 : c->dim() == 1 ? double((*c)(j)) : double((*c)(i, j));
            r.push_back(beta * cv + alpha * s);
        }
    return r;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want, double eps) {
    REQUIRE(got.size() == want.size());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - want[i]) / (1 + std::abs(want[i])));
    CHECK(worst < eps);
}

double sig(double x) { return 1 / (1 + std::exp(-x)); }

} // namespace

TEST_CASE_TEMPLATE("mm_expr: y = sigmoid(mm(a, b) + bias), fused by panels", T, float, double) {
    // (n, k, p): one element; below a block; above one, with partial blocks
    // (default blocks of 512 KiB: 372 x 352 floats or 256 x 256 doubles; then
    // blocks of 4 KiB: 32 x 32 floats, 32 x 16 doubles).
    // Under the sanitizers (-O0) Eigen's GEMM and the naive loops dominate: a
    // shorter inner dimension there, the same blocks.
#if defined(T7_TEST_SANITIZED)
    const int64_t dims[][3] = {{1, 1, 1}, {5, 7, 3}, {300, 6, 520}};
#else
    const int64_t dims[][3] = {{1, 1, 1}, {5, 7, 3}, {300, 40, 520}};
#endif
    const int64_t block_bytes = t7::cpu::product_panel_bytes;
    for (int64_t bytes : {block_bytes, int64_t(4096)}) // default blocks; 32 x 32 floats
        for (int threads : {1, 2})
            for (const auto& d : dims) {
                CAPTURE(threads);
                CAPTURE(d[0]);
                CAPTURE(bytes);
                t7::cpu::product_panel_bytes = bytes;
                t7::setNumThreads(threads);
                t7::manualSeed(3);
                const int64_t n = d[0], k = d[1], p = d[2];
                auto a = t7::randn<T>(n, k), b = t7::randn<T>(k, p), bias = t7::randn<T>(p);
                std::vector<double> want = naive(a, b);
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < p; ++j)
                        want[size_t(i * p + j)] = sig(want[size_t(i * p + j)] + double(bias(j)));

                t7::Tensor<T> y(n, p);
                const T* where = y.data();
                y = t7::sigmoid(t7::mm(a, b) + bias);
                CHECK(y.data() == where);
                check_close(values(y), want, tol<T>());

                // An empty destination is sized by the assignment.
                t7::Tensor<T> fresh;
                fresh = t7::sigmoid(t7::mm(a, b) + bias);
                CHECK(fresh.sizes() == t7::Shape{n, p});
                check_close(values(fresh), want, tol<T>());

                // Non-contiguous operands (a transposed, b stepped) and destinations
                // (a column slice, a transposed one).
                auto at = t7::eval(a.t() * T(1)), bw = t7::randn<T>(k, 2 * p);
                bw(t7::all, t7::slice(0, 2 * p, 2)) = b;
                auto bs = bw(t7::all, t7::slice(0, 2 * p, 2));
                t7::Tensor<T> wide(n, p + 3), ycm(p, n);
                auto yn = wide.narrow(1, 1, p);
                yn = t7::sigmoid(t7::mm(at.t(), bs) + bias);
                check_close(values(t7::Tensor<T>(yn)), want, tol<T>());
                auto yt = ycm.t();
                yt = t7::sigmoid(t7::mm(at.t(), bs) + bias);
                check_close(values(t7::Tensor<T>(yt)), want, tol<T>());

                // The product alone: one GEMM into y (contiguous, and a row-strided one).
                y = t7::mm(a, b);
                CHECK(y.data() == where);
                check_close(values(y), naive(a, b), tol<T>());
                yn = t7::mm(a, b);
                check_close(values(t7::Tensor<T>(yn)), naive(a, b), tol<T>());
            }
    t7::cpu::product_panel_bytes = block_bytes;
    t7::setNumThreads(1);
}

TEST_CASE_TEMPLATE("mm_expr: addmm chains", T, float, double) {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        t7::manualSeed(5);
        const int64_t n = 150, k = 9, p = 700; // 3 panels of float, 6 of double
        auto a = t7::randn<T>(n, k), b = t7::randn<T>(k, p), c = t7::randn<T>(n, p);
        auto row = t7::randn<T>(p);
        t7::Tensor<T> y(n, p);
        y = t7::tanh(t7::addmm(0.5, c, 2.0, a, b)) * T(3);
        std::vector<double> want = naive(a, b, 2.0, 0.5, &c);
        for (double& v : want) v = 3 * std::tanh(v);
        check_close(values(y), want, tol<T>());

        y = t7::addmm(row, a, b) - T(1); // c broadcast along rows
        want = naive(a, b, 1.0, 1.0, &row);
        for (double& v : want) v -= 1;
        check_close(values(y), want, tol<T>());

        // Two products in one tree: one is consumed by panels, the other materialised.
        y = t7::addmm(c, a, b) + t7::mm(a, b) * T(2);
        want = naive(a, b, 1.0, 1.0, &c);
        const std::vector<double> ab = naive(a, b);
        for (size_t i = 0; i < want.size(); ++i) want[i] += 2 * ab[i];
        check_close(values(y), want, tol<T>());

        // c = addmm(c, a, b): the recipe reads the destination, so it is computed first.
        t7::Tensor<T> c2 = t7::eval(c * T(1));
        c2 = t7::addmm(c2, a, b);
        check_close(values(c2), naive(a, b, 1.0, 1.0, &c), tol<T>());
    }
    t7::setNumThreads(1);
}

TEST_CASE_TEMPLATE("mm_expr: expression operands are evaluated once", T, float, double) {
    t7::manualSeed(7);
    auto a = t7::randn<T>(6, 4), br = t7::randn<T>(5, 4), c = t7::randn<T>(6, 5);
    const t7::Tensor<T> a1 = t7::eval(a + T(1)), b2 = t7::eval(br.t() * T(2));
    auto m = t7::mm(a + T(1), br.t() * T(2));
    CHECK(m.sizes() == t7::Shape{6, 5});
    check_close(values(m), naive(a1, b2), tol<T>());
    check_close(values(t7::mm(a, br.t() * T(2))), naive(a, b2), tol<T>()); // tensor, expression

    const t7::Tensor<T> c1 = t7::eval(c + T(1)), a2 = t7::eval(a * T(2)), bt = t7::eval(br.t());
    auto am = t7::addmm(0.5, c + T(1), 2.0, a * T(2), br.t());
    check_close(values(am), naive(a2, bt, 2.0, 0.5, &c1), tol<T>());
    check_close(values(t7::addmm(c + T(1), a * T(2), br.t())), naive(a2, bt, 1.0, 1.0, &c1),
                tol<T>());

    auto v = t7::randn<T>(4);
    auto mvr = t7::mv(a * T(2), v + T(1));
    REQUIRE(mvr.sizes() == t7::Shape{6});
    for (int64_t i = 0; i < 6; ++i) {
        double s = 0;
        for (int64_t l = 0; l < 4; ++l) s += 2 * double(a(i, l)) * (double(v(l)) + 1);
        CHECK(double(mvr(i)) == doctest::Approx(s).epsilon(tol<T>()));
    }

    auto x = t7::randn<T>(3, 2, 4), z = t7::randn<T>(3, 4, 5);
    auto bm = t7::bmm(x * T(2), z + T(1));
    REQUIRE(bm.sizes() == t7::Shape{3, 2, 5});
    for (int64_t q = 0; q < 3; ++q)
        check_close(values(t7::Tensor<T>(bm.select(0, q))),
                    naive(t7::eval(x.select(0, q) * T(2)), t7::eval(z.select(0, q) + T(1))),
                    tol<T>());

    // Shapes are checked at the call, with the sizes in the message.
    CHECK_THROWS_AS(t7::mm(a + T(1), a * T(1)), t7::ShapeError);
    CHECK_THROWS_AS(t7::mm(a, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::addmm(c.narrow(1, 0, 2), a, br.t()), t7::ShapeError);
    CHECK_THROWS_AS(t7::mv(a * T(1), c.select(0, 0)), t7::ShapeError);
}

TEST_CASE("mm_expr: eager semantics at the end of the statement") {
    t7::manualSeed(9);
    auto a = t7::randn<float>(4, 3), b = t7::randn<float>(3, 5);
    const std::vector<double> want = naive(a, b);
    const t7::FloatTensor a0 = a.clone();

    auto c = t7::mm(a, b);
    CHECK(c.storage().pending() == nullptr); // materialised when its statement ended
    t7::FloatTensor c2 = t7::mm(a, b);
    auto e = t7::mm(a, b) + 1.f; // the stored expression holds the product of today's a
    a.fill(0);
    check_close(values(c), want, 1e-5);
    check_close(values(c2), want, 1e-5);
    t7::FloatTensor y(4, 5);
    y = e;
    std::vector<double> want1 = want;
    for (double& v : want1) v += 1;
    check_close(values(y), want1, 1e-5);
    check_close(values(t7::mm(a, b)), std::vector<double>(20, 0.0), 1e-6);
    a.copy(a0);

    CHECK(double(t7::mm(a, b)[0](1)) == doctest::Approx(want[1]).epsilon(1e-5));
    CHECK(double(t7::mm(a, b)(3, 4)) == doctest::Approx(want[19]).epsilon(1e-5));
    double total = 0;
    for (double v : want) total += v;
    CHECK(double(t7::sum(t7::mm(a, b))) == doctest::Approx(total).epsilon(1e-4));
    auto ct = t7::mm(a, b).t();
    CHECK(ct.sizes() == t7::Shape{5, 4});
    CHECK(double(ct(4, 1)) == doctest::Approx(want[1 * 5 + 4]).epsilon(1e-5));
    CHECK(t7::mm(a, b).isSize({4, 5}));
    CHECK(t7::equal(t7::mm(a, b), c));
    // Reading a product inside its statement materialises it (printing, views' data).
    CHECK(t7::mm(a, b).data()[2] == doctest::Approx(want[2]).epsilon(1e-5));
}

TEST_CASE_TEMPLATE("mm_expr: aliasing reads the operands before writing", T, float, double) {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        t7::manualSeed(11);
#if defined(T7_TEST_SANITIZED)
        const int64_t n = 120; // several panels at two threads (-O0: smaller)
#else
        const int64_t n = 200; // several panels at two threads
#endif
        auto a = t7::randn<T>(n, n), b = t7::randn<T>(n, n);
        std::vector<double> want = naive(a, b);
        std::vector<double> sig_want = want;
        for (double& v : sig_want) v = sig(v + 1);
        t7::Tensor<T> x = a.clone();
        x = t7::sigmoid(t7::mm(x, b) + T(1));
        check_close(values(x), sig_want, tol<T>());
        x = a.clone();
        x = t7::mm(x, b); // the plain product into one of its operands
        check_close(values(x), want, tol<T>());
        x = a.clone();
        x.t() = t7::mm(b.t(), x.t()) * T(1); // (a b)^T into x's transpose
        check_close(values(x), want, tol<T>());
    }
    t7::setNumThreads(1);
}

TEST_CASE("mm_expr: the fused assignment allocates no product-sized block") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        t7::manualSeed(13);
        const int64_t n = 1024, k = 32; // a 4 MiB product; blocks of 512 KiB
        const size_t product_bytes = size_t(n * n) * sizeof(float);
        auto a = t7::randn<float>(n, k), b = t7::randn<float>(k, n), bias = t7::randn<float>(n);
        t7::FloatTensor y(n, n), p(n, n);
        y = t7::sigmoid(t7::mm(a, b) + bias); // sizes this thread's panel buffers
        auto& host = t7::HostAllocator::instance();
        host.trim();
        g_largest = 0;
        y = t7::sigmoid(t7::mm(a, b) + bias);
        CHECK(g_largest.load() < product_bytes / 2); // the panel buffers are kept
        CHECK(host.cached_bytes() == 0);             // no storage came and went
        // Sanity: the two-step computation does allocate the product.
        {
            t7::FloatTensor tmp = t7::mm(a, b);
            y = t7::sigmoid(tmp + bias);
        }
        CHECK(host.cached_bytes() >= product_bytes);
        host.trim();
        // Into an existing p, the product alone is one GEMM: nothing allocated either.
        p = t7::mm(a, b);
        CHECK(host.cached_bytes() == 0);
        CHECK(double(p(7, 9)) == doctest::Approx(double(t7::FloatTensor(t7::mm(a, b))(7, 9))));
    }
    t7::setNumThreads(1);
}

// ---- addr: a pending product of depth 1 ------------------------------------------------------
TEST_CASE_TEMPLATE("mm_expr: addr and ger pending like mm: into c, fused, eager at the end", T,
                   float, double) {
    t7::manualSeed(17);
    const int64_t n = 300, m = 200;
    const t7::Tensor<T> M = t7::randn<T>(n, m), row = t7::randn<T>(m);
    const t7::Tensor<T> xs = t7::randn<T>(n, 3), yr = t7::randn<T>(m);
    const t7::Tensor<T> x = xs.select(1, 1), y = yr.flip({0}); // strides 3 and -1
    // x and y as n x 1 and 1 x m matrices, for the naive reference.
    const t7::Tensor<T> xc = x.contiguous().view({n, 1}), yc = y.contiguous().view({1, m});
    const auto want = naive(xc, yc, 1.5, 0.5, &M);
    CHECK(t7::addr(0.5, M, 1.5, x, y).storage().pending() != nullptr); // until the statement ends
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        t7::Tensor<T> c(n, m);
        c = t7::addr(0.5, M, 1.5, x, y); // straight into c
        check_close(values(c), want, tol<T>());
        c = t7::addr(0.5, M, 1.5, x, y) * T(2) + T(1); // by blocks
        std::vector<double> fused = want;
        for (double& v : fused) v = 2 * v + 1;
        check_close(values(c), fused, tol<T>());
        t7::Tensor<T> ct(m, n);
        ct.t() = t7::addr(0.5, M, 1.5, x, y); // a destination of columns
        check_close(values(t7::Tensor<T>(ct.t())), want, tol<T>());
        c = t7::addr(0.5, row, 1.5, x, y); // M broadcast along the rows
        check_close(values(c), naive(xc, yc, 1.5, 0.5, &row), tol<T>());
        // beta 0 does not read M: its NaNs do not leak
        const t7::Tensor<T> nan = t7::Tensor<T>(n, m).fill(std::numeric_limits<T>::quiet_NaN());
        c = t7::addr(0, nan, 1.5, x, y);
        check_close(values(c), naive(xc, yc, 1.5), tol<T>());
        c = t7::ger(x, y);
        check_close(values(c), naive(xc, yc), tol<T>());
    }
    t7::setNumThreads(1);
    // Kept past its statement, the result has the values of that statement.
    t7::Tensor<T> x2 = x.clone();
    auto kept = t7::addr(0.5, M, 1.5, x2, y);
    x2.fill(0);
    check_close(values(kept), want, tol<T>());
}

TEST_CASE("mm_expr: c = addr(...) allocates no temporary") {
    const int64_t n = 1024;
    const size_t bytes = size_t(n * n) * sizeof(float);
    const auto M = t7::randn<float>(n, n), x = t7::randn<float>(n), y = t7::randn<float>(n);
    t7::FloatTensor c(n, n);
    c = t7::addr(1, M, 1, x, y);
    auto& host = t7::HostAllocator::instance();
    host.trim();
    g_largest = 0;
    c = t7::addr(1, M, 1, x, y);
    CHECK(g_largest.load() < bytes / 8);
    CHECK(host.cached_bytes() == 0); // no storage came and went
    CHECK(double(c(5, 7)) == doctest::Approx(double(M(5, 7)) + double(x(5)) * double(y(7))));
}

TEST_CASE("mm_expr: a product of one block's size is still split for the threads") {
    // 256 x 512 @ 512 x 512: 512 KiB, one block of product_panel_bytes, 2^26
    // multiply-adds: cut into a few blocks (by the shape), which two threads share,
    // with the same bits at one and two threads.
    t7::manualSeed(21);
    const auto x = t7::randn<float>(256, 512), w = t7::randn<float>(512, 512);
    const auto bias = t7::randn<float>(512);
    t7::FloatTensor y1(256, 512), y2(256, 512);
    t7::setNumThreads(1);
    y1 = t7::sigmoid(t7::mm(x, w) + bias);
    t7::setNumThreads(2);
    const uint64_t loops = t7::detail::threaded_loops();
    y2 = t7::sigmoid(t7::mm(x, w) + bias);
    CHECK(t7::detail::threaded_loops() - loops == 1);
    t7::setNumThreads(1);
    CHECK(std::memcmp(y1.data(), y2.data(), size_t(y1.nElement()) * sizeof(float)) == 0);
    const t7::FloatTensor p = t7::mm(x, w); // the plain product, then the epilogue
    std::vector<double> want;
    for (int64_t i = 0; i < 256; ++i)
        for (int64_t j = 0; j < 512; ++j) want.push_back(sig(double(p(i, j)) + double(bias(j))));
    check_close(values(y2), want, 1e-5);
}

// A product of at most 16 rows (blas.hpp's skinny kernels) is done by blocks of
// all its rows and as many columns as fit; of 17, by the square-ish blocks. Values
// against the naive loops with the default blocks and with blocks of 4 KiB (many
// narrow ones, the last partial), the same bits at one and two threads.
TEST_CASE_TEMPLATE("mm_expr: products of few rows, by blocks of all their rows", T, float, double) {
    const int64_t block_bytes = t7::cpu::product_panel_bytes;
    t7::manualSeed(8);
    for (int64_t n : {1, 3, 8, 16, 17}) {
        CAPTURE(n);
        const int64_t k = 48, p = 3001;
        auto a = t7::randn<T>(n, k), b = t7::randn<T>(k, p), bias = t7::randn<T>(p);
        std::vector<double> want = naive(a, b);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < p; ++j)
                want[size_t(i * p + j)] = sig(want[size_t(i * p + j)] + double(bias(j)));
        for (int64_t bytes : {block_bytes, int64_t(4096)}) {
            CAPTURE(bytes);
            t7::cpu::product_panel_bytes = bytes;
            t7::Tensor<T> y1(n, p), y2(n, p);
            t7::setNumThreads(1);
            y1 = t7::sigmoid(t7::mm(a, b) + bias);
            t7::setNumThreads(2);
            y2 = t7::sigmoid(t7::mm(a, b) + bias);
            t7::setNumThreads(1);
            check_close(values(y1), want, tol<T>());
            CHECK(std::memcmp(y1.data(), y2.data(), size_t(y1.nElement()) * sizeof(T)) == 0);
        }
    }
    t7::cpu::product_panel_bytes = block_bytes;
}

// ---- batches: bmm and baddbmm -------------------------------------------------------------
namespace {

// beta c[q][i][j] + alpha sum_l a[q][i][l] b[q][l][j], c of the result's shape or none.
template <class T>
std::vector<double> naive3(const t7::Tensor<T>& a, const t7::Tensor<T>& b, double alpha = 1,
                           double beta = 0, const t7::Tensor<T>* c = nullptr) {
    std::vector<double> r;
    for (int64_t q = 0; q < a.size(0); ++q)
        for (int64_t i = 0; i < a.size(1); ++i)
            for (int64_t j = 0; j < b.size(2); ++j) {
                double s = 0;
                for (int64_t l = 0; l < a.size(2); ++l)
                    s += double(a(q, i, l)) * double(b(q, l, j));
                r.push_back(beta * (c ? double((*c)(q, i, j)) : 0.0) + alpha * s);
            }
    return r;
}

} // namespace

TEST_CASE_TEMPLATE("mm_expr: y = sigmoid(bmm(a, b) + bias), fused by blocks", T, float, double) {
    // (batches, n, k, p): one element; below a block; several blocks a matrix,
    // partial ones included (with blocks of 4 KiB: 32 x 32 floats, 32 x 16 doubles).
#if defined(T7_TEST_SANITIZED)
    const int64_t dims[][4] = {{1, 1, 1, 1}, {3, 5, 7, 3}, {3, 70, 6, 90}};
#else
    const int64_t dims[][4] = {{1, 1, 1, 1}, {3, 5, 7, 3}, {4, 130, 20, 200}};
#endif
    const int64_t block_bytes = t7::cpu::product_panel_bytes;
    for (int64_t bytes : {block_bytes, int64_t(4096)})
        for (int threads : {1, 2})
            for (const auto& d : dims) {
                CAPTURE(threads);
                CAPTURE(d[1]);
                CAPTURE(bytes);
                t7::cpu::product_panel_bytes = bytes;
                t7::setNumThreads(threads);
                t7::manualSeed(17);
                const int64_t B = d[0], n = d[1], k = d[2], p = d[3];
                auto a = t7::randn<T>(B, n, k), b = t7::randn<T>(B, k, p);
                auto bias = t7::randn<T>(p), rowbias = t7::randn<T>(B, 1, p);
                const std::vector<double> prod = naive3(a, b);
                std::vector<double> want = prod, want_rows = prod;
                for (int64_t q = 0; q < B; ++q)
                    for (int64_t i = 0; i < n; ++i)
                        for (int64_t j = 0; j < p; ++j) {
                            const size_t at = size_t((q * n + i) * p + j);
                            want[at] = sig(prod[at] + double(bias(j)));
                            want_rows[at] = sig(prod[at] + double(rowbias(q, 0, j)));
                        }

                t7::Tensor<T> y(B, n, p);
                const T* where = y.data();
                y = t7::sigmoid(t7::bmm(a, b) + bias);
                CHECK(y.data() == where);
                check_close(values(y), want, tol<T>());
                y = t7::sigmoid(t7::bmm(a, b) + rowbias); // a bias per matrix
                check_close(values(y), want_rows, tol<T>());

                t7::Tensor<T> fresh;
                fresh = t7::sigmoid(t7::bmm(a, b) + bias);
                CHECK(fresh.sizes() == t7::Shape{B, n, p});
                check_close(values(fresh), want, tol<T>());

                // Strided destinations: a slice of wider rows, and transposed matrices.
                t7::Tensor<T> wide(B, n, p + 3), ycm(B, p, n);
                auto yn = wide.narrow(2, 1, p);
                yn = t7::sigmoid(t7::bmm(a, b) + bias);
                check_close(values(t7::Tensor<T>(yn)), want, tol<T>());
                auto yt = ycm.transpose(1, 2);
                yt = t7::sigmoid(t7::bmm(a, b) + bias);
                check_close(values(t7::Tensor<T>(yt)), want, tol<T>());

                // The product alone: into y whole, one GEMM a matrix into the
                // slice, by blocks into the transposed matrices.
                y = t7::bmm(a, b);
                CHECK(y.data() == where);
                check_close(values(y), prod, tol<T>());
                yn = t7::bmm(a, b);
                check_close(values(t7::Tensor<T>(yn)), prod, tol<T>());
                yt = t7::bmm(a, b);
                check_close(values(t7::Tensor<T>(yt)), prod, tol<T>());
            }
    t7::cpu::product_panel_bytes = block_bytes;
    t7::setNumThreads(1);
}

TEST_CASE_TEMPLATE("mm_expr: baddbmm chains and bmm semantics", T, float, double) {
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        t7::setNumThreads(threads);
        t7::manualSeed(19);
        const int64_t B = 3, n = 40, k = 6, p = 50;
        auto a = t7::randn<T>(B, n, k), b = t7::randn<T>(B, k, p), c = t7::randn<T>(B, n, p);
        auto row = t7::randn<T>(p);
        t7::Tensor<T> y(B, n, p);
        y = t7::tanh(t7::baddbmm(0.5, c, 2.0, a, b)) * T(3);
        std::vector<double> want = naive3(a, b, 2.0, 0.5, &c);
        for (double& v : want) v = 3 * std::tanh(v);
        check_close(values(y), want, tol<T>());

        y = t7::baddbmm(row, a, b) - T(1); // c broadcast to every matrix's rows
        const t7::Tensor<T> rows = t7::eval(t7::zeros<T>(B, n, p) + row);
        want = naive3(a, b, 1.0, 1.0, &rows);
        for (double& v : want) v -= 1;
        check_close(values(y), want, tol<T>());
        CHECK_THROWS_AS(t7::baddbmm(c.narrow(2, 0, 2), a, b), t7::ShapeError);

        // c = baddbmm(c, a, b): the recipe reads the destination, so it is computed first.
        t7::Tensor<T> c2 = t7::eval(c * T(1));
        c2 = t7::baddbmm(c2, a, b);
        check_close(values(c2), naive3(a, b, 1.0, 1.0, &c), tol<T>());
        // x = sigmoid(bmm(x, w) + 1) with x an operand.
        auto w = t7::randn<T>(B, k, k);
        t7::Tensor<T> x = t7::eval(a * T(1));
        x = t7::sigmoid(t7::bmm(x, w) + T(1));
        want = naive3(a, w);
        for (double& v : want) v = sig(v + 1);
        check_close(values(x), want, tol<T>());

        // Views that reshape the product are read from its values, not consumed
        // as blocks (the recipe knows only its own matrices).
        const std::vector<double> prod = naive3(a, b);
        t7::Tensor<T> flat2(B * n, p);
        flat2 = t7::bmm(a, b).view(B * n, p) + T(1);
        for (int64_t i = 0; i < B * n; ++i)
            for (int64_t j = 0; j < p; j += 7)
                CHECK(double(flat2(i, j)) ==
                      doctest::Approx(prod[size_t(i * p + j)] + 1).epsilon(tol<T>()));
        t7::Tensor<T> first(n, p); // the first matrix, at offset 0
        first = t7::bmm(a, b).select(0, 0) * T(2);
        for (int64_t j = 0; j < p; j += 7)
            CHECK(double(first(n - 1, j)) ==
                  doctest::Approx(2 * prod[size_t((n - 1) * p + j)]).epsilon(tol<T>()));
        auto a2 = t7::randn<T>(6, 4), b2 = t7::randn<T>(4, 10);
        const std::vector<double> p2 = naive(a2, b2);
        t7::Tensor<T> r2(10, 6), r3(2, 3, 10);
        r2 = t7::mm(a2, b2).view(10, 6) + T(1); // the same 60 values, other rows
        r3 = t7::mm(a2, b2).view(2, 3, 10) + T(1);
        for (int64_t i = 0; i < 60; ++i) {
            CHECK(double(r2(i / 6, i % 6)) == doctest::Approx(p2[size_t(i)] + 1).epsilon(tol<T>()));
            CHECK(double(r3(i / 30, i / 10 % 3, i % 10)) ==
                  doctest::Approx(p2[size_t(i)] + 1).epsilon(tol<T>()));
        }
    }
    t7::setNumThreads(1);

    // The value is the product of the operands of the statement that made it.
    auto a = t7::randn<float>(2, 4, 3), b = t7::randn<float>(2, 3, 5);
    const std::vector<double> want = naive3(a, b);
    auto kept = t7::bmm(a, b);
    CHECK(kept.storage().pending() == nullptr);
    auto e = t7::bmm(a, b) + 1.f;
    a.fill(0);
    check_close(values(kept), want, 1e-5);
    t7::FloatTensor y(2, 4, 5);
    y = e;
    std::vector<double> want1 = want;
    for (double& v : want1) v += 1;
    check_close(values(y), want1, 1e-5);
    check_close(values(t7::FloatTensor(t7::bmm(a, b))), std::vector<double>(40, 0.0), 1e-6);
}

TEST_CASE("mm_expr: the fused batched assignment allocates no product-sized block") {
    for (int threads : {1, 2}) {
        t7::setNumThreads(threads);
        t7::manualSeed(23);
        const int64_t B = 4, n = 512, k = 16; // a 4 MiB product; blocks of 512 KiB
        const size_t product_bytes = size_t(B * n * n) * sizeof(float);
        auto a = t7::randn<float>(B, n, k), b = t7::randn<float>(B, k, n);
        auto bias = t7::randn<float>(n);
        t7::FloatTensor y(B, n, n), p(B, n, n);
        y = t7::sigmoid(t7::bmm(a, b) + bias); // sizes this thread's block buffers
        auto& host = t7::HostAllocator::instance();
        host.trim();
        g_largest = 0;
        y = t7::sigmoid(t7::bmm(a, b) + bias);
        CHECK(g_largest.load() < product_bytes / 8); // less than one matrix of the batch
        CHECK(host.cached_bytes() == 0);             // no storage came and went
        {
            t7::FloatTensor tmp = t7::bmm(a, b); // the two-step form does allocate it
            y = t7::sigmoid(tmp + bias);
        }
        CHECK(host.cached_bytes() >= product_bytes);
        host.trim();
        p = t7::bmm(a, b); // the product alone into an existing p: nothing allocated
        CHECK(host.cached_bytes() == 0);
        CHECK(double(p(3, 7, 9)) ==
              doctest::Approx(double(t7::FloatTensor(t7::bmm(a, b))(3, 7, 9))));
    }
    t7::setNumThreads(1);
}
