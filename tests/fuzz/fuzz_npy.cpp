// libFuzzer target for the .npy reader (io/npy.hpp): any bytes, read as each of the
// seven element types, either fail with t7::IOError / t7::TypeError or give a
// contiguous tensor that writes and reads back to the same elements and bytes.
// Build and run: tests/fuzz/README.md.
#include <t7/io/npy.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

template <class T>
void check(std::string_view bytes) {
    t7::Tensor<T> t;
    try {
        t = t7::fromNpy<T>(bytes, "fuzz");
    } catch (const t7::IOError&) {
        return;
    } catch (const t7::TypeError&) {
        return;
    }
    if (t.dim() > 0 && (!t.isContiguous() || t.storage().size() < t.nElement())) std::abort();
    std::string once = t7::toNpy(t);
    t7::Tensor<T> r = t7::fromNpy<T>(once, "fuzz (rewritten)");
    if (!(r.sizes() == t.sizes())) std::abort();
    if (t.nElement() && std::memcmp(r.data(), t.data(), size_t(t.nElement()) * sizeof(T)) != 0)
        std::abort();
    if (t7::toNpy(r) != once) std::abort();
}

} // namespace

// No caching of freed storages: every free reaches AddressSanitizer.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    t7::HostAllocator::instance().set_cache_limit(0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check<uint8_t>(bytes);
    check<int8_t>(bytes);
    check<int16_t>(bytes);
    check<int32_t>(bytes);
    check<int64_t>(bytes);
    check<float>(bytes);
    check<double>(bytes);
    return 0;
}
