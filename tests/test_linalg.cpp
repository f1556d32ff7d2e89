// Linear algebra (issue 6), products: dot mv mm bmm addmm addmv addr ger baddbmm
// matmul on contiguous, transposed and strided operands against reference loops,
// and every error. The decompositions are in test_linalg_decomp.cpp (apart so that
// neither file takes minutes to compile: each instantiates Eigen's kernels).
#include "linalg_util.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>

using namespace linalg_util;

// ---- products -----------------------------------------------------------------------

TEST_CASE("dot") {
    auto a = t7::tensor<float>({1, 2, 3}), b = t7::tensor<float>({4, 5, 6});
    CHECK(t7::dot(a, b) == 32);
    static_assert(std::is_same_v<decltype(t7::dot(a, b)), float>);
    // strided operands, and equal element counts of different shapes (Torch7)
    auto m = t7::tensor<double>({{1, 2}, {3, 4}});
    CHECK(t7::dot(m.select(1, 0), m.select(1, 1)) == 1 * 2 + 3 * 4);
    CHECK(t7::dot(m, t7::tensor<double>({1, 1, 1, 1})) == 10);
    CHECK(t7::dot(m.t(), m) == 1 * 1 + 3 * 2 + 2 * 3 + 4 * 4);
    // integer types accumulate in int64
    auto i = t7::tensor<uint8_t>({200, 200}), j = t7::tensor<uint8_t>({200, 100});
    static_assert(std::is_same_v<decltype(t7::dot(i, j)), int64_t>);
    CHECK(t7::dot(i, j) == 60000);
    CHECK(t7::dot(t7::tensor<int32_t>({{1, 2}}), t7::tensor<int32_t>({3, 4})) == 11);

    auto msg = message_of<t7::ShapeError>([&] { t7::dot(a, t7::tensor<float>({1, 2})); });
    CHECK(msg.find("dot: inconsistent tensor sizes 3 and 2") != std::string::npos);
}

TEST_CASE("mv and addmv") {
    auto m = t7::tensor<double>({{1, 2, 3}, {4, 5, 6}});
    auto v = t7::tensor<double>({1, 0, -1});
    CHECK(values(t7::mv(m, v)) == std::vector<double>{-2, -2});
    CHECK(values(t7::mv(m.t(), t7::tensor<double>({1, 1}))) == std::vector<double>{5, 7, 9});
    // a strided vector (a column of a matrix)
    auto cols = t7::tensor<double>({{1, 9}, {0, 9}, {-1, 9}});
    CHECK(values(t7::mv(m, cols.select(1, 0))) == std::vector<double>{-2, -2});
    // beta y + alpha m v, y broadcast
    CHECK(values(t7::addmv(2, t7::tensor<double>({1, 1}), 3, m, v)) == std::vector<double>{-4, -4});
    CHECK(values(t7::addmv(t7::tensor<double>({10}), m, v)) == std::vector<double>{8, 8});
    CHECK(values(t7::mv(t7::tensor<int32_t>({{1, 2}, {3, 4}}), t7::tensor<int32_t>({1, 1}))) ==
          std::vector<double>{3, 7});

    CHECK_THROWS_AS(t7::mv(m, m), t7::ShapeError);
    CHECK_THROWS_AS(t7::mv(v, v), t7::ShapeError);
    auto msg = message_of<t7::ShapeError>([&] { t7::mv(m, t7::tensor<double>({1, 2})); });
    CHECK(msg.find("size mismatch: matrix 2x3 times vector 2") != std::string::npos);
    CHECK_THROWS_AS(t7::addmv(1, t7::tensor<double>({1, 2, 3}), 1, m, v), t7::ShapeError);
}

TEST_CASE("ger and addr") {
    auto a = t7::tensor<float>({1, 2}), b = t7::tensor<float>({3, 4, 5});
    CHECK(values(t7::ger(a, b)) == std::vector<double>{3, 4, 5, 6, 8, 10});
    auto M = t7::ones<float>(2, 3);
    CHECK(values(t7::addr(2, M, -1, a, b)) == std::vector<double>{-1, -2, -3, -4, -6, -8});
    CHECK(values(t7::addr(M, a, b)) == std::vector<double>{4, 5, 6, 7, 9, 11});
    // strided vectors
    auto m = t7::tensor<float>({{1, 3}, {2, 4}});
    CHECK(values(t7::ger(m.select(1, 0), m.select(0, 1))) == std::vector<double>{2, 4, 4, 8});
    CHECK_THROWS_AS(t7::ger(m, a), t7::ShapeError);
    CHECK_THROWS_AS(t7::addr(1, t7::ones<float>(3, 3), 1, a, b), t7::ShapeError);
    // beta scales M whatever its layout (transposed, stepped); beta 0 ignores it, NaN included
    auto Mt = t7::tensor<double>({{1, 2}, {3, 4}, {5, 6}}).t();
    auto ad = t7::tensor<double>({1, 2}), bd = t7::tensor<double>({3, 4, 5});
    CHECK(values(t7::addr(0.5, Mt, 2, ad, bd)) == std::vector<double>{6.5, 9.5, 12.5, 13, 18, 23});
    auto wide = t7::tensor<double>({{1, 0, 2, 0, 3}, {4, 0, 5, 0, 6}});
    auto stepped = wide(t7::all, t7::slice(0, 5, 2));
    CHECK(values(t7::addr(-1, stepped, 1, ad, bd)) == std::vector<double>{2, 2, 2, 2, 3, 4});
    auto nan = t7::full<double>({2, 3}, std::nan(""));
    CHECK(values(t7::addr(0, nan, 1, ad, bd)) == std::vector<double>{3, 4, 5, 6, 8, 10});
}

TEST_CASE("Half products run on CUDA tensors only: TypeError on the CPU") {
    t7::Tensor<t7::Half> h(2, 2), v(2);
    h.fill(t7::Half(1.f));
    v.fill(t7::Half(1.f));
    CHECK_THROWS_AS(t7::mm(h, h), t7::TypeError);
    CHECK_THROWS_AS(t7::mv(h, v), t7::TypeError);
    CHECK_THROWS_AS(t7::dot(v, v), t7::TypeError);
    CHECK_THROWS_AS(t7::ger(v, v), t7::TypeError);
    CHECK_THROWS_AS(t7::bmm(h.view(1, 2, 2), h.view(1, 2, 2)), t7::TypeError);
    CHECK_THROWS_AS(t7::matmul(h, v), t7::TypeError);
}

TEST_CASE_TEMPLATE("mm: hand values, every transposition, strided and integer operands", T, float,
                   double) {
    auto a = t7::tensor<T>({{1, 2, 3}, {4, 5, 6}});
    auto b = t7::tensor<T>({{7, 8}, {9, 10}, {11, 12}});
    auto c = t7::mm(a, b);
    CHECK(c.isSize({2, 2}));
    CHECK(c.isContiguous());
    CHECK(values(c) == std::vector<double>{58, 64, 139, 154});
    CHECK(values(t7::mm(b.t(), a.t())) == std::vector<double>{58, 139, 64, 154});

    // sizes large enough for Eigen's blocked GEMM; operands row-major, column-major
    // (transposed views) and neither (every other row and column)
    t7::manualSeed(1);
    const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
    auto A = random_matrix<T>(67, 129), B = random_matrix<T>(129, 45);
    auto At = random_matrix<T>(129, 67).t(), Bt = random_matrix<T>(45, 129).t();
    auto big = random_matrix<T>(134, 258);
    auto As = big(t7::slice(0, 134, 2), t7::slice(0, 258, 2)); // strides (516, 2)
    for (auto* x : {&A, &At, &As})
        for (auto* y : {&B, &Bt}) {
            const double err = max_diff(t7::mm(*x, *y), ref_mm(*x, *y));
            CHECK(err < tol * 129);
        }
    // neither operand of a unit stride (the packed GEMM reads them as they are), and
    // skinny products whose large operand has none (copied for the skinny kernels)
    auto bigB = random_matrix<T>(258, 135);
    auto Bs = bigB(t7::slice(0, 258, 2), t7::slice(0, 135, 3)); // 129 x 45, strides (270, 3)
    CHECK(Bs.isSize({129, 45}));
    CHECK(max_diff(t7::mm(As, Bs), ref_mm(As, Bs)) < tol * 129);
    auto x8 = random_matrix<T>(8, 129);
    CHECK(max_diff(t7::mm(x8, Bs), ref_mm(x8, Bs)) < tol * 129);
    auto bigA = random_matrix<T>(80, 600), w8 = random_matrix<T>(300, 8);
    auto As2 = bigA(t7::slice(0, 80, 2), t7::slice(0, 600, 2)); // 40 x 300, strides (1200, 2)
    CHECK(max_diff(t7::mm(As2, w8), ref_mm(As2, w8)) < tol * 300);
    CHECK(max_diff(t7::mm(w8.t(), As2.t()), ref_mm(w8.t(), As2.t())) < tol * 300);
    // a row vector and a column vector as matrices
    CHECK(max_diff(t7::mm(A.narrow(0, 3, 1), B), ref_mm(A.narrow(0, 3, 1), B)) < tol * 129);
    CHECK(max_diff(t7::mm(A, B.narrow(1, 5, 1)), ref_mm(A, B.narrow(1, 5, 1))) < tol * 129);
}

TEST_CASE("mm on integer types and its errors") {
    auto a = t7::tensor<int32_t>({{1, 2}, {3, 4}});
    CHECK(values(t7::mm(a, a)) == std::vector<double>{7, 10, 15, 22});
    CHECK(values(t7::mm(a.t(), a)) == std::vector<double>{10, 14, 14, 20});
    auto l = t7::tensor<int64_t>({{100000, 0}, {0, 1}});
    CHECK(values(t7::mm(l, l)) == std::vector<double>{1e10, 0, 0, 1});
    CHECK(t7::mm(t7::tensor<uint8_t>({{2}}), t7::tensor<uint8_t>({{3}}))(0, 0) == 6);

    auto x = t7::zeros<float>(2, 3), y = t7::zeros<float>(4, 5);
    auto msg = message_of<t7::ShapeError>([&] { t7::mm(x, y); });
    CHECK(msg.find("mm: inner dimensions do not match: 2x3 times 4x5") != std::string::npos);
    msg = message_of<t7::ShapeError>([&] { t7::mm(t7::zeros<float>(3), y); });
    CHECK(msg.find("mm: expected 2-D matrices, got 1-D (size 3)") != std::string::npos);
    CHECK_THROWS_AS(t7::mm(t7::zeros<float>(2, 2, 2), x), t7::ShapeError);
}

TEST_CASE("addmm") {
    auto a = t7::tensor<double>({{1, 2}, {3, 4}}), b = t7::tensor<double>({{1, 0}, {0, 1}});
    auto c = t7::tensor<double>({{1, 1}, {1, 1}});
    CHECK(values(t7::addmm(2, c, 3, a, b)) == std::vector<double>{5, 8, 11, 14});
    CHECK(values(t7::addmm(c, a, b)) == std::vector<double>{2, 3, 4, 5});
    // c broadcasts (a bias row)
    CHECK(values(t7::addmm(1, t7::tensor<double>({10, 20}), 1, a, b)) ==
          std::vector<double>{11, 22, 13, 24});
    // beta = 0 ignores c, even NaN (BLAS semantics)
    auto nan = t7::full<double>({2, 2}, NAN);
    CHECK(values(t7::addmm(0, nan, 1, a, b)) == std::vector<double>{1, 2, 3, 4});
    // transposed operands and a transposed c
    CHECK(values(t7::addmm(1, a.t(), 1, a.t(), b.t())) == std::vector<double>{2, 6, 4, 8});

    auto msg = message_of<t7::ShapeError>([&] { t7::addmm(1, t7::zeros<double>(3, 3), 1, a, b); });
    CHECK(msg.find("addmm") != std::string::npos);
    CHECK(msg.find("3x3") != std::string::npos);
    CHECK_THROWS_AS(t7::addmm(c, a, t7::zeros<double>(3, 2)), t7::ShapeError);
}

TEST_CASE("bmm and baddbmm") {
    t7::manualSeed(2);
    auto a = t7::randn<double>(5, 4, 3), b = t7::randn<double>(5, 3, 6);
    auto c = t7::bmm(a, b);
    CHECK(c.isSize({5, 4, 6}));
    for (int64_t i = 0; i < 5; ++i) CHECK(max_diff(c[i], ref_mm(a[i], b[i])) < 1e-12);
    // transposed matrices inside the batch, and a permuted batch dimension
    auto at = t7::randn<double>(5, 3, 4).transpose(1, 2);
    auto bp = t7::randn<double>(3, 5, 6).transpose(0, 1);
    auto c2 = t7::bmm(at, bp);
    for (int64_t i = 0; i < 5; ++i) CHECK(max_diff(c2[i], ref_mm(at[i], bp[i])) < 1e-12);
    // large matrices: each product threaded by Eigen
    auto A = t7::randn<float>(2, 100, 100), B = t7::randn<float>(2, 100, 100);
    auto C = t7::bmm(A, B);
    for (int64_t i = 0; i < 2; ++i) CHECK(max_diff(C[i], ref_mm(A[i], B[i])) < 1e-3);

    auto base = t7::ones<double>(5, 4, 6);
    auto d = t7::baddbmm(0.5, base, 2, a, b);
    for (int64_t i = 0; i < 5; ++i)
        CHECK(max_diff(d[i], t7::eval(ref_mm(a[i], b[i]) * 2.0 + 0.5)) < 1e-12);
    auto e = t7::baddbmm(t7::ones<double>(6), a, b); // broadcast c
    for (int64_t i = 0; i < 5; ++i)
        CHECK(max_diff(e[i], t7::eval(ref_mm(a[i], b[i]) + 1.0)) < 1e-12);

    auto msg = message_of<t7::ShapeError>([&] { t7::bmm(a, t7::zeros<double>(4, 3, 6)); });
    CHECK(msg.find("bmm: batch sizes differ: 5x4x3 and 4x3x6") != std::string::npos);
    CHECK_THROWS_AS(t7::bmm(a, t7::zeros<double>(5, 4, 6)), t7::ShapeError);
    CHECK_THROWS_AS(t7::bmm(a[0], b[0]), t7::ShapeError);
    CHECK_THROWS_AS(t7::baddbmm(1, t7::zeros<double>(5, 4, 5), 1, a, b), t7::ShapeError);
}

TEST_CASE("matmul follows NumPy's rules") {
    auto v = t7::tensor<float>({1, 2}), w = t7::tensor<float>({3, 4});
    auto m = t7::tensor<float>({{1, 2}, {3, 4}});
    auto d = t7::matmul(v, w);
    CHECK(d.isSize({1}));
    CHECK(d(0) == 11);
    CHECK(values(t7::matmul(m, v)) == std::vector<double>{5, 11});
    CHECK(values(t7::matmul(v, m)) == std::vector<double>{7, 10});
    CHECK(values(t7::matmul(m, m)) == std::vector<double>{7, 10, 15, 22});

    t7::manualSeed(3);
    auto a = t7::randn<double>(3, 4, 5), b = t7::randn<double>(5, 2);
    auto ab = t7::matmul(a, b); // contiguous: one GEMM over the stacked rows
    CHECK(ab.isSize({3, 4, 2}));
    for (int64_t i = 0; i < 3; ++i) CHECK(max_diff(ab[i], ref_mm(a[i], b)) < 1e-12);
    auto at = a.transpose(1, 2).contiguous().transpose(1, 2); // not contiguous
    auto atb = t7::matmul(at, b);
    for (int64_t i = 0; i < 3; ++i) CHECK(max_diff(atb[i], ref_mm(at[i], b)) < 1e-12);
    // batch broadcasting: (2, 1, 4, 5) x (3, 5, 2) -> (2, 3, 4, 2)
    auto p = t7::randn<double>(2, 1, 4, 5), q = t7::randn<double>(3, 5, 2);
    auto pq = t7::matmul(p, q);
    CHECK(pq.isSize({2, 3, 4, 2}));
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(max_diff(pq[i][j], ref_mm(p[i][0], q[j])) < 1e-12);
    // a vector on either side of a batch
    auto x = t7::randn<double>(5);
    auto ax = t7::matmul(a, x);
    CHECK(ax.isSize({3, 4}));
    CHECK(max_diff(ax[1], t7::mv(a[1], x)) < 1e-12);
    auto y = t7::randn<double>(4);
    auto ya = t7::matmul(y, a);
    CHECK(ya.isSize({3, 5}));
    CHECK(max_diff(ya[2], t7::mv(a[2].t(), y)) < 1e-12);

    CHECK_THROWS_AS(t7::matmul(v, t7::tensor<float>({1, 2, 3})), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(a, t7::zeros<double>(4, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(a, t7::zeros<double>(2, 5, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::matmul(t7::FloatTensor(), v), t7::ShapeError);
}

TEST_CASE("products give the same values on 1 and 2 threads") {
    const int saved = t7::getNumThreads();
    t7::manualSeed(4);
    auto a = t7::randn<double>(300, 200), b = t7::randn<double>(200, 250);
    t7::setNumThreads(1);
    auto one = t7::mm(a, b);
    t7::setNumThreads(2);
    auto two = t7::mm(a, b);
    t7::setNumThreads(saved);
    CHECK(max_diff(one, two) < 1e-10);
}

// ---- the products on tensor7's pool (issue 43) -----------------------------------------

namespace {
// The thread count, restored when a test case ends however it ends.
struct KeepThreads {
    int before = t7::getNumThreads();
    ~KeepThreads() { t7::setNumThreads(before); }
};
template <class T>
bool same_bits(const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
    const t7::Tensor<T> ca = a.contiguous(), cb = b.contiguous();
    return a.sizes() == b.sizes() &&
           std::memcmp(ca.data(), cb.data(), size_t(ca.nElement()) * sizeof(T)) == 0;
}
// f() at 1 and at 2 threads: the same bits; returns the first.
template <class F>
auto at_1_and_2(F&& f) {
    KeepThreads keep;
    t7::setNumThreads(1);
    auto one = f();
    t7::setNumThreads(2);
    CHECK(same_bits(one, f()));
    return one;
}
} // namespace

// The skinny kernels (C of at most 16 rows or columns: the large operand read
// once, row-major or column-major), the parts of a large product, the matrix-
// vector family on them; against reference loops, with the same bits at 1 and 2
// threads, and Eigen's own thread count (the user's) left as it was.
TEST_CASE_TEMPLATE("products on the pool: skinny and partitioned shapes", T, float, double) {
    const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
    t7::manualSeed(43);
    const int eigen_threads = Eigen::nbThreads();
    Eigen::setNbThreads(3); // the user's, whatever t7's thread count
    auto check = [&](const t7::Tensor<T>& a, const t7::Tensor<T>& b) {
        CAPTURE(a.sizes());
        CAPTURE(b.sizes());
        const auto c = at_1_and_2([&] { return t7::mm(a, b); });
        CHECK(max_diff(c, ref_mm(a, b)) < tol * double(a.size(1) + 1));
    };
    for (int64_t s = 1; s <= 17; ++s)
        for (int64_t k : {1, 7, 37, 300}) {
            if (s > 3 && s != 8 && s != 9 && s < 15 && k != 37) continue;
            auto a = random_matrix<T>(s, k), b = random_matrix<T>(k, 100);
            auto bt = random_matrix<T>(100, k).t();
            check(a, b); // C's rows few: B row-major (axpy) and column-major (dot)
            check(a, bt);
            check(bt.t(), a.t()); // C's columns few: the same, transposed
            check(b.t(), a.t());
        }
    // B split into blocks of rows (k >= 512), their partial results summed in order
    for (int64_t s : {1, 8, 16})
        for (int64_t k : {512, 1100}) {
            auto a = random_matrix<T>(s, k), b = random_matrix<T>(k, 70);
            check(a, b);
            check(b.t(), a.t());
            auto c = random_matrix<T>(s, 70);
            auto r = at_1_and_2([&] { return t7::addmm(0.5, c, 2.0, a, b); });
            auto want = t7::DoubleTensor(ref_mm(a, b) * 2.0 + t7::cast<double>(c) * 0.5);
            CHECK(max_diff(r, want) < tol * double(k));
        }
    // a short k with the large operand's rows of unit stride (an im2col product,
    // x.unfold(...) @ w): Eigen's GEMM below skinny_dot_min_k, the dot kernel from it
    for (int64_t k : {25, 150, 255, 256}) {
        auto a = random_matrix<T>(3000, k), w = random_matrix<T>(k, 6);
        check(a, w);
        check(w.t(), a.t());
    }
    // B wider than the axpy kernel's chunk of columns (skinny_min_strips strips of
    // 2 packets, more for fewer rows): chunks one after the other, the last partial
    for (int64_t s : {3, 8, 16}) {
        auto a = random_matrix<T>(s, 40), b = random_matrix<T>(40, 2200);
        check(a, b);
        check(b.t(), a.t());
    }
    // a large operand of no unit stride, and one past two strips of packets
    auto big = random_matrix<T>(80, 202);
    check(random_matrix<T>(5, 40), big(t7::slice(0, 80, 2), t7::slice(0, 202, 2)));
    check(random_matrix<T>(3, 33), random_matrix<T>(33, 65));
    // every width of the last strip: one packet read in place (float 104, 1000;
    // double 100), padded to one (float 100, 65) or to two (float 110, double 110, 70)
    for (int64_t n : {104, 110, 1000}) check(random_matrix<T>(8, 300), random_matrix<T>(300, n));
    // parts of rows (m >= n) and of columns, with every transposition
    for (auto [m, n, k] : {std::array<int64_t, 3>{257, 250, 100}, {120, 300, 200}}) {
        auto a = random_matrix<T>(m, k), b = random_matrix<T>(k, n);
        check(a, b);
        check(random_matrix<T>(k, m).t(), random_matrix<T>(n, k).t());
    }
    // into a transposed destination (the pending product's strided path)
    auto a = random_matrix<T>(9, 50), b = random_matrix<T>(50, 70);
    t7::Tensor<T> yt = t7::zeros<T>(70, 9).t();
    yt = t7::mm(a, b);
    CHECK(max_diff(yt, ref_mm(a, b)) < tol * 51);
    // beta 0 ignores NaN in C; k = 0 leaves beta C
    for (auto [m, n, k] : {std::array<int64_t, 3>{4, 100, 30}, {140, 130, 240}}) {
        auto nan = t7::full<T>({m, n}, std::numeric_limits<T>::quiet_NaN());
        auto x = random_matrix<T>(m, k), y = random_matrix<T>(k, n);
        auto r = at_1_and_2([&] { return t7::addmm(0.0, nan, 2.0, x, y); });
        CHECK(max_diff(r, t7::DoubleTensor(ref_mm(x, y) * 2.0)) < tol * double(k));
        auto c = random_matrix<T>(m, n);
        auto e = t7::addmm(3.0, c, 1.0, t7::Tensor<T>(m, 0), t7::Tensor<T>(0, n));
        CHECK(max_diff(e, t7::Tensor<T>(c * T(3))) == 0);
    }
    // mv on a large matrix, row- and column-major; addmv with NaN at beta 0
    auto m = random_matrix<T>(1000, 77), v = random_matrix<T>(77, 1);
    auto mt = random_matrix<T>(77, 1000).t();
    for (auto* x : {&m, &mt}) {
        auto y = at_1_and_2([&] { return t7::mv(*x, v.select(1, 0)); });
        CHECK(max_diff(y.view({1000, 1}), ref_mm(*x, v)) < tol * 78);
        auto nan = t7::full<T>({1000}, std::numeric_limits<T>::quiet_NaN());
        auto z = t7::addmv(0.0, nan, 1.0, *x, v.select(1, 0));
        CHECK(max_diff(z.view({1000, 1}), ref_mm(*x, v)) < tol * 78);
    }
    // bmm: small matrices one per thread, large ones each on the pool
    for (auto [q, r, c, k] : {std::array<int64_t, 4>{5, 20, 30, 40}, {2, 140, 130, 240}}) {
        t7::Tensor<T> x(q, r, k), y(q, k, c);
        x.uniform(-1, 1);
        y.uniform(-1, 1);
        auto z = at_1_and_2([&] { return t7::Tensor<T>(t7::bmm(x, y)); });
        for (int64_t i = 0; i < q; ++i)
            CHECK(max_diff(z[i], ref_mm(t7::Tensor<T>(x[i]), t7::Tensor<T>(y[i]))) <
                  tol * double(k));
    }
    CHECK(Eigen::nbThreads() == 3);
    Eigen::setNbThreads(eigen_threads);
}

// tensor7's own GEMM (eval/cpu/gemm_packed.hpp) on raw strides against a loop in
// long double: every edge of its register tile (m and n around multiples of MR and
// NR), k across its blocks (gemm_kc), A and B row-major, column-major, stepped,
// broadcast (stride 0) and reversed; beta 0 (C's NaNs ignored), 1 and 0.5. Its
// claim: an element's bits do not depend on where a split of C's rows falls, so
// rows computed apart, on 1 thread or 2, equal the whole product's.
TEST_CASE_TEMPLATE("the packed GEMM: tile edges, blocks of k, strides, splits", T, float, double) {
    namespace eig = t7::detail::eig;
    constexpr int64_t MR = eig::GemmTile<T>::MR, NR = eig::GemmTile<T>::NR, KC = eig::gemm_kc<T>;
    const double tol = std::is_same_v<T, float> ? 2e-6 : 1e-14;
    t7::manualSeed(45);
    struct View { // a matrix's element (i, j) at data[i * rs + j * cs]
        const T* data;
        int64_t rs, cs;
        T operator()(int64_t i, int64_t j) const { return data[i * rs + j * cs]; }
    };
    // rows x cols in one of five layouts, over `store` (kept alive by the caller)
    auto make = [](int layout, int64_t rows, int64_t cols, t7::Tensor<T>& store) -> View {
        store = random_matrix<T>(2 * rows + 1, 2 * cols + 1);
        T* d = store.data();
        const int64_t ld = store.stride(0);
        switch (layout) {
        case 0:
            return {d, ld, 1}; // row-major
        case 1:
            return {d, 1, 2 * rows + 1}; // column-major (the store read by columns)
        case 2:
            return {d + ld + 1, 2 * ld, 2}; // stepped
        case 3:
            return {d, 0, 1}; // rows broadcast
        default:
            return {d + (rows - 1) * ld + 2 * cols, -ld, -1}; // reversed
        }
    };
    for (auto [m, n, k] : {std::array<int64_t, 3>{MR, NR, 1},
                           {MR + 1, NR - 1, KC - 1},
                           {2 * MR - 1, 2 * NR + 3, KC},
                           {3 * MR + 2, NR + 1, KC + 1},
                           {2, 3, 2 * KC + 5},
                           {5 * MR, 3 * NR, 7}}) {
        for (int la = 0; la < 5; ++la)
            for (int lb = 0; lb < 5; ++lb) {
                if (la != lb && la > 1 && lb > 1) continue; // (enough pairs)
                CAPTURE(m);
                CAPTURE(n);
                CAPTURE(k);
                CAPTURE(la);
                CAPTURE(lb);
                t7::Tensor<T> sa, sb;
                const View a = make(la, m, k, sa), b = make(lb, k, n, sb);
                const t7::Tensor<T> c0 = random_matrix<T>(m, n);
                for (double beta : {0.0, 1.0, 0.5}) {
                    t7::Tensor<T> c = beta == 0
                                          ? t7::full<T>({m, n}, std::numeric_limits<T>::quiet_NaN())
                                          : t7::Tensor<T>(c0.clone());
                    eig::gemm_packed<T>(m, n, k, T(1.5), a.data, a.rs, a.cs, b.data, b.rs, b.cs,
                                        T(beta), c.data(), n, false);
                    double worst = 0;
                    for (int64_t i = 0; i < m; ++i)
                        for (int64_t j = 0; j < n; ++j) {
                            long double s = 0;
                            for (int64_t p = 0; p < k; ++p)
                                s += (long double)a(i, p) * (long double)b(p, j);
                            const long double want =
                                1.5L * s + (beta == 0 ? 0.0L : (long double)beta * c0(i, j));
                            worst = std::max(worst, double(std::abs(c(i, j) - want)));
                        }
                    CHECK(worst < tol * double(k + 2));
                }
            }
    }
    // The bits: a product large enough for the pool (two blocks of k), on 2
    // threads, on 1, and rows apart at bounds off the tile grid.
    const int64_t m = 100, n = 70, k = KC + 40;
    const t7::Tensor<T> a = random_matrix<T>(m, k), b = random_matrix<T>(k, n).t().contiguous().t();
    auto product = [&](bool threaded) {
        t7::Tensor<T> c(m, n);
        eig::gemm_packed<T>(m, n, k, T(1), a.data(), k, 1, b.data(), b.stride(0), b.stride(1), T(0),
                            c.data(), n, threaded);
        return c;
    };
    KeepThreads keep;
    t7::setNumThreads(2);
    const uint64_t loops = t7::detail::threaded_loops();
    const t7::Tensor<T> whole = product(true);
    CHECK(t7::detail::threaded_loops() > loops); // (on the pool)
    CHECK(same_bits(whole, product(false)));
    t7::Tensor<T> pieces(m, n);
    const std::array<int64_t, 5> bounds{0, 7, MR + 3, 60, m};
    for (size_t q = 0; q + 1 < bounds.size(); ++q) {
        const int64_t r0 = bounds[q], r1 = bounds[q + 1];
        eig::gemm_packed<T>(r1 - r0, n, k, T(1), a.data() + r0 * k, k, 1, b.data(), b.stride(0),
                            b.stride(1), T(0), pieces.data() + r0 * n, n, false);
    }
    CHECK(same_bits(whole, pieces));
    CHECK(max_diff(whole, ref_mm(a, b)) < tol * double(k));
    // k = 0: C = beta C
    t7::Tensor<T> c = random_matrix<T>(4, 5), was = c.clone();
    eig::gemm_packed<T>(4, 5, 0, T(1), a.data(), 1, 1, b.data(), 1, 1, T(2), c.data(), 5, false);
    CHECK(max_diff(c, t7::Tensor<T>(was * T(2))) == 0);
}

// addr and ger on the pool (issue 43): M's rows (blocks of a long row) in parts,
// against a reference loop in double, with the same bits at 1 and 2 threads;
// Blas<CPU>::ger itself into a transposed, a stepped and a reversed M (the
// public functions write a fresh contiguous result); beta 0 ignores M's NaNs.
TEST_CASE_TEMPLATE("addr and ger on the pool: large, transposed and strided M", T, float, double) {
    const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-13;
    t7::manualSeed(44);
    // beta M + alpha x y^T by element access, in double (M ignored at beta 0)
    auto ref = [](double beta, const t7::Tensor<T>& M, double alpha, const t7::Tensor<T>& x,
                  const t7::Tensor<T>& y) {
        t7::DoubleTensor r(x.size(0), y.size(0));
        for (int64_t i = 0; i < x.size(0); ++i)
            for (int64_t j = 0; j < y.size(0); ++j)
                r(i, j) = (beta == 0 ? 0.0 : beta * double(M(i, j))) +
                          alpha * double(x(i)) * double(y(j));
        return r;
    };
    for (auto [m, n] : {std::array<int64_t, 2>{700, 900}, {3, 200000}, {1, 9000}}) {
        CAPTURE(m);
        CAPTURE(n);
        // x strided (a column of a matrix), y contiguous
        const t7::Tensor<T> x = random_matrix<T>(m, 2).select(1, 1);
        const t7::Tensor<T> y = random_matrix<T>(n, 1).select(1, 0).contiguous();
        const t7::Tensor<T> M = random_matrix<T>(m, n);
        auto g = at_1_and_2([&] { return t7::ger(x, y); });
        CHECK(max_diff(g, ref(0, M, 1, x, y)) < tol);
        auto r = at_1_and_2([&] { return t7::addr(0.5, M, -2, x, y); });
        CHECK(max_diff(r, ref(0.5, M, -2, x, y)) < tol * 4);
        auto r1 = at_1_and_2([&] { return t7::addr(M, x, y); }); // beta 1: added
        CHECK(max_diff(r1, ref(1, M, 1, x, y)) < tol * 4);
        auto nan = t7::full<T>({m, n}, std::numeric_limits<T>::quiet_NaN());
        auto z = at_1_and_2([&] { return t7::addr(0, nan, 3, x, y); });
        CHECK(max_diff(z, ref(0, M, 3, x, y)) < tol * 4);
    }
    // M transposed (column order) and stepped (no unit stride), updated in place
    const int64_t m = 700, n = 900;
    const t7::Tensor<T> x = random_matrix<T>(m, 1).select(1, 0).contiguous();
    const t7::Tensor<T> y = random_matrix<T>(n, 1).select(1, 0).contiguous();
    const t7::Tensor<T> base = random_matrix<T>(m, n);
    auto in_place = [&](double beta, double alpha, auto make) {
        return at_1_and_2([&] {
            t7::Tensor<T> M = make();
            M.copy(base);
            t7::detail::Blas<t7::CPU>::ger(T(alpha), t7::detail::VecRef<const T>{x.data(), m, 1},
                                           t7::detail::VecRef<const T>{y.data(), n, 1}, T(beta),
                                           t7::detail::mat_ref(M));
            return M.contiguous();
        });
    };
    auto transposed = [&] { return t7::Tensor<T>(t7::zeros<T>(n, m).t()); };
    auto stepped = [&] {
        return t7::Tensor<T>(t7::zeros<T>(m, 2 * n)(t7::all, t7::slice(0, 2 * n, 2)));
    };
    auto reversed = [&] { return t7::Tensor<T>(t7::zeros<T>(m, n).flip({1})); }; // stride -1
    for (double beta : {0.0, 1.0, 0.25}) {
        CAPTURE(beta);
        const auto want = ref(beta, base, 1.5, x, y);
        CHECK(max_diff(in_place(beta, 1.5, transposed), want) < tol * 4);
        CHECK(max_diff(in_place(beta, 1.5, stepped), want) < tol * 4);
        CHECK(max_diff(in_place(beta, 1.5, reversed), want) < tol * 4);
    }
    // An M of at most 16 MiB (in cache: a second thread gains nothing) is updated
    // on the calling thread; a larger one in one loop on the pool at 2 threads,
    // none at 1 (detail::threaded_loops counts them).
    const int64_t big_m = 2050, big_n = (int64_t(17) << 20) / (big_m * int64_t(sizeof(T)));
    const t7::Tensor<T> big = random_matrix<T>(big_m, big_n);
    const t7::Tensor<T> bx = random_matrix<T>(big_m, 1).select(1, 0).contiguous();
    const t7::Tensor<T> by = random_matrix<T>(big_n, 1).select(1, 0).contiguous();
    for (int threads : {1, 2}) {
        KeepThreads keep;
        t7::setNumThreads(threads);
        for (const bool large : {false, true}) {
            CAPTURE(large);
            const t7::Tensor<T>&x0 = large ? bx : x, &y0 = large ? by : y, &M0 = large ? big : base;
            t7::Tensor<T> M = M0.clone();
            const uint64_t loops = t7::detail::threaded_loops();
            t7::detail::Blas<t7::CPU>::ger(T(1.5),
                                           t7::detail::VecRef<const T>{x0.data(), x0.size(0), 1},
                                           t7::detail::VecRef<const T>{y0.data(), y0.size(0), 1},
                                           T(0.25), t7::detail::mat_ref(M));
            CHECK(t7::detail::threaded_loops() - loops == (threads == 2 && large ? 1u : 0u));
            CHECK(max_diff(M, ref(0.25, M0, 1.5, x0, y0)) < tol * 4);
        }
    }
}

TEST_CASE("addr and ger: complex values, integer types wrap") {
    using C = std::complex<double>;
    auto x = t7::tensor<C>({C(1, 2), C(0, -1)}), y = t7::tensor<C>({C(3, 0), C(1, 1), C(0, 2)});
    auto M = t7::tensor<C>({{C(1, 0), C(0, 1), C(2, 2)}, {C(-1, 0), C(0, 0), C(1, -1)}});
    auto r = t7::addr(2, M, 1, x, y); // 2 M + x y^T (no conjugation, as Torch7's ger)
    const std::vector<C> want{C(5, 6), C(-1, 5), C(0, 6), C(-2, -3), C(1, -1), C(4, -2)};
    const t7::Tensor<C> rc = r.contiguous();
    CHECK(std::vector<C>(rc.data(), rc.data() + 6) == want);
    auto u = t7::ger(t7::tensor<uint8_t>({200, 3}), t7::tensor<uint8_t>({2, 100}));
    CHECK(values(u) == std::vector<double>{144, 32, 6, 44}); // 400, 20000 mod 256
    auto i = t7::addr(3, t7::tensor<int32_t>({{2147483647}}), 1, t7::tensor<int32_t>({65536}),
                      t7::tensor<int32_t>({65536}));
    CHECK(values(i) == std::vector<double>{2147483645}); // 3 (2^31 - 1) + 2^32 wraps
}
