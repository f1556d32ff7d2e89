// Misuse, complex numbers (issue 42): what a hostile user tries on the complex types.
// Sizes whose byte counts overflow sooner (16-byte elements), complex values forced
// into real and integer tensors, hostile .npy complex files, FFT lengths and
// dimensions out of range, and the special values of the arithmetic. Each throws
// its t7::Error subclass with nothing written, or gives the documented answer.
// Few distinct expression types on purpose: this file compiles with the others.
#include <t7/fft.hpp>
#include <t7/io/npy.hpp>
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "file_bytes.hpp"
#include "test_util.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>

using namespace t7;
using test_util::message_of;

namespace {

using Z = std::complex<double>;
using CF = std::complex<float>;
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

ComplexDoubleTensor ramp(int64_t n) {
    ComplexDoubleTensor z(n);
    for (int64_t k = 0; k < n; ++k) z.data()[k] = Z(double(k + 1), -double(k));
    return z;
}

bool same(const ComplexDoubleTensor& a, const ComplexDoubleTensor& b) {
    if (a.sizes() != b.sizes()) return false;
    for (int64_t k = 0; k < a.nElement(); ++k)
        if (a.data()[k] != b.data()[k]) return false;
    return true;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != s.npos; }

std::string npy(const std::string& descr, const std::string& shape, size_t data_bytes) {
    return test_util::npy_file("{'descr': '" + descr +
                                   "', 'fortran_order': False, 'shape': " + shape + ", }",
                               std::string(data_bytes, '\0'));
}

} // namespace

TEST_CASE("complex sizes: byte counts that overflow int64 or cannot be mapped") {
    // 2^60 elements of 16 bytes are 2^64 bytes: the element count fits int64, the bytes
    // do not.
    CHECK_THROWS_AS(ComplexDoubleTensor(int64_t(1) << 60), MemoryError);
    CHECK_THROWS_AS(ComplexDoubleTensor(int64_t(1) << 59, 2), MemoryError);
    CHECK_THROWS_AS(ComplexFloatTensor(int64_t(1) << 61), MemoryError);
    // 2^45 complex floats are 2^48 bytes (256 TiB): beyond a 47-bit address space
    CHECK_THROWS_AS(ComplexFloatTensor(int64_t(1) << 45), MemoryError);
    ComplexDoubleTensor z = ramp(3);
    const ComplexDoubleTensor before = z.clone();
    CHECK_THROWS_AS(z.resize(int64_t(1) << 60), MemoryError);
    CHECK(same(z, before));
}

TEST_CASE("complex values never become real or integer silently; destinations unchanged") {
    const ComplexDoubleTensor z = ramp(4);
    DoubleTensor r(4);
    r.fill(7);
    IntTensor i(4);
    i.fill(7);
    CHECK(has(message_of<TypeError>([&] { r = z; }), "t7::real"));
    CHECK(has(message_of<TypeError>([&] { i = z * 2.0; }), "t7::abs"));
    CHECK_THROWS_AS(r.copy(z), TypeError);
    CHECK_THROWS_AS(i.copy(ComplexDoubleTensor(t7::conj(z))), TypeError);
    CHECK_THROWS_AS(r.narrow(0, 1, 2) = z.narrow(0, 0, 2) + 1.0, TypeError);
    for (int64_t k = 0; k < 4; ++k) {
        CHECK(r(k) == 7);
        CHECK(i(k) == 7);
    }
    // Asking by name is allowed: t7::cast keeps the real part (NumPy's astype), and
    // the real part converts to integers by the real rule (NaN is 0, out of range
    // wraps in the narrow types), never C++'s undefined conversion (UBSan checks).
    ComplexDoubleTensor odd(4);
    odd.data()[0] = Z(not_a_number, 1);
    odd.data()[1] = Z(1e30, 0);
    odd.data()[2] = Z(-2.7, 5);
    odd.data()[3] = Z(inf, not_a_number);
    const IntTensor ints = t7::cast<int32_t>(odd);
    CHECK(ints(0) == 0);
    CHECK(ints(1) == 0);
    CHECK(ints(2) == -2);
    CHECK(ints(3) == 0);
}

TEST_CASE("complex .npy files: hostile headers are an IOError, real types a TypeError") {
    // byte counts that overflow int64 at 16 bytes an element, and a short file
    CHECK_THROWS_AS(fromNpy<Z>(npy("<c16", "(576460752303423488,)", 0)), IOError); // 2^59
    CHECK_THROWS_AS(fromNpy<Z>(npy("<c16", "(4294967296, 4294967296)", 0)), IOError);
    CHECK_THROWS_AS(fromNpy<Z>(npy("<c16", "(3,)", 40)), IOError);
    CHECK_THROWS_AS(fromNpy<CF>(npy("<c8", "(2, 2)", 31)), IOError);
    // the right bytes load; NumPy's complex256 is refused by name
    CHECK(fromNpy<Z>(npy("<c16", "(3,)", 48)).sizes() == Shape{3});
    CHECK_THROWS_AS(fromNpy<Z>(npy("<c32", "(3,)", 96)), IOError);
    // complex files into real or integer types: TypeError (the imaginary parts would go)
    CHECK_THROWS_AS(fromNpy<double>(npy("<c16", "(3,)", 48)), TypeError);
    CHECK_THROWS_AS(fromNpy<uint8_t>(npy("<c8", "(3,)", 24)), TypeError);
}

TEST_CASE("FFT: lengths and dimensions out of range, the destination unchanged") {
    const ComplexDoubleTensor x = ramp(8);
    ComplexDoubleTensor out = ramp(8);
    const ComplexDoubleTensor before = out.clone();
    // n whose transform cannot be held: 2^62 points of 16 bytes, and int64's limit
    // (into out: its size is wrong; into a new tensor: it cannot be allocated)
    CHECK_THROWS_AS(t7::fft(out, x, int64_t(1) << 62), ShapeError);
    CHECK_THROWS_AS(t7::fft(out, x, std::numeric_limits<int64_t>::max()), ShapeError);
    CHECK_THROWS_AS(t7::fft(x, std::numeric_limits<int64_t>::max()), MemoryError);
    CHECK_THROWS_AS(t7::fft(out, x, 0), ShapeError);
    CHECK_THROWS_AS(t7::fft(out, x, -5), ShapeError);
    CHECK_THROWS_AS(t7::fft(out, x, -1, 1), IndexError);
    CHECK_THROWS_AS(t7::fft(out, x, -1, std::numeric_limits<int64_t>::min()), IndexError);
    CHECK_THROWS_AS(t7::irfft(x, std::numeric_limits<int64_t>::max()), MemoryError);
    DoubleTensor real_out(8);
    CHECK_THROWS_AS(t7::fft(real_out, x), TypeError);
    CHECK(same(out, before));
    // NaN and infinity propagate as arithmetic says, with no trap or hang: every
    // output of a length-4 transform reads x[1]
    ComplexDoubleTensor s(4);
    s.zero();
    s.data()[1] = Z(not_a_number, 0);
    const ComplexDoubleTensor f = t7::fft(s);
    for (int64_t k = 0; k < 4; ++k) CHECK(std::isnan(std::abs(f.data()[k])));
}

TEST_CASE("complex special values: NumPy's answers bit for bit, no spurious overflow") {
    // NumPy 1.24's complex128 values (printed with float.hex()): Smith's quotient
    ComplexDoubleTensor a(4), b(4);
    a.data()[0] = Z(1, 1), b.data()[0] = Z(0, 0);                 // division by zero: inf
    a.data()[1] = Z(1e308, 1e308), b.data()[1] = Z(1e308, 1e308); // the scaled
    a.data()[2] = Z(1e-300, 1e-300), b.data()[2] = Z(1e-300, 0);  // denominator overflows
    a.data()[3] = Z(inf, 0), b.data()[3] = Z(2, 0);
    const ComplexDoubleTensor q = a / b;
    CHECK(std::isinf(q.data()[0].real()));
    CHECK(std::isnan(q.data()[1].real())); // NumPy: nan+0j
    CHECK(q.data()[1].imag() == 0);
    CHECK(q.data()[2] == Z(0x1.fffffffffffffp-1, 0x1.fffffffffffffp-1));
    CHECK(q.data()[3].real() == inf);
    // |z| of parts near the largest double: finite (hypot's scaling); of subnormal
    // parts: NumPy's subnormal, not 0
    ComplexDoubleTensor big(2);
    big.data()[0] = Z(1e308, 1e308);
    big.data()[1] = Z(3e-320, 4e-320);
    const DoubleTensor m = t7::abs(big);
    CHECK(m(0) == 0x1.92c80954c51f5p+1023);
    CHECK(m(1) == 0x0.0000000002788p-1022);
}

TEST_CASE("real and imag views outlive their tensor") {
    DoubleTensor re; // re = t7::real(z) would copy the values: set() takes the view
    {
        ComplexDoubleTensor z = ramp(3);
        re.set(t7::real(z));
    } // z is gone: its storage lives on in the view
    CHECK(re(2) == 3);
    re(2) = 9;
    CHECK(re(2) == 9);
    CHECK(re.stride(0) == 2);
}

TEST_CASE("a complex tensor's storage does not move while real or imag views hold it") {
    ComplexDoubleTensor z = ramp(3);
    const ComplexDoubleTensor before = z.clone();
    {
        const DoubleTensor im = t7::imag(z);
        CHECK(test_util::message_of<ShapeError>([&] { z.resize(1000); }).find("t7::imag") !=
              std::string::npos);
        CHECK(same(z, before));
        CHECK(im(1) == -1);
    }
    z.resize(1000); // the view is gone
    CHECK(z.nElement() == 1000);
    CHECK(z.data()[2] == Z(3, -2));
}
