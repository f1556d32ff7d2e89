// Fourier transforms (issue 42): numpy.fft's semantics, checked against a naive
// O(n^2) DFT computed here in long double, on lengths with small factors, with
// large primes (Bluestein's path) and on views; plus the frequencies, shifts,
// norms, into-result forms and the errors of misuse.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <vector>

using namespace t7;
using Z = std::complex<double>;
using CF = std::complex<float>;
using LZ = std::complex<long double>;

namespace {

// The DFT of v (sign -1 forward, +1 inverse, unscaled), in long double.
std::vector<Z> naive_dft(const std::vector<Z>& v, int sign) {
    const int64_t n = int64_t(v.size());
    std::vector<Z> r(static_cast<size_t>(n));
    for (int64_t f = 0; f < n; ++f) {
        LZ s = 0;
        for (int64_t k = 0; k < n; ++k) {
            const long double a =
                sign * 2 * std::numbers::pi_v<long double> * (long double)((f * k) % n) / n;
            s += LZ(v[size_t(k)]) * LZ(std::cos(a), std::sin(a));
        }
        r[size_t(f)] = Z(s);
    }
    return r;
}

std::vector<Z> signal(int64_t n, double phase = 0) {
    std::vector<Z> v(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k)
        v[size_t(k)] = Z(std::sin(0.37 * double(k) + phase) + 0.01 * double(k % 7),
                         std::cos(1.3 * double(k) - phase));
    return v;
}

template <class T>
std::vector<Z> line(const Tensor<T>& x) {
    std::vector<Z> r;
    for (int64_t k = 0; k < x.size(0); ++k) r.push_back(Z(x(k)));
    return r;
}

// max |a - b| relative to max |b|.
double rel_error(const std::vector<Z>& a, const std::vector<Z>& b) {
    double e = 0, m = 0;
    for (size_t i = 0; i < b.size(); ++i) {
        e = std::max(e, std::abs(a[i] - b[i]));
        m = std::max(m, std::abs(b[i]));
    }
    return m > 0 ? e / m : e;
}

} // namespace

TEST_CASE("fft: complex transforms of every kind of length against the naive DFT") {
    // smooth lengths (KISS FFT's radices), odd ones, primes above the direct limit
    // (Bluestein), and one point
    for (int64_t n :
         {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 60, 64, 67, 97, 100, 127, 128, 210, 509, 1000, 1021}) {
        INFO("n = ", n);
        const std::vector<Z> v = signal(n);
        ComplexDoubleTensor z(n);
        for (int64_t k = 0; k < n; ++k) z(k) = v[size_t(k)];
        const auto X = t7::fft(z);
        static_assert(std::is_same_v<decltype(X), const ComplexDoubleTensor>);
        CHECK(rel_error(line(X), naive_dft(v, -1)) < 1e-13);
        const auto back = t7::ifft(X);
        CHECK(rel_error(line(back), v) < 1e-13);
        // float: single precision, the same transform
        ComplexFloatTensor zf(n);
        for (int64_t k = 0; k < n; ++k) zf(k) = CF(v[size_t(k)]);
        const auto Xf = t7::fft(zf);
        static_assert(std::is_same_v<decltype(Xf), const ComplexFloatTensor>);
        CHECK(rel_error(line(Xf), naive_dft(line(zf), -1)) < 2e-5);
    }
}

TEST_CASE("fft: real transforms, padding and truncation, norms") {
    for (int64_t n : {1, 2, 3, 5, 8, 10, 12, 97, 100, 1021}) {
        INFO("n = ", n);
        DoubleTensor x(n);
        std::vector<Z> v(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) v[size_t(k)] = Z(x(k) = std::sin(0.5 * double(k)) + 0.3);
        const auto R = t7::rfft(x);
        CHECK(R.sizes() == Shape{n / 2 + 1});
        std::vector<Z> full = naive_dft(v, -1);
        full.resize(size_t(n / 2 + 1));
        CHECK(rel_error(line(R), full) < 1e-13);
        const DoubleTensor back = t7::irfft(R, n);
        CHECK(rel_error(line(back), v) < 1e-13);
        // fft of a real tensor computes as complex (NumPy)
        CHECK(rel_error(line(ComplexDoubleTensor(t7::fft(x).narrow(0, 0, n / 2 + 1))), full) <
              1e-13);
    }
    // n pads with zeros or truncates: fft([1, 2, 3], n=5) is the DFT of [1, 2, 3, 0, 0]
    DoubleTensor x(3);
    x(0) = 1, x(1) = 2, x(2) = 3;
    const std::vector<Z> padded = naive_dft({1, 2, 3, 0, 0}, -1);
    CHECK(rel_error(line(ComplexDoubleTensor(t7::fft(x, 5))), padded) < 1e-14);
    const auto cut = t7::fft(x, 2); // [1 + 2, 1 - 2]
    CHECK(Z(cut(0)) == Z(3, 0));
    CHECK(Z(cut(1)) == Z(-1, 0));
    // norms: backward (1, 1/n), ortho (1/sqrt(n) both ways), forward (1/n, 1)
    const auto o = t7::fft(x, -1, -1, FftNorm::ortho), f = t7::fft(x, -1, -1, FftNorm::forward);
    CHECK(Z(o(0)).real() == doctest::Approx(6 / std::sqrt(3.0)));
    CHECK(Z(f(0)).real() == doctest::Approx(2.0));
    CHECK(Z(ComplexDoubleTensor(t7::ifft(f, -1, -1, FftNorm::forward))(2)).real() ==
          doctest::Approx(3.0));
    CHECK(Z(ComplexDoubleTensor(t7::ifft(o, -1, -1, FftNorm::ortho))(1)).real() ==
          doctest::Approx(2.0));
    // irfft's default length 2 (m - 1); the DC term's imaginary part is ignored
    ComplexDoubleTensor h(3);
    h(0) = Z(4, 7), h(1) = Z(0, -2), h(2) = Z(0, 0); // spectrum of [1, 2, 1, 0]
    const DoubleTensor y = t7::irfft(h);
    CHECK(y.sizes() == Shape{4});
    CHECK(y(0) == doctest::Approx(1.0));
    CHECK(y(1) == doctest::Approx(2.0));
    CHECK(y(2) == doctest::Approx(1.0));
    CHECK(y(3) == doctest::Approx(0.0).epsilon(1e-15));
}

TEST_CASE("fft: along any dimension of any view; several dimensions") {
    // a 6x5x4 block, transformed along each dimension of a transposed, reversed view
    ComplexDoubleTensor a(6, 5, 4);
    for (int64_t i = 0; i < 6; ++i)
        for (int64_t j = 0; j < 5; ++j)
            for (int64_t k = 0; k < 4; ++k)
                a(i, j, k) = Z(std::sin(double(i * 20 + j * 4 + k)), 0.1 * double(i - j + k));
    const ComplexDoubleTensor v = a.transpose(0, 2).flip({1}); // 4x5x6
    for (int64_t d = 0; d < 3; ++d) {
        INFO("dim ", d);
        const ComplexDoubleTensor X = t7::fft(v, -1, d);
        CHECK(X.sizes() == v.sizes());
        // every line along d against the naive DFT
        const int64_t o1 = (d + 1) % 3, o2 = (d + 2) % 3;
        for (int64_t i = 0; i < v.size(o1); ++i)
            for (int64_t j = 0; j < v.size(o2); ++j) {
                std::vector<Z> in, out;
                for (int64_t k = 0; k < v.size(d); ++k) {
                    int64_t idx[3];
                    idx[d] = k, idx[o1] = i, idx[o2] = j;
                    in.push_back(Z(v(idx[0], idx[1], idx[2])));
                    out.push_back(Z(X(idx[0], idx[1], idx[2])));
                }
                REQUIRE(rel_error(out, naive_dft(in, -1)) < 1e-13);
            }
    }
    // fftn = the 1-D transforms in turn; ifftn undoes it; fft2 = the last two
    const ComplexDoubleTensor F = t7::fftn(v);
    const ComplexDoubleTensor seq = t7::fft(t7::fft(t7::fft(v, -1, 2), -1, 1), -1, 0);
    CHECK(t7::max(t7::abs(F - seq)) < 1e-12);
    CHECK(t7::max(t7::abs(ComplexDoubleTensor(t7::ifftn(F)) - v)) < 1e-13);
    const ComplexDoubleTensor F2 = t7::fft2(v);
    CHECK(t7::max(t7::abs(F2 - ComplexDoubleTensor(t7::fft(t7::fft(v, -1, 2), -1, 1)))) < 1e-12);
    CHECK(t7::max(t7::abs(ComplexDoubleTensor(t7::ifft2(F2)) - v)) < 1e-13);
    // rfftn / irfftn of a real 4x6 block: the half spectrum along the last dimension
    DoubleTensor r(4, 6);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 6; ++j) r(i, j) = double(i * 6 + j);
    const ComplexDoubleTensor RF = t7::rfftn(r);
    CHECK(RF.sizes() == Shape{4, 4});
    CHECK(Z(RF(0, 0)) == Z(276, 0)); // the sum 0 + ... + 23
    const ComplexDoubleTensor full = t7::fftn(r);
    CHECK(t7::max(t7::abs(RF - full.narrow(1, 0, 4))) < 1e-12);
    const DoubleTensor rb = t7::irfftn(RF);
    CHECK(t7::max(t7::abs(rb - r)) < 1e-12);
}

TEST_CASE("fft: frequencies and shifts (numpy.fft's)") {
    const DoubleTensor f = t7::fftfreq(5, 0.5); // [0, 1, 2, -2, -1] / 2.5
    const double e5[] = {0, 0.4, 0.8, -0.8, -0.4};
    for (int64_t i = 0; i < 5; ++i) CHECK(f(i) == doctest::Approx(e5[i]));
    const DoubleTensor g = t7::fftfreq(4); // [0, 0.25, -0.5, -0.25]
    CHECK(g(2) == -0.5);
    const DoubleTensor rf = t7::rfftfreq(7); // [0, 1, 2, 3] / 7
    CHECK(rf.sizes() == Shape{4});
    CHECK(rf(3) == doctest::Approx(3.0 / 7));
    // fftshift([0, 1, 2, 3, 4]) = [3, 4, 0, 1, 2]; ifftshift undoes it
    DoubleTensor x(5);
    for (int64_t i = 0; i < 5; ++i) x(i) = double(i);
    const DoubleTensor s = t7::fftshift(x), u = t7::ifftshift(s);
    const double es[] = {3, 4, 0, 1, 2};
    for (int64_t i = 0; i < 5; ++i) {
        CHECK(s(i) == es[i]);
        CHECK(u(i) == double(i));
    }
    CHECK(x(0) == 0); // the input is untouched
    // 2-D, one dimension: [[0 1 2] [3 4 5]] along 1 -> [[2 0 1] [5 3 4]]
    IntTensor m(2, 3);
    for (int64_t i = 0; i < 6; ++i) m(i / 3, i % 3) = int32_t(i);
    const IntTensor ms = t7::fftshift(m, {1});
    CHECK(ms(0, 0) == 2);
    CHECK(ms(1, 2) == 4);
    const IntTensor both = t7::fftshift(m); // also rows: [[5 3 4] [2 0 1]]
    CHECK(both(0, 0) == 5);
    CHECK(both(1, 2) == 1);
}

TEST_CASE("fft: into a given tensor, plans reused, misuse") {
    DoubleTensor x(8);
    for (int64_t i = 0; i < 8; ++i) x(i) = double(i % 3);
    ComplexDoubleTensor out;
    t7::fft(out, x);
    CHECK(out.sizes() == Shape{8});
    CHECK(Z(out(0)) == Z(7, 0));
    const Z* before = out.data();
    t7::fft(out, x); // written in place
    CHECK(out.data() == before);
    // out sharing x's memory: in place (same layout), or through a copy (another layout)
    ComplexDoubleTensor zz(8);
    for (int64_t i = 0; i < 8; ++i) zz(i) = Z(double(i), double(i % 3) - 1);
    const ComplexDoubleTensor flipped = t7::fft(zz.flip({0})), same = t7::fft(zz);
    ComplexDoubleTensor z2 = zz.clone();
    t7::fft(zz, zz.flip({0}));
    CHECK(t7::max(t7::abs(zz - flipped)) == 0.0);
    t7::fft(z2, z2);
    CHECK(t7::max(t7::abs(z2 - same)) == 0.0);
    // errors, the destination unchanged
    ComplexFloatTensor wrong_type(8);
    wrong_type.fill(CF(9, 9));
    CHECK_THROWS_WITH_AS(t7::fft(wrong_type, x), doctest::Contains("ComplexDoubleTensor"),
                         TypeError);
    CHECK(CF(wrong_type(0)) == CF(9, 9));
    ComplexDoubleTensor wrong_size(5);
    wrong_size.fill(Z(9, 9));
    CHECK_THROWS_AS(t7::fft(wrong_size, x), ShapeError);
    CHECK(Z(wrong_size(4)) == Z(9, 9));
    CHECK_THROWS_AS(t7::fft(x, -1, 1), IndexError);
    CHECK_THROWS_AS(t7::fft(x, -1, -2), IndexError);
    CHECK_THROWS_AS(t7::fft(x, 0), ShapeError);
    CHECK_THROWS_AS(t7::irfft(ComplexDoubleTensor(1)), ShapeError); // 2 (1 - 1) points
    CHECK_THROWS_AS(t7::fft(DoubleTensor(0)), ShapeError);
    CHECK_THROWS_AS(t7::fft(DoubleTensor()), ShapeError);
    CHECK_THROWS_AS(t7::fftn(DoubleTensor(2, 2), {0, 0}), IndexError);
    CHECK_THROWS_AS(t7::fftfreq(0), ShapeError);
    // a plan of one length serves every later transform of it (per thread):
    // results of repeated transforms are identical
    const ComplexDoubleTensor a = t7::fft(x), b = t7::fft(x);
    CHECK(t7::max(t7::abs(a - b)) == 0.0);
}
