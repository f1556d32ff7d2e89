// The CUDA backend's tests of complex tensors: transfers, conversions and their
// errors, fills, fused element-wise expressions, reductions and printing (helpers
// and how the bodies are compiled: cuda_test_util.hpp). Every expected value is
// computed on the host by a plain loop over std::complex (the schoolbook product
// and Smith's quotient written out, as NumPy computes them).
#pragma once

#include "cuda_test_util.hpp"

#include <complex>

namespace cuda_tests {

using CF = std::complex<float>;
using CD = std::complex<double>;

// A host complex tensor whose element i is (wave(i), wave(i + 5) + 0.25) in C.
template <class C>
HostT<C> host_complex(const Shape& s) {
    HostT<C> t(s);
    using R = typename C::value_type;
    for (int64_t i = 0; i < t.nElement(); ++i) t.data()[i] = C(R(wave(i)), R(wave(i + 5) + 0.25));
    return t;
}

// Every element of g (row-major) within tol (relative to max(1, |want|)) of ref(i).
template <class C, class F>
void check_complex(const DevT<C>& g, F ref, double tol) {
    const HostT<C> h = g.cpu();
    REQUIRE(h.isContiguous());
    int bad = 0;
    for (int64_t i = 0; i < h.nElement() && bad < 5; ++i) {
        const CD got(h.data()[i].real(), h.data()[i].imag());
        const CD want = ref(i);
        if (std::abs(got - want) > tol * std::max(1.0, std::abs(want))) {
            ++bad;
            FAIL_CHECK("element " << i << ": got " << got << ", want " << want);
        }
    }
    CHECK(bad == 0);
}

inline CD as_cd(CF z) { return CD(z.real(), z.imag()); }
inline CD mul_ref(CD a, CD b) {
    return CD(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
inline CD div_ref(CD a, CD b) {
    const double d = b.real() * b.real() + b.imag() * b.imag();
    return CD((a.real() * b.real() + a.imag() * b.imag()) / d,
              (a.imag() * b.real() - a.real() * b.imag()) / d);
}

TEST_CASE("cuda complex: names, transfers of every layout, 16-byte elements") {
    CHECK(t7::cuda::ComplexFloatTensor(2).type() == "torch.CudaComplexFloatTensor");
    CHECK(t7::cuda::ComplexDoubleTensor(2).type() == "torch.CudaComplexDoubleTensor");
    const HostT<CD> h = host_complex<CD>({4, 6});
    const DevT<CD> g = h.cuda();
    check_complex(
        g, [&](int64_t i) { return h.data()[i]; }, 0);
    // transposed and narrowed on both sides: strided copies of 16-byte words
    const DevT<CD> gt = h.t().cuda();
    CHECK(gt.sizes() == Shape{6, 4});
    check_complex(
        gt, [&](int64_t i) { return h.data()[(i % 4) * 6 + i / 4]; }, 0);
    const HostT<CD> back = g.t().cpu();
    for (int64_t i = 0; i < 24; ++i) CHECK(back.data()[i] == h.data()[(i % 4) * 6 + i / 4]);
    const DevT<CF> gf = host_complex<CF>({3, 5}).cuda();
    HostT<CF> into = host_complex<CF>({5, 3});
    into.t().copy(gf.narrow(1, 0, 5)); // download into a strided host view
    const HostT<CF> src = host_complex<CF>({3, 5});
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 5; ++c) CHECK(into.data()[c * 3 + r] == src.data()[r * 5 + c]);
}

TEST_CASE("cuda complex: conversions, fills; complex to real is a TypeError") {
    const DevT<float> x = host<float>({2, 3}, wave).cuda();
    // real -> complex: imaginary part 0
    const DevT<CF> z = x.to<CF>();
    check_complex(
        z, [](int64_t i) { return CD(float(wave(i)), 0); }, 0);
    DevT<CD> zd(3, 2);
    zd.copy(x); // another shape, other precision
    check_complex(
        zd, [](int64_t i) { return CD(float(wave(i)), 0); }, 0);
    // complex<float> <-> complex<double>, from a transposed source
    const HostT<CF> hf = host_complex<CF>({2, 3});
    const DevT<CD> wide = hf.cuda().t().to<CD>();
    check_complex(
        wide, [&](int64_t i) { return as_cd(hf.data()[(i % 2) * 3 + i / 2]); }, 0);
    DevT<CF> narrow(3, 2);
    narrow.copy(wide);
    check_complex(
        narrow, [&](int64_t i) { return as_cd(hf.data()[(i % 2) * 3 + i / 2]); }, 0);
    // fills: the 8-byte and the 16-byte word
    DevT<CD> f(5);
    f.fill(CD(1.5, -2.25));
    check_complex(
        f, [](int64_t) { return CD(1.5, -2.25); }, 0);
    f.narrow(0, 1, 2).zero();
    check_complex(
        f, [](int64_t i) { return i == 1 || i == 2 ? CD(0) : CD(1.5, -2.25); }, 0);
    DevT<CF> ff(2, 2);
    ff.fill(CF(-1, 0.5f));
    check_complex(
        ff, [](int64_t) { return CD(-1, 0.5); }, 0);
    // maskedFill writes the value's 16 bytes (complex<double>) or 8 (complex<float>)
    const DevT<uint8_t> positive = x > 0.0f;
    const DevT<uint8_t> m = positive.view(6);
    const HostT<uint8_t> hm = m.cpu();
    DevT<CD> mf(6);
    mf.fill(CD(7, 8));
    mf.maskedFill(m, CD(-0.5, 3.25));
    check_complex(
        mf, [&](int64_t i) { return hm.data()[i] ? CD(-0.5, 3.25) : CD(7, 8); }, 0);
    DevT<CF> mff(6);
    mff.zero();
    mff.maskedFill(m, CF(2, -1));
    check_complex(
        mff, [&](int64_t i) { return hm.data()[i] ? CD(2, -1) : CD(0); }, 0);
    // complex -> real: TypeError, destination unchanged
    DevT<float> r = x.clone();
    CHECK_THROWS_AS(r.copy(z), t7::TypeError);
    CHECK_THROWS_WITH_AS(r = z, doctest::Contains("t7::real"), t7::TypeError);
    CHECK_THROWS_AS(r = z * 2.0f, t7::TypeError);
    HostT<float> hr(2, 3);
    CHECK_THROWS_AS(hr.copy(z), t7::TypeError); // download
    CHECK_THROWS_AS(r.copy(hf), t7::TypeError); // upload
    check_same(values(r), values(x));
    // the parts, as real results of expressions and as writable views
    const DevT<float> re = t7::real(z * 1.0f), im = t7::imag(zd * CD(0, 1));
    check_same(values(re), values(x));
    check_same(values(im), values(x), 1e-7);
    t7::imag(f) = 4.0;
    check_complex(
        f, [](int64_t i) { return CD(i == 1 || i == 2 ? 0 : 1.5, 4); }, 0);
}

template <class C>
void check_arithmetic(double tol) {
    using R = typename C::value_type;
    const HostT<C> ha = host_complex<C>({3, 7});
    HostT<C> hb = host_complex<C>({7});
    for (int64_t i = 0; i < 7; ++i) hb.data()[i] = C(R(0.5 + i), R(1 - 0.5 * i)); // no zero
    const HostT<R> hr = host<R>({3, 1}, [](int64_t i) { return 2.0 - i; });
    const DevT<C> a = ha.cuda(), b = hb.cuda();
    const DevT<R> r = hr.cuda();
    const auto A = [&](int64_t i) { return CD(ha.data()[i].real(), ha.data()[i].imag()); };
    const auto B = [&](int64_t i) { return CD(hb.data()[i % 7].real(), hb.data()[i % 7].imag()); };
    const auto Rv = [&](int64_t i) { return double(hr.data()[i / 7]); };
    DevT<C> out(3, 7);
    out = a + b; // b broadcast along the rows
    check_complex(
        out, [&](int64_t i) { return A(i) + B(i); }, tol);
    out = a - b;
    check_complex(
        out, [&](int64_t i) { return A(i) - B(i); }, tol);
    out = a * b;
    check_complex(
        out, [&](int64_t i) { return mul_ref(A(i), B(i)); }, tol);
    out = a / b;
    check_complex(
        out, [&](int64_t i) { return div_ref(A(i), B(i)); }, tol);
    out = -a;
    check_complex(
        out, [&](int64_t i) { return -A(i); }, 0);
    out = t7::conj(a) * b + a;
    check_complex(
        out, [&](int64_t i) { return mul_ref(std::conj(A(i)), B(i)) + A(i); }, tol);
    // real operands: a real tensor, real and complex scalars
    out = a * r + R(2);
    check_complex(
        out, [&](int64_t i) { return A(i) * Rv(i) + 2.0; }, tol);
    out = r / a;
    check_complex(
        out, [&](int64_t i) { return div_ref(CD(Rv(i)), A(i)); }, tol);
    out = a * C(0, 1) - C(1, 1);
    check_complex(
        out, [&](int64_t i) { return mul_ref(A(i), CD(0, 1)) - CD(1, 1); }, tol);
    // real results: abs, real, imag, angle
    DevT<R> m(3, 7);
    m = t7::abs(a);
    check_close(
        m, [&](int64_t i) { return std::abs(A(i)); }, tol);
    m = t7::real(a * b);
    check_close(
        m, [&](int64_t i) { return mul_ref(A(i), B(i)).real(); }, tol);
    m = t7::imag(a * b);
    check_close(
        m, [&](int64_t i) { return mul_ref(A(i), B(i)).imag(); }, tol);
    m = t7::angle(a);
    check_close(
        m, [&](int64_t i) { return std::arg(A(i)); }, tol);
    // complex from real parts
    out = t7::complex(r, t7::real(a));
    check_complex(
        out, [&](int64_t i) { return CD(Rv(i), A(i).real()); }, 0);
    out = t7::polar(t7::abs(a), t7::angle(a));
    check_complex(out, A, 10 * tol);
    // comparisons: == and != give a byte mask
    DevT<C> c = a.clone();
    c.narrow(1, 2, 3).fill(C(9, 9));
    const DevT<uint8_t> eq = t7::eq(a, c), ne = t7::ne(a, c);
    check_exact(eq, [](int64_t i) { return (i % 7 >= 2 && i % 7 < 5) ? 0 : 1; });
    check_exact(ne, [](int64_t i) { return (i % 7 >= 2 && i % 7 < 5) ? 1 : 0; });
    // strided operands (a transposed view): the Indexer path
    DevT<C> outt(7, 3);
    outt = a.t() * a.t() + C(0.5, 0);
    check_complex(
        outt,
        [&](int64_t i) { return mul_ref(A((i % 3) * 7 + i / 3), A((i % 3) * 7 + i / 3)) + 0.5; },
        tol);
}

TEST_CASE("cuda complex: fused arithmetic, conj, abs, parts, mixed real operands") {
    check_arithmetic<CF>(2e-6);
    check_arithmetic<CD>(1e-14);
}

// f on the device against g (std::complex) on the host, for inputs away from the
// branch cuts; tolerances are relative to max(1, |want|).
template <class C, class F, class G>
void check_function(const char* name, F f, G g, double tol) {
    CAPTURE(name);
    const HostT<C> h = host_complex<C>({11});
    const DevT<C> z = h.cuda();
    DevT<C> out(11);
    out = f(z);
    check_complex(
        out, [&](int64_t i) { return g(CD(h.data()[i].real(), h.data()[i].imag())); }, tol);
}

template <class C>
void check_functions(double tol) {
    using std::exp;
    check_function<C>(
        "exp", [](const auto& z) { return t7::exp(z); }, [](CD x) { return exp(x); }, tol);
    check_function<C>(
        "log", [](const auto& z) { return t7::log(z); }, [](CD x) { return std::log(x); }, tol);
    check_function<C>(
        "log10", [](const auto& z) { return t7::log10(z); }, [](CD x) { return std::log10(x); },
        tol);
    check_function<C>(
        "sqrt", [](const auto& z) { return t7::sqrt(z); }, [](CD x) { return std::sqrt(x); }, tol);
    check_function<C>(
        "sin", [](const auto& z) { return t7::sin(z); }, [](CD x) { return std::sin(x); }, tol);
    check_function<C>(
        "cos", [](const auto& z) { return t7::cos(z); }, [](CD x) { return std::cos(x); }, tol);
    check_function<C>(
        "tan", [](const auto& z) { return t7::tan(z); }, [](CD x) { return std::tan(x); }, tol);
    check_function<C>(
        "sinh", [](const auto& z) { return t7::sinh(z); }, [](CD x) { return std::sinh(x); }, tol);
    check_function<C>(
        "cosh", [](const auto& z) { return t7::cosh(z); }, [](CD x) { return std::cosh(x); }, tol);
    check_function<C>(
        "tanh", [](const auto& z) { return t7::tanh(z); }, [](CD x) { return std::tanh(x); }, tol);
    check_function<C>(
        "asin", [](const auto& z) { return t7::asin(z); }, [](CD x) { return std::asin(x); }, tol);
    check_function<C>(
        "acos", [](const auto& z) { return t7::acos(z); }, [](CD x) { return std::acos(x); }, tol);
    check_function<C>(
        "atan", [](const auto& z) { return t7::atan(z); }, [](CD x) { return std::atan(x); }, tol);
    check_function<C>(
        "square", [](const auto& z) { return t7::square(z); }, [](CD x) { return mul_ref(x, x); },
        tol);
    check_function<C>(
        "cinv", [](const auto& z) { return t7::cinv(z); }, [](CD x) { return div_ref(CD(1), x); },
        tol);
    check_function<C>(
        "pow 3", [](const auto& z) { return t7::pow(z, 3); },
        [](CD x) { return mul_ref(mul_ref(x, x), x); }, tol);
    check_function<C>(
        "pow 0.3", [](const auto& z) { return t7::pow(z, 0.3); },
        [](CD x) { return std::pow(x, 0.3); }, 4 * tol);
    check_function<C>(
        "pow z z", [](const auto& z) { return t7::pow(z, z); }, [](CD x) { return std::pow(x, x); },
        8 * tol);
}

TEST_CASE("cuda complex: exp log log10 sqrt pow, trigonometric and hyperbolic functions") {
    check_functions<CF>(2e-6);
    check_functions<CD>(1e-13);
}

TEST_CASE("cuda complex: sum, prod, mean, and sums along a dimension") {
    const HostT<CD> h = host_complex<CD>({6, 40});
    const DevT<CD> z = h.cuda();
    CD sum = 0, prod = 1;
    for (int64_t i = 0; i < 240; ++i) sum += h.data()[i];
    for (int64_t i = 0; i < 12; ++i) prod = mul_ref(prod, h.data()[i]);
    const CD s = t7::sum(z);
    CHECK(std::abs(s - sum) <= 1e-12 * std::abs(sum));
    const CD m = t7::mean(z);
    CHECK(std::abs(m - sum / 240.0) <= 1e-12 * std::abs(sum / 240.0));
    const CD p = t7::prod(z.narrow(0, 0, 1).narrow(1, 0, 12));
    CHECK(std::abs(p - prod) <= 1e-12 * std::abs(prod));
    // a fused tree inside the reduction; complex<float> accumulates in complex<double>
    const HostT<CF> hf = host_complex<CF>({6, 40});
    const DevT<CF> zf = hf.cuda();
    CD want = 0;
    for (int64_t i = 0; i < 240; ++i)
        want += mul_ref(as_cd(hf.data()[i]), std::conj(as_cd(hf.data()[i])));
    const auto got = t7::sum(zf * t7::conj(zf));
    CHECK(std::abs(CD(got.real(), got.imag()) - want) <= 1e-6 * std::abs(want));
    // along each dimension
    const DevT<CD> rows = t7::sum(z, 1), cols = t7::sum(z, 0);
    CHECK(rows.sizes() == Shape{6, 1});
    check_complex(
        rows,
        [&](int64_t r) {
            CD acc = 0;
            for (int64_t c = 0; c < 40; ++c) acc += h.data()[r * 40 + c];
            return acc;
        },
        1e-13);
    check_complex(
        cols,
        [&](int64_t c) {
            CD acc = 0;
            for (int64_t r = 0; r < 6; ++r) acc += h.data()[r * 40 + c];
            return acc;
        },
        1e-13);
}

// The DFT of the n values line(0..n-1) by its definition: term k of sum_j x_j
// e^(-+2 pi i j k / n), in long double.
template <class F>
CD dft_term(F line, int64_t n, int64_t k, bool inverse) {
    const long double pi = 3.141592653589793238462643383279502884L;
    long double re = 0, im = 0;
    for (int64_t j = 0; j < n; ++j) {
        const long double a = (inverse ? 2 : -2) * pi * (long double)((j * k) % n) / n;
        const CD x = line(j);
        re += x.real() * std::cos(a) - x.imag() * std::sin(a);
        im += x.real() * std::sin(a) + x.imag() * std::cos(a);
    }
    return CD(double(re), double(im));
}

TEST_CASE("cuda complex: fft and ifft along each dimension, cut, padded, normalised") {
    const HostT<CD> h = host_complex<CD>({6, 10});
    const DevT<CD> z = h.cuda();
    const auto H = [&](int64_t r, int64_t c) { return h.data()[r * 10 + c]; };
    // along the last dimension (contiguous lines)
    const DevT<CD> f1 = t7::fft(z);
    CHECK(f1.sizes() == Shape{6, 10});
    check_complex(
        f1,
        [&](int64_t i) {
            return dft_term([&](int64_t j) { return H(i / 10, j); }, 10, i % 10, false);
        },
        1e-12);
    // along dimension 0 (strided lines), padded to 8 points, ortho
    const DevT<CD> f0 = t7::fft(z, 8, 0, t7::FftNorm::ortho);
    CHECK(f0.sizes() == Shape{8, 10});
    check_complex(
        f0,
        [&](int64_t i) {
            const auto line = [&](int64_t j) { return j < 6 ? H(j, i % 10) : CD(0); };
            return dft_term(line, 8, i / 10, false) / std::sqrt(8.0);
        },
        1e-12);
    // ifft, cut to 4 points: (1/4) sum with the positive sign
    const DevT<CD> i1 = t7::ifft(z, 4);
    check_complex(
        i1,
        [&](int64_t i) {
            return dft_term([&](int64_t j) { return H(i / 4, j); }, 4, i % 4, true) / 4.0;
        },
        1e-12);
    // round trip, and fft2 against the 2-D definition (complex<float>, a real input)
    check_complex(
        t7::ifft(t7::fft(z, -1, 0), -1, 0), [&](int64_t i) { return h.data()[i]; }, 1e-12);
    const HostT<float> hr = host<float>({4, 6}, wave);
    const DevT<CF> f2 = t7::fft2(hr.cuda());
    check_complex(
        f2,
        [&](int64_t i) {
            const int64_t k0 = i / 6, k1 = i % 6;
            CD acc = 0;
            for (int64_t r = 0; r < 4; ++r)
                acc += dft_term([&](int64_t j) { return CD(hr.data()[r * 6 + j]); }, 6, k1, false) *
                       std::polar(1.0, -2 * 3.14159265358979323846 * double(r * k0 % 4) / 4);
            return acc;
        },
        2e-6);
    check_complex(
        t7::ifftn(t7::fftn(z)), [&](int64_t i) { return h.data()[i]; }, 1e-12);
    // errors: no dimension, a dimension out of range, no points
    CHECK_THROWS_AS(t7::fft(DevT<CD>()), t7::ShapeError);
    CHECK_THROWS_AS(t7::fft(z, -1, 2), t7::IndexError);
    CHECK_THROWS_AS(t7::fft(z, 0), t7::ShapeError);
}

TEST_CASE("cuda complex: rfft and irfft, float and double") {
    const HostT<double> h = host<double>({3, 9}, wave);
    const DevT<double> x = h.cuda();
    const DevT<CD> r = t7::rfft(x);
    CHECK(r.sizes() == Shape{3, 5});
    check_complex(
        r,
        [&](int64_t i) {
            return dft_term([&](int64_t j) { return CD(h.data()[(i / 5) * 9 + j]); }, 9, i % 5,
                            false);
        },
        1e-12);
    // back to 9 real values (an odd n), and a transposed float input along dim 0
    const DevT<double> back = t7::irfft(r, 9);
    CHECK(back.sizes() == Shape{3, 9});
    check_close(
        back, [&](int64_t i) { return h.data()[i]; }, 1e-12);
    const HostT<float> hf = host<float>({8, 3}, wave);
    const DevT<CF> rf = t7::rfft(hf.cuda(), -1, 0);
    CHECK(rf.sizes() == Shape{5, 3});
    check_complex(
        rf,
        [&](int64_t i) {
            return dft_term([&](int64_t j) { return CD(hf.data()[j * 3 + i % 3]); }, 8, i / 3,
                            false);
        },
        2e-6);
    const DevT<float> backf = t7::irfft(rf, -1, 0);
    CHECK(backf.sizes() == Shape{8, 3});
    check_close(
        backf, [&](int64_t i) { return double(hf.data()[i]); }, 2e-6);
    // irfftn's default length is 2 (m - 1): an even last dimension comes back whole
    const HostT<double> h8 = host<double>({3, 8}, wave);
    check_close(
        t7::irfftn(t7::rfftn(h8.cuda())), [&](int64_t i) { return h8.data()[i]; }, 1e-12);
}

// Element i (row-major) of the running sum (or schoolbook product) along d of the
// host view x, by a loop in complex<double>.
template <class C>
CD scan_ref(const HostT<C>& x, int64_t d, int64_t i, bool mul) {
    int64_t inner = 1;
    for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.size(k);
    const int64_t pos = (i / inner) % x.size(d), start = i - pos * inner;
    CD acc(at(x, start));
    for (int64_t k = 1; k <= pos; ++k) {
        const CD v(at(x, start + k * inner));
        acc = mul ? mul_ref(acc, v) : acc + v;
    }
    return acc;
}

// cumsum and cumprod along every dimension of g (the device copy of the host view
// h), as new tensors and into a transposed destination.
template <class C>
void check_scans_of(const DevT<C>& g, const HostT<C>& h, double tol) {
    for (int64_t d = 0; d < g.dim(); ++d) {
        const DevT<C> s = t7::cumsum(g, d), p = t7::cumprod(g, d);
        CHECK(s.sizes() == g.sizes());
        CHECK(p.sizes() == g.sizes());
        check_complex(
            s, [&](int64_t i) { return scan_ref(h, d, i, false); }, tol);
        check_complex(
            p, [&](int64_t i) { return scan_ref(h, d, i, true); }, tol);
        // into a destination laid out the other way round: it keeps its strides
        Shape rev = g.sizes();
        std::reverse(rev.begin(), rev.end());
        DevT<C> base(rev);
        DevT<C> out = g.dim() == 3 ? base.permute({2, 1, 0}) : base.t();
        const Shape strides = out.strides();
        t7::cumprod(out, g, d);
        CHECK(out.strides() == strides);
        check_complex(
            DevT<C>(out.contiguous()), [&](int64_t i) { return scan_ref(h, d, i, true); }, tol);
    }
}

template <class C>
void check_scans(double tol) {
    const HostT<C> h = host_complex<C>({3, 4, 5});
    check_scans_of(h.cuda(), h, tol);
    // views: transposed and narrowed (strided lines), and a reversed-stride column walk
    const DevT<C> g = h.cuda();
    check_scans_of(DevT<C>(g.transpose(0, 2).narrow(1, 1, 3)),
                   HostT<C>(h.transpose(0, 2).narrow(1, 1, 3)), tol);
    const HostT<C> m = host_complex<C>({7, 6});
    check_scans_of(DevT<C>(m.cuda().narrow(1, 2, 3).t()), HostT<C>(m.narrow(1, 2, 3).t()), tol);
    // a dimension of one element, an empty tensor
    const HostT<C> one = host_complex<C>({1, 4});
    check_scans_of(one.cuda(), one, tol);
    const DevT<C> none(0, 3);
    CHECK(t7::cumsum(none, 1).sizes() == Shape{0, 3});
    CHECK_THROWS_AS(t7::cumsum(g, 3), t7::IndexError);
}

TEST_CASE("cuda complex: cumsum and cumprod along every dimension, on views, into results") {
    check_scans<CF>(2e-6);
    check_scans<CD>(1e-14);
}

// Layout k of an 8 x 7 tensor: whole, transposed, narrowed, stepped (chosen at run
// time: one instantiation of the fills per type, not one per layout).
template <class X>
X fill_layout(const X& x, int k) {
    switch (k) {
    case 0:
        return x;
    case 1:
        return x.t();
    case 2:
        return x.narrow(1, 1, 5).narrow(0, 1, 6);
    default:
        return x(t7::slice(0, 8, 3), t7::slice(1, 7, 2));
    }
}

// After manualSeed(1234), two fills of layout k of an 8 x 7 base (holding
// host_complex's values first) on the GPU and on the CPU: the whole bases, both
// parts, within tol, and the generators' offsets, agree.
template <class C, class Fill>
void check_complex_fill(int k, Fill fill, double tol) {
    t7::manualSeed(1234);
    HostT<C> h = host_complex<C>({8, 7});
    for (int r = 0; r < 2; ++r) {
        HostT<C> v = fill_layout(h, k);
        fill(v);
    }
    const t7::RNGState cpu_state = t7::defaultGenerator<t7::CPU>().state();
    t7::manualSeed(1234);
    DevT<C> g = host_complex<C>({8, 7}).cuda();
    for (int r = 0; r < 2; ++r) {
        DevT<C> v = fill_layout(g, k);
        fill(v);
    }
    check_complex(
        g, [&](int64_t i) { return CD(h.data()[i]); }, tol);
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == cpu_state);
}

// Every fill on every layout: what the CPU does with a complex tensor (math/random.hpp:
// normal draws both parts N(mean, stdv^2 / 2); the others the real part, imaginary 0).
template <class C>
void check_complex_fills() {
    // the fills through libm (log, tan, exp, sin, cos) may differ in the last bits on a GPU
    const double libm_tol = T7_GPU_EMULATED ? 0 : 1e-6;
    const auto each_layout = [&](auto fill, double tol) {
        for (int k = 0; k < 4; ++k) check_complex_fill<C>(k, fill, tol);
    };
    each_layout([](auto& x) { x.uniform(-2, 3); }, 0);
    each_layout([](auto& x) { x.normal(1.5, 2); }, libm_tol);
    each_layout([](auto& x) { x.bernoulli(0.3); }, 0);
    each_layout([](auto& x) { x.random(); }, 0);
    each_layout([](auto& x) { x.random(-3, 40); }, 0);
    each_layout([](auto& x) { x.exponential(2); }, libm_tol);
    each_layout([](auto& x) { x.cauchy(1, 0.5); }, libm_tol);
    each_layout([](auto& x) { x.logNormal(0.5, 0.25); }, libm_tol);
    each_layout([](auto& x) { x.geometric(0.3); }, 0);
    // a user's generator, and the factory randn: parts N(0, 1/2)
    t7::Generator a(77), b(77);
    HostT<C> h(5, 3);
    DevT<C> g(5, 3);
    h.exponential(a, 0.5);
    g.exponential(b, 0.5);
    check_complex(
        g, [&](int64_t i) { return CD(h.data()[i]); }, libm_tol);
    CHECK(a.state() == b.state());
    t7::manualSeed(5);
    const HostT<C> rh = t7::randn<C>(6, 5);
    t7::manualSeed(5);
    const DevT<C> rg = t7::randn<C, t7::CUDA>(6, 5);
    check_complex(
        rg, [&](int64_t i) { return CD(rh.data()[i]); }, libm_tol);
    // the parameters are checked before anything is drawn or written
    t7::manualSeed(1);
    DevT<C> z = host_complex<C>({3}).cuda();
    CHECK_THROWS_AS(z.uniform(2, 1), t7::Error);
    CHECK_THROWS_AS(z.geometric(1.5), t7::Error);
    CHECK_THROWS_AS(z.random(4, 4), t7::Error);
    CHECK(t7::defaultGenerator<t7::CUDA>(0).state() == t7::RNGState{1, 0});
    check_complex(
        z, [](int64_t i) { return CD(host_complex<C>({3}).data()[i]); }, 0);
}

TEST_CASE("cuda complex: random fills equal the CPU's after the same seed, on every layout") {
    check_complex_fills<CF>();
    check_complex_fills<CD>();
}

TEST_CASE("cuda complex: the library's kernels without a complex version refuse the tag") {
    namespace rt = t7::cuda::rt;
    DevT<CF> z(4);
    z.zero();
    rt::Strided2 s;
    s.rank = 1;
    s.numel = 4;
    s.size[0] = 4;
    s.stride[0][0] = s.stride[1][0] = 1;
    // a complex normal draws its parts through real views, never as a complex tag
    rt::RandomDraw draw;
    draw.kind = rt::RandomKind::normal;
    draw.param[1] = 1;
    CHECK_THROWS_AS(rt::random_fill(z.data(), t7::DType::c64, draw, s, 0), t7::TypeError);
    // sorting (the ordering operations do not compile on complex CUDA tensors)
    DevT<CF> v(4);
    DevT<int64_t> ix(4);
    rt::Strided3 lines;
    lines.rank = 1;
    lines.numel = 1;
    lines.size[0] = 1;
    const std::string msg = error_of<t7::TypeError>([&] {
        rt::sort_lines(t7::DType::c64, z.data(), v.data(), ix.data(), lines, 4, 1, 4, 1, 1, false,
                       0);
    });
    CHECK(msg.find("ComplexFloat") != std::string::npos);
    check_complex(
        z, [](int64_t) { return CD(0); }, 0);
}

// The into-result forms against the new-tensor forms (checked against the DFT's
// definition and, in test_thrust_host_complex.cpp, the CPU's): fresh, in place, into
// overlapping and strided destinations; a wrong type or size leaves out unchanged.
template <class C>
void check_fft_into(double tol) {
    using R = typename C::value_type;
    const HostT<C> h = host_complex<C>({4, 6});
    const DevT<C> z = h.cuda();
    const auto same = [&](const DevT<C>& got, const DevT<C>& want) {
        REQUIRE(got.sizes() == want.sizes());
        const HostT<C> w = want.cpu();
        check_complex(
            got, [&](int64_t i) { return CD(w.data()[i]); }, tol);
    };
    // into an empty tensor (sized), into a transposed one (it keeps its strides)
    DevT<C> out;
    CHECK(&t7::fft(out, z, 8, 0) == &out);
    same(out, t7::fft(z, 8, 0));
    DevT<C> base(6, 4);
    DevT<C> tr = base.t();
    t7::ifft(tr, z, -1, 1, t7::FftNorm::ortho);
    CHECK(tr.strides() == Shape{1, 4});
    same(tr, t7::ifft(z, -1, 1, t7::FftNorm::ortho));
    // in place (out is x), along each dimension
    for (int64_t d = 0; d < 2; ++d) {
        DevT<C> x = z.clone();
        t7::fft(x, x, -1, d);
        same(x, t7::fft(z, -1, d));
    }
    // out overlapping x in another layout: rows 2..5 of a 6 x 6 tensor from rows 0..3
    DevT<C> big = host_complex<C>({6, 6}).cuda();
    const DevT<C> x0 = big.narrow(0, 0, 4).clone();
    DevT<C> dst = big.narrow(0, 2, 4);
    t7::fft(dst, big.narrow(0, 0, 4), -1, 0);
    same(dst, t7::fft(x0, -1, 0));
    // rfft and irfft, and fft of real values, into given tensors
    const DevT<R> xr = host<R>({5, 6}, wave).cuda();
    DevT<C> rs(3, 6);
    t7::rfft(rs, xr, -1, 0);
    same(rs, t7::rfft(xr, -1, 0));
    DevT<R> back;
    t7::irfft(back, rs, 5, 0);
    CHECK(back.sizes() == Shape{5, 6});
    check_close(
        back, [&](int64_t i) { return wave(i); }, tol);
    DevT<C> fr;
    t7::fft(fr, xr);
    same(fr, t7::fft(xr));
    // the n-dimensional forms
    DevT<C> n1, n2(4, 6), n3;
    t7::fftn(n1, z, {});
    same(n1, t7::fftn(z));
    t7::ifft2(n2, z, {-2, -1}, t7::FftNorm::forward);
    same(n2, t7::ifft2(z, {-2, -1}, t7::FftNorm::forward));
    t7::rfftn(n3, xr, {0, 1});
    same(n3, t7::rfftn(xr, {0, 1}));
    DevT<R> n4;
    t7::irfftn(n4, n3, {0, 1});
    const DevT<R> w4 = t7::irfftn(n3, {0, 1});
    CHECK(n4.sizes() == w4.sizes());
    check_close(
        n4, [&, w = values(w4)](int64_t i) { return w[size_t(i)]; }, tol);
    // errors: out unchanged
    using Other = std::conditional_t<std::is_same_v<R, float>, CD, CF>;
    DevT<Other> wrong = host_complex<Other>({4, 6}).cuda();
    CHECK_THROWS_AS(t7::fft(wrong, z), t7::TypeError);
    CHECK_THROWS_AS(t7::fftn(wrong, z, {}), t7::TypeError);
    check_complex(
        wrong,
        [](int64_t i) {
            return CD(host_complex<Other>({4, 6}).data()[i]);
        },
        0);
    DevT<C> small = host_complex<C>({4, 5}).cuda();
    CHECK_THROWS_AS(t7::fft(small, z), t7::ShapeError);
    CHECK_THROWS_AS(t7::rfft(small, xr), t7::ShapeError);
    CHECK_THROWS_AS(t7::fft2(small, z, {0, 1}), t7::ShapeError);
    const std::string msg = error_of<t7::ShapeError>([&] { t7::ifft(small, z, 7); });
    CHECK(msg == "ifft: the result has size 4x7 but out has size 4x5");
    check_complex(
        small,
        [](int64_t i) {
            return CD(host_complex<C>({4, 5}).data()[i]);
        },
        0);
    DevT<R> real_out = host<R>({5, 6}, wave).cuda();
    CHECK_THROWS_AS(t7::rfft(real_out, xr), t7::TypeError);
    CHECK_THROWS_AS(t7::fft(real_out, xr), t7::TypeError);
    DevT<C> cplx_out(5, 6);
    CHECK_THROWS_AS(t7::irfft(cplx_out, rs, 5, 0), t7::TypeError);
    check_close(
        real_out, [](int64_t i) { return double(R(wave(i))); }, 0);
    CHECK_THROWS_AS(t7::fft(out, z, 0), t7::ShapeError);
    CHECK_THROWS_AS(t7::fft(out, z, -1, 2), t7::IndexError);
    // a fresh result goes to x's device; into a tensor on another device
    if (two_devices()) {
        const DevT<C> z1 = h.cuda(1);
        DevT<C> o1;
        t7::fft(o1, z1);
        CHECK(o1.getDevice() == 1);
        same(o1, t7::fft(z));
        DevT<C> o0(4, 6);
        t7::fft(o0, z1);
        CHECK(o0.getDevice() == 0);
        same(o0, t7::fft(z));
    }
}

TEST_CASE("cuda complex: the transforms into a given tensor") {
    check_fft_into<CF>(2e-6);
    check_fft_into<CD>(1e-13);
}

// C(i, j) = sum_k A(i, k) B(k, j) of host matrices given by element functions.
template <class FA, class FB>
CD product_ref(int64_t i, int64_t j, int64_t k, FA a, FB b) {
    CD acc(0);
    for (int64_t p = 0; p < k; ++p) acc += mul_ref(a(i, p), b(p, j));
    return acc;
}

template <class C>
void check_products(double tol) {
    const HostT<C> a = host_complex<C>({3, 4}), b = host_complex<C>({4, 5});
    const HostT<C> at = host_complex<C>({4, 3}); // used transposed
    auto A = [&](int64_t i, int64_t p) { return CD(a.data()[i * 4 + p]); };
    auto AT = [&](int64_t i, int64_t p) { return CD(at.data()[p * 3 + i]); };
    auto B = [&](int64_t p, int64_t j) { return CD(b.data()[p * 5 + j]); };
    const DevT<C> ga = a.cuda(), gb = b.cuda();
    check_complex(
        DevT<C>(t7::mm(ga, gb)), [&](int64_t i) { return product_ref(i / 5, i % 5, 4, A, B); },
        tol);
    check_complex(
        DevT<C>(t7::mm(at.cuda().t(), gb)),
        [&](int64_t i) { return product_ref(i / 5, i % 5, 4, AT, B); }, tol);
    // into a transposed destination (C^T = B^T A^T), and addmm reading beta * C
    DevT<C> ct(5, 3);
    DevT<C> c = ct.t();
    c = t7::mm(ga, gb);
    check_complex(
        ct, [&](int64_t i) { return product_ref(i % 3, i / 3, 4, A, B); }, tol);
    DevT<C> c0(3, 5);
    c0.fill(C(1, -1));
    check_complex(
        DevT<C>(t7::addmm(c0, ga, gb)),
        [&](int64_t i) { return product_ref(i / 5, i % 5, 4, A, B) + CD(1, -1); }, tol);
    // mv, and a batch of two products
    const HostT<C> v = host_complex<C>({4});
    auto V = [&](int64_t p, int64_t) { return CD(v.data()[p]); };
    check_complex(
        DevT<C>(t7::mv(ga, v.cuda())), [&](int64_t i) { return product_ref(i, 0, 4, A, V); }, tol);
    const HostT<C> ba = host_complex<C>({2, 3, 4}), bb = host_complex<C>({2, 4, 5});
    check_complex(
        DevT<C>(t7::bmm(ba.cuda(), bb.cuda())),
        [&](int64_t i) {
            const int64_t q = i / 15, r = i % 15;
            return product_ref(
                r / 5, r % 5, 4,
                [&](int64_t x, int64_t p) { return CD(ba.data()[q * 12 + x * 4 + p]); },
                [&](int64_t p, int64_t y) { return CD(bb.data()[q * 20 + p * 5 + y]); });
        },
        tol);
}

TEST_CASE("cuda complex: mm, addmm, mv and bmm against loops") {
    check_products<CF>(1e-5);
    check_products<CD>(1e-13);
}

TEST_CASE("cuda complex: printing") {
    HostT<CD> h(2);
    h.data()[0] = CD(1, -2);
    h.data()[1] = CD(0.5, 0);
    const DevT<CD> g = h.cuda();
    std::string want = t7::to_string(h);
    const size_t at = want.find("torch.ComplexDoubleTensor");
    REQUIRE(at != std::string::npos);
    want.replace(at, 25, "torch.CudaComplexDoubleTensor");
    CHECK(t7::to_string(g) == want);
    CHECK(want.find("[torch.CudaComplexDoubleTensor of size 2]") != std::string::npos);
}

} // namespace cuda_tests
