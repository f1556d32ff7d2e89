// DLPack against a consumer nobody here wrote: libtorch (Debian's libtorch-dev,
// at::fromDLPack / at::toDLPack of <ATen/DLConvertor.h>). A tensor7 tensor viewed
// by libtorch and written there is seen by tensor7, and a torch tensor (a
// transposed, narrowed one) imported into tensor7 and written there is seen by
// torch; every deleter runs once (counted through both sides' reference
// counts). One translation unit: ATen's headers are most of its compile time.
// libtorch 1.13 bundles ATen/dlpack.h, DLPack 0.6 under the same include guard
// as dlpack/dlpack.h, so whichever comes first serves both.
#include <ATen/DLConvertor.h>

#include <t7/tensor.hpp>

#include <t7/dlpack.hpp>

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

template <class T>
constexpr at::ScalarType torch_type() {
    if constexpr (std::is_same_v<T, uint8_t>) return at::kByte;
    if constexpr (std::is_same_v<T, int8_t>) return at::kChar;
    if constexpr (std::is_same_v<T, int16_t>) return at::kShort;
    if constexpr (std::is_same_v<T, int32_t>) return at::kInt;
    if constexpr (std::is_same_v<T, int64_t>) return at::kLong;
    if constexpr (std::is_same_v<T, float>) return at::kFloat;
    if constexpr (std::is_same_v<T, double>) return at::kDouble;
    return at::kHalf;
}

template <class T>
T val(double v) {
    if constexpr (std::is_same_v<T, t7::Half>)
        return t7::Half(float(v));
    else
        return T(v);
}
template <class T>
double num(T v) {
    if constexpr (std::is_same_v<T, t7::Half>)
        return double(float(v));
    else
        return double(v);
}

// t(i, j) of a 2-D tensor7 tensor, through its strides.
template <class T>
double at2(const t7::Tensor<T>& t, int64_t i, int64_t j) {
    return num(t.data()[i * t.stride(0) + j * t.stride(1)]);
}

} // namespace

TEST_CASE_TEMPLATE("a tensor7 tensor viewed by libtorch: writes there are seen here", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double, t7::Half) {
    t7::Tensor<T> x(3, 4);
    for (int64_t i = 0; i < 12; ++i) x.data()[i] = val<T>(double(i));
    t7::Tensor<T> v = x.t().narrow(0, 1, 3); // 3 x 3, strides {1, 4}, offset 1
    {
        at::Tensor a = at::fromDLPack(t7::toDLPack(v));
        CHECK(x.storage().use_count() == 3); // x, v, the managed tensor torch holds
        CHECK(bool(a.scalar_type() == torch_type<T>()));
        CHECK(a.device().is_cpu());
        CHECK(bool(a.sizes() == at::IntArrayRef({3, 3})));
        CHECK(bool(a.strides() == at::IntArrayRef({1, 4})));
        CHECK(a.data_ptr() == static_cast<void*>(v.data()));
        for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) CHECK(a[i][j].item<double>() == at2(v, i, j));
        a[2][1].fill_(100); // torch writes: v(2, 1) is x(1, 3)
        CHECK(at2(x, 1, 3) == 100);
        a.select(1, 0).add_(1); // v(:, 0) is x(0, 1..3)
        CHECK(at2(x, 0, 1) == 2);
        CHECK(at2(x, 0, 3) == 4);
        x.data()[2 * 4 + 2] = val<T>(7); // tensor7 writes x(2, 2) = v(1, 2)
        CHECK(a[1][2].item<double>() == 7);
        at::Tensor b = a.clone(); // torch's own copy: not a view
        CHECK(x.storage().use_count() == 3);
    } // torch's last handle called our deleter, once
    CHECK(x.storage().use_count() == 2);
}

TEST_CASE("expanded and empty tensor7 tensors in libtorch") {
    t7::FloatTensor row(4);
    for (int64_t i = 0; i < 4; ++i) row.data()[i] = float(i + 1);
    {
        at::Tensor a = at::fromDLPack(t7::toDLPack(row.view(1, 4).expand(3, 4)));
        CHECK(bool(a.strides() == at::IntArrayRef({0, 1})));
        CHECK(a.sum().item<double>() == 30);
    }
    {
        at::Tensor e = at::fromDLPack(t7::toDLPack(t7::FloatTensor()));
        CHECK(e.numel() == 0);
        CHECK(e.dim() == 1);
    }
    CHECK(row.storage().use_count() == 1);
}

TEST_CASE_TEMPLATE("a torch tensor imported into tensor7: writes here are seen there", T, uint8_t,
                   int8_t, int16_t, int32_t, int64_t, float, double, t7::Half) {
    at::Tensor base =
        at::arange(20, at::TensorOptions().dtype(at::kFloat)).reshape({4, 5}).to(torch_type<T>());
    at::Tensor b = base.t().narrow(0, 1, 3); // 3 x 4, strides {1, 5}, offset 1
    // libtorch 1.13's toDLPack hands out a new view (as_strided) of b: counted on
    // the storage, which base, b and that view share.
    const auto n0 = b.storage().use_count();
    {
        t7::Tensor<T> y = t7::fromDLPack<T>(at::toDLPack(b));
        CHECK(b.storage().use_count() == n0 + 1); // torch's managed tensor holds a view
        CHECK_FALSE(y.ownsStorage());
        CHECK(y.sizes() == t7::Shape{3, 4});
        CHECK(y.strides() == t7::Shape{1, 5});
        CHECK(static_cast<void*>(y.data()) == b.data_ptr());
        for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 4; ++j) CHECK(at2(y, i, j) == b[i][j].item<double>());
        y.data()[2 * y.stride(0) + 3 * y.stride(1)] = val<T>(99); // y(2, 3) = base(3, 3)
        CHECK(base[3][3].item<double>() == 99);
        b[0][0].fill_(55); // torch writes: y(0, 0)
        CHECK(at2(y, 0, 0) == 55);
        t7::Tensor<T> view = y.select(1, 2); // a view outlives y
        y.set(t7::Tensor<T>());
        CHECK(b.storage().use_count() == n0 + 1);
        CHECK(num(view.data()[view.stride(0)]) == b[1][2].item<double>());
    } // the last tensor7 handle called torch's deleter, once
    CHECK(b.storage().use_count() == n0);
}

TEST_CASE("a torch scalar comes in as one element; a mismatch leaves torch's tensor undeleted") {
    at::Tensor s = at::scalar_tensor(5.0, at::TensorOptions().dtype(at::kDouble));
    {
        t7::DoubleTensor y = t7::fromDLPack<double>(at::toDLPack(s));
        CHECK(y.sizes() == t7::Shape{1});
        CHECK(y.data()[0] == 5);
        CHECK(s.storage().use_count() == 2);
    }
    CHECK(s.storage().use_count() == 1);

    DLManagedTensor* m = at::toDLPack(s);
    CHECK_THROWS_AS(t7::fromDLPack<float>(m), t7::TypeError);
    m->dl_tensor.device.device_type = kDLCUDA; // as a CUDA tensor's: not a CPU tensor's
    CHECK_THROWS_AS(t7::fromDLPack<double>(m), t7::DeviceError);
    m->dl_tensor.device.device_type = kDLCPU;
    CHECK(s.storage().use_count() == 2); // still held by m, which is ours to delete
    m->deleter(m);
    CHECK(s.storage().use_count() == 1);
}

TEST_CASE("tensor7 -> torch -> tensor7 -> torch: one memory, every deleter once") {
    t7::DoubleTensor x(2, 3);
    for (int64_t i = 0; i < 6; ++i) x.data()[i] = double(i);
    {
        at::Tensor a = at::fromDLPack(t7::toDLPack(x.t()));
        t7::DoubleTensor y = t7::fromDLPack<double>(at::toDLPack(a));
        at::Tensor c = at::fromDLPack(t7::toDLPack(y));
        c[2][1].fill_(-1); // x(1, 2)
        CHECK(x.data()[5] == -1);
        CHECK(a[2][1].item<double>() == -1);
        CHECK(x.storage().use_count() == 2);
    }
    CHECK(x.storage().use_count() == 1);
}

// Complex elements (issue 42): kDLComplex 64 and 128 are torch's ComplexFloat and
// ComplexDouble, both ways, the parts in place.
TEST_CASE_TEMPLATE("complex tensors both ways through libtorch", Z, std::complex<float>,
                   std::complex<double>) {
    const at::ScalarType type =
        std::is_same_v<Z, std::complex<float>> ? at::kComplexFloat : at::kComplexDouble;
    t7::Tensor<Z> x(2, 3);
    for (int64_t i = 0; i < 6; ++i) x.data()[i] = Z(float(i), -float(i) / 2);
    {
        at::Tensor a = at::fromDLPack(t7::toDLPack(x.t()));
        CHECK(bool(a.scalar_type() == type));
        CHECK(bool(a.strides() == at::IntArrayRef({1, 3})));
        const auto v = a[2][1].item<c10::complex<double>>(); // x(1, 2) = 5 - 2.5i
        CHECK(v.real() == 5);
        CHECK(v.imag() == -2.5);
        a[0][1].fill_(c10::complex<double>(7, 8)); // x(1, 0)
        CHECK(x.data()[3] == Z(7, 8));
    }
    at::Tensor b = at::zeros({3, 2}, at::TensorOptions().dtype(type));
    {
        t7::Tensor<Z> y = t7::fromDLPack<Z>(at::toDLPack(b.t()));
        CHECK(y.sizes() == t7::Shape{2, 3});
        y.data()[1 * y.stride(0) + 2 * y.stride(1)] = Z(-1, 4); // y(1, 2) = b(2, 1)
        const auto v = b[2][1].item<c10::complex<double>>();
        CHECK(v.real() == -1);
        CHECK(v.imag() == 4);
        // torch's complex tensor is no real type's
        DLManagedTensor* m = at::toDLPack(b);
        CHECK_THROWS_AS(t7::fromDLPack<typename Z::value_type>(m), t7::TypeError);
        m->deleter(m);
    }
}
