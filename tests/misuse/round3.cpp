// Misuse, round 3 (issue 44): DLPack's lifetimes and fields as a hostile or
// newer producer sets them (a resize under an export, misaligned data, device
// types past the header's enum, huge strides on size-1 dimensions, an empty
// shape whose other sizes overflow), and products whose result int64 cannot
// count (mm, tensordot). The irecv case is in tests/test_mpi.cpp (mpirun).
#include "../test_util.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#if __has_include(<dlpack/dlpack.h>)
#include <t7/dlpack.hpp>
#define T7_MISUSE_DLPACK 1
#endif

using namespace test_util;
using t7::FloatTensor;

namespace {

constexpr int64_t big = std::numeric_limits<int64_t>::max();

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

#ifdef T7_MISUSE_DLPACK
// A producer's DLManagedTensor over `data`, whose deleter counts its calls.
struct Producer {
    int64_t shape[3] = {0, 0, 0};
    int64_t strides[3] = {1, 1, 1};
    int deleted = 0;
    DLManagedTensor m{};

    Producer(void* data, int ndim, bool with_strides) {
        m.dl_tensor.data = data;
        m.dl_tensor.device = DLDevice{kDLCPU, 0};
        m.dl_tensor.ndim = ndim;
        m.dl_tensor.dtype = DLDataType{uint8_t(kDLFloat), 32, 1};
        m.dl_tensor.shape = shape;
        m.dl_tensor.strides = with_strides ? strides : nullptr;
        m.manager_ctx = this;
        m.deleter = [](DLManagedTensor* self) {
            ++static_cast<Producer*>(self->manager_ctx)->deleted;
        };
    }
};
#endif

} // namespace

#ifdef T7_MISUSE_DLPACK
TEST_CASE("a storage lent through toDLPack does not move until the deleter runs") {
    FloatTensor x(4);
    fill_seq(x); // 1 2 3 4
    DLManagedTensor* m = t7::toDLPack(x);
    const float* lent = static_cast<const float*>(m->dl_tensor.data);
    // Growing x would free the block the consumer reads: refused, x unchanged.
    const std::string msg = message_of<t7::ShapeError>([&] { x.resize(1000); });
    CHECK(msg.rfind("resize:", 0) == 0);
    CHECK(has(msg, "size 4 to 1000"));
    CHECK(has(msg, "DLPack"));
    CHECK(x.sizes() == Shape{4});
    CHECK(x.data() == lent);
    // So is any other handle's resize of that storage, and a view's export pins it too.
    t7::Storage<float> s = x.storage();
    CHECK(has(message_of<t7::ShapeError>([&] { s.resize(8); }), "Storage::resize"));
    FloatTensor y = x.narrow(0, 1, 2);
    DLManagedTensor* m2 = t7::toDLPack(y);
    m->deleter(m);
    CHECK_THROWS_AS(x.resize(1000), t7::ShapeError); // m2 still holds it
    for (int i = 0; i < 4; ++i) CHECK(lent[i] == float(i + 1));
    m2->deleter(m2);
    // Once every deleter has run, the storage may move again.
    x.resize(1000);
    CHECK(x.size(0) == 1000);
    CHECK(values(x.narrow(0, 0, 4)) == Values{1, 2, 3, 4});
    // An empty tensor's export lends no memory: nothing to pin.
    FloatTensor e;
    DLManagedTensor* me = t7::toDLPack(e);
    e.resize(3);
    CHECK(e.size(0) == 3);
    me->deleter(me);
}

TEST_CASE("fromDLPack refuses a data pointer not aligned for its type") {
    alignas(float) unsigned char raw[5 * sizeof(float)] = {};
    Producer p(raw + 1, 1, false);
    p.shape[0] = 4;
    const std::string msg = message_of<t7::Error>([&] { (void)t7::fromDLPack<float>(&p.m); });
    CHECK(msg.rfind("fromDLPack:", 0) == 0);
    CHECK(has(msg, "not aligned to 4 bytes"));
    CHECK(p.deleted == 0); // still the caller's
}

TEST_CASE("fromDLPack reads a device type past the header's enum as a number") {
    float v[2] = {1, 2};
    Producer p(v, 1, false);
    p.shape[0] = 2;
    const int32_t newer = 16; // kDLHexagon in DLPack 0.8; the 0.6 enum ends at 12
    std::memcpy(&p.m.dl_tensor.device.device_type, &newer, sizeof newer);
    const std::string msg = message_of<t7::DeviceError>([&] { (void)t7::fromDLPack<float>(&p.m); });
    CHECK(has(msg, "another device (device type 16)"));
    CHECK(p.deleted == 0);
}

TEST_CASE("fromDLPack of an empty shape whose other sizes overflow, strides null") {
    float v[1] = {0};
    Producer p(v, 3, false);
    p.shape[0] = 0;
    p.shape[1] = p.shape[2] = int64_t(1) << 62;
    {
        const FloatTensor y = t7::fromDLPack<float>(&p.m);
        CHECK(y.sizes() == (t7::Shape{0, int64_t(1) << 62, int64_t(1) << 62})); // kept
        CHECK(p.deleted == 0);
    }
    CHECK(p.deleted == 1);
}

TEST_CASE("diagonal of size-1 dimensions with strides near INT64_MAX (a DLPack producer's)") {
    float v[3] = {5, 6, 7};
    Producer p(v, 3, true);
    p.shape[0] = 3;
    p.shape[1] = p.shape[2] = 1;
    p.strides[0] = 1;
    p.strides[1] = big;
    p.strides[2] = big - 1;
    const FloatTensor x = t7::fromDLPack<float>(&p.m);
    const FloatTensor d = x.diagonal(0, 1, 2); // 3 x 1
    CHECK(d.sizes() == Shape{3, 1});
    CHECK(d.stride(1) >= 0); // tensor7 strides are non-negative
    CHECK(values(d) == Values{5, 6, 7});
    // 2^62 + 2^62 is INT64_MIN as a wrapped sum.
    const FloatTensor q(x.storage(), 1, Shape{1, 1}, Shape{int64_t(1) << 62, int64_t(1) << 62});
    CHECK(q.diagonal().stride(0) >= 0);
    CHECK(values(q.diagonal()) == Values{6});
}
#endif

TEST_CASE("mm and tensordot whose result int64 cannot count name themselves and the sizes") {
    FloatTensor one(1, 1);
    one.fill(2.f);
    const int64_t n = int64_t(1) << 32; // n * n = 2^64 elements
    const FloatTensor a = one.expand(n, 1), b = one.expand(1, n);
    std::string msg = message_of<t7::ShapeError>([&] { (void)t7::mm(a, b); });
    CHECK(msg.rfind("mm:", 0) == 0);
    CHECK(has(msg, "4294967296x1 and 1x4294967296"));
    CHECK(has(msg, "size 4294967296x4294967296"));
    CHECK(message_of<t7::ShapeError>([&] { (void)t7::matmul(a, b); }).rfind("matmul:", 0) == 0);
    FloatTensor c(2, 2);
    c.fill(-1.f);
    CHECK_THROWS_AS(t7::addmm(c, a, b), t7::ShapeError);
    CHECK(values(c) == Values{-1, -1, -1, -1});

    const FloatTensor u = one.view(1).expand(n), w = one.view(1).expand(n);
    msg = message_of<t7::ShapeError>([&] { (void)t7::tensordot(u, w, 0); });
    CHECK(msg.rfind("tensordot:", 0) == 0);
    CHECK(has(msg, "4294967296 and 4294967296"));
    CHECK(has(msg, "size 4294967296x4294967296"));
}
