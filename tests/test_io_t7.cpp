// Torch7 files (io/t7_reader.hpp, io/t7_writer.hpp, io/object.hpp): the files the
// real Torch7 wrote (shared/torch7/t7, copied into tests/data/t7) load with the right
// values, strides, offsets and sharing, and writing the same objects gives the same
// bytes; round trips in both encodings for every type and layout; t7::Object; and
// every kind of malformed input fails with an IOError naming the byte offset.
#include <t7/io/file.hpp>
#include <t7/io/object.hpp>
#include <t7/io/t7_reader.hpp>
#include <t7/io/t7_writer.hpp>
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
using test_util::Bin;
using test_util::storage_values;
using test_util::Values;
using test_util::values;
namespace fs = std::filesystem;

namespace {

// tests/data (T7_TEST_DATA, set by tests/meson.build) and ../shared (T7_SHARED).
std::string data_dir() {
    const char* d = std::getenv("T7_TEST_DATA");
    return d ? d : "tests/data";
}
std::string fixture(const std::string& name) { return data_dir() + "/t7/" + name; }
std::string shared_t7_dir() {
    const char* d = std::getenv("T7_SHARED");
    return std::string(d ? d : "../shared") + "/torch7/t7";
}
std::string bytes_of(const std::string& path) { return detail::read_file(path, "test"); }

// A tensor of the given sizes holding start, start+1, ... in row-major order.
template <class T>
Tensor<T> seq(const Shape& sizes, double start = 1) {
    Tensor<T> t(sizes);
    for (int64_t i = 0; i < t.nElement(); ++i) t.storage()[i] = T(start + double(i));
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

} // namespace

TEST_CASE("Torch7 files: every file loads with the right values, strides, offsets and sharing") {
    SUBCASE("double_3x4: DoubleTensor 3x4, 1..12") {
        for (auto name : {"double_3x4.t7", "double_3x4.ascii.t7"}) {
            DoubleTensor x = load<double>(fixture(name));
            CHECK(x.sizes() == Shape{3, 4});
            CHECK(x.strides() == Shape{4, 1});
            CHECK(x.storageOffset() == 0);
            CHECK(x.storage().size() == 12);
            CHECK(values(x) == Values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
            CHECK(x(2, 3) == 12);
        }
    }
    SUBCASE("byte: 0 1 127 128 255") {
        ByteTensor x = load<uint8_t>(fixture("byte.t7"));
        CHECK(x.sizes() == Shape{5});
        CHECK(x.strides() == Shape{1});
        CHECK(values(x) == Values{0, 1, 127, 128, 255});
    }
    SUBCASE("long: 64-bit values") {
        LongTensor x = load<int64_t>(fixture("long.t7"));
        CHECK(x.sizes() == Shape{2, 3});
        CHECK(x.strides() == Shape{3, 1});
        CHECK(x(0, 1) == -2);
        CHECK(x(1, 2) == int64_t(1) << 40);
    }
    SUBCASE("float_transposed: a non-contiguous view, strides {1,3}") {
        FloatTensor x = load<float>(fixture("float_transposed.t7"));
        CHECK(x.sizes() == Shape{3, 2});
        CHECK(x.strides() == Shape{1, 3});
        CHECK(!x.isContiguous());
        CHECK(storage_values(x.storage()) == Values{1, 2, 3, 4, 5, 6});
        CHECK(values(x) == Values{1, 4, 2, 5, 3, 6});
    }
    SUBCASE("empty: a DoubleTensor with no dimension and no storage") {
        DoubleTensor x = load<double>(fixture("empty.t7"));
        CHECK(x.dim() == 0);
        CHECK(x.nElement() == 0);
        CHECK(!x.storage().valid());
    }
    SUBCASE("shared_table: {a = x, b = x:narrow(1, 2, 2)} share one storage") {
        for (auto name : {"shared_table.t7", "shared_table.ascii.t7"}) {
            Object t = loadObject(fixture(name));
            REQUIRE(t.isTable());
            CHECK(t.className() == "");
            CHECK(t.size() == 2);
            CHECK(t.keys() == std::vector<Object>{"a", "b"});
            DoubleTensor a = t.at("a").tensor<double>();
            DoubleTensor b = t.at("b").tensor<double>();
            CHECK(a.sizes() == Shape{4, 3});
            CHECK(a.strides() == Shape{3, 1});
            CHECK(a.storageOffset() == 0);
            CHECK(b.sizes() == Shape{2, 3});
            CHECK(b.strides() == Shape{3, 1});
            CHECK(b.storageOffset() == 3); // Torch7's 1-based offset 4
            CHECK(values(b) == Values{4, 5, 6, 7, 8, 9});
            CHECK(a.storage() == b.storage()); // one storage, as after torch.load
            a(1, 0) = 40;
            CHECK(b(0, 0) == 40);
        }
    }
    SUBCASE("ascii and binary files give the same objects") {
        CHECK(values(load<double>(fixture("double_3x4.ascii.t7"))) ==
              values(load<double>(fixture("double_3x4.t7"))));
    }
}

TEST_CASE("Torch7 files: the copies in tests/data are those in ../shared") {
    if (!fs::is_directory(shared_t7_dir())) {
        MESSAGE("no ", shared_t7_dir(), ": skipped");
        return;
    }
    int n = 0;
    for (const auto& e : fs::directory_iterator(shared_t7_dir())) {
        if (e.path().extension() != ".t7") continue;
        ++n;
        INFO(e.path().string());
        CHECK(bytes_of(e.path().string()) == bytes_of(fixture(e.path().filename().string())));
        CHECK_NOTHROW(loadObject(e.path().string()));
    }
    CHECK(n >= 8);
}

TEST_CASE("Torch7 files: writing the same objects gives Torch7's bytes") {
    auto same = [](const Object& o, const std::string& name, Format fmt) {
        INFO(std::string(name));
        CHECK(serialize(o, fmt) == bytes_of(fixture(name)));
    };
    SUBCASE("double_3x4") {
        DoubleTensor x = seq<double>({3, 4});
        same(x, "double_3x4.t7", Format::Binary);
        same(x, "double_3x4.ascii.t7", Format::Ascii);
    }
    SUBCASE("byte") {
        ByteTensor x(5);
        const uint8_t v[] = {0, 1, 127, 128, 255};
        for (int i = 0; i < 5; ++i) x(i) = v[i];
        same(x, "byte.t7", Format::Binary);
    }
    SUBCASE("long") {
        LongTensor x = seq<int64_t>({2, 3});
        x(0, 1) = -2;
        x(1, 2) = int64_t(1) << 40;
        same(x, "long.t7", Format::Binary);
    }
    SUBCASE("float_transposed: the view's strides and the whole storage") {
        same(seq<float>({2, 3}).t(), "float_transposed.t7", Format::Binary);
    }
    SUBCASE("empty") { same(DoubleTensor(), "empty.t7", Format::Binary); }
    SUBCASE("shared_table: the storage is written once and then referred to") {
        DoubleTensor x = seq<double>({4, 3});
        Object t = Object::table({{"a", x}, {"b", x.narrow(0, 1, 2)}});
        same(t, "shared_table.t7", Format::Binary);
        same(t, "shared_table.ascii.t7", Format::Ascii);
    }
    SUBCASE("save() writes the file") {
        std::string p = (fs::temp_directory_path() / "t7_test_save_double.t7").string();
        save(p, seq<double>({3, 4}));
        CHECK(bytes_of(p) == bytes_of(fixture("double_3x4.t7")));
        save(p, seq<double>({3, 4}), Format::Ascii);
        CHECK(bytes_of(p) == bytes_of(fixture("double_3x4.ascii.t7")));
        fs::remove(p);
    }
    SUBCASE("every loaded file writes back to its own bytes") {
        for (auto name :
             {"byte.t7", "double_3x4.t7", "double_3x4.ascii.t7", "empty.t7", "float_transposed.t7",
              "long.t7", "shared_table.t7", "shared_table.ascii.t7"}) {
            std::string b = bytes_of(fixture(name));
            Format fmt = std::string(name).find("ascii") != std::string::npos ? Format::Ascii
                                                                              : Format::Binary;
            same(deserialize(b), name, fmt);
        }
    }
}

TEST_CASE_TEMPLATE("Torch7 files: round trips of every type and layout", T, uint8_t, int8_t,
                   int16_t, int32_t, int64_t, float, double) {
    Tensor<T> base = seq<T>({4, 5, 3}, 1);
    struct Case {
        const char* name;
        Tensor<T> t;
    };
    std::vector<Case> cases = {
        {"contiguous", base},
        {"transposed", base.transpose(0, 2)},
        {"narrowed, with an offset", base.narrow(0, 1, 2).narrow(2, 1, 2)},
        {"selected", base.select(1, 3)},
        {"zero strides (expand)", seq<T>({3, 1}).expand(3, 4)},
        {"1-D", seq<T>({7})},
        {"empty", Tensor<T>()},
    };
    for (Format fmt : {Format::Binary, Format::Ascii}) {
        for (const auto& c : cases) {
            INFO(c.name, fmt == Format::Binary ? " binary" : " ascii");
            Tensor<T> r = deserialize(serialize(c.t, fmt), fmt).template tensor<T>();
            CHECK(r.sizes() == c.t.sizes());
            CHECK(r.strides() == c.t.strides());
            CHECK(r.storageOffset() == c.t.storageOffset());
            CHECK(r.storage().size() == c.t.storage().size());
            CHECK(r.storage().valid() == c.t.storage().valid());
            CHECK(values(r) == values(c.t));
            if (c.t.storage().valid())
                CHECK(storage_values(r.storage()) == storage_values(c.t.storage()));
        }
        // a storage on its own, and the extremes of the type
        Storage<T> s(4);
        s[0] = std::numeric_limits<T>::lowest();
        s[1] = std::numeric_limits<T>::max();
        s[2] = std::numeric_limits<T>::min();
        s[3] = T(0);
        Object o = deserialize(serialize(s, fmt), fmt);
        CHECK(o.isStorage());
        CHECK(storage_values(o.storage<T>()) == storage_values(s));
        // every byte value survives ascii's raw bytes (including '\n' and ' ')
        if constexpr (sizeof(T) == 1) {
            Storage<T> all(256);
            for (int i = 0; i < 256; ++i) all[i] = T(i);
            CHECK(storage_values(deserialize(serialize(all, fmt), fmt).template storage<T>()) ==
                  storage_values(all));
        }
    }
}

TEST_CASE("Torch7 files: numbers keep every bit in ascii (%.17g, %.9g)") {
    std::vector<double> d = {0.1,
                             -1.0 / 3,
                             1e-300,
                             4.9406564584124654e-324,
                             1.7976931348623157e308,
                             -0.0,
                             123456789012345678.0};
    DoubleTensor x(int64_t(d.size()));
    for (size_t i = 0; i < d.size(); ++i) x(int64_t(i)) = d[i];
    DoubleTensor r = deserialize(serialize(x, Format::Ascii), Format::Ascii).tensor<double>();
    for (size_t i = 0; i < d.size(); ++i) {
        CHECK(r(int64_t(i)) == d[i]);
        CHECK(std::signbit(r(int64_t(i))) == std::signbit(d[i]));
    }
    FloatTensor f(4);
    f(0) = 0.1f, f(1) = 1.17549435e-38f, f(2) = 1.4e-45f, f(3) = 3.40282347e38f;
    FloatTensor rf = deserialize(serialize(f, Format::Ascii), Format::Ascii).tensor<float>();
    CHECK(values(rf) == values(f));
    // non-finite numbers, as printf writes them
    Object t = Object::table({{1, std::numeric_limits<double>::infinity()},
                              {2, -std::numeric_limits<double>::infinity()},
                              {3, std::numeric_limits<double>::quiet_NaN()}});
    std::string a = serialize(t, Format::Ascii);
    CHECK(has(a, "\ninf\n"));
    CHECK(has(a, "\n-inf\n"));
    Object rt = deserialize(a, Format::Ascii);
    CHECK(rt.at(1).number() == std::numeric_limits<double>::infinity());
    CHECK(rt.at(2).number() == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(rt.at(3).number()));
    // Torch7 writes a number as %.17g: 0.1 is 0.10000000000000001
    CHECK(serialize(Object(0.1), Format::Ascii) == "1\n0.10000000000000001\n");
    // fscanf reads what overflows as inf and what underflows as 0
    CHECK(deserialize("1\n1e999\n", Format::Ascii).number() ==
          std::numeric_limits<double>::infinity());
    CHECK(deserialize("1\n-1e-999\n", Format::Ascii).number() == 0.0);
}

TEST_CASE("t7::Object: values, tables, keys and errors") {
    SUBCASE("scalars") {
        CHECK(Object().isNil());
        CHECK(Object(2.5).isNumber());
        CHECK(Object(3).number() == 3.0);
        CHECK(Object(true).isBoolean());
        CHECK(Object(false).boolean() == false);
        CHECK(Object("hi").isString());
        CHECK(Object(std::string("hi")).string() == "hi");
        CHECK(Object(FloatTensor(2)).isTensor());
        CHECK(Object(Storage<int32_t>(3)).isStorage());
        CHECK(Object(Storage<int32_t>(3)).typeName() == "torch.IntStorage");
        CHECK(Object(FloatTensor(2)).typeName() == "torch.FloatTensor");
        CHECK_THROWS_AS(Object("x").number(), TypeError);
        CHECK_THROWS_AS(Object(1).string(), TypeError);
        CHECK_THROWS_AS(Object(1).at("a"), TypeError);
        CHECK_THROWS_AS(Object().tensor<float>(), TypeError);
    }
    SUBCASE("tensor<T>() of another type is a TypeError naming both") {
        Object o(DoubleTensor(3));
        CHECK(o.tensor<double>().size(0) == 3);
        try {
            o.tensor<float>();
            FAIL("no TypeError");
        } catch (const TypeError& e) {
            CHECK(has(e.what(), "torch.DoubleTensor"));
            CHECK(has(e.what(), "torch.FloatTensor"));
        }
        CHECK_THROWS_AS(Object(Storage<double>(2)).storage<float>(), TypeError);
        CHECK_THROWS_AS(Object(Storage<double>(2)).tensor<double>(), TypeError);
    }
    SUBCASE("tables: string and number keys, nested, keys() in order, at() errors") {
        Object inner = Object::table({{1, "one"}, {2, "two"}});
        Object t = Object::table({{"name", "net"}, {"layers", inner}, {7, true}});
        CHECK(t.size() == 3);
        CHECK(t.keys() == std::vector<Object>{"name", "layers", 7});
        CHECK(t.at("name").string() == "net");
        CHECK(t.at("layers").at(2).string() == "two");
        CHECK(t.at(7).boolean());
        CHECK(t.contains("name"));
        CHECK(!t.contains("nope"));
        CHECK_THROWS_AS(t.at("nope"), IndexError);
        CHECK_THROWS_AS(t.at(1), IndexError);
        t.set("name", "other");
        CHECK(t.at("name").string() == "other");
        CHECK(t.size() == 3);
        t.set("name", Object()); // nil removes the key, as in Lua
        CHECK(!t.contains("name"));
        CHECK(t.size() == 2);
        CHECK_THROWS_AS(t.set(Object(), 1), Error);
        CHECK_THROWS_AS(t.set(std::nan(""), 1), Error);
        CHECK_THROWS_AS(inner.set("up", t), Error); // would be a cycle
        CHECK_THROWS_AS(t.set("self", t), Error);
        CHECK(Object(1.0) == Object(1));
        CHECK(Object("a") == Object("a"));
        CHECK(!(Object::table() == Object::table())); // tables compare by identity
    }
    SUBCASE("every value kind round trips in both encodings") {
        Object t = Object::table({{"nil?", Object()},
                                  {"n", -12.75},
                                  {"yes", true},
                                  {"no", false},
                                  {"s", std::string("with\nnewline and \0 byte", 24)},
                                  {"", "empty key"},
                                  {1.5, "number key"},
                                  {"nested", Object::table({{"deeper", Object::table({{1, 2}})}})},
                                  {"ints", Storage<int32_t>(2).fill(-7)}});
        for (Format fmt : {Format::Binary, Format::Ascii}) {
            Object r = deserialize(serialize(t, fmt), fmt);
            CHECK(r.size() == 8); // the nil value is no entry
            CHECK(r.keys() == t.keys());
            CHECK(r.at("n").number() == -12.75);
            CHECK(r.at("yes").boolean());
            CHECK(!r.at("no").boolean());
            CHECK(r.at("s").string() == std::string("with\nnewline and \0 byte", 24));
            CHECK(r.at("").string() == "empty key");
            CHECK(r.at(1.5).string() == "number key");
            CHECK(r.at("nested").at("deeper").at(1).number() == 2);
            CHECK(storage_values(r.at("ints").storage<int32_t>()) == Values{-7, -7});
        }
    }
    SUBCASE("a Torch class instance (nn.Linear) keeps its class name") {
        Object lin = Object::table({{"weight", seq<float>({2, 3})}, {"train", true}}, "nn.Linear");
        CHECK(lin.isTable());
        CHECK(lin.typeName() == "nn.Linear");
        for (Format fmt : {Format::Binary, Format::Ascii}) {
            Object r =
                deserialize(serialize(Object::table({{"m", lin}, {"again", lin}}), fmt), fmt);
            CHECK(r.at("m").className() == "nn.Linear");
            CHECK(values(r.at("m").at("weight").tensor<float>()) == Values{1, 2, 3, 4, 5, 6});
            CHECK(r.at("again").sameAs(r.at("m")));
        }
        // the layout Torch7 writes: TORCH index, "V 1", class name, then a TABLE of fields
        Bin b;
        b.torch(1, "nn.Linear").i32(3).i32(2).i32(1).i32(2).str("a").i32(1).f64(5);
        CHECK(serialize(Object::table({{"a", 5}}, "nn.Linear")) == b.b);
        CHECK(deserialize(b.b).at("a").number() == 5);
    }
}

TEST_CASE("Torch7 files: an object written twice is one object after loading") {
    DoubleTensor x = seq<double>({2, 2});
    Object xo = x;
    Object shared = Object::table({{"k", 1}});
    Object t = Object::table({{1, xo},
                              {2, xo},
                              {3, shared},
                              {4, shared},
                              {5, x.t()},
                              {6, Storage<double>(x.storage())}});
    for (Format fmt : {Format::Binary, Format::Ascii}) {
        std::string bytes = serialize(t, fmt);
        Object r = deserialize(bytes, fmt);
        CHECK(r.at(1).sameAs(r.at(2)));
        CHECK(r.at(3).sameAs(r.at(4)));
        CHECK(!r.at(1).sameAs(r.at(5)));
        CHECK(r.at(1).tensor<double>().storage() == r.at(5).tensor<double>().storage());
        CHECK(r.at(6).storage<double>() == r.at(1).tensor<double>().storage());
    }
    // the same view given twice (not the same Object) is also written once
    std::string once = serialize(Object::table({{1, x}, {2, x}}));
    Object r = deserialize(once);
    CHECK(r.at(1).sameAs(r.at(2)));
    CHECK(once.size() < serialize(Object::table({{1, x}, {2, x.t()}})).size());
    // the storage's 4 doubles are written once
    CHECK(serialize(Object::table({{1, x}, {2, x.t()}})).size() <
          serialize(Object::table({{1, x}, {2, x.t().clone()}})).size());
}

TEST_CASE("Torch7 files: load<T> of another type is a TypeError; loadObject picks the encoding") {
    CHECK_THROWS_AS(load<float>(fixture("double_3x4.t7")), TypeError);
    CHECK_THROWS_AS(load<int64_t>(fixture("byte.t7")), TypeError);
    CHECK_THROWS_AS(load<double>(fixture("shared_table.t7")), TypeError);
    CHECK(loadObject(fixture("double_3x4.ascii.t7"), Format::Ascii).isTensor());
    CHECK(loadObject(fixture("double_3x4.t7"), Format::Binary).isTensor());
    CHECK_THROWS_AS(loadObject(fixture("double_3x4.t7"), Format::Ascii), IOError);
    CHECK(load<double>(fixture("double_3x4.ascii.t7"), Format::Ascii).size(0) == 3);
    std::string msg = io_error([] { loadObject("/nonexistent/dir/x.t7"); });
    CHECK(has(msg, "/nonexistent/dir/x.t7"));
    CHECK_THROWS_AS(saveObject("/nonexistent/dir/x.t7", Object(1)), IOError);
}

TEST_CASE("Torch7 files: malformed input is an IOError with the byte offset") {
    const std::string dbl = bytes_of(fixture("double_3x4.t7"));
    const std::string tbl = bytes_of(fixture("shared_table.t7"));

    SUBCASE("every truncation of every file") {
        for (auto name :
             {"byte.t7", "double_3x4.t7", "double_3x4.ascii.t7", "empty.t7", "float_transposed.t7",
              "long.t7", "shared_table.t7", "shared_table.ascii.t7"}) {
            std::string b = bytes_of(fixture(name));
            Format fmt = std::string(name).find("ascii") != std::string::npos ? Format::Ascii
                                                                              : Format::Binary;
            // ascii files end in a number and a newline: cut inside that number, the
            // rest reads as a shorter number
            size_t full = fmt == Format::Ascii ? b.find_last_of(" \n", b.size() - 2) + 2 : b.size();
            for (size_t n = 0; n < full; ++n) {
                INFO(std::string(name), " cut at ", n);
                std::string m =
                    io_error([&] { deserialize(std::string_view(b).substr(0, n), fmt); });
                CHECK(has(m, "byte "));
            }
        }
        CHECK(has(io_error([&] { deserialize(dbl.substr(0, 100)); }),
                  "byte 96: a class name of length 19 is longer than the 0 bytes left"));
    }
    SUBCASE("wrong type tags") {
        CHECK(has(io_error([] { deserialize(Bin().i32(9).b); }),
                  "byte 0: unknown object type tag 9"));
        CHECK(has(io_error([] { deserialize(Bin().i32(-1).b); }), "unknown object type tag -1"));
        CHECK(has(io_error([] { deserialize(Bin().i32(6).i32(0).b); }), "Lua function"));
        CHECK(has(io_error([] { deserialize(Bin().i32(8).i32(1).b); }), "Lua function"));
        // the storage slot of a tensor holds a number
        std::string b = dbl;
        b[0x51] = 1; // storage's tag 4 -> 1 (a number follows: its index bytes and more)
        CHECK(has(io_error([&] { deserialize(b); }),
                  "byte 81: torch.DoubleTensor has a number where its storage is expected"));
        // a tensor whose storage is of another type
        Bin f;
        f.torch(1, "torch.FloatTensor")
            .i32(1)
            .i64(2)
            .i64(1)
            .i64(1)
            .torch(2, "torch.DoubleStorage")
            .i64(2)
            .f64(1)
            .f64(2);
        CHECK(has(io_error([&] { deserialize(f.b); }),
                  "torch.FloatTensor has a torch.DoubleStorage as its storage"));
        // a class that is no tensor, with no table of fields
        Bin c;
        c.torch(1, "torch.Unknown").i32(1).f64(3);
        CHECK(has(io_error([&] { deserialize(c.b); }), "Torch class 'torch.Unknown'"));
    }
    SUBCASE("negative and enormous sizes: memory stays bounded by the file size") {
        Bin neg;
        neg.torch(1, "torch.DoubleStorage").i64(-1);
        CHECK(has(io_error([&] { deserialize(neg.b); }), "byte 38: negative storage size -1"));
        Bin huge;
        huge.torch(1, "torch.DoubleStorage").i64(int64_t(1) << 40);
        CHECK(has(io_error([&] { deserialize(huge.b); }),
                  "needs 8796093022208 bytes but only 0 are left"));
        Bin wrap; // n * 8 overflows 64 bits
        wrap.torch(1, "torch.DoubleStorage").i64(int64_t(1) << 62).f64(1);
        CHECK_THROWS_AS(deserialize(wrap.b), IOError);
        Bin dims;
        dims.torch(1, "torch.DoubleTensor").i32(1 << 30);
        CHECK(has(io_error([&] { deserialize(dims.b); }),
                  "sizes and strides of 2147483648 elements cannot fit"));
        Bin negdim;
        negdim.torch(1, "torch.DoubleTensor").i32(-3);
        CHECK(has(io_error([&] { deserialize(negdim.b); }), "negative nDimension -3"));
        Bin str;
        str.i32(2).i32(1 << 30).chars("abc");
        CHECK(has(io_error([&] { deserialize(str.b); }),
                  "byte 4: a string of length 1073741824 is longer than the 3 bytes left"));
        Bin nstr;
        nstr.i32(2).i32(-5);
        CHECK(has(io_error([&] { deserialize(nstr.b); }), "negative length -5"));
        Bin tab;
        tab.i32(3).i32(1).i32(INT32_MAX);
        CHECK(has(io_error([&] { deserialize(tab.b); }), "table of 2147483647 entries cannot fit"));
        Bin ntab;
        ntab.i32(3).i32(1).i32(-1);
        CHECK(has(io_error([&] { deserialize(ntab.b); }), "negative table size"));
        CHECK(has(io_error([] { deserialize("3\n1\n99999999999999999999\n", Format::Ascii); }),
                  "out of range"));
        CHECK(has(io_error([] {
                      deserialize("4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n100000\n1 2\n",
                                  Format::Ascii);
                  }),
                  "needs 100000 bytes"));
    }
    SUBCASE("views outside their storage") {
        auto tensor = [](int64_t size, int64_t stride, int64_t offset1, int64_t storage) {
            Bin b;
            b.torch(1, "torch.DoubleTensor").i32(1).i64(size).i64(stride).i64(offset1);
            b.torch(2, "torch.DoubleStorage").i64(storage);
            for (int64_t i = 0; i < storage; ++i) b.f64(double(i));
            return b.b;
        };
        CHECK_NOTHROW(deserialize(tensor(4, 1, 1, 4)));
        CHECK_NOTHROW(deserialize(tensor(4, 0, 4, 4))); // a zero stride reads one element
        CHECK(has(io_error([&] { deserialize(tensor(5, 1, 1, 4)); }),
                  "reaches past the end of its torch.DoubleStorage of size 4"));
        CHECK(has(io_error([&] { deserialize(tensor(2, 4, 1, 4)); }), "reaches past the end"));
        CHECK_NOTHROW(deserialize(tensor(2, 3, 1, 4)));
        CHECK(has(io_error([&] { deserialize(tensor(4, 1, 2, 4)); }), "reaches past the end"));
        CHECK(has(io_error([&] { deserialize(tensor(1, 1, 5, 4)); }),
                  "byte 57: torch.DoubleTensor storage offset 5 (1-based) is outside"));
        CHECK(has(io_error([&] { deserialize(tensor(1, 1, 0, 4)); }), "storage offset 0"));
        CHECK(has(io_error([&] { deserialize(tensor(2, -1, 2, 4)); }),
                  "byte 49: torch.DoubleTensor with negative stride -1"));
        CHECK(has(io_error([&] { deserialize(tensor(-2, 1, 1, 4)); }),
                  "byte 41: torch.DoubleTensor with negative size -2"));
        // (size - 1) * stride overflows int64: refused, never wrapped
        CHECK(has(io_error([&] { deserialize(tensor(int64_t(1) << 40, int64_t(1) << 40, 1, 4)); }),
                  "reaches past the end"));
        CHECK(has(io_error([&] { deserialize(tensor(3, INT64_MAX, 1, 4)); }),
                  "reaches past the end"));
        CHECK(has(io_error([&] { deserialize(tensor(INT64_MAX, INT64_MAX, 1, 4)); }),
                  "byte 41: torch.DoubleTensor of size 9223372036854775807: element count "
                  "exceeds the limit of 2^48"));
        Bin nostorage;
        nostorage.torch(1, "torch.DoubleTensor").i32(1).i64(3).i64(1).i64(1).i32(0);
        CHECK(has(io_error([&] { deserialize(nostorage.b); }), "has no storage"));
        Bin overflow; // 2^40 x 2^40 x 2^40 elements with zero strides
        overflow.torch(1, "torch.DoubleTensor")
            .i32(3)
            .i64(1LL << 40)
            .i64(1LL << 40)
            .i64(1LL << 40)
            .i64(0)
            .i64(0)
            .i64(0)
            .i64(1);
        overflow.torch(2, "torch.DoubleStorage").i64(1).f64(1);
        CHECK(has(io_error([&] { deserialize(overflow.b); }),
                  "element count exceeds the limit of 2^48"));
    }
    SUBCASE("references to objects not yet read, and cycles") {
        Bin fwd;
        fwd.i32(3).i32(2).i32(0); // a table claiming index 2 first
        CHECK(has(io_error([&] { deserialize(fwd.b); }),
                  "byte 4: reference index 2 names no object read so far"));
        Bin zero;
        zero.i32(3).i32(0).i32(0);
        CHECK(has(io_error([&] { deserialize(zero.b); }), "reference index 0"));
        Bin self; // {x = <itself>}
        self.i32(3).i32(1).i32(1).i32(2).str("x").i32(3).i32(1);
        CHECK(has(io_error([&] { deserialize(self.b); }), "still being read"));
        Bin later; // a tensor whose storage refers to index 3 (not yet read)
        later.torch(1, "torch.DoubleTensor").i32(1).i64(1).i64(1).i64(1).i32(4).i32(3);
        CHECK(has(io_error([&] { deserialize(later.b); }), "reference index 3 names no object"));
        // a later reference to a finished object is fine (shared_table does this)
        CHECK_NOTHROW(deserialize(tbl));
    }
    SUBCASE("recursion deeper than the limit") {
        auto nested = [](int depth) {
            Bin b;
            for (int i = 1; i <= depth; ++i) b.i32(3).i32(i).i32(1).i32(1).f64(1);
            b.i32(0);
            return b.b;
        };
        CHECK_NOTHROW(deserialize(nested(detail::t7file::kMaxDepth)));
        CHECK(has(io_error([&] { deserialize(nested(100000)); }), "nested deeper than 512 levels"));
        Object deep = Object::table();
        for (int i = 0; i < 600; ++i) deep = Object::table({{1, deep}});
        CHECK_THROWS_AS(serialize(deep), Error);
        // what the writer accepts, the reader reads back: both count a class instance
        // and its table of fields as two levels, a tensor and its storage too
        const int max = detail::t7file::kMaxDepth;
        struct Inner {
            const char* name;
            Object o;
            int levels;
        };
        for (const Inner& in : {Inner{"table", Object::table(), 1},
                                Inner{"class instance", Object::table({}, "nn.Linear"), 2},
                                Inner{"tensor", DoubleTensor(2), 2}}) {
            for (int k = max - 3; k <= max; ++k) {
                Object o = in.o;
                for (int i = 0; i < k; ++i) o = Object::table({{1, o}});
                INFO(std::string(in.name), " under ", k, " tables");
                if (k + in.levels <= max)
                    CHECK_NOTHROW(deserialize(serialize(o)));
                else
                    CHECK_THROWS_AS(serialize(o), Error);
            }
        }
    }
    SUBCASE("ascii: malformed numbers") {
        CHECK(has(io_error([] { deserialize("1\nabc\n", Format::Ascii); }),
                  "byte 2: expected a number (a number) but found 'abc'"));
        CHECK(has(io_error([] { deserialize("x\n", Format::Ascii); }),
                  "byte 0: expected an object's type tag"));
        CHECK(has(io_error([] { deserialize("5\n1.5\n", Format::Ascii); }),
                  "expected a boolean (an integer) but found '1.5'"));
        CHECK(has(io_error([] { deserialize("2\n10\nabc", Format::Ascii); }),
                  "byte 2: a string of length 10 is longer than the 3 bytes left"));
        CHECK(deserialize("2\n3\nabc\n", Format::Ascii).string() == "abc");
        CHECK(deserialize("  +5 \n  1 \n", Format::Ascii).boolean());
    }
}
