// DLPack on CUDA tensors (<t7/dlpack.hpp>): kDLCUDA with the device id, round
// trips without copies, writes through either side, deleters once, and the
// device mismatches that leave the managed tensor to the caller. Written once,
// compiled twice (tests/meson.build): by the host compiler with Thrust's host
// system and the library's sources built the same way (test_dlpack_thrust_host:
// CUDA storages are host memory on emulated devices, so the CUDA path runs on
// the CPU), and by nvcc against tensor7_cuda (in test_cuda, on a GPU).
// Device memory is only read or written through the library (cuda()/cpu(),
// fill, copy), never dereferenced here.
#pragma once

#include "cuda_test_util.hpp"

#include <t7/dlpack.hpp>

namespace dlpack_cuda_tests {

using namespace cuda_tests;

// Read through the strides (an nvcc translation unit has no CPU evaluator for
// contiguous()).
template <class T>
std::vector<double> host_values(const HostT<T>& t) {
    return values(t);
}

TEST_CASE_TEMPLATE("dlpack cuda: toDLPack and fromDLPack keep device memory, strides, dtype", T,
                   uint8_t, int8_t, int16_t, int32_t, int64_t, float, double, Half) {
    const HostT<T> x = host<T>({3, 4}, [](int64_t i) { return double(i + 1); });
    const DevT<T> g = x.cuda();
    const DevT<T> v = g.t().narrow(0, 1, 3); // 3 x 3, strides {1, 4}, offset 1
    DLManagedTensor* m = t7::toDLPack(v);
    const DLTensor& t = m->dl_tensor;
    CHECK(t.device.device_type == kDLCUDA);
    CHECK(t.device.device_id == g.getDevice());
    CHECK(t.data == static_cast<void*>(v.data()));
    CHECK(t.byte_offset == 0);
    CHECK(t.dtype.bits == sizeof(T) * 8);
    CHECK(t.dtype.lanes == 1);
    REQUIRE(t.ndim == 2);
    CHECK(t.shape[0] == 3);
    CHECK(t.shape[1] == 3);
    CHECK(t.strides[0] == 1);
    CHECK(t.strides[1] == 4);
    CHECK(g.storage().use_count() == 3); // g, v, the managed tensor

    // A CPU tensor refuses device memory, and leaves m to us.
    CHECK_THROWS_AS(t7::fromDLPack<T>(m), t7::DeviceError);
    CHECK(g.storage().use_count() == 3);
    {
        DevT<T> y = t7::fromDLPack<T, t7::CUDA>(m);
        CHECK_FALSE(y.ownsStorage());
        CHECK(y.getDevice() == g.getDevice());
        CHECK(y.data() == v.data());
        CHECK(y.sizes() == v.sizes());
        CHECK(y.strides() == v.strides());
        CHECK(host_values(y.cpu()) == host_values(v.cpu()));
        y.select(0, 2).fill(t7::convert<T>(100)); // v(2, :) is x(:, 3)
        const HostT<T> back = g.cpu();
        CHECK(double(float(back.data()[0 * 4 + 3])) == 100);
        CHECK(double(float(back.data()[2 * 4 + 3])) == 100);
        CHECK(double(float(back.data()[2 * 4 + 2])) == 11); // outside the row
    }                                                       // y's last handle called m's deleter
    CHECK(g.storage().use_count() == 2);
}

TEST_CASE("dlpack cuda: a device id other than 0, and a foreign managed tensor's deleter") {
    const int dev = two_devices() ? 1 : 0;
    DevT<float> g = host<float>({4}, [](int64_t i) { return double(i); }).cuda(dev);
    REQUIRE(g.getDevice() == dev);
    static int deleted = 0;
    deleted = 0;
    struct Foreign {
        DLManagedTensor m{};
        int64_t shape[1] = {4};
        DevT<float> keep; // the memory's owner on the foreign side
    };
    auto* f = new Foreign{{}, {4}, g};
    f->m.dl_tensor = DLTensor{g.data(), {kDLCUDA, dev}, 1, t7::detail::dlpack_dtype<float>(),
                              f->shape, nullptr,        0};
    f->m.manager_ctx = f;
    f->m.deleter = [](DLManagedTensor* self) {
        ++deleted;
        delete static_cast<Foreign*>(self->manager_ctx);
    };
    f->m.dl_tensor.device.device_type = kDLCPU; // refused by a CUDA tensor, not deleted
    CHECK_THROWS_AS((t7::fromDLPack<float, t7::CUDA>(&f->m)), t7::DeviceError);
    f->m.dl_tensor.device.device_type = kDLCUDA;
    CHECK_THROWS_AS((t7::fromDLPack<double, t7::CUDA>(&f->m)), t7::TypeError);
    CHECK(deleted == 0);
    {
        DevT<float> y = t7::fromDLPack<float, t7::CUDA>(&f->m);
        CHECK(y.getDevice() == dev);
        CHECK(y.strides() == Shape{1});
        y.fill(7.0f);
        CHECK(host_values(g.cpu()) == std::vector<double>{7, 7, 7, 7});
        DevT<float> view = y.narrow(0, 1, 2);
        y.set(DevT<float>());
        CHECK(deleted == 0);
    }
    CHECK(deleted == 1);
}

} // namespace dlpack_cuda_tests
