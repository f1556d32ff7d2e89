// NumPy .npy files (io/npy.hpp): files NumPy 1.24 wrote (tests/data/npy, made by
// make_npy.py there) load with the right values in every dtype, version, order and
// byte order; saveNpy writes NumPy's exact bytes, views in logical order; malformed
// files fail with an IOError naming the byte offset.
#include <t7/io/npy.hpp>
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "file_bytes.hpp"
#include "test_util.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace t7;
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

template <class T>
std::string code() {
    return detail::npy::descr<T>().substr(1); // "f8", "u1", ...
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
    CHECK(r.dim() == 0);
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
    CHECK(loadNpy<double>(npy("f8_empty.npy")).dim() == 0);
    CHECK(loadNpy<int32_t>(npy("i4_0x3.npy")).nElement() == 0);
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

TEST_CASE("npy: another dtype is a TypeError") {
    CHECK_THROWS_AS(loadNpy<float>(npy("f8_2x3.npy")), TypeError);
    CHECK_THROWS_AS(loadNpy<int8_t>(npy("u1_2x3.npy")), TypeError);
    CHECK_THROWS_AS(loadNpy<int32_t>(npy("i8_2x3.npy")), TypeError);
    // dtypes no Torch7 type holds
    CHECK(has(io_error([] { loadNpy<uint8_t>(npy("b1_2.npy")); }), "unsupported dtype '|b1'"));
    CHECK(has(io_error([] { loadNpy<double>(npy("c16_2.npy")); }), "unsupported dtype '<c16'"));
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
