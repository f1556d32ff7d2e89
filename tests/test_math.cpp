// Math library (issue 6): factories (zeros ones full range linspace logspace eye
// tensor), matrix structure (diag tril triu trace cross) and statistics (dist
// histc renorm), against hand-computed values, plus every error case.
#include "test_util.hpp"

#include <doctest/doctest.h>
#include <t7/t7.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

using test_util::values; // in row-major order

void check_close(const std::vector<double>& got, const std::vector<double>& want,
                 double tol = 1e-6) {
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(tol));
}

using test_util::message_of;

} // namespace

TEST_CASE("zeros, ones, full: variadic sizes and Shape") {
    auto z = t7::zeros<float>(2, 3);
    CHECK(z.isSize({2, 3}));
    CHECK(values(z) == std::vector<double>(6, 0.0));
    auto o = t7::ones<int32_t>(t7::Shape{4});
    CHECK(o.isSize({4}));
    CHECK(values(o) == std::vector<double>(4, 1.0));
    auto f = t7::full<double>({2, 2}, 2.5);
    CHECK(values(f) == std::vector<double>(4, 2.5));
    CHECK(t7::full<uint8_t>({3}, 7).type() == "torch.ByteTensor");
    CHECK(t7::zeros<int64_t>(1, 2, 3, 4).isContiguous());
    CHECK(t7::zeros<float>(0).sizes() == t7::Shape{0}); // NumPy's: a dimension of size 0
    CHECK_THROWS_AS(t7::zeros<float>(2, -1), t7::ShapeError);
}

TEST_CASE("range is inclusive and checks the step") {
    CHECK(values(t7::range<float>(1, 5, 2)) == std::vector<double>{1, 3, 5});
    CHECK(values(t7::range<int64_t>(0, 10, 3)) == std::vector<double>{0, 3, 6, 9});
    CHECK(values(t7::range<double>(5, 1, -2)) == std::vector<double>{5, 3, 1});
    CHECK(values(t7::range<int32_t>(1, 4)) == std::vector<double>{1, 2, 3, 4});
    CHECK(values(t7::range<double>(2, 2)) == std::vector<double>{2});
    CHECK(values(t7::range<double>(0, 1, 0.25)) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
    CHECK(t7::range<float>(1, 5, 2).type() == "torch.FloatTensor");

    auto m = message_of<t7::Error>([] { t7::range<float>(1, 5, 0); });
    CHECK(m.find("range") != std::string::npos);
    CHECK(m.find("step 0") != std::string::npos);
    m = message_of<t7::Error>([] { t7::range<float>(1, 5, -1); });
    CHECK(m.find("range: step -1 has the wrong sign to go from 1 to 5") != std::string::npos);
    CHECK_THROWS_AS(t7::range<float>(5, 1, 1), t7::Error);
    CHECK_THROWS_AS(t7::range<float>(0, INFINITY), t7::Error);
}

TEST_CASE("linspace and logspace") {
    check_close(values(t7::linspace<double>(0, 1, 5)), {0, 0.25, 0.5, 0.75, 1});
    check_close(values(t7::linspace<float>(1, -1, 3)), {1, 0, -1});
    CHECK(values(t7::linspace<int32_t>(0, 10, 3)) == std::vector<double>{0, 5, 10});
    CHECK(values(t7::linspace<double>(3, 7, 1)) == std::vector<double>{3});
    CHECK(t7::linspace<double>(0, 1).isSize({100})); // Torch7's default: 100 points
    // the last point is exactly b
    CHECK(t7::linspace<double>(0.1, 0.7, 7)(6) == 0.7);

    auto m = message_of<t7::ShapeError>([] { t7::linspace<float>(0, 1, 0); });
    CHECK(m.find("linspace: number of points 0") != std::string::npos);
    CHECK_THROWS_AS(t7::linspace<float>(0, 1, -3), t7::ShapeError);

    check_close(values(t7::logspace<double>(0, 2, 3)), {1, 10, 100});
    check_close(values(t7::logspace<float>(-1, 1, 3)), {0.1, 1, 10});
    CHECK(values(t7::logspace<double>(2, 5, 1)) == std::vector<double>{100});
    CHECK_THROWS_AS(t7::logspace<float>(0, 1, 0), t7::ShapeError);
}

TEST_CASE("eye") {
    CHECK(values(t7::eye<float>(3)) == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
    auto wide = t7::eye<int32_t>(2, 3);
    CHECK(wide.isSize({2, 3}));
    CHECK(values(wide) == std::vector<double>{1, 0, 0, 0, 1, 0});
    CHECK(values(t7::eye<double>(3, 2)) == std::vector<double>{1, 0, 0, 1, 0, 0});
    CHECK_THROWS_AS(t7::eye<float>(0), t7::ShapeError);
}

TEST_CASE("tensor<T> from nested braces") {
    auto v = t7::tensor<float>({1, 2, 3});
    CHECK(v.isSize({3}));
    CHECK(values(v) == std::vector<double>{1, 2, 3});

    auto m = t7::tensor<double>({{1, 2.5, 3}, {4, 5, 6}});
    CHECK(m.isSize({2, 3}));
    CHECK(m.isContiguous());
    CHECK(values(m) == std::vector<double>{1, 2.5, 3, 4, 5, 6});
    CHECK(m(0, 1) == 2.5);

    auto c = t7::tensor<int64_t>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}});
    CHECK(c.isSize({3, 2, 2}));
    CHECK(c(2, 0, 1) == 10);

    auto one = t7::tensor<float>({{1}});
    CHECK(one.isSize({1, 1}));
    auto six = t7::tensor<int32_t>({{{{{{1, 2}}}}}, {{{{{3, 4}}}}}});
    CHECK(six.isSize({2, 1, 1, 1, 1, 2}));
    CHECK(values(six) == std::vector<double>{1, 2, 3, 4});

    CHECK(values(t7::tensor<int32_t>({1.9, -1.9})) == std::vector<double>{1, -1}); // truncates
    CHECK(t7::tensor<float>({}).dim() == 0);

    auto msg = message_of<t7::ShapeError>([] { t7::tensor<float>({{1, 2}, {3}}); });
    CHECK(msg.find("tensor: invalid tensor sizes") != std::string::npos);
    CHECK(msg.find("[1]") != std::string::npos);
    CHECK_THROWS_AS(t7::tensor<float>({{1, 2}, 3}), t7::ShapeError);
    CHECK_THROWS_AS(t7::tensor<float>({1, {2, 3}}), t7::ShapeError);
    CHECK_THROWS_AS(t7::tensor<float>({{{1}, {2}}, {{3}, {4, 5}}}), t7::ShapeError);
    CHECK_THROWS_AS(t7::tensor<float>({{}, {}}), t7::ShapeError);
}

TEST_CASE("diag: vector to matrix and matrix to vector") {
    auto v = t7::tensor<float>({1, 2, 3});
    CHECK(values(t7::diag(v)) == std::vector<double>{1, 0, 0, 0, 2, 0, 0, 0, 3});
    auto up = t7::diag(v, 1);
    CHECK(up.isSize({4, 4}));
    CHECK(values(up) == std::vector<double>{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0});
    auto down = t7::diag(t7::tensor<int32_t>({5, 6}), -1);
    CHECK(values(down) == std::vector<double>{0, 0, 0, 5, 0, 0, 0, 6, 0});

    auto m = t7::tensor<double>({{1, 2, 3}, {4, 5, 6}});
    auto d = t7::diag(m);
    CHECK(values(d) == std::vector<double>{1, 5});
    CHECK(!(d.storage() == m.storage())); // a copy, as Torch7's diag
    CHECK(values(t7::diag(m, 1)) == std::vector<double>{2, 6});
    CHECK(values(t7::diag(m, 2)) == std::vector<double>{3});
    CHECK(values(t7::diag(m, -1)) == std::vector<double>{4});
    CHECK(values(t7::diag(m.t())) == std::vector<double>{1, 5});
    CHECK(values(t7::diag(m.t(), 1)) == std::vector<double>{4});
    // from a strided vector
    CHECK(values(t7::diag(m.select(1, 1))) == std::vector<double>{2, 0, 0, 5});

    auto msg = message_of<t7::IndexError>([&] { t7::diag(m, 3); });
    CHECK(msg.find("diag: diagonal 3 out of range for a matrix of size 2x3") != std::string::npos);
    CHECK_THROWS_AS(t7::diag(m, -2), t7::IndexError);
    CHECK_THROWS_AS(t7::diag(t7::zeros<float>(2, 2, 2)), t7::ShapeError);
}

TEST_CASE("tril and triu") {
    auto m = t7::tensor<int32_t>({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}});
    CHECK(values(t7::tril(m)) == std::vector<double>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0});
    CHECK(values(t7::tril(m, 1)) == std::vector<double>{1, 2, 0, 0, 5, 6, 7, 0, 9, 10, 11, 12});
    CHECK(values(t7::tril(m, -1)) == std::vector<double>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0});
    CHECK(values(t7::triu(m)) == std::vector<double>{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12});
    CHECK(values(t7::triu(m, 2)) == std::vector<double>{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0});
    CHECK(values(t7::triu(m, -1)) == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 0, 10, 11, 12});
    // a transposed view: 4x3
    CHECK(values(t7::tril(m.t())) == std::vector<double>{1, 0, 0, 2, 6, 0, 3, 7, 11, 4, 8, 12});
    CHECK(t7::tril(m).type() == "torch.IntTensor");
    CHECK_THROWS_AS(t7::tril(t7::zeros<float>(3)), t7::ShapeError);
    CHECK_THROWS_AS(t7::triu(t7::zeros<float>(2, 2, 2)), t7::ShapeError);
}

TEST_CASE("trace") {
    auto m = t7::tensor<float>({{1, 2, 3}, {4, 5, 6}});
    CHECK(double(t7::trace(m)) == 6);
    CHECK(double(t7::trace(m.t())) == 6);
    auto i = t7::tensor<uint8_t>({{200, 0}, {0, 100}});
    CHECK(t7::trace(i) == 300); // accumulates without overflow
    static_assert(std::is_same_v<decltype(t7::trace(i)), int64_t>);
    CHECK_THROWS_AS(t7::trace(t7::zeros<float>(3)), t7::ShapeError);
}

TEST_CASE("cross") {
    auto x = t7::tensor<float>({1, 0, 0}), y = t7::tensor<float>({0, 1, 0});
    CHECK(values(t7::cross(x, y)) == std::vector<double>{0, 0, 1});
    CHECK(values(t7::cross(y, x)) == std::vector<double>{0, 0, -1});
    auto a = t7::tensor<double>({{1, 2, 3}, {4, 5, 6}}),
         b = t7::tensor<double>({{7, 8, 9}, {1, 0, 2}});
    // (2*9-3*8, 3*7-1*9, 1*8-2*7), (5*2-6*0, 6*1-4*2, 4*0-5*1)
    CHECK(values(t7::cross(a, b, 1)) == std::vector<double>{-6, 12, -6, 10, -2, -5});
    CHECK(values(t7::cross(a, b, -1)) == std::vector<double>{-6, 12, -6, 10, -2, -5});
    // default: the first dimension of size 3 (here dimension 0 of the transposes)
    CHECK(values(t7::cross(a.t(), b.t())) == std::vector<double>{-6, 10, 12, -2, -6, -5});

    CHECK_THROWS_AS(t7::cross(a, b.t()), t7::ShapeError);
    auto msg = message_of<t7::ShapeError>([&] { t7::cross(a, b, 0); });
    CHECK(msg.find("cross") != std::string::npos);
    CHECK_THROWS_AS(t7::cross(t7::zeros<float>(2, 2), t7::zeros<float>(2, 2)), t7::ShapeError);
    CHECK_THROWS_AS(t7::cross(a, b, 2), t7::IndexError);
}

TEST_CASE("dist") {
    auto a = t7::tensor<float>({0, 0}), b = t7::tensor<float>({3, 4});
    CHECK(t7::dist(a, b) == doctest::Approx(5));
    CHECK(t7::dist(a, b, 1) == doctest::Approx(7));
    CHECK(t7::dist(a, b, 3) == doctest::Approx(std::cbrt(27.0 + 64.0)));
    CHECK(t7::dist(b, b) == 0);
    CHECK(t7::dist(t7::tensor<double>({{1, 2}, {3, 4}}),
                   t7::tensor<double>({{1, 2}, {3, 4}}).t()) == doctest::Approx(std::sqrt(2.0)));
}

TEST_CASE("histc") {
    auto x = t7::tensor<float>({1, 2, 1, 4, 2.5, 3});
    // min 1, max 4: bins [1,1.75) [1.75,2.5) [2.5,3.25) [3.25,4]
    CHECK(values(t7::histc(x, 4)) == std::vector<double>{2, 1, 2, 1});
    CHECK(t7::histc(x).isSize({100}));
    CHECK(t7::histc(x).type() == "torch.FloatTensor");
    // explicit range: values outside are ignored, hi falls in the last bin
    CHECK(values(t7::histc(x, 2, 2, 3)) == std::vector<double>{1, 2});
    CHECK(values(t7::histc(t7::tensor<int32_t>({5, 5, 5}), 2)) == std::vector<double>{0, 3});
    // a strided input, and the per-thread partial histograms on a large one
    // [[0, 1], [9, 9]] over [0, 2]: 1 * 3 / 2 = 1.5 falls in bin 1
    CHECK(values(t7::histc(t7::tensor<double>({{0, 9}, {1, 9}}).t(), 3, 0, 2)) ==
          std::vector<double>{1, 1, 0});
    t7::LongTensor big = t7::range<int64_t>(0, 199999);
    auto h = t7::histc(big, 4);
    CHECK(values(h) == std::vector<double>{50000, 50000, 50000, 50000});

    CHECK_THROWS_AS(t7::histc(x, 0), t7::ShapeError);
    CHECK_THROWS_AS(t7::histc(x, 4, 3, 1), t7::Error);
    CHECK_THROWS_AS(t7::histc(t7::FloatTensor(), 4), t7::ShapeError);
}

TEST_CASE("renorm") {
    auto x = t7::tensor<double>({{3, 4}, {0.3, 0.4}, {6, 8}});
    // rows (dim 0 slices) of norm 5, 0.5, 10 capped at 1
    auto r = t7::renorm(x, 2, 0, 1);
    check_close(values(r),
                {3 / (5 + 1e-7), 4 / (5 + 1e-7), 0.3, 0.4, 6 / (10 + 1e-7), 8 / (10 + 1e-7)});
    // columns: norms sqrt(45.09) and sqrt(80.16), p = 1 norms 9.3 and 12.4
    auto c = t7::renorm(x, 1, 1, 10);
    check_close(values(c), {3, 10 * 4 / (12.4 + 1e-7), 0.3, 10 * 0.4 / (12.4 + 1e-7), 6,
                            10 * 8 / (12.4 + 1e-7)});
    CHECK(values(t7::renorm(x, 2, 0, 100)) == values(x));
    CHECK(t7::renorm(t7::tensor<float>({{3, 4}}), 2, 0, 1).type() == "torch.FloatTensor");

    CHECK_THROWS_AS(t7::renorm(t7::tensor<double>({3, 4}), 2, 0, 1), t7::ShapeError);
    CHECK_THROWS_AS(t7::renorm(x, 0, 0, 1), t7::Error);
    CHECK_THROWS_AS(t7::renorm(x, 2, 0, -1), t7::Error);
    CHECK_THROWS_AS(t7::renorm(x, 2, 2, 1), t7::IndexError);
}
