// DLPack (issue 36, <t7/dlpack.hpp>): toDLPack / fromDLPack round trips for every
// element type over the layouts (contiguous, transposed, narrowed, expanded,
// permuted 3-D, empty), the DLTensor fields toDLPack writes, storage sharing
// (writes through one side seen on the other), lifetimes (a storage outlives
// the tensor7 handles until the deleter runs; fromDLPack's deleter runs once,
// when the last handle dies) and the errors, which leave the managed tensor to
// the caller. Built when <dlpack/dlpack.h> is found (tests/meson.build).
#include <t7/t7.hpp>

#include <t7/dlpack.hpp>

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

using namespace t7;

namespace {

template <class T>
T val(double v) {
    if constexpr (std::is_same_v<T, Half>)
        return Half(float(v));
    else
        return T(v);
}
template <class T>
double num(T v) {
    if constexpr (std::is_same_v<T, Half>)
        return double(float(v));
    else
        return double(v);
}

// The n-th element of t (layout order) through sizes/strides/data() only.
template <class T>
std::vector<double> values(const Tensor<T>& t) {
    std::vector<double> v;
    if (t.dim() == 0) return v;
    std::vector<int64_t> idx(size_t(t.dim()), 0);
    for (int64_t n = 0; n < t.nElement(); ++n) {
        int64_t off = 0;
        for (int64_t d = 0; d < t.dim(); ++d) off += idx[size_t(d)] * t.stride(d);
        v.push_back(num(t.data()[off]));
        for (int64_t d = t.dim() - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < t.size(d)) break;
            idx[size_t(d)] = 0;
        }
    }
    return v;
}

// The same through a DLTensor's own fields (strides may be null).
template <class T>
std::vector<double> dl_values(const DLTensor& t) {
    std::vector<double> v;
    int64_t n = 1;
    for (int d = 0; d < t.ndim; ++d) n *= t.shape[d];
    std::vector<int64_t> st(size_t(t.ndim), 1);
    for (int d = t.ndim - 1; d >= 0; --d)
        st[size_t(d)] =
            t.strides ? t.strides[d] : (d == t.ndim - 1 ? 1 : st[size_t(d + 1)] * t.shape[d + 1]);
    const T* base = reinterpret_cast<const T*>(static_cast<const char*>(t.data) + t.byte_offset);
    std::vector<int64_t> idx(size_t(t.ndim), 0);
    for (int64_t k = 0; k < n; ++k) {
        int64_t off = 0;
        for (int d = 0; d < t.ndim; ++d) off += idx[size_t(d)] * st[size_t(d)];
        v.push_back(num(base[off]));
        for (int d = t.ndim - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < t.shape[d]) break;
            idx[size_t(d)] = 0;
        }
    }
    return v;
}

// A storage of 60 elements 1, 2, ... and the views over it the round trips use.
template <class T>
std::vector<Tensor<T>> layouts() {
    Tensor<T> a(3, 4, 5);
    for (int64_t i = 0; i < a.nElement(); ++i) a.data()[i] = val<T>(double(i % 97 + 1));
    Tensor<T> row(5);
    for (int64_t i = 0; i < 5; ++i) row.data()[i] = val<T>(double(i + 1));
    return {a,                                 // contiguous 3-D
            a.select(0, 1).t(),                // transposed (offset 20)
            a.narrow(2, 1, 3).narrow(1, 2, 2), // narrowed (offset, gaps)
            row.view(1, 5).expand(4, 5),       // expanded: stride 0
            a.permute(2, 0, 1),                // permuted 3-D
            a.select(0, 2).select(0, 3),       // 1-D with an offset
            a.flip({0, 2}),                    // reversed: negative strides
            a.narrow(1, 1, 0),                 // an empty dimension: 3x0x5
            Tensor<T>()};                      // empty
}

struct Counter {
    int calls = 0;
};

// A managed tensor over caller-owned memory whose deleter counts its calls.
struct Foreign {
    DLManagedTensor m{};
    std::vector<int64_t> shape, strides;
    Counter* counter;
};
void foreign_deleter(DLManagedTensor* self) {
    auto* f = static_cast<Foreign*>(self->manager_ctx);
    ++f->counter->calls;
    delete f;
}
template <class T>
DLManagedTensor* foreign(void* data, std::vector<int64_t> shape, std::vector<int64_t> strides,
                         Counter& c, DLDevice dev = {kDLCPU, 0}) {
    auto* f = new Foreign{{}, std::move(shape), std::move(strides), &c};
    DLTensor& t = f->m.dl_tensor;
    t.data = data;
    t.device = dev;
    t.ndim = int(f->shape.size());
    t.dtype = detail::dlpack_dtype<T>();
    t.shape = f->shape.data();
    t.strides = f->strides.empty() ? nullptr : f->strides.data();
    t.byte_offset = 0;
    f->m.manager_ctx = f;
    f->m.deleter = &foreign_deleter;
    return &f->m;
}

} // namespace

#define T7_DLPACK_TYPES uint8_t, int8_t, int16_t, int32_t, int64_t, float, double, Half

TEST_CASE_TEMPLATE("toDLPack writes sizes, strides, dtype and device; fromDLPack reads them back",
                   T, T7_DLPACK_TYPES) {
    for (const Tensor<T>& x : layouts<T>()) {
        CAPTURE(x.sizes());
        CAPTURE(x.strides());
        DLManagedTensor* m = toDLPack(x);
        const DLTensor& t = m->dl_tensor;
        CHECK(t.device.device_type == kDLCPU);
        CHECK(t.device.device_id == 0);
        CHECK(t.dtype.lanes == 1);
        CHECK(t.dtype.bits == sizeof(T) * 8);
        CHECK(t.dtype.code == (std::is_same_v<T, Half> || std::is_floating_point_v<T> ? kDLFloat
                               : std::is_signed_v<T>                                  ? kDLInt
                                                                                      : kDLUInt));
        CHECK(t.byte_offset == 0);
        if (x.dim() == 0) {
            REQUIRE(t.ndim == 1);
            CHECK(t.shape[0] == 0);
            CHECK(t.data == nullptr);
        } else {
            REQUIRE(t.ndim == x.dim());
            REQUIRE(t.strides != nullptr);
            for (int d = 0; d < t.ndim; ++d) {
                CHECK(t.shape[d] == x.size(d));
                CHECK(t.strides[d] == x.stride(d));
            }
            CHECK(t.data == static_cast<void*>(x.data()));
            CHECK(dl_values<T>(t) == values(x));
        }

        Tensor<T> y = fromDLPack<T>(m);
        CHECK_FALSE(y.ownsStorage());
        // the dimensionless empty tensor travels as shape {0}: it comes back 1-D of size 0
        CHECK(y.sizes() == (x.dim() == 0 ? Shape{0} : x.sizes()));
        if (x.nElement() > 0) {
            CHECK(y.strides() == x.strides());
            CHECK(y.data() == x.data());
        }
        CHECK(values(y) == values(x));
    }
}

TEST_CASE_TEMPLATE("both sides share the memory: writes are seen on the other side", T,
                   T7_DLPACK_TYPES) {
    Tensor<T> a(4, 6);
    for (int64_t i = 0; i < a.nElement(); ++i) a.data()[i] = val<T>(0);
    Tensor<T> x = a.t().narrow(0, 1, 4); // 4 x 4, strides {1, 6}, offset 6
    DLManagedTensor* m = toDLPack(x);
    // Written through the DLTensor (as a consumer would), read in tensor7.
    T* p = static_cast<T*>(m->dl_tensor.data);
    p[2 * m->dl_tensor.strides[0] + 3 * m->dl_tensor.strides[1]] = val<T>(7);
    CHECK(num(x.data()[2 * 1 + 3 * 6]) == 7);
    CHECK(num(a.data()[3 * 6 + 1 + 2]) == 7);
    // Imported again: the tensor7 view of the view writes into a's memory.
    Tensor<T> y = fromDLPack<T>(m);
    y.data()[1 * y.stride(0) + 0 * y.stride(1)] = val<T>(5);
    CHECK(num(a.data()[0 * 6 + 1 + 1]) == 5);
    CHECK(values(y) == values(x));
}

// Complex elements (issue 42): kDLComplex with bits counting both parts, NumPy's
// and PyTorch's layout; the real and imaginary parts travel in place.
TEST_CASE_TEMPLATE("complex tensors both ways: kDLComplex 64 and 128", Z, std::complex<float>,
                   std::complex<double>) {
    using R = typename Z::value_type;
    Tensor<Z> a(3, 4);
    for (int64_t i = 0; i < a.nElement(); ++i) a.data()[i] = Z(R(i + 1), R(-0.5 * double(i)));
    for (const Tensor<Z>& x : {a, a.t(), a.narrow(1, 1, 2), a.flip({1}), Tensor<Z>()}) {
        CAPTURE(x.sizes());
        DLManagedTensor* m = toDLPack(x);
        const DLTensor& t = m->dl_tensor;
        CHECK(t.dtype.code == kDLComplex);
        CHECK(t.dtype.bits == sizeof(R) * 16);
        CHECK(t.dtype.lanes == 1);
        Tensor<Z> y = fromDLPack<Z>(m);
        CHECK_FALSE(y.ownsStorage());
        CHECK(y.sizes() == (x.dim() == 0 ? Shape{0} : x.sizes()));
        if (x.nElement() == 0) continue;
        CHECK(y.strides() == x.strides());
        CHECK(y.data() == x.data());
        const Z* p = static_cast<const Z*>(t.data);
        CHECK(p[t.strides[0]] == x(1, 0)); // the consumer's reading of element (1, 0)
        CHECK(y(1, 0) == x(1, 0));
        CHECK(y(0, 1) == x(0, 1));
    }
    // a write through the import is a write of both parts of a's element
    Tensor<Z> y = fromDLPack<Z>(toDLPack(a.t()));
    y(2, 1) = Z(7, -8);
    CHECK(a(1, 2) == Z(7, -8));

    // a complex DLPack tensor is no real type's, and no real one is complex
    std::vector<Z> mem(4, Z(1, 2));
    Counter c;
    DLManagedTensor* m = foreign<Z>(mem.data(), {2, 2}, {}, c);
    std::string msg;
    try {
        fromDLPack<R>(m);
    } catch (const TypeError& e) {
        msg = e.what();
    }
    CHECK(msg.find("(code 5, " + std::to_string(sizeof(Z) * 8) + " bits)") != std::string::npos);
    CHECK_THROWS_AS(fromDLPack<double>(m), TypeError);
    CHECK_THROWS_AS(fromDLPack<int64_t>(m), TypeError);
    using Other =
        std::conditional_t<std::is_same_v<R, float>, std::complex<double>, std::complex<float>>;
    CHECK_THROWS_AS(fromDLPack<Other>(m), TypeError);
    m->dl_tensor.dtype = detail::dlpack_dtype<R>(); // the real parts' type
    CHECK_THROWS_AS(fromDLPack<Z>(m), TypeError);
    m->dl_tensor.dtype.bits = uint8_t(sizeof(Z) * 8); // a real type as wide as Z
    CHECK_THROWS_AS(fromDLPack<Z>(m), TypeError);
    m->dl_tensor.dtype = detail::dlpack_dtype<Z>();
    CHECK(c.calls == 0);
    {
        Tensor<Z> ok = fromDLPack<Z>(m);
        CHECK(ok(1, 1) == Z(1, 2));
    }
    CHECK(c.calls == 1);
}

TEST_CASE("toDLPack keeps the storage alive until the deleter runs") {
    DLManagedTensor* m = nullptr;
    const void* id = nullptr;
    {
        FloatTensor x(3, 4);
        for (int64_t i = 0; i < 12; ++i) x.data()[i] = float(i);
        id = x.storage().id();
        m = toDLPack(x.t());
        CHECK(x.storage().use_count() == 2); // x and the managed tensor's handle
    }                                        // x gone: the managed tensor holds the only handle
    const DLTensor& t = m->dl_tensor;
    CHECK(t.shape[0] == 4);
    CHECK(t.strides[0] == 1);
    CHECK(dl_values<float>(t) == std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
    {
        FloatTensor y = fromDLPack<float>(m); // our own managed tensor comes back
        CHECK(y.storage().id() != id);        // a new (wrapping) storage over the same memory
        y.data()[0] = 42;
        CHECK(num(static_cast<float*>(t.data)[0]) == 42);
    } // y's last handle calls m->deleter, which drops the last handle on x's storage
    // (ASan reports a leak if it did not, a double free if it ran twice.)
}

TEST_CASE("toDLPack of a pending matrix product computes it first") {
    DoubleTensor a(2, 3), b(3, 2);
    for (int64_t i = 0; i < 6; ++i) {
        a.data()[i] = double(i + 1);
        b.data()[i] = double(6 - i);
    }
    DLManagedTensor* m = toDLPack(t7::mm(a, b)); // the product's storage is pending
    REQUIRE(m->dl_tensor.data != nullptr);
    // {1 2 3; 4 5 6} x {6 5; 4 3; 2 1}
    CHECK(dl_values<double>(m->dl_tensor) == std::vector<double>{20, 14, 56, 41});
    m->deleter(m);
}

TEST_CASE("toDLPack's deleter, called by the consumer, drops exactly one handle") {
    FloatTensor x(5);
    CHECK(x.storage().use_count() == 1);
    DLManagedTensor* m1 = toDLPack(x);
    DLManagedTensor* m2 = toDLPack(x.narrow(0, 1, 2));
    CHECK(x.storage().use_count() == 3);
    CHECK(bool(m1->deleter));
    m1->deleter(m1);
    CHECK(x.storage().use_count() == 2);
    m2->deleter(m2);
    CHECK(x.storage().use_count() == 1);
}

TEST_CASE("fromDLPack calls the deleter exactly once, when the last tensor7 handle dies") {
    std::vector<double> mem(24);
    for (size_t i = 0; i < mem.size(); ++i) mem[i] = double(i);
    Counter c;
    {
        DoubleTensor y = fromDLPack<double>(foreign<double>(mem.data(), {2, 3, 4}, {}, c));
        CHECK(y.sizes() == Shape{2, 3, 4});
        CHECK(y.strides() == Shape{12, 4, 1}); // null strides: compact row-major
        CHECK_FALSE(y.ownsStorage());
        DoubleTensor v = y.select(0, 1).t(); // a view
        DoubleTensor h(y);                   // another handle
        auto e = v * 2.0;                    // a lazy expression holding a handle
        y.set(DoubleTensor());
        h.set(DoubleTensor());
        CHECK(c.calls == 0);
        y.set(v); // handles keep coming and going
        v.set(DoubleTensor());
        CHECK(c.calls == 0);
        DoubleTensor r = e;
        CHECK(r.size(0) == 4);
        CHECK(r.data()[1 * 3 + 2] == 2 * mem[12 + 2 * 4 + 1]);
        mem[12] = -1;
        CHECK(y.data()[0] == -1); // y is set to v: the caller's writes are seen
        y.data()[1] = -2;         // and tensor7's reach the caller: v(1, 0) is mem[13]
        CHECK(mem[13] == -2);
    }
    CHECK(c.calls == 1);
}

TEST_CASE("fromDLPack: byte_offset, strides, a scalar and an empty tensor") {
    std::vector<int32_t> mem(40);
    for (size_t i = 0; i < mem.size(); ++i) mem[i] = int32_t(i);
    Counter c;
    SUBCASE("byte_offset and explicit strides") {
        DLManagedTensor* m = foreign<int32_t>(mem.data(), {3, 2}, {1, 10}, c);
        m->dl_tensor.byte_offset = 5 * sizeof(int32_t);
        IntTensor y = fromDLPack<int32_t>(m);
        CHECK(y.data() == mem.data() + 5);
        CHECK(values(y) == std::vector<double>{5, 15, 6, 16, 7, 17});
    }
    SUBCASE("stride 0 and negative strides on dimensions of size 1") {
        IntTensor y = fromDLPack<int32_t>(foreign<int32_t>(mem.data(), {1, 3, 2}, {-7, 0, 1}, c));
        CHECK(y.sizes() == Shape{1, 3, 2});
        CHECK(y.strides() == Shape{0, 0, 1});
        CHECK(values(y) == std::vector<double>{0, 1, 0, 1, 0, 1});
    }
    SUBCASE("a 0-dimensional scalar comes in as one element") {
        IntTensor y = fromDLPack<int32_t>(foreign<int32_t>(mem.data() + 3, {}, {}, c));
        CHECK(y.sizes() == Shape{1});
        CHECK(y.data()[0] == 3);
    }
    SUBCASE("negative strides: a reversed view of the producer's memory") {
        IntTensor y = fromDLPack<int32_t>(foreign<int32_t>(mem.data() + 11, {3, 4}, {-4, -1}, c));
        CHECK(y.sizes() == Shape{3, 4});
        CHECK(y.strides() == Shape{-4, -1});
        CHECK(y.data() == mem.data() + 11);
        CHECK(y.storage().data() == mem.data()); // from the lowest element reached
        CHECK(values(y) == std::vector<double>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
        {
            IntTensor z = fromDLPack<int32_t>(foreign<int32_t>(mem.data() + 8, {3, 4}, {-4, 1}, c));
            CHECK(values(z) == std::vector<double>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
        }
        CHECK(c.calls == 1); // z's; y's below
        c.calls = 0;
    }
    SUBCASE("a size 0 anywhere keeps the shape; the data pointer may be null") {
        IntTensor y = fromDLPack<int32_t>(foreign<int32_t>(nullptr, {4, 0, 3}, {}, c));
        CHECK(y.sizes() == Shape{4, 0, 3});
        CHECK(y.nElement() == 0);
        {
            IntTensor z = fromDLPack<int32_t>(foreign<int32_t>(nullptr, {0}, {}, c));
            CHECK(z.sizes() == Shape{0});
        }
        CHECK(c.calls == 1); // z's; y's below
        c.calls = 0;
    }
    SUBCASE("kDLBool 8-bit imports as uint8") {
        std::vector<uint8_t> b{1, 0, 1};
        DLManagedTensor* m = foreign<uint8_t>(b.data(), {3}, {}, c);
        m->dl_tensor.dtype.code = detail::dlpack_bool_code;
        ByteTensor y = fromDLPack<uint8_t>(m);
        CHECK(values(y) == std::vector<double>{1, 0, 1});
    }
    SUBCASE("pinned host memory (kDLCUDAHost) is a CPU tensor's") {
        IntTensor y =
            fromDLPack<int32_t>(foreign<int32_t>(mem.data(), {2}, {}, c, {kDLCUDAHost, 0}));
        CHECK(values(y) == std::vector<double>{0, 1});
    }
    SUBCASE("a null deleter is never called") {
        DLManagedTensor m{};
        int64_t shape = 4;
        m.dl_tensor = DLTensor{mem.data(), {kDLCPU, 0}, 1, detail::dlpack_dtype<int32_t>(),
                               &shape,     nullptr,     0};
        IntTensor y = fromDLPack<int32_t>(&m);
        CHECK(values(y) == std::vector<double>{0, 1, 2, 3});
        c.calls = 1; // the other subcases' count
    }
    CHECK(c.calls == 1);
}

TEST_CASE("a tensor7 tensor through another library and back: two hops, one deleter each") {
    FloatTensor x(2, 3);
    for (int64_t i = 0; i < 6; ++i) x.data()[i] = float(i);
    FloatTensor back = fromDLPack<float>(toDLPack(fromDLPack<float>(toDLPack(x.t()))));
    CHECK(back.sizes() == Shape{3, 2});
    CHECK(back.strides() == Shape{1, 3});
    back.data()[1 + 3] = 9; // (1, 1)
    CHECK(x.data()[4] == 9);
    CHECK(x.storage().use_count() == 2); // x and the innermost managed tensor's handle
    back.set(FloatTensor());
    CHECK(x.storage().use_count() == 1); // every managed tensor was deleted
}

TEST_CASE("errors leave the managed tensor to the caller, undeleted") {
    std::vector<float> mem(16, 1.0f);
    Counter c;
    DLManagedTensor* m = foreign<float>(mem.data(), {4, 4}, {}, c);
    DLTensor& t = m->dl_tensor;

    CHECK_THROWS_AS(fromDLPack<float>(nullptr), Error);
    // dtype: code, bits, lanes
    CHECK_THROWS_AS(fromDLPack<double>(m), TypeError);
    CHECK_THROWS_AS(fromDLPack<int32_t>(m), TypeError);
    CHECK_THROWS_AS(fromDLPack<Half>(m), TypeError);
    CHECK_THROWS_AS(fromDLPack<uint8_t>(m), TypeError);
    t.dtype.lanes = 4;
    CHECK_THROWS_AS(fromDLPack<float>(m), TypeError);
    t.dtype.lanes = 1;
    t.dtype.code = kDLBfloat;
    t.dtype.bits = 16;
    CHECK_THROWS_AS(fromDLPack<Half>(m), TypeError);
    t.dtype = detail::dlpack_dtype<float>();
    // device
    t.device = {kDLCUDA, 0};
    CHECK_THROWS_AS(fromDLPack<float>(m), DeviceError);
    t.device = {kDLOpenCL, 0};
    CHECK_THROWS_AS(fromDLPack<float>(m), DeviceError);
    t.device = {kDLCPU, 0};
    CHECK_THROWS_AS((detail::dlpack_import_plan<float, CUDA>(t)), DeviceError); // fromDLPack's

    // shapes
    int64_t* shape = t.shape;
    shape[0] = -1;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError);
    shape[0] = int64_t(1) << 40;
    shape[1] = int64_t(1) << 40;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError); // element count overflows
    shape[0] = 4;
    shape[1] = 4;
    int64_t big[2] = {int64_t(1) << 62, 1};
    t.strides = big;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError); // extent overflows
    int64_t neg[2] = {INT64_MIN, 1};
    t.strides = neg;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError); // a stride that cannot be negated
    t.strides = nullptr;
    t.byte_offset = 2;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError);
    t.byte_offset = 0;
    t.ndim = -1;
    CHECK_THROWS_AS(fromDLPack<float>(m), ShapeError);
    t.ndim = 2;
    t.data = nullptr;
    CHECK_THROWS_AS(fromDLPack<float>(m), Error);
    t.data = mem.data();

    CHECK(c.calls == 0); // none of them deleted m
    {
        FloatTensor y = fromDLPack<float>(m); // still usable
        CHECK(values(y) == std::vector<double>(16, 1.0));
    }
    CHECK(c.calls == 1);
}

// fromDLPack<T, CUDA>'s checks, without a CUDA runtime (its storage's release
// needs tensor7_cuda; tests/dlpack_cuda_compile.cpp compiles the rest).
TEST_CASE("fromDLPack for CUDA tensors: kDLCUDA and kDLCUDAManaged, the device id") {
    float f[6] = {};
    int64_t shape[2] = {2, 3};
    DLTensor t{f, {kDLCUDA, 1}, 2, detail::dlpack_dtype<float>(), shape, nullptr, 0};
    auto plan = detail::dlpack_import_plan<float, CUDA>(t);
    CHECK(plan.device == 1);
    CHECK(plan.data == f);
    CHECK(plan.extent == 6);
    CHECK(plan.sizes == Shape{2, 3});
    CHECK(plan.strides == Shape{3, 1});
    t.device = {kDLCUDAManaged, 0};
    CHECK(detail::dlpack_import_plan<float, CUDA>(t).device == 0);
    t.device = {kDLCUDA, -1};
    CHECK_THROWS_AS((detail::dlpack_import_plan<float, CUDA>(t)), DeviceError);
    t.device = {kDLCPU, 0};
    CHECK_THROWS_AS((detail::dlpack_import_plan<float, CUDA>(t)), DeviceError);
    t.device = {kDLCUDAHost, 0};
    CHECK_THROWS_AS((detail::dlpack_import_plan<float, CUDA>(t)), DeviceError);
    t.device = {kDLCUDA, 0};
    t.dtype = detail::dlpack_dtype<Half>();
    CHECK_THROWS_AS((detail::dlpack_import_plan<float, CUDA>(t)), TypeError);
    CHECK(detail::dlpack_import_plan<Half, CUDA>(t).extent == 6);
}

TEST_CASE("Storage::wrap with a release: run once by the last handle, not on a throw") {
    static int released = 0;
    released = 0;
    auto release = [](void* ctx) noexcept { released += *static_cast<int*>(ctx); };
    int one = 1;
    float buf[4] = {1, 2, 3, 4};
    {
        FloatStorage s = FloatStorage::wrap(buf, 4, 0, release, &one);
        CHECK_FALSE(s.ownsStorage());
        FloatTensor a(s, 1, {3});
        s = FloatStorage();
        CHECK(released == 0);
        FloatTensor b = a.narrow(0, 1, 1);
        a.set(FloatTensor());
        CHECK(released == 0);
        CHECK(b.data()[0] == 3);
    }
    CHECK(released == 1);
    CHECK_THROWS_AS(FloatStorage::wrap(nullptr, 4, 0, release, &one), Error);
    CHECK(released == 1);
}
