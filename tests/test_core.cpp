// Core types, storage, constructors and queries: the examples of Torch7's
// "Tensor constructors" and "size and stride" documentation (transcripts in
// shared/torch7/tensor_constructors.txt and tensor_size_stride.txt), translated to
// 0-based indices and asserted on values, shapes, strides, offsets and sharing.
#include <t7/t7.hpp>

#include <doctest/doctest.h>

#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace t7;
using namespace test_util;

// ---------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------

TEST_CASE("type() gives the Torch7 name of all seven element types") {
    CHECK(ByteTensor().type() == "torch.ByteTensor");
    CHECK(CharTensor().type() == "torch.CharTensor");
    CHECK(ShortTensor().type() == "torch.ShortTensor");
    CHECK(IntTensor().type() == "torch.IntTensor");
    CHECK(LongTensor().type() == "torch.LongTensor");
    CHECK(FloatTensor().type() == "torch.FloatTensor");
    CHECK(DoubleTensor().type() == "torch.DoubleTensor");
    // the name does not depend on the shape or on being a view
    CHECK(FloatTensor(2, 3).t().type() == "torch.FloatTensor");
    CHECK(DoubleTensor::typeName() == "torch.DoubleTensor");
    CHECK(torch_type_name<float, CPU>("Storage") == "torch.FloatStorage");
    CHECK(torch_type_name<float, CUDA>("Tensor") == "torch.CudaTensor");
    CHECK(torch_type_name<int64_t, CUDA>("Tensor") == "torch.CudaLongTensor");
}

TEST_CASE("the type aliases hold the documented element types") {
    CHECK(std::is_same_v<ByteTensor::value_type, uint8_t>);
    CHECK(std::is_same_v<CharTensor::value_type, int8_t>);
    CHECK(std::is_same_v<ShortTensor::value_type, int16_t>);
    CHECK(std::is_same_v<IntTensor::value_type, int32_t>);
    CHECK(std::is_same_v<LongTensor::value_type, int64_t>);
    CHECK(std::is_same_v<FloatTensor::value_type, float>);
    CHECK(std::is_same_v<DoubleTensor::value_type, double>);
    CHECK(std::is_same_v<FloatTensor::device_type, CPU>);
    CHECK(std::is_base_of_v<std::runtime_error, Error>);
    CHECK(std::is_base_of_v<Error, ShapeError>);
    CHECK(std::is_base_of_v<Error, IndexError>);
    CHECK(std::is_base_of_v<Error, TypeError>);
    CHECK(std::is_base_of_v<Error, DeviceError>);
    CHECK(std::is_base_of_v<Error, IOError>);
}

// ---------------------------------------------------------------------------------
// Shape
// ---------------------------------------------------------------------------------

TEST_CASE("Shape: construction, equality and numel") {
    Shape s{4, 5, 6, 2};
    CHECK(s.size() == 4);
    CHECK(s[0] == 4);
    CHECK(s[3] == 2);
    CHECK(s.back() == 2);
    CHECK(s.numel() == 240);
    CHECK(s == Shape{4, 5, 6, 2});
    CHECK_FALSE(s == Shape{4, 5, 6});
    CHECK_FALSE(s == Shape{4, 5, 6, 3});
    CHECK(Shape().empty());
    CHECK(Shape().numel() == 1); // empty product
    CHECK(Shape(3, 7) == Shape{7, 7, 7});
    CHECK(Shape{4, 0, 2}.numel() == 0);

    Shape e;
    e.push_back(3);
    e.push_back(4);
    CHECK(e == Shape{3, 4});
    e.insert(0, 2);
    CHECK(e == Shape{2, 3, 4});
    e.insert(3, 5);
    CHECK(e == Shape{2, 3, 4, 5});
    e.erase(1);
    CHECK(e == Shape{2, 4, 5});
    e.resize(5, 1);
    CHECK(e == Shape{2, 4, 5, 1, 1});
    e.clear();
    CHECK(e.empty());
}

// Copies and moves of an inline Shape write the first half of its buffer always
// and the second only above rank 4: every rank around that split keeps every entry.
TEST_CASE("Shape: inline copies and moves keep every entry at ranks 0 to 8") {
    for (size_t rank = 0; rank <= Shape::inline_capacity; ++rank) {
        CAPTURE(rank);
        Shape s;
        for (size_t i = 0; i < rank; ++i) s.push_back(int64_t(10 + i));

        Shape copied = s;
        CHECK(copied == s);
        Shape assigned{9, 9, 9, 9, 9, 9, 9}; // inline, of another rank
        assigned = s;
        CHECK(assigned == s);
        Shape from = s;
        Shape moved = std::move(from);
        CHECK(moved == s);
        CHECK(from.empty());
        Shape move_assigned{1};
        Shape from2 = s;
        move_assigned = std::move(from2);
        CHECK(move_assigned == s);
        CHECK(from2.empty());
        for (size_t i = 0; i < rank; ++i) CHECK(moved[i] == int64_t(10 + i));

        // Growing a copy past the split reads only entries it wrote itself.
        copied.push_back(99);
        CHECK(copied.size() == rank + 1);
        CHECK(copied.back() == 99);
        for (size_t i = 0; i < rank; ++i) CHECK(copied[i] == int64_t(10 + i));
    }
}

TEST_CASE("Shape: more than 8 dimensions spill to the heap and still behave as values") {
    Shape s;
    for (int64_t i = 1; i <= 8; ++i) s.push_back(i);
    const int64_t* inline_data = s.data();
    CHECK(s.size() == Shape::inline_capacity);
    s.push_back(9);
    s.push_back(10);
    CHECK(s.size() == 10);
    CHECK(s.data() != inline_data);
    for (int64_t i = 0; i < 10; ++i) CHECK(s[size_t(i)] == i + 1);
    CHECK(s.numel() == 3628800);

    Shape copy = s; // deep copy
    copy[0] = 100;
    CHECK(s[0] == 1);
    CHECK_FALSE(copy == s);
    copy[0] = 1;
    CHECK(copy == s);

    Shape moved = std::move(copy);
    CHECK(moved == s);
    CHECK(copy.empty());

    Shape assigned{1, 2};
    assigned = s;
    CHECK(assigned == s);
    assigned = Shape{3};
    CHECK(assigned == Shape{3});

    Shape big(12, 2);
    CHECK(big.numel() == 4096);
    big.insert(5, 3);
    CHECK(big.size() == 13);
    CHECK(big[5] == 3);
    big.erase(5);
    CHECK(big == Shape(12, 2));

    // A spilled Shape that shrinks back to 8 entries or fewer keeps them on the
    // heap: copying it into an inline Shape must read them there.
    Shape shrunk;
    for (int64_t i = 1; i <= 9; ++i) shrunk.push_back(i);
    shrunk.erase(0);
    shrunk.resize(5);
    Shape small{7};
    small = shrunk;
    CHECK(small == Shape{2, 3, 4, 5, 6});
}

TEST_CASE("Shape: contiguous strides and printing as Torch7 sizes") {
    CHECK(contiguous_strides(Shape{4, 4, 3, 2}) == Shape{24, 6, 2, 1});
    CHECK(contiguous_strides(Shape{4, 5}) == Shape{5, 1});
    CHECK(contiguous_strides(Shape{7}) == Shape{1});
    CHECK(contiguous_strides(Shape{}).empty());
    std::ostringstream os;
    os << Shape{2, 3, 4};
    CHECK(os.str() == "2x3x4");
}

TEST_CASE("a tensor of more than 8 dimensions works") {
    Shape sz{2, 1, 2, 1, 2, 1, 2, 1, 2, 1}; // 10 dims, 32 elements
    DoubleTensor x(sz);
    CHECK(x.dim() == 10);
    CHECK(x.nElement() == 32);
    CHECK(x.isContiguous());
    CHECK(x.strides() == contiguous_strides(sz));
    fill_seq(x);
    CHECK(x(1, 0, 1, 0, 1, 0, 1, 0, 1, 0) == 32);
    CHECK(x(0, 0, 0, 0, 0, 0, 0, 0, 1, 0) == 2);
    DoubleTensor y = x.squeeze();
    CHECK(y.sizes() == Shape{2, 2, 2, 2, 2});
    CHECK(y.storage() == x.storage());
    DoubleTensor p = x.permute(9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    CHECK(p.sizes() == Shape{1, 2, 1, 2, 1, 2, 1, 2, 1, 2});
    CHECK(p(0, 1, 0, 0, 0, 0, 0, 0, 0, 0) == 2);
}

// ---------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------

TEST_CASE("Storage: size, indexing, data and fill") {
    Storage<double> s(10);
    CHECK(s.size() == 10);
    CHECK(s.ownsStorage());
    CHECK(s.data() != nullptr);
    for (int64_t i = 0; i < 10; ++i) s[i] = double(i + 1);
    CHECK(s[0] == 1);
    CHECK(s[9] == 10);
    CHECK(s.data()[4] == 5);
    CHECK(&s[4] == s.data() + 4);
    s.fill(1);
    CHECK(storage_values(s) == Values(10, 1.0));
    CHECK(&s.fill(2) == &s);
    CHECK(s[3] == 2);

    Storage<int32_t> empty;
    CHECK(empty.size() == 0);
    CHECK(empty.data() == nullptr);
    Storage<float> zero(0);
    CHECK(zero.size() == 0);
}

TEST_CASE("Storage: out-of-range and negative sizes are errors") {
    Storage<float> s(4);
    CHECK_THROWS_OP(s[4], IndexError, "Storage");
    CHECK_THROWS_OP(s[-1], IndexError, "Storage");
    CHECK_THROWS_OP(Storage<float>()[0], IndexError, "Storage");
    CHECK_THROWS_OP(Storage<float>(-1), ShapeError, "Storage");
    CHECK_THROWS_OP(s.resize(-3), ShapeError, "resize");
    CHECK_THROWS_AS(Storage<float>::wrap(nullptr, 3), Error);
    CHECK(Storage<float>::wrap(nullptr, 0).size() == 0);
}

TEST_CASE("Storage: copies of the handle share the memory") {
    Storage<int64_t> a(3);
    a.fill(5);
    Storage<int64_t> b = a;
    CHECK(b == a);
    CHECK(b.data() == a.data());
    CHECK(a.use_count() == 2);
    b[1] = 42;
    CHECK(a[1] == 42);
    Storage<int64_t> c(3);
    CHECK_FALSE(c == a);
    {
        Storage<int64_t> d = a;
        CHECK(a.use_count() == 3);
    }
    CHECK(a.use_count() == 2);
    Storage<int64_t> moved = std::move(b);
    CHECK(moved == a);
    CHECK(a.use_count() == 2);
}

TEST_CASE("Storage: resize keeps the values and every handle sees it") {
    Storage<float> s(4);
    for (int64_t i = 0; i < 4; ++i) s[i] = float(i + 1);
    Storage<float> other = s;
    s.resize(7);
    CHECK(s.size() == 7);
    CHECK(other.size() == 7); // the same storage
    CHECK(other.data() == s.data());
    CHECK(s[0] == 1);
    CHECK(s[3] == 4);
    s[6] = 7;
    CHECK(other[6] == 7);
    // Shared, it does not shrink (a view of it would read past the end) ...
    CHECK_THROWS_OP(s.resize(2), ShapeError, "Storage::resize");
    CHECK(other.size() == 7);
    other = Storage<float>(); // ... alone, it may
    s.resize(2);
    CHECK(s.size() == 2);
    CHECK(storage_values(s) == Values{1, 2});
    CHECK_THROWS_AS(s[2], IndexError);

    Storage<float> none;
    none.resize(3);
    CHECK(none.size() == 3);
}

TEST_CASE("Storage: wrap views external memory without owning it") {
    std::vector<double> mem{1, 2, 3, 4, 5, 6};
    {
        auto s = Storage<double>::wrap(mem.data(), int64_t(mem.size()));
        CHECK_FALSE(s.ownsStorage());
        CHECK(s.size() == 6);
        CHECK(s.data() == mem.data());
        s[2] = 30;
        CHECK(mem[2] == 30);
        DoubleTensor t(s, 1, {2, 2});
        CHECK(t.data() == mem.data() + 1);
        CHECK(values(t) == Values{2, 30, 4, 5});
        t.fill(0);
        CHECK(mem == std::vector<double>{1, 0, 0, 0, 0, 6});
    } // the storage is gone, the memory is still the caller's
    CHECK(mem[5] == 6);

    // a wrapped storage keeps its size: the memory is the caller's (Torch7 refuses too)
    auto s = Storage<double>::wrap(mem.data(), 3);
    CHECK_THROWS_OP(s.resize(4), ShapeError, "Storage::resize");
    CHECK_FALSE(s.ownsStorage());
    CHECK(s.data() == mem.data());
    CHECK(s.size() == 3);
}

// ---------------------------------------------------------------------------------
// Element conversions (Torch7's C casts)
// ---------------------------------------------------------------------------------

TEST_CASE("conversions truncate toward zero and wrap like Torch7") {
    // x = torch.Tensor({-2.7, -0.5, 0.5, 2.7, 300})
    DoubleTensor x(5);
    const double src[] = {-2.7, -0.5, 0.5, 2.7, 300};
    for (int64_t i = 0; i < 5; ++i) x(i) = src[i];

    ByteTensor b = x.toByte();
    CHECK(b.type() == "torch.ByteTensor");
    CHECK(values(b) == Values{254, 0, 0, 2, 44});
    CHECK(values(x.toChar()) == Values{-2, 0, 0, 2, 44});
    CHECK(values(x.toShort()) == Values{-2, 0, 0, 2, 300});
    CHECK(values(x.toInt()) == Values{-2, 0, 0, 2, 300});
    CHECK(values(x.toLong()) == Values{-2, 0, 0, 2, 300});
    FloatTensor f = x.toFloat();
    CHECK(f.type() == "torch.FloatTensor");
    CHECK(f(0) == -2.7f);
    CHECK(f(4) == 300.0f);
    CHECK(values(x.toDouble()) == Values{-2.7, -0.5, 0.5, 2.7, 300});

    // torch.IntTensor({1.7, -1.7, 2.5, -2.5})
    CHECK(convert<int32_t>(1.7) == 1);
    CHECK(convert<int32_t>(-1.7) == -1);
    CHECK(convert<int32_t>(2.5) == 2);
    CHECK(convert<int32_t>(-2.5) == -2);
    CHECK(convert<uint8_t>(-2.7) == 254);
    CHECK(convert<uint8_t>(300.0) == 44);
    CHECK(convert<int8_t>(300.0f) == 44);
    CHECK(convert<uint8_t>(int32_t(-1)) == 255);
    CHECK(convert<int16_t>(70000.0) == int16_t(70000 - 65536));
    CHECK(convert<double>(int64_t(-5)) == -5.0);
    CHECK(convert<float>(0.1) == 0.1f);
}

TEST_CASE("conversions of NaN and huge values are defined") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(convert<int32_t>(nan) == 0);
    CHECK(convert<uint8_t>(nan) == 0);
    CHECK(convert<int64_t>(nan) == 0);
    CHECK(convert<int64_t>(1e30) == std::numeric_limits<int64_t>::max());
    CHECK(convert<int64_t>(-1e30) == std::numeric_limits<int64_t>::min());
    CHECK(convert<int32_t>(1e30) == 0);
    CHECK(convert<int64_t>(std::numeric_limits<double>::infinity()) ==
          std::numeric_limits<int64_t>::max());
}

// ---------------------------------------------------------------------------------
// Constructors
// ---------------------------------------------------------------------------------

TEST_CASE("constructor from sizes and from a Shape") {
    // z = torch.Tensor(4,5,6,2)
    DoubleTensor z(4, 5, 6, 2);
    CHECK(z.nDimension() == 4);
    CHECK(z.dim() == 4);
    CHECK(z.sizes() == Shape{4, 5, 6, 2});
    CHECK(z.strides() == Shape{60, 12, 2, 1});
    CHECK(z.storageOffset() == 0);
    CHECK(z.storage().size() == 240);
    CHECK(z.isContiguous());

    // s = torch.LongStorage{4,5,6,2,7,3}; x = torch.Tensor(s)
    DoubleTensor x(Shape{4, 5, 6, 2, 7, 3});
    CHECK(x.nDimension() == 6);
    CHECK(x.sizes() == Shape{4, 5, 6, 2, 7, 3});
    CHECK(x.nElement() == 5040);
    CHECK(x.numel() == 5040);

    // x = torch.Tensor(torch.LongStorage({4,4,3,2}))
    DoubleTensor y(Shape{4, 4, 3, 2});
    CHECK(y.sizes() == Shape{4, 4, 3, 2});
    CHECK(y.strides() == Shape{24, 6, 2, 1});

    // b = torch.FloatTensor(torch.LongStorage({1,2})): sizes 1x2
    FloatTensor b(Shape{1, 2});
    CHECK(b.sizes() == Shape{1, 2});

    // braces of integers are sizes
    FloatTensor c{4, 5};
    CHECK(c.sizes() == Shape{4, 5});
    FloatTensor d{7};
    CHECK(d.sizes() == Shape{7});
    CHECK(LongTensor(int64_t(3), size_t(2)).sizes() == Shape{3, 2});
    size_t n = 3;
    CHECK(FloatTensor{n}.sizes() == Shape{3});
    // braced lists in parentheses are sizes too (not a Tensor, not a Storage)
    FloatTensor e({2, 3});
    CHECK(e.sizes() == Shape{2, 3});
    CHECK(e.strides() == Shape{3, 1});
    CHECK(e.storage().size() == 6);
}

TEST_CASE("an element through indices equals the storage at offset + sum(i * stride)") {
    // x = torch.Tensor(7,7,7):zero(); x[3][4][5] = 42
    DoubleTensor x(7, 7, 7);
    x.zero();
    x(2, 3, 4) = 42;
    CHECK(x(2, 3, 4) == 42);
    CHECK(x[2][3](4) == 42);
    CHECK(x.storage()[x.storageOffset() + 2 * x.stride(0) + 3 * x.stride(1) + 4 * x.stride(2)] ==
          42);
    CHECK(values(x) == [] {
        Values v(343, 0.0);
        v[2 * 49 + 3 * 7 + 4] = 42;
        return v;
    }());
}

TEST_CASE("filling the storage fills the tensor in row-major order") {
    DoubleTensor x(4, 5);
    Storage<double> s = x.storage();
    for (int64_t i = 0; i < s.size(); ++i) s[i] = double(i + 1);
    CHECK(x.strides() == Shape{5, 1});
    CHECK(x(0, 0) == 1);
    CHECK(x(0, 4) == 5);
    CHECK(x(1, 0) == 6);
    CHECK(x(3, 4) == 20);
    Values expect;
    for (int i = 1; i <= 20; ++i) expect.push_back(i);
    CHECK(values(x) == expect);
}

TEST_CASE("constructor with strides: zero stride, and negative for contiguous") {
    // x = torch.Tensor(torch.LongStorage({4}), torch.LongStorage({0})):zero(); x[1] = 1
    DoubleTensor x(Shape{4}, Shape{0});
    x.zero();
    x(0) = 1;
    CHECK(values(x) == Values{1, 1, 1, 1}); // all elements point to the same address
    CHECK(x.strides() == Shape{0});
    CHECK(x.storage().size() == 1);
    CHECK_FALSE(x.isContiguous());

    // x = torch.Tensor(torch.LongStorage({2,3}), torch.LongStorage({-1,-1}))
    DoubleTensor y(Shape{2, 3}, Shape{-1, -1});
    CHECK(y.strides() == Shape{3, 1});
    CHECK(y.storage().size() == 6);
    CHECK(y.isContiguous());

    // a negative stride is the contiguous one given the dimensions inside it
    DoubleTensor z(Shape{2, 3}, Shape{-1, 2});
    CHECK(z.strides() == Shape{6, 2});
    CHECK(z.storage().size() == 11);
    CHECK_FALSE(z.isContiguous());
    // (Torch7's rule: size[d+1] * stride[d+1], so behind a 0 stride it is 0 too)
    DoubleTensor w(Shape{2, 3, 4}, Shape{1, -1, 0});
    CHECK(w.strides() == Shape{1, 0, 0});
    CHECK(w.storage().size() == 2);
    DoubleTensor w2(Shape{2, 3, 4}, Shape{-1, 5, -1});
    CHECK(w2.strides() == Shape{15, 5, 1});
    CHECK(w2.storage().size() == 29);

    // column-major through explicit strides
    DoubleTensor cm(Shape{3, 4}, Shape{1, 3});
    CHECK(cm.storage().size() == 12);
    CHECK_FALSE(cm.isContiguous());
    CHECK(cm.t().isContiguous());

    // the same with braced lists
    DoubleTensor b({4}, {0});
    CHECK(b.strides() == Shape{0});
    CHECK(b.storage().size() == 1);
    DoubleTensor c({2, 3}, {-1, -1});
    CHECK(c.strides() == Shape{3, 1});

    CHECK_THROWS_OP(DoubleTensor(Shape{2, 3}, Shape{1}), ShapeError, "Tensor");
    CHECK_THROWS_OP(DoubleTensor({2, 3}, {1, 1, 1}), ShapeError, "Tensor");
}

TEST_CASE("constructor over a storage: offset, sizes and strides") {
    // s = torch.Storage(10):fill(1); x = torch.Tensor(s, 1, torch.LongStorage{2,5}); x:zero()
    Storage<double> s(10);
    s.fill(1);
    DoubleTensor x(s, 0, {2, 5});
    CHECK(values(x) == Values(10, 1.0));
    CHECK(x.storage() == s);
    CHECK(x.data() == s.data());
    x.zero();
    CHECK(storage_values(s) == Values(10, 0.0));

    Storage<double> s12(12);
    for (int64_t i = 0; i < 12; ++i) s12[i] = double(i + 1);
    // torch.Tensor(s): 1-D over the whole storage
    DoubleTensor all(s12, 0);
    CHECK(all.sizes() == Shape{12});
    CHECK(all.strides() == Shape{1});
    CHECK(values(all) == Values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    // 1-D over the rest of the storage after the offset
    DoubleTensor rest(s12, 9);
    CHECK(values(rest) == Values{10, 11, 12});

    // torch.Tensor(s, 3, torch.LongStorage{2,3})
    DoubleTensor a(s12, 2, {2, 3});
    CHECK(a.storageOffset() == 2);
    CHECK(a.strides() == Shape{3, 1});
    CHECK(values(a) == Values{3, 4, 5, 6, 7, 8});
    CHECK(a.data() == s12.data() + 2);

    // torch.Tensor(s, 2, torch.LongStorage{2,2}, torch.LongStorage{1,3})
    DoubleTensor b(s12, 1, {2, 2}, {1, 3});
    CHECK(values(b) == Values{2, 5, 3, 6});

    // torch.Tensor(s, 3, 2, 4, 3, 1) -- storage, offset, sz1, st1, sz2, st2
    DoubleTensor c(s12, 2, {2, 3}, {4, 1});
    CHECK(values(c) == Values{3, 4, 5, 7, 8, 9});

    // torch.Tensor(s, 1, 3, 1, 4, 3) -- column-major view
    DoubleTensor d(s12, 0, {3, 4}, {1, 3});
    CHECK(values(d) == Values{1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12});
    CHECK_FALSE(d.isContiguous());

    // a = torch.LongStorage({1,2}); c = torch.LongTensor(a): a view of the storage
    Storage<int64_t> a2(2);
    a2[0] = 1;
    a2[1] = 2;
    LongTensor lc(a2, 0);
    CHECK(lc.sizes() == Shape{2});
    CHECK(values(lc) == Values{1, 2});
    CHECK(lc.storage() == a2);

    // zero strides over a storage
    DoubleTensor e(s12, 4, {3}, {0});
    CHECK(values(e) == Values{5, 5, 5});
}

TEST_CASE("constructor over a storage: errors") {
    Storage<float> s(10);
    CHECK_THROWS_OP(FloatTensor(s, 0, {2, 6}), IndexError, "set");
    CHECK_THROWS_OP(FloatTensor(s, 5, {2, 3}), IndexError, "set");
    CHECK_THROWS_OP(FloatTensor(s, 0, {4}, {4}), IndexError, "set");
    CHECK_THROWS_OP(FloatTensor(s, -1, {2}), IndexError, "set");
    CHECK_THROWS_OP(FloatTensor(s, 0, {2, 2}, {1}), ShapeError, "set");
    CHECK_THROWS_OP(FloatTensor(s, 0, {2, 2}, {-1, 1}), ShapeError, "set");
    CHECK_THROWS_OP(FloatTensor(s, 0, {2, -2}), ShapeError, "set");
    // exactly fitting is fine
    CHECK(FloatTensor(s, 4, {2, 3}).nElement() == 6);
    CHECK(FloatTensor(s, 1, {3}, {4}).storage() == s);
    // an offset at the end of the storage with no sizes is an empty tensor
    CHECK(FloatTensor(s, 10).dim() == 0);
}

TEST_CASE("Tensor(a) shares a's storage") {
    // x = torch.Tensor(2,5):fill(3.14); y = torch.Tensor(x); y:zero()
    DoubleTensor x(2, 5);
    x.fill(3.14);
    DoubleTensor y(x);
    CHECK(y.isSetTo(x));
    CHECK(y.storage() == x.storage());
    CHECK(y.data() == x.data());
    CHECK(values(y) == Values(10, 3.14));
    y.zero();
    CHECK(values(x) == Values(10, 0.0));
    DoubleTensor z = x; // also a handle copy
    CHECK(z.data() == x.data());
}

TEST_CASE("the empty tensor") {
    DoubleTensor e;
    CHECK(e.dim() == 0);
    CHECK(e.nDimension() == 0);
    CHECK(e.nElement() == 0);
    CHECK(e.numel() == 0);
    CHECK(e.storageOffset() == 0);
    CHECK(e.sizes().empty());
    CHECK(e.strides().empty());
    CHECK_FALSE(e.storage().valid()); // torch.Tensor():storage() is nil
    CHECK(e.data() == nullptr);
    CHECK(e.isContiguous());
    CHECK(e.type() == "torch.DoubleTensor");
    CHECK_THROWS_OP(e.size(0), IndexError, "size");
    CHECK_THROWS_OP(e.stride(0), IndexError, "stride");

    // Tensor(0): 1-D of size 0 (NumPy's, not Torch7's empty tensor)
    DoubleTensor z(0);
    CHECK(z.dim() == 1);
    CHECK(z.nElement() == 0);
    CHECK(FloatTensor(Shape{}).dim() == 0);
}

TEST_CASE("a size 0 is an empty dimension, not the end of the size list (Torch7's rule)") {
    // Torch7's torch.Tensor(3,0) was 1-D of size 3; NumPy's np.empty((3, 0)) is 3x0
    DoubleTensor x(3, 0);
    CHECK(x.nDimension() == 2);
    CHECK(x.nElement() == 0);
    CHECK(x.sizes() == Shape{3, 0});
    CHECK(x.storage().size() == 0);
    DoubleTensor y(Shape{2, 3, 0, 4});
    CHECK(y.sizes() == Shape{2, 3, 0, 4});
    CHECK_THROWS_OP(DoubleTensor(2, -1), ShapeError, "negative size");
}

TEST_CASE("size() and stride() with negative and out-of-range dimensions") {
    // x = torch.Tensor(4,5)
    DoubleTensor x(4, 5);
    CHECK(x.size(1) == 5);
    CHECK(x.size(0) == 4);
    CHECK(x.size(-1) == 5);
    CHECK(x.size(-2) == 4);
    CHECK(x.stride(1) == 1);
    CHECK(x.stride(0) == 5);
    CHECK(x.stride(-1) == 1);
    CHECK(x.sizes() == Shape{4, 5});
    CHECK(x.strides() == Shape{5, 1});
    // x:size(3) -- dimension 3 out of range of 2D tensor
    CHECK_THROWS_OP(x.size(2), IndexError, "size");
    CHECK_THROWS_OP(x.size(-3), IndexError, "size");
    CHECK_THROWS_OP(x.stride(2), IndexError, "stride");

    DoubleTensor y(2, 3, 4);
    CHECK(y.strides() == Shape{12, 4, 1});
    CHECK(y.sizes().size() == 3);
    CHECK(y.size(1) == 3);
    CHECK(y.dim() == 3);
}

TEST_CASE("storageOffset is 0-based and moves with views") {
    DoubleTensor x(4, 5);
    CHECK(x.storageOffset() == 0);
    CHECK(x[1].storageOffset() == 5);               // x[2]: 6 in Torch7
    CHECK(x(2, slice(1, 4)).storageOffset() == 11); // x[{3,{2,4}}]: 12
    CHECK(x.sub(1, 2, 1, 2).storageOffset() == 6);  // x:sub(2,3,2,3): 7
    CHECK(x.select(1, 2).storageOffset() == 2);     // x:select(2,3): 3
    CHECK(x.data() + 11 == x(2, slice(1, 4)).data());
}

// ---------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------

TEST_CASE("isContiguous ignores size-1 dimensions") {
    DoubleTensor x(4, 5);
    CHECK(x.isContiguous());
    DoubleTensor y = x.select(1, 2);
    CHECK_FALSE(y.isContiguous());
    CHECK(y.strides() == Shape{5});
    CHECK(y.storageOffset() == 2);
    CHECK(x.narrow(0, 1, 2).isContiguous());
    CHECK_FALSE(x.narrow(1, 1, 2).isContiguous());
    CHECK_FALSE(x.t().isContiguous());
    CHECK(x.t().strides() == Shape{1, 5});
    // torch.Tensor(1,5):t() and torch.Tensor(5,1):t() -- size-1 dims
    CHECK(DoubleTensor(1, 5).t().isContiguous());
    CHECK(DoubleTensor(5, 1).t().isContiguous());
    // a single column of a matrix is not contiguous, a single row is
    CHECK(x.narrow(1, 2, 1).isContiguous() == false);
    CHECK(x.narrow(0, 2, 1).isContiguous());
    // one element is always contiguous, whatever its strides
    CHECK(x.narrow(0, 2, 1).narrow(1, 3, 1).isContiguous());
    CHECK(DoubleTensor(Shape{1, 1}, Shape{7, 9}).isContiguous());
    // stride 0 over more than one element is not
    CHECK_FALSE(DoubleTensor(Shape{3}, Shape{0}).isContiguous());
}

TEST_CASE("isSize and isSameSizeAs") {
    DoubleTensor x(4, 5);
    CHECK(x.isSize(Shape{4, 5}));
    CHECK_FALSE(x.isSize(Shape{5, 4, 1}));
    CHECK_FALSE(x.isSize(Shape{5, 4}));
    CHECK(x.isSize(x.sizes()));
    DoubleTensor y(4, 5);
    CHECK(x.isSameSizeAs(y));
    CHECK_FALSE(x.isSameSizeAs(DoubleTensor(4, 6)));
    CHECK_FALSE(x.isSameSizeAs(x.t()));
    // Torch7 raises an error across types; here sizes are simply compared
    CHECK(x.isSameSizeAs(IntTensor(4, 5)));
    CHECK(DoubleTensor().isSize(Shape{}));
}

TEST_CASE("set rebinds to another tensor's storage and isSetTo tells") {
    // y = torch.Tensor():set(x); y:zero()
    DoubleTensor x(2, 5);
    x.fill(3.14);
    DoubleTensor y;
    CHECK_FALSE(y.isSetTo(x));
    CHECK(&y.set(x) == &y);
    CHECK(y.isSetTo(x));
    CHECK(values(y) == Values(10, 3.14));
    y.zero();
    CHECK(values(x) == Values(10, 0.0));
    CHECK_FALSE(y.t().isSetTo(x));
    CHECK(x.isSetTo(x));
    CHECK_FALSE(x.narrow(0, 0, 1).isSetTo(x));
    CHECK(x.narrow(0, 0, 2).isSetTo(x)); // the whole range: same view
    DoubleTensor other(2, 5);
    CHECK_FALSE(other.isSetTo(x));
    // rebinding does not copy values: other keeps its memory, x is untouched
    other.set(x[1]);
    CHECK(other.storage() == x.storage());
    CHECK(other.sizes() == Shape{5});
    CHECK(other.storageOffset() == 5);
}

TEST_CASE("set over a storage with sizes and strides") {
    // s = torch.Storage(10):fill(1); x:set(s, 1, torch.LongStorage({2,5})); x:zero()
    Storage<double> s(10);
    s.fill(1);
    DoubleTensor x;
    x.set(s, 0, {2, 5});
    CHECK(values(x) == Values(10, 1.0));
    x.zero();
    CHECK(storage_values(s) == Values(10, 0.0));

    // x = torch.Tensor():set(s, 2, 2, 3, 3, 1)
    for (int64_t i = 0; i < 10; ++i) s[i] = double(i + 1);
    DoubleTensor y;
    y.set(s, 1, {2, 3}, {3, 1});
    CHECK(values(y) == Values{2, 3, 4, 5, 6, 7});
    CHECK(y.storageOffset() == 1); // 2 in Torch7
    CHECK(y.storage() == s);
    CHECK(y.data() == s.data() + 1);

    // set replaces everything, including a previous view
    DoubleTensor z(3, 3);
    z.set(s, 4, {3});
    CHECK(z.sizes() == Shape{3});
    CHECK(z.strides() == Shape{1});
    CHECK(values(z) == Values{5, 6, 7});
    CHECK_THROWS_OP(z.set(s, 8, {3}), IndexError, "set");
    CHECK(values(z) == Values{5, 6, 7}); // unchanged after the failed set
}

TEST_CASE("resize and resizeAs: the storage grows, never shrinks") {
    // x = torch.range(1,6); x:resize(2,3)
    DoubleTensor x(6);
    fill_seq(x);
    Storage<double> s = x.storage();
    CHECK(&x.resize(2, 3) == &x);
    CHECK(x.sizes() == Shape{2, 3});
    CHECK(x.strides() == Shape{3, 1});
    CHECK(values(x) == Values{1, 2, 3, 4, 5, 6});
    CHECK(x.storage() == s);
    // x:resize(3)
    x.resize(3);
    CHECK(values(x) == Values{1, 2, 3});
    CHECK(x.storage().size() == 6);
    // x:resize(2,2)
    x.resize(2, 2);
    CHECK(values(x) == Values{1, 2, 3, 4});
    CHECK(x.storage().size() == 6);
    // y = torch.Tensor(3,1); y:resizeAs(x)
    DoubleTensor y(3, 1);
    y.resizeAs(x);
    CHECK(y.sizes() == Shape{2, 2});
    CHECK(y.storage().size() == 4); // 3 grew to 4
    // x:resize(torch.LongStorage{3,2})
    DoubleTensor r(6);
    fill_seq(r);
    r.resize(Shape{3, 2});
    CHECK(values(r) == Values{1, 2, 3, 4, 5, 6});
    CHECK(r.sizes() == Shape{3, 2});

    // growing keeps the old values in front and is seen by every handle
    DoubleTensor g(4);
    fill_seq(g);
    DoubleTensor h = g;
    g.resize(3, 3);
    CHECK(g.storage().size() == 9);
    CHECK(h.storage().size() == 9);
    CHECK(g(0, 0) == 1);
    CHECK(g(1, 0) == 4);

    // resizeAs across element types
    FloatTensor f;
    f.resizeAs(IntTensor(2, 7));
    CHECK(f.sizes() == Shape{2, 7});
    CHECK(f.isContiguous());

    // resizing a view keeps its storage offset
    DoubleTensor base(10);
    fill_seq(base);
    DoubleTensor v = base.narrow(0, 4, 2);
    v.resize(2, 3);
    CHECK(v.storageOffset() == 4);
    CHECK(v.storage() == base.storage());
    CHECK(values(v) == Values{5, 6, 7, 8, 9, 10});
    v.resize(2, 4); // needs 4 + 8 = 12 elements
    CHECK(base.storage().size() == 12);
    CHECK(v(0, 0) == 5);

    // resizing to the same sizes changes nothing, not even non-contiguous strides
    // (Torch7's resizeNd returns early); another size makes it contiguous
    DoubleTensor m(3, 3);
    DoubleTensor mt = m.t();
    mt.resize(3, 3);
    CHECK(mt.strides() == Shape{1, 3});
    mt.resize(9);
    CHECK(mt.isContiguous());
    CHECK(mt.storage() == m.storage());

    // sizes 0 as in the constructor: empty dimensions, the storage kept
    DoubleTensor q(5);
    q.resize(2, 0);
    CHECK(q.sizes() == Shape{2, 0});
    CHECK(q.storage().size() == 5);
    CHECK_THROWS_OP(q.resize(-1), ShapeError, "resize");
    DoubleTensor empty;
    empty.resize(0);
    CHECK(empty.sizes() == Shape{0});
}

// ---------------------------------------------------------------------------------
// Element access
// ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("element access x(i, j) reads and writes one element", T, uint8_t, int8_t,
                   int16_t, int32_t, int64_t, float, double) {
    Tensor<T> x(3, 3);
    fill_seq(x);
    CHECK(x(0, 0) == T(1));
    CHECK(x(1, 2) == T(6));
    CHECK(x(2, 2) == T(9));
    CHECK(x(-1, -1) == T(9));
    CHECK(x(-1, -2) == T(8)); // x[{-1,-2}]
    CHECK(x(-3, 0) == T(1));
    CHECK(&x(1, 2) == x.data() + 5);
    x(1, 1) = T(50);
    CHECK(x.storage()[4] == T(50));
    x(-1, 0) = T(70);
    CHECK(x.storage()[6] == T(70));
    static_assert(std::is_same_v<decltype(x(0, 0)), T&>);

    Tensor<T> v(5);
    fill_seq(v);
    CHECK(v(0) == T(1));
    CHECK(v(-1) == T(5));
    CHECK(v(-2) == T(4));

    // on a view, through its offset and strides
    Tensor<T> c = x.t();
    CHECK(c(0, 1) == T(4));
    CHECK(c(2, 0) == T(3));
}

TEST_CASE("element access errors") {
    DoubleTensor x(3, 3);
    CHECK_THROWS_OP(x(3, 0), IndexError, "index");
    CHECK_THROWS_OP(x(0, 3), IndexError, "index");
    CHECK_THROWS_OP(x(-4, 0), IndexError, "index");
    CHECK_THROWS_OP(x(0, -4), IndexError, "index");
    // x[{1,2,3}] -- too many indices provided
    CHECK_THROWS_OP(x(0, 1, 2), IndexError, "index");
    // too few integers for an element
    CHECK_THROWS_OP(x(0), IndexError, "index");
    DoubleTensor v(5);
    CHECK_THROWS_OP(v(5), IndexError, "index");
    CHECK_THROWS_OP(v(-6), IndexError, "index");
    CHECK_THROWS_OP(DoubleTensor()(0), IndexError, "index");
    // the message names the offending index and size
    CHECK_THROWS_WITH_AS(x(0, 7), doctest::Contains("7"), IndexError);
    CHECK_THROWS_WITH_AS(x(0, 7), doctest::Contains("size 3"), IndexError);
}
