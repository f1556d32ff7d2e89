// NumPy .npy files (io/npy.hpp): files NumPy 1.24 wrote (tests/data/npy, made by
// make_npy.py there) load with the right values in every dtype, version, order and
// byte order; saveNpy writes NumPy's exact bytes, views in logical order; malformed
// files fail with an IOError naming the byte offset. Bool and float16 files load as
// ByteTensor and FloatTensor; loadNpyAny gives the file's own type.
#include <t7/io/file.hpp>
#include <t7/io/npy.hpp>
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "file_bytes.hpp"
#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace t7;
using test_util::iota;
using test_util::npy_file;
using test_util::Values;
using test_util::values;
namespace fs = std::filesystem;

namespace {

std::string npy(const std::string& name) {
    const char* d = std::getenv("T7_TEST_DATA");
    return std::string(d ? d : "tests/data") + "/npy/" + name;
}
std::string bytes_of(const std::string& path) { return detail::read_file(path, "test"); }

template <class T>
Tensor<T> seq(const Shape& sizes, double start = 1, double step = 1) {
    Tensor<T> t(sizes);
    for (int64_t i = 0; i < t.nElement(); ++i) t.storage()[i] = T(start + step * double(i));
    return t;
}

// The message of the IOError f must throw.
template <class F>
std::string io_error(F&& f) {
    return test_util::message_of<IOError>(std::forward<F>(f));
}
bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// NumPy's type code of T: "u1", "i1", "i2", "i4", "i8", "f4", "f8".
template <class T>
std::string code() {
    return (std::is_floating_point_v<T> ? "f"
            : std::is_signed_v<T>       ? "i"
                                        : "u") +
           std::to_string(sizeof(T));
}
// The 2x3 fixtures' values (make_npy.py): 50*i for u1, 7*i - 20 otherwise.
template <class T>
Values expected_2x3() {
    Values v;
    for (int i = 0; i < 6; ++i)
        v.push_back(sizeof(T) == 1 && !std::is_signed_v<T> ? 50 * i : 7 * i - 20);
    return v;
}

} // namespace

TEST_CASE_TEMPLATE("npy: NumPy's files load in every dtype, C and Fortran order", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double) {
    Tensor<T> c = loadNpy<T>(npy(code<T>() + "_2x3.npy"));
    CHECK(c.sizes() == Shape{2, 3});
    CHECK(c.isContiguous());
    CHECK(values(c) == expected_2x3<T>());
    Tensor<T> f = loadNpy<T>(npy(code<T>() + "_2x3_fortran.npy"));
    CHECK(f.sizes() == Shape{2, 3});
    CHECK(values(f) == expected_2x3<T>());
    CHECK(f.isContiguous()); // loaded into C order
}

TEST_CASE_TEMPLATE("npy: saveNpy writes NumPy's bytes; round trips of every layout", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double) {
    Tensor<T> x(2, 3);
    Values e = expected_2x3<T>();
    for (int i = 0; i < 6; ++i) x.storage()[i] = T(e[size_t(i)]);
    CHECK(toNpy(x) == bytes_of(npy(code<T>() + "_2x3.npy")));
    // a Fortran-ordered view (x's transpose, transposed back) is written in logical order
    Tensor<T> xt = x.t().clone().t();
    CHECK(!xt.isContiguous());
    CHECK(toNpy(xt) == bytes_of(npy(code<T>() + "_2x3.npy")));

    Tensor<T> base = seq<T>({4, 5, 3});
    std::vector<Tensor<T>> views = {base, base.transpose(0, 2), base.narrow(1, 2, 3).select(2, 1),
                                    seq<T>({3, 1}).expand(3, 4), seq<T>({7})};
    std::string p = (fs::temp_directory_path() / ("t7_test_npy_" + code<T>() + ".npy")).string();
    for (const auto& v : views) {
        saveNpy(p, v);
        Tensor<T> r = loadNpy<T>(p);
        CHECK(r.sizes() == v.sizes());
        CHECK(r.isContiguous());
        CHECK(values(r) == values(v));
    }
    fs::remove(p);
    // an empty tensor is an array with no elements, and loads back empty
    Tensor<T> r = fromNpy<T>(toNpy(Tensor<T>()));
    CHECK(r.sizes() == Shape{0});
    CHECK(has(toNpy(Tensor<T>()), "'shape': (0,)"));
}

TEST_CASE("npy: versions, byte order, 0-d and empty arrays, 3-D") {
    DoubleTensor v2 = loadNpy<double>(npy("f8_3x4_v2.npy"));
    CHECK(v2.sizes() == Shape{3, 4});
    CHECK(values(v2) == values(seq<double>({3, 4})));
    LongTensor v3 = loadNpy<int64_t>(npy("i8_5_v3.npy"));
    CHECK(values(v3) == Values{-2, -1, 0, 1, 2});
    CHECK(values(loadNpy<double>(npy("f8_3_big_endian.npy"))) == Values{1.5, -2.25, 1e300});
    CHECK(values(loadNpy<int32_t>(npy("i4_3_big_endian.npy"))) == Values{1, -2, 70000});
    FloatTensor s = loadNpy<float>(npy("f4_scalar.npy")); // Torch7 has no 0-d tensors
    CHECK(s.sizes() == Shape{1});
    CHECK(s(0) == 3.5f);
    CHECK(loadNpy<double>(npy("f8_empty.npy")).sizes() == Shape{0}); // empty dimensions kept
    CHECK(loadNpy<int32_t>(npy("i4_0x3.npy")).sizes() == Shape{0, 3});
    FloatTensor f3 = loadNpy<float>(npy("f4_2x3x4.npy"));
    CHECK(f3.sizes() == Shape{2, 3, 4});
    CHECK(values(f3) == values(seq<float>({2, 3, 4}, 0, 0.25)));
    ShortTensor i3 = loadNpy<int16_t>(npy("i2_2x3x4_fortran.npy"));
    CHECK(i3.sizes() == Shape{2, 3, 4});
    CHECK(values(i3) == values(seq<int16_t>({2, 3, 4}, 0)));
    // NumPy saves a transposed array in Fortran order
    DoubleTensor tf = loadNpy<double>(npy("f8_3x4_T.npy"));
    DoubleTensor expect = seq<double>({3, 4}, 0).t();
    CHECK(tf.sizes() == Shape{4, 3});
    CHECK(values(tf) == values(expect));
    // and the logical-order bytes of that view are NumPy's C-order copy
    CHECK(toNpy(expect) == bytes_of(npy("f8_4x3_Tc.npy")));
    CHECK(toNpy(seq<float>({2, 3, 4}, 0, 0.25)) == bytes_of(npy("f4_2x3x4.npy")));
    // a header longer than 65535 bytes (25000 dimensions) needs version 2.0
    std::string big = toNpy(Tensor<uint8_t>(Shape(25000, 1)));
    CHECK(big[6] == 2);
    uint32_t hlen = 0;
    std::memcpy(&hlen, big.data() + 8, 4);
    CHECK((12 + hlen) % 64 == 0);
    CHECK(big.size() == 12 + hlen + 1);
    CHECK(toNpy(seq<double>({3})).at(6) == 1);
}

TEST_CASE("npy: another dtype converts when every value does, else TypeError") {
    // 7i - 20 are floats and int32s exactly: they load
    CHECK(values(loadNpy<float>(npy("f8_2x3.npy"))) == Values{-20, -13, -6, 1, 8, 15});
    CHECK(values(loadNpy<int32_t>(npy("i8_2x3.npy"))) == Values{-20, -13, -6, 1, 8, 15});
    CHECK(values(loadNpy<int8_t>(npy("f4_2x3_fortran.npy"))) == Values{-20, -13, -6, 1, 8, 15});
    // 0 50 ... 250: 150 and above are no int8; the error names the first
    CHECK(has(test_util::message_of<TypeError>([] { loadNpy<int8_t>(npy("u1_2x3.npy")); }),
              "the value 150 at (1, 0) of dtype '|u1' does not convert exactly to "
              "torch.CharTensor"));
    CHECK(values(loadNpy<int8_t>(npy("b1_2.npy"))) == Values{1, 0});
    CHECK(values(loadNpy<double>(npy("b1_2.npy"))) == Values{1, 0});
    // complex files: complex tensors only (issue 42); NumPy wrote [1+2j, 3j]
    CHECK(has(test_util::message_of<TypeError>([] { loadNpy<double>(npy("c16_2.npy")); }),
              "holds complex values (dtype '<c16')"));
    const ComplexDoubleTensor z = loadNpy<std::complex<double>>(npy("c16_2.npy"));
    CHECK(z.sizes() == Shape{2});
    CHECK(std::complex<double>(z(0)) == std::complex<double>(1, 2));
    CHECK(std::complex<double>(z(1)) == std::complex<double>(0, 3));
    CHECK(has(io_error([] { loadNpy<double>("/nonexistent/x.npy"); }), "/nonexistent/x.npy"));
    CHECK_THROWS_AS(saveNpy("/nonexistent/x.npy", seq<double>({2})), IOError);
}

TEST_CASE("npy: malformed files are an IOError with the byte offset") {
    const std::string good = bytes_of(npy("f8_2x3.npy"));
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
    const std::string data(48, '\0');
    CHECK(fromNpy<double>(npy_file(dict, data)).sizes() == Shape{2, 3});

    SUBCASE("every truncation") {
        for (size_t n = 0; n < good.size(); ++n) {
            INFO("cut at ", n);
            CHECK(has(io_error([&] { fromNpy<double>(std::string_view(good).substr(0, n)); }),
                      "byte "));
        }
    }
    SUBCASE("magic, version, header length") {
        CHECK(has(io_error([&] { fromNpy<double>("NUMPY" + good); }), "byte 0: not a .npy file"));
        std::string v = good;
        v[6] = 4;
        CHECK(has(io_error([&] { fromNpy<double>(v); }), "byte 6: unsupported .npy version 4.0"));
        v[6] = 1, v[7] = 1;
        CHECK(has(io_error([&] { fromNpy<double>(v); }), "unsupported .npy version 1.1"));
        std::string l = good;
        l[8] = char(0xff), l[9] = char(0xff);
        CHECK(has(io_error([&] { fromNpy<double>(l); }),
                  "byte 8: truncated file: header of 65535 bytes"));
        std::string l2 = npy_file(dict, data, 2);
        CHECK(fromNpy<double>(l2).sizes() == Shape{2, 3});
        l2[11] = char(0x7f);
        CHECK(has(io_error([&] { fromNpy<double>(l2); }), "byte 8: truncated file"));
    }
    SUBCASE("the header dict") {
        auto err = [&](const std::string& d) {
            return io_error([&] { fromNpy<double>(npy_file(d, data)); });
        };
        CHECK(has(err("{'descr': '<f8', 'fortran_order': False}"),
                  "byte 10: the header lacks 'shape'"));
        CHECK(has(err("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2, 3), }"),
                  "byte 44: expected True or False"));
        CHECK(has(err("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3), }"),
                  "negative size -3"));
        CHECK(has(err("{'descr': '<f8', 'fortran_order': False, 'shape': (2, x), }"),
                  "expected an integer in the shape"));
        CHECK(
            has(err("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
                "out of range"));
        CHECK(has(err("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}"),
                  "unexpected key 'extra'"));
        CHECK(has(err("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }"),
                  "structured dtypes"));
        CHECK(has(err("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), } x"),
                  "unexpected text"));
        CHECK(has(err("{'descr: '<f8'"), "byte "));
        CHECK(has(err("['descr']"), "byte 10: expected '{'"));
        CHECK(has(err("{'descr': 'xyz', 'fortran_order': False, 'shape': (2, 3), }"),
                  "unsupported dtype 'xyz'"));
    }
    SUBCASE("sizes beyond the data: memory stays bounded by the file size") {
        auto err = [&](const std::string& shape) {
            return io_error([&] {
                fromNpy<double>(npy_file(
                    "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }", data));
            });
        };
        CHECK(has(err("(2, 4)"),
                  "byte 128: truncated file: 8 elements need 64 bytes but only 48 are left"));
        CHECK(has(err("(1099511627776, 16)"), "truncated file: 17592186044416 elements"));
        CHECK(has(err("(4294967296, 4294967296, 4294967296)"),
                  "element count exceeds the limit of 2^48"));
        std::string dims70 = "(";
        for (int i = 0; i < 70; ++i) dims70 += "1,";
        CHECK(has(err(dims70 + ")"), "more than 64 dimensions"));
    }
}

namespace {

// A .npy file of 16-bit words (float16 bit patterns) in either byte order.
std::string f2_file(const std::vector<uint16_t>& bits, const std::string& shape, bool big = false,
                    bool fortran = false) {
    std::string data;
    for (uint16_t b : bits) {
        char lo = char(b & 0xff), hi = char(b >> 8);
        data += big ? hi : lo;
        data += big ? lo : hi;
    }
    return npy_file(std::string("{'descr': '") + (big ? ">f2" : "<f2") + "', 'fortran_order': " +
                        (fortran ? "True" : "False") + ", 'shape': " + shape + ", }",
                    data);
}

// Writes bytes to a file in the temporary directory, removed by the destructor.
struct TempFile {
    std::string path;
    TempFile(const std::string& name, const std::string& bytes)
        : path((fs::temp_directory_path() / name).string()) {
        detail::write_file(path, bytes, "test");
    }
    ~TempFile() { fs::remove(path); }
};

} // namespace

TEST_CASE("npy: bool files load as ByteTensor (0 or 1)") {
    // NumPy's own file: np.array([True, False])
    ByteTensor b = loadNpy<uint8_t>(npy("b1_2.npy"));
    CHECK(b.sizes() == Shape{2});
    CHECK(values(b) == Values{1, 0});
    // hand-written, 2x3 in C and Fortran order; any non-zero byte is true
    const std::string data("\x01\x00\x00\x01\x02\xff", 6);
    ByteTensor c = fromNpy<uint8_t>(
        npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }", data));
    CHECK(c.sizes() == Shape{2, 3});
    CHECK(values(c) == Values{1, 0, 0, 1, 1, 1});
    ByteTensor f = fromNpy<uint8_t>(
        npy_file("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 3), }", data));
    CHECK(f.isContiguous());
    CHECK(values(f) == Values{1, 0, 1, 0, 1, 1});
    CHECK(values(fromNpy<uint8_t>(npy_file(
              "{'descr': '<b1', 'fortran_order': False, 'shape': (), }", "\x01"))) == Values{1});
    // saved back as uint8 ('|u1'), which loads as the same values
    CHECK(values(fromNpy<uint8_t>(toNpy(c))) == values(c));
    CHECK(has(toNpy(c), "'descr': '|u1'"));
    // other types, and truncation
    CHECK(values(loadNpy<float>(npy("b1_2.npy"))) == Values{1, 0});
    CHECK(has(io_error([&] {
                  fromNpy<uint8_t>(npy_file(
                      "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 4), }", data));
              }),
              "truncated file: 8 elements need 8 bytes but only 6 are left"));
}

TEST_CASE("npy: float16 files load as FloatTensor with exact values") {
    // 1, -2, 0.5, 65504 (largest), inf, -inf, nan, 2^-24 (smallest subnormal),
    // 1023 * 2^-24 (largest subnormal), -0, 2^-14 (smallest normal), 1 + 2^-10
    const std::vector<uint16_t> bits{0x3c00, 0xc000, 0x3800, 0x7bff, 0x7c00, 0xfc00,
                                     0x7e00, 0x0001, 0x03ff, 0x8000, 0x0400, 0x3c01};
    const std::vector<float> expect{1.f,
                                    -2.f,
                                    0.5f,
                                    65504.f,
                                    std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(),
                                    0.f, // (NaN: checked apart)
                                    std::ldexp(1.f, -24),
                                    1023 * std::ldexp(1.f, -24),
                                    -0.f,
                                    std::ldexp(1.f, -14),
                                    1 + std::ldexp(1.f, -10)};
    for (bool big : {false, true}) {
        INFO((big ? ">f2" : "<f2"));
        FloatTensor h = fromNpy<float>(f2_file(bits, "(12,)", big));
        CHECK(h.sizes() == Shape{12});
        CHECK(h.isContiguous());
        for (size_t i = 0; i < bits.size(); ++i) {
            INFO("element ", i);
            if (i == 6)
                CHECK(std::isnan(h(int64_t(i))));
            else
                CHECK(h(int64_t(i)) == expect[i]);
        }
        CHECK(std::signbit(h(9)));
        CHECK_FALSE(std::signbit(h(0)));
    }
    // 2x3 in C and Fortran order
    const std::vector<uint16_t> six{0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600}; // 1 .. 6
    FloatTensor c = fromNpy<float>(f2_file(six, "(2, 3)"));
    CHECK(c.sizes() == Shape{2, 3});
    CHECK(values(c) == iota(1, 6));
    FloatTensor f = fromNpy<float>(f2_file(six, "(2, 3)", false, true));
    CHECK(values(f) == Values{1, 3, 5, 2, 4, 6});
    // loadNpy from a file; float16 values are doubles exactly
    TempFile file("t7_test_npy_f2.npy", f2_file(six, "(3, 2)", true));
    FloatTensor l = loadNpy<float>(file.path);
    CHECK(l.sizes() == Shape{3, 2});
    CHECK(values(l) == iota(1, 6));
    CHECK(values(loadNpy<double>(file.path)) == iota(1, 6));
    // truncated data: the byte count is the file's (2 per element)
    CHECK(has(io_error([&] {
                  fromNpy<float>(f2_file({0x3c00, 0x3c00}, "(3,)"));
              }),
              "truncated file: 3 elements need 6 bytes but only 4 are left"));
    CHECK(fromNpy<float>(f2_file({}, "(0,)")).sizes() == Shape{0});
}

TEST_CASE_TEMPLATE("npy: loadNpyAny gives the file's own type", T, uint8_t, int8_t, int16_t,
                   int32_t, int64_t, float, double) {
    Object o = loadNpyAny(npy(code<T>() + "_2x3.npy"));
    REQUIRE(o.isTensor());
    CHECK(o.typeName() == Tensor<T>::typeName());
    Tensor<T> t = o.tensor<T>();
    CHECK(t.sizes() == Shape{2, 3});
    CHECK(values(t) == expected_2x3<T>());
    Object fo = loadNpyAny(npy(code<T>() + "_2x3_fortran.npy"));
    CHECK(values(fo.tensor<T>()) == expected_2x3<T>());
    const Object again = fromNpyAny(toNpy(t));
    CHECK(values(again.tensor<T>()) == expected_2x3<T>());
    if constexpr (!std::is_same_v<T, double>) CHECK_THROWS_AS(o.tensor<double>(), TypeError);
}

TEST_CASE("npy: loadNpyAny of bool, float16, and bad files") {
    Object b = loadNpyAny(npy("b1_2.npy"));
    CHECK(b.typeName() == "torch.ByteTensor");
    CHECK(values(b.tensor<uint8_t>()) == Values{1, 0});
    Object h = fromNpyAny(f2_file({0x3c00, 0xc000, 0x7bff}, "(3,)"));
    CHECK(h.typeName() == "torch.FloatTensor");
    CHECK(values(h.tensor<float>()) == Values{1, -2, 65504});
    TempFile file("t7_test_npy_any_f2.npy", f2_file({0x3800}, "()"));
    FloatTensor s = loadNpyAny(file.path).tensor<float>();
    CHECK(s.sizes() == Shape{1});
    CHECK(s(0) == 0.5f);
    CHECK(loadNpyAny(npy("f8_3x4_T.npy")).tensor<double>().sizes() == Shape{4, 3});
    CHECK(values(loadNpyAny(npy("i4_3_big_endian.npy")).tensor<int32_t>()) == Values{1, -2, 70000});
    CHECK(loadNpyAny(npy("f8_empty.npy")).tensor<double>().sizes() == Shape{0});
    // malformed or unsupported files are an IOError, as for loadNpy
    CHECK(has(test_util::message_of<TypeError>([] { loadNpyAny(npy("c16_2.npy")); }),
              "loadNpy<std::complex<double>>"));
    CHECK(has(io_error([] { loadNpyAny("/nonexistent/x.npy"); }), "/nonexistent/x.npy"));
    const std::string good = bytes_of(npy("f8_2x3.npy"));
    for (size_t n = 0; n < good.size(); n += 7) {
        INFO("cut at ", n);
        CHECK(has(io_error([&] { fromNpyAny(std::string_view(good).substr(0, n)); }), "byte "));
    }
}
